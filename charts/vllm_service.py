"""The Service that puts vLLM's OpenAI-compatible API behind a Network Load Balancer: plain TCP on port 8000, or TLS on
port 443 with the environment's ACM certificate.

The annotations are read by the AWS cloud provider that EKS runs (kubernetes/cloud-provider-aws@63ec440
pkg/providers/v1/aws.go, the ``ServiceAnnotationLoadBalancer*`` constants and ``EnsureLoadBalancer``): for an NLB, a
Service port listed in ``aws-load-balancer-ssl-ports`` (by number or by name, ``getPortSets``) gets a listener of
protocol TLS with the ``aws-load-balancer-ssl-cert`` certificate and the ``aws-load-balancer-ssl-negotiation-policy``;
the target group, and so the traffic to the nodes and the pod, stays TCP unless ``aws-load-balancer-backend-protocol``
is ``ssl``, which is not set here: vLLM serves plain HTTP on its port. The listener is created and later updated to
the annotations' certificate and policy (aws_loadbalancer.go, ``ensureLoadBalancerv2`` and ``createListenerV2``), so a
new certificate ARN in the configuration is applied by a deploy of the serving stack.
"""

from __future__ import annotations

import cdk8s
import cdk8s_plus_28 as kplus
from constructs import Construct

from charts.serving_spec import VllmServingSpec
from deployment_config.model import Exposure

# Annotations read by the AWS cloud controller that EKS runs: an NLB, internal unless the endpoint is public.
NLB_ANNOTATIONS = {"service.beta.kubernetes.io/aws-load-balancer-type": "nlb"}
INTERNAL_ANNOTATIONS = {"service.beta.kubernetes.io/aws-load-balancer-internal": "true"}
#: The name of the Service's TLS port, which the ssl-ports annotation lists.
TLS_PORT_NAME = "https"
#: The TLS listener's security policy. "Security policies for your Network Load Balancer" (Elastic Load Balancing,
#: Network Load Balancers guide, describe-ssl-policies.html) recommends ELBSecurityPolicy-TLS13-1-2-Res-PQ-2025-09: TLS
#: 1.3 and TLS 1.2 with hybrid post-quantum key exchange for clients that offer it and classical key exchange for the
#: others (earlier versions of the page recommended ELBSecurityPolicy-TLS13-1-2-2021-06, TLS 1.3 and 1.2). Without the
#: annotation the listener would get the API's default, ELBSecurityPolicy-2016-08, which still allows TLS 1.0.
TLS_SECURITY_POLICY = "ELBSecurityPolicy-TLS13-1-2-Res-PQ-2025-09"


def tls_annotations(certificate_arn: str) -> dict[str, str]:
    """The annotations that make the NLB's listener on the ``https`` port TLS with ``certificate_arn``."""
    return {
        "service.beta.kubernetes.io/aws-load-balancer-ssl-cert": certificate_arn,
        "service.beta.kubernetes.io/aws-load-balancer-ssl-ports": TLS_PORT_NAME,
        "service.beta.kubernetes.io/aws-load-balancer-ssl-negotiation-policy": TLS_SECURITY_POLICY,
    }


def add_vllm_service(
    scope: Construct, *, spec: VllmServingSpec, namespace: str, deployment: kplus.Deployment
) -> kplus.Service:
    """Add a LoadBalancer Service in front of ``deployment`` and return it."""
    return add_load_balancer_service(scope, spec=spec, namespace=namespace, selector=deployment)


def add_load_balancer_service(
    scope: Construct,
    *,
    spec: VllmServingSpec,
    namespace: str,
    selector: kplus.IPodSelector | None = None,
) -> kplus.Service:
    """The endpoint's LoadBalancer Service (NLB, internal unless public, TLS on 443 with a certificate), selecting
    ``selector``'s pods; without one, the caller selects by label (the LeaderWorkerSet's leaders)."""
    public = spec.endpoint.exposure is Exposure.PUBLIC
    annotations = dict(NLB_ANNOTATIONS) if public else {**NLB_ANNOTATIONS, **INTERNAL_ANNOTATIONS}
    if spec.endpoint.certificate_arn:
        annotations.update(tls_annotations(spec.endpoint.certificate_arn))
        # The load balancer terminates TLS on 443 and forwards plain TCP to the pod's API port; the NetworkPolicy admits
        # that port (the pod sees the traffic after kube-proxy's DNAT to the target port).
        port = kplus.ServicePort(
            port=spec.service_port,
            target_port=spec.port,
            name=TLS_PORT_NAME,
            protocol=kplus.Protocol.TCP,
        )
    else:
        port = kplus.ServicePort(
            port=spec.port, target_port=spec.port, name="http", protocol=kplus.Protocol.TCP
        )
    return kplus.Service(
        scope,
        "service",
        metadata=cdk8s.ApiObjectMetadata(
            name=spec.name,
            namespace=namespace,
            annotations=annotations,
            labels={"app.kubernetes.io/name": spec.name},
        ),
        type=kplus.ServiceType.LOAD_BALANCER,
        selector=selector,
        ports=[port],
        # Only a public endpoint gets source ranges; an internal one is reachable from the VPC alone.
        load_balancer_source_ranges=list(spec.endpoint.allowed_cidrs) if public else None,
    )
