"""The EKS control plane, its add-ons and the small node group for system pods."""

from __future__ import annotations

import importlib

import aws_cdk as cdk
from aws_cdk import aws_ec2 as ec2
from aws_cdk import aws_eks_v2 as eks
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk import aws_logs as logs
from constructs import Construct

from cdk_constructs.alarm_topic import AlarmTopic
from cdk_constructs.capacity_events import CapacityEvents, capacity_block_rules, hyperpod_rules
from cdk_constructs.image_cache import DockerHubPullThroughCache
from cdk_constructs.nag_acknowledgements import (
    acknowledge_cloudwatch_agent_role,
    acknowledge_cluster_role,
    acknowledge_kubectl_provider,
    acknowledge_node_role,
)
from cdk_constructs.pod_identity import pod_identity_principal
from cdk_constructs.weights_mirror_access import WeightsMirrorAccess
from deployment_config import addon_outputs
from deployment_config.addons import (
    CLOUDWATCH_OBSERVABILITY,
    COREDNS,
    NETWORK_ADDONS,
    NODE_MONITORING_AGENT,
    POD_IDENTITY_AGENT,
    SECRETS_STORE_CSI_PROVIDER,
    VPC_CNI_CONFIGURATION,
    cloudwatch_observability_configuration,
    node_monitoring_agent_configuration,
    secrets_store_csi_provider_configuration,
)
from deployment_config.gpu_nodes import gpu_node_toleration
from deployment_config.kubernetes_names import (
    INFERENCE_ENDPOINT_NAMESPACE,
    SYSTEM_NODE_LABELS,
    inference_endpoint_name,
)
from deployment_config.model import EnvironmentConfig, Platform, WeightSource

#: kubectl Lambda layer for each supported Kubernetes version: (module, class).
KUBECTL_LAYERS = {
    "1.34": ("aws_cdk.lambda_layer_kubectl_v34", "KubectlV34Layer"),
    "1.35": ("aws_cdk.lambda_layer_kubectl_v35", "KubectlV35Layer"),
}


#: Renamed from "system" when the group got its launch template: EKS updates a node group to a launch template only if
#: it was created with one (EKS API reference, UpdateNodegroupVersion, launchTemplate), and a new name makes
#: CloudFormation replace the group (create the new one, then delete the old) instead of failing the update.
SYSTEM_NODEGROUP_NAME = "system-imdsv2"


def system_node_launch_template(scope: Construct) -> ec2.CfnLaunchTemplate:
    """The system nodes' launch template: only IMDS settings; instance type, AMI and disk stay the node group's.

    IMDSv2 with a hop limit of 1: a pod on the pod network cannot reach the instance metadata service, so it cannot
    take the node role (EKS best practices, "Restrict access to the instance profile assigned to the worker node",
    https://docs.aws.amazon.com/eks/latest/best-practices/identity-and-access-management.html: "V2 only (token
    required)", "Metadata response hop limit - 1" in the launch template). A managed node group created without a launch
    template runs on one the EKS API creates "with default values" (EKS user guide, "Customize managed nodes with launch
    templates", https://docs.aws.amazon.com/eks/latest/userguide/launch-templates.html), whose hop limit is 2 for
    AL2023 nodes (EKS user guide, "Upgrade from Amazon Linux 2 to Amazon Linux 2023",
    https://docs.aws.amazon.com/eks/latest/userguide/al2023.html). What runs on these nodes needs
    no IMDS from the pod network: pods get AWS credentials through Pod Identity or IRSA; the VPC CNI, kube-proxy, the
    Pod Identity agent, the node monitoring agent and the CloudWatch agent and Fluent Bit (aws-observability/
    helm-charts charts/amazon-cloudwatch-observability templates/linux/cloudwatch-agent-custom-resource.yaml and
    fluent-bit-daemonset.yaml: hostNetwork: true) run on the host's network, one hop from IMDS; the GPU nodes'
    launch template (cdk_constructs/capacity_block_node_group.py) has had the same settings from the start."""
    return ec2.CfnLaunchTemplate(
        scope,
        "SystemNodesLaunchTemplate",
        launch_template_data=ec2.CfnLaunchTemplate.LaunchTemplateDataProperty(
            metadata_options=ec2.CfnLaunchTemplate.MetadataOptionsProperty(
                http_endpoint="enabled", http_tokens="required", http_put_response_hop_limit=1
            )
        ),
    )


class ClusterStack(cdk.Stack):
    """An EKS cluster (``aws_eks_v2``, no Auto Mode) ready for GPU node groups.

    Private API endpoint unless the configuration lists CIDRs for a public one; secrets encrypted with a
    customer-managed KMS key; all control-plane log types on; access through access entries only.
    """

    def __init__(
        self, scope: Construct, id: str, *, env_config: EnvironmentConfig, vpc: ec2.IVpc, **kwargs
    ) -> None:
        super().__init__(scope, id, **kwargs)
        cluster_config = env_config.cluster
        private_subnets = ec2.SubnetSelection(subnet_type=ec2.SubnetType.PRIVATE_WITH_EGRESS)

        secrets_key = kms.Key(
            self,
            "SecretsKey",
            enable_key_rotation=True,
            removal_policy=cdk.RemovalPolicy.DESTROY,
            description=f"Envelope encryption of Kubernetes secrets in {env_config.cluster_name}",
        )
        if cluster_config.endpoint_public_cidrs:
            endpoint_access = eks.EndpointAccess.PUBLIC_AND_PRIVATE.only_from(
                *cluster_config.endpoint_public_cidrs
            )
        else:
            endpoint_access = eks.EndpointAccess.PRIVATE

        module_name, class_name = KUBECTL_LAYERS[env_config.kubernetes_version]
        kubectl_layer = getattr(importlib.import_module(module_name), class_name)(
            self, "KubectlLayer"
        )

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
                private_subnets=vpc.select_subnets(
                    subnet_type=ec2.SubnetType.PRIVATE_WITH_EGRESS
                ).subnets,
            ),
            output_config_command=False,
        )

        acknowledge_cluster_role(self.cluster.role)
        acknowledge_kubectl_provider(self.cluster.kubectl_provider)

        self.cluster.grant_access(
            "AdminAccess",
            cluster_config.admin_role_arn,
            [
                eks.AccessPolicy.from_access_policy_name(
                    "AmazonEKSClusterAdminPolicy", access_scope_type=eks.AccessScopeType.CLUSTER
                )
            ],
        )

        # The optional Docker Hub pull-through cache: in this stack, so that it exists before any GPU node (EKS node
        # group or HyperPod instance, in the stacks after this one) pulls the vLLM image through it.
        image_cache = env_config.model.image_cache
        self.image_cache = (
            DockerHubPullThroughCache(
                self,
                "ImageCache",
                credentials_secret_arn=image_cache.docker_hub_credentials_secret_arn,
                repository_prefix=image_cache.repository_prefix,
            )
            if image_cache
            else None
        )

        # The weights mirror Job's access (llmops weights mirror), when the weights come from S3: on either platform (on
        # HyperPod always, since the operator the add-on installs loads weights from S3 or FSx only).
        model = env_config.model
        self.weights_mirror = (
            WeightsMirrorAccess(
                self,
                "WeightsMirror",
                cluster=self.cluster,
                s3_uri=model.s3_uri,
                token_secret=model.hugging_face_token_secret,
            )
            if model.weight_source is WeightSource.S3
            else None
        )

        # vpc-cni with its network policy agent on: without it the serving chart's NetworkPolicy is not enforced.
        network_addons = [
            eks.Addon(
                self,
                f"Addon-{pin.name}",
                cluster=self.cluster,
                addon_name=pin.name,
                addon_version=pin.version,
                configuration_values=dict(VPC_CNI_CONFIGURATION) if pin.name == "vpc-cni" else None,
            )
            for pin in NETWORK_ADDONS
        ]

        self.system_launch_template = system_node_launch_template(self)
        self.system_nodegroup = self.cluster.add_nodegroup_capacity(
            "SystemNodes",
            nodegroup_name=SYSTEM_NODEGROUP_NAME,
            launch_template_spec=eks.LaunchTemplateSpec(
                id=self.system_launch_template.ref,
                version=self.system_launch_template.attr_latest_version_number,
            ),
            instance_types=[ec2.InstanceType(cluster_config.system_instance_type)],
            ami_type=eks.NodegroupAmiType.AL2023_X86_64_STANDARD,
            capacity_type=eks.CapacityType.ON_DEMAND,
            min_size=cluster_config.system_node_count,
            desired_size=cluster_config.system_node_count,
            max_size=cluster_config.system_node_count * 2,
            subnets=private_subnets,
            labels=dict(SYSTEM_NODE_LABELS),
        )
        acknowledge_node_role(
            self.system_nodegroup.role,
            (
                "AmazonEKSWorkerNodePolicy",
                "AmazonEC2ContainerRegistryReadOnly",
                "AmazonEKS_CNI_Policy",
            ),
        )
        # Nodes only turn Ready with the CNI in place.
        for addon in network_addons:
            self.system_nodegroup.node.add_dependency(addon)
        # coredns only turns ACTIVE once it runs, on the system nodes.
        coredns = eks.Addon(
            self,
            "Addon-coredns",
            cluster=self.cluster,
            addon_name=COREDNS.name,
            addon_version=COREDNS.version,
        )
        coredns.node.add_dependency(self.system_nodegroup)
        self.observability_addons: list[eks.Addon] = []
        self.container_insights_log_groups: dict[str, logs.CfnLogGroup] = {}
        self._add_observability_addons(env_config)
        # Both platforms deliver the API key and the Hugging Face token through it.
        self._add_secrets_store_csi(network_addons[NETWORK_ADDONS.index(POD_IDENTITY_AGENT)])
        self._add_alarm_topic(env_config)

        region = env_config.region
        cdk.CfnOutput(
            self,
            "UpdateKubeconfigCommand",
            description="Run this (as the admin role) to point kubectl at the cluster",
            value=(
                f"aws eks update-kubeconfig --region {region} --name {env_config.cluster_name} "
                f"--role-arn {cluster_config.admin_role_arn}"
            ),
        )
        cdk.CfnOutput(self, "ClusterName", value=self.cluster.cluster_name)
        cdk.CfnOutput(
            self,
            "AlarmTopicArn",
            value=self.alarm_topic.topic.topic_arn,
            description="Subscribe more endpoints (chat, paging) to this topic",
        )
        # HyperPod and its Inference Operator give AWS roles to service accounts through IRSA.
        self.oidc_provider = None
        if env_config.platform is Platform.HYPERPOD:
            self.oidc_provider = eks.OidcProviderNative(
                self, "OidcProvider", url=self.cluster.cluster_open_id_connect_issuer_url
            )
        if not cluster_config.endpoint_public_cidrs:
            cdk.CfnOutput(
                self,
                "EndpointAccessNote",
                value="The API endpoint is private: run kubectl from inside the VPC (SSM session, VPN), "
                "or list your CIDR under cluster.endpoint_public_cidrs",
            )

    def _add_observability_addons(self, env_config: EnvironmentConfig) -> None:
        """Container Insights (container logs; GPU metrics on the EKS platform) and, on the EKS platform, the node
        monitoring agent, after the system nodes like coredns: an add-on turns ACTIVE only once its pods run.

        On HyperPod, Container Insights ships the worker's log (SageMaker developer guide, "Orchestrating SageMaker
        HyperPod clusters with Amazon EKS": HyperPod integrates with CloudWatch Container Insights) but collects no GPU
        metrics: the HyperPod observability add-on's DCGM exporter does (stacks/observability_stack.py), and a second
        exporter would read the same GPUs for a second bill. No node monitoring agent there: HyperPod's own health
        agent and deep health checks do its job. Decisions and sources: stacks/observability_stack.py."""
        cluster_name = env_config.cluster_name
        eks_platform = env_config.platform is Platform.EKS
        # Fluent Bit and the agent create their log groups themselves (auto_create_group), without a retention and
        # outside CloudFormation. Created here first, with the configured retention, they are the groups the add-on
        # writes to, and `cdk destroy` removes them after the add-on (which depends on them) is gone.
        for kind in addon_outputs.CONTAINER_INSIGHTS_LOG_GROUPS:
            group = logs.CfnLogGroup(
                self,
                f"ContainerInsights-{kind}",
                log_group_name=addon_outputs.container_insights_log_group_name(cluster_name, kind),
                retention_in_days=env_config.observability.log_retention_days,
            )
            group.apply_removal_policy(cdk.RemovalPolicy.DESTROY)
            self.container_insights_log_groups[kind] = group

        # The add-on supports EKS Pod Identity from v3.1.0 (CloudWatch user guide, "Quick start with the Amazon
        # CloudWatch Observability EKS add-on"); the agent and Fluent Bit share one service account.
        namespace, service_account = CLOUDWATCH_OBSERVABILITY.service_account
        self.cloudwatch_agent_role = iam.Role(
            self,
            "CloudWatchAgentRole",
            assumed_by=pod_identity_principal(
                self.cluster, namespace=namespace, service_account=service_account
            ),
            managed_policies=[
                iam.ManagedPolicy.from_aws_managed_policy_name("CloudWatchAgentServerPolicy")
            ],
            description=f"CloudWatch agent and Fluent Bit of {cluster_name} ({namespace}/{service_account})",
        )
        acknowledge_cloudwatch_agent_role(self.cloudwatch_agent_role)
        cloudwatch = eks.Addon(
            self,
            f"Addon-{CLOUDWATCH_OBSERVABILITY.name}",
            cluster=self.cluster,
            addon_name=CLOUDWATCH_OBSERVABILITY.name,
            addon_version=CLOUDWATCH_OBSERVABILITY.version,
            configuration_values=cloudwatch_observability_configuration(
                accelerated_compute_metrics=eks_platform
            ),
        )
        cloudwatch.node.default_child.add_property_override(
            "PodIdentityAssociations",
            [{"ServiceAccount": service_account, "RoleArn": self.cloudwatch_agent_role.role_arn}],
        )
        cloudwatch.node.add_dependency(self.system_nodegroup)
        for group in self.container_insights_log_groups.values():
            cloudwatch.node.add_dependency(group)

        self.observability_addons = [cloudwatch]
        if not eks_platform:
            return
        gpu_toleration = gpu_node_toleration()
        monitoring = eks.Addon(
            self,
            f"Addon-{NODE_MONITORING_AGENT.name}",
            cluster=self.cluster,
            addon_name=NODE_MONITORING_AGENT.name,
            addon_version=NODE_MONITORING_AGENT.version,
            configuration_values=node_monitoring_agent_configuration([gpu_toleration]),
        )
        monitoring.node.add_dependency(self.system_nodegroup)
        self.observability_addons.append(monitoring)

    def _add_alarm_topic(self, env_config: EnvironmentConfig) -> None:
        """The environment's alarm topic and the capacity's event rules (cdk_constructs/capacity_events.py), here so that
        they exist before the capacity starts: the cluster stack is stage 1 of a staged deploy, before the Capacity Block
        or training plan is active (docs/deploy.md), and EC2 sends "Capacity Block Delivered" once, at the start. The
        rules need only what the configuration says (the reservation id; the HyperPod cluster's name, which
        stacks/hyperpod_cluster_stack.py gives it). The observability stack's alarms notify the same topic (a cross-stack
        reference; that stack depends on this one, so it is destroyed first and the topic outlives the alarms)."""
        self.alarm_topic = AlarmTopic(
            self,
            "AlarmTopic",
            cluster_name=env_config.cluster_name,
            alarm_emails=env_config.observability.alarm_emails,
        )
        if env_config.platform is Platform.HYPERPOD:
            rules = hyperpod_rules(
                env_name=env_config.name,
                hyperpod_cluster_name=env_config.hyperpod_cluster_name,
                region=env_config.region,
                namespace=INFERENCE_ENDPOINT_NAMESPACE,
                endpoint_name=inference_endpoint_name(env_config),
            )
        else:
            rules = capacity_block_rules(
                env_name=env_config.name,
                reservation_id=env_config.capacity.capacity_reservation_id,
                region=env_config.region,
                next_reservation_id=env_config.capacity.next_capacity_reservation_id,
            )
        self.capacity_events = CapacityEvents(
            self, "CapacityEvents", topic=self.alarm_topic.topic, rules=rules
        )

    def _add_secrets_store_csi(self, pod_identity_agent: eks.Addon) -> None:
        """The Secrets Store CSI driver and its AWS provider (one add-on, deployment_config/addons.py): the vLLM pod
        mounts its API key and Hugging Face token through them. After the Pod Identity agent, whose credentials the
        provider uses for the pod, and after the system nodes, where its DaemonSets first run. Not preserved on delete:
        the cluster stack's destroy leaves nothing of it running.

        On HyperPod the same add-on reaches the HyperPod nodes when they join: its two DaemonSets tolerate every taint
        (the configuration's ``tolerations``, the driver's default; HyperPod taints nodes while their health checks
        run) and their only node affinity keeps them off Fargate (and virtual-kubelet) nodes
        (aws/secrets-store-csi-driver-provider-aws@a74182c1 charts/secrets-store-csi-driver-provider-aws/values.yaml,
        ``affinity`` and ``secrets-store-csi-driver.linux.affinity``)."""
        addon = eks.Addon(
            self,
            f"Addon-{SECRETS_STORE_CSI_PROVIDER.name}",
            cluster=self.cluster,
            addon_name=SECRETS_STORE_CSI_PROVIDER.name,
            addon_version=SECRETS_STORE_CSI_PROVIDER.version,
            configuration_values=secrets_store_csi_provider_configuration(),
            preserve_on_delete=False,
        )
        addon.node.add_dependency(pod_identity_agent, self.system_nodegroup)
