"""The CLI keeps its word under hostile conditions (issue 19, item 9): a ``--timeout`` bounds the whole command, child
processes included, which are killed with what they started; a tool that prints something else than the JSON asked for
is an error that names it and the command to run by hand, never an internal error; no password or token is printed
back; an amount is read one way only.

kubectl here is a small script (a real process, run as llmops runs it) or a stand-in for ``subprocess.run``; the Hub is
a local server that drips its answer. The time bounds are bounds, not benchmarks: each test asserts the command ends
within its timeout plus :data:`SLACK`. Each mechanism of the deadline is checked once in real time, at the shortest
``--timeout`` (1 s): a child process killed with its group (a real ``llmops`` process) and the backstop's alarm (the
AWS SDK) here, an HTTP exchange cut short in tests/ops_cli/test_hostile_endpoint.py (headers that drip). The other
commands that run kubectl under the deadline are checked with a kubectl stand-in that records the time it was given and
never returns; those whose requests are bounded by it (the probe, the smoke test, the Hub) with the deadline mostly
spent when the command starts, or spent by the stand-in's answer (tests/ops_cli/command_deadline.py).
"""

from __future__ import annotations

import io
import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from deployment_config.kubernetes_names import SERVING_NAMESPACE, SERVING_POD_SELECTOR
from endpoint_probe.redaction import redact_secrets
from ops_cli import hugging_face_hub, price_list
from ops_cli.cli import main
from ops_cli.context import Runtime
from ops_cli.errors import ExitCode, OpsError
from tests.conftest import PROJECT_DIR
from tests.ops_cli import command_deadline
from tests.ops_cli.conftest import NOW, Result
from tests.ops_cli.misbehaving_server import MisbehavingServer, response, vllm

SLACK = 5  # seconds past its timeout a command may take on a loaded machine (it took 60 s and more before)
SHA = "0123456789abcdef0123456789abcdef01234567"
SECRET = "hunter2-not-for-your-eyes"


def script(path: Path, body: str) -> str:
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def never_returning_kubectl():
    """A stand-in for subprocess.run whose kubectl never returns: it records the time it was given (``timeout``) and
    runs out of it, as subprocess.run does for a child that hangs (the group's kill: the real process's test below)."""
    given: list[float] = []

    def run(command, **kwargs):
        given.append(kwargs["timeout"])
        raise subprocess.TimeoutExpired(command, kwargs["timeout"])

    run.given = given
    return run


@pytest.fixture
def hanging_kubectl(tmp_path):
    """A kubectl that never returns, and starts a grandchild that would outlive it: (path, file of its pid)."""
    pid_file = tmp_path / "grandchild.pid"
    return script(tmp_path / "kubectl", f"sleep 300 &\necho $! > '{pid_file}'\nwait\n"), pid_file


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for its reaper does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state != "Z"


def assert_gone(pid_file: Path) -> None:
    pid = int(pid_file.read_text())
    for _ in range(50):  # the kernel delivers SIGKILL at once; its reaping may take a moment
        if not alive(pid):
            return
        time.sleep(0.05)
    raise AssertionError(f"kubectl's child {pid} outlived the command")


def timed(run, *argv):
    started = time.monotonic()
    result = run(*argv)
    return result, time.monotonic() - started


@pytest.fixture
def command_deadlines(monkeypatch) -> command_deadline.CommandDeadlines:
    return command_deadline.installed(monkeypatch)


def assert_error(result: Result, code: ExitCode, *words: str) -> None:
    assert result.code == code, result
    assert (
        "Traceback" not in result.stdout + result.stderr and "internal error" not in result.stderr
    ), result.stderr
    assert "error: " in result.stderr and "  fix: " in result.stderr
    for word in words:
        assert word in result.stderr, (word, result.stderr)


# --- 1. --timeout bounds the whole command, kubectl included -----------------------------------------------------


def test_wait_inference_endpoint_with_a_kubectl_that_never_returns_ends_at_its_timeout(
    run_with_kubectl,
):
    kubectl = never_returning_kubectl()
    # when the wait runs with a 3 s timeout (and a kubectl read may take up to 60 s of its own)
    result, took = timed(run_with_kubectl, kubectl, "wait", "inference-endpoint", "--timeout", "3")
    # then kubectl is given what is left of the 3 s, not its own 60 s, and the command ends when that has run out,
    # naming what it was waiting for (that kubectl's own child dies with it: the real process's test below)
    assert len(kubectl.given) == 1 and 2 < kubectl.given[0] <= 3, kubectl.given
    assert took < 3 + SLACK, took
    assert_error(
        result,
        ExitCode.TIMEOUT,
        "timed out after 3 s (--timeout) while waiting for kubectl get "
        "inferenceendpointconfigs.inference.sagemaker.aws.amazon.com kimik3",
        "run it by hand",
    )


def test_bench_with_a_kubectl_that_never_returns_ends_at_its_timeout(run_with_kubectl):
    kubectl = never_returning_kubectl()
    result, took = timed(
        run_with_kubectl, kubectl, "bench", "--env", "example", "--skip-probe", "--timeout", "3"
    )
    assert len(kubectl.given) == 1 and 2 < kubectl.given[0] <= 3, kubectl.given
    assert took < 3 + SLACK, took
    assert_error(
        result, ExitCode.TIMEOUT, "timed out after 3 s", "while waiting for kubectl apply -f -"
    )


def test_a_real_llmops_process_kills_the_kubectl_it_started(hanging_kubectl):
    # given the installed entry point, as a user runs it (no credentials, no cluster)
    kubectl, pid_file = hanging_kubectl
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "ops_cli",
            "wait",
            "inference-endpoint",
            "--kubectl",
            kubectl,
            "--timeout",
            "1",
        ],
        capture_output=True,
        text=True,
        cwd=PROJECT_DIR,
        timeout=60,
        env={"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(PROJECT_DIR)},
    )
    # then it ends within its timeout of the moment its kubectl started (measured from there, not from the
    # interpreter's start: imports on a loaded machine come before the deadline and are no part of it)
    took = time.time() - pid_file.stat().st_mtime
    assert took < 1 + SLACK, took
    assert result.returncode == ExitCode.TIMEOUT, result.stderr
    assert "timed out after 1 s" in result.stderr and "Traceback" not in result.stderr
    assert_gone(pid_file)


def test_the_probe_of_bench_is_bounded_by_the_whole_command(run, command_deadlines):
    # given an endpoint that drips its answer (each request would be allowed 600 s of its own), and a 1 s --timeout of
    # which 0.1 s is left when the command starts
    command_deadlines.left = 0.1
    with MisbehavingServer(lambda request, conn: conn.drip(response(200, b"{}"))) as url:
        result, took = timed(
            run,
            "bench",
            "--env",
            "example",
            "--url",
            url,
            "--probe-only",
            "--api-key",
            "k" * 16,
            "--request-timeout",
            "600",
            "--timeout",
            "1",
        )
    assert took < 1 + SLACK, took
    assert_error(result, ExitCode.TIMEOUT, "the command's 1 s deadline (--timeout)")


def test_smoke_test_timeout_bounds_the_whole_smoke_test(run, command_deadlines):
    # given an endpoint that answers every request correctly, each after 0.6 s of the command's deadline (spent at
    # once: the wait itself is no part of what is checked)
    def slow(request, conn):
        command_deadlines.spend(0.6)
        vllm(request, conn)

    # when the smoke test (four requests) runs with a 1 s timeout
    with MisbehavingServer(slow) as url:
        result, took = timed(run, "smoke-test", "--url", url, "--timeout", "1")
    # then it stops at 1 s in all, not 1 s per request: per request, each of the four answers (0.6 s) would come in
    # time and the smoke test would pass after about 2.4 s, so the TIMEOUT below is what tells the two apart
    assert took < 1 + SLACK, took
    assert_error(result, ExitCode.TIMEOUT, "the command's 1 s deadline (--timeout)")


def test_an_aws_endpoint_that_never_answers_is_cut_at_the_deadline(monkeypatch, tmp_path):
    # given EC2 at a local address that accepts and never answers (botocore waits 60 s per read, three times)
    with MisbehavingServer(lambda request, conn: conn.hang()) as ec2:
        environ = {
            "AWS_ACCESS_KEY_ID": "AKIAIOSFODNN7EXAMPLE",
            "AWS_SECRET_ACCESS_KEY": "x" * 40,
            "AWS_ENDPOINT_URL_EC2": ec2,
            "AWS_EC2_METADATA_DISABLED": "true",
            "AWS_CONFIG_FILE": str(tmp_path / "none"),
            "AWS_SHARED_CREDENTIALS_FILE": str(tmp_path / "none"),
        }
        for name, value in environ.items():
            monkeypatch.setenv(name, value)
        stdout, stderr = io.StringIO(), io.StringIO()
        started = time.monotonic()
        code = main(
            [
                "wait",
                "reservation",
                "cr-0123456789abcdef0",
                "--region",
                "us-west-2",
                "--timeout",
                "1",
            ],
            Runtime(stdout=stdout, stderr=stderr, environ=environ),
        )
        took = time.monotonic() - started
    # then the backstop ends the call at the deadline, naming what the command was waiting for
    assert took < 1 + SLACK, took
    assert_error(
        Result(code, stdout.getvalue(), stderr.getvalue()),
        ExitCode.TIMEOUT,
        "timed out after 1 s (--timeout) while waiting for reservation cr-0123456789abcdef0",
    )


# --- 2. the Hub, bounded as a whole ------------------------------------------------------------------------------


@pytest.fixture
def mirror(aws, clock, config_dir, tmp_path):
    """``llmops weights mirror --env example`` (S3 weights) with the Hub at ``hub`` (HF_ENDPOINT), in-process."""
    path = config_dir / "example.yaml"
    path.write_text(
        path.read_text().replace(
            "weight_source: huggingface",
            "weight_source: s3\n  s3_uri: s3://weights-bucket/kimi-k3/",
            1,
        )
    )
    kubectl = script(tmp_path / "kubectl", "exit 0\n")

    def _run(hub: str, *argv: str) -> Result:
        stdout, stderr = io.StringIO(), io.StringIO()
        runtime = Runtime(
            aws_factory=aws.aws,
            stdout=stdout,
            stderr=stderr,
            environ={"HF_ENDPOINT": hub},
            clock=clock,
            sleep=clock.sleep,
            now=lambda: NOW,
        )
        code = main(
            [
                "weights",
                "mirror",
                "--env",
                "example",
                "--kubectl",
                kubectl,
                *argv,
                "--config-dir",
                str(config_dir),
            ],
            runtime,
        )
        return Result(code, stdout.getvalue(), stderr.getvalue())

    return _run


def test_weights_mirror_against_a_hub_that_drips_ends_at_its_timeout(mirror, command_deadlines):
    # given a Hub that sends one byte every 0.5 s (each in time for any per-read timeout of 1 s), and a 1 s --timeout
    # of which 0.1 s is left when the command starts
    command_deadlines.left = 0.1
    with MisbehavingServer(
        lambda request, conn: conn.drip(response(200, b'{"sha": "%s"}' % SHA.encode()), 0.5)
    ) as hub:
        result, took = timed(mirror, hub, "--timeout", "1")
    assert took < 1 + SLACK, took
    assert_error(
        result, ExitCode.TIMEOUT, "Hugging Face Hub", "the command's 1 s deadline (--timeout)"
    )


def test_the_hub_has_a_bound_of_its_own_under_a_long_timeout(mirror, monkeypatch):
    monkeypatch.setattr(hugging_face_hub, "HUB_CAP_S", 0.2)  # 30 s in use
    with MisbehavingServer(lambda request, conn: conn.drip(response(200, b"{}"), 2.0)) as hub:
        result, took = timed(mirror, hub)  # --timeout: 12 hours
    assert took < 0.2 + SLACK, took
    assert_error(
        result, ExitCode.TIMEOUT, "within its 0.2 s deadline", "the Hub is slow or unreachable"
    )


def test_the_hub_answering_garbage_is_an_error_not_a_crash(mirror):
    with MisbehavingServer(
        lambda request, conn: conn.send(response(200, b"<html>sign in</html>"))
    ) as hub:
        result = mirror(hub, "--timeout", "30")
    assert_error(result, ExitCode.AWS_ERROR, "is not a JSON object", "curl -sS")


# --- 3. what a tool prints that is not what was asked for -------------------------------------------------------


def printing(stdout: str, code: int = 0, stderr: str = ""):
    """A stand-in for subprocess.run whose kubectl prints ``stdout``; records the commands."""
    commands = []

    def run(command, **kwargs):
        commands.append(command)
        return subprocess.CompletedProcess(command, code, stdout, stderr)

    run.commands = commands
    return run


GARBAGE = [
    "<html><body>Sign in to continue</body></html>",
    "",
    '{"items": [',
    "[]",
    "null",
    "I0001 klog line",
]


@pytest.mark.parametrize("garbage", GARBAGE)
def test_phases_with_a_kubectl_that_prints_garbage_names_the_command(run_with_kubectl, garbage):
    result = run_with_kubectl(printing(garbage), "phases", "--env", "example")
    assert_error(
        result,
        ExitCode.AWS_ERROR,
        "kubectl get pods",
        "printed what is not the JSON asked for",
        f"run it by hand to see what it prints: kubectl get pods -n {SERVING_NAMESPACE} -l "
        f"{SERVING_POD_SELECTOR} -o json",
    )


@pytest.mark.parametrize("garbage", GARBAGE)
def test_wait_inference_endpoint_with_a_kubectl_that_prints_garbage(run_with_kubectl, garbage):
    result = run_with_kubectl(printing(garbage), "wait", "inference-endpoint", "--timeout", "60")
    assert_error(
        result, ExitCode.AWS_ERROR, "kubectl get inferenceendpointconfigs", "run it by hand"
    )


def test_a_real_kubectl_that_prints_bytes_that_are_not_text(run, tmp_path):
    kubectl = script(tmp_path / "kubectl", "printf '\\377\\376\\000garbage'\n")
    result = run("wait", "inference-endpoint", "--kubectl", kubectl, "--timeout", "60")
    assert_error(
        result,
        ExitCode.AWS_ERROR,
        "not the JSON asked for",
        f"{kubectl} get inferenceendpointconfigs",
    )


@pytest.mark.parametrize(
    "status",
    [
        "a string",
        ["a", "list"],
        {"state": ["unhashable"], "conditions": "x", "deploymentStatus": 7},
    ],
)
def test_an_inference_endpoint_of_an_odd_shape_is_read_as_not_ready(
    run_with_kubectl, status, clock
):
    result = run_with_kubectl(
        printing(json.dumps({"kind": "InferenceEndpointConfig", "status": status})),
        "wait",
        "inference-endpoint",
        "--timeout",
        "60",
        "--interval",
        "30",
    )
    assert result.code in (ExitCode.TIMEOUT, ExitCode.AWS_ERROR), result
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr


def test_bench_with_a_job_status_that_is_garbage(run_with_kubectl):
    def kubectl(command, **kwargs):
        out = "job.batch/x created" if command[1] == "apply" else "<html>proxy error</html>"
        return subprocess.CompletedProcess(command, 0, out, "")

    result = run_with_kubectl(
        kubectl, "bench", "--env", "example", "--skip-probe", "--timeout", "60"
    )
    assert_error(result, ExitCode.AWS_ERROR, "kubectl get job", "run it by hand")


def test_phases_with_pods_of_an_odd_shape(run_with_kubectl):
    pods = {
        "items": [
            {"metadata": {"name": "vllm-1", "creationTimestamp": 5}, "spec": "x", "status": []}
        ]
    }
    answers = iter([json.dumps(pods), json.dumps({"items": "none"})])

    def kubectl(command, **kwargs):
        if command[1] == "logs":
            return subprocess.CompletedProcess(
                command, 0, "2026-11-30T10:00:00Z not a vLLM line\n", ""
            )
        return subprocess.CompletedProcess(command, 0, next(answers), "")

    result = run_with_kubectl(kubectl, "phases", "--env", "example", "--json")
    assert result.code == ExitCode.OK, result.stderr
    assert all(p["seconds"] is None for p in result.json["phases"])


@pytest.mark.parametrize(
    "product",
    [
        {"terms": []},
        {"terms": {"OnDemand": ["x"]}},
        {"terms": {"OnDemand": {"T": {"priceDimensions": "x"}}}},
        {
            "terms": {
                "OnDemand": {
                    "T": {"priceDimensions": {"D": {"unit": "Hrs", "pricePerUnit": {"USD": "NaN"}}}}
                }
            },
            "product": "x",
        },
    ],
)
def test_a_price_list_answer_of_another_shape_is_no_price_not_a_crash(product):
    assert price_list.hourly_price(product) is None
    assert (
        price_list.PriceQuery("AmazonEC2", (), usage_type="BoxUsage:x").matches({"product": ["x"]})
        is False
    )


# --- 4. no secret printed back ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["smoke-test", "--url", f"http://admin:{SECRET}@127.0.0.1:8000"],
        ["smoke-test", "--url", f"https://{SECRET}@endpoint.example.com"],
        ["smoke-test", "--url", f"admin:{SECRET}@127.0.0.1:8000"],
        ["smoke-test", "--url", f"http://127.0.0.1:8000/?api_key={SECRET}"],
        ["wait", "endpoint", "--url", f"http://admin:{SECRET}@127.0.0.1:8000"],
        [
            "bench",
            "--env",
            "example",
            "--probe-only",
            "--url",
            f"http://admin:{SECRET}@127.0.0.1:8000",
        ],
        ["smoke-test", "--url", "http://127.0.0.1:8000", "--apikey", SECRET],
        ["smoke-test", "--url", "http://127.0.0.1:8000", f"--api-token={SECRET}"],
    ],
)
@pytest.mark.parametrize("json_output", [False, True])
def test_a_password_or_key_in_the_arguments_is_never_printed_back(run, argv, json_output):
    result = run(*argv, *(["--json"] if json_output else []))
    assert result.code == ExitCode.USAGE, result
    assert SECRET not in result.stdout + result.stderr
    assert "<redacted>" in result.stdout + result.stderr


def test_a_secret_in_what_kubectl_printed_is_not_printed_back(run_with_kubectl):
    kubectl = printing(
        "",
        1,
        f"Unable to connect to the server: https://admin:{SECRET}@cluster.example.com "
        f"Authorization: Bearer {SECRET}",
    )
    result = run_with_kubectl(kubectl, "wait", "inference-endpoint", "--timeout", "60")
    assert_error(
        result, ExitCode.AWS_ERROR, "kubectl get", "https://<redacted>@cluster.example.com"
    )
    assert SECRET not in result.stdout + result.stderr


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (
            f"cannot reach https://admin:{SECRET}@h.example:443/x",
            "cannot reach https://<redacted>@h.example:443/x",
        ),
        (f"Authorization: Bearer {SECRET}", "Authorization: Bearer <redacted>"),
        ("token hf_" + "a" * 34 + " leaked", "token hf_<redacted> leaked"),
        (
            f"https://b.s3.amazonaws.com/k?X-Amz-Security-Token={SECRET}&X-Amz-Signature={SECRET}",
            "https://b.s3.amazonaws.com/k?X-Amz-Security-Token=<redacted>&X-Amz-Signature=<redacted>",
        ),
        # what is no secret stays as it is: a secret's name, an option that names one, a plain URL
        ("--api-key-secret llm-serving/prod/api-key (account 123456789012)", None),
        ("--api-key-secret=llm-serving/prod/api-key", None),
        ("http://internal-k8s.elb.us-west-2.amazonaws.com:8000/health", None),
        ("sent as 'Authorization: Bearer KEY'", None),
    ],
)
def test_secrets_are_redacted_by_their_shape_and_nothing_else_is(text, shown):
    assert redact_secrets(text) == (shown or text)
    assert redact_secrets(redact_secrets(text)) == redact_secrets(text)


def test_a_hub_that_echoes_the_token_does_not_get_it_printed():
    token = (
        "secret-token-of-the-hub-" + "x" * 12
    )  # not of the hf_ shape: redacted because its value is known

    def echo(request, conn):
        return conn.send(response(500, json.dumps({"error": request.headers}).encode()))

    with MisbehavingServer(echo) as hub, pytest.raises(OpsError) as error:
        hugging_face_hub.hub_get(f"{hub}/api/models/a/b/revision/main", token)
    assert "HTTP 500" in error.value.message and "Bearer <redacted>" in error.value.message
    assert token not in error.value.message + error.value.fix


# --- 5. amounts, one way only ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fee", "words"),
    [
        (
            "91540,80",
            ["--block-fee '91540,80'", "ambiguous", "digits with an optional '.' decimal part"],
        ),
        ("91,540.80", ["thousands separator", "write --block-fee 91540.80"]),
        ("91,540", ["ambiguous"]),
        ("91 540.80", ["is not an amount"]),
        ("91_540.80", ["is not an amount"]),
        ("91'540.80", ["is not an amount"]),
        ("1e5", ["is not an amount"]),
        ("\u0669\u0661", ["is not an amount"]),  # Arabic-Indic digits, which Decimal takes
        (" 91540", ["is not an amount"]),
        (".5", ["is not an amount"]),
    ],
)
def test_an_amount_that_is_not_digits_and_a_dot_is_refused_before_any_call(run, fee, words):
    result = run("cost", "--env", "example", "--block-fee", fee)
    assert_error(result, ExitCode.USAGE, *words)


@pytest.mark.parametrize("number", ["1_000", "\uff13", "+5", " 5", "5 "])
def test_a_whole_number_is_ascii_digits_only(run, number):
    result = run("wait", "reservation", "cr-0123456789abcdef0", "--timeout", number)
    assert result.code == ExitCode.USAGE, result
    assert "is not a whole number (digits only" in result.stderr
