"""The canary on EKS, through kubectl: :class:`ops_cli.canary.CanaryCluster` for the serving Deployment.

**The canary is a second Deployment**, ``vllm-canary``: one replica of the rendered (new) pod template, whose pods
keep the labels the router's ``--selector`` matches (``app.kubernetes.io/name`` and ``component``,
charts/vllm_router.py ``worker_selector``) and add ``track: canary``. The router's service discovery adds a pod with
every selector label once it is Running and Ready and removes it when it is deleted (vllm-project/router@06127e3
src/service_discovery.rs, ``PodInfo::is_healthy``, ``handle_pod_deletion``), so the canary takes its share of the
clients as one more worker (tests/charts/test_canary.py measures it with the real router), and the NetworkPolicies that
admit the router to the vLLM pods select it by the same labels. Why not a second version behind weights (KServe,
the Gateway API Inference Extension): this router has no weights per worker, and one replica of N+1 is the share a
canary should take. The Deployment's own selector is cdk8s's address label (charts/vllm_serving_chart.py), which the
canary's pods do not carry: the two Deployments never select each other's pods. The labels are the Kubernetes
documentation's canary pattern ("Managing Workloads", Canary deployments: the ``track`` label,
https://kubernetes.io/docs/concepts/workloads/management/#canary-deployments).

**The probe reaches that pod alone**, through ``kubectl port-forward pod/NAME`` to its key check's port (the API key is
sent as to the endpoint): the router's address would spread the probe over old and new replicas, and its worker API
is closed to clients (charts/key_proxy.py).

**Promotion**: the rendered Deployment is applied as the serving stack applies it (``kubectl apply``: ops_cli/rollout.py)
with ``maxSurge: 0, maxUnavailable: 1``: the canary holds the free slot a surge would need, and serves the new template
while one old replica at a time is replaced, so as many replicas serve as before the canary came. The rollout is done
when kubectl's ``rollout status`` says so: ``observedGeneration`` caught up, every replica updated and available
(kubernetes/kubectl release-1.22 pkg/polymorphichelpers/rollout_status.go, ``DeploymentStatusViewer.Status``:
"Waiting for deployment %q rollout to finish" while updated < replicas, old ones pending termination, or updated ones
not available).
The canary is deleted after. A later ``cdk deploy`` applies the same template (its pods stay) with the chart's strategy.
"""

from __future__ import annotations

import copy
import json
import subprocess
from collections.abc import Callable

from deployment_config.kubernetes_names import SERVING_NAME, SERVING_NAMESPACE
from endpoint_probe.deadline import Deadline
from ops_cli.errors import ExitCode, OpsError
from ops_cli.tools import run_tool, tool_failure, tool_json

CANARY_NAME = f"{SERVING_NAME}-canary"
TRACK_LABEL, CANARY_TRACK = "track", "canary"
#: The labels of the chart's pods that the canary's own selector keeps (with the track).
NAME_LABEL = "app.kubernetes.io/name"
#: Why a container cannot start, as the kubelet reports it in ``state.waiting.reason``.
STUCK_REASONS = {
    "CrashLoopBackOff",
    "ImagePullBackOff",
    "ErrImagePull",
    "InvalidImageName",
    "CreateContainerConfigError",
}


def canary_manifest(rendered: dict) -> dict:
    """The canary Deployment of the rendered serving Deployment: one replica of its template, the track label added,
    the chart's selector labels taken off the pods."""
    if rendered.get("kind") != "Deployment":
        raise OpsError(
            f"a canary needs the serving Deployment; this environment serves with a {rendered.get('kind')} "
            "(a model that spans nodes)",
            "run llmops rollout without --canary",
            ExitCode.USAGE,
        )
    spec = rendered["spec"]
    template = copy.deepcopy(spec["template"])
    labels = template.setdefault("metadata", {}).setdefault("labels", {})
    for key in (spec.get("selector") or {}).get("matchLabels") or {}:
        labels.pop(key, None)
    labels[TRACK_LABEL] = CANARY_TRACK
    selector = {NAME_LABEL: labels[NAME_LABEL], TRACK_LABEL: CANARY_TRACK}
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {
            "name": CANARY_NAME,
            "namespace": SERVING_NAMESPACE,
            "labels": {k: v for k, v in labels.items() if k != TRACK_LABEL}
            | {TRACK_LABEL: CANARY_TRACK},
        },
        "spec": {
            "replicas": 1,
            "selector": {"matchLabels": selector},
            "strategy": {"type": "Recreate"},
            "template": template,
        },
    }


def promotion_manifest(rendered: dict) -> dict:
    """The rendered Deployment rolled with ``maxSurge: 0, maxUnavailable: 1`` (the canary serves in the surge's place)."""
    promoted = copy.deepcopy(rendered)
    promoted["spec"]["strategy"] = {
        "type": "RollingUpdate",
        "rollingUpdate": {"maxSurge": 0, "maxUnavailable": 1},
    }
    return promoted


def rolled(deployment: dict) -> bool:
    """kubectl's ``rollout status`` for a Deployment: the controller saw the change, every replica updated and
    available, no old one left."""
    spec, status = deployment.get("spec") or {}, deployment.get("status") or {}
    metadata = deployment.get("metadata") or {}
    replicas = spec.get("replicas", 1)
    return (
        status.get("observedGeneration", 0) >= metadata.get("generation", 0)
        and status.get("updatedReplicas", 0) >= replicas
        and status.get("replicas", 0) <= status.get("updatedReplicas", 0)
        and status.get("availableReplicas", 0) >= status.get("updatedReplicas", 0)
    )


def ready_pod(pods: dict) -> str | None:
    """The name of a Running pod whose Ready condition is True."""
    for pod in pods.get("items") or []:
        conditions = (pod.get("status") or {}).get("conditions") or []
        if (pod.get("status") or {}).get("phase") == "Running" and any(
            c.get("type") == "Ready" and c.get("status") == "True" for c in conditions
        ):
            return pod["metadata"]["name"]
    return None


def stuck_reason(pods: dict) -> str | None:
    """``pod NAME: container C REASON`` of a canary container that will not start by itself."""
    for pod in pods.get("items") or []:
        for status in (pod.get("status") or {}).get("containerStatuses") or []:
            reason = ((status.get("state") or {}).get("waiting") or {}).get("reason")
            if reason in STUCK_REASONS:
                return f"pod {pod['metadata']['name']}: container {status.get('name')} {reason}"
    return None


class KubectlCanary:
    """The canary through ``kubectl``; ``port_forward(pod)`` returns the local base URL of the pod's API port and keeps
    the forward until :meth:`remove_canary` (``stop_forward``)."""

    def __init__(
        self,
        kubectl: str,
        rendered: dict,
        *,
        port_forward: Callable[[str], str],
        stop_forward: Callable[[], None],
        run: Callable | None = None,
        deadline: Deadline | None = None,
    ) -> None:
        self.kubectl, self.rendered = kubectl, rendered
        self.port_forward, self.stop_forward = port_forward, stop_forward
        self.run, self.deadline = run, deadline
        self.url: str | None = None

    def _kubectl(self, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
        result = run_tool(
            [self.kubectl, *args, "-n", SERVING_NAMESPACE],
            stdin=stdin,
            deadline=self.deadline,
            cap=120,
            run=self.run,
        )
        if result.returncode != 0:
            raise tool_failure(result)
        return result

    def _apply(self, manifest: dict) -> None:
        self._kubectl("apply", "-f", "-", stdin=json.dumps(manifest))

    def _pods(self) -> dict:
        selector = f"{NAME_LABEL}={SERVING_NAME},{TRACK_LABEL}={CANARY_TRACK}"
        return tool_json(self._kubectl("get", "pods", "-l", selector, "-o", "json"))

    def start_canary(self) -> None:
        self._apply(canary_manifest(self.rendered))

    def canary_url(self) -> str | None:
        if self.url is None:
            pod = ready_pod(self._pods())
            if pod:
                self.url = self.port_forward(pod)
        return self.url

    def canary_failure(self) -> str | None:
        return stuck_reason(self._pods())

    def promote(self) -> None:
        self._apply(promotion_manifest(self.rendered))

    def promoted(self) -> bool:
        return rolled(tool_json(self._kubectl("get", "deployment", SERVING_NAME, "-o", "json")))

    def remove_canary(self) -> None:
        self.stop_forward()
        self.url = None
        self._kubectl("delete", "deployment", CANARY_NAME, "--ignore-not-found", "--wait=false")
