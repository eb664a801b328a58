"""The llmops command line: the root parser and the options every command accepts, dispatch to the command's handler
(ops_cli/commands/), and the mapping of every way a command can end to an exit code and at most two lines."""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib
import io
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from endpoint_probe.redaction import redact_secrets, secret_arguments
from ops_cli import __version__
from ops_cli.command_end import internal_error, last_resort, report, stdout_closed
from ops_cli.command_help import group_help
from ops_cli.context import CONFIG_DIR_VARIABLE, Context, Runtime, cli_words
from ops_cli.errors import ExitCode, OpsError
from ops_cli.output import write_if_open
from ops_cli.suggestions import help_parser, suggested

#: The command groups, in the order ``llmops --help`` lists them; each module's ``register`` adds its parsers.
_GROUPS = (
    "capacity_blocks training_plans preflight wait connect phases timeline handover plan rollout cost weights smoke_test "
    "bench help"
).split()
COMMANDS = tuple(importlib.import_module(f"ops_cli.commands.{name}") for name in _GROUPS)


class Parser(argparse.ArgumentParser):
    """argparse, with its errors in the CLI's format: an ``error:`` line, with the closest name to a mistyped one
    (ops_cli/suggestions.py), and a ``fix:`` line, exit code 2."""

    words: Sequence[
        str
    ] = ()  # the command line the root parser parses, for the options of the command it names

    def parse_args(self, args=None, namespace=None):  # type: ignore[override]  # noqa: ANN001 (argparse's)
        self.words = list(sys.argv[1:] if args is None else args)
        return super().parse_args(self.words, namespace)

    def error(self, message: str):  # type: ignore[override]
        if len(message) > 300:  # argparse quotes the arguments it did not expect, however long
            message = f"{message[:300]}... ({len(message)} characters)"
        command = help_parser(self, message, self.words)
        command.print_usage(sys.stderr)
        self.exit(
            ExitCode.USAGE,
            f"error: {suggested(self, message, self.words)}\n"
            f"  fix: run '{command.prog} --help' for the accepted arguments\n",
        )


class OutputFormat(argparse.Action):
    """``--output json|table``, the AWS CLI's spelling of ``--json`` (and of its absence): the same ``json`` flag."""

    def __call__(self, parser, namespace, values, option_string=None):  # noqa: ANN001 (argparse's)
        setattr(namespace, self.dest, values == "json")


def common_options(defaults: bool) -> argparse.ArgumentParser:
    """Options accepted before and after any subcommand. Below the top level they default to SUPPRESS, so that a
    value given at one level is not reset by another level's default."""
    common = Parser(add_help=False)
    suppress = {} if defaults else {"default": argparse.SUPPRESS}
    common.add_argument(
        "--json",
        action="store_true",
        help="print machine-readable JSON instead of tables",
        **suppress,
    )
    common.add_argument(
        "--output",
        choices=("json", "table"),
        action=OutputFormat,
        dest="json",
        default=argparse.SUPPRESS,  # --json's default stands: tables
        help="json: the same as --json; table: tables (default: table), as the AWS CLI's --output",
    )
    common.add_argument(
        "--region",
        help="AWS region (default: the environment's, then AWS_REGION or AWS_DEFAULT_REGION, "
        "then the profile's region in the AWS config file, as the AWS CLI does)",
        **suppress,
    )
    common.add_argument(
        "--profile",
        help="the AWS CLI profile whose credentials and region to use (default: AWS_PROFILE, "
        "then the default profile)",
        **suppress,
    )
    common.add_argument(
        "--config-dir",
        type=Path,
        help=f"where environment files live (default: {CONFIG_DIR_VARIABLE}, else config/ of the checkout "
        "llmops runs from or that is the current directory)",
        **(suppress or {"default": None}),
    )
    return common


def build_parser() -> argparse.ArgumentParser:
    common = common_options(defaults=False)
    parser = Parser(
        prog="llmops",
        parents=[common_options(defaults=True)],
        **group_help(
            "Find and buy GPU capacity, preflight, wait, smoke-test.",
            [
                "llmops capacity-blocks offerings --env prod",
                "llmops preflight --env prod",
                "llmops smoke-test --url http://localhost:8000 --env prod --output json",
                "llmops help wait nodes",
            ],
        ),
    )
    parser.add_argument("--version", action="version", version=f"llmops {__version__}")
    groups = parser.add_subparsers(dest="group", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.register(groups, common)
    parser.set_defaults(parser=parser)  # what `llmops help` walks (ops_cli/commands/help.py)
    return parser


@functools.cache
def shared_parser() -> argparse.ArgumentParser:
    """The parser :func:`main` parses with, built once per process: building it costs about 9 ms of CPU, which a
    process that runs :func:`main` many times (the tests run over 600 commands in-process) would pay each time.
    Parsing leaves it as it was: each call gets a new Namespace, and the root's ``words`` are set by each
    ``parse_args``. The handlers it names are those of its build (``set_defaults(handler=...)``)."""
    return build_parser()


def run() -> None:
    """The ``llmops`` command (pyproject.toml's entry point, and ``python -m ops_cli``)."""
    sys.exit(main(runtime=Runtime(hard_exit=os._exit)))


def main(argv: Sequence[str] | None = None, runtime: Runtime | None = None) -> int:
    """Run one command; returns its exit code (ops_cli.errors.ExitCode). Never raises, never prints a traceback (unless
    LLMOPS_DEBUG=1 asks for one of an internal error)."""
    runtime = runtime or Runtime()
    json_output = False
    ctx: Context | None = None
    try:
        parser = shared_parser()
        errors = (
            io.StringIO()
        )  # argparse quotes arguments it did not expect: secrets out before it is shown
        with contextlib.redirect_stdout(runtime.stdout), contextlib.redirect_stderr(errors):
            try:
                args = parser.parse_args(argv)
            except SystemExit as exit_:  # argparse has printed its help, or its usage and error
                runtime.stdout.flush()
                return exit_.code if isinstance(exit_.code, int) else ExitCode.USAGE
            finally:
                write_if_open(
                    runtime.stderr,
                    redact_secrets(
                        errors.getvalue(),
                        secret_arguments(list(sys.argv[1:] if argv is None else argv)),
                    ),
                )
        json_output = bool(args.json)
        ctx = Context(args, runtime)
        with ctx.deadline.enforced(last_resort(runtime, json_output, ctx.own_secrets)):
            code = int(
                args.handler(ctx)
            )  # every command's parser sets its handler (ops_cli/commands/)
        runtime.stdout.flush()  # a closed pipe shows here, not in the interpreter's flush at exit
        return code
    except OpsError as error:
        error.message, error.fix = cli_words(error.message), cli_words(error.fix)
        return report(runtime, error, json_output, ctx.own_secrets() if ctx else ())
    except KeyboardInterrupt:
        stdout_closed(runtime)
        write_if_open(runtime.stderr, "interrupted\n")
        return ExitCode.INTERRUPTED
    except BrokenPipeError as error:
        if stdout_closed(
            runtime
        ):  # e.g. `llmops ... | head -1`: the reader has gone, so stop quietly, like cat does
            return ExitCode.STDOUT_CLOSED
        return internal_error(runtime, error, json_output, ctx)
    except Exception as error:  # noqa: BLE001 - the last-resort guard: a bug, reported without a traceback
        return internal_error(runtime, error, json_output, ctx)


if __name__ == "__main__":
    sys.exit(main(runtime=Runtime(hard_exit=os._exit)))
