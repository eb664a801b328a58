"""A pydantic validation error as the project's message: the field's dotted path, what is wrong, and the fix.

The fix is built from the field's own declaration (its bounds, its first example, the keys its model allows), so a
section's field needs no message of its own; a check that raises ``fail(Problem(...))``
(deployment_config/sections/_fields.py) gives its own problem and fix. Used by the loader
(:func:`deployment_config.loader.validate_document`) for every kind of file.
"""

from __future__ import annotations

import difflib
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from deployment_config.errors import ConfigIssue, key_in_path, quoted, shown_number
from deployment_config.file_values import model_of

_EXPECTED = {
    "string_type": "a string",
    "int_type": "a whole number",
    "bool_type": "true or false",
    "float_type": "a number",
    "list_type": "a list",
    "dict_type": "a mapping of keys",
    "model_type": "a mapping of keys",
    "model_attributes_type": "a mapping of keys",
}


def describe(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return f"{type(value).__name__} {quoted(value)}"


def _path(loc: tuple[Any, ...]) -> str:
    """A pydantic location as a dotted field path: ``model.extra_args[2]``, ``tags.team``; a key that is not plain is
    quoted (``tags.'a\\nb'``)."""
    text = ""
    for position, part in enumerate(loc):
        if part == "[key]":
            continue
        is_key = position + 1 < len(loc) and loc[position + 1] == "[key]"
        if isinstance(part, int) and not is_key:
            text += f"[{part}]"
        else:
            segment = key_in_path(part)
            text += f".{segment}" if text else segment
    return text or "(top level)"


def _field_at(
    root: type[BaseModel], loc: tuple[Any, ...]
) -> tuple[FieldInfo | None, type[BaseModel] | None]:
    """The pydantic field a location points at, and the model that declares it."""
    model: type[BaseModel] | None = root
    field: FieldInfo | None = None
    parent = None
    for part in loc:
        if isinstance(part, int) or model is None:
            continue
        field = model.model_fields.get(str(part))
        parent = model
        if field is None:
            return None, parent
        model = model_of(field.annotation)
    return field, parent


def _example(field: FieldInfo | None) -> str | None:
    if field is None or not field.examples:
        return None
    example = field.examples[0]
    if isinstance(example, str):
        return f'"{example}"' if example.isdigit() else example
    if isinstance(example, list):
        return "[" + ", ".join(str(item) for item in example) + "]"
    if isinstance(example, dict):
        return "{" + ", ".join(f"{k}: {v}" for k, v in example.items()) + "}"
    return str(example).lower() if isinstance(example, bool) else str(example)


def issue_of(error: dict[str, Any], root: type[BaseModel]) -> ConfigIssue:
    """One pydantic error as the project's field / problem / fix."""
    loc = tuple(error["loc"])
    if error["type"] == "invalid_key":  # pydantic names the key itself, without its '[key]' marker
        loc = (*loc, "[key]")
    field_path = _path(loc)
    kind = error["type"]
    value = error.get("input")
    context = error.get("ctx") or {}
    key = next(
        (str(part) for part in reversed(loc) if isinstance(part, str) and part != "[key]"),
        field_path,
    )
    field, parent = _field_at(root, tuple(part for part in loc if part != "[key]"))
    example = _example(field)
    write_like = (
        f"write it like: {key}: {example}" if example else "see the example files under config/"
    )
    if kind == "config":
        return ConfigIssue(field_path, context["problem"], context["fix"])
    if kind == "missing":
        if field is not None and model_of(field.annotation):
            return ConfigIssue(field_path, "is required and missing", f"add a '{key}:' section")
        return ConfigIssue(
            field_path,
            "is required and missing",
            f"add it, for example: {key}: {example}" if example else f"add {key}",
        )
    if kind == "extra_forbidden":
        allowed = list(parent.model_fields) if parent is not None else []
        close = difflib.get_close_matches(str(loc[-1]), allowed, n=1)
        hint = f"did you mean '{close[0]}'? " if close else ""
        return ConfigIssue(
            field_path, "unknown key", f"{hint}remove it, or use one of: {', '.join(allowed)}"
        )
    if "[key]" in loc:
        return ConfigIssue(
            field_path,
            f"is a key that is {describe(loc[-2])}, not a string",
            "quote the key, or remove it",
        )
    if kind in _EXPECTED:
        return ConfigIssue(
            field_path, f"expected {_EXPECTED[kind]}, got {describe(value)}", write_like
        )
    if kind == "literal_error":
        choices = context.get("expected", "")
        return ConfigIssue(
            field_path,
            f"{quoted(value)} is not one of: {choices}",
            f"use one of: {choices}" + (" (quoted)" if key == "kubernetes_version" else ""),
        )
    if kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        low = next(
            (m.ge for m in (field.metadata if field else []) if getattr(m, "ge", None) is not None),
            None,
        )
        high = next(
            (m.le for m in (field.metadata if field else []) if getattr(m, "le", None) is not None),
            None,
        )
        bounds = f"{low}..{high}" if low is not None and high is not None else str(context)
        return ConfigIssue(
            field_path,
            f"{shown_number(value)} is outside {bounds}",
            f"use a value in {bounds}; {write_like}",
        )
    if kind in ("too_short", "too_long"):
        limit = context.get("min_length") if kind == "too_short" else context.get("max_length")
        words = "at least" if kind == "too_short" else "at most"
        return ConfigIssue(
            field_path,
            f"needs {words} {limit} item(s), got {context.get('actual_length')}",
            write_like,
        )
    return ConfigIssue(
        field_path, f"{error.get('msg', 'is not valid')} (got {describe(value)})", write_like
    )


def one_per_field(issues: list[ConfigIssue]) -> list[ConfigIssue]:
    """One message per field: two problems of the same value (an item that is both misspelt and forbidden) are joined."""
    merged: dict[str, ConfigIssue] = {}
    for issue in issues:
        first = merged.get(issue.field)
        if first is None:
            merged[issue.field] = issue
        elif issue.problem not in first.problem:
            merged[issue.field] = ConfigIssue(
                issue.field, f"{first.problem}; and {issue.problem}", f"{first.fix}; {issue.fix}"
            )
    return list(merged.values())
