"""``llmops capacity-blocks``: EC2 Capacity Blocks (ops_cli/capacity_blocks.py), one module per command: offerings,
purchase, extend, and show and use (reservations.py). ``register`` adds the group and calls each module's
``register(blocks, common)`` in the order ``llmops capacity-blocks --help`` lists the commands."""

from __future__ import annotations

import argparse

from ops_cli.command_help import group_help
from ops_cli.commands.capacity_blocks import extend, offerings, purchase, reservations


def register(groups: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    blocks = groups.add_parser(
        "capacity-blocks",
        help="EC2 Capacity Blocks",
        parents=[common],
        **group_help(
            "Find, buy, extend and inspect EC2 Capacity Blocks for ML, and write one into an environment file.",
            [
                "llmops capacity-blocks offerings --env prod",
                "llmops capacity-blocks purchase --env prod --offering-id cb-0123456789abcdef0 --dry-run",
                "llmops capacity-blocks use cr-0123456789abcdef0 --env prod",
                "llmops capacity-blocks extend --env prod --duration-hours 24",
            ],
        ),
    ).add_subparsers(dest="command", required=True, metavar="SUBCOMMAND")
    for command in (offerings, purchase, extend, reservations):
        command.register(blocks, common)
