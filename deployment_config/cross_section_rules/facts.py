"""Facts several rules between sections read, derived from the validated values of a file."""

from __future__ import annotations

from dataclasses import dataclass

from deployment_config import aws_rules, recipe, speculator
from deployment_config.catalog import GPU_INSTANCE_TYPES, MODEL_PRESETS, GpuInstanceType
from deployment_config.cross_section_rules._issues import note as _note
from deployment_config.errors import ConfigError, ConfigIssue, Problem
from deployment_config.file_values import FileValues
from deployment_config.sizing import check_model_fits, layout_for, tensor_parallel_mismatch


def valid_zones(values: FileValues) -> tuple[str, ...] | None:
    """The VPC's zones when the region and every zone are valid (each of the region, none twice), else None."""
    region, zones = values.get("region"), values.get("availability_zones")
    if region is None or zones is None:
        return None
    if any(
        aws_rules.zone_problem(zone, region=region) or zone in zones[:index]
        for index, zone in enumerate(zones)
    ):
        return None
    return tuple(zones)


def gpu_type(values: FileValues) -> tuple[str, GpuInstanceType, str] | None:
    """(the field that chose it, the GPU instance type, how that field spells types) of the valid GPU type; the HyperPod
    section's when both sections are given (the platform rule refuses one of them)."""
    hyperpod_type = values.get("hyperpod.instance_type")
    if hyperpod_type is not None:
        return (
            "hyperpod.instance_type",
            GPU_INSTANCE_TYPES[hyperpod_type.removeprefix("ml.")],
            "ml.",
        )
    capacity_type = values.get("capacity.instance_type")
    if capacity_type is not None:
        return "capacity.instance_type", GPU_INSTANCE_TYPES[capacity_type], ""
    return None


def gpu_nodes(values: FileValues) -> tuple[str, int] | None:
    """(field, count) of the GPU nodes of the platform's own section, when that count is valid."""
    platform = values.get("platform")
    for section, owner in (("capacity", "eks"), ("hyperpod", "hyperpod")):
        # The count alone: a mistake elsewhere in the section (a training plan that is no ARN) leaves it judged.
        count = values.get(f"{section}.instance_count") if platform == owner else None
        if count is not None:
            return f"{section}.instance_count", count
    return None


def autoscaled(values: FileValues) -> bool:
    """The HyperPod workers are scaled by the operator (a valid hyperpod.autoscaling)."""
    return values.ok("hyperpod.autoscaling") and values.get("hyperpod.autoscaling") is not None


@dataclass(frozen=True)
class Placement:
    """What a valid model section comes to on the chosen GPUs."""

    weights_gb: int
    speculator_gb: int
    #: (hardware, serving profile, strategy, features) of deployment_config/published.py; None without a GPU type.
    published_key: tuple | None
    #: GPU nodes per replica of a model that fits no single node (EKS); None for one node.
    nodes_per_replica: int | None
    #: the refused features, then the sizing's mistakes
    problems: tuple[ConfigIssue, ...]


def feature_name_problems(values: FileValues) -> list[tuple[int, Problem]]:
    """The features of ``model.features`` that are not the recipe's opt-in features, by index: they need only the
    preset's recipe (and the recipe serving profile), so another mistake of the model section leaves them judged."""
    preset, features = values.get("model.preset"), values.get("model.features")
    if preset is None or features is None or values.get("model.serving_profile") != "recipe":
        return []
    found = recipe.recipe_for(preset)
    if found is None:
        return []
    return [
        (index, problem)
        for index, name in enumerate(features)
        if (problem := recipe.unknown_feature_problem(found, name)) is not None
    ]


def tensor_parallel_problem(values: FileValues) -> Problem | None:
    """A tensor-parallel size that is not the GPUs of one node of the chosen type: needs the size (or the preset's)
    and the GPU type only, so another mistake of the model section leaves it judged."""
    chosen = gpu_type(values)
    size = values.get("model.tensor_parallel_size")
    if size is None and values.get("model.preset") is not None:
        size = MODEL_PRESETS[values.get("model.preset")].tensor_parallel_size
    if chosen is None or size is None:
        return None
    return tensor_parallel_mismatch(size, chosen[1])


def model_sizes(model) -> tuple[int, int]:
    """The valid model section's weights and speculator (with spec_decoding on the recipe profile only), in GB."""
    weights = model.weight_size_gb or MODEL_PRESETS[model.preset].weight_size_gb
    enabled = speculator.FEATURE in model.features and model.serving_profile == "recipe"
    return weights, (model.speculator_size_gb or 0) if enabled else 0


def resolved(model, instance_type: GpuInstanceType, *, multi_node: bool) -> recipe.Resolution:
    """The valid model section's recipe resolution on ``instance_type``, as deployment_config/loader.py resolves it."""
    weights, speculator_gb = model_sizes(model)
    return recipe.resolve(
        preset=model.preset,
        serving_profile=model.serving_profile,
        features=model.features,
        instance_type=instance_type,
        weights_gb=weights,
        multi_node=multi_node,
        load_format=MODEL_PRESETS[model.preset].load_format,
        extra_args=model.extra_args,
        speculator_gb=speculator_gb,
    )


def placement(values: FileValues) -> Placement | None:
    """The model's placement (recipe, sizing, layout) when the model section is valid, else None."""
    model = values.section("model") if values.ok("model") else None
    if model is None:
        return None
    preset = MODEL_PRESETS[model.preset]
    weights, speculator_gb = model_sizes(model)
    chosen = gpu_type(values)
    if chosen is None:
        return Placement(weights, speculator_gb, None, None, ())
    field, instance_type, prefix = chosen
    # On EKS a model instance may span several nodes (a LeaderWorkerSet); HyperPod serves one node per instance.
    nodes = gpu_nodes(values) or (None, None)
    node_count = nodes[1] if nodes[0] == "capacity.instance_count" else None
    resolution = resolved(model, instance_type, multi_node=node_count is not None)
    named = {index for index, _ in feature_name_problems(values)}  # reported by their own rule
    problems = [
        _note(f"model.features[{index}]", problem.problem, problem.fix)
        for index, problem in resolution.problems
        if index not in named
    ]
    key = (
        instance_type.recipe_hardware,
        model.serving_profile,
        resolution.profile.strategy if resolution.profile else "single_node_tp",
        tuple(model.features),
    )
    nodes_per_replica = None
    if tensor_parallel_problem(values) is not None:
        # reported by its own rule; the fit is judged for a size that serves
        return Placement(weights, speculator_gb, key, None, tuple(problems))
    try:
        refused = {index for index, _ in resolution.problems}
        with_speculator = any(
            name == speculator.FEATURE and index not in refused
            for index, name in enumerate(model.features)
        )
        check_model_fits(
            model_id=model.hugging_face_id or preset.hugging_face_id,
            weights_gb=weights + (speculator_gb if with_speculator else 0),
            instance_type=instance_type,
            tensor_parallel_size=model.tensor_parallel_size or preset.tensor_parallel_size,
            field=field,
            type_prefix=prefix,
            node_count=node_count,
            memory=resolution.memory,
        )
        layout = (
            layout_for(weights, instance_type, memory=resolution.memory)
            if node_count is not None
            else None
        )
        if layout is not None and layout.multi_node:
            nodes_per_replica = layout.nodes
    except ConfigError as error:
        problems.extend(error.issues)
    return Placement(weights, speculator_gb, key, nodes_per_replica, tuple(problems))
