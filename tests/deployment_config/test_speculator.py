"""Speculative decoding end to end (deployment_config/speculator.py): the recipe's speculator pinned to a revision,
copied from its S3 mirror into the node's NVMe cache and checked there like the weights, and counted by the sizing and
the startup budget. Refusals are in tests/malformed/speculator.yaml."""

from __future__ import annotations

import copy
import json

import kubernetes_validate
import pytest

from charts.serving_spec import serving_spec_for
from charts.vllm_serving_chart import synthesize_manifests
from deployment_config import parse_environment
from deployment_config.sizing import ENGINE_READY_TIMEOUT_ENV, startup_budget
from tests.conftest import bare_app

WEIGHTS = "0123456789abcdef0123456789abcdef01234567"
SPECULATOR = "89abcdef0123456789abcdef0123456789abcdef"
HUB_ID = "RedHatAI/Kimi-K3-speculator.dspark"


def _env(document: dict, **model):
    changed = copy.deepcopy(document)
    changed["model"].update({"features": ["spec_decoding"], "speculator_size_gb": 8, **model})
    return parse_environment(changed, name="example")


def _deployment(env) -> dict:
    return next(m for m in synthesize_manifests(serving_spec_for(env)) if m["kind"] == "Deployment")


def _speculative_config(deployment: dict) -> dict:
    args = deployment["spec"]["template"]["spec"]["containers"][0]["args"]
    return json.loads(args[args.index("--speculative-config") + 1])


@pytest.fixture(scope="module")
def s3_env(example_document):
    return _env(
        example_document,
        weight_source="s3",
        s3_uri="s3://my-model-bucket/moonshotai/Kimi-K3/",
        hugging_face_revision=WEIGHTS,
        speculator_revision=SPECULATOR,
    )


@pytest.fixture(scope="module")
def s3_deployment(s3_env) -> dict:
    return _deployment(s3_env)


def test_from_the_hub_vllm_downloads_the_speculator_at_its_pinned_revision(example_document):
    # given Hub weights with the speculator pinned
    env = _env(example_document, speculator_revision=SPECULATOR)
    # when the chart is synthesized, then vLLM takes the recipe's speculator at that commit, its code included
    config = _speculative_config(_deployment(env))
    assert config["model"] == HUB_ID
    assert config["revision"] == config["code_revision"] == SPECULATOR
    assert config["method"] == "dspark" and config["num_speculative_tokens"] == 8


def test_from_s3_vllm_loads_the_speculator_from_the_node_cache(s3_deployment):
    config = _speculative_config(s3_deployment)
    assert config["model"] == f"/models/s3-weights/speculator/{SPECULATOR}"
    assert "revision" not in config  # a local directory has none
    assert config["method"] == "dspark" and config["num_speculative_tokens"] == 8


def test_from_s3_the_same_init_containers_copy_and_check_the_speculator(s3_deployment):
    init = {c["name"]: c for c in s3_deployment["spec"]["template"]["spec"]["initContainers"]}
    # fetch-weights copies the weights' revision, then the speculator's own mirror into its own cache directory
    fetch = init["fetch-weights"]["command"]
    assert fetch[-4:] == [
        "s3://my-model-bucket/moonshotai/Kimi-K3/" + WEIGHTS + "/",
        f"/models/s3-weights/{WEIGHTS}",
        f"s3://my-model-bucket/moonshotai/Kimi-K3/speculator/{SPECULATOR}/",
        f"/models/s3-weights/speculator/{SPECULATOR}",
    ]
    assert '"$3" "$4"' in fetch[2]
    # and the speculator is checked against its manifest, after the weights, before vLLM starts
    names = list(init)
    assert names.index("verify-speculator") == names.index("verify-weights") + 1
    verify = init["verify-speculator"]["command"]
    assert verify[2:5] == [f"/models/s3-weights/speculator/{SPECULATOR}", "--revision", SPECULATOR]
    # and what that check finds wrong it fetches again from the speculator's own mirror, not the weights'
    assert verify[verify.index("--repair-from") + 1] == fetch[-2]


def test_the_deployment_with_a_speculator_validates_strictly(s3_deployment, s3_env):
    kubernetes_validate.validate(s3_deployment, s3_env.kubernetes_version, strict=True)


def test_without_spec_decoding_nothing_of_the_speculator_is_rendered(default_env):
    deployment = _deployment(default_env)
    args = deployment["spec"]["template"]["spec"]["containers"][0]["args"]
    assert "--speculative-config" not in args
    assert default_env.model.loaded_gb == default_env.model.weight_size_gb


def test_the_sizing_and_the_startup_budget_count_the_speculator(example_document):
    env = _env(example_document, speculator_size_gb=300)
    assert env.model.loaded_gb == env.model.weight_size_gb + 300
    assert (
        "1720 GB of weights" in env.sizing_message and "speculator's 300 GB" in env.sizing_message
    )
    environment = {
        e["name"]: e.get("value")
        for e in _deployment(env)["spec"]["template"]["spec"]["containers"][0]["env"]
    }
    budget = startup_budget(env.model.weight_size_gb + 300).engine_ready_timeout_seconds
    assert int(environment[ENGINE_READY_TIMEOUT_ENV]) == budget
    assert budget > startup_budget(env.model.weight_size_gb).engine_ready_timeout_seconds


def test_s3_weights_with_an_unmirrored_speculator_load_but_the_serving_stack_refuses_to_deploy(
    example_document,
):
    import aws_cdk as cdk
    from aws_cdk.assertions import Template

    from cdk_constructs.placeholder_guard import UNPINNED_WEIGHTS_RULE_ID, refuse_unpinned_weights

    # given S3 weights pinned but no speculator_revision: the file loads (llmops weights mirror must read it to pin it)
    env = _env(
        example_document,
        weight_source="s3",
        s3_uri="s3://my-model-bucket/moonshotai/Kimi-K3/",
        hugging_face_revision=WEIGHTS,
    )
    assert env.model.speculator_revision is None
    # and vLLM would not be told to fetch the speculator from the Hub behind the mirror's back: no copy is rendered
    assert serving_spec_for(env).speculator_s3_uri is None
    # then the serving stack's rule refuses it, naming the field and the command that pins it
    stack = cdk.Stack(bare_app(), "Serving")
    cdk.CfnWaitConditionHandle(stack, "Placeholder")
    refuse_unpinned_weights(
        stack, source="config/prod.yaml", env_name="prod", from_s3=True, speculator_only=True
    )
    (assertion,) = Template.from_stack(stack).to_json()["Rules"][UNPINNED_WEIGHTS_RULE_ID][
        "Assertions"
    ]
    assert "model.speculator_revision" in assertion["AssertDescription"]
    assert "bin/llmops weights mirror --env prod" in assertion["AssertDescription"]


def test_the_pod_may_read_the_speculators_revision_prefix_as_narrowly_as_the_weights(s3_env):
    import aws_cdk as cdk
    from aws_cdk import aws_iam as iam
    from aws_cdk.assertions import Template

    from stacks.serving_stack import ServingStack

    # given the pod's role in a bare stack (no full synthesis), granted what the serving stack grants it
    stack = cdk.Stack(bare_app(), "Serving")
    role = iam.Role(stack, "Pod", assumed_by=iam.ServicePrincipal("pods.eks.amazonaws.com"))
    ServingStack._grant_s3_weights(None, role, serving_spec_for(s3_env))
    # then it reads the weights' revision and the speculator's revision, and no other prefix
    (policy,) = Template.from_stack(stack).find_resources("AWS::IAM::Policy").values()
    reads = [
        s["Resource"]["Fn::Join"][1][-1]
        for s in policy["Properties"]["PolicyDocument"]["Statement"]
        if s["Action"] == "s3:GetObject"
    ]
    assert reads == [
        f":s3:::my-model-bucket/moonshotai/Kimi-K3/{WEIGHTS}/*",
        f":s3:::my-model-bucket/moonshotai/Kimi-K3/speculator/{SPECULATOR}/*",
    ]


# --- the acceptance on the dashboard and in the publisher's queries --------------------------------------------------


def test_the_publisher_computes_acceptance_from_vllms_spec_decode_counters_only_with_spec_decoding():
    from cdk_constructs.serving_metrics import (
        PROMETHEUS_SERIES,
        SPEC_DECODE_PUBLISHED,
        published_metrics,
    )

    assert not set(SPEC_DECODE_PUBLISHED) & set(published_metrics())
    metrics = published_metrics(spec_decoding=True)
    rate = metrics["SpecDecodeAcceptanceRatePercent"].query
    length = metrics["SpecDecodeMeanAcceptedLength"].query
    # accepted / draft tokens, and 1 + accepted / drafts, over the vLLM job's counters as exported (with _total)
    assert rate == (
        '100 * sum(rate(vllm:spec_decode_num_accepted_tokens_total{job="vllm"}[5m])) / '
        'sum(rate(vllm:spec_decode_num_draft_tokens_total{job="vllm"}[5m]))'
    )
    assert length == (
        '1 + sum(rate(vllm:spec_decode_num_accepted_tokens_total{job="vllm"}[5m])) / '
        'sum(rate(vllm:spec_decode_num_drafts_total{job="vllm"}[5m]))'
    )
    for metric in SPEC_DECODE_PUBLISHED.values():
        assert all(PROMETHEUS_SERIES[s].type == "counter" for s in metric.series)


def _bare_stack():
    import aws_cdk as cdk

    return cdk.Stack(
        bare_app(), "Observability", env=cdk.Environment(account="123456789012", region="us-west-2")
    )


@pytest.mark.parametrize("spec_decoding", [True, False])
def test_the_dashboard_shows_the_acceptance_only_with_spec_decoding(spec_decoding):
    from aws_cdk.assertions import Template

    from cdk_constructs.serving_dashboard import ServingDashboard, capacity_block_view
    from deployment_config.model import ObservabilityConfig

    stack = _bare_stack()
    ServingDashboard(
        stack,
        "Dashboard",
        env_name="example",
        cluster_name="example-llm",
        region="us-west-2",
        served_name="Kimi-K3",
        capacity=capacity_block_view("cr-0123456789abcdef0", "us-west-2"),
        observability=ObservabilityConfig(),
        alarms=[],
        spec_decoding=spec_decoding,
    )
    (dashboard,) = Template.from_stack(stack).find_resources("AWS::CloudWatch::Dashboard").values()
    body = json.dumps(dashboard["Properties"]["DashboardBody"])
    shown = [
        name
        for name in ("SpecDecodeAcceptanceRatePercent", "SpecDecodeMeanAcceptedLength")
        if name in body
    ]
    assert shown == (
        ["SpecDecodeAcceptanceRatePercent", "SpecDecodeMeanAcceptedLength"] if spec_decoding else []
    )


def test_the_publisher_asks_for_the_acceptance_with_spec_decoding():
    from aws_cdk.assertions import Template

    from cdk_constructs.serving_metrics import ServingMetricsPublisher

    stack = _bare_stack()
    ServingMetricsPublisher(
        stack,
        "Metrics",
        cluster_name="example-llm",
        prometheus_endpoint="https://aps/ws/",
        workspace_arn="arn:aws:aps:us-west-2:123456789012:workspace/ws-1",
        load_balancer_tags={},
        capacity_reservation_id="cr-0123456789abcdef0",
        spec_decoding=True,
    )
    rules = Template.from_stack(stack).find_resources("AWS::Events::Rule")
    inputs = " ".join(
        json.dumps(t.get("Input")) for r in rules.values() for t in r["Properties"]["Targets"]
    )
    assert (
        "SpecDecodeAcceptanceRatePercent" in inputs
        and "vllm:spec_decode_num_draft_tokens_total" in inputs
    )


def test_hub_weights_with_an_unpinned_speculator_refuse_to_deploy_naming_the_hub_api(
    example_document,
):
    import aws_cdk as cdk
    from aws_cdk.assertions import Template

    from cdk_constructs.placeholder_guard import UNPINNED_WEIGHTS_RULE_ID, refuse_unpinned_weights

    stack = cdk.Stack(bare_app(), "Serving")
    cdk.CfnWaitConditionHandle(stack, "Placeholder")
    refuse_unpinned_weights(
        stack,
        source="config/prod.yaml",
        env_name="prod",
        from_s3=False,
        speculator_only=True,
        speculator_id=HUB_ID,
    )
    (assertion,) = Template.from_stack(stack).to_json()["Rules"][UNPINNED_WEIGHTS_RULE_ID][
        "Assertions"
    ]
    assert "model.speculator_revision" in assertion["AssertDescription"]
    assert (
        f"https://huggingface.co/api/models/{HUB_ID}/revision/main"
        in assertion["AssertDescription"]
    )
