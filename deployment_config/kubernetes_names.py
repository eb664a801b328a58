"""Names of the Kubernetes objects the charts create, shared by the charts that write them (charts/serving_spec.py,
charts/inference_endpoint_chart.py) and ``llmops``, which reads them back with kubectl (and must not import cdk8s)."""

from __future__ import annotations

import re
from types import MappingProxyType

from deployment_config.model import EnvironmentConfig

#: The namespace of the HyperPod endpoint: its InferenceEndpointConfig (and the worker pods the operator makes for it),
#: its secrets sync, SecretProviderClass and NetworkPolicies. Its own, created by the endpoint's chart, not ``default``:
#: the endpoint's Secret and service account share a namespace with nothing else, and deleting the namespace removes
#: all of it.
INFERENCE_ENDPOINT_NAMESPACE = "llm-endpoint"
#: The label of the cluster's system nodes (stacks/cluster_stack.py, SYSTEM_NODEGROUP_NAME), where pods that need no GPU
#: run.
SYSTEM_NODE_LABELS = MappingProxyType({"llm-serving/node-role": "system"})
#: The EKS path's namespace and the vLLM Deployment's name (its pods carry app.kubernetes.io/name = that name and
#: app.kubernetes.io/component = inference-server: charts/recommended_labels.py).
SERVING_NAMESPACE = "llm-serving"
SERVING_NAME = "vllm"
#: The EKS path's serving chart as plain YAML under cdk.out/kubernetes/ENV/ (stacks/composition.py, app.py): the objects
#: the serving stack applies, which ``llmops rollout`` compares with what is deployed.
SERVING_MANIFEST_FILE = "vllm-serving.yaml"
#: The Job of ``llmops weights mirror`` and its service account (in SERVING_NAMESPACE), which EKS Pod Identity gives the
#: weights writer role of stacks/serving_stack.py.
WEIGHTS_MIRROR_NAME = "weights-mirror"
SERVING_POD_SELECTOR = (
    f"app.kubernetes.io/name={SERVING_NAME},app.kubernetes.io/component=inference-server"
)
#: The DaemonSet that pulls the vLLM image on each GPU node beside the weights' copy (charts/vllm_image_prepull.py), in
#: SERVING_NAMESPACE: its name, its container's, and its pods' labels (not the serving pods': no Service selects them).
IMAGE_PREPULL_NAME = "vllm-image-prepull"
IMAGE_PREPULL_CONTAINER = "pull-vllm-image"
IMAGE_PREPULL_POD_LABELS = {
    "app.kubernetes.io/name": IMAGE_PREPULL_NAME,
    "app.kubernetes.io/component": "image-prepull",
}
IMAGE_PREPULL_SELECTOR = ",".join(f"{k}={v}" for k, v in IMAGE_PREPULL_POD_LABELS.items())
#: The DaemonSet that stages ``model.next_revision`` on each GPU node (charts/vllm_weights_prestage.py), in
#: SERVING_NAMESPACE; the label on it names the revision it stages (``llmops rollout`` reads it).
WEIGHTS_PRESTAGE_NAME = "weights-prestage"
WEIGHTS_PRESTAGE_POD_LABELS = {
    "app.kubernetes.io/name": WEIGHTS_PRESTAGE_NAME,
    "app.kubernetes.io/component": "weights-prestage",
}
STAGED_REVISION_LABEL = "llm-serving/staged-revision"


def kubernetes_name(served_name: str) -> str:
    """``Kimi-K3`` → ``kimik3``: lower case letters and digits, as the announced manifest names it."""
    return re.sub(r"[^a-z0-9]", "", served_name.lower())[:63] or "model"


def inference_endpoint_name(env: EnvironmentConfig) -> str:
    """The InferenceEndpointConfig's name in a HyperPod environment (also the ``app`` label of its worker pods)."""
    return kubernetes_name(env.model.served_name)


def serving_pods(env: EnvironmentConfig) -> tuple[str, str]:
    """(namespace, label selector) of the pods that run vLLM in ``env``: the EKS path's Deployment, or the HyperPod
    operator's worker pods (label ``app`` = the InferenceEndpointConfig's name, charts/vllm_network_policy.py)."""
    from deployment_config.model import Platform

    if env.platform is Platform.HYPERPOD:
        return INFERENCE_ENDPOINT_NAMESPACE, f"app={inference_endpoint_name(env)}"
    return SERVING_NAMESPACE, SERVING_POD_SELECTOR


def hugging_face_token_synced(env: EnvironmentConfig) -> bool:
    """Whether the serving Secret (charts/serving_spec.py on EKS, charts/inference_endpoint_chart.py on HyperPod) holds
    the Hugging Face token, which ``llmops bench`` then reads for a gated tokenizer. On EKS only when vLLM downloads
    from the Hub: the vLLM pod mounts that Secret's volume, and with S3 weights nothing in it talks to the Hub. On
    HyperPod always when a token is set: the sync pod keeps it and the worker never gets it."""
    from deployment_config.model import Platform, WeightSource

    return env.model.hugging_face_token_secret is not None and (
        env.platform is Platform.HYPERPOD or env.model.weight_source is WeightSource.HUGGINGFACE
    )
