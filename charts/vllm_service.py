"""The Service that puts vLLM's OpenAI-compatible API behind a Network Load Balancer on port 8000."""

from __future__ import annotations

import cdk8s
import cdk8s_plus_28 as kplus
from constructs import Construct

from charts.serving_spec import VllmServingSpec
from deployment_config.model import Exposure

# Annotations read by the AWS cloud controller that EKS runs: an NLB, internal unless the endpoint is public.
NLB_ANNOTATIONS = {"service.beta.kubernetes.io/aws-load-balancer-type": "nlb"}
INTERNAL_ANNOTATIONS = {"service.beta.kubernetes.io/aws-load-balancer-internal": "true"}


def add_vllm_service(scope: Construct, *, spec: VllmServingSpec, namespace: str,
                     deployment: kplus.Deployment) -> kplus.Service:
    """Add a LoadBalancer Service in front of ``deployment`` and return it."""
    public = spec.exposure is Exposure.PUBLIC
    annotations = dict(NLB_ANNOTATIONS) if public else {**NLB_ANNOTATIONS, **INTERNAL_ANNOTATIONS}
    return kplus.Service(
        scope,
        "service",
        metadata=cdk8s.ApiObjectMetadata(
            name=spec.name, namespace=namespace, annotations=annotations,
            labels={"app.kubernetes.io/name": spec.name},
        ),
        type=kplus.ServiceType.LOAD_BALANCER,
        selector=deployment,
        ports=[kplus.ServicePort(port=spec.port, target_port=spec.port, name="http", protocol=kplus.Protocol.TCP)],
        # Only a public endpoint gets source ranges; an internal one is reachable from the VPC alone.
        load_balancer_source_ranges=list(spec.allowed_cidrs) if public else None,
    )
