"""How vLLM loads S3 weights on EKS (``model.weight_load``): from the node's checked copy (``copy``, the default), or
streamed from S3 into GPU memory by the Run:ai streamer (``runai_streamer``), after an init container has checked every
object's size and CRC64NVME as S3 keeps it against the mirror's manifest
(charts/vllm_weights_check/runtime/check_s3_weights.py; docs/weights.md, "Streaming into the GPUs (Run:ai)").

The arguments: vLLM 0.33.0's ``--load-format runai_streamer`` (RunaiModelStreamerLoader,
vllm/model_executor/model_loader/runai_streamer_loader.py) with ``--model`` the ``s3://`` prefix of the revision (vLLM
pulls the config, tokenizer and ``*.py`` files to a local directory first: vllm/config/model.py
``maybe_pull_model_tokenizer_for_runai``), and at a tensor parallel size above 1 ``--model-loader-extra-config
'{"distributed": true}'``, without which every rank streams the whole checkpoint (run-ai/runai-model-streamer#84;
the rule cross_section_rules/vllm_serving.py ``runai_streamer_is_distributed`` asks the same of model.extra_args, with
:func:`is_distributed`).

The compile cache's key holds vLLM's whole argument list (charts/compile_cache/ ``compile_cache_for(args=...)``), the
load format and the ``s3://`` model included, so a streamed start never restores a cache saved by a copied one. The
load format does not change what is compiled: a loader fills the parameters of a model built before it
(vllm-project/vllm@01f62d3e vllm/model_executor/model_loader/base_loader.py ``BaseModelLoader.load_model``:
``initialize_model``, then the loader's ``load_weights``, then the same post-processing for every loader; and
RunaiModelStreamerLoader overrides ``load_weights`` and ``download_model`` only, vllm-project/vllm@04883019
runai_streamer_loader.py), and the compile and CUDA graph capture run on that model after the load (the worker's
``compile_or_warm_up_model``). The key is kept whole all the same, not pruned on that reading.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from enum import StrEnum


class WeightLoad(StrEnum):
    COPY = "copy"
    RUNAI_STREAMER = "runai_streamer"


RUNAI_LOAD_FORMAT = "runai_streamer"
#: The Run:ai loader's extra configuration that makes the ranks share one stream (a bool: the loader refuses another
#: type).
DISTRIBUTED_CONFIG = '{"distributed": true}'
#: What ``weight_load: runai_streamer`` sets, so model.extra_args may not.
LOADER_OPTIONS = ("--load-format", "--model-loader-extra-config")


def is_distributed(config: str | None) -> bool:
    """``--model-loader-extra-config``'s JSON asks the Run:ai loader to share one stream among the ranks."""
    try:
        value = json.loads(config) if config is not None else {}
    except ValueError:
        return False
    return isinstance(value, dict) and value.get("distributed") is True


def streamer_args(args: Sequence[str], tensor_parallel_size: int) -> tuple[str, ...]:
    """``args`` with every ``--load-format`` (the preset's or the recipe's) replaced by the Run:ai loader's, and, above
    one rank, the distributed stream; the last of the repeated options is the one vLLM keeps, and here the only one."""
    kept: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
            continue
        name = arg.split("=", 1)[0]
        if name in LOADER_OPTIONS:
            skip = "=" not in arg
            continue
        kept.append(arg)
    kept += ["--load-format", RUNAI_LOAD_FORMAT]
    if tensor_parallel_size > 1:
        kept += ["--model-loader-extra-config", DISTRIBUTED_CONFIG]
    return tuple(kept)
