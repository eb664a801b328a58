"""A SageMaker HyperPod cluster orchestrated by an existing EKS cluster, with one GPU instance group."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import aws_cdk as cdk
from aws_cdk import aws_iam as iam
from aws_cdk import aws_s3 as s3
from aws_cdk import aws_s3_deployment as s3deploy
from aws_cdk import aws_sagemaker as sagemaker
from constructs import Construct

from cdk_constructs.nag_acknowledgements import (
    acknowledge,
    acknowledge_bucket_deployment,
    acknowledge_each,
    managed_policy_finding,
)
from cdk_constructs.sagemaker_principal import sagemaker_principal

LIFECYCLE_DIR = Path(__file__).resolve().parent / "runtime"
LIFECYCLE_PREFIX = "lifecycle/"
ON_CREATE = "on_create.sh"
#: Settings of the lifecycle script for this cluster, uploaded beside it (HyperPod copies the whole SourceS3Uri prefix
#: to the instance and runs OnCreate there: aws-samples/awsome-distributed-training's on_create.sh calls scripts beside
#: it the same way). Each line keeps a value the environment already sets, so that the tests can run the script bare.
SETTINGS_FILE = "lifecycle.env"


def lifecycle_settings(*, require_instance_store: bool) -> str:
    """The settings file: with ``require_instance_store`` (an instance type that has instance-store NVMe, from the
    catalog) the script fails the node when that store is not mounted after its wait, instead of falling back to an
    EBS volume: a p6-b300 without its 8 NVMe disks is a broken instance, not one to serve 1.4 TB from EBS."""
    return f'REQUIRE_INSTANCE_STORE="${{REQUIRE_INSTANCE_STORE:-{int(require_instance_store)}}}"\n'


#: Deep health checks HyperPod runs on each new instance before it joins (GPU stress and EFA connectivity).
DEEP_HEALTH_CHECKS = ("InstanceStress", "InstanceConnectivity")


#: The SageMaker API asks that the lifecycle scripts' S3 path start with ``s3://sagemaker-``: the managed
#: AmazonSageMakerClusterInstanceRolePolicy lets the instances read buckets of that prefix in their own account
#: (botocore 1.43.127 data/sagemaker/2017-07-24/service-2.json, ClusterLifeCycleConfig.SourceS3Uri's documentation; the
#: shape's pattern itself, ``(https|s3)://([^/]+)/?(.*)``, does not enforce it).
LIFECYCLE_BUCKET_PREFIX = "sagemaker-lifecycle-"


def lifecycle_bucket_name() -> str:
    """``sagemaker-lifecycle-`` and the UUID of the stack's id (the last part of ``AWS::StackId``,
    ``arn:…:stack/NAME/UUID``): 20 + 36 = 56 characters of lowercase letters, digits and hyphens, starting and ending
    with a letter or digit, within S3's rules for bucket names (3 to 63 characters). CloudFormation gives each stack it
    creates a new UUID, so the name differs between environments, accounts and regions and between a stack and the one
    that replaces it after a delete, as a name CloudFormation generates would."""
    stack_uuid = cdk.Fn.select(2, cdk.Fn.split("/", cdk.Aws.STACK_ID))
    return cdk.Fn.join("", [LIFECYCLE_BUCKET_PREFIX, stack_uuid])


class HyperPodCluster(Construct):
    """HyperPod cluster + execution role + lifecycle scripts (uploaded from ``runtime/``).

    :param cluster_name: name of the HyperPod cluster.
    :param eks_cluster_arn: the orchestrating EKS cluster (authentication mode API or API_AND_CONFIG_MAP).
    :param vpc_id: the VPC of ``subnet_ids``: the instances' network interface writes are limited to it.
    :param subnet_ids: private subnets of the cluster.
    :param group_subnet_id: the subnet in the training plan's zone; the instance group is pinned to it.
    :param security_group_ids: security groups of the instances (the EKS cluster security group, and EFA's).
    :param instance_type: SageMaker instance type, for example ``ml.p6-b300.48xlarge``.
    :param instance_count: instances in the group.
    :param training_plan_arn: the Flexible Training Plan that provides the capacity.
    :param volume_size_gb: an extra EBS volume per instance, mounted at /opt/sagemaker; the lifecycle script uses it
        only when the instance has no instance store. Default: none.
    :param require_instance_store: the instance type has instance-store NVMe: the lifecycle script fails the node when
        it is not mounted after its wait rather than use the EBS volume. Default: false.
    :param labels: Kubernetes labels of the nodes. Default: none.
    """

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        cluster_name: str,
        eks_cluster_arn: str,
        vpc_id: str,
        subnet_ids: Sequence[str],
        group_subnet_id: str,
        security_group_ids: Sequence[str],
        instance_type: str,
        instance_count: int,
        training_plan_arn: str,
        volume_size_gb: int | None = None,
        labels: Mapping[str, str] | None = None,
        require_instance_store: bool = False,
    ) -> None:
        super().__init__(scope, id)
        if not instance_type.startswith("ml."):
            raise ValueError(
                f"instance_type must be a SageMaker instance type (ml.*), got {instance_type!r}"
            )
        if volume_size_gb is not None and not 1 <= volume_size_gb <= 16384:
            raise ValueError(f"volume_size_gb must be within 1..16384, got {volume_size_gb}")
        if not security_group_ids:
            raise ValueError("security_group_ids must list at least the EKS cluster security group")

        self.lifecycle_bucket = s3.Bucket(
            self,
            "LifecycleScripts",
            bucket_name=lifecycle_bucket_name(),
            encryption=s3.BucketEncryption.S3_MANAGED,
            enforce_ssl=True,
            block_public_access=s3.BlockPublicAccess.BLOCK_ALL,
            versioned=True,
            removal_policy=cdk.RemovalPolicy.DESTROY,
            auto_delete_objects=True,
        )
        acknowledge(
            self.lifecycle_bucket,
            "AwsSolutions-S1",
            "holds only the lifecycle scripts this app uploads from its own repository; versioning keeps history",
        )
        deployment = s3deploy.BucketDeployment(
            self,
            "UploadLifecycleScripts",
            sources=[
                s3deploy.Source.asset(str(LIFECYCLE_DIR)),
                s3deploy.Source.data(
                    SETTINGS_FILE, lifecycle_settings(require_instance_store=require_instance_store)
                ),
            ],
            destination_bucket=self.lifecycle_bucket,
            destination_key_prefix=LIFECYCLE_PREFIX,
        )
        acknowledge_bucket_deployment(self, self.lifecycle_bucket)

        self.execution_role = iam.Role(
            self,
            "ExecutionRole",
            assumed_by=sagemaker_principal(self),
            description=f"Instances of HyperPod cluster {cluster_name}",
            managed_policies=[
                iam.ManagedPolicy.from_aws_managed_policy_name(name)
                for name in (
                    "AmazonSageMakerClusterInstanceRolePolicy",
                    "AmazonEC2ContainerRegistryReadOnly",
                )
            ],
        )
        acknowledge(
            self.execution_role,
            managed_policy_finding("AmazonSageMakerClusterInstanceRolePolicy"),
            "the AWS managed policy HyperPod instances need (logs, metrics, cluster node operations)",
        )
        acknowledge(
            self.execution_role,
            managed_policy_finding("AmazonEC2ContainerRegistryReadOnly"),
            "nodes pull EKS system images (VPC CNI, kube-proxy) from ECR",
        )
        self.lifecycle_bucket.grant_read(self.execution_role, f"{LIFECYCLE_PREFIX}*")
        self._grant_network_and_pod_identity(
            vpc_id=vpc_id,
            subnet_ids=[*subnet_ids, group_subnet_id],
            security_group_ids=security_group_ids,
            eks_cluster_arn=eks_cluster_arn,
        )
        acknowledge_each(
            self.execution_role,
            (
                f"AwsSolutions-IAM5[Action::s3:{action}]"
                for action in ("GetBucket*", "GetObject*", "List*")
            ),
            "read access to the lifecycle bucket only, as grant_read writes it",
        )
        acknowledge(
            self.execution_role,
            f"AwsSolutions-IAM5[Resource::<{cdk.Stack.of(self).get_logical_id(self.lifecycle_bucket.node.default_child)}"
            f".Arn>/{LIFECYCLE_PREFIX}*]",
            "the lifecycle scripts under their prefix, nothing else in the bucket",
        )

        vpc = sagemaker.CfnCluster.VpcConfigProperty(
            security_group_ids=list(security_group_ids), subnets=list(subnet_ids)
        )
        pinned = sagemaker.CfnCluster.VpcConfigProperty(
            security_group_ids=list(security_group_ids), subnets=[group_subnet_id]
        )
        self.cluster = sagemaker.CfnCluster(
            self,
            "Cluster",
            cluster_name=cluster_name,
            orchestrator=sagemaker.CfnCluster.OrchestratorProperty(
                eks=sagemaker.CfnCluster.ClusterOrchestratorEksConfigProperty(
                    cluster_arn=eks_cluster_arn
                )
            ),
            vpc_config=vpc,
            node_recovery="Automatic",
            instance_groups=[
                sagemaker.CfnCluster.ClusterInstanceGroupProperty(
                    instance_group_name="gpu",
                    instance_type=instance_type,
                    instance_count=instance_count,
                    execution_role=self.execution_role.role_arn,
                    training_plan_arn=training_plan_arn,
                    # The plan's capacity is in one zone; the group's instances must be launched there.
                    override_vpc_config=pinned,
                    life_cycle_config=sagemaker.CfnCluster.ClusterLifeCycleConfigProperty(
                        source_s3_uri=f"s3://{self.lifecycle_bucket.bucket_name}/{LIFECYCLE_PREFIX}",
                        on_create=ON_CREATE,
                    ),
                    instance_storage_configs=[
                        sagemaker.CfnCluster.ClusterInstanceStorageConfigProperty(
                            ebs_volume_config=sagemaker.CfnCluster.ClusterEbsVolumeConfigProperty(
                                volume_size_in_gb=volume_size_gb
                            )
                        )
                    ]
                    if volume_size_gb
                    else None,
                    on_start_deep_health_checks=list(DEEP_HEALTH_CHECKS),
                    kubernetes_config=sagemaker.CfnCluster.ClusterKubernetesConfigProperty(
                        labels=dict(labels or {})
                    ),
                )
            ],
        )
        # The scripts must be in the bucket before the first instance runs them.
        self.cluster.node.add_dependency(deployment)

    def _grant_network_and_pod_identity(
        self,
        *,
        vpc_id: str,
        subnet_ids: Sequence[str],
        security_group_ids: Sequence[str],
        eks_cluster_arn: str,
    ) -> None:
        """What the SageMaker developer guide adds to the execution role of an EKS-orchestrated cluster ("AWS Identity
        and Access Management for SageMaker HyperPod", https://docs.aws.amazon.com/sagemaker/latest/dg/
        sagemaker-hyperpod-prerequisites-iam.html: the VPC CNI's network interface calls and
        eks-auth:AssumeRoleForPodIdentity on "*", CreateTags on network interfaces; HyperPod attaches the instances'
        interfaces in this VPC through network interface permissions), each action scoped as far as the Service
        Authorization Reference allows (https://docs.aws.amazon.com/service-authorization/latest/reference/
        list_amazonec2.html and list_amazoneksauth.html):

        - the EC2 Describe calls take no resource types: ``*``;
        - the interface writes, DeleteNetworkInterfacePermission included, act on network interfaces (resource type
          network-interface, whose condition key ``ec2:Vpc`` is the interface's VPC, for each of them): those of this
          account and region, in this VPC only;
        - CreateNetworkInterface authorizes the interface it creates (network-interface, whose only non-global
          condition key for this action is ``ec2:NetworkInterfaceID``: the new interface has no VPC to match yet, so
          ``ec2:Vpc`` there would deny every create), and the subnet and the security groups it names (subnet and
          security-group), each in a statement of its own, as AWS's AmazonEKSNetworkingPolicy grants it
          (https://docs.aws.amazon.com/aws-managed-policy/latest/reference/AmazonEKSNetworkingPolicy.html): any new
          interface of this account and region, in this cluster's subnets and groups only, and those in this VPC
          (``ec2:Vpc``, which subnet and security-group take);
        - Attach/DetachNetworkInterface and ModifyNetworkInterfaceAttribute also authorize the instance; HyperPod's
          instances run in an account SageMaker owns (hence the network interface permissions), so any account's
          instance in this region;
        - eks-auth:AssumeRoleForPodIdentity takes the cluster (resource type cluster): this EKS cluster.
        """
        partition, region, account = cdk.Aws.PARTITION, cdk.Aws.REGION, cdk.Aws.ACCOUNT_ID

        def ec2_arn(resource: str, owner: str = account) -> str:
            return f"arn:{partition}:ec2:{region}:{owner}:{resource}"

        network_interfaces = ec2_arn("network-interface/*")
        in_this_vpc = {"StringEquals": {"ec2:Vpc": ec2_arn(f"vpc/{vpc_id}")}}
        for statement in (
            iam.PolicyStatement(
                sid="DescribeNetwork",
                actions=[
                    "ec2:DescribeInstances",
                    "ec2:DescribeInstanceTypes",
                    "ec2:DescribeNetworkInterfaces",
                    "ec2:DescribeSubnets",
                    "ec2:DescribeSecurityGroups",
                    "ec2:DescribeVpcs",
                    "ec2:DescribeDhcpOptions",
                    "ec2:DescribeTags",
                ],
                resources=["*"],
            ),
            iam.PolicyStatement(
                sid="NetworkInterfacesInThisVpc",
                actions=[
                    "ec2:DeleteNetworkInterface",
                    "ec2:AttachNetworkInterface",
                    "ec2:DetachNetworkInterface",
                    "ec2:ModifyNetworkInterfaceAttribute",
                    "ec2:AssignPrivateIpAddresses",
                    "ec2:UnassignPrivateIpAddresses",
                    "ec2:CreateNetworkInterfacePermission",
                    "ec2:DeleteNetworkInterfacePermission",
                ],
                resources=[network_interfaces],
                conditions=in_this_vpc,
            ),
            iam.PolicyStatement(
                sid="NewNetworkInterfaces",
                actions=["ec2:CreateNetworkInterface"],
                resources=[network_interfaces],
            ),
            iam.PolicyStatement(
                sid="ThisClustersSubnetsAndSecurityGroups",
                actions=["ec2:CreateNetworkInterface", "ec2:ModifyNetworkInterfaceAttribute"],
                resources=[
                    *(ec2_arn(f"subnet/{subnet}") for subnet in dict.fromkeys(subnet_ids)),
                    *(ec2_arn(f"security-group/{group}") for group in security_group_ids),
                ],
                conditions=in_this_vpc,
            ),
            iam.PolicyStatement(
                sid="HyperPodInstances",
                actions=[
                    "ec2:AttachNetworkInterface",
                    "ec2:DetachNetworkInterface",
                    "ec2:ModifyNetworkInterfaceAttribute",
                ],
                resources=[ec2_arn("instance/*", owner="*")],
            ),
            # Tags on the instances' and pods' interfaces, also as they are created (tags on create); not limited to
            # the VPC, since a tag written on create is authorized before the interface exists.
            iam.PolicyStatement(
                sid="TagNetworkInterfaces",
                actions=["ec2:CreateTags"],
                resources=[network_interfaces],
            ),
            iam.PolicyStatement(
                sid="PodIdentity",
                actions=["eks-auth:AssumeRoleForPodIdentity"],
                resources=[eks_cluster_arn],
            ),
        ):
            self.execution_role.add_to_policy(statement)

        acknowledge(
            self.execution_role,
            "AwsSolutions-IAM5[Resource::*]",
            "the EC2 Describe calls (instances, instance types, network interfaces, subnets, security groups, "
            "VPCs, DHCP options, tags) take no resource types in the Service Authorization Reference",
        )
        acknowledge(
            self.execution_role,
            "AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ec2:<AWS::Region>:<AWS::AccountId>:network-interface/*]",
            "network interfaces of this account and region, whose ids are not known in advance (HyperPod and "
            "the VPC CNI create them): every write but CreateNetworkInterface and CreateTags only on interfaces in "
            "this VPC (ec2:Vpc); those two on any of them, as a new interface has no VPC to match before it exists "
            "(CreateNetworkInterface is limited to this cluster's subnets and security groups)",
        )
        acknowledge(
            self.execution_role,
            "AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ec2:<AWS::Region>:*:instance/*]",
            "attaching, detaching and changing this VPC's network interfaces (limited by the network-interface "
            "statement) on HyperPod's instances, which run in an account SageMaker owns, under ids not known in "
            "advance; no other instance action is granted",
        )
