"""The vendored recipe's arguments (deployment_config/recipe/), judged by the rules for ``model.extra_args``
(:mod:`.extra_args`): with the whole option table of vLLM 0.33.0's serve parser (:mod:`.serve_options`), an option vLLM
does not have, a flag given a value, an option without its value and a value its parser or its start-up checks refuse
(the JSON of ``--attention-config`` too) are each a disagreement."""

from __future__ import annotations

from collections.abc import Sequence

from deployment_config.sizing import GPU_MEMORY_UTILIZATION
from deployment_config.vllm_args.extra_args import extra_args_problems
from deployment_config.vllm_args.options import VLLM_SOURCE


def recipe_args_problems(args: Sequence[str], *, recipe_source: str = "the recipe") -> list[str]:
    """What the vendored vLLM 0.33.0 rules say about arguments the recipe gives: each disagreement names
    ``recipe_source``, the item and vLLM's source."""
    return [
        f"{recipe_source} gives {args[i]!r}; read by the rules of {VLLM_SOURCE}: {p.problem}"
        for i, p in extra_args_problems(args, gpu_memory_utilization_min=GPU_MEMORY_UTILIZATION)
    ]
