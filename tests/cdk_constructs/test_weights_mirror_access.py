"""The weights mirror Job's role reads the Hugging Face token's secret however the configuration names it.

``model.hugging_face_token_secret`` may be a name, a partial ARN (without the six random characters Secrets Manager
appends) or a complete ARN (deployment_config/cross_section_rules/placement.py, token_secret). The Job calls
GetSecretValue with the configured value (ops_cli/weights_mirror_job.py) and IAM matches the secret's complete ARN,
so the role must name it as the vLLM pod's grant does (cdk_constructs/serving_secrets.py, secret_arn_patterns).
"""

from __future__ import annotations

import aws_cdk as cdk
import pytest
from aws_cdk import aws_eks_v2 as eks
from aws_cdk.assertions import Template

from cdk_constructs.weights_mirror_access import WeightsMirrorAccess
from tests.conftest import bare_app

PREFIX = "arn:aws:secretsmanager:us-west-2:123456789012:secret:"
CASES = {
    "Name": ("llm-serving/hf-token", f"{PREFIX}llm-serving/hf-token-??????"),
    "PartialArn": (f"{PREFIX}llm-serving/hf-token", f"{PREFIX}llm-serving/hf-token-??????"),
    "CompleteArn": (f"{PREFIX}llm-serving/hf-token-AbC123", f"{PREFIX}llm-serving/hf-token-AbC123"),
}


@pytest.fixture(scope="module")
def template() -> Template:
    # given one small stack with a mirror role per way of naming the secret (no app synthesis)
    stack = cdk.Stack(
        bare_app(), "Mirror", env=cdk.Environment(account="123456789012", region="us-west-2")
    )
    cluster = eks.Cluster.from_cluster_attributes(stack, "Cluster", cluster_name="example")
    for construct_id, (secret, _) in CASES.items():
        WeightsMirrorAccess(
            stack,
            construct_id,
            cluster=cluster,
            s3_uri="s3://example-weights/moonshotai/Kimi-K3/",
            token_secret=secret,
        )
    return Template.from_stack(stack)


def _secret_resources(template: Template, construct_id: str) -> list:
    for logical_id, policy in template.find_resources("AWS::IAM::Policy").items():
        if logical_id.startswith(construct_id):
            for statement in policy["Properties"]["PolicyDocument"]["Statement"]:
                if statement["Action"] == "secretsmanager:GetSecretValue":
                    resource = statement["Resource"]
                    return resource if isinstance(resource, list) else [resource]
    raise AssertionError(f"no GetSecretValue statement on {construct_id}'s role")


@pytest.mark.parametrize("construct_id", CASES)
def test_the_mirror_role_matches_the_token_secret_s_complete_arn(template, construct_id):
    # then the role's GetSecretValue names the secret with its random suffix matched (a partial ARN as given would
    # match no secret, and the Job would be denied), a complete ARN exactly
    resources = _secret_resources(template, construct_id)
    expected = CASES[construct_id][1]
    resolved = [
        r
        if isinstance(r, str)
        else "".join(
            "aws" if part == {"Ref": "AWS::Partition"} else part for part in r["Fn::Join"][1]
        )
        for r in resources
    ]
    assert resolved == [expected]
