"""Rules between sections: the model on the platform and its GPUs, the endpoint on the model and the GPU nodes, and the
budget's recipients."""

from __future__ import annotations

from collections.abc import Iterator

from deployment_config import image_cache, published, speculator
from deployment_config.catalog import MODEL_PRESETS
from deployment_config.cross_section_rules._issues import note as _note
from deployment_config.cross_section_rules.facts import (
    autoscaled,
    feature_name_problems,
    gpu_nodes,
    placement,
    tensor_parallel_problem,
)
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


def tensor_parallel_matches_the_gpus(values: FileValues) -> Iterator[ConfigIssue]:
    problem = tensor_parallel_problem(values)
    if problem is not None:
        yield _note("model.tensor_parallel_size", problem.problem, problem.fix)


def features_are_the_recipes(values: FileValues) -> Iterator[ConfigIssue]:
    for index, problem in feature_name_problems(values):
        yield _note(f"model.features[{index}]", problem.problem, problem.fix)


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
