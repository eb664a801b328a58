"""The HyperPod Inference Operator's InferenceEndpointConfig for the configured model (cdk8s).

The announced manifest for Kimi-K3, with the defaults that are wrong for a 1.4 TB model corrected: a deploy
timeout that outlasts the download, probes and the load balancer health check on vLLM's /health, and metrics
scraped from vLLM's own port.

Written for operator 3.1, the version the pinned add-on build installs (deployment_config/operator_releases.py,
OPERATOR_RELEASES), through typed bindings generated from that version's CRD, vendored in charts/imports/crds/. That
CRD's v1 schema decides what the endpoint can say:

- ``modelSourceConfig.modelSourceType`` is ``fsx`` or ``s3``: the weights come from S3 (the loader refuses
  ``weight_source: huggingface`` for HyperPod; ``llmops weights mirror`` copies them there). The worker never talks to
  the Hub, so no Hugging Face token reaches it.
- ``worker`` has no ``volumeMounts``: ``spec.kubernetes.volumes`` adds volumes to the pod, but "These volumes can be
  referenced by init containers via volumeMounts" (the CRD's description), so the worker's own container cannot mount
  the Secrets Store CSI volume. A small Deployment of its own, in the same
  namespace, mounts it and keeps the Kubernetes Secret the driver syncs from it (charts/secrets_sync.py); the worker
  reads ``LLM_SERVING_API_KEY`` from that Secret through ``worker.environmentVariables[].valueFrom.secretKeyRef``.
- Fails closed: the ``secretKeyRef`` leaves ``optional`` unset ("Specify whether the Secret or its key must be
  defined", the vendored CRD's description of the field), so the kubelet does not start the worker's container while
  the synced Secret or its key is missing: it reports CreateContainerConfigError and retries until the sync has
  written it (kubernetes/kubernetes pkg/kubelet/kubelet_pods.go, ``makeEnvironmentVariables``, which fails on a
  missing non-optional Secret or key). vLLM never runs without its key.
- The worker's container has no ``securityContext`` in the CRD: the operator decides it.

Everything goes into the endpoint's own namespace (deployment_config/kubernetes_names.py), which the chart creates.
The operator reconciles InferenceEndpointConfigs in any namespace: its manager role is a ClusterRole with a
ClusterRoleBinding, and AWS's own S3 sample puts the endpoint in a namespace of its own (aws/sagemaker-hyperpod-cli@9ffefae
helm_chart/HyperPodHelmChart/charts/inference-operator/config/rbac/role.yaml, role_binding.yaml,
config/samples/v1_s3_modeldeployment.yaml: ``namespace: ns-team-a``).
"""

from __future__ import annotations

import cdk8s
from constructs import Construct

from charts.imports import sagemaker_inference as crd
from charts.inference_endpoint_config import endpoint_spec
from charts.inference_endpoint_spec import InferenceEndpointSpec, inference_endpoint_spec_for
from charts.secrets_sync import (
    add_plain_object,
    secrets_sync_deployment,
    secrets_sync_disruption_budget,
    secrets_sync_network_policy,
)
from charts.vllm_network_policy import worker_network_policy
from charts.vllm_secret_provider import add_secret_provider_class

#: What the composition and the tests import from here: the spec, how a configuration becomes one, and the chart.
__all__ = [
    "InferenceEndpointChart",
    "InferenceEndpointSpec",
    "inference_endpoint_spec_for",
    "synthesize_inference_endpoint",
]


class InferenceEndpointChart(cdk8s.Chart):
    """The endpoint's namespace, then, when the worker reads secrets, the secrets sync's service account,
    SecretProviderClass, NetworkPolicy and Deployment (charts/secrets_sync.py), the worker's NetworkPolicy, and the
    InferenceEndpointConfig, through typed bindings generated from the operator's CRD (charts/imports/, SOURCE.json
    there). The tests also validate the written object against the vendored CRD's v1 schema."""

    def __init__(self, scope: Construct, id: str, *, spec: InferenceEndpointSpec) -> None:
        super().__init__(scope, id, disable_resource_name_hashes=True)
        labels = {"app.kubernetes.io/name": "vllm", "app.kubernetes.io/instance": spec.name}
        self.namespace_object = cdk8s.ApiObject(
            self,
            "namespace",
            api_version="v1",
            kind="Namespace",
            metadata=cdk8s.ApiObjectMetadata(name=spec.namespace, labels=labels),
        )
        first: list[Construct] = []
        self.service_account = self.secret_provider = self.secrets_sync = None
        if spec.secrets:
            # The sync's own account (bound to its role by EKS Pod Identity); it mounts no token and has no RBAC binding.
            self.service_account = cdk8s.ApiObject(
                self,
                "service-account",
                api_version="v1",
                kind="ServiceAccount",
                metadata=cdk8s.ApiObjectMetadata(
                    name=spec.sync_service_account, namespace=spec.namespace, labels=labels
                ),
            )
            self.service_account.add_json_patch(
                cdk8s.JsonPatch.add("/automountServiceAccountToken", False)
            )
            self.secret_provider = add_secret_provider_class(
                self, secrets=spec.secrets, namespace=spec.namespace
            )
            sync_policy = add_plain_object(
                self,
                "secrets-sync-network-policy",
                secrets_sync_network_policy(endpoint_name=spec.name, namespace=spec.namespace),
            )
            self.secrets_sync = add_plain_object(
                self,
                "secrets-sync",
                secrets_sync_deployment(
                    endpoint_name=spec.name,
                    namespace=spec.namespace,
                    service_account=spec.sync_service_account,
                    secrets=spec.secrets,
                ),
            )
            sync_budget = add_plain_object(
                self,
                "secrets-sync-disruption-budget",
                secrets_sync_disruption_budget(endpoint_name=spec.name, namespace=spec.namespace),
            )
            for obj in (self.service_account, self.secret_provider, sync_policy, sync_budget):
                obj.node.add_dependency(self.namespace_object)
            self.secrets_sync.node.add_dependency(
                self.service_account, self.secret_provider, sync_policy, sync_budget
            )
            first.append(self.secrets_sync)
        # Before the endpoint: its pods never run unguarded.
        self.network_policy = add_plain_object(
            self,
            "network-policy",
            worker_network_policy(
                endpoint_name=spec.name, namespace=spec.namespace, vpc_cidr=spec.vpc_cidr
            ),
        )
        self.network_policy.node.add_dependency(self.namespace_object)
        self.endpoint = crd.InferenceEndpointConfig(
            self,
            "endpoint",
            metadata=cdk8s.ApiObjectMetadata(name=spec.name, namespace=spec.namespace),
            spec=endpoint_spec(spec),
        )
        self.endpoint.node.add_dependency(self.namespace_object, self.network_policy, *first)


def synthesize_inference_endpoint(spec: InferenceEndpointSpec) -> list[dict]:
    app = cdk8s.App()
    return InferenceEndpointChart(app, "inference-endpoint", spec=spec).to_json()
