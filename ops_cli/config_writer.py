"""Write capacity ids back into an environment file, keeping its comments and key order.

The new document is validated as a whole with the app's own loader before the file is replaced (atomically),
so a write that would make the configuration invalid writes nothing.
"""

from __future__ import annotations

import io
import os
import tempfile
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.scalarbool import ScalarBoolean

from deployment_config import ConfigError, parse_environment
from deployment_config.loader import config_path
from ops_cli.errors import ExitCode, OpsError


def update_environment_file(config_dir: Path, env_name: str, updates: dict[str, Any]) -> Path:
    """Set each dotted key of ``updates`` in ``config_dir/ENV.yaml``; validate; replace the file. Returns its path."""
    path = config_path(config_dir, env_name)
    if not path.is_file():
        raise OpsError(f"there is no environment file {path}", "create it first: cp config/example.yaml " + str(path),
                       ExitCode.USAGE)
    yaml = YAML()  # round-trip: comments, order and quoting survive
    yaml.preserve_quotes = True
    yaml.width = 4096  # never fold a long ARN onto a second line
    document = yaml.load(path.read_text(encoding="utf-8"))
    for dotted, value in updates.items():
        *parents, last = dotted.split(".")
        node = document
        for key in parents:
            if node.get(key) is None:
                node[key] = {}
            node = node[key]
        node[last] = value
    try:
        parse_environment(_plain(document), name=env_name, source=str(path))
    except ConfigError as error:
        raise OpsError(f"not written, the result would be invalid: {error.summary}", error.fix, ExitCode.USAGE) from None
    buffer = io.StringIO()
    yaml.dump(document, buffer)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(handle, "w", encoding="utf-8") as stream:
        stream.write(buffer.getvalue())
    os.replace(temporary, path)
    return path


def _plain(node: Any) -> Any:
    """ruamel's commented containers as plain dicts and lists, so the loader sees what PyYAML would."""
    if isinstance(node, dict):
        return {str(k): _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    if isinstance(node, ScalarBoolean):
        return bool(node)
    if isinstance(node, str):
        return str(node)
    return node
