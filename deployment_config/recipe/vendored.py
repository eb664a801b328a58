"""The vendored recipe file read as data (data/recipes/; SOURCE.md there names the repository, commit, digest and
licence): its base arguments and environment, its strategy and hardware overrides, its features with their gates."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType

from deployment_config.catalog import GPU_GENERATIONS
from deployment_config.yaml_reader import read_yaml

RECIPE_DIR = Path(__file__).resolve().parents[1] / "data" / "recipes"
#: The vendored recipe of each preset's model (catalog.MODEL_PRESETS keys).
RECIPE_FILES = MappingProxyType({"kimi-k3": RECIPE_DIR / "moonshotai" / "Kimi-K3.yaml"})
SOURCE = (
    "vllm-project/recipes@8959cf64189c71d36e11c6a30335f923f261b1f7:models/moonshotai/Kimi-K3.yaml"
)

SINGLE_NODE_TP = "single_node_tp"
MULTI_NODE_TP_PP = "multi_node_tp_pp"
#: The recipe strategies this project's layouts are.
STRATEGIES = (SINGLE_NODE_TP, MULTI_NODE_TP_PP)
#: The GPU generations whose hardware overrides the project reads: the catalog's.
GENERATIONS = GPU_GENERATIONS


def strategy_for(nodes: int) -> str:
    return SINGLE_NODE_TP if nodes == 1 else MULTI_NODE_TP_PP


@dataclass(frozen=True)
class Feature:
    """One feature of the recipe.

    :param strategies: the strategies it may run on; empty for all.
    :param reason: the recipe's own words (the comments in its block) on why it is limited, for messages.
    :param unsupported_on: GPU generations its ``hardware`` map marks ``unsupported``.
    """

    name: str
    description: str
    args: tuple[str, ...]
    strategies: tuple[str, ...]
    reason: str
    unsupported_on: tuple[str, ...] = ()


@dataclass(frozen=True)
class Recipe:
    source: str
    sha256: str
    model_id: str
    #: the model's context window in tokens (the recipe's ``model.context_length``), which --max-model-len may not pass
    context_length: int | None
    base_args: tuple[str, ...]
    base_env: Mapping[str, str]
    features: Mapping[str, Feature]
    opt_in_features: tuple[str, ...]
    hardware_args: Mapping[str, tuple[str, ...]]
    hardware_env: Mapping[str, Mapping[str, str]]
    strategy_args: Mapping[str, tuple[str, ...]]
    strategy_env: Mapping[str, Mapping[str, str]]
    compatible_strategies: tuple[str, ...]
    verified_hardware: tuple[str, ...]
    strategy_min_gpus: Mapping[str, int]

    @property
    def default_features(self) -> tuple[str, ...]:
        return tuple(name for name in self.features if name not in self.opt_in_features)


def _comments(text: str, feature: str) -> str:
    """The comment lines inside ``features.<feature>`` of the raw YAML: the recipe states its gating reasons there."""
    inside, current, found = False, None, []
    for line in text.splitlines():
        if line.startswith("features:"):
            inside = True
        elif inside and line and not line.startswith(" "):
            break
        elif (
            inside
            and line.startswith("  ")
            and not line.startswith("   ")
            and line.rstrip().endswith(":")
        ):
            current = line.strip().removesuffix(":")
        elif inside and current == feature and line.strip().startswith("#"):
            found.append(line.strip().lstrip("#").strip())
        elif inside and current == feature and line.strip() == "strategies:":
            break  # the reason for the gate is written above it
    return " ".join(found)


def _env(block: Mapping | None, *keys: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    for key in keys:
        merged.update({str(k): str(v) for k, v in ((block or {}).get(key) or {}).items()})
    return merged


@cache
def load_recipe(path: Path) -> Recipe:
    raw = path.read_bytes()
    data = read_yaml(path, source=str(path))
    text = raw.decode("utf-8")
    features = {}
    for name, block in (data.get("features") or {}).items():
        hardware = block.get("hardware") or {}
        features[name] = Feature(
            name=name,
            description=str(block.get("description", "")),
            args=tuple(str(a) for a in block.get("args") or ()),
            strategies=tuple(block.get("strategies") or ()),
            reason=_comments(text, name),
            unsupported_on=tuple(g for g, s in hardware.items() if s == "unsupported"),
        )
    overrides = data.get("hardware_overrides") or {}
    strategies = data.get("strategy_overrides") or {}
    return Recipe(
        source=SOURCE,
        sha256=hashlib.sha256(raw).hexdigest(),
        model_id=data["model"]["model_id"],
        context_length=data["model"].get("context_length"),
        base_args=tuple(str(a) for a in data["model"].get("base_args") or ()),
        base_env=MappingProxyType(
            {str(k): str(v) for k, v in (data["model"].get("base_env") or {}).items()}
        ),
        features=MappingProxyType(features),
        opt_in_features=tuple(data.get("opt_in_features") or ()),
        hardware_args=MappingProxyType(
            {
                g: tuple(str(a) for a in (overrides.get(g) or {}).get("extra_args") or ())
                for g in overrides
            }
        ),
        hardware_env=MappingProxyType(
            {g: MappingProxyType(_env(overrides.get(g), "extra_env")) for g in overrides}
        ),
        strategy_args=MappingProxyType(
            {
                s: tuple(
                    str(a) for a in [*(b.get("extra_args") or ()), *(b.get("vllm_args") or ())]
                )
                for s, b in strategies.items()
            }
        ),
        strategy_env=MappingProxyType(
            {s: MappingProxyType(_env(b, "env", "extra_env")) for s, b in strategies.items()}
        ),
        compatible_strategies=tuple(data.get("compatible_strategies") or ()),
        verified_hardware=tuple(
            h for h, s in (data["meta"].get("hardware") or {}).items() if s == "verified"
        ),
        strategy_min_gpus=MappingProxyType(dict(data.get("strategy_min_gpus") or {})),
    )


def recipe_for(preset: str) -> Recipe | None:
    path = RECIPE_FILES.get(preset)
    return load_recipe(path) if path else None
