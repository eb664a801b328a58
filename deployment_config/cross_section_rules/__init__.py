"""The rules between the fields of a configuration file: one entry per rule, each naming the fields it reads.

They run after every field has passed or failed its own validation (:mod:`deployment_config.file_values` runs them and
places their messages); a rule whose inputs failed is skipped, so every mistake of a file is still reported at once,
and no rule depends on the order in which the sections are declared. The rules of one field alone (a type, a pattern,
a range) stay on the section models.
"""

from __future__ import annotations

from deployment_config.cross_section_rules.bridge import (
    bridge_on_a_capacity_block,
    bridge_serves_like_the_block,
)
from deployment_config.cross_section_rules.endpoint import (
    allowed_cidrs,
    key_check_needs_the_python_frontend,
    public_on_hyperpod,
    routing,
    tls,
)
from deployment_config.cross_section_rules.placement import (
    admin_role,
    arn_of_environment,
    autoscaling_within_the_group,
    belongs_to_platform,
    connection,
    image_cache_secret,
    kubernetes_version,
    token_secret,
    vpc_holds_the_subnets,
    zone_in_vpc,
    zones,
)
from deployment_config.cross_section_rules.prestage import next_revision_can_be_staged
from deployment_config.cross_section_rules.serving import (
    block_fee_on_eks,
    budget_notifies,
    features_are_the_recipes,
    image_on_docker_hub,
    model_fits,
    next_block_fee,
    promotion_gate,
    replicas,
    speculator_settings,
    tensor_parallel_matches_the_gpus,
    volume_holds_the_weights,
    weight_source,
)
from deployment_config.cross_section_rules.vllm_serving import (
    cache_variables_left_to_the_compile_cache,
    dcp_divides_tp,
    graph_pool_fits_outside_the_share,
    max_model_len_within_the_context,
    one_speculative_config,
    runai_streamer_is_distributed,
    runai_streamer_where_it_is_checked,
)
from deployment_config.file_models import CERTIFICATE_ID, TRAINING_PLAN_RESOURCE
from deployment_config.file_values import Rule


def _refusal(name: str, field: str, check, *also: str) -> Rule:  # noqa: ANN001
    return Rule(name, (field, *also), check, refuses=field)


#: The rules of an environment file (config/NAME.yaml), in the order their messages are listed among equals.
ENVIRONMENT_RULES: tuple[Rule, ...] = (
    _refusal("the admin role is of the region's partition", "cluster.admin_role_arn", admin_role),
    Rule("the zones are the region's, each once", ("availability_zones",), zones),
    _refusal(
        "the VPC holds a public and a private subnet per zone", "vpc_cidr", vpc_holds_the_subnets
    ),
    _refusal("HyperPod supports the Kubernetes version", "kubernetes_version", kubernetes_version),
    _refusal(
        "a Capacity Block section exactly with platform: eks",
        "capacity",
        belongs_to_platform(
            "capacity",
            "eks",
            "a Capacity Block section",
            "instance_type, capacity_reservation_id and availability_zone "
            "(bin/llmops capacity-blocks use cr-... --env NAME writes the last two)",
        ),
        "platform",
    ),
    _refusal(
        "a HyperPod section exactly with platform: hyperpod",
        "hyperpod",
        belongs_to_platform(
            "hyperpod",
            "hyperpod",
            "a HyperPod section",
            "training_plan_arn and availability_zone "
            "(bin/llmops training-plans use NAME --env ENV writes both)",
        ),
        "platform",
    ),
    _refusal(
        "the reservation's zone is one of the VPC's",
        "capacity.availability_zone",
        zone_in_vpc(
            "capacity.availability_zone",
            "the reservation's zone",
            "set capacity.availability_zone to the zone the reservation is in, and list that zone in "
            "availability_zones; GPU nodes can only launch in the reservation's zone",
        ),
    ),
    _refusal(
        "the training plan is of the account and region",
        "hyperpod.training_plan_arn",
        arn_of_environment(
            "hyperpod.training_plan_arn",
            service="sagemaker",
            resource_pattern=TRAINING_PLAN_RESOURCE,
            what="training plan",
        ),
    ),
    _refusal(
        "the plan's zone is one of the VPC's",
        "hyperpod.availability_zone",
        zone_in_vpc(
            "hyperpod.availability_zone",
            "the plan's zone",
            "set it to the zone 'aws sagemaker describe-training-plan' reports, and list that zone in "
            "availability_zones",
        ),
    ),
    Rule(
        "the autoscaled workers fit the instance group",
        ("hyperpod.autoscaling",),
        autoscaling_within_the_group,
    ),
    _refusal(
        "the Hugging Face token's secret is of the account and region",
        "model.hugging_face_token_secret",
        token_secret,
    ),
    _refusal(
        "the image cache's secret is of the account and region",
        "model.image_cache.docker_hub_credentials_secret_arn",
        image_cache_secret,
    ),
    Rule("the weights come from where the platform loads them", ("model",), weight_source),
    Rule("the pull-through cache serves the image", ("model",), image_on_docker_hub),
    Rule(
        "the speculator's settings match spec_decoding and the platform",
        ("model",),
        speculator_settings,
    ),
    Rule(
        "spec_decoding gives the one --speculative-config",
        ("model.features", "model.serving_profile", "model.extra_args"),
        one_speculative_config,
    ),
    Rule(
        "the decode context parallel size divides TP",
        ("model.extra_args", "model.tensor_parallel_size", "model.preset"),
        dcp_divides_tp,
    ),
    Rule(
        "the CUDA graph pool fits outside vLLM's memory share",
        ("model",),
        graph_pool_fits_outside_the_share,
    ),
    Rule(
        "the Run:ai loader streams once for all ranks",
        ("model",),
        runai_streamer_is_distributed,
    ),
    Rule(
        "weight_load: runai_streamer where its check runs",
        ("model",),
        runai_streamer_where_it_is_checked,
    ),
    Rule(
        "the next revision can be staged beside the serving one",
        ("model",),
        next_revision_can_be_staged,
    ),
    Rule(
        "the compile cache's variables are left to it",
        ("model",),
        cache_variables_left_to_the_compile_cache,
    ),
    Rule(
        "--max-model-len within the model's context",
        ("model.preset", "model.extra_args"),
        max_model_len_within_the_context,
    ),
    Rule(
        "the tensor-parallel size is the GPUs of a node",
        ("model.tensor_parallel_size",),
        tensor_parallel_matches_the_gpus,
    ),
    Rule(
        "the features are the recipe's opt-in features",
        ("model.preset", "model.features", "model.serving_profile"),
        features_are_the_recipes,
    ),
    Rule("the model and its features fit the GPUs", ("model",), model_fits),
    Rule(
        "a bridge stands in for a Capacity Block with no next block",
        ("bridge",),
        bridge_on_a_capacity_block,
    ),
    Rule(
        "the bridge serves the model as the block does",
        ("bridge.instance_types", "model"),
        bridge_serves_like_the_block,
    ),
    Rule("the HyperPod volume holds the weights", ("model",), volume_holds_the_weights),
    _refusal(
        "the certificate is of the account and region",
        "endpoint.certificate_arn",
        arn_of_environment(
            "endpoint.certificate_arn",
            service="acm",
            resource_pattern=f"certificate/{CERTIFICATE_ID}",
            what="ACM certificate",
            resource_example="certificate/UUID",
        ),
    ),
    _refusal("the replicas fit the GPU nodes", "endpoint.replicas", replicas),
    Rule("TLS has both fields, on EKS", ("endpoint",), tls),
    Rule(
        "the promotion gate runs on EKS, after the smoke test, within 12 hours",
        ("endpoint",),
        promotion_gate,
    ),
    Rule(
        "a routing policy has replicas to route over",
        ("endpoint.routing", "endpoint.authentication"),
        routing,
    ),
    Rule("allowed_cidrs go with a public endpoint", ("endpoint",), allowed_cidrs),
    Rule(
        "the API key's check runs in vLLM's Python frontend",
        ("endpoint",),
        key_check_needs_the_python_frontend,
    ),
    Rule("a public endpoint is EKS's", ("endpoint",), public_on_hyperpod),
    _refusal("the budget notifies someone", "observability.monthly_budget_usd", budget_notifies),
    _refusal("a block fee is a Capacity Block's", "observability.block_fee_usd", block_fee_on_eks),
    _refusal(
        "the next block's fee goes with the next block and the current block's fee",
        "observability.next_block_fee_usd",
        next_block_fee,
        "capacity.next_capacity_reservation_id",
        "observability.block_fee_usd",
    ),
)

#: The rules of a pipeline file (config/pipeline/NAME.yaml).
PIPELINE_RULES: tuple[Rule, ...] = (
    _refusal(
        "the connection is of the pipeline's account and region",
        "source.connection_arn",
        connection,
    ),
)
