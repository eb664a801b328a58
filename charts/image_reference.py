"""An image reference's pinning and its version as a Kubernetes label value: its tag, or its digest when it is pinned
by one (charts/serving_spec.py computes the spec's ``version`` from it, charts/recommended_labels.py labels with it)."""

from __future__ import annotations

import re

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
