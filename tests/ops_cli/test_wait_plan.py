"""``llmops wait plan``: waits until the environment's (or the named) Flexible Training Plan is Active, with a progress
line per check; a plan that will never be Active (Expired, Failed: botocore's TrainingPlanStatus) ends the wait at once
with exit 1; --timeout ends it with exit 10. SageMaker is a botocore Stubber (the requests checked against the model)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from ops_cli.errors import ExitCode
from ops_cli.training_plans import PLAN_ACTIVE, PLAN_FINAL_STATES
from tests.ops_cli.conftest import client_error

#: config/example-hyperpod.yaml's hyperpod.training_plan_arn
EXAMPLE_PLAN = "arn:aws:sagemaker:us-west-2:123456789012:training-plan/kimi-k3-example"
START = datetime(2026, 12, 3, 11, 30, tzinfo=UTC)


def _plan(status: str, message: str | None = None) -> dict:
    plan = {
        "TrainingPlanArn": EXAMPLE_PLAN,
        "TrainingPlanName": "kimi-k3-example",
        "Status": status,
        "StartTime": START,
        "TotalInstanceCount": 1,
    }
    if message:
        plan["StatusMessage"] = message
    return plan


def _answers(aws, plan: str, *statuses: str) -> None:
    for status in statuses:
        aws.stub("sagemaker").add_response(
            "describe_training_plan", _plan(status), {"TrainingPlanName": plan}
        )


def test_the_statuses_are_the_api_models():
    import botocore.session

    model = botocore.session.get_session().get_service_model("sagemaker")
    statuses = set(model.shape_for("TrainingPlanStatus").enum)
    assert PLAN_ACTIVE in statuses and PLAN_FINAL_STATES <= statuses


def test_wait_plan_of_an_environment_until_active(aws, run, clock):
    # given the environment's plan, Pending, then Scheduled, then Active
    _answers(aws, EXAMPLE_PLAN, "Pending", "Scheduled", "Active")
    # when the user waits for it
    result = run("wait", "plan", "--env", "example-hyperpod", "--interval", "120", "--json")
    # then it ends when Active, one progress line per check, and the summary is printed
    assert result.code == ExitCode.OK, result.stderr
    progress = result.stderr.splitlines()
    assert len(progress) == 3 and "Pending" in progress[0] and "Scheduled" in progress[1]
    assert "Active" in progress[2] and "2026-12-03 11:30" in progress[0]
    assert clock.sleeps == [120, 120]
    assert result.json["status"] == "Active" and result.json["arn"] == EXAMPLE_PLAN


@pytest.mark.parametrize("status", sorted(PLAN_FINAL_STATES))
def test_wait_plan_that_will_never_be_active(aws, run, status):
    aws.stub("sagemaker").add_response(
        "describe_training_plan",
        _plan(status, "capacity was not available"),
        {"TrainingPlanName": "kimi-k3-december"},
    )
    result = run("wait", "plan", "kimi-k3-december", "--region", "us-west-2")
    assert result.code == ExitCode.CHECK_FAILED
    assert (
        f"training plan kimi-k3-december is {status}: capacity was not available" in result.stderr
    )
    assert "Traceback" not in result.stderr


def test_wait_plan_times_out(aws, run, clock):
    _answers(aws, "kimi-k3-december", "Scheduled", "Scheduled", "Scheduled")
    result = run(
        "wait",
        "plan",
        "kimi-k3-december",
        "--region",
        "us-west-2",
        "--timeout",
        "120",
        "--interval",
        "60",
    )
    assert result.code == ExitCode.TIMEOUT
    assert "gave up waiting" in result.stderr


def test_wait_plan_of_a_plan_that_does_not_exist(aws, run):
    aws.stub("sagemaker").add_client_error(
        "describe_training_plan", **client_error("ResourceNotFound", "no such plan")
    )
    result = run("wait", "plan", "kimi-k3-december", "--region", "us-west-2")
    assert result.code == ExitCode.NOT_FOUND


def test_wait_plan_without_a_plan_or_a_hyperpod_environment_says_which_to_give(run):
    result = run("wait", "plan", "--env", "example")
    assert result.code == ExitCode.USAGE
    assert "no training plan: name one, or --env of a HyperPod environment" in result.stderr


def test_wait_plan_refuses_a_name_that_is_not_one_before_any_call(run):
    result = run("wait", "plan", "not a plan!", "--region", "us-west-2")
    assert result.code == ExitCode.USAGE and "is not a training plan name" in result.stderr
