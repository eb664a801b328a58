"""The SageMaker HyperPod Inference Operator as an EKS add-on, with the add-ons, roles and bucket it needs."""

from __future__ import annotations

import aws_cdk as cdk
from aws_cdk import aws_eks_v2 as eks
from aws_cdk import aws_iam as iam
from aws_cdk import aws_s3 as s3
from constructs import Construct

from cdk_constructs.nag_acknowledgements import acknowledge, acknowledge_each, managed_policy_finding
from deployment_config.model import EnvironmentConfig, WeightSource

OPERATOR_ADDON = "amazon-sagemaker-hyperpod-inference"
#: Add-ons the operator expects on the cluster before it is installed (besides the Mountpoint for S3 CSI driver,
#: which is configured separately below).
REQUIRED_ADDONS = ("cert-manager", "metrics-server")
#: Namespace the operator's controllers (and their service accounts) run in.
OPERATOR_NAMESPACE = "hyperpod-inference-system"
S3_CSI_SERVICE_ACCOUNT = ("kube-system", "s3-csi-driver-sa")
EXECUTION_ROLE_PREFIX = "SageMakerHyperPodInference"


class InferenceOperatorStack(cdk.Stack):
    """Installs cert-manager, the Mountpoint for S3 CSI driver and metrics-server, then the Inference Operator add-on
    configured with its execution role, the load balancer controller and KEDA roles, and a TLS certificate bucket."""

    def __init__(self, scope: Construct, id: str, *, env_config: EnvironmentConfig, cluster: eks.ICluster,
                 oidc_provider: iam.IOpenIdConnectProvider, hyperpod_cluster_arn: str, **kwargs) -> None:
        super().__init__(scope, id, **kwargs)
        self.env_config = env_config
        required: list = [eks.Addon(self, f"Addon-{name}", cluster=cluster, addon_name=name) for name in REQUIRED_ADDONS]

        access_logs = s3.Bucket(
            self, "AccessLogs", encryption=s3.BucketEncryption.S3_MANAGED, enforce_ssl=True,
            block_public_access=s3.BlockPublicAccess.BLOCK_ALL, object_ownership=s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
            removal_policy=cdk.RemovalPolicy.DESTROY, auto_delete_objects=True,
            lifecycle_rules=[s3.LifecycleRule(expiration=cdk.Duration.days(90))],
        )
        acknowledge(access_logs, "AwsSolutions-S1", "this is the access log bucket; logging it to itself would loop")
        self.tls_bucket = s3.Bucket(
            self, "TlsCertificates", encryption=s3.BucketEncryption.S3_MANAGED, enforce_ssl=True,
            block_public_access=s3.BlockPublicAccess.BLOCK_ALL, versioned=True,
            server_access_logs_bucket=access_logs, server_access_logs_prefix="tls-certificates/",
            removal_policy=cdk.RemovalPolicy.DESTROY, auto_delete_objects=True,
        )

        self.execution_role = iam.Role(
            self, "ExecutionRole", role_name=f"{EXECUTION_ROLE_PREFIX}-{env_config.name}",
            assumed_by=iam.CompositePrincipal(iam.ServicePrincipal("sagemaker.amazonaws.com"),
                                              self._service_accounts(oidc_provider, "Execution")),
            managed_policies=[iam.ManagedPolicy.from_aws_managed_policy_name("AmazonSageMakerHyperPodInferenceAccess")],
            description="HyperPod Inference Operator: deploys models, load balancers and SageMaker endpoints",
        )
        acknowledge(self.execution_role, managed_policy_finding("AmazonSageMakerHyperPodInferenceAccess"),
                    "the AWS managed policy the Inference Operator is documented to need, kept current by AWS")
        # The operator writes each endpoint's certificate here and reads it back.
        self.execution_role.add_to_policy(iam.PolicyStatement(
            actions=["s3:GetObject", "s3:PutObject", "s3:DeleteObject"], resources=[self.tls_bucket.arn_for_objects("*")]))
        self.execution_role.add_to_policy(iam.PolicyStatement(actions=["s3:ListBucket"],
                                                              resources=[self.tls_bucket.bucket_arn]))
        acknowledge(self.execution_role,
                    f"AwsSolutions-IAM5[Resource::<{self.get_logical_id(self.tls_bucket.node.default_child)}.Arn>/*]",
                    "certificates are written under names the operator chooses per endpoint, in this bucket only")

        self.alb_role = iam.Role(self, "LoadBalancerControllerRole",
                                 assumed_by=self._service_accounts(oidc_provider, "Alb"),
                                 description="AWS Load Balancer Controller installed by the Inference Operator")
        self.alb_role.add_to_policy(iam.PolicyStatement(actions=[
            "elasticloadbalancing:Describe*", "ec2:Describe*", "ec2:GetSecurityGroupsForVpc", "acm:DescribeCertificate",
            "acm:ListCertificates", "wafv2:GetWebACLForResource", "shield:GetSubscriptionState"], resources=["*"]))
        self.alb_role.add_to_policy(iam.PolicyStatement(actions=[
            "elasticloadbalancing:CreateLoadBalancer", "elasticloadbalancing:CreateTargetGroup",
            "elasticloadbalancing:CreateListener", "elasticloadbalancing:CreateRule", "elasticloadbalancing:AddTags",
            "ec2:CreateSecurityGroup", "ec2:CreateTags"], resources=["*"],
            # only while tagging what it creates as its own
            conditions={"Null": {"aws:RequestTag/elbv2.k8s.aws/cluster": "false"}}))
        self.alb_role.add_to_policy(iam.PolicyStatement(actions=[
            "elasticloadbalancing:DeleteLoadBalancer", "elasticloadbalancing:DeleteTargetGroup",
            "elasticloadbalancing:DeleteListener", "elasticloadbalancing:DeleteRule",
            "elasticloadbalancing:Modify*", "elasticloadbalancing:RegisterTargets", "elasticloadbalancing:DeregisterTargets",
            "elasticloadbalancing:SetSecurityGroups", "elasticloadbalancing:SetSubnets", "elasticloadbalancing:RemoveTags",
            "ec2:AuthorizeSecurityGroupIngress", "ec2:RevokeSecurityGroupIngress", "ec2:DeleteSecurityGroup"],
            resources=["*"], conditions={"Null": {"aws:ResourceTag/elbv2.k8s.aws/cluster": "false"}}))
        acknowledge_each(self.alb_role, [
            "AwsSolutions-IAM5[Resource::*]", "AwsSolutions-IAM5[Action::ec2:Describe*]",
            "AwsSolutions-IAM5[Action::elasticloadbalancing:Describe*]",
            "AwsSolutions-IAM5[Action::elasticloadbalancing:Modify*]",
        ], "the AWS Load Balancer Controller creates load balancers whose ARNs are not known in advance; it may read "
           "everything, but create only what it tags as its own and change or delete only what carries its tag")

        self.keda_role = iam.Role(self, "KedaRole", assumed_by=self._service_accounts(oidc_provider, "Keda"),
                                  description="KEDA autoscaler installed by the Inference Operator: reads metrics")
        self.keda_role.add_to_policy(iam.PolicyStatement(
            actions=["cloudwatch:GetMetricData", "cloudwatch:GetMetricStatistics", "cloudwatch:ListMetrics",
                     "aps:QueryMetrics", "aps:GetLabels", "aps:GetSeries", "aps:GetMetricMetadata"], resources=["*"]))
        acknowledge(self.keda_role, "AwsSolutions-IAM5[Resource::*]",
                    "CloudWatch metric reads have no resource-level permissions; read-only")

        self._s3_csi_access(cluster, required)

        configuration = {
            "executionRoleArn": self.execution_role.role_arn,
            "tlsCertificateS3Bucket": self.tls_bucket.bucket_name,
            "hyperpodClusterArn": hyperpod_cluster_arn,
            "alb": {"serviceAccount": {"roleArn": self.alb_role.role_arn}},
            "keda": {"auth": {"aws": {"irsa": {"roleArn": self.keda_role.role_arn}}}},
        }
        self.operator = eks.Addon(self, "InferenceOperator", cluster=cluster, addon_name=OPERATOR_ADDON,
                                  configuration_values=configuration)
        for addon in required:
            self.operator.node.add_dependency(addon)
        cdk.CfnOutput(self, "OperatorStatusCommand", value=(
            f"aws eks describe-addon --cluster-name {env_config.cluster_name} --addon-name {OPERATOR_ADDON} "
            f"--region {env_config.region} --query addon.status"))

    def _service_accounts(self, provider: iam.IOpenIdConnectProvider, name: str) -> iam.IPrincipal:
        """Trust for service accounts in the operator's namespace, through the cluster's OIDC provider (IRSA)."""
        issuer = provider.open_id_connect_provider_issuer
        return iam.OpenIdConnectPrincipal(provider).with_conditions({
            "StringEquals": cdk.CfnJson(self, f"{name}Audience", value={f"{issuer}:aud": "sts.amazonaws.com"}),
            "StringLike": cdk.CfnJson(self, f"{name}Subject",
                                      value={f"{issuer}:sub": f"system:serviceaccount:{OPERATOR_NAMESPACE}:*"}),
        })

    def _s3_csi_access(self, cluster: eks.ICluster, required: list) -> None:
        """The Mountpoint for S3 CSI driver, with read access to the weights' bucket when they come from S3."""
        model = self.env_config.model
        associations = None
        if model.weight_source is WeightSource.S3:
            bucket, _, prefix = (model.s3_uri or "")[len("s3://"):].partition("/")
            role = iam.Role(self, "S3CsiRole", assumed_by=iam.ServicePrincipal("pods.eks.amazonaws.com").with_session_tags(),
                            description="Mountpoint for S3 CSI driver: reads the model weights")
            role.add_to_policy(iam.PolicyStatement(actions=["s3:ListBucket"],
                                                   resources=[f"arn:{cdk.Aws.PARTITION}:s3:::{bucket}"]))
            role.add_to_policy(iam.PolicyStatement(actions=["s3:GetObject"],
                                                   resources=[f"arn:{cdk.Aws.PARTITION}:s3:::{bucket}/{prefix}*"]))
            namespace, service_account = S3_CSI_SERVICE_ACCOUNT
            associations = [eks.CfnAddon.PodIdentityAssociationProperty(role_arn=role.role_arn, service_account=service_account)]
        addon = eks.CfnAddon(self, "Addon-aws-mountpoint-s3-csi-driver", cluster_name=cluster.cluster_name,
                             addon_name="aws-mountpoint-s3-csi-driver", pod_identity_associations=associations)
        required.append(addon)
