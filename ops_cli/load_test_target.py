"""Where ``llmops bench``'s load test points (ops_cli/load_test.py), and what it can measure there.

**The target.** EKS: the Service ``vllm`` in ``llm-serving`` (deployment_config/kubernetes_names.py) on its port:
8000, or 443 with ``endpoint.certificate_arn``, where the NLB ends TLS and the Service still carries plain HTTP to the
pod (charts/serving_spec.py ``service_port``, charts/vllm_service.py). HyperPod: the worker pod's own address on
vLLM's port 8000 (charts/inference_endpoint_spec.py ``VLLM_PORT``), read with kubectl: the Services the Inference
Operator makes are not named in anything this project has read, and its ALB ends TLS with the operator's self-signed
certificate (which ``vllm bench serve`` could only skip with ``--insecure``) and adds its own latency.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from endpoint_probe.deadline import Deadline
from ops_cli.errors import ExitCode, OpsError
from ops_cli.load_test_job import run_kubectl
from ops_cli.tools import tool_json

if TYPE_CHECKING:
    from deployment_config.model import EnvironmentConfig

# What needs the project's configuration imports deployment_config where it is used, as ops_cli/load_test.py does:
# cdk_constructs/promotion_gate.py imports this module for the Service's address.

#: The Service's port with ``endpoint.certificate_arn`` (charts/serving_spec.py ``service_port``: ``TLS_PORT``).
TLS_SERVICE_PORT = 443


def acceptance_from_workspace(env: EnvironmentConfig) -> bool:
    """Whether speculative decoding's acceptance comes from the Prometheus workspace (ops_cli/workspace_acceptance.py)
    rather than from ``vllm bench serve``'s result. ``vllm bench serve`` reads ``/metrics`` at the base URL before and
    after a run: a pod's own counters on HyperPod (the worker's address, which also gets every request) and with one
    replica on EKS; with several on EKS, the Service hands each connection to any pod (or to the router), so the two
    readings need not be of one server and their difference means nothing. The workspace has every pod's counters."""
    from deployment_config.model import Platform

    return env.platform is Platform.EKS and env.replicas > 1


def eks_service_url(env: EnvironmentConfig) -> str:
    from deployment_config.kubernetes_names import SERVING_NAME, SERVING_NAMESPACE
    from deployment_config.vllm_args import SERVING_PORT  # vLLM's API port, the charts' VLLM_PORT

    port = TLS_SERVICE_PORT if env.endpoint.certificate_arn else SERVING_PORT
    return f"http://{SERVING_NAME}.{SERVING_NAMESPACE}:{port}"


def hyperpod_worker_url(
    env: EnvironmentConfig,
    kubectl: str,
    run: Callable | None = None,
    *,
    deadline: Deadline | None = None,
) -> str:
    """``http://POD_IP:8000`` of a running HyperPod worker pod (label ``app`` = the endpoint's name)."""
    from deployment_config.kubernetes_names import (
        INFERENCE_ENDPOINT_NAMESPACE,
        inference_endpoint_name,
    )

    selector = f"app={inference_endpoint_name(env)}"
    out = run_kubectl(
        run,
        kubectl,
        ["get", "pods", "-n", INFERENCE_ENDPOINT_NAMESPACE, "-l", selector, "-o", "json"],
        deadline=deadline,
    )
    items = tool_json(out).get("items")
    pods = [p for p in items if isinstance(p, dict)] if isinstance(items, list) else []

    def status(pod: dict) -> dict:
        return pod["status"] if isinstance(pod.get("status"), dict) else {}

    running = sorted(
        (
            p
            for p in pods
            if status(p).get("phase") == "Running" and isinstance(status(p).get("podIP"), str)
        ),
        key=lambda p: (
            str((p.get("metadata") or {}).get("name", ""))
            if isinstance(p.get("metadata"), dict)
            else ""
        ),
    )
    if not running:
        raise OpsError(
            f"no running worker pod ({selector}) in namespace {INFERENCE_ENDPOINT_NAMESPACE}",
            "deploy the endpoint stack and wait: llmops wait inference-endpoint",
            ExitCode.NOT_FOUND,
        )
    from deployment_config.vllm_args import SERVING_PORT

    return f"http://{running[0]['status']['podIP']}:{SERVING_PORT}"
