"""The habits users bring from git and the AWS CLI (issue 32): ``llmops help [COMMAND [SUBCOMMAND]]``, a suggestion for
a mistyped command or option, ``--output json|table`` beside ``--json``, and examples at every level of help."""

from __future__ import annotations

import io

import pytest

from ops_cli.cli import main
from ops_cli.context import Runtime
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
