"""The rules between the fields of a configuration file: one entry per rule, each naming the fields it reads.

They run after every field has passed or failed its own validation (:mod:`deployment_config.file_values` runs them and
places their messages); a rule whose inputs failed is skipped, so every mistake of a file is still reported at once,
and no rule depends on the order in which the sections are declared. The rules of one field alone (a type, a pattern,
a range) stay on the section models.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator
from dataclasses import dataclass

from deployment_config import aws_rules, image_cache, published, recipe, speculator
from deployment_config.catalog import GPU_INSTANCE_TYPES, MODEL_PRESETS, GpuInstanceType
from deployment_config.errors import ConfigError, ConfigIssue, Problem, quoted
from deployment_config.file_models import (
    CERTIFICATE_ID,
    HYPERPOD_KUBERNETES_VERSIONS,
    MAX_BUDGET_SUBSCRIBERS,
    PRIVATE_SUBNET_PREFIX,
    PUBLIC_SUBNET_PREFIX,
    SECRET_ARN_RESOURCE,
    SECRET_NAME,
    TRAINING_PLAN_RESOURCE,
    VOLUME_HEADROOM_GB,
    promotion_gate_config,
    vpc_addresses_needed,
)
from deployment_config.file_values import FileValues, Rule
from deployment_config.operator_releases import PINNED_OPERATOR
from deployment_config.promotion_gate import MAX_WAIT_SECONDS, wait_seconds
from deployment_config.sizing import check_model_fits, layout_for, startup_budget_seconds


def _refuse(field: str, problem: Problem | None) -> Iterator[ConfigIssue]:
    if problem is not None:
        yield ConfigIssue(field, problem.problem, problem.fix)


def _note(field: str, problem: str, fix: str) -> ConfigIssue:
    return ConfigIssue(field, problem, fix)


# Facts several rules read, derived from the validated values.

def valid_zones(values: FileValues) -> tuple[str, ...] | None:
    """The VPC's zones when the region and every zone are valid (each of the region, none twice), else None."""
    region, zones = values.get("region"), values.get("availability_zones")
    if region is None or zones is None:
        return None
    if any(aws_rules.zone_problem(zone, region=region) or zone in zones[:index] for index, zone in enumerate(zones)):
        return None
    return tuple(zones)


def gpu_type(values: FileValues) -> tuple[str, GpuInstanceType, str] | None:
    """(the field that chose it, the GPU instance type, how that field spells types) of the valid GPU type; the HyperPod
    section's when both sections are given (the platform rule refuses one of them)."""
    hyperpod_type = values.get("hyperpod.instance_type")
    if hyperpod_type is not None:
        return "hyperpod.instance_type", GPU_INSTANCE_TYPES[hyperpod_type.removeprefix("ml.")], "ml."
    capacity_type = values.get("capacity.instance_type")
    if capacity_type is not None:
        return "capacity.instance_type", GPU_INSTANCE_TYPES[capacity_type], ""
    return None


def gpu_nodes(values: FileValues) -> tuple[str, int] | None:
    """(field, count) of the GPU nodes of the platform's own valid section."""
    platform = values.get("platform")
    for section, owner in (("capacity", "eks"), ("hyperpod", "hyperpod")):
        if platform == owner and values.ok(section) and values.get(section) is not None:
            return f"{section}.instance_count", values.get(f"{section}.instance_count")
    return None


def autoscaled(values: FileValues) -> bool:
    """The HyperPod workers are scaled by the operator (a valid hyperpod.autoscaling)."""
    return values.ok("hyperpod.autoscaling") and values.get("hyperpod.autoscaling") is not None


@dataclass(frozen=True)
class Placement:
    """What a valid model section comes to on the chosen GPUs."""

    weights_gb: int
    speculator_gb: int
    #: (hardware, serving profile, strategy, features) of deployment_config/published.py; None without a GPU type.
    published_key: tuple | None
    #: GPU nodes per replica of a model that fits no single node (EKS); None for one node.
    nodes_per_replica: int | None
    #: the refused features, then the sizing's mistakes
    problems: tuple[ConfigIssue, ...]


def placement(values: FileValues) -> Placement | None:
    """The model's placement (recipe, sizing, layout) when the model section is valid, else None."""
    model = values.section("model") if values.ok("model") else None
    if model is None:
        return None
    preset = MODEL_PRESETS[model.preset]
    weights = model.weight_size_gb or preset.weight_size_gb
    enabled = speculator.FEATURE in model.features and model.serving_profile == "recipe"
    speculator_gb = (model.speculator_size_gb or 0) if enabled else 0
    chosen = gpu_type(values)
    if chosen is None:
        return Placement(weights, speculator_gb, None, None, ())
    field, instance_type, prefix = chosen
    # On EKS a model instance may span several nodes (a LeaderWorkerSet); HyperPod serves one node per instance.
    nodes = gpu_nodes(values) or (None, None)
    node_count = nodes[1] if nodes[0] == "capacity.instance_count" else None
    resolution = recipe.resolve(preset=model.preset, serving_profile=model.serving_profile, features=model.features,
                                instance_type=instance_type, weights_gb=weights, multi_node=node_count is not None,
                                load_format=preset.load_format, extra_args=model.extra_args,
                                speculator_gb=speculator_gb)
    problems = [_note(f"model.features[{index}]", problem.problem, problem.fix) for index, problem in resolution.problems]
    key = (instance_type.recipe_hardware, model.serving_profile,
           resolution.profile.strategy if resolution.profile else "single_node_tp", tuple(model.features))
    nodes_per_replica = None
    try:
        refused = {index for index, _ in resolution.problems}
        with_speculator = any(name == speculator.FEATURE and index not in refused
                              for index, name in enumerate(model.features))
        check_model_fits(model_id=model.hugging_face_id or preset.hugging_face_id,
                         weights_gb=weights + (speculator_gb if with_speculator else 0), instance_type=instance_type,
                         tensor_parallel_size=model.tensor_parallel_size or preset.tensor_parallel_size,
                         field=field, type_prefix=prefix, node_count=node_count, memory=resolution.memory)
        layout = layout_for(weights, instance_type, memory=resolution.memory) if node_count is not None else None
        if layout is not None and layout.multi_node:
            nodes_per_replica = layout.nodes
    except ConfigError as error:
        problems.extend(error.issues)
    return Placement(weights, speculator_gb, key, nodes_per_replica, tuple(problems))


# The account, the region and the VPC's zones.

def _admin_role(values: FileValues) -> Iterator[ConfigIssue]:
    region = values.get("region")
    yield from _refuse("cluster.admin_role_arn", aws_rules.role_arn_problem(
        values.get("cluster.admin_role_arn"), partition=aws_rules.partition_of(region) if region else "aws"))


def _zones(values: FileValues) -> Iterator[ConfigIssue]:
    region, zones = values.get("region"), values.get("availability_zones")
    for index, zone in enumerate(zones):
        problem = aws_rules.zone_problem(zone, region=region) if region else None
        if problem:
            yield _note(f"availability_zones[{index}]", problem.problem, problem.fix)
        elif zone in zones[:index]:
            yield _note(f"availability_zones[{index}]", f"lists {quoted(zone)} twice", "list each zone once")


def _vpc_holds_the_subnets(values: FileValues) -> Iterator[ConfigIssue]:
    zones = valid_zones(values)
    if not zones:
        return
    needed = vpc_addresses_needed(len(zones))
    network = ipaddress.IPv4Network(values.get("vpc_cidr"))
    if needed > network.num_addresses:
        prefix = 32 - (needed - 1).bit_length()
        yield from _refuse("vpc_cidr", Problem(
            f"a /{network.prefixlen} holds {network.num_addresses:,} addresses, but {len(zones)} zones need {needed:,} "
            f"(a /{PUBLIC_SUBNET_PREFIX} public and a /{PRIVATE_SUBNET_PREFIX} private subnet each, aligned)",
            f"use a /{prefix} or larger, for example {network.supernet(new_prefix=prefix)}"))


def _zone_in_vpc(field: str, what: str, fix: str):  # noqa: ANN202
    def check(values: FileValues) -> Iterator[ConfigIssue]:
        zone, zones = values.get(field), valid_zones(values)
        if zone is not None and zones is not None and zone not in zones:
            yield from _refuse(field, Problem(f"{what} {quoted(zone)} is not one of availability_zones "
                                              f"({', '.join(zones)})", fix))
    return check


def _arn_of_environment(field: str, *, service: str, resource_pattern: str, what: str,
                        resource_example: str | None = None):  # noqa: ANN202
    """The ARN at ``field`` is of ``service``, in the file's account and region (where those are valid)."""
    def check(values: FileValues) -> Iterator[ConfigIssue]:
        value = values.get(field)
        if value is None:
            return
        extra = {"resource_example": resource_example} if resource_example else {}
        yield from _refuse(field, aws_rules.arn_problem(value, service=service, resource_pattern=resource_pattern,
                                                        region=values.get("region"), account=values.get("account"),
                                                        what=what, **extra))
    return check


def _image_cache_secret(values: FileValues) -> Iterator[ConfigIssue]:
    field = "model.image_cache.docker_hub_credentials_secret_arn"
    found = list(_arn_of_environment(field, service="secretsmanager", resource_pattern=SECRET_ARN_RESOURCE,
                                     what="Secrets Manager secret", resource_example="secret:NAME-XXXXXX")(values))
    if found:
        yield from found
        return
    value = values.get(field)
    if value is None:
        return
    name = value.split(":", 6)[6]
    if not name.startswith(image_cache.SECRET_NAME_PREFIX):
        yield _note(field, f"the secret {quoted(name)} does not begin with '{image_cache.SECRET_NAME_PREFIX}', which ECR "
                    "requires of a pull-through cache's credentials",
                    f"create the secret as {image_cache.SECRET_NAME_PREFIX}docker-hub (see the README, Secure the "
                    "endpoint) and use its ARN")


def _token_secret(values: FileValues) -> Iterator[ConfigIssue]:
    field = "model.hugging_face_token_secret"
    value = values.get(field)
    if value is None:
        return
    if value.startswith("arn:"):
        yield from _arn_of_environment(field, service="secretsmanager", resource_pattern=SECRET_ARN_RESOURCE,
                                       what="Secrets Manager secret")(values)
    elif not re.fullmatch(SECRET_NAME, value):
        yield _note(field, f"{quoted(value)} is not a Secrets Manager secret name or ARN",
                    "use the secret's name (letters, digits and /_+=.@-) or its ARN, as "
                    "`aws secretsmanager describe-secret --secret-id NAME --query ARN` prints it")
    elif (suffix := re.search(r"-([A-Za-z0-9]{6})$", value)) and re.search(r"[A-Z0-9]", suffix.group(1)):
        # Secrets Manager API reference, CreateSecret Name (botocore 1.43.127 secretsmanager service-2.json): "Do not
        # end your secret name with a hyphen followed by six characters ... Secrets Manager automatically adds a
        # hyphen and six random characters after the secret name at the end of the ARN." A name copied with the
        # ARN's suffix names no secret, and the pod's grant (NAME-??????) would not match it. Only a suffix that
        # looks random is refused (a capital or a digit, as the ARN's mixed-case suffix almost always has): the
        # reference advises, it does not forbid, and names such as team/hf-tokens are valid and in use.
        yield _note(field, f"the secret name {quoted(value)} ends with '-' and six characters, like the random suffix "
                    "Secrets Manager adds to a secret's ARN; a name that ends so is what its API reference says "
                    "not to use",
                    f"if you copied it from the ARN, drop the suffix ({quoted(value[:-7])}); or give the "
                    "secret's full ARN (`aws secretsmanager describe-secret --secret-id NAME --query ARN`)")


# The platform and the sections that belong to it.

def _kubernetes_version(values: FileValues) -> Iterator[ConfigIssue]:
    value = values.get("kubernetes_version")
    if values.get("platform") == "hyperpod" and value not in HYPERPOD_KUBERNETES_VERSIONS:
        yield from _refuse("kubernetes_version", Problem(
            f"SageMaker HyperPod does not support Kubernetes {value} yet",
            f"use {', '.join(HYPERPOD_KUBERNETES_VERSIONS)} for platform: hyperpod"))


def _belongs_to_platform(section: str, platform: str, what: str, add: str):  # noqa: ANN202
    """A platform's own section is required with it, and refused with the other platform (not silently ignored)."""
    def check(values: FileValues) -> Iterator[ConfigIssue]:
        chosen, value = values.get("platform"), values.get(section)
        if chosen == platform and value is None:
            yield _note(section, f"is required for platform: {platform} and missing",
                        f"add a '{section}:' section with {add}")
        elif chosen != platform and value is not None:
            runs_on = "a Capacity Block" if chosen == "eks" else "a training plan"
            yield _note(section, f"is {what}, but platform is {chosen}, which runs on {runs_on}",
                        f"remove the {section}: section, or set platform: {platform}")
    return check


def _autoscaling_within_the_group(values: FileValues) -> Iterator[ConfigIssue]:
    scaling, nodes = values.get("hyperpod.autoscaling"), values.get("hyperpod.instance_count")
    if scaling is None or nodes is None:
        return
    maximum = scaling["max_replicas"]
    if maximum > nodes:
        yield _note("hyperpod.autoscaling.max_replicas",
                    f"is {maximum}, but the instance group has {nodes} instance(s), one worker each",
                    f"use at most {nodes}, or raise hyperpod.instance_count (and the training plan's instances)")


# The model on the platform and its GPUs.

def _weight_source(values: FileValues) -> Iterator[ConfigIssue]:
    model = values.section("model")
    if model.weight_source == "s3" and model.s3_uri is None:
        yield _note("model.s3_uri", "is required when weight_source is s3",
                    "add s3_uri: s3://BUCKET/PREFIX/ pointing at the copied weights")
    if model.weight_source == "huggingface" and model.s3_uri is not None:
        yield _note("model.s3_uri", "is set but weight_source is huggingface", "set weight_source: s3, or remove s3_uri")
    if model.weight_source == "huggingface" and values.get("platform") == "hyperpod":
        # deployment_config/addons.py OPERATOR_RELEASES: the pinned add-on installs operator 3.0, whose CRD's
        # modelSourceConfig.modelSourceType is fsx or s3 (charts/imports/crds/); the API server refuses any other.
        yield _note("model.weight_source",
                    f"is huggingface, but the HyperPod Inference Operator the add-on installs (operator "
                    f"{PINNED_OPERATOR.operator_version}) loads weights from S3 or FSx only",
                    "copy the weights to S3 once (README, \"Mirror the weights to S3\"), then set weight_source: s3 and "
                    "s3_uri: s3://BUCKET/PREFIX/ (and hugging_face_revision: the commit you copied)")


def _image_on_docker_hub(values: FileValues) -> Iterator[ConfigIssue]:
    model = values.section("model")
    image = model.image or MODEL_PRESETS[model.preset].image
    if model.image_cache is not None and image_cache.docker_hub_repository(image) is None:
        yield _note("model.image_cache",
                    f"the image {quoted(image)} is not on Docker Hub, and the pull-through cache serves Docker Hub only",
                    "use a Docker Hub image (vllm/vllm-openai:TAG), or remove image_cache")


def _speculator(values: FileValues) -> Iterator[ConfigIssue]:
    """The speculator's settings against model.features and the platform (deployment_config/speculator.py)."""
    model = values.section("model")
    if not (speculator.FEATURE in model.features and model.serving_profile == "recipe"):
        for name in ("speculator_revision", "speculator_size_gb"):
            if getattr(model, name) is not None:
                yield _note(f"model.{name}", f"is set but {speculator.FEATURE} is not in model.features "
                            "(serving_profile: recipe)", f"remove it, or add {speculator.FEATURE} to model.features")
        return
    if values.get("platform") == "hyperpod":
        yield _note(f"model.features[{model.features.index(speculator.FEATURE)}]",
                    "spec_decoding is not offered on HyperPod: the Inference Operator mounts one S3 prefix (the "
                    "weights' revision) into the worker, and the speculator is mirrored under its own prefix, which the "
                    "worker cannot reach", "remove spec_decoding from model.features, or serve on EKS (platform: eks)")
    if model.speculator_size_gb is None:
        yield _note("model.speculator_size_gb",
                    "is required with spec_decoding: the sizing and the startup budget count the speculator beside the "
                    "weights, and no published figure gives its size",
                    "set it to the speculator's size in GB (the sum of its files on the Hub, or what `llmops weights "
                    "mirror` printed for it), rounded up")
    # An S3 environment without speculator_revision loads (llmops weights mirror must read it to write the revision)
    # and is refused at deploy time instead (stacks/composition.py, cdk_constructs/placeholder_guard.py).


def _model_fits(values: FileValues) -> Iterator[ConfigIssue]:
    yield from values.derived(placement).problems


def _volume_holds_the_weights(values: FileValues) -> Iterator[ConfigIssue]:
    volume, weights = values.get("hyperpod.volume_size_gb"), values.derived(placement).weights_gb
    if volume is not None and volume < weights + VOLUME_HEADROOM_GB:
        yield _note("hyperpod.volume_size_gb", f"{volume} GB cannot hold the {weights} GB of weights and the image",
                    f"use at least {weights + VOLUME_HEADROOM_GB}, or remove it to use the instance store")


# The endpoint on the platform, the model and the GPU nodes.

def _replicas(values: FileValues) -> Iterator[ConfigIssue]:
    value = values.get("endpoint.replicas")
    if value is None:
        return
    if autoscaled(values):
        yield _note("endpoint.replicas", "is decided by hyperpod.autoscaling (between its min_replicas and max_replicas)",
                    "remove endpoint.replicas, or remove hyperpod.autoscaling for a fixed number of workers")
        return
    field, nodes = gpu_nodes(values) or (None, None)
    # A model that fits no single node runs each replica on a group of nodes (deployment_config.sizing.layout_for).
    fitted = values.derived(placement)
    per_replica = (fitted.nodes_per_replica if fitted is not None else None) or 1
    if nodes is not None and value * per_replica > nodes and per_replica > 1:
        yield _note("endpoint.replicas",
                    f"{value} replicas need {value * per_replica} GPU nodes, {per_replica} each (the model fits no "
                    f"single node), but {field} is {nodes}",
                    f"use at most {nodes // per_replica} replicas (or leave replicas out: one on every "
                    f"{per_replica} nodes), or reserve more instances")
    elif nodes is not None and value > nodes:
        yield _note("endpoint.replicas", f"{value} replicas need {value} GPU nodes, one each, but {field} is {nodes}",
                    f"use at most {nodes} replicas (or leave replicas out: one on every node), or reserve more "
                    "instances")


def _tls(values: FileValues) -> Iterator[ConfigIssue]:
    """Both TLS fields or neither; a public EKS endpoint needs them; HyperPod's TLS is the operator's."""
    endpoint = values.section("endpoint")
    if values.get("platform") == "hyperpod":
        for field in ("certificate_arn", "domain_name"):
            if getattr(endpoint, field) is not None:
                yield _note(f"endpoint.{field}", "is used on platform: eks only; on HyperPod the Inference Operator "
                            "makes the load balancer and its TLS", f"remove endpoint.{field}")
        return
    if endpoint.certificate_arn is not None and endpoint.domain_name is None:
        yield _note("endpoint.domain_name", "is required with certificate_arn: clients must connect by a name the "
                    "certificate covers",
                    "add domain_name: the name clients use (for example llm.example.com), covered by the certificate")
    elif endpoint.domain_name is not None and endpoint.certificate_arn is None:
        yield _note("endpoint.certificate_arn", "is required with domain_name: the load balancer needs the certificate "
                    "for that name",
                    "add certificate_arn: an ACM certificate for the name in the environment's account and region "
                    "(`aws acm list-certificates` lists them), or remove domain_name")
    elif endpoint.exposure == "public" and endpoint.certificate_arn is None:
        yield _note("endpoint.certificate_arn", "a public endpoint needs TLS: without it the API key and every prompt "
                    "cross the internet in clear text",
                    "add certificate_arn (an ACM certificate in the environment's account and region) and domain_name "
                    "(the name it covers, which clients use), or use exposure: internal")


def _promotion_gate(values: FileValues) -> Iterator[ConfigIssue]:
    """The gate runs in the smoke stack, on EKS (deployment_config/promotion_gate.py), within a wait condition's 12
    hours, against a published row where it compares with one."""
    endpoint = values.section("endpoint")
    if endpoint.promotion_gate is None:
        return
    if values.get("platform") == "hyperpod":
        yield _note("endpoint.promotion_gate", "is used on platform: eks only (the load test's Job reaches the Service "
                    "vllm; HyperPod's worker has no stable in-cluster address, and the pipeline deploys no HyperPod "
                    "environment)", "remove promotion_gate; run bin/llmops bench --env NAME by hand")
        return
    if not endpoint.deploy_time_smoke_test:
        yield _note("endpoint.promotion_gate", "runs in the stack of the deploy-time smoke test, which is off",
                    "add deploy_time_smoke_test: true (and deploy once the capacity is active), or remove "
                    "promotion_gate")
    fitted = values.derived(placement)
    gate = endpoint.promotion_gate
    if fitted is not None and fitted.published_key is not None:
        hardware, profile, strategy, features = fitted.published_key
        key = published.serving_key(hardware=hardware, serving_profile=profile, strategy=strategy, features=features,
                                    input_len=gate.input_len, output_len=gate.output_len)
        rows = published.rows_for(values.get("model.preset"), key)
        for index, run in enumerate(gate.runs):
            if run.within_percent_of_published is not None and run.concurrency not in rows:
                known = ", ".join(str(c) for c in sorted(rows)) or "none"
                yield _note(f"endpoint.promotion_gate.runs[{index}].within_percent_of_published",
                            f"nothing is published for concurrency {run.concurrency} with {key.describe()} (published "
                            f"concurrencies for it: {known}; deployment_config/data/published/)",
                            "remove within_percent_of_published from this run, or use a concurrency, lengths and "
                            "model.features a published row has")
    if fitted is not None:
        config = promotion_gate_config(gate)
        total = wait_seconds(startup_budget_seconds(fitted.weights_gb), config)
        if total > MAX_WAIT_SECONDS:
            yield _note("endpoint.promotion_gate",
                        f"the smoke test and the load test may take {total // 60} minutes (the startup budget, then "
                        f"{config.load_test_seconds() // 60} for the runs at their min_output_tokens_per_s), more than "
                        "the 12 hours a CloudFormation wait condition waits",
                        "use fewer runs, fewer num_prompts or shorter lengths, or set min_output_tokens_per_s")


def _routing(values: FileValues) -> Iterator[ConfigIssue]:
    """A routing policy spreads requests over replicas: with one there is nothing to route (charts/vllm_router.py)."""
    endpoint = values.section("endpoint")
    if endpoint.routing in ("auto", "none"):
        return
    if values.get("platform") == "hyperpod" and endpoint.routing != "cache_aware":
        # The CRD's routingStrategy enum is prefixaware, kvaware, session, roundrobin (charts/imports/crds/): a
        # round robin exists there, but the project maps only cache_aware (to prefixaware), and a power of two none.
        yield _note("endpoint.routing",
                    f"is {endpoint.routing}, but on platform: hyperpod the Inference Operator routes, and this project "
                    "sets only its prefix-aware strategy (intelligentRoutingSpec.routingStrategy: prefixaware)",
                    "use routing: cache_aware (prefix-aware), auto or none")
        return
    if autoscaled(values):
        return  # the operator scales between min_replicas and max_replicas; its router follows the workers
    _field, nodes = gpu_nodes(values) or (None, None)
    fitted = values.derived(placement)
    per_replica = (fitted.nodes_per_replica if fitted is not None else None) or 1
    replicas = endpoint.replicas or (nodes // per_replica if nodes else None)
    if replicas is not None and replicas < 2:
        yield _note("endpoint.routing",
                    f"is {endpoint.routing}, but the endpoint has {replicas} vLLM replica: a router spreads requests "
                    "over two or more",
                    "set endpoint.replicas to 2 or more (with enough GPU nodes), or use routing: auto (a router from "
                    "two replicas on) or none")


def _allowed_cidrs(values: FileValues) -> Iterator[ConfigIssue]:
    endpoint = values.section("endpoint")
    for index, problem in aws_rules.allowed_cidrs_problems(endpoint.allowed_cidrs):
        field = "endpoint.allowed_cidrs" if index is None else f"endpoint.allowed_cidrs[{index}]"
        yield _note(field, problem.problem, problem.fix)
    if endpoint.exposure == "public" and not endpoint.allowed_cidrs:
        yield _note("endpoint.allowed_cidrs", "a public endpoint needs the source networks allowed to reach it",
                    "list them, for example allowed_cidrs: [203.0.113.0/24], or use exposure: internal")
    if endpoint.exposure == "internal" and endpoint.allowed_cidrs:
        yield _note("endpoint.allowed_cidrs", "is only used with exposure: public",
                    "remove allowed_cidrs, or set exposure: public")


def _key_check_needs_the_python_frontend(values: FileValues) -> Iterator[ConfigIssue]:
    rust_frontend = (values.get("model.extra_env") or {}).get("VLLM_USE_RUST_FRONTEND") if values.ok("model") else None
    if values.get("endpoint.authentication") == "api-key" and rust_frontend not in (None, "0"):
        # The key is checked by a middleware vLLM loads with --middleware, which its Rust frontend does not support
        # (charts/vllm_auth_middleware.py MIDDLEWARE_ENVIRONMENT): the endpoint would serve without the check.
        yield _note("model.extra_env",
                    "VLLM_USE_RUST_FRONTEND turns on vLLM's Rust frontend, which does not load the --middleware that "
                    "checks the API key on every path (endpoint.authentication: api-key)",
                    "remove VLLM_USE_RUST_FRONTEND from model.extra_env (the chart turns it off while the key is "
                    "required), or set endpoint.authentication: none for an endpoint without a key")


def _public_on_hyperpod(values: FileValues) -> Iterator[ConfigIssue]:
    if values.get("endpoint.exposure") == "public" and values.get("platform") == "hyperpod":
        # Operator 3.0's CRD has loadBalancer.healthCheckPath and routingAlgorithm only: no scheme, no inbound CIDRs
        # (charts/imports/crds/, v1 schema), so the operator's load balancer cannot be made public or restricted.
        yield _note("endpoint.exposure",
                    f"public is not available on platform: hyperpod: the Inference Operator the add-on installs "
                    f"(operator {PINNED_OPERATOR.operator_version}) makes the load balancer itself, and its "
                    "InferenceEndpointConfig has no field for the scheme or the source networks",
                    "use exposure: internal (and no allowed_cidrs), and reach the endpoint from the VPC (a VPN, a "
                    "peered VPC or a bastion); or use platform: eks for a public endpoint")


def _budget_notifies(values: FileValues) -> Iterator[ConfigIssue]:
    """The budget e-mails observability.alarm_emails only (cdk_constructs/budget_alarm.py: EMAIL subscribers, no SNS
    topic), so without one it would warn nobody; AWS Budgets takes at most 11 per notification."""
    value = values.get("observability.monthly_budget_usd")
    if value is None:
        return
    emails = values.get("observability.alarm_emails")
    if emails is not None and not emails:
        yield _note("observability.monthly_budget_usd",
                    f"a budget of {value:g} USD would notify nobody: it e-mails observability.alarm_emails, which is "
                    "empty",
                    "add observability.alarm_emails: [you@example.com] (AWS Budgets e-mails them at 80 % actual and "
                    "100 % forecasted spend), or remove monthly_budget_usd")
    elif len(emails or []) > MAX_BUDGET_SUBSCRIBERS:
        yield _note("observability.monthly_budget_usd",
                    f"the budget would notify {len(emails)} alarm_emails; AWS Budgets takes at most "
                    f"{MAX_BUDGET_SUBSCRIBERS} subscribers per notification",
                    f"list at most {MAX_BUDGET_SUBSCRIBERS} addresses, or subscribe a mailing list")


def _connection(values: FileValues) -> Iterator[ConfigIssue]:
    value = values.get("source.connection_arn")
    problems = [aws_rules.arn_problem(value, service=service, resource_pattern=r"connection/[0-9a-f-]{36}",
                                      region=values.get("region"), account=values.get("account"),
                                      what="CodeConnections connection")
                for service in ("codeconnections", "codestar-connections")]
    if all(problems):
        # Report against the current service name unless the old one got further.
        yield from _refuse("source.connection_arn",
                           problems[1] if value.split(":")[2:3] == ["codestar-connections"] else problems[0])


def _refusal(name: str, field: str, check, *also: str) -> Rule:  # noqa: ANN001
    return Rule(name, (field, *also), check, refuses=field)


#: The rules of an environment file (config/NAME.yaml), in the order their messages are listed among equals.
ENVIRONMENT_RULES: tuple[Rule, ...] = (
    _refusal("the admin role is of the region's partition", "cluster.admin_role_arn", _admin_role),
    Rule("the zones are the region's, each once", ("availability_zones",), _zones),
    _refusal("the VPC holds a public and a private subnet per zone", "vpc_cidr", _vpc_holds_the_subnets),
    _refusal("HyperPod supports the Kubernetes version", "kubernetes_version", _kubernetes_version),
    _refusal("a Capacity Block section exactly with platform: eks", "capacity",
             _belongs_to_platform("capacity", "eks", "a Capacity Block section",
                                  "instance_type, capacity_reservation_id and availability_zone "
                                  "(bin/llmops capacity-blocks use cr-... --env NAME writes the last two)"), "platform"),
    _refusal("a HyperPod section exactly with platform: hyperpod", "hyperpod",
             _belongs_to_platform("hyperpod", "hyperpod", "a HyperPod section",
                                  "training_plan_arn and availability_zone "
                                  "(bin/llmops training-plans use NAME --env ENV writes both)"), "platform"),
    _refusal("the reservation's zone is one of the VPC's", "capacity.availability_zone",
             _zone_in_vpc("capacity.availability_zone", "the reservation's zone",
                          "set capacity.availability_zone to the zone the reservation is in, and list that zone in "
                          "availability_zones; GPU nodes can only launch in the reservation's zone")),
    _refusal("the training plan is of the account and region", "hyperpod.training_plan_arn",
             _arn_of_environment("hyperpod.training_plan_arn", service="sagemaker",
                                 resource_pattern=TRAINING_PLAN_RESOURCE, what="training plan")),
    _refusal("the plan's zone is one of the VPC's", "hyperpod.availability_zone",
             _zone_in_vpc("hyperpod.availability_zone", "the plan's zone",
                          "set it to the zone 'aws sagemaker describe-training-plan' reports, and list that zone in "
                          "availability_zones")),
    Rule("the autoscaled workers fit the instance group", ("hyperpod.autoscaling",), _autoscaling_within_the_group),
    _refusal("the Hugging Face token's secret is of the account and region", "model.hugging_face_token_secret",
             _token_secret),
    _refusal("the image cache's secret is of the account and region",
             "model.image_cache.docker_hub_credentials_secret_arn", _image_cache_secret),
    Rule("the weights come from where the platform loads them", ("model",), _weight_source),
    Rule("the pull-through cache serves the image", ("model",), _image_on_docker_hub),
    Rule("the speculator's settings match spec_decoding and the platform", ("model",), _speculator),
    Rule("the model and its features fit the GPUs", ("model",), _model_fits),
    Rule("the HyperPod volume holds the weights", ("model",), _volume_holds_the_weights),
    _refusal("the certificate is of the account and region", "endpoint.certificate_arn",
             _arn_of_environment("endpoint.certificate_arn", service="acm", resource_pattern=f"certificate/{CERTIFICATE_ID}",
                                 what="ACM certificate", resource_example="certificate/UUID")),
    _refusal("the replicas fit the GPU nodes", "endpoint.replicas", _replicas),
    Rule("TLS has both fields, on EKS", ("endpoint",), _tls),
    Rule("the promotion gate runs on EKS, after the smoke test, within 12 hours", ("endpoint",), _promotion_gate),
    Rule("a routing policy has replicas to route over", ("endpoint",), _routing),
    Rule("allowed_cidrs go with a public endpoint", ("endpoint",), _allowed_cidrs),
    Rule("the API key's check runs in vLLM's Python frontend", ("endpoint",), _key_check_needs_the_python_frontend),
    Rule("a public endpoint is EKS's", ("endpoint",), _public_on_hyperpod),
    _refusal("the budget notifies someone", "observability.monthly_budget_usd", _budget_notifies),
)

#: The rules of a pipeline file (config/pipeline/NAME.yaml).
PIPELINE_RULES: tuple[Rule, ...] = (
    _refusal("the connection is of the pipeline's account and region", "source.connection_arn", _connection),
)
