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

**Where the Job runs.** On the GPU node of a serving pod (a required pod affinity to the serving pods, tolerating the
GPU taint), with no GPU request: the image is already on that node. The system nodes would have to pull the serving
image, which is larger than their disk: the system node group sets no disk size, and EKS's default is 20 GiB
(botocore 1.43.127 ``eks`` model, CreateNodegroup ``diskSize``), while vllm/vllm-openai images are reported at 25 to
28.6 GB (vllm-project/vllm#17163, #22377; not measured here). The benchmark client uses a little CPU next to vLLM, as a
benchmark on the server's own host does.

**The target.** EKS: the Service ``vllm`` in ``llm-serving`` (deployment_config/kubernetes_names.py) on its port:
8000, or 443 with ``endpoint.certificate_arn``, where the NLB ends TLS and the Service still carries plain HTTP to the
pod (charts/serving_spec.py ``service_port``, charts/vllm_service.py). HyperPod: the worker pod's own address on
vLLM's port 8000 (charts/inference_endpoint_chart.py ``VLLM_PORT``), read with kubectl: the Services the Inference
Operator makes are not named in anything this project has read, and its ALB ends TLS with the operator's self-signed
certificate (which ``vllm bench serve`` could only skip with ``--insecure``) and adds its own latency.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from endpoint_probe.answers import _object
from endpoint_probe.deadline import Deadline
from endpoint_probe.errors import printable
from endpoint_probe.load_test_result import PERCENTILES, RunResult, run_result
from ops_cli.errors import ExitCode, OpsError
from ops_cli.tools import KUBECONFIG_FIX, command_line, run_tool, tool_failure, tool_json

if TYPE_CHECKING:
    from deployment_config.model import EnvironmentConfig
    from ops_cli.progress import Progress

# What needs the project's configuration (the Job's plan, the HyperPod worker's address) imports deployment_config
# where it is used: cdk_constructs/promotion_gate.py imports this module for the Job's plan.


DEFAULT_CONCURRENCIES = (1, 4, 16)
DEFAULT_INPUT_LEN = 8192
DEFAULT_OUTPUT_LEN = 1024
PERCENTILE_METRICS = ("ttft", "tpot", "itl", "e2el")
#: vLLM's API port, in the pod (charts/serving_spec.py and charts/inference_endpoint_chart.py ``VLLM_PORT``).
VLLM_PORT = 8000
#: The Service's port with ``endpoint.certificate_arn`` (charts/serving_spec.py ``service_port``: ``TLS_PORT``).
TLS_SERVICE_PORT = 443
#: The Secret the Secrets Store CSI driver syncs for the vLLM pods, and its key for the API key and the Hugging Face
#: token: charts/serving_spec.py ``PodSecrets`` (``name`` "vllm-secrets" on EKS; "<endpoint>-secrets" on HyperPod,
#: charts/inference_endpoint_chart.py) and ``deliveries`` ("api-key", "hf-token"). The Secret exists while a vLLM pod
#: mounts the volume (charts/vllm_secret_provider.py): while there is a server to measure.
EKS_SECRET_NAME = "vllm-secrets"
API_KEY_SECRET_KEY = "api-key"
HF_TOKEN_SECRET_KEY = "hf-token"
#: The GPU nodes' taint (EKS: cdk_constructs/capacity_block_node_group.py), tolerated whatever its value.
GPU_TAINT_KEY = "nvidia.com/gpu"
RESULT_DIR = "/results"
#: The lines the Job's script prints around each run's result JSON, read back from its log.
RESULT_MARKER = "LLMOPS-BENCH-RESULT"
FAILED_MARKER = "LLMOPS-BENCH-FAILED"


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
    ) -> list[str]:
        """Shell lines that run every ``vllm bench serve`` in turn and end with ``exit $failed``: after each run,
        ``on_result(concurrency, result_file)`` when it wrote its result, else ``on_failure(...)``, whose lines must
        set ``failed=1`` (``$?`` is the run's exit status on their first line)."""
        lines = ["failed=0"]
        for index, concurrency in enumerate(self.concurrencies):
            result = f"{RESULT_DIR}/concurrency-{concurrency}.json"
            lines += [
                f"echo '=== vllm bench serve, concurrency {concurrency}'",
                f"if {self.bench_command(index)} && [ -s {result} ]; then",
                *(f"  {line}" for line in on_result(concurrency, result)),
                "else",
                *(f"  {line}" for line in on_failure(concurrency, result)),
                "fi",
            ]
        return [*lines, "exit $failed"]

    def script(self) -> str:
        """The container's shell script: every run, each result printed between markers, exit 1 if any run failed."""
        lines = self.run_lines(
            on_result=lambda concurrency, result: [
                f"printf '%s %s ' {RESULT_MARKER} {concurrency}; cat {result}; echo"
            ],
            on_failure=lambda concurrency, result: [
                f'echo "{FAILED_MARKER} {concurrency} exit=$?"; failed=1'
            ],
        )
        return "\n".join(lines) + "\n"

    def manifest(self) -> dict:
        """The Job (Kubernetes 1.34 batch/v1)."""
        env = []
        if self.secret_name and self.api_key:
            env.append(
                {
                    "name": "OPENAI_API_KEY",
                    "valueFrom": {
                        "secretKeyRef": {"name": self.secret_name, "key": API_KEY_SECRET_KEY}
                    },
                }
            )
        if self.secret_name and self.hugging_face_token:
            env.append(
                {
                    "name": "HF_TOKEN",
                    "valueFrom": {
                        "secretKeyRef": {"name": self.secret_name, "key": HF_TOKEN_SECRET_KEY}
                    },
                }
            )
        env += [
            {"name": "HF_HOME", "value": "/cache/huggingface"},
            {"name": "PYTHONUNBUFFERED", "value": "1"},
        ]
        labels = {
            "app.kubernetes.io/name": "llmops-bench",
            "app.kubernetes.io/managed-by": "llmops",
        }
        container = {
            "name": "bench",
            "image": self.image,
            "imagePullPolicy": "IfNotPresent",
            "command": ["/bin/sh", "-c", self.script()],
            "env": env,
            # CPU and memory for the client (tokenizing the prompts, streaming the answers); no GPU.
            "resources": {"requests": {"cpu": "2", "memory": "8Gi"}, "limits": {"memory": "16Gi"}},
            "securityContext": {
                "allowPrivilegeEscalation": False,
                "capabilities": {"drop": ["ALL"]},
                "seccompProfile": {"type": "RuntimeDefault"},
            },
            "volumeMounts": [
                {"name": "results", "mountPath": RESULT_DIR},
                {"name": "cache", "mountPath": "/cache"},
            ],
        }
        return {
            "apiVersion": "batch/v1",
            "kind": "Job",
            "metadata": {"name": self.job_name, "namespace": self.namespace, "labels": labels},
            "spec": {
                "backoffLimit": 0,  # a failed benchmark is reported, not retried against a busy server
                "activeDeadlineSeconds": self.deadline_seconds,
                "ttlSecondsAfterFinished": 3600,  # removed by Kubernetes even if llmops is stopped before it deletes it
                "template": {
                    "metadata": {"labels": labels},
                    "spec": {
                        "restartPolicy": "Never",
                        "automountServiceAccountToken": False,
                        "enableServiceLinks": False,
                        # next to a vLLM pod, on its GPU node, where the image already is (see the module)
                        "affinity": {
                            "podAffinity": {
                                "requiredDuringSchedulingIgnoredDuringExecution": [
                                    {
                                        "labelSelector": {
                                            "matchLabels": dict(self.serving_pod_labels)
                                        },
                                        "topologyKey": "kubernetes.io/hostname",
                                    }
                                ]
                            }
                        },
                        "tolerations": [
                            {"key": GPU_TAINT_KEY, "operator": "Exists", "effect": "NoSchedule"}
                        ],
                        "containers": [container],
                        "volumes": [
                            {"name": "results", "emptyDir": {"sizeLimit": "1Gi"}},
                            {"name": "cache", "emptyDir": {"sizeLimit": "10Gi"}},
                        ],
                    },
                },
            },
        }


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


def acceptance_measurable(env: EnvironmentConfig) -> str | None:
    """Why the load test cannot measure speculative decoding's acceptance here, or None when it can. ``vllm bench
    serve`` reads ``/metrics`` at the base URL before and after a run: a pod's own counters on HyperPod (the worker's
    address) and with one replica on EKS; with several, the Service hands each request to the router or to any pod, so
    the two readings need not be of one server and their difference means nothing."""
    from deployment_config.model import Platform

    if not env.model.speculator_size_gb:
        return "spec_decoding is off"
    if env.platform is Platform.EKS and env.replicas > 1:
        return (
            f"not measured by the load test with {env.replicas} replicas (its /metrics readings may come from "
            "different servers): see the dashboard's speculative decoding row"
        )
    return None


def eks_service_url(env: EnvironmentConfig) -> str:
    from deployment_config.kubernetes_names import SERVING_NAME, SERVING_NAMESPACE

    port = TLS_SERVICE_PORT if env.endpoint.certificate_arn else VLLM_PORT
    return f"http://{SERVING_NAME}.{SERVING_NAMESPACE}:{port}"


def parse_log(log: str, concurrencies: Sequence[int]) -> list[RunResult]:
    """Each concurrency's result from the Job's log (the lines the script prints between its markers); a run whose
    result is missing or unreadable is a failed run that says so."""
    found: dict[int, RunResult] = {}
    for line in log.splitlines():
        words = line.strip().split(" ", 2)
        if len(words) >= 2 and words[0] == FAILED_MARKER and words[1].isdigit():
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
    return [
        found.get(c)
        or RunResult(
            c, False, problems=["no result in the Job's log (the Job ended before this run)"]
        )
        for c in concurrencies
    ]


# --- running the Job with kubectl ---------------------------------------------------------------------------------


def _kubectl(
    run: Callable | None,
    kubectl: str,
    args: Sequence[str],
    *,
    timeout: float = 60,
    stdin: str | None = None,
    check: bool = True,
    deadline: Deadline | None = None,
) -> subprocess.CompletedProcess:
    """kubectl ``args``, within ``timeout`` and what is left of ``deadline`` (ops_cli/tools.py)."""
    result = run_tool([kubectl, *args], deadline=deadline, cap=timeout, stdin=stdin, run=run)
    if check and result.returncode != 0:
        raise tool_failure(result, f"{KUBECONFIG_FIX} and that your role may create Jobs")
    return result


def hyperpod_worker_url(
    env: EnvironmentConfig,
    kubectl: str,
    run: Callable | None = None,
    *,
    deadline: Deadline | None = None,
) -> str:
    """``http://POD_IP:8000`` of a running HyperPod worker pod (label ``app`` = the endpoint's name)."""
    from deployment_config.kubernetes_names import (
        INFERENCE_ENDPOINT_NAMESPACE,
        inference_endpoint_name,
    )

    selector = f"app={inference_endpoint_name(env)}"
    out = _kubectl(
        run,
        kubectl,
        ["get", "pods", "-n", INFERENCE_ENDPOINT_NAMESPACE, "-l", selector, "-o", "json"],
        deadline=deadline,
    )
    items = tool_json(out).get("items")
    pods = [p for p in items if isinstance(p, dict)] if isinstance(items, list) else []

    def status(pod: dict) -> dict:
        return pod["status"] if isinstance(pod.get("status"), dict) else {}

    running = sorted(
        (
            p
            for p in pods
            if status(p).get("phase") == "Running" and isinstance(status(p).get("podIP"), str)
        ),
        key=lambda p: (
            str((p.get("metadata") or {}).get("name", ""))
            if isinstance(p.get("metadata"), dict)
            else ""
        ),
    )
    if not running:
        raise OpsError(
            f"no running worker pod ({selector}) in namespace {INFERENCE_ENDPOINT_NAMESPACE}",
            "deploy the endpoint stack and wait: llmops wait inference-endpoint",
            ExitCode.NOT_FOUND,
        )
    return f"http://{running[0]['status']['podIP']}:{VLLM_PORT}"


def _job_state(job: dict) -> tuple[bool, bool, str]:
    """(finished, succeeded, status) of a Job from its status (Kubernetes 1.34 JobStatus: conditions Complete and
    Failed, counts active / succeeded / failed)."""
    status = (
        job.get("status") if isinstance(job.get("status"), dict) else {}
    )  # another shape: not started yet
    conditions = status.get("conditions") if isinstance(status.get("conditions"), list) else []
    for condition in (c for c in conditions if isinstance(c, dict)):
        if condition.get("status") != "True":
            continue
        if condition.get("type") == "Complete":
            return True, True, "complete"
        if condition.get("type") == "Failed":
            reason = printable(str(condition.get("reason") or ""), 80)
            return True, False, f"failed ({reason})" if reason else "failed"
    if status.get("active"):
        return False, False, "running"
    return False, False, "pending"


def run_load_test(
    plan: LoadTestPlan,
    kubectl: str,
    progress: Progress,
    run: Callable | None = None,
    log: Callable[[str], None] | None = None,
    *,
    deadline: Deadline | None = None,
) -> tuple[list[RunResult], str]:
    """Apply the Job, wait for it, read each run's result from its log, delete it (also when the wait fails).
    Returns the runs and the Job's final status. Every kubectl call ends by ``deadline``; once it has passed the Job
    is left to its own ``activeDeadlineSeconds`` and ``ttlSecondsAfterFinished``, and the command to delete it is
    logged."""
    job = ["-n", plan.namespace]
    _kubectl(
        run,
        kubectl,
        ["apply", "-f", "-", *job],
        stdin=json.dumps(plan.manifest()),
        deadline=deadline,
    )
    final = {"status": "pending", "succeeded": False}
    try:

        def probe() -> tuple[bool, str]:
            out = _kubectl(
                run, kubectl, ["get", "job", plan.job_name, *job, "-o", "json"], deadline=deadline
            )
            finished, succeeded, status = _job_state(tool_json(out))
            final.update(status=status, succeeded=succeeded)
            return finished, status

        progress.run(probe)
        out = _kubectl(
            run,
            kubectl,
            ["logs", f"job/{plan.job_name}", *job, "-c", "bench"],
            timeout=120,
            check=False,
            deadline=deadline,
        )
        if out.returncode != 0 and log:
            log(f"kubectl logs job/{plan.job_name} failed: {printable(out.stderr.strip(), 200)}")
        results = parse_log(out.stdout if out.returncode == 0 else "", plan.concurrencies)
    finally:
        delete = ["delete", "job", plan.job_name, *job, "--ignore-not-found", "--wait=false"]
        if deadline is not None and deadline.passed():
            if log:
                log(
                    f"the Job {plan.namespace}/{plan.job_name} was not deleted (the deadline had passed; Kubernetes "
                    f"stops it at its own deadline and removes it an hour later): {command_line([kubectl, *delete])}"
                )
            deleted = None
        else:
            try:
                deleted = _kubectl(run, kubectl, delete, check=False, deadline=deadline)
            except OpsError as error:  # the wait's own failure, if any, is the one to report
                deleted = subprocess.CompletedProcess(delete, 1, "", error.message)
        if deleted is not None and deleted.returncode != 0 and log:
            log(
                f"the Job {plan.namespace}/{plan.job_name} was not deleted (Kubernetes removes it an hour after it "
                f"ends): {printable(deleted.stderr.strip(), 200)}"
            )
    return results, final["status"]


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
