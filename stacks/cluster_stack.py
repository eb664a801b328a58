"""The EKS control plane, its add-ons and the small node group for system pods."""

from __future__ import annotations

import importlib

import aws_cdk as cdk
from aws_cdk import aws_ec2 as ec2
from aws_cdk import aws_eks_v2 as eks
from aws_cdk import aws_kms as kms
from constructs import Construct

from cdk_constructs.nag_acknowledgements import acknowledge_cluster_role, acknowledge_kubectl_provider, acknowledge_node_role
from deployment_config.addons import COREDNS, NETWORK_ADDONS
from deployment_config.model import EnvironmentConfig, Platform

#: kubectl Lambda layer for each supported Kubernetes version: (module, class).
KUBECTL_LAYERS = {
    "1.34": ("aws_cdk.lambda_layer_kubectl_v34", "KubectlV34Layer"),
    "1.35": ("aws_cdk.lambda_layer_kubectl_v35", "KubectlV35Layer"),
}


class ClusterStack(cdk.Stack):
    """An EKS cluster (``aws_eks_v2``, no Auto Mode) ready for GPU node groups.

    Private API endpoint unless the configuration lists CIDRs for a public one; secrets encrypted with a
    customer-managed KMS key; all control-plane log types on; access through access entries only.
    """

    def __init__(self, scope: Construct, id: str, *, env_config: EnvironmentConfig, vpc: ec2.IVpc, **kwargs) -> None:
        super().__init__(scope, id, **kwargs)
        cluster_config = env_config.cluster
        private_subnets = ec2.SubnetSelection(subnet_type=ec2.SubnetType.PRIVATE_WITH_EGRESS)

        secrets_key = kms.Key(
            self, "SecretsKey", enable_key_rotation=True, removal_policy=cdk.RemovalPolicy.DESTROY,
            description=f"Envelope encryption of Kubernetes secrets in {env_config.cluster_name}",
        )
        if cluster_config.endpoint_public_cidrs:
            endpoint_access = eks.EndpointAccess.PUBLIC_AND_PRIVATE.only_from(*cluster_config.endpoint_public_cidrs)
        else:
            endpoint_access = eks.EndpointAccess.PRIVATE

        module_name, class_name = KUBECTL_LAYERS[env_config.kubernetes_version]
        kubectl_layer = getattr(importlib.import_module(module_name), class_name)(self, "KubectlLayer")

        self.cluster = eks.Cluster(
            self,
            "Cluster",
            cluster_name=env_config.cluster_name,
            version=eks.KubernetesVersion.of(env_config.kubernetes_version),
            vpc=vpc,
            vpc_subnets=[private_subnets],
            endpoint_access=endpoint_access,
            secrets_encryption_key=secrets_key,
            cluster_logging=list(eks.ClusterLoggingTypes),
            # Managed node groups, not Auto Mode; the networking add-ons are managed EKS add-ons below.
            default_capacity_type=eks.DefaultCapacityType.NODEGROUP,
            default_capacity=0,
            bootstrap_self_managed_addons=False,
            # Nobody is admin by accident: the deploying role gets no implicit access; the admin role below does.
            bootstrap_cluster_creator_admin_permissions=False,
            kubectl_provider_options=eks.KubectlProviderOptions(
                kubectl_layer=kubectl_layer,
                # With a private endpoint, kubectl must run inside the VPC.
                private_subnets=vpc.select_subnets(subnet_type=ec2.SubnetType.PRIVATE_WITH_EGRESS).subnets,
            ),
            output_config_command=False,
        )

        acknowledge_cluster_role(self.cluster.role)
        acknowledge_kubectl_provider(self.cluster.kubectl_provider)

        self.cluster.grant_access(
            "AdminAccess",
            cluster_config.admin_role_arn,
            [eks.AccessPolicy.from_access_policy_name(
                "AmazonEKSClusterAdminPolicy", access_scope_type=eks.AccessScopeType.CLUSTER)],
        )

        network_addons = [eks.Addon(self, f"Addon-{pin.name}", cluster=self.cluster, addon_name=pin.name,
                                    addon_version=pin.version) for pin in NETWORK_ADDONS]

        self.system_nodegroup = self.cluster.add_nodegroup_capacity(
            "SystemNodes",
            nodegroup_name="system",
            instance_types=[ec2.InstanceType(cluster_config.system_instance_type)],
            ami_type=eks.NodegroupAmiType.AL2023_X86_64_STANDARD,
            capacity_type=eks.CapacityType.ON_DEMAND,
            min_size=cluster_config.system_node_count,
            desired_size=cluster_config.system_node_count,
            max_size=cluster_config.system_node_count * 2,
            subnets=private_subnets,
            labels={"llm-serving/node-role": "system"},
        )
        acknowledge_node_role(self.system_nodegroup.role,
                              ("AmazonEKSWorkerNodePolicy", "AmazonEC2ContainerRegistryReadOnly", "AmazonEKS_CNI_Policy"))
        # Nodes only turn Ready with the CNI in place.
        for addon in network_addons:
            self.system_nodegroup.node.add_dependency(addon)
        # coredns only turns ACTIVE once it runs, on the system nodes.
        coredns = eks.Addon(self, "Addon-coredns", cluster=self.cluster, addon_name=COREDNS.name, addon_version=COREDNS.version)
        coredns.node.add_dependency(self.system_nodegroup)

        region = env_config.region
        cdk.CfnOutput(
            self, "UpdateKubeconfigCommand",
            description="Run this (as the admin role) to point kubectl at the cluster",
            value=(f"aws eks update-kubeconfig --region {region} --name {env_config.cluster_name} "
                   f"--role-arn {cluster_config.admin_role_arn}"),
        )
        cdk.CfnOutput(self, "ClusterName", value=self.cluster.cluster_name)
        # HyperPod and its Inference Operator give AWS roles to service accounts through IRSA.
        self.oidc_provider = None
        if env_config.platform is Platform.HYPERPOD:
            self.oidc_provider = eks.OidcProviderNative(self, "OidcProvider",
                                                        url=self.cluster.cluster_open_id_connect_issuer_url)
        if not cluster_config.endpoint_public_cidrs:
            cdk.CfnOutput(
                self, "EndpointAccessNote",
                value="The API endpoint is private: run kubectl from inside the VPC (SSM session, VPN), "
                      "or list your CIDR under cluster.endpoint_public_cidrs",
            )
