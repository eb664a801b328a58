"""Every IAM statement the app deploys does what it reads as doing, by the Service Authorization Reference
(tests/iam_statements.py says what is checked; the reference is vendored in tests/data/iam_sar/, SOURCE.md)."""

from __future__ import annotations

import json

import pytest
import yaml

from tests import iam_reference
from tests.iam_statements import ALLOWANCES_FILE, Statement, findings, listed, statements

VPC = "arn:aws:ec2:us-west-2:111111111111:vpc/vpc-0abc"
INTERFACES = {
    "Fn::Join": [
        "",
        ["arn:", {"Ref": "AWS::Partition"}, ":ec2:us-west-2:111111111111:network-interface/*"],
    ]
}
SUBNET = "arn:aws:ec2:us-west-2:111111111111:subnet/subnet-0abc"


def _findings(body: dict, *, identity: bool = True) -> list[str]:
    return findings(Statement("stack/Policy", {"Effect": "Allow", **body}, identity))


def _every_template(assembly, pipeline_assembly) -> dict[str, dict]:
    stages = {
        f"{env}/{stack}": template
        for env, stacks in pipeline_assembly.stage_templates.items()
        for stack, template in stacks.items()
    }
    return {**assembly.templates, **stages, "pipeline": pipeline_assembly.template}


def test_every_statement_of_the_app_and_the_pipeline_passes_the_reference(
    assembly, pipeline_assembly
):
    # given every policy statement of both example environments, of the example pipeline and of its stages
    every = list(statements(_every_template(assembly, pipeline_assembly)))
    assert len(every) > 300  # the walk found the identity, trust and resource policies
    # then none names an action that does not exist, a condition key its action does not take there, or "*" for an
    # action that takes a resource type without an allowance
    wrong = [finding for statement in every for finding in findings(statement)]
    assert wrong == [], json.dumps(wrong, indent=1)


def test_every_service_the_templates_name_is_vendored_and_nothing_more(assembly, pipeline_assembly):
    # given the services of every action the templates name
    used = {
        action.split(":")[0]
        for statement in statements(_every_template(assembly, pipeline_assembly))
        for key in ("Action", "NotAction")
        for action in listed(statement.body.get(key, []))
        if ":" in action
    }
    # then the vendored reference holds exactly those: none missing, none kept for nothing
    assert set(iam_reference.vendored()) == used, f"regenerate: {iam_reference.REGENERATE}"


def test_every_star_allowance_is_still_needed(assembly, pipeline_assembly):
    # given the statements that grant on "*" and the allowances for them
    on_star = [
        (statement.where, action)
        for statement in statements(_every_template(assembly, pipeline_assembly))
        if statement.identity and "*" in listed(statement.body.get("Resource", []))
        for action in listed(statement.body.get("Action", []))
    ]
    allowances = yaml.safe_load(ALLOWANCES_FILE.read_text(encoding="utf-8"))
    # then each allowance, and each verbatim policy, still matches a statement: none outlives what it allowed
    unused = [
        entry
        for entry in allowances["actions"] + allowances["verbatim_policies"]
        if not any(
            entry.get("action", action) == action
            and any(part in where for part in entry["statements"])
            for where, action in on_star
        )
    ]
    assert unused == [], f"remove from {ALLOWANCES_FILE.name}: {unused}"


def test_an_action_that_does_not_exist_is_a_finding():
    # given a grant of a misspelt action and a wildcard that matches none
    found = _findings({"Action": ["ec2:DescribeInstance", "s3:GetObjct*"], "Resource": "*"})
    # then both are findings, and a real action and a matching wildcard are not
    assert [f.split(": ")[1] for f in found] == ["ec2:DescribeInstance", "s3:GetObjct*"]
    assert (
        _findings({"Action": ["ec2:DescribeInstances", "s3:GetObject*"], "Resource": SUBNET}) == []
    )


def test_a_condition_key_the_actions_resource_does_not_take_is_a_finding():
    # given CreateNetworkInterface on network interfaces, limited by ec2:Vpc, which the reference gives only its
    # subnet and security-group resources
    statement = {
        "Action": "ec2:CreateNetworkInterface",
        "Resource": INTERFACES,
        "Condition": {"StringEquals": {"ec2:Vpc": VPC}},
    }
    # then it is a finding; on the subnet, which takes ec2:Vpc, it is not
    assert any("condition key ec2:Vpc" in f for f in _findings(statement))
    assert _findings({**statement, "Resource": SUBNET}) == []
    # and neither is the key under an IfExists operator, or a global key
    assert _findings({**statement, "Condition": {"StringEqualsIfExists": {"ec2:Vpc": VPC}}}) == []
    assert _findings({**statement, "Condition": {"StringEquals": {"aws:RequestTag/a": "b"}}}) == []


def test_star_for_an_action_that_takes_a_resource_type_is_a_finding_without_an_allowance():
    # given an identity statement granting on "*" an action that takes a resource type, and one that takes none
    takes_a_type = {"Action": "ec2:DeleteNetworkInterfacePermission", "Resource": "*"}
    # then the first is a finding, the second is not, and neither is "*" in a resource policy (a key policy's "*" is
    # the key itself)
    assert any('on "*"' in f for f in _findings(takes_a_type))
    assert _findings({"Action": "ec2:DescribeSubnets", "Resource": "*"}) == []
    assert _findings({**takes_a_type, "Principal": {"AWS": "*"}}, identity=False) == []


@pytest.mark.parametrize(
    "where, allowed",
    [("stack/WaiterProviderwaiterstatemachineRoleDefaultPolicy", True), ("stack/Other", False)],
)
def test_an_allowance_applies_only_to_the_statements_it_names(where, allowed):
    # given logs:PutLogEvents on "*", allowed only in aws-cdk-lib's waiter state machine's statement
    statement = Statement(
        where, {"Effect": "Allow", "Action": "logs:PutLogEvents", "Resource": "*"}, True
    )
    # then it passes there and nowhere else
    assert (findings(statement) == []) is allowed
