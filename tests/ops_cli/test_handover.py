"""``llmops handover``: the plan from the current Capacity Block to the next, from EC2's answers (Stubber), with the
cold start of the environment's startup budget (EnvironmentConfig.pod_startup_budget)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from deployment_config import load_environment
from ops_cli.errors import ExitCode
from tests.ops_cli.conftest import client_error

CURRENT, NEXT = "cr-0123456789abcdef0", "cr-0fedcba9876543210"
#: The example's current block: it ends at 11:30 UTC, as every Capacity Block does.
END = datetime(2026, 12, 3, 11, 30, tzinfo=UTC)
SCALE_DOWN, SHUTDOWN = END - timedelta(minutes=40), END - timedelta(minutes=30)


def reservation(
    reservation_id: str, start: datetime, end: datetime, *, zone: str = "us-west-2a"
) -> dict:
    return {
        "CapacityReservationId": reservation_id,
        "InstanceType": "p6-b300.48xlarge",
        "AvailabilityZone": zone,
        "TotalInstanceCount": 1,
        "State": "active" if start <= datetime(2026, 11, 30, 12, tzinfo=UTC) else "scheduled",
        "StartDate": start,
        "EndDate": end,
        "ReservationType": "capacity-block",
    }


def expect(aws, reservation_id: str, answer: dict) -> None:
    aws.stub("ec2").add_response(
        "describe_capacity_reservations",
        {"CapacityReservations": [answer]},
        {"CapacityReservationIds": [reservation_id]},
    )


def expect_group(
    aws,
    name: str = "gpu-capacity-block-next",
    desired: int | None = 1,
    *,
    status: str = "ACTIVE",
    issues: tuple[dict, ...] = (),
) -> None:
    """The next block's node group at ``desired`` size, in ``status`` with health ``issues``, or (None) not
    deployed."""
    params = {"clusterName": "example-llm", "nodegroupName": name}
    if desired is None:
        aws.stub("eks").add_client_error(
            "describe_nodegroup",
            expected_params=params,
            **client_error(
                "ResourceNotFoundException", f"No node group found for name: {name}.", 404
            ),
        )
        return
    aws.stub("eks").add_response(
        "describe_nodegroup",
        {
            "nodegroup": {
                "nodegroupName": name,
                "scalingConfig": {"minSize": 0, "maxSize": 1, "desiredSize": desired},
                "status": status,
                "health": {"issues": list(issues)},
            }
        },
        params,
    )


@pytest.fixture
def with_next(config_dir):
    path = config_dir / "example.yaml"
    text = path.read_text()
    line = f"  capacity_reservation_id: {CURRENT}"
    assert line in text
    path.write_text(text.replace(line, f"{line}\n  next_capacity_reservation_id: {NEXT}", 1))
    return path


@pytest.fixture
def cold_start(config_dir) -> timedelta:
    return timedelta(
        seconds=load_environment(config_dir, "example").pod_startup_budget.probe_seconds
    )


def plan_with_next_start(
    aws, run, start: datetime, *, zone: str = "us-west-2a", desired: int | None = 1
):
    expect(aws, CURRENT, reservation(CURRENT, END - timedelta(days=2), END))
    expect(aws, NEXT, reservation(NEXT, start, start + timedelta(days=7), zone=zone))
    if zone == "us-west-2a":
        expect_group(aws, desired=desired)
    return run("handover", "--env", "example", "--json")


def test_given_blocks_overlapping_a_day_then_the_next_replicas_are_ready_before_the_old_nodes_drain(
    aws, run, with_next, cold_start
):
    start = END - timedelta(days=1)
    result = plan_with_next_start(aws, run, start)
    assert result.code == ExitCode.OK, result.stderr
    plan = result.json
    assert plan["verdict"] == "ready in time" and plan["warnings"] == []
    assert plan["cold_start_minutes"] == cold_start.total_seconds() / 60
    assert plan["margin_minutes"] == (SCALE_DOWN - start - cold_start).total_seconds() / 60
    # The order a user relies on: new nodes, new replicas ready, old nodes drained, old instances stopped, block end.
    moments = [datetime.fromisoformat(s["at"]) for s in plan["steps"]]
    assert moments == [start, start + cold_start, SCALE_DOWN, SHUTDOWN, END]
    assert "traffic moves" in plan["steps"][1]["what"] and "scales" in plan["steps"][2]["what"]


def test_given_an_overlap_shorter_than_the_cold_start_then_it_warns_and_exits_1(
    aws, run, with_next, cold_start
):
    start = SCALE_DOWN - cold_start + timedelta(minutes=20)
    result = plan_with_next_start(aws, run, start)
    assert result.code == ExitCode.CHECK_FAILED
    plan = result.json
    assert plan["verdict"] == "not in time" and plan["margin_minutes"] == -20
    (warning,) = plan["warnings"]
    assert warning.startswith("not enough overlap") and "20 min" in warning


def test_given_a_next_block_after_the_drain_then_the_gap_is_named_and_it_exits_1(
    aws, run, with_next
):
    result = plan_with_next_start(aws, run, END + timedelta(days=1))
    assert result.code == ExitCode.CHECK_FAILED
    assert result.json["verdict"] == "gap"
    assert result.json["warnings"][0].startswith("gap:")


def test_given_no_next_block_then_the_plan_says_the_endpoint_stops_and_it_exits_1(aws, run):
    expect(aws, CURRENT, reservation(CURRENT, END - timedelta(days=2), END))
    result = run("handover", "--env", "example")
    assert result.code == ExitCode.CHECK_FAILED
    assert "no next block" in result.stdout
    assert "capacity.next_capacity_reservation_id" in result.stdout


def test_given_a_next_block_in_another_zone_then_it_is_refused_naming_the_field_and_the_fix(
    aws, run, with_next
):
    result = plan_with_next_start(aws, run, END - timedelta(days=1), zone="us-west-2b")
    assert result.code == ExitCode.USAGE
    assert (
        "capacity.next_capacity_reservation_id" in result.stderr and "us-west-2b" in result.stderr
    )
    assert result.stderr.count("fix:") == 1 and "us-west-2a" in result.stderr
    assert "Traceback" not in result.stderr


def test_given_a_next_block_whose_payment_failed_then_it_is_refused_as_never_starting_a_node(
    aws, run, with_next
):
    # EC2 releases a Capacity Block whose payment failed (EC2 user guide, capacity-blocks-view)
    expect(aws, CURRENT, reservation(CURRENT, END - timedelta(days=2), END))
    released = reservation(NEXT, END - timedelta(days=1), END + timedelta(days=6))
    expect(aws, NEXT, {**released, "State": "payment-failed"})
    result = run("handover", "--env", "example")
    assert result.code == ExitCode.USAGE
    assert f"{NEXT} is payment-failed; it will never start a node" in result.stderr


def test_the_human_plan_is_a_timeline_in_order(aws, run, with_next):
    expect(aws, CURRENT, reservation(CURRENT, END - timedelta(days=2), END))
    expect(aws, NEXT, reservation(NEXT, END - timedelta(days=1), END + timedelta(days=6)))
    expect_group(aws)
    result = run("handover", "--env", "example")
    assert result.code == ExitCode.OK, result.stderr
    out = result.stdout
    assert (
        out.index(f"{NEXT} starts")
        < out.index("traffic moves")
        < out.index("scales gpu-capacity-block")
    )
    assert "ready in time" in out


def test_given_the_slots_alternated_then_the_block_that_starts_first_is_handed_over_from(
    aws, run, with_next, cold_start
):
    # After a handover the empty slot (capacity_reservation_id's) takes the block after the one now serving, which
    # stays in next_capacity_reservation_id's slot and group.
    serving_end = END
    expect(
        aws,
        CURRENT,
        reservation(CURRENT, serving_end - timedelta(days=1), serving_end + timedelta(days=6)),
    )
    expect(aws, NEXT, reservation(NEXT, serving_end - timedelta(days=7), serving_end))
    expect_group(aws, "gpu-capacity-block")
    result = run("handover", "--env", "example", "--json")
    assert result.code == ExitCode.OK, result.stderr
    plan = result.json
    assert (plan["current"]["reservation_id"], plan["next"]["reservation_id"]) == (NEXT, CURRENT)
    assert f"EKS scales gpu-capacity-block-next ({NEXT}) to 0" in plan["steps"][2]["what"]
    assert plan["steps"][0]["what"].startswith(f"{CURRENT} starts: gpu-capacity-block launches")


@pytest.mark.parametrize(
    "change, says",
    [
        ({"State": "cancelled"}, "is cancelled; it will never start a node"),
        ({"AvailabilityZone": "us-west-2b"}, "is in 'us-west-2b'"),
    ],
)
def test_given_the_slots_alternated_then_the_block_handed_over_to_is_the_one_checked(
    aws, run, with_next, change, says
):
    # After a handover capacity_reservation_id holds the block after the one that serves (in the next slot): that
    # later block is the one whose nodes must start, so it is refused when its group could not use it
    expect(
        aws,
        CURRENT,
        {**reservation(CURRENT, END - timedelta(days=1), END + timedelta(days=6)), **change},
    )
    expect(aws, NEXT, reservation(NEXT, END - timedelta(days=7), END))
    result = run("handover", "--env", "example")
    assert result.code == ExitCode.USAGE
    assert f"capacity.capacity_reservation_id: {CURRENT} {says}" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("swapped", [False, True])
def test_given_the_block_handed_over_from_expired_then_the_slot_to_fill_is_named(
    aws, run, with_next, swapped
):
    # After a handover the block that ended stays in its slot until the block after the one now serving replaces it
    ended = {
        **reservation(CURRENT, END - timedelta(days=9), END - timedelta(days=2)),
        "State": "expired",
    }
    serving = reservation(NEXT, END - timedelta(days=3), END)
    if swapped:
        ended, serving = (
            {**ended, "CapacityReservationId": NEXT},
            {
                **serving,
                "CapacityReservationId": CURRENT,
            },
        )
    expect(aws, CURRENT, serving if swapped else ended)
    expect(aws, NEXT, ended if swapped else serving)
    result = run("handover", "--env", "example")
    slot, (gone, on) = (
        ("next_capacity_reservation_id", (NEXT, CURRENT))
        if swapped
        else ("capacity_reservation_id", (CURRENT, NEXT))
    )
    assert result.code == ExitCode.USAGE
    assert (
        f"capacity.{slot}: {gone} is expired: the handover from it is over and no block follows {on}"
        in (result.stderr)
    )
    assert f"name the block after {on} in capacity.{slot}" in result.stderr


@pytest.mark.parametrize(
    "desired, says",
    [
        (
            0,
            "update-nodegroup-config --cluster-name example-llm --nodegroup-name gpu-capacity-block-next",
        ),
        (None, "npx cdk deploy example-gpu-nodes"),
    ],
)
def test_given_the_next_group_at_desired_size_0_or_not_deployed_then_its_nodes_will_not_start(
    aws, run, with_next, desired, says
):
    # EKS's scale-down before a block's end leaves a group at 0, and a deploy that only moves its launch template to
    # the block after does not raise it: the overlap is long enough, and still no node would start.
    result = plan_with_next_start(aws, run, END - timedelta(days=1), desired=desired)
    assert result.code == ExitCode.CHECK_FAILED
    assert result.json["verdict"] == "next nodes will not start"
    assert says in result.json["warnings"][0]


@pytest.mark.parametrize("desired", [0, None])
def test_given_the_next_group_will_not_start_and_a_gap_then_both_are_warned_and_the_verdict_is_the_most_severe(
    aws, run, with_next, desired
):
    # The gap is worth knowing while the group is still to be deployed: another block can still be bought.
    result = plan_with_next_start(aws, run, END + timedelta(days=1), desired=desired)
    assert result.code == ExitCode.CHECK_FAILED
    plan = result.json
    assert plan["verdicts"] == ["next nodes will not start", "gap"]
    assert plan["verdict"] == "next nodes will not start"
    assert [w.startswith("gap:") for w in plan["warnings"]] == [False, True]


def test_given_the_next_group_not_deployed_and_too_little_overlap_then_not_in_time_is_warned_too(
    aws, run, with_next, cold_start
):
    result = plan_with_next_start(
        aws, run, SCALE_DOWN - cold_start + timedelta(minutes=20), desired=None
    )
    assert result.code == ExitCode.CHECK_FAILED
    assert result.json["verdicts"] == ["next nodes will not start", "not in time"]
    assert result.json["warnings"][1].startswith("not enough overlap")


def test_the_human_plan_names_every_verdict_and_which_one_sets_the_exit_code(aws, run, with_next):
    expect(aws, CURRENT, reservation(CURRENT, END - timedelta(days=2), END))
    expect(aws, NEXT, reservation(NEXT, END + timedelta(days=1), END + timedelta(days=8)))
    expect_group(aws, desired=None)
    result = run("handover", "--env", "example")
    assert result.code == ExitCode.CHECK_FAILED
    assert "next nodes will not start and gap: exit 1 for the most severe" in result.stdout
    assert "warning: gap:" in result.stdout and "npx cdk deploy example-gpu-nodes" in result.stdout


LAUNCH_FAILURE = {
    "code": "AsgInstanceLaunchFailures",
    "message": "Could not launch On-Demand Instances. InsufficientInstanceCapacity",
    "resourceIds": ["eks-gpu-capacity-block-next-asg"],
}


def degraded_plan(aws, run, start: datetime):
    expect(aws, CURRENT, reservation(CURRENT, END - timedelta(days=7), END))
    expect(aws, NEXT, reservation(NEXT, start, start + timedelta(days=7)))
    expect_group(aws, status="DEGRADED", issues=(LAUNCH_FAILURE,))
    return run("handover", "--env", "example", "--json")


def test_given_the_next_group_degraded_before_its_block_starts_then_it_warns_and_the_plan_holds(
    aws, run, with_next
):
    # The tests' clock reads 2026-11-30 12:00 UTC (conftest NOW); the next block starts days later.
    result = degraded_plan(aws, run, END - timedelta(days=1))
    assert result.code == ExitCode.OK, result.stderr
    plan = result.json
    assert plan["verdict"] == "ready in time"
    assert plan["next_group"]["status"] == "DEGRADED"
    assert plan["next_group"]["health_issues"][0]["code"] == "AsgInstanceLaunchFailures"
    (warning,) = plan["warnings"]
    assert "DEGRADED" in warning and "expected before its block starts" in warning


def test_given_the_next_group_degraded_after_its_block_started_then_its_nodes_are_not_coming(
    aws, run, with_next
):
    started = datetime(2026, 11, 30, 11, 30, tzinfo=UTC)
    result = degraded_plan(aws, run, started)
    assert result.code == ExitCode.CHECK_FAILED
    plan = result.json
    assert plan["verdict"] == "next nodes will not start"
    assert (
        "not coming" in plan["warnings"][0] and "AsgInstanceLaunchFailures" in plan["warnings"][0]
    )


def test_given_the_blocks_overlap_now_then_it_warns_that_a_serving_change_stops_both_replicas(
    aws, run, with_next
):
    # given the next block started half an hour before the tests' clock (2026-11-30 12:00 UTC), its group up
    started = datetime(2026, 11, 30, 11, 30, tzinfo=UTC)
    expect(aws, CURRENT, reservation(CURRENT, END - timedelta(days=7), END))
    expect(aws, NEXT, reservation(NEXT, started, started + timedelta(days=7)))
    expect_group(aws)
    result = run("handover", "--env", "example", "--json")
    # then the handover holds, and the plan says that a rollout now may stop both ready replicas (replicas: 1)
    assert result.code == ExitCode.OK, result.stderr
    plan = result.json
    assert plan["verdict"] == "ready in time"
    (warning,) = plan["warnings"]
    assert warning.startswith("the blocks overlap now, until 2026-12-03 10:50 UTC")
    assert "may stop 2 of the 2 ready replicas at once (both: the endpoint goes down)" in warning
    assert "deploy serving changes before 2026-11-30 11:30 UTC or after the scale-down" in warning


def test_given_the_blocks_overlap_now_then_preflight_warns_before_a_deploy(aws, with_next):
    from deployment_config import load_environment
    from ops_cli.preflight_check import Status
    from ops_cli.preflight_next_block import next_block_check
    from tests.ops_cli.conftest import NOW

    started = datetime(2026, 11, 30, 11, 30, tzinfo=UTC)
    expect(aws, CURRENT, reservation(CURRENT, END - timedelta(days=7), END))
    expect(aws, NEXT, reservation(NEXT, started, started + timedelta(days=7)))
    expect_group(aws)
    env = load_environment(with_next.parent, "example")
    check = next_block_check(aws.aws("us-west-2"), env, NOW)
    assert check.status is Status.WARN and "the blocks overlap now" in check.detail


# --- answers checked against what was asked (issue 29) -------------------------------------------------------------


def test_given_ec2_answers_for_another_reservation_then_handover_refuses_it(aws, run, with_next):
    # given EC2 answering the question about the current block with another reservation
    expect(aws, CURRENT, reservation(NEXT, END - timedelta(days=2), END))
    # when the handover is asked for, then that answer is not used: exit 21, naming both ids
    result = run("handover", "--env", "example")
    assert result.code == ExitCode.UNEXPECTED_ANSWER, result.stderr
    assert (
        f"asked EC2 for capacity reservation {CURRENT}" in result.stderr and NEXT in result.stderr
    )


@pytest.mark.parametrize(
    "change, words",
    [
        ({"TotalInstanceCount": 0}, "holds '0' instances: it will never serve"),
        ({"EndDate": END - timedelta(days=2)}, "before it starts"),
    ],
)
def test_given_a_next_block_that_cannot_serve_then_it_is_never_ready_in_time(
    aws, run, with_next, change, words
):
    # given a next block of no instances, or one that ends before it starts
    expect(aws, CURRENT, reservation(CURRENT, END - timedelta(days=2), END))
    expect(
        aws, NEXT, {**reservation(NEXT, END - timedelta(days=1), END + timedelta(days=6)), **change}
    )
    # when the handover is asked for, then it is refused as a block that will never serve (exit 2), naming the field
    result = run("handover", "--env", "example", "--json")
    assert result.code == ExitCode.USAGE, result.stdout
    assert "ready in time" not in result.stdout
    assert (
        f"capacity.next_capacity_reservation_id: {NEXT}" in result.stderr and words in result.stderr
    )
