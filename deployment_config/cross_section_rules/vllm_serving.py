"""Rules between model.extra_args and the rest of the model section: what vLLM 0.33.0 would refuse, or silently
override, given the model's features and tensor-parallel size."""

from __future__ import annotations

import json
from collections.abc import Iterator
from types import SimpleNamespace

from deployment_config import speculator
from deployment_config.catalog import MODEL_PRESETS
from deployment_config.compile_cache_variables import compile_cache_applies, kept_variables
from deployment_config.cross_section_rules._issues import note as _note
from deployment_config.cross_section_rules.facts import gpu_type, placement
from deployment_config.cuda_graph_capture import headroom_problem, highest_utilization
from deployment_config.errors import ConfigIssue, quoted
from deployment_config.file_values import FileValues
from deployment_config.recipe.vendored import recipe_for
from deployment_config.vllm_args.parsing import last_value, setting_items
from deployment_config.vllm_args.values import context_length
from deployment_config.weight_load import (
    LOADER_OPTIONS,
    RUNAI_LOAD_FORMAT,
    WeightLoad,
    is_distributed,
)


def _model(values: FileValues, *fields: str) -> SimpleNamespace:
    """The model fields a rule reads (its ``reads`` in cross_section_rules/__init__.py), as their own validation left
    them: a mistake elsewhere in the model section (an s3_uri, an extra_env value) leaves the rule running."""
    return SimpleNamespace(**{field: values.get(f"model.{field}") for field in fields})


def one_speculative_config(values: FileValues) -> Iterator[ConfigIssue]:
    """With spec_decoding the project gives vLLM the recipe speculator's --speculative-config, pinned at
    model.speculator_revision (charts/serving_spec.py speculator_args): one in extra_args would be rewritten with that
    commit, or name another draft."""
    model = _model(values, "features", "serving_profile", "extra_args")
    if not (speculator.FEATURE in model.features and model.serving_profile == "recipe"):
        return
    for index in setting_items(model.extra_args, "--speculative-config"):
        yield _note(
            f"model.extra_args[{index}]",
            f"{quoted(model.extra_args[index])} sets --speculative-config, which spec_decoding (model.features) "
            "already sets to the recipe's speculator at model.speculator_revision",
            "remove it, or remove spec_decoding from model.features to give your own --speculative-config",
        )


def dcp_divides_tp(values: FileValues) -> Iterator[ConfigIssue]:
    """vllm/config/parallel.py (vLLM 0.33.0, ParallelConfig's validator): without prefill context parallelism (which
    extra_args may not set) "DCP reuses the TP ranks", and ``tp % dcp != 0`` raises "tp_size=... must be divisible
    by dcp_size=..." at start-up."""
    model = _model(values, "extra_args", "tensor_parallel_size", "preset")
    value = last_value(model.extra_args, "--decode-context-parallel-size")
    try:
        dcp = int(value) if value is not None else None
    except ValueError:
        return  # the option's own check reports a value that is no number
    tp = model.tensor_parallel_size or MODEL_PRESETS[model.preset].tensor_parallel_size
    if dcp is not None and dcp >= 1 and tp % dcp:
        index = setting_items(model.extra_args, "--decode-context-parallel-size")[-1]
        yield _note(
            f"model.extra_args[{index}]",
            f"sets --decode-context-parallel-size to {dcp}, which does not divide the tensor-parallel size {tp}: "
            f"vLLM 0.33.0 stops with 'tp_size={tp} must be divisible by dcp_size={dcp}' "
            "(vllm/config/parallel.py, ParallelConfig)",
            f"use a divisor of {tp} (for example {tp}), or remove it",
        )


def max_model_len_within_the_context(values: FileValues) -> Iterator[ConfigIssue]:
    """A --max-model-len beyond the model's context window (the vendored recipe's ``model.context_length``): vLLM
    refuses it at start-up unless VLLM_ALLOW_LONG_MAX_MODEL_LEN is set, and then serves positions the model was not
    trained on (vllm/config/model.py ``_get_and_verify_max_len``)."""
    model = _model(values, "preset", "extra_args")
    recipe = recipe_for(model.preset)
    length = context_length(last_value(model.extra_args, "--max-model-len"))
    if recipe is None or recipe.context_length is None or length is None:
        return
    if length > recipe.context_length:
        index = setting_items(model.extra_args, "--max-model-len")[-1]
        yield _note(
            f"model.extra_args[{index}]",
            f"sets --max-model-len to {length} tokens, beyond the model's context of {recipe.context_length} "
            f"({recipe.source}, model.context_length)",
            f"use at most {recipe.context_length}, or remove it (vLLM then takes the model's own)",
        )


def cache_variables_left_to_the_compile_cache(values: FileValues) -> Iterator[ConfigIssue]:
    """Where the compile cache is on (EKS, and ``compile_cache_applies``, which charts/compile_cache/ also asks), the
    chart points every kept cache variable (deployment_config/data/compile_cache_variables.json) under the cache's
    directory, so that what a start compiles is saved and restored: a value in model.extra_env would be replaced,
    never honoured."""
    model = values.section("model")
    if values.get("platform") == "hyperpod":
        return
    placed = placement(values)
    if placed is None or not compile_cache_applies(
        image=model.image or MODEL_PRESETS[model.preset].image,
        weights_s3_uri=model.s3_uri if model.weight_source == "s3" else None,
        revision=model.hugging_face_revision,
        nodes=placed.nodes_per_replica or 1,
    ):
        return
    kept = kept_variables()
    for name in sorted(set(model.extra_env or {}) & set(kept)):
        yield _note(
            "model.extra_env",
            f"sets {name}, a kernel cache the compile cache keeps under its own directory (weights from S3 and an "
            "image by digest turn it on): the chart would replace your value",
            f"remove {name} from model.extra_env; the cache's directory is saved after the first start and "
            "restored on every later one (docs/weights.md, 'Warm-up from a compile cache')",
        )


def runai_streamer_is_distributed(values: FileValues) -> Iterator[ConfigIssue]:
    """vLLM 0.33.0's Run:ai loader (vllm/model_executor/model_loader/runai_streamer_loader.py) streams the checkpoint
    once for all ranks only with ``--model-loader-extra-config '{"distributed": true}'`` (a bool; the loader refuses
    another type): without it every rank of a tensor-parallel model streams the whole checkpoint
    (run-ai/runai-model-streamer#84), N times the bytes from S3 or the node's disk, and N copies in host memory
    (marin-community/marin#7136: eight full-model streams at 8 ranks, and the start failed at 275 GiB of host memory)."""
    model = values.section("model")
    preset = MODEL_PRESETS[model.preset]
    load_format = last_value(model.extra_args, "--load-format") or preset.load_format
    tp = model.tensor_parallel_size or preset.tensor_parallel_size
    if model.weight_load == WeightLoad.RUNAI_STREAMER:
        return  # the arguments are weight_load's own (deployment_config/weight_load.py), distributed at TP > 1
    if (load_format or "").lower() != RUNAI_LOAD_FORMAT or tp <= 1:
        return
    value = last_value(model.extra_args, "--model-loader-extra-config")
    if value is None and setting_items(model.extra_args, "--model-loader-extra-config"):
        return  # dotted keys only: vLLM merges them, and this rule does not read them
    try:
        json.loads(value or "{}")
    except ValueError:
        return  # the option's own check reports JSON that does not parse
    if is_distributed(value):
        return
    where = setting_items(model.extra_args, "--model-loader-extra-config") or setting_items(
        model.extra_args, "--load-format"
    )
    yield _note(
        f"model.extra_args[{where[-1]}]" if where else "model.extra_args",
        f"--load-format runai_streamer at tensor parallel size {tp} without "
        "'{\"distributed\": true}' in --model-loader-extra-config: each of the "
        f"{tp} ranks streams the whole checkpoint (run-ai/runai-model-streamer#84)",
        'add "--model-loader-extra-config" and \'{"distributed": true}\' to model.extra_args (or "distributed": true '
        "to the JSON you give it): the ranks then share one stream",
    )


def runai_streamer_where_it_is_checked(values: FileValues) -> Iterator[ConfigIssue]:
    """``model.weight_load: runai_streamer`` where the chart can check the objects first and give vLLM the stream
    (deployment_config/weight_load.py): weights from S3, on EKS, one node a replica, no speculator copied beside them,
    and the loader's options left to it."""
    model = values.section("model")
    if model.weight_load != WeightLoad.RUNAI_STREAMER:
        return
    refused = "model.weight_load", "weight_load: runai_streamer"
    if model.weight_source != "s3":
        yield _note(
            refused[0],
            f"{refused[1]} streams the mirror's objects from S3, but weight_source is {model.weight_source}: "
            "there is no manifest of CRC64NVME to check the stream against",
            "mirror the weights to S3 (llmops weights mirror) and set weight_source: s3, or remove weight_load",
        )
    if values.get("platform") == "hyperpod":
        yield _note(
            refused[0],
            f"{refused[1]} is EKS's: on HyperPod the Inference Operator writes the pod and mounts the weights "
            "from S3 itself (the Mountpoint for S3 CSI driver), so no check can run before vLLM and --model is "
            "the operator's mount",
            "remove weight_load (the operator's mount is checked by size at the worker's start)",
        )
    placed = placement(values)
    if placed is not None and (placed.nodes_per_replica or 1) > 1:
        yield _note(
            refused[0],
            f"{refused[1]} for a model that spans {placed.nodes_per_replica} nodes: the streamer's distributed "
            "mode across pipeline stages on several nodes is not checked in this project",
            "remove weight_load: each node copies and checks its weights",
        )
    if speculator.FEATURE in (model.features or ()):
        yield _note(
            refused[0],
            f"{refused[1]} with {speculator.FEATURE}: the speculator is copied to the node and checked there, "
            "and a pod either copies or streams",
            f"remove weight_load, or {speculator.FEATURE} from model.features",
        )
    for option in LOADER_OPTIONS:
        for index in setting_items(model.extra_args, option):
            yield _note(
                f"model.extra_args[{index}]",
                f"sets {option}, which {refused[1]} sets itself (--load-format {RUNAI_LOAD_FORMAT}, and "
                "--model-loader-extra-config '{\"distributed\": true}' above one GPU)",
                f"remove {option} from model.extra_args",
            )


def graph_pool_fits_outside_the_share(values: FileValues) -> Iterator[ConfigIssue]:
    """With CUDA graphs on (no --enforce-eager), a --gpu-memory-utilization of the user's leaves at least the graph
    pool memory that vLLM's estimate missed in the one measured run outside vLLM's share
    (deployment_config/cuda_graph_capture.py, ``headroom_problem``): else the engine runs out of GPU memory after the
    whole load and warm-up, and a restart repeats both."""
    model = values.section("model")
    chosen = gpu_type(values)
    value = last_value(model.extra_args, "--gpu-memory-utilization")
    if chosen is None or value is None or setting_items(model.extra_args, "--enforce-eager"):
        return
    try:
        utilization = float(value)
    except ValueError:
        return  # the option's own check reports a value that is no number
    _, instance, _ = chosen
    problem = headroom_problem(utilization, instance.gpu_memory_mib)
    if problem is not None:
        index = setting_items(model.extra_args, "--gpu-memory-utilization")[-1]
        yield _note(
            f"model.extra_args[{index}]",
            f"--gpu-memory-utilization {value} on {instance.name} {problem}",
            f"use at most {highest_utilization(instance.gpu_memory_mib):.2f}, or remove it",
        )
