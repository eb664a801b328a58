"""ServingGapMinutes: what the publisher puts, with a next Capacity Block, for the minutes in which neither block serves
as planned (cdk_constructs/serving_gap.py), from stubbed EC2 answers (the Stubber checks them against botocore's
models). The alarm on the synthesized template is in test_observability.py (its module's variant synthesis); the
agreement with ``llmops handover`` in tests/ops_cli/test_serving_gap_agreement.py."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from cdk_constructs.serving_metrics import (
    CAPACITY_BLOCK_HOURS_LEFT,
    HEALTHY_TARGETS,
    SERVING_GAP_MINUTES,
    ServingGapPlan,
)
from cdk_constructs.serving_metrics.runtime import handler
from tests.cdk_constructs import test_observability as observed
from tests.cdk_constructs.test_block_earnings import _no_load_balancer, _publish
from tests.cdk_constructs.test_observability import NOW, _event
from tests.conftest import bare_app

#: test_observability.py's stubbed cloudwatch, elbv2, ec2 and sagemaker clients.
clients = observed.clients

CURRENT, NEXT = "cr-0123456789abcdef0", "cr-0fedcba9876543210"
#: The cold start of the docs' example (118 min); any value works, the event carries it.
COLD = ServingGapPlan(118 * 60)
#: The current block ends 10 hours after NOW; EKS scales its group to 0 forty minutes before.
END = datetime.fromtimestamp(NOW + 10 * 3600, UTC)
SCALE_DOWN = END - timedelta(minutes=40)


def _gap_event(current: str = CURRENT, following: str = NEXT) -> dict:
    return {
        **_event([]),
        "capacityReservationId": current,
        "nextCapacityReservationId": following,
        "servingGap": COLD.as_event(),
    }


def _answer(clients, ids: list[str], *blocks: dict) -> None:
    """One DescribeCapacityReservations answer for both ids (EC2 answers in its own order)."""
    clients["ec2"].add_response(
        "describe_capacity_reservations",
        {"CapacityReservations": list(blocks)},
        {"CapacityReservationIds": ids},
    )


def _block(rid: str, state: str, start: datetime, end: datetime) -> dict:
    return {"CapacityReservationId": rid, "State": state, "StartDate": start, "EndDate": end}


def _current(state: str = "active", end: datetime = END) -> dict:
    return _block(CURRENT, state, end - timedelta(days=2), end)


def _next(start: datetime, state: str = "scheduled", days: float = 7) -> dict:
    return _block(NEXT, state, start, start + timedelta(days=days))


MIN = timedelta(minutes=1)
COLD_START = timedelta(seconds=COLD.cold_start_seconds)


@pytest.mark.parametrize(
    "following, minutes, why",
    [
        (_next(END - timedelta(days=1), "active"), 0, "a day's overlap covers the cold start"),
        (_next(SCALE_DOWN - COLD_START), 0, "an overlap of exactly the cold start"),
        (_next(SCALE_DOWN - COLD_START + 20 * MIN), 20, "not in time: 20 minutes short"),
        (_next(END), 40 + 118, "back to back: from the scale-down to the cold start's end"),
        (_next(END + timedelta(days=1)), 40 + 24 * 60 + 118, "a day's gap"),
        (
            _next(END - timedelta(hours=1), "cancelled"),
            40 + 7 * 24 * 60 - 60,
            "a cancelled next block: every minute it was to serve after the scale-down",
        ),
        (
            _next(END - timedelta(hours=1), "payment-failed"),
            40 + 7 * 24 * 60 - 60,
            "a next block whose payment failed was released: as a cancelled one",
        ),
        (
            _next(END - timedelta(days=1), "failed", days=0.5),
            0,
            "a failed next block that was to end before the scale-down covered nothing",
        ),
    ],
)
def test_with_a_next_block_the_publisher_puts_the_minutes_no_block_serves(
    clients, following, minutes, why
):
    # given the current block running until END and the next one as EC2 describes it, both in one answer
    _no_load_balancer(clients)
    _answer(clients, [CURRENT, NEXT], following, _current())
    # when the publisher runs with the gap's plan in its event (one DescribeCapacityReservations call: the Stubber has
    # one answer, and the hours left are put from it too)
    put = _publish(clients, _gap_event())
    # then ServingGapMinutes is the plan's gap
    assert put[SERVING_GAP_MINUTES] == pytest.approx(minutes), why
    assert CAPACITY_BLOCK_HOURS_LEFT in put


@pytest.mark.parametrize(
    "current, why",
    [
        (_current("expired", END - timedelta(days=1)), "EC2 says the current block expired"),
        (_current("active", datetime.fromtimestamp(NOW, UTC)), "its EndDate is now"),
        (_current("cancelled"), "the current block never served"),
    ],
)
def test_once_the_current_block_has_ended_the_gap_is_0(clients, current, why):
    # given a next block a day after the current one's end: a gap, had the current block not ended
    _no_load_balancer(clients)
    _answer(clients, [CURRENT, NEXT], current, _next(current["EndDate"] + timedelta(days=1)))
    assert _publish(clients, _gap_event())[SERVING_GAP_MINUTES] == 0, why


def test_the_block_that_starts_first_is_handed_over_from_whichever_slot_holds_it(clients):
    # given the slots swapped after a handover: capacity_reservation_id holds the later block, a day after the other
    _no_load_balancer(clients)
    _answer(clients, [NEXT, CURRENT], _current(), _next(END + timedelta(days=1)))
    put = _publish(clients, _gap_event(current=NEXT, following=CURRENT))
    # then the gap runs from the earlier block's scale-down, as `llmops handover` lays it out
    assert put[SERVING_GAP_MINUTES] == pytest.approx(40 + 24 * 60 + 118)


def test_a_block_ec2_does_not_return_puts_no_gap_and_the_other_metrics_still_go(clients):
    # given EC2 answering without the next block
    _no_load_balancer(clients)
    _answer(clients, [CURRENT, NEXT], _current())
    put = _publish(clients, _gap_event())
    # then nothing is put for the gap (the alarm keeps its state), and the healthy targets are put
    assert SERVING_GAP_MINUTES not in put and put[HEALTHY_TARGETS] == 0


class _Counted:
    """The stubbed EC2 client, counting DescribeCapacityReservations calls (a second one would fail inside the run, where
    the handler logs and goes on: only the count shows it)."""

    def __init__(self, client) -> None:
        self.client, self.calls = client, 0

    def describe_capacity_reservations(self, **params):
        self.calls += 1
        return self.client.describe_capacity_reservations(**params)


def _publish_counted(clients, event: dict) -> tuple[dict[str, float], int]:
    ec2 = _Counted(clients["ec2"].client)
    put = handler.publish(
        event,
        now=NOW,
        query=None,
        cloudwatch=clients["cloudwatch"].client,
        elbv2=clients["elbv2"].client,
        ec2=ec2,
    )
    return {d["MetricName"]: d["Value"] for d in put}, ec2.calls


def test_the_hours_left_and_the_gap_read_one_ec2_answer(clients):
    _no_load_balancer(clients)
    _answer(clients, [CURRENT, NEXT], _current(), _next(END + timedelta(days=1)))
    put, calls = _publish_counted(clients, _gap_event())
    assert calls == 1
    assert put[CAPACITY_BLOCK_HOURS_LEFT] == pytest.approx(10.0) and put[SERVING_GAP_MINUTES] > 0


def test_a_next_block_ec2_does_not_know_puts_no_gap_but_the_current_blocks_hours_left(clients):
    # given EC2 refusing the call for both ids (the next one is an id it does not know), then answering for the
    # current block alone
    _no_load_balancer(clients)
    clients["ec2"].add_client_error(
        "describe_capacity_reservations",
        service_error_code="InvalidCapacityReservationId.NotFound",
        expected_params={"CapacityReservationIds": [CURRENT, NEXT]},
    )
    _answer(clients, [CURRENT], _current())
    put, calls = _publish_counted(clients, _gap_event())
    # then the gap is not put (the alarm's missing-data rule keeps its state), and the hours left count to the
    # current block's end, so CapacityEndingSoon still warns; the pair was asked once, the current block once
    assert calls == 2
    assert SERVING_GAP_MINUTES not in put
    assert put[CAPACITY_BLOCK_HOURS_LEFT] == pytest.approx(10.0)
    assert put[HEALTHY_TARGETS] == 0


def test_a_failed_read_of_both_blocks_puts_no_hours_left_rather_than_the_current_blocks_alone(
    clients,
):
    # given EC2 throttling the call for both blocks (while they overlap, the current one may end within the hour)
    _no_load_balancer(clients)
    clients["ec2"].add_client_error(
        "describe_capacity_reservations",
        service_error_code="RequestLimitExceeded",
        expected_params={"CapacityReservationIds": [CURRENT, NEXT]},
    )
    put, calls = _publish_counted(clients, _gap_event())
    # then the current block is not read alone (its own end, put as the hours left while the next block serves on,
    # would fire CapacityEndingSoon on one minute): nothing is put for the capacity, which that alarm treats as not
    # breaching, and the other metrics still go
    assert calls == 1
    assert CAPACITY_BLOCK_HOURS_LEFT not in put and SERVING_GAP_MINUTES not in put
    assert put[HEALTHY_TARGETS] == 0


def test_without_the_gaps_plan_in_the_event_nothing_is_put_for_it(clients):
    _no_load_balancer(clients)
    _answer(clients, [CURRENT, NEXT], _current(), _next(END + timedelta(days=1)))
    event = {k: v for k, v in _gap_event().items() if k != "servingGap"}
    assert SERVING_GAP_MINUTES not in _publish(clients, event)


def test_a_gaps_plan_without_a_next_block_is_a_programming_error():
    import aws_cdk as cdk

    from cdk_constructs.serving_metrics import ServingMetricsPublisher

    with pytest.raises(ValueError, match="serving_gap needs next_capacity_reservation_id"):
        ServingMetricsPublisher(
            cdk.Stack(bare_app(), "Observability"),
            "Metrics",
            cluster_name="example-llm",
            prometheus_endpoint="https://aps/ws/",
            workspace_arn="arn:aws:aps:us-west-2:123456789012:workspace/ws-1",
            load_balancer_tags={},
            capacity_reservation_id=CURRENT,
            serving_gap=COLD,
        )
