"""'did you mean ...?' for a mistyped command, subcommand, choice or option: the closest of the parser's own names
(difflib, as Python 3.12's argparse ``suggest_on_error`` does; the project runs on 3.11)."""

from __future__ import annotations

import argparse
import difflib
import re
from collections.abc import Iterable, Sequence

#: argparse's words (CPython 3.11 Lib/argparse.py: _check_value, parse_args) for a value that is not one of an
#: argument's choices, and for arguments no parser took.
_INVALID_CHOICE = re.compile(r"invalid choice: '(?P<word>[^']*)'")
_UNRECOGNIZED = "unrecognized arguments: "


def did_you_mean(word: str, names: Iterable[str]) -> str:
    """`` (did you mean 'NAME'?)`` for the name closest to ``word``, or nothing when none is close."""
    close = difflib.get_close_matches(word, list(names), n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _choices(parser: argparse.ArgumentParser) -> list[str]:
    return [str(c) for a in parser._actions if a.choices for c in a.choices]  # noqa: SLF001 (argparse's own)


def _options(parser: argparse.ArgumentParser) -> list[str]:
    return [o for a in parser._actions for o in a.option_strings if o.startswith("--")]  # noqa: SLF001


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The parsers of ``parser``'s subcommands by name; empty for a command that has none."""
    return {
        name: sub
        for action in parser._actions  # noqa: SLF001
        if isinstance(action, argparse._SubParsersAction)  # noqa: SLF001
        for name, sub in action.choices.items()
    }


def command_parser(root: argparse.ArgumentParser, words: Sequence[str]) -> argparse.ArgumentParser:
    """The parser of the (sub)command that ``words`` name, from the root down: where unrecognized options were for."""
    parser = root
    for word in words:
        parser = subcommands(parser).get(word, parser)
    return parser


def help_parser(
    parser: argparse.ArgumentParser, message: str, words: Sequence[str]
) -> argparse.ArgumentParser:
    """The parser whose --help the fix of argparse's error ``message`` names: for options no (sub)command took, which
    the root reports, the command's that ``words`` name; else ``parser``, the one that failed."""
    return command_parser(parser, words) if message.startswith(_UNRECOGNIZED) else parser


def suggested(parser: argparse.ArgumentParser, message: str, words: Sequence[str]) -> str:
    """argparse's error ``message`` of ``parser`` (which parsed ``words``, the command line), with the closest name to
    what was mistyped: a choice (a command, a subcommand, an option's value) right after it, or an option of the
    command at the end."""
    if match := _INVALID_CHOICE.search(message):
        hint = did_you_mean(match["word"], _choices(parser))
        return message[: match.end()] + hint + message[match.end() :]
    if message.startswith(_UNRECOGNIZED):
        options = _options(command_parser(parser, words))
        for word in message[len(_UNRECOGNIZED) :].split():
            if word.startswith("--") and (hint := did_you_mean(word.split("=", 1)[0], options)):
                return message + hint
    return message
