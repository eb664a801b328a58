"""llmops cost with a bridge section (docs/stay-up.md): the bridge's instances x its hours, start to stop, at the price
table's On-Demand rate, beside the hourly totals and not in them. Offline: the table and the configuration are all it
needs; the clients have no credentials anywhere (they fail before sending)."""

from __future__ import annotations

import io
from decimal import Decimal
from pathlib import Path

import pytest

from deployment_config import gpu_prices
from ops_cli.aws import Aws
from ops_cli.cli import main
from ops_cli.context import Runtime
from ops_cli.errors import ExitCode
from tests.ops_cli.conftest import NOW, Result

TEST_CONFIGS = Path(__file__).resolve().parents[1] / "configs"


@pytest.fixture
def run_offline(tmp_path):
    environ = {
        "AWS_CONFIG_FILE": str(tmp_path / "no-config"),
        "AWS_SHARED_CREDENTIALS_FILE": str(tmp_path / "no-credentials"),
        "AWS_EC2_METADATA_DISABLED": "true",
    }

    def _run(*argv: str) -> Result:
        stdout, stderr = io.StringIO(), io.StringIO()
        runtime = Runtime(
            aws_factory=lambda region: Aws(region, environ=environ),
            stdout=stdout,
            stderr=stderr,
            environ=environ,
            sleep=lambda seconds: None,
            now=lambda: NOW,
        )
        code = main([*argv, "--config-dir", str(TEST_CONFIGS)], runtime)
        return Result(code, stdout.getvalue(), stderr.getvalue())

    return _run


def test_given_a_bridge_then_cost_counts_its_hours_at_the_on_demand_rate_beside_the_totals(
    run_offline,
):
    # given tests/configs/bridge.yaml: 1 x p6-b300 from 2026-12-06 08:22 to 2026-12-07 11:30 UTC (27.13 h)
    result = run_offline("cost", "--env", "bridge", "--json")
    assert result.code == ExitCode.OK, result.stderr
    bridge = result.json["bridge_not_in_totals"]
    rate = gpu_prices.on_demand_rate("p6-b300.48xlarge", "us-west-2").per_instance_hour
    hours = Decimal(27 * 60 + 8) / 60
    # then its fee is the table's rate x its instances x its hours, with the table's date and source
    assert (bridge["instances"], bridge["hours"]) == (1, "27.1")
    assert (
        bridge["start"] == "2026-12-06T08:22:00+00:00"
        and bridge["stop"] == "2026-12-07T11:30:00+00:00"
    )
    assert bridge["on_demand_per_instance_hour"] == str(rate)
    assert Decimal(bridge["fee"]) == (rate * hours).quantize(Decimal("0.01"))
    assert bridge["read_on"] == gpu_prices.price_lists()["on_demand"].read_on


def test_given_a_bridge_then_the_table_says_it_in_one_line_not_in_the_totals(run_offline):
    result = run_offline("cost", "--env", "bridge")
    assert result.code == ExitCode.OK, result.stderr
    (line,) = [line for line in result.stdout.splitlines() if line.startswith("Bridge")]
    assert line.startswith(
        "Bridge, not in the totals: 1 x p6-b300.48xlarge on-demand from 2026-12-06 08:22 UTC"
    )
    assert "per instance-hour = " in line and "the On-Demand rate of the price table of" in line


def test_without_a_bridge_there_is_no_bridge_line(run_offline):
    result = run_offline("cost", "--env", "budget", "--json")
    assert result.code == ExitCode.OK, result.stderr
    assert result.json["bridge_not_in_totals"] is None
