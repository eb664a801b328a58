"""The Kubernetes recommended labels of the serving chart's objects (kubernetes.io, "Recommended Labels"), the image's
version among them (charts/image_reference.py)."""

from __future__ import annotations

from charts.serving_spec import VllmServingSpec

#: Values of the Kubernetes recommended labels (kubernetes.io, "Recommended Labels") this chart sets.
PART_OF = "llm-serving"
MANAGED_BY = "cdk8s"
INFERENCE_SERVER = "inference-server"
NETWORK_POLICY = "network-policy"


def recommended_labels(spec: VllmServingSpec, component: str = INFERENCE_SERVER) -> dict[str, str]:
    """The recommended labels of the chart's objects. None of them is in the Deployment's selector, so changing one (a
    new image changes ``version``) never changes the selector, which Kubernetes does not let an update change."""
    return {
        "app.kubernetes.io/name": spec.name,
        "app.kubernetes.io/instance": spec.instance,
        "app.kubernetes.io/component": component,
        "app.kubernetes.io/part-of": PART_OF,
        "app.kubernetes.io/managed-by": MANAGED_BY,
        "app.kubernetes.io/version": spec.version,
    }
