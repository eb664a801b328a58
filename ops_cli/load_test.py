"""``llmops bench``'s load test, inside the cluster (its correctness probe, from where llmops runs, is ops_cli/bench.py).

**The load test** is vLLM's own ``vllm bench serve`` (vLLM 0.33.0, vllm/benchmarks/serve.py, reached through
vllm/entrypoints/cli/benchmark/serve.py), run as a Kubernetes Job in the environment's serving image, since the
endpoint is internal. What it relies on, all read in the vLLM 0.33.0 wheel:

- options: ``add_cli_args`` in vllm/benchmarks/serve.py and ``add_dataset_parser`` / ``add_random_dataset_base_args``
  in vllm/benchmarks/datasets/datasets.py (``--dataset-name random``, ``--random-input-len``, ``--random-output-len``,
  ``--random-range-ratio`` default 0.0, i.e. exactly those lengths; ``--num-prompts``, ``--seed`` default 0,
  ``--trust-remote-code``); the ``bench`` extra's packages (pandas, datasets) are optional imports there
  (``PlaceholderModule``), which the random dataset does not use;
- with the random dataset and an OpenAI-compatible backend, ``ignore_eos`` is forced on (``main_async``): every
  request generates exactly ``--random-output-len`` tokens (``--ignore-eos`` is passed anyway, to say so);
- the API key: ``_get_headers`` in vllm/benchmarks/lib/endpoint_request_func.py sends ``Authorization: Bearer`` +
  the ``OPENAI_API_KEY`` environment variable; the Job sets it from the same synced Kubernetes Secret the vLLM pod
  reads (charts/vllm_secret_provider.py), so the key is never in the manifest or a command line. The prompt
  alignment through ``/tokenize`` (``_align_prompts_to_server_tokenizer``) sends no key: behind the project's
  middleware it is answered 401 and skipped with a warning ("/tokenize unavailable (HTTP 401), skipping
  alignment"): prompts are as long as the benchmark's own tokenizer (the model's, from the Hub) counts them;
- TTFT and ITL are computed only when the benchmark has a tokenizer (``benchmark``: ``if task_type ==
  TaskType.GENERATION and tokenizer``): ``--model`` is the Hugging Face id (the tokenizer is loaded from it) and
  ``--served-model-name`` the name the server answers to;
- the result JSON (``--save-result --result-dir --result-filename``, written with ``json.dump``, one line): the keys
  ``completed``, ``failed``, ``duration``, ``total_input_tokens``, ``total_output_tokens``, ``output_throughput``
  (output tokens / duration, tok/s), ``max_concurrency``, ``num_prompts``, ``mean_/median_/std_{metric}_ms`` and
  ``p{P}_{metric}_ms`` for each metric of ``--percentile-metrics`` and each P of ``--metric-percentiles``
  (``process_one_metric``, ``p_word`` = ``str(int(p))``: ``p50_ttft_ms``, ``p90_itl_ms``, ...).

Every run gets its own ``--seed``: with the same seed (default 0) every run would send the same random prompts, and the
server's prefix cache (``--enable-prefix-caching``, in the preset) would answer the later runs' prefills from the
earlier ones', making their TTFT look better than any real traffic sees.

The Job that runs it, and where it runs, are ops_cli/load_test_job.py; the address it measures is
ops_cli/load_test_target.py.
"""

from __future__ import annotations

import dataclasses
import re
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from endpoint_probe.answers import _object
from endpoint_probe.errors import printable
from endpoint_probe.load_test_result import PERCENTILES, RunResult, run_result

if TYPE_CHECKING:
    from deployment_config.model import EnvironmentConfig

# What needs the project's configuration (the Job's plan) imports deployment_config where it is used:
# cdk_constructs/promotion_gate.py imports this module for the Job's plan.


DEFAULT_CONCURRENCIES = (1, 4, 16)
DEFAULT_INPUT_LEN = 8192
DEFAULT_OUTPUT_LEN = 1024
PERCENTILE_METRICS = ("ttft", "tpot", "itl", "e2el")
#: The Secret the Secrets Store CSI driver syncs for the vLLM pods, and its key for the API key and the Hugging Face
#: token: charts/serving_spec.py ``PodSecrets`` (``name`` "vllm-secrets" on EKS; "<endpoint>-secrets" on HyperPod,
#: charts/inference_endpoint_chart.py) and ``deliveries`` ("api-key", "hf-token"). The Secret exists while a vLLM pod
#: mounts the volume (charts/vllm_secret_provider.py): while there is a server to measure.
EKS_SECRET_NAME = "vllm-secrets"
API_KEY_SECRET_KEY = "api-key"
HF_TOKEN_SECRET_KEY = "hf-token"
RESULT_DIR = "/results"
#: The lines the Job's script prints around each run's result JSON, read back from its log.
RESULT_MARKER = "LLMOPS-BENCH-RESULT"
FAILED_MARKER = "LLMOPS-BENCH-FAILED"
#: The line the script prints after a run's result: the concurrency, and the Job's clock (``date +%s``: seconds since
#: the epoch, GNU coreutils' date) before ``vllm bench serve`` started and after it ended. The window whose counters
#: ops_cli/workspace_acceptance.py reads from the Prometheus workspace.
WINDOW_MARKER = "LLMOPS-BENCH-WINDOW"


#: Where ``vllm bench serve``'s acceptance comes from: its readings of ``/metrics`` at the base URL around the run.
BENCH_METRICS_SOURCE = "vllm bench serve /metrics"


@dataclass
class BenchRun(RunResult):
    """One run of llmops bench's Job: its figures (endpoint_probe/load_test_result.py, which the deploy-time smoke
    test's asset packages: left as it is), its window, and where its acceptance came from."""

    #: The run's start and end on the Job's clock, in seconds since the epoch (:data:`WINDOW_MARKER`); None where the
    #: log does not give them.
    window: tuple[int, int] | None = None
    #: Where the acceptance figures come from (:data:`BENCH_METRICS_SOURCE`, or the Prometheus workspace with the
    #: number of pods: ops_cli/workspace_acceptance.py), and why they are not there when they could not be measured.
    acceptance_source: str | None = None
    acceptance_problem: str | None = None

    @classmethod
    def of(cls, run: RunResult) -> BenchRun:
        return cls(**{f.name: getattr(run, f.name) for f in dataclasses.fields(RunResult)})

    def to_dict(self) -> dict:
        out = super().to_dict()
        if self.acceptance_rate_percent is not None or self.acceptance_problem is not None:
            out["spec_decode"] = {
                "acceptance_rate_percent": None
                if self.acceptance_rate_percent is None
                else round(self.acceptance_rate_percent, 1),
                "mean_accepted_length": None
                if self.mean_accepted_length is None
                else round(self.mean_accepted_length, 2),
                "source": self.acceptance_source or BENCH_METRICS_SOURCE,
                "problem": self.acceptance_problem,
            }
        return out


def default_num_prompts(concurrency: int) -> int:
    """Enough requests that each concurrency is held for a while: max(10, 4 x concurrency)."""
    return max(10, 4 * concurrency)


@dataclass(frozen=True)
class LoadTestPlan:
    """One Job: ``vllm bench serve`` once per concurrency, one after the other, against ``base_url``."""

    job_name: str
    namespace: str
    image: str
    base_url: str
    tokenizer: str  # the Hugging Face id: the benchmark loads the model's tokenizer from it
    served_name: str
    concurrencies: tuple[int, ...]
    num_prompts: tuple[int, ...]
    seeds: tuple[int, ...]
    input_len: int
    output_len: int
    serving_pod_labels: tuple[tuple[str, str], ...]
    secret_name: (
        str | None
    )  # the Secret the CSI driver syncs for the vLLM pods (None: it syncs none)
    api_key: bool = False  # the Secret holds the API key (the endpoint requires one)
    hugging_face_token: bool = (
        False  # the Secret holds the Hugging Face token (a gated model's tokenizer)
    )
    trust_remote_code: bool = False
    deadline_seconds: int = 3600

    def bench_args(self, index: int) -> list[str]:
        """The arguments of ``vllm bench serve`` for the run at ``index`` (vLLM 0.33.0 option names, see the module)."""
        concurrency = self.concurrencies[index]
        args = [
            "--backend",
            "vllm",
            "--base-url",
            self.base_url,
            "--endpoint",
            "/v1/completions",
            "--model",
            self.tokenizer,
            "--served-model-name",
            self.served_name,
            "--tokenizer",
            self.tokenizer,
            "--dataset-name",
            "random",
            "--random-input-len",
            str(self.input_len),
            "--random-output-len",
            str(self.output_len),
            "--random-range-ratio",
            "0",
            "--ignore-eos",
            "--num-prompts",
            str(self.num_prompts[index]),
            "--max-concurrency",
            str(concurrency),
            "--seed",
            str(self.seeds[index]),
            "--percentile-metrics",
            ",".join(PERCENTILE_METRICS),
            "--metric-percentiles",
            ",".join(str(p) for p in PERCENTILES),
            "--disable-tqdm",
            "--save-result",
            "--result-dir",
            RESULT_DIR,
            "--result-filename",
            f"concurrency-{concurrency}.json",
        ]
        if self.trust_remote_code:
            args.append("--trust-remote-code")
        return args

    def bench_command(self, index: int) -> str:
        """The shell command of run ``index``: ``vllm bench serve`` with :meth:`bench_args`."""
        return shlex.join(["vllm", "bench", "serve", *self.bench_args(index)])

    def run_lines(
        self,
        *,
        on_result: Callable[[int, str], Sequence[str]],
        on_failure: Callable[[int, str], Sequence[str]],
        before: Callable[[int], Sequence[str]] = lambda concurrency: (),
    ) -> list[str]:
        """Shell lines that run every ``vllm bench serve`` in turn and end with ``exit $failed``: ``before(concurrency)``
        ahead of each run; after it, ``on_result(concurrency, result_file)`` when it wrote its result, else
        ``on_failure(...)``, whose lines must set ``failed=1`` (``$?`` is the run's exit status on their first line)."""
        lines = ["failed=0"]
        for index, concurrency in enumerate(self.concurrencies):
            result = f"{RESULT_DIR}/concurrency-{concurrency}.json"
            lines += [
                f"echo '=== vllm bench serve, concurrency {concurrency}'",
                *before(concurrency),
                f"if {self.bench_command(index)} && [ -s {result} ]; then",
                *(f"  {line}" for line in on_result(concurrency, result)),
                "else",
                *(f"  {line}" for line in on_failure(concurrency, result)),
                "fi",
            ]
        return [*lines, "exit $failed"]

    def script(self) -> str:
        """The container's shell script: every run, each result printed between markers and followed by the run's
        window on the Job's clock, exit 1 if any run failed."""
        lines = self.run_lines(
            before=lambda concurrency: ["started=$(date +%s)"],
            on_result=lambda concurrency, result: [
                f"printf '%s %s ' {RESULT_MARKER} {concurrency}; cat {result}; echo",
                f'echo "{WINDOW_MARKER} {concurrency} $started $(date +%s)"',
            ],
            on_failure=lambda concurrency, result: [
                f'echo "{FAILED_MARKER} {concurrency} exit=$?"; failed=1'
            ],
        )
        return "\n".join(lines) + "\n"


def plan_for(
    env: EnvironmentConfig,
    *,
    base_url: str,
    job_name: str,
    concurrencies: Sequence[int],
    input_len: int,
    output_len: int,
    num_prompts: int | None,
    seed: int,
    deadline_seconds: int,
) -> LoadTestPlan:
    """The Job for ``env``: its serving image, namespace, serving pods and synced Secret."""
    from deployment_config.kubernetes_names import (
        hugging_face_token_synced,
        inference_endpoint_name,
        serving_pods,
    )
    from deployment_config.model import Platform

    namespace, selector = serving_pods(env)
    labels = tuple(tuple(part.split("=", 1)) for part in selector.split(","))
    hyperpod = env.platform is Platform.HYPERPOD
    secret = f"{inference_endpoint_name(env)}-secrets" if hyperpod else EKS_SECRET_NAME
    model = env.model
    return LoadTestPlan(
        job_name=job_name,
        namespace=namespace,
        image=env.serving_image,
        base_url=base_url,
        tokenizer=model.hugging_face_id,
        served_name=model.served_name,
        concurrencies=tuple(concurrencies),
        num_prompts=tuple(num_prompts or default_num_prompts(c) for c in concurrencies),
        seeds=tuple(seed + i for i in range(len(concurrencies))),
        input_len=input_len,
        output_len=output_len,
        serving_pod_labels=labels,
        secret_name=secret
        if env.endpoint.api_key_required or hugging_face_token_synced(env)
        else None,
        api_key=env.endpoint.api_key_required,
        hugging_face_token=hugging_face_token_synced(env),
        trust_remote_code="--trust-remote-code" in model.serving_args,
        deadline_seconds=deadline_seconds,
    )


def parse_log(log: str, concurrencies: Sequence[int]) -> list[BenchRun]:
    """Each concurrency's result from the Job's log (the lines the script prints between its markers), with its window
    (:data:`WINDOW_MARKER`) where the log gives one; a run whose result is missing or unreadable is a failed run that
    says so."""
    found: dict[int, RunResult] = {}
    windows: dict[int, tuple[int, int]] = {}
    for line in log.splitlines():
        words = line.strip().split(" ", 2)
        marked = line.split()
        if (
            len(marked) == 4
            and marked[0] == WINDOW_MARKER
            and all(re.fullmatch(r"[0-9]{1,12}", w) for w in marked[1:])  # ASCII digits only
        ):
            windows[int(marked[1])] = (int(marked[2]), int(marked[3]))
        elif len(words) >= 2 and words[0] == FAILED_MARKER and words[1].isdigit():
            exit_status = words[2] if len(words) > 2 else ""
            found[int(words[1])] = RunResult(
                int(words[1]),
                False,
                problems=[
                    f"vllm bench serve failed ({exit_status or 'no result'}); its output is in the Job's log"
                ],
            )
        elif len(words) == 3 and words[0] == RESULT_MARKER and words[1].isdigit():
            concurrency = int(words[1])
            payload, problem = _object(words[2], "the result")
            found[concurrency] = (
                run_result(concurrency, payload)
                if payload is not None
                else RunResult(concurrency, False, problems=[problem])
            )
    runs = [
        BenchRun.of(
            found.get(c)
            or RunResult(
                c, False, problems=["no result in the Job's log (the Job ended before this run)"]
            )
        )
        for c in concurrencies
    ]
    for run in runs:
        run.window = windows.get(run.concurrency)
    return runs


def parse_concurrencies(text: str) -> tuple[int, ...]:
    """``1,4,16`` → (1, 4, 16): whole numbers from 1 to 1024, no repeats."""
    values = []
    for part in text.split(","):
        part = part.strip()
        if (
            not re.fullmatch(r"[0-9]{1,4}", part) or not 1 <= int(part) <= 1024
        ):  # ASCII digits ('²'.isdigit())
            raise ValueError(
                f"{printable(part, 20)!r} is not a concurrency (a whole number from 1 to 1024)"
            )
        if int(part) in values:
            raise ValueError(f"concurrency {int(part)} is listed twice")
        values.append(int(part))
    return tuple(values)
