"""llmops smoke-test against a local OpenAI-compatible server, and the waits with a fake clock."""

from __future__ import annotations

from datetime import timedelta

import pytest

from ops_cli.errors import ExitCode
from tests.ops_cli.conftest import NOW, client_error
from tests.ops_cli.openai_server import ANSWER, Behaviour, openai_server
from tests.ops_cli.test_api_key import KEY, stub_secret
from tests.ops_cli.test_capacity_blocks import reservation


def test_smoke_test_passes_and_reports_timings(aws, run):
    # the environment requires its API key (the default): it is read from the environment's secret
    stub_secret(aws)
    behaviour = Behaviour(first_token_delay=0.05, api_key=KEY)
    with openai_server(behaviour) as url:
        result = run("smoke-test", "--url", url, "--env", "example", "--json")
    assert result.code == ExitCode.OK, result.stdout + result.stderr
    no_key, models, plain, streaming = result.json["requests"]
    assert no_key["mode"] == "no key" and no_key["ok"]
    assert models["mode"] == "models" and models["ok"] and models["text"] == "moonshotai/Kimi-K3"
    assert plain["mode"] == "plain" and plain["ok"] and plain["completion_tokens"] == len(ANSWER)
    assert streaming["mode"] == "streaming" and streaming["ok"]
    assert streaming["text"] == "".join(ANSWER)
    assert streaming["time_to_first_token_s"] >= 0.05
    assert streaming["total_s"] >= streaming["time_to_first_token_s"]
    assert streaming["tokens_per_s"] > 0
    # the served model name came from the environment, and usage was asked for in the stream
    assert {r["model"] for r in behaviour.requests} == {"Kimi-K3"}
    assert behaviour.requests[1]["stream_options"] == {"include_usage": True}


def test_smoke_test_human_output(run):
    with openai_server(Behaviour()) as url:
        result = run("smoke-test", "--url", url)
    assert result.code == ExitCode.OK
    assert "first token" in result.stdout and "Smoke test passed." in result.stdout


@pytest.mark.parametrize(
    "behaviour, problem",
    [
        (Behaviour(empty=True), "empty"),
        (Behaviour(drop_done=True), "[DONE]"),
    ],
)
def test_smoke_test_fails_on_malformed_answers(run, behaviour, problem):
    with openai_server(behaviour) as url:
        result = run("smoke-test", "--url", url, "--json")
    assert result.code == ExitCode.CHECK_FAILED
    assert result.json["passed"] is False
    assert any(problem in p for r in result.json["requests"] for p in r["problems"])


def test_smoke_test_with_the_wrong_model_name(run):
    with openai_server(Behaviour(model="Kimi-K3")) as url:
        result = run("smoke-test", "--url", url, "--model", "kimi")
    assert result.code == ExitCode.CHECK_FAILED
    assert "HTTP 404" in result.stderr and "--model" in result.stderr


def test_smoke_test_with_nothing_listening(run):
    with openai_server(Behaviour()) as url:
        pass  # the server is gone again: the port is closed
    result = run("smoke-test", "--url", url, "--timeout", "5")
    assert result.code == ExitCode.CHECK_FAILED and "cannot reach" in result.stderr


def test_wait_endpoint_until_healthy(run):
    with openai_server(Behaviour()) as url:
        result = run("wait", "endpoint", "--url", url, "--json")
    assert result.code == ExitCode.OK and result.json["healthy"] is True
    assert "/health: HTTP 200" in result.stderr


def test_wait_endpoint_times_out(run, clock):
    with openai_server(Behaviour(healthy=False)) as url:
        result = run("wait", "endpoint", "--url", url, "--timeout", "90", "--interval", "30")
    assert result.code == ExitCode.TIMEOUT
    progress = [line for line in result.stderr.splitlines() if line.startswith("[")]
    assert [line.split("] ")[1].split(": ")[1] for line in progress] == ["HTTP 503"] * 4
    assert clock.sleeps == [30, 30, 30]
    assert "gave up waiting" in result.stderr


def test_wait_reservation_until_active(aws, run, clock):
    ec2 = aws.stub("ec2")
    for state in ("payment-pending", "scheduled", "active"):
        ec2.add_response(
            "describe_capacity_reservations",
            {"CapacityReservations": [reservation(state)]},
            {"CapacityReservationIds": ["cr-0fedcba9876543210"]},
        )
    result = run(
        "wait", "reservation", "cr-0fedcba9876543210", "--region", "us-west-2", "--interval", "60"
    )
    assert result.code == ExitCode.OK
    progress = result.stderr.splitlines()
    assert (
        len(progress) == 3
        and "payment-pending" in progress[0]
        and "+1m00s" in progress[1]
        and "active" in progress[2]
    )
    assert clock.sleeps == [60, 60]


def test_wait_reservation_that_was_cancelled(aws, run):
    aws.stub("ec2").add_response(
        "describe_capacity_reservations",
        {"CapacityReservations": [reservation("cancelled")]},
        {"CapacityReservationIds": ["cr-0fedcba9876543210"]},
    )
    result = run("wait", "reservation", "cr-0fedcba9876543210", "--region", "us-west-2")
    assert result.code == ExitCode.CHECK_FAILED and "never become active" in result.stderr


def _nodegroup(status: str, asg: bool = True) -> dict:
    group = {
        "nodegroupName": "gpu-capacity-block",
        "clusterName": "example-llm",
        "status": status,
        "scalingConfig": {"minSize": 0, "maxSize": 1, "desiredSize": 1},
        "health": {"issues": []},
    }
    if asg:
        group["resources"] = {"autoScalingGroups": [{"name": "eks-gpu-asg"}]}
    return {"nodegroup": group}


def _asg(in_service: int) -> dict:
    instances = [
        {
            "InstanceId": f"i-0{i}",
            "AvailabilityZone": "us-west-2a",
            "LifecycleState": "InService",
            "HealthStatus": "Healthy",
            "ProtectedFromScaleIn": False,
        }
        for i in range(in_service)
    ]
    return {
        "AutoScalingGroups": [
            {
                "AutoScalingGroupName": "eks-gpu-asg",
                "MinSize": 0,
                "MaxSize": 1,
                "DesiredCapacity": 1,
                "DefaultCooldown": 300,
                "AvailabilityZones": ["us-west-2a"],
                "HealthCheckType": "EC2",
                "CreatedTime": NOW - timedelta(hours=1),
                "Instances": instances,
            }
        ]
    }


def test_wait_nodes_until_in_service(aws, run, clock):
    eks, autoscaling = aws.stub("eks"), aws.stub("autoscaling")
    params = {"clusterName": "example-llm", "nodegroupName": "gpu-capacity-block"}
    eks.add_response("describe_nodegroup", _nodegroup("CREATING", asg=False), params)
    eks.add_response("describe_nodegroup", _nodegroup("ACTIVE"), params)
    autoscaling.add_response(
        "describe_auto_scaling_groups", _asg(0), {"AutoScalingGroupNames": ["eks-gpu-asg"]}
    )
    eks.add_response("describe_nodegroup", _nodegroup("ACTIVE"), params)
    autoscaling.add_response(
        "describe_auto_scaling_groups", _asg(1), {"AutoScalingGroupNames": ["eks-gpu-asg"]}
    )
    result = run("wait", "nodes", "--env", "example", "--json")
    assert result.code == ExitCode.OK, result.stderr
    assert result.json["in_service"] == 1
    assert (
        "0/1 instances in service" in result.stderr and "1/1 instances in service" in result.stderr
    )


def test_wait_nodes_reports_a_failed_group(aws, run):
    failed = _nodegroup("CREATE_FAILED", asg=False)
    failed["nodegroup"]["health"]["issues"] = [
        {"code": "AsgInstanceLaunchFailures", "message": "capacity block not active"}
    ]
    aws.stub("eks").add_response(
        "describe_nodegroup",
        failed,
        {"clusterName": "example-llm", "nodegroupName": "gpu-capacity-block"},
    )
    result = run("wait", "nodes", "--env", "example")
    assert result.code == ExitCode.CHECK_FAILED and "capacity block not active" in result.stderr


def test_wait_nodes_access_denied(aws, run):
    aws.stub("eks").add_client_error(
        "describe_nodegroup", **client_error("AccessDeniedException", status=403)
    )
    result = run("wait", "nodes", "--env", "example")
    assert result.code == ExitCode.ACCESS_DENIED


# --- with a next reservation (capacity.next_capacity_reservation_id): which node groups `wait nodes` waits for -------

CURRENT, NEXT = "cr-0123456789abcdef0", "cr-0fedcba9876543210"


def _with_next(config_dir, current: dict, following: dict, aws) -> None:
    path = config_dir / "example.yaml"
    line = f"  capacity_reservation_id: {CURRENT}"
    path.write_text(
        path.read_text().replace(line, f"{line}\n  next_capacity_reservation_id: {NEXT}", 1)
    )
    for item in (current, following):
        aws.stub("ec2").add_response(
            "describe_capacity_reservations",
            {"CapacityReservations": [item]},
            {"CapacityReservationIds": [item["CapacityReservationId"]]},
        )


def _block(reservation_id: str, state: str, start, end) -> dict:
    found = reservation(state, reservation_id=reservation_id)
    found["StartDate"], found["EndDate"] = start, end
    return found


def _group_in_service(aws, name: str) -> None:
    answer = _nodegroup("ACTIVE")
    answer["nodegroup"]["nodegroupName"] = name
    aws.stub("eks").add_response(
        "describe_nodegroup", answer, {"clusterName": "example-llm", "nodegroupName": name}
    )
    aws.stub("autoscaling").add_response(
        "describe_auto_scaling_groups", _asg(1), {"AutoScalingGroupNames": ["eks-gpu-asg"]}
    )


def test_wait_nodes_during_the_overlap_waits_for_both_groups(aws, run, config_dir):
    current = _block(CURRENT, "active", NOW - timedelta(days=6), NOW + timedelta(days=1))
    following = _block(NEXT, "active", NOW - timedelta(hours=1), NOW + timedelta(days=7))
    _with_next(config_dir, current, following, aws)
    _group_in_service(aws, "gpu-capacity-block")
    _group_in_service(aws, "gpu-capacity-block-next")
    result = run("wait", "nodes", "--env", "example", "--json")
    assert result.code == ExitCode.OK, result.stderr
    assert list(result.json["groups"]) == ["gpu-capacity-block", "gpu-capacity-block-next"]
    assert result.json["in_service"] == 2 and "active" in result.json["chosen"]


def test_wait_nodes_after_the_current_blocks_scale_down_waits_for_the_next_group_alone(
    aws, run, config_dir
):
    # EKS scales the current group to 0 forty minutes before its block ends: those nodes are going, not coming.
    current = _block(CURRENT, "active", NOW - timedelta(days=6), NOW + timedelta(minutes=30))
    following = _block(NEXT, "active", NOW - timedelta(hours=1), NOW + timedelta(days=7))
    _with_next(config_dir, current, following, aws)
    _group_in_service(aws, "gpu-capacity-block-next")
    result = run("wait", "nodes", "--env", "example", "--json")
    assert result.code == ExitCode.OK, result.stderr
    assert list(result.json["groups"]) == ["gpu-capacity-block-next"]
    assert "gpu-capacity-block-next: ACTIVE, 1/1 instances in service" in result.stderr


def test_wait_nodes_before_either_block_waits_for_the_group_of_the_first(aws, run, config_dir):
    # The slots alternate: the next reservation's slot may hold the block that starts first.
    current = _block(CURRENT, "scheduled", NOW + timedelta(days=2), NOW + timedelta(days=9))
    following = _block(NEXT, "scheduled", NOW + timedelta(days=1), NOW + timedelta(days=2))
    _with_next(config_dir, current, following, aws)
    _group_in_service(aws, "gpu-capacity-block-next")
    result = run("wait", "nodes", "--env", "example", "--json")
    assert result.code == ExitCode.OK, result.stderr
    assert list(result.json["groups"]) == ["gpu-capacity-block-next"]
    assert NEXT in result.json["chosen"]


class FakeKubectl:
    """Answers `kubectl get inferenceendpointconfigs ... -o json` with the next of the given statuses."""

    def __init__(self, *answers) -> None:
        self.answers = list(answers)
        self.commands: list[list[str]] = []

    def __call__(self, command, **kwargs):
        import json
        import subprocess

        self.commands.append(command)
        answer = self.answers.pop(0)
        if isinstance(answer, str):
            return subprocess.CompletedProcess(command, 1, "", answer)
        return subprocess.CompletedProcess(
            command, 0, json.dumps({"kind": "InferenceEndpointConfig", "status": answer}), ""
        )


def test_wait_inference_endpoint_until_complete(run_with_kubectl):
    kubectl = FakeKubectl(
        {"state": "DeploymentPending"},
        {"state": "DeploymentInProgress", "deploymentStatus": {"message": "downloading model"}},
        {"state": "DeploymentComplete"},
    )
    result = run_with_kubectl(kubectl, "wait", "inference-endpoint", "--name", "kimik3", "--json")
    assert result.code == ExitCode.OK
    assert result.json["status"]["state"] == "DeploymentComplete"
    assert "DeploymentInProgress (downloading model)" in result.stderr
    # in the endpoint's own namespace, where the endpoint stack puts it, unless --namespace says otherwise
    assert kubectl.commands[0] == [
        "kubectl",
        "get",
        "inferenceendpointconfigs.inference.sagemaker.aws.amazon.com",
        "kimik3",
        "-n",
        "llm-endpoint",
        "-o",
        "json",
    ]


def test_wait_inference_endpoint_reports_why_it_failed(run_with_kubectl):
    kubectl = FakeKubectl(
        {
            "state": "DeploymentFailed",
            "conditions": [
                {
                    "type": "Ready",
                    "status": "False",
                    "reason": "ModelDownloadFailed",
                    "message": "403 from huggingface.co",
                    "lastTransitionTime": "2026-11-30T12:00:00Z",
                }
            ],
        }
    )
    result = run_with_kubectl(kubectl, "wait", "inference-endpoint")
    assert result.code == ExitCode.CHECK_FAILED
    assert "DeploymentFailed: 403 from huggingface.co" in result.stderr


def test_wait_inference_endpoint_that_does_not_exist(run_with_kubectl):
    kubectl = FakeKubectl(
        'Error from server (NotFound): inferenceendpointconfigs "kimik3" not found'
    )
    result = run_with_kubectl(kubectl, "wait", "inference-endpoint")
    assert result.code == ExitCode.NOT_FOUND


def test_smoke_test_checks_the_model_vllm_really_loaded(aws, run):
    # given vLLM's own default model served under the configured name (vLLM started without --model)
    stub_secret(aws)
    with openai_server(Behaviour(root="Qwen/Qwen3-0.6B", api_key=KEY)) as url:
        # when the smoke test runs for the environment
        result = run("smoke-test", "--url", url, "--env", "example", "--json")
    # then it fails and names the model that was really loaded
    assert result.code == ExitCode.CHECK_FAILED
    models = result.json["requests"][1]
    assert models["mode"] == "models" and not models["ok"]
    assert any("Qwen/Qwen3-0.6B" in p and "moonshotai/Kimi-K3" in p for p in models["problems"])


def test_smoke_test_takes_the_hyperpod_model_path_from_the_environment(aws, run):
    # the HyperPod path starts vLLM with the operator's mount of the weights as --model (and with its environment's
    # own API key, as the EKS path)
    stub_secret(
        aws,
        "arn:aws:secretsmanager:us-west-2:123456789012:secret:llm-serving/example-hyperpod/api-key",
    )
    stub_secret(aws)
    with openai_server(Behaviour(api_key=KEY, root="/opt/ml/model")) as url:
        passed = run("smoke-test", "--url", url, "--env", "example-hyperpod", "--json")
        failed = run("smoke-test", "--url", url, "--env", "example", "--json")
    assert passed.code == ExitCode.OK, passed.stdout + passed.stderr
    (models,) = [r for r in passed.json["requests"] if r["mode"] == "models"]
    assert models["text"] == "/opt/ml/model"
    assert failed.code == ExitCode.CHECK_FAILED


def test_smoke_test_with_an_explicit_model_path(run):
    with openai_server(Behaviour(root="/models/s3-weights")) as url:
        result = run("smoke-test", "--url", url, "--model-path", "/models/s3-weights", "--json")
    assert result.code == ExitCode.OK, result.stdout + result.stderr


def test_wait_nodes_with_a_scheduled_block_without_a_start_date_reads_it_as_not_coming_first(
    aws, run, config_dir
):
    # given two scheduled blocks, EC2's answer for the current one without its StartDate (issue 29: was exit 70)
    current = _block(CURRENT, "scheduled", None, NOW + timedelta(days=3))
    del current["StartDate"]
    following = _block(NEXT, "scheduled", NOW + timedelta(days=1), NOW + timedelta(days=7))
    _with_next(config_dir, current, following, aws)
    _group_in_service(aws, "gpu-capacity-block-next")
    # when the nodes are waited for, then the group of the block with a start is the one waited for
    result = run("wait", "nodes", "--env", "example", "--json")
    assert result.code == ExitCode.OK, result.stderr
    assert list(result.json["groups"]) == ["gpu-capacity-block-next"]
