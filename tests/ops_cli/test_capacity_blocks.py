"""llmops capacity-blocks: offerings over all pages, purchase with confirmation, show, and write-back."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from botocore.stub import ANY

from ops_cli.errors import ExitCode
from tests.ops_cli.conftest import NOW, client_error

START = datetime(2026, 12, 3, 11, 30, tzinfo=UTC)
#: ``llmops capacity-blocks purchase`` of the offering cb-0000000000000000a for the example environment.
PURCHASE = (
    "capacity-blocks",
    "purchase",
    "--env",
    "example",
    "--offering-id",
    "cb-0000000000000000a",
)


def offering(offering_id: str, fee: str, zone: str = "us-west-2a", start: datetime = START) -> dict:
    return {
        "CapacityBlockOfferingId": offering_id,
        "InstanceType": "p6-b300.48xlarge",
        "AvailabilityZone": zone,
        "InstanceCount": 1,
        "StartDate": start,
        "EndDate": start + timedelta(hours=48),
        "CapacityBlockDurationHours": 48,
        "UpfrontFee": fee,
        "CurrencyCode": "USD",
        "Tenancy": "default",
    }


def expect_search(aws, pages: list[list[dict]]) -> None:
    ec2 = aws.stub("ec2")
    for i, items in enumerate(pages):
        params = {
            "InstanceType": "p6-b300.48xlarge",
            "InstanceCount": 1,
            "CapacityDurationHours": 48,
            "StartDateRange": NOW,
            "EndDateRange": NOW + timedelta(weeks=8),
        }
        if i:
            params["NextToken"] = f"page-{i}"
        response = {"CapacityBlockOfferings": items}
        if i + 1 < len(pages):
            response["NextToken"] = f"page-{i + 1}"
        ec2.add_response("describe_capacity_block_offerings", response, params)


def reservation(
    state: str = "scheduled",
    zone: str = "us-west-2a",
    instance_type: str = "p6-b300.48xlarge",
    count: int = 1,
    reservation_id: str = "cr-0fedcba9876543210",
) -> dict:
    return {
        "CapacityReservationId": reservation_id,
        "InstanceType": instance_type,
        "AvailabilityZone": zone,
        "TotalInstanceCount": count,
        "State": state,
        "StartDate": START,
        "EndDate": START + timedelta(hours=48),
        "ReservationType": "capacity-block",
    }


def test_offerings_follow_every_page_and_list_cheapest_first(aws, run):
    expect_search(
        aws,
        [
            [offering("cb-0000000000000000b", "90000.00")],
            [offering("cb-0000000000000000a", "85000.50", zone="us-west-2b")],
        ],
    )
    result = run("capacity-blocks", "offerings", "--env", "example")
    assert result.code == ExitCode.OK
    lines = result.stdout.splitlines()
    assert lines[0].split()[:3] == ["offering", "zone", "start"]
    assert lines[2].startswith("cb-0000000000000000a") and "85,000.50 USD" in lines[2]
    assert lines[3].startswith("cb-0000000000000000b")
    assert "2026-12-03 11:30 UTC" in lines[2] and "2d" in lines[2]


def test_offerings_as_json(aws, run):
    expect_search(aws, [[offering("cb-0000000000000000b", "90000.00")]])
    result = run("capacity-blocks", "offerings", "--env", "example", "--json")
    assert result.json == [
        {
            "offering_id": "cb-0000000000000000b",
            "instance_type": "p6-b300.48xlarge",
            "instance_count": 1,
            "availability_zone": "us-west-2a",
            "start": "2026-12-03T11:30:00Z",
            "end": "2026-12-05T11:30:00Z",
            "duration_hours": 48,
            "upfront_fee": "90000.00",
            "currency": "USD",
        }
    ]


def test_throttling_is_retried_with_growing_backoff(aws, run, clock):
    ec2 = aws.stub("ec2")
    ec2.add_client_error(
        "describe_capacity_block_offerings", **client_error("RequestLimitExceeded", status=503)
    )
    ec2.add_client_error(
        "describe_capacity_block_offerings", **client_error("RequestLimitExceeded", status=503)
    )
    expect_search(aws, [[offering("cb-0000000000000000b", "90000.00")]])
    result = run("capacity-blocks", "offerings", "--env", "example")
    assert result.code == ExitCode.OK
    first, second = clock.sleeps
    assert 0.5 <= first <= 1.0 <= second <= 2.0


def test_throttling_that_does_not_stop_is_its_own_exit_code(aws, run):
    for _ in range(6):
        aws.stub("ec2").add_client_error(
            "describe_capacity_block_offerings", **client_error("RequestLimitExceeded")
        )
    result = run("capacity-blocks", "offerings", "--env", "example")
    assert result.code == ExitCode.THROTTLED
    assert "throttling" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize(
    "code, exit_code",
    [
        ("UnauthorizedOperation", ExitCode.ACCESS_DENIED),
        ("RequestExpired", ExitCode.CREDENTIALS),
        ("InternalError", ExitCode.AWS_ERROR),
    ],
)
def test_aws_errors_have_distinct_exit_codes(aws, run, code, exit_code):
    aws.stub("ec2").add_client_error("describe_capacity_block_offerings", **client_error(code))
    result = run("capacity-blocks", "offerings", "--env", "example")
    assert result.code == exit_code
    assert result.stderr.startswith("error: ") and "fix: " in result.stderr


def test_purchase_without_yes_shows_the_fee_and_buys_nothing(aws, run):
    expect_search(aws, [[offering("cb-0000000000000000a", "85000.50")]])
    result = run(*PURCHASE)
    assert result.code == ExitCode.CONFIRMATION_REQUIRED
    assert "85,000.50 USD" in result.stderr and "--yes" in result.stderr
    # no purchase_capacity_block response was queued: a call would have failed the Stubber


def test_purchase_dry_run_uses_ec2_dry_run(aws, run):
    expect_search(aws, [[offering("cb-0000000000000000a", "85000.50")]])
    aws.stub("ec2").add_client_error(
        "purchase_capacity_block",
        **client_error("DryRunOperation", "Request would have succeeded", 412),
        expected_params={
            "CapacityBlockOfferingId": "cb-0000000000000000a",
            "InstancePlatform": "Linux/UNIX",
            "DryRun": True,
            "TagSpecifications": ANY,
        },
    )
    result = run(*PURCHASE, "--dry-run")
    assert result.code == ExitCode.OK
    assert "Dry run passed" in result.stdout and "Nothing was bought" in result.stdout


def test_purchase_with_yes_buys_and_writes_the_configuration(aws, run, config_dir):
    expect_search(aws, [[offering("cb-0000000000000000a", "85000.50", zone="us-west-2b")]])
    aws.stub("ec2").add_response(
        "purchase_capacity_block",
        {"CapacityReservation": reservation(zone="us-west-2b")},
        {
            "CapacityBlockOfferingId": "cb-0000000000000000a",
            "InstancePlatform": "Linux/UNIX",
            "DryRun": False,
            # a fresh purchase id per purchase (ops_cli/purchase_outcome.py looks the block up by it after a lost answer)
            "TagSpecifications": [
                {
                    "ResourceType": "capacity-reservation",
                    "Tags": [
                        {"Key": "created-by", "Value": "llmops"},
                        {"Key": "llmops:purchase-id", "Value": ANY},
                    ],
                }
            ],
        },
    )
    before = (config_dir / "example.yaml").read_text()
    result = run(*PURCHASE, "--yes", "--write-config", "example")
    assert result.code == ExitCode.OK, result.stderr
    assert "cr-0fedcba9876543210 is scheduled" in result.stdout
    after = (config_dir / "example.yaml").read_text()
    assert "capacity_reservation_id: cr-0fedcba9876543210" in after
    assert "availability_zone: us-west-2b" in after
    # comments and key order survive the write
    assert [line for line in before.splitlines() if line.lstrip().startswith("#")] == [
        line for line in after.splitlines() if line.lstrip().startswith("#")
    ]
    assert len(before.splitlines()) == len(after.splitlines())


def test_purchase_of_an_offering_that_is_gone(aws, run):
    expect_search(aws, [[offering("cb-0000000000000000b", "90000.00")]])
    result = run(*PURCHASE, "--yes")
    assert result.code == ExitCode.OFFERING_GONE
    assert "no longer offered" in result.stderr


def test_purchase_without_capacity(aws, run):
    expect_search(aws, [[offering("cb-0000000000000000a", "85000.50")]])
    aws.stub("ec2").add_client_error(
        "purchase_capacity_block", **client_error("InsufficientInstanceCapacity")
    )
    result = run(*PURCHASE, "--yes")
    assert result.code == ExitCode.INSUFFICIENT_CAPACITY


def test_invalid_duration_is_refused_before_any_call(run):
    result = run("capacity-blocks", "offerings", "--env", "example", "--duration-hours", "400")
    assert result.code == ExitCode.USAGE
    assert "whole weeks" in result.stderr


def test_show_reservation(aws, run):
    aws.stub("ec2").add_response(
        "describe_capacity_reservations",
        {"CapacityReservations": [reservation("active")]},
        {"CapacityReservationIds": ["cr-0fedcba9876543210"]},
    )
    result = run(
        "capacity-blocks", "show", "cr-0fedcba9876543210", "--region", "us-west-2", "--json"
    )
    assert result.code == ExitCode.OK
    assert result.json["state"] == "active" and result.json["availability_zone"] == "us-west-2a"


def test_show_missing_reservation(aws, run):
    aws.stub("ec2").add_client_error(
        "describe_capacity_reservations", **client_error("InvalidCapacityReservationId.NotFound")
    )
    result = run("capacity-blocks", "show", "cr-0fedcba9876543210", "--region", "us-west-2")
    assert result.code == ExitCode.NOT_FOUND


def test_use_writes_id_and_zone_keeping_comments(aws, run, config_dir):
    aws.stub("ec2").add_response(
        "describe_capacity_reservations",
        {"CapacityReservations": [reservation(zone="us-west-2b")]},
        {"CapacityReservationIds": ["cr-0fedcba9876543210"]},
    )
    result = run("capacity-blocks", "use", "cr-0fedcba9876543210", "--env", "example")
    assert result.code == ExitCode.OK, result.stderr
    text = (config_dir / "example.yaml").read_text()
    # the value replaced loses its '# PLACEHOLDER' remark (only that one: the account's stays)
    assert "  capacity_reservation_id: cr-0fedcba9876543210\n" in text
    assert 'account: "123456789012"          # PLACEHOLDER: 12 digits, quoted' in text
    assert 'account: "123456789012"' in text  # quoting kept


def test_use_refuses_a_zone_outside_the_vpc_and_writes_nothing(aws, run, config_dir):
    aws.stub("ec2").add_response(
        "describe_capacity_reservations",
        {"CapacityReservations": [reservation(zone="us-west-2c")]},
        {"CapacityReservationIds": ["cr-0fedcba9876543210"]},
    )
    before = (config_dir / "example.yaml").read_text()
    result = run("capacity-blocks", "use", "cr-0fedcba9876543210", "--env", "example")
    assert result.code == ExitCode.USAGE
    assert "capacity.availability_zone" in result.stderr and "not written" in result.stderr
    assert result.stderr.count("fix:") == 1
    assert (config_dir / "example.yaml").read_text() == before
    assert not [
        p.name for p in config_dir.iterdir() if p.name.startswith(".")
    ]  # no temporary file left behind


def test_use_refuses_a_reservation_for_another_instance_type(aws, run, config_dir):
    aws.stub("ec2").add_response(
        "describe_capacity_reservations",
        {"CapacityReservations": [reservation(instance_type="p5.48xlarge")]},
        {"CapacityReservationIds": ["cr-0fedcba9876543210"]},
    )
    before = (config_dir / "example.yaml").read_text()
    result = run("capacity-blocks", "use", "cr-0fedcba9876543210", "--env", "example")
    assert result.code == ExitCode.USAGE and "p5.48xlarge" in result.stderr
    assert (config_dir / "example.yaml").read_text() == before
