"""What a command's ``--help`` says besides its options: a sentence on what it does, one to three examples and its
exit codes (ops_cli/errors.py ExitCode). Each command module passes :func:`command_help` to ``add_parser``, each
command group (and the root parser) :func:`group_help`: its examples are commands of the group."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from ops_cli.errors import ExitCode

#: What any command that calls AWS may end with (ops_cli/errors.py ``translate``).
AWS_CODES = (
    (ExitCode.CREDENTIALS, "no AWS credentials, or expired ones"),
    (ExitCode.ACCESS_DENIED, "access denied: the message names the action"),
    (ExitCode.THROTTLED, "still throttled after retrying with backoff"),
    (ExitCode.NOT_FOUND, "not found: the message names what"),
    (ExitCode.AWS_ERROR, "another AWS error, or kubectl failed"),
)
#: What every command may end with.
COMMON_CODES = (
    (ExitCode.USAGE, "bad arguments or configuration: the message names the option and the fix"),
    (ExitCode.INTERNAL, "internal error (LLMOPS_DEBUG=1 shows the traceback)"),
    (ExitCode.INTERRUPTED, "interrupted (Ctrl-C)"),
)


class HelpFormatter(argparse.HelpFormatter):
    """argparse's, except that a text of several lines (the epilog: examples, exit codes) keeps its lines; a one-line
    text (the description) is filled to the terminal's width as usual."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if "\n" in text:
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


def command_help(
    what: str, examples: Sequence[str], codes: Sequence[tuple[ExitCode, str]], *, aws: bool = True
) -> dict:
    """The keyword arguments of ``add_parser`` for a command: ``what`` it does (one sentence), its ``examples`` (one
    to three command lines) and its own exit ``codes``, with those every command (and, with ``aws``, every command that
    calls AWS) may end with."""
    every = dict(COMMON_CODES) | (dict(AWS_CODES) if aws else {}) | dict(codes)
    lines = ["examples:", *(f"  {example}" for example in examples), "", "exit codes:"]
    lines += [f"  {int(code):<4} {meaning}" for code, meaning in sorted(every.items())]
    return {
        "description": what,
        "epilog": "\n".join(lines) + "\n",
        "formatter_class": HelpFormatter,
    }


def group_help(what: str, examples: Sequence[str]) -> dict:
    """The keyword arguments of ``add_parser`` for a command group (or of the root parser): ``what`` it is for (one
    sentence) and its ``examples`` (one to four command lines of its commands); the exit codes are each command's."""
    lines = ["examples:", *(f"  {example}" for example in examples), ""]
    lines.append(
        "Each command's --help (or llmops help COMMAND ...) shows its own examples and exit codes."
    )
    return {
        "description": what,
        "epilog": "\n".join(lines) + "\n",
        "formatter_class": HelpFormatter,
    }
