"""Rules between sections: the model on the platform and its GPUs, the endpoint on the model and the GPU nodes, and the
budget's recipients."""

from __future__ import annotations

from collections.abc import Iterator

from deployment_config import aws_rules, image_cache, published, speculator
from deployment_config.catalog import MODEL_PRESETS
from deployment_config.cross_section_rules._issues import note as _note
from deployment_config.cross_section_rules.facts import autoscaled, gpu_nodes, placement
from deployment_config.errors import ConfigIssue, quoted
from deployment_config.file_models import (
    MAX_BUDGET_SUBSCRIBERS,
    VOLUME_HEADROOM_GB,
    promotion_gate_config,
)
from deployment_config.file_values import FileValues
from deployment_config.operator_releases import PINNED_OPERATOR
from deployment_config.promotion_gate import MAX_WAIT_SECONDS, wait_seconds
from deployment_config.sizing import startup_budget_seconds

# The model on the platform and its GPUs.


def weight_source(values: FileValues) -> Iterator[ConfigIssue]:
    model = values.section("model")
    if model.weight_source == "s3" and model.s3_uri is None:
        yield _note(
            "model.s3_uri",
            "is required when weight_source is s3",
            "add s3_uri: s3://BUCKET/PREFIX/ pointing at the copied weights",
        )
    if model.weight_source == "huggingface" and model.s3_uri is not None:
        yield _note(
            "model.s3_uri",
            "is set but weight_source is huggingface",
            "set weight_source: s3, or remove s3_uri",
        )
    if model.weight_source == "huggingface" and values.get("platform") == "hyperpod":
        # The pinned operator's CRD (3.1, charts/imports/crds/) has modelSourceType huggingface, but its
        # huggingFaceModel says only that the token "is injected as the HF_TOKEN environment variable into the
        # InitContainer only": not into which volume, of what size, that init container writes 1.4 TB. The S3
        # mirror's files were checked against the Hub's sha256 (ops_cli/weights.py); a download on the node is not.
        yield _note(
            "model.weight_source",
            f"is huggingface, but on HyperPod this project loads weights from S3 only: the Inference Operator "
            f"(operator {PINNED_OPERATOR.operator_version}) would download the Hub's 1.4 TB in an init container "
            "into a volume its CRD does not describe, unchecked against the Hub's hashes",
            "copy the weights to S3 once (docs/weights.md), then set weight_source: s3 and "
            "s3_uri: s3://BUCKET/PREFIX/ (and hugging_face_revision: the commit you copied)",
        )


def image_on_docker_hub(values: FileValues) -> Iterator[ConfigIssue]:
    model = values.section("model")
    image = model.image or MODEL_PRESETS[model.preset].image
    if model.image_cache is not None and image_cache.docker_hub_repository(image) is None:
        yield _note(
            "model.image_cache",
            f"the image {quoted(image)} is not on Docker Hub, and the pull-through cache serves Docker Hub only",
            "use a Docker Hub image (vllm/vllm-openai:TAG), or remove image_cache",
        )


def speculator_settings(values: FileValues) -> Iterator[ConfigIssue]:
    """The speculator's settings against model.features and the platform (deployment_config/speculator.py)."""
    model = values.section("model")
    if not (speculator.FEATURE in model.features and model.serving_profile == "recipe"):
        for name in ("speculator_revision", "speculator_size_gb"):
            if getattr(model, name) is not None:
                yield _note(
                    f"model.{name}",
                    f"is set but {speculator.FEATURE} is not in model.features "
                    "(serving_profile: recipe)",
                    f"remove it, or add {speculator.FEATURE} to model.features",
                )
        return
    if values.get("platform") == "hyperpod":
        yield _note(
            f"model.features[{model.features.index(speculator.FEATURE)}]",
            "spec_decoding is not offered on HyperPod: the Inference Operator mounts one S3 prefix (the "
            "weights' revision) into the worker, and the speculator is mirrored under its own prefix, which the "
            "worker cannot reach",
            "remove spec_decoding from model.features, or serve on EKS (platform: eks)",
        )
    if model.speculator_size_gb is None:
        yield _note(
            "model.speculator_size_gb",
            "is required with spec_decoding: the sizing and the startup budget count the speculator beside the "
            "weights, and no published figure gives its size",
            "set it to the speculator's size in GB (the sum of its files on the Hub, or what `llmops weights "
            "mirror` printed for it), rounded up",
        )
    # An S3 environment without speculator_revision loads (llmops weights mirror must read it to write the revision)
    # and is refused at deploy time instead (stacks/composition.py, cdk_constructs/placeholder_guard.py).


def model_fits(values: FileValues) -> Iterator[ConfigIssue]:
    yield from values.derived(placement).problems


def volume_holds_the_weights(values: FileValues) -> Iterator[ConfigIssue]:
    volume, weights = values.get("hyperpod.volume_size_gb"), values.derived(placement).weights_gb
    if volume is not None and volume < weights + VOLUME_HEADROOM_GB:
        yield _note(
            "hyperpod.volume_size_gb",
            f"{volume} GB cannot hold the {weights} GB of weights and the image",
            f"use at least {weights + VOLUME_HEADROOM_GB}, or remove it to use the instance store",
        )


# The endpoint on the platform, the model and the GPU nodes.


def replicas(values: FileValues) -> Iterator[ConfigIssue]:
    value = values.get("endpoint.replicas")
    if value is None:
        return
    if autoscaled(values):
        yield _note(
            "endpoint.replicas",
            "is decided by hyperpod.autoscaling (between its min_replicas and max_replicas)",
            "remove endpoint.replicas, or remove hyperpod.autoscaling for a fixed number of workers",
        )
        return
    field, nodes = gpu_nodes(values) or (None, None)
    # A model that fits no single node runs each replica on a group of nodes (deployment_config.sizing.layout_for).
    fitted = values.derived(placement)
    per_replica = (fitted.nodes_per_replica if fitted is not None else None) or 1
    if nodes is not None and value * per_replica > nodes and per_replica > 1:
        yield _note(
            "endpoint.replicas",
            f"{value} replicas need {value * per_replica} GPU nodes, {per_replica} each (the model fits no "
            f"single node), but {field} is {nodes}",
            f"use at most {nodes // per_replica} replicas (or leave replicas out: one on every "
            f"{per_replica} nodes), or reserve more instances",
        )
    elif nodes is not None and value > nodes:
        yield _note(
            "endpoint.replicas",
            f"{value} replicas need {value} GPU nodes, one each, but {field} is {nodes}",
            f"use at most {nodes} replicas (or leave replicas out: one on every node), or reserve more "
            "instances",
        )


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


def promotion_gate(values: FileValues) -> Iterator[ConfigIssue]:
    """The gate runs in the smoke stack, on EKS (deployment_config/promotion_gate.py), within a wait condition's 12
    hours, against a published row where it compares with one."""
    endpoint = values.section("endpoint")
    if endpoint.promotion_gate is None:
        return
    if values.get("platform") == "hyperpod":
        yield _note(
            "endpoint.promotion_gate",
            "is used on platform: eks only (the load test's Job reaches the Service "
            "vllm; HyperPod's worker has no stable in-cluster address, and the pipeline deploys no HyperPod "
            "environment)",
            "remove promotion_gate; run bin/llmops bench --env NAME by hand",
        )
        return
    if not endpoint.deploy_time_smoke_test:
        yield _note(
            "endpoint.promotion_gate",
            "runs in the stack of the deploy-time smoke test, which is off",
            "add deploy_time_smoke_test: true (and deploy once the capacity is active), or remove "
            "promotion_gate",
        )
    fitted = values.derived(placement)
    gate = endpoint.promotion_gate
    if fitted is not None and fitted.published_key is not None:
        hardware, profile, strategy, features = fitted.published_key
        key = published.serving_key(
            hardware=hardware,
            serving_profile=profile,
            strategy=strategy,
            features=features,
            input_len=gate.input_len,
            output_len=gate.output_len,
        )
        rows = published.rows_for(values.get("model.preset"), key)
        for index, run in enumerate(gate.runs):
            if run.within_percent_of_published is not None and run.concurrency not in rows:
                known = ", ".join(str(c) for c in sorted(rows)) or "none"
                yield _note(
                    f"endpoint.promotion_gate.runs[{index}].within_percent_of_published",
                    f"nothing is published for concurrency {run.concurrency} with {key.describe()} (published "
                    f"concurrencies for it: {known}; deployment_config/data/published/)",
                    "remove within_percent_of_published from this run, or use a concurrency, lengths and "
                    "model.features a published row has",
                )
    if fitted is not None:
        config = promotion_gate_config(gate)
        total = wait_seconds(startup_budget_seconds(fitted.weights_gb), config)
        if total > MAX_WAIT_SECONDS:
            yield _note(
                "endpoint.promotion_gate",
                f"the smoke test and the load test may take {total // 60} minutes (the startup budget, then "
                f"{config.load_test_seconds() // 60} for the runs at their min_output_tokens_per_s), more than "
                "the 12 hours a CloudFormation wait condition waits",
                "use fewer runs, fewer num_prompts or shorter lengths, or set min_output_tokens_per_s",
            )


def routing(values: FileValues) -> Iterator[ConfigIssue]:
    """A routing policy spreads requests over replicas: with one there is nothing to route (charts/vllm_router.py)."""
    endpoint = values.section("endpoint")
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
    if values.get("endpoint.authentication") == "api-key" and rust_frontend not in (None, "0"):
        # The key is checked by a middleware vLLM loads with --middleware, which its Rust frontend does not support
        # (charts/vllm_auth_middleware.py MIDDLEWARE_ENVIRONMENT): the endpoint would serve without the check.
        yield _note(
            "model.extra_env",
            "VLLM_USE_RUST_FRONTEND turns on vLLM's Rust frontend, which does not load the --middleware that "
            "checks the API key on every path (endpoint.authentication: api-key)",
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


def budget_notifies(values: FileValues) -> Iterator[ConfigIssue]:
    """The budget e-mails observability.alarm_emails only (cdk_constructs/budget_alarm.py: EMAIL subscribers, no SNS
    topic), so without one it would warn nobody; AWS Budgets takes at most 11 per notification."""
    value = values.get("observability.monthly_budget_usd")
    if value is None:
        return
    emails = values.get("observability.alarm_emails")
    if emails is not None and not emails:
        yield _note(
            "observability.monthly_budget_usd",
            f"a budget of {value:g} USD would notify nobody: it e-mails observability.alarm_emails, which is "
            "empty",
            "add observability.alarm_emails: [you@example.com] (AWS Budgets e-mails them at 80 % actual and "
            "100 % forecasted spend), or remove monthly_budget_usd",
        )
    elif len(emails or []) > MAX_BUDGET_SUBSCRIBERS:
        yield _note(
            "observability.monthly_budget_usd",
            f"the budget would notify {len(emails)} alarm_emails; AWS Budgets takes at most "
            f"{MAX_BUDGET_SUBSCRIBERS} subscribers per notification",
            f"list at most {MAX_BUDGET_SUBSCRIBERS} addresses, or subscribe a mailing list",
        )


def block_fee_on_eks(values: FileValues) -> Iterator[ConfigIssue]:
    """observability.block_fee_usd is a Capacity Block's fee: a training plan's is SageMaker's own (DescribeTrainingPlan
    UpfrontFee, read by the publisher and by llmops cost), so a second figure could only disagree with it."""
    value = values.get("observability.block_fee_usd")
    if value is not None and values.get("platform") == "hyperpod":
        yield _note(
            "observability.block_fee_usd",
            f"{value:g} USD is a Capacity Block's fee, and platform: hyperpod runs on a training plan, whose fee "
            "SageMaker returns (DescribeTrainingPlan UpfrontFee)",
            "remove block_fee_usd: the publisher and 'llmops cost --usage' read the training plan's fee",
        )


def next_block_fee(values: FileValues) -> Iterator[ConfigIssue]:
    """observability.next_block_fee_usd is the fee of capacity.next_capacity_reservation_id's block, so it needs that
    block; and with it the cost figures sum both blocks' shares, so the block in capacity_reservation_id needs its fee
    too (a sum that counted only the next block's would look complete and be short)."""
    value = values.get("observability.next_block_fee_usd")
    if value is None:
        return
    if values.get("capacity.next_capacity_reservation_id") is None:
        yield _note(
            "observability.next_block_fee_usd",
            f"{value:g} USD is the next Capacity Block's fee, and capacity.next_capacity_reservation_id names no "
            "next block",
            "add capacity.next_capacity_reservation_id: cr-... (the next block's reservation), or remove "
            "next_block_fee_usd",
        )
    elif values.get("observability.block_fee_usd") is None:
        yield _note(
            "observability.next_block_fee_usd",
            "is set without observability.block_fee_usd: the cost figures would count the next block's fee and "
            "leave out the block in capacity.capacity_reservation_id",
            "add block_fee_usd: the upfront fee of capacity.capacity_reservation_id's block, or remove "
            "next_block_fee_usd",
        )
