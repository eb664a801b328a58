"""Which vLLM arguments ``model.extra_args`` may add, read the way vLLM reads them (:mod:`.parsing`): the items walked
as vLLM's parser walks them, each judged option handed to its rule (:mod:`.rules`), and an option set twice reported.
The vendored recipe's arguments are judged by the same rules (tests/deployment_config/test_recipe.py)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from deployment_config.errors import Problem, quoted
from deployment_config.vllm_args.config_rules import CROSS_FIELD_RULES
from deployment_config.vllm_args.options import _BY_SPELLING, _RULES, Arity, VllmOption
from deployment_config.vllm_args.parsed import judge_dotted, judge_parsed
from deployment_config.vllm_args.parsing import (
    _Dotted,
    _first_word,
    _holds_option_and_value,
    _is_option,
    _resolve,
    _Resolved,
    _rewrite,
    _split_dotted,
)
from deployment_config.vllm_args.rules import _SECRET_RULES, _judge, _Report

#: Judged options that are fine with a suitable value, so that giving them twice is a problem of its own.
_CHECKED_RULES = ("gpu_memory", "api_servers", "hf_token", "value")


def extra_args_problems(
    extra_args: Sequence[str], *, gpu_memory_utilization_min: float
) -> list[tuple[int, Problem]]:
    """What is wrong with ``model.extra_args``, as (index of the offending item, problem), in item order.

    Refused: options the project derives (``--model``, ``--served-model-name``, ``--tensor-parallel-size``) or that
    change the GPUs of one replica or where vLLM listens, in any spelling vLLM accepts; a positional argument (vLLM's
    model slot); an option and its value in one item; an empty item or a bare ``--``; ``--gpu-memory-utilization`` that
    is not a number in (0, 1] or is below ``gpu_memory_utilization_min`` (reported at the item holding the value);
    ``--kv-cache-memory-bytes`` (it overrides that share); ``--download-dir``; secrets (``--api-key``, ``--hf-token``
    with a value, never quoted back); ``--config`` and ``--help``; an option given twice, unless vLLM appends repeated
    values. Control characters are another module's check.
    """
    problems: list[tuple[int, Problem]] = []

    def report(index: int, problem: str, fix: str) -> None:
        problems.append((index, Problem(problem, fix)))

    # (index, option, dotted path, item as shown): every setting of an option, for the duplicate check at the end.
    settings: list[tuple[int, str, tuple[str, ...], str]] = []
    # The options whose config class checks its fields together: their plain values and dotted keys, for the end.
    objects = _ConfigObjects()

    def judge(
        resolved: _Resolved,
        index: int,
        values: list[tuple[str, int]] | None,
        *,
        dotted: bool = False,
    ) -> None:
        _judge(
            resolved,
            extra_args[index],
            index,
            values,
            report,
            gpu_memory_utilization_min,
            dotted=dotted,
        )
        assert resolved.option is not None
        if _RULES[resolved.option.name] in _CHECKED_RULES and len(resolved.candidates) <= 1:
            shown = (
                extra_args[index]
                if _RULES[resolved.option.name] not in _SECRET_RULES
                else resolved.name
            )
            settings.append((index, resolved.option.name, (), shown))

    # Items holding an option and its value ("--port 9000"): reported here, wherever they stand; the option in their
    # first word is judged where argparse reads the item as a positional (or as a dotted option, if it holds a '.').
    split_items: dict[int, tuple[str, str, _Resolved]] = {}
    judged_split_items: set[int] = set()

    def judge_split_item(index: int) -> None:
        word, rest, resolved = split_items[index]
        if (
            resolved.option is not None
            and resolved.option.name in _RULES
            and index not in judged_split_items
        ):
            judged_split_items.add(index)
            _judge(resolved, word, index, [(rest, index)], report, gpu_memory_utilization_min)

    for index, item in enumerate(extra_args):
        if item == "":
            report(
                index,
                "an empty item: vLLM reads it as the value of the option before it, or else as the model to serve",
                "remove it, or write the value the option should have",
            )
        elif _holds_option_and_value(item):
            split_items[index] = word, rest, resolved = _first_word(item)
            if resolved.option is not None and _RULES.get(resolved.option.name) in _SECRET_RULES:
                judge_split_item(index)  # and no advice to split it: it would quote the secret
                continue
            report(
                index,
                f"{quoted(item)} holds an option and its value in one item, so vLLM reads it as one word "
                "(a positional argument) instead of as the option",
                f"write it as two items: - {word} / - {rest}",
            )

    tokens, dotted = _split_dotted(_rewrite(extra_args))
    for d in dotted:
        index = d.token.index
        if index in split_items:
            judge_split_item(index)
            continue
        if re.fullmatch(r"-\d*", d.key):
            report(
                index,
                f"{quoted(d.token.text)} starts with '-' and holds a '.', so vLLM's argument pre-processing "
                "takes it for a dotted option (--option.key value) and swallows the next item",
                "join the option and its negative value with '=' in one item, for example --option=-0.5",
            )
            continue
        if d.value is None:
            report(
                index,
                f"{quoted(d.token.text)} has no value: vLLM reads the item after a dotted option as its value",
                f"add the value as the next item, or write {d.token.text}=VALUE",
            )
        elif d.separate and _is_option(d.value):
            report(
                index,
                f"{quoted(d.token.text)} takes the next item, {quoted(d.value)}, as its value: vLLM reads the "
                "item after a dotted option as its value, whatever it is",
                f"put its value right after it, or write {d.token.text}=VALUE",
            )
        resolved = _resolve(d.key, None)
        if resolved.option is not None and resolved.option.name in _RULES:
            judge(resolved, index, None, dotted=True)
        else:
            judge_dotted(resolved, d, report)
            objects.add_dotted(resolved.option.name if resolved.option else d.key, d)
            path = d.path + ("+",) if d.appends else d.path
            settings.append(
                (index, resolved.option.name if resolved.option else d.key, path, d.token.text)
            )

    i = 0
    previous_flag: VllmOption | None = None
    while i < len(tokens):
        token = tokens[i]
        i += 1
        if token.text == "--":
            report(
                token.index,
                "'--' ends vLLM's options: vLLM reads every item after it as a positional argument",
                "remove it",
            )
            break
        if not _is_option(token.text):
            if token.index in split_items:
                judge_split_item(token.index)
            elif token.text != "":
                flag = (
                    f"; {previous_flag.name} is a flag and takes no value"
                    if previous_flag is not None
                    else ""
                )
                report(
                    token.index,
                    f"{quoted(token.text)} is a positional argument: no option before it takes a value"
                    f"{flag}. vLLM reads a positional argument as the model to serve, which the project "
                    "already passes, so vLLM would stop with 'unrecognized arguments'",
                    "remove it, or put it right after the option it is the value of",
                )
            previous_flag = None
            continue
        name, sep, explicit = token.text.partition("=")
        resolved = _resolve(name, explicit if sep else None)
        arity: Arity = resolved.option.arity if resolved.option is not None else "one"
        values: list[tuple[str, int]] = []
        if resolved.explicit is None and arity != "flag":
            while i < len(tokens) and not _is_option(tokens[i].text):
                values.append((tokens[i].text, tokens[i].index))
                i += 1
                if arity != "many":
                    break
        previous_flag = resolved.option if arity == "flag" else None
        if resolved.option is not None and resolved.option.name in _RULES:
            judge(resolved, token.index, values)
        else:
            judge_parsed(resolved, extra_args[token.index], token.index, values, report)
            given = [(resolved.explicit, token.index)] if resolved.explicit is not None else values
            objects.add_plain(resolved.option.name if resolved.option else resolved.name, given)
            settings.append(
                (
                    token.index,
                    resolved.option.name if resolved.option else resolved.name,
                    (),
                    extra_args[token.index],
                )
            )

    _report_repeats(settings, report)
    objects.judge(report, judged={index for index, _ in problems})
    return sorted(problems, key=lambda entry: entry[0])


class _ConfigObjects:
    """The JSON object vLLM builds for each option of :data:`.config_rules.CROSS_FIELD_RULES`, judged whole once every
    item is read: the dotted keys merged (vllm/utils/argparse_utils.py ``FlexibleArgumentParser.parse_args``: each value
    read as JSON, else as text; a list for ``key+``), and appended after any plain value, which they so replace."""

    def __init__(self) -> None:
        self.plain: dict[str, tuple[str, int]] = {}
        self.dotted: dict[str, tuple[dict, list[int]]] = {}

    def add_plain(self, name: str, given: list[tuple[str, int]]) -> None:
        if name in CROSS_FIELD_RULES and given:
            self.plain[name] = given[-1]

    def add_dotted(self, name: str, dotted: _Dotted) -> None:
        if name not in CROSS_FIELD_RULES or dotted.value is None or not dotted.path:
            return
        value: object
        if dotted.appends:
            value = dotted.value.split(",")
        else:
            try:
                value = json.loads(dotted.value)
            except ValueError:
                value = dotted.value
        merged, indexes = self.dotted.setdefault(name, ({}, []))
        for key in dotted.path[:-1]:
            merged = merged.setdefault(key, {}) if isinstance(merged.get(key, {}), dict) else {}
        merged[dotted.path[-1]] = value
        indexes.append(dotted.token.index)

    def judge(self, report: _Report, *, judged: set[int]) -> None:
        """Report each object its class refuses, at its last item; not where an item of it is already reported
        (an unknown key, a name outside a field's list)."""
        for name, (rules, config_class) in CROSS_FIELD_RULES.items():
            if name in self.dotted:
                config, indexes = self.dotted[name]
                shown = quoted(json.dumps(config))
            elif name in self.plain:
                text, index = self.plain[name]
                indexes = [index]
                try:
                    config = json.loads(text)
                except ValueError:
                    continue  # the value's own check reports it
                shown = quoted(text)
            else:
                continue
            problems = rules(config) if isinstance(config, dict) else []
            if problems and not judged & set(indexes):
                report(
                    indexes[-1],
                    f"{name} with {shown}: {'; '.join(problems)}; {config_class} refuses that combination "
                    f"when vLLM parses its arguments",
                    "set the fields that go together, or remove the option",
                )


def _report_repeats(settings: list[tuple[int, str, tuple[str, ...], str]], report: _Report) -> None:
    """Report each later setting of an option already set. Dotted keys of one option merge into one JSON value unless
    a key repeats (lists given as ``key+`` add up); a plain value and dotted keys of the same option do not merge
    (FlexibleArgumentParser appends the merged dotted value after the plain one, which it replaces)."""
    seen: dict[tuple[str, tuple[str, ...]], int] = {}
    for index, name, path, shown in sorted(settings, key=lambda setting: setting[0]):
        option = _BY_SPELLING.get(name)
        if option is not None and option.arity == "append":
            continue
        key = option.name if option is not None else name
        for (other, other_path), first in seen.items():
            if other == key and (
                not other_path or not path or (other_path == path and path[-1] != "+")
            ):
                report(
                    index,
                    f"{quoted(shown)} sets {key} again (item {first} already sets it), and vLLM keeps only one "
                    "of the values",
                    f"give {key} once",
                )
                break
        seen.setdefault((key, path), index)
