"""What the publisher puts for "What the block earns": a minute with or without a running request (from a stubbed AMP
answer), and each minute's share of the block's fee (from stubbed EC2 and SageMaker answers; the Stubber checks them
against botocore's models)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from botocore.stub import ANY

from cdk_constructs.serving_metrics import (
    BLOCK_COST_USD,
    CAPACITY_BLOCK_HOURS_LEFT,
    NAMESPACE,
    PUBLISHED_METRICS,
    SERVING_BUSY,
    TRAINING_PLAN_HOURS_LEFT,
)
from cdk_constructs.serving_metrics.runtime import handler
from tests.cdk_constructs import test_observability as observed
from tests.cdk_constructs.test_observability import NOW, _event, _hyperpod_event, _vector
from tests.conftest import bare_app

#: test_observability.py's stubbed cloudwatch, elbv2, ec2 and sagemaker clients.
clients = observed.clients

FEE = 91540.8
#: A block that started 24 hours before NOW and ends 10 hours after: 34 hours.
START, END = (datetime.fromtimestamp(NOW + h * 3600, UTC) for h in (-24, 10))


def test_serving_busy_is_1_in_a_minute_with_a_running_request_and_absent_while_vllm_does_not_serve():
    busy = PUBLISHED_METRICS[SERVING_BUSY]
    # the query: any scrape of the last minute with a running request, over every engine and pod
    assert busy.query == 'max(max_over_time(vllm:num_requests_running{job="vllm"}[1m])) > bool 0'
    assert busy.series == ("vllm:num_requests_running",) and busy.when_empty is None
    event = {**_event([busy.as_event()])}
    for answer, put in ((_vector("1"), [1.0]), (_vector("0"), [0.0]), (_vector(), [])):
        data = handler.query_metrics(event, NOW, lambda url, params, a=answer: a)
        assert [d["Value"] for d in data] == put
        assert all(d["MetricName"] == SERVING_BUSY and d["Unit"] == "Count" for d in data)


def _no_load_balancer(clients) -> None:
    clients["elbv2"].add_response("describe_load_balancers", {"LoadBalancers": []})
    clients["cloudwatch"].add_response(
        "put_metric_data", {}, {"Namespace": NAMESPACE, "MetricData": ANY}
    )


def _extensions(clients, ids: list[str], *extensions: dict) -> None:
    """DescribeCapacityBlockExtensionHistory's answer: one call for every reservation id of the event."""
    clients["ec2"].add_response(
        "describe_capacity_block_extension_history",
        {"CapacityBlockExtensions": list(extensions)},
        {"CapacityReservationIds": ids},
    )


def _reservation(clients, start: datetime, end: datetime, *, history: bool = True) -> None:
    clients["ec2"].add_response(
        "describe_capacity_reservations",
        {
            "CapacityReservations": [
                {
                    "CapacityReservationId": "cr-0123456789abcdef0",
                    "State": "active",
                    "StartDate": start,
                    "EndDate": end,
                }
            ]
        },
        {"CapacityReservationIds": ["cr-0123456789abcdef0"]},
    )
    if history:
        _extensions(clients, ["cr-0123456789abcdef0"])


def _publish(clients, event: dict) -> dict[str, float]:
    put = handler.publish(
        event,
        now=NOW,
        query=None,
        cloudwatch=clients["cloudwatch"].client,
        elbv2=clients["elbv2"].client,
        ec2=clients["ec2"].client,
        sagemaker=clients["sagemaker"].client,
    )
    return {d["MetricName"]: d["Value"] for d in put}


def _with_fee(event: dict) -> dict:
    return {**event, "blockFeeUsd": FEE, "blockCostMetric": BLOCK_COST_USD}


def test_each_minute_of_a_capacity_block_puts_its_share_of_the_configured_fee(clients):
    # given a 34-hour block that runs, and its fee in the event (observability.block_fee_usd)
    _no_load_balancer(clients)
    _reservation(clients, START, END)
    # when the publisher runs: one call to EC2 gives the hours left and the minute's share of the fee
    put = _publish(clients, _with_fee(_event([])))
    assert put[CAPACITY_BLOCK_HOURS_LEFT] == pytest.approx(10.0)
    assert put[BLOCK_COST_USD] == pytest.approx(FEE * 60 / (34 * 3600))


@pytest.mark.parametrize(
    "start, end, why",
    [
        (NOW + 3600, NOW + 25 * 3600, "before the block"),
        (NOW - 25 * 3600, NOW - 3600, "after the block"),
    ],
)
def test_a_minute_outside_the_block_costs_it_nothing(clients, start, end, why):
    _no_load_balancer(clients)
    _reservation(clients, *(datetime.fromtimestamp(t, UTC) for t in (start, end)))
    assert BLOCK_COST_USD not in _publish(clients, _with_fee(_event([]))), why


def test_without_the_fee_in_the_event_nothing_is_put_for_it(clients):
    # (and the extension history is not read: no fee, no cost; the Stubber fails on an unexpected call)
    _no_load_balancer(clients)
    _reservation(clients, START, END, history=False)
    assert BLOCK_COST_USD not in _publish(clients, _event([]))


@pytest.mark.parametrize("currency, put", [("USD", True), ("EUR", False)])
def test_on_hyperpod_the_fee_is_the_training_plans_in_usd(clients, currency, put):
    # given a 48-hour training plan with its upfront fee, as DescribeTrainingPlan answers
    _no_load_balancer(clients)
    clients["sagemaker"].add_response(
        "describe_training_plan",
        {
            "TrainingPlanArn": "arn:aws:sagemaker:us-west-2:123456789012:training-plan/kimi-k3-december",
            "TrainingPlanName": "kimi-k3-december",
            "Status": "Active",
            "StartTime": START,
            "EndTime": datetime.fromtimestamp(NOW + 24 * 3600, UTC),
            "UpfrontFee": "70400.00",
            "CurrencyCode": currency,
        },
        {"TrainingPlanName": "kimi-k3-december"},
    )
    event = {**_hyperpod_event(), "blockCostMetric": BLOCK_COST_USD}
    values = _publish(clients, event)
    assert values[TRAINING_PLAN_HOURS_LEFT] == pytest.approx(24.0)
    # then a USD fee is spread over the plan's minutes; another currency is not put as USD
    if put:
        assert values[BLOCK_COST_USD] == pytest.approx(70400 * 60 / (48 * 3600))
    else:
        assert BLOCK_COST_USD not in values


# --- serving across blocks: the next Capacity Block (capacity.next_capacity_reservation_id) ----------------------------

NEXT = "cr-0fedcba9876543210"


def _at(hours: float) -> datetime:
    return datetime.fromtimestamp(NOW + hours * 3600, UTC)


def _both_reservations(clients, current: dict, following: dict, *extensions: dict) -> None:
    # one DescribeCapacityReservations call for both blocks; EC2 answers in its own order, here the next block first
    clients["ec2"].add_response(
        "describe_capacity_reservations",
        {
            "CapacityReservations": [
                {"CapacityReservationId": NEXT, **following},
                {"CapacityReservationId": "cr-0123456789abcdef0", **current},
            ]
        },
        {"CapacityReservationIds": ["cr-0123456789abcdef0", NEXT]},
    )
    # and one DescribeCapacityBlockExtensionHistory call for both
    _extensions(clients, ["cr-0123456789abcdef0", NEXT], *extensions)


def _with_next(event: dict) -> dict:
    return {**_with_fee(event), "nextCapacityReservationId": NEXT}


@pytest.mark.parametrize(
    "current, following, hours_left, why",
    [
        (
            {"State": "active", "StartDate": START, "EndDate": _at(1)},
            {"State": "active", "StartDate": _at(-2), "EndDate": _at(30)},
            30.0,
            "the blocks overlap: serving ends with the next block",
        ),
        (
            {"State": "active", "StartDate": START, "EndDate": _at(1)},
            {"State": "scheduled", "StartDate": _at(1), "EndDate": _at(25)},
            25.0,
            "back to back: serving ends with the next block",
        ),
        (
            {"State": "expired", "StartDate": START, "EndDate": _at(-1)},
            {"State": "active", "StartDate": _at(-3), "EndDate": _at(20)},
            20.0,
            "the current block has ended and the next one serves",
        ),
        (
            {"State": "active", "StartDate": START, "EndDate": _at(1)},
            {"State": "scheduled", "StartDate": _at(3), "EndDate": _at(27)},
            1.0,
            "a gap: serving stops when the current block ends",
        ),
        (
            {"State": "expired", "StartDate": START, "EndDate": _at(-1)},
            {"State": "expired", "StartDate": _at(-3), "EndDate": _at(-0.5)},
            0.0,
            "both have ended",
        ),
        (
            {"State": "active", "StartDate": START, "EndDate": _at(1)},
            {"State": "payment-failed", "StartDate": _at(-2), "EndDate": _at(30)},
            1.0,
            "the next block's payment failed (EC2 released it): serving stops when the current block ends",
        ),
        (
            {"State": "scheduled", "StartDate": _at(3), "EndDate": _at(27)},
            {"State": "active", "StartDate": START, "EndDate": _at(1)},
            1.0,
            "slots swapped after a handover (capacity_reservation_id holds the block after the one that serves), "
            "and a gap: serving stops when the block that serves ends",
        ),
        (
            {"State": "active", "StartDate": _at(-2), "EndDate": _at(30)},
            {"State": "active", "StartDate": START, "EndDate": _at(1)},
            30.0,
            "slots swapped and the blocks overlap: serving ends with the later block",
        ),
    ],
)
def test_with_a_next_block_the_hours_left_count_to_the_end_of_serving_on_both(
    clients, current, following, hours_left, why
):
    # given both reservations, read in the one call (the Stubber checks CapacityReservationIds)
    _no_load_balancer(clients)
    _both_reservations(clients, current, following)
    # when the publisher runs with the next block in its event
    put = _publish(clients, _with_next(_event([])))
    # then CapacityEndingSoon watches the end of serving: not the current block's end while the next one serves on
    assert put[CAPACITY_BLOCK_HOURS_LEFT] == pytest.approx(hours_left), why


def test_with_a_next_block_but_not_its_fee_the_share_is_the_current_blocks_alone(clients):
    # given the current 34-hour block running and the next one overlapping it, without the next block's fee
    _no_load_balancer(clients)
    _both_reservations(
        clients,
        {"State": "active", "StartDate": START, "EndDate": END},
        {"State": "active", "StartDate": _at(-1), "EndDate": _at(40)},
    )
    put = _publish(clients, _with_next(_event([])))
    assert put[BLOCK_COST_USD] == pytest.approx(FEE * 60 / (34 * 3600))
    assert put[CAPACITY_BLOCK_HOURS_LEFT] == pytest.approx(40.0)


NEXT_FEE = 45770.4


def _with_both_fees(event: dict) -> dict:
    return {**_with_next(event), "nextBlockFeeUsd": NEXT_FEE}


def test_while_the_blocks_overlap_each_minute_puts_both_blocks_shares(clients):
    # given the current 34-hour block and the next 41-hour block, both running now, both fees configured
    _no_load_balancer(clients)
    _both_reservations(
        clients,
        {"State": "active", "StartDate": START, "EndDate": END},
        {"State": "active", "StartDate": _at(-1), "EndDate": _at(40)},
    )
    # when the publisher runs, then the minute costs its share of each block: both are paid
    put = _publish(clients, _with_both_fees(_event([])))
    assert put[BLOCK_COST_USD] == pytest.approx(
        FEE * 60 / (34 * 3600) + NEXT_FEE * 60 / (41 * 3600)
    )


def test_a_next_block_whose_payment_failed_adds_nothing_to_the_minutes_cost(clients):
    # given the next block released after its payment failed, in its own dates, its fee still configured
    _no_load_balancer(clients)
    _both_reservations(
        clients,
        {"State": "active", "StartDate": START, "EndDate": END},
        {"State": "payment-failed", "StartDate": _at(-1), "EndDate": _at(40)},
    )
    # when the publisher runs, then the minute costs the current block's share alone: the other was never paid
    put = _publish(clients, _with_both_fees(_event([])))
    assert put[BLOCK_COST_USD] == pytest.approx(FEE * 60 / (34 * 3600))


def test_once_the_current_block_has_ended_each_minute_puts_the_next_blocks_share(clients):
    _no_load_balancer(clients)
    _both_reservations(
        clients,
        {"State": "expired", "StartDate": _at(-34), "EndDate": _at(-1)},
        {"State": "active", "StartDate": _at(-2), "EndDate": _at(22)},
    )
    put = _publish(clients, _with_both_fees(_event([])))
    assert put[BLOCK_COST_USD] == pytest.approx(NEXT_FEE * 60 / (24 * 3600))


def _extension(
    start: datetime, end: datetime, status: str, fee: str, currency: str = "USD"
) -> dict:
    return {
        "CapacityReservationId": "cr-0123456789abcdef0",
        "CapacityBlockExtensionStatus": status,
        "CapacityBlockExtensionStartDate": start,
        "CapacityBlockExtensionEndDate": end,
        "UpfrontFee": fee,
        "CurrencyCode": currency,
    }


def _extended(clients, *extensions: dict) -> None:
    """A block bought for 34 hours (START to END) and extended by 24 (EC2's EndDate is then the extended end)."""
    clients["ec2"].add_response(
        "describe_capacity_reservations",
        {
            "CapacityReservations": [
                {
                    "CapacityReservationId": "cr-0123456789abcdef0",
                    "State": "active",
                    "StartDate": START,
                    "EndDate": _at(34),
                }
            ]
        },
        {"CapacityReservationIds": ["cr-0123456789abcdef0"]},
    )
    _extensions(clients, ["cr-0123456789abcdef0"], *extensions)


def test_after_an_extension_the_fee_is_spread_over_the_block_as_bought_not_the_extended_one(
    clients,
):
    # given a 34-hour block, now in its 25th hour, extended by 24 hours for 60,000 USD (payment succeeded)
    _no_load_balancer(clients)
    _extended(clients, _extension(END, _at(34), "payment-succeeded", "60000.00"))
    put = _publish(clients, _with_fee(_event([])))
    # then the minute's share is the fee over the 34 hours bought, not over the 58 hours EndDate now spans
    assert put[BLOCK_COST_USD] == pytest.approx(FEE * 60 / (34 * 3600))
    assert put[CAPACITY_BLOCK_HOURS_LEFT] == pytest.approx(34.0)


@pytest.mark.parametrize(
    "status, currency, share",
    [
        ("payment-succeeded", "USD", 60000 * 60 / (24 * 3600)),
        ("payment-pending", "USD", None),
        ("payment-failed", "USD", None),
        ("payment-succeeded", "EUR", None),
    ],
)
def test_a_minute_of_an_extension_puts_the_share_of_its_own_fee_once_paid_in_usd(
    clients, status, currency, share
):
    # given a block whose bought hours ended an hour ago, and a 24-hour extension since then
    _no_load_balancer(clients)
    clients["ec2"].add_response(
        "describe_capacity_reservations",
        {
            "CapacityReservations": [
                {
                    "CapacityReservationId": "cr-0123456789abcdef0",
                    "State": "active",
                    "StartDate": _at(-35),
                    "EndDate": _at(23),
                }
            ]
        },
        {"CapacityReservationIds": ["cr-0123456789abcdef0"]},
    )
    _extensions(
        clients,
        ["cr-0123456789abcdef0"],
        _extension(_at(-1), _at(23), status, "60000.00", currency),
    )
    put = _publish(clients, _with_fee(_event([])))
    # then only a paid extension in USD costs the minute anything; the block as bought (34 h) is over
    if share is None:
        assert BLOCK_COST_USD not in put
    else:
        assert put[BLOCK_COST_USD] == pytest.approx(share)


def test_when_the_extension_history_cannot_be_read_the_hours_are_put_and_the_cost_is_not(clients):
    # given EC2 answers the reservation but refuses the extension history
    _no_load_balancer(clients)
    _reservation(clients, START, END, history=False)
    clients["ec2"].add_client_error(
        "describe_capacity_block_extension_history", "UnauthorizedOperation", "not allowed"
    )
    put = _publish(clients, _with_fee(_event([])))
    # then the hours left are put, and no made-up cost (the block may have been extended)
    assert put[CAPACITY_BLOCK_HOURS_LEFT] == pytest.approx(10.0)
    assert BLOCK_COST_USD not in put


def test_the_event_names_the_next_block_only_when_it_is_configured():
    import aws_cdk as cdk

    from cdk_constructs.serving_metrics import ServingMetricsPublisher

    def event(**next_block) -> dict:
        stack = cdk.Stack(bare_app(), "Observability")
        publisher = ServingMetricsPublisher(
            stack,
            "Metrics",
            cluster_name="example-llm",
            prometheus_endpoint="https://aps/ws/",
            workspace_arn="arn:aws:aps:us-west-2:123456789012:workspace/ws-1",
            load_balancer_tags={},
            capacity_reservation_id="cr-0123456789abcdef0",
            **next_block,
        )
        return publisher.event

    assert "nextCapacityReservationId" not in event()
    assert event(next_capacity_reservation_id=NEXT)["nextCapacityReservationId"] == NEXT
    assert "nextBlockFeeUsd" not in event(next_capacity_reservation_id=NEXT, block_fee_usd=FEE)
    both = event(next_capacity_reservation_id=NEXT, block_fee_usd=FEE, next_block_fee_usd=NEXT_FEE)
    assert both["nextBlockFeeUsd"] == NEXT_FEE and both["blockCostMetric"] == BLOCK_COST_USD
