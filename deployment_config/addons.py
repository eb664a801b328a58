"""The EKS add-ons each platform installs, with the versions and configuration the project relies on.

Kept free of CDK imports: the stacks install exactly these, and ``llmops preflight`` asks the account
(``eks:DescribeAddonVersions``, ``eks:DescribeAddonConfiguration``) whether each pinned version exists for the cluster's
Kubernetes version and whether the configuration validates against the add-on's own JSON schema.
"""

from __future__ import annotations

from dataclasses import dataclass

from deployment_config.model import EnvironmentConfig, Platform

#: AWS's Helm-to-add-on migration script for the Inference Operator: the add-on set, versions, configuration keys and
#: service accounts below are what it writes (aws/sagemaker-hyperpod-cli @ 011ca927,
#: helm_chart/HyperPodHelmChart/charts/inference-operator/migration/helm_to_addon.sh, lines 752-1037).
MIGRATION_SCRIPT = ("aws/sagemaker-hyperpod-cli@011ca927 "
                    "helm_chart/HyperPodHelmChart/charts/inference-operator/migration/helm_to_addon.sh")
#: The operator's init container exits unless the CSIDrivers s3.csi.aws.com and fsx.csi.aws.com and the cert-manager
#: CRDs exist (same repository, helm_chart/HyperPodHelmChart/charts/inference-operator/config/manager/manager.yaml,
#: init container check-csi-drivers).
OPERATOR_REQUIREMENTS = ("aws/sagemaker-hyperpod-cli@011ca927 "
                         "helm_chart/HyperPodHelmChart/charts/inference-operator/config/manager/manager.yaml")
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
KUBE_PROXY = AddonPin("kube-proxy", None, EKS_ADDONS_GUIDE)
POD_IDENTITY_AGENT = AddonPin("eks-pod-identity-agent", None, EKS_ADDONS_GUIDE)
COREDNS = AddonPin("coredns", None, EKS_ADDONS_GUIDE)
#: Installed before the system nodes (which only turn Ready with the CNI); coredns after them.
NETWORK_ADDONS = (VPC_CNI, KUBE_PROXY, POD_IDENTITY_AGENT)

INFERENCE_OPERATOR = AddonPin("amazon-sagemaker-hyperpod-inference", "v1.0.0-eksbuild.1", MIGRATION_SCRIPT)
CERT_MANAGER = AddonPin("cert-manager", "v1.18.2-eksbuild.2", MIGRATION_SCRIPT)
METRICS_SERVER = AddonPin("metrics-server", "v0.7.2-eksbuild.4", MIGRATION_SCRIPT)
S3_CSI_DRIVER = AddonPin("aws-mountpoint-s3-csi-driver", "v1.14.1-eksbuild.1", MIGRATION_SCRIPT,
                         ("kube-system", "s3-csi-driver-sa"))
FSX_CSI_DRIVER = AddonPin("aws-fsx-csi-driver", "v1.6.0-eksbuild.1", MIGRATION_SCRIPT,
                          ("kube-system", "fsx-csi-controller-sa"))
#: What the operator requires before it starts (OPERATOR_REQUIREMENTS), in install order.
OPERATOR_DEPENDENCIES = (CERT_MANAGER, METRICS_SERVER, S3_CSI_DRIVER, FSX_CSI_DRIVER)

#: Namespace of the operator's controllers, and the service accounts its roles trust (MIGRATION_SCRIPT).
OPERATOR_NAMESPACE = "hyperpod-inference-system"
OPERATOR_SERVICE_ACCOUNT = (OPERATOR_NAMESPACE, "hyperpod-inference-controller-manager")
LOAD_BALANCER_CONTROLLER_SERVICE_ACCOUNT = (OPERATOR_NAMESPACE, "aws-load-balancer-controller")
KEDA_SERVICE_ACCOUNT = (OPERATOR_NAMESPACE, "keda-operator")


def operator_configuration(*, execution_role_arn: str, tls_bucket: str, hyperpod_cluster_arn: str,
                           load_balancer_controller_role_arn: str, keda_role_arn: str) -> dict:
    """The Inference Operator add-on's configuration, key for key as AWS's migration script writes it.

    The chart's own default is ``alb.serviceAccount.create: false``: without ``create: true`` the load balancer
    controller runs with no role. ``jumpstartGatedModelDownloadRoleArn`` is left out: this project deploys no
    JumpStart models, and the script's role for it trusts every namespace (``*:hyperpod-inference-service-account*``).
    """
    return {
        "executionRoleArn": execution_role_arn,
        "tlsCertificateS3Bucket": tls_bucket,
        "hyperpodClusterArn": hyperpod_cluster_arn,
        "alb": {"enabled": True, "serviceAccount": {"create": True, "roleArn": load_balancer_controller_role_arn}},
        "keda": {"enabled": True, "auth": {"aws": {"irsa": {"enabled": True, "roleArn": keda_role_arn}}}},
    }


def addons_for(env: EnvironmentConfig) -> list[tuple[AddonPin, dict | None]]:
    """Every add-on the environment's stacks install, each with its configuration values (placeholders of the right
    shape where the real value is only known after deploy), for ``llmops preflight``."""
    addons: list[tuple[AddonPin, dict | None]] = [(pin, None) for pin in (*NETWORK_ADDONS, COREDNS)]
    if env.platform is Platform.HYPERPOD:
        addons += [(pin, None) for pin in OPERATOR_DEPENDENCIES]
        account, region, name = env.account, env.region, env.name
        role = f"arn:aws:iam::{account}:role/{{}}-{name}"
        addons.append((INFERENCE_OPERATOR, operator_configuration(
            execution_role_arn=role.format("SageMakerHyperPodInference"), tls_bucket=f"{name}-tls-certificates",
            hyperpod_cluster_arn=f"arn:aws:sagemaker:{region}:{account}:cluster/abcdefgh1234",
            load_balancer_controller_role_arn=role.format("LoadBalancerController"), keda_role_arn=role.format("Keda"))))
    return addons
