"""Acknowledgements on what serves the model: the roles that read or write its weights, the
API key secret and its readers, and the serving metrics publisher."""

from __future__ import annotations

import aws_cdk as cdk
from constructs import IConstruct

from cdk_constructs.nag_acknowledgements.findings import (
    acknowledge,
    acknowledge_each,
    managed_policy_finding,
    wildcard_findings,
)


def acknowledge_weights_reader(role: IConstruct) -> None:
    """A role that reads model weights from one S3 prefix: the weights are many files whose names the publisher sets."""
    acknowledge_each(
        role,
        sorted(wildcard_findings(role)),
        "read-only access to the objects under the configured weights prefix and nothing else: a model "
        "is published as many files (118 for Kimi-K3) whose names are not known in advance",
    )


def acknowledge_weights_writer(role: IConstruct) -> None:
    """The weights mirror Job's role: writes one S3 prefix (cdk_constructs/weights_mirror_access.py)."""
    acknowledge_each(
        role,
        sorted(wildcard_findings(role)),
        "write access to the objects under the configured weights prefix only, and the token secret by "
        "its name with Secrets Manager's six random characters: a model is many files whose names the "
        "publisher sets",
    )


def acknowledge_api_key_secret(secret: IConstruct) -> None:
    """The endpoint's generated API key: rotated by hand, not by a rotation Lambda."""
    acknowledge(
        secret,
        "AwsSolutions-SMG4",
        "Every client holds a copy of the key and must be given the new one by a person. The EKS pod's key "
        "check accepts a rotated key within the driver's poll and keeps accepting the key it replaced (the "
        "secret's AWSPREVIOUS version) only until the next rotation (charts/key_proxy.py), so an unattended "
        "schedule would lock out, at its second rotation, every client not yet moved; the HyperPod worker "
        "reads the key at start, so there a rotation gives 401s until every worker is replaced. The procedure in "
        "docs/security.md rotates it when the operator chooses",
    )


def acknowledge_previous_key(construct: IConstruct) -> None:
    """The ApiKeyPreviousVersion custom resource (cdk_constructs/previous_key/): its function and aws-cdk-lib's
    Provider."""
    stack = cdk.Stack.of(construct)
    function = construct.node.find_child("OnEvent")
    acknowledge(
        construct,
        managed_policy_finding("AWSLambdaBasicExecutionRole", "service-role/"),
        "the function and the Provider framework's function write their own logs with it",
    )
    acknowledge(
        function,
        "AwsSolutions-IAM5[Resource::*]",
        "secretsmanager:GetRandomPassword takes no resource type in the Service Authorization Reference; it reads "
        "and writes nothing",
    )
    acknowledge(
        construct.node.find_child("Provider"),
        f"AwsSolutions-IAM5[Resource::<{stack.get_logical_id(function.node.default_child)}.Arn>:*]",
        "aws-cdk-lib's Provider framework invokes any version of the function, nothing else",
    )


def acknowledge_secrets_reader(role: IConstruct) -> None:
    """The vLLM pod's role decrypting the user's Hugging Face token secret, whose KMS key the app cannot name."""
    stack = cdk.Stack.of(role)
    key_wildcard = f"AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:kms:{stack.region}:{stack.account}:key/*]"
    if key_wildcard in wildcard_findings(role):
        acknowledge(
            role,
            key_wildcard,
            "kms:Decrypt only with kms:ViaService secretsmanager.REGION.amazonaws.com: Secrets Manager decrypts "
            "for this role only the two secrets its GetSecretValue statement names; the Hugging Face token's key "
            "(aws/secretsmanager or the user's own) is not known to the app",
        )


def acknowledge_serving_metrics_publisher(function_role: IConstruct) -> None:
    """The Lambda that publishes the serving metrics: the read-only calls it makes support no resource-level permissions."""
    acknowledge(
        function_role,
        "AwsSolutions-IAM5[Resource::*]",
        "cloudwatch:PutMetricData (restricted to the LLMServing namespace by condition), "
        "ec2:DescribeCapacityReservations, ec2:DescribeCapacityBlockExtensionHistory, ec2:DescribeInstances (with a "
        "bridge) and the elasticloadbalancing "
        "Describe calls take no resource types in "
        "the Service Authorization Reference; the function only reads them, and writes metrics to one namespace "
        "(sagemaker:DescribeTrainingPlan, on HyperPod, is granted on the configured plan's ARN only)",
    )
