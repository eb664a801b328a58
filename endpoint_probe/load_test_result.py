"""The figures of one load-test run, from the result JSON of ``vllm bench serve`` (vLLM 0.33.0,
vllm/benchmarks/serve.py: the keys ``completed``, ``failed``, ``duration``, ``output_throughput``, ``max_concurrency``
and ``p{P}_{metric}_ms``; see ops_cli/bench.py). Read by ``llmops bench`` from the Job's log and by the deploy-time
promotion gate from the result objects in S3. Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from endpoint_probe.errors import printable

PERCENTILES = (50, 90, 99)


@dataclass
class RunResult:
    """One concurrency's figures, from the result JSON of ``vllm bench serve`` (None: not in the result)."""

    concurrency: int
    ok: bool
    completed: int | None = None
    failed: int | None = None
    ttft_ms: dict[int, float | None] = field(default_factory=dict)
    itl_ms: dict[int, float | None] = field(default_factory=dict)
    tpot_ms: dict[int, float | None] = field(default_factory=dict)
    output_throughput: float | None = None
    duration_s: float | None = None
    problems: list[str] = field(default_factory=list)
    #: The published row of the same profile, concurrency and lengths (deployment_config/published.py
    #: ``PublishedRow.to_dict``), set by the caller; None when there is none.
    published: dict | None = None
    #: Speculative decoding's acceptance over the run (percent of draft tokens accepted; tokens per verification step,
    #: the bonus token included), as ``vllm bench serve`` computes it from the server's ``/metrics`` counters before
    #: and after the run (``spec_decode_acceptance_rate``, ``spec_decode_acceptance_length``: vllm-project/vllm@009e6d4a
    #: vllm/benchmarks/serve.py ``fetch_spec_decode_metrics`` and the result's keys; not read in 0.33.0's wheel). None:
    #: the server does not speculate, or the result does not say.
    acceptance_rate_percent: float | None = None
    mean_accepted_length: float | None = None

    def to_dict(self) -> dict:
        def rounded(values: dict) -> dict:
            return {f"p{p}": None if v is None else round(v, 1) for p, v in values.items()}

        return {
            "concurrency": self.concurrency,
            "ok": self.ok,
            "completed": self.completed,
            "failed": self.failed,
            "ttft_ms": rounded(self.ttft_ms),
            "itl_ms": rounded(self.itl_ms),
            "tpot_ms": rounded(self.tpot_ms),
            "output_tokens_per_s": None
            if self.output_throughput is None
            else round(self.output_throughput, 1),
            "duration_s": None if self.duration_s is None else round(self.duration_s, 1),
            "published": self.published,
            **(
                {
                    "spec_decode": {
                        "acceptance_rate_percent": round(self.acceptance_rate_percent, 1),
                        "mean_accepted_length": None
                        if self.mean_accepted_length is None
                        else round(self.mean_accepted_length, 2),
                    }
                }
                if self.acceptance_rate_percent is not None
                else {}
            ),
            "problems": self.problems,
        }


def _number(value) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def run_result(concurrency: int, result: dict) -> RunResult:
    """The figures of one run from its result JSON (the keys of vllm/benchmarks/serve.py, see the module)."""
    run = RunResult(concurrency, True)
    for metric, target in (("ttft", run.ttft_ms), ("itl", run.itl_ms), ("tpot", run.tpot_ms)):
        for p in PERCENTILES:
            target[p] = _number(result.get(f"p{p}_{metric}_ms"))
    run.output_throughput = _number(result.get("output_throughput"))
    run.acceptance_rate_percent = _number(result.get("spec_decode_acceptance_rate"))
    run.mean_accepted_length = _number(result.get("spec_decode_acceptance_length"))
    run.duration_s = _number(result.get("duration"))
    completed, failed = result.get("completed"), result.get("failed")
    run.completed = (
        completed if isinstance(completed, int) and not isinstance(completed, bool) else None
    )
    run.failed = failed if isinstance(failed, int) and not isinstance(failed, bool) else None
    if run.completed is None or run.failed is None:
        run.problems.append("the result has no completed/failed counts")
    elif run.failed:
        run.problems.append(
            f"{run.failed} of {run.completed + run.failed} requests failed (see the Job's log)"
        )
    elif run.completed == 0:
        run.problems.append("no request completed")
    if result.get("max_concurrency") not in (None, concurrency):
        run.problems.append(
            f"the result is for concurrency {printable(repr(result.get('max_concurrency')), 20)}"
        )
    if (
        any(v is None for v in (*run.ttft_ms.values(), *run.itl_ms.values()))
        or run.output_throughput is None
    ):
        run.problems.append("the result lacks TTFT, ITL or throughput figures")
    run.ok = not run.problems
    return run
