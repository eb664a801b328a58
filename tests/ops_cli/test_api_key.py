"""The endpoint's API key: `llmops smoke-test` and `llmops wait endpoint` against a local server that requires a key
the way vLLM 0.33.0 does (tests/ops_cli/openai_server.py), with the key given, read from Secrets Manager (botocore
Stubber, which checks every request and answer against the API model), or derived from the environment."""

from __future__ import annotations

import http.client
import io
from datetime import UTC, datetime

import pytest

from ops_cli.cli import build_parser, main
from ops_cli.context import Runtime
from ops_cli.errors import ExitCode
from tests.ops_cli.conftest import NOW, Result, client_error
from tests.ops_cli.openai_server import UNAUTHORIZED_BODY, Behaviour, openai_server

KEY = "sk-llm-7f3a9c2e5b1d4e8fa6c0b9d2e1f4a7c3"
WRONG_KEY = "sk-llm-0000000000000000wrong00000000000"
SECRET_NAME = "llm-serving/example/api-key"
#: What the CLI asks for with --env example: a partial ARN (no random suffix) in the environment's account and region.
EXAMPLE_SECRET_ID = f"arn:aws:secretsmanager:us-west-2:123456789012:secret:{SECRET_NAME}"


def secret_value(secret_id: str, value: str = KEY, name: str = SECRET_NAME) -> dict:
    """A GetSecretValue answer as Secrets Manager gives it (the full ARN carries six random characters)."""
    return {
        "ARN": f"arn:aws:secretsmanager:us-west-2:123456789012:secret:{name}-AbCdEf",
        "Name": name,
        "VersionId": "EXAMPLE1-90ab-cdef-fedc-ba987EXAMPLE",
        "SecretString": value,
        "VersionStages": ["AWSCURRENT"],
        "CreatedDate": datetime(2026, 11, 1, tzinfo=UTC),
    }


def stub_secret(aws, secret_id: str = EXAMPLE_SECRET_ID, value: str = KEY) -> None:
    aws.stub("secretsmanager").add_response(
        "get_secret_value", secret_value(secret_id, value), {"SecretId": secret_id}
    )


def assert_key_hidden(result: Result, *keys: str) -> None:
    for key in keys or (KEY, WRONG_KEY):
        assert key not in result.stdout and key not in result.stderr


@pytest.fixture
def run_with_environ(aws, clock, config_dir):
    """llmops in-process with the given environment variables (the Runtime's environ)."""

    def _run(environ: dict, *argv: str) -> Result:
        stdout, stderr = io.StringIO(), io.StringIO()
        runtime = Runtime(
            aws_factory=aws.aws,
            stdout=stdout,
            stderr=stderr,
            environ=environ,
            clock=clock,
            sleep=clock.sleep,
            now=lambda: NOW,
        )
        return Result(
            main([*argv, "--config-dir", str(config_dir)], runtime),
            stdout.getvalue(),
            stderr.getvalue(),
        )

    return _run


# --- the local server checks the key as vLLM does -----------------------------------------------------------------


def _request(
    url: str, method: str, path: str, authorization: str | None = None
) -> tuple[int, bytes]:
    host, port = url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=5)
    try:
        connection.request(
            method, path, headers={"Authorization": authorization} if authorization else {}
        )
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def test_the_local_server_guards_the_paths_vllm_guards_and_answers_as_vllm_does():
    # given a server started with a key, as vLLM with --api-key
    with openai_server(Behaviour(api_key=KEY)) as url:
        # then /health needs no key, /v1 does, with vLLM's 401 body
        assert _request(url, "GET", "/health") == (200, b"")
        assert _request(url, "GET", "/v1/models") == (401, UNAUTHORIZED_BODY)
        assert _request(url, "GET", "/v1/models", f"Bearer {WRONG_KEY}") == (401, UNAUTHORIZED_BODY)
        assert _request(url, "GET", "/v1/models", f"Basic {KEY}")[0] == 401
        assert _request(url, "GET", "/v1/models", KEY)[0] == 401  # no scheme
        # the scheme in any case, the key exactly
        assert _request(url, "GET", "/v1/models", f"bearer {KEY}")[0] == 200
        assert _request(url, "GET", "/v1/models", f"Bearer {KEY}")[0] == 200
        assert (
            _request(url, "GET", "/v1/models", f"Bearer  {KEY}")[0] == 401
        )  # the second space is part of the key
        # any path under a guarded prefix is refused before routing; others are not guarded
        assert _request(url, "GET", "/v2/anything")[0] == 401
        assert _request(url, "GET", "/inference/v1/generate")[0] == 401
        assert _request(url, "GET", "/metrics")[0] == 404
        assert _request(url, "OPTIONS", "/v1/models")[0] != 401


# --- smoke-test ------------------------------------------------------------------------------------------------------


def test_smoke_test_without_the_key_fails_with_a_fix(run):
    # given an endpoint that requires a key
    with openai_server(behaviour := Behaviour(api_key=KEY)) as url:
        # when the smoke test runs without one
        human = run("smoke-test", "--url", url)
        machine = run("smoke-test", "--url", url, "--json")
    # then it fails with exit 1, saying that no key was sent and how to send one
    assert human.code == ExitCode.CHECK_FAILED
    assert "GET /v1/models answered HTTP 401: Unauthorized" in human.stderr
    assert "none was sent" in human.stderr
    fix = human.stderr.split("fix:")[1]
    assert "--env NAME" in fix and "--api-key-secret" in fix and "LLMOPS_API_KEY" in fix
    assert machine.code == ExitCode.CHECK_FAILED and machine.json["exit_code"] == 1
    # and no chat completion was sent after the refusal
    assert [(method, path) for method, path, _ in behaviour.seen] == [("GET", "/v1/models")] * 2


def test_smoke_test_with_api_key_sends_it_on_every_request(run):
    with openai_server(behaviour := Behaviour(api_key=KEY)) as url:
        result = run("smoke-test", "--url", url, "--api-key", KEY, "--json")
    assert result.code == ExitCode.OK, result.stdout + result.stderr
    assert result.json["passed"] is True and result.json["api_key_source"] == "--api-key"
    assert [m for m, _, _ in behaviour.seen] == ["GET", "POST", "POST"]
    assert {authorization for _, _, authorization in behaviour.seen} == {f"Bearer {KEY}"}
    assert_key_hidden(result)


def test_smoke_test_with_the_wrong_key_names_where_the_key_came_from(run):
    with openai_server(Behaviour(api_key=KEY)) as url:
        result = run("smoke-test", "--url", url, "--api-key", WRONG_KEY)
    assert result.code == ExitCode.CHECK_FAILED
    assert "refused the API key from --api-key" in result.stderr
    # the fix says when a rotated key takes effect (EKS: the driver's refresh; HyperPod: a new worker pod)
    assert "refreshes every 2 minutes" in result.stderr and "new worker pod" in result.stderr
    assert "--api-key-secret" in result.stderr
    assert_key_hidden(result)


def test_smoke_test_takes_the_key_from_LLMOPS_API_KEY(run_with_environ):
    with openai_server(behaviour := Behaviour(api_key=KEY)) as url:
        result = run_with_environ({"LLMOPS_API_KEY": KEY}, "smoke-test", "--url", url)
    assert result.code == ExitCode.OK, result.stdout + result.stderr
    assert "API key: from LLMOPS_API_KEY" in result.stdout
    assert {authorization for _, _, authorization in behaviour.seen} == {f"Bearer {KEY}"}
    assert_key_hidden(result)


def test_smoke_test_reads_the_key_from_a_named_secret(aws, run):
    # given the key in a secret of the caller's account, named on the command line
    stub_secret(aws, "team/llm-key")
    with openai_server(Behaviour(api_key=KEY)) as url:
        result = run(
            "smoke-test",
            "--url",
            url,
            "--api-key-secret",
            "team/llm-key",
            "--region",
            "us-west-2",
            "--json",
        )
    # then GetSecretValue was asked for that name (the Stubber checked it), and the key was sent
    assert result.code == ExitCode.OK, result.stdout + result.stderr
    assert result.json["api_key_source"] == "secret team/llm-key"
    assert_key_hidden(result)


def test_smoke_test_reads_a_secret_arn_in_its_own_region(aws, run):
    arn = f"arn:aws:secretsmanager:us-west-2:210987654321:secret:{SECRET_NAME}-AbCdEf"
    stub_secret(aws, arn)
    with openai_server(Behaviour(api_key=KEY)) as url:
        result = run("smoke-test", "--url", url, "--api-key-secret", arn)  # no --region: the ARN's
    assert result.code == ExitCode.OK, result.stdout + result.stderr
    # a region that contradicts the ARN is refused before any call
    refused = run("smoke-test", "--url", url, "--api-key-secret", arn, "--region", "us-east-1")
    assert refused.code == ExitCode.USAGE and "secret of us-west-2" in refused.stderr


def test_smoke_test_with_env_derives_the_environments_secret(aws, run):
    # given the environment 'example', which requires its key (endpoint.api_key_required defaults to true)
    stub_secret(
        aws
    )  # expects SecretId = the partial ARN of llm-serving/example/api-key in 123456789012, us-west-2
    with openai_server(behaviour := Behaviour(api_key=KEY)) as url:
        result = run("smoke-test", "--url", url, "--env", "example", "--json")
    # then the key came from that secret, and a request without it was refused first
    assert result.code == ExitCode.OK, result.stdout + result.stderr
    assert (
        result.json["api_key_source"]
        == "secret llm-serving/example/api-key (account 123456789012, us-west-2)"
    )
    no_key, models, plain, streaming = result.json["requests"]
    assert (
        no_key["mode"] == "no key"
        and no_key["ok"]
        and no_key["text"] == "refused: HTTP 401 (/v1/models, /invocations)"
    )
    assert behaviour.seen[:2] == [("GET", "/v1/models", None), ("POST", "/invocations", None)]
    assert {authorization for _, _, authorization in behaviour.seen[2:]} == {f"Bearer {KEY}"}
    assert_key_hidden(result)


def test_smoke_test_fails_when_an_environment_that_requires_a_key_serves_without_one(aws, run):
    # given vLLM started without --api-key, for an environment that requires the key
    stub_secret(aws)
    with openai_server(Behaviour(api_key=None)) as url:
        result = run("smoke-test", "--url", url, "--env", "example", "--json")
    # then the smoke test fails on that row, although every request with the key passed
    assert result.code == ExitCode.CHECK_FAILED
    no_key = result.json["requests"][0]
    assert no_key["mode"] == "no key" and not no_key["ok"]
    assert "serves anyone" in no_key["problems"][0] and "VLLM_API_KEY" in no_key["problems"][0]
    assert all(r["ok"] for r in result.json["requests"][1:])


def test_an_environment_that_opted_out_sends_no_key_and_reads_no_secret(run, config_dir):
    # given an environment whose endpoint does not require a key
    text = (config_dir / "example.yaml").read_text()
    (config_dir / "open.yaml").write_text(
        text.replace("  exposure: internal", "  exposure: internal\n  authentication: none")
    )
    with openai_server(behaviour := Behaviour(api_key=None)) as url:
        result = run("smoke-test", "--url", url, "--env", "open", "--json")
    # then no secret is read (the aws fixture fails on any unstubbed call) and no request carries a key
    assert result.code == ExitCode.OK, result.stdout + result.stderr
    assert result.json["api_key_source"] is None
    assert [r["mode"] for r in result.json["requests"]] == ["models", "plain", "streaming"]
    assert {authorization for _, _, authorization in behaviour.seen} == {None}


def test_a_hyperpod_environment_reads_its_own_key_like_an_eks_one(aws, run):
    # given a HyperPod environment, whose endpoint stack makes the secret llm-serving/example-hyperpod/api-key and gives
    # the operator's vLLM worker the key
    name = "llm-serving/example-hyperpod/api-key"
    aws.stub("secretsmanager").add_response(
        "get_secret_value",
        secret_value(f"arn:aws:secretsmanager:us-west-2:123456789012:secret:{name}", name=name),
        {"SecretId": f"arn:aws:secretsmanager:us-west-2:123456789012:secret:{name}"},
    )
    with openai_server(behaviour := Behaviour(api_key=KEY, root="/opt/ml/model")) as url:
        result = run("smoke-test", "--url", url, "--env", "example-hyperpod", "--json")
    # then the key came from that secret (the Stubber checked the SecretId), a request without it was refused first,
    # and every other request carried it
    assert result.code == ExitCode.OK, result.stdout + result.stderr
    assert result.json["api_key_source"] == f"secret {name} (account 123456789012, us-west-2)"
    assert [r["mode"] for r in result.json["requests"]] == [
        "no key",
        "models",
        "plain",
        "streaming",
    ]
    # /invocations is probed without the key too: the operator's worker loads the middleware that guards it
    unkeyed = {
        (method, path) for method, path, authorization in behaviour.seen if authorization is None
    }
    assert unkeyed == {("GET", "/v1/models"), ("POST", "/invocations")}
    assert {a for _, _, a in behaviour.seen if a is not None} == {f"Bearer {KEY}"}
    assert_key_hidden(result)


def test_an_explicit_key_wins_over_the_environments_secret(run_with_environ):
    with openai_server(Behaviour(api_key=KEY)) as url:
        result = run_with_environ(
            {"LLMOPS_API_KEY": KEY}, "smoke-test", "--url", url, "--env", "example", "--json"
        )
    assert result.code == ExitCode.OK, (
        result.stdout + result.stderr
    )  # no GetSecretValue stubbed: none was made
    assert result.json["api_key_source"] == "LLMOPS_API_KEY"


def test_the_key_never_shows_even_when_the_endpoint_echoes_it(run):
    # given a hostile endpoint whose 401 body repeats the Authorization header it received
    with openai_server(Behaviour(api_key=KEY, echo_authorization=True)) as url:
        human = run("smoke-test", "--url", url, "--api-key", WRONG_KEY)
        machine = run("smoke-test", "--url", url, "--api-key", WRONG_KEY, "--json")
    # then the key sent is replaced in the message, for people and in JSON
    for result in (human, machine):
        assert result.code == ExitCode.CHECK_FAILED
        assert "<the API key>" in result.stdout + result.stderr
        assert_key_hidden(result)


@pytest.mark.parametrize(
    "value, problem",
    [
        ("", "is empty"),
        (f"{KEY}\nX-Injected: 1", f"cannot be sent in an HTTP header at position {len(KEY) + 1}"),
        (f" {KEY}", "begins or ends with a space"),
        (f"{KEY}é", "only printable ASCII"),
    ],
)
def test_a_key_that_cannot_be_sent_is_refused_without_quoting_it(run, value, problem):
    result = run("smoke-test", "--url", "http://127.0.0.1:9", "--api-key", value)
    assert result.code == ExitCode.USAGE and problem in result.stderr
    assert_key_hidden(result)


def test_api_key_and_api_key_secret_exclude_each_other(run):
    result = run(
        "smoke-test", "--url", "http://127.0.0.1:9", "--api-key", KEY, "--api-key-secret", "x"
    )
    assert result.code == ExitCode.USAGE and "not allowed with" in result.stderr
    assert_key_hidden(result)


@pytest.mark.parametrize(
    "secret",
    [
        "has space",
        "x" * 513,
        "arn:aws:secretsmanager:us-west-2:1234:secret:x",
        "arn:aws:secretsmanager:us-wset-2:123456789012:secret:x",
    ],
)
def test_a_malformed_secret_id_is_refused_before_any_call(run, secret):
    result = run(
        "smoke-test",
        "--url",
        "http://127.0.0.1:9",
        "--api-key-secret",
        secret,
        "--region",
        "us-west-2",
    )
    assert result.code == ExitCode.USAGE and "--api-key-secret" in result.stderr


def test_help_discourages_api_key_on_a_shared_machine():
    help_text = " ".join(
        build_parser()._subparsers._group_actions[0].choices["smoke-test"].format_help().split()
    )
    assert "Discouraged on a shared machine" in help_text and "LLMOPS_API_KEY" in help_text


# --- reading the secret fails -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "error, code, fix",
    [
        (
            client_error(
                "AccessDeniedException",
                "User: arn:aws:sts::111111111111:assumed-role/ci/x is not authorized to "
                "perform: secretsmanager:GetSecretValue on resource: llm-serving/example/api-key",
                400,
            ),
            ExitCode.ACCESS_DENIED,
            "allow secretsmanager:GetSecretValue on secret llm-serving/example/api-key",
        ),
        (
            client_error("AccessDeniedException", "Access to KMS is not allowed", 400),
            ExitCode.ACCESS_DENIED,
            "allow kms:Decrypt on the KMS key that encrypts secret llm-serving/example/api-key",
        ),
        (
            client_error(
                "DecryptionFailure",
                "Secrets Manager can't decrypt the protected secret text using the provided "
                "KMS key.",
                400,
            ),
            ExitCode.AWS_ERROR,
            "kms:ViaService = secretsmanager.us-west-2.amazonaws.com",
        ),
        (
            client_error(
                "ResourceNotFoundException", "Secrets Manager can't find the specified secret.", 400
            ),
            ExitCode.NOT_FOUND,
            "created by its serving stack",
        ),
    ],
)
def test_secret_read_errors_map_to_exit_codes_with_a_fix_naming_the_secret(
    aws, run, error, code, fix
):
    aws.stub("secretsmanager").add_client_error(
        "get_secret_value", **error, expected_params={"SecretId": EXAMPLE_SECRET_ID}
    )
    result = run("smoke-test", "--url", "http://127.0.0.1:9", "--env", "example")
    assert result.code == code, result.stderr
    assert (
        "read the API key from secret llm-serving/example/api-key (account 123456789012, us-west-2)"
        in result.stderr
    )
    assert fix in result.stderr.split("fix:")[1]


def test_no_credentials_to_read_the_secret_is_exit_4(config_dir, tmp_path):
    # given a real SDK session that finds no credentials anywhere (no variables, no files, no instance metadata)
    environ = {
        "AWS_CONFIG_FILE": str(tmp_path / "none"),
        "AWS_SHARED_CREDENTIALS_FILE": str(tmp_path / "none"),
        "AWS_EC2_METADATA_DISABLED": "true",
    }
    stdout, stderr = io.StringIO(), io.StringIO()
    code = main(
        [
            "smoke-test",
            "--url",
            "http://127.0.0.1:9",
            "--env",
            "example",
            "--config-dir",
            str(config_dir),
        ],
        Runtime(stdout=stdout, stderr=stderr, environ=environ),
    )
    assert code == ExitCode.CREDENTIALS
    assert (
        "no AWS credentials while trying to read the API key from secret llm-serving/example/api-key"
        in stderr.getvalue()
    )


def test_a_secret_without_text_is_refused(aws, run):
    answer = secret_value(EXAMPLE_SECRET_ID)
    del answer["SecretString"]
    answer["SecretBinary"] = b"\x00\x01"
    aws.stub("secretsmanager").add_response(
        "get_secret_value", answer, {"SecretId": EXAMPLE_SECRET_ID}
    )
    result = run("smoke-test", "--url", "http://127.0.0.1:9", "--env", "example")
    assert result.code == ExitCode.USAGE and "holds binary data" in result.stderr


# --- wait endpoint ----------------------------------------------------------------------------------------------------


def test_wait_endpoint_polls_health_without_the_key_then_checks_it_once(aws, run):
    # given an endpoint that requires the environment's key
    stub_secret(aws)
    with openai_server(behaviour := Behaviour(api_key=KEY)) as url:
        result = run("wait", "endpoint", "--url", url, "--env", "example", "--json")
    # then /health was asked without the key, and the key was tried once on /v1/models
    assert result.code == ExitCode.OK, result.stdout + result.stderr
    assert behaviour.seen == [("GET", "/health", None), ("GET", "/v1/models", f"Bearer {KEY}")]
    assert result.json["api_key"]["accepted"] is True
    assert (
        result.json["api_key"]["source"]
        == "secret llm-serving/example/api-key (account 123456789012, us-west-2)"
    )
    assert_key_hidden(result)


def test_wait_endpoint_fails_when_the_healthy_endpoint_refuses_the_key(run):
    with openai_server(Behaviour(api_key=KEY)) as url:
        result = run("wait", "endpoint", "--url", url, "--api-key", WRONG_KEY)
    assert result.code == ExitCode.CHECK_FAILED
    assert (
        "/health: HTTP 200" in result.stderr
        and "refused the API key from --api-key" in result.stderr
    )
    assert_key_hidden(result)


def test_wait_endpoint_without_a_key_asks_only_for_health(run):
    with openai_server(behaviour := Behaviour(api_key=KEY)) as url:
        result = run("wait", "endpoint", "--url", url, "--json")
    assert result.code == ExitCode.OK and result.json["api_key"] is None
    assert behaviour.seen == [("GET", "/health", None)]


def test_wait_endpoint_reads_the_secret_before_waiting(aws, run, clock):
    # a secret it cannot read fails at once, not after hours of waiting
    aws.stub("secretsmanager").add_client_error(
        "get_secret_value",
        **client_error("AccessDeniedException", status=400),
        expected_params={"SecretId": EXAMPLE_SECRET_ID},
    )
    result = run("wait", "endpoint", "--url", "http://127.0.0.1:9", "--env", "example")
    assert result.code == ExitCode.ACCESS_DENIED and clock.sleeps == []


def test_smoke_test_fails_when_invocations_answers_without_the_key(aws, run):
    # given vLLM with its key but without the project's middleware: its own check leaves POST /invocations open
    stub_secret(aws)
    with openai_server(Behaviour(api_key=KEY, guard_every_path=False)) as url:
        result = run("smoke-test", "--url", url, "--env", "example", "--json")
    # then the smoke test fails on the "no key" row and names the missing middleware
    assert result.code == ExitCode.CHECK_FAILED
    no_key = result.json["requests"][0]
    assert no_key["mode"] == "no key" and not no_key["ok"]
    (problem,) = no_key["problems"]
    assert (
        problem.startswith("POST /invocations without the API key answered")
        and "RequireApiKeyEverywhere" in problem
    )
