"""Rules between the bridge section and the others (docs/stay-up.md): the bridge is an EKS Capacity Block's, stands in
for the block when no next block follows it, and serves the same pods on its own instance type."""

from __future__ import annotations

from collections.abc import Iterator

from deployment_config.catalog import GPU_INSTANCE_TYPES, GpuInstanceType
from deployment_config.cross_section_rules._issues import note as _note
from deployment_config.cross_section_rules.facts import model_sizes, resolved
from deployment_config.errors import ConfigIssue
from deployment_config.file_values import FileValues
from deployment_config.sizing import Layout, layout_for

#: Why a bridge on HyperPod is refused. The endpoint must prefer the training plan's instance group over an on-demand
#: group of the same instance type. In the InferenceEndpointConfig of the operator the add-on installs (3.1, vendored:
#: charts/imports/crds/inference.sagemaker.aws.amazon.com_inferenceendpointconfigs.yaml, aws/sagemaker-hyperpod-cli@
#: 4b76719), ``spec.instanceTypes`` orders instance *types* ("in order of preference ... selecting the first available
#: type"), so two groups of one type are one choice; only ``spec.nodeAffinity`` (its
#: ``preferredDuringSchedulingIgnoredDuringExecution``) can prefer a group by its nodes' labels, and it "is mutually
#: exclusive with instanceType and instanceTypes", while the endpoint here is written with ``spec.instanceType``
#: (charts/inference_endpoint_config.py). So the operator allows it; what is missing is this project's: the endpoint's
#: placement through nodeAffinity, the on-demand instance group and the schedule that sizes it with UpdateCluster.
#: tests/deployment_config/test_bridge_section.py rereads the CRD for each of these facts.
HYPERPOD_BRIDGE_REASON = (
    "is bridge capacity for the block, and a HyperPod bridge is not built yet: the endpoint would have to prefer the "
    "training plan's instance group over an on-demand group of the same type, which the operator's "
    "InferenceEndpointConfig allows only through spec.nodeAffinity (spec.instanceTypes orders instance types, not "
    "groups; nodeAffinity excludes the spec.instanceType this endpoint is written with: the vendored CRD, "
    "charts/imports/crds/), and neither that placement nor the on-demand group and its UpdateCluster schedule are "
    "written here"
)


def bridge_on_a_capacity_block(values: FileValues) -> Iterator[ConfigIssue]:
    """A bridge stands in for a Capacity Block's end: EKS only, and not yet beside a next block."""
    if values.get("bridge") is None:
        return
    if values.get("platform") == "hyperpod":
        yield _note(
            "bridge", HYPERPOD_BRIDGE_REASON, "remove the bridge: section, or set platform: eks"
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
    weights, speculator_gb = model_sizes(model)
    resolution = resolved(model, instance_type, multi_node=True)
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
