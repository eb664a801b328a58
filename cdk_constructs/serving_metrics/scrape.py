"""The AMP managed scraper's Prometheus configuration: which pods and ports it scrapes, and how often."""

from __future__ import annotations

import base64
import re

import yaml

from cdk_constructs.serving_metrics.series import (
    NODE_MONITORING_JOB,
    ROUTER_JOB,
)
from deployment_config.addon_outputs import (
    NODE_MONITORING_AGENT_METRICS_PORT,
    NODE_MONITORING_AGENT_NAME,
    NODE_MONITORING_AGENT_NAMESPACE,
)
from deployment_config.metric_names import READY_LABEL, SCRAPE_INTERVAL_SECONDS, VLLM_JOB

#: The router pods' component label (charts/vllm_router.py ROUTER), as the scraper's pod discovery names it.
_COMPONENT_LABEL = "__meta_kubernetes_pod_label_app_kubernetes_io_component"


def _copy(source: str, target: str) -> dict:
    """A relabel rule that copies the discovered label ``source`` into ``target``."""
    return {"action": "replace", "source_labels": [source], "target_label": target}


def scrape_configuration(
    *,
    namespace: str,
    port: int,
    node_monitoring: bool = True,
    app_label: str | None = None,
    router_metrics_port: int | None = None,
) -> str:
    """The AMP scraper's Prometheus configuration: the vLLM pods of ``namespace`` on their container ``port``, and (with
    ``node_monitoring``) the node monitoring agent on every node. Only kubernetes_sd_configs, relabel_configs and a
    scrape interval of at least 30 s are allowed (AMP user guide, "Using an AWS managed collector", scraper
    configuration).

    The vLLM job keeps a pod's target by its declared container port: on the EKS path the port is the Deployment's
    ``containerPort`` (the namespace holds only vLLM); on HyperPod the Inference Operator makes the worker pod from the
    InferenceEndpointConfig, whose ``worker.modelInvocationPort.containerPort`` (charts/inference_endpoint_chart.py) is
    the same vLLM port. The CRD has no field for the pod's labels, but the operator labels the worker's pods
    ``app=<InferenceEndpointConfig name>``: AWS's HyperPod CLI finds an endpoint's pods by exactly that label
    (aws/sagemaker-hyperpod-cli@011ca92 src/sagemaker/hyperpod/inference/hp_endpoint.py, ``list_pods``:
    ``item.metadata.labels.get("app")`` among the endpoint names). With ``app_label`` the job also keeps only pods
    carrying ``app=<app_label>``, so that another pod of the shared namespace declaring the same port is not scraped.

    With ``router_metrics_port`` (a router in front of the replicas, charts/vllm_router.py) the router's pods, which
    declare vLLM's port number for the API they proxy, are dropped from the vLLM job (scraping them there would
    count a vLLM replica's metrics twice: the router passes unknown paths such as /metrics to a worker) and scraped by
    :data:`ROUTER_JOB` on their Prometheus listener.
    """
    router_drop = (
        []
        if router_metrics_port is None
        else [{"action": "drop", "source_labels": [_COMPONENT_LABEL], "regex": "router"}]
    )
    router_jobs = (
        []
        if router_metrics_port is None
        else [
            {
                "job_name": ROUTER_JOB,
                "metrics_path": "/metrics",
                "kubernetes_sd_configs": [{"role": "pod", "namespaces": {"names": [namespace]}}],
                "relabel_configs": [
                    {
                        "action": "keep",
                        "source_labels": [
                            _COMPONENT_LABEL,
                            "__meta_kubernetes_pod_container_port_number",
                        ],
                        "regex": f"router;{router_metrics_port}",
                    },
                    _copy("__meta_kubernetes_pod_name", "pod"),
                    _copy("__meta_kubernetes_pod_node_name", "node"),
                ],
            }
        ]
    )
    app_keep = (
        []
        if app_label is None
        else [
            {
                "action": "keep",
                "source_labels": ["__meta_kubernetes_pod_label_app"],
                "regex": re.escape(app_label),
            }
        ]
    )
    config = {
        "global": {"scrape_interval": f"{SCRAPE_INTERVAL_SECONDS}s", "scrape_timeout": "10s"},
        "scrape_configs": [
            {
                "job_name": VLLM_JOB,
                "metrics_path": "/metrics",
                "kubernetes_sd_configs": [{"role": "pod", "namespaces": {"names": [namespace]}}],
                "relabel_configs": [
                    # one target per declared container port: keep the API port of the vLLM container
                    {
                        "action": "keep",
                        "source_labels": ["__meta_kubernetes_pod_container_port_number"],
                        "regex": str(port),
                    },
                    *app_keep,
                    *router_drop,
                    _copy("__meta_kubernetes_pod_name", "pod"),
                    _copy("__meta_kubernetes_pod_node_name", "node"),
                    # the pod's Ready condition, "true" or "false" (Prometheus configuration, kubernetes_sd_config,
                    # role pod: __meta_kubernetes_pod_ready): the block's ready replicas (runtime/bridge.py)
                    _copy("__meta_kubernetes_pod_ready", READY_LABEL),
                ],
            },
            *router_jobs,
            *(
                []
                if not node_monitoring
                else [
                    {
                        "job_name": NODE_MONITORING_JOB,
                        "metrics_path": "/metrics",
                        "kubernetes_sd_configs": [
                            {
                                "role": "pod",
                                "namespaces": {"names": [NODE_MONITORING_AGENT_NAMESPACE]},
                            }
                        ],
                        "relabel_configs": [
                            {
                                "action": "keep",
                                "source_labels": [
                                    "__meta_kubernetes_pod_label_app_kubernetes_io_name",
                                    "__meta_kubernetes_pod_container_name",
                                ],
                                "regex": f"{NODE_MONITORING_AGENT_NAME};{NODE_MONITORING_AGENT_NAME}",
                            },
                            # the container declares no port; the agent listens on the node's network (hostNetwork)
                            {
                                "action": "replace",
                                "source_labels": ["__meta_kubernetes_pod_ip"],
                                "target_label": "__address__",
                                "replacement": f"$1:{NODE_MONITORING_AGENT_METRICS_PORT}",
                            },
                            _copy("__meta_kubernetes_pod_node_name", "node"),
                        ],
                    }
                ]
            ),
        ],
    }
    return yaml.safe_dump(config, sort_keys=False)


def scrape_configuration_blob(**options) -> str:
    """:func:`scrape_configuration` (of the same keyword arguments), base64-encoded as ``AWS::APS::Scraper``
    ScrapeConfiguration.ConfigurationBlob wants."""
    return base64.b64encode(scrape_configuration(**options).encode()).decode()
