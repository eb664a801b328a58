"""llmops capacity-blocks extend: the extension offerings of a reservation, and buying one (--yes), against stubbed EC2
(the Stubber checks every request against botocore's EC2 model)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from ops_cli.errors import ExitCode
from tests.ops_cli.conftest import NOW, client_error

RESERVATION = "cr-0fedcba9876543210"
END = NOW + timedelta(days=2)
#: ``llmops capacity-blocks extend`` of RESERVATION by a day; the tests add the offering and what else they ask.
EXTEND = (
    "capacity-blocks",
    "extend",
    RESERVATION,
    "--region",
    "us-west-2",
    "--duration-hours",
    "24",
)
OFFERING = ("--offering-id", "cbe-0000000000000000a")


def expect_reservation(
    aws, *, state: str = "active", end=END, reservation_id: str = RESERVATION
) -> None:
    aws.stub("ec2").add_response(
        "describe_capacity_reservations",
        {
            "CapacityReservations": [
                {
                    "CapacityReservationId": reservation_id,
                    "InstanceType": "p6-b300.48xlarge",
                    "AvailabilityZone": "us-west-2a",
                    "TotalInstanceCount": 1,
                    "State": state,
                    "StartDate": NOW - timedelta(days=1),
                    "EndDate": end,
                    "ReservationType": "capacity-block",
                }
            ]
        },
        {"CapacityReservationIds": [reservation_id]},
    )


def extension(offering_id: str, fee: str, hours: int = 24) -> dict:
    return {
        "CapacityBlockExtensionOfferingId": offering_id,
        "InstanceType": "p6-b300.48xlarge",
        "InstanceCount": 1,
        "AvailabilityZone": "us-west-2a",
        "StartDate": NOW - timedelta(days=1),
        "CapacityBlockExtensionStartDate": END,
        "CapacityBlockExtensionEndDate": END + timedelta(hours=hours),
        "CapacityBlockExtensionDurationHours": hours,
        "UpfrontFee": fee,
        "CurrencyCode": "USD",
    }


def expect_extensions(
    aws, pages: list[list[dict]], hours: int = 24, reservation_id: str = RESERVATION
) -> None:
    for index, items in enumerate(pages):
        params = {
            "CapacityReservationId": reservation_id,
            "CapacityBlockExtensionDurationHours": hours,
        }
        if index:
            params["NextToken"] = f"page-{index}"
        response = {"CapacityBlockExtensionOfferings": items}
        if index + 1 < len(pages):
            response["NextToken"] = f"page-{index + 1}"
        aws.stub("ec2").add_response(
            "describe_capacity_block_extension_offerings", response, params
        )


def test_extension_offerings_follow_every_page_cheapest_first(aws, run):
    expect_reservation(aws)
    expect_extensions(
        aws,
        [
            [extension("cbe-0000000000000000b", "52000.00")],
            [extension("cbe-0000000000000000a", "48500.50")],
        ],
    )
    result = run(*EXTEND)
    assert result.code == ExitCode.OK, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split()[:2] == ["offering", "from"]
    assert (
        lines[2].startswith("cbe-0000000000000000a")
        and "48,500.50 USD" in lines[2]
        and "1d" in lines[2]
    )
    assert lines[3].startswith("cbe-0000000000000000b")


def test_with_env_the_environments_reservation_is_extended(aws, run):
    expect_reservation(aws, reservation_id="cr-0123456789abcdef0")
    expect_extensions(
        aws,
        [[extension("cbe-0000000000000000a", "48500.50")]],
        reservation_id="cr-0123456789abcdef0",
    )
    result = run(
        "capacity-blocks", "extend", "--env", "example", "--duration-hours", "24", "--json"
    )
    assert result.code == ExitCode.OK, result.stderr
    assert result.json[0]["reservation_id"] == "cr-0123456789abcdef0"


def test_without_yes_nothing_is_bought_and_the_fee_is_shown(aws, run):
    expect_reservation(aws)
    expect_extensions(aws, [[extension("cbe-0000000000000000a", "48500.50")]])
    result = run(*EXTEND, *OFFERING)
    # no purchase call was stubbed: the Stubber would fail one
    assert result.code == ExitCode.CONFIRMATION_REQUIRED
    assert (
        "not extended" in result.stderr
        and "48,500.50 USD" in result.stderr
        and "--yes" in result.stderr
    )


def test_with_yes_the_extension_is_bought_and_its_payment_state_explained(aws, run):
    expect_reservation(aws)
    expect_extensions(aws, [[extension("cbe-0000000000000000a", "48500.50")]])
    aws.stub("ec2").add_response(
        "purchase_capacity_block_extension",
        {
            "CapacityBlockExtensions": [
                {
                    "CapacityReservationId": RESERVATION,
                    "CapacityBlockExtensionOfferingId": "cbe-0000000000000000a",
                    "CapacityBlockExtensionStatus": "payment-pending",
                    "CapacityBlockExtensionStartDate": END,
                    "CapacityBlockExtensionEndDate": END + timedelta(hours=24),
                    "CapacityBlockExtensionDurationHours": 24,
                    "UpfrontFee": "48500.50",
                    "CurrencyCode": "USD",
                }
            ]
        },
        {
            "CapacityBlockExtensionOfferingId": "cbe-0000000000000000a",
            "CapacityReservationId": RESERVATION,
            "DryRun": False,
        },
    )
    result = run(*EXTEND, *OFFERING, "--yes", "--json")
    assert result.code == ExitCode.OK, result.stderr
    assert result.json["status"] == "payment-pending"
    assert result.json["extension_end"] == (END + timedelta(hours=24)).isoformat().replace(
        "+00:00", "Z"
    )


def test_a_dry_run_asks_ec2_and_buys_nothing(aws, run):
    expect_reservation(aws)
    expect_extensions(aws, [[extension("cbe-0000000000000000a", "48500.50")]])
    aws.stub("ec2").add_client_error(
        "purchase_capacity_block_extension",
        **client_error("DryRunOperation", status=412),
        expected_params={
            "CapacityBlockExtensionOfferingId": "cbe-0000000000000000a",
            "CapacityReservationId": RESERVATION,
            "DryRun": True,
        },
    )
    result = run(*EXTEND, *OFFERING, "--dry-run")
    assert result.code == ExitCode.OK and "Nothing was bought" in result.stdout


def test_an_offering_that_is_gone_is_reported_as_gone(aws, run):
    expect_reservation(aws)
    expect_extensions(aws, [[extension("cbe-0000000000000000b", "52000.00")]])
    result = run(*EXTEND, *OFFERING, "--yes")
    assert result.code == ExitCode.OFFERING_GONE and "no longer offered" in result.stderr


@pytest.mark.parametrize(
    ("state", "end", "message"),
    [
        ("expired", END, "is expired: only an active or scheduled Capacity Block can be extended"),
        ("active", NOW + timedelta(minutes=30), "in less than an hour"),
        ("scheduled", NOW + timedelta(days=60), "more than 56 days from now"),
    ],
)
def test_a_reservation_ec2_would_not_extend_is_refused_before_any_offering_is_asked_for(
    aws, run, state, end, message
):
    expect_reservation(aws, state=state, end=end)
    result = run(*EXTEND)
    assert result.code == ExitCode.CHECK_FAILED and message in result.stderr


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            (RESERVATION, "--duration-hours", "25"),
            "--duration-hours 25 is not a Capacity Block duration",
        ),
        (("cr-123", "--duration-hours", "24"), "is not a capacity reservation id"),
        (
            (RESERVATION, "--duration-hours", "24", "--offering-id", "CBE 1"),
            "is not a Capacity Block extension offering id",
        ),
        (("--duration-hours", "24"), "no reservation"),
    ],
)
def test_arguments_that_cannot_work_fail_before_any_call(run, arguments, message):
    result = run("capacity-blocks", "extend", *arguments)
    assert result.code == ExitCode.USAGE and message in result.stderr and "fix:" in result.stderr
