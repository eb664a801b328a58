"""Preflight's row for the next Capacity Block: the handover's verdict (ops_cli/handover.py) before anything is
deployed."""

from __future__ import annotations

from datetime import datetime

from deployment_config.model import EnvironmentConfig
from ops_cli.aws import Aws
from ops_cli.errors import ExitCode, OpsError
from ops_cli.handover import NO_NODES, READY_IN_TIME, _minutes, handover_plan
from ops_cli.preflight_check import Check, Status


def next_block_check(aws: Aws, env: EnvironmentConfig, now: datetime) -> Check:
    """Preflight's row for capacity.next_capacity_reservation_id (ops_cli/preflight.py, EKS only, when it is set): the
    handover's verdict before anything is deployed. A next block the node group cannot use fails; one that starts too
    late warns (the deploy works, the endpoint will be down for a while)."""
    name = "next Capacity Block"
    try:
        plan = handover_plan(aws, env, now)
    except OpsError as error:
        if error.exit_code not in (ExitCode.USAGE, ExitCode.NOT_FOUND):
            raise
        return Check(name, Status.FAIL, error.message, error.fix)
    to = plan.next["reservation_id"]
    if plan.verdict == READY_IN_TIME:
        return Check(
            name,
            Status.WARN if plan.warnings else Status.PASS,
            f"{to}: its replicas can be ready {_minutes(plan.margin)} before the current nodes drain"
            + "".join(f"; {w}" for w in plan.warnings),
        )
    if plan.verdicts == [NO_NODES]:
        return Check(
            name,
            Status.WARN,
            f"{to}: {plan.verdict}",
            "; ".join(plan.warnings) + f"; bin/llmops handover --env {env.name} shows the plan",
        )
    return Check(
        name,
        Status.WARN,
        f"{to}: {' and '.join(plan.verdicts)}: " + "; ".join(plan.warnings),
        f"buy a Capacity Block that starts at least {_minutes(plan.cold_start)} before the current one's scale-down, "
        f"or extend the current one; bin/llmops handover --env {env.name} shows the plan",
    )
