"""``llmops capacity-blocks offerings``: the Capacity Block offerings for an instance type, count and length in a date
range, cheapest first (ops_cli/capacity_blocks.py); buys nothing."""

from __future__ import annotations

import argparse

from ops_cli import capacity_blocks as cb
from ops_cli.capacity_search import add_search_options, search
from ops_cli.command_help import command_help
from ops_cli.context import Context
from ops_cli.errors import ExitCode
from ops_cli.output import utc_and_local
from ops_cli.tables import offerings_table


def register(blocks: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Adds ``offerings`` under the capacity-blocks group's subparsers (ops_cli/commands/capacity_blocks/)."""
    p = blocks.add_parser(
        "offerings",
        help="list offerings, cheapest first",
        parents=[common],
        **command_help(
            "List the Capacity Block offerings for an instance type, count and length in a date range, cheapest first, "
            "with their upfront fees; buys nothing.",
            [
                "llmops capacity-blocks offerings --env prod",
                "llmops capacity-blocks offerings --instance-type p6-b300.48xlarge --count 2 --duration-hours 96 "
                "--region us-west-2",
                "llmops capacity-blocks offerings --env prod --start-after 2026-12-10 --end-before 2026-12-24 --json",
            ],
            [(ExitCode.OK, "listed (no offering is a list too)")],
        ),
    )
    add_search_options(p, "p6-b300.48xlarge", 48)
    p.set_defaults(handler=offerings)


def offerings(ctx: Context) -> int:
    wanted = search(ctx, sagemaker=False)
    found = cb.find_offerings(ctx.aws(), wanted)
    human = (
        offerings_table(found)
        if found
        else f"No Capacity Block offerings for {wanted.instance_count} x {wanted.instance_type}, "
        f"{wanted.duration_hours} h, between {utc_and_local(wanted.start_after)} "
        f"and {utc_and_local(wanted.end_before)}."
    )
    ctx.out([o.to_dict() for o in found], human)
    return ExitCode.OK
