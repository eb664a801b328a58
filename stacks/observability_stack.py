"""Metrics, dashboard and alarms of an EKS environment (issue 10). Deployed after the serving stack, destroyed before it.

Decisions, each with its reason (sources in the modules named):

**Where the metrics go.** Two sources, because no single one has both:

- GPU health goes through the ``amazon-cloudwatch-observability`` add-on (cluster stack, with its log groups and Pod
  Identity role): Container Insights with enhanced observability puts NVIDIA DCGM metrics into CloudWatch as
  ``node_gpu_utilization``, ``node_gpu_memory_utilization``, ``node_gpu_temperature``, ``node_gpu_power_draw``, ...
  per GPU, EFA counters (``node_efa_*``), node status, and ships every container's log with Fluent Bit
  (cdk_constructs/serving_metrics/, CONTAINER_INSIGHTS_GPU_METRICS). It has no XID field, and its Prometheus
  scraping drops histograms, which all of vLLM's latencies are.
- vLLM's serving metrics go through Amazon Managed Service for Prometheus: an agentless managed scraper
  (``AWS::APS::Scraper``; the cluster's authentication mode API lets AMP create the scraper's access entry itself, so
  no aws-auth or RBAC object is needed; its network interfaces carry the cluster security group, which admits them to
  the nodes' pods) reads vLLM's ``/metrics`` (not behind the API key) and the node monitoring agent's metrics (XID
  errors). A Lambda function puts quantiles and rates from AMP into CloudWatch every minute, where standard alarms,
  with their missing-data rules, and the dashboard read them (cdk_constructs/serving_metrics/ says why not the
  CloudWatch agent or PromQL alarms).
- With a router in front of two or more replicas (charts/vllm_router.py) the same scraper reads the router's own
  metrics (job ``vllm-router``), the publisher puts a few of them (ROUTER_PUBLISHED: requests, failures, latency,
  spread over the workers, prefix hits, replicas up) and the dashboard shows them in a row of their own.

**The load balancer's name is only known after deploy**, and CloudWatch metrics carry no tags: the publisher finds the
load balancer by the tags the cloud provider writes (the same the destroy waiter uses) and counts its healthy targets
with DescribeTargetHealth every minute. No load balancer counts as 0 healthy targets. A custom resource that reads the
name at deploy time would go stale the day the Service is recreated; a SEARCH expression cannot be alarmed on.

**The reservation's remaining time** is only known to EC2: the same function puts ``CapacityBlockHoursLeft`` from
DescribeCapacityReservations' EndDate, and the dashboard's text widget names ``bin/llmops capacity-blocks show``.

**Alarms** (cdk_constructs/serving_alarms.py): no healthy target, p90 time to first token, KV cache full, 5xx rate,
NVIDIA XID errors, GPUs not reporting, and with a next Capacity Block a gap between the blocks
(cdk_constructs/serving_gap.py); all to one KMS-encrypted, TLS-only SNS topic with the configured e-mail
subscriptions, on ALARM and on OK. The topic (``AlarmTopic``), its output ``AlarmTopicArn`` and the reservation and
cluster event rules (cdk_constructs/capacity_events.py) live in the cluster stack, which deploys before the capacity
starts: this stack deploys once it is active, after the serving (or endpoint) stack, too late for EC2's "Capacity Block
Delivered", and not at all when an earlier stack fails. The alarms reach the topic by a cross-stack reference.

**Node health**: the ``eks-node-monitoring-agent`` add-on (cluster stack) and node auto repair on the GPU node group
(cdk_constructs/capacity_block_node_group.py says what a repair does inside a Capacity Block).

**Logs**: vLLM's stdout and stderr reach ``/aws/containerinsights/CLUSTER/application`` through the add-on's Fluent Bit;
the cluster stack creates that group (and the add-on's three others) with ``observability.log_retention_days`` before
the add-on starts, so the retention applies and ``cdk destroy`` removes them.

**On HyperPod** (``platform: hyperpod``, after the endpoint stack) the same workspace, scraper, publisher, dashboard and
serving alarms, with what differs:

- *Scrape*: the operator's worker pod in the InferenceEndpointConfig's namespace, kept by its declared container port,
  ``worker.modelInvocationPort.containerPort`` of charts/inference_endpoint_chart.py (8000, vLLM's own port; the chart's
  ``metrics.modelMetrics.port`` names the same port and path), and by the label ``app=<InferenceEndpointConfig name>``
  the operator puts on the worker's pods (the CRD has no field for labels; AWS's HyperPod CLI finds an endpoint's pods
  by that label: aws/sagemaker-hyperpod-cli@011ca92 src/sagemaker/hyperpod/inference/hp_endpoint.py, ``list_pods``).
  No node monitoring job.
- *Load balancer*: the operator's AWS Load Balancer Controller makes the endpoint's ALB and tags every load balancer it
  makes with ``elbv2.k8s.aws/cluster`` = the cluster's name (cdk_constructs/destroy_waiter/, with its source); the
  endpoint stack's destroy waiter finds it by that tag, and so does the publisher. That controller serves only the
  operator in this cluster: its load balancers are the endpoint's.
- *Capacity*: ``TrainingPlanHoursLeft`` from sagemaker:DescribeTrainingPlan's EndTime, in place of the Capacity Block's.
- *GPU metrics* (stacks/hyperpod_gpu_metrics.py): this stack installs AWS's ``amazon-sagemaker-hyperpod-observability``
  add-on (pinned, with its source, in deployment_config/addons.py, HYPERPOD_OBSERVABILITY), writing to this stack's AMP
  workspace; no Amazon Managed Grafana (it needs IAM Identity Center). Its OpenTelemetry collector gets its role
  through EKS Pod Identity, through the add-on's own association (namespace ``hyperpod-observability``, service account
  ``hyperpod-observability-operator-otel-collector``), with exactly the permissions of AWS's troubleshooting page:
  ``aps:RemoteWrite`` on this workspace, CloudWatch Logs on ``/aws/sagemaker/Clusters/*``; trusted by
  ``pods.eks.amazonaws.com`` for that service account of this cluster only, by the session tags the EKS user guide
  documents (cdk_constructs/pod_identity.py, pod_identity_principal). Not pod_identity_role: that makes its own
  association, where AWS lists the association as the add-on's. The add-on needs a HyperPod node and the Pod
  Identity agent before its install (setup page): this stack deploys after the HyperPod cluster stack (through the
  operator and endpoint stacks) and the cluster stack installs the agent. The publisher reads DCGM's utilization,
  framebuffer memory, temperature, power and last XID from the workspace (cdk_constructs/serving_metrics/,
  DCGM_PUBLISHED), the dashboard has GPU rows from them, and the XID alarm watches GPUs with an XID. The EKS path's
  node monitoring agent is not installed, nor Container Insights' GPU metrics (the cluster stack installs
  ``amazon-cloudwatch-observability`` for the logs only): HyperPod's health-monitoring agent and deep health checks
  (the dependencies chart of stacks/hyperpod_prerequisites_stack.py, and ``NodeRecovery: Automatic``) taint, reboot
  or replace a node with a GPU fault; ``GpusNotReporting`` alarms when fewer GPUs report to DCGM than the instance group holds.
- *Logs*: as on EKS, through Container Insights into ``/aws/containerinsights/CLUSTER/application`` with the
  configured retention (the cluster stack); the HyperPod add-on's logging stays off (it would create its log groups
  under ``/aws/sagemaker/Clusters/`` itself, without the environment's retention, and ship the same lines again).
"""

from __future__ import annotations

import aws_cdk as cdk
from aws_cdk import aws_aps as aps
from aws_cdk import aws_ec2 as ec2
from aws_cdk import aws_eks_v2 as eks
from aws_cdk import aws_sns as sns
from constructs import Construct

from cdk_constructs.alarm_runbooks import (
    capacity_block_ending,
    hyperpod_runbook,
    training_plan_ending,
)
from cdk_constructs.budget_alarm import BudgetAlarm
from cdk_constructs.canary_alarm import canary_rollback_rule
from cdk_constructs.destroy_waiter import load_balancer_controller_tags, service_load_balancer_tags
from cdk_constructs.router_alarm import router_error_rule
from cdk_constructs.serving_alarms import GpuWatch, ServingAlarms
from cdk_constructs.serving_dashboard import (
    ServingDashboard,
    capacity_block_view,
    training_plan_view,
)
from cdk_constructs.serving_gap import serving_gap_plan, serving_gap_rule
from cdk_constructs.serving_metrics import (
    CAPACITY_BLOCK_HOURS_LEFT,
    TRAINING_PLAN_HOURS_LEFT,
    ServingMetricsPublisher,
    bridge_metering,
    scrape_configuration_blob,
)
from charts.inference_endpoint_spec import InferenceEndpointSpec
from charts.serving_spec import VllmServingSpec
from charts.vllm_router import ROUTER_METRICS_PORT
from deployment_config.model import EnvironmentConfig, Platform
from stacks.hyperpod_gpu_metrics import hyperpod_observability_addon


def router_metrics_port(spec: VllmServingSpec | InferenceEndpointSpec) -> int | None:
    """The Prometheus port of the router in front of the EKS path's replicas (charts/vllm_router.py); None without."""
    return ROUTER_METRICS_PORT if getattr(spec, "router_policy", None) else None


class ObservabilityStack(cdk.Stack):
    """AMP workspace and scraper, the serving metrics publisher, the dashboard and the alarms of one environment: the
    EKS path's vLLM Deployment (``spec`` a VllmServingSpec) or HyperPod's InferenceEndpointConfig. The alarms notify
    ``alarm_topic``, the cluster stack's (stacks/cluster_stack.py)."""

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        env_config: EnvironmentConfig,
        cluster: eks.ICluster,
        vpc: ec2.IVpc,
        spec: VllmServingSpec | InferenceEndpointSpec,
        alarm_topic: sns.ITopic,
        **kwargs,
    ) -> None:
        super().__init__(scope, id, **kwargs)
        self.alarm_topic = alarm_topic
        cluster_name = env_config.cluster_name
        hyperpod = env_config.platform is Platform.HYPERPOD
        self.workspace = aps.CfnWorkspace(self, "Prometheus", alias=f"{cluster_name}-serving")
        private = vpc.select_subnets(subnet_type=ec2.SubnetType.PRIVATE_WITH_EGRESS)
        self.scraper = aps.CfnScraper(
            self,
            "Scraper",
            alias=f"{cluster_name}-serving",
            source=aps.CfnScraper.SourceProperty(
                eks_configuration=aps.CfnScraper.EksConfigurationProperty(
                    cluster_arn=cluster.cluster_arn,
                    # AMP wants the cluster's own subnets (two zones at least, five at most) and security group.
                    subnet_ids=private.subnet_ids[:5],
                    security_group_ids=[cluster.cluster_security_group_id],
                )
            ),
            destination=aps.CfnScraper.DestinationProperty(
                amp_configuration=aps.CfnScraper.AmpConfigurationProperty(
                    workspace_arn=self.workspace.attr_arn
                )
            ),
            scrape_configuration=aps.CfnScraper.ScrapeConfigurationProperty(
                configuration_blob=scrape_configuration_blob(
                    namespace=spec.namespace,
                    port=spec.port,
                    node_monitoring=not hyperpod,
                    app_label=spec.name if hyperpod else None,
                    router_metrics_port=router_metrics_port(spec),
                )
            ),
        )
        if hyperpod:
            self._hyperpod(env_config, cluster_name, spec)
            self.gpu_metrics_role, self.gpu_metrics_addon = hyperpod_observability_addon(
                self, cluster=cluster, cluster_name=cluster_name, workspace=self.workspace
            )
        else:
            self._eks(env_config, cluster_name, spec)

        # Optional: a monthly AWS Budgets cost budget over the environment's tag, e-mailing the alarm addresses.
        self.budget = (
            BudgetAlarm(self, "Budget", env_config=env_config)
            if env_config.observability.monthly_budget_usd is not None
            else None
        )
        cdk.CfnOutput(
            self,
            "DashboardUrl",
            description="The environment's CloudWatch dashboard",
            value=(
                f"https://{env_config.region}.console.aws.amazon.com/cloudwatch/home?region="
                f"{env_config.region}#dashboards/dashboard/{cluster_name}-serving"
            ),
        )
        # Both platforms: the cluster stack's Container Insights add-on ships every container's log, with its retention.
        cdk.CfnOutput(
            self,
            "ContainerLogsCommand",
            description="Follow vLLM's log in CloudWatch Logs",
            value=f"aws logs tail /aws/containerinsights/{cluster_name}/application --follow "
            f"--filter-pattern '\"{spec.namespace}\"' --region {env_config.region}",
        )

    def _publisher(self, cluster_name: str, **kwargs) -> ServingMetricsPublisher:
        return ServingMetricsPublisher(
            self,
            "ServingMetrics",
            cluster_name=cluster_name,
            prometheus_endpoint=self.workspace.attr_prometheus_endpoint,
            workspace_arn=self.workspace.attr_arn,
            **kwargs,
        )

    def _eks(self, env_config: EnvironmentConfig, cluster_name: str, spec: VllmServingSpec) -> None:
        capacity = env_config.capacity
        # a router in front of two or more replicas (charts/vllm_router.py): its metrics, scraped as job vllm-router
        router = router_metrics_port(spec) is not None
        # With a next block: ServingGapMinutes and its alarm, on llmops handover's plan (cdk_constructs/serving_gap.py).
        gap = serving_gap_plan(env_config)
        # With a bridge section: its instances (and their cost) every minute, and on the dashboard.
        bridge = bridge_metering(env_config)
        self.publisher = self._publisher(
            cluster_name,
            load_balancer_tags=service_load_balancer_tags(cluster_name, spec.namespace, spec.name),
            capacity_reservation_id=capacity.capacity_reservation_id,
            next_capacity_reservation_id=capacity.next_capacity_reservation_id,
            spec_decoding=bool(env_config.model.speculator_size_gb),
            router=router,
            block_fee_usd=env_config.observability.block_fee_usd,
            next_block_fee_usd=env_config.observability.next_block_fee_usd,
            serving_gap=gap,
            bridge=bridge,
        )
        self.alarms = ServingAlarms(
            self,
            "Alarms",
            topic=self.alarm_topic,
            cluster_name=cluster_name,
            observability=env_config.observability,
            gpu_watch=GpuWatch(
                gpus_per_node=env_config.gpu_instance_type.gpu_count,
                gpu_node_count=capacity.instance_count,
                capacity_reservation_id=capacity.capacity_reservation_id,
            ),
            capacity_ending=capacity_block_ending(
                metric_name=CAPACITY_BLOCK_HOURS_LEFT,
                env_name=env_config.name,
                reservation_id=capacity.capacity_reservation_id,
                region=env_config.region,
            ),
            extra_rules=[
                *(
                    [serving_gap_rule(cluster_name, env_config.name, env_config.region, gap)]
                    if gap
                    else []
                ),
                *([router_error_rule(cluster_name, env_config.observability)] if router else []),
                *([canary_rollback_rule(cluster_name, env_config.name)] if router else []),
            ],
        )
        self.dashboard = ServingDashboard(
            self,
            "Dashboard",
            env_name=env_config.name,
            cluster_name=cluster_name,
            region=env_config.region,
            served_name=env_config.model.served_name,
            capacity=capacity_block_view(capacity.capacity_reservation_id, env_config.region),
            observability=env_config.observability,
            alarms=list(self.alarms.alarms.values()),
            spec_decoding=bool(env_config.model.speculator_size_gb),
            router=router,
            bridge=bridge,
        )

    def _hyperpod(
        self, env_config: EnvironmentConfig, cluster_name: str, spec: InferenceEndpointSpec
    ) -> None:
        plan_arn = env_config.hyperpod.training_plan_arn
        plan_name = plan_arn.rsplit("/", 1)[-1]
        hyperpod_cluster_name = env_config.hyperpod_cluster_name
        self.publisher = self._publisher(
            cluster_name,
            load_balancer_tags=load_balancer_controller_tags(cluster_name),
            training_plan_arn=plan_arn,
            node_monitoring=False,
            dcgm=True,
        )
        self.alarms = ServingAlarms(
            self,
            "Alarms",
            topic=self.alarm_topic,
            cluster_name=cluster_name,
            observability=env_config.observability,
            xid_alarm=True,
            expected_gpus=env_config.hyperpod.gpu_instance_type.gpu_count
            * env_config.hyperpod.instance_count,
            runbook=hyperpod_runbook(
                namespace=spec.namespace,
                endpoint_name=spec.name,
                hyperpod_cluster_name=hyperpod_cluster_name,
                region=env_config.region,
                training_plan=plan_name,
            ),
            capacity_ending=training_plan_ending(
                metric_name=TRAINING_PLAN_HOURS_LEFT,
                plan_name=plan_name,
                env_name=env_config.name,
                region=env_config.region,
            ),
        )
        self.dashboard = ServingDashboard(
            self,
            "Dashboard",
            env_name=env_config.name,
            cluster_name=cluster_name,
            region=env_config.region,
            served_name=env_config.model.served_name,
            capacity=training_plan_view(plan_name, env_config.region),
            observability=env_config.observability,
            alarms=list(self.alarms.alarms.values()),
            gpu_health=False,
            dcgm_gpu=True,
            sources="Serving metrics come from vLLM's /metrics (the Inference Operator's worker pod) through Amazon "
            "Managed Service for Prometheus (namespace LLMServing, put every minute); healthy targets of the "
            "operator's load balancer; GPU metrics from NVIDIA DCGM through the HyperPod observability add-on "
            "and the same workspace. Node repair: HyperPod's health-monitoring agent and deep health checks. "
            "No traffic means no latency values, not zero.",
            logs=f"Nodes: `aws sagemaker list-cluster-nodes --cluster-name {hyperpod_cluster_name} --region "
            f"{env_config.region}` · Logs: `aws logs tail /aws/containerinsights/{cluster_name}/application "
            f"--follow --filter-pattern '\"{spec.namespace}\"'` (or `kubectl -n {spec.namespace} logs POD`)",
        )
