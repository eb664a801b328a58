"""``llmops plan``: the next days as one timeline with each period's cost, from EC2's answers (Stubber checks every
request and answer against botocore's model), the bridge's window from the same function its schedules are written
with (deployment_config/bridge.py), the prices from the vendored table."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import pytest

from deployment_config import gpu_prices, load_environment
from deployment_config.bridge import bridge_plan
from ops_cli.cost_estimate import bridge_cost
from ops_cli.errors import ExitCode
from tests.ops_cli import test_cost_bridge
from tests.ops_cli import test_training_plan_extensions as plans
from tests.ops_cli.conftest import NOW
from tests.ops_cli.test_handover import CURRENT, NEXT, expect, reservation

TEST_CONFIGS = Path(__file__).resolve().parents[1] / "configs"
#: test_cost_bridge.py's fixture: llmops with no AWS credentials anywhere.
run_offline = test_cost_bridge.run_offline
HELD = "cr-0aaaabbbbccccdddd"
#: tests/configs/bridge.yaml's bridge.block_end.
BRIDGE_END = datetime(2026, 12, 6, 11, 30, tzinfo=UTC)
#: The example's block (tests/ops_cli/test_handover.py): it ends 2026-12-03 11:30 UTC.
END = datetime(2026, 12, 3, 11, 30, tzinfo=UTC)


def expect_held(aws, *reservations: dict) -> None:
    """The account's Capacity Blocks of the environment's type and zone (the configured ones among them)."""
    aws.stub("ec2").add_response(
        "describe_capacity_reservations",
        {"CapacityReservations": list(reservations)},
        {
            "Filters": [
                {"Name": "instance-type", "Values": ["p6-b300.48xlarge"]},
                {"Name": "availability-zone", "Values": ["us-west-2a"]},
            ]
        },
    )


@pytest.fixture
def bridge_env(config_dir):
    shutil.copy(TEST_CONFIGS / "bridge.yaml", config_dir / "bridge.yaml")
    return load_environment(config_dir, "bridge")


@pytest.fixture
def with_next(config_dir):
    path = config_dir / "example.yaml"
    line = f"  capacity_reservation_id: {CURRENT}"
    path.write_text(
        path.read_text().replace(line, f"{line}\n  next_capacity_reservation_id: {NEXT}", 1)
    )
    return load_environment(config_dir, "example")


def by_kind(result) -> dict[str, list[dict]]:
    rows: dict[str, list[dict]] = {}
    for row in result.json["periods"]:
        rows.setdefault(row["kind"], []).append(row)
    return rows


def test_given_a_bridge_and_a_later_block_then_the_gap_and_the_bridge_window_are_rows_with_their_cost(
    aws, run, bridge_env
):
    # given the block the bridge section names, ending at bridge.block_end, and a block the account holds 3 days later
    block = reservation(CURRENT, BRIDGE_END - timedelta(days=2), BRIDGE_END)
    later = reservation(HELD, BRIDGE_END + timedelta(days=3), BRIDGE_END + timedelta(days=6))
    expect(aws, CURRENT, block)
    expect_held(aws, block, later)
    # when the plan of the 14 days from 2026-12-05 12:00 UTC is asked for
    result = run("plan", "--env", "bridge", "--now", "2026-12-05T12:00Z", "--json")
    assert result.code == ExitCode.OK, result.stderr
    rows = by_kind(result)
    # then the bridge window starts at the block's end - EKS's 40 minutes - the startup budget - the margin, to the
    # minute, as its schedule does, and costs the table's On-Demand rate x its instances x its hours
    budget = bridge_env.pod_startup_budget.probe_seconds
    start = BRIDGE_END - timedelta(minutes=40 + 30, seconds=budget)
    (bridge,) = rows["bridge"]
    assert (
        bridge["start"]
        == "2026-12-06T08:22:00Z"
        == start.replace(second=0).isoformat().replace("+00:00", "Z")
    )
    assert bridge_plan(bridge_env).start == start.replace(second=0)
    assert bridge["end"] == "2026-12-07T11:30:00Z"
    assert bridge["cost_in_window_usd"] == str(bridge_cost(bridge_env).fee) == "3864.22"
    # and EKS's scale-down is a row of its own
    assert [r["start"] for r in rows["scale-down"]] == ["2026-12-06T10:50:00Z"]
    # and from the bridge's stop nothing serves: the later block is not configured, and the gap says so
    (gap,) = rows["gap"]
    assert (gap["start"], gap["end"], gap["serves"]) == (
        "2026-12-07T11:30:00Z",
        "2026-12-19T12:00:00Z",
        "not served",
    )
    assert gap["hours_in_window"] == "288.5" and HELD in gap["what"]
    assert rows["held block"][0]["serves"].startswith("no: not configured")
    # and the block's 23.5 hours in the window cost the published Capacity Block rate (no fee is configured)
    rate = gpu_prices.capacity_block_rate("p6-b300.48xlarge", "us-west-2").per_instance_hour
    assert rows["block"][0]["cost_in_window_usd"] == str(
        (rate * Decimal("23.5")).quantize(Decimal("0.01"))
    )


def test_given_two_blocks_with_a_gap_and_no_bridge_then_the_gap_is_not_served_for_its_length(
    aws, run, with_next
):
    # given the next block starting two days after the current one ends
    cold = timedelta(seconds=with_next.pod_startup_budget.probe_seconds)
    following = reservation(NEXT, END + timedelta(days=2), END + timedelta(days=16))
    expect(aws, CURRENT, reservation(CURRENT, END - timedelta(days=4), END))
    expect(aws, NEXT, following)
    expect_held(aws)
    # when the plan is asked for
    result = run("plan", "--env", "example", "--json")
    assert result.code == ExitCode.OK, result.stderr
    (gap,) = by_kind(result)["gap"]
    # then the gap runs from the current block's scale-down to the next block's replicas being ready, not served
    ready = END + timedelta(days=2) + cold
    assert gap["start"] == "2026-12-03T10:50:00Z" and gap["serves"] == "not served"
    assert gap["end"] == ready.isoformat().replace("+00:00", "Z")
    hours = (ready - (END - timedelta(minutes=40))).total_seconds() / 3600
    assert gap["hours_in_window"] == f"{hours:.1f}" and gap["cost_in_window_usd"] == "0.00"
    assert f"nothing serves for {hours:.1f} h" in gap["what"]


def test_given_fewer_days_then_the_window_bounds_every_row(aws, run, with_next):
    # given the same two blocks, and a window of 3 days from 2026-11-30 12:00 UTC
    expect(aws, CURRENT, reservation(CURRENT, END - timedelta(days=4), END))
    expect(aws, NEXT, reservation(NEXT, END + timedelta(days=2), END + timedelta(days=9)))
    expect_held(aws)
    result = run("plan", "--env", "example", "--days", "3", "--json")
    assert result.code == ExitCode.OK, result.stderr
    rows = by_kind(result)
    # then the window ends 3 days on, the gap with it, and the next block (after the window) is not listed
    assert (
        result.json["until"]
        == "2026-12-03T12:00:00Z"
        == (NOW + timedelta(days=3)).isoformat().replace("+00:00", "Z")
    )
    assert [(g["start"], g["end"], g["hours_in_window"]) for g in rows["gap"]] == [
        ("2026-12-03T10:50:00Z", "2026-12-03T12:00:00Z", "1.2")
    ]
    assert "next block" not in rows


@pytest.mark.parametrize("days", ["0", "57", "two"])
def test_given_days_out_of_bounds_then_it_is_refused_naming_the_option(run, days):
    result = run("plan", "--env", "example", "--days", days)
    assert result.code == ExitCode.USAGE
    assert (
        "--days" in result.stderr
        and "1 to 56" in result.stderr
        and "Traceback" not in result.stderr
    )


def test_given_now_without_a_zone_then_it_is_refused_with_an_example(run):
    result = run("plan", "--env", "example", "--now", "2026-12-05T12:00")
    assert result.code == ExitCode.USAGE
    assert "no time zone" in result.stderr and "2026-12-05T12:00Z" in result.stderr


def test_given_no_credentials_then_the_configuration_s_bridge_window_is_shown_and_the_rest_needs_aws(
    run_offline,
):
    # given tests/configs/bridge.yaml and no AWS credentials
    result = run_offline("plan", "--env", "bridge", "--now", "2026-12-05T12:00Z", "--json")
    assert result.code == ExitCode.OK, result.stderr
    plan = result.json
    # then what the configuration says is there: the block's end (bridge.block_end), its scale-down, the bridge
    rows = {row["kind"]: row for row in plan["periods"]}
    assert rows["block"]["end"] == "2026-12-06T11:30:00Z" and rows["block"]["start"] is None
    assert (
        rows["bridge"]["start"] == "2026-12-06T08:22:00Z"
        and rows["bridge"]["cost_in_window_usd"] == "3864.22"
    )
    # and the part that needs the account says so, naming the call
    assert plan["needs_aws"].startswith("needs AWS: no AWS credentials")
    assert "DescribeCapacityReservations" in plan["needs_aws"] and "gap" not in rows


def test_the_table_shows_each_row_and_the_cost_basis(aws, run, bridge_env):
    block = reservation(CURRENT, BRIDGE_END - timedelta(days=2), BRIDGE_END)
    expect(aws, CURRENT, block)
    expect_held(aws, block)
    result = run("plan", "--env", "bridge", "--now", "2026-12-05T12:00Z")
    assert result.code == ExitCode.OK, result.stderr
    lines = result.stdout.splitlines()
    assert (
        lines[0]
        == "bridge: 2026-12-05 12:00 to 2026-12-19 12:00 UTC. Amounts in USD, for the part inside the window."
    )
    bridge = next(line for line in lines if line.startswith("bridge "))
    assert "2026-12-06 08:22" in bridge and "3,864.22" in bridge
    assert any(line.startswith("  bridge 2026-12-06 08:22: the On-Demand rate") for line in lines)


def test_given_a_training_plan_with_an_extension_then_each_costs_its_fee_over_its_hours_and_the_end_is_a_gap(
    aws, run
):
    # given config/example-hyperpod.yaml's plan, from a day before now to a day after (35,000 USD for its 48 h), and
    # an extension of 48 h from its end (48,500.50 USD)
    plans.expect_plan(aws)
    plans.expect_history(aws, [plans.extension(plans.CHEAP, plans.END)])
    # when the plan of the next 7 days is asked for
    result = run("plan", *plans.ENV, "--days", "7", "--json")
    assert result.code == ExitCode.OK, result.stderr
    rows = by_kind(result)
    # then the plan's 24 hours in the window cost half its fee, the extension all of its own
    assert rows["training plan"][0]["cost_in_window_usd"] == "17500.00"
    assert rows["extension"][0]["cost_in_window_usd"] == "48500.50"
    # and nothing serves from the extension's end to the window's end (no HyperPod bridge is built)
    (gap,) = rows["gap"]
    assert gap["start"] == "2026-12-03T12:00:00Z" and gap["end"] == "2026-12-07T12:00:00Z"
    assert gap["serves"] == "not served" and gap["hours_in_window"] == "96.0"


def test_the_example_in_docs_stay_up_is_what_the_command_prints(aws, run, bridge_env):
    # given the example of docs/stay-up.md: the bridge's block, active, and a block held three days later
    block = {**reservation(CURRENT, BRIDGE_END - timedelta(days=2), BRIDGE_END), "State": "active"}
    later = reservation(HELD, BRIDGE_END + timedelta(days=3), BRIDGE_END + timedelta(days=6))
    expect(aws, CURRENT, block)
    expect_held(aws, block, later)
    command = "bin/llmops plan --env bridge --now 2026-12-05T12:00Z"
    result = run(*command.split()[1:])
    page = (Path(__file__).resolve().parents[2] / "docs" / "stay-up.md").read_text()
    shown = page.split(f"$ {command}\n", 1)[1].split("\n```", 1)[0]
    # then the page shows the command's output, line for line
    assert shown == result.stdout.rstrip("\n")
