"""The dashboard's rows that only some environments have (cdk_constructs/serving_dashboard.py draws them where they
belong): speculative decoding's acceptance, under the serving rows, with ``spec_decoding``; the router's row, under the
endpoint row, where a router stands in front of two or more vLLM replicas on EKS (charts/vllm_router.py).

Each row reads what the serving metrics publisher puts (cdk_constructs/serving_metrics/published.py:
SPEC_DECODE_PUBLISHED, ROUTER_PUBLISHED), through the dashboard's own helpers: ``metric(name, statistic, label)`` a
metric of namespace LLMServing for the cluster, ``graph(title, metrics, unit_label=..., width=...)`` a graph widget.
"""

from __future__ import annotations

from collections.abc import Callable

from aws_cdk import aws_cloudwatch as cloudwatch


def spec_decoding_row(metric: Callable, graph: Callable) -> list[cloudwatch.IWidget]:
    """The share of draft tokens the model accepted, and the tokens each verification step yields (1 + accepted per
    draft): what speculative decoding buys. Empty without traffic."""
    return [
        graph(
            "Speculative decoding: draft tokens accepted (%)",
            [metric("SpecDecodeAcceptanceRatePercent", label="acceptance rate")],
            unit_label="percent",
            width=12,
        ),
        graph(
            "Speculative decoding: mean accepted length (tokens per step)",
            [metric("SpecDecodeMeanAcceptedLength", label="mean accepted length")],
            unit_label="tokens",
            width=12,
        ),
    ]


#: The router row's graphs: title, unit label, and (metric, statistic, label) for each line: each metric of
#: serving_metrics.ROUTER_PUBLISHED, once (tests/cdk_constructs/test_router_metrics.py).
ROUTER_GRAPHS: tuple[tuple[str, str, tuple[tuple[str, str, str], ...]], ...] = (
    (
        "Router: requests per second",
        "req/s",
        (
            ("RouterRequestsSucceededPerSecond", "Average", "succeeded"),
            # a worker's 4xx (a missing API key's 401 too), no worker available, 408/429/5xx after every retry
            ("RouterRequestsFailedPerSecond", "Maximum", "failed"),
        ),
    ),
    (
        "Router: latency to the worker's answer (s)",
        "seconds",
        (
            ("RouterLatencyP50Seconds", "Average", "p50"),
            ("RouterLatencyP90Seconds", "Average", "p90"),
        ),
    ),
    (
        "Router: spread over vLLM workers (%)",
        "percent",
        (
            # an even spread over N workers: 100/N each; prefix affinity raises the busiest share
            ("RouterBusiestWorkerSharePercent", "Maximum", "busiest worker's share"),
            ("RouterLeastBusyWorkerSharePercent", "Minimum", "least busy worker's share"),
            ("RouterPrefixHitPercent", "Average", "prefix cache hits (cache_aware)"),
        ),
    ),
    (
        "Router: replicas scraped, vLLM workers receiving",
        "count",
        (
            ("RouterTargetsUp", "Minimum", "router replicas up"),
            ("RouterWorkersReceiving", "Minimum", "workers receiving"),
        ),
    ),
)


def router_row(metric: Callable, graph: Callable) -> list[cloudwatch.IWidget]:
    """The router's traffic, failures, latency, how it spreads the requests over the vLLM workers, and whether the
    scraper reaches it: ROUTER_PUBLISHED, four graphs side by side."""
    width = 24 // len(ROUTER_GRAPHS)
    return [
        graph(
            title,
            [metric(name, statistic, label) for name, statistic, label in lines],
            unit_label=unit,
            width=width,
        )
        for title, unit, lines in ROUTER_GRAPHS
    ]
