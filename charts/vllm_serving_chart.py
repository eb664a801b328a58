"""The chart that serves one model with vLLM: namespace, service account, Deployment and Service."""

from __future__ import annotations

import cdk8s
import cdk8s_plus_28 as kplus
from constructs import Construct

from charts.serving_spec import VllmServingSpec
from charts.vllm_deployment import add_vllm_deployment
from charts.vllm_service import add_vllm_service


class VllmServingChart(cdk8s.Chart):
    """vLLM with all GPUs of one GPU node, behind a LoadBalancer Service on port 8000.

    :param spec: what to serve and where; see :class:`charts.serving_spec.VllmServingSpec`.
    """

    def __init__(self, scope: Construct, id: str, *, spec: VllmServingSpec) -> None:
        super().__init__(scope, id, disable_resource_name_hashes=True)
        self.spec = spec
        self.namespace_object = kplus.Namespace(self, "namespace", metadata=cdk8s.ApiObjectMetadata(name=spec.namespace))
        self.service_account = kplus.ServiceAccount(
            self, "service-account",
            metadata=cdk8s.ApiObjectMetadata(name=spec.service_account, namespace=spec.namespace),
            automount_token=False,
        )
        self.deployment = add_vllm_deployment(self, spec=spec, namespace=spec.namespace,
                                              service_account=self.service_account)
        self.service = add_vllm_service(self, spec=spec, namespace=spec.namespace, deployment=self.deployment)
        # Objects in the namespace must be created after it and deleted before it.
        for workload in (self.service_account, self.deployment, self.service):
            workload.node.add_dependency(self.namespace_object)


def synthesize_manifests(spec: VllmServingSpec) -> list[dict]:
    """The chart's Kubernetes objects as plain dictionaries, in apply order."""
    app = cdk8s.App()
    chart = VllmServingChart(app, "vllm-serving", spec=spec)
    return chart.to_json()
