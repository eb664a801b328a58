"""The serving profile one configuration gets, with the memory the sizing counts and what is wrong with its features:
the layout is the sizing's, under the recipe's own share of GPU memory for each layout."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from deployment_config.errors import Problem
from deployment_config.recipe.profile import ServingProfile, feature_problem, recipe_profile
from deployment_config.recipe.vendored import (
    MULTI_NODE_TP_PP,
    SINGLE_NODE_TP,
    STRATEGIES,
    recipe_for,
    strategy_for,
)
from deployment_config.sizing import GPU_MEMORY_UTILIZATION, MemoryProfile, fit_over, layout_for
from deployment_config.speculator import FEATURE as SPEC_DECODING
from deployment_config.vllm_args.values import context_length


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
        return MemoryProfile(
            single_node_utilization=share(SINGLE_NODE_TP),
            multi_node_utilization=share(MULTI_NODE_TP_PP),
            max_model_len=context_length(p.value("--max-model-len", extra_args)),
            kv_cache_dtype=p.value("--kv-cache-dtype", extra_args) or "auto",
            single_node_name=f"recipe profile ({generation}, {SINGLE_NODE_TP})",
            multi_node_name=f"recipe profile ({generation}, {MULTI_NODE_TP_PP})",
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
