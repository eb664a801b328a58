"""The vLLM project's serving recipe for the model, read as data: its arguments and environment for one GPU generation
and one parallel layout, and its opt-in features with the strategies it allows them on.

The recipe is vendored unchanged (data/recipes/, SOURCE.md there names the repository, commit, digest and licence).
It is composed the way the recipe site's own command builder composes it (vllm-project/recipes@8959cf6
src/lib/command-synthesis.js ``buildArgs``): ``model.base_args``, then ``strategy_overrides.<strategy>.extra_args``,
then ``hardware_overrides.<generation>.extra_args`` (replaced by a strategy's own ``hardware_overrides.<generation>``
when it has one), then the enabled features' ``args``; ``dedupeArgs`` keeps the last occurrence of each option. The
environment: ``model.base_env``, ``strategy_overrides.<strategy>.env`` / ``extra_env``, then the generation's
``extra_env``. Features not in ``opt_in_features`` are on by default (CONTRIBUTING.md: "features that default OFF (users
tick them on)"); a feature with ``strategies`` runs only on those (``isFeatureAllowedForStrategy``).

Two layouts exist in this project (deployment_config.sizing.Layout): one node, tensor parallel (the recipe's
``single_node_tp``), and several nodes, tensor parallel within each and pipeline parallel across them
(``multi_node_tp_pp``). The parallel sizes and the multi-node rendezvous are the project's own (charts/serving_spec.py).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType

from deployment_config.errors import Problem
from deployment_config.sizing import (
    ENGINE_READY_TIMEOUT_ENV,
    GPU_MEMORY_UTILIZATION,
    MemoryProfile,
    fit_over,
    layout_for,
)
from deployment_config.speculator import FEATURE as SPEC_DECODING
from deployment_config.yaml_reader import read_yaml

RECIPE_DIR = Path(__file__).resolve().parents[1] / "data" / "recipes"
#: The vendored recipe of each preset's model (catalog.MODEL_PRESETS keys).
RECIPE_FILES = MappingProxyType({"kimi-k3": RECIPE_DIR / "moonshotai" / "Kimi-K3.yaml"})
#: What ``make recipes`` derives from the vendored files: their sha256 and every profile, checked by tests/test_recipe.py.
LOCK_FILE = RECIPE_DIR / "recipes.lock.json"
SOURCE = (
    "vllm-project/recipes@8959cf64189c71d36e11c6a30335f923f261b1f7:models/moonshotai/Kimi-K3.yaml"
)

SINGLE_NODE_TP = "single_node_tp"
MULTI_NODE_TP_PP = "multi_node_tp_pp"
#: The recipe strategies this project's layouts are.
STRATEGIES = (SINGLE_NODE_TP, MULTI_NODE_TP_PP)
GENERATIONS = ("hopper", "blackwell")
#: Environment variables the project derives itself, whatever the recipe says (charts/serving_spec.py): the engine's
#: start-up timeout comes from the startup budget (deployment_config.sizing.startup_budget), with its probe.
DERIVED_ENV = (ENGINE_READY_TIMEOUT_ENV,)


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


def dedupe(args: Sequence[str]) -> tuple[str, ...]:
    """command-synthesis.js ``dedupeArgs``: (option, value) units, the last occurrence of each option kept in place."""
    units: list[tuple[str, ...]] = []
    i = 0
    while i < len(args):
        if args[i].startswith("-") and i + 1 < len(args) and not args[i + 1].startswith("-"):
            units.append((args[i], args[i + 1]))
            i += 2
        else:
            units.append((args[i],))
            i += 1
    last = {unit[0]: index for index, unit in enumerate(units)}
    return tuple(
        item for index, unit in enumerate(units) if last[unit[0]] == index for item in unit
    )


def feature_problem(recipe: Recipe, name: str, *, strategy: str, generation: str) -> Problem | None:
    """Why ``name`` cannot be enabled here: not an opt-in feature of the recipe, or gated off the strategy or GPU."""
    if name not in recipe.opt_in_features:
        on = f" ({name} is on by default)" if name in recipe.features else ""
        return Problem(
            f"{name!r} is not an opt-in feature of the recipe {recipe.source}{on}",
            "use one of: " + ", ".join(recipe.opt_in_features),
        )
    feature = recipe.features[name]
    if feature.strategies and strategy not in feature.strategies:
        because = f": {feature.reason}" if feature.reason else ""
        return Problem(
            f"{name} is not offered for the {strategy} layout this model gets here (the recipe allows it on "
            f"{', '.join(feature.strategies)}){because}",
            "remove it from model.features, or pick an instance type the model fits on one node "
            "(capacity.instance_type)"
            if strategy != SINGLE_NODE_TP
            else "remove it from model.features",
        )
    if generation in feature.unsupported_on:
        return Problem(
            f"{name} is marked unsupported on {generation} GPUs by the recipe {recipe.source}",
            "remove it from model.features",
        )
    return None


@dataclass(frozen=True)
class ServingProfile:
    """vLLM's arguments (without the parallel sizes, model and port, which the project derives) and environment."""

    name: str
    generation: str
    strategy: str
    features: tuple[str, ...]
    args: tuple[str, ...]
    environment: Mapping[str, str]
    #: The recipe's VLLM_ENGINE_READY_TIMEOUT_S: the app's startup budget never goes below it (model.py).
    engine_ready_floor_seconds: int | None = None

    def value(self, option: str, extra_args: Sequence[str] = ()) -> str | None:
        """The value vLLM takes for ``option``: the last one given, model.extra_args (appended after the profile)
        included, in either spelling ``--opt value`` or ``--opt=value``."""
        found = None
        items = [*self.args, *extra_args]
        for i, item in enumerate(items):
            if item == option and i + 1 < len(items):
                found = items[i + 1]
            elif item.startswith(option + "="):
                found = item.partition("=")[2]
        return found

    @property
    def gpu_memory_utilization(self) -> float | None:
        value = self.value("--gpu-memory-utilization")
        return float(value) if value is not None else None

    @property
    def max_model_len(self) -> int | None:
        value = self.value("--max-model-len")
        return int(value) if value is not None else None

    @property
    def kv_cache_dtype(self) -> str:
        """vLLM's ``--kv-cache-dtype`` default is ``auto``, the model's own data type (deployment_config.sizing
        KV_CACHE_BYTES)."""
        return self.value("--kv-cache-dtype") or "auto"


def recipe_profile(
    recipe: Recipe,
    *,
    generation: str,
    strategy: str,
    features: Sequence[str],
    load_format: str | None,
) -> ServingProfile:
    """The recipe's profile for one GPU generation and strategy with the default and the chosen opt-in features.
    ``load_format``: the announced ``--load-format`` (catalog.ModelPreset.load_format), put in last so that it is the one
    place the load format comes from. Call :func:`feature_problem` first: gated features are skipped here, as the
    command builder does."""
    enabled = [*recipe.default_features, *(f for f in features if f not in recipe.default_features)]
    args = [
        *recipe.base_args,
        *recipe.strategy_args.get(strategy, ()),
        *recipe.hardware_args.get(generation, ()),
    ]
    for name in enabled:
        feature = recipe.features[name]
        if not feature.strategies or strategy in feature.strategies:
            args += feature.args
    if load_format is not None:
        args += ["--load-format", load_format]
    env = {
        **recipe.base_env,
        **recipe.strategy_env.get(strategy, {}),
        **recipe.hardware_env.get(generation, {}),
    }
    # The recipe's own engine timeout is the floor of the app's derived one: stricter than the recipe, never looser.
    floor = env.get(ENGINE_READY_TIMEOUT_ENV)
    for name in DERIVED_ENV:
        env.pop(name, None)
    return ServingProfile(
        name="recipe",
        generation=generation,
        strategy=strategy,
        features=tuple(features),
        args=dedupe(args),
        environment=MappingProxyType(env),
        engine_ready_floor_seconds=int(floor) if floor and floor.isdigit() else None,
    )


def recipe_value(recipe: Recipe, generation: str, strategy: str, env_name: str) -> str | None:
    """A variable the recipe sets for this generation and strategy, before the project's derived ones replace it."""
    return {
        **recipe.base_env,
        **recipe.strategy_env.get(strategy, {}),
        **recipe.hardware_env.get(generation, {}),
    }.get(env_name)


@dataclass(frozen=True)
class Resolution:
    """The profile one configuration gets: its arguments and environment (None: the announced ones), the memory the
    sizing counts, and what is wrong with its features as (index in model.features, problem)."""

    profile: ServingProfile | None
    memory: MemoryProfile
    problems: tuple[tuple[int, Problem], ...] = ()


def resolve(
    *,
    preset: str,
    serving_profile: str,
    features: Sequence[str],
    instance_type,
    weights_gb: int,
    multi_node: bool,
    load_format: str | None,
    extra_args: Sequence[str] = (),
    speculator_gb: int = 0,
) -> Resolution:
    """The profile of ``serving_profile`` (``recipe`` or ``announced``) for a model of ``weights_gb`` on
    ``instance_type`` (catalog.GpuInstanceType). ``multi_node``: one instance may span several nodes (EKS). The layout
    is the sizing's (deployment_config.sizing.layout_for) under the recipe's own memory share of each layout.
    ``speculator_gb``: the ``spec_decoding`` speculator's size (model.speculator_size_gb); the feature runs on one node
    only, so a speculator that does not fit beside the weights there is refused on the feature."""
    recipe = recipe_for(preset)
    if serving_profile == "announced" or recipe is None:
        problems = tuple(
            (
                i,
                Problem(
                    f"{name!r} needs serving_profile: recipe (features are the recipe's)",
                    "set model.serving_profile: recipe, or remove model.features",
                ),
            )
            for i, name in enumerate(features)
        )
        return Resolution(None, MemoryProfile(), problems)
    generation = instance_type.gpu_generation
    by_strategy = {
        s: recipe_profile(
            recipe, generation=generation, strategy=s, features=(), load_format=load_format
        )
        for s in STRATEGIES
    }

    def share(strategy: str) -> float:
        profile_value = by_strategy[strategy].gpu_memory_utilization or GPU_MEMORY_UTILIZATION
        try:
            value = float(
                by_strategy[strategy].value("--gpu-memory-utilization", extra_args) or profile_value
            )
        except ValueError:
            return profile_value
        # A value model.extra_args' own check refuses (not a number in [GPU_MEMORY_UTILIZATION, 1]) is reported there
        # once, not again as a model that does not fit.
        return value if GPU_MEMORY_UTILIZATION <= value <= 1 else profile_value

    def memory(strategy: str) -> MemoryProfile:
        # What vLLM is finally told: the profile's values, or model.extra_args' where they give one (vLLM takes the last).
        p = by_strategy[strategy]
        length = p.value("--max-model-len", extra_args)
        return MemoryProfile(
            single_node_utilization=share(SINGLE_NODE_TP),
            multi_node_utilization=share(MULTI_NODE_TP_PP),
            max_model_len=int(length) if length and length.isdigit() else None,
            kv_cache_dtype=p.value("--kv-cache-dtype", extra_args) or "auto",
            name=f"recipe profile ({generation}, {strategy})",
        )

    layout = (
        layout_for(weights_gb, instance_type, memory=memory(SINGLE_NODE_TP)) if multi_node else None
    )
    strategy = strategy_for(layout.nodes if layout is not None else 1)
    problems: list[tuple[int, Problem]] = []
    for index, name in enumerate(features):
        problem = feature_problem(recipe, name, strategy=strategy, generation=generation)
        if problem is None and name in features[:index]:
            problem = Problem(f"{name!r} is listed twice", "list each feature once")
        if (
            problem is None
            and name == SPEC_DECODING
            and speculator_gb
            and strategy == SINGLE_NODE_TP
        ):
            fit = fit_over(weights_gb + speculator_gb, instance_type, 1, memory(strategy))
            if not fit.fits:
                problem = Problem(
                    f"the speculator of spec_decoding ({speculator_gb} GB, model.speculator_size_gb) does not fit beside "
                    f"the {weights_gb} GB of weights on one {instance_type.name}: vLLM gets {fit.usable_gb:.0f} GB and "
                    f"the KV cache needs {fit.kv_reserve_gb:.0f} GB of it",
                    "remove spec_decoding from model.features, or pick an instance type with more GPU memory "
                    "(capacity.instance_type)",
                )
        if problem is not None:
            problems.append((index, problem))
    refused = {index for index, _ in problems}
    valid = tuple(
        dict.fromkeys(name for index, name in enumerate(features) if index not in refused)
    )
    profile = recipe_profile(
        recipe, generation=generation, strategy=strategy, features=valid, load_format=load_format
    )
    return Resolution(profile, memory(strategy), tuple(problems))


def lock_data(preset: str = "kimi-k3") -> dict:
    """What depends on the vendored recipe: its digest and every profile this project can derive from it."""
    from deployment_config.catalog import MODEL_PRESETS

    recipe = recipe_for(preset)
    assert recipe is not None
    load_format = MODEL_PRESETS[preset].load_format
    profiles = {}
    for generation in GENERATIONS:
        for strategy in STRATEGIES:
            p = recipe_profile(
                recipe,
                generation=generation,
                strategy=strategy,
                features=(),
                load_format=load_format,
            )
            profiles[f"{generation}/{strategy}"] = {
                "args": list(p.args),
                "environment": dict(p.environment),
            }
    return {"source": recipe.source, "sha256": recipe.sha256, "profiles": profiles}


def main(argv: list[str]) -> int:
    """``make recipes``: rewrite recipes.lock.json from the vendored recipe files."""
    LOCK_FILE.write_text(json.dumps({"kimi-k3": lock_data()}, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {LOCK_FILE}")
    return 0
