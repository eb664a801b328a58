"""The smoke test where the endpoint is (endpoint.deploy_time_smoke_test): the stack NAME-smoke, its timeouts against the
startup budget, its function in the VPC with least privilege, its place after the serving stack; and the handler's
logic against botocore Stubbers, a local OpenAI-compatible server and a local wait condition handle.

One synthesis, with cdk-nag, shared with tests/cdk_constructs/test_promotion_gate.py (tests/cdk_constructs/conftest.py):
a pipeline whose waves after the gate's are the EKS example, then the HyperPod one, each with the smoke test on; its
stages hold every stack of each, as a deploy builds them.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from cdk_constructs import deploy_time_smoke_test as construct
from cdk_constructs.deploy_time_smoke_test.runtime import aws as smoke_aws
from cdk_constructs.deploy_time_smoke_test.runtime import handler as smoke_handler
from deployment_config.sizing import startup_budget_seconds
from tests.cfn_lint import cfn_lint_errors
from tests.conftest import bare_app
from tests.lambda_handlers import handler_with_stubbed_clients
from tests.ops_cli.openai_server import Behaviour, openai_server
from tests.self_signed import self_signed

REGION = "us-west-2"
#: Kimi-K3's startup budget (the startup probe's): 113 minutes for vLLM's engine (the Hub path, from the measured load
#: rate, deployment_config/startup_rates.py) and 5 more.
BUDGET_SECONDS = 118 * 60


@pytest.fixture(scope="module")
def eks_env(smoke_eks_env):
    return smoke_eks_env


@pytest.fixture(scope="module")
def hyperpod_env(smoke_hyperpod_env):
    return smoke_hyperpod_env


@pytest.fixture(scope="module")
def smoke_pipeline(smoke_and_gate_pipeline):
    """The EKS example's wave, then the HyperPod one's, each with the deploy-time smoke test on (after the promotion
    gate's wave, which tests/cdk_constructs/test_promotion_gate.py reads: tests/cdk_constructs/conftest.py)."""
    stack, assembly = smoke_and_gate_pipeline
    return stack, assembly.get_stack_by_name(stack.stack_name).template, assembly


@pytest.fixture(scope="module")
def smoke_assembly(smoke_pipeline):
    """The stacks of the pipeline's two stages, by stack name (the module's one synthesis)."""
    stack, _, assembly = smoke_pipeline
    return {
        s.stack_name: s
        for env in ("smoke", "smoke-hyperpod")
        for s in assembly.get_nested_assembly(f"assembly-{stack.stack_name}-{env}").stacks
    }


def _template(assembly, name: str) -> dict:
    return assembly[name].template


def _of_type(template: dict, resource_type: str) -> dict[str, dict]:
    return {k: r for k, r in template["Resources"].items() if r["Type"] == resource_type}


def _settings(template: dict) -> dict:
    (start,) = _of_type(template, construct.RESOURCE_TYPE).values()
    return json.loads(start["Properties"]["Settings"])


def _function(template: dict, handler: str) -> tuple[str, dict]:
    return next(
        (k, r)
        for k, r in _of_type(template, "AWS::Lambda::Function").items()
        if r["Properties"].get("Handler") == handler
    )


# --- the stack --------------------------------------------------------------------------------------------------------


def test_the_smoke_test_is_off_by_default_so_a_deploy_before_the_capacity_is_active_is_not_held(
    default_env,
):
    # given the example environment, which does not set endpoint.deploy_time_smoke_test
    assert default_env.endpoint.deploy_time_smoke_test is False


def test_given_the_smoke_test_when_synthesized_then_it_waits_long_enough_for_the_startup_budget(
    smoke_assembly, eks_env
):
    template = _template(smoke_assembly, "smoke-smoke")
    budget = startup_budget_seconds(eks_env.model.weight_size_gb)
    assert budget == BUDGET_SECONDS
    # then the endpoint may take the whole budget and 20 minutes for its load balancer before the check gives up
    settings = _settings(template)
    assert settings["HealthyWithinSeconds"] == budget + 20 * 60
    # and the wait condition (not a custom resource: CloudFormation waits for one at most an hour) outlasts that by a
    # poll, one whole smoke test and the signal; the poller stops when the wait condition does
    (wait,) = _of_type(template, "AWS::CloudFormation::WaitCondition").values()
    timeout = int(wait["Properties"]["Timeout"])
    assert timeout == settings["HealthyWithinSeconds"] + 60 + 14 * 60 + 5 * 60
    assert timeout > 3600 and timeout <= construct.MAX_WAIT_CONDITION_SECONDS
    (machine,) = _of_type(template, "AWS::StepFunctions::StateMachine").values()
    definition = json.dumps(machine["Properties"]["DefinitionString"])
    assert f'\\"TimeoutSeconds\\":{timeout}' in definition
    # and the custom resource only starts the poller: the Provider framework has no isComplete (no waiter of its own)
    assert len(_of_type(template, "AWS::StepFunctions::StateMachine")) == 1


def test_a_budget_a_wait_condition_cannot_wait_for_is_refused_at_synthesis():
    with pytest.raises(ValueError, match="more than a wait condition's 43200"):
        construct.timeouts(12 * 3600)


def test_the_check_runs_in_the_private_subnets_with_a_group_that_only_reaches_out(
    smoke_assembly, eks_env
):
    template = _template(smoke_assembly, "smoke-smoke")
    _, check = _function(template, f"{construct.HANDLER_MODULE}.check")
    vpc_config = check["Properties"]["VpcConfig"]
    subnets = json.dumps(vpc_config["SubnetIds"])
    assert (
        subnets.count("Fn::ImportValue")
        == len(eks_env.availability_zones)
        == subnets.count("privateSubnet")
    )
    (group_id,) = vpc_config["SecurityGroupIds"]
    group = template["Resources"][group_id["Fn::GetAtt"][0]]["Properties"]
    assert "SecurityGroupIngress" not in group
    assert {(r["CidrIp"], r["FromPort"], r["ToPort"]) for r in group["SecurityGroupEgress"]} == {
        ("0.0.0.0/0", 443, 443),
        (eks_env.vpc_cidr, 8000, 8000),
    }


def _statements(template: dict, function_id: str) -> list[dict]:
    role = template["Resources"][function_id]["Properties"]["Role"]["Fn::GetAtt"][0]
    return [
        s
        for p in _of_type(template, "AWS::IAM::Policy").values()
        if {"Ref": role} in p["Properties"]["Roles"]
        for s in p["Properties"]["PolicyDocument"]["Statement"]
    ]


def test_the_check_may_read_the_load_balancers_and_exactly_the_environments_api_key(smoke_assembly):
    template = _template(smoke_assembly, "smoke-smoke")
    check_id, check = _function(template, f"{construct.HANDLER_MODULE}.check")
    statements = {s.get("Sid"): s for s in _statements(template, check_id)}
    assert set(statements) == {"FindTheLoadBalancer", "ReadTheApiKey", "DecryptTheApiKey"}
    assert statements["FindTheLoadBalancer"]["Action"] == [
        "elasticloadbalancing:DescribeLoadBalancers",
        "elasticloadbalancing:DescribeTags",
    ]
    secret = json.dumps(statements["ReadTheApiKey"]["Resource"])
    assert statements["ReadTheApiKey"]["Action"] == "secretsmanager:GetSecretValue"
    assert ":secret:llm-serving/smoke/api-key-??????" in secret
    decrypt = statements["DecryptTheApiKey"]
    assert decrypt["Action"] == "kms:Decrypt"
    assert decrypt["Condition"]["StringEquals"] == {
        "kms:ViaService": f"secretsmanager.{REGION}.amazonaws.com"
    }
    assert (
        json.dumps(decrypt["Condition"]["StringLike"]["kms:EncryptionContext:SecretARN"]) == secret
    )
    # and the settings name that secret, the served model and the model vLLM must have loaded
    settings = _settings(template)
    assert (
        settings["ApiKeySecret"],
        settings["KeyRequired"],
        settings["Model"],
        settings["ModelPath"],
    ) == ("llm-serving/smoke/api-key", True, "Kimi-K3", "moonshotai/Kimi-K3")
    assert (settings["Scheme"], settings["Port"], settings["TlsVerification"]) == (
        "http",
        8000,
        "system",
    )
    assert settings["LoadBalancerTags"] == {
        "kubernetes.io/service-name": "llm-serving/vllm",
        "kubernetes.io/cluster/smoke-llm": "owned",
    }


def test_the_smoke_stack_deploys_after_the_serving_and_observability_stacks(
    smoke_assembly, eks_env
):
    from aws_cdk.cx_api import CloudFormationStackArtifact

    artifact = smoke_assembly["smoke-smoke"]
    # by stack name: in a stage, an artifact's id is its construct path, not its name
    dependencies = {
        d.stack_name for d in artifact.dependencies if isinstance(d, CloudFormationStackArtifact)
    }
    assert {eks_env.stack_name("serving"), eks_env.stack_name("observability")} <= dependencies


def test_on_hyperpod_the_check_finds_the_operators_alb_over_https(smoke_assembly):
    settings = _settings(_template(smoke_assembly, "smoke-hyperpod-smoke"))
    assert settings["LoadBalancerTags"] == {"elbv2.k8s.aws/cluster": "smoke-hyperpod-llm"}
    assert (settings["Scheme"], settings["Port"], settings["TlsVerification"]) == (
        "https",
        443,
        "listener-certificate",
    )
    assert settings["ModelPath"] == "/opt/ml/model"


def test_the_smoke_templates_pass_cfn_lint(smoke_assembly):
    templates = [
        smoke_assembly[name].template_full_path for name in ("smoke-smoke", "smoke-hyperpod-smoke")
    ]
    assert cfn_lint_errors(templates, [REGION]) == []


def test_a_change_of_what_is_deployed_makes_a_new_wait_condition_so_the_smoke_test_runs_again(
    eks_env, tmp_path
):
    from charts.serving_spec import serving_spec_for
    from stacks.network_stack import NetworkStack
    from stacks.smoke_stack import SmokeStack

    app = bare_app(outdir=str(tmp_path))
    network = NetworkStack(app, "network", env_config=eks_env)
    spec = serving_spec_for(eks_env)
    ids = [
        SmokeStack(
            app, f"smoke{i}", env_config=eks_env, vpc=network.vpc, spec=spec, manifests=manifests
        )
        for i, manifests in enumerate(
            ([{"image": "vllm:1"}], [{"image": "vllm:1"}], [{"image": "vllm:2"}])
        )
    ]
    logical = [stack.get_logical_id(stack.smoke_test.wait_condition) for stack in ids]
    assert logical[0] == logical[1] != logical[2]


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Path:
    """The folder the check function's zip is made of, staged as a deploy stages it: the construct's own code asset in
    a stack of its own (the module's synthesis skips asset staging); the function's S3Key is ``HASH.zip``, its folder
    ``asset.HASH``."""
    import aws_cdk as cdk
    from aws_cdk import aws_lambda as lambda_

    app = bare_app(outdir=str(tmp_path_factory.mktemp("bundle.out")))
    stack = cdk.Stack(app, "bundle")
    lambda_.Function(
        stack,
        "Check",
        runtime=construct.RUNTIME,
        code=construct.bundle(),
        handler=f"{construct.HANDLER_MODULE}.check",
    )
    assembly = app.synth()
    template = assembly.get_stack_by_name("bundle").template
    _, check = _function(template, f"{construct.HANDLER_MODULE}.check")
    return (
        Path(assembly.directory)
        / f"asset.{check['Properties']['Code']['S3Key'].removesuffix('.zip')}"
    )


def test_the_bundle_is_the_probe_package_and_the_runtime_at_their_own_paths(bundle):
    # given the check function's code, as a deploy stages it
    files = {str(f.relative_to(bundle)) for f in bundle.rglob("*") if f.is_file()}
    # then it holds the endpoint probe whole, as a package, and this construct's runtime beside the destroy waiter's
    # handler: the project's files at their own paths, nothing copied under another name, no constructs, no bytecode
    project = Path(construct.__file__).parents[2]
    assert files == {
        str(f.relative_to(project))
        for f in (
            *(project / "endpoint_probe").glob("*.py"),
            *(project / "cdk_constructs/deploy_time_smoke_test/runtime").glob("*.py"),
            project / "cdk_constructs/destroy_waiter/runtime/handler.py",
        )
    }
    assert "endpoint_probe/__init__.py" in files
    assert all((bundle / f).read_bytes() == (project / f).read_bytes() for f in files)


def test_the_handler_imports_from_the_bundle_alone(bundle):
    # given a Python that sees only the bundle and the installed packages (-I: not the project's folder)
    code = (
        "import importlib, sys; sys.path.insert(0, sys.argv[1]); module = importlib.import_module(sys.argv[2]); "
        "assert all(callable(getattr(module, f)) for f in ('check', 'on_event', 'report_error')); "
        "print('aws_cdk' in sys.modules, 'ops_cli' in sys.modules, 'deployment_config' in sys.modules); "
        "print(*sorted(m.__file__ for n, m in sys.modules.items() "
        "if n.split('.')[0] in ('endpoint_probe', 'cdk_constructs') and getattr(m, '__file__', None)), sep='\\n')"
    )
    # when it imports the handler the function names, as the Lambda runtime does
    result = subprocess.run(
        [sys.executable, "-I", "-c", code, str(bundle), construct.HANDLER_MODULE],
        capture_output=True,
        text=True,
        timeout=60,
    )
    # then every module comes from the bundle, and neither the CDK nor the CLI nor the configuration is imported
    assert result.returncode == 0, result.stderr
    flags, *loaded = result.stdout.splitlines()
    assert flags == "False False False"
    assert loaded and all(path.startswith(str(bundle)) for path in loaded)


def test_given_the_smoke_test_in_the_stage_the_pipeline_relies_on_it_and_reads_no_api_key(
    smoke_pipeline, smoke_assembly, eks_env
):
    stack, template, _ = smoke_pipeline
    serving = smoke_assembly["smoke-serving"].template
    # then the stage deploys NAME-smoke, whose failure stops the stage before the next wave
    assert eks_env.stack_name("smoke") in {
        s.stack_name for s in stack.stages["smoke"].environment.stacks
    }
    (pipeline,) = _of_type(template, "AWS::CodePipeline::Pipeline").values()
    (stage,) = [s for s in pipeline["Properties"]["Stages"] if s["Name"] == "smoke"]
    names = [a["Name"] for a in stage["Actions"]]
    assert "smoke.Deploy" in names
    # and no CodeBuild step from outside the VPC, nor a grant of the API key to the pipeline's account
    assert stack.smoke_tests == {}
    assert not [n for n in names if n.startswith("SmokeTest-")]
    assert not _of_type(serving, "AWS::SecretsManager::ResourcePolicy")


def test_a_hyperpod_stage_tests_its_own_endpoint_from_its_vpc(
    smoke_pipeline, hyperpod_env, tmp_path
):
    stack, template, _ = smoke_pipeline
    # given the HyperPod example in a wave, with its deploy-time smoke test: its stage holds its stacks and the smoke stack
    names = {s.stack_name for s in stack.stages[hyperpod_env.name].environment.stacks}
    assert names == {
        hyperpod_env.stack_name(unit)
        for unit in (
            "network",
            "cluster",
            "hyperpod-prereqs",
            "hyperpod",
            "inference-operator",
            "endpoint",
            "observability",
            "smoke",
        )
    }
    # and no CodeBuild step follows it (that step would need the cluster's private API)
    (pipeline,) = _of_type(template, "AWS::CodePipeline::Pipeline").values()
    (stage,) = [s for s in pipeline["Properties"]["Stages"] if s["Name"] == hyperpod_env.name]
    assert "smoke.Deploy" in [a["Name"] for a in stage["Actions"]]  # its NAME-smoke stack
    assert (
        not [a for a in stage["Actions"] if a["Name"].startswith("SmokeTest-")]
        and stack.smoke_tests == {}
    )
    # and the pipeline's template passes cfn-lint (the stage's own stacks are the direct deploy's, linted elsewhere)
    (path := tmp_path / "pipeline.template.json").write_text(json.dumps(template))
    assert cfn_lint_errors([str(path)], [REGION]) == []


# --- the handler ------------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def handler():
    return smoke_handler


@pytest.fixture
def stubs(handler, monkeypatch):
    services = ("elbv2", "acm", "secretsmanager", "stepfunctions")
    with handler_with_stubbed_clients(smoke_aws, monkeypatch, services, region=REGION) as stubbers:
        yield stubbers


class Signals:
    """A local stand-in for the wait condition handle's presigned URL: records every PUT."""

    def __init__(self) -> None:
        self.received: list[tuple[dict, str | None]] = []
        self.url = ""


@contextmanager
def wait_condition_handle():
    signals = Signals()

    class Handle(BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

        def do_PUT(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            signals.received.append((json.loads(body), self.headers.get("Content-Type")))
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handle)
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    signals.url = f"http://127.0.0.1:{server.server_address[1]}/waitcondition?X-Amz-Signature=x"
    try:
        yield signals
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


TAGS = {"kubernetes.io/service-name": "llm-serving/vllm", "kubernetes.io/cluster/test-llm": "owned"}
ARN = f"arn:aws:elasticloadbalancing:{REGION}:123456789012:loadbalancer/net/vllm/0123456789abcdef"
SECRET = "llm-serving/test/api-key"
KEY = "k" * 64


def _settings_for(url: str) -> dict:
    port = int(url.rsplit(":", 1)[1])
    return {
        "LoadBalancerTags": TAGS,
        "Scheme": "http",
        "Port": port,
        "Model": "Kimi-K3",
        "ModelPath": "moonshotai/Kimi-K3",
        "ApiKeySecret": SECRET,
        "KeyRequired": True,
        "KeyOnEveryPath": True,
        "TlsVerification": "system",
        "HealthyWithinSeconds": BUDGET_SECONDS + 1200,
        "RequestTimeoutSeconds": 10,
    }


def _queue_load_balancer(stubs, state: str = "active") -> None:
    stubs["elbv2"].add_response(
        "describe_load_balancers",
        {
            "LoadBalancers": [
                {
                    "LoadBalancerArn": ARN,
                    "LoadBalancerName": "vllm",
                    "DNSName": "127.0.0.1",
                    "Type": "network",
                    "State": {"Code": state},
                }
            ]
        },
        {},
    )
    stubs["elbv2"].add_response(
        "describe_tags",
        {
            "TagDescriptions": [
                {"ResourceArn": ARN, "Tags": [{"Key": k, "Value": v} for k, v in TAGS.items()]}
            ]
        },
        {"ResourceArns": [ARN]},
    )


def _event(settings: dict, handle_url: str, deadline: float) -> dict:
    return {"settings": settings, "handleUrl": handle_url, "deadline": deadline, "done": False}


def test_given_a_healthy_endpoint_that_passes_when_checked_then_the_wait_condition_gets_success(
    handler, stubs
):
    with openai_server(Behaviour(api_key=KEY)) as url, wait_condition_handle() as handle:
        _queue_load_balancer(stubs)
        stubs["secretsmanager"].add_response(
            "get_secret_value", {"SecretString": KEY}, {"SecretId": SECRET}
        )
        result = handler.check(
            _event(_settings_for(url), handle.url, deadline=2e9), None, now=lambda: 1e9
        )
    assert result["done"] is True
    ((signal, content_type),) = handle.received
    assert content_type == ""  # the presigned URL is signed for an empty Content-Type
    assert signal["Status"] == "SUCCESS" and signal["UniqueId"] == "smoke-test"
    assert "passed, first token after" in signal["Reason"]
    data = json.loads(signal["Data"])
    assert [r["mode"] for r in data["requests"]] == ["no key", "models", "plain", "streaming"]
    assert KEY not in json.dumps(signal)


def test_given_an_endpoint_that_fails_the_smoke_test_then_the_wait_condition_fails_with_its_problems(
    handler, stubs
):
    # given vLLM started without --model: it serves its small default model under the served name
    with (
        openai_server(Behaviour(api_key=KEY, root="Qwen/Qwen3-0.6B", drop_done=True)) as url,
        wait_condition_handle() as handle,
    ):
        _queue_load_balancer(stubs)
        stubs["secretsmanager"].add_response(
            "get_secret_value", {"SecretString": KEY}, {"SecretId": SECRET}
        )
        result = handler.check(
            _event(_settings_for(url), handle.url, deadline=2e9), None, now=lambda: 1e9
        )
    assert result["done"] is True
    ((signal, _),) = handle.received
    assert signal["Status"] == "FAILURE"
    # then the reason CloudFormation shows is the smoke test's own problem lines
    assert (
        "models: 'Kimi-K3' is served from 'Qwen/Qwen3-0.6B', not 'moonshotai/Kimi-K3'"
        in signal["Reason"]
    )
    assert "streaming: the stream did not end with [DONE]" in signal["Reason"]


def test_given_a_starting_endpoint_then_the_check_polls_again_without_a_signal(handler, stubs):
    with openai_server(Behaviour(healthy=False)) as url, wait_condition_handle() as handle:
        _queue_load_balancer(stubs)
        result = handler.check(
            _event(_settings_for(url), handle.url, deadline=2e9), None, now=lambda: 1e9
        )
    assert result["done"] is False and "/health answered HTTP 503" in result["detail"]
    assert handle.received == []


def test_given_no_load_balancer_yet_then_the_check_waits_for_it(handler, stubs):
    stubs["elbv2"].add_response("describe_load_balancers", {"LoadBalancers": []}, {})
    result = handler.check(
        _event(_settings_for("http://127.0.0.1:1"), "http://127.0.0.1:1/", deadline=2e9),
        None,
        now=lambda: 1e9,
    )
    assert result["done"] is False and result["detail"].startswith("no load balancer tagged")


def test_given_the_budget_is_spent_then_the_wait_condition_fails_with_what_was_seen_last(
    handler, stubs
):
    with wait_condition_handle() as handle:
        _queue_load_balancer(stubs, state="provisioning")
        result = handler.check(
            _event(_settings_for("http://127.0.0.1:1"), handle.url, deadline=1e9),
            None,
            now=lambda: 1e9 + 1,
        )
    assert result["done"] is True
    ((signal, _),) = handle.received
    assert signal["Status"] == "FAILURE"
    assert signal["Reason"].startswith(
        f"the endpoint did not become healthy within {(BUDGET_SECONDS + 1200) // 60} minutes"
    )
    assert "load balancer vllm is provisioning, not active" in signal["Reason"]


def test_the_custom_resource_starts_the_poller_with_the_deadline_and_does_nothing_on_delete(
    handler, stubs
):
    settings = _settings_for("http://127.0.0.1:8000")
    properties = {
        "Settings": json.dumps(settings),
        "HandleUrl": "https://handle",
        "StateMachineArn": "arn:sm",
    }
    machine = f"arn:aws:states:{REGION}:123456789012:stateMachine:poller"
    state = {
        "settings": settings,
        "handleUrl": "https://handle",
        "deadline": 1e9 + BUDGET_SECONDS + 1200,
        "done": False,
    }
    stubs["stepfunctions"].add_response(
        "start_execution",
        {"executionArn": f"{machine}:run", "startDate": 0},
        {"stateMachineArn": machine, "input": json.dumps(state)},
    )
    properties["StateMachineArn"] = machine
    result = handler.on_event(
        {"RequestType": "Create", "ResourceProperties": properties}, None, now=lambda: 1e9
    )
    assert result == {"PhysicalResourceId": f"{machine}:run"}
    assert handler.on_event(
        {"RequestType": "Delete", "PhysicalResourceId": "x", "ResourceProperties": properties}, None
    ) == {"PhysicalResourceId": "x"}


def test_an_error_of_the_check_itself_fails_the_wait_condition_at_once(handler):
    with wait_condition_handle() as handle:
        handler.report_error(
            {"handleUrl": handle.url, "error": {"Error": "KeyError", "Cause": "'DNSName'"}}, None
        )
    ((signal, _),) = handle.received
    assert signal["Status"] == "FAILURE" and "KeyError" in signal["Reason"]


# --- HyperPod: the certificate on the operator's load balancer, from ELBv2 and ACM -------------------------------------

#: Made up: the names the operator's certificate covers are in the InferenceEndpointConfig's status, not documented.
OPERATOR_DOMAIN = "kimik3.hyperpod.example.internal"
CERTIFICATE_ARN = (
    f"arn:aws:acm:{REGION}:123456789012:certificate/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
)


@pytest.fixture(scope="module")
def operator_certificate():
    return self_signed(OPERATOR_DOMAIN)


def _hyperpod_settings(url: str) -> dict:
    return {**_settings_for(url), "Scheme": "https", "TlsVerification": "listener-certificate"}


def _queue_listener_certificate(
    stubs, port: int, pem: bytes | None, protocol: str = "HTTPS"
) -> None:
    listener = {
        "ListenerArn": ARN.replace(":loadbalancer/", ":listener/") + "/0123456789abcdef",
        "LoadBalancerArn": ARN,
        "Port": port,
        "Protocol": protocol,
    }
    if pem is not None:
        listener["Certificates"] = [{"CertificateArn": CERTIFICATE_ARN}]
    stubs["elbv2"].add_response(
        "describe_listeners", {"Listeners": [listener]}, {"LoadBalancerArn": ARN}
    )
    if pem is None:
        return
    stubs["acm"].add_response(
        "describe_certificate",
        {
            "Certificate": {
                "CertificateArn": CERTIFICATE_ARN,
                "DomainName": OPERATOR_DOMAIN,
                "SubjectAlternativeNames": [OPERATOR_DOMAIN],
                "Type": "IMPORTED",
                "Status": "ISSUED",
            }
        },
        {"CertificateArn": CERTIFICATE_ARN},
    )
    stubs["acm"].add_response(
        "get_certificate", {"Certificate": pem.decode()}, {"CertificateArn": CERTIFICATE_ARN}
    )


def test_on_hyperpod_the_endpoint_is_verified_against_the_certificate_acm_holds_for_its_listener(
    handler, stubs, operator_certificate, tmp_path
):
    # given the operator's ALB presenting its self-signed certificate, which ACM holds for the listener
    server = operator_certificate.server_context(tmp_path)
    with (
        openai_server(Behaviour(api_key=KEY), tls=server) as url,
        wait_condition_handle() as handle,
    ):
        _queue_load_balancer(stubs)
        _queue_listener_certificate(stubs, int(url.rsplit(":", 1)[1]), operator_certificate.pem)
        stubs["secretsmanager"].add_response(
            "get_secret_value", {"SecretString": KEY}, {"SecretId": SECRET}
        )
        # when the check runs
        result = handler.check(
            _event(_hyperpod_settings(url), handle.url, deadline=2e9), None, now=lambda: 1e9
        )
    # then it connected to the load balancer's address, verified the certificate for the name it covers, and passed
    assert result["done"] is True
    ((signal, _),) = handle.received
    assert signal["Status"] == "SUCCESS", signal["Reason"]
    assert set(server.sni_names) == {OPERATOR_DOMAIN}


def test_on_hyperpod_an_endpoint_presenting_another_certificate_fails(
    handler, stubs, operator_certificate, tmp_path
):
    # given an endpoint presenting a certificate for the same name that is not the one on the listener
    impostor = self_signed(OPERATOR_DOMAIN).server_context(tmp_path)
    with (
        openai_server(Behaviour(api_key=KEY), tls=impostor) as url,
        wait_condition_handle() as handle,
    ):
        _queue_load_balancer(stubs)
        _queue_listener_certificate(stubs, int(url.rsplit(":", 1)[1]), operator_certificate.pem)
        # when the check runs past its deadline
        result = handler.check(
            _event(_hyperpod_settings(url), handle.url, deadline=1e9), None, now=lambda: 1e9 + 1
        )
    # then no request got through, and the stack fails with the verification error
    assert result["done"] is True
    ((signal, _),) = handle.received
    assert signal["Status"] == "FAILURE"
    assert f"its TLS certificate is not valid for '{OPERATOR_DOMAIN}'" in signal["Reason"]


def test_on_hyperpod_a_listener_without_its_certificate_yet_is_waited_for(handler, stubs):
    _queue_load_balancer(stubs)
    _queue_listener_certificate(stubs, 443, None, protocol="HTTP")
    settings = {**_hyperpod_settings("https://127.0.0.1:443"), "Port": 443}
    result = handler.check(
        _event(settings, "http://127.0.0.1:1/", deadline=2e9), None, now=lambda: 1e9
    )
    assert result["done"] is False
    assert (
        result["detail"]
        == "load balancer vllm has no HTTPS listener with a certificate on port 443 yet"
    )


def test_on_hyperpod_the_check_may_read_listeners_and_the_accounts_certificates_and_nothing_more(
    smoke_assembly,
):
    template = _template(smoke_assembly, "smoke-hyperpod-smoke")
    check_id, _ = _function(template, f"{construct.HANDLER_MODULE}.check")
    statements = {s.get("Sid"): s for s in _statements(template, check_id)}
    assert (
        statements["ReadTheListenersCertificate"]["Action"]
        == "elasticloadbalancing:DescribeListeners"
    )
    acm = statements["ReadTheCertificateFromAcm"]
    assert acm["Action"] == ["acm:DescribeCertificate", "acm:GetCertificate"]
    assert json.dumps(acm["Resource"]).endswith(':certificate/*"]]}')
    # and the EKS check function has neither (its certificate, if any, is verified by the system's CAs)
    eks = {
        s.get("Sid")
        for s in _statements(
            _template(smoke_assembly, "smoke-smoke"),
            _function(
                _template(smoke_assembly, "smoke-smoke"), f"{construct.HANDLER_MODULE}.check"
            )[0],
        )
    }
    assert not eks & {"ReadTheListenersCertificate", "ReadTheCertificateFromAcm"}


@pytest.mark.parametrize(
    "code, status, fails_at_once",
    [
        ("AccessDeniedException", 400, True),
        ("ThrottlingException", 400, False),
        ("ResourceNotFoundException", 400, False),
        ("InternalFailure", 500, False),
    ],
)
def test_on_hyperpod_an_acm_error_waiting_cannot_mend_fails_at_once(
    handler, stubs, code, status, fails_at_once
):
    # given the listener names its certificate, and ACM answers DescribeCertificate with an error
    _queue_load_balancer(stubs)
    stubs["elbv2"].add_response(
        "describe_listeners",
        {
            "Listeners": [
                {
                    "ListenerArn": ARN.replace(":loadbalancer/", ":listener/")
                    + "/0123456789abcdef",
                    "LoadBalancerArn": ARN,
                    "Port": 443,
                    "Protocol": "HTTPS",
                    "Certificates": [{"CertificateArn": CERTIFICATE_ARN}],
                }
            ]
        },
        {"LoadBalancerArn": ARN},
    )
    stubs["acm"].add_client_error(
        "describe_certificate",
        service_error_code=code,
        http_status_code=status,
        expected_params={"CertificateArn": CERTIFICATE_ARN},
    )
    settings = {**_hyperpod_settings("https://127.0.0.1:443"), "Port": 443}
    with wait_condition_handle() as handle:
        # when the check runs long before its deadline
        result = handler.check(_event(settings, handle.url, deadline=2e9), None, now=lambda: 1e9)
    # then access denied fails the stack now, with the fix; what may pass is waited for
    assert result["done"] is fails_at_once
    if fails_at_once:
        ((signal, _),) = handle.received
        assert (
            signal["Status"] == "FAILURE"
            and code in signal["Reason"]
            and "acm:GetCertificate" in signal["Reason"]
        )
    else:
        assert handle.received == [] and code in result["detail"]
