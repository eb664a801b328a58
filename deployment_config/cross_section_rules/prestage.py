"""``model.next_revision``: the revision each GPU node pre-stages beside the serving one (charts/vllm_weights_prestage.py),
where a staged copy is what the serving pod then loads: S3 weights copied to the node's NVMe on EKS, with room on it
for two revisions."""

from __future__ import annotations

from collections.abc import Iterator

from deployment_config.catalog import INSTANCE_STORE_SOURCE
from deployment_config.cross_section_rules._issues import note
from deployment_config.cross_section_rules.facts import gpu_type, placement
from deployment_config.errors import ConfigIssue
from deployment_config.file_values import FileValues
from deployment_config.weight_load import WeightLoad

FIELD = "model.next_revision"


def next_revision_can_be_staged(values: FileValues) -> Iterator[ConfigIssue]:
    """Refuses ``model.next_revision`` where nothing would stage it or use the staged copy, and where two revisions do
    not fit the instance store (the live one is never removed while it serves, so the next one needs room beside it)."""
    model = values.section("model")
    revision = model.next_revision
    if revision is None:
        return
    remove = "remove model.next_revision"
    if model.weight_source != "s3":
        yield note(
            FIELD,
            f"weight_source is {model.weight_source}: vLLM downloads from the Hub itself, so there is "
            "no mirror to stage from",
            f"{remove}, or mirror the weights (llmops weights mirror) and set weight_source: s3",
        )
        return
    if values.get("platform") == "hyperpod":
        yield note(
            FIELD,
            "on HyperPod the Inference Operator mounts the weights from S3 itself: there is no node copy "
            "to stage",
            remove,
        )
        return
    if model.weight_load == WeightLoad.RUNAI_STREAMER:
        yield note(
            FIELD,
            "weight_load: runai_streamer streams every start from S3 into the GPUs and keeps no copy on "
            "the node, so a staged copy would never be read",
            f"{remove}, or set weight_load: copy",
        )
        return
    if revision == model.hugging_face_revision:
        yield note(
            FIELD,
            f"{revision} is the revision that serves (model.hugging_face_revision): nothing to stage",
            f"{remove}, or set it to the revision to roll out next",
        )
        return
    placed, chosen = placement(values), gpu_type(values)
    if placed is None or chosen is None:
        return
    instance_type = chosen[1]
    needed = 2 * (placed.weights_gb + placed.speculator_gb)
    store = instance_type.instance_store_gb
    if needed > store:
        yield note(
            FIELD,
            f"two revisions take {needed} GB and the {instance_type.name} instance store holds "
            f"{store} GB ({INSTANCE_STORE_SOURCE}): the next one cannot be staged beside the one that serves",
            f"{remove}: the rollout then copies the revision on each node",
        )
