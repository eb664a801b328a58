"""The alarms of one environment (the topic they notify: cdk_constructs/alarm_topic.py; the texts that differ by
platform: cdk_constructs/alarm_runbooks.py).

Each alarm is an :class:`AlarmRule`: what it watches, when it fires, what missing data means, and what to do. The
rules are data so that docs/operate.md's table, the tests and the template say the same thing.

Missing data, decided per alarm: a metric that exists only while something works (latency needs requests, the KV
cache needs a running engine) treats missing data as *not breaching*, and the liveness alarms cover the case where
nothing works; the liveness alarms themselves (healthy targets, GPUs reporting) treat missing data as *breaching*:
when the publisher or the GPU node is gone, nobody can say the endpoint is healthy, so it must not look healthy.

Why 3 of 5 minutes for latency and errors: each value is already a 5-minute window of vLLM's histograms or counters
(cdk_constructs/serving_metrics/, RATE_WINDOW), so a single burst (one long prompt, a client retry storm) moves one
or two consecutive values; three breaching minutes out of five is a regression that lasts, found within five minutes,
and a recovering endpoint does not flap. The KV cache must stay full for 5 of 5 minutes: it is full by design under
load (vLLM preallocates it and fills it before it preempts), and only a cache that stays full means requests wait.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import aws_cdk as cdk
from aws_cdk import aws_cloudwatch as cloudwatch
from aws_cdk import aws_cloudwatch_actions as cw_actions
from aws_cdk import aws_sns as sns
from constructs import Construct

from cdk_constructs.alarm_runbooks import EKS_RUNBOOK, CapacityEnding, Runbook
from cdk_constructs.serving_metrics import (
    CONTAINER_INSIGHTS_NAMESPACE,
    GPU_DEVICE_DIMENSIONS,
    HEALTHY_TARGETS,
    NAMESPACE,
    SERVING_BUSY,
)
from deployment_config.model import ObservabilityConfig

C = cloudwatch.ComparisonOperator
M = cloudwatch.TreatMissingData
#: Samples of one GPU metric per GPU in 5 minutes (Container Insights collects every 60 s:
#: aws/amazon-cloudwatch-agent@ab55b8d translator/translate/otel/receiver/awscontainerinsight/utils.go,
#: DefaultMetricsCollectionInterval).
GPU_SAMPLES_PER_GPU = 5


def serving_metric(
    cluster_name: str, name: str, statistic: str = "Average", label: str | None = None
) -> cloudwatch.Metric:
    """A metric the serving metrics publisher puts (namespace LLMServing, dimension ClusterName), per minute."""
    return cloudwatch.Metric(
        namespace=NAMESPACE,
        metric_name=name,
        dimensions_map={"ClusterName": cluster_name},
        statistic=statistic,
        period=cdk.Duration.minutes(1),
        label=label,
    )


def gpu_samples_query(cluster_name: str) -> str:
    """Metrics Insights: how many per-GPU samples of node_gpu_utilization the cluster's GPU nodes sent."""
    schema = ", ".join((f'"{CONTAINER_INSIGHTS_NAMESPACE}"', *GPU_DEVICE_DIMENSIONS))
    return f"SELECT COUNT(node_gpu_utilization) FROM SCHEMA({schema}) WHERE ClusterName = '{cluster_name}'"


@dataclass(frozen=True)
class GpuWatch:
    """Inputs of the GPU alarms, where Container Insights and the node monitoring agent run (the EKS path)."""

    gpus_per_node: int
    gpu_node_count: int
    capacity_reservation_id: str


#: ``CapacityEndingSoon`` fires when fewer hours than this are left in the capacity: enough to extend a Capacity Block,
#: which EC2 does until 1 hour before its end (ops_cli/capacity_block_extensions.py, check_extendable, with its source), and more
#: than the 40 minutes' notice of EC2's expiration warning (cdk_constructs/capacity_events.py).
CAPACITY_ENDING_HOURS = 2


def capacity_ending_rule(cluster_name: str, ending: CapacityEnding) -> AlarmRule:
    """``CapacityEndingSoon``: fewer than :data:`CAPACITY_ENDING_HOURS` hours left (the publisher puts the hours every
    minute; 0 once the capacity has ended, so the alarm stays in ALARM until the next capacity is configured). Missing
    data is not breaching: the publisher puts nothing when EC2 or SageMaker does not answer, and the liveness alarms
    cover a dead publisher."""
    return AlarmRule(
        "CapacityEndingSoon",
        f"Capacity ends within {CAPACITY_ENDING_HOURS} hours",
        serving_metric(cluster_name, ending.metric_name, "Minimum"),
        CAPACITY_ENDING_HOURS,
        C.LESS_THAN_THRESHOLD,
        1,
        1,
        M.NOT_BREACHING,
        f"Fewer than {CAPACITY_ENDING_HOURS} hours are left in {ending.capacity} ({ending.metric_name}; 0 once it has "
        f"ended): {ending.consequence}",
        ending.action,
    )


@dataclass(frozen=True)
class AlarmRule:
    """One alarm: its metric, condition, missing-data rule, and the operator's instructions."""

    id: str
    title: str
    metric: cloudwatch.IMetric
    threshold: float
    comparison: cloudwatch.ComparisonOperator
    evaluation_periods: int
    datapoints_to_alarm: int
    treat_missing_data: cloudwatch.TreatMissingData
    meaning: str
    action: str


def alarm_rules(
    *,
    cluster_name: str,
    observability: ObservabilityConfig,
    runbook: Runbook = EKS_RUNBOOK,
    gpu_watch: GpuWatch | None = None,
    xid_alarm: bool = False,
    expected_gpus: int | None = None,
    capacity_ending: CapacityEnding | None = None,
) -> list[AlarmRule]:
    """The alarms of an environment, thresholds from its ``observability`` section; the GPU alarms (XID errors and GPUs
    missing, Container Insights and the node monitoring agent) only with ``gpu_watch``; with ``xid_alarm`` (the
    HyperPod path, DCGM's XID through the publisher) the XID alarm, its text from ``runbook.xid``, and with
    ``expected_gpus`` the alarm on fewer GPUs reporting to DCGM than that; with ``capacity_ending`` the alarm on the
    capacity's last hours."""
    ending = [capacity_ending_rule(cluster_name, capacity_ending)] if capacity_ending else []
    if gpu_watch:
        return (
            _serving_rules(cluster_name, observability, runbook)
            + _gpu_rules(cluster_name, gpu_watch, runbook)
            + ending
        )
    rules = _serving_rules(cluster_name, observability, runbook)
    if xid_alarm:
        rules.append(gpu_xid_rule(cluster_name, runbook))
    if expected_gpus:
        rules.append(gpus_not_reporting_rule(cluster_name, expected_gpus, runbook))
    return rules + ending


def gpus_not_reporting_rule(cluster_name: str, expected_gpus: int, runbook: Runbook) -> AlarmRule:
    """``GpusNotReporting``: fewer GPUs in DCGM's series (the publisher's ``GpusReporting``, 0 when there are none) than
    the instance group holds, every minute for 5 minutes. Missing data is breaching: no value means the publisher or
    the workspace has stopped, and then nothing watches the GPUs."""
    if runbook.gpus_missing_action is None:
        raise ValueError("the runbook has no GPUs-missing text (Runbook.gpus_missing_action)")
    return AlarmRule(
        "GpusNotReporting",
        "GPUs stopped reporting",
        serving_metric(cluster_name, "GpusReporting", "Minimum"),
        expected_gpus,
        C.LESS_THAN_THRESHOLD,
        5,
        5,
        M.BREACHING,
        f"Fewer than {expected_gpus} GPUs reported to DCGM through the HyperPod observability add-on for 5 minutes: an "
        "instance is being rebooted or replaced, is gone, or the exporter is down. Missing data is breaching. Expected "
        f"before the {runbook.capacity} starts and after it ends.",
        runbook.gpus_missing_action,
    )


def gpu_xid_rule(cluster_name: str, runbook: Runbook) -> AlarmRule:
    """``GpuXidErrors``: the publisher's count of GPUs with an XID error in the last 5 minutes (the node monitoring agent's
    fatal XIDs on EKS, DCGM's last XID on HyperPod: cdk_constructs/serving_metrics/), 1 or more in one minute. Missing
    data is not breaching: no scrape is not an error, and the GPUs-reporting widget or alarm covers a GPU that is gone."""
    if runbook.xid is None:
        raise ValueError("the runbook has no XID text (Runbook.xid)")
    return AlarmRule(
        "GpuXidErrors",
        "NVIDIA XID error on a GPU node",
        serving_metric(cluster_name, "GpuXidErrors", "Maximum"),
        1,
        C.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        1,
        1,
        M.NOT_BREACHING,
        runbook.xid.meaning,
        runbook.xid.action.format(cluster_name=cluster_name),
    )


def _serving_rules(
    cluster_name: str, observability: ObservabilityConfig, runbook: Runbook
) -> list[AlarmRule]:
    return [
        AlarmRule(
            "EndpointNoHealthyTarget",
            "No healthy target behind the endpoint",
            serving_metric(cluster_name, HEALTHY_TARGETS, "Minimum"),
            1,
            C.LESS_THAN_THRESHOLD,
            3,
            3,
            M.BREACHING,
            "The endpoint's load balancer has had no healthy target for 3 minutes: no node forwards to a ready vLLM pod, or "
            "the load balancer is gone. Missing data counts as breaching. Expected during a start, while vLLM loads the "
            f"weights (up to the startup budget), and after the {runbook.capacity}'s end.",
            runbook.endpoint_action,
        ),
        AlarmRule(
            "TimeToFirstTokenP90High",
            "p90 time to first token above the threshold",
            serving_metric(cluster_name, "TimeToFirstTokenP90Seconds", "Maximum"),
            observability.time_to_first_token_p90_seconds,
            C.GREATER_THAN_THRESHOLD,
            5,
            3,
            M.NOT_BREACHING,
            f"The 90th percentile of time to first token over the last 5 minutes was above "
            f"{observability.time_to_first_token_p90_seconds:g} s in 3 of the last 5 minutes. No traffic, no value: "
            "missing data is not breaching (the healthy-target alarm covers a dead endpoint).",
            "Look at RequestsWaiting and KV-cache usage on the dashboard: a queue means more load than one replica "
            "serves (shorter prompts, fewer concurrent clients, or more capacity); no queue means slow prefill (long "
            f"prompts) or a degraded GPU ({runbook.gpu_hint}).",
        ),
        AlarmRule(
            "KvCacheUsageHigh",
            "KV cache full for 5 minutes",
            serving_metric(cluster_name, "KvCacheUsagePercent", "Minimum"),
            observability.kv_cache_usage_percent,
            C.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
            5,
            5,
            M.NOT_BREACHING,
            f"vLLM's KV-cache usage stayed at or above {observability.kv_cache_usage_percent} % for 5 minutes: new "
            "requests wait and running ones are preempted. Missing data (no engine) is not breaching.",
            "Check PreemptionsPerMinute and RequestsWaiting; reduce concurrency or max_tokens of clients, or lower "
            "--max-num-seqs / --max-model-len through model.extra_args.",
        ),
        AlarmRule(
            "ErrorRateHigh",
            "5xx answers above the threshold",
            serving_metric(cluster_name, "ErrorRatePercent", "Maximum"),
            observability.error_rate_percent,
            C.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
            5,
            3,
            M.NOT_BREACHING,
            f"At least {observability.error_rate_percent} % of the OpenAI API's answers (/v1/...) over the last 5 minutes "
            "had a 5xx status, in 3 of the last 5 minutes. No requests, no rate: missing data is not breaching.",
            runbook.errors_action,
        ),
        *_idle_rules(cluster_name, observability),
    ]


def _idle_rules(cluster_name: str, observability: ObservabilityConfig) -> list[AlarmRule]:
    """``EndpointIdle`` with ``observability.idle_alarm_minutes`` (N): no request ran in N of the last N + 1 minutes while
    vLLM served (ServingBusy's maximum below 1 a minute). A minute without vLLM has no ServingBusy, and missing data is
    not breaching: a stopped endpoint is the healthy-target alarm's, and before and after the block nothing is paid.

    Why N of N + 1: a minute the publisher missed must not end a streak of idle minutes, and vLLM not serving at all
    must not alarm. CloudWatch evaluates the most recent existing datapoints when its evaluation range holds at least
    "Evaluation Periods" of them, and only when it holds fewer fills the missing ones with the missing-data treatment,
    "as few times as possible" (CloudWatch user guide, "Configuring how CloudWatch alarms treat missing data", "How
    alarm state is evaluated when data is missing",
    https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/alarms-and-missing-data.html; also
    awsdocs/amazon-cloudwatch-user-guide@05fd32f doc_source/AlarmThatSendsEmail.md). With ``breaching`` no data at
    all would alarm; ``ignore`` would keep an ALARM after the block ended; ``missing`` goes to ALARM on a single old
    breaching point among missing ones (the guide's table, "X - - - -"). ``notBreaching`` with N of N + 1 tolerates one
    filled minute and never alarms on no data. The price: one minute with a running request among N + 1 does not stop
    the alarm either (the block still earned next to nothing). N + 1 one-minute periods must fit in a day, hence
    idle_alarm_minutes at most 1439 (deployment_config/sections/observability.py)."""
    minutes = observability.idle_alarm_minutes
    if minutes is None:
        return []
    return [
        AlarmRule(
            "EndpointIdle",
            "The endpoint served no request",
            serving_metric(cluster_name, SERVING_BUSY, "Maximum"),
            1,
            C.LESS_THAN_THRESHOLD,
            minutes + 1,
            minutes,
            M.NOT_BREACHING,
            f"vLLM served and no request ran in {minutes} of the last {minutes + 1} minutes (no running request at any "
            "scrape, 30 s apart; one minute without the publisher's data does not end the streak): the prepaid block "
            "earns nothing meanwhile.",
            "Check that clients reach the endpoint (bin/llmops smoke-test --url URL --env ENV); see the "
            "dashboard's 'What the block earns' row and bin/llmops cost --usage before extending the block.",
        )
    ]


def _gpu_rules(cluster_name: str, gpu_watch: GpuWatch, runbook: Runbook) -> list[AlarmRule]:
    five = cdk.Duration.minutes(5)
    gpus_per_node, gpu_node_count = gpu_watch.gpus_per_node, gpu_watch.gpu_node_count
    capacity_reservation_id = gpu_watch.capacity_reservation_id
    gpu_samples = cloudwatch.MathExpression(
        expression=gpu_samples_query(cluster_name),
        period=five,
        label="GPU samples in 5 minutes",
        using_metrics={},
    )
    # Fewer samples than (nodes - 1/2) nodes' worth: one missing node is found, a late sample is not an alarm.
    gpu_threshold = gpus_per_node * GPU_SAMPLES_PER_GPU * (gpu_node_count - 0.5)
    return [
        gpu_xid_rule(cluster_name, runbook),
        AlarmRule(
            "GpuNodeMissing",
            "GPUs stopped reporting",
            gpu_samples,
            gpu_threshold,
            C.LESS_THAN_THRESHOLD,
            1,
            1,
            M.BREACHING,
            f"Fewer GPU samples than {gpu_node_count} node(s) x {gpus_per_node} GPUs should send reached Container "
            "Insights in 5 minutes: a GPU node is not ready, gone, or its DCGM exporter is down. Missing data is "
            "breaching. Expected before the Capacity Block starts and from 40 minutes before it ends (EKS scales the "
            "node group to 0).",
            f"kubectl get nodes -l llm-serving/node-role=gpu-inference; bin/llmops capacity-blocks show "
            f"{capacity_reservation_id}; aws eks describe-nodegroup --cluster-name {cluster_name} "
            "--nodegroup-name gpu-capacity-block --query nodegroup.health",
        ),
    ]


class ServingAlarms(Construct):
    """The alarms of :func:`alarm_rules` and ``extra_rules`` (rules kept in their own modules, such as
    cdk_constructs/serving_gap.py's), each notifying ``topic`` (the environment's :class:`AlarmTopic`, in the cluster
    stack) on ALARM and on OK.

    :attr topic: the SNS topic every alarm notifies.
    :attr alarms: the alarms by rule id.
    """

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        topic: sns.ITopic,
        extra_rules: Sequence[AlarmRule] = (),
        **rules,
    ) -> None:
        """``rules``: the keyword arguments of :func:`alarm_rules` (``cluster_name`` names the alarms too)."""
        super().__init__(scope, id)
        self.topic = topic
        action = cw_actions.SnsAction(self.topic)
        self.rules = alarm_rules(**rules) + list(extra_rules)
        cluster_name = rules["cluster_name"]
        self.alarms: dict[str, cloudwatch.Alarm] = {}
        for rule in self.rules:
            alarm = cloudwatch.Alarm(
                self,
                rule.id,
                alarm_name=f"{cluster_name}-{rule.id}",
                metric=rule.metric,
                threshold=rule.threshold,
                comparison_operator=rule.comparison,
                evaluation_periods=rule.evaluation_periods,
                datapoints_to_alarm=rule.datapoints_to_alarm,
                treat_missing_data=rule.treat_missing_data,
                alarm_description=f"{rule.title}. {rule.meaning} What to do: {rule.action}"[:1024],
            )
            alarm.add_alarm_action(action)
            alarm.add_ok_action(action)
            self.alarms[rule.id] = alarm
