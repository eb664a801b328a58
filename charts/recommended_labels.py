"""The Kubernetes recommended labels of the serving chart's objects (kubernetes.io, "Recommended Labels"), and the
image's version among them: its tag, or its digest when it is pinned by one."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from charts.serving_spec import VllmServingSpec

#: Values of the Kubernetes recommended labels (kubernetes.io, "Recommended Labels") this chart sets.
PART_OF = "llm-serving"
MANAGED_BY = "cdk8s"
INFERENCE_SERVER = "inference-server"
NETWORK_POLICY = "network-policy"

# A digest as the configuration loader accepts it (deployment_config/aws_rules/images.py, after distribution/reference and
# opencontainers/go-digest): sha256, sha384 or sha512 with lower-case hex of 64, 96 or 128 digits.
_PINNED = re.compile(r"@(sha256|sha384|sha512):([a-f0-9]{64}|[a-f0-9]{96}|[a-f0-9]{128})$")
_LABEL_VALUE_MAX = 63  # Kubernetes label values: at most 63 characters, alphanumeric at both ends, [-_.A-Za-z0-9] between


def image_is_pinned(image: str) -> bool:
    """True when ``image`` names its content by digest (``repo[:tag]@sha256:...``). A tag alone is mutable: the
    registry can point it at another image, and a node that pulls again may run different code."""
    return _PINNED.search(image) is not None


def image_version_label(image: str) -> str:
    """The image's version as a label value: ``sha256-`` and the digest's first 12 hex digits for a pinned image (a tag
    beside the digest is ignored: the digest is what runs), else the tag (``latest`` when there is none, Docker's
    default), cut to what a label value allows."""
    pinned = _PINNED.search(image)
    if pinned:
        return f"{pinned.group(1)}-{pinned.group(2)[:12]}"
    slash, colon = image.rfind("/"), image.rfind(":")
    tag = image[colon + 1 :] if colon > slash else "latest"
    return re.sub(r"^[^A-Za-z0-9]+|[^A-Za-z0-9]+$", "", tag[:_LABEL_VALUE_MAX])


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
