"""The ServingGap alarm and ``llmops handover`` agree: for the same two reservations, the publisher's ServingGapMinutes
(with the plan the stack puts in its event: cdk_constructs/serving_gap.py, serving_gap_plan) is the handover plan's
shortfall, max(0, -margin), and both use the same cold start. EC2 answers through Stubbers; nothing calls AWS."""

from __future__ import annotations

from datetime import timedelta

import pytest

from cdk_constructs.serving_gap import serving_gap_plan
from cdk_constructs.serving_metrics.runtime import handler
from deployment_config import load_environment
from ops_cli.errors import ExitCode
from tests.ops_cli.conftest import NOW
from tests.ops_cli.test_handover import (
    CURRENT,
    END,
    NEXT,
    SCALE_DOWN,
    expect,
    plan_with_next_start,
    reservation,
)
from tests.ops_cli.test_handover import with_next as _with_next


@pytest.fixture
def with_next(config_dir):
    """config/example.yaml naming NEXT as capacity.next_capacity_reservation_id (test_handover.py's fixture)."""
    return _with_next.__wrapped__(config_dir)


class _Ec2:
    """EC2's one answer for both blocks (the command's Stubbers hold the shared ec2 client; the answer's shape is
    checked against botocore's model in tests/cdk_constructs/test_serving_gap.py)."""

    def __init__(self, *blocks: dict) -> None:
        self.blocks = list(blocks)

    def describe_capacity_reservations(self, CapacityReservationIds):  # noqa: N803 (boto3's name)
        assert CapacityReservationIds == [CURRENT, NEXT]
        return {"CapacityReservations": self.blocks}


def _published_gap(env, current: dict, following: dict) -> float | None:
    """ServingGapMinutes as the publisher computes it for ``env`` at the command's NOW, from the same reservations,
    with the plan the stack puts in the publisher's event."""
    event = serving_gap_plan(env).as_event()
    return handler.serving_gap_minutes(
        _Ec2(current, following),
        [CURRENT, NEXT],
        NOW.timestamp(),
        event["coldStartSeconds"],
        event["scaleDownBeforeEndMinutes"],
    )


@pytest.mark.parametrize(
    "start_after_scale_down, verdict",
    [
        (timedelta(days=-1), "ready in time"),
        (None, "not in time"),  # the cold start minus 20 minutes before the scale-down
        (
            timedelta(minutes=40),
            "gap",
        ),  # back to back: the next block starts at the current one's end
        (timedelta(days=1), "gap"),
    ],
)
def test_the_alarms_gap_is_the_handover_plans_shortfall_with_the_same_cold_start(
    aws, run, config_dir, with_next, start_after_scale_down, verdict
):
    # given the example with a next block starting at one of four moments around the current block's scale-down
    env = load_environment(config_dir, "example")
    cold_start = timedelta(seconds=env.pod_startup_budget.probe_seconds)
    offset = (
        -cold_start + timedelta(minutes=20)
        if start_after_scale_down is None
        else start_after_scale_down
    )
    start = SCALE_DOWN + offset
    # when llmops handover lays out the plan, and the publisher computes the gap from the same reservations
    result = plan_with_next_start(aws, run, start)
    plan = result.json
    assert plan["verdict"] == verdict
    gap = _published_gap(
        env,
        reservation(CURRENT, END - timedelta(days=2), END),
        reservation(NEXT, start, start + timedelta(days=7)),
    )
    # then both plan with the same cold start, and the alarm's minutes are the command's shortfall
    # (the command rounds its minutes to 0.1)
    assert serving_gap_plan(env).cold_start_seconds == pytest.approx(
        plan["cold_start_minutes"] * 60, abs=3
    )
    assert gap == pytest.approx(max(0.0, -plan["margin_minutes"]))
    assert (gap > 0) == (verdict != "ready in time")


def test_a_cancelled_next_block_is_refused_by_the_command_and_alarms(
    aws, run, config_dir, with_next
):
    # given a next block EC2 says is cancelled, meant to start a day before the current block's end
    env = load_environment(config_dir, "example")
    start = END - timedelta(days=1)
    following = {**reservation(NEXT, start, start + timedelta(days=7)), "State": "cancelled"}
    expect(aws, CURRENT, reservation(CURRENT, END - timedelta(days=2), END))
    expect(aws, NEXT, following)
    # when llmops handover plans, and the publisher computes the gap
    result = run("handover", "--env", "example", "--json")
    gap = _published_gap(env, reservation(CURRENT, END - timedelta(days=2), END), following)
    # then the command refuses it (it will never start a node) and the alarm's metric is above 0: the minutes the
    # next block was to serve after the scale-down
    assert result.code == ExitCode.USAGE and "cancelled" in result.stderr
    assert gap == pytest.approx((start + timedelta(days=7) - SCALE_DOWN).total_seconds() / 60)
