"""``llmops plan``: the next days of an environment as one timeline with its cost (ops_cli/plan.py)."""

from __future__ import annotations

import argparse
from datetime import datetime

from ops_cli import plan as timeline
from ops_cli.command_help import command_help
from ops_cli.context import Context
from ops_cli.errors import ExitCode, OpsError, shown
from ops_cli.tables import plan_human


def register(groups: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = groups.add_parser(
        "plan",
        help="the next days as one timeline: blocks, scale-downs, the bridge window, gaps, each with its cost",
        parents=[common],
        **command_help(
            "Read the environment's Capacity Blocks (or, on HyperPod, the training plan and its extensions) and lay "
            "out the next days as one timeline: each block, EKS's scale-down forty minutes before its end, the "
            "bridge's window as its schedules run it, and the gaps in which nothing serves, each with its length and "
            "its cost in the window (per hour x hours, the basis named). Without AWS credentials it prints what the "
            "configuration alone says (the bridge's window and the block's end it names) and which part needs AWS.",
            [
                "llmops plan --env prod",
                "llmops plan --env prod --days 28 --json",
                "llmops plan --env bridge --now 2026-12-05T12:00Z",
            ],
            [
                (
                    ExitCode.OK,
                    "printed (a gap is a row, not a failure: llmops handover exits 1 for one)",
                )
            ],
        ),
    )
    p.add_argument("--env", required=True, help="the environment to plan: config/ENV.yaml")
    p.add_argument(
        "--days",
        type=_days,
        default=timeline.DEFAULT_DAYS,
        help=f"how many days from now the timeline covers, 1 to {timeline.MAX_DAYS} "
        f"(default: {timeline.DEFAULT_DAYS})",
    )
    p.add_argument(
        "--now",
        type=_now,
        help="the time the timeline starts at, ISO 8601 with its zone, e.g. 2026-12-05T12:00Z "
        "(default: the current time)",
    )
    p.set_defaults(handler=plan)


def _days(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= timeline.MAX_DAYS:
        raise argparse.ArgumentTypeError(
            f"{shown(text)} is not a whole number of days from 1 to {timeline.MAX_DAYS}"
        )
    return int(text)


def _now(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{shown(text)} is not an ISO 8601 time; for example 2026-12-05T12:00Z"
        ) from None
    if moment.tzinfo is None:
        raise argparse.ArgumentTypeError(
            f"{shown(text)} has no time zone; add one, for example {text}Z for UTC"
        )
    return moment


def plan(ctx: Context) -> int:
    """The timeline from AWS; without credentials, what the configuration says (and which part needs AWS)."""
    args, env = ctx.args, ctx.env
    now = args.now or ctx.rt.now()
    try:
        result = timeline.timeline(ctx.aws(), env, now, args.days)
    except OpsError as error:
        if error.exit_code != ExitCode.CREDENTIALS:
            raise
        result = timeline.offline_timeline(
            env, now, args.days, f"needs AWS: {error.message} ({error.fix})"
        )
    ctx.out(result.to_dict(), plan_human(result))
    return ExitCode.OK
