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
   only known after deploy: it finds it by the tags the cloud provider puts on it) and the hours left in the Capacity
   Block (EC2's ``EndDate`` of the reservation).

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

import base64
import re
from dataclasses import dataclass
from pathlib import Path

import aws_cdk as cdk
import yaml
from aws_cdk import aws_events as events
from aws_cdk import aws_events_targets as targets
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from constructs import Construct

from cdk_constructs.nag_acknowledgements import acknowledge_serving_metrics_publisher
from deployment_config.addons import (
    NODE_MONITORING_AGENT_METRICS_PORT,
    NODE_MONITORING_AGENT_NAME,
    NODE_MONITORING_AGENT_NAMESPACE,
)

HANDLER_DIR = Path(__file__).resolve().parent / "serving_metrics_handler"
#: The latest Python runtime aws-cdk-lib 2.275 knows (cdk-nag's AwsSolutions-L1), as the destroy waiters use.
RUNTIME = lambda_.Runtime.PYTHON_3_14
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
VLLM_METRICS: dict[str, PrometheusSeries] = {s.name: s for s in (
    PrometheusSeries("vllm:time_to_first_token_seconds", "histogram", _ENGINE, "time to first token"),
    PrometheusSeries("vllm:inter_token_latency_seconds", "histogram", _ENGINE, "time between two output tokens"),
    PrometheusSeries("vllm:e2e_request_latency_seconds", "histogram", _ENGINE, "request latency, arrival to finish"),
    PrometheusSeries("vllm:num_requests_running", "gauge", _ENGINE, "requests in the running batch"),
    PrometheusSeries("vllm:num_requests_waiting", "gauge", _ENGINE, "requests queued for scheduling"),
    PrometheusSeries("vllm:kv_cache_usage_perc", "gauge", _ENGINE, "KV-cache usage, 1 = 100 %"),
    PrometheusSeries("vllm:prompt_tokens_total", "counter", _ENGINE, "prefill tokens processed"),
    PrometheusSeries("vllm:generation_tokens_total", "counter", _ENGINE, "tokens generated"),
    PrometheusSeries("vllm:num_preemptions_total", "counter", _ENGINE, "requests preempted (KV cache full)"),
    PrometheusSeries("vllm:request_success_total", "counter", (*_ENGINE, "finished_reason"),
                     "finished requests; finished_reason is stop, length, abort, error or repetition"),
)}
#: vLLM's speculative decoding counters, registered only when a ``--speculative-config`` is given (``SpecDecodingProm``:
#: "spec_decoding_enabled = speculative_config is not None"), as prometheus_client Counters named
#: ``vllm:spec_decode_num_drafts``, ``vllm:spec_decode_num_draft_tokens`` and ``vllm:spec_decode_num_accepted_tokens``,
#: so exported with ``_total`` (vllm-project/vllm@016a8587 vllm/v1/spec_decode/metrics.py; 0.33.0's own file was not
#: read: the search index holds that commit). The same file's docstring gives the two figures shown: acceptance rate =
#: rate(accepted) / rate(draft tokens), mean acceptance length = 1 + rate(accepted) / rate(drafts) (the bonus token
#: included, "conventionally").
SPEC_DECODE_METRICS: dict[str, PrometheusSeries] = {s.name: s for s in (
    PrometheusSeries("vllm:spec_decode_num_drafts_total", "counter", _ENGINE, "speculative drafts proposed"),
    PrometheusSeries("vllm:spec_decode_num_draft_tokens_total", "counter", _ENGINE, "draft tokens proposed"),
    PrometheusSeries("vllm:spec_decode_num_accepted_tokens_total", "counter", _ENGINE, "draft tokens accepted"),
)}
#: The HTTP metrics vLLM's API server adds (vllm/entrypoints/serve/instrumentator/metrics.py: Instrumentator() with its
#: defaults, /metrics and /health excluded) - prometheus-fastapi-instrumentator 8.1.0 metrics.default(): status grouped
#: as 2xx, 4xx, 5xx (should_group_status_codes defaults to True), handler = the route template.
HTTP_METRICS: dict[str, PrometheusSeries] = {s.name: s for s in (
    PrometheusSeries("http_requests_total", "counter", ("method", "status", "handler"), "HTTP requests by status class"),
)}
#: The node monitoring agent's metrics (pkg/manager/manager.go at v1.6.7).
NODE_MONITORING_METRICS: dict[str, PrometheusSeries] = {s.name: s for s in (
    PrometheusSeries("problem_condition_count", "counter", ("severity", "reason"),
                     "conditions detected; reason NvidiaXID<code>Error for a fatal XID, NvidiaXID<code>Warning otherwise"),
    PrometheusSeries("fatal_condition_gauge", "gauge", ("type",), "1 once a fatal condition of that NodeCondition type"),
)}
#: NVIDIA DCGM exporter fields on HyperPod, written to the environment's AMP workspace by AWS's
#: amazon-sagemaker-hyperpod-observability add-on (deployment_config/addons.py, HYPERPOD_OBSERVABILITY). The add-on's
#: accelerated compute metrics are "DCGM metrics" of NVIDIA/dcgm-exporter etc/dcp-metrics-included.csv (SageMaker
#: developer guide, "SageMaker HyperPod cluster metrics"); every field below is in that file at NVIDIA/dcgm-exporter@99a774b
#: and in the exporter's default counters, etc/default-counters.csv at NVIDIA/dcgm-exporter@b54068a, with the type and
#: meaning given there. The labels the add-on's collector puts on them (GPU index, node, job) are documented nowhere
#: AWS publishes, so every query aggregates over all series (max, min, avg, sum, count) and names no label.
DCGM_METRICS: dict[str, PrometheusSeries] = {s.name: s for s in (
    PrometheusSeries("DCGM_FI_DEV_GPU_UTIL", "gauge", (), "GPU utilization (in %)"),
    PrometheusSeries("DCGM_FI_DEV_FB_USED", "gauge", (), "framebuffer memory used (in MiB)"),
    PrometheusSeries("DCGM_FI_DEV_FB_FREE", "gauge", (), "framebuffer memory free (in MiB)"),
    PrometheusSeries("DCGM_FI_DEV_GPU_TEMP", "gauge", (), "GPU temperature (in C)"),
    PrometheusSeries("DCGM_FI_DEV_POWER_USAGE", "gauge", (), "power draw (in W)"),
    PrometheusSeries("DCGM_FI_DEV_XID_ERRORS", "gauge", (), "value of the last XID error encountered (0: none)"),
)}
#: Every Prometheus series a query below may name.
PROMETHEUS_SERIES = {**VLLM_METRICS, **SPEC_DECODE_METRICS, **HTTP_METRICS, **NODE_MONITORING_METRICS, **DCGM_METRICS,
                     "up": PrometheusSeries("up", "gauge", ("job", "instance"),
                                            "1 when the last scrape of the target succeeded (added by the scraper)")}


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
        return {"name": self.name, "unit": self.unit, "query": self.query, "whenEmpty": self.when_empty}


def _quantile(q: float, histogram: str) -> str:
    return (f'histogram_quantile({q}, sum by (le) (rate({histogram}_bucket{{job="{VLLM_JOB}"}}[{RATE_WINDOW}])))')


def _published() -> tuple[PublishedMetric, ...]:
    job = f'job="{VLLM_JOB}"'
    ttft, itl, e2e = "vllm:time_to_first_token_seconds", "vllm:inter_token_latency_seconds", "vllm:e2e_request_latency_seconds"
    metrics = []
    for label, histogram in (("TimeToFirstToken", ttft), ("InterTokenLatency", itl), ("EndToEndLatency", e2e)):
        for q in (0.5, 0.9):
            metrics.append(PublishedMetric(f"{label}P{int(q * 100)}Seconds", "Seconds", _quantile(q, histogram), (histogram,)))
    return (
        *metrics,
        PublishedMetric("RequestsRunning", "Count", f"sum(vllm:num_requests_running{{{job}}})", ("vllm:num_requests_running",)),
        PublishedMetric("RequestsWaiting", "Count", f"sum(vllm:num_requests_waiting{{{job}}})", ("vllm:num_requests_waiting",)),
        PublishedMetric("KvCacheUsagePercent", "Percent", f"100 * max(vllm:kv_cache_usage_perc{{{job}}})",
                        ("vllm:kv_cache_usage_perc",)),
        PublishedMetric("PromptTokensPerSecond", "Count/Second", f"sum(rate(vllm:prompt_tokens_total{{{job}}}[{RATE_WINDOW}]))",
                        ("vllm:prompt_tokens_total",)),
        PublishedMetric("GenerationTokensPerSecond", "Count/Second",
                        f"sum(rate(vllm:generation_tokens_total{{{job}}}[{RATE_WINDOW}]))", ("vllm:generation_tokens_total",)),
        PublishedMetric("PreemptionsPerMinute", "Count", f"60 * sum(rate(vllm:num_preemptions_total{{{job}}}[{RATE_WINDOW}]))",
                        ("vllm:num_preemptions_total",)),
        PublishedMetric("FinishedRequestsPerSecond", "Count/Second",
                        f"sum(rate(vllm:request_success_total{{{job}}}[{RATE_WINDOW}]))", ("vllm:request_success_total",)),
        # What clients see: answers of the OpenAI API with a 5xx status, out of all its answers. No request, no rate.
        PublishedMetric("ErrorRatePercent", "Percent",
                        f'100 * sum(rate(http_requests_total{{{job},handler=~"/v1/.*",status="5xx"}}[{RATE_WINDOW}])) '
                        f'/ sum(rate(http_requests_total{{{job},handler=~"/v1/.*"}}[{RATE_WINDOW}]))', ("http_requests_total",)),
        # 0 while the pod loads the weights (the server is not listening yet) or when no pod exists.
        PublishedMetric("VllmTargetsUp", "Count", f"sum(up{{{job}}})", ("up",), when_empty=0.0),
        # A counter series appears with its first increment: no series means no XID error so far.
        PublishedMetric("GpuXidErrors", "Count",
                        f'sum(increase(problem_condition_count{{job="{NODE_MONITORING_JOB}",reason=~"NvidiaXID[0-9]+Error"}}'
                        f"[{RATE_WINDOW}]))", ("problem_condition_count",), when_empty=0.0),
        PublishedMetric("GpuHardwareFatal", "Count",
                        f'max(fatal_condition_gauge{{job="{NODE_MONITORING_JOB}",type="AcceleratedHardwareReady"}})',
                        ("fatal_condition_gauge",), when_empty=0.0),
        PublishedMetric("NodeMonitoringAgentsUp", "Count", f'sum(up{{job="{NODE_MONITORING_JOB}"}})', ("up",), when_empty=0.0),
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
        PublishedMetric("SpecDecodeAcceptanceRatePercent", "Percent", f"100 * {rate(accepted)} / {rate(drafted)}",
                        (accepted, drafted)),
        PublishedMetric("SpecDecodeMeanAcceptedLength", "None", f"1 + {rate(accepted)} / {rate(drafts)}",
                        (accepted, drafts)),
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
        PublishedMetric("GpuMemoryUsedPercent", "Percent", f"100 * max({used} / ({used} + {free}))", (used, free)),
        PublishedMetric("GpuTemperatureMaxCelsius", "None", f"max({temp})", (temp,)),
        PublishedMetric("GpuPowerDrawWatts", "None", f"sum({power})", (power,)),
        # 0 when no exporter reports: the dashboard shows GPUs missing, not the last known count
        PublishedMetric("GpusReporting", "Count", f"count({util})", (util,), when_empty=0.0),
        # GPUs whose last XID was not 0 at some scrape of the last 5 minutes. DCGM keeps the last XID's code, fatal or
        # not (it does not classify them), so any XID counts. No DCGM series at all puts nothing (not 0): the alarm
        # treats that as not breaching, and GpusReporting shows the exporter gone.
        PublishedMetric("GpuXidErrors", "Count", f"sum(max_over_time({xid}[{RATE_WINDOW}]) > bool 0)", (xid,)),
    )


#: The GPU metrics computed from the DCGM exporter's series on HyperPod, by CloudWatch name. ``GpuXidErrors`` has the
#: EKS path's name (the node monitoring agent's fatal XIDs there), so that one alarm definition serves both platforms.
DCGM_PUBLISHED: dict[str, PublishedMetric] = {m.name: m for m in _dcgm_published()}


def published_metrics(*, node_monitoring: bool = True, dcgm: bool = False,
                      spec_decoding: bool = False) -> dict[str, PublishedMetric]:
    """:data:`PUBLISHED_METRICS`, without those of the node monitoring agent when it does not run, with
    :data:`DCGM_PUBLISHED` when the HyperPod observability add-on writes DCGM's series to the workspace, and with
    :data:`SPEC_DECODE_PUBLISHED` when vLLM serves with ``spec_decoding``."""
    if node_monitoring and dcgm:
        raise ValueError("GpuXidErrors comes from the node monitoring agent or from DCGM, not both")
    metrics = {name: m for name, m in PUBLISHED_METRICS.items() if node_monitoring or name not in NODE_MONITORING_PUBLISHED}
    return {**metrics, **(DCGM_PUBLISHED if dcgm else {}), **(SPEC_DECODE_PUBLISHED if spec_decoding else {})}

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
CONTAINER_INSIGHTS_GPU_METRICS = ("node_gpu_utilization", "node_gpu_memory_utilization", "node_gpu_memory_used",
                                  "node_gpu_memory_total", "node_gpu_temperature", "node_gpu_power_draw",
                                  "node_gpu_tensor_core_utilization")
#: Per-GPU dimension set of the node_gpu_* metrics (same source).
GPU_DEVICE_DIMENSIONS = ("ClusterName", "GpuDevice", "InstanceId", "InstanceType", "NodeName")


#: The job of the router in front of two or more vLLM replicas on EKS (charts/vllm_router.py).
ROUTER_JOB = "vllm-router"
#: The router pods' component label (charts/vllm_router.py ROUTER), as the scraper's pod discovery names it.
_COMPONENT_LABEL = "__meta_kubernetes_pod_label_app_kubernetes_io_component"


def scrape_configuration(*, namespace: str, port: int, node_monitoring: bool = True, app_label: str | None = None,
                         router_metrics_port: int | None = None) -> str:
    """The AMP scraper's Prometheus configuration: the vLLM pods of ``namespace`` on their container ``port``, and (with
    ``node_monitoring``) the node monitoring agent on every node. Only kubernetes_sd_configs, relabel_configs and a
    scrape interval of at least 30 s are allowed (AMP user guide, "Using an AWS managed collector", scraper
    configuration).

    The vLLM job keeps a pod's target by its declared container port: on the EKS path the port is the Deployment's
    ``containerPort`` (the namespace holds only vLLM); on HyperPod the Inference Operator makes the worker pod from the
    InferenceEndpointConfig, whose ``worker.modelInvocationPort.containerPort`` (charts/inference_endpoint_chart.py) is
    the same vLLM port. The CRD has no field for the pod's labels, but the operator labels the worker's pods
    ``app=<InferenceEndpointConfig name>``: AWS's HyperPod CLI finds an endpoint's pods by exactly that label
    (aws/sagemaker-hyperpod-cli@011ca92 src/sagemaker/hyperpod/inference/hp_endpoint.py, ``list_pods``:
    ``item.metadata.labels.get("app")`` among the endpoint names). With ``app_label`` the job also keeps only pods
    carrying ``app=<app_label>``, so that another pod of the shared namespace declaring the same port is not scraped.

    With ``router_metrics_port`` (a router in front of the replicas, charts/vllm_router.py) the router's pods, which
    declare vLLM's port number for the API they proxy, are dropped from the vLLM job (scraping them there would
    count a vLLM replica's metrics twice: the router passes unknown paths such as /metrics to a worker) and scraped by
    :data:`ROUTER_JOB` on their Prometheus listener.
    """
    router_drop = [] if router_metrics_port is None else [
        {"action": "drop", "source_labels": [_COMPONENT_LABEL], "regex": "router"}]
    router_jobs = [] if router_metrics_port is None else [{
        "job_name": ROUTER_JOB,
        "metrics_path": "/metrics",
        "kubernetes_sd_configs": [{"role": "pod", "namespaces": {"names": [namespace]}}],
        "relabel_configs": [
            {"action": "keep", "source_labels": [_COMPONENT_LABEL, "__meta_kubernetes_pod_container_port_number"],
             "regex": f"router;{router_metrics_port}"},
            {"action": "replace", "source_labels": ["__meta_kubernetes_pod_name"], "target_label": "pod"},
            {"action": "replace", "source_labels": ["__meta_kubernetes_pod_node_name"], "target_label": "node"},
        ],
    }]
    app_keep = [] if app_label is None else [
        {"action": "keep", "source_labels": ["__meta_kubernetes_pod_label_app"], "regex": re.escape(app_label)}]
    config = {
        "global": {"scrape_interval": f"{SCRAPE_INTERVAL_SECONDS}s", "scrape_timeout": "10s"},
        "scrape_configs": [
            {
                "job_name": VLLM_JOB,
                "metrics_path": "/metrics",
                "kubernetes_sd_configs": [{"role": "pod", "namespaces": {"names": [namespace]}}],
                "relabel_configs": [
                    # one target per declared container port: keep the API port of the vLLM container
                    {"action": "keep", "source_labels": ["__meta_kubernetes_pod_container_port_number"], "regex": str(port)},
                    *app_keep,
                    *router_drop,
                    {"action": "replace", "source_labels": ["__meta_kubernetes_pod_name"], "target_label": "pod"},
                    {"action": "replace", "source_labels": ["__meta_kubernetes_pod_node_name"], "target_label": "node"},
                ],
            },
            *router_jobs,
            *([] if not node_monitoring else [{
                "job_name": NODE_MONITORING_JOB,
                "metrics_path": "/metrics",
                "kubernetes_sd_configs": [{"role": "pod", "namespaces": {"names": [NODE_MONITORING_AGENT_NAMESPACE]}}],
                "relabel_configs": [
                    {"action": "keep", "source_labels": ["__meta_kubernetes_pod_label_app_kubernetes_io_name",
                                                         "__meta_kubernetes_pod_container_name"],
                     "regex": f"{NODE_MONITORING_AGENT_NAME};{NODE_MONITORING_AGENT_NAME}"},
                    # the container declares no port; the agent listens on the node's network (hostNetwork)
                    {"action": "replace", "source_labels": ["__meta_kubernetes_pod_ip"], "target_label": "__address__",
                     "replacement": f"$1:{NODE_MONITORING_AGENT_METRICS_PORT}"},
                    {"action": "replace", "source_labels": ["__meta_kubernetes_pod_node_name"], "target_label": "node"},
                ],
            }]),
        ],
    }
    return yaml.safe_dump(config, sort_keys=False)


def scrape_configuration_blob(*, namespace: str, port: int, node_monitoring: bool = True, app_label: str | None = None,
                              router_metrics_port: int | None = None) -> str:
    """:func:`scrape_configuration`, base64-encoded as ``AWS::APS::Scraper`` ScrapeConfiguration.ConfigurationBlob wants."""
    config = scrape_configuration(namespace=namespace, port=port, node_monitoring=node_monitoring, app_label=app_label,
                                  router_metrics_port=router_metrics_port)
    return base64.b64encode(config.encode()).decode()


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
    """

    def __init__(self, scope: Construct, id: str, *, cluster_name: str, prometheus_endpoint: str, workspace_arn: str,
                 load_balancer_tags: dict[str, str], capacity_reservation_id: str | None = None,
                 training_plan_arn: str | None = None, node_monitoring: bool = True, dcgm: bool = False,
                 spec_decoding: bool = False) -> None:
        super().__init__(scope, id)
        if (capacity_reservation_id is None) == (training_plan_arn is None):
            raise ValueError("give exactly one of capacity_reservation_id and training_plan_arn")
        self.log_group = logs.LogGroup(self, "Logs", retention=logs.RetentionDays.ONE_MONTH,
                                       removal_policy=cdk.RemovalPolicy.DESTROY)
        self.role = iam.Role(self, "Role", assumed_by=iam.ServicePrincipal("lambda.amazonaws.com"),
                             description=f"Publishes the serving metrics of {cluster_name} to CloudWatch")
        self.role.add_to_policy(iam.PolicyStatement(actions=["logs:CreateLogStream", "logs:PutLogEvents"],
                                                    resources=[self.log_group.log_group_arn]))
        self.role.add_to_policy(iam.PolicyStatement(actions=["aps:QueryMetrics"], resources=[workspace_arn]))
        self.role.add_to_policy(iam.PolicyStatement(
            actions=["cloudwatch:PutMetricData"], resources=["*"],
            conditions={"StringEquals": {"cloudwatch:namespace": NAMESPACE}}))
        # These Describe calls take no resource types (Service Authorization Reference, Elastic Load Balancing V2 and
        # Amazon EC2), hence "*".
        self.role.add_to_policy(iam.PolicyStatement(
            actions=["elasticloadbalancing:DescribeLoadBalancers", "elasticloadbalancing:DescribeTags",
                     "elasticloadbalancing:DescribeTargetGroups", "elasticloadbalancing:DescribeTargetHealth",
                     *(["ec2:DescribeCapacityReservations"] if capacity_reservation_id else [])],
            resources=["*"]))
        if training_plan_arn:
            # DescribeTrainingPlan takes the training-plan resource: AWS's own AmazonSageMakerTrainingPlanCreateAccess
            # grants it on arn:aws:sagemaker:*:*:training-plan/*, apart from its "NonResourceLevelTrainingPlanPermissions"
            # (SageMaker developer guide, "AWS managed policies for SageMaker training plans"). This plan only.
            self.role.add_to_policy(iam.PolicyStatement(
                sid="DescribeThisTrainingPlan", actions=["sagemaker:DescribeTrainingPlan"], resources=[training_plan_arn]))
        acknowledge_serving_metrics_publisher(self.role)

        self.function = lambda_.Function(
            self, "Function", runtime=RUNTIME, handler="handler.handler",
            code=lambda_.Code.from_asset(str(HANDLER_DIR), exclude=["__pycache__", "*.pyc"]),
            role=self.role, log_group=self.log_group, timeout=cdk.Duration.seconds(50), memory_size=256,
            description=f"Serving metrics of {cluster_name}: AMP queries, load balancer health, "
                        + ("Capacity Block end" if capacity_reservation_id else "training plan end"),
            # No reserved concurrency: in a new account (concurrency quota 10) reserving any fails the deploy. The
            # timeout under a minute keeps one run from overlapping the next.
        )
        self.event = {
            "namespace": NAMESPACE,
            "clusterName": cluster_name,
            "prometheusEndpoint": prometheus_endpoint,
            "queries": [m.as_event() for m in published_metrics(node_monitoring=node_monitoring, dcgm=dcgm,
                                                                       spec_decoding=spec_decoding).values()],
            "loadBalancerTags": load_balancer_tags,
            "healthyTargetsMetric": HEALTHY_TARGETS,
        }
        if capacity_reservation_id:
            self.event.update(capacityReservationId=capacity_reservation_id,
                              capacityBlockHoursLeftMetric=CAPACITY_BLOCK_HOURS_LEFT)
        else:
            # The plan's name: the API reference's TrainingPlanName pattern is a name (newer SDK models also take the
            # ARN; the Lambda runtime's boto3 may be older). ops_cli/preflight.py calls it with the name too.
            self.event.update(trainingPlanName=training_plan_arn.rsplit("/", 1)[-1],
                              trainingPlanHoursLeftMetric=TRAINING_PLAN_HOURS_LEFT)
        self.schedule = events.Rule(
            self, "EveryMinute", schedule=events.Schedule.rate(cdk.Duration.minutes(1)),
            description=f"Runs the serving metrics publisher of {cluster_name}",
            targets=[targets.LambdaFunction(self.function, event=events.RuleTargetInput.from_object(self.event),
                                            retry_attempts=0)],
        )
        # The target's Lambda permission is named after the rule's unique id, which includes the stack's path: a pipeline
        # stage would name it differently from a direct deploy, and the two would not be the same stack. A fixed id.
        (permission,) = [c for c in self.node.find_all()
                         if isinstance(c, lambda_.CfnPermission) and c.node.id.startswith("AllowEventRule")]
        permission.override_logical_id("ServingMetricsScheduleInvokePermission")
