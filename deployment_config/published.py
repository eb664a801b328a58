"""Published results beside measured ones: a vendored table (data/published/MODEL.json), each row with its source.

A row is comparable with a measured run only when everything that shapes the figures is the same: the GPU (the recipe's
hardware id, ``b300``), the serving profile and its layout (deployment_config/recipe/), the opt-in features, the
concurrency and the input and output lengths. ``llmops bench`` prints the matching row beside each run, and the promotion
gate can require a run's output throughput to be within N % of it (``within_percent_of_published``). The table holds only
figures someone published; a configuration without a row gets none, never an estimate.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType

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


@cache
def published_rows(preset: str) -> tuple[PublishedRow, ...]:
    path = PUBLISHED_FILES.get(preset)
    if path is None:
        return ()
    rows = json.loads(path.read_text(encoding="utf-8"))["rows"]
    return tuple(
        PublishedRow(
            key=ServingKey(
                r["hardware"],
                r["serving_profile"],
                r["strategy"],
                tuple(sorted(r["features"])),
                int(r["input_len"]),
                int(r["output_len"]),
            ),
            concurrency=int(r["concurrency"]),
            ttft_ms=r.get("ttft_ms"),
            output_tokens_per_s=r.get("output_tokens_per_s"),
            statistic=r["statistic"],
            configuration=r["configuration"],
            source=r["source"],
        )
        for r in rows
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


def below_published(measured: float, published: float, within_percent: float) -> bool:
    """Whether ``measured`` output throughput falls more than ``within_percent`` % below the ``published`` one."""
    return measured < published * (1 - within_percent / 100)
