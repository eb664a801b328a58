"""No IAM statement this app writes grants an action on "*" when the action takes a resource type.

The table below lists the actions the app's own statements grant on "*", each of which takes no resource type in the
Service Authorization Reference (https://docs.aws.amazon.com/service-authorization/latest/reference/, the pages of
Amazon EC2, Elastic Load Balancing V2, Amazon CloudWatch and CloudWatch Logs, AWS X-Ray) or is limited by a condition
key of its own. A statement with another action on "*" fails the test: give it the resource's ARN, or, where the
reference says the action truly takes none, add it here with the reason. Statements written by libraries verbatim (the
AWS Load Balancer Controller's official policy) are left out, and so are AWS managed policies and the CDK Pipelines
stack's own roles.
"""

from __future__ import annotations

import json

import pytest

#: Describe/List/Get calls that take no resource type.
NO_RESOURCE_TYPE = frozenset(
    {
        "ec2:DescribeInstances",
        "ec2:DescribeInstanceTypes",
        "ec2:DescribeNetworkInterfaces",
        "ec2:DescribeSubnets",
        "ec2:DescribeSecurityGroups",
        "ec2:DescribeVpcs",
        "ec2:DescribeDhcpOptions",
        "ec2:DescribeTags",
        "ec2:DescribeCapacityReservations",
        # access level List, condition key ec2:Region only (cdk_constructs/serving_metrics/, with its source)
        "ec2:DescribeCapacityBlockExtensionHistory",
        "elasticloadbalancing:DescribeLoadBalancers",
        "elasticloadbalancing:DescribeTags",
        "elasticloadbalancing:DescribeTargetGroups",
        "elasticloadbalancing:DescribeTargetHealth",
        "elasticloadbalancing:DescribeListeners",
        "cloudwatch:GetMetricData",
        "cloudwatch:GetMetricStatistics",
        "cloudwatch:ListMetrics",
        # names a permission (eni-perm-…), not an interface; on "*" until the reference confirms it takes network-interface
        # (cdk_constructs/hyperpod_cluster/)
        "ec2:DeleteNetworkInterfacePermission",
        # takes no resource type; the app's statement limits it with cloudwatch:namespace
        "cloudwatch:PutMetricData",
        "xray:PutTraceSegments",
        "xray:PutTelemetryRecords",
        "xray:GetSamplingRules",
        "xray:GetSamplingTargets",
        # Step Functions' log delivery (nag_acknowledgements.STEP_FUNCTIONS_LOG_DELIVERY)
        "logs:CreateLogDelivery",
        "logs:GetLogDelivery",
        "logs:UpdateLogDelivery",
        "logs:DeleteLogDelivery",
        "logs:ListLogDeliveries",
        "logs:PutResourcePolicy",
        "logs:DescribeResourcePolicies",
        "logs:DescribeLogGroups",
    }
)
#: aws-cdk-lib puts these in the same execution-log statement as the log delivery actions; left as it writes them.
LIBRARY_LOG_STATEMENT = frozenset({"logs:CreateLogStream", "logs:PutLogEvents"})
#: Policies written by a library verbatim, by logical id prefix.
VERBATIM = ("LoadBalancerControllerPolicy",)


def _statements(templates: dict[str, dict]):
    for stack_name, template in templates.items():
        for logical_id, resource in template["Resources"].items():
            if logical_id.startswith(VERBATIM):
                continue
            properties = resource["Properties"] if "Properties" in resource else {}
            documents = []
            if resource["Type"] in ("AWS::IAM::Policy", "AWS::IAM::ManagedPolicy"):
                documents.append(properties["PolicyDocument"])
            elif resource["Type"] == "AWS::IAM::Role":
                documents += [p["PolicyDocument"] for p in properties.get("Policies", [])]
            for document in documents:
                for statement in document["Statement"]:
                    yield stack_name, logical_id, statement


@pytest.mark.parametrize("which", ["default app", "pipeline stages"])
def test_no_action_that_takes_a_resource_type_is_granted_on_star(
    which, assembly, pipeline_assembly
):
    # given every IAM statement of the example environments, deployed directly or by the example pipeline's stages
    templates = (
        assembly.templates
        if which == "default app"
        else {
            f"{env}/{stack}": template
            for env, stacks in pipeline_assembly.stage_templates.items()
            for stack, template in stacks.items()
        }
    )
    assert templates
    # then none grants on "*" an action that takes a resource type
    wrong = []
    for stack_name, logical_id, statement in _statements(templates):
        resources = (
            statement["Resource"]
            if isinstance(statement["Resource"], list)
            else [statement["Resource"]]
        )
        if "*" not in resources:
            continue
        actions = (
            statement["Action"] if isinstance(statement["Action"], list) else [statement["Action"]]
        )
        allowed = NO_RESOURCE_TYPE | (
            LIBRARY_LOG_STATEMENT if "logs:CreateLogDelivery" in actions else frozenset()
        )
        wrong += [
            f"{stack_name}/{logical_id}: {action}" for action in actions if action not in allowed
        ]
    assert not wrong, json.dumps(wrong, indent=1)
