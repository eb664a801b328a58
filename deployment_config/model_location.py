"""Where vLLM finds the weights on each path: the value of ``--model``.

vLLM reports this value as the ``root`` of the model in ``GET /v1/models`` (vLLM 0.33.0,
vllm/entrypoints/openai/models/serving.py: ``ModelCard(id=served name, root=args.model)``), so ``llmops smoke-test``
can tell the configured model from vLLM's own small default model (``Qwen/Qwen3-0.6B``, what ``vllm serve`` loads
without a model) served under the configured name.
"""

from __future__ import annotations

from deployment_config.model import EnvironmentConfig, Platform, WeightSource

#: Where the EKS path mounts the node's NVMe model cache in the vLLM container.
MODEL_CACHE_MOUNT = "/models"
#: Where the EKS path's init container copies weights from S3, inside the cache.
S3_WEIGHTS_PATH = f"{MODEL_CACHE_MOUNT}/s3-weights"
#: Where the HyperPod Inference Operator mounts the weights it downloaded (its ``modelVolumeMount``), whatever the
#: source: the CRD's default ``modelVolumeMount.mountPath``, and the model the operator's own vLLM sample serves
#: (aws/sagemaker-hyperpod-cli 011ca92, config/samples/v1_llama31_8b_intelligent_routing.yaml: args ["/opt/ml/model", ...]).
HYPERPOD_MODEL_MOUNT = "/opt/ml/model"


def model_path(env: EnvironmentConfig) -> str:
    """The ``--model`` vLLM is started with in this environment."""
    if env.platform is Platform.HYPERPOD:
        return HYPERPOD_MODEL_MOUNT
    if env.model.weight_source is WeightSource.S3:
        return S3_WEIGHTS_PATH
    return env.model.hugging_face_id
