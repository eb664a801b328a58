"""The SageMaker HyperPod Inference Operator as an EKS add-on, with the add-ons, roles and bucket it needs.

What is installed, with which versions, configuration keys and service accounts, follows AWS's own Helm-to-add-on
migration script (:data:`deployment_config.addons.MIGRATION_SCRIPT`); the sources are named where each fact is used.
"""

from __future__ import annotations

import json
from pathlib import Path

import aws_cdk as cdk
from aws_cdk import aws_eks_v2 as eks
from aws_cdk import aws_iam as iam
from aws_cdk import aws_s3 as s3
from constructs import Construct

from cdk_constructs.nag_acknowledgements import (
    acknowledge,
    acknowledge_each,
    acknowledge_weights_reader,
    managed_policy_finding,
    wildcard_findings,
)
from cdk_constructs.s3_prefix_access import s3_prefix_statements
from cdk_constructs.sagemaker_principal import sagemaker_principal
from deployment_config.addons import (
    CERT_MANAGER,
    FSX_CSI_DRIVER,
    INFERENCE_OPERATOR,
    KEDA_SERVICE_ACCOUNT,
    LOAD_BALANCER_CONTROLLER_SERVICE_ACCOUNT,
    METRICS_SERVER,
    OPERATOR_SERVICE_ACCOUNT,
    S3_CSI_DRIVER,
    AddonPin,
    operator_configuration,
)
from deployment_config.model import EnvironmentConfig, WeightSource

EXECUTION_ROLE_PREFIX = "SageMakerHyperPodInference"
#: The AWS Load Balancer Controller's official policy for the version the operator bundles, with its source.
LOAD_BALANCER_CONTROLLER_POLICY_FILE = (
    Path(__file__).resolve().parent / "data" / "aws_load_balancer_controller_iam_policy.json"
)


def load_balancer_controller_policy() -> dict:
    """The data file: ``policy`` (the document), ``controller_version`` and ``source``."""
    return json.loads(LOAD_BALANCER_CONTROLLER_POLICY_FILE.read_text(encoding="utf-8"))


class InferenceOperatorStack(cdk.Stack):
    """Installs cert-manager, metrics-server and the Mountpoint for S3 and FSx for Lustre CSI drivers (the operator's
    controller refuses to start without them), then the Inference Operator add-on with its execution role, the roles
    of the load balancer controller and KEDA it installs, and a bucket for the endpoints' TLS certificates.

    Every role trusts exactly one service account of the cluster's OIDC provider (IRSA), as the migration script
    writes them.
    """

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        env_config: EnvironmentConfig,
        cluster: eks.ICluster,
        oidc_provider: iam.IOpenIdConnectProvider,
        hyperpod_cluster_arn: str,
        **kwargs,
    ) -> None:
        super().__init__(scope, id, **kwargs)
        self.env_config = env_config
        self._cluster = cluster
        self._oidc_provider = oidc_provider
        self.addons: dict[str, eks.CfnAddon] = {}
        for pin in (CERT_MANAGER, METRICS_SERVER):
            self._addon(pin)
        self.s3_csi_role = self._s3_csi_driver_role()
        self._addon(S3_CSI_DRIVER, role=self.s3_csi_role)
        # The operator only needs the FSx CSI driver to exist (its init container checks for the CSIDriver); this
        # project serves from Hugging Face or S3, never FSx, so the driver's role gets no permissions. To serve from
        # FSx, attach AmazonFSxFullAccess to it, as AWS's migration script does.
        self.fsx_csi_role = self._service_account_role(
            "FsxCsiDriverRole",
            FSX_CSI_DRIVER.service_account,
            "FSx for Lustre CSI driver: installed for the operator's check only",
        )
        self._addon(FSX_CSI_DRIVER, role=self.fsx_csi_role)

        access_logs = s3.Bucket(
            self,
            "AccessLogs",
            encryption=s3.BucketEncryption.S3_MANAGED,
            enforce_ssl=True,
            block_public_access=s3.BlockPublicAccess.BLOCK_ALL,
            object_ownership=s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
            removal_policy=cdk.RemovalPolicy.DESTROY,
            auto_delete_objects=True,
            lifecycle_rules=[s3.LifecycleRule(expiration=cdk.Duration.days(90))],
        )
        acknowledge(
            access_logs,
            "AwsSolutions-S1",
            "this is the access log bucket; logging it to itself would loop",
        )
        self.tls_bucket = s3.Bucket(
            self,
            "TlsCertificates",
            encryption=s3.BucketEncryption.S3_MANAGED,
            enforce_ssl=True,
            block_public_access=s3.BlockPublicAccess.BLOCK_ALL,
            versioned=True,
            server_access_logs_bucket=access_logs,
            server_access_logs_prefix="tls-certificates/",
            removal_policy=cdk.RemovalPolicy.DESTROY,
            auto_delete_objects=True,
        )

        # The operator's add-on requires the name prefix; the role is assumed by SageMaker and by the controller.
        self.execution_role = iam.Role(
            self,
            "ExecutionRole",
            role_name=f"{EXECUTION_ROLE_PREFIX}-{env_config.name}",
            assumed_by=iam.CompositePrincipal(
                sagemaker_principal(self),
                self._service_account_principal("Execution", OPERATOR_SERVICE_ACCOUNT),
            ),
            managed_policies=[
                iam.ManagedPolicy.from_aws_managed_policy_name(
                    "AmazonSageMakerHyperPodInferenceAccess"
                )
            ],
            description="HyperPod Inference Operator: deploys models, load balancers and SageMaker endpoints",
        )
        acknowledge(
            self.execution_role,
            managed_policy_finding("AmazonSageMakerHyperPodInferenceAccess"),
            "the AWS managed policy the Inference Operator is documented to need, kept current by AWS",
        )
        # The operator writes each endpoint's certificate here and reads it back: the migration script's
        # TLSBucketsAccess statements (GetObject, PutObject, PutObjectTagging, DeleteObject on the bucket's objects).
        self.execution_role.add_to_policy(
            iam.PolicyStatement(
                actions=["s3:GetObject", "s3:PutObject", "s3:PutObjectTagging", "s3:DeleteObject"],
                resources=[self.tls_bucket.arn_for_objects("*")],
            )
        )
        self.execution_role.add_to_policy(
            iam.PolicyStatement(actions=["s3:ListBucket"], resources=[self.tls_bucket.bucket_arn])
        )
        acknowledge(
            self.execution_role,
            f"AwsSolutions-IAM5[Resource::<{self.get_logical_id(self.tls_bucket.node.default_child)}.Arn>/*]",
            "certificates are written under names the operator chooses per endpoint, in this bucket only",
        )

        self.load_balancer_controller_role = self._service_account_role(
            "LoadBalancerControllerRole",
            LOAD_BALANCER_CONTROLLER_SERVICE_ACCOUNT,
            "AWS Load Balancer Controller installed by the Inference Operator",
        )
        policy_data = load_balancer_controller_policy()
        # L1 on purpose: the L2 would rewrite (and with minimizePolicies, merge) the statements; the template keeps
        # the document exactly as published, so a reviewer can diff it against the source.
        self.load_balancer_controller_policy = iam.CfnManagedPolicy(
            self,
            "LoadBalancerControllerPolicy",
            roles=[self.load_balancer_controller_role.role_name],
            policy_document=policy_data["policy"],
            description=f"AWS Load Balancer Controller {policy_data['controller_version']}: "
            f"{policy_data['source']['repository']}/{policy_data['source']['path']}",
        )
        acknowledge_each(
            self.load_balancer_controller_policy,
            sorted(wildcard_findings(self.load_balancer_controller_policy)),
            "the AWS Load Balancer Controller's official policy, verbatim (source and version in the "
            "policy's description), for the controller the operator bundles: it creates load balancers, "
            "target groups and security groups whose ARNs are not known in advance; deletes and most "
            "changes are limited by condition to resources carrying its cluster tag, while the listener, "
            "rule, security group ingress, WAF and Shield calls are on * as upstream publishes them",
        )

        self.keda_role = self._service_account_role(
            "KedaRole",
            KEDA_SERVICE_ACCOUNT,
            "KEDA autoscaler installed by the Inference Operator: reads metrics",
        )
        # The endpoint's autoscaling reads one CloudWatch metric (charts/inference_endpoint_config.py, _auto_scaling:
        # a cloudWatchTrigger on LLMServing/RequestsWaiting), never Prometheus: no aps action. These three CloudWatch
        # reads take no resource types (Service Authorization Reference, https://docs.aws.amazon.com/
        # service-authorization/latest/reference/list_amazoncloudwatch.html), hence "*".
        self.keda_role.add_to_policy(
            iam.PolicyStatement(
                sid="ReadCloudWatchMetrics",
                actions=[
                    "cloudwatch:GetMetricData",
                    "cloudwatch:GetMetricStatistics",
                    "cloudwatch:ListMetrics",
                ],
                resources=["*"],
            )
        )
        acknowledge(
            self.keda_role,
            "AwsSolutions-IAM5[Resource::*]",
            "cloudwatch:GetMetricData, GetMetricStatistics and ListMetrics take no resource types in the "
            "Service Authorization Reference; read-only, for the autoscaler's CloudWatch trigger",
        )

        self.operator = self._addon(
            INFERENCE_OPERATOR,
            configuration=operator_configuration(
                execution_role_arn=self.execution_role.role_arn,
                tls_bucket=self.tls_bucket.bucket_name,
                hyperpod_cluster_arn=hyperpod_cluster_arn,
                load_balancer_controller_role_arn=self.load_balancer_controller_role.role_arn,
                keda_role_arn=self.keda_role.role_arn,
            ),
        )
        for addon in self.addons.values():
            if addon is not self.operator:
                self.operator.node.add_dependency(addon)
        cdk.CfnOutput(
            self,
            "OperatorStatusCommand",
            value=(
                f"aws eks describe-addon --cluster-name {env_config.cluster_name} --addon-name {INFERENCE_OPERATOR.name} "
                f"--region {env_config.region} --query addon.status"
            ),
        )

    def _addon(
        self, pin: AddonPin, *, role: iam.IRole | None = None, configuration: dict | None = None
    ) -> eks.CfnAddon:
        """One add-on at its pinned version. Removed with the stack (not preserved), so that destroy leaves nothing
        running; OVERWRITE lets the add-on take over fields a manual install may have left."""
        addon = eks.CfnAddon(
            self,
            f"Addon-{pin.name}",
            cluster_name=self._cluster.cluster_name,
            addon_name=pin.name,
            addon_version=pin.version,
            service_account_role_arn=role.role_arn if role else None,
            configuration_values=cdk.Stack.of(self).to_json_string(configuration)
            if configuration
            else None,
            resolve_conflicts="OVERWRITE",
            preserve_on_delete=False,
        )
        self.addons[pin.name] = addon
        return addon

    def _service_account_principal(
        self, name: str, service_account: tuple[str, str]
    ) -> iam.IPrincipal:
        """Trust for exactly one service account through the cluster's OIDC provider (IRSA): StringEquals on both
        the audience and the subject, never a wildcard."""
        namespace, account = service_account
        issuer = self._oidc_provider.open_id_connect_provider_issuer
        return iam.OpenIdConnectPrincipal(self._oidc_provider).with_conditions(
            {
                "StringEquals": cdk.CfnJson(
                    self,
                    f"{name}Trust",
                    value={
                        f"{issuer}:aud": "sts.amazonaws.com",
                        f"{issuer}:sub": f"system:serviceaccount:{namespace}:{account}",
                    },
                ),
            }
        )

    def _service_account_role(
        self, id: str, service_account: tuple[str, str], description: str
    ) -> iam.Role:
        return iam.Role(
            self,
            id,
            assumed_by=self._service_account_principal(id, service_account),
            description=description,
        )

    def _s3_csi_driver_role(self) -> iam.Role:
        """The Mountpoint for S3 CSI driver's role: read access to the weights' prefix when they come from S3, nothing
        otherwise (AWS's script grants every bucket; the driver only mounts what an endpoint names)."""
        role = self._service_account_role(
            "S3CsiDriverRole",
            S3_CSI_DRIVER.service_account,
            "Mountpoint for S3 CSI driver: mounts the model weights",
        )
        model = self.env_config.model
        if model.weight_source is WeightSource.S3:
            for statement in s3_prefix_statements(model.s3_uri, ["s3:GetObject"]):
                role.add_to_policy(statement)
            acknowledge_weights_reader(role)
        return role
