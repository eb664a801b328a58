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

- :mod:`.vendored`: the recipe file read as data, and the strategies and GPU generations;
- :mod:`.profile`: the recipe composed for one generation and strategy, and the gates of its opt-in features;
- :mod:`.resolution`: the profile, the memory and the feature problems of one configuration;
- :mod:`.lock`: ``make recipes`` (``python -m deployment_config.recipe``), recipes.lock.json.

This package re-exports their public names, so that callers import from ``deployment_config.recipe``.
"""

from __future__ import annotations

from deployment_config.recipe.lock import LOCK_FILE, lock_data
from deployment_config.recipe.profile import (
    DERIVED_ENV,
    ServingProfile,
    dedupe,
    feature_problem,
    recipe_profile,
    unknown_feature_problem,
)
from deployment_config.recipe.resolution import Resolution, resolve
from deployment_config.recipe.vendored import (
    GENERATIONS,
    MULTI_NODE_TP_PP,
    RECIPE_DIR,
    RECIPE_FILES,
    SINGLE_NODE_TP,
    SOURCE,
    STRATEGIES,
    Feature,
    Recipe,
    load_recipe,
    recipe_for,
    strategy_for,
)

__all__ = [
    "DERIVED_ENV",
    "GENERATIONS",
    "LOCK_FILE",
    "MULTI_NODE_TP_PP",
    "RECIPE_DIR",
    "RECIPE_FILES",
    "SINGLE_NODE_TP",
    "SOURCE",
    "STRATEGIES",
    "Feature",
    "Recipe",
    "Resolution",
    "ServingProfile",
    "dedupe",
    "feature_problem",
    "load_recipe",
    "lock_data",
    "recipe_for",
    "recipe_profile",
    "unknown_feature_problem",
    "resolve",
    "strategy_for",
]
