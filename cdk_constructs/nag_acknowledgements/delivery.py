"""Acknowledgements on how a change reaches an environment: the CDK pipeline and its replication buckets, the
deploy-time smoke test and the promotion gate."""

from __future__ import annotations

import aws_cdk as cdk
from constructs import IConstruct

from cdk_constructs.nag_acknowledgements.findings import (
    STEP_FUNCTIONS_LOG_DELIVERY,
    acknowledge,
    acknowledge_each,
    managed_policy_finding,
    wildcard_findings,
)


def acknowledge_pipeline(pipeline: IConstruct) -> None:
    """aws-cdk-lib's CodePipeline construct: its roles, key, artifact bucket and helper Lambda are written by the library.
    Call after the pipeline is built, so that every role and policy exists."""
    reason = (
        "CDK Pipelines writes these roles: its CodeBuild projects must write their own log groups and report "
        "groups, use the pipeline's artifact bucket and key, and assume the bootstrap roles of target accounts"
    )
    findings = sorted(wildcard_findings(pipeline))
    # The smoke steps' own statements (stacks/pipeline_stack.py, api_key_reader_statements) have their own reason.
    api_key = [
        f
        for f in findings
        if (":secretsmanager:" in f and "/api-key-" in f) or f.endswith(":key/*]")
    ]
    acknowledge_each(
        pipeline,
        api_key,
        "the smoke step reads the target environment's API key: the secret's ARN ends in six random "
        "characters Secrets Manager adds, and its KMS key is made in the target account, its id unknown "
        "here; Decrypt is allowed only through Secrets Manager of that region and only for this secret",
    )
    acknowledge_each(pipeline, [f for f in findings if f not in api_key], reason)
    acknowledge(
        pipeline,
        managed_policy_finding("AWSLambdaBasicExecutionRole", "service-role/"),
        "the security check Lambda of CDK Pipelines (permission broadening) writes its logs",
    )
    acknowledge(
        pipeline,
        "AwsSolutions-S1",
        "the pipeline's artifact bucket holds build artifacts only, encrypted with the pipeline's KMS key; "
        "every access goes through CodePipeline and CodeBuild, which CloudTrail records",
    )


def acknowledge_replication_bucket(bucket: IConstruct) -> None:
    """CodePipeline's replication bucket in the support stack of a region other than the pipeline's."""
    acknowledge(
        bucket,
        "AwsSolutions-S1",
        "CodePipeline's cross-region replication bucket: it holds copies of the pipeline's artifacts for the "
        "deploy actions of that region, encrypted with the pipeline's key, accessed only by CodePipeline",
    )


def acknowledge_deploy_time_smoke_test(construct: IConstruct) -> None:
    """The deploy-time smoke test (cdk_constructs/deploy_time_smoke_test/): its functions, its poller state machine and
    aws-cdk-lib's Provider framework."""
    stack = cdk.Stack.of(construct)
    check, report, start = (
        construct.node.find_child(name) for name in ("Check", "ReportError", "Start")
    )
    acknowledge(
        construct,
        managed_policy_finding("AWSLambdaVPCAccessExecutionRole", "service-role/"),
        "the smoke test's two functions in the VPC create and delete their network interfaces and write their "
        "logs with the policy AWS documents for Lambda functions in a VPC",
    )
    acknowledge(
        construct,
        managed_policy_finding("AWSLambdaBasicExecutionRole", "service-role/"),
        "the smoke test's start function and the Provider framework's function write their own logs with it",
    )
    acknowledge(
        check,
        "AwsSolutions-IAM5[Resource::*]",
        "elasticloadbalancing:DescribeLoadBalancers, DescribeTags and DescribeListeners take no resource types "
        "in the Service Authorization Reference; the function only reads them, to find the endpoint's load "
        "balancer by its tags (and, on HyperPod, its listener's certificate)",
    )
    acknowledge_each(
        check,
        [f for f in wildcard_findings(check) if ":acm:" in f and f.endswith(":certificate/*]")],
        "HyperPod: acm:DescribeCertificate and GetCertificate (certificate and chain, never a private key) "
        "on this account's certificates in this region: the Inference Operator imports the certificate "
        "it puts on its load balancer at run time, under an id unknown at synthesis",
    )
    acknowledge_each(
        check,
        [f for f in wildcard_findings(check) if ":kms:" in f and f.endswith(":key/*]")],
        "kms:Decrypt only through Secrets Manager of this region (kms:ViaService) and only for the "
        "environment's API key secret (kms:EncryptionContext:SecretARN): the key is the serving stack's, "
        "named here without a cross-stack export",
    )
    acknowledge_each(
        check,
        [f for f in wildcard_findings(check) if ":secret:" in f],
        "the environment's API key secret by its name; Secrets Manager ends a secret's ARN with six random "
        "characters, which the ?????? stand for",
    )
    poller = construct.node.find_child("Poller")
    acknowledge(
        poller,
        "AwsSolutions-IAM5[Resource::*]",
        "aws-cdk-lib's statements for the poller's tracing and execution log: X-Ray's trace actions and "
        + STEP_FUNCTIONS_LOG_DELIVERY,
    )
    acknowledge_each(
        poller,
        [
            f"AwsSolutions-IAM5[Resource::<{stack.get_logical_id(function.node.default_child)}.Arn>:*]"
            for function in (check, report)
        ],
        "the poller invokes any version of the smoke test's own functions, nothing else (aws-cdk-lib's LambdaInvoke)",
    )
    provider = construct.node.find_child("Provider")
    acknowledge(
        provider,
        f"AwsSolutions-IAM5[Resource::<{stack.get_logical_id(start.node.default_child)}.Arn>:*]",
        "aws-cdk-lib's Provider framework invokes any version of the smoke test's start function, nothing else",
    )


def acknowledge_promotion_gate(gate: IConstruct, check: IConstruct) -> None:
    """The promotion gate (cdk_constructs/promotion_gate.py): its results bucket, the load test Job's role and the
    smoke test's check function's access to the results. Call after the Job and the check function's grants exist."""
    acknowledge(
        gate.node.find_child("Results"),
        "AwsSolutions-S1",
        "benchmark results only, written by the gate's Job role and read by the smoke test's function, both "
        "limited to results/IMAGE/ by IAM; a server access log bucket per environment would log only those two",
    )
    acknowledge_each(
        gate.node.find_child("PodRole"),
        [f for f in wildcard_findings(gate.node.find_child("PodRole")) if "Resource::" in f],
        "the Job may write only results/IMAGE/RUN/cN.json and read only results/IMAGE/RUN/start of the "
        "image it measures; RUN is the time of the deployment, known only when the check starts",
    )
    acknowledge_each(
        check,
        [f for f in wildcard_findings(check) if "Resource::<" in f and "Results" in f],
        "the check function reads this image's results and writes only the start and summary objects of "
        "a run under results/IMAGE/; RUN is the time of the deployment, known only when the check starts",
    )
