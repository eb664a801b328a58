"""llmops preflight with no AWS credentials at all: the rows that need no AWS call are shown, then one credentials row
that says what did not run and how to provide credentials; exit 4 (ExitCode.CREDENTIALS).

These tests run the real CLI entry with the real AWS client (no stand-in): the test session has no credentials
(tests/conftest.py clears every AWS_* variable and points the AWS files nowhere), and botocore refuses to sign a request
without them, so no request is sent; each test checks that none was. The configuration directory is a scratch copy of
the two example files, not the checkout's config/.
"""

from __future__ import annotations

import copy
import io
import json
import os
import shutil

import botocore.httpsession
import pytest
import yaml

from charts.inference_endpoint_chart import (
    inference_endpoint_spec_for,
    synthesize_inference_endpoint,
)
from deployment_config.loader import load_environment
from ops_cli.cli import main
from ops_cli.context import Runtime
from ops_cli.errors import ExitCode
from tests.conftest import CONFIG_DIR
from tests.ops_cli.conftest import NOW, Result, no_placeholders
from tests.ops_cli.test_preflight import pin

#: The rows that need no AWS call, as shown for an example file (its placeholder ids fail the first row; an example
#: gets no pin rows: ops_cli/preflight_pins.py).
EXAMPLE_LOCAL_ROWS = ["placeholder values", "configuration", "model sizing"]


@pytest.fixture
def examples(tmp_path):
    """A configuration directory holding copies of config/example.yaml and config/example-hyperpod.yaml only."""
    target = tmp_path / "config"
    target.mkdir()
    for name in ("example", "example-hyperpod"):
        shutil.copyfile(CONFIG_DIR / f"{name}.yaml", target / f"{name}.yaml")
    return target


@pytest.fixture
def sent(monkeypatch) -> list[str]:
    """Every request botocore tried to send (none is expected): recorded, and refused."""
    requests: list[str] = []

    def refuse(self, request):  # noqa: ANN001, ANN202 - botocore's URLLib3Session.send
        requests.append(request.url)
        raise AssertionError(f"a request was sent: {request.url}")

    monkeypatch.setattr(botocore.httpsession.URLLib3Session, "send", refuse)
    return requests


def preflight(config_dir, *argv: str) -> Result:
    """`llmops preflight ARGV` in-process, with the real AWS client and the test session's credential-free
    environment."""
    assert not {"AWS_ACCESS_KEY_ID", "AWS_PROFILE", "AWS_SESSION_TOKEN"} & set(
        os.environ
    )  # tests/conftest.py's doing
    stdout, stderr = io.StringIO(), io.StringIO()
    runtime = Runtime(stdout=stdout, stderr=stderr, environ=dict(os.environ), now=lambda: NOW)
    code = main(["preflight", *argv, "--config-dir", str(config_dir)], runtime)
    return Result(code, stdout.getvalue(), stderr.getvalue())


def test_eks_example_shows_its_local_rows_then_says_the_rest_needs_credentials(examples, sent):
    # given the EKS example and no AWS credentials anywhere
    # when preflight runs
    result = preflight(examples, "--env", "example")
    # then the table shows the rows that need no AWS call, in order, then the credentials row with how to provide them
    assert result.code == ExitCode.CREDENTIALS, result.stderr
    names = [line.split("  ")[0] for line in result.stdout.splitlines()[2:-1]]
    assert names == [*EXAMPLE_LOCAL_ROWS, "credentials"]
    credentials = result.stdout.splitlines()[-2]
    assert " FAIL " in credentials and "no AWS credentials" in credentials
    assert (
        "the Capacity Block reservation" in credentials and "the CDK bootstrap stack" in credentials
    )
    assert "aws configure sso" in credentials and "--profile NAME" in credentials
    assert "llmops preflight --env example again" in credentials
    assert (
        "sizing" in result.stdout and "GB of weights" in result.stdout
    )  # the sizing row's content
    assert result.stdout.splitlines()[-1].startswith(
        "Preflight INCOMPLETE: 3 checks ran without AWS (fix the rows"
    )
    assert "Traceback" not in result.stderr and sent == []


def test_eks_environment_json_has_the_configuration_sizing_and_pin_rows(
    examples, sent, monkeypatch
):
    # given an environment with real ids (no placeholder left), its image and model pinned, and no credentials
    monkeypatch.setattr("deployment_config.loader.placeholder_fields", no_placeholders)
    pin(examples)
    # when preflight runs with --json
    result = preflight(examples, "--env", "example", "--json")
    # then the JSON holds the same rows: every local one passes but the support images' (the key check's Caddy image
    # is pinned by tag in deployment_config/support_images.py until someone reads its digest), and the credentials row
    # fails with the error's fix
    assert result.code == ExitCode.CREDENTIALS
    answer = json.loads(result.stdout)
    assert (
        answer["passed"] is False and answer["kind"] == "CREDENTIALS" and answer["exit_code"] == 4
    )
    assert [(c["check"], c["status"]) for c in answer["checks"]] == [
        ("configuration", "pass"),
        ("model sizing", "pass"),
        ("image pinned by digest", "pass"),
        ("support images pinned by digest", "fail"),
        ("model revision pinned", "pass"),
        ("credentials", "fail"),
    ]
    (support,) = [c for c in answer["checks"] if c["check"] == "support images pinned by digest"]
    assert "key-proxy" in support["detail"] + support.get("fix", "")
    assert (
        "passes every configuration rule (eks in us-west-2, account 123456789012)"
        in answer["checks"][0]["detail"]
    )
    assert (
        "aws configure sso" in answer["checks"][-1]["fix"]
        and "account 123456789012" in answer["checks"][-1]["fix"]
    )
    assert sent == []


def test_hyperpod_example_shows_its_local_rows_and_names_its_own_remote_checks(examples, sent):
    # given the HyperPod example and no AWS credentials
    # when preflight runs with --json
    result = preflight(examples, "--env", "example-hyperpod", "--json")
    # then its local rows come first, and the credentials row names what a HyperPod preflight looks up in AWS
    assert result.code == ExitCode.CREDENTIALS
    checks = json.loads(result.stdout)["checks"]
    assert [c["check"] for c in checks] == [
        *EXAMPLE_LOCAL_ROWS,
        "rendered endpoint",
        "worker /dev/shm",
        "credentials",
    ]
    assert "hyperpod.training_plan_arn" in checks[0]["detail"]
    not_checked = checks[-1]["detail"]
    assert (
        "the training plan" in not_checked and "the inference operator and its CRD" in not_checked
    )
    assert "Capacity Block" not in not_checked
    assert sent == []


def test_a_file_that_breaks_a_configuration_rule_gets_its_message_and_no_rows(examples, sent):
    # given a file whose account is not 12 digits
    path = examples / "example.yaml"
    path.write_text(path.read_text().replace('account: "123456789012"', 'account: "12345"', 1))
    # when preflight runs
    result = preflight(examples, "--env", "example")
    # then the loader's one message names the field, no row is shown, and the exit code is a usage error's
    assert result.code == ExitCode.USAGE
    assert result.stdout == "" and "account" in result.stderr and result.stderr.count("fix:") == 1
    assert sent == []


@pytest.fixture(scope="module")
def rendered_objects() -> list[dict]:
    """The HyperPod example's endpoint objects, as `cdk synth` writes them to cdk.out/kubernetes/ENV/PRESET.yaml."""
    return synthesize_inference_endpoint(
        inference_endpoint_spec_for(load_environment(CONFIG_DIR, "example-hyperpod"))
    )


def rendered(tmp_path, objects: list[dict]) -> str:
    """``objects`` written where --manifest will point (after the environment file was written, as cdk synth does)."""
    path = tmp_path / "kimi-k3.yaml"
    path.write_text(yaml.safe_dump_all(objects, sort_keys=False), encoding="utf-8")
    return str(path)


def test_the_rendered_endpoint_is_compared_with_the_vendored_crd_without_credentials(
    examples, sent, tmp_path, rendered_objects
):
    # given the HyperPod example rendered by cdk synth, and no credentials
    # when preflight runs
    result = preflight(
        examples,
        "--env",
        "example-hyperpod",
        "--manifest",
        rendered(tmp_path, rendered_objects),
        "--json",
    )
    # then the endpoint was compared with the pinned operator's CRD, before the credentials row
    checks = {c["check"]: c for c in json.loads(result.stdout)["checks"]}
    row = checks["rendered endpoint"]
    assert row["status"] == "pass", row
    assert "field paths" in row["detail"] and "fit the CRD of operator 3.1" in row["detail"]
    assert (
        list(checks)[-3:] == ["rendered endpoint", "worker /dev/shm", "credentials"]
        and result.code == ExitCode.CREDENTIALS
    )


def test_a_rendered_field_the_pinned_operator_lacks_fails_before_any_aws_call(
    examples, sent, tmp_path, rendered_objects
):
    # given a rendered endpoint with a field operator 3.1's CRD does not have, and a value its enum refuses
    objects = copy.deepcopy(rendered_objects)
    (endpoint,) = [o for o in objects if o["kind"] == "InferenceEndpointConfig"]
    endpoint["spec"]["worker"]["volumeMounts"] = [{"name": "dshm", "mountPath": "/dev/shm"}]
    endpoint["spec"]["modelSourceConfig"]["modelSourceType"] = "http"
    # when preflight runs without credentials
    result = preflight(
        examples, "--env", "example-hyperpod", "--manifest", rendered(tmp_path, objects), "--json"
    )
    # then the row fails with each path, and the exit code is still the credentials error's
    row = {c["check"]: c for c in json.loads(result.stdout)["checks"]}["rendered endpoint"]
    assert row["status"] == "fail" and "spec.worker.volumeMounts: no such field" in row["detail"]
    assert "spec.modelSourceConfig.modelSourceType: 'http' is not one of" in row["detail"]
    assert result.code == ExitCode.CREDENTIALS and sent == []


def test_a_rendered_endpoint_older_than_the_environment_file_warns(
    examples, sent, tmp_path, rendered_objects
):
    manifest = rendered(tmp_path, rendered_objects)
    os.utime(manifest, (0, 0))
    result = preflight(examples, "--env", "example-hyperpod", "--manifest", manifest, "--json")
    row = {c["check"]: c for c in json.loads(result.stdout)["checks"]}["rendered endpoint"]
    assert row["status"] == "warn" and "is older than" in row["detail"]
    assert row["fix"].startswith("npx cdk synth -c env=example-hyperpod")


def test_a_hyperpod_preflight_says_the_worker_has_no_dev_shm_of_its_own(examples, sent):
    # given the HyperPod example and no AWS credentials
    result = preflight(examples, "--env", "example-hyperpod", "--json")
    # then a row warns that the pinned operator's CRD cannot give the worker the EKS path's /dev/shm, says why and how
    # to read its size once the worker runs, without failing preflight for it
    row = {c["check"]: c for c in json.loads(result.stdout)["checks"]}["worker /dev/shm"]
    assert row["status"] == "warn"
    assert "50 GiB memory-backed /dev/shm" in row["detail"]
    assert "no spec.worker.volumeMounts" in row["detail"] and "operator 3.1" in row["detail"]
    assert "df -h /dev/shm" in row["fix"] and "-l app=kimik3" in row["fix"]
    assert result.code == ExitCode.CREDENTIALS and sent == []


def test_an_eks_preflight_has_no_dev_shm_row(examples, sent):
    result = preflight(examples, "--env", "example", "--json")
    assert "worker /dev/shm" not in {c["check"] for c in json.loads(result.stdout)["checks"]}
