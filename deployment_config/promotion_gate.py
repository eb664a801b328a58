"""The promotion gate (``endpoint.promotion_gate``): after the deploy-time smoke test, the correctness probe and a load
test with thresholds; the stack ``NAME-smoke`` (and so a pipeline stage) fails when they are not met.

Standard library only: the loader validates with it, the smoke stack sizes its wait with it.

How long the load test may take is derived, not guessed: ``vllm bench serve`` reports ``output_throughput`` as the
output tokens over the run's duration (vLLM 0.33.0 vllm/benchmarks/serve.py, ``calculate_metrics``), and with the
random dataset every request generates exactly ``output_len`` tokens (``ignore_eos`` forced, see ops_cli/load_test.py). A
run that passes ``min_output_tokens_per_s`` therefore lasts at most ``num_prompts x output_len / min_output_tokens_per_s``
seconds; a longer one fails the gate anyway. A run without that threshold is allowed :data:`FLOOR_OUTPUT_TOKENS_PER_S`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: Aggregate output tokens per second assumed for a run without ``min_output_tokens_per_s``: far below any serving
#: figure of the model (183 tok/s at concurrency 1, deployment_config/data/published/kimi-k3.json), so that only a
#: broken server runs out.
FLOOR_OUTPUT_TOKENS_PER_S = 10.0
#: Per run, besides generating: the benchmark process starts, loads the tokenizer from the Hub, samples the random
#: prompts, and uploads its result.
RUN_OVERHEAD_SECONDS = 600
#: After the last run: the check function's next poll sees the results and writes the summary.
COLLECT_MARGIN_SECONDS = 300
#: The deploy-time smoke test's own wait after the startup budget (cdk_constructs/deploy_time_smoke_test/
#: ``timeouts``: 20 minutes for the load balancer, one poll, one check of at most 14 minutes, 5 minutes to signal);
#: tests/cdk_constructs/test_promotion_gate.py checks that both agree.
SMOKE_TEST_WAIT_SECONDS = 20 * 60 + 60 + 14 * 60 + 5 * 60
#: After the smoke test: one more poll and one check (cdk_constructs/deploy_time_smoke_test/ CHECK_TIMEOUT) for the
#: correctness probe, which runs before the load test starts.
PROBE_SECONDS = 60 + 14 * 60
#: AWS::CloudFormation::WaitCondition Timeout's maximum (12 hours; CloudFormation template reference).
MAX_WAIT_SECONDS = 43200


def default_num_prompts(concurrency: int) -> int:
    """``llmops bench``'s default (ops_cli/load_test.py ``default_num_prompts``): max(10, 4 x concurrency)."""
    return max(10, 4 * concurrency)


@dataclass(frozen=True)
class GateRun:
    """One ``vllm bench serve`` run of the gate and its thresholds (None: not checked).

    :param concurrency: ``--max-concurrency``.
    :param num_prompts: requests in the run. Default: max(10, 4 x concurrency).
    :param max_ttft_p90_ms: the 90th percentile of time to first token must not exceed it.
    :param min_output_tokens_per_s: the run's output tokens per second (all requests) must reach it.
    :param within_percent_of_published: the run's output tokens per second may fall at most this many percent below
        the published row of the same configuration (deployment_config/published.py), which must exist.
    """

    concurrency: int
    num_prompts: int
    max_ttft_p90_ms: float | None = None
    min_output_tokens_per_s: float | None = None
    within_percent_of_published: float | None = None

    def max_seconds(self, output_len: int) -> int:
        """How long this run may take and still pass (see the module)."""
        rate = self.min_output_tokens_per_s or FLOOR_OUTPUT_TOKENS_PER_S
        return math.ceil(self.num_prompts * output_len / rate) + RUN_OVERHEAD_SECONDS


@dataclass(frozen=True)
class PromotionGateConfig:
    """The gate: the correctness probe (``llmops bench``'s two rows), then the runs, one after the other.

    Built from the validated ``endpoint.promotion_gate`` (deployment_config/sections/promotion_gate.py, which declares
    the defaults) with each run's size computed; no defaults here.

    :param runs: at least one, distinct concurrencies, in the order they run.
    :param input_len: prompt tokens of every request (``--random-input-len``).
    :param output_len: generated tokens of every request (``--random-output-len``, EOS ignored).
    :param correctness: run the correctness probe (an arithmetic answer, a schema-checked tool call).
    :param max_failed_requests: failed requests allowed per run.
    :param retention_days: how long the results bucket keeps each result.
    """

    runs: tuple[GateRun, ...]
    input_len: int
    output_len: int
    correctness: bool
    max_failed_requests: int
    retention_days: int

    @property
    def concurrencies(self) -> tuple[int, ...]:
        return tuple(run.concurrency for run in self.runs)

    def load_test_seconds(self) -> int:
        """How long the load test may take from its first run to the last result collected."""
        return sum(run.max_seconds(self.output_len) for run in self.runs) + COLLECT_MARGIN_SECONDS


def wait_seconds(startup_budget_seconds: int, gate: PromotionGateConfig | None) -> int:
    """The smoke stack's wait condition timeout: the smoke test's wait, and with a gate its load test too."""
    return (
        startup_budget_seconds
        + SMOKE_TEST_WAIT_SECONDS
        + (PROBE_SECONDS + gate.load_test_seconds() if gate else 0)
    )


__all__ = ["GateRun", "PromotionGateConfig", "default_num_prompts", "wait_seconds"]
