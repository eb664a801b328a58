"""The series the serving metrics are made of: every Prometheus series the scraper keeps, with its type and labels
(vLLM 0.33.0, the node monitoring agent, DCGM through HyperPod's observability add-on), and the CloudWatch metrics the
publisher computes from them (cdk_constructs/serving_metrics/__init__.py says how they get there).
"""

from __future__ import annotations

from dataclasses import dataclass

#: CloudWatch namespace of the metrics the publisher puts; dimension ClusterName.
NAMESPACE = "LLMServing"
#: The AMP managed scraper cannot scrape more often (AMP user guide, "Using an AWS managed collector", limitations).
SCRAPE_INTERVAL_SECONDS = 30
#: Window of rates and quantiles: at least four scrapes, so that one missed scrape does not empty a rate.
RATE_WINDOW = "5m"

VLLM_JOB = "vllm"
NODE_MONITORING_JOB = "node-monitoring-agent"


@dataclass(frozen=True)
class PrometheusSeries:
    """One metric as it appears on a ``/metrics`` page: exposition name, Prometheus type and labels."""

    name: str
    type: str
    labels: tuple[str, ...]
    meaning: str


_ENGINE = ("model_name", "engine")
#: vLLM 0.33.0's metrics this project reads (vllm/v1/metrics/loggers.py, PrometheusStatLogger). ``model_name`` is the
#: served name (Kimi-K3), ``engine`` the engine index ("0" with one engine).
VLLM_METRICS: dict[str, PrometheusSeries] = {
    s.name: s
    for s in (
        PrometheusSeries(
            "vllm:time_to_first_token_seconds", "histogram", _ENGINE, "time to first token"
        ),
        PrometheusSeries(
            "vllm:inter_token_latency_seconds",
            "histogram",
            _ENGINE,
            "time between two output tokens",
        ),
        PrometheusSeries(
            "vllm:e2e_request_latency_seconds",
            "histogram",
            _ENGINE,
            "request latency, arrival to finish",
        ),
        PrometheusSeries(
            "vllm:num_requests_running", "gauge", _ENGINE, "requests in the running batch"
        ),
        PrometheusSeries(
            "vllm:num_requests_waiting", "gauge", _ENGINE, "requests queued for scheduling"
        ),
        PrometheusSeries("vllm:kv_cache_usage_perc", "gauge", _ENGINE, "KV-cache usage, 1 = 100 %"),
        PrometheusSeries(
            "vllm:prompt_tokens_total", "counter", _ENGINE, "prefill tokens processed"
        ),
        PrometheusSeries("vllm:generation_tokens_total", "counter", _ENGINE, "tokens generated"),
        PrometheusSeries(
            "vllm:num_preemptions_total", "counter", _ENGINE, "requests preempted (KV cache full)"
        ),
        PrometheusSeries(
            "vllm:request_success_total",
            "counter",
            (*_ENGINE, "finished_reason"),
            "finished requests; finished_reason is stop, length, abort, error or repetition",
        ),
    )
}
#: vLLM's speculative decoding counters, registered only when a ``--speculative-config`` is given (``SpecDecodingProm``:
#: "spec_decoding_enabled = speculative_config is not None"), as prometheus_client Counters named
#: ``vllm:spec_decode_num_drafts``, ``vllm:spec_decode_num_draft_tokens`` and ``vllm:spec_decode_num_accepted_tokens``,
#: so exported with ``_total`` (vllm-project/vllm@016a8587 vllm/v1/spec_decode/metrics.py; 0.33.0's own file was not
#: read: the search index holds that commit). The same file's docstring gives the two figures shown: acceptance rate =
#: rate(accepted) / rate(draft tokens), mean acceptance length = 1 + rate(accepted) / rate(drafts) (the bonus token
#: included, "conventionally").
SPEC_DECODE_METRICS: dict[str, PrometheusSeries] = {
    s.name: s
    for s in (
        PrometheusSeries(
            "vllm:spec_decode_num_drafts_total", "counter", _ENGINE, "speculative drafts proposed"
        ),
        PrometheusSeries(
            "vllm:spec_decode_num_draft_tokens_total", "counter", _ENGINE, "draft tokens proposed"
        ),
        PrometheusSeries(
            "vllm:spec_decode_num_accepted_tokens_total",
            "counter",
            _ENGINE,
            "draft tokens accepted",
        ),
    )
}
#: The HTTP metrics vLLM's API server adds (vllm/entrypoints/serve/instrumentator/metrics.py: Instrumentator() with its
#: defaults, /metrics and /health excluded) - prometheus-fastapi-instrumentator 8.1.0 metrics.default(): status grouped
#: as 2xx, 4xx, 5xx (should_group_status_codes defaults to True), handler = the route template.
HTTP_METRICS: dict[str, PrometheusSeries] = {
    s.name: s
    for s in (
        PrometheusSeries(
            "http_requests_total",
            "counter",
            ("method", "status", "handler"),
            "HTTP requests by status class",
        ),
    )
}
#: The node monitoring agent's metrics (pkg/manager/manager.go at v1.6.7).
NODE_MONITORING_METRICS: dict[str, PrometheusSeries] = {
    s.name: s
    for s in (
        PrometheusSeries(
            "problem_condition_count",
            "counter",
            ("severity", "reason"),
            "conditions detected; reason NvidiaXID<code>Error for a fatal XID, NvidiaXID<code>Warning otherwise",
        ),
        PrometheusSeries(
            "fatal_condition_gauge",
            "gauge",
            ("type",),
            "1 once a fatal condition of that NodeCondition type",
        ),
    )
}
#: NVIDIA DCGM exporter fields on HyperPod, written to the environment's AMP workspace by AWS's
#: amazon-sagemaker-hyperpod-observability add-on (deployment_config/addons.py, HYPERPOD_OBSERVABILITY). The add-on's
#: accelerated compute metrics are "DCGM metrics" of NVIDIA/dcgm-exporter etc/dcp-metrics-included.csv (SageMaker
#: developer guide, "SageMaker HyperPod cluster metrics"); every field below is in that file at NVIDIA/dcgm-exporter@99a774b
#: and in the exporter's default counters, etc/default-counters.csv at NVIDIA/dcgm-exporter@b54068a, with the type and
#: meaning given there. The labels the add-on's collector puts on them (GPU index, node, job) are documented nowhere
#: AWS publishes, so every query aggregates over all series (max, min, avg, sum, count) and names no label.
DCGM_METRICS: dict[str, PrometheusSeries] = {
    s.name: s
    for s in (
        PrometheusSeries("DCGM_FI_DEV_GPU_UTIL", "gauge", (), "GPU utilization (in %)"),
        PrometheusSeries("DCGM_FI_DEV_FB_USED", "gauge", (), "framebuffer memory used (in MiB)"),
        PrometheusSeries("DCGM_FI_DEV_FB_FREE", "gauge", (), "framebuffer memory free (in MiB)"),
        PrometheusSeries("DCGM_FI_DEV_GPU_TEMP", "gauge", (), "GPU temperature (in C)"),
        PrometheusSeries("DCGM_FI_DEV_POWER_USAGE", "gauge", (), "power draw (in W)"),
        PrometheusSeries(
            "DCGM_FI_DEV_XID_ERRORS",
            "gauge",
            (),
            "value of the last XID error encountered (0: none)",
        ),
    )
}
#: Every Prometheus series a query below may name.
PROMETHEUS_SERIES = {
    **VLLM_METRICS,
    **SPEC_DECODE_METRICS,
    **HTTP_METRICS,
    **NODE_MONITORING_METRICS,
    **DCGM_METRICS,
    "up": PrometheusSeries(
        "up",
        "gauge",
        ("job", "instance"),
        "1 when the last scrape of the target succeeded (added by the scraper)",
    ),
}


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
            "PromptTokensPerSecond",
            "Count/Second",
            f"sum(rate(vllm:prompt_tokens_total{{{job}}}[{RATE_WINDOW}]))",
            ("vllm:prompt_tokens_total",),
        ),
        PublishedMetric(
            "GenerationTokensPerSecond",
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
    *, node_monitoring: bool = True, dcgm: bool = False, spec_decoding: bool = False
) -> dict[str, PublishedMetric]:
    """:data:`PUBLISHED_METRICS`, without those of the node monitoring agent when it does not run, with
    :data:`DCGM_PUBLISHED` when the HyperPod observability add-on writes DCGM's series to the workspace, and with
    :data:`SPEC_DECODE_PUBLISHED` when vLLM serves with ``spec_decoding``."""
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
    }


#: Put by the publisher from AWS APIs, not from AMP: healthy targets of the Service's load balancer
#: (elasticloadbalancing:DescribeTargetHealth; 0 when no load balancer carries the Service's tags) and hours left in the
#: Capacity Block (ec2:DescribeCapacityReservations EndDate).
HEALTHY_TARGETS = "HealthyTargets"
CAPACITY_BLOCK_HOURS_LEFT = "CapacityBlockHoursLeft"
#: HyperPod's capacity: hours until the training plan's EndTime (SageMaker API reference, DescribeTrainingPlan: request
#: TrainingPlanName, the plan's name; response EndTime and Status, one of Pending, Active, Scheduled, Expired, Failed).
TRAINING_PLAN_HOURS_LEFT = "TrainingPlanHoursLeft"

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
