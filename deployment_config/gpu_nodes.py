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
#: libfabric and NCCL settings for a model instance spread over nodes, which talk over EFA; a single-node server talks
#: NVLink only and gets none of them. FI_PROVIDER=efa makes libfabric (and so the aws-ofi-nccl plugin NCCL loads) use the
#: EFA provider and fail rather than fall back to TCP; FI_EFA_USE_DEVICE_RDMA=1 uses the NIC's RDMA read on the
#: instance types that have it (P5, P6); FI_EFA_FORK_SAFE=1 because vLLM forks its GPU worker processes after libfabric
#: may have registered memory. The set used by AWS's own EKS GPU examples (aws-samples/awsome-distributed-training
#: @7217859 3.test_cases/pytorch/verl/kubernetes/rlvr/Dockerfile, "EFA/NCCL configuration"; and
#: 1.architectures/3.aws-batch/aws-batch-distributed-training-p6.yaml, the NCCL tests on P6: FI_PROVIDER=efa
#: FI_EFA_USE_DEVICE_RDMA=1 FI_EFA_FORK_SAFE=1). They take effect only in an image that carries libfabric and
#: aws-ofi-nccl (docs/configure.md, "Multi-node models": the image).
EFA_ENVIRONMENT = MappingProxyType(
    {"FI_PROVIDER": "efa", "FI_EFA_USE_DEVICE_RDMA": "1", "FI_EFA_FORK_SAFE": "1"}
)
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


#: The Capacity Block node groups' names: the current Capacity Block's, and capacity.next_capacity_reservation_id's beside it
#: (docs/capacity.md, "Serve across blocks"). The stacks create them with these names; llmops reads them by name.
GPU_NODEGROUP = "gpu-capacity-block"
NEXT_GPU_NODEGROUP = "gpu-capacity-block-next"
#: The bridge's on-demand node group (the bridge section, docs/stay-up.md; cdk_constructs/bridge_node_group.py).
BRIDGE_GPU_NODEGROUP = "gpu-bridge"

#: At a Capacity Block's end: "Amazon EC2 starts shutting down the instances 30 minutes before reservation end time.
#: As a result, Amazon EKS will setup a scheduled scale down on the node group 40 minutes prior to their reservation end"
#: (EKS user guide, capacity-blocks-mng.adoc at awsdocs/amazon-eks-user-guide@2ef9e38; EC2 Auto Scaling user guide,
#: launch-template-capacity-blocks). bench/timeline.py and ops_cli/handover.py read them here.
EKS_SCALE_IN_BEFORE_END_MINUTES = 40
EC2_SHUTDOWN_BEFORE_END_MINUTES = 30
