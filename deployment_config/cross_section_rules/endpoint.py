"""Rules between sections for the endpoint: its TLS, its routing over the replicas, its source networks, the key check
and what HyperPod's operator lets it be."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace

from deployment_config import aws_rules
from deployment_config.cross_section_rules._issues import note as _note
from deployment_config.cross_section_rules.facts import autoscaled, gpu_nodes, placement
from deployment_config.errors import ConfigIssue
from deployment_config.file_values import FileValues
from deployment_config.operator_releases import PINNED_OPERATOR


def tls(values: FileValues) -> Iterator[ConfigIssue]:
    """Both TLS fields or neither; a public EKS endpoint needs them; HyperPod's TLS is the operator's."""
    endpoint = values.section("endpoint")
    if values.get("platform") == "hyperpod":
        for field in ("certificate_arn", "domain_name"):
            if getattr(endpoint, field) is not None:
                yield _note(
                    f"endpoint.{field}",
                    "is used on platform: eks only; on HyperPod the Inference Operator "
                    "makes the load balancer and its TLS",
                    f"remove endpoint.{field}",
                )
        return
    if endpoint.certificate_arn is not None and endpoint.domain_name is None:
        yield _note(
            "endpoint.domain_name",
            "is required with certificate_arn: clients must connect by a name the "
            "certificate covers",
            "add domain_name: the name clients use (for example llm.example.com), covered by the certificate",
        )
    elif endpoint.domain_name is not None and endpoint.certificate_arn is None:
        yield _note(
            "endpoint.certificate_arn",
            "is required with domain_name: the load balancer needs the certificate for that name",
            "add certificate_arn: an ACM certificate for the name in the environment's account and region "
            "(`aws acm list-certificates` lists them), or remove domain_name",
        )
    elif endpoint.exposure == "public" and endpoint.certificate_arn is None:
        yield _note(
            "endpoint.certificate_arn",
            "a public endpoint needs TLS: without it the API key and every prompt "
            "cross the internet in clear text",
            "add certificate_arn (an ACM certificate in the environment's account and region) and domain_name "
            "(the name it covers, which clients use), or use exposure: internal",
        )


def routing(values: FileValues) -> Iterator[ConfigIssue]:
    """A routing policy spreads requests over replicas: with one there is nothing to route (charts/vllm_router.py).
    Reads the endpoint's routing and authentication alone (and the replicas where they count): a mistake elsewhere
    in the section leaves it judged."""
    endpoint = SimpleNamespace(
        **{f: values.get(f"endpoint.{f}") for f in ("routing", "authentication", "replicas")}
    )
    if endpoint.routing in ("auto", "none"):
        return
    keyed = endpoint.authentication == "api-key"
    if values.get("platform") == "hyperpod" and endpoint.routing != "cache_aware":
        # The CRD's routingStrategy enum is prefixaware, kvaware, session, roundrobin (charts/imports/crds/): a
        # round robin exists there, but the project maps only cache_aware (to prefixaware), and a power of two none.
        yield _note(
            "endpoint.routing",
            f"is {endpoint.routing}, but on platform: hyperpod the Inference Operator routes, and this project "
            "sets only its prefix-aware strategy (intelligentRoutingSpec.routingStrategy: prefixaware)",
            "use routing: auto or none"
            if keyed
            else "use routing: cache_aware (prefix-aware), auto or none",
        )
        return
    if values.get("platform") == "hyperpod" and keyed:
        # The operator's router is vLLM production-stack's (AWS's caching-and-routing page quotes its log line). It
        # adds a worker only once GET http://POD:PORT/v1/models answers, with a key only from the router's own
        # VLLM_API_KEY (vllm-project/production-stack@9931e67 src/vllm_router/service_discovery.py,
        # K8sPodIPServiceDiscovery._get_model_names and _on_engine_update); the CRD's intelligentRoutingSpec has no
        # field for the router's environment, and the key check answers 401 there: a router with no worker.
        yield _note(
            "endpoint.routing",
            "is cache_aware, but on platform: hyperpod the operator's router finds its workers with GET "
            "/v1/models and no API key, which the key check (endpoint.authentication: api-key) refuses: it would "
            "route every request to no worker",
            "use routing: auto or none (with the key required the load balancer spreads requests over the "
            "workers), or endpoint.authentication: none for an endpoint without a key",
        )
        return
    if autoscaled(values):
        # The operator scales between min_replicas and max_replicas; its router follows the workers, of which there
        # are never two with max_replicas: 1.
        top = values.get("hyperpod.autoscaling")["max_replicas"]
        if top < 2:
            yield _note(
                "endpoint.routing",
                f"is {endpoint.routing}, but hyperpod.autoscaling.max_replicas is {top}: the operator never runs "
                "two replicas to route over",
                "set hyperpod.autoscaling.max_replicas to 2 or more, or use routing: auto or none",
            )
        return
    if not values.ok("endpoint.replicas"):
        return  # its own mistake is reported; the count it would give is unknown
    _field, nodes = gpu_nodes(values) or (None, None)
    fitted = values.derived(placement)
    per_replica = (fitted.nodes_per_replica if fitted is not None else None) or 1
    replicas = endpoint.replicas or (nodes // per_replica if nodes else None)
    if replicas is not None and replicas < 2:
        yield _note(
            "endpoint.routing",
            f"is {endpoint.routing}, but the endpoint has {replicas} vLLM replica: a router spreads requests "
            "over two or more",
            "set endpoint.replicas to 2 or more (with enough GPU nodes), or use routing: auto (a router from "
            "two replicas on) or none",
        )


def allowed_cidrs(values: FileValues) -> Iterator[ConfigIssue]:
    endpoint = values.section("endpoint")
    for index, problem in aws_rules.allowed_cidrs_problems(endpoint.allowed_cidrs):
        field = "endpoint.allowed_cidrs" if index is None else f"endpoint.allowed_cidrs[{index}]"
        yield _note(field, problem.problem, problem.fix)
    if endpoint.exposure == "public" and not endpoint.allowed_cidrs:
        yield _note(
            "endpoint.allowed_cidrs",
            "a public endpoint needs the source networks allowed to reach it",
            "list them, for example allowed_cidrs: [203.0.113.0/24], or use exposure: internal",
        )
    if endpoint.exposure == "internal" and endpoint.allowed_cidrs:
        yield _note(
            "endpoint.allowed_cidrs",
            "is only used with exposure: public",
            "remove allowed_cidrs, or set exposure: public",
        )


def key_check_needs_the_python_frontend(values: FileValues) -> Iterator[ConfigIssue]:
    rust_frontend = (
        (values.get("model.extra_env") or {}).get("VLLM_USE_RUST_FRONTEND")
        if values.ok("model")
        else None
    )
    if (
        values.get("platform") == "hyperpod"
        and values.get("endpoint.authentication") == "api-key"
        and rust_frontend not in (None, "0")
    ):
        # On HyperPod, the one exception, the key is checked by a middleware vLLM loads with --middleware, which its
        # Rust frontend does not support (charts/vllm_auth_middleware/ MIDDLEWARE_ENVIRONMENT): the endpoint would
        # serve without the check. The operator's CRD gives the worker no sidecar. On EKS the check is in front of
        # vLLM (charts/key_proxy.py) and the Rust frontend runs.
        yield _note(
            "model.extra_env",
            "VLLM_USE_RUST_FRONTEND turns on vLLM's Rust frontend, which does not load the --middleware that "
            "checks the API key on every path (endpoint.authentication: api-key) on platform: hyperpod",
            "remove VLLM_USE_RUST_FRONTEND from model.extra_env (the chart turns it off while the key is "
            "required), or set endpoint.authentication: none for an endpoint without a key",
        )


def public_on_hyperpod(values: FileValues) -> Iterator[ConfigIssue]:
    if values.get("endpoint.exposure") == "public" and values.get("platform") == "hyperpod":
        # Operator 3.1's CRD has loadBalancer.healthCheckPath and routingAlgorithm only: no scheme, no inbound CIDRs
        # (charts/imports/crds/, v1 schema), so the operator's load balancer cannot be made public or restricted.
        yield _note(
            "endpoint.exposure",
            f"public is not available on platform: hyperpod: the Inference Operator the add-on installs "
            f"(operator {PINNED_OPERATOR.operator_version}) makes the load balancer itself, and its "
            "InferenceEndpointConfig has no field for the scheme or the source networks",
            "use exposure: internal (and no allowed_cidrs), and reach the endpoint from the VPC (a VPN, a "
            "peered VPC or a bastion); or use platform: eks for a public endpoint",
        )
