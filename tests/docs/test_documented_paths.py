"""Paths the docs describe beyond the default app, each synthesized with cdk-nag (synthesis fails on a finding).

One synthesis for the module: a pipeline in us-east-1 (the cross-region path) whose one stage is a variant of
config/example.yaml with the weights on S3 and one more vLLM argument (tests/configs/). The HyperPod operator stack
with S3 weights is built on its own, on an imported cluster.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

TEST_CONFIGS = Path(__file__).resolve().parents[1] / "configs"


@pytest.fixture(scope="module")
def cross_region_pipeline(tmp_path_factory):
    from app import build_pipeline
    from deployment_config.pipeline import load_pipeline

    config = load_pipeline(TEST_CONFIGS, "cross-region")
    app, stack = build_pipeline(
        config, outdir=str(tmp_path_factory.mktemp("cross-region.out")), inspect_only=True
    )
    assembly = app.synth()  # raises on an unacknowledged cdk-nag finding
    stage = assembly.get_nested_assembly(f"assembly-{stack.stack_name}-example")
    return assembly, {s.stack_name: s.template for s in stage.stacks}


def test_a_pipeline_in_another_region_synthesizes_with_its_replication_bucket(
    cross_region_pipeline,
):
    assembly, _ = cross_region_pipeline
    support = [s for s in assembly.stacks if s.stack_name != "llm-serving-pipeline-cross-region"]
    (support_stack,) = support
    assert support_stack.environment.region == "us-west-2"
    buckets = [
        r for r in support_stack.template["Resources"].values() if r["Type"] == "AWS::S3::Bucket"
    ]
    assert len(buckets) == 1  # CodePipeline's replication bucket, acknowledged with a reason
    report = json.loads((Path(assembly.directory) / "validation-report.json").read_text())
    aws_solutions = {p["pluginName"]: p for p in report["pluginReports"]}["AwsSolutions"]
    assert aws_solutions["violations"] == []


def test_the_cross_region_pipeline_and_its_support_stack_pass_cfn_lint(cross_region_pipeline):
    from tests.cfn_lint import cfn_lint_errors

    assembly, _ = cross_region_pipeline
    by_region: dict[str, list[str]] = {}
    for stack in (
        assembly.stacks
    ):  # the pipeline in its region, the replication bucket's stack in the stage's
        by_region.setdefault(stack.environment.region, []).append(stack.template_full_path)
    assert len(by_region) == 2
    for region, templates in by_region.items():
        assert cfn_lint_errors(templates, [region]) == [], region


def _resources(template: dict, resource_type: str) -> list[dict]:
    return [r["Properties"] for r in template["Resources"].values() if r["Type"] == resource_type]


def test_s3_weights_on_eks_pod_identity_binds_the_vllm_service_account(cross_region_pipeline):
    _, stage = cross_region_pipeline
    (association,) = _resources(stage["example-serving"], "AWS::EKS::PodIdentityAssociation")
    assert association["Namespace"] == "llm-serving"
    assert association["ServiceAccount"] == "vllm"
    (role,) = [
        r
        for r in _resources(stage["example-serving"], "AWS::IAM::Role")
        if r["AssumeRolePolicyDocument"]["Statement"][0]["Principal"]
        == {"Service": "pods.eks.amazonaws.com"}
    ]
    assert association["RoleArn"]["Fn::GetAtt"][0].startswith("PodRole")


def test_s3_weights_reader_may_only_list_and_read_the_weights_prefix(cross_region_pipeline):
    _, stage = cross_region_pipeline
    (policy,) = [
        p
        for p in _resources(stage["example-serving"], "AWS::IAM::Policy")
        if "PodRole" in json.dumps(p["Roles"])
    ]
    # the pod's one role also reads the API key (tests/cdk_constructs/test_serving_secrets.py): here, its S3 statements
    statements = {
        json.dumps(s["Action"]): s
        for s in policy["PolicyDocument"]["Statement"]
        if "s3:" in json.dumps(s["Action"])
    }
    assert set(statements) == {'"s3:ListBucket"', '"s3:GetObject"'}
    # the pinned revision's own prefix (tests/configs/example.yaml), the only one the node copies
    revision = "0123456789abcdef0123456789abcdef01234567"
    assert f"example-weights/moonshotai/Kimi-K3/{revision}/*" in json.dumps(
        statements['"s3:GetObject"']["Resource"]
    )
    assert statements['"s3:ListBucket"']["Condition"] == {
        "StringLike": {"s3:prefix": [f"moonshotai/Kimi-K3/{revision}/*"]}
    }


def test_a_serving_change_leaves_the_gpu_node_group_untouched(cross_region_pipeline, synthesized):
    # given the default app and a variant that changes only serving (weights from S3, one more vLLM argument)
    _, stage = cross_region_pipeline
    # then the GPU nodes stack deploys the same resources: a Capacity Block node group can only be updated at
    # desired size 0, and a serving change must never try
    assert stage["example-gpu-nodes"]["Resources"] == synthesized.template("gpu-nodes")["Resources"]
    # while the serving stack did change
    assert stage["example-serving"]["Resources"] != synthesized.template("serving")["Resources"]


def test_s3_weights_on_hyperpod_synthesize(hyperpod_env, tmp_path):
    import aws_cdk as cdk
    from aws_cdk import aws_eks_v2 as eks
    from aws_cdk import aws_iam as iam

    from app import checked_app
    from deployment_config.model import WeightSource
    from stacks.inference_operator_stack import InferenceOperatorStack

    model = dataclasses.replace(
        hyperpod_env.model,
        weight_source=WeightSource.S3,
        s3_uri="s3://example-weights/moonshotai/Kimi-K3/",
    )
    env_config = dataclasses.replace(hyperpod_env, model=model)
    app = checked_app(str(tmp_path), inspect_only=True)
    environment = cdk.Environment(account=env_config.account, region=env_config.region)
    clusters = cdk.Stack(app, "Clusters", env=environment)
    # a stack needs a resource: cdk.json's @aws-cdk/core:validateAgainstDefaultRules fails synthesis on an empty one
    cdk.CfnWaitConditionHandle(clusters, "Placeholder")
    cluster = eks.Cluster.from_cluster_attributes(
        clusters, "Cluster", cluster_name=env_config.cluster_name
    )
    provider = iam.OpenIdConnectProvider.from_open_id_connect_provider_arn(
        clusters,
        "Oidc",
        "arn:aws:iam::123456789012:oidc-provider/oidc.eks.us-west-2.amazonaws.com/id/EXAMPLE",
    )
    stack = InferenceOperatorStack(
        app,
        "Operator",
        env=environment,
        env_config=env_config,
        cluster=cluster,
        oidc_provider=provider,
        hyperpod_cluster_arn="arn:aws:sagemaker:us-west-2:123456789012:cluster/abcdefgh1234",
    )
    template = (
        app.synth().get_stack_by_name(stack.stack_name).template
    )  # raises on an unacknowledged finding
    statements = [
        s
        for r in template["Resources"].values()
        if r["Type"] == "AWS::IAM::Policy"
        for s in r["Properties"]["PolicyDocument"]["Statement"]
    ]
    reads = [s for s in statements if s["Action"] == "s3:GetObject"]
    assert any("example-weights/moonshotai/Kimi-K3/*" in json.dumps(s["Resource"]) for s in reads)


def test_s3_weights_give_the_mirror_job_write_access_to_the_prefix_only(cross_region_pipeline):
    # given the EKS variant with its weights on S3: the cluster stack binds the mirror Job's service account
    _, stage = cross_region_pipeline
    template = stage["example-cluster"]
    (association,) = _resources(template, "AWS::EKS::PodIdentityAssociation")
    assert (association["Namespace"], association["ServiceAccount"]) == (
        "llm-serving",
        "weights-mirror",
    )
    (policy,) = [
        p
        for p in _resources(template, "AWS::IAM::Policy")
        if "WeightsMirror" in json.dumps(p["Roles"])
    ]
    statements = {
        frozenset([s["Action"]] if isinstance(s["Action"], str) else s["Action"]): s
        for s in policy["PolicyDocument"]["Statement"]
    }
    listing, writing = (
        frozenset({"s3:ListBucket"}),
        frozenset({"s3:PutObject", "s3:GetObject", "s3:AbortMultipartUpload"}),
    )
    # then it may list the prefix and write, read and abort uploads under it, and nothing else
    assert set(statements) == {listing, writing}
    assert statements[listing]["Condition"] == {
        "StringLike": {"s3:prefix": ["moonshotai/Kimi-K3/*"]}
    }
    assert "example-weights/moonshotai/Kimi-K3/*" in json.dumps(statements[writing]["Resource"])


def test_the_default_app_has_no_mirror_role(synthesized):
    assert "WeightsMirror" not in json.dumps(synthesized.template("cluster")["Resources"])
