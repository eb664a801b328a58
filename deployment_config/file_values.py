"""The values of a configuration file after field validation, and the runner of the rules between its fields.

Pydantic validates every field of a file on its own (a type, a range, a pattern, a rule of one value) and stops a field
at its first mistake, but it goes on with the other fields, so that every mistake of the file is reported at once.
The rules between fields (:mod:`deployment_config.cross_section_rules`) run after that, on :class:`FileValues`: the
file's values with their defaults, where a value that failed its own validation is not offered. A rule names the
fields it reads; when one of them failed, the rule is skipped (its own mistake is already reported), so no rule
depends on the order in which fields are declared or validated.

Where a rule's message is listed: a rule that refuses one field's value (:attr:`Rule.refuses`) is listed with that
field's own errors, at the field's place in the file; a rule that notes a mistake is listed with the notes of the
section it reads first, after those of the sections declared before it. That keeps the order of the messages of a
file the order in which a reader meets the fields.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from deployment_config.errors import ConfigIssue


def model_of(annotation: Any) -> type[BaseModel] | None:
    """The pydantic model a field's annotation holds (``X``, ``X | None``, ``list[X]``), or None."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for argument in getattr(annotation, "__args__", ()) or ():
        found = model_of(argument)
        if found:
            return found
    return None


@functools.cache
def _parts(path: str) -> tuple[str, ...]:
    """A dotted path's parts, split once per path: ``ok`` splits each refusing rule's field for every value it checks
    (over a million calls in tests/deployment_config/test_malformed_corpus.py). The paths are the rules' and the
    loader's own, a bounded set, never a file's keys."""
    return tuple(path.split("."))


class FileValues:
    """A file's values by dotted path (``capacity.instance_type``), defaults filled in, as field validation left them.

    :param root: the model the file was validated against.
    :param data: the parsed file (a mapping).
    :param failed: the locations pydantic reported errors at.
    """

    def __init__(
        self,
        root: type[BaseModel],
        data: dict[str, Any],
        failed: Iterable[tuple[Any, ...]],
        refusals: Sequence[Rule] = (),
    ) -> None:
        self._root = root
        self._data = data
        self._failed = tuple(tuple(loc) for loc in failed)
        self._refusals = tuple(refusals)
        self._refused: dict[Rule, tuple[ConfigIssue, ...] | None] = {}  # None: being checked
        self._derived: dict[Callable[[FileValues], Any], Any] = {}
        self._checks: dict[str, tuple[bool, tuple[Rule, ...]]] = {}

    def ok(self, path: str) -> bool:
        """True when the value at ``path`` passed its own validation (no error at it, inside it or at a section holding
        it) and no rule refused it or a value inside it. A rule that refuses a section's presence (a section of the
        other platform) leaves the values inside it valid."""
        failed, refusing = self._checks_of(path)
        return not failed and not any(
            self.refusals_of(rule) for rule in refusing if self._refused.get(rule, ()) is not None
        )

    def _checks_of(self, path: str) -> tuple[bool, tuple[Rule, ...]]:
        """Whether a failed location covers ``path``, and the rules that refuse it or a value inside it, in their
        order: both fixed for a file, found once per path (``ok`` runs for every value every rule reads)."""
        if path not in self._checks:
            parts = _parts(path)
            self._checks[path] = (
                any(loc[: len(parts)] == parts or parts[: len(loc)] == loc for loc in self._failed),
                tuple(r for r in self._refusals if _parts(r.refuses)[: len(parts)] == parts),
            )
        return self._checks[path]

    def refusals_of(self, rule: Rule) -> tuple[ConfigIssue, ...]:
        """What ``rule`` (one that refuses a value) finds, checked once; nothing when one of its inputs failed."""
        if rule not in self._refused:
            self._refused[rule] = None
            found = tuple(rule.check(self)) if all(self.ok(path) for path in rule.reads) else ()
            self._refused[rule] = found
        return self._refused[rule] or ()

    def get(self, path: str) -> Any:
        """The value at ``path`` (its default where the file leaves it out), or None when it failed its validation or
        a section holding it is absent."""
        if not self.ok(path):
            return None
        value: Any = self._data
        model: type[BaseModel] | None = self._root
        for part in _parts(path):
            if value is None or model is None:
                return None
            field = model.model_fields[part]
            value = value[part] if part in value else field.get_default(call_default_factory=True)
            model = model_of(field.annotation)
        return value

    def section(self, path: str) -> Any:
        """The section at ``path`` as its model (validated again, quietly: its own notes are already reported), or None
        when it is absent or failed its validation."""
        raw = self.get(path)
        if raw is None:
            return None
        model: type[BaseModel] | None = self._root
        for part in _parts(path):
            model = model_of(model.model_fields[part].annotation)
        return model.model_validate(raw, context={"issues": []})

    def derived(self, derive: Callable[[FileValues], Any]) -> Any:
        """``derive(self)``, computed once: a fact several rules read (the GPU type the model runs on)."""
        if derive not in self._derived:
            self._derived[derive] = derive(self)
        return self._derived[derive]


@dataclass(frozen=True)
class Rule:
    """One rule between fields of a file.

    :param name: what it checks, for a reader.
    :param reads: the fields (dotted paths; a section stands for all its fields) it needs; it is skipped when one of
        them failed its own validation. Other fields it consults through :meth:`FileValues.get` are optional inputs:
        None when they failed.
    :param check: the mistakes it finds, each with the field it names.
    :param refuses: the field whose value the rule refuses (its messages are then listed with that field's own errors);
        None for a rule that notes mistakes, listed with the notes of the section of ``reads[0]``.
    """

    name: str
    reads: tuple[str, ...]
    check: Callable[[FileValues], Iterable[ConfigIssue]]
    refuses: str | None = None


@dataclass(frozen=True)
class RuleResults:
    """What the rules found: refusals of a field's value (with their location) and notes."""

    refusals: tuple[tuple[tuple[str, ...], ConfigIssue], ...]
    notes: tuple[tuple[str, ConfigIssue], ...]


def run_rules(
    rules: Sequence[Rule], root: type[BaseModel], data: Any, failed: Iterable[tuple[Any, ...]]
) -> RuleResults:
    """Every rule of ``rules`` whose inputs passed their own validation, on ``data`` validated against ``root``."""
    if not isinstance(data, dict):
        return RuleResults((), ())
    values = FileValues(root, data, failed, [rule for rule in rules if rule.refuses is not None])
    refusals, notes = [], []
    for rule in rules:
        if rule.refuses is not None:
            refusals.extend((_parts(rule.refuses), issue) for issue in values.refusals_of(rule))
        elif all(values.ok(path) for path in rule.reads):
            notes.extend((top_level(rule.reads[0]), issue) for issue in rule.check(values))
    return RuleResults(tuple(refusals), tuple(notes))


def top_level(path: str) -> str:
    """The top-level key of a dotted field path: ``model`` of ``model.features[2]``."""
    return path.split(".", 1)[0].split("[", 1)[0]


def position(root: type[BaseModel], loc: Sequence[Any]) -> tuple[int, ...]:
    """Where a location is in the file as its models declare it (list items by index; keys not declared last)."""
    key: list[int] = []
    model: type[BaseModel] | None = root
    for part in loc:
        if isinstance(part, int) and not isinstance(part, bool):
            key.append(part)
            continue
        fields = list(model.model_fields) if model is not None else []
        if part in fields:
            key.append(fields.index(part))
            model = model_of(model.model_fields[part].annotation)
        else:
            key.append(len(fields))
            model = None
    return tuple(key)


def merge_in(listed: list[Any], added: Sequence[Any], key: Callable[[Any], Any]) -> list[Any]:
    """``listed`` (in its own order) with each item of ``added`` placed before the first listed item that comes after
    it by ``key``; items of ``added`` keep their order among equals."""
    pending = sorted(added, key=key)
    merged, index = [], 0
    for item in listed:
        while index < len(pending) and key(pending[index]) < key(item):
            merged.append(pending[index])
            index += 1
        merged.append(item)
    merged.extend(pending[index:])
    return merged


__all__ = [
    "FileValues",
    "Rule",
    "RuleResults",
    "merge_in",
    "model_of",
    "position",
    "run_rules",
    "top_level",
]
