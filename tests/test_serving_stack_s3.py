"""The serving stack with S3 weights: the pod gets read access to the weights' prefix and nothing more.

Built on an imported cluster, so that this variant costs no second synthesis of the whole app.
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from charts.serving_spec import serving_spec_for
from charts.vllm_serving_chart import synthesize_manifests
from deployment_config.model import WeightSource


@pytest.fixture(scope="module")
def s3_serving_template(default_env) -> dict:
    import aws_cdk as cdk
    from aws_cdk import aws_eks_v2 as eks

    from stacks.serving_stack import ServingStack

    model = dataclasses.replace(default_env.model, weight_source=WeightSource.S3, s3_uri="s3://weights-bucket/kimi-k3/")
    spec = serving_spec_for(dataclasses.replace(default_env, model=model))
    app = cdk.App()
    clusters = cdk.Stack(app, "Clusters")
    cluster = eks.Cluster.from_cluster_attributes(
        clusters, "Cluster", cluster_name="example-llm",
        kubectl_provider=eks.KubectlProvider.from_kubectl_provider_attributes(
            clusters, "Kubectl", service_token="arn:aws:lambda:us-west-2:123456789012:function:kubectl"),
    )
    stack = ServingStack(app, "Serving", cluster=cluster, spec=spec, manifests=synthesize_manifests(spec))
    return app.synth().get_stack_by_name(stack.stack_name).template


def _resources(template: dict, resource_type: str) -> list[dict]:
    return [r["Properties"] for r in template["Resources"].values() if r["Type"] == resource_type]


def test_pod_identity_binds_the_vllm_service_account(s3_serving_template):
    (association,) = _resources(s3_serving_template, "AWS::EKS::PodIdentityAssociation")
    assert association["Namespace"] == "llm-serving"
    assert association["ServiceAccount"] == "vllm"
    (role,) = _resources(s3_serving_template, "AWS::IAM::Role")
    (statement,) = role["AssumeRolePolicyDocument"]["Statement"]
    assert statement["Principal"] == {"Service": "pods.eks.amazonaws.com"}


def test_weights_reader_may_only_list_and_read_the_weights_prefix(s3_serving_template):
    (policy,) = _resources(s3_serving_template, "AWS::IAM::Policy")
    statements = {json.dumps(s["Action"]): s for s in policy["PolicyDocument"]["Statement"]}
    assert set(statements) == {'"s3:ListBucket"', '"s3:GetObject"'}
    read = json.dumps(statements['"s3:GetObject"']["Resource"])
    assert "weights-bucket/kimi-k3/*" in read
    assert statements['"s3:ListBucket"']["Condition"] == {"StringLike": {"s3:prefix": ["kimi-k3/*"]}}
