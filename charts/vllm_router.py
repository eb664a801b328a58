"""The router between the load balancer and two or more vLLM replicas on the EKS path: the vLLM project's router
(vllm-project/router, published as the PyPI package ``vllm-router`` and the image ``vllm/vllm-router``), with its
cache-aware policy and Kubernetes service discovery.

Why this router and not llm-d's inference scheduler (the Gateway API Inference Extension's endpoint picker):

- It is one Deployment, a Role and a NetworkPolicy in the serving namespace. The inference scheduler needs a Gateway
  API implementation (an Envoy-based gateway with its own controller and CRDs: Gateway, HTTPRoute, InferencePool)
  installed in the cluster and kept up to date; this cluster runs none, and its load balancer is the AWS cloud
  provider's NLB for a Service (charts/vllm_service.py), which stays as it is: it now selects the router's pods.
- It is the project whose engine serves the model, and it is published with a version on PyPI (0.1.17 here, the same
  code the tests run: tests/charts/test_vllm_router.py) and as a container image built from the same repository.

The image. The router's release pipeline pushes ``vllm/vllm-router:v<VERSION>`` to Docker Hub, a manifest list of the
x86_64 and aarch64 images (vllm-project/router@e0c942d .buildkite/scripts/publish-release-images.sh,
``DOCKERHUB_REPO="vllm/vllm-router"``, release tags ``latest`` and ``v${RELEASE_VERSION}``), built from
Dockerfile.router, whose command is the Rust binary ``vllm-router`` (vllm-project/router@0263c2c Dockerfile.router:
``COPY --from=rust-builder /app/target/release/vllm-router /usr/local/bin/vllm-router``). ``ROUTER_IMAGE``
(deployment_config/support_images.py) pins the tag of the release the tests run; its digest could not be read from here
(no registry access), and ``llmops preflight`` refuses the tag until it is pinned there with
``crane digest docker.io/vllm/vllm-router:v0.1.17`` (or ``docker buildx imagetools inspect``) as
``...:v0.1.17@sha256:DIGEST``. The arguments below are the ones both of the router's command lines accept, the Rust
binary's and the Python launcher's that the test runs (vllm-project/router@df71929 docs/cli_reference.md: "Their
options are similar, but they are not interchangeable"; ``--eviction-interval`` is spelled differently and is not used).

How it finds the vLLM pods: ``--service-discovery`` watches the pods of one namespace with the router's service account
(vllm-project/router@06127e3 src/service_discovery.rs: ``Api::namespaced`` and a kube-rs ``watcher``, which lists and
watches; ``Client::try_default`` reads the pod's service account token), keeps the pods that carry every label of
``--selector``, and adds ``http://POD_IP:--service-discovery-port`` once the pod is ``Running`` and ``Ready``
(``PodInfo::is_healthy``). So the Role grants ``get``, ``list`` and ``watch`` on pods in this namespace and nothing
else, and vLLM's readiness probe (``/health``, charts/vllm_deployment.py) decides when a replica gets requests.

When a vLLM pod fails: a pod that is deleted is removed from the router (``handle_pod_deletion``); one that stays but
stops answering is taken out by the router's own health checks (``--health-check-interval-secs`` and
``--health-failure-threshold``, on ``/health``, which the key check in front of vLLM leaves open) and its circuit breaker, and
a request that fails with 408/429/5xx is retried on another worker (the router README's "Retries and Circuit
Breakers"). The cache-aware policy's prefix tree is per router replica and in memory: a pod that leaves takes its
cache with it, and its prefixes are routed anew.

When a router replica fails: there are :data:`ROUTER_REPLICAS`, spread over the system nodes, behind the same NLB (its
target group checks the nodes' traffic port) and a PodDisruptionBudget keeps one while nodes drain. The replicas do
not share their prefix trees: each routes by what it has seen, so a prefix sent through both may be cached on two
vLLM replicas; a restarted replica starts with an empty tree and learns again.

What the cache-aware policy keys on: the 0.1.17 router asks a worker for the prompt's token ids (``POST /tokenize``,
after ``/v1/chat/completions/render`` or ``/v1/completions/render``, with the client's headers) and matches them
against a prefix tree per worker; with a long shared prefix the request goes to the worker that holds it, otherwise to
the least loaded one. Where a worker cannot prepare the ids in time the request is routed without the prefix (its log
says "Prefix input preparation unavailable"). Observed with the package in tests/charts/test_vllm_router.py, whose stand-ins
answer /tokenize as vLLM does.

The API key: the router forwards the client's headers, ``Authorization`` included, to the worker (vllm-project/router
@03e9af5 src/routers/http/router.rs, ``send_typed_request``: "Copy all headers from original request", except
Content-Type, Content-Length and trace headers), where the key check in front of vLLM compares it (Caddy,
charts/key_proxy.py); the router's own sidecar passes only the client paths and refuses the worker management ones
(``/add_worker``, ``/remove_worker``, ``/list_workers``…) with 403 whatever the key. tests/charts/test_key_proxy.py
runs the real router behind the real Caddy with the chart's Caddyfile. TLS stays where it is: the NLB terminates it and
forwards TCP to the sidecar's port, which is vLLM's port number.
"""

from __future__ import annotations

import cdk8s
from constructs import Construct

from charts.key_proxy import (
    BACKEND_PORT,
    CONFIG_VOLUME,
    LOOPBACK,
    STATE_VOLUME,
    add_key_proxy_config_map,
    key_proxy_container,
    pod_volumes,
    router_caddyfile,
)
from charts.recommended_labels import recommended_labels
from charts.secrets_sync import add_plain_object
from charts.serving_spec import VllmServingSpec
from charts.vllm_network_policy import add_ingress_policy, ingress_sources
from deployment_config.kubernetes_names import SYSTEM_NODE_LABELS
from deployment_config.support_images import ROUTER_IMAGE

#: The program the container runs. The image has no ENTRYPOINT, only ``CMD ["vllm-router", ...]``
#: (vllm-project/router@0263c2c Dockerfile.router), and a container's ``args`` replace the image's CMD: without this
#: command Kubernetes would run the first argument (``--host``) as the program.
ROUTER_COMMAND = ("vllm-router",)
#: The router's component label and the suffix of its objects' names.
ROUTER = "router"
ROUTER_REPLICAS = 2
#: Prometheus metrics: the router serves them on their own listener (``--prometheus-host``/``--prometheus-port``,
#: default 127.0.0.1:29000 in both command lines, vllm-project/router@df71929 docs/cli_reference.md).
ROUTER_METRICS_PORT = 29000
#: Health checks of the workers: every 10 s, out after 3 failures (the router's defaults are 60 s and 3).
HEALTH_CHECK_INTERVAL_SECONDS = 10


def router_name(spec: VllmServingSpec) -> str:
    return f"{spec.name}-{ROUTER}"


def router_pod_labels(spec: VllmServingSpec) -> dict[str, str]:
    """The router pods' labels: the recommended ones with the component ``router``, never the vLLM pods' selector."""
    return recommended_labels(spec, ROUTER)


def router_selector(spec: VllmServingSpec) -> dict[str, str]:
    return {"app.kubernetes.io/name": spec.name, "app.kubernetes.io/component": ROUTER}


def worker_selector(spec: VllmServingSpec) -> dict[str, str]:
    """The labels the router discovers vLLM's API servers by: the Deployment's pods carry the recommended labels
    (charts/vllm_serving_chart.py), the LeaderWorkerSet's leaders the same plus the leader role."""
    from charts.vllm_leader_worker_set import ROLE_LABEL

    selector = {
        "app.kubernetes.io/name": spec.name,
        "app.kubernetes.io/component": "inference-server",
    }
    return {**selector, ROLE_LABEL: "leader"} if spec.multi_node else selector


def router_args(spec: VllmServingSpec, policy: str) -> list[str]:
    """The router's arguments (every one accepted by both of its command lines)."""
    return [
        # the loopback only: clients reach the router through the key check's sidecar on spec.port (charts/key_proxy.py)
        "--host",
        LOOPBACK,
        "--port",
        str(BACKEND_PORT),
        "--policy",
        policy,
        "--service-discovery",
        "--service-discovery-namespace",
        spec.namespace,
        "--service-discovery-port",
        str(spec.port),
        "--selector",
        *(f"{key}={value}" for key, value in worker_selector(spec).items()),
        "--prometheus-host",
        "0.0.0.0",
        "--prometheus-port",
        str(ROUTER_METRICS_PORT),
        "--health-check-endpoint",
        "/health",
        "--health-check-interval-secs",
        str(HEALTH_CHECK_INTERVAL_SECONDS),
        # a stopping vLLM replica finishes what it runs within its drain; a request may take as long
        "--request-timeout-secs",
        str(max(1800, spec.endpoint.drain_seconds)),
        "--log-level",
        "info",
    ]


def add_router(scope: Construct, *, spec: VllmServingSpec, policy: str) -> list[cdk8s.ApiObject]:
    """The router's service account, Role and RoleBinding (pods: get, list, watch in the namespace), Deployment,
    PodDisruptionBudget and NetworkPolicy. The caller points the load balancer's Service at :func:`router_selector`
    and admits the router to vLLM's port (:func:`vllm_ingress_from_router`)."""
    name, namespace = router_name(spec), spec.namespace
    labels = router_pod_labels(spec)

    def plain(object_id: str, api_version: str, kind: str, **body: object) -> cdk8s.ApiObject:
        metadata = {"name": name, "namespace": namespace, "labels": labels}
        return add_plain_object(
            scope,
            object_id,
            {"apiVersion": api_version, "kind": kind, "metadata": metadata, **body},
        )

    # service discovery reads the pod's service account token (kube-rs Client::try_default)
    account = plain(
        "router-service-account", "v1", "ServiceAccount", automountServiceAccountToken=True
    )
    rbac = "rbac.authorization.k8s.io"
    role = plain(
        "router-role",
        f"{rbac}/v1",
        "Role",
        rules=[{"apiGroups": [""], "resources": ["pods"], "verbs": ["get", "list", "watch"]}],
    )
    binding = plain(
        "router-role-binding",
        f"{rbac}/v1",
        "RoleBinding",
        roleRef={"apiGroup": rbac, "kind": "Role", "name": name},
        subjects=[{"kind": "ServiceAccount", "name": name, "namespace": namespace}],
    )
    # the key check in front of the router: its client paths only, the worker management ones 403 (charts/key_proxy.py)
    key_proxy_name = f"{name}-key-proxy"
    key_proxy = add_key_proxy_config_map(
        scope,
        "router-key-proxy",
        name=key_proxy_name,
        namespace=namespace,
        caddyfile=router_caddyfile(port=spec.port, key_required=spec.endpoint.api_key_required),
    )
    container = {
        "name": ROUTER,
        "image": ROUTER_IMAGE,
        "command": list(ROUTER_COMMAND),
        "args": router_args(spec, policy),
        "ports": [{"name": "metrics", "containerPort": ROUTER_METRICS_PORT, "protocol": "TCP"}],
        # /liveness is the router's own (vllm-project/router@00edc4e src/server.rs), reached through the sidecar, which
        # passes it without a key (the kubelet cannot reach the loopback); the NLB checks TCP. A sidecar that is down
        # restarts the router too, which costs seconds (it keeps no state but its prefix trees).
        "livenessProbe": {
            "httpGet": {"path": "/liveness", "port": spec.port},
            "periodSeconds": 10,
            "failureThreshold": 3,
        },
        "readinessProbe": {
            "httpGet": {"path": "/liveness", "port": spec.port},
            "periodSeconds": 5,
            "failureThreshold": 2,
        },
        "resources": {"requests": {"cpu": "1", "memory": "1Gi"}, "limits": {"memory": "2Gi"}},
        "securityContext": {
            "allowPrivilegeEscalation": False,
            "readOnlyRootFilesystem": True,
            "runAsNonRoot": True,
            "runAsUser": 65532,
            "runAsGroup": 65532,
            "capabilities": {"drop": ["ALL"]},
        },
    }
    deployment = plain(
        "router-deployment",
        "apps/v1",
        "Deployment",
        spec={
            "replicas": ROUTER_REPLICAS,
            "selector": {"matchLabels": router_selector(spec)},
            "strategy": {
                "type": "RollingUpdate",
                "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0},
            },
            "template": {
                "metadata": {"labels": labels},
                "spec": {
                    "serviceAccountName": name,
                    "nodeSelector": dict(SYSTEM_NODE_LABELS),
                    # one replica per system node where there are two; both on one node where there is one
                    "topologySpreadConstraints": [
                        {
                            "maxSkew": 1,
                            "topologyKey": "kubernetes.io/hostname",
                            "whenUnsatisfiable": "ScheduleAnyway",
                            "labelSelector": {"matchLabels": router_selector(spec)},
                        }
                    ],
                    "securityContext": {"seccompProfile": {"type": "RuntimeDefault"}},
                    "containers": [
                        container,
                        key_proxy_container(
                            port=spec.port,
                            config_volume=CONFIG_VOLUME,
                            state_volume=STATE_VOLUME,
                            key_mount=None,
                        ),
                    ],
                    "volumes": pod_volumes(
                        key_proxy_name, config_volume=CONFIG_VOLUME, state_volume=STATE_VOLUME
                    ),
                },
            },
        },
    )
    budget = plain(
        "router-disruption-budget",
        "policy/v1",
        "PodDisruptionBudget",
        spec={"maxUnavailable": 1, "selector": {"matchLabels": router_selector(spec)}},
    )
    policy_object = plain(
        "router-network-policy",
        "networking.k8s.io/v1",
        "NetworkPolicy",
        spec={
            "podSelector": {"matchLabels": router_selector(spec)},
            "policyTypes": ["Ingress", "Egress"],
            "ingress": [
                # the load balancer's traffic, as it reached vLLM before (charts/vllm_network_policy.py says from where)
                {
                    "from": [{"ipBlock": {"cidr": cidr}} for cidr in ingress_sources(spec)],
                    "ports": [{"port": spec.port, "protocol": "TCP"}],
                },
                # the AMP managed scraper, whose network interfaces are in the VPC's subnets
                {
                    "from": [{"ipBlock": {"cidr": spec.vpc_cidr}}],
                    "ports": [{"port": ROUTER_METRICS_PORT, "protocol": "TCP"}],
                },
            ],
            "egress": router_egress(spec),
        },
    )
    return [account, role, binding, key_proxy, deployment, budget, policy_object]


#: The ranges EKS takes the Service CIDR from when the cluster names none (stacks/cluster_stack.py names none):
#: 10.100.0.0/16 or 172.20.0.0/16 ("Amazon EKS API reference", KubernetesNetworkConfigRequest ``serviceIpv4Cidr``:
#: "If you don't specify a block, Kubernetes assigns addresses from either the 10.100.0.0/16 or 172.20.0.0/16 CIDR
#: blocks").
EKS_SERVICE_CIDRS = ("10.100.0.0/16", "172.20.0.0/16")
KUBERNETES_API_PORT = 443


def router_egress(spec: VllmServingSpec) -> list[dict]:
    """Where the router may connect: the vLLM pods' API port, the cluster's DNS, and the Kubernetes API (its Service's
    ClusterIP, and the cluster's private endpoint, whose network interfaces are in the VPC).

    Why restrict it: a router that connects elsewhere would send clients' requests, with their ``Authorization``
    headers, there. The router answers ``/add_worker?url=...`` without a key (``authorize_request`` is a no-op without
    ``--api-key-validation-urls``, vllm-project/router@00edc4e src/server.rs); the sidecar in front of it refuses that
    path from outside the pod (charts/key_proxy.py), and this egress is the second line: a worker URL outside the vLLM
    pods, DNS and the Kubernetes API fails the router's health check (``Router::add_worker`` waits for a healthy
    answer, vllm-project/router@03e9af5 src/routers/http/router.rs). The Kubernetes API is TCP 443 in EKS's Service
    ranges and in the VPC, where the private endpoint's network interfaces have addresses not known at synthesis."""
    from charts.vllm_leader_worker_set import SET_NAME_LABEL

    workers = {SET_NAME_LABEL: spec.name} if spec.multi_node else worker_selector(spec)
    dns = {
        "namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "kube-system"}},
        "podSelector": {"matchLabels": {"k8s-app": "kube-dns"}},
    }
    return [
        {
            "to": [{"podSelector": {"matchLabels": workers}}],
            "ports": [{"port": spec.port, "protocol": "TCP"}],
        },
        {"to": [dns], "ports": [{"port": 53, "protocol": "UDP"}, {"port": 53, "protocol": "TCP"}]},
        {
            "to": [{"ipBlock": {"cidr": cidr}} for cidr in (*EKS_SERVICE_CIDRS, spec.vpc_cidr)],
            "ports": [{"port": KUBERNETES_API_PORT, "protocol": "TCP"}],
        },
    ]


def add_vllm_network_policy_behind_router(
    scope: Construct, *, spec: VllmServingSpec
) -> cdk8s.ApiObject:
    """The vLLM pods' NetworkPolicy with a router in front: the API port admits the router's pods, and the VPC's range
    for the AMP managed scraper only (it scrapes vLLM's ``/metrics`` on the API port, cdk_constructs/serving_metrics/,
    from network interfaces in the VPC's subnets, which no pod selector names). A public endpoint's allowed CIDRs are
    admitted by the router's policy, no longer by vLLM's. What they reach on that port is the key check in front of
    vLLM (charts/key_proxy.py), which requires the key on every path but /health and /metrics. A LeaderWorkerSet's
    pods also admit each other on every port, as charts/vllm_leader_worker_set.py's policy does."""
    from charts.vllm_leader_worker_set import SET_NAME_LABEL

    selector = {SET_NAME_LABEL: spec.name} if spec.multi_node else worker_selector(spec)
    ingress = [
        {
            "from": [
                {"podSelector": {"matchLabels": router_selector(spec)}},
                {"ipBlock": {"cidr": spec.vpc_cidr}},
            ],
            "ports": [{"port": spec.port, "protocol": "TCP"}],
        }
    ]
    if spec.multi_node:
        ingress.append({"from": [{"podSelector": {"matchLabels": selector}}]})
    return add_ingress_policy(scope, spec=spec, pod_labels=selector, ingress=ingress)
