"""Write docs/reference/configuration.md, every key of the configuration files, from the JSON Schema files in schema/.

``python -m deployment_config.reference_docs`` (``make schema`` runs it after writing the schema files): the page lists
each key of an environment file and of a pipeline file with its meaning, its allowed values and its default, in the
order the schema gives them. It reads the generated schema files, not the loader's models, so that the page says
exactly what an editor's YAML language server shows; ``tests/deployment_config/test_reference_docs.py`` fails when the
page is stale.

Standard library only: the installed ``llmops`` carries this package, and nothing here may need the CDK.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

PROJECT_DIR = Path(__file__).resolve().parents[1]
SCHEMA_DIR = PROJECT_DIR / "schema"
PAGE = PROJECT_DIR / "docs" / "reference" / "configuration.md"

#: The schema files, in the order the page shows them, with the heading and the files they describe.
FILES = (
    ("environment.schema.json", "Environment files", "`config/NAME.yaml`"),
    ("pipeline.schema.json", "Pipeline files", "`config/pipeline/NAME.yaml`"),
)
#: An enumeration longer than this (the regions) is named by its size, not listed.
MAX_LISTED_VALUES = 12
#: The longest table cell the docs allow (tests/docs/test_doc_figures.py): a longer meaning keeps its first sentences in
#: the table and the rest in a note below it.
MAX_CELL = 300


def _one_line(text: str) -> str:
    """Schema descriptions come from docstrings: reST double backticks and line breaks."""
    return " ".join(text.replace("``", "`").split())


def _cell(text: str) -> str:
    """A table cell: a pipe (in a description or a pattern) would end the cell."""
    return text.replace("|", "\\|")


def _head_and_rest(text: str, limit: int = MAX_CELL - 20) -> tuple[str, str]:
    """``text`` split after the last sentence that ends within ``limit`` characters (the first one when none does)."""
    ends = [m.end() for m in re.finditer(r"\. (?=[A-Z`'])", text)]
    within = [e for e in ends if e <= limit] or ends[:1]
    if len(text) <= MAX_CELL or not within:
        return text, ""
    return text[: within[-1]].rstrip(), text[within[-1] :]


def _value(value: Any) -> str:
    if isinstance(value, str):
        return f"`{value}`"
    return f"`{json.dumps(value)}`"


def _resolve(node: Mapping[str, Any], defs: Mapping[str, Any]) -> tuple[Mapping[str, Any], bool]:
    """The node behind a ``$ref`` or an optional ``anyOf: [X, null]``, and whether null is allowed."""
    nullable = False
    if "anyOf" in node:
        options = [o for o in node["anyOf"] if o.get("type") != "null"]
        nullable = len(options) < len(node["anyOf"])
        if len(options) == 1:
            node = {**options[0], **{k: v for k, v in node.items() if k != "anyOf"}}
    if "$ref" in node:
        target = defs[node["$ref"].rsplit("/", 1)[-1]]
        node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
    return node, nullable


def _allowed(node: Mapping[str, Any], defs: Mapping[str, Any]) -> str:
    """The type and the values a key accepts, as the schema states them."""
    if "enum" in node:
        values = node["enum"]
        if len(values) > MAX_LISTED_VALUES:
            return f"one of {len(values)} values (the schema lists them)"
        return "one of " + ", ".join(_value(v) for v in values)
    if "anyOf" in node:
        kinds = [_resolve(o, defs)[0].get("type", "value") for o in node["anyOf"]]
        return " or ".join(str(k) for k in kinds)
    kind = node.get("type", "value")
    if kind == "array":
        item, _ = _resolve(node.get("items", {}), defs)
        return f"list of {item.get('type', 'value')}"
    if kind == "object" and isinstance(node.get("additionalProperties"), Mapping):
        return f"map of {node['additionalProperties'].get('type', 'value')}"
    bounds = [
        f"{word} {node[key]}"
        for key, word in (
            ("minimum", "at least"),
            ("exclusiveMinimum", "more than"),
            ("maximum", "at most"),
        )
        if key in node
    ]
    if "pattern" in node:
        bounds.append(f"pattern `{node['pattern']}`")
    return ", ".join([str(kind), *bounds])


def _default(node: Mapping[str, Any], required: bool) -> str:
    if required:
        return "required"
    if "default" not in node or node["default"] is None:
        return "none"
    return _value(node["default"])


def _rows(
    properties: Mapping[str, Any], required: set[str], defs: Mapping[str, Any], prefix: str = ""
) -> Iterator[tuple[str, str, str, str]]:
    """(key, meaning, allowed, default) of every key, depth first: a section's row, then its keys."""
    for name, raw in properties.items():
        node, _ = _resolve(raw, defs)
        key = prefix + name
        meaning = _one_line(raw.get("description") or node.get("description", ""))
        if node.get("type") == "object" and "properties" in node:
            yield key, meaning, "section", _default(raw, name in required)
            yield from _rows(node["properties"], set(node.get("required", ())), defs, key + ".")
            continue
        item, _ = (
            _resolve(node.get("items", {}), defs) if node.get("type") == "array" else ({}, False)
        )
        if "properties" in item:
            yield key, meaning, "list of sections", _default(node, name in required)
            yield from _rows(item["properties"], set(item.get("required", ())), defs, key + "[].")
            continue
        yield key, meaning, _allowed(node, defs), _default(node, name in required)


def render(schema_dir: Path = SCHEMA_DIR) -> str:
    """The page, from the schema files in ``schema_dir``."""
    out = [
        "# Configuration reference",
        "",
        "<!-- Generated by `python -m deployment_config.reference_docs` from schema/*.schema.json: do not edit. -->",
        "",
        "Every key of the configuration files: what it means, what it accepts and its default, generated from the JSON",
        "Schema files in `schema/` (which `make schema` writes from the loader's models; editors with a YAML language",
        "server show the same text). Rules between keys (a zone of the region, a model that fits the GPUs, ...) are the",
        "loader's: `make check-config ENV=NAME` names each mistake with its fix. How to write a file:",
        "[Configure an environment](../configure.md).",
    ]
    for file_name, heading, files in FILES:
        schema = json.loads((schema_dir / file_name).read_text(encoding="utf-8"))
        out += [
            "",
            f"## {heading}",
            "",
            f"{files}: {_one_line(schema.get('description', ''))}",
            "",
            "| key | meaning | accepts | default |",
            "| --- | --- | --- | --- |",
        ]
        notes = []
        for key, meaning, allowed, default in _rows(
            schema["properties"], set(schema.get("required", ())), schema.get("$defs", {})
        ):
            meaning, rest = _head_and_rest(meaning)
            if rest:
                notes.append(f"{len(notes) + 1}. `{key}`, continued: {rest}")
                meaning += f" (note {len(notes)})"
            out.append(
                "| " + " | ".join(_cell(c) for c in (f"`{key}`", meaning, allowed, default)) + " |"
            )
        if notes:
            out += ["", "Notes to the table:", "", *notes]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    del argv  # no options: the page always goes to docs/reference/configuration.md
    PAGE.parent.mkdir(parents=True, exist_ok=True)
    PAGE.write_text(render(), encoding="utf-8")
    print(f"wrote {PAGE.relative_to(PROJECT_DIR)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
