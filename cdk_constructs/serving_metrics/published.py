"""The CloudWatch metrics the publisher puts in :data:`NAMESPACE`: those it computes from the Prometheus series of
series.py (a PromQL query each), those it reads from AWS APIs, and the names of Container Insights' GPU metrics the
alarms and the dashboard read beside them (cdk_constructs/serving_metrics/__init__.py says how they get there).
"""

from __future__ import annotations

from dataclasses import dataclass

from cdk_constructs.serving_metrics.series import (
    NODE_MONITORING_JOB,
    RATE_WINDOW,
    RETRIED_ROUTES,
    ROUTER_JOB,
    SPEC_DECODE_METRICS,
)
from deployment_config.metric_names import (
    GENERATION_TOKENS_PER_SECOND,
    PROMPT_TOKENS_PER_SECOND,
    SERVING_BUSY,
    SERVING_METRICS_NAMESPACE,
    VLLM_JOB,
)

#: CloudWatch namespace of the metrics the publisher puts; dimension ClusterName.
NAMESPACE = SERVING_METRICS_NAMESPACE


@dataclass(frozen=True)
class PublishedMetric:
    """A CloudWatch metric the publisher computes from AMP.

    :param name: CloudWatch metric name in :data:`NAMESPACE`.
    :param unit: CloudWatch unit.
    :param query: PromQL instant query; it returns one series (or none).
    :param series: the Prometheus series the query reads (each in :data:`PROMETHEUS_SERIES`).
    :param when_empty: value put when the query returns no series; None puts nothing, so that the alarm's missing-data
        rule decides (no traffic has no latency).
    """

    name: str
    unit: str
    query: str
    series: tuple[str, ...]
    when_empty: float | None = None

    def as_event(self) -> dict:
        return {
            "name": self.name,
            "unit": self.unit,
            "query": self.query,
            "whenEmpty": self.when_empty,
        }


def _quantile(q: float, histogram: str) -> str:
    return f'histogram_quantile({q}, sum by (le) (rate({histogram}_bucket{{job="{VLLM_JOB}"}}[{RATE_WINDOW}])))'


def _published() -> tuple[PublishedMetric, ...]:
    job = f'job="{VLLM_JOB}"'
    ttft, itl, e2e = (
        "vllm:time_to_first_token_seconds",
        "vllm:inter_token_latency_seconds",
        "vllm:e2e_request_latency_seconds",
    )
    metrics = []
    for label, histogram in (
        ("TimeToFirstToken", ttft),
        ("InterTokenLatency", itl),
        ("EndToEndLatency", e2e),
    ):
        for q in (0.5, 0.9):
            metrics.append(
                PublishedMetric(
                    f"{label}P{int(q * 100)}Seconds",
                    "Seconds",
                    _quantile(q, histogram),
                    (histogram,),
                )
            )
    return (
        *metrics,
        PublishedMetric(
            "RequestsRunning",
            "Count",
            f"sum(vllm:num_requests_running{{{job}}})",
            ("vllm:num_requests_running",),
        ),
        # 1 when any request ran at a scrape of the last minute, 0 when none did; nothing when vLLM exports no series
        # (not serving: no pod, or the weights are loading), so that the idle alarm sees only a serving endpoint that
        # idles. A request that starts and ends between two scrapes (30 s apart) is not seen: the idle share it gives
        # is an upper bound. Sum over a range = minutes with a running request (ops_cli/block_usage.py). The gauge's
        # series exists from the engine's start (PrometheusStatLogger makes each per-engine child with .labels() in
        # __init__, make_per_engine, and sets it to SchedulerStats.num_running_reqs: vllm-project/vllm@005a810
        # vllm/v1/metrics/loggers.py; 0.33.0's own file was not reread here), so no series means no serving engine.
        PublishedMetric(
            SERVING_BUSY,
            "Count",
            f"max(max_over_time(vllm:num_requests_running{{{job}}}[1m])) > bool 0",
            ("vllm:num_requests_running",),
        ),
        PublishedMetric(
            "RequestsWaiting",
            "Count",
            f"sum(vllm:num_requests_waiting{{{job}}})",
            ("vllm:num_requests_waiting",),
        ),
        PublishedMetric(
            "KvCacheUsagePercent",
            "Percent",
            f"100 * max(vllm:kv_cache_usage_perc{{{job}}})",
            ("vllm:kv_cache_usage_perc",),
        ),
        PublishedMetric(
            PROMPT_TOKENS_PER_SECOND,
            "Count/Second",
            f"sum(rate(vllm:prompt_tokens_total{{{job}}}[{RATE_WINDOW}]))",
            ("vllm:prompt_tokens_total",),
        ),
        PublishedMetric(
            GENERATION_TOKENS_PER_SECOND,
            "Count/Second",
            f"sum(rate(vllm:generation_tokens_total{{{job}}}[{RATE_WINDOW}]))",
            ("vllm:generation_tokens_total",),
        ),
        PublishedMetric(
            "PreemptionsPerMinute",
            "Count",
            f"60 * sum(rate(vllm:num_preemptions_total{{{job}}}[{RATE_WINDOW}]))",
            ("vllm:num_preemptions_total",),
        ),
        PublishedMetric(
            "FinishedRequestsPerSecond",
            "Count/Second",
            f"sum(rate(vllm:request_success_total{{{job}}}[{RATE_WINDOW}]))",
            ("vllm:request_success_total",),
        ),
        # What clients see: answers of the OpenAI API with a 5xx status, out of all its answers. No request, no rate.
        PublishedMetric(
            "ErrorRatePercent",
            "Percent",
            f'100 * sum(rate(http_requests_total{{{job},handler=~"/v1/.*",status="5xx"}}[{RATE_WINDOW}])) '
            f'/ sum(rate(http_requests_total{{{job},handler=~"/v1/.*"}}[{RATE_WINDOW}]))',
            ("http_requests_total",),
        ),
        # 0 while the pod loads the weights (the server is not listening yet) or when no pod exists.
        PublishedMetric("VllmTargetsUp", "Count", f"sum(up{{{job}}})", ("up",), when_empty=0.0),
        # A counter series appears with its first increment: no series means no XID error so far.
        PublishedMetric(
            "GpuXidErrors",
            "Count",
            f'sum(increase(problem_condition_count{{job="{NODE_MONITORING_JOB}",reason=~"NvidiaXID[0-9]+Error"}}'
            f"[{RATE_WINDOW}]))",
            ("problem_condition_count",),
            when_empty=0.0,
        ),
        PublishedMetric(
            "GpuHardwareFatal",
            "Count",
            f'max(fatal_condition_gauge{{job="{NODE_MONITORING_JOB}",type="AcceleratedHardwareReady"}})',
            ("fatal_condition_gauge",),
            when_empty=0.0,
        ),
        PublishedMetric(
            "NodeMonitoringAgentsUp",
            "Count",
            f'sum(up{{job="{NODE_MONITORING_JOB}"}})',
            ("up",),
            when_empty=0.0,
        ),
    )


#: The metrics computed from AMP, by CloudWatch name.
PUBLISHED_METRICS: dict[str, PublishedMetric] = {m.name: m for m in _published()}
#: The published metrics that read the EKS node monitoring agent: only where the agent runs (not on HyperPod).
NODE_MONITORING_PUBLISHED = ("GpuXidErrors", "GpuHardwareFatal", "NodeMonitoringAgentsUp")


def _spec_decode_published() -> tuple[PublishedMetric, ...]:
    job = f'job="{VLLM_JOB}"'
    drafts, drafted, accepted = SPEC_DECODE_METRICS

    def rate(series: str) -> str:
        return f"sum(rate({series}{{{job}}}[{RATE_WINDOW}]))"

    # No drafts in the window (no traffic) divides by zero: PromQL gives NaN or no series, and nothing is put.
    return (
        PublishedMetric(
            "SpecDecodeAcceptanceRatePercent",
            "Percent",
            f"100 * {rate(accepted)} / {rate(drafted)}",
            (accepted, drafted),
        ),
        PublishedMetric(
            "SpecDecodeMeanAcceptedLength",
            "None",
            f"1 + {rate(accepted)} / {rate(drafts)}",
            (accepted, drafts),
        ),
    )


#: The acceptance of speculative decoding, by CloudWatch name: only where ``spec_decoding`` is on (the series exist
#: nowhere else).
SPEC_DECODE_PUBLISHED: dict[str, PublishedMetric] = {m.name: m for m in _spec_decode_published()}


def _router_published() -> tuple[PublishedMetric, ...]:
    job = f'job="{ROUTER_JOB}"'
    ok, errors, exhausted, sent, decisions, duration = (
        "vllm_router_requests_total",
        "vllm_router_request_errors_total",
        "vllm_router_retries_exhausted_total",
        "vllm_router_processed_requests_total",
        "vllm_router_prefix_routing_decisions_total",
        "vllm_router_generate_duration_seconds",
    )

    def rate(series: str, labels: str = "") -> str:
        return f"sum(rate({series}{{{job}{labels}}}[{RATE_WINDOW}]))"

    quantiles = tuple(
        PublishedMetric(
            f"RouterLatencyP{int(q * 100)}Seconds",
            "Seconds",
            f"histogram_quantile({q}, sum by (le) (rate({duration}_bucket{{{job}}}[{RATE_WINDOW}])))",
            (duration,),
        )
        for q in (0.5, 0.9)
    )
    hits = rate(decisions, ',outcome="prefix_hit"')
    per_worker = f"sum by (worker) (rate({sent}{{{job}}}[{RATE_WINDOW}]))"
    # Each failed request once: on RETRIED_ROUTES a pick that finds no worker counts per attempt and is retried (503),
    # so it ends in retries_exhausted_total or succeeds; elsewhere (route_transparent: /v1/responses, any path the
    # server does not route itself) it ends there (0.1.17 src/routers/http/router.rs, src/core/retry.rs).
    retried, per_attempt = (
        "|".join(RETRIED_ROUTES),
        "no_available_workers|program_target_unavailable",
    )
    once, elsewhere = (
        f',error_type!~"{per_attempt}"',
        f',error_type=~"{per_attempt}",route!~"{retried}"',
    )
    failed = (rate(errors, once), rate(errors, elsewhere), rate(exhausted))
    # The router replicas' counters summed. A counter's series appears with its first increment: a failure counter
    # without a series counts as 0 (``or vector(0)``), so the failed rate is 0, not missing, while all goes well.
    return (
        PublishedMetric("RouterRequestsSucceededPerSecond", "Count/Second", rate(ok), (ok,)),
        PublishedMetric(
            "RouterRequestsFailedPerSecond",
            "Count/Second",
            " + ".join(f"({term} or vector(0))" for term in failed),
            (errors, exhausted),
        ),
        *quantiles,
        # How the router spreads the requests over the vLLM workers (per worker: its URL, http://POD_IP:PORT): the
        # busiest and the least busy worker's share of what it sent in the window (an even spread over N workers gives
        # 100/N each; a shared prefix kept on one worker raises the busiest share), and how many workers got any. The
        # least busy is of those that got any: a removed worker's counter stays, at rate 0 (start_prometheus in the
        # router's src/metrics.rs sets no idle timeout on its exporter).
        PublishedMetric(
            "RouterBusiestWorkerSharePercent",
            "Percent",
            f"100 * max({per_worker}) / {rate(sent)}",
            (sent,),
        ),
        PublishedMetric(
            "RouterLeastBusyWorkerSharePercent",
            "Percent",
            f"100 * min({per_worker} > 0) / {rate(sent)}",
            (sent,),
        ),
        PublishedMetric(
            "RouterWorkersReceiving", "Count", f"count({per_worker} > 0)", (sent,), when_empty=0.0
        ),
        # The cache-aware policy's decisions that followed a cached prefix, of all its decisions (no series with another
        # policy, or without traffic: nothing is put).
        PublishedMetric(
            "RouterPrefixHitPercent",
            "Percent",
            f"100 * ({hits} or vector(0)) / {rate(decisions)}",
            (decisions,),
        ),
        # 0 when no router replica answers the scraper.
        PublishedMetric("RouterTargetsUp", "Count", f"sum(up{{{job}}})", ("up",), when_empty=0.0),
    )


#: The router's metrics, by CloudWatch name: only where a router stands in front of the replicas (the EKS path with two
#: replicas or more and ``endpoint.routing`` not none: VllmServingSpec.router_policy); its series exist nowhere else.
ROUTER_PUBLISHED: dict[str, PublishedMetric] = {m.name: m for m in _router_published()}


def _dcgm_published() -> tuple[PublishedMetric, ...]:
    util, used, free = "DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_FB_USED", "DCGM_FI_DEV_FB_FREE"
    temp, power, xid = "DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_XID_ERRORS"
    return (
        PublishedMetric("GpuUtilizationPercent", "Percent", f"avg({util})", (util,)),
        # the least busy GPU: with tensor parallelism every GPU works on every token, so one idle GPU is a fault
        PublishedMetric("GpuUtilizationMinPercent", "Percent", f"min({util})", (util,)),
        # used and free of the same GPU carry the same labels, so the division matches them one to one
        PublishedMetric(
            "GpuMemoryUsedPercent",
            "Percent",
            f"100 * max({used} / ({used} + {free}))",
            (used, free),
        ),
        PublishedMetric("GpuTemperatureMaxCelsius", "None", f"max({temp})", (temp,)),
        PublishedMetric("GpuPowerDrawWatts", "None", f"sum({power})", (power,)),
        # 0 when no exporter reports: the dashboard shows GPUs missing, not the last known count
        PublishedMetric("GpusReporting", "Count", f"count({util})", (util,), when_empty=0.0),
        # GPUs whose last XID was not 0 at some scrape of the last 5 minutes. DCGM keeps the last XID's code, fatal or
        # not (it does not classify them), so any XID counts. No DCGM series at all puts nothing (not 0): the alarm
        # treats that as not breaching, and GpusReporting shows the exporter gone.
        PublishedMetric(
            "GpuXidErrors", "Count", f"sum(max_over_time({xid}[{RATE_WINDOW}]) > bool 0)", (xid,)
        ),
    )


#: The GPU metrics computed from the DCGM exporter's series on HyperPod, by CloudWatch name. ``GpuXidErrors`` has the
#: EKS path's name (the node monitoring agent's fatal XIDs there), so that one alarm definition serves both platforms.
DCGM_PUBLISHED: dict[str, PublishedMetric] = {m.name: m for m in _dcgm_published()}


def published_metrics(
    *,
    node_monitoring: bool = True,
    dcgm: bool = False,
    spec_decoding: bool = False,
    router: bool = False,
) -> dict[str, PublishedMetric]:
    """:data:`PUBLISHED_METRICS`, without those of the node monitoring agent when it does not run, with
    :data:`DCGM_PUBLISHED` when the HyperPod observability add-on writes DCGM's series to the workspace, with
    :data:`SPEC_DECODE_PUBLISHED` when vLLM serves with ``spec_decoding``, and with :data:`ROUTER_PUBLISHED` when a
    router stands in front of the replicas."""
    if node_monitoring and dcgm:
        raise ValueError("GpuXidErrors comes from the node monitoring agent or from DCGM, not both")
    metrics = {
        name: m
        for name, m in PUBLISHED_METRICS.items()
        if node_monitoring or name not in NODE_MONITORING_PUBLISHED
    }
    return {
        **metrics,
        **(DCGM_PUBLISHED if dcgm else {}),
        **(SPEC_DECODE_PUBLISHED if spec_decoding else {}),
        **(ROUTER_PUBLISHED if router else {}),
    }


#: Put by the publisher from AWS APIs, not from AMP: healthy targets of the Service's load balancer
#: (elasticloadbalancing:DescribeTargetHealth; 0 when no load balancer carries the Service's tags) and hours left in the
#: Capacity Block (ec2:DescribeCapacityReservations EndDate).
HEALTHY_TARGETS = "HealthyTargets"
CAPACITY_BLOCK_HOURS_LEFT = "CapacityBlockHoursLeft"
#: With a next Capacity Block: the minutes in which, as planned, neither block serves (from the first block's scale-down
#: to the second block's replicas being ready; runtime/handler.py, serving_gap_minutes), 0 when the overlap covers the
#: cold start. The ServingGap alarm watches it (cdk_constructs/serving_gap.py).
SERVING_GAP_MINUTES = "ServingGapMinutes"
#: HyperPod's capacity: hours until the training plan's EndTime (SageMaker API reference, DescribeTrainingPlan: request
#: TrainingPlanName, the plan's name; response EndTime and Status, one of Pending, Active, Scheduled, Expired, Failed).
TRAINING_PLAN_HOURS_LEFT = "TrainingPlanHoursLeft"
#: The minute's share of the upfront fees paid for it, in USD, put every minute a paid period covers: the sum, over
#: the periods covering the minute, of each fee x 60 s / the period's seconds. On EKS the periods are the block as
#: bought (StartDate to its first extension's start) with ``observability.block_fee_usd`` (EC2 does not return a
#: Capacity Block's fee), each paid extension with its own UpfrontFee (DescribeCapacityBlockExtensionHistory), and the
#: next block with ``observability.next_block_fee_usd`` (runtime/handler.py, ``paid_periods``); on HyperPod the training
#: plan (StartTime to EndTime) with DescribeTrainingPlan's UpfrontFee (when its CurrencyCode is USD). Its Sum over a
#: range is what the range cost.
BLOCK_COST_USD = "BlockCostUsd"

#: Container Insights (enhanced observability, accelerated compute) GPU metrics, namespace ContainerInsights. Names and
#: dimension sets: aws/amazon-cloudwatch-agent@ab55b8d translator/translate/otel/exporter/awsemf/kubernetes.go
#: (getGPUMetricDeclarations): node_gpu_* with {ClusterName}, {ClusterName, NodeName, InstanceId} and
#: {ClusterName, NodeName, InstanceId, InstanceType, GpuDevice}; mapped from DCGM fields in
#: translator/translate/otel/processor/metricstransformprocessor/translator.go (DCGM_FI_DEV_GPU_UTIL ->
#: node_gpu_utilization, DCGM_FI_DEV_FB_USED_PERCENT -> node_gpu_memory_utilization, DCGM_FI_DEV_GPU_TEMP ->
#: node_gpu_temperature, DCGM_FI_DEV_POWER_USAGE -> node_gpu_power_draw, DCGM_FI_PROF_PIPE_TENSOR_ACTIVE ->
#: node_gpu_tensor_core_utilization). The add-on's DCGM exporter exports no XID field (its metricsConfig in
#: charts/amazon-cloudwatch-observability/templates/linux/dcgm-exporter-daemonset.yaml): XID errors come from the node
#: monitoring agent instead.
CONTAINER_INSIGHTS_NAMESPACE = "ContainerInsights"
CONTAINER_INSIGHTS_GPU_METRICS = (
    "node_gpu_utilization",
    "node_gpu_memory_utilization",
    "node_gpu_memory_used",
    "node_gpu_memory_total",
    "node_gpu_temperature",
    "node_gpu_power_draw",
    "node_gpu_tensor_core_utilization",
)
#: Per-GPU dimension set of the node_gpu_* metrics (same source).
GPU_DEVICE_DIMENSIONS = ("ClusterName", "GpuDevice", "InstanceId", "InstanceType", "NodeName")
