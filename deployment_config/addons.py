"""The EKS add-ons each platform installs, with the versions and configuration the project relies on.

Kept free of CDK imports: the stacks install exactly these, and ``llmops preflight`` asks the account
(``eks:DescribeAddonVersions``, ``eks:DescribeAddonConfiguration``) whether each pinned version exists for the cluster's
Kubernetes version and whether the configuration validates against the add-on's own JSON schema. Which of them one
environment installs is :mod:`deployment_config.environment_addons`; where the observability add-ons' logs and metrics
are found, :mod:`deployment_config.addon_outputs`. Messages of ``llmops preflight`` send the reader here to change a
pin or a configuration: both stay in this module.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from deployment_config.operator_releases import PINNED_OPERATOR

#: AWS's Helm-to-add-on migration script for the Inference Operator: the add-on set, versions, configuration keys and
#: service accounts below are what it writes (aws/sagemaker-hyperpod-cli @ 011ca927,
#: helm_chart/HyperPodHelmChart/charts/inference-operator/migration/helm_to_addon.sh, lines 752-1037).
MIGRATION_SCRIPT = (
    "aws/sagemaker-hyperpod-cli@011ca927 "
    "helm_chart/HyperPodHelmChart/charts/inference-operator/migration/helm_to_addon.sh"
)
#: EKS add-ons a cluster needs before nodes join (EKS user guide, "Amazon EKS add-ons"); HyperPod documents the same set
#: as its prerequisites, with an OIDC provider.
EKS_ADDONS_GUIDE = "https://docs.aws.amazon.com/eks/latest/userguide/eks-add-ons.html"


@dataclass(frozen=True)
class AddonPin:
    """One EKS add-on as the project installs it.

    :param name: the add-on name.
    :param version: the pinned version; None installs EKS's default for the cluster's Kubernetes version.
    :param source: where the version and the configuration come from.
    :param service_account: (namespace, name) of the service account whose IAM role the add-on takes (IRSA), if any.
    """

    name: str
    version: str | None
    source: str
    service_account: tuple[str, str] | None = None


VPC_CNI = AddonPin("vpc-cni", None, EKS_ADDONS_GUIDE)
#: Configuration values of the vpc-cni EKS add-on. Kubernetes NetworkPolicy (the chart's ingress policy) is enforced
#: only when the add-on's network policy agent is on: EKS user guide, "Restrict Pod network traffic with Kubernetes
#: network policies", step 2 "Enable the network policy parameter for the add-on": the configuration value
#: `{"enableNetworkPolicy": "true"}`, a string (awsdocs/amazon-eks-user-guide@4d52b4d,
#: latest/ug/networking/eks-networking-add-ons.adoc). The add-on's schema is its Helm chart's values:
#: aws/amazon-vpc-cni-k8s@b521883 charts/aws-vpc-cni/values.yaml has `enableNetworkPolicy: "false"` (a string), which
#: the chart passes to the node agent (`--enable-network-policy`, templates/daemonset.yaml) and to the amazon-vpc-cni
#: ConfigMap (`enable-network-policy-controller`, templates/configmap.yaml). Needs vpc-cni 1.14 or later and a 5.10
#: kernel (same guide, prerequisites; AL2023 has it). Read-only: pass ``dict(VPC_CNI_CONFIGURATION)`` for a dict.
VPC_CNI_CONFIGURATION: Mapping[str, str] = MappingProxyType({"enableNetworkPolicy": "true"})
KUBE_PROXY = AddonPin("kube-proxy", None, EKS_ADDONS_GUIDE)
POD_IDENTITY_AGENT = AddonPin("eks-pod-identity-agent", None, EKS_ADDONS_GUIDE)
COREDNS = AddonPin("coredns", None, EKS_ADDONS_GUIDE)
#: Installed before the system nodes (which only turn Ready with the CNI); coredns after them.
NETWORK_ADDONS = (VPC_CNI, KUBE_PROXY, POD_IDENTITY_AGENT)

#: The newest build whose operator version a public source names: operator 3.1 (deployment_config/operator_releases.py),
#: the version the endpoint is written for and the tests validate against (its CRD in charts/imports/crds/). Its
#: configuration keys are the migration script's.
INFERENCE_OPERATOR = AddonPin(
    "amazon-sagemaker-hyperpod-inference",
    PINNED_OPERATOR.addon_version,
    f"{PINNED_OPERATOR.sources[0]}; configuration: {MIGRATION_SCRIPT}",
)
CERT_MANAGER = AddonPin("cert-manager", "v1.18.2-eksbuild.2", MIGRATION_SCRIPT)
METRICS_SERVER = AddonPin("metrics-server", "v0.7.2-eksbuild.4", MIGRATION_SCRIPT)
S3_CSI_DRIVER = AddonPin(
    "aws-mountpoint-s3-csi-driver",
    "v1.14.1-eksbuild.1",
    MIGRATION_SCRIPT,
    ("kube-system", "s3-csi-driver-sa"),
)
FSX_CSI_DRIVER = AddonPin(
    "aws-fsx-csi-driver",
    "v1.6.0-eksbuild.1",
    MIGRATION_SCRIPT,
    ("kube-system", "fsx-csi-controller-sa"),
)
#: What the operator requires before it starts, in install order: its init container exits unless the CSIDrivers
#: s3.csi.aws.com and fsx.csi.aws.com and the cert-manager CRDs exist (aws/sagemaker-hyperpod-cli@011ca927
#: helm_chart/HyperPodHelmChart/charts/inference-operator/config/manager/manager.yaml, init container
#: check-csi-drivers).
OPERATOR_DEPENDENCIES = (CERT_MANAGER, METRICS_SERVER, S3_CSI_DRIVER, FSX_CSI_DRIVER)

#: Namespace of the operator's controllers, and the service accounts its roles trust (MIGRATION_SCRIPT).
OPERATOR_NAMESPACE = "hyperpod-inference-system"
OPERATOR_SERVICE_ACCOUNT = (OPERATOR_NAMESPACE, "hyperpod-inference-controller-manager")
LOAD_BALANCER_CONTROLLER_SERVICE_ACCOUNT = (OPERATOR_NAMESPACE, "aws-load-balancer-controller")
KEDA_SERVICE_ACCOUNT = (OPERATOR_NAMESPACE, "keda-operator")


def operator_configuration(
    *,
    execution_role_arn: str,
    tls_bucket: str,
    hyperpod_cluster_arn: str,
    load_balancer_controller_role_arn: str,
    keda_role_arn: str,
) -> dict:
    """The Inference Operator add-on's configuration, key for key as AWS's migration script writes it.

    The chart's own default is ``alb.serviceAccount.create: false``: without ``create: true`` the load balancer
    controller runs with no role. ``jumpstartGatedModelDownloadRoleArn`` is left out: this project deploys no
    JumpStart models, and the script's role for it trusts every namespace (``*:hyperpod-inference-service-account*``).
    """
    return {
        "executionRoleArn": execution_role_arn,
        "tlsCertificateS3Bucket": tls_bucket,
        "hyperpodClusterArn": hyperpod_cluster_arn,
        "alb": {
            "enabled": True,
            "serviceAccount": {"create": True, "roleArn": load_balancer_controller_role_arn},
        },
        "keda": {
            "enabled": True,
            "auth": {"aws": {"irsa": {"enabled": True, "roleArn": keda_role_arn}}},
        },
    }


#: AWS Secrets and Configuration Provider (ASCP) for the Kubernetes Secrets Store CSI Driver, as the EKS add-on
#: (Secrets Manager user guide, "Install ASCP for Amazon EKS",
#: https://docs.aws.amazon.com/secretsmanager/latest/userguide/ascp-eks-installation.html). The add-on is the ASCP
#: Helm chart; its default configuration is the chart's values.yaml, whose `secrets-store-csi-driver.install: true`
#: installs the driver as a dependency (aws/secrets-store-csi-driver-provider-aws@a74182c1, charts/
#: secrets-store-csi-driver-provider-aws/{Chart.yaml,values.yaml}): one add-on, no separate driver install.
#: Version None: EKS's default for the cluster's Kubernetes version, like the networking add-ons; `llmops preflight`
#: checks the configuration below against that version's schema.
ASCP_INSTALL_GUIDE = (
    "https://docs.aws.amazon.com/secretsmanager/latest/userguide/ascp-eks-installation.html"
)
SECRETS_STORE_CSI_PROVIDER = AddonPin(
    "aws-secrets-store-csi-driver-provider", None, ASCP_INSTALL_GUIDE
)
#: How often the driver re-reads mounted secrets and refreshes the Kubernetes Secrets synced from them. The driver's own
#: default when rotation is on is 2m (kubernetes-sigs/secrets-store-csi-driver v1.6.0,
#: docs/book/src/topics/secret-auto-rotation.md). The ASCP README recommends one hour for clusters with many pods, to
#: keep the API calls down; here one pod reads at most two secrets, and a poll is one DescribeSecret per secret,
#: GetSecretValue only when the AWSCURRENT version changed (aws/secrets-store-csi-driver-provider-aws@a74182c1,
#: provider/secrets_manager_provider.go, isCurrent): 60 cheap calls an hour, and a rotated API key reaches the synced
#: Kubernetes Secret within two minutes.
SECRETS_ROTATION_POLL_INTERVAL = "120s"


def secrets_store_csi_provider_configuration() -> dict:
    """The ASCP add-on's configuration: provider keys validated by the add-on's schema, driver keys passed to the
    secrets-store-csi-driver subchart (the add-on validates only the provider's keys: "Install ASCP for Amazon EKS",
    "Add-on schema validation scope").

    - ``tolerations: [{operator: Exists}]``: the provider's own default is none (ASCP values.yaml), which keeps it
      off the GPU nodes, tainted ``nvidia.com/gpu=present:NoSchedule``, where vLLM mounts its secrets. The driver
      talks to the provider through a Unix socket on the same node (``providerVolume``
      /var/run/secrets-store-csi-providers), so the provider must run wherever the driver does, and the driver's
      default is exactly this toleration (secrets-store-csi-driver v1.6.0 charts/secrets-store-csi-driver/values.yaml,
      ``linux.tolerations``). AWS's own add-on test configuration sets the same (ASCP repository, commit a87b6bd0,
      tests/addon_config_values.yaml, "exercises every schema property supported by the ASCP addon").
    - ``syncSecret.enabled``: the driver's RBAC to create the Kubernetes Secrets of a SecretProviderClass's
      ``secretObjects`` (default false, driver values.yaml); vLLM reads its key from such a Secret.
    - ``enableSecretRotation`` and ``rotationPollInterval``: the rotation reconciler (alpha, default off) keeps the
      mounted files and the synced Secret at the secret's current version (driver docs, secret-auto-rotation.md).
    - ``tokenRequests``: the audiences of the pod token the driver passes to the provider; ``pods.eks.amazonaws.com``
      is EKS Pod Identity's (ASCP README, "Separate CSI Driver Installation"). The ASCP chart sets the same by
      default; repeated here as AWS's add-on test does (tests/addon_config_values.yaml at d8dc3f68).
    """
    return {
        "tolerations": [{"operator": "Exists"}],
        "secrets-store-csi-driver": {
            "syncSecret": {"enabled": True},
            "enableSecretRotation": True,
            "rotationPollInterval": SECRETS_ROTATION_POLL_INTERVAL,
            "tokenRequests": [
                {"audience": "sts.amazonaws.com"},
                {"audience": "pods.eks.amazonaws.com"},
            ],
        },
    }


# --- Observability of the EKS path (issue 10): metrics, logs and node health ------------------------------------------

#: The CloudWatch Observability add-on (Container Insights with enhanced observability: the CloudWatch agent, Fluent Bit,
#: and NVIDIA's DCGM exporter). v4.10.3 is the chart of aws-observability/helm-charts@6944490 ("release v4.10.3"); the
#: add-on build v4.10.3-eksbuild.1 is the one aws-observability/application-signals-demo#334 pins. Why at least v4.8.0:
#: the chart's DCGM exporter only runs on the instance types of its node affinity, and p6-b300.48xlarge joined that list
#: in aws-observability/helm-charts#258 (first released in v4.8.0) -
#: charts/amazon-cloudwatch-observability/values.yaml, dcgmExporter.affinity. The chart's root tolerations are
#: [{operator: Exists}], so its DaemonSets also run on the tainted GPU nodes (same file, `tolerations`).
CLOUDWATCH_OBSERVABILITY_SOURCE = (
    "aws-observability/helm-charts@6944490 charts/amazon-cloudwatch-observability "
    "(values.yaml, templates/linux/fluent-bit-daemonset.yaml); "
    "https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/install-CloudWatch-Observability-EKS-addon.html"
)
#: The add-on's agent and its Fluent Bit both run as service account cloudwatch-agent in namespace amazon-cloudwatch
#: (templates/_helpers.tpl `cloudwatch-agent.serviceAccountName`; fluent-bit-daemonset.yaml uses the same template).
CLOUDWATCH_OBSERVABILITY = AddonPin(
    "amazon-cloudwatch-observability",
    "v4.10.3-eksbuild.1",
    CLOUDWATCH_OBSERVABILITY_SOURCE,
    ("amazon-cloudwatch", "cloudwatch-agent"),
)
#: The EKS node monitoring agent: NodeConditions (AcceleratedHardwareReady for NVIDIA XID errors, KernelReady, ...) that
#: node auto repair acts on, and Prometheus metrics on :8003 (`problem_condition_count{severity,reason}`, reasons
#: NvidiaXID<code>Error / NvidiaXID<code>Warning; `fatal_condition_gauge{type}`). The add-on build is the image tag of the
#: chart at aws/eks-node-monitoring-agent@80d3c0d (tag v1.6.7): charts/eks-node-monitoring-agent/values.yaml
#: nodeAgent.image.tag, nodeAgent.additionalArgs [--metrics-address=:8003]; pkg/manager/manager.go (the metrics);
#: monitors/nvidia/monitor_test.go (the reason format).
NODE_MONITORING_AGENT_SOURCE = (
    "aws/eks-node-monitoring-agent@80d3c0d (v1.6.7) charts/eks-node-monitoring-agent/values.yaml, "
    "charts/configuration.schema.json, pkg/manager/manager.go; "
    "https://docs.aws.amazon.com/eks/latest/userguide/node-health.html"
)
NODE_MONITORING_AGENT = AddonPin(
    "eks-node-monitoring-agent", "v1.6.7-eksbuild.1", NODE_MONITORING_AGENT_SOURCE
)


def cloudwatch_observability_configuration(*, accelerated_compute_metrics: bool = True) -> dict:
    """The CloudWatch Observability add-on's configuration: Container Insights with enhanced observability and, on the
    EKS platform, the accelerated-compute (GPU, EFA) metrics, without Application Signals (nothing here is instrumented
    for it). On HyperPod the GPU metrics come from the HyperPod observability add-on instead.

    ``enhanced_container_insights`` and ``accelerated_compute_metrics`` are the agent's keys
    (aws/amazon-cloudwatch-agent@ab55b8d translator/translate/otel/common/common.go; accelerated_compute_metrics
    defaults to true, written here so that the GPU metrics the dashboard reads do not depend on a default).
    """
    return {
        "agent": {
            "config": {
                "logs": {
                    "metrics_collected": {
                        "kubernetes": {
                            "enhanced_container_insights": True,
                            "accelerated_compute_metrics": accelerated_compute_metrics,
                        }
                    }
                }
            }
        }
    }


def node_monitoring_agent_configuration(gpu_tolerations: list[dict]) -> dict:
    """The node monitoring agent's configuration: its DCGM host engine DaemonSet (``dcgmAgent``, which the agent's NVIDIA
    monitor talks to) has no tolerations by default (values.yaml ``dcgmAgent.tolerations: []``), so it would never run on
    the tainted GPU nodes; ``dcgmAgent.tolerations`` is a key of the add-on's schema (charts/configuration.schema.json).
    The node agent itself tolerates every taint by default (``nodeAgent.tolerations: [{operator: Exists}]``)."""
    return {"dcgmAgent": {"tolerations": [dict(t) for t in gpu_tolerations]}}


# --- Observability of the HyperPod path (issue 10): GPU metrics -----------------------------------------------------------

#: AWS's SageMaker HyperPod observability add-on: NVIDIA's DCGM exporter, node exporter, kube-state-metrics and an
#: OpenTelemetry collector that remote-writes to an Amazon Managed Service for Prometheus workspace (SageMaker developer
#: guide, "SageMaker HyperPod cluster metrics": accelerated compute metrics, DCGM, on by default). Sources:
#: - the Pod Identity association (namespace hyperpod-observability, service account
#:   hyperpod-observability-operator-otel-collector) and its role's permissions and trust: SageMaker developer guide,
#:   "Troubleshooting the Amazon SageMaker HyperPod observability add-on", "Verify Pod Identity association"
#:   (https://docs.aws.amazon.com/sagemaker/latest/dg/hyperpod-observability-addon-troubleshooting.html);
#: - at least one HyperPod node before the install, and the Pod Identity agent: same guide, "Setting up the SageMaker
#:   HyperPod observability add-on" (https://docs.aws.amazon.com/sagemaker/latest/dg/hyperpod-observability-addon-setup.html),
#:   which lists no configuration keys (it installs from the console);
#: - the configuration keys: AWS's own Terraform module, aws-samples/awsome-distributed-training@7217859
#:   1.architectures/7.sagemaker-hyperpod-eks/terraform-modules/hyperpod-eks-tf/modules/observability/eks_addon.tf
#:   (ampWorkspace {prometheusEndpoint, arn}, metricsProvider {<category>: {level, scrapeInterval}}, logging {enabled}),
#:   the levels each category accepts from the module's root, hyperpod-eks-tf/variables.tf (validation blocks);
#: - the version: v1.0.5-eksbuild.1 is the build the troubleshooting page names ("starting from version
#:   v1.0.5-eksbuild.1"); no public repository pins a build. ``llmops preflight`` checks that the account offers it
#:   for the cluster's Kubernetes version and that the configuration matches its schema.
HYPERPOD_OBSERVABILITY_SOURCE = (
    "https://docs.aws.amazon.com/sagemaker/latest/dg/hyperpod-observability-addon-troubleshooting.html; "
    "https://docs.aws.amazon.com/sagemaker/latest/dg/hyperpod-observability-addon-setup.html; "
    "aws-samples/awsome-distributed-training@7217859 1.architectures/7.sagemaker-hyperpod-eks/terraform-modules/"
    "hyperpod-eks-tf/modules/observability/eks_addon.tf"
)
HYPERPOD_OBSERVABILITY = AddonPin(
    "amazon-sagemaker-hyperpod-observability",
    "v1.0.5-eksbuild.1",
    HYPERPOD_OBSERVABILITY_SOURCE,
    ("hyperpod-observability", "hyperpod-observability-operator-otel-collector"),
)
#: The log groups the add-on's role may write (its logging, off here, ships container logs there): the troubleshooting
#: page's CloudwatchLogsAccess statement.
HYPERPOD_OBSERVABILITY_LOG_GROUP_PREFIX = "/aws/sagemaker/Clusters/"
#: The scrape interval AWS's Terraform module gives every category (seconds); the AMP scraper's too.
HYPERPOD_OBSERVABILITY_SCRAPE_INTERVAL = 30


def hyperpod_observability_configuration(*, workspace_arn: str, prometheus_endpoint: str) -> dict:
    """The HyperPod observability add-on's configuration: the environment's AMP workspace (no Amazon Managed Grafana:
    ``amgWorkspace`` is optional and Grafana needs IAM Identity Center), and each metric category at the level AWS's
    Terraform module defaults to (``BASIC`` where a category has no ``DISABLED``): accelerated compute ``BASIC`` is
    DCGM's default counter set, which has utilization, framebuffer memory, temperature, power and the last XID
    (cdk_constructs/serving_metrics/, DCGM_METRICS). Task governance, scaling and network (EFA) metrics stay
    ``DISABLED``: nothing here reads them, and every series costs AMP ingestion. ``logging.enabled: false``: the add-on
    would create its log groups itself, without the environment's retention.

    :param prometheus_endpoint: the workspace's endpoint without its trailing slash, as the module passes it
        (``trimsuffix(..., "/")``).
    """

    def level(value: str) -> dict:
        return {"level": value, "scrapeInterval": HYPERPOD_OBSERVABILITY_SCRAPE_INTERVAL}

    return {
        "ampWorkspace": {"prometheusEndpoint": prometheus_endpoint, "arn": workspace_arn},
        "metricsProvider": {
            "trainingMetrics": level("BASIC"),
            "inferenceMetrics": level("BASIC"),
            "taskGovernanceMetrics": level("DISABLED"),
            "scalingMetrics": level("DISABLED"),
            "customMetrics": level("BASIC"),
            "nodeMetrics": level("BASIC"),
            "acceleratedComputeMetrics": level("BASIC"),
            "networkMetrics": level("DISABLED"),
        },
        "logging": {"enabled": False},
    }
