"""How GPU nodes are marked, shared by the node group that sets it and the workloads that select it."""

from types import MappingProxyType

#: Label on every GPU node of the Capacity Block node group; workloads select on it.
GPU_NODE_LABELS = MappingProxyType({"llm-serving/node-role": "gpu-inference"})
#: Taint that keeps everything but GPU workloads (and the device plugins) off the GPU nodes.
GPU_TAINT_KEY = "nvidia.com/gpu"
GPU_TAINT_VALUE = "present"
GPU_TAINT_EFFECT = "NoSchedule"
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
