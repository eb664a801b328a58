"""``llmops handover``: the handover from the current Capacity Block to the next, as a timeline (ops_cli/handover.py);
on HyperPod, the training plan with its extensions (ops_cli/handover_hyperpod.py)."""

from __future__ import annotations

import argparse

from ops_cli.command_help import command_help
from ops_cli.context import Context
from ops_cli.errors import ExitCode
from ops_cli.handover import handover_human, handover_plan
from ops_cli.handover_hyperpod import plan_timeline, timeline_human


def register(groups: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = groups.add_parser(
        "handover",
        help="when the next Capacity Block's nodes start, when traffic moves, when the current nodes go; "
        "warns when the blocks overlap too little for the cold start",
        parents=[common],
        **command_help(
            "Read the current and the next Capacity Block (capacity.next_capacity_reservation_id) from EC2 and show the "
            "handover as a timeline, with the cold start from the startup budget; exit 1 when the next block's "
            "replicas may not be ready before the current block's nodes drain. On HyperPod: the training plan's "
            "timeline with its extensions, and how to extend it; exit 1 when no extension beyond now is bought.",
            [
                "llmops handover --env prod",
                "llmops handover --env prod --json",
                "llmops handover --env example-hyperpod",
            ],
            [
                (
                    ExitCode.OK,
                    "the next block's replicas can be ready before the current nodes drain (HyperPod: an "
                    "extension that starts after now is bought)",
                ),
                (
                    ExitCode.CHECK_FAILED,
                    "not in time, a gap between the blocks, the next block's node group will not start (not "
                    "deployed, at desired size 0, or DEGRADED after its block started), or no next block: every "
                    "warning is listed, the verdict is the most severe (will not start, then gap, then not in time); "
                    "HyperPod: no extension beyond now, or the plan is over",
                ),
            ],
        ),
    )
    p.add_argument(
        "--env",
        required=True,
        help="the environment whose Capacity Blocks (or, on HyperPod, training plan) to read",
    )
    p.set_defaults(handler=handover)


def handover(ctx: Context) -> int:
    """The plan of the handover (ops_cli/handover.py): timeline, verdict, warnings. On HyperPod there is no second
    group to hand over to: the plan's timeline and how to extend it (ops_cli/handover_hyperpod.py)."""
    if ctx.env.hyperpod is not None:
        timeline = plan_timeline(ctx.aws(), ctx.env, ctx.rt.now())
        ctx.out(timeline.to_dict(), timeline_human(timeline))
        return timeline.exit_code
    plan = handover_plan(ctx.aws(), ctx.env, ctx.rt.now())
    ctx.out(plan.to_dict(), handover_human(plan))
    return plan.exit_code
