"""A purchase happens at most once (issue 19, item 1): PurchaseCapacityBlock, PurchaseCapacityBlockExtension and
CreateTrainingPlan are sent once, whatever happens to the answer, and a lost answer is looked up and reported as bought
(with the id), NOT bought (safe to run again) or UNKNOWN (exit 13, with the aws command to look).

The first tests run llmops's real AWS clients against stand-ins for EC2 and SageMaker on 127.0.0.1
(tests/ops_cli/aws_stand_in.py, reached through AWS_ENDPOINT_URL_EC2 / AWS_ENDPOINT_URL_SAGEMAKER) that buy and then answer
HTTP 500, never answer, or reset the connection. The others check the lookups against botocore Stubbers.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from ops_cli.aws import Aws
from ops_cli.errors import ExitCode
from ops_cli.purchase_outcome import LOOKUP_DELAYS, PURCHASE_ID_TAG
from tests.ops_cli import aws_stand_in as stand_in
from tests.ops_cli.conftest import client_error

BUY = (
    "capacity-blocks",
    "purchase",
    "--env",
    "example",
    "--offering-id",
    stand_in.OFFERING_ID,
    "--yes",
)
CREATE_PLAN = (
    "training-plans",
    "create",
    "--env",
    "example",
    "--name",
    stand_in.PLAN_NAME,
    "--offering-id",
    "tpo-a",
    "--yes",
)


# --- against a stand-in EC2 ---------------------------------------------------------------------------------------------


def test_a_purchase_whose_answer_is_lost_buys_one_block_and_names_it(against, config_dir):
    ec2 = stand_in.Ec2StandIn(purchase="buy-then-500")
    result, _ = against(ec2, "AWS_ENDPOINT_URL_EC2", *BUY, "--write-config", "example")
    assert (
        len(ec2.actions("PurchaseCapacityBlock")) == 1
    )  # not re-sent (botocore's standard retries re-sent it before)
    assert result.code == ExitCode.OK, result.stderr
    assert "HTTP 500" in result.stderr and "Looking it up" in result.stderr
    assert f"Reservation {stand_in.RESERVATION_ID} is payment-pending." in result.stdout
    assert (
        f"capacity_reservation_id: {stand_in.RESERVATION_ID}\n"
        in (config_dir / "example.yaml").read_text()
    )
    # the lookup found it by the tag this purchase carried
    purchase_id = ec2.reservations[0]["tagSet"][1]
    assert purchase_id["key"] == PURCHASE_ID_TAG and len(purchase_id["value"]) == 32


def test_a_purchase_that_no_lookup_finds_is_still_unknown_never_safe_to_buy_again(against):
    # given EC2 that answers the purchase with a 500 and shows no block to any lookup
    ec2 = stand_in.Ec2StandIn(purchase="500")
    result, clock = against(ec2, "AWS_ENDPOINT_URL_EC2", *BUY, "--json")
    assert len(ec2.actions("PurchaseCapacityBlock")) == 1
    assert len(ec2.actions("DescribeCapacityReservations")) == len(LOOKUP_DELAYS)
    assert clock.sleeps == [
        d for d in LOOKUP_DELAYS if d
    ]  # EC2 is eventually consistent: looked up over two minutes
    # then nothing found is not proof of nothing bought: UNKNOWN with the command to look again, never "safe to run"
    assert result.code == ExitCode.PURCHASE_UNKNOWN
    assert "NOT FOUND" in result.stderr and "safe to run" not in result.stderr
    assert (
        "do NOT buy again before looking once more in a few minutes: aws ec2 describe-capacity-reservations"
        in result.stderr
    )
    assert json.loads(result.stdout)["outcome"] == "not-found"


def test_a_block_that_ec2_shows_only_after_a_minute_is_found_and_named(against):
    # given EC2 that buys, answers 500, and shows the block only from its sixth DescribeCapacityReservations on
    ec2 = stand_in.Ec2StandIn(purchase="buy-then-500", hidden_lookups=5)
    result, clock = against(ec2, "AWS_ENDPOINT_URL_EC2", *BUY)
    # then one purchase, found by the sixth lookup, a minute after the first, and named
    assert len(ec2.actions("PurchaseCapacityBlock")) == 1
    assert len(ec2.actions("DescribeCapacityReservations")) == 6 and sum(clock.sleeps) == sum(
        LOOKUP_DELAYS[:6]
    )
    assert result.code == ExitCode.OK, result.stderr
    assert stand_in.RESERVATION_ID in result.stdout


@pytest.mark.parametrize(
    ("misbehaviour", "lost"), [("hang", "ReadTimeoutError"), ("reset", "ConnectionClosedError")]
)
def test_a_purchase_with_no_answer_is_unknown_and_says_how_to_look(against, misbehaviour, lost):
    """EC2 never answers (the read time-out, shortened here, ends the wait), or resets the connection; and the lookup
    fails the same way: llmops cannot tell, and says so with the command to look."""
    ec2 = stand_in.Ec2StandIn(purchase=misbehaviour, lookup=misbehaviour)
    result, _ = against(ec2, "AWS_ENDPOINT_URL_EC2", *BUY, read_timeout=0.2, attempts=1)
    assert len(ec2.actions("PurchaseCapacityBlock")) == 1
    assert result.code == ExitCode.PURCHASE_UNKNOWN == 13
    assert "UNKNOWN whether this was bought" in result.stderr and lost in result.stderr
    fix = result.stderr.split("fix: ", 1)[1]
    assert fix.startswith(
        "do NOT buy again before looking: aws ec2 describe-capacity-reservations --region us-west-2 "
    )
    assert (
        f"Name=availability-zone,Values={stand_in.ZONE}" in fix
        and f"Key=='{PURCHASE_ID_TAG}'" in fix
    )
    assert "Traceback" not in result.stderr


# --- against a stand-in SageMaker -----------------------------------------------------------------------------------------


def test_a_training_plan_whose_answer_is_lost_is_created_once_and_named(against):
    sagemaker = stand_in.SageMakerStandIn(purchase="buy-then-500")
    result, _ = against(sagemaker, "AWS_ENDPOINT_URL_SAGEMAKER", *CREATE_PLAN)
    assert len(sagemaker.actions("CreateTrainingPlan")) == 1
    assert result.code == ExitCode.OK, result.stderr
    assert f"ARN: {stand_in.PLAN_ARN}" in result.stdout


@pytest.mark.parametrize(
    ("purchase", "code", "words"),
    [
        ("500", ExitCode.PURCHASE_UNKNOWN, "NOT FOUND"),
        (
            "reset",
            ExitCode.PURCHASE_UNKNOWN,
            "aws sagemaker describe-training-plan --region us-west-2 --training-plan-name "
            "kimi-k3-december",
        ),
    ],
)
def test_a_training_plan_not_created_or_unknown(against, purchase, code, words):
    sagemaker = stand_in.SageMakerStandIn(
        purchase=purchase, lookup="answer" if purchase == "500" else "reset"
    )
    result, _ = against(sagemaker, "AWS_ENDPOINT_URL_SAGEMAKER", *CREATE_PLAN, attempts=1)
    assert len(sagemaker.actions("CreateTrainingPlan")) == 1
    assert result.code == code and words in result.stderr


# --- the lookups, against Stubbers -----------------------------------------------------------------------------------------


def test_a_throttled_purchase_is_not_sent_again(aws, run):
    from tests.ops_cli.test_capacity_blocks import expect_search, offering

    expect_search(aws, [[offering(stand_in.OFFERING_ID, "85000.50")]])
    aws.stub("ec2").add_client_error(
        "purchase_capacity_block", **client_error("RequestLimitExceeded", status=503)
    )
    result = run(*BUY)  # a second purchase_capacity_block would fail the Stubber: none is queued
    assert result.code == ExitCode.THROTTLED
    assert (
        "did not send it again" in result.stderr
        and "describe-capacity-reservations" in result.stderr
    )


def test_a_block_of_the_same_dates_without_this_purchase_tag_is_unknown(aws, run):
    """Another block of the same type, zone and dates (bought by hand, say), or this one before its tags show: llmops
    cannot tell them apart, so it does not claim either."""
    from tests.ops_cli.test_capacity_blocks import expect_search, offering, reservation

    expect_search(aws, [[offering(stand_in.OFFERING_ID, "85000.50")]])
    aws.stub("ec2").add_client_error(
        "purchase_capacity_block", **client_error("InternalError", status=500)
    )
    lookup = {
        "Filters": [
            {"Name": "instance-type", "Values": ["p6-b300.48xlarge"]},
            {"Name": "availability-zone", "Values": ["us-west-2a"]},
        ]
    }
    for _ in LOOKUP_DELAYS:
        aws.stub("ec2").add_response(
            "describe_capacity_reservations",
            {
                "CapacityReservations": [
                    {
                        **reservation(),
                        "Tags": [{"Key": PURCHASE_ID_TAG, "Value": "an-earlier-purchase"}],
                    }
                ]
            },
            lookup,
        )
    result = run(*BUY)
    assert result.code == ExitCode.PURCHASE_UNKNOWN
    assert (
        "cr-0fedcba9876543210 has the same type, zone and dates but not this purchase's tag"
        in result.stderr
    )


def test_an_extension_whose_answer_is_lost_is_found_in_the_extension_history(aws, run):
    from tests.ops_cli.test_capacity_extend import (
        END,
        EXTEND,
        OFFERING,
        RESERVATION,
        expect_extensions,
        expect_reservation,
        extension,
    )

    expect_reservation(aws)
    expect_extensions(aws, [[extension("cbe-0000000000000000a", "48500.50")]])
    aws.stub("ec2").add_client_error(
        "purchase_capacity_block_extension", **client_error("InternalError", status=500)
    )
    lookup = {
        "CapacityReservationIds": [RESERVATION],
        "Filters": [
            {"Name": "capacity-block-extension-offering-id", "Values": ["cbe-0000000000000000a"]}
        ],
    }
    aws.stub("ec2").add_response(
        "describe_capacity_block_extension_history", {"CapacityBlockExtensions": []}, lookup
    )
    aws.stub("ec2").add_response(
        "describe_capacity_block_extension_history",
        {
            "CapacityBlockExtensions": [
                {
                    "CapacityReservationId": RESERVATION,
                    "CapacityBlockExtensionOfferingId": "cbe-0000000000000000a",
                    "CapacityBlockExtensionStatus": "payment-pending",
                    "CapacityBlockExtensionEndDate": END + timedelta(hours=24),
                }
            ]
        },
        lookup,
    )
    result = run(*EXTEND, *OFFERING, "--yes", "--json")
    assert result.code == ExitCode.OK, result.stderr
    assert (
        result.json["status"] == "payment-pending"
    )  # found on the second lookup, not bought again


def test_an_extension_lost_and_not_in_the_history_is_still_unknown(aws, run):
    from tests.ops_cli.test_capacity_extend import (
        EXTEND,
        OFFERING,
        expect_extensions,
        expect_reservation,
        extension,
    )

    expect_reservation(aws)
    expect_extensions(aws, [[extension("cbe-0000000000000000a", "48500.50")]])
    aws.stub("ec2").add_client_error(
        "purchase_capacity_block_extension", **client_error("ServiceUnavailable", status=503)
    )
    for _ in LOOKUP_DELAYS:
        aws.stub("ec2").add_response(
            "describe_capacity_block_extension_history", {"CapacityBlockExtensions": []}
        )
    result = run(*EXTEND, *OFFERING, "--yes")
    assert result.code == ExitCode.PURCHASE_UNKNOWN
    assert (
        "NOT FOUND" in result.stderr
        and "describe-capacity-block-extension-history" in result.stderr
    )


def test_the_single_send_client_sends_once_whatever_the_environment_asks():
    aws = Aws(
        "us-west-2",
        environ={"AWS_MAX_ATTEMPTS": "7", "AWS_ACCESS_KEY_ID": "A", "AWS_SECRET_ACCESS_KEY": "B"},
    )
    assert aws.client("ec2", single_send=True).meta.config.retries["total_max_attempts"] == 1
    assert aws.client("ec2").meta.config.retries["total_max_attempts"] == 3
