"""When the compile cache is on, and the cache-directory variables that vLLM 0.33.0 and the kernel libraries it pins
read, as the compile cache keeps them (data/compile_cache_variables.json: each with its source, read from the wheels;
charts/compile_cache/ points each under the cache's directory, and the configuration refuses one in
``model.extra_env`` where the cache is on)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

TABLE_FILE = Path(__file__).resolve().parent / "data" / "compile_cache_variables.json"


@cache
def table() -> dict:
    return json.loads(TABLE_FILE.read_text(encoding="utf-8"))


def kept_variables() -> dict[str, str]:
    """Each kept variable -> its subdirectory under the cache's directory ("" for the directory itself)."""
    return {row["variable"]: row["subdirectory"] for row in table()["kept"]}


def compile_cache_applies(
    *, image: str, weights_s3_uri: str | None, revision: str | None, nodes: int
) -> bool:
    """Whether a serving configuration keeps a compile cache (charts/compile_cache/ says why each condition): weights
    from S3 at a revision (the bucket), an image pinned by digest (a tag can move, and a key of a tag would mix
    images) and a model on one node."""
    _, at, digest = image.partition("@")
    return bool(weights_s3_uri and revision and at and digest.startswith("sha") and nodes == 1)
