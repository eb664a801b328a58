"""The habits users bring from git and the AWS CLI (issue 32): ``llmops help [COMMAND [SUBCOMMAND]]``, a suggestion for
a mistyped command or option, ``--output json|table`` beside ``--json``, and examples at every level of help."""

from __future__ import annotations

import argparse
import io
import shlex

import pytest

from ops_cli.cli import build_parser, main
from ops_cli.context import Runtime
from ops_cli.suggestions import subcommands
from tests.ops_cli.conftest import Result


def llmops(*argv: str) -> Result:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), Runtime(stdout=out, stderr=err, environ={}))
    return Result(code, out.getvalue(), err.getvalue())


@pytest.mark.parametrize("words", [(), ("capacity-blocks",), ("wait", "nodes"), ("help",)])
def test_help_prints_what_dash_dash_help_prints(words):
    # given a command line, asked for its help both ways
    asked = llmops("help", *words)
    dashed = llmops(*words, "--help")
    # then both print the same help and succeed
    assert (asked.code, dashed.code) == (0, 0)
    assert (
        asked.stdout == dashed.stdout
        and asked.stdout.startswith("usage: llmops")
        and asked.stderr == ""
    )


@pytest.mark.parametrize(
    ("words", "named"),
    [
        (("bogus",), "'llmops' has no command 'bogus'"),
        (("wait", "nodes", "x"), "'llmops wait nodes' has no command 'x'"),
    ],
)
def test_help_of_an_unknown_command_is_refused_in_one_line(words, named):
    # when help is asked of a command that does not exist
    result = llmops("help", *words)
    # then one error line names it, a fix line says where to look, and the exit code is that of bad arguments
    assert result.code == 2 and result.stdout == ""
    error, fix = result.stderr.splitlines()
    assert error.startswith(f"error: {named}") and fix.startswith("  fix: run 'llmops help")


@pytest.mark.parametrize(
    ("argv", "hint", "fix"),
    [
        (
            ["handvoer", "--env", "prod"],
            "invalid choice: 'handvoer' (did you mean 'handover'?)",
            "llmops",
        ),
        (["wait", "nodez"], "invalid choice: 'nodez' (did you mean 'nodes'?)", "llmops wait"),
        (
            ["cost", "--env", "prod", "--pricing-region", "us-east-2"],
            "(did you mean 'us-east-1'?)",
            "llmops cost",
        ),
        (
            ["wait", "nodes", "--env", "prod", "--intervall", "5"],
            "(did you mean '--interval'?)",
            "llmops wait nodes",
        ),
        (
            ["preflight", "--env", "prod", "--kubctl=kubectl"],
            "(did you mean '--kubectl'?)",
            "llmops preflight",
        ),
        (["help", "wiat"], "'llmops' has no command 'wiat' (did you mean 'wait'?)", "llmops help"),
    ],
)
def test_a_mistyped_name_gets_the_closest_one_of_the_parser(argv, hint, fix):
    # when a command, a subcommand, an option's value or an option is mistyped
    result = llmops(*argv)
    # then one error line names the closest the parser knows, the fix names the command's help, exit 2, no traceback
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert result.code == 2 and len(errors) == 1 and hint in errors[0], result.stderr
    assert f"  fix: run '{fix}" in result.stderr and "Traceback" not in result.stderr


def test_a_name_close_to_none_gets_no_guess():
    # when an option is nothing like any of the command's
    result = llmops("wait", "nodes", "--env", "prod", "--zzz")
    # then the error names it, guesses nothing, and points to the command's own help
    assert result.code == 2 and "error: unrecognized arguments: --zzz\n" in result.stderr
    assert (
        "did you mean" not in result.stderr
        and "fix: run 'llmops wait nodes --help'" in result.stderr
    )


@pytest.mark.parametrize(
    ("argv", "json"),
    [
        (["wait", "nodes", "--env", "prod"], False),
        (["wait", "nodes", "--env", "prod", "--output", "table"], False),
        (["wait", "nodes", "--env", "prod", "--output", "json"], True),
        (["--output", "json", "capacity-blocks", "show", "cr-0123456789abcdef0"], True),
        (["capacity-blocks", "--output=json", "show", "cr-0123456789abcdef0"], True),
        (
            ["wait", "nodes", "--env", "prod", "--json", "--output", "table"],
            False,
        ),  # the last one given wins
    ],
)
def test_output_json_is_json_and_output_table_the_default(argv, json):
    # given --output where --json is accepted: before the command, between group and command, after it
    args = build_parser().parse_args(argv)
    # then it sets what --json sets
    assert args.json is json


def test_output_json_prints_what_json_prints():
    # given a command that ends in a local refusal, with --json and with --output json
    dashed = llmops("smoke-test", "--url", "ftp://x", "--json")
    spelled = llmops("smoke-test", "--url", "ftp://x", "--output", "json")
    # then both print the same JSON on stdout, with the same exit code
    assert spelled == dashed and spelled.code == 2 and spelled.json["kind"] == "USAGE"


def test_another_output_format_is_refused_naming_the_choices():
    # when --output names a format llmops does not print
    result = llmops("smoke-test", "--url", "http://localhost:8000", "--output", "yaml")
    # then the error names the option, the value and the two choices, exit 2
    assert result.code == 2 and result.stdout == ""
    assert (
        "error: argument --output: invalid choice: 'yaml' (choose from 'json', 'table')"
        in result.stderr
    )


def _parsers(parser: argparse.ArgumentParser):
    """Every parser of the tree, the root first: llmops, each command group, each command."""
    yield parser
    for sub in subcommands(parser).values():
        yield from _parsers(sub)


def test_every_level_of_help_shows_examples_the_parser_accepts():
    # given every parser llmops has, the root and the command groups among them
    root = build_parser()
    parsers = list(_parsers(root))
    assert len(parsers) == 1 + 4 + 28  # the root, the four groups of subcommands, the 28 commands
    for parser in parsers:
        text = parser.format_help()
        # then its help has an examples: section, one to four command lines of this very parser
        assert "\nexamples:\n" in text, f"{parser.prog}: no examples: in its help"
        examples = text.split("\nexamples:\n", 1)[1].split("\n\n", 1)[0].splitlines()
        assert 1 <= len(examples) <= 4, text
        for example in examples:
            words = shlex.split(example)
            assert f"{' '.join(words)} ".startswith(f"{parser.prog} "), f"{parser.prog}: {example}"
            # each of which the parser accepts as a command it can run
            assert callable(root.parse_args(words[1:]).handler), example


def test_the_fix_names_the_help_of_the_parser_that_failed():
    # given a command line whose only word that is a command's name is an option's value
    result = llmops("--region", "wait")
    # then the error is the root's (no command), and so is the help its fix names
    assert (
        result.code == 2 and "error: the following arguments are required: COMMAND" in result.stderr
    )
    assert "  fix: run 'llmops --help'" in result.stderr
