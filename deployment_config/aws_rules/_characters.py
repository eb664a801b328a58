"""Naming the invisible characters in messages, and the surface check most identifiers share (a private helper of the
rules: control or invisible characters anywhere, whitespace around the value)."""

from __future__ import annotations

import unicodedata

from deployment_config.errors import Problem, quoted

#: Unicode general categories no configuration value may contain: controls (Cc: NUL, tab, newline, DEL, C1),
#: invisible formatting characters (Cf: zero-width space/joiners, bidi overrides, BOM), unpaired surrogates (Cs:
#: not encodable in UTF-8), and the line/paragraph separators (Zl, Zp), which break lines like a newline does.
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})

# Control characters have no Unicode name (unicodedata.name raises for them); these are the ones people paste.
_CONTROL_NAMES = {
    "\x00": "NUL",
    "\t": "TAB",
    "\n": "LINE FEED",
    "\x0b": "VERTICAL TAB",
    "\x0c": "FORM FEED",
    "\r": "CARRIAGE RETURN",
    "\x1b": "ESCAPE",
    "\x7f": "DELETE",
    "\x85": "NEXT LINE",
}


def _describe_char(ch: str) -> str:
    """``ch`` as a message names it: ``the control character U+000A (line feed)``."""
    category = unicodedata.category(ch)
    kind = {
        "Cc": "the control character",
        "Cf": "the invisible formatting character",
        "Cs": "the unpaired surrogate",
        "Zl": "the line separator",
        "Zp": "the paragraph separator",
    }.get(category, "the character")
    name = _CONTROL_NAMES.get(ch) or unicodedata.name(ch, "")
    shown = "" if category in _INVISIBLE_CATEGORIES or ch.isspace() else f"{ch!r} "
    named = f" ({name.lower()})" if name and name.lower() not in kind else ""
    return f"{kind} {shown}U+{ord(ch):04X}{named}"


def _first_invisible(value: str) -> tuple[int, str] | None:
    for index, ch in enumerate(value):
        if unicodedata.category(ch) in _INVISIBLE_CATEGORIES:
            return index, ch
    return None


def _invisible_problem(value: str, label: str) -> Problem | None:
    """The first control/invisible character in ``value``, named and located, or ``None``."""
    found = _first_invisible(value)
    if found is None:
        return None
    index, ch = found
    where = "at the end" if index == len(value) - 1 else f"at position {index + 1}"
    return Problem(
        problem=f"{label}{quoted(value)} contains {_describe_char(ch)} {where}",
        fix="retype the value without it (it is invisible in most editors); a YAML '|' block keeps a final "
        "newline, so write the value as a plain or quoted string",
    )


def _surface_problem(value: str, what: str) -> Problem | None:
    """Control/invisible characters in, or whitespace around, an identifier that allows neither."""
    invisible = _invisible_problem(value, f"{what} ")
    if invisible is not None:
        return invisible
    stripped = value.strip()
    if stripped != value:
        return Problem(
            problem=f"{what} {quoted(value)} has leading or trailing whitespace",
            fix=f"write it without the surrounding spaces: {quoted(stripped)}",
        )
    return None
