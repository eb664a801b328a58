"""The NetworkPolicies of the vLLM pods: on the EKS path, traffic in on the API port only; on HyperPod, traffic in from
the VPC only (:func:`add_worker_network_policy`).

Where the traffic comes from. The Service is an NLB made by the AWS cloud provider, with instance targets: every node
receives it on the Service's node port (kubernetes/cloud-provider-aws@63ec440 pkg/providers/v1/aws_loadbalancer.go,
ensureTargetGroup, ``TargetTypeEnumInstance``), health checks on the traffic port from the load balancer's subnets
(aws.go, buildNLBHealthCheckConfiguration; aws_loadbalancer.go, updateInstanceSecurityGroupsForNLB with the subnet
CIDRs). The Service keeps the default ``externalTrafficPolicy: Cluster``, under which kube-proxy masquerades the client's
address ("Local" delivers "without masquerading the client source IP", Kubernetes 1.34 API, ServiceSpec): the pod sees
a node's address, inside the VPC's range. The allowed CIDRs of a public endpoint are admitted as well, so that the
policy still admits clients if the Service ever keeps their addresses (``Local``).

Everything else inbound is denied. The kubelet's probes still reach the pod: the VPC CNI's policy agent always admits
the node's own address (aws/aws-network-policy-agent#65). Egress is not restricted (``policyTypes: [Ingress]``): the
pod downloads from the Hugging Face Hub and S3 and resolves names through CoreDNS.

Enforced only where the vpc-cni add-on runs its network policy agent (``deployment_config.addons.VPC_CNI_CONFIGURATION``,
set by the cluster stack); with the VPC CNI, pods take VPC addresses, so the VPC range also admits other pods.
"""

from __future__ import annotations

import ipaddress

import cdk8s
import cdk8s_plus_28 as kplus
from constructs import Construct

from charts.recommended_labels import NETWORK_POLICY, recommended_labels
from charts.secrets_sync import add_plain_object
from charts.serving_spec import VllmServingSpec
from deployment_config.model import Exposure


def ingress_sources(spec: VllmServingSpec) -> tuple[str, ...]:
    """The ranges admitted to the API port: the VPC's, and a public endpoint's allowed CIDRs."""
    sources = [spec.vpc_cidr]
    if spec.endpoint.exposure is Exposure.PUBLIC:
        sources += [cidr for cidr in spec.endpoint.allowed_cidrs if cidr not in sources]
    return tuple(sources)


def add_vllm_network_policy(
    scope: Construct, *, spec: VllmServingSpec, namespace: str, deployment: kplus.Deployment
) -> kplus.NetworkPolicy:
    """Add a NetworkPolicy that selects ``deployment``'s pods (by the Deployment's own selector) and admits TCP on the
    API port from :func:`ingress_sources` only."""
    policy = kplus.NetworkPolicy(
        scope,
        "network-policy",
        metadata=cdk8s.ApiObjectMetadata(
            name=spec.name, namespace=namespace, labels=recommended_labels(spec, NETWORK_POLICY)
        ),
        selector=deployment,
        ingress=kplus.NetworkPolicyTraffic(default=kplus.NetworkPolicyTrafficDefault.DENY),
    )
    for index, cidr in enumerate(ingress_sources(spec)):
        block = (
            kplus.NetworkPolicyIpBlock.ipv6
            if ipaddress.ip_network(cidr).version == 6
            else kplus.NetworkPolicyIpBlock.ipv4
        )
        # The pod's own port, with or without TLS: the load balancer's traffic reaches the pod after kube-proxy's DNAT to
        # the Service's target port (spec.port), where the policy agent's probe on the pod's interface sees it. The EKS
        # user guide's consideration that a Service's port must equal the container's ("Restrict Pod network traffic",
        # considerations) concerns egress to a ClusterIP, resolved before DNAT: the controller adds ClusterIPs to egress
        # rules only (aws/amazon-network-policy-controller-k8s@ecc7e6a pkg/resolvers/endpoints.go,
        # computeEgressEndpoints and getMatchingServiceClusterIPs). With TLS the Service listens on 443 → 8000.
        policy.add_ingress_rule(
            block(policy, f"source-{index}", cidr_ip=cidr), [kplus.NetworkPolicyPort.tcp(spec.port)]
        )
    return policy


def add_ingress_policy(
    scope: Construct, *, spec: VllmServingSpec, pod_labels: dict[str, str], ingress: list[dict]
) -> cdk8s.ApiObject:
    """A NetworkPolicy named after the serving spec (plain Kubernetes JSON) that admits ``ingress`` to the pods with
    ``pod_labels``; egress unrestricted: the LeaderWorkerSet's (charts/vllm_leader_worker_set.py) and vLLM's behind
    the router (charts/vllm_router.py)."""
    return add_plain_object(
        scope,
        "network-policy",
        {
            "apiVersion": "networking.k8s.io/v1",
            "kind": "NetworkPolicy",
            "metadata": {
                "name": spec.name,
                "namespace": spec.namespace,
                "labels": recommended_labels(spec, NETWORK_POLICY),
            },
            "spec": {
                "podSelector": {"matchLabels": pod_labels},
                "policyTypes": ["Ingress"],
                "ingress": ingress,
            },
        },
    )


#: The label the HyperPod Inference Operator gives its worker pods: ``app`` = the InferenceEndpointConfig's name
#: (aws/sagemaker-hyperpod-cli@011ca92 src/sagemaker/hyperpod/inference/hp_endpoint.py, ``list_pods``: the SDK finds an
#: endpoint's pods among its namespace's by ``labels.get("app")`` == the endpoint's name).
WORKER_POD_LABEL = "app"


def worker_network_policy(*, endpoint_name: str, namespace: str, vpc_cidr: str) -> dict:
    """The NetworkPolicy of a HyperPod endpoint's worker pods (selected by :data:`WORKER_POD_LABEL`): inbound TCP from
    the VPC's range only, on every port; egress unrestricted.

    Every port, unlike the EKS path's policy, because the operator adds containers of its own to the worker pod (a
    metrics sidecar: the CRD's ``metricsStatus`` "from sidecar and model container") whose ports are not documented: a
    policy that admits only vLLM's port could cut them off. What it still does: the pods' VPC addresses are routable
    from wherever the VPC is (peered VPCs, a transit gateway, a VPN): without it a client there could reach vLLM's
    port directly, past the load balancer and its TLS. Every legitimate source is inside the VPC's range: the
    operator's ALB (in the VPC's subnets), the AMP managed scraper's network interfaces, the operator's and the
    observability add-on's pods (VPC CNI addresses), and the kubelet (the node's own address, always admitted by the
    VPC CNI's policy agent, aws/aws-network-policy-agent#65). Enforced by the vpc-cni add-on's network policy agent,
    which the cluster stack turns on for both platforms."""
    return {
        "apiVersion": "networking.k8s.io/v1",
        "kind": "NetworkPolicy",
        "metadata": {
            "name": f"{endpoint_name}-worker",
            "namespace": namespace,
            "labels": {
                "app.kubernetes.io/name": "vllm",
                "app.kubernetes.io/component": NETWORK_POLICY,
                "app.kubernetes.io/instance": endpoint_name,
            },
        },
        "spec": {
            "podSelector": {"matchLabels": {WORKER_POD_LABEL: endpoint_name}},
            "policyTypes": ["Ingress"],
            "ingress": [{"from": [{"ipBlock": {"cidr": vpc_cidr}}]}],
        },
    }
