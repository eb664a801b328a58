"""JSON Schema of the configuration files, generated from the models the loader validates with.

Editors with a YAML language server (VS Code's Red Hat YAML extension, JetBrains, Neovim's yamlls) read the
``# yaml-language-server: $schema=...`` line at the top of each file under ``config/`` and complete and check keys as
the user types. The files under ``schema/`` are written by ``make schema`` (``python -m deployment_config.schema``)
and never edited by hand; ``tests/deployment_config/test_schema.py`` fails when they are out of date.

The schema checks shape (keys, types, patterns, ranges, enums); rules between fields (a zone of the region, a plan of
the same account) are the loader's alone (deployment_config/cross_section_rules/).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from deployment_config.file_models import EnvironmentFile, PipelineFile

SCHEMA_DIR = Path(__file__).resolve().parents[1] / "schema"
#: schema file name -> the model it describes
SCHEMAS = {"environment.schema.json": EnvironmentFile, "pipeline.schema.json": PipelineFile}


def schema_text(model: type) -> str:
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        **model.model_json_schema(mode="validation"),
    }
    return json.dumps(schema, indent=2, sort_keys=False, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write every schema file; with ``--check``, only report which ones are out of date (exit code 1)."""
    check = "--check" in (argv if argv is not None else sys.argv[1:])
    stale = []
    for name, model in SCHEMAS.items():
        path = SCHEMA_DIR / name
        text = schema_text(model)
        if path.is_file() and path.read_text(encoding="utf-8") == text:
            continue
        stale.append(path)
        if not check:
            SCHEMA_DIR.mkdir(exist_ok=True)
            path.write_text(text, encoding="utf-8")
    for path in stale:
        print(f"{'out of date' if check else 'wrote'}: {path}", file=sys.stderr)
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
