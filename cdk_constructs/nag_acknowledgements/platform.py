"""Acknowledgements on the platform: the network, the EKS cluster and its node roles, aws-cdk-lib's own kubectl
provider and BucketDeployment Lambdas, the observability add-ons' roles and the image cache's pullers."""

from __future__ import annotations

from collections.abc import Iterable

import aws_cdk as cdk
from constructs import IConstruct

from cdk_constructs.nag_acknowledgements.findings import (
    CLOUDFORMATION_VALIDATE,
    acknowledge,
    acknowledge_each,
    managed_policy_finding,
    wildcard_findings,
)

#: Why each AWS managed policy on an EKS node role is accepted.
NODE_POLICY_REASONS = {
    "AmazonEKSWorkerNodePolicy": "required by EKS for a node to register with the cluster; AWS keeps it current",
    "AmazonEC2ContainerRegistryReadOnly": "nodes pull system images (VPC CNI, kube-proxy) from EKS's ECR registries",
    "AmazonEKS_CNI_Policy": "the VPC CNI on the node assigns pod IPs; AWS keeps the policy in step with the CNI",
    "AmazonSSMManagedInstanceCore": "shell access to GPU nodes through Session Manager instead of SSH and open ports",
}


def acknowledge_explicit_zones(vpc: IConstruct) -> None:
    acknowledge(
        vpc,
        "W3010",
        "the zones are explicit on purpose: GPU nodes must be in the Capacity Block's zone, "
        "and explicit zones keep synthesis free of AWS look-ups",
        plugin=CLOUDFORMATION_VALIDATE,
    )


def acknowledge_node_role(role: IConstruct, policy_names: Iterable[str]) -> None:
    for name in policy_names:
        acknowledge(role, managed_policy_finding(name), NODE_POLICY_REASONS[name])


def acknowledge_cluster_role(role: IConstruct) -> None:
    acknowledge(
        role,
        managed_policy_finding("AmazonEKSClusterPolicy"),
        "the EKS control plane role needs exactly this AWS managed policy",
    )


def acknowledge_kubectl_provider(provider: IConstruct) -> None:
    """The kubectl provider is aws-cdk-lib's own Lambda construct; its roles and runtime are not ours to change."""
    stack = cdk.Stack.of(provider)
    lambda_policies = {
        "service-role/AWSLambdaBasicExecutionRole": "the provider's Lambdas write their logs to CloudWatch Logs",
        "service-role/AWSLambdaVPCAccessExecutionRole": "the provider's Lambdas run in the private subnets to reach "
        "the private API endpoint",
        "AmazonEC2ContainerRegistryReadOnly": "aws-cdk-lib gives the kubectl handler ECR read access for Helm OCI charts",
    }
    for name, reason in lambda_policies.items():
        acknowledge(provider, managed_policy_finding(name), reason)
    for child in provider.node.find_all():
        if isinstance(child, cdk.CfnCondition) and child.node.id == "HasEcrPublic":
            condition = stack.get_logical_id(child)
            acknowledge(
                provider,
                'AwsSolutions-IAM4[Policy::{"Fn::If":["'
                + condition
                + '",{"Fn::Join":["",["arn:",{"Ref":"AWS::Partition"},'
                '":iam::aws:policy/AmazonElasticContainerRegistryPublicReadOnly"]]},{"Ref":"AWS::NoValue"}]}]',
                "public ECR read access, only when a chart comes from public ECR (aws-cdk-lib's condition)",
            )
    handler = provider.node.find_child("Handler").node.default_child
    acknowledge(
        provider,
        f"AwsSolutions-IAM5[Resource::<{stack.get_logical_id(handler)}.Arn>:*]",
        "the provider framework may invoke any version of its own handler function (ARN:*), nothing else",
    )
    acknowledge(
        provider,
        "AwsSolutions-L1",
        "the kubectl handler's runtime is pinned by aws-cdk-lib to match its kubectl layer",
    )
    acknowledge_each(
        provider,
        [
            f"AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-{stack.account}-{stack.region}/*]",
            "AwsSolutions-IAM5[Action::s3:GetObject*]",
            "AwsSolutions-IAM5[Action::s3:GetBucket*]",
            "AwsSolutions-IAM5[Action::s3:List*]",
        ],
        "the kubectl handler reads Helm chart assets (the HyperPod dependencies chart) from the CDK asset bucket of this "
        "account and region, as aws-cdk-lib's asset grant writes it; the bucket holds nothing but this app's assets",
    )


def acknowledge_bucket_deployment(scope: IConstruct, destination_bucket: IConstruct) -> None:
    """The singleton Lambda that BucketDeployment adds to the stack of ``scope``: it copies the CDK asset into
    ``destination_bucket``."""
    stack = cdk.Stack.of(scope)
    destination = stack.get_logical_id(destination_bucket.node.default_child)
    reason = (
        "aws-cdk-lib's BucketDeployment Lambda: it reads the CDK asset bucket and replaces the objects of the "
        "destination bucket; policy and runtime are written by aws-cdk-lib"
    )
    for child in stack.node.children:
        if child.node.id.startswith("Custom::CDKBucketDeployment"):
            acknowledge(
                child,
                managed_policy_finding("AWSLambdaBasicExecutionRole", "service-role/"),
                reason,
            )
            acknowledge_each(
                child,
                [
                    *(
                        f"AwsSolutions-IAM5[Action::s3:{action}]"
                        for action in (
                            "GetBucket*",
                            "GetObject*",
                            "List*",
                            "Abort*",
                            "DeleteObject*",
                        )
                    ),
                    f"AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-{stack.account}-{stack.region}/*]",
                    f"AwsSolutions-IAM5[Resource::<{destination}.Arn>/*]",
                ],
                reason,
            )
            acknowledge(child, "AwsSolutions-L1", reason)


def acknowledge_cloudwatch_agent_role(role: IConstruct) -> None:
    """The Pod Identity role of the CloudWatch Observability add-on's agent and Fluent Bit."""
    acknowledge(
        role,
        managed_policy_finding("CloudWatchAgentServerPolicy"),
        "the policy AWS documents for the CloudWatch Observability add-on (metrics as embedded-metric-format logs, "
        "container logs, EC2 and EBS descriptions); AWS keeps it in step with the agent's needs as the add-on changes",
    )


def acknowledge_image_cache_puller(role: IConstruct, repository_prefix: str) -> None:
    """A node role that pulls the vLLM image through the ECR pull-through cache (cdk_constructs/image_cache.py)."""
    findings = [
        f for f in wildcard_findings(role) if f.endswith(f":repository/{repository_prefix}/*]")
    ]
    acknowledge_each(
        role,
        findings,
        "ecr:BatchImportUpstreamImage and ecr:CreateRepository on the pull-through cache's repositories only "
        "(this account and region, under its prefix): the first pull of an image creates its repository, "
        "whose name is the Docker Hub repository's, and ECR documents no narrower scope",
    )


def acknowledge_hyperpod_observability_role(role: IConstruct) -> None:
    """The Pod Identity role of the HyperPod observability add-on's collector: the log groups AWS documents for it."""
    findings = {f for f in wildcard_findings(role) if "/aws/sagemaker/Clusters/*" in f}
    acknowledge_each(
        role,
        sorted(findings),
        "the CloudWatch Logs statement AWS documents for the HyperPod observability add-on's role "
        '("Troubleshooting the Amazon SageMaker HyperPod observability add-on"): the add-on names its log '
        "groups under /aws/sagemaker/Clusters/ itself, so the app cannot name them; only that prefix",
    )


def acknowledge_policy_detacher(detacher: IConstruct) -> None:
    """The DetachOnDelete custom resource (cdk_constructs/policy_detacher/): its function and aws-cdk-lib's Provider."""
    stack = cdk.Stack.of(detacher)
    function = detacher.node.find_child("OnEvent")
    acknowledge(
        detacher,
        managed_policy_finding("AWSLambdaBasicExecutionRole", "service-role/"),
        "the detacher's function and the Provider framework's function write their own logs with it",
    )
    acknowledge_each(
        function,
        sorted(
            f for f in wildcard_findings(function) if f.endswith(("user/*]", "group/*]", "role/*]"))
        ),
        "iam:Detach{User,Group,Role}Policy only with iam:PolicyARN equal to this stack's own policy: whoever the "
        "user attached it to (docs/access.md) is unknown at synthesis; the function can detach nothing else",
    )
    acknowledge(
        detacher.node.find_child("Provider"),
        f"AwsSolutions-IAM5[Resource::<{stack.get_logical_id(function.node.default_child)}.Arn>:*]",
        "aws-cdk-lib's Provider framework invokes any version of the detacher's function, nothing else",
    )
