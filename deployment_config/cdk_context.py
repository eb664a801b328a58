"""Read the CDK CLI's context (``-c key=value`` and cdk.json) before the CDK itself is loaded.

The CLI passes the context to the app in ``CDK_CONTEXT_JSON``, and what does not fit in
``CONTEXT_OVERFLOW_LOCATION_ENV`` (a JSON file). Reading it here lets a bad configuration fail in
milliseconds, before the jsii runtime starts and before any output is written.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any


def cli_context(environ: Mapping[str, str]) -> dict[str, Any]:
    context: dict[str, Any] = {}
    if environ.get("CDK_CONTEXT_JSON"):
        context.update(json.loads(environ["CDK_CONTEXT_JSON"]))
    overflow = environ.get("CONTEXT_OVERFLOW_LOCATION_ENV")
    if overflow and Path(overflow).is_file():
        context.update(json.loads(Path(overflow).read_text(encoding="utf-8")))
    return context
