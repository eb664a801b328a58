"""docs/reference/configuration.md: every key of the configuration files, generated from the JSON Schema files.

Given the schema files in schema/, when the page is rendered, then the committed page is that rendering (a key added to
a model and to its schema without `python -m deployment_config.reference_docs` fails here), and every key the schema
defines, nested sections and lists of sections included, has its row with its meaning and its default.
"""

from __future__ import annotations

import json
import re

from deployment_config import reference_docs


def test_the_committed_page_is_what_the_schema_files_generate():
    committed = reference_docs.PAGE.read_text(encoding="utf-8")
    assert committed == reference_docs.render(), (
        "docs/reference/configuration.md is stale: run `.venv/bin/python -m deployment_config.reference_docs`"
    )


def _schema_keys(properties: dict, defs: dict, prefix: str = "") -> set[str]:
    """Every dotted key of a schema, found independently of the renderer: through $ref, anyOf and array items."""
    keys = set()
    for name, node in properties.items():
        keys.add(prefix + name)
        candidates = [node, *node.get("anyOf", ()), node.get("items", {})]
        for candidate in candidates:
            if "$ref" in candidate:
                target = defs[candidate["$ref"].rsplit("/", 1)[-1]]
                inner = prefix + name + ("[]." if candidate is node.get("items") else ".")
                keys |= _schema_keys(target.get("properties", {}), defs, inner)
    return keys


def test_every_key_of_both_schemas_has_a_row_with_its_default():
    page = reference_docs.render()
    rows = dict(re.findall(r"^\| `([^`]+)` \| .* \| ([^|]+) \|$", page, re.M))
    for file_name, _, _ in reference_docs.FILES:
        schema = json.loads((reference_docs.SCHEMA_DIR / file_name).read_text(encoding="utf-8"))
        expected = _schema_keys(schema["properties"], schema.get("$defs", {}))
        assert expected - set(rows) == set(), file_name
    # the keys the README's hand-written table missed are there, each with its default
    assert rows["endpoint.authentication"] == "`api-key`"
    assert rows["observability.log_retention_days"] == "`30`"
    assert rows["endpoint.promotion_gate.runs[].concurrency"] == "required"
    assert rows["waves[].approval"] == "`false`"


def test_a_pipe_in_a_description_or_pattern_stays_inside_its_cell(tmp_path):
    # given a schema whose description and pattern hold a '|'
    schema = {
        "properties": {"name": {"type": "string", "pattern": "^(a|b)$", "description": "a | b"}},
        "required": ["name"],
        "description": "test",
    }
    for file_name, _, _ in reference_docs.FILES:
        (tmp_path / file_name).write_text(json.dumps(schema), encoding="utf-8")
    # then each row still has exactly four cells
    (row, *_) = [
        line for line in reference_docs.render(tmp_path).splitlines() if line.startswith("| `name`")
    ]
    assert len(re.split(r"(?<!\\)\|", row)) == 6
