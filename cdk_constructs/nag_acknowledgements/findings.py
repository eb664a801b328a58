"""How an acknowledgement is written: the plugin names, :func:`acknowledge` on one construct, and the wildcard findings
cdk-nag will report on the IAM policies below a construct (:func:`wildcard_findings`), so that each is acknowledged by
its exact id."""

from __future__ import annotations

import json
from collections.abc import Iterable

import aws_cdk as cdk
from aws_cdk import aws_iam as iam
from constructs import IConstruct

#: Why aws-cdk-lib's execution log statement of a state machine is on "*" (Service Authorization Reference, CloudWatch
#: Logs; Step Functions developer guide, "Using CloudWatch Logs to log execution history in Step Functions").
STEP_FUNCTIONS_LOG_DELIVERY = (
    "the CloudWatch Logs log-delivery actions Step Functions uses (CreateLogDelivery, GetLogDelivery, "
    "UpdateLogDelivery, DeleteLogDelivery, ListLogDeliveries, PutResourcePolicy, DescribeResourcePolicies, "
    "DescribeLogGroups) take no resource types; aws-cdk-lib puts logs:CreateLogStream and logs:PutLogEvents, which do, "
    "in the same statement on *, and it is left as the library writes it"
)

#: cdk-nag reports its findings under this validation plugin name; acknowledgements must carry it.
PLUGIN = "AwsSolutions"


#: aws-cdk-lib's own template validation (cfn-lint rules) reports under this name.
CLOUDFORMATION_VALIDATE = "CloudFormation-Validate"


def acknowledge(scope: IConstruct, finding: str, reason: str, plugin: str = PLUGIN) -> None:
    """Accept ``finding`` (a rule id, optionally with its ``[detail]``) on ``scope`` and everything below it."""
    cdk.Validations.of(scope).acknowledge(
        cdk.Acknowledgment(id=f"{plugin}::{finding}", reason=reason)
    )


def managed_policy_finding(policy_name: str, path: str = "") -> str:
    return f"AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/{path}{policy_name}]"


def acknowledge_each(scope: IConstruct, findings: Iterable[str], reason: str) -> None:
    """cdk-nag reports wildcard findings one by one (``IAM5[Action::s3:List*]``); each needs its own acknowledgement."""
    for finding in findings:
        acknowledge(scope, finding, reason)


def _nag_text(value) -> str:
    """A resolved CloudFormation value written the way cdk-nag writes it in a finding id."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        if "Ref" in value:
            return f"<{value['Ref']}>"
        if "Fn::GetAtt" in value:
            return f"<{value['Fn::GetAtt'][0]}.{value['Fn::GetAtt'][1]}>"
        if "Fn::Join" in value:
            separator, parts = value["Fn::Join"]
            return separator.join(_nag_text(p) for p in parts)
    return json.dumps(value, separators=(",", ":"))


def _as_list(value) -> list:
    return value if isinstance(value, list) else [value]


def wildcard_findings(scope: IConstruct) -> set[str]:
    """The ``AwsSolutions-IAM5[...]`` findings that the IAM policies below ``scope`` will produce."""
    stack = cdk.Stack.of(scope)
    findings: set[str] = set()
    for child in scope.node.find_all():
        documents = []
        if isinstance(child, (iam.CfnPolicy, iam.CfnManagedPolicy)):
            documents.append(child.policy_document)
        elif isinstance(child, iam.CfnRole) and child.policies:
            documents += [p.policy_document for p in child.policies]
        for document in documents:
            resolved = stack.resolve(document)
            for statement in resolved.get("Statement", []):
                for action in _as_list(statement.get("Action", [])):
                    if "*" in action:
                        findings.add(f"AwsSolutions-IAM5[Action::{action}]")
                for resource in _as_list(statement.get("Resource", [])):
                    text = _nag_text(resource)
                    if "*" in text:
                        findings.add(f"AwsSolutions-IAM5[Resource::{text}]")
    return findings
