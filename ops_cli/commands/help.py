"""``llmops help [COMMAND [SUBCOMMAND]]``: the help of llmops, of a command group or of a command, the very text that
``llmops COMMAND --help`` prints (git's and the AWS CLI's habit). The root parser is the ``parser`` default that
ops_cli/cli.py sets; the words walk down its subcommands."""

from __future__ import annotations

import argparse

from ops_cli.command_help import command_help
from ops_cli.context import Context
from ops_cli.errors import ExitCode, OpsError, shown
from ops_cli.suggestions import did_you_mean, subcommands


def register(groups: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = groups.add_parser(
        "help",
        help="the help of llmops or of a command: llmops help wait nodes (the same as llmops wait nodes --help)",
        parents=[common],
        **command_help(
            "Print the help of llmops, of a command group or of a command, as COMMAND --help prints it.",
            ["llmops help", "llmops help capacity-blocks", "llmops help wait nodes"],
            [
                (ExitCode.OK, "the help is printed"),
                (
                    ExitCode.USAGE,
                    "no such command: the message names the word and the commands there are",
                ),
            ],
            aws=False,
        ),
    )
    p.add_argument(
        "words",
        nargs="*",
        metavar="COMMAND",
        help="a command and its subcommand, e.g. 'wait nodes' (default: none, the help of llmops itself)",
    )
    p.set_defaults(handler=show)


def show(ctx: Context) -> int:
    parser: argparse.ArgumentParser = ctx.args.parser
    for word in ctx.args.words:
        below = subcommands(parser)
        if word not in below:
            there = f"its commands: {', '.join(below)}" if below else "it has no subcommands"
            raise OpsError(
                f"'{parser.prog}' has no command {shown(word)}{did_you_mean(word, below)}; {there}",
                f"run '{parser.prog.replace('llmops', 'llmops help', 1)}' for what it accepts",
                ExitCode.USAGE,
            )
        parser = below[word]
    ctx.rt.stdout.write(parser.format_help())
    return ExitCode.OK
