"""The promotion gate (endpoint.promotion_gate): after the deploy-time smoke test, the correctness probe and a load test
in the cluster with thresholds; NAME-smoke, and so a pipeline stage, fails before the next wave when they are not met.

One synthesis, with cdk-nag, shared with tests/cdk_constructs/test_deploy_time_smoke.py (tests/cdk_constructs/conftest.py):
a pipeline whose first wave is tests/configs/promotion-gate.yaml (config/example.yaml with the smoke test and the gate,
the image pinned by digest), the examples with the smoke test after it; the handler against botocore Stubbers, the
local OpenAI-compatible server and a local wait condition handle (tests/cdk_constructs/test_deploy_time_smoke.py's).
"""

from __future__ import annotations

import io
import json
import shlex
import subprocess
from pathlib import Path

import jsonschema
import kubernetes_validate
import pytest
import yaml
from botocore.response import StreamingBody
from botocore.stub import ANY
from hypothesis import given, settings
from hypothesis import strategies as st

from cdk_constructs import deploy_time_smoke_test as construct
from cdk_constructs import promotion_gate
from cdk_constructs.deploy_time_smoke_test.runtime import aws as smoke_aws
from cdk_constructs.deploy_time_smoke_test.runtime import gate as smoke_gate
from cdk_constructs.deploy_time_smoke_test.runtime import handler as smoke_handler
from deployment_config import ConfigError, parse_environment
from deployment_config.promotion_gate import PROBE_SECONDS, SMOKE_TEST_WAIT_SECONDS
from deployment_config.sizing import startup_budget_seconds
from endpoint_probe import correctness
from ops_cli import load_test, load_test_target
from tests.cdk_constructs.test_deploy_time_smoke import wait_condition_handle
from tests.cfn_lint import cfn_lint_errors
from tests.conftest import CONFIG_DIR
from tests.lambda_handlers import handler_with_stubbed_clients
from tests.ops_cli.openai_server import Behaviour, openai_server

TEST_CONFIGS = Path(__file__).resolve().parents[1] / "configs"
REGION = "us-west-2"
DIGEST = "0123456789abcdef" * 4
PREFIX = f"results/sha256-{DIGEST}/"


@pytest.fixture(scope="module")
def gate_pipeline(smoke_and_gate_pipeline):
    """A pipeline whose first wave is the gate's environment, the smoke test's two environments after it
    (tests/cdk_constructs/test_deploy_time_smoke.py reads those: tests/cdk_constructs/conftest.py)."""
    return smoke_and_gate_pipeline


@pytest.fixture(scope="module")
def gate_assembly(gate_pipeline):
    """The gate environment's stage: every stack of it, as a deploy builds them."""
    stack, assembly = gate_pipeline
    return assembly.get_nested_assembly(f"assembly-{stack.stack_name}-promotion-gate")


@pytest.fixture(scope="module")
def template(gate_assembly):
    return gate_assembly.get_stack_by_name("promotion-gate-smoke").template


def _of_type(template: dict, resource_type: str) -> dict[str, dict]:
    return {k: r for k, r in template["Resources"].items() if r["Type"] == resource_type}


def _settings(template: dict) -> dict:
    (start,) = _of_type(template, construct.RESOURCE_TYPE).values()
    return json.loads(start["Properties"]["Settings"])


def _job(template: dict) -> tuple[str, dict]:
    """The Job manifest as applied (its CloudFormation value, tokens as Fn::Join parts), and the Job."""
    ((job_id, resource),) = [
        (k, r)
        for k, r in _of_type(template, "Custom::AWSCDK-EKS-KubernetesResource").items()
        if k.startswith("PromotionGateJob")
    ]
    text = json.dumps(resource["Properties"]["Manifest"])
    parts = resource["Properties"]["Manifest"]["Fn::Join"][1]
    literal = "".join(
        p if isinstance(p, str) else "RUNTOKEN" if "Fn::GetAtt" in p else "BUCKETTOKEN"
        for p in parts
    )
    (job,) = json.loads(literal)
    return text, {**job, "_id": job_id, "_resource": resource}


def _statements(template: dict, role_id: str) -> list[dict]:
    return [
        s
        for p in _of_type(template, "AWS::IAM::Policy").values()
        if {"Ref": role_id} in p["Properties"]["Roles"]
        for s in p["Properties"]["PolicyDocument"]["Statement"]
    ]


# --- configuration --------------------------------------------------------------------------------------------------


def _document(**endpoint) -> dict:
    document = yaml.safe_load((CONFIG_DIR / "example.yaml").read_text(encoding="utf-8"))
    document.setdefault("endpoint", {}).update(endpoint)
    return document


def test_the_gate_is_off_by_default(default_env):
    assert default_env.endpoint.promotion_gate is None


def test_given_the_gate_config_then_runs_default_to_llmops_bench_and_the_thresholds_are_kept(
    gate_env,
):
    gate = gate_env.endpoint.gate
    assert gate.concurrencies == (1, 4)
    assert [r.num_prompts for r in gate.runs] == [
        load_test.default_num_prompts(1),
        load_test.default_num_prompts(4),
    ]
    assert (gate.runs[1].max_ttft_p90_ms, gate.runs[1].min_output_tokens_per_s) == (900, 350)
    assert (gate.input_len, gate.output_len, gate.correctness, gate.max_failed_requests) == (
        8192,
        1024,
        True,
        0,
    )


@pytest.mark.parametrize(
    ("endpoint", "expected"),
    [
        (
            {"promotion_gate": {"runs": [{"concurrency": 1}]}},
            "runs in the stack of the deploy-time smoke test, which is off",
        ),
        (
            {
                "deploy_time_smoke_test": True,
                "promotion_gate": {"runs": [{"concurrency": 4}, {"concurrency": 4}]},
            },
            "concurrency 4 is listed more than once",
        ),
        ({"deploy_time_smoke_test": True, "promotion_gate": {"runs": []}}, "runs"),
        # 8 runs of 4096 requests at the 10 tok/s floor: far beyond a wait condition's 12 hours
        (
            {
                "deploy_time_smoke_test": True,
                "promotion_gate": {
                    "runs": [{"concurrency": c, "num_prompts": 4096} for c in range(1, 9)]
                },
            },
            "more than the 12 hours a CloudFormation wait condition waits",
        ),
    ],
)
def test_a_gate_that_cannot_run_is_refused_at_the_edge(endpoint, expected):
    with pytest.raises(ConfigError) as error:
        parse_environment(_document(**endpoint), name="gate")
    assert expected in str(error.value) and "endpoint.promotion_gate" in str(error.value)


def test_the_gate_is_refused_on_hyperpod():
    document = yaml.safe_load((CONFIG_DIR / "example-hyperpod.yaml").read_text(encoding="utf-8"))
    document.setdefault("endpoint", {}).update(
        deploy_time_smoke_test=True, promotion_gate={"runs": [{"concurrency": 1}]}
    )
    with pytest.raises(ConfigError, match="is used on platform: eks only"):
        parse_environment(document, name="gate-hyperpod")


# --- the stack --------------------------------------------------------------------------------------------------------


def test_the_wait_covers_the_smoke_test_the_probe_and_every_run_at_its_threshold(
    template, gate_env
):
    gate = gate_env.endpoint.gate
    budget = startup_budget_seconds(gate_env.model.weight_size_gb)
    # given the smoke test's own wait, as the construct computes it
    assert construct.timeouts(budget)[1] == budget + SMOKE_TEST_WAIT_SECONDS
    # then the gate adds a poll and a check for the probe, and per run the time a passing run may take
    # (10 x 1024 tokens at 150 tok/s, 16 x 1024 at 350 tok/s, each with 10 minutes to start and upload) and 5 minutes
    expected_load = (-(-10 * 1024 // 150) + 600) + (-(-16 * 1024 // 350) + 600) + 300
    assert gate.load_test_seconds() == expected_load
    (wait,) = _of_type(template, "AWS::CloudFormation::WaitCondition").values()
    assert (
        int(wait["Properties"]["Timeout"])
        == budget + SMOKE_TEST_WAIT_SECONDS + PROBE_SECONDS + expected_load
        <= 43200
    )
    assert _settings(template)["Gate"]["LoadTestSeconds"] == expected_load
    # and the Job may live as long as the wait
    _, job = _job(template)
    assert job["spec"]["activeDeadlineSeconds"] == int(wait["Properties"]["Timeout"])


def test_the_job_is_llmops_bench_run_by_run_and_uploads_each_result_under_the_image_digest(
    template, gate_env
):
    text, job = _job(template)
    # then it validates strictly against Kubernetes 1.34
    manifest = {k: v for k, v in job.items() if not k.startswith("_")}
    kubernetes_validate.validate(manifest, gate_env.kubernetes_version, strict=True)
    pod = manifest["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    script = container["command"][2]
    # and runs `vllm bench serve` with exactly the arguments llmops bench builds, per run
    plan = load_test.plan_for(
        gate_env,
        base_url=load_test_target.eks_service_url(gate_env),
        job_name="x",
        concurrencies=(1, 4),
        input_len=8192,
        output_len=1024,
        num_prompts=None,
        seed=0,
        deadline_seconds=1,
    )
    for index in range(2):
        assert shlex.join(["vllm", "bench", "serve", *plan.bench_args(index)]) in script
    assert "--base-url http://vllm.llm-serving:8000" in script
    # and waits for the start object before the first run, then uploads each run's result as cN.json
    assert script.index("head_object") < script.index("vllm bench serve")
    assert script.count("upload_file") == 4 and "c1.json" in script and "c4.json" in script
    env = {e["name"]: e.get("value") for e in container["env"]}
    assert env["RESULTS_PREFIX"] == f"{PREFIX}RUNTOKEN/" and env["RESULTS_BUCKET"] == "BUCKETTOKEN"
    assert "RunId" in text  # the start resource's run id
    # and it runs as its own service account, next to a vLLM pod, with the API key from the synced Secret
    assert pod["serviceAccountName"] == promotion_gate.SERVICE_ACCOUNT
    assert pod["affinity"]["podAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
    assert {
        "name": "OPENAI_API_KEY",
        "valueFrom": {"secretKeyRef": {"name": "vllm-secrets", "key": "api-key"}},
    } in container["env"]
    assert container["image"] == gate_env.serving_image


def test_the_job_logs_the_start_object_it_waits_for(template):
    # given the Job's script, when its first line runs in a shell with the Job's variables
    (container,) = _job(template)[1]["spec"]["template"]["spec"]["containers"]
    first_line = container["command"][2].splitlines()[0]
    printed = subprocess.run(
        ["sh", "-c", first_line],
        capture_output=True,
        text=True,
        timeout=10,
        env={"RESULTS_BUCKET": "gate-results", "RESULTS_PREFIX": "results/sha256-x/run/"},
    ).stdout
    # then it names the object's whole location
    assert printed.startswith("waiting for s3://gate-results/results/sha256-x/run/start (")


def test_the_jobs_role_may_only_upload_results_and_read_its_start_object_under_this_image(template):
    (role_id,) = [
        k for k in _of_type(template, "AWS::IAM::Role") if k.startswith("PromotionGatePodRole")
    ]
    statements = {s["Sid"]: s for s in _statements(template, role_id)}
    assert set(statements) == {"UploadResults", "ReadTheStartSignal"}
    assert statements["UploadResults"]["Action"] == "s3:PutObject"
    assert json.dumps(statements["UploadResults"]["Resource"]).endswith(f'/{PREFIX}*/c*.json"]]}}')
    assert statements["ReadTheStartSignal"]["Action"] == "s3:GetObject"
    assert json.dumps(statements["ReadTheStartSignal"]["Resource"]).endswith(
        f'/{PREFIX}*/start"]]}}'
    )
    trust = template["Resources"][role_id]["Properties"]["AssumeRolePolicyDocument"]["Statement"][0]
    assert trust["Principal"] == {"Service": "pods.eks.amazonaws.com"}
    (association,) = _of_type(template, "AWS::EKS::PodIdentityAssociation").values()
    assert (
        association["Properties"]["Namespace"],
        association["Properties"]["ServiceAccount"],
    ) == ("llm-serving", promotion_gate.SERVICE_ACCOUNT)


def test_the_check_may_list_and_read_the_results_and_write_only_start_and_summary(template):
    check_id = next(
        k
        for k, r in _of_type(template, "AWS::Lambda::Function").items()
        if r["Properties"].get("Handler") == f"{construct.HANDLER_MODULE}.check"
    )
    role = template["Resources"][check_id]["Properties"]["Role"]["Fn::GetAtt"][0]
    statements = {s.get("Sid"): s for s in _statements(template, role)}
    assert statements["ListResults"]["Condition"] == {"StringLike": {"s3:prefix": [f"{PREFIX}*"]}}
    writes = json.dumps(statements["WriteStartAndSummary"]["Resource"])
    assert f"/{PREFIX}*/start" in writes and f"/{PREFIX}*/summary.json" in writes
    assert statements["ReadResults"]["Action"] == "s3:GetObject"


def test_the_results_bucket_is_encrypted_tls_only_private_and_expires_results(template):
    (bucket,) = _of_type(template, "AWS::S3::Bucket").values()
    properties = bucket["Properties"]
    assert properties["BucketEncryption"]["ServerSideEncryptionConfiguration"][0][
        "ServerSideEncryptionByDefault"
    ] == {"SSEAlgorithm": "AES256"}
    assert properties["PublicAccessBlockConfiguration"] == {
        "BlockPublicAcls": True,
        "BlockPublicPolicy": True,
        "IgnorePublicAcls": True,
        "RestrictPublicBuckets": True,
    }
    (rule,) = properties["LifecycleConfiguration"]["Rules"]
    assert (
        rule["ExpirationInDays"] == 365
        and rule["AbortIncompleteMultipartUpload"]["DaysAfterInitiation"] == 1
    )
    assert bucket["DeletionPolicy"] == "Retain"  # the results are the image's history
    (policy,) = _of_type(template, "AWS::S3::BucketPolicy").values()
    (deny,) = policy["Properties"]["PolicyDocument"]["Statement"]
    assert deny["Effect"] == "Deny" and deny["Condition"] == {
        "Bool": {"aws:SecureTransport": "false"}
    }


def test_the_outputs_say_where_the_results_are(template):
    outputs = template["Outputs"]
    command = json.dumps(outputs["PromotionGateResultsCommand"]["Value"])
    assert "aws s3 ls --recursive s3://" in command and PREFIX in command
    assert "logs -f job/llmops-promotion-gate-" in json.dumps(
        outputs["PromotionGateJobLogsCommand"]["Value"]
    )


def test_the_job_is_applied_after_its_role_service_account_and_run_id(template):
    _, job = _job(template)
    depends = set(job["_resource"].get("DependsOn", []))
    assert any(d.startswith("PromotionGateServiceAccount") for d in depends)
    assert any(d.startswith("PromotionGateJobPodIdentity") for d in depends)
    assert any(d.startswith("SmokeTestStart") for d in depends)


def test_the_gate_template_passes_cfn_lint(gate_assembly):
    assert (
        cfn_lint_errors(
            [gate_assembly.get_stack_by_name("promotion-gate-smoke").template_full_path], [REGION]
        )
        == []
    )


def test_image_key_is_the_digest_when_pinned_else_the_tag():
    assert (
        promotion_gate.image_key(f"vllm/vllm-openai:kimi-k3@sha256:{DIGEST}") == f"sha256-{DIGEST}"
    )
    assert promotion_gate.image_key("registry:5000/vllm/vllm-openai:v0.33.0") == "tag-v0.33.0"
    assert promotion_gate.image_key("registry:5000/vllm/vllm-openai") == "tag-latest"


# --- the pipeline -----------------------------------------------------------------------------------------------------


def test_a_stage_with_the_gate_deploys_it_before_the_next_wave(gate_pipeline):
    stack, assembly = gate_pipeline
    template = assembly.get_stack_by_name(stack.stack_name).template
    (pipeline,) = _of_type(template, "AWS::CodePipeline::Pipeline").values()
    names = [s["Name"] for s in pipeline["Properties"]["Stages"]]
    # then the gate's stack is in the first wave's stage (one stage per environment), whose failure stops the pipeline
    # before the next wave's stage
    (dev,) = [s for s in pipeline["Properties"]["Stages"] if s["Name"] == "promotion-gate"]
    assert "smoke.Deploy" in [a["Name"] for a in dev["Actions"]]
    assert names.index("promotion-gate") < names.index("smoke")
    smoke = (
        assembly.get_nested_assembly(f"assembly-{stack.stack_name}-promotion-gate")
        .get_stack_by_name("promotion-gate-smoke")
        .template
    )
    assert (
        _of_type(smoke, "AWS::CloudFormation::WaitCondition") and _settings(smoke)["Gate"]["Runs"]
    )
    # and no CodeBuild smoke step from outside the VPC replaces it
    assert not [a for a in dev["Actions"] if a["Name"].startswith("SmokeTest-")]


# --- the handler ------------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def handler():
    return smoke_handler


@pytest.fixture
def stubs(handler, monkeypatch):
    services = ("s3", "secretsmanager", "stepfunctions", "elbv2")
    with handler_with_stubbed_clients(smoke_aws, monkeypatch, services, region=REGION) as stubbers:
        yield stubbers


BUCKET = "gate-results"
RUN = "20261201T120000Z"
KEY = "k" * 64
SECRET = "llm-serving/gate/api-key"


def _gate_settings(gate_env) -> dict:
    settings = promotion_gate.gate_settings(
        gate_env.endpoint.gate, key_prefix=PREFIX, job_name="job", namespace="llm-serving"
    )
    return {**settings, "RunId": RUN, "Bucket": BUCKET}


def _event(gate_env, url: str, handle_url: str, **extra) -> dict:
    settings = {
        "Model": "Kimi-K3",
        "ApiKeySecret": SECRET,
        "RequestTimeoutSeconds": 10,
        "Scheme": "http",
        "Gate": _gate_settings(gate_env),
    }
    return {
        "settings": settings,
        "handleUrl": handle_url,
        "deadline": 2e9,
        "done": False,
        "url": url,
        **extra,
    }


def result(
    concurrency: int, *, ttft_p90: float = 450.0, rate: float = 400.0, failed: int = 0
) -> dict:
    """A result JSON of vllm bench serve with the keys ops_cli/bench.py reads."""
    figures = {
        f"p{p}_{m}_ms": value
        for p in (50, 90, 99)
        for m, value in (("ttft", ttft_p90), ("itl", 6.0), ("tpot", 6.0))
    }
    return {
        "completed": 10 - failed,
        "failed": failed,
        "max_concurrency": concurrency,
        "output_throughput": rate,
        "duration": 60.0,
        **figures,
    }


def _queue_results(stubs, results: dict[int, dict], *, read: bool = True) -> None:
    stubs["s3"].add_response(
        "list_objects_v2",
        {"Contents": [{"Key": f"{PREFIX}{RUN}/c{c}.json"} for c in results]},
        {"Bucket": BUCKET, "Prefix": f"{PREFIX}{RUN}/"},
    )
    for concurrency, body in results.items() if read else ():
        raw = json.dumps(body).encode()
        stubs["s3"].add_response(
            "get_object",
            {"Body": StreamingBody(io.BytesIO(raw), len(raw))},
            {"Bucket": BUCKET, "Key": f"{PREFIX}{RUN}/c{concurrency}.json"},
        )


def _queue_summary(stubs) -> None:
    stubs["s3"].add_response(
        "put_object",
        {},
        {
            "Bucket": BUCKET,
            "Key": f"{PREFIX}{RUN}/summary.json",
            "Body": ANY,
            "ContentType": "application/json",
        },
    )


def test_given_the_probe_passes_then_the_load_test_is_started_by_the_start_object(
    handler, stubs, gate_env
):
    with (
        openai_server(Behaviour(api_key=KEY, answer="The product is 102,947.")) as url,
        wait_condition_handle() as h,
    ):
        stubs["secretsmanager"].add_response(
            "get_secret_value", {"SecretString": KEY}, {"SecretId": SECRET}
        )
        stubs["s3"].add_response(
            "put_object",
            {},
            {
                "Bucket": BUCKET,
                "Key": f"{PREFIX}{RUN}/start",
                "Body": ANY,
                "ContentType": "application/json",
            },
        )
        state = handler.check(_event(gate_env, url, h.url, phase="probe"), None, now=lambda: 1e9)
    assert h.received == []  # no signal yet
    assert state["phase"] == "load-test" and state["done"] is False
    assert state["loadTestDeadline"] == 1e9 + gate_env.endpoint.gate.load_test_seconds()


def test_given_all_runs_meet_the_thresholds_then_the_gate_passes_and_writes_a_summary(
    handler, stubs, gate_env
):
    with wait_condition_handle() as h:
        _queue_results(
            stubs, {1: result(1, ttft_p90=430, rate=167), 4: result(4, ttft_p90=640, rate=417)}
        )
        _queue_summary(stubs)
        state = handler.check(
            _event(gate_env, "http://x", h.url, phase="load-test", loadTestDeadline=2e9),
            None,
            now=lambda: 1e9,
        )
    ((signal, _),) = h.received
    assert state["done"] is True and signal["Status"] == "SUCCESS"
    assert "concurrency 4: TTFT p90 640.0 ms, 417.0 output tok/s" in signal["Reason"]
    assert f"s3://{BUCKET}/{PREFIX}{RUN}/" in signal["Reason"]


def test_given_a_run_over_its_ttft_threshold_then_the_gate_fails_naming_the_number(
    handler, stubs, gate_env
):
    with wait_condition_handle() as h:
        _queue_results(
            stubs, {1: result(1, ttft_p90=430, rate=167), 4: result(4, ttft_p90=912, rate=300.5)}
        )
        _queue_summary(stubs)
        handler.check(
            _event(gate_env, "http://x", h.url, phase="load-test", loadTestDeadline=2e9),
            None,
            now=lambda: 1e9,
        )
    ((signal, _),) = h.received
    assert signal["Status"] == "FAILURE"
    assert "concurrency 4: TTFT p90 912 ms > 900 ms, 300.5 output tok/s < 350" in signal["Reason"]
    assert "concurrency 1" not in signal["Reason"]


def test_given_results_still_missing_then_the_check_waits_and_past_the_deadline_fails(
    handler, stubs, gate_env
):
    with wait_condition_handle() as h:
        _queue_results(stubs, {1: result(1)}, read=False)
        state = handler.check(
            _event(gate_env, "http://x", h.url, phase="load-test", loadTestDeadline=2e9),
            None,
            now=lambda: 1e9,
        )
        assert (
            state["done"] is False
            and "waiting for concurrency 4" in state["detail"]
            and h.received == []
        )
        _queue_results(stubs, {1: result(1), 4: {"llmops_gate_failed": "vllm bench serve exit=1"}})
        _queue_summary(stubs)
        handler.check(
            _event(gate_env, "http://x", h.url, phase="load-test", loadTestDeadline=2e9),
            None,
            now=lambda: 1e9,
        )
    ((signal, _),) = h.received
    assert (
        signal["Status"] == "FAILURE"
        and "concurrency 4: vllm bench serve exit=1" in signal["Reason"]
    )


def test_given_a_wrong_answer_then_the_gate_fails_before_the_load_test(handler, stubs, gate_env):
    with (
        openai_server(Behaviour(api_key=KEY, answer="It is 102847.")) as url,
        wait_condition_handle() as h,
    ):
        stubs["secretsmanager"].add_response(
            "get_secret_value", {"SecretString": KEY}, {"SecretId": SECRET}
        )
        state = handler.check(_event(gate_env, url, h.url, phase="probe"), None, now=lambda: 1e9)
    ((signal, _),) = h.received
    assert state["done"] is True and signal["Status"] == "FAILURE"
    assert "arithmetic: wrong answer: 102847, not 102947 (7919 x 13)" in signal["Reason"]


def test_given_a_malformed_tool_call_then_the_gate_fails_with_the_schema_problem(
    handler, stubs, gate_env
):
    call = {"name": "get_weather", "arguments": '{"city": "Paris", "unit": "kelvin"}'}
    with (
        openai_server(Behaviour(api_key=KEY, answer="102947", tool_call=call)) as url,
        wait_condition_handle() as h,
    ):
        stubs["secretsmanager"].add_response(
            "get_secret_value", {"SecretString": KEY}, {"SecretId": SECRET}
        )
        handler.check(_event(gate_env, url, h.url, phase="probe"), None, now=lambda: 1e9)
    ((signal, _),) = h.received
    assert signal["Status"] == "FAILURE"
    assert "tool call: the arguments do not match the tool's schema at unit" in signal["Reason"]


def test_the_start_resource_gives_the_job_and_the_check_the_same_run_id(handler, stubs):
    settings = {
        "LoadBalancerTags": {"a": "b"},
        "Scheme": "http",
        "Port": 8000,
        "Model": "Kimi-K3",
        "HealthyWithinSeconds": 60,
        "Gate": {"KeyPrefix": PREFIX},
    }
    machine = f"arn:aws:states:{REGION}:123456789012:stateMachine:poller"
    state = {
        "settings": {
            **settings,
            "Gate": {"KeyPrefix": PREFIX, "RunId": "20010909T014640Z", "Bucket": BUCKET},
        },
        "handleUrl": "https://handle",
        "deadline": 1e9 + 60,
        "done": False,
    }
    stubs["stepfunctions"].add_response(
        "start_execution",
        {"executionArn": f"{machine}:run", "startDate": 0},
        {"stateMachineArn": machine, "input": json.dumps(state)},
    )
    answer = handler.on_event(
        {
            "RequestType": "Create",
            "ResourceProperties": {
                "Settings": json.dumps(settings),
                "HandleUrl": "https://handle",
                "StateMachineArn": machine,
                "ResultsBucket": BUCKET,
            },
        },
        None,
        now=lambda: 1e9,
    )
    assert answer == {"PhysicalResourceId": f"{machine}:run", "Data": {"RunId": "20010909T014640Z"}}


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=5)
    | st.sampled_from(["celsius", "fahrenheit", "Paris", ""]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["city", "unit", "other"]), inner, max_size=3)
    ),
    max_leaves=6,
)


@settings(max_examples=300, deadline=None)
@given(_JSON)
def test_the_functions_schema_check_agrees_with_jsonschema(value):
    # the Lambda's subset validator accepts exactly what jsonschema accepts, for the tool's schema
    valid = jsonschema.Draft202012Validator(correctness.TOOL_PARAMETERS).is_valid(value)
    assert (correctness.subset_errors(value) == []) == valid


def test_given_the_gate_a_passed_smoke_test_does_not_signal_but_hands_over_to_the_probe(
    handler, stubs, gate_env
):
    from tests.cdk_constructs.test_deploy_time_smoke import _queue_load_balancer, _settings_for

    with openai_server(Behaviour(api_key=KEY)) as url, wait_condition_handle() as h:
        _queue_load_balancer(stubs)
        stubs["secretsmanager"].add_response(
            "get_secret_value", {"SecretString": KEY}, {"SecretId": "llm-serving/test/api-key"}
        )
        settings = {**_settings_for(url), "Gate": _gate_settings(gate_env)}
        state = handler.check(
            {"settings": settings, "handleUrl": h.url, "deadline": 2e9, "done": False},
            None,
            now=lambda: 1e9,
        )
    assert h.received == []
    assert state["phase"] == "probe" and state["done"] is False and state["url"] == url


# --- measured beside published ----------------------------------------------------------------------------------------


def _gate_document(**run) -> dict:
    document = yaml.safe_load((TEST_CONFIGS / "promotion-gate.yaml").read_text(encoding="utf-8"))
    document["endpoint"]["promotion_gate"]["runs"][0].update(run)
    return document


def test_within_percent_of_published_needs_a_published_row_of_the_same_configuration():
    # given a gate run that asks for "within 10 % of published" on a profile nothing is published for
    with pytest.raises(ConfigError) as raised:
        parse_environment(_gate_document(within_percent_of_published=10), name="gate")
    # then it is refused at that field, naming the configuration and the concurrencies that have rows
    (issue,) = raised.value.issues
    assert issue.field == "endpoint.promotion_gate.runs[0].within_percent_of_published"
    assert (
        "b300, recipe profile (single_node_tp), no opt-in feature, 8192 in / 1024 out"
        in issue.problem
    )
    assert "published concurrencies for it: none" in issue.problem


def test_the_gate_carries_the_published_row_and_fails_a_run_too_far_below_it(handler):
    from deployment_config import published

    # given the published configuration (B300, recipe, spec_decoding) with "within 10 %" at concurrency 1
    document = _gate_document(within_percent_of_published=10)
    document["model"]["features"] = ["spec_decoding"]
    document["model"]["speculator_size_gb"] = 8
    env = parse_environment(document, name="gate")
    gate = env.endpoint.gate
    key = published.key_of(env, input_len=gate.input_len, output_len=gate.output_len)
    settings = promotion_gate.gate_settings(
        gate,
        key_prefix=PREFIX,
        job_name="job",
        namespace="llm-serving",
        published=published.rows_for("kimi-k3", key),
    )
    run = settings["Runs"][0]
    assert run["Published"]["output_tokens_per_s"] == 183 and run["WithinPercentOfPublished"] == 10
    # when the check function evaluates a run at 150 tok/s (18 % below 183) and one at 170 tok/s (7 % below)
    slow = smoke_gate.evaluate_run(run, result(1, rate=150.0), 0)
    near = smoke_gate.evaluate_run(run, result(1, rate=170.0), 0)
    # then the first fails naming the published figure and its source, the second passes; both carry the row
    assert not slow["ok"] and "more than 10 % below the published 183" in slow["problems"][0]
    assert near["ok"] and near["published"]["ttft_ms"] == 376


@pytest.mark.parametrize("replicas", [1, 2])
def test_with_several_replicas_the_gate_does_not_report_an_acceptance_from_two_servers(
    replicas, handler, stubs
):
    from types import SimpleNamespace

    # given the gate of an environment with speculative decoding and `replicas` vLLM replicas, its settings as the
    # construct writes them
    document = _gate_document()
    document["model"]["features"] = ["spec_decoding"]
    document["model"]["speculator_size_gb"] = 8
    document["endpoint"]["replicas"] = replicas
    document["capacity"]["instance_count"] = replicas
    env = parse_environment(document, name="gate")
    construct = SimpleNamespace(
        env_config=env,
        gate=env.endpoint.gate,
        key_prefix=PREFIX,
        namespace="llm-serving",
        job_name=promotion_gate.PromotionGate.job_name,
    )
    gate = {**promotion_gate.PromotionGate.settings(construct, ""), "RunId": RUN, "Bucket": BUCKET}
    # when the check function collects runs whose vllm bench serve results carry an acceptance
    spec = {"spec_decode_acceptance_rate": 61.25, "spec_decode_acceptance_length": 5.9}
    runs = {r["Concurrency"]: result(r["Concurrency"], rate=420.0) | spec for r in gate["Runs"]}
    _queue_results(stubs, runs)
    _queue_summary(stubs)
    written = []
    stubs["s3"].client.meta.events.register(
        "before-parameter-build.s3.PutObject", lambda params, **_: written.append(params["Body"])
    )
    with wait_condition_handle() as h:
        event = {**_event(env, "http://x", h.url, phase="load-test", loadTestDeadline=2e9)}
        event["settings"]["Gate"] = gate
        handler.check(event, None, now=lambda: 1e9)
    summary = json.loads(written[-1])
    # then with one replica the summary has it; with two its /metrics readings went through the Service and need not
    # be of one server: the summary says so instead of a figure
    for run in summary["runs"]:
        if replicas == 1:
            assert run["spec_decode"]["acceptance_rate_percent"] == 61.2
            assert "spec_decode_not_measured" not in run
        else:
            assert "spec_decode" not in run
            assert run["spec_decode_not_measured"].startswith(
                "2 replicas: /metrics before and after"
            )
