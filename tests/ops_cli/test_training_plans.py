"""llmops training-plans: search, create with confirmation, describe, and write-back."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from ops_cli.errors import ExitCode
from tests.ops_cli.conftest import NOW, client_error

START = datetime(2026, 12, 4, 0, 0, tzinfo=UTC)
PLAN_ARN = "arn:aws:sagemaker:us-west-2:123456789012:training-plan/kimi-k3-december"
#: ``llmops training-plans create`` of the plan kimi-k3-december from offering tpo-a, for the example environment.
CREATE = (
    "training-plans",
    "create",
    "--env",
    "example",
    "--name",
    "kimi-k3-december",
    "--offering-id",
    "tpo-a",
)


def plan_offering(offering_id: str, fee: str, zone: str = "us-west-2a") -> dict:
    return {
        "TrainingPlanOfferingId": offering_id,
        "TargetResources": ["hyperpod-cluster"],
        "DurationHours": 48,
        "UpfrontFee": fee,
        "CurrencyCode": "USD",
        "ReservedCapacityOfferings": [
            {
                "InstanceType": "ml.p6-b300.48xlarge",
                "InstanceCount": 1,
                "AvailabilityZone": zone,
                "DurationHours": 48,
                "StartTime": START,
                "EndTime": START + timedelta(hours=48),
            }
        ],
    }


def expect_search(aws, offerings: list[dict]) -> None:
    aws.stub("sagemaker").add_response(
        "search_training_plan_offerings",
        {"TrainingPlanOfferings": offerings},
        {
            "InstanceType": "ml.p6-b300.48xlarge",
            "InstanceCount": 1,
            "DurationHours": 48,
            "StartTimeAfter": NOW,
            "EndTimeBefore": NOW + timedelta(weeks=8),
            "TargetResources": ["hyperpod-cluster"],
        },
    )


def plan(zones=("us-west-2a",), status="Scheduled") -> dict:
    return {
        "TrainingPlanArn": PLAN_ARN,
        "TrainingPlanName": "kimi-k3-december",
        "Status": status,
        "StartTime": START,
        "EndTime": START + timedelta(hours=48),
        "UpfrontFee": "70000.00",
        "CurrencyCode": "USD",
        "TotalInstanceCount": 1,
        "TargetResources": ["hyperpod-cluster"],
        "ReservedCapacitySummaries": [
            {
                "ReservedCapacityArn": f"{PLAN_ARN}/rc-{i}",
                "InstanceType": "ml.p6-b300.48xlarge",
                "TotalInstanceCount": 1,
                "Status": status,
                "AvailabilityZone": z,
            }
            for i, z in enumerate(zones)
        ],
    }


def test_offerings_for_hyperpod_cheapest_first(aws, run):
    expect_search(
        aws,
        [plan_offering("tpo-b", "72000.00"), plan_offering("tpo-a", "70000.00", zone="us-west-2b")],
    )
    result = run("training-plans", "offerings", "--env", "example")
    assert result.code == ExitCode.OK
    rows = result.stdout.splitlines()[2:]
    assert rows[0].startswith("tpo-a") and "us-west-2b" in rows[0] and "70,000.00 USD" in rows[0]
    assert rows[1].startswith("tpo-b")


def test_offerings_refuse_an_ec2_instance_type_name(run):
    result = run(
        "training-plans",
        "offerings",
        "--region",
        "us-west-2",
        "--instance-type",
        "p6-b300.48xlarge",
    )
    assert result.code == ExitCode.USAGE and "ml.p6-b300.48xlarge" in result.stderr


def test_create_needs_confirmation(aws, run):
    expect_search(aws, [plan_offering("tpo-a", "70000.00")])
    result = run(*CREATE)
    assert result.code == ExitCode.CONFIRMATION_REQUIRED
    assert "70,000.00 USD" in result.stderr


def expect_name_free(aws, name: str = "kimi-k3-december") -> None:
    aws.stub("sagemaker").add_client_error(
        "describe_training_plan",
        **client_error("ResourceNotFound"),
        expected_params={"TrainingPlanName": name},
    )


def test_create_with_yes(aws, run):
    expect_search(aws, [plan_offering("tpo-a", "70000.00")])
    expect_name_free(aws)
    aws.stub("sagemaker").add_response(
        "create_training_plan",
        {"TrainingPlanArn": PLAN_ARN},
        {"TrainingPlanName": "kimi-k3-december", "TrainingPlanOfferingId": "tpo-a"},
    )
    result = run(*CREATE, "--yes", "--json")
    assert result.code == ExitCode.OK
    assert result.json["arn"] == PLAN_ARN


def test_create_with_a_name_that_exists_is_refused_before_anything_is_bought(aws, run):
    """The name is checked first: after a lost answer, the lookup by name relies on it having been free."""
    expect_search(aws, [plan_offering("tpo-a", "70000.00")])
    aws.stub("sagemaker").add_response(
        "describe_training_plan", plan(), {"TrainingPlanName": "kimi-k3-december"}
    )
    # no create_training_plan queued: a call would fail the Stubber
    result = run(*CREATE, "--yes")
    assert result.code == ExitCode.ALREADY_EXISTS
    assert "already exists" in result.stderr and "choose another name" in result.stderr


def test_create_with_a_name_taken_meanwhile(aws, run):
    expect_search(aws, [plan_offering("tpo-a", "70000.00")])
    expect_name_free(aws)
    aws.stub("sagemaker").add_client_error(
        "create_training_plan", **client_error("ResourceInUse", "Plan already exists")
    )
    result = run(*CREATE, "--yes")
    assert result.code == ExitCode.ALREADY_EXISTS
    assert "choose another name" in result.stderr


def test_show_plan(aws, run):
    aws.stub("sagemaker").add_response(
        "describe_training_plan", plan(), {"TrainingPlanName": "kimi-k3-december"}
    )
    result = run("training-plans", "show", "kimi-k3-december", "--region", "us-west-2", "--json")
    assert result.code == ExitCode.OK
    assert (
        result.json["availability_zones"] == ["us-west-2a"] and result.json["status"] == "Scheduled"
    )


def test_use_writes_arn_and_zone_into_a_hyperpod_section(aws, run, config_dir):
    aws.stub("sagemaker").add_response(
        "describe_training_plan",
        plan(zones=("us-west-2b",)),
        {"TrainingPlanName": "kimi-k3-december"},
    )
    result = run("training-plans", "use", "kimi-k3-december", "--env", "example-hyperpod")
    assert result.code == ExitCode.OK, result.stderr
    text = (config_dir / "example-hyperpod.yaml").read_text()
    assert f"training_plan_arn: {PLAN_ARN}" in text and "availability_zone: us-west-2b" in text
    # comments and the schema line survive the write
    assert text.startswith(
        "# yaml-language-server: $schema=../schema/environment.schema.json\n# EXAMPLE HYPERPOD"
    )


def test_use_refuses_an_eks_environment_and_writes_nothing(aws, run, config_dir):
    aws.stub("sagemaker").add_response(
        "describe_training_plan",
        plan(zones=("us-west-2b",)),
        {"TrainingPlanName": "kimi-k3-december"},
    )
    before = (config_dir / "example.yaml").read_text()
    result = run("training-plans", "use", "kimi-k3-december", "--env", "example")
    assert result.code == ExitCode.USAGE
    assert "platform is eks" in result.stderr
    assert (config_dir / "example.yaml").read_text() == before


def test_use_refuses_a_plan_spread_over_zones(aws, run, config_dir):
    aws.stub("sagemaker").add_response(
        "describe_training_plan",
        plan(zones=("us-west-2a", "us-west-2b")),
        {"TrainingPlanName": "kimi-k3-december"},
    )
    before = (config_dir / "example.yaml").read_text()
    result = run("training-plans", "use", "kimi-k3-december", "--env", "example")
    assert result.code == ExitCode.USAGE
    assert (config_dir / "example.yaml").read_text() == before


def test_missing_plan(aws, run):
    aws.stub("sagemaker").add_client_error(
        "describe_training_plan", **client_error("ResourceNotFound")
    )
    result = run("training-plans", "show", "nope", "--region", "us-west-2")
    assert result.code == ExitCode.NOT_FOUND
