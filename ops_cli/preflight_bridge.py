"""Preflight's row for the bridge (the bridge section, docs/stay-up.md): the block's end the file gives, which the
bridge's schedules are written from at synthesis, is EC2's; and the bridge's times are still ahead.

Synthesis cannot ask EC2 (it runs without an AWS account), so ``bridge.block_end`` is the user's copy of the
reservation's ``EndDate``; this row is where the two are compared, before a deploy. An extension moves EC2's EndDate
(once paid: ops_cli/paid_periods.py) and so fails this row until the file follows.
"""

from __future__ import annotations

from datetime import UTC, datetime

from deployment_config.bridge import bridge_plan
from deployment_config.gpu_nodes import BRIDGE_GPU_NODEGROUP
from deployment_config.model import EnvironmentConfig
from ops_cli.output import utc_and_local
from ops_cli.preflight_check import Check, Status

NAME = "bridge schedule"


def bridge_check(env: EnvironmentConfig, reservation: dict, now: datetime) -> Check:
    """The row for ``env``'s bridge against ``reservation`` (DescribeCapacityReservations' entry for
    capacity.capacity_reservation_id)."""
    plan = bridge_plan(env)
    end = reservation.get("EndDate")
    if end is None:
        return Check(
            NAME,
            Status.WARN,
            "EC2 gives no EndDate for the reservation: the bridge's times are unchecked",
        )
    end = end.astimezone(UTC)
    if end != plan.block_end:
        return Check(
            NAME,
            Status.FAIL,
            f"bridge.block_end is {utc_and_local(plan.block_end)}, but the block ends {utc_and_local(end)}: the "
            "bridge would start and stop at the wrong times",
            f"set bridge.block_end: '{end:%Y-%m-%dT%H:%MZ}', then deploy {env.stack_name('gpu-nodes')}",
        )
    scale_up = (
        f"aws eks update-nodegroup-config --cluster-name {env.cluster_name} --nodegroup-name "
        f"{BRIDGE_GPU_NODEGROUP} --scaling-config minSize=0,maxSize={plan.instances},desiredSize={plan.instances} "
        f"--region {env.region}"
    )
    if plan.stop <= now:
        return Check(
            NAME,
            Status.WARN,
            f"the bridge's window ended {utc_and_local(plan.stop)}: its schedules will not run again",
            "remove the bridge: section, or set block_end to the next block's end",
        )
    if plan.start <= now:
        # Whether EventBridge Scheduler runs a one-time schedule created after its time is not documented in the
        # pages stored here, so the row does not promise it.
        return Check(
            NAME,
            Status.WARN,
            f"the bridge's start, {utc_and_local(plan.start)}, has passed: a schedule deployed now may not run",
            f"start it by hand: {scale_up}",
        )
    return Check(
        NAME,
        Status.PASS,
        f"{plan.instances} x {env.bridge.instance_types[0]} from {utc_and_local(plan.start)} to "
        f"{utc_and_local(plan.stop)}; the block ends {utc_and_local(end)}",
    )
