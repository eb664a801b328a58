"""Preflight's bridge row (ops_cli/preflight_bridge.py): the block's end in the file, from which the bridge's schedules
are synthesized, is EC2's EndDate; and the bridge's times are still ahead."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from deployment_config.loader import load_environment
from ops_cli.preflight_bridge import bridge_check
from ops_cli.preflight_check import Status

END = datetime(2026, 12, 6, 11, 30, tzinfo=UTC)  # tests/configs/bridge.yaml's bridge.block_end


@pytest.fixture(scope="module")
def bridge_env():
    return load_environment(Path(__file__).resolve().parents[1] / "configs", "bridge")


def test_given_ec2s_end_then_the_row_passes_and_names_the_window(bridge_env):
    check = bridge_check(bridge_env, {"EndDate": END}, END - timedelta(days=2))
    assert check.status is Status.PASS
    assert "1 x p6-b300.48xlarge from 2026-12-06 08:22 UTC" in check.detail
    assert "to 2026-12-07 11:30 UTC" in check.detail


def test_given_an_extended_block_then_the_row_fails_with_the_value_to_write(bridge_env):
    # given a block whose EndDate EC2 moved by an extension of a day
    check = bridge_check(bridge_env, {"EndDate": END + timedelta(days=1)}, END - timedelta(days=2))
    # then the schedules would start a day early: the row fails, with the line to put in the file
    assert check.status is Status.FAIL
    assert "the bridge would start and stop at the wrong times" in check.detail
    assert check.fix == "set bridge.block_end: '2026-12-07T11:30Z', then deploy bridge-gpu-nodes"


def test_given_a_start_already_past_then_the_row_warns_with_the_command_that_starts_it(bridge_env):
    check = bridge_check(bridge_env, {"EndDate": END}, END - timedelta(hours=1))
    assert check.status is Status.WARN
    assert "has passed" in check.detail
    assert (
        "--nodegroup-name gpu-bridge --scaling-config minSize=0,maxSize=1,desiredSize=1"
        in check.fix
    )


def test_given_the_window_over_then_the_row_warns(bridge_env):
    check = bridge_check(bridge_env, {"EndDate": END}, END + timedelta(days=2))
    assert check.status is Status.WARN
    assert "will not run again" in check.detail
