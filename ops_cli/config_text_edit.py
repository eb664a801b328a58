"""The text edit of ops_cli/config_writer.py: each value's exact span, as PyYAML's parser found it, replaced in the
text, and keys that do not exist yet inserted as new lines indented like the rest of the document, so that every other
byte (comments, blank lines, quoting, list indentation, line endings) stays as it was. The document has passed
ops_cli/config_file_checks.py first."""

from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ops_cli.config_file_checks import NULL_TAG, refuse, where

#: An end-of-line comment with this word marks an example value; it goes when the value is replaced.
PLACEHOLDER = re.compile(r"\bPLACEHOLDER\b")
_NEWLINE = re.compile(r"\r?\n")


def edited_text(text: str, root: MappingNode, tree: dict[str, Any], path: Path) -> str:
    """``text`` with the values of ``tree`` (:func:`updates_tree`) written into the document ``root`` parsed from it."""
    newline = "\r\n" if "\r\n" in text else "\n"
    edits = _edits(text, root, tree, _indent_unit(root), newline, path, prefix="")
    new_text = text
    for start, end, replacement in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        new_text = new_text[:start] + replacement + new_text[end:]
    return new_text


def updates_tree(updates: dict[str, str]) -> dict[str, Any]:
    """``updates`` (dotted keys: strings) as nested mappings, the shape they take in the document."""
    tree: dict[str, Any] = {}
    for dotted, value in updates.items():
        if not isinstance(value, str):
            raise TypeError(f"{dotted}: only strings are written, got {type(value).__name__}")
        *parents, last = dotted.split(".")
        node = tree
        for key in parents:
            node = node.setdefault(key, {})
        node[last] = value
    return tree


def apply_updates(document: Any, tree: dict[str, Any]) -> Any:
    """``document`` (as PyYAML loads it) with the values of ``tree`` set, the way the text edit sets them."""
    for key, value in tree.items():
        if isinstance(value, dict):
            if not isinstance(document.get(key), dict):
                document[key] = {}
            apply_updates(document[key], value)
        else:
            document[key] = value
    return document


def _indent_unit(root: MappingNode) -> int:
    """How far the document indents a nested mapping under its key (2 unless the file shows otherwise)."""
    pending = [root]
    while pending:
        node = pending.pop(0)
        for key, value in node.value:
            if isinstance(value, MappingNode) and not value.flow_style and value.value:
                if value.start_mark.column > key.start_mark.column:
                    return value.start_mark.column - key.start_mark.column
                pending.append(value)
    return 2


def _line_end(text: str, index: int) -> int:
    """Where the line holding ``index`` ends (its line break, or the end of the text)."""
    match = _NEWLINE.search(text, index)
    return match.start() if match else len(text)


def _content_end(node: Node) -> int:
    """The index just after the last character of ``node``'s own text (a block collection: of its last item)."""
    if isinstance(node, MappingNode) and node.value and not node.flow_style:
        return _content_end(node.value[-1][1])
    if isinstance(node, SequenceNode) and node.value and not node.flow_style:
        return _content_end(node.value[-1])
    return node.end_mark.index


def _scalar_text(value: str, style: str | None, flow: bool) -> str:
    """``value`` written as a YAML scalar: in the original's quoting, plain when that reads back unchanged."""
    if style == '"':
        return json.dumps(value, ensure_ascii=False)
    if style == "'" and "\n" not in value:
        return "'" + value.replace("'", "''") + "'"
    if value and "\n" not in value and value == value.strip():
        probe = "{k: %s}" if flow else "k: %s"
        with contextlib.suppress(yaml.YAMLError):
            if yaml.safe_load(probe % value) == {"k": value}:
                return value
    return json.dumps(value, ensure_ascii=False)


def _block_lines(tree: dict[str, Any], column: int, unit: int) -> list[str]:
    lines = []
    for key, value in tree.items():
        if isinstance(value, dict):
            lines.append(f"{' ' * column}{key}:")
            lines.extend(_block_lines(value, column + unit, unit))
        else:
            lines.append(f"{' ' * column}{key}: {_scalar_text(value, None, flow=False)}")
    return lines


def _replace_scalar(
    text: str, node: ScalarNode, value: str, flow: bool, dotted: str, path: Path
) -> tuple[int, int, str]:
    if node.style in ("|", ">") or node.start_mark.line != node.end_mark.line:
        raise refuse(
            path,
            f"writes {dotted} over several lines ({where(node)})",
            f"write {dotted} on one line, or by hand",
        )
    start, end = node.start_mark.index, node.end_mark.index
    new = _scalar_text(value, node.style, flow)
    if start == end:  # an empty value: 'key:' followed by nothing
        new = " " + new
    line_end = _line_end(text, end)
    comment = re.fullmatch(r"([ \t]+)(#.*)", text[end:line_end])
    if not comment or flow:
        return start, end, new
    gap, remark = comment.groups()
    if PLACEHOLDER.search(
        remark
    ):  # the value it marked as an example is being replaced: the remark goes with it
        return start, line_end, new
    column = node.end_mark.column + len(
        gap
    )  # keep the comment in its column when the new value leaves room
    new_end = node.start_mark.column + len(new)
    padding = column - new_end if column - new_end >= 1 else len(gap)
    return start, line_end, new + " " * padding + remark


def _edits(
    text: str,
    mapping: MappingNode,
    tree: dict[str, Any],
    unit: int,
    newline: str,
    path: Path,
    prefix: str,
) -> list[tuple[int, int, str]]:
    edits: list[tuple[int, int, str]] = []
    missing: dict[str, Any] = {}
    by_key = {key.value: (key, value) for key, value in mapping.value}
    for name, wanted in tree.items():
        dotted = prefix + name
        if name not in by_key:
            missing[name] = wanted
            continue
        key, node = by_key[name]
        if isinstance(wanted, dict):
            if isinstance(node, MappingNode):
                edits += _edits(text, node, wanted, unit, newline, path, prefix=dotted + ".")
            elif (
                isinstance(node, ScalarNode) and node.tag == NULL_TAG
            ):  # 'capacity:' with nothing under it
                lines = _block_lines(wanted, key.start_mark.column + unit, unit)
                edits.append((node.start_mark.index, node.end_mark.index, ""))
                at = _line_end(text, node.end_mark.index)
                edits.append((at, at, "".join(newline + line for line in lines)))
            else:
                raise refuse(
                    path,
                    f"has {dotted} as a single value or a list at {where(node)}, not a mapping",
                    f"make {dotted} a mapping (see config/example.yaml)",
                )
        elif isinstance(node, ScalarNode):
            edits.append(
                _replace_scalar(text, node, wanted, bool(mapping.flow_style), dotted, path)
            )
        else:
            raise refuse(
                path,
                f"has {dotted} as a list or mapping at {where(node)}, where one value belongs",
                f"make {dotted} a single value",
            )
    if missing:
        if mapping.flow_style:
            raise refuse(
                path,
                f"writes {prefix.rstrip('.') or 'the document'} in flow style ({{...}}, {where(mapping)}), "
                f"where {', '.join(prefix + m for m in missing)} would have to be added",
                "write it in block style (one key per line), or add the keys by hand",
            )
        lines = _block_lines(missing, mapping.start_mark.column, unit)
        at = _line_end(text, _content_end(mapping))
        spacer = (
            newline
            if mapping.start_mark.column == 0 and any(isinstance(v, dict) for v in missing.values())
            else ""
        )
        edits.append((at, at, spacer + "".join(newline + line for line in lines)))
    return edits
