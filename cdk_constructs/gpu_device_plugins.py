"""The NVIDIA and EFA device plugins, from their official Helm charts, on the GPU nodes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from aws_cdk import aws_eks_v2 as eks
from constructs import Construct

NVIDIA_DEVICE_PLUGIN_REPOSITORY = "https://nvidia.github.io/k8s-device-plugin"
NVIDIA_DEVICE_PLUGIN_VERSION = "0.18.0"
EFA_DEVICE_PLUGIN_REPOSITORY = "https://aws.github.io/eks-charts"
EFA_DEVICE_PLUGIN_VERSION = "0.5.10"


class GpuDevicePlugins(Construct):
    """Installs both device plugins so the kubelet advertises ``nvidia.com/gpu`` and ``vpc.amazonaws.com/efa``.

    :param cluster: the cluster to install into (needs a kubectl provider).
    :param gpu_instance_type: the GPU instance type as the nodes' ``node.kubernetes.io/instance-type`` label shows it
        (``ml.``-prefixed on HyperPod); the EFA chart only schedules on types in its list.
    :param node_selector: labels of the GPU nodes the plugins run on.
    :param tolerations: Kubernetes tolerations for the GPU nodes' taints.
    """

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        cluster: eks.ICluster,
        gpu_instance_type: str,
        node_selector: Mapping[str, str],
        tolerations: Sequence[Mapping[str, str]],
    ) -> None:
        super().__init__(scope, id)
        if not node_selector:
            raise ValueError("node_selector must name at least one label of the GPU nodes")
        tolerations = [dict(t) for t in tolerations]
        # The NVIDIA chart's default affinity wants Node Feature Discovery labels, which EKS nodes lack;
        # Helm replaces lists, so these terms take the place of the chart's.
        affinity = {
            "nodeAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": {
                    "nodeSelectorTerms": [
                        {
                            "matchExpressions": [
                                {"key": k, "operator": "In", "values": [v]}
                                for k, v in node_selector.items()
                            ]
                        }
                    ]
                }
            }
        }
        self.nvidia = eks.HelmChart(
            self,
            "Nvidia",
            cluster=cluster,
            chart="nvidia-device-plugin",
            release="nvidia-device-plugin",
            repository=NVIDIA_DEVICE_PLUGIN_REPOSITORY,
            version=NVIDIA_DEVICE_PLUGIN_VERSION,
            namespace="kube-system",
            values={"affinity": affinity, "tolerations": tolerations},
        )
        self.efa = eks.HelmChart(
            self,
            "Efa",
            cluster=cluster,
            chart="aws-efa-k8s-device-plugin",
            release="aws-efa-k8s-device-plugin",
            repository=EFA_DEVICE_PLUGIN_REPOSITORY,
            version=EFA_DEVICE_PLUGIN_VERSION,
            namespace="kube-system",
            values={
                "nodeSelector": dict(node_selector),
                "tolerations": tolerations,
                # The chart's built-in list of EFA instance types may predate this one.
                "supportedInstanceLabels": {
                    "keys": ["node.kubernetes.io/instance-type"],
                    "values": [gpu_instance_type],
                },
            },
        )
