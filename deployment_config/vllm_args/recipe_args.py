"""The vendored recipe's arguments (deployment_config/recipe/), judged by the rules for ``model.extra_args``
(:mod:`.extra_args`) and the option table (:mod:`.options`)."""

from __future__ import annotations

from collections.abc import Sequence

from deployment_config.vllm_args.extra_args import extra_args_problems
from deployment_config.vllm_args.options import _BY_SPELLING, VLLM_SOURCE
from deployment_config.vllm_args.parsing import _is_option
from deployment_config.vllm_args.values import attention_config_problems

#: Config options whose value is a JSON object: FlexibleArgumentParser builds exactly that from their dotted form
#: (``--compilation-config.mode 3`` becomes ``--compilation-config '{"mode": 3}'``, parsing.py's docstring, step 1), and
#: the three are in options.py's one-value table (_ALIASED).
_JSON_OPTIONS = frozenset({"--attention-config", "--speculative-config", "--compilation-config"})


def recipe_args_problems(
    args: Sequence[str], *, recipe_source: str = "the recipe"
) -> tuple[list[str], list[str]]:
    """What the vendored vLLM 0.33.0 rules say about arguments the recipe gives: (disagreements, options the table
    does not know). A disagreement is a rule for ``model.extra_args`` the recipe breaks (an option the project
    derives, a memory share below the sizing's, a value vLLM refuses: not a whole number, or a name it does not
    declare or register, values.py), a flag given a value, or a config option whose value is not a JSON object; each
    names ``recipe_source`` and vLLM's source. An option this table does not list is taken by vLLM as one-value
    (parsing.py's docstring): reported separately, so that a test names each one the recipe starts to use."""
    from deployment_config.sizing import GPU_MEMORY_UTILIZATION

    problems = [
        f"{recipe_source} gives {args[i]!r}; read by the rules of {VLLM_SOURCE}: {p.problem}"
        for i, p in extra_args_problems(args, gpu_memory_utilization_min=GPU_MEMORY_UTILIZATION)
    ]
    unknown: list[str] = []
    for i, item in enumerate(args):
        if not item.startswith("--"):
            continue
        option = _BY_SPELLING.get(item)
        following = args[i + 1] if i + 1 < len(args) else None
        has_value = following is not None and not _is_option(following)
        if option is None:
            unknown.append(item)
        elif option.arity == "flag" and has_value and not problems:
            problems.append(
                f"{item!r} is a flag in {VLLM_SOURCE} ({option.source}), but {recipe_source} gives it the value "
                f"{following!r}"
            )
        elif option.arity in ("one", "append") and not has_value:
            problems.append(
                f"{item!r} takes a value in {VLLM_SOURCE} ({option.source}); {recipe_source} gives none"
            )
        if option is not None and option.name in _JSON_OPTIONS and has_value:
            import json

            try:
                parsed = json.loads(following)
            except ValueError:
                parsed = None
            if not isinstance(parsed, dict):
                problems.append(
                    f"{item!r} takes a JSON object in {VLLM_SOURCE}; {recipe_source} gives {following!r}"
                )
            elif option.name == "--attention-config":
                problems += [
                    f"{recipe_source} gives {item} {following}; by the rules of {VLLM_SOURCE}: {problem}"
                    for problem in attention_config_problems(parsed)
                ]
    return problems, unknown
