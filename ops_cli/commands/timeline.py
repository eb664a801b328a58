"""``llmops timeline``: the plan from purchase to serving of an environment, offline (ops_cli/timeline.py; for
maintainers, bench/timeline.py adds what a start measured on the node changes)."""

from __future__ import annotations

import argparse

from ops_cli import timeline as plan
from ops_cli.command_help import command_help
from ops_cli.context import Context
from ops_cli.errors import ExitCode


def register(groups: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = groups.add_parser(
        "timeline",
        help="the plan from purchase to serving: each phase's planned duration and its basis (offline)",
        parents=[common],
        **command_help(
            "Print the plan from purchase to serving of an environment, without AWS: each phase's planned duration "
            "(node ready -> first token for each weight source, the estimate and the limit), the startup budgets the "
            "charts set, every rate with its source, and what nothing measured yet.",
            ["llmops timeline --env prod", "llmops timeline --env prod-hyperpod --json"],
            [(ExitCode.OK, "printed")],
            aws=False,
        ),
    )
    p.add_argument("--env", required=True, help="the environment to plan: config/ENV.yaml")
    p.set_defaults(handler=timeline)


def timeline(ctx: Context) -> int:
    env = ctx.env
    rows = plan.phases(env)
    ctx.out(plan.plan_json(env, rows), plan.render(env, rows))
    return ExitCode.OK
