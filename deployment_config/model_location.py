"""Where vLLM finds the weights on each path: the value of ``--model``.

vLLM reports this value as the ``root`` of the model in ``GET /v1/models`` (vLLM 0.33.0,
vllm/entrypoints/openai/models/serving.py: ``ModelCard(id=served name, root=args.model)``), so ``llmops smoke-test``
can tell the configured model from vLLM's own small default model (``Qwen/Qwen3-0.6B``, what ``vllm serve`` loads
without a model) served under the configured name.
"""

from __future__ import annotations

from deployment_config.model import EnvironmentConfig, ModelConfig, Platform, WeightSource
from deployment_config.speculator import SPECULATOR_DIR
from deployment_config.weight_load import WeightLoad

#: Where the EKS path mounts the node's NVMe model cache in the vLLM container.
MODEL_CACHE_MOUNT = "/models"
#: Where the EKS path's init container copies weights from S3, inside the cache: one directory per revision below it
#: (:func:`node_weights_path`), so that a previous revision's files never mix with this one's.
S3_WEIGHTS_PATH = f"{MODEL_CACHE_MOUNT}/s3-weights"
#: Where the HyperPod Inference Operator mounts the weights it downloaded (its ``modelVolumeMount``), whatever the
#: source: the CRD's default ``modelVolumeMount.mountPath``, and the model the operator's own vLLM sample serves
#: (aws/sagemaker-hyperpod-cli 011ca92, config/samples/v1_llama31_8b_intelligent_routing.yaml: args ["/opt/ml/model", ...]).
HYPERPOD_MODEL_MOUNT = "/opt/ml/model"


def revision_s3_uri(s3_uri: str, revision: str) -> str:
    """``s3://BUCKET/PREFIX/REVISION/``: where ``llmops weights mirror`` writes one Hub revision's files and their
    ``MANIFEST.json`` under ``model.s3_uri``, and the only place the charts read weights from. A revision's prefix is
    never written by another revision's copy, so a copy that fails half-way never mixes two revisions."""
    return f"{s3_uri.rstrip('/')}/{revision}/"


def weights_s3_uri(model: ModelConfig) -> str | None:
    """The S3 location the serving charts copy (EKS) or the operator mounts (HyperPod): ``model.s3_uri`` at the pinned
    ``model.hugging_face_revision``. None when the weights come from the Hub, or before ``llmops weights mirror`` has
    pinned a revision (the serving stack then refuses to deploy: stacks/serving_stack.py)."""
    if (
        model.weight_source is not WeightSource.S3
        or not model.s3_uri
        or not model.hugging_face_revision
    ):
        return None
    return revision_s3_uri(model.s3_uri, model.hugging_face_revision)


def node_weights_path(revision: str) -> str:
    """The EKS node cache's directory of one revision's weights."""
    return f"{S3_WEIGHTS_PATH}/{revision}"


def model_path(env: EnvironmentConfig) -> str:
    """The ``--model`` vLLM is started with in this environment."""
    if env.platform is Platform.HYPERPOD:
        return HYPERPOD_MODEL_MOUNT
    if env.model.weight_source is WeightSource.S3:
        revision = env.model.hugging_face_revision
        if env.model.weight_load is WeightLoad.RUNAI_STREAMER:
            # streamed from S3 by vLLM itself (deployment_config/weight_load.py)
            return weights_s3_uri(env.model) or env.model.s3_uri
        return node_weights_path(revision) if revision else S3_WEIGHTS_PATH
    return env.model.hugging_face_id


def speculator_s3_uri(model: ModelConfig) -> str | None:
    """``s3://BUCKET/PREFIX/speculator/COMMIT/``: the ``spec_decoding`` speculator's mirror at the pinned
    ``model.speculator_revision`` (deployment_config/speculator.py), or None (no speculator, Hub weights, not mirrored)."""
    if weights_s3_uri(model) is None or not model.speculator_revision:
        return None
    return revision_s3_uri(
        f"{model.s3_uri.rstrip('/')}/{SPECULATOR_DIR}", model.speculator_revision
    )


def node_speculator_path(revision: str) -> str:
    """The EKS node cache's directory of one speculator revision, beside the main weights' revisions."""
    return f"{S3_WEIGHTS_PATH}/{SPECULATOR_DIR}/{revision}"
