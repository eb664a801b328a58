"""The SageMaker HyperPod cluster on the training plan's capacity."""

from __future__ import annotations

import aws_cdk as cdk
from aws_cdk import aws_ec2 as ec2
from aws_cdk import aws_eks_v2 as eks
from constructs import Construct

from cdk_constructs.destroy_waiter import DestroyWaiter
from cdk_constructs.hyperpod_cluster import HyperPodCluster
from cdk_constructs.image_cache import grant_pull_through
from deployment_config.model import EnvironmentConfig


class HyperPodClusterStack(cdk.Stack):
    """One GPU instance group on the configured training plan, pinned to the plan's zone."""

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        env_config: EnvironmentConfig,
        cluster: eks.ICluster,
        vpc: ec2.IVpc,
        gpu_subnet: ec2.ISubnet,
        efa_security_group: ec2.ISecurityGroup,
        **kwargs,
    ) -> None:
        super().__init__(scope, id, **kwargs)
        hyperpod = env_config.hyperpod
        self.hyperpod = HyperPodCluster(
            self,
            "HyperPod",
            cluster_name=env_config.hyperpod_cluster_name,
            eks_cluster_arn=cluster.cluster_arn,
            vpc_id=vpc.vpc_id,
            subnet_ids=[s.subnet_id for s in vpc.private_subnets],
            group_subnet_id=gpu_subnet.subnet_id,
            security_group_ids=[
                cluster.cluster_security_group_id,
                efa_security_group.security_group_id,
            ],
            instance_type=hyperpod.instance_type,
            instance_count=hyperpod.instance_count,
            training_plan_arn=hyperpod.training_plan_arn,
            volume_size_gb=hyperpod.volume_size_gb,
            require_instance_store=hyperpod.gpu_instance_type.instance_store_disks > 0,
        )
        if env_config.model.image_cache:
            grant_pull_through(
                self.hyperpod.execution_role, env_config.model.image_cache.repository_prefix
            )
        self.cluster_arn = self.hyperpod.cluster.attr_cluster_arn
        # CloudFormation does not wait for the network interfaces SageMaker made for the instances: on destroy, this
        # waiter (deleted after the HyperPod cluster) holds the stack until none is left in the VPC, before the network
        # stack deletes the subnets. The EFA group is on the instances' interfaces only, never on the cluster's own.
        self.network_interface_waiter = DestroyWaiter(
            self,
            "NetworkInterfacesGone",
            vpc_id=vpc.vpc_id,
            security_group_ids=[efa_security_group.security_group_id],
        )
        self.hyperpod.cluster.node.add_dependency(self.network_interface_waiter)
        cdk.CfnOutput(self, "HyperPodClusterArn", value=self.cluster_arn)
        cdk.CfnOutput(
            self,
            "WatchNodesCommand",
            value=(
                f"aws sagemaker list-cluster-nodes --cluster-name {env_config.name}-hyperpod --region {env_config.region}"
            ),
        )
