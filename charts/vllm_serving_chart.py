"""The chart that serves one model with vLLM: namespace, service account, Deployment, Service and NetworkPolicy."""

from __future__ import annotations

import cdk8s
import cdk8s_plus_28 as kplus
from constructs import Construct

from charts.compile_cache.containers import add_compile_cache
from charts.key_proxy import KEY_FILES, add_key_proxy, worker_caddyfile
from charts.recommended_labels import recommended_labels
from charts.serving_spec import VllmServingSpec
from charts.vllm_deployment import add_vllm_deployment
from charts.vllm_image_prepull import add_image_prepull
from charts.vllm_leader_worker_set import (
    add_group_network_policy,
    add_leader_service,
    replace_deployment_with_leader_worker_set,
)
from charts.vllm_network_policy import add_vllm_network_policy
from charts.vllm_router import add_router, add_vllm_network_policy_behind_router, router_selector
from charts.vllm_secret_provider import SECRETS_VOLUME, add_secret_provider_class
from charts.vllm_service import add_load_balancer_service, add_vllm_service
from charts.vllm_weights_check import add_weights_check
from charts.vllm_weights_prestage import add_weights_prestage

#: The ConfigMap of the vLLM pods' Caddyfile (charts/key_proxy.py).
KEY_PROXY_CONFIG_MAP = "vllm-key-proxy"


class VllmServingChart(cdk8s.Chart):
    """vLLM with all GPUs of one GPU node, behind a LoadBalancer Service on port 8000.

    :param spec: what to serve and where; see :class:`charts.serving_spec.VllmServingSpec`.
    """

    def __init__(self, scope: Construct, id: str, *, spec: VllmServingSpec) -> None:
        # The recommended labels on every object: cdk8s puts a chart's labels on each of its API objects, and an
        # object's own labels win (the NetworkPolicy's component).
        super().__init__(
            scope, id, disable_resource_name_hashes=True, labels=recommended_labels(spec)
        )
        self.spec = spec
        self.namespace_object = kplus.Namespace(
            self, "namespace", metadata=cdk8s.ApiObjectMetadata(name=spec.namespace)
        )
        self.service_account = kplus.ServiceAccount(
            self,
            "service-account",
            metadata=cdk8s.ApiObjectMetadata(name=spec.service_account, namespace=spec.namespace),
            automount_token=False,
        )
        self.deployment = add_vllm_deployment(
            self, spec=spec, namespace=spec.namespace, service_account=self.service_account
        )
        # S3 weights: the copy is checked against its manifest before vLLM starts (charts/vllm_weights_check/).
        self.weights_check = None
        if spec.s3_uri:
            self.weights_check = add_weights_check(self, spec=spec, deployment=self.deployment)
            self.weights_check.node.add_dependency(self.namespace_object)
            self.deployment.node.add_dependency(self.weights_check)
        # The vLLM image pulled on each GPU node while the pod copies the weights (charts/vllm_image_prepull.py).
        self.image_prepull = add_image_prepull(self, spec=spec)
        self.image_prepull.node.add_dependency(self.namespace_object)
        # The next revision staged on each GPU node while this one serves (charts/vllm_weights_prestage.py).
        self.weights_prestage = None
        if spec.next_revision and spec.next_s3_uri:
            self.weights_prestage = add_weights_prestage(
                self, spec=spec, service_account=self.service_account
            )
            self.weights_prestage.node.add_dependency(self.namespace_object)
        # The pod's CSI volume names the SecretProviderClass: create it first, delete it after the pod.
        self.secret_provider = None
        if spec.secrets:
            self.secret_provider = add_secret_provider_class(
                self,
                secrets=spec.secrets,
                namespace=spec.namespace,
                previous_key=spec.key_check_in_front,
            )
            self.secret_provider.node.add_dependency(self.namespace_object)
            self.deployment.node.add_dependency(self.secret_provider)
        # With the API key: Caddy in front of vLLM checks it on every path from the CSI volume's files
        # (charts/key_proxy.py); the sidecar is patched in after every other container, so vLLM stays the first.
        self.key_proxy = None
        if spec.key_check_in_front and spec.secrets and spec.secrets.api_key_secret:
            self.key_proxy = add_key_proxy(
                self,
                api_object=cdk8s.ApiObject.of(self.deployment),
                name=KEY_PROXY_CONFIG_MAP,
                namespace=spec.namespace,
                caddyfile=worker_caddyfile(
                    port=spec.port,
                    key_files=tuple(f"{spec.secrets.mount_path}/{f}" for f in KEY_FILES),
                ),
                port=spec.port,
                key_mount=(SECRETS_VOLUME, spec.secrets.mount_path),
            )
            self.key_proxy.node.add_dependency(self.namespace_object)
            self.deployment.node.add_dependency(self.key_proxy)
        # vLLM's compile cache from S3, restored after the weights' check and saved after the first healthy start
        # (charts/compile_cache/).
        self.compile_cache = None
        if spec.compile_cache:
            (vllm,) = [c for c in self.deployment.containers if c.name == spec.name]
            self.compile_cache = add_compile_cache(
                self, spec=spec, deployment=self.deployment, vllm=vllm
            )
            self.compile_cache.node.add_dependency(self.namespace_object)
            self.deployment.node.add_dependency(self.compile_cache)
        # Chart labels reach object metadata, not pod templates: the pods get them here. The Deployment's selector stays
        # cdk8s's own address label, as before (a Deployment's selector cannot change on update).
        for key, value in recommended_labels(spec).items():
            self.deployment.pod_metadata.add_label(key, value)
        self.leader_worker_set = None
        if spec.multi_node:
            # A model that fits no single node: the same pod, as the leader and workers of a LeaderWorkerSet
            # (charts/vllm_leader_worker_set.py); the Service selects the leaders.
            self.leader_worker_set = replace_deployment_with_leader_worker_set(
                self, spec=spec, deployment=self.deployment
            )
            self.deployment = None
            for prerequisite in (
                self.secret_provider,
                self.key_proxy,
                self.weights_check,
                self.compile_cache,
            ):
                if prerequisite is not None:
                    self.leader_worker_set.node.add_dependency(prerequisite)
            self.service = add_leader_service(self, spec=spec)
            self.network_policy = add_group_network_policy(self, spec=spec)
            workloads = (
                self.service_account,
                self.leader_worker_set,
                self.service,
                self.network_policy,
            )
        else:
            self.service = add_vllm_service(
                self, spec=spec, namespace=spec.namespace, deployment=self.deployment
            )
            self.network_policy = add_vllm_network_policy(
                self, spec=spec, namespace=spec.namespace, deployment=self.deployment
            )
            workloads = (self.service_account, self.deployment, self.service, self.network_policy)
        self.router = []
        if spec.router_policy:
            workloads = self._put_router_in_front(workloads)
        # Objects in the namespace must be created after it and deleted before it.
        for workload in workloads:
            workload.node.add_dependency(self.namespace_object)

    def _put_router_in_front(self, workloads: tuple) -> tuple:
        """Two replicas or more: the router between the load balancer and vLLM (charts/vllm_router.py). The Service
        keeps its name, port, annotations and TLS and selects the router's pods; vLLM's NetworkPolicy admits the router."""
        spec = self.spec
        self.node.try_remove_child(self.service.node.id)
        self.node.try_remove_child(self.network_policy.node.id)
        self.service = add_load_balancer_service(self, spec=spec, namespace=spec.namespace)
        for key, value in router_selector(spec).items():
            self.service.select_label(key, value)
        self.network_policy = add_vllm_network_policy_behind_router(self, spec=spec)
        self.router = add_router(self, spec=spec, policy=spec.router_policy)
        kept = [w for w in workloads[:2]]
        return (*kept, self.service, self.network_policy, *self.router)


def synthesize_manifests(spec: VllmServingSpec) -> list[dict]:
    """The chart's Kubernetes objects as plain dictionaries, in apply order."""
    app = cdk8s.App()
    chart = VllmServingChart(app, "vllm-serving", spec=spec)
    return chart.to_json()
