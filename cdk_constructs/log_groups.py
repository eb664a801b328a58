"""The log groups of the project's own Lambda functions, Provider frameworks and state machines: kept a month,
removed with their stack (a destroyed environment leaves no log group behind)."""

from __future__ import annotations

import aws_cdk as cdk
from aws_cdk import aws_logs as logs
from constructs import Construct


def month_log_group(scope: Construct, id: str, *, name: str | None = None) -> logs.LogGroup:
    """A log group with a month's retention, destroyed with the stack; ``name`` None lets CloudFormation name it."""
    return logs.LogGroup(
        scope,
        id,
        log_group_name=name,
        retention=logs.RetentionDays.ONE_MONTH,
        removal_policy=cdk.RemovalPolicy.DESTROY,
    )
