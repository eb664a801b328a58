"""Rules between the bridge section and the others (docs/stay-up.md): the bridge is an EKS Capacity Block's, stands in
for the block when no next block follows it, and serves the same pods on its own instance type."""

from __future__ import annotations

from collections.abc import Iterator

from deployment_config import recipe, speculator
from deployment_config.catalog import GPU_INSTANCE_TYPES, MODEL_PRESETS, GpuInstanceType
from deployment_config.cross_section_rules._issues import note as _note
from deployment_config.errors import ConfigIssue
from deployment_config.file_values import FileValues
from deployment_config.sizing import Layout, layout_for


def bridge_on_a_capacity_block(values: FileValues) -> Iterator[ConfigIssue]:
    """A bridge stands in for a Capacity Block's end: EKS only, and not yet beside a next block."""
    if values.get("bridge") is None:
        return
    if values.get("platform") != "eks":
        yield _note(
            "bridge",
            f"is bridge capacity for a Capacity Block, but platform is {values.get('platform')}; a HyperPod bridge "
            "is not built yet",
            "remove the bridge: section, or set platform: eks",
        )
    elif values.get("capacity.next_capacity_reservation_id") is not None:
        yield _note(
            "bridge",
            "is set beside capacity.next_capacity_reservation_id; a bridge for the gap before a next block is not "
            "built yet (the next block's start is known to EC2 only, and the schedule is written at synthesis)",
            "remove the bridge: section (the next block takes over; 'bin/llmops handover' shows any gap), or "
            "remove next_capacity_reservation_id",
        )


def _serving(values: FileValues, instance_type: GpuInstanceType) -> tuple[Layout | None, tuple]:
    """The layout and the vLLM arguments and environment the model gets on ``instance_type`` (the loader's
    resolution, deployment_config/loader.py): what the one serving workload runs with."""
    model = values.section("model")
    preset = MODEL_PRESETS[model.preset]
    weights = model.weight_size_gb or preset.weight_size_gb
    enabled = speculator.FEATURE in model.features and model.serving_profile == "recipe"
    speculator_gb = (model.speculator_size_gb or 0) if enabled else 0
    resolution = recipe.resolve(
        preset=model.preset,
        serving_profile=model.serving_profile,
        features=model.features,
        instance_type=instance_type,
        weights_gb=weights,
        multi_node=True,
        load_format=preset.load_format,
        extra_args=model.extra_args,
        speculator_gb=speculator_gb,
    )
    profile = resolution.profile
    arguments = (profile.args, tuple(sorted(profile.environment.items()))) if profile else ()
    return layout_for(weights + speculator_gb, instance_type, memory=resolution.memory), arguments


def bridge_serves_like_the_block(values: FileValues) -> Iterator[ConfigIssue]:
    """Each bridge type serves the model with the block's layout and vLLM profile, since one workload (one set of
    pods) runs on both; and the bridge's instances are whole replicas."""
    types, block = values.get("bridge.instance_types"), values.get("capacity.instance_type")
    if types is None or block is None or not values.ok("model"):
        return
    block_layout, block_arguments = _serving(values, GPU_INSTANCE_TYPES[block])
    if block_layout is None:
        return  # the model does not fit the block: its own rule says so
    for index, name in enumerate(types):
        layout, arguments = _serving(values, GPU_INSTANCE_TYPES[name])
        field = f"bridge.instance_types[{index}]"
        if layout is None:
            yield _note(
                field,
                f"the model does not fit {name}, even over several nodes",
                f"use {block}, the block's instance type",
            )
        elif layout != block_layout:
            yield _note(
                field,
                f"serves the model as {layout.nodes} x {name} (TP {layout.tensor_parallel_size} x PP "
                f"{layout.pipeline_parallel_size}), the block as {block_layout.nodes} x {block} (TP "
                f"{block_layout.tensor_parallel_size} x PP {block_layout.pipeline_parallel_size}); a bridge with "
                "another layout is not built yet",
                f"use an instance type with the block's layout, such as {block}",
            )
        elif arguments != block_arguments:
            yield _note(
                field,
                f"gets other vLLM arguments from the recipe than {block} ({GPU_INSTANCE_TYPES[name].gpu_model} "
                "against the block's GPUs); a bridge with another vLLM profile is not built yet",
                f"use an instance type of the block's GPU, such as {block}",
            )
    maximum = values.get("bridge.max_instances")
    if maximum is not None and maximum % block_layout.nodes:
        yield _note(
            "bridge.max_instances",
            f"is {maximum}, but one replica spans {block_layout.nodes} nodes",
            f"use a multiple of {block_layout.nodes}",
        )
