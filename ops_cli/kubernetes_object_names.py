"""Kubernetes object names, checked before kubectl is asked about them."""

from __future__ import annotations

import re

from ops_cli.errors import ExitCode, OpsError, shown

#: Kubernetes object names (https://kubernetes.io/docs/concepts/overview/working-with-objects/names/): a namespace is a
#: DNS-1123 label (RFC 1123: at most 63 of a-z, 0-9 and '-', starting and ending alphanumeric); most objects, custom
#: resources such as InferenceEndpointConfig included, are named by a DNS-1123 subdomain (dot-separated labels, at
#: most 253 characters).
_DNS_LABEL = r"[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?"
_DNS_SUBDOMAIN = re.compile(rf"{_DNS_LABEL}(\.{_DNS_LABEL})*")


def check_kubernetes_names(name: str, namespace: str) -> None:
    if len(name) > 253 or not _DNS_SUBDOMAIN.fullmatch(name):
        raise OpsError(
            f"--name {shown(name)} is not a Kubernetes object name (DNS-1123 subdomain)",
            "use lowercase letters, digits, '-' and '.', starting and ending with a letter or digit, "
            "at most 253 characters, for example kimik3",
            ExitCode.USAGE,
        )
    if not re.fullmatch(_DNS_LABEL, namespace):
        raise OpsError(
            f"--namespace {shown(namespace)} is not a Kubernetes namespace name (DNS-1123 label)",
            "use lowercase letters, digits and '-', starting and ending with a letter or digit, "
            "at most 63 characters, for example default",
            ExitCode.USAGE,
        )
