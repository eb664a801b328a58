"""llmops bench: the correctness probe against the local OpenAI-compatible server, the load-test Job it generates (strict
Kubernetes 1.34 schema; arguments that vLLM 0.33.0's ``vllm bench serve`` parser accepts), reading the results, and
the whole command with a fake kubectl.

The result JSON here is constructed, not recorded: its keys are the ones vLLM 0.33.0 writes
(vllm/benchmarks/serve.py, ``benchmark`` ``result = {...}`` and ``process_one_metric``; ``main_async`` for the setup
keys), with made-up values; no cluster was reachable from this machine."""

from __future__ import annotations

import argparse
import dataclasses
import json
import shlex
import subprocess

import kubernetes_validate
import pytest
import yaml

from charts.serving_spec import API_KEY_VARIABLE, serving_spec_for
from deployment_config.kubernetes_names import SERVING_NAMESPACE, SERVING_POD_SELECTOR
from endpoint_probe import correctness, load_test_result
from endpoint_probe.url import ApiKey, check_url
from ops_cli import bench, load_test, load_test_job, load_test_target
from ops_cli.errors import ExitCode
from tests.ops_cli.openai_server import Behaviour, openai_server

KEY = "sk-bench-test-key-0123456789"
#: ``llmops bench`` of the example environment, the load test only (no probe).
LOAD_TEST = ("bench", "--env", "example", "--skip-probe")

# --- the probe -----------------------------------------------------------------------------------------------------


def test_the_probe_passes_on_a_right_answer_and_a_valid_tool_call():
    # given a server that answers 7919 x 13 correctly (with a thousands separator) and calls the tool as offered
    behaviour = Behaviour(answer="7919 × 13 = 102,947", api_key=KEY)
    with openai_server(behaviour) as url:
        # when the probe runs with the key
        rows = bench.run_probe(url, "Kimi-K3", 30, api_key=ApiKey(KEY, "test"))
    # then both rows pass, and the requests were what the rows claim to test
    assert [(r.mode, r.ok) for r in rows] == [("arithmetic", True), ("tool call", True)], [
        r.problems for r in rows
    ]
    arithmetic, tool = behaviour.requests
    assert "7919" in arithmetic["messages"][0]["content"] and "tools" not in arithmetic
    assert (
        tool["tool_choice"] == "auto"
    )  # the server's tool-call parser, not schema-constrained decoding
    assert tool["tools"][0]["function"]["parameters"] == correctness.TOOL_PARAMETERS
    assert rows[1].text.startswith("get_weather(")


def test_a_wrong_answer_fails_the_command_with_exit_code_1(run):
    # given a server that gets the arithmetic wrong
    with openai_server(Behaviour(answer="The answer is 102937.", api_key=KEY)) as url:
        # when llmops bench runs the probe only
        result = run(
            "bench", "--env", "example", "--url", url, "--probe-only", "--api-key", KEY, "--json"
        )
    # then the arithmetic row fails with the number it got, the tool row passes, and the exit code is 1
    assert result.code == ExitCode.CHECK_FAILED, result.stderr
    arithmetic, tool = result.json["probe"]
    assert not arithmetic["ok"] and "wrong answer: 102937, not 102947" in arithmetic["problems"][0]
    assert tool["ok"]
    assert result.json["passed"] is False and result.json["load_test"] is None
    assert KEY not in result.stdout + result.stderr


@pytest.mark.parametrize(
    "function, problem",
    [
        (
            {"name": "get_weather", "arguments": '{"city": "Paris", "unit": "kelvin"}'},
            "schema at unit",
        ),
        (
            {"name": "get_weather", "arguments": '{"city": "Paris"}'},
            "'unit' is a required property",
        ),
        (
            {
                "name": "get_weather",
                "arguments": '{"city": "Paris", "unit": "celsius", "when": "now"}',
            },
            "Additional properties",
        ),
        ({"name": "get_weather", "arguments": '{"city": "Paris", "unit": "celsius"'}, "not JSON"),
        (
            {"name": "get_weather", "arguments": {"city": "Paris", "unit": "celsius"}},
            "not a JSON text",
        ),
        (
            {"name": "get_time", "arguments": '{"city": "Paris", "unit": "celsius"}'},
            "not 'get_weather'",
        ),
        ({"name": "get_weather", "arguments": '{"city": "Lyon", "unit": "celsius"}'}, "not Paris"),
    ],
)
def test_a_malformed_tool_call_fails_its_row(run, function, problem):
    # given a server whose tool call does not satisfy the function's schema (or is not JSON at all)
    with openai_server(Behaviour(answer="102947", tool_call=function)) as url:
        result = run(
            "bench", "--env", "example", "--url", url, "--probe-only", "--api-key", KEY, "--json"
        )
    # then the tool-call row fails and says why; the arithmetic row is unaffected
    assert result.code == ExitCode.CHECK_FAILED, result.stderr
    arithmetic, tool = result.json["probe"]
    assert arithmetic["ok"] and not tool["ok"]
    assert any(problem in p for p in tool["problems"]), tool["problems"]


def test_an_answer_without_a_tool_call_names_the_server_options():
    problems, _ = correctness.tool_call_problems(
        {"role": "assistant", "content": "It is sunny in Paris.", "tool_calls": []}
    )
    assert "no tool call" in problems[0] and "--enable-auto-tool-choice" in problems[0]


def test_the_probe_human_output_and_the_key_it_needs(run):
    with openai_server(Behaviour(answer="102947", api_key=KEY)) as url:
        passed = run("bench", "--env", "example", "--url", url, "--probe-only", "--api-key", KEY)
        refused = run(
            "bench",
            "--env",
            "example",
            "--url",
            url,
            "--probe-only",
            "--api-key",
            "sk-another-key-000000",
        )
    assert passed.code == ExitCode.OK, passed.stderr
    assert (
        "arithmetic" in passed.stdout
        and "tool call" in passed.stdout
        and "Bench passed." in passed.stdout
    )
    # a refused key stops the command as smoke-test does, naming where the key came from
    assert (
        refused.code == ExitCode.CHECK_FAILED
        and "refused the API key from --api-key" in refused.stderr
    )


def test_an_empty_answer_fails_the_arithmetic_row():
    with openai_server(Behaviour(answer="")) as url:
        row = correctness.arithmetic_probe(check_url(url), "Kimi-K3", 30, max_tokens=8)
    assert not row.ok and "holds no number: it is empty" in row.problems[0]


# --- the Job -------------------------------------------------------------------------------------------------------

#: The options of ``vllm bench serve`` in vLLM 0.33.0 that the Job uses, read in the wheel (vllm-0.33.0-cp38-abi3-
#: manylinux_2_28_x86_64.whl): vllm/benchmarks/serve.py ``add_cli_args`` and vllm/benchmarks/datasets/datasets.py
#: ``add_dataset_parser`` / ``add_random_dataset_base_args``. True: a flag (``store_true``); else the value's type
#: (and its choices).
VLLM_BENCH_SERVE_OPTIONS: dict[str, object] = {
    "--backend": (
        "vllm",
        "openai",
        "openai-chat",
        "openai-responses",
        "openai-audio",
        "openai-embeddings",
        "openai-embeddings-chat",
        "openai-embeddings-clip",
        "openai-embeddings-vlm2vec",
        "infinity-embeddings",
        "infinity-embeddings-clip",
        "vllm-pooling",
        "vllm-rerank",
    ),
    "--base-url": str,
    "--host": str,
    "--port": int,
    "--endpoint": str,
    "--max-concurrency": int,
    "--model": str,
    "--served-model-name": str,
    "--tokenizer": str,
    "--input-len": int,
    "--output-len": int,
    "--dataset-name": (
        "sharegpt",
        "burstgpt",
        "random",
        "random-mm",
        "random-rerank",
        "hf",
        "custom",
        "custom_audio",
        "custom_image",
        "prefix_repetition",
        "spec_bench",
        "speed_bench",
        "timed_trace",
    ),
    "--random-input-len": int,
    "--random-output-len": int,
    "--random-range-ratio": str,
    "--random-prefix-len": int,
    "--num-prompts": int,
    "--seed": int,
    "--trust-remote-code": True,
    "--ignore-eos": True,
    "--request-rate": float,
    "--percentile-metrics": str,
    "--metric-percentiles": str,
    "--disable-tqdm": True,
    "--save-result": True,
    "--result-dir": str,
    "--result-filename": str,
    "--temperature": float,
    "--num-warmups": int,
    "--insecure": True,
}
#: The metric names ``--percentile-metrics`` allows (its help text in add_cli_args).
VLLM_PERCENTILE_METRICS = {
    "ttft",
    "tpot",
    "itl",
    "e2el",
    "client_queue_time",
    "e2el_including_client_queue",
}


def vllm_bench_serve_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="vllm bench serve", allow_abbrev=False, exit_on_error=False
    )
    for option, kind in VLLM_BENCH_SERVE_OPTIONS.items():
        if kind is True:
            parser.add_argument(option, action="store_true")
        elif isinstance(kind, tuple):
            parser.add_argument(option, choices=kind)
        else:
            parser.add_argument(option, type=kind)
    return parser


@pytest.fixture(scope="module")
def eks_plan(default_env) -> load_test.LoadTestPlan:
    return load_test.plan_for(
        default_env,
        base_url=load_test_target.eks_service_url(default_env),
        job_name="llmops-bench-test",
        concurrencies=(1, 4, 16),
        input_len=8192,
        output_len=1024,
        num_prompts=None,
        seed=100,
        deadline_seconds=3600,
    )


@pytest.fixture(scope="module")
def hyperpod_plan(hyperpod_env) -> load_test.LoadTestPlan:
    return load_test.plan_for(
        hyperpod_env,
        base_url="http://10.0.1.2:8000",
        job_name="llmops-bench-test",
        concurrencies=(2,),
        input_len=128,
        output_len=16,
        num_prompts=3,
        seed=7,
        deadline_seconds=600,
    )


@pytest.mark.parametrize("plan_name", ["eks_plan", "hyperpod_plan"])
def test_the_job_validates_strictly_against_kubernetes_1_34(plan_name, request, default_env):
    manifest = load_test_job.job_manifest(request.getfixturevalue(plan_name))
    kubernetes_validate.validate(manifest, default_env.kubernetes_version, strict=True)


def test_every_run_passes_arguments_that_vllm_bench_serve_accepts(eks_plan):
    parser = vllm_bench_serve_parser()
    for index, concurrency in enumerate(eks_plan.concurrencies):
        args = parser.parse_args(
            eks_plan.bench_args(index)
        )  # raises on an unknown option or a bad value
        assert args.max_concurrency == concurrency and args.num_prompts == max(10, 4 * concurrency)
        assert (args.dataset_name, args.random_input_len, args.random_output_len) == (
            "random",
            8192,
            1024,
        )
        assert float(args.random_range_ratio) == 0 and args.ignore_eos
        assert set(args.percentile_metrics.split(",")) <= VLLM_PERCENTILE_METRICS
        assert args.metric_percentiles == "50,90,99" and args.save_result
        assert (
            args.model == "moonshotai/Kimi-K3"
            and args.served_model_name == "Kimi-K3"
            and args.trust_remote_code
        )
        assert (
            args.base_url == "http://vllm.llm-serving:8000" and args.endpoint == "/v1/completions"
        )
    # each run its own random prompts: the server's prefix cache must not serve one run's prompts to the next
    assert len(set(eks_plan.seeds)) == len(eks_plan.concurrencies)


def test_the_script_runs_each_concurrency_and_prints_its_result_between_markers(eks_plan):
    script = eks_plan.script()
    words = [
        shlex.split(line.split(" && ")[0].removeprefix("if "))
        for line in script.splitlines()
        if line.startswith("if vllm bench serve")
    ]
    assert [w[w.index("--max-concurrency") + 1] for w in words] == ["1", "4", "16"]
    assert script.count(load_test.RESULT_MARKER) == 3 and script.rstrip().endswith("exit $failed")


def test_the_job_runs_next_to_vllm_with_the_key_of_its_synced_secret_and_no_gpu(
    eks_plan, default_env
):
    spec = load_test_job.job_manifest(eks_plan)["spec"]
    pod = spec["template"]["spec"]
    container = pod["containers"][0]
    assert load_test_job.job_manifest(eks_plan)["metadata"]["namespace"] == SERVING_NAMESPACE
    assert container["image"] == default_env.serving_image
    # the same Secret and key the pod's auth middleware reads its key from (charts/serving_spec.py PodSecrets)
    secrets = serving_spec_for(default_env).secrets
    vllm_key = next(key for variable, _, key in secrets.deliveries if variable == API_KEY_VARIABLE)
    assert {
        "name": "OPENAI_API_KEY",
        "valueFrom": {"secretKeyRef": {"name": secrets.name, "key": vllm_key}},
    } in container["env"]
    assert not any("value" in e and e["value"] == KEY for e in container["env"])
    # on a serving pod's node (its image is there), tolerating the GPU taint, requesting no GPU
    term = pod["affinity"]["podAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"][0]
    assert (
        ",".join(f"{k}={v}" for k, v in term["labelSelector"]["matchLabels"].items())
        == SERVING_POD_SELECTOR
    )
    assert not any("nvidia.com/gpu" in r for r in container["resources"].values())
    assert (
        spec["backoffLimit"] == 0
        and spec["activeDeadlineSeconds"] == 3600
        and spec["ttlSecondsAfterFinished"]
    )
    # the in-cluster Service on the port it serves (8000, or 443 with a certificate)
    assert eks_plan.base_url.endswith(f":{serving_spec_for(default_env).service_port}")


def test_hyperpod_reads_the_endpoints_own_secret(hyperpod_plan, hyperpod_env):
    from charts.inference_endpoint_chart import inference_endpoint_spec_for

    spec = inference_endpoint_spec_for(hyperpod_env)
    assert (
        hyperpod_plan.namespace == spec.namespace and hyperpod_plan.secret_name == spec.secrets.name
    )
    assert dict(hyperpod_plan.serving_pod_labels) == {"app": spec.name}


# --- the results -----------------------------------------------------------------------------------------------------


def constructed_result(concurrency: int, failed: int = 0) -> dict:
    """A result of ``vllm bench serve --save-result`` with vLLM 0.33.0's keys and made-up values."""
    result = {
        "date": "20261130-120000",
        "endpoint_type": "vllm",
        "backend": "vllm",
        "label": None,
        "model_id": "moonshotai/Kimi-K3",
        "tokenizer_id": "moonshotai/Kimi-K3",
        "num_prompts": 10,
        "request_rate": "inf",
        "burstiness": 1.0,
        "max_concurrency": concurrency,
        "duration": 61.2,
        "completed": 10 - failed,
        "failed": failed,
        "total_input_tokens": 81920,
        "total_output_tokens": 10240,
        "request_throughput": 0.16,
        "request_goodput": None,
        "output_throughput": 167.3,
        "total_token_throughput": 1505.9,
        "max_output_tokens_per_s": 190.0,
        "max_concurrent_requests": concurrency,
        "rtfx": 0.0,
    }
    for metric, base in (("ttft", 410.0), ("tpot", 5.6), ("itl", 5.5), ("e2el", 6100.0)):
        result |= {f"mean_{metric}_ms": base, f"median_{metric}_ms": base, f"std_{metric}_ms": 1.0}
        result |= {f"p{p}_{metric}_ms": base * (1 + p / 1000) for p in (50, 90, 99)}
    return result


def test_the_results_are_read_from_the_log_between_the_markers():
    log = "\n".join(
        [
            "INFO ... Starting",
            "============ Serving Benchmark Result ============",
            f"{load_test.RESULT_MARKER} 1 {json.dumps(constructed_result(1))}",
            f"{load_test.RESULT_MARKER} 4 {json.dumps(constructed_result(4, failed=2))}",
            f"{load_test.FAILED_MARKER} 16 exit=1",
        ]
    )
    one, four, sixteen = load_test.parse_log(log, (1, 4, 16))
    assert one.ok and one.completed == 10 and one.failed == 0
    assert one.ttft_ms[50] == pytest.approx(410 * 1.05) and one.itl_ms[99] == pytest.approx(
        5.5 * 1.099
    )
    assert one.output_throughput == 167.3
    assert one.to_dict()["published"] is None  # set by the command, from the environment's profile
    assert not four.ok and "2 of 10 requests failed" in four.problems[0]
    assert not sixteen.ok and "exit=1" in sixteen.problems[0]
    (missing,) = load_test.parse_log("", (2,))
    assert not missing.ok and "no result" in missing.problems[0]


def test_a_result_without_the_percentiles_is_a_failed_run():
    result = constructed_result(1)
    del result["p90_ttft_ms"]
    run = load_test_result.run_result(1, result)
    assert not run.ok and "lacks TTFT" in run.problems[0]
    (broken,) = load_test.parse_log(f"{load_test.RESULT_MARKER} 1 {{not json", (1,))
    assert not broken.ok and "not JSON" in broken.problems[0]


# --- the command, with a fake kubectl --------------------------------------------------------------------------------


class FakeKubectl:
    """Answers the kubectl calls of ops_cli.load_test_job.run_load_test (and the HyperPod worker look-up); records them."""

    def __init__(
        self, log: str, *, states: list[dict] | None = None, pods: list[dict] | None = None
    ) -> None:
        self.log = log
        self.states = states or [
            {"active": 1},
            {"conditions": [{"type": "Complete", "status": "True"}], "succeeded": 1},
        ]
        self.pods = pods or []
        self.commands: list[list[str]] = []
        self.applied: dict | None = None

    def __call__(self, command, **kwargs):
        self.commands.append(command)
        args = command[1:]
        if args[:3] == ["apply", "-f", "-"]:
            self.applied = json.loads(kwargs["input"])
            return subprocess.CompletedProcess(command, 0, "job.batch/x created\n", "")
        if args[:2] == ["get", "job"]:
            state = self.states.pop(0) if len(self.states) > 1 else self.states[0]
            return subprocess.CompletedProcess(
                command, 0, json.dumps({"kind": "Job", "status": state}), ""
            )
        if args[:2] == ["get", "pods"]:
            return subprocess.CompletedProcess(command, 0, json.dumps({"items": self.pods}), "")
        if args[0] == "logs":
            return subprocess.CompletedProcess(command, 0, self.log, "")
        if args[:2] == ["delete", "job"]:
            return subprocess.CompletedProcess(command, 0, "job.batch deleted\n", "")
        raise AssertionError(command)


@pytest.fixture
def run_kubectl(run_with_kubectl):
    return run_with_kubectl


def results_log(*concurrencies: int) -> str:
    return (
        "\n".join(
            f"{load_test.RESULT_MARKER} {c} {json.dumps(constructed_result(c))}"
            for c in concurrencies
        )
        + "\n"
    )


def _with_spec_decoding(config_dir) -> None:
    """The example with features: [spec_decoding]: the profile the published rows were measured with."""
    path = config_dir / "example.yaml"
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    document["model"]["features"] = ["spec_decoding"]
    document["model"]["speculator_size_gb"] = 8
    path.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")


def test_bench_runs_the_job_reports_the_table_and_deletes_the_job(run_kubectl, config_dir):
    # given a cluster where the Job runs, then completes, with a result per concurrency in its log, and an environment
    # of the profile the published figures are for (B300, recipe, single node, spec_decoding, 8K in / 1K out)
    _with_spec_decoding(config_dir)
    kubectl = FakeKubectl(results_log(1, 4, 16))
    # when the load test runs (no probe)
    result = run_kubectl(kubectl, *LOAD_TEST, "--json")
    # then every run is reported with its figures and the published row of the same concurrency, and the Job is gone
    assert result.code == ExitCode.OK, result.stderr
    load = result.json["load_test"]
    assert [r["concurrency"] for r in load["runs"]] == [1, 4, 16] and all(
        r["ok"] for r in load["runs"]
    )
    assert (
        load["runs"][2]["published"]["ttft_ms"] == 1121
        and load["runs"][2]["published"]["output_tokens_per_s"] == 725
    )
    assert "2026-09-13" in load["runs"][2]["published"]["source"]
    assert load["job_status"] == "complete" and load["base_url"] == "http://vllm.llm-serving:8000"
    job = kubectl.applied["metadata"]["name"]
    assert (
        job == "llmops-bench-20261130-120000"
        and kubectl.applied["metadata"]["namespace"] == SERVING_NAMESPACE
    )
    assert kubectl.commands[-1][1:4] == ["delete", "job", job]
    assert ["logs", f"job/{job}"] == kubectl.commands[-2][1:3]
    assert result.json["probe"] is None and result.json["passed"] is True


def test_bench_human_table_shows_the_percentiles_and_the_published_row(run_kubectl, config_dir):
    _with_spec_decoding(config_dir)
    result = run_kubectl(FakeKubectl(results_log(1, 4)), *LOAD_TEST, "--concurrency", "1,4")
    assert result.code == ExitCode.OK, result.stderr
    # the published row beside the measured one, and how far the measured throughput is from it (167.3 vs 183)
    assert "TTFT p50/p90/p99 ms" in result.stdout and "376 ms, 183 tok/s (-9 %)" in result.stdout
    assert "vLLM's Kimi-K3 performance post (2026-09-13)" in result.stdout
    assert "430 / 447 / 451" in result.stdout  # 410 x 1.05, 1.09, 1.099
    assert "Bench passed." in result.stdout


def test_bench_shows_no_published_row_for_another_profile(run_kubectl):
    # given the example without spec decoding: nothing is published for that configuration
    result = run_kubectl(FakeKubectl(results_log(1)), *LOAD_TEST, "--concurrency", "1", "--json")
    assert result.code == ExitCode.OK, result.stderr
    # then no row is put beside it: the published figures were measured with speculative decoding
    assert result.json["load_test"]["runs"][0]["published"] is None
    assert result.json["published"]["rows"] == {}


def test_a_failed_job_still_reports_what_it_has_and_is_deleted(run_kubectl):
    failed = {
        "conditions": [{"type": "Failed", "status": "True", "reason": "BackoffLimitExceeded"}],
        "failed": 1,
    }
    kubectl = FakeKubectl(results_log(1) + f"{load_test.FAILED_MARKER} 4 exit=1\n", states=[failed])
    result = run_kubectl(kubectl, *LOAD_TEST, "--concurrency", "1,4", "--json")
    assert result.code == ExitCode.CHECK_FAILED
    one, four = result.json["load_test"]["runs"]
    assert one["ok"] and not four["ok"]
    assert result.json["load_test"]["job_status"] == "failed (BackoffLimitExceeded)"
    assert kubectl.commands[-1][1:3] == ["delete", "job"]


def test_a_job_past_its_timeout_is_deleted_and_exits_10(run_kubectl):
    kubectl = FakeKubectl("", states=[{"active": 1}])
    result = run_kubectl(kubectl, *LOAD_TEST, "--timeout", "60", "--interval", "30")
    assert result.code == ExitCode.TIMEOUT
    assert kubectl.commands[-1][1:3] == ["delete", "job"]


def test_hyperpod_benchmarks_the_worker_pod(run_kubectl, hyperpod_env):
    worker = {
        "metadata": {"name": "kimik3-abc"},
        "status": {"phase": "Running", "podIP": "10.0.3.4"},
    }
    kubectl = FakeKubectl(results_log(1), pods=[worker])
    result = run_kubectl(
        kubectl,
        "bench",
        "--env",
        "example-hyperpod",
        "--skip-probe",
        "--concurrency",
        "1",
        "--json",
    )
    assert result.code == ExitCode.OK, result.stderr
    assert result.json["load_test"]["base_url"] == "http://10.0.3.4:8000"
    assert (
        kubectl.applied["metadata"]["namespace"] == "llm-endpoint"
    )  # the endpoint's own, not default


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--probe-only", "--skip-probe"], "nothing to run"),
        (["--probe-only"], "needs --url"),
        (["--skip-probe", "--concurrency", "1,0"], "not a concurrency"),
        (["--skip-probe", "--concurrency", "4,4"], "listed twice"),
    ],
)
def test_bad_arguments_exit_2_before_anything_runs(run_kubectl, argv, message):
    kubectl = FakeKubectl("")
    result = run_kubectl(kubectl, "bench", "--env", "example", *argv)
    assert result.code == ExitCode.USAGE and message in result.stderr
    assert kubectl.commands == []


def test_an_open_endpoint_of_a_gated_model_sends_no_key_but_the_hugging_face_token(default_env):
    # given an environment without an API key whose model needs a Hugging Face token
    env = dataclasses.replace(
        default_env,
        endpoint=default_env.endpoint.model_copy(update={"authentication": "none"}),
        model=dataclasses.replace(default_env.model, hugging_face_token_secret="hf/token"),
    )
    plan = load_test.plan_for(
        env,
        base_url=load_test_target.eks_service_url(env),
        job_name="llmops-bench-test",
        concurrencies=(1,),
        input_len=64,
        output_len=8,
        num_prompts=None,
        seed=1,
        deadline_seconds=600,
    )
    env_vars = {
        e["name"]: e.get("valueFrom")
        for e in load_test_job.job_manifest(plan)["spec"]["template"]["spec"]["containers"][0][
            "env"
        ]
    }
    # then the Job reads the token from the Secret the vLLM pod's token comes from, and sends no key
    secrets = serving_spec_for(env).secrets
    assert "OPENAI_API_KEY" not in env_vars
    assert env_vars["HF_TOKEN"] == {
        "secretKeyRef": {
            "name": secrets.name,
            "key": dict((variable, key) for variable, _, key in secrets.deliveries)["HF_TOKEN"],
        }
    }


@pytest.mark.parametrize("weight_source", ["huggingface", "s3"])
@pytest.mark.parametrize("api_key_required", [True, False])
def test_every_key_the_job_reads_is_in_the_secret_the_serving_pods_sync(
    default_env, weight_source, api_key_required
):
    from deployment_config.model import WeightSource

    # given an EKS environment with a Hugging Face token, its weights from the Hub or from S3, with or without a key
    model = dataclasses.replace(
        default_env.model,
        hugging_face_token_secret="hf/token",
        weight_source=WeightSource(weight_source),
        s3_uri="s3://weights-bucket/kimi/" if weight_source == "s3" else None,
    )
    env = dataclasses.replace(
        default_env,
        model=model,
        endpoint=default_env.endpoint.model_copy(
            update={"authentication": "api-key" if api_key_required else "none"}
        ),
    )
    plan = load_test.plan_for(
        env,
        base_url=load_test_target.eks_service_url(env),
        job_name="llmops-bench-test",
        concurrencies=(1,),
        input_len=64,
        output_len=8,
        num_prompts=None,
        seed=1,
        deadline_seconds=600,
    )
    references = [
        e["valueFrom"]["secretKeyRef"]
        for e in load_test_job.job_manifest(plan)["spec"]["template"]["spec"]["containers"][0][
            "env"
        ]
        if "valueFrom" in e
    ]
    # then the Job never waits for a key the Secret does not hold (with S3 weights the vLLM pod, and so its Secret, has
    # no token: the Job reads none, and a gated tokenizer would need one through another way)
    secrets = serving_spec_for(env).secrets
    synced = {(secrets.name, key) for _, _, key in secrets.deliveries} if secrets else set()
    assert {(r["name"], r["key"]) for r in references} <= synced
    assert any(r["key"] == "hf-token" for r in references) is (weight_source == "huggingface")


# --- speculative decoding's acceptance ---------------------------------------------------------------------------------


def _speculating(*concurrencies: int) -> str:
    """Results with the keys ``vllm bench serve`` adds when the server speculates (vllm/benchmarks/serve.py)."""
    return (
        "\n".join(
            f"{load_test.RESULT_MARKER} {c} "
            + json.dumps(
                constructed_result(c)
                | {
                    "spec_decode_acceptance_rate": 61.25,
                    "spec_decode_acceptance_length": 5.9,
                    "spec_decode_num_drafts": 100,
                    "spec_decode_draft_tokens": 800,
                    "spec_decode_accepted_tokens": 490,
                }
            )
            for c in concurrencies
        )
        + "\n"
    )


def test_bench_shows_the_acceptance_of_speculative_decoding(run_kubectl, config_dir):
    _with_spec_decoding(config_dir)
    result = run_kubectl(FakeKubectl(_speculating(1)), *LOAD_TEST, "--concurrency", "1")
    assert result.code == ExitCode.OK, result.stderr
    assert (
        "draft tokens accepted" in result.stdout
        and "61.2 %" in result.stdout
        and "5.90 tokens/step" in result.stdout
    )
    # one replica: the figures are vllm bench serve's own readings of the server's /metrics, and the table says so
    assert "5.90 tokens/step      vllm bench serve /metrics" in result.stdout
    as_json = run_kubectl(FakeKubectl(_speculating(1)), *LOAD_TEST, "--concurrency", "1", "--json")
    assert as_json.json["load_test"]["runs"][0]["spec_decode"] == {
        "acceptance_rate_percent": 61.2,
        "mean_accepted_length": 5.9,
        "source": "vllm bench serve /metrics",
        "problem": None,
    }


def test_bench_shows_no_acceptance_without_spec_decoding(run_kubectl):
    result = run_kubectl(FakeKubectl(results_log(1)), *LOAD_TEST, "--concurrency", "1")
    assert result.code == ExitCode.OK, result.stderr
    assert "accepted" not in result.stdout


# Two replicas or more on EKS: the acceptance comes from the Prometheus workspace, tests/ops_cli/test_bench_acceptance.py.
