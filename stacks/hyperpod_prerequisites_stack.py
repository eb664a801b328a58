"""What HyperPod nodes need on the cluster before the HyperPod cluster is created."""

from __future__ import annotations

import aws_cdk as cdk
from aws_cdk import aws_eks_v2 as eks
from aws_cdk import aws_s3_assets as s3_assets
from constructs import Construct

from cdk_constructs.gpu_device_plugins import GpuDevicePlugins
from deployment_config.model import EnvironmentConfig

#: HyperPod taints nodes while their health checks run; everything that must run on them tolerates it.
HEALTH_TAINT = {"key": "sagemaker.amazonaws.com/node-health-status", "operator": "Equal", "value": "Unschedulable",
                "effect": "NoSchedule"}
INSTANCE_TYPE_LABEL = "node.kubernetes.io/instance-type"
#: Components of the HyperPod dependencies chart this app installs itself, or does not need for serving.
DEPENDENCIES_CHART_OVERRIDES = {
    "nvidia-device-plugin": {"devicePlugin": {"enabled": False}},
    "aws-efa-k8s-device-plugin": {"devicePlugin": {"enabled": False}},
    "neuron-device-plugin": {"devicePlugin": {"enabled": False}},
    "trainingOperators": {"enabled": False},
    "mpi-operator": {"enabled": False},
    "kuberay": {"enabled": False},
    "health-monitoring-agent": {"enabled": True},
    "deep-health-check": {"enabled": True},
}


class HyperPodPrerequisitesStack(cdk.Stack):
    """GPU and EFA device plugins for HyperPod nodes, and (from a local copy) the HyperPod dependencies chart
    with the health monitoring agent."""

    def __init__(self, scope: Construct, id: str, *, env_config: EnvironmentConfig, cluster: eks.ICluster,
                 **kwargs) -> None:
        super().__init__(scope, id, **kwargs)
        hyperpod = env_config.hyperpod
        self.device_plugins = GpuDevicePlugins(
            self, "DevicePlugins", cluster=cluster, gpu_instance_type=hyperpod.instance_type,
            node_selector={INSTANCE_TYPE_LABEL: hyperpod.instance_type},
            tolerations=[HEALTH_TAINT, {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}],
        )
        self.dependencies_chart = None
        if hyperpod.dependencies_chart_dir:
            chart = s3_assets.Asset(self, "DependenciesChartAsset", path=hyperpod.dependencies_chart_dir)
            self.dependencies_chart = eks.HelmChart(
                self, "DependenciesChart", cluster=cluster, chart_asset=chart, release="hyperpod-dependencies",
                namespace="kube-system",
                values={"global": {"region": env_config.region}, **DEPENDENCIES_CHART_OVERRIDES},
            )
        else:
            cdk.Annotations.of(self).add_warning_v2(
                "llm-serving:hyperpod-dependencies-chart",
                "hyperpod.dependencies_chart_dir is not set: install the HyperPod dependencies chart "
                "(health monitoring agent) yourself before deploying the HyperPod cluster stack, or set it to a local "
                "copy of helm_chart/HyperPodHelmChart from aws/sagemaker-hyperpod-cli",
            )
