"""Names of the Kubernetes objects the HyperPod path creates, shared by the chart that writes them
(charts/inference_endpoint_chart.py) and ``llmops``, which reads them back with kubectl (and must not import cdk8s)."""

from __future__ import annotations

import re

from deployment_config.model import EnvironmentConfig

#: The namespace of the InferenceEndpointConfig and of the worker pods the operator makes for it.
INFERENCE_ENDPOINT_NAMESPACE = "default"


def kubernetes_name(served_name: str) -> str:
    """``Kimi-K3`` → ``kimik3``: lower case letters and digits, as the announced manifest names it."""
    return re.sub(r"[^a-z0-9]", "", served_name.lower())[:63] or "model"


def inference_endpoint_name(env: EnvironmentConfig) -> str:
    """The InferenceEndpointConfig's name in a HyperPod environment (also the ``app`` label of its worker pods)."""
    return kubernetes_name(env.model.served_name)
