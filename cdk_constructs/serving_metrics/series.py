"""The series the serving metrics are made of: every Prometheus series the scraper keeps, with its type and labels
(vLLM 0.33.0, the node monitoring agent, DCGM through HyperPod's observability add-on); the CloudWatch metrics the
publisher computes from them are in published.py (cdk_constructs/serving_metrics/__init__.py says how they get there).
"""

from __future__ import annotations

from dataclasses import dataclass

#: Window of rates and quantiles: at least four scrapes, so that one missed scrape does not empty a rate.
RATE_WINDOW = "5m"

NODE_MONITORING_JOB = "node-monitoring-agent"
#: The job of the router in front of two or more vLLM replicas on EKS (charts/vllm_router.py; scrape.py scrapes it).
ROUTER_JOB = "vllm-router"


@dataclass(frozen=True)
class PrometheusSeries:
    """One metric as it appears on a ``/metrics`` page: exposition name, Prometheus type and labels."""

    name: str
    type: str
    labels: tuple[str, ...]
    meaning: str


def _by_name(*series: PrometheusSeries) -> dict[str, PrometheusSeries]:
    return {s.name: s for s in series}


_ENGINE = ("model_name", "engine")
#: vLLM 0.33.0's metrics this project reads (vllm/v1/metrics/loggers.py, PrometheusStatLogger). ``model_name`` is the
#: served name (Kimi-K3), ``engine`` the engine index ("0" with one engine).
VLLM_METRICS = _by_name(
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
    PrometheusSeries("vllm:prompt_tokens_total", "counter", _ENGINE, "prefill tokens processed"),
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
#: vLLM's speculative decoding counters, registered only when a ``--speculative-config`` is given (``SpecDecodingProm``:
#: "spec_decoding_enabled = speculative_config is not None"), as prometheus_client Counters named
#: ``vllm:spec_decode_num_drafts``, ``vllm:spec_decode_num_draft_tokens`` and ``vllm:spec_decode_num_accepted_tokens``,
#: so exported with ``_total`` (vllm-project/vllm 0.33.0, commit 4ba787ec9, vllm/v1/spec_decode/metrics.py, read from
#: the 0.33.0 wheel on PyPI; the same at vllm-project/vllm@016a8587). Its docstring gives the two figures shown:
#: acceptance rate = rate(accepted) / rate(draft tokens), mean acceptance length = 1 + rate(accepted) / rate(drafts)
#: (the bonus token included, "conventionally").
SPEC_DECODE_METRICS = _by_name(
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
#: The HTTP metrics vLLM's API server adds (vllm/entrypoints/serve/instrumentator/metrics.py: Instrumentator() with its
#: defaults, /metrics and /health excluded) - prometheus-fastapi-instrumentator 8.1.0 metrics.default(): status grouped
#: as 2xx, 4xx, 5xx (should_group_status_codes defaults to True), handler = the route template.
HTTP_METRICS = _by_name(
    PrometheusSeries(
        "http_requests_total",
        "counter",
        ("method", "status", "handler"),
        "HTTP requests by status class",
    ),
)
#: The router's metrics this project reads (the router in front of two or more vLLM replicas on EKS,
#: charts/vllm_router.py), as vllm-router 0.1.17 registers them: src/metrics.rs of the package's sdist on PyPI
#: (vllm_router-0.1.17.tar.gz, sha256 6c37f9a8fb71ba3bda307f6a8a82792c0da86526dcddc97a81928929c4457d9d: the Rust
#: sources of the 0.1.17 binary the tests run; the image's tag is the same release), ``RouterMetrics``, through the
#: ``metrics`` crate and metrics-exporter-prometheus, which writes the names as given (the counters already end in
#: ``_total``). ``start_prometheus`` gives every name ending in ``duration_seconds`` buckets (0.001 s to 240 s), so
#: that one is a histogram. Where each is recorded (0.1.17): src/routers/http/router.rs ``route_prepared_request`` (the
#: OpenAI routes) counts a request in ``requests_total`` only once it succeeded (with ``generate_duration_seconds``:
#: until the worker's answer, for a streamed one until the stream starts); one that failed with a status it does not
#: retry (4xx, a missing API key's 401 included) in ``request_errors_total`` (``error_type`` non_retryable_error; also
#: backend_error, no_available_workers - the latter once per attempt, so a request that found no worker on every
#: attempt counts there and in the next one), and one that still failed with 408, 429 or 5xx after its retries in
#: ``retries_exhausted_total`` (src/core/retry.rs, ``execute_response_with_retry``); every routing policy counts the
#: worker it picked in ``processed_requests_total`` (src/policies/*.rs; a retry's new pick too), and the cache-aware
#: policy its decision in ``prefix_routing_decisions_total`` (src/policies/cache_aware.rs: outcome prefix_hit,
#: prefix_miss, load_imbalance or missing_tokens). A counter's series appears with its first increment.
#: tests/charts/test_vllm_router.py reads these names, types and labels from the running router's /metrics.
ROUTER_METRICS = _by_name(
    PrometheusSeries(
        "vllm_router_requests_total", "counter", ("route",), "requests answered with success"
    ),
    PrometheusSeries(
        "vllm_router_request_errors_total",
        "counter",
        ("route", "error_type"),
        "requests that failed without a retry (a worker's 4xx, no available worker, ...)",
    ),
    PrometheusSeries(
        "vllm_router_retries_exhausted_total",
        "counter",
        ("route",),
        "requests still failing with 408, 429 or 5xx after every retry",
    ),
    PrometheusSeries(
        "vllm_router_processed_requests_total",
        "counter",
        ("worker",),
        "requests sent to each worker (its URL, http://POD_IP:PORT)",
    ),
    PrometheusSeries(
        "vllm_router_prefix_routing_decisions_total",
        "counter",
        ("policy", "stage", "outcome"),
        "cache-aware decisions: prefix_hit, prefix_miss, load_imbalance, missing_tokens",
    ),
    PrometheusSeries(
        "vllm_router_generate_duration_seconds",
        "histogram",
        (),
        "time from a request's arrival to its worker's (first) answer, successful requests",
    ),
)
#: The route labels of the requests the router retries on another worker: route_generate ... route_rerank pass these
#: to route_prepared_request (0.1.17 src/routers/http/router.rs); on them a pick that finds no worker is counted in
#: request_errors_total per attempt. Any other path goes through route_transparent, which does not retry.
RETRIED_ROUTES = (
    "/generate",
    "/inference/v1/generate",
    "/v1/chat/completions",
    "/v1/completions",
    "/v1/embeddings",
    "/v1/rerank",
)
#: The node monitoring agent's metrics (pkg/manager/manager.go at v1.6.7).
NODE_MONITORING_METRICS = _by_name(
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
#: NVIDIA DCGM exporter fields on HyperPod, written to the environment's AMP workspace by AWS's
#: amazon-sagemaker-hyperpod-observability add-on (deployment_config/addons.py, HYPERPOD_OBSERVABILITY). The add-on's
#: accelerated compute metrics are "DCGM metrics" of NVIDIA/dcgm-exporter etc/dcp-metrics-included.csv (SageMaker
#: developer guide, "SageMaker HyperPod cluster metrics"); every field below is in that file at NVIDIA/dcgm-exporter@99a774b
#: and in the exporter's default counters, etc/default-counters.csv at NVIDIA/dcgm-exporter@b54068a, with the type and
#: meaning given there. The labels the add-on's collector puts on them (GPU index, node, job) are documented nowhere
#: AWS publishes, so every query aggregates over all series (max, min, avg, sum, count) and names no label.
DCGM_METRICS = _by_name(
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
#: Every Prometheus series a query of published.py may name.
PROMETHEUS_SERIES = {
    **VLLM_METRICS,
    **SPEC_DECODE_METRICS,
    **HTTP_METRICS,
    **ROUTER_METRICS,
    **NODE_MONITORING_METRICS,
    **DCGM_METRICS,
    "up": PrometheusSeries(
        "up",
        "gauge",
        ("job", "instance"),
        "1 when the last scrape of the target succeeded (added by the scraper)",
    ),
}
