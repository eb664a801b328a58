"""llmops training-plans extensions / extend, and llmops handover on HyperPod: the environment's training plan, its
extension offerings and extension history, against stubbed SageMaker (the Stubber checks every request against
botocore's SageMaker model). A purchase is sent once and never twice for one offering."""

from __future__ import annotations

from datetime import timedelta

import pytest

from ops_cli.errors import ExitCode
from ops_cli.purchase_outcome import LOOKUP_DELAYS
from tests.ops_cli.conftest import NOW, client_error

#: config/example-hyperpod.yaml's plan.
PLAN_ARN = "arn:aws:sagemaker:us-west-2:123456789012:training-plan/kimi-k3-example"
START, END = NOW - timedelta(days=1), NOW + timedelta(days=1)
CHEAP, DEAR = "tpeo-00000000000000a", "tpeo-00000000000000b"
ENV = ("--env", "example-hyperpod")


def expect_plan(aws, status: str = "Active", end=END, start=START) -> None:
    aws.stub("sagemaker").add_response(
        "describe_training_plan",
        {
            "TrainingPlanArn": PLAN_ARN,
            "TrainingPlanName": "kimi-k3-example",
            "Status": status,
            "StartTime": start,
            "EndTime": end,
            "UpfrontFee": "35000.00",
            "CurrencyCode": "USD",
            "TotalInstanceCount": 1,
            "TargetResources": ["hyperpod-cluster"],
            "ReservedCapacitySummaries": [],
        },
        {"TrainingPlanName": PLAN_ARN},
    )


def offering(offering_id: str, fee: str, hours: int = 48) -> dict:
    return {
        "TrainingPlanExtensionOfferingId": offering_id,
        "AvailabilityZone": "us-west-2a",
        "StartDate": END,
        "EndDate": END + timedelta(hours=hours),
        "DurationHours": hours,
        "UpfrontFee": fee,
        "CurrencyCode": "USD",
    }


def expect_offerings(aws, items: list[dict], hours: int | None = None) -> None:
    params = {"TrainingPlanArn": PLAN_ARN} | ({"DurationHours": hours} if hours else {})
    aws.stub("sagemaker").add_response(
        "search_training_plan_offerings",
        {"TrainingPlanOfferings": [], "TrainingPlanExtensionOfferings": items},
        params,
    )


def extension(
    offering_id: str, start, hours: int = 48, status: str = "Scheduled", fee: str = "48500.50"
) -> dict:
    return {
        "TrainingPlanExtensionOfferingId": offering_id,
        "ExtendedAt": NOW - timedelta(hours=2),
        "StartDate": start,
        "EndDate": start + timedelta(hours=hours),
        "Status": status,
        "PaymentStatus": {"Pending": "Pending", "Failed": "Failed"}.get(status, "Completed"),
        "AvailabilityZone": "us-west-2a",
        "DurationHours": hours,
        "UpfrontFee": fee,
        "CurrencyCode": "USD",
    }


def expect_history(aws, *pages: list[dict]) -> None:
    """The plan's extension history, in ``pages`` (one empty page when none is given)."""
    for index, items in enumerate(pages or ([],)):
        params = {"TrainingPlanArn": PLAN_ARN} | ({"NextToken": f"page-{index}"} if index else {})
        answer = {"TrainingPlanExtensions": items}
        if index + 1 < len(pages):
            answer["NextToken"] = f"page-{index + 1}"
        aws.stub("sagemaker").add_response(
            "describe_training_plan_extension_history", answer, params
        )


def count_extend_calls(aws) -> list[dict]:
    """The parameters of every ExtendTrainingPlan request llmops makes (provide-client-params is emitted for each call,
    before the Stubber answers it)."""
    sent: list[dict] = []

    def record(params, **_):
        sent.append(dict(params))

    aws.on("sagemaker", "provide-client-params.sagemaker.ExtendTrainingPlan", record)
    return sent


# --- extensions -------------------------------------------------------------------------------------------------------


def test_given_two_offerings_then_they_are_listed_cheapest_first_with_dates_length_and_fee(
    aws, run
):
    # given an Active plan with two extension offerings, the dearer one first in SageMaker's answer
    expect_plan(aws)
    expect_offerings(aws, [offering(DEAR, "52000.00"), offering(CHEAP, "48500.50", hours=24)])
    # when they are listed
    result = run("training-plans", "extensions", *ENV)
    # then the cheapest is first, from the plan's end to the new end, its length and fee with currency
    assert result.code == ExitCode.OK, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split()[:2] == ["offering", "from"]
    assert lines[2].startswith(CHEAP) and "48,500.50 USD" in lines[2] and " 1d " in lines[2]
    assert lines[2].count("2026-12-01 12:00 UTC") == 1 and "2026-12-02 12:00 UTC" in lines[2]
    assert lines[3].startswith(DEAR) and "52,000.00 USD" in lines[3] and " 2d " in lines[3]
    assert "training-plans extend --env example-hyperpod --offering-id ID --yes" in result.stdout


def test_the_json_list_has_each_offering_s_id_period_length_fee_and_currency(aws, run):
    expect_plan(aws, status="Scheduled")
    expect_offerings(aws, [offering(CHEAP, "48500.50")], hours=48)
    result = run("training-plans", "extensions", *ENV, "--duration-hours", "48", "--json")
    assert result.code == ExitCode.OK, result.stderr
    assert result.json == [
        {
            "offering_id": CHEAP,
            "training_plan_arn": PLAN_ARN,
            "availability_zone": "us-west-2a",
            "extension_start": "2026-12-01T12:00:00Z",
            "extension_end": "2026-12-03T12:00:00Z",
            "duration_hours": 48,
            "upfront_fee": "48500.50",
            "currency": "USD",
        }
    ]


def test_a_fee_that_is_no_number_is_shown_as_unknown_not_a_crash(aws, run):
    expect_plan(aws)
    expect_offerings(aws, [offering(CHEAP, "NaN"), offering(DEAR, "about 50k")])
    result = run("training-plans", "extensions", *ENV, "--json")
    assert result.code == ExitCode.OK, result.stderr
    assert [o["upfront_fee"] for o in result.json] == [None, None]


def test_no_offering_is_said_in_words(aws, run):
    expect_plan(aws)
    expect_offerings(aws, [], hours=24)
    result = run("training-plans", "extensions", *ENV, "--duration-hours", "24")
    assert result.code == ExitCode.OK
    assert "No 1d extension offerings for kimi-k3-example" in result.stdout


@pytest.mark.parametrize("status", ["Expired", "Failed", "Pending"])
def test_a_plan_sagemaker_would_not_extend_is_refused_before_offerings_are_asked_for(
    aws, run, status
):
    expect_plan(aws, status=status)  # no search queued: a call would fail the Stubber
    result = run("training-plans", "extensions", *ENV)
    assert result.code == ExitCode.CHECK_FAILED
    assert f"is {status}: only an Active or Scheduled plan can be extended" in result.stderr


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("extensions", "--env", "example"), "example has no hyperpod section (platform eks)"),
        (("extensions", *ENV, "--duration-hours", "25"), "--duration-hours 25 is not a training"),
        (("extend", *ENV, "--offering-id", "TPEO 1"), "is not a training plan extension offering"),
        (("extend", *ENV, "--offering-id", CHEAP, "--duration-hours", "400"), "not a training"),
    ],
)
def test_arguments_that_cannot_work_fail_before_any_call(run, arguments, message):
    result = run("training-plans", *arguments)
    assert result.code == ExitCode.USAGE and message in result.stderr and "fix:" in result.stderr


# --- extend -----------------------------------------------------------------------------------------------------------


def test_without_yes_nothing_is_bought_and_the_fee_is_shown(aws, run):
    expect_plan(aws)
    expect_history(aws)
    expect_offerings(aws, [offering(CHEAP, "48500.50")])
    sent = count_extend_calls(aws)
    result = run("training-plans", "extend", *ENV, "--offering-id", CHEAP)
    assert result.code == ExitCode.CONFIRMATION_REQUIRED and sent == []
    assert "not extended" in result.stderr and "48,500.50 USD" in result.stderr
    assert "--yes" in result.stderr


def expect_extend(aws, offering_id: str = CHEAP) -> None:
    aws.stub("sagemaker").add_response(
        "extend_training_plan",
        {
            "TrainingPlanExtensions": [
                extension("tpeo-00000000000000z", START, status="Expired"),
                extension(offering_id, END, status="Pending"),
            ]
        },
        {"TrainingPlanExtensionOfferingId": offering_id},
    )


def test_with_yes_the_exact_offering_is_sent_once_and_the_new_end_and_fee_are_printed(aws, run):
    # given an offering on offer and not in the history
    expect_plan(aws)
    expect_history(aws)
    expect_offerings(aws, [offering(DEAR, "52000.00"), offering(CHEAP, "48500.50")])
    expect_extend(aws)
    sent = count_extend_calls(aws)
    # when it is bought
    result = run("training-plans", "extend", *ENV, "--offering-id", CHEAP, "--yes")
    # then ExtendTrainingPlan went out once, with that offering's id only (the Stubber checked the parameters)
    assert result.code == ExitCode.OK, result.stderr
    assert sent == [{"TrainingPlanExtensionOfferingId": CHEAP}]
    # and the new end and the fee are printed, from this extension (not the other one in SageMaker's answer)
    assert "the plan's new end: 2026-12-03 12:00 UTC" in result.stdout
    assert "fee 48,500.50 USD" in result.stdout and "Pending (payment Pending)" in result.stdout


def test_with_yes_and_json_the_extension_bought_is_the_answer(aws, run):
    expect_plan(aws)
    expect_history(aws)
    expect_offerings(aws, [offering(CHEAP, "48500.50")], hours=48)
    expect_extend(aws)
    result = run(
        "training-plans",
        "extend",
        *ENV,
        "--offering-id",
        CHEAP,
        "--duration-hours",
        "48",
        "--yes",
        "--json",
    )
    assert result.code == ExitCode.OK, result.stderr
    assert result.json["training_plan_arn"] == PLAN_ARN
    assert result.json["offering"]["offering_id"] == CHEAP
    assert result.json["extension"] == {
        "offering_id": CHEAP,
        "extended_at": "2026-11-30T10:00:00Z",
        "start": "2026-12-01T12:00:00Z",
        "end": "2026-12-03T12:00:00Z",
        "duration_hours": 48,
        "status": "Pending",
        "payment_status": "Pending",
        "upfront_fee": "48500.50",
        "currency": "USD",
    }
    assert "extended: kimi-k3-example to 2026-12-03T12:00:00Z" in result.stderr


def test_an_offering_already_in_the_history_is_refused_and_nothing_is_sent(aws, run):
    # given a history of two pages whose second has this offering (bought earlier, by anyone)
    expect_plan(aws)
    expect_history(aws, [extension(DEAR, START)], [extension(CHEAP, END)])
    sent = count_extend_calls(aws)
    # when it is bought again, --yes and all
    result = run("training-plans", "extend", *ENV, "--offering-id", CHEAP, "--yes")
    # then nothing is sent (no search either: the Stubber has none queued) and the message says why
    assert result.code == ExitCode.ALREADY_EXISTS and sent == []
    assert f"extension offering {CHEAP} was already bought" in result.stderr
    assert "nothing was sent" in result.stderr


def test_an_offering_that_is_not_one_of_the_plan_s_now_is_refused(aws, run):
    expect_plan(aws)
    expect_history(aws)
    expect_offerings(aws, [offering(DEAR, "52000.00")])
    sent = count_extend_calls(aws)
    result = run("training-plans", "extend", *ENV, "--offering-id", CHEAP, "--yes")
    assert result.code == ExitCode.OFFERING_GONE and sent == []
    assert f"{CHEAP} is not one of the extension offerings of {PLAN_ARN} now" in result.stderr


def test_an_ambiguous_failure_is_never_retried_and_says_to_look_at_the_history(aws, run, clock):
    # given SageMaker answers the purchase with HTTP 500, and the history never shows it
    expect_plan(aws)
    expect_history(aws)
    expect_offerings(aws, [offering(CHEAP, "48500.50")])
    aws.stub("sagemaker").add_client_error(
        "extend_training_plan",
        **client_error("InternalFailure", "internal failure", 500),
        expected_params={"TrainingPlanExtensionOfferingId": CHEAP},
    )
    for _ in LOOKUP_DELAYS:
        expect_history(aws)
    sent = count_extend_calls(aws)
    # when it is bought
    result = run("training-plans", "extend", *ENV, "--offering-id", CHEAP, "--yes")
    # then it was sent once, looked up in the history over two minutes, and reported as unknown, never as safe to send
    assert len(sent) == 1
    assert clock.sleeps == [d for d in LOOKUP_DELAYS if d]
    assert result.code == ExitCode.PURCHASE_UNKNOWN
    assert "HTTP 500" in result.stderr and "do NOT buy again before looking" in result.stderr
    assert (
        "aws sagemaker describe-training-plan-extension-history --region us-west-2 --training-plan-arn "
        f"{PLAN_ARN} --query \"TrainingPlanExtensions[?TrainingPlanExtensionOfferingId=='{CHEAP}']\""
    ) in result.stderr


def test_a_lost_answer_found_in_the_history_is_reported_as_bought(aws, run):
    expect_plan(aws)
    expect_history(aws)
    expect_offerings(aws, [offering(CHEAP, "48500.50")])
    aws.stub("sagemaker").add_client_error(
        "extend_training_plan", **client_error("ServiceUnavailable", "unavailable", 503)
    )
    expect_history(aws, [extension(CHEAP, END, status="Pending")])
    result = run("training-plans", "extend", *ENV, "--offering-id", CHEAP, "--yes")
    assert result.code == ExitCode.OK, result.stderr
    assert "Found it in the extension history" in result.stderr
    assert "the plan's new end: 2026-12-03 12:00 UTC" in result.stdout


def test_a_throttled_purchase_is_not_sent_again(aws, run):
    expect_plan(aws)
    expect_history(aws)
    expect_offerings(aws, [offering(CHEAP, "48500.50")])
    aws.stub("sagemaker").add_client_error(
        "extend_training_plan", **client_error("ThrottlingException", "Rate exceeded")
    )
    sent = count_extend_calls(aws)
    result = run("training-plans", "extend", *ENV, "--offering-id", CHEAP, "--yes")
    assert result.code == ExitCode.THROTTLED and len(sent) == 1
    assert "llmops did not send it again" in result.stderr


# --- handover on HyperPod ---------------------------------------------------------------------------------------------


def test_handover_on_hyperpod_with_an_extension_ahead_shows_the_timeline_and_exits_0(aws, run):
    # given a plan whose end (in three days) includes an extension bought from its first end, and one that failed
    expect_plan(aws, end=END + timedelta(hours=48))
    expect_history(aws, [extension(DEAR, START, hours=24, status="Failed"), extension(CHEAP, END)])
    # when the handover is asked for
    result = run("handover", *ENV, "--json")
    # then the plan, the extensions and the steps in time order are shown, and an extension ahead is bought
    assert result.code == ExitCode.OK, result.stderr
    answer = result.json
    assert answer["platform"] == "hyperpod" and answer["verdict"] == "extension bought"
    assert answer["hours_left"] == 72.0 and answer["plan"]["arn"] == PLAN_ARN
    assert [(e["offering_id"], e["status"]) for e in answer["extensions"]] == [
        (DEAR, "Failed"),
        (CHEAP, "Scheduled"),
    ]
    assert answer["extensions"][1]["start"] == "2026-12-01T12:00:00Z"
    assert answer["extensions"][1]["end"] == "2026-12-03T12:00:00Z"
    times = [s["at"] for s in answer["steps"]]
    assert times == sorted(times) and answer["warnings"] == []
    assert [s["what"].split(":")[0] for s in answer["steps"]] == [
        "training plan kimi-k3-example starts (Active)",
        f"extension {DEAR}",
        "now",
        f"extension {CHEAP}",
        "kimi-k3-example ends",
    ]


def test_handover_on_hyperpod_warns_of_an_extension_the_plan_s_end_does_not_include_yet(aws, run):
    expect_plan(aws, end=END)
    expect_history(aws, [extension(CHEAP, END, status="Pending")])
    result = run("handover", *ENV)
    assert result.code == ExitCode.OK, result.stderr
    assert "extension bought: the plan runs to 2026-12-01 12:00 UTC" in result.stdout
    assert f"warning: extension {CHEAP} ends 2026-12-03 12:00 UTC" in result.stdout
    assert "the plan does not include it yet (Pending, payment Pending)" in result.stdout


def test_handover_on_hyperpod_without_an_extension_says_how_to_extend_and_exits_1(aws, run):
    expect_plan(aws)
    expect_history(aws)
    result = run("handover", *ENV)
    assert result.code == ExitCode.CHECK_FAILED
    assert (
        "no extension bought: the endpoint stops when the plan ends, 1d from now" in result.stdout
    )
    assert "bin/llmops training-plans extensions --env example-hyperpod" in result.stdout
    assert "bin/llmops training-plans extend --env example-hyperpod" in result.stdout
    lines = result.stdout.splitlines()
    assert lines[0].startswith(
        "example-hyperpod: training plan kimi-k3-example, Active, 0 extension"
    )


def test_handover_on_hyperpod_with_the_plan_over_says_to_buy_a_new_plan(aws, run):
    expect_plan(aws, status="Expired", end=NOW - timedelta(hours=1))
    expect_history(aws)
    result = run("handover", *ENV, "--json")
    assert result.code == ExitCode.CHECK_FAILED
    assert result.json["verdict"] == "plan over" and result.json["extend_commands"] == []
    assert "it cannot be extended; buy a new plan" in result.json["warnings"][0]


def test_handover_on_hyperpod_before_the_plan_starts_says_when_it_starts_and_ends(aws, run):
    expect_plan(
        aws, status="Scheduled", start=NOW + timedelta(hours=84), end=NOW + timedelta(hours=132)
    )
    expect_history(aws)
    result = run("handover", *ENV, "--json")
    assert result.code == ExitCode.CHECK_FAILED and result.json["verdict"] == "no extension bought"
    assert result.json["steps"][0] == {
        "at": "2026-11-30T12:00:00Z",
        "what": "now: the plan starts in 3d 12h and ends in 5d 12h",
    }
