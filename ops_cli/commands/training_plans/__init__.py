"""``llmops training-plans``: SageMaker Flexible Training Plans for HyperPod (ops_cli/training_plans.py), one module per
command kind: offerings, create, show and use (plans.py); extensions and extend (extensions.py,
ops_cli/training_plan_extensions.py). ``register`` adds the group and calls each module's ``register(plans, common)`` in
the order ``llmops training-plans --help`` lists the commands."""

from __future__ import annotations

import argparse

from ops_cli.command_help import group_help
from ops_cli.commands.training_plans import extensions, plans


def register(groups: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    group = groups.add_parser(
        "training-plans",
        help="SageMaker Flexible Training Plans",
        parents=[common],
        **group_help(
            "Find, create, extend and inspect SageMaker Flexible Training Plans for HyperPod, and write one into an "
            "environment file.",
            [
                "llmops training-plans offerings --env example-hyperpod",
                "llmops training-plans show kimi-k3-december --region us-west-2",
                "llmops training-plans use kimi-k3-december --env example-hyperpod",
                "llmops training-plans extensions --env example-hyperpod",
            ],
        ),
    ).add_subparsers(dest="command", required=True, metavar="SUBCOMMAND")
    for command in (plans, extensions):
        command.register(group, common)
