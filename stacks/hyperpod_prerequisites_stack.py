"""What HyperPod nodes need on the cluster before the HyperPod cluster is created."""

from __future__ import annotations

from pathlib import Path

import aws_cdk as cdk
from aws_cdk import aws_eks_v2 as eks
from aws_cdk import aws_s3_assets as s3_assets
from constructs import Construct

from cdk_constructs.gpu_device_plugins import GpuDevicePlugins
from deployment_config.model import EnvironmentConfig

#: HyperPod taints nodes while their health checks run; everything that must run on them tolerates it.
HEALTH_TAINT = {
    "key": "sagemaker.amazonaws.com/node-health-status",
    "operator": "Equal",
    "value": "Unschedulable",
    "effect": "NoSchedule",
}
INSTANCE_TYPE_LABEL = "node.kubernetes.io/instance-type"
#: The subcharts of the HyperPod dependencies chart this project installs by default (see VENDORED.json there).
VENDORED_DEPENDENCIES_CHART = (
    Path(__file__).resolve().parent / "data" / "hyperpod_dependencies_chart"
)
#: Components of the upstream HyperPod dependencies chart this app installs itself, or does not need for serving.
DEPENDENCIES_CHART_OVERRIDES = {
    "nvidia-device-plugin": {"devicePlugin": {"enabled": False}},
    "aws-efa-k8s-device-plugin": {"devicePlugin": {"enabled": False}},
    "neuron-device-plugin": {"devicePlugin": {"enabled": False}},
    "trainingOperators": {"enabled": False},
    "mpi-operator": {"enabled": False},
    # installed as EKS add-ons by the operator stack
    "cert-manager": {"enabled": False},
    "inferenceOperators": {"enabled": False},
    "health-monitoring-agent": {"enabled": True},
    "deep-health-check": {"enabled": True},
}


class HyperPodPrerequisitesStack(cdk.Stack):
    """What HyperPod nodes need before the HyperPod cluster is created (SageMaker developer guide, "Install packages
    on the Amazon EKS cluster using Helm": the dependencies chart is required, not optional): the GPU and EFA device
    plugins, and the HyperPod dependencies chart with the health monitoring agent.

    The chart is not published to a Helm repository; AWS installs it from a clone of aws/sagemaker-hyperpod-cli. This
    project carries the subcharts it needs, byte for byte at a pinned commit
    (``stacks/data/hyperpod_dependencies_chart``, checked by the tests), and uploads them as a CDK asset at deploy
    time: synthesis stays offline and nothing is left to install by hand. ``hyperpod.dependencies_chart_dir``
    installs a local copy of the whole upstream chart instead.
    """

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        env_config: EnvironmentConfig,
        cluster: eks.ICluster,
        **kwargs,
    ) -> None:
        super().__init__(scope, id, **kwargs)
        hyperpod = env_config.hyperpod
        self.device_plugins = GpuDevicePlugins(
            self,
            "DevicePlugins",
            cluster=cluster,
            gpu_instance_type=hyperpod.instance_type,
            node_selector={INSTANCE_TYPE_LABEL: hyperpod.instance_type},
            tolerations=[
                HEALTH_TAINT,
                {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"},
            ],
        )
        local_copy = hyperpod.dependencies_chart_dir
        values = {"global": {"region": env_config.region}}
        if local_copy:
            # The whole upstream chart: switch off what this project installs itself or what serving does not use.
            values.update(DEPENDENCIES_CHART_OVERRIDES)
        chart = s3_assets.Asset(
            self, "DependenciesChartAsset", path=local_copy or str(VENDORED_DEPENDENCIES_CHART)
        )
        self.dependencies_chart = eks.HelmChart(
            self,
            "DependenciesChart",
            cluster=cluster,
            chart_asset=chart,
            release="hyperpod-dependencies",
            namespace="kube-system",
            values=values,
        )
