"""The CloudWatch dashboard of one environment: serving SLOs, the endpoint, GPU health, the Capacity Block, alarms.

Rows, top to bottom:

1. What this is, and the commands an operator needs (Capacity Block, logs), as text.
2. Serving: time to first token, inter-token latency and end-to-end latency (p50 and p90), requests running and
   waiting, KV-cache usage, tokens per second, preemptions, finished requests and the 5xx error rate - the metrics the
   serving metrics publisher computes from vLLM's own (cdk_constructs/serving_metrics/). Alarm thresholds are drawn
   as horizontal lines.
3. Endpoint: healthy targets of the Service's load balancer and vLLM scrape targets up; with a router in front of the
   replicas (``router``), its row: requests, failures, latency, spread over the workers, replicas scraped.
4. GPUs: utilization, memory, temperature and power per GPU (Container Insights, a SEARCH over the per-GPU dimension
   set, so that it needs no node name), GPU samples reaching CloudWatch, XID errors and fatal hardware conditions from
   the node monitoring agent.
5. Capacity Block: hours left (EC2's EndDate of the reservation, put every minute by the publisher).
6. What the block earns: tokens served, cost per million input and output tokens and the idle share, over the
   dashboard's time range, with a bridge section its instance-hours and cost too
   (cdk_constructs/block_earnings_widgets.py).
7. The state of every alarm.

Container logs are in CloudWatch Logs, /aws/containerinsights/CLUSTER/application (query in the text widget).

On HyperPod (``gpu_health=False``, ``dcgm_gpu=True``, a training plan as :class:`CapacityView`) the GPU rows show what
the publisher computes from NVIDIA DCGM's series, which AWS's HyperPod observability add-on writes to the workspace:
utilization (mean and least busy GPU), the fullest GPU's framebuffer memory, the hottest GPU, the power of all GPUs, GPUs
reporting and GPUs with an XID; the Container Insights log hint is left out, and row 5 shows the training plan's hours
left; stacks/observability_stack.py says why.
"""

from __future__ import annotations

from dataclasses import dataclass

import aws_cdk as cdk
from aws_cdk import aws_cloudwatch as cloudwatch
from constructs import Construct

from cdk_constructs.block_earnings_widgets import block_earnings_widgets
from cdk_constructs.optional_dashboard_rows import router_row, spec_decoding_row
from cdk_constructs.serving_alarms import gpu_samples_query, serving_metric
from cdk_constructs.serving_metrics import (
    CAPACITY_BLOCK_HOURS_LEFT,
    CONTAINER_INSIGHTS_NAMESPACE,
    GPU_DEVICE_DIMENSIONS,
    HEALTHY_TARGETS,
    TRAINING_PLAN_HOURS_LEFT,
    BridgeMetering,
)
from deployment_config.addon_outputs import container_insights_log_group_name
from deployment_config.metric_names import GENERATION_TOKENS_PER_SECOND, PROMPT_TOKENS_PER_SECOND
from deployment_config.model import ObservabilityConfig

WIDTH = 24


@dataclass(frozen=True)
class CapacityView:
    """The capacity's row: what it is, the publisher's hours-left metric, and the command that shows it."""

    name: str
    hours_left_metric: str
    command: str
    #: Whether the publisher reads the capacity's fee from AWS (a training plan's UpfrontFee); a Capacity Block's comes
    #: from ``observability.block_fee_usd`` only.
    fee_from_aws: bool = False


def training_plan_view(plan_name: str, region: str) -> CapacityView:
    return CapacityView(
        "Training plan",
        TRAINING_PLAN_HOURS_LEFT,
        f"bin/llmops training-plans show {plan_name} --region {region}",
        fee_from_aws=True,
    )


def capacity_block_view(capacity_reservation_id: str, region: str) -> CapacityView:
    return CapacityView(
        "Capacity Block",
        CAPACITY_BLOCK_HOURS_LEFT,
        f"bin/llmops capacity-blocks show {capacity_reservation_id} --region {region}",
    )


def gpu_search(
    cluster_name: str, metric_name: str, statistic: str = "Average"
) -> cloudwatch.MathExpression:
    """Every GPU of the cluster, one line each (``SEARCH`` needs no node name; dashboards allow it, alarms do not)."""
    schema = ",".join((CONTAINER_INSIGHTS_NAMESPACE, *GPU_DEVICE_DIMENSIONS))
    return cloudwatch.MathExpression(
        expression=f'SEARCH(\'{{{schema}}} MetricName="{metric_name}" ClusterName="{cluster_name}"\', '
        f"'{statistic}', 60)",
        using_metrics={},
        label=metric_name,
        period=cdk.Duration.minutes(1),
    )


class ServingDashboard(Construct):
    """A CloudWatch dashboard named ``CLUSTER-serving``.

    :param alarms: the environment's alarms, shown in an alarm status widget.
    """

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        env_name: str,
        cluster_name: str,
        region: str,
        served_name: str,
        capacity: CapacityView,
        observability: ObservabilityConfig,
        alarms: list[cloudwatch.IAlarm],
        gpu_health: bool = True,
        dcgm_gpu: bool = False,
        sources: str | None = None,
        logs: str | None = None,
        spec_decoding: bool = False,
        router: bool = False,
        bridge: BridgeMetering | None = None,
    ) -> None:
        """:param gpu_health: the GPU rows (Container Insights and the node monitoring agent; the EKS path).
        :param dcgm_gpu: the GPU rows from DCGM through the publisher (the HyperPod path); not with ``gpu_health``.
        :param sources: the text widget's sentence on where the numbers come from. Default: the EKS path's.
        :param logs: the text widget's hint on the container logs. Default: the EKS path's Container Insights group.
        :param spec_decoding: a row with speculative decoding's acceptance (serving_metrics.SPEC_DECODE_PUBLISHED).
        :param router: a row with the router's metrics (serving_metrics.ROUTER_PUBLISHED), under the endpoint row.
        :param bridge: the bridge the publisher counts: its instance-hours and cost join the earnings row.

        The earnings row shows the cost per million tokens where the publisher puts the block's cost (the fee is known:
        ``observability.block_fee_usd``, or a capacity whose fee AWS returns), and says how to get it otherwise."""
        super().__init__(scope, id)

        def m(name, stat="Average", label=None):
            return serving_metric(cluster_name, name, stat, label=label)

        log_group = container_insights_log_group_name(cluster_name, "application")
        sources = sources or (
            "Serving metrics come from vLLM's /metrics through Amazon Managed Service for Prometheus "
            "(namespace LLMServing, put every minute); GPU metrics from Container Insights; XID errors "
            "from the EKS node monitoring agent. No traffic means no latency values, not zero."
        )
        logs = logs or (
            f"Logs: CloudWatch Logs Insights on `{log_group}`, e.g. "
            '`filter kubernetes.container_name = "vllm" | sort @timestamp desc`'
        )

        def graph(title, left, *, unit_label="", width=8, annotations=(), left_min=0):
            return cloudwatch.GraphWidget(
                title=title,
                left=left,
                width=width,
                height=6,
                left_y_axis=cloudwatch.YAxisProps(label=unit_label, min=left_min, show_units=False),
                left_annotations=list(annotations),
                period=cdk.Duration.minutes(1),
            )

        threshold = lambda value, label: cloudwatch.HorizontalAnnotation(value=value, label=label)  # noqa: E731
        self.dashboard = cloudwatch.Dashboard(
            self,
            "Dashboard",
            dashboard_name=f"{cluster_name}-serving",
            default_interval=cdk.Duration.hours(3),
            period_override=cloudwatch.PeriodOverride.INHERIT,
        )
        self.dashboard.add_widgets(
            cloudwatch.TextWidget(
                width=WIDTH,
                height=4,
                markdown="\n".join(
                    [
                        f"# {served_name} on {cluster_name} ({env_name})",
                        sources,
                        f"{capacity.name}: `{capacity.command}` · {logs}",
                    ]
                ),
            )
        )
        self.dashboard.add_widgets(
            graph(
                "Time to first token (s)",
                [
                    m("TimeToFirstTokenP50Seconds", label="p50"),
                    m("TimeToFirstTokenP90Seconds", label="p90"),
                ],
                unit_label="seconds",
                annotations=[threshold(observability.time_to_first_token_p90_seconds, "p90 alarm")],
            ),
            graph(
                "Inter-token latency (s)",
                [
                    m("InterTokenLatencyP50Seconds", label="p50"),
                    m("InterTokenLatencyP90Seconds", label="p90"),
                ],
                unit_label="seconds",
            ),
            graph(
                "End-to-end latency (s)",
                [
                    m("EndToEndLatencyP50Seconds", label="p50"),
                    m("EndToEndLatencyP90Seconds", label="p90"),
                ],
                unit_label="seconds",
            ),
        )
        self.dashboard.add_widgets(
            graph(
                "Requests running and waiting",
                [
                    m("RequestsRunning", "Maximum", "running"),
                    m("RequestsWaiting", "Maximum", "waiting"),
                ],
                unit_label="requests",
            ),
            graph(
                "KV-cache usage (%)",
                [m("KvCacheUsagePercent", "Maximum", "KV cache")],
                unit_label="percent",
                annotations=[threshold(observability.kv_cache_usage_percent, "alarm")],
            ),
            graph(
                "Tokens per second",
                [
                    m(PROMPT_TOKENS_PER_SECOND, label="prompt"),
                    m(GENERATION_TOKENS_PER_SECOND, label="generated"),
                ],
                unit_label="tokens/s",
            ),
        )
        self.dashboard.add_widgets(
            graph(
                "Preemptions per minute",
                [m("PreemptionsPerMinute", "Maximum", "preemptions")],
                unit_label="per minute",
            ),
            graph(
                "Finished requests per second",
                [m("FinishedRequestsPerSecond", label="finished")],
                unit_label="req/s",
            ),
            graph(
                "5xx error rate (%)",
                [m("ErrorRatePercent", "Maximum", "5xx")],
                unit_label="percent",
                annotations=[threshold(observability.error_rate_percent, "alarm")],
            ),
        )
        # speculative decoding's acceptance, and the router's row: cdk_constructs/optional_dashboard_rows.py
        if spec_decoding:
            self.dashboard.add_widgets(*spec_decoding_row(m, graph))
        self.dashboard.add_widgets(
            graph(
                "Endpoint: healthy load balancer targets",
                [m(HEALTHY_TARGETS, "Minimum", "healthy targets")],
                unit_label="targets",
                width=12,
                annotations=[threshold(1, "alarm below")],
            ),
            graph(
                "vLLM scrape targets up (0 while loading)",
                [m("VllmTargetsUp", "Minimum", "up")],
                unit_label="targets",
                width=12,
            ),
        )
        if router:
            self.dashboard.add_widgets(*router_row(m, graph))
        capacity_widget = cloudwatch.SingleValueWidget(
            title=f"{capacity.name}: hours left",
            width=8,
            height=6,
            metrics=[m(capacity.hours_left_metric, "Minimum", "hours left")],
        )
        if gpu_health and dcgm_gpu:
            raise ValueError(
                "one source of GPU rows: gpu_health (Container Insights) or dcgm_gpu (DCGM through AMP)"
            )
        if gpu_health:
            self._gpu_rows(cluster_name, graph, m, capacity_widget)
        elif dcgm_gpu:
            self._dcgm_gpu_rows(graph, m, capacity_widget)
        else:
            self.dashboard.add_widgets(capacity_widget)
        block_cost = capacity.fee_from_aws or observability.block_fee_usd is not None
        self.dashboard.add_widgets(
            *block_earnings_widgets(m, block_cost=block_cost, bridge=bridge, width=WIDTH)
        )
        self.dashboard.add_widgets(
            cloudwatch.AlarmStatusWidget(title="Alarms", alarms=list(alarms), width=WIDTH, height=4)
        )

    def _gpu_rows(self, cluster_name: str, graph, m, capacity_widget: cloudwatch.IWidget) -> None:
        self.dashboard.add_widgets(
            graph(
                "GPU utilization (%)",
                [gpu_search(cluster_name, "node_gpu_utilization")],
                unit_label="percent",
                width=6,
            ),
            graph(
                "GPU memory used (%)",
                [gpu_search(cluster_name, "node_gpu_memory_utilization")],
                unit_label="percent",
                width=6,
            ),
            graph(
                "GPU temperature (°C)",
                [gpu_search(cluster_name, "node_gpu_temperature", "Maximum")],
                unit_label="°C",
                width=6,
            ),
            graph(
                "GPU power draw (W)",
                [gpu_search(cluster_name, "node_gpu_power_draw")],
                unit_label="watts",
                width=6,
            ),
        )
        self.dashboard.add_widgets(
            graph(
                "GPU samples reaching CloudWatch (5 min)",
                [
                    cloudwatch.MathExpression(
                        expression=gpu_samples_query(cluster_name),
                        using_metrics={},
                        label="samples",
                        period=cdk.Duration.minutes(5),
                    )
                ],
                unit_label="samples",
                width=8,
            ),
            graph(
                "GPU XID errors and fatal hardware conditions",
                [
                    m("GpuXidErrors", "Maximum", "fatal XID errors (5 min)"),
                    m("GpuHardwareFatal", "Maximum", "AcceleratedHardwareReady fatal"),
                    m("NodeMonitoringAgentsUp", "Minimum", "monitoring agents up"),
                ],
                unit_label="count",
                width=8,
            ),
            capacity_widget,
        )

    def _dcgm_gpu_rows(self, graph, m, capacity_widget: cloudwatch.IWidget) -> None:
        """GPU rows from the publisher's DCGM aggregates (cdk_constructs/serving_metrics/, DCGM_PUBLISHED): one line per
        aggregate, not per GPU, because the add-on's labels are not documented (the queries name none)."""
        self.dashboard.add_widgets(
            graph(
                "GPU utilization (%)",
                [
                    m("GpuUtilizationPercent", label="mean of all GPUs"),
                    m("GpuUtilizationMinPercent", "Minimum", "least busy GPU"),
                ],
                unit_label="percent",
                width=6,
            ),
            graph(
                "GPU memory used (%)",
                [m("GpuMemoryUsedPercent", "Maximum", "fullest GPU")],
                unit_label="percent",
                width=6,
            ),
            graph(
                "GPU temperature (°C)",
                [m("GpuTemperatureMaxCelsius", "Maximum", "hottest GPU")],
                unit_label="°C",
                width=6,
            ),
            graph(
                "GPU power draw (W)",
                [m("GpuPowerDrawWatts", label="all GPUs")],
                unit_label="watts",
                width=6,
            ),
        )
        self.dashboard.add_widgets(
            graph(
                "GPUs reporting (DCGM)",
                [m("GpusReporting", "Minimum", "GPUs")],
                unit_label="GPUs",
                width=8,
            ),
            graph(
                "GPUs with an XID error (5 min)",
                [m("GpuXidErrors", "Maximum", "GPUs with a nonzero last XID")],
                unit_label="GPUs",
                width=8,
                annotations=[cloudwatch.HorizontalAnnotation(value=1, label="alarm")],
            ),
            capacity_widget,
        )
