"""Cache-aware routing in front of two or more replicas: the EKS chart's router objects (charts/vllm_router.py), the
configuration that asks for it (endpoint.routing), and HyperPod's intelligentRoutingSpec. The router itself runs in
tests/charts/test_vllm_router.py."""

from __future__ import annotations

import dataclasses
import re

import kubernetes_validate
import pytest
import yaml

from cdk_constructs.serving_metrics import ROUTER_JOB, VLLM_JOB, scrape_configuration
from charts.inference_endpoint_chart import (
    inference_endpoint_spec_for,
    synthesize_inference_endpoint,
)
from charts.key_proxy import CONTAINER as KEY_PROXY
from charts.serving_spec import serving_spec_for
from charts.vllm_network_policy import ingress_sources
from charts.vllm_router import ROUTER_METRICS_PORT, router_selector
from charts.vllm_serving_chart import synthesize_manifests
from deployment_config import ConfigError, parse_environment
from deployment_config.kubernetes_names import SYSTEM_NODE_LABELS
from deployment_config.model import Exposure
from deployment_config.support_images import ROUTER_IMAGE
from stacks.observability_stack import router_metrics_port
from tests.charts.test_serving_chart import CERTIFICATE, PUBLIC_CIDRS
from tests.conftest import CONFIG_DIR
from tests.crd_schema import validate_custom_resource

ROUTER_KINDS = {"Role", "RoleBinding", "PodDisruptionBudget"}


def _named(objects: list[dict], kind: str, name: str) -> dict:
    (obj,) = [o for o in objects if o["kind"] == kind and o["metadata"]["name"] == name]
    return obj


def _matches(selector: dict[str, str], labels: dict[str, str]) -> bool:
    return all(labels.get(key) == value for key, value in selector.items())


@pytest.fixture(scope="module")
def two_replicas(example_document) -> tuple[list[dict], object]:
    """A public TLS endpoint on a reservation of two nodes (two replicas: routing auto puts the router in front)."""
    document = {
        **example_document,
        "capacity": {**example_document["capacity"], "instance_count": 2},
    }
    env = parse_environment(document, name="two")
    endpoint = env.endpoint.model_copy(
        update={
            "exposure": Exposure.PUBLIC,
            "allowed_cidrs": PUBLIC_CIDRS,
            "certificate_arn": CERTIFICATE,
            "domain_name": "llm.example.com",
        }
    )
    env = dataclasses.replace(env, endpoint=endpoint)
    return synthesize_manifests(serving_spec_for(env)), env


def test_one_replica_gets_no_router_and_the_load_balancer_reaches_vllm_as_before(default_env):
    # given the default example: one node, one replica, routing auto
    assert default_env.replicas == 1 and serving_spec_for(default_env).router_policy is None
    objects = synthesize_manifests(serving_spec_for(default_env))
    # then nothing of the router is rendered
    assert not any(
        o["metadata"].get("labels", {}).get("app.kubernetes.io/component") == "router"
        for o in objects
    )
    assert not {o["kind"] for o in objects} & ROUTER_KINDS
    # and the Service selects vLLM's pods, whose policy admits the load balancer's sources as before
    deployment, service = _named(objects, "Deployment", "vllm"), _named(objects, "Service", "vllm")
    assert service["spec"]["selector"] == deployment["spec"]["selector"]["matchLabels"]
    (rule,) = _named(objects, "NetworkPolicy", "vllm")["spec"]["ingress"]
    assert [peer["ipBlock"]["cidr"] for peer in rule["from"]] == list(
        ingress_sources(serving_spec_for(default_env))
    )


def test_routing_none_keeps_the_load_balancer_in_front_of_two_replicas(example_document):
    document = {
        **example_document,
        "capacity": {**example_document["capacity"], "instance_count": 2},
        "endpoint": {**example_document.get("endpoint", {}), "routing": "none"},
    }
    env = parse_environment(document, name="plain")
    assert env.replicas == 2 and serving_spec_for(env).router_policy is None


def test_two_replicas_put_the_router_between_the_load_balancer_and_vllm(two_replicas):
    objects, env = two_replicas
    # every object is valid for the cluster's Kubernetes version
    for obj in objects:
        if obj["apiVersion"].split("/")[0] in (
            "v1",
            "apps",
            "rbac.authorization.k8s.io",
            "policy",
            "networking.k8s.io",
        ):
            kubernetes_validate.validate(obj, env.kubernetes_version, strict=True)
    router = _named(objects, "Deployment", "vllm-router")
    vllm = _named(objects, "Deployment", "vllm")
    template = router["spec"]["template"]
    # the router: two replicas or more, on the system nodes, the vLLM project's image, cache-aware
    assert router["spec"]["replicas"] >= 2
    assert template["spec"]["nodeSelector"] == dict(SYSTEM_NODE_LABELS)
    # the router and, in front of it, the key check (charts/key_proxy.py): only the key check listens on the pod's port
    containers = {c["name"]: c for c in template["spec"]["containers"]}
    assert set(containers) == {"router", KEY_PROXY}
    container = containers["router"]
    assert containers[KEY_PROXY]["ports"][0]["containerPort"] == 8000
    assert container["image"] == ROUTER_IMAGE
    args = container["args"]
    assert args[args.index("--policy") + 1] == "cache_aware"
    # it discovers exactly the vLLM pods of its namespace on vLLM's port, never itself
    selector = dict(
        a.split("=", 1) for a in args[args.index("--selector") + 1 :] if "=" in a and "--" not in a
    )
    assert _matches(selector, vllm["spec"]["template"]["metadata"]["labels"])
    assert not _matches(selector, template["metadata"]["labels"])
    assert args[args.index("--service-discovery-namespace") + 1] == env_namespace(objects)
    assert args[args.index("--service-discovery-port") + 1] == "8000"
    # the load balancer keeps its name, port, TLS and source ranges, and now selects the router's pods
    service = _named(objects, "Service", "vllm")
    assert service["spec"]["selector"] == router_selector_of(objects)
    assert _matches(service["spec"]["selector"], template["metadata"]["labels"])
    assert not _matches(service["spec"]["selector"], vllm["spec"]["template"]["metadata"]["labels"])
    assert service["spec"]["ports"] == [
        {"name": "https", "port": 443, "protocol": "TCP", "targetPort": 8000}
    ]
    annotations = service["metadata"]["annotations"]
    assert annotations["service.beta.kubernetes.io/aws-load-balancer-ssl-cert"] == CERTIFICATE
    assert service["spec"]["loadBalancerSourceRanges"] == list(PUBLIC_CIDRS)
    # a PodDisruptionBudget keeps a router while system nodes drain
    assert _named(objects, "PodDisruptionBudget", "vllm-router")["spec"]["maxUnavailable"] == 1


def env_namespace(objects: list[dict]) -> str:
    return _named(objects, "Deployment", "vllm")["metadata"]["namespace"]


def router_selector_of(objects: list[dict]) -> dict[str, str]:
    return _named(objects, "Deployment", "vllm-router")["spec"]["selector"]["matchLabels"]


def test_the_router_may_only_read_pods_of_its_own_namespace(two_replicas):
    objects, _env = two_replicas
    role, binding = (
        _named(objects, "Role", "vllm-router"),
        _named(objects, "RoleBinding", "vllm-router"),
    )
    assert role["rules"] == [
        {"apiGroups": [""], "resources": ["pods"], "verbs": ["get", "list", "watch"]}
    ]
    assert role["metadata"]["namespace"] == env_namespace(objects)
    assert binding["roleRef"] == {
        "apiGroup": "rbac.authorization.k8s.io",
        "kind": "Role",
        "name": "vllm-router",
    }
    assert binding["subjects"] == [
        {"kind": "ServiceAccount", "name": "vllm-router", "namespace": env_namespace(objects)}
    ]
    assert not any(o["kind"] in ("ClusterRole", "ClusterRoleBinding") for o in objects)
    router = _named(objects, "Deployment", "vllm-router")
    assert router["spec"]["template"]["spec"]["serviceAccountName"] == "vllm-router"
    # vLLM's own service account still gets no token
    assert _named(objects, "ServiceAccount", "vllm")["automountServiceAccountToken"] is False


def test_the_load_balancers_sources_reach_the_router_and_only_the_router_and_the_scraper_reach_vllm(
    two_replicas,
):
    objects, env = two_replicas
    spec = serving_spec_for(env)
    router_policy = _named(objects, "NetworkPolicy", "vllm-router")["spec"]
    vllm_policy = _named(objects, "NetworkPolicy", "vllm")["spec"]
    router_labels = _named(objects, "Deployment", "vllm-router")["spec"]["template"]["metadata"][
        "labels"
    ]
    vllm_labels = _named(objects, "Deployment", "vllm")["spec"]["template"]["metadata"]["labels"]
    assert _matches(router_policy["podSelector"]["matchLabels"], router_labels)
    assert _matches(vllm_policy["podSelector"]["matchLabels"], vllm_labels)
    # the router: the load balancer's sources (the VPC and the public CIDRs) on the API port, the scraper on metrics
    api, metrics = router_policy["ingress"]
    assert [p["ipBlock"]["cidr"] for p in api["from"]] == list(ingress_sources(spec))
    assert api["ports"] == [{"port": 8000, "protocol": "TCP"}]
    assert metrics == {
        "from": [{"ipBlock": {"cidr": env.vpc_cidr}}],
        "ports": [{"port": ROUTER_METRICS_PORT, "protocol": "TCP"}],
    }
    # vLLM: the router's pods and the VPC's range (the AMP scraper reads /metrics on the API port); no public CIDR
    (rule,) = vllm_policy["ingress"]
    assert rule["ports"] == [{"port": 8000, "protocol": "TCP"}]
    assert {"podSelector": {"matchLabels": router_selector(spec)}} in rule["from"]
    cidrs = [peer["ipBlock"]["cidr"] for peer in rule["from"] if "ipBlock" in peer]
    assert cidrs == [env.vpc_cidr] and not set(cidrs) & set(PUBLIC_CIDRS)
    # the router connects to the vLLM pods' API port, DNS and the Kubernetes API only
    assert "Egress" in router_policy["policyTypes"]
    to_vllm, dns, kubernetes_api = router_policy["egress"]
    assert _matches(to_vllm["to"][0]["podSelector"]["matchLabels"], vllm_labels)
    assert not _matches(to_vllm["to"][0]["podSelector"]["matchLabels"], router_labels)
    assert to_vllm["ports"] == [{"port": 8000, "protocol": "TCP"}]
    assert {p["port"] for p in dns["ports"]} == {53}
    assert kubernetes_api["ports"] == [{"port": 443, "protocol": "TCP"}]


def test_what_the_policies_admit_on_8000_is_the_key_check_and_the_backends_listen_on_the_loopback_only(
    two_replicas,
):
    # given the routed layout: the NetworkPolicies admit port 8000 only (the test above says from where)
    objects, _ = two_replicas
    admitted = {
        port["port"]
        for name in ("vllm", "vllm-router")
        for rule in _named(objects, "NetworkPolicy", name)["spec"]["ingress"]
        for port in rule.get("ports", [])
    }
    assert admitted == {8000, ROUTER_METRICS_PORT}
    for name, backend in (("vllm", "vllm"), ("vllm-router", "router")):
        containers = {
            c["name"]: c
            for c in _named(objects, "Deployment", name)["spec"]["template"]["spec"]["containers"]
        }
        # then on each pod the one container with port 8000 is the key check (charts/key_proxy.py)
        with_8000 = [
            c
            for c, spec in containers.items()
            if 8000 in [p["containerPort"] for p in spec.get("ports", [])]
        ]
        assert with_8000 == [KEY_PROXY]
        # and vLLM and the router listen on 127.0.0.1:8001 only: no other pod, the scraper or the VPC can reach them
        # past the key check, whatever a policy admits
        args = containers[backend]["args"]
        assert args[args.index("--host") + 1] == "127.0.0.1"
        assert args[args.index("--port") + 1] == "8001"


@pytest.mark.parametrize("routing", ["cache_aware", "power_of_two", "round_robin"])
def test_a_routing_policy_with_one_replica_is_one_clear_error(example_copy, routing):
    # given one GPU node (one replica) and a router policy asked for
    example_copy["endpoint"] = {**example_copy.get("endpoint", {}), "routing": routing}
    with pytest.raises(ConfigError) as error:
        parse_environment(example_copy, name="one")
    (issue,) = error.value.issues
    # then one message names the field, what is wrong and the fix
    assert issue.field == "endpoint.routing"
    assert "1 vLLM replica" in issue.problem and "endpoint.replicas to 2 or more" in issue.fix


def test_an_unknown_routing_is_refused(example_copy):
    example_copy["endpoint"] = {**example_copy.get("endpoint", {}), "routing": "prefix"}
    with pytest.raises(ConfigError) as error:
        parse_environment(example_copy, name="unknown")
    assert [issue.field for issue in error.value.issues] == ["endpoint.routing"]


def test_a_routing_policy_with_two_replicas_is_the_routers(example_copy):
    example_copy["capacity"]["instance_count"] = 2
    example_copy["endpoint"] = {**example_copy.get("endpoint", {}), "routing": "power_of_two"}
    env = parse_environment(example_copy, name="two")
    assert serving_spec_for(env).router_policy == "power_of_two"


# --- HyperPod: the operator routes -----------------------------------------------------------------------------------


def _endpoint_config(env) -> dict:
    (obj,) = [
        o
        for o in synthesize_inference_endpoint(inference_endpoint_spec_for(env))
        if o["kind"] == "InferenceEndpointConfig"
    ]
    return obj


def test_hyperpod_with_one_worker_sets_no_intelligent_routing(hyperpod_env):
    assert hyperpod_env.replicas == 1
    assert "intelligentRoutingSpec" not in _endpoint_config(hyperpod_env)["spec"]


def _open(env):
    """``env`` without the API key (endpoint.authentication: none)."""
    return dataclasses.replace(
        env, endpoint=env.endpoint.model_copy(update={"authentication": "none"})
    )


def test_hyperpod_with_two_workers_routes_by_prefix_valid_against_the_crd(hyperpod_env):
    # given a HyperPod endpoint with two workers and no API key
    env = dataclasses.replace(
        _open(hyperpod_env),
        hyperpod=hyperpod_env.hyperpod.model_copy(update={"instance_count": 2}),
        endpoint=_open(hyperpod_env).endpoint.model_copy(update={"replicas": 2}),
    )
    endpoint = _endpoint_config(env)
    # then the operator's prefix-aware routing is on, and the object is valid against the vendored operator 3.1 CRD
    assert endpoint["spec"]["intelligentRoutingSpec"] == {
        "enabled": True,
        "routingStrategy": "prefixaware",
    }
    assert "kvCacheSpec" not in endpoint["spec"]
    validate_custom_resource(endpoint)


def test_hyperpod_routing_does_not_change_when_the_workers_go_from_one_to_two(hyperpod_env):
    # given a group of two instances serving one worker, then two (the operator refuses intelligent routing added to an
    # existing endpoint, so the setting must not follow the replicas)
    group = hyperpod_env.hyperpod.model_copy(update={"instance_count": 2})
    one, two = (
        _endpoint_config(
            dataclasses.replace(
                _open(hyperpod_env),
                hyperpod=group,
                endpoint=_open(hyperpod_env).endpoint.model_copy(update={"replicas": replicas}),
            )
        )["spec"].get("intelligentRoutingSpec")
        for replicas in (1, 2)
    )
    # then both deploys carry the same routing, so scaling up is an update the operator accepts
    assert one == two == {"enabled": True, "routingStrategy": "prefixaware"}


def test_hyperpod_routing_none_sets_no_intelligent_routing(hyperpod_env):
    env = dataclasses.replace(
        hyperpod_env,
        endpoint=hyperpod_env.endpoint.model_copy(update={"replicas": 2, "routing": "none"}),
    )
    assert "intelligentRoutingSpec" not in _endpoint_config(env)["spec"]


def test_hyperpod_refuses_a_policy_only_the_eks_router_has():
    document = yaml.safe_load((CONFIG_DIR / "example-hyperpod.yaml").read_text())
    document["endpoint"] = {
        **document.get("endpoint", {}),
        "routing": "power_of_two",
        "authentication": "none",
    }
    with pytest.raises(ConfigError) as error:
        parse_environment(document, name="hp")
    (issue,) = error.value.issues
    assert issue.field == "endpoint.routing" and "platform: hyperpod" in issue.problem
    assert "routing: cache_aware" in issue.fix


def test_hyperpod_with_the_key_required_leaves_routing_to_the_load_balancer(hyperpod_env):
    # given a HyperPod endpoint on two instances that requires the API key (the example's default), routing auto
    assert hyperpod_env.endpoint.api_key_required and hyperpod_env.endpoint.routing == "auto"
    env = dataclasses.replace(
        hyperpod_env,
        hyperpod=hyperpod_env.hyperpod.model_copy(update={"instance_count": 2}),
        endpoint=hyperpod_env.endpoint.model_copy(update={"replicas": 2}),
    )
    # then no intelligent routing: the operator's router would find its workers with GET /v1/models and no key,
    # get 401 from the key check, and route to no worker; the load balancer spreads over both workers instead
    endpoint = _endpoint_config(env)
    assert "intelligentRoutingSpec" not in endpoint["spec"]
    assert endpoint["spec"]["replicas"] == 2


@pytest.mark.parametrize("routing", ["cache_aware", "power_of_two"])
def test_hyperpod_refuses_an_explicit_router_while_the_key_is_required(routing):
    # given the HyperPod example (API key required) on two instances with an explicit routing policy
    document = yaml.safe_load((CONFIG_DIR / "example-hyperpod.yaml").read_text())
    document["hyperpod"]["instance_count"] = 2
    document["endpoint"] = {**document.get("endpoint", {}), "routing": routing}
    # when it is loaded
    with pytest.raises(ConfigError) as error:
        parse_environment(document, name="hp")
    # then one clear message on endpoint.routing, whose fix does not lead to another refusal
    (issue,) = error.value.issues
    assert issue.field == "endpoint.routing" and "platform: hyperpod" in issue.problem
    assert "routing: auto or none" in issue.fix and "routing: cache_aware" not in issue.fix
    if routing == "cache_aware":
        assert "GET /v1/models" in issue.problem and "endpoint.authentication: none" in issue.fix


def test_hyperpod_takes_cache_aware_routing_without_the_key():
    document = yaml.safe_load((CONFIG_DIR / "example-hyperpod.yaml").read_text())
    document["hyperpod"]["instance_count"] = 2
    document["endpoint"] = {
        **document.get("endpoint", {}),
        "routing": "cache_aware",
        "authentication": "none",
    }
    env = parse_environment(document, name="hp")
    assert _endpoint_config(env)["spec"]["intelligentRoutingSpec"] == {
        "enabled": True,
        "routingStrategy": "prefixaware",
    }


# --- metrics: the same scraper reads the router --------------------------------------------------------------------


def _kept(job: dict, target: dict[str, str]) -> bool:
    """Prometheus's keep and drop relabelling of one discovered target: the source labels joined with ';' against the
    fully anchored regex (Prometheus documentation, "relabel_config")."""
    for rule in job["relabel_configs"]:
        if rule["action"] not in ("keep", "drop"):
            continue
        value = ";".join(target.get(label, "") for label in rule["source_labels"])
        matched = re.fullmatch(rule["regex"], value) is not None
        if matched != (rule["action"] == "keep"):
            return False
    return True


def _pod_targets(objects: list[dict]) -> dict[tuple[str, int], dict[str, str]]:
    """What the scraper's pod discovery sees: one target per declared container port, with the pod's labels."""
    targets = {}
    for deployment in (o for o in objects if o["kind"] == "Deployment"):
        template = deployment["spec"]["template"]
        labels = {
            f"__meta_kubernetes_pod_label_{re.sub(r'[^a-zA-Z0-9_]', '_', k)}": v
            for k, v in template["metadata"]["labels"].items()
        }
        for container in template["spec"]["containers"]:
            for port in container.get("ports", []):
                targets[(deployment["metadata"]["name"], port["containerPort"])] = {
                    **labels,
                    "__meta_kubernetes_pod_container_port_number": str(port["containerPort"]),
                }
    return targets


def test_the_scraper_reads_the_router_on_its_metrics_port_and_each_vllm_replica_once(two_replicas):
    objects, env = two_replicas
    spec = serving_spec_for(env)
    config = yaml.safe_load(
        scrape_configuration(
            namespace=spec.namespace, port=spec.port, router_metrics_port=router_metrics_port(spec)
        )
    )
    jobs = {job["job_name"]: job for job in config["scrape_configs"]}
    targets = _pod_targets(objects)
    # the router's pods declare vLLM's port number too: only the router job scrapes them, on the metrics port
    assert {key for key, target in targets.items() if _kept(jobs[VLLM_JOB], target)} == {
        ("vllm", 8000)
    }
    assert {key for key, target in targets.items() if _kept(jobs[ROUTER_JOB], target)} == {
        ("vllm-router", ROUTER_METRICS_PORT)
    }
    # and the router's Prometheus listener is the one its arguments open, on every interface
    (container,) = [
        c
        for c in _named(objects, "Deployment", "vllm-router")["spec"]["template"]["spec"][
            "containers"
        ]
        if c["name"] == "router"
    ]
    args = container["args"]
    assert args[args.index("--prometheus-port") + 1] == str(ROUTER_METRICS_PORT)
    assert args[args.index("--prometheus-host") + 1] == "0.0.0.0"


def test_without_a_router_the_scrape_configuration_is_unchanged(default_env):
    spec = serving_spec_for(default_env)
    assert router_metrics_port(spec) is None
    assert scrape_configuration(
        namespace=spec.namespace, port=spec.port, router_metrics_port=None
    ) == scrape_configuration(namespace=spec.namespace, port=spec.port)
