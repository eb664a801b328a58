"""How GPU nodes are marked, shared by the node group that sets it and the workloads that select it."""

from types import MappingProxyType

#: Label on every GPU node of the Capacity Block node group; workloads select on it.
GPU_NODE_LABELS = MappingProxyType({"llm-serving/node-role": "gpu-inference"})
#: Taint that keeps everything but GPU workloads (and the device plugins) off the GPU nodes.
GPU_TAINT_KEY = "nvidia.com/gpu"
GPU_TAINT_VALUE = "present"
GPU_TAINT_EFFECT = "NoSchedule"
#: The GPU nodes' root volume (gp3, GiB; the launch template's): the vLLM image alone is over 20 GB; the model cache is on
#: the NVMe array, not here. bench/running_resources.py and llmops cost count it.
GPU_ROOT_VOLUME_GIB = 200
#: Where nodeadm mounts the RAID0 array it builds from the instance-store NVMe disks.
NVME_RAID_MOUNT = "/mnt/k8s-disks/0"
#: The model cache on that array; survives pod restarts on the same node.
MODEL_CACHE_HOST_PATH = f"{NVME_RAID_MOUNT}/model-cache"


def gpu_node_toleration() -> dict:
    """The toleration of the GPU nodes' taint, for add-ons whose pods must run there too."""
    return {
        "key": GPU_TAINT_KEY,
        "operator": "Equal",
        "value": GPU_TAINT_VALUE,
        "effect": GPU_TAINT_EFFECT,
    }


#: The GPU node groups' names: the current Capacity Block's, and capacity.next_capacity_reservation_id's beside it
#: (docs/capacity.md, "Serve across blocks"). The stacks create them with these names; llmops reads them by name.
GPU_NODEGROUP = "gpu-capacity-block"
NEXT_GPU_NODEGROUP = "gpu-capacity-block-next"

#: At a Capacity Block's end: "Amazon EC2 starts shutting down the instances 30 minutes before reservation end time.
#: As a result, Amazon EKS will setup a scheduled scale down on the node group 40 minutes prior to their reservation end"
#: (EKS user guide, capacity-blocks-mng.adoc at awsdocs/amazon-eks-user-guide@2ef9e38; EC2 Auto Scaling user guide,
#: launch-template-capacity-blocks). bench/timeline.py and ops_cli/handover.py read them here.
EKS_SCALE_IN_BEFORE_END_MINUTES = 40
EC2_SHUTDOWN_BEFORE_END_MINUTES = 30
