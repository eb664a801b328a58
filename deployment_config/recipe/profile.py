"""The recipe composed for one GPU generation and one strategy (the site's command builder, see the package's
docstring): its arguments and environment as a :class:`ServingProfile`, and why an opt-in feature cannot be enabled."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from deployment_config.errors import Problem
from deployment_config.recipe.vendored import SINGLE_NODE_TP, Recipe
from deployment_config.sizing import ENGINE_READY_TIMEOUT_ENV
from deployment_config.vllm_args.parsing import last_value
from deployment_config.vllm_args.values import context_length

#: Environment variables the project derives itself, whatever the recipe says (charts/serving_spec.py): the engine's
#: start-up timeout comes from the startup budget (deployment_config.sizing.startup_budget), with its probe.
DERIVED_ENV = (ENGINE_READY_TIMEOUT_ENV,)


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


def unknown_feature_problem(recipe: Recipe, name: str) -> Problem | None:
    """Why ``name`` is no feature to opt into: not an opt-in feature of the recipe. Needs the recipe only."""
    if name in recipe.opt_in_features:
        return None
    on = f" ({name} is on by default)" if name in recipe.features else ""
    return Problem(
        f"{name!r} is not an opt-in feature of the recipe {recipe.source}{on}",
        "use one of: " + ", ".join(recipe.opt_in_features),
    )


def feature_problem(recipe: Recipe, name: str, *, strategy: str, generation: str) -> Problem | None:
    """Why ``name`` cannot be enabled here: not an opt-in feature of the recipe, or gated off the strategy or GPU."""
    unknown = unknown_feature_problem(recipe, name)
    if unknown is not None:
        return unknown
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
        """The value vLLM takes for ``option`` (its long name): the last one given, model.extra_args (appended after
        the profile) included, in any spelling vLLM reads as that option (``--opt value``, ``--opt=value``, ``_`` for
        ``-``, an alias, an abbreviation: deployment_config/vllm_args/parsing.py ``last_value``)."""
        return last_value([*self.args, *extra_args], option)

    @property
    def gpu_memory_utilization(self) -> float | None:
        value = self.value("--gpu-memory-utilization")
        return float(value) if value is not None else None

    @property
    def max_model_len(self) -> int | None:
        return context_length(self.value("--max-model-len"))

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
