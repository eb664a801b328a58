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

from deployment_config.errors import ConfigError


def cli_context(environ: Mapping[str, str]) -> dict[str, Any]:
    """The context the CLI passed, or :class:`ConfigError` when it is not the JSON object the CLI writes."""
    context: dict[str, Any] = {}
    sources = (
        [("CDK_CONTEXT_JSON", lambda: environ["CDK_CONTEXT_JSON"])]
        if environ.get("CDK_CONTEXT_JSON")
        else []
    )
    overflow = environ.get("CONTEXT_OVERFLOW_LOCATION_ENV")
    if overflow and Path(overflow).is_file():
        sources.append((overflow, lambda: Path(overflow).read_text(encoding="utf-8")))
    for where, read in sources:
        try:
            value = json.loads(read())
        except (OSError, ValueError) as error:
            raise ConfigError(
                "(context)",
                f"the CDK context in {where} is not readable JSON ({error})",
                "run the app through the CDK CLI (npx cdk synth), which writes it",
            ) from None
        if not isinstance(value, dict):
            raise ConfigError(
                "(context)",
                f"the CDK context in {where} is not a JSON object",
                "run the app through the CDK CLI (npx cdk synth), which writes it",
            )
        context.update(value)
    return context
