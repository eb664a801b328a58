"""What vLLM 0.33.0's parser says of an option no rule of :mod:`.rules` judges: an option it does not have, an
abbreviation that fits several, a flag given a value, an option without its value, a value its type or choices refuse
(:mod:`.serve_options`, generated from the wheel), a dotted JSON key its config class does not have. Each is a stop
at start-up: argparse's ``error`` exits with status 2 before vLLM loads anything."""

from __future__ import annotations

import difflib
import json
from typing import Any

from deployment_config.errors import quoted
from deployment_config.vllm_args.options import _BY_SPELLING
from deployment_config.vllm_args.parsing import _Dotted, _Resolved
from deployment_config.vllm_args.rules import _Report
from deployment_config.vllm_args.serve_options import (
    SERVE_OPTIONS,
    SERVE_SOURCE,
    parser_value_problem,
)
from deployment_config.vllm_args.values import attention_config_problems

_LONG_NAMES = sorted({option.name for option in _BY_SPELLING.values()})
#: FlexibleArgumentParser.parse_args rewrites -O0 ... -O3, -O=N and "-O N" (N from 0 to 3) into --optimization-level.
_O_FIX = "write -O0, -O1, -O2 or -O3 as one item (or --optimization-level N), or remove it"


def judge_parsed(
    resolved: _Resolved, shown: str, index: int, values: list[tuple[str, int]], report: _Report
) -> None:
    """Report what vLLM's parser refuses in one occurrence of an option that has no rule of its own.

    :param shown: the item as the user wrote it; ``values``: (item, index) of the values argparse gives it.
    """
    option = resolved.option
    if option is None:
        _unknown(resolved, shown, index, report)
        return
    entry = SERVE_OPTIONS[option.name]
    spelled = (
        quoted(shown)
        if shown.partition("=")[0] == option.name
        else f"{quoted(shown)} ({option.name})"
    )
    given = [(resolved.explicit, index)] if resolved.explicit is not None else values
    if option.arity == "flag":
        if resolved.explicit is not None:
            report(
                index,
                f"{spelled} is a flag and takes no value: vLLM's parser stops with 'ignored explicit argument' "
                f"({SERVE_SOURCE})",
                f"write {shown.partition('=')[0]} alone",
            )
        return
    if not given and option.arity != "optional":
        report(
            index,
            f"{spelled} needs a value: vLLM's parser stops with 'expected one argument' ({SERVE_SOURCE})",
            "put its value right after it, or remove it",
        )
        return
    for value, value_index in given:
        _judge_value(entry, spelled, option.name, value, value_index, report)


def _judge_value(
    entry: dict[str, Any], spelled: str, name: str, value: str, index: int, report: _Report
) -> None:
    expected = parser_value_problem(entry, value)
    if expected is None and name == "--attention-config":
        problems = attention_config_problems(json.loads(value)) if value.strip() else []
        if problems:
            report(
                index,
                f"{spelled} with {quoted(value)}: {'; '.join(problems)}",
                "correct those keys, or remove it",
            )
        return
    if expected is None:
        return
    names = [str(c) for c in entry.get("choices") or [] if c is not None]
    close = difflib.get_close_matches(value, names, n=1, cutoff=0.6)
    report(
        index,
        f"{spelled} with {quoted(value)}: vLLM's parser accepts {expected} ({SERVE_SOURCE})",
        f"use {close[0]}, the closest value vLLM accepts"
        if close
        else "use such a value, or remove it",
    )


def _unknown(resolved: _Resolved, shown: str, index: int, report: _Report) -> None:
    name = resolved.name
    if resolved.candidates:
        report(
            index,
            f"{quoted(shown)} is an abbreviation that fits several options of vLLM 0.33.0 "
            f"({', '.join(resolved.candidates)}): vLLM's parser stops with 'ambiguous option'",
            "write the option name in full",
        )
        return
    close = difflib.get_close_matches(name, _LONG_NAMES, n=1, cutoff=0.7)
    fix = (
        _O_FIX
        if name == "-O"
        else f"did you mean {close[0]}? Correct the name, or remove it"
        if close
        else "remove it, or correct the name (`vllm serve --help=all` lists the options)"
    )
    report(
        index,
        f"{quoted(shown)} is not an option of {SERVE_SOURCE}: vLLM stops with 'unrecognized arguments'",
        fix,
    )


def judge_dotted(resolved: _Resolved, dotted: _Dotted, report: _Report) -> None:
    """A dotted option (``--compilation-config.mode 3``), which FlexibleArgumentParser turns into the option with a
    JSON object (vllm/utils/argparse_utils.py parse_args: the value read as JSON, else as a human-readable number,
    else as text; ``key+`` splits it at commas into a list). Only the options that take JSON accept that."""
    index = dotted.token.index
    if resolved.option is None:
        _unknown(resolved, dotted.token.text.partition("=")[0], index, report)
        return
    entry = SERVE_OPTIONS[resolved.option.name]
    shown = quoted(dotted.token.text)
    if entry.get("type") not in ("json", "json_if_braced", "json_object"):
        report(
            index,
            f"{shown} gives {resolved.option.name} JSON keys, but it takes "
            f"{'no value' if entry['flag'] else 'one plain value'} ({SERVE_SOURCE})",
            f"write {resolved.option.name} with its value, without a '.'",
        )
        return
    if dotted.value is None:
        return  # extra_args reports the missing value
    text = dotted.value
    value: Any
    if dotted.appends:
        value = text.split(",")
    else:
        try:
            value = json.loads(text)
        except ValueError:
            value = text
    for key in reversed(dotted.path):
        value = {key: value}
    _judge_value(entry, shown, resolved.option.name, json.dumps(value), index, report)
