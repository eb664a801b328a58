"""The CLI's layout: every command group is a module of ops_cli/commands/ that registers its own parsers, and every
command's parser names the handler that runs it (dispatch goes through the parser: ops_cli/cli.py calls
``args.handler``). A command added without a handler, or a module not registered, fails here, not in a user's hands."""

from __future__ import annotations

import argparse
import importlib
import inspect
import io
import pkgutil
import shlex

import pytest

from ops_cli import cli, commands
from ops_cli.commands.capacity_blocks import reservations
from ops_cli.context import Runtime

MODULES = sorted(info.name for info in pkgutil.iter_modules(commands.__path__))


def _leaves(parser: argparse.ArgumentParser, path: tuple[str, ...] = ("llmops",)):
    """(command line, parser) of every parser that runs a command: those without subcommands of their own."""
    below = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]  # noqa: SLF001 (argparse's own)
    if not below:
        yield " ".join(path), parser
    for action in below:
        for name, sub in action.choices.items():
            yield from _leaves(sub, (*path, name))


@pytest.mark.parametrize("name", MODULES)
def test_every_command_module_registers_itself(name):
    # given a module of ops_cli/commands/
    module = importlib.import_module(f"ops_cli.commands.{name}")
    # then it has register(subparsers, common), and the root parser calls it
    assert callable(getattr(module, "register", None)), (
        f"ops_cli/commands/{name}.py has no register()"
    )
    assert list(inspect.signature(module.register).parameters) == ["groups", "common"]
    assert module in cli.COMMANDS, f"ops_cli/commands/{name}.py is not in ops_cli.cli.COMMANDS"


def test_every_command_has_a_handler_of_its_own_module():
    # given every command line the parser accepts
    leaves = dict(_leaves(cli.build_parser()))
    assert (
        len(leaves) == 28
        and "llmops capacity-blocks purchase" in leaves
        and "llmops handover" in leaves
        and "llmops bench" in leaves
    )
    for line, parser in leaves.items():
        handler = parser.get_default("handler")
        # then its parser names a function of one argument (the Context) in a command module
        assert callable(handler), f"{line}: no set_defaults(handler=...)"
        assert handler.__module__.startswith("ops_cli.commands."), (
            f"{line}: {handler.__module__}.{handler.__name__}"
        )
        assert list(inspect.signature(handler).parameters) == ["ctx"], line


def test_main_runs_the_handler_the_command_line_names(monkeypatch, fresh_parser):
    # given two commands of one group whose handlers only say that they ran
    ran = []
    monkeypatch.setattr(
        reservations, "show", lambda ctx: ran.append(("show", ctx.args.reservation_id)) or 7
    )
    monkeypatch.setattr(
        reservations, "use", lambda ctx: ran.append(("use", ctx.args.reservation_id)) or 0
    )
    # when one is asked for
    code = cli.main(
        ["capacity-blocks", "show", "cr-0123456789abcdef0"],
        Runtime(stdout=io.StringIO(), stderr=io.StringIO(), environ={}),
    )
    # then that one ran, once, and its return value is the exit code
    assert ran == [("show", "cr-0123456789abcdef0")] and code == 7


def test_main_builds_its_parser_once_and_each_command_parses_as_the_first(
    monkeypatch, fresh_parser
):
    # given a process whose main has parsed a command line with a mistake, then one with other options
    builds = []
    real_build = cli.build_parser
    monkeypatch.setattr(cli, "build_parser", lambda: builds.append(1) or real_build())

    def run(*argv: str) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        code = cli.main(list(argv), Runtime(stdout=out, stderr=err, environ={}))
        return code, out.getvalue(), err.getvalue()

    mistyped = run("capacity-blocks", "show", "cr-0123456789abcdef0", "--regoin", "us-west-2")
    run("help", "capacity-blocks", "--json")
    # when the first command line is parsed again
    again = run("capacity-blocks", "show", "cr-0123456789abcdef0", "--regoin", "us-west-2")
    # then the parser was built once, and the answer is the first one's, word for word
    assert len(builds) == 1
    assert again == mistyped and mistyped[0] == 2 and "--region" in mistyped[2]


def _section(text: str, title: str) -> list[str]:
    """The indented lines under ``title`` in a help text, up to the next blank line."""
    lines = (
        text.split(f"\n{title}\n", 1)[1].split("\n\n", 1)[0].splitlines()
        if f"\n{title}\n" in text
        else []
    )
    return [line.strip() for line in lines]


@pytest.mark.parametrize("line", sorted(dict(_leaves(cli.build_parser()))))
def test_every_command_s_help_answers(line):
    # given a command's --help
    parser = cli.build_parser()
    leaf = dict(_leaves(parser))[line]
    text = leaf.format_help()
    # then it says what the command does
    assert leaf.description and leaf.description.endswith("."), line
    # and shows one to three examples, each a command line of this very command that the parser accepts
    examples = _section(text, "examples:")
    assert 1 <= len(examples) <= 3, text
    for example in examples:
        words = shlex.split(example)
        assert " ".join(words).startswith(line + " ") or " ".join(words) == line, example
        assert parser.parse_args(words[1:]).handler is leaf.get_default("handler"), example
    # and its exit codes, success and bad arguments among them
    codes = {row.split()[0] for row in _section(text, "exit codes:")}
    assert {"0", "2", "70"} <= codes, text
    # and every argument is explained, every option with its default (flags are off, required options have none)
    for action in leaf._actions:  # noqa: SLF001 (argparse's own)
        if isinstance(action, argparse._HelpAction) or action.help == argparse.SUPPRESS:  # noqa: SLF001
            continue
        name = "/".join(action.option_strings) or action.dest
        assert action.help, f"{line}: {name} has no help"
        if (
            action.option_strings
            and not action.required
            and not isinstance(action, argparse._StoreTrueAction)
        ):  # noqa: SLF001
            assert "default" in action.help.lower(), f"{line}: {name} does not say its default"
