"""Whether the revision a deploy rolls out is staged on every GPU node (``model.next_revision``'s ``weights-prestage``
DaemonSet, charts/vllm_weights_prestage.py), so that each new replica loads it from the node's NVMe instead of copying
it: ``llmops rollout`` says "load only" then.

A DaemonSet pod is Ready only after its init containers succeeded (Kubernetes documentation, "Init Containers": the
pod's containers start once every init container has), and its last one moves the staged copy into place with its
marker. So the revision on the DaemonSet's label is staged on every node it runs on when the controller has seen the
current spec (``status.observedGeneration`` = ``metadata.generation``) and every scheduled pod is of it and ready
(``updatedNumberScheduled`` = ``numberReady`` = ``desiredNumberScheduled``; Kubernetes API reference, DaemonSetStatus).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from deployment_config.kubernetes_names import (
    SERVING_NAMESPACE,
    STAGED_REVISION_LABEL,
    WEIGHTS_PRESTAGE_NAME,
)
from deployment_config.model import EnvironmentConfig
from deployment_config.model_location import weights_s3_uri
from deployment_config.weight_load import WeightLoad
from endpoint_probe.deadline import Deadline
from ops_cli.tools import run_tool, tool_failure, tool_json


@dataclass(frozen=True)
class Staging:
    """The DaemonSet's revision and how many of its nodes hold it."""

    revision: str
    nodes: int
    staged_nodes: int

    @property
    def complete(self) -> bool:
        return self.nodes > 0 and self.staged_nodes == self.nodes


def staging_of(daemon_set: dict) -> Staging | None:
    """What ``kubectl get daemonsets.apps weights-prestage -o json`` says is staged; None without a revision label."""
    metadata, status = daemon_set.get("metadata") or {}, daemon_set.get("status") or {}
    revision = (metadata.get("labels") or {}).get(STAGED_REVISION_LABEL)
    if not isinstance(revision, str):
        return None
    nodes = status.get("desiredNumberScheduled") or 0
    seen = status.get("observedGeneration") == metadata.get("generation")
    staged = min(status.get("numberReady") or 0, status.get("updatedNumberScheduled") or 0)
    return Staging(revision, nodes, staged if seen else 0)


def copies_weights(env: EnvironmentConfig) -> bool:
    """The serving pods copy S3 weights to the node, so a staged copy is what they would load."""
    return weights_s3_uri(env.model) is not None and env.model.weight_load is WeightLoad.COPY


def deployed_staging(
    kubectl: str, *, run: Callable | None = None, deadline: Deadline | None = None
) -> Staging | None:
    """The ``weights-prestage`` DaemonSet's staging in the cluster; None when there is none."""
    command = [kubectl, "get", "daemonsets.apps", WEIGHTS_PRESTAGE_NAME, "-n", SERVING_NAMESPACE]
    result = run_tool(
        [*command, "-o", "json", "--ignore-not-found"], deadline=deadline, cap=60, run=run
    )
    if result.returncode != 0:
        raise tool_failure(result)
    return staging_of(tool_json(result)) if (result.stdout or "").strip() else None


def weights_line(env: EnvironmentConfig, staging: Staging | None) -> str | None:
    """What the new replicas do for their weights, when the DaemonSet has a say in it; None otherwise."""
    revision = env.model.hugging_face_revision
    if staging is None or staging.revision != revision:
        return None
    if staging.complete:
        return (
            f"load only: revision {revision} is staged on every GPU node ({staging.staged_nodes} of "
            f"{staging.nodes}, {WEIGHTS_PRESTAGE_NAME}), so each new replica loads it from the node's NVMe with no "
            "copy and no hash"
        )
    return (
        f"revision {revision} is staged on {staging.staged_nodes} of {staging.nodes} GPU nodes "
        f"({WEIGHTS_PRESTAGE_NAME}): a replica that starts on another node copies it itself; wait for "
        f"kubectl rollout status daemonset/{WEIGHTS_PRESTAGE_NAME} -n {SERVING_NAMESPACE} for a load only"
    )
