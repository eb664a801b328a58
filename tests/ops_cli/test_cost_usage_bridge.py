"""llmops cost --usage with a bridge section (docs/stay-up.md): the bridge's instance-hours, counted each minute by the
serving metrics publisher (BridgeInstances), and their cost at the price table's On-Demand rate, beside the block's
fee and in the cost per million tokens. Stubbed EC2 and CloudWatch (the Stubber checks every request and answer
against botocore's models); the same two bridge instances as tests/cdk_constructs/test_bridge_metering.py."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import pytest

from ops_cli import block_usage, cost_estimate
from ops_cli.bridge_usage import BRIDGE_QUERY
from ops_cli.cli import main
from ops_cli.context import Runtime
from ops_cli.errors import ExitCode
from tests.ops_cli.conftest import Result, StubbedAws

TEST_CONFIGS = Path(__file__).resolve().parents[1] / "configs"
RESERVATION = "cr-0123456789abcdef0"  # tests/configs/bridge.yaml's
CLUSTER = "bridge-llm"
#: The block: 34 hours, ending at tests/configs/bridge.yaml's bridge.block_end; now is two hours after its end, the
#: bridge (started 08:22, stopping 2026-12-07 11:30) serving on.
START = datetime(2026, 12, 5, 1, 30, tzinfo=UTC)
END = START + timedelta(hours=34)
NOW = END + timedelta(hours=2)
HOURS = [START + timedelta(hours=h) for h in range(36)]
#: The bridge's instance-minutes in each hour from START, as the publisher counted them: the first instance from 08:22
#: (8 minutes of the hour from 07:30, then whole hours) until its replacement at 11:22, the second from 11:00 to now.
BRIDGE_MINUTES = {30: 8.0, 31: 60.0, 32: 60.0, 33: 52.0 + 30.0, 34: 60.0, 35: 60.0}
#: The table's On-Demand rate of p6-b300.48xlarge in us-west-2 (deployment_config/data/gpu_prices.json).
RATE = Decimal("142.416")


@pytest.fixture
def regional():
    stubs = StubbedAws("us-west-2")
    try:
        yield stubs
        stubs.assert_all_used()
    finally:
        stubs.deactivate()


def run(regional: StubbedAws, *argv: str) -> Result:
    stdout, stderr = io.StringIO(), io.StringIO()
    runtime = Runtime(
        aws_factory=regional.aws,
        stdout=stdout,
        stderr=stderr,
        environ={},
        sleep=lambda seconds: None,
        now=lambda: NOW,
    )
    code = main([*argv, "--config-dir", str(TEST_CONFIGS)], runtime)
    return Result(code, stdout.getvalue(), stderr.getvalue())


def _series(key: str, values: dict[int, float]) -> dict:
    return {
        "Id": key,
        "Label": key,
        "Timestamps": [HOURS[i] for i in sorted(values)],
        "Values": [values[i] for i in sorted(values)],
        "StatusCode": "Complete",
    }


def expect_block_and_bridge(regional: StubbedAws) -> None:
    """The block (ended, never extended), and the hourly series over the block and the bridge's window to now: 2000
    prompt and 500 generation tokens a second, a request running in 45 minutes of each hour, and the bridge."""
    ec2 = regional.stub("ec2")
    ec2.add_response(
        "describe_capacity_reservations",
        {
            "CapacityReservations": [
                {
                    "CapacityReservationId": RESERVATION,
                    "State": "expired",
                    "StartDate": START,
                    "EndDate": END,
                }
            ]
        },
        {"CapacityReservationIds": [RESERVATION]},
    )
    ec2.add_response(
        "describe_capacity_block_extension_history",
        {"CapacityBlockExtensions": []},
        {"CapacityReservationIds": [RESERVATION]},
    )
    queries = {**block_usage.QUERIES, **BRIDGE_QUERY}
    every_hour = range(len(HOURS))
    regional.stub("cloudwatch").add_response(
        "get_metric_data",
        {
            "MetricDataResults": [
                _series("prompt", {i: 120_000.0 for i in every_hour}),
                _series("generation", {i: 30_000.0 for i in every_hour}),
                _series("busy", {i: 45.0 for i in every_hour}),
                _series("served", {i: 60.0 for i in every_hour}),
                _series("bridge", BRIDGE_MINUTES),
            ]
        },
        {
            "MetricDataQueries": [
                {
                    "Id": key,
                    "MetricStat": block_usage._query(metric, stat, CLUSTER),
                    "ReturnData": True,
                }
                for key, (metric, stat, _, _) in queries.items()
            ],
            "StartTime": START,
            # to now, past the block's end: the bridge serves on, its running instance counted to now
            "EndTime": NOW,
            "ScanBy": "TimestampAscending",
        },
    )


def test_the_bridges_hours_and_cost_are_reported_and_borne_by_the_cost_per_token(regional):
    # given a 34-hour block that ended two hours ago, and the bridge: one instance replaced, one still running
    expect_block_and_bridge(regional)
    result = run(
        regional, "cost", "--usage", "--env", "bridge", "--block-fee", "91540.80", "--json"
    )
    assert result.code == ExitCode.OK, result.stderr
    report = result.json
    # then the bridge ran 330 instance-minutes, the last two hours after the block's end included
    bridge = report["bridge"]
    assert bridge["instance_hours"] == "5.5"
    spent = RATE * 330 / 60
    assert bridge["cost_so_far"] == str(spent.quantize(Decimal("0.01"))) == "783.29"
    assert bridge["on_demand_per_instance_hour"] == "142.416"
    assert bridge["source"].startswith("https://aws.amazon.com/ec2/pricing/on-demand/")
    # the block's fee is all spent; the per-token figures bear both
    assert report["cost_so_far"] == "91540.80"
    total = Decimal("91540.80") + spent
    assert report["gpu_cost_so_far"] == str(total.quantize(Decimal("0.01"))) == "92324.09"
    assert (report["input_tokens"], report["output_tokens"]) == (259_200_000, 64_800_000)
    assert report["cost_per_million_output_tokens"] == "1424.75"
    assert report["cost_per_million_input_tokens"] == "356.19"
    # the bridge's window after the block is paid time: 36 hours, a quarter of them idle
    assert report["block"]["hours_so_far"] == "36.0" and report["idle_share"] == "0.250"
    assert report["cost_complete"] is True


def test_the_table_shows_the_bridge_rows_with_their_sources(regional):
    expect_block_and_bridge(regional)
    result = run(regional, "cost", "--usage", "--env", "bridge", "--block-fee", "91540.80")
    assert result.code == ExitCode.OK, result.stderr
    rows = {line.split("  ")[0]: line for line in result.stdout.splitlines()}
    assert (
        "5.5" in rows["bridge instance-hours"]
        and "BridgeInstances" in rows["bridge instance-hours"]
    )
    assert "783.29 USD" in rows["bridge cost so far"]
    assert "5.5 h x 142.416 USD per instance-hour, On-Demand" in rows["bridge cost so far"]
    assert "92,324.09 USD" in rows["block + bridge cost so far"]
    assert "the bridge from 2026-12-06 08:22 UTC" in result.stdout.splitlines()[0]
    assert "(block + bridge)" in rows["per million output tokens"]


def test_without_an_on_demand_rate_the_hours_are_reported_and_the_cost_says_it_leaves_the_bridge_out(
    regional, monkeypatch
):
    # given the table has no rate for the bridge's type and region
    monkeypatch.setattr(cost_estimate, "on_demand_rate", lambda env: None)
    expect_block_and_bridge(regional)
    result = run(
        regional, "cost", "--usage", "--env", "bridge", "--block-fee", "91540.80", "--json"
    )
    assert result.code == ExitCode.OK, result.stderr
    report = result.json
    # then the hours are there, no cost is made up, and the report says what it leaves out
    assert report["bridge"]["instance_hours"] == "5.5" and report["bridge"]["cost_so_far"] is None
    assert report["cost_complete"] is False
    (left_out,) = report["cost_leaves_out"]
    assert left_out.startswith("bridge p6-b300.48xlarge: no published rate in the table")
