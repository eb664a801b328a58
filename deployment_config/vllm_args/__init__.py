"""Which vLLM arguments and environment variables a configuration may add, judged the way vLLM reads them.

``model.extra_args`` is appended to ``vllm serve --model M --served-model-name N --tensor-parallel-size T <preset
args>``, and ``model.extra_env`` to the container's environment. Both must not undo what the project derives (the
model, its name, the GPUs of one replica, the port the Service and the probes use, the model cache on the node's
NVMe, the engine start-up timeout) nor carry secrets in plain text. A plain ``"--port" in extra_args`` check is not
enough, because vLLM's parser accepts many spellings of one option, so :func:`extra_args_problems` reads the items
the way vLLM 0.33.0 does.

- :mod:`.options`: the option table of ``vllm serve`` (vLLM 0.33.0), and which rule judges which option;
- :mod:`.parsing`: how vLLM's ``FlexibleArgumentParser`` and argparse read the items (the steps, with their sources);
- :mod:`.extra_args`: how the items of ``model.extra_args`` are walked, an option set twice;
- :mod:`.rules`: what each rule says about an option it judges (the problem and the fix);
- :mod:`.values`: the values vLLM 0.33.0 accepts for the options whose value it restricts, each with its source;
- :mod:`.extra_env`: the rules for ``model.extra_env``.

This package re-exports their public names, so that callers import from ``deployment_config.vllm_args``.
"""

from __future__ import annotations

from deployment_config.vllm_args.extra_args import extra_args_problems
from deployment_config.vllm_args.extra_env import extra_env_problems
from deployment_config.vllm_args.options import (
    JUDGED_OPTIONS,
    OPTIONS,
    SERVING_PORT,
    VLLM_SOURCE,
    Arity,
    Rule,
    VllmOption,
)

__all__ = [
    "JUDGED_OPTIONS",
    "OPTIONS",
    "SERVING_PORT",
    "VLLM_SOURCE",
    "Arity",
    "Rule",
    "VllmOption",
    "extra_args_problems",
    "extra_env_problems",
]
