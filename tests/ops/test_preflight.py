"""llmops preflight: one row per check, pass / warn / fail with the fix; non-zero exit when any row fails."""

from __future__ import annotations

from datetime import timedelta

import pytest

from ops_cli.errors import ExitCode
from tests.ops.conftest import NOW, client_error
from tests.ops.test_capacity_blocks import reservation

RESERVATION = "cr-0123456789abcdef0"  # the example configuration's


def expect_identity(aws, account: str = "123456789012") -> None:
    identity = {"Account": account, "Arn": f"arn:aws:sts::{account}:assumed-role/Admin/me", "UserId": "AROAEXAMPLE:me"}
    aws.stub("sts").add_response("get_caller_identity", identity, {})


def expect_reservation(aws, **overrides) -> None:
    item = reservation(reservation_id=RESERVATION, **{k: v for k, v in overrides.items() if k != "end"})
    if "end" in overrides:
        item["EndDate"] = overrides["end"]
    aws.stub("ec2").add_response("describe_capacity_reservations", {"CapacityReservations": [item]},
                                 {"CapacityReservationIds": [RESERVATION]})


def expect_offered(aws, offered: bool = True) -> None:
    item = {"InstanceType": "p6-b300.48xlarge", "LocationType": "availability-zone", "Location": "us-west-2a"}
    items = [item] if offered else []
    aws.stub("ec2").add_response("describe_instance_type_offerings", {"InstanceTypeOfferings": items}, {
        "LocationType": "availability-zone",
        "Filters": [{"Name": "instance-type", "Values": ["p6-b300.48xlarge"]}, {"Name": "location", "Values": ["us-west-2a"]}]})


def expect_bootstrap(aws, exists: bool = True) -> None:
    cfn = aws.stub("cloudformation")
    if exists:
        cfn.add_response("describe_stacks", {"Stacks": [{"StackName": "CDKToolkit", "StackStatus": "UPDATE_COMPLETE",
                                                         "CreationTime": NOW}]}, {"StackName": "CDKToolkit"})
    else:
        cfn.add_client_error("describe_stacks", **client_error("ValidationError", "Stack with id CDKToolkit does not exist"))


def rows(result) -> dict[str, dict]:
    return {c["check"]: c for c in result.json["checks"]}


def test_everything_in_order_passes(aws, run):
    expect_identity(aws)
    expect_reservation(aws, state="active", end=NOW + timedelta(days=2))
    expect_offered(aws)
    expect_bootstrap(aws)
    result = run("preflight", "--env", "example", "--json")
    assert result.code == ExitCode.OK
    assert result.json["passed"] is True
    assert {c["status"] for c in result.json["checks"]} == {"pass"}
    assert list(rows(result)) == ["credentials", "reservation exists", "instance type and count", "availability zone",
                                  "state and time window", "instance type offered", "CDK bootstrap"]


def test_credentials_of_another_account_stop_the_run(aws, run):
    expect_identity(aws, account="999999999999")
    result = run("preflight", "--env", "example")
    assert result.code == ExitCode.CHECK_FAILED
    assert "FAIL" in result.stdout and "999999999999" in result.stdout and "Preflight FAILED" in result.stdout


def test_reservation_in_another_zone_fails_with_the_fix(aws, run):
    expect_identity(aws)
    expect_reservation(aws, state="active", zone="us-west-2b", end=NOW + timedelta(days=2))
    expect_offered(aws)
    expect_bootstrap(aws)
    result = run("preflight", "--env", "example", "--json")
    assert result.code == ExitCode.CHECK_FAILED
    zone = rows(result)["availability zone"]
    assert zone["status"] == "fail" and "us-west-2b" in zone["fix"]


@pytest.mark.parametrize("state, end, status", [
    ("expired", NOW - timedelta(hours=1), "fail"),
    ("active", NOW + timedelta(hours=5), "warn"),
    ("scheduled", NOW + timedelta(days=3), "warn"),
    ("payment-pending", NOW + timedelta(days=3), "warn"),
])
def test_reservation_window(aws, run, state, end, status):
    expect_identity(aws)
    expect_reservation(aws, state=state, end=end)
    expect_offered(aws)
    expect_bootstrap(aws)
    result = run("preflight", "--env", "example", "--json")
    assert rows(result)["state and time window"]["status"] == status
    assert result.code == (ExitCode.CHECK_FAILED if status == "fail" else ExitCode.OK)


def test_mismatched_instance_count_and_missing_bootstrap_and_offering(aws, run):
    expect_identity(aws)
    expect_reservation(aws, state="active", count=2, end=NOW + timedelta(days=2))
    expect_offered(aws, offered=False)
    expect_bootstrap(aws, exists=False)
    result = run("preflight", "--env", "example", "--json")
    checks = rows(result)
    assert checks["instance type and count"]["status"] == "fail"
    assert checks["instance type offered"]["status"] == "fail"
    assert checks["CDK bootstrap"]["status"] == "fail"
    assert checks["CDK bootstrap"]["fix"] == "npx cdk bootstrap aws://123456789012/us-west-2"


def test_missing_reservation(aws, run):
    expect_identity(aws)
    aws.stub("ec2").add_client_error("describe_capacity_reservations", **client_error("InvalidCapacityReservationId.NotFound"))
    expect_offered(aws)
    expect_bootstrap(aws)
    result = run("preflight", "--env", "example", "--json")
    assert rows(result)["reservation exists"]["status"] == "fail"


def test_no_credentials_is_an_error_not_a_row(run, aws):
    aws.stub("sts").add_client_error("get_caller_identity", **client_error("ExpiredToken", status=403))
    result = run("preflight", "--env", "example")
    assert result.code == ExitCode.CREDENTIALS
    assert "Traceback" not in result.stderr


def test_unknown_environment(run):
    result = run("preflight", "--env", "nope")
    assert result.code == ExitCode.USAGE and "there is no file" in result.stderr
    assert result.stderr.count("fix:") == 1


PLAN = "arn:aws:sagemaker:us-west-2:123456789012:training-plan/kimi-k3-example"


def expect_plan(aws, zone="us-west-2a", instance_type="ml.p6-b300.48xlarge", status="Active", end=NOW + timedelta(days=3)):
    aws.stub("sagemaker").add_response("describe_training_plan", {
        "TrainingPlanArn": PLAN, "TrainingPlanName": "kimi-k3-example", "Status": status, "StartTime": NOW - timedelta(hours=1),
        "EndTime": end, "TotalInstanceCount": 1,
        "ReservedCapacitySummaries": [{"ReservedCapacityArn": f"{PLAN}/rc", "InstanceType": instance_type,
                                       "TotalInstanceCount": 1, "Status": status, "AvailabilityZone": zone}]},
        {"TrainingPlanName": "kimi-k3-example"})


def test_hyperpod_environment_checks_its_training_plan(aws, run):
    expect_identity(aws)
    expect_plan(aws)
    expect_bootstrap(aws)
    result = run("preflight", "--env", "example-hyperpod", "--json")
    assert result.code == ExitCode.OK, result.stdout
    assert list(rows(result)) == ["credentials", "training plan exists", "instance type and count", "availability zone",
                                  "state and time window", "CDK bootstrap"]


def test_training_plan_for_another_instance_type_and_zone(aws, run):
    expect_identity(aws)
    expect_plan(aws, zone="us-west-2b", instance_type="ml.p5en.48xlarge")
    expect_bootstrap(aws)
    result = run("preflight", "--env", "example-hyperpod", "--json")
    assert result.code == ExitCode.CHECK_FAILED
    checks = rows(result)
    mismatch = checks["instance type and count"]
    assert mismatch["status"] == "fail" and "ml.p5en.48xlarge" in mismatch["detail"]
    assert checks["availability zone"]["status"] == "fail"


def test_expired_training_plan(aws, run):
    expect_identity(aws)
    expect_plan(aws, status="Expired", end=NOW - timedelta(days=1))
    expect_bootstrap(aws)
    result = run("preflight", "--env", "example-hyperpod", "--json")
    assert rows(result)["state and time window"]["status"] == "fail"
