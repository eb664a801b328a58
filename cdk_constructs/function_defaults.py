"""What the project's own Lambda functions share: their Python runtime, and the log groups of the functions, Provider
frameworks and state machines (kept a month, removed with their stack: a destroyed environment leaves none behind)."""

from __future__ import annotations

import aws_cdk as cdk
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from constructs import Construct

#: The latest Python runtime aws-cdk-lib 2.275 knows (cdk-nag's AwsSolutions-L1 wants the latest of the family): the
#: destroy waiters, the deploy-time smoke test and the serving metrics publisher.
RUNTIME = lambda_.Runtime.PYTHON_3_14


def month_log_group(scope: Construct, id: str, *, name: str | None = None) -> logs.LogGroup:
    """A log group with a month's retention, destroyed with the stack; ``name`` None lets CloudFormation name it."""
    return logs.LogGroup(
        scope,
        id,
        log_group_name=name,
        retention=logs.RetentionDays.ONE_MONTH,
        removal_policy=cdk.RemovalPolicy.DESTROY,
    )
