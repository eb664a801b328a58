"""Published results beside measured ones: a vendored table (data/published/MODEL.json), each row with its source.

A row is comparable with a measured run only when everything that shapes the figures is the same: the GPU (the recipe's
hardware id, ``b300``), the serving profile and its layout (deployment_config/recipe/), the opt-in features, the
concurrency and the input and output lengths. ``llmops bench`` prints the matching row beside each run, and the promotion
gate can require a run's output throughput to be within N % of it (``within_percent_of_published``). The table holds only
figures someone published; a configuration without a row gets none, never an estimate.

Every row is checked when the table is read (:func:`load_table`): it names its source, its statistic and how it was
measured; its GPU, profile, strategy and features are names a run can have; and no two rows share a key and a
concurrency. A workload the key cannot express (a multi-turn trace replay rather than fixed input and output lengths,
as SemiAnalysis InferenceX publishes for this model) has no row: it could never match a run of ``llmops bench``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import get_args

#: What each row must carry, besides the figures: where it was published and how it was measured.
REQUIRED_TEXT = ("statistic", "configuration", "source")
REQUIRED_INTS = ("concurrency", "input_len", "output_len")
FIGURES = ("ttft_ms", "output_tokens_per_s")

PUBLISHED_DIR = Path(__file__).resolve().parent / "data" / "published"
#: The table of each preset (catalog.MODEL_PRESETS keys).
PUBLISHED_FILES = MappingProxyType({"kimi-k3": PUBLISHED_DIR / "kimi-k3.json"})


@dataclass(frozen=True)
class ServingKey:
    """What must match between a published row and a measured run, besides the concurrency."""

    hardware: str
    serving_profile: str
    strategy: str
    features: tuple[str, ...]
    input_len: int
    output_len: int

    def describe(self) -> str:
        features = ", ".join(self.features) or "no opt-in feature"
        return (
            f"{self.hardware}, {self.serving_profile} profile ({self.strategy}), {features}, "
            f"{self.input_len} in / {self.output_len} out"
        )


@dataclass(frozen=True)
class PublishedRow:
    key: ServingKey
    concurrency: int
    ttft_ms: float | None
    output_tokens_per_s: float | None
    statistic: str
    configuration: str
    source: str

    def to_dict(self) -> dict:
        return {
            "ttft_ms": self.ttft_ms,
            "output_tokens_per_s": self.output_tokens_per_s,
            "statistic": self.statistic,
            "configuration": self.configuration,
            "source": self.source,
        }


class PublishedTableError(ValueError):
    """A row of a vendored table that cannot be compared with a run: it names the file, the row and the field."""


@cache
def published_rows(preset: str) -> tuple[PublishedRow, ...]:
    path = PUBLISHED_FILES.get(preset)
    if path is None:
        return ()
    return load_table(path, preset=preset)


def load_table(path: Path, *, preset: str) -> tuple[PublishedRow, ...]:
    """The rows of ``path``, each checked: a source, a statistic and a configuration; names the project knows (GPU,
    profile, strategy, the preset's opt-in features); and no two rows of the same key and concurrency, which
    :func:`rows_for` would otherwise collapse into whichever comes last."""
    rows = json.loads(path.read_text(encoding="utf-8"))["rows"]
    known = _known_names(preset)
    seen: dict[tuple[ServingKey, int], int] = {}
    table = []
    for index, raw in enumerate(rows):
        row = _row(raw, known, where=f"{path.name} rows[{index}]")
        first = seen.setdefault((row.key, row.concurrency), index)
        if first != index:
            raise PublishedTableError(
                f"{path.name} rows[{index}]: same configuration and concurrency as rows[{first}] "
                f"({row.key.describe()}, concurrency {row.concurrency}); a run is compared with one row: "
                "keep one, or tell them apart by what differs (features, lengths, strategy)"
            )
        table.append(row)
    return tuple(table)


def _known_names(preset: str) -> dict[str, tuple[str, ...]]:
    from deployment_config.catalog import GPU_INSTANCE_TYPES
    from deployment_config.recipe import STRATEGIES, recipe_for
    from deployment_config.sections.model import ModelSection

    recipe = recipe_for(preset)
    return {
        "hardware": tuple(sorted({t.recipe_hardware for t in GPU_INSTANCE_TYPES.values()})),
        # the configuration's own choices (model.serving_profile)
        "serving_profile": get_args(ModelSection.model_fields["serving_profile"].annotation),
        "strategy": STRATEGIES,
        "features": recipe.opt_in_features if recipe else (),
    }


def _row(raw: dict, known: Mapping[str, tuple[str, ...]], *, where: str) -> PublishedRow:
    def problem(field: str, what: str) -> PublishedTableError:
        return PublishedTableError(f"{where}.{field}: {what}")

    if not isinstance(raw, dict):
        raise PublishedTableError(f"{where}: a row is an object, got {type(raw).__name__}")

    for field in REQUIRED_TEXT:
        if not isinstance(raw.get(field), str) or not raw[field].strip():
            raise problem(
                field, "missing or empty; every published row says where and how it was measured"
            )
    for field in REQUIRED_INTS:
        if type(raw.get(field)) is not int or raw[field] < 1:
            raise problem(field, f"must be a whole number of at least 1, got {raw.get(field)!r}")
    for field in ("hardware", "serving_profile", "strategy"):
        if raw.get(field) not in known[field]:
            raise problem(field, f"{raw.get(field)!r} is not one of: {', '.join(known[field])}")
    features = raw.get("features")
    if (
        not isinstance(features, list)
        or not all(isinstance(name, str) and name in known["features"] for name in features)
        or len(set(features)) != len(features)
    ):
        raise problem(
            "features",
            f"{features!r}: a list of the recipe's opt-in features, each once: "
            + (", ".join(known["features"]) or "none"),
        )
    figures = {f: raw.get(f) for f in FIGURES}
    for field, value in figures.items():
        # json.loads reads NaN and Infinity too: NaN would never fail within_percent_of_published, Infinity always.
        if value is not None and (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
            or value <= 0
        ):
            raise problem(
                field, f"must be a positive number, or null when not published; got {value!r}"
            )
    if all(value is None for value in figures.values()):
        raise problem("/".join(FIGURES), "both null: a row publishes at least one figure")
    return PublishedRow(
        key=ServingKey(
            raw["hardware"],
            raw["serving_profile"],
            raw["strategy"],
            tuple(sorted(features)),
            raw["input_len"],
            raw["output_len"],
        ),
        concurrency=raw["concurrency"],
        ttft_ms=figures["ttft_ms"],
        output_tokens_per_s=figures["output_tokens_per_s"],
        statistic=raw["statistic"],
        configuration=raw["configuration"],
        source=raw["source"],
    )


def serving_key(
    *, hardware: str, serving_profile: str, strategy: str, features, input_len: int, output_len: int
) -> ServingKey:
    return ServingKey(
        hardware, serving_profile, strategy, tuple(sorted(features)), input_len, output_len
    )


def key_of(env, *, input_len: int, output_len: int) -> ServingKey:
    """The key of an environment (deployment_config.model.EnvironmentConfig) for runs of these lengths."""
    from deployment_config.recipe import strategy_for

    return serving_key(
        hardware=env.gpu_instance_type.recipe_hardware,
        serving_profile=env.model.serving_profile,
        strategy=strategy_for(env.layout.nodes),
        features=env.model.features,
        input_len=input_len,
        output_len=output_len,
    )


def rows_for(preset: str, key: ServingKey) -> Mapping[int, PublishedRow]:
    """The published rows of ``key``, by concurrency."""
    return MappingProxyType(
        {row.concurrency: row for row in published_rows(preset) if row.key == key}
    )
