"""The tables of ``llmops bench`` (ops_cli/commands/bench.py): the probe's rows, the load test's runs beside the
published figures of the same profile, and speculative decoding's acceptance."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from endpoint_probe import load_test_result
from ops_cli.load_test import BENCH_METRICS_SOURCE, BenchRun
from ops_cli.output import Table, table

# Types only: llmops bench imports the published figures only when it runs (ops_cli/commands/bench.py).
if TYPE_CHECKING:
    from deployment_config.published import PublishedRow
    from endpoint_probe.answers import Measurement


def probe_table(rows: list[Measurement]) -> Table:
    return table(
        ["probe", "result", "total", "answer", "problems"],
        [
            (
                r.mode,
                "ok" if r.ok else "FAILED",
                f"{r.total_s:.2f} s",
                r.text,
                "; ".join(r.problems),
            )
            for r in rows
        ],
    )


def load_test_table(
    runs: list[load_test_result.RunResult], published: Mapping[int, PublishedRow]
) -> Table:
    """One row per run: its latencies and throughput, and the published row of the same concurrency beside it."""

    def ms(values: dict) -> str:
        return " / ".join(
            "-"
            if values.get(p) is None
            else f"{values[p]:,.0f}"
            if values[p] >= 100
            else f"{values[p]:.1f}"
            for p in load_test_result.PERCENTILES
        )

    def beside(r: load_test_result.RunResult) -> str:
        """The published row of the same profile and concurrency, and how far the measured throughput is."""
        row = published.get(r.concurrency)
        if row is None:
            return "-"
        text = f"{row.ttft_ms:,.0f} ms, {row.output_tokens_per_s:,.0f} tok/s"
        if r.output_throughput is not None and row.output_tokens_per_s:
            text += f" ({(r.output_throughput / row.output_tokens_per_s - 1) * 100:+.0f} %)"
        return text

    rows = [
        (
            r.concurrency,
            "ok" if r.ok else "FAILED",
            "-" if r.completed is None else f"{r.completed}/{r.failed}",
            ms(r.ttft_ms),
            ms(r.itl_ms),
            "-" if r.output_throughput is None else f"{r.output_throughput:,.1f}",
            beside(r),
            "; ".join(r.problems),
        )
        for r in runs
    ]
    return table(
        [
            "concurrency",
            "result",
            "ok/failed",
            "TTFT p50/p90/p99 ms",
            "ITL p50/p90/p99 ms",
            "output tok/s",
            "published (TTFT, tok/s, measured vs)",
            "problems",
        ],
        rows,
    )


def acceptance_table(runs: list[BenchRun]) -> Table:
    """Speculative decoding's acceptance per run (only where it is on), and where each figure came from: ``vllm bench
    serve``'s /metrics readings, or the Prometheus workspace over the run's window (ops_cli/workspace_acceptance.py:
    with several replicas on EKS, ops_cli/load_test_target.py ``acceptance_from_workspace``); a run it could not be
    measured for says why."""

    def source(r: BenchRun) -> str:
        where = r.acceptance_source or BENCH_METRICS_SOURCE
        if r.acceptance_problem:
            return f"{where}: not measured: {r.acceptance_problem}"
        if r.acceptance_rate_percent is None:
            return f"{where}: not in the result"
        return where

    return table(
        ["concurrency", "draft tokens accepted", "mean accepted length", "from"],
        [
            (
                r.concurrency,
                "-" if r.acceptance_rate_percent is None else f"{r.acceptance_rate_percent:.1f} %",
                "-"
                if r.mean_accepted_length is None
                else f"{r.mean_accepted_length:.2f} tokens/step",
                source(r),
            )
            for r in runs
        ],
    )
