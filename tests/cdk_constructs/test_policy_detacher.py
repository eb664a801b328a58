"""DetachOnDelete: on delete, the managed policy a user attached is detached from everyone, so that CloudFormation can
delete it (IAM refuses DeletePolicy while it is attached) and ``cdk destroy`` leaves no stack in DELETE_FAILED.

The handler runs against a botocore Stubber (each request is checked against IAM's real API model); its template is
tested with the access stack (tests/stacks/test_access_stack.py).
"""

from __future__ import annotations

import pytest

from cdk_constructs.policy_detacher.runtime import handler
from tests.lambda_handlers import handler_with_stubbed_clients

POLICY = "arn:aws:iam::123456789012:policy/reach-access-SessionPolicy0123ABCD"
PHYSICAL_ID = handler.physical_resource_id(POLICY)
LISTED = {"PolicyArn": POLICY, "PolicyUsageFilter": "PermissionsPolicy"}


def event(request_type: str, **properties) -> dict:
    return {
        "RequestType": request_type,
        "PhysicalResourceId": PHYSICAL_ID,
        "ResourceProperties": {
            "ServiceToken": "arn:aws:lambda:fn",
            "PolicyArn": POLICY,
            **properties,
        },
    }


def page(users=(), groups=(), roles=(), marker: str | None = None) -> dict:
    response = {
        "PolicyUsers": [{"UserName": u, "UserId": "AIDA" + "A" * 16} for u in users],
        "PolicyGroups": [{"GroupName": g, "GroupId": "AGPA" + "A" * 16} for g in groups],
        "PolicyRoles": [{"RoleName": r, "RoleId": "AROA" + "A" * 16} for r in roles],
        "IsTruncated": marker is not None,
    }
    if marker:
        response["Marker"] = marker
    return response


@pytest.fixture
def iam(monkeypatch):
    with handler_with_stubbed_clients(
        handler, monkeypatch, ("iam",), region="us-east-1"
    ) as stubbers:
        yield stubbers["iam"]


def test_delete_detaches_the_policy_from_every_user_group_and_role_on_every_page(iam, capsys):
    # given the session policy attached to a user and a group on the first page and to the admin role on the second
    iam.add_response(
        "list_entities_for_policy", page(users=["jane"], groups=["ops"], marker="m1"), LISTED
    )
    iam.add_response("list_entities_for_policy", page(roles=["Admin"]), {**LISTED, "Marker": "m1"})
    for call, name_field, name in (
        ("detach_user_policy", "UserName", "jane"),
        ("detach_group_policy", "GroupName", "ops"),
        ("detach_role_policy", "RoleName", "Admin"),
    ):
        iam.add_response(call, {}, {name_field: name, "PolicyArn": POLICY})
    # when the stack is deleted
    answer = handler.on_event(event("Delete"))
    # then each is detached (the fixture checks every queued call was made), and the resource's id is kept
    assert answer == {"PhysicalResourceId": PHYSICAL_ID}
    assert "detached " + POLICY + " from role Admin" in capsys.readouterr().out


def test_delete_of_a_policy_attached_to_no_one_or_already_gone_does_nothing_else(iam):
    iam.add_response("list_entities_for_policy", page(), LISTED)
    handler.on_event(event("Delete"))
    iam.add_client_error("list_entities_for_policy", "NoSuchEntity", http_status_code=404)
    handler.on_event(event("Delete"))


def test_an_entity_deleted_meanwhile_is_skipped(iam):
    iam.add_response("list_entities_for_policy", page(users=["gone"], roles=["Admin"]), LISTED)
    iam.add_client_error("detach_user_policy", "NoSuchEntity", http_status_code=404)
    iam.add_response("detach_role_policy", {}, {"RoleName": "Admin", "PolicyArn": POLICY})
    handler.on_event(event("Delete"))


def test_a_refused_detach_fails_the_delete_with_the_command_after_trying_the_rest(iam):
    # given a role IAM will not detach (the function's own policy is missing, an SCP denies it)
    iam.add_response("list_entities_for_policy", page(users=["jane"], roles=["Locked"]), LISTED)
    iam.add_response("detach_user_policy", {}, {"UserName": "jane", "PolicyArn": POLICY})
    iam.add_client_error("detach_role_policy", "AccessDenied", http_status_code=403)
    # then the delete fails, naming the role and the exact command that detaches it
    with pytest.raises(handler.NotDetached) as refused:
        handler.on_event(event("Delete"))
    assert f"aws iam detach-role-policy --role-name Locked --policy-arn {POLICY}" in str(
        refused.value
    )
    assert "jane" not in str(refused.value)


def test_pages_that_never_end_fail_the_delete_instead_of_looping(iam, monkeypatch):
    monkeypatch.setattr(handler, "MAX_PAGES", 2)
    iam.add_response("list_entities_for_policy", page(users=["a"], marker="m1"), LISTED)
    iam.add_response(
        "list_entities_for_policy", page(users=["b"], marker="m2"), {**LISTED, "Marker": "m1"}
    )
    with pytest.raises(handler.NotDetached, match="aws iam list-entities-for-policy --policy-arn"):
        handler.on_event(event("Delete"))


@pytest.mark.parametrize("request_type", ["Create", "Update"])
def test_create_and_update_call_nothing_and_name_the_resource_by_its_policy(iam, request_type):
    assert handler.on_event(event(request_type)) == {"PhysicalResourceId": PHYSICAL_ID}
    # another policy (the old one replaced) is another resource: CloudFormation deletes the old, which detaches it
    assert handler.physical_resource_id(POLICY + "X") != PHYSICAL_ID


def test_a_property_that_is_no_policy_arn_fails_the_create_naming_it():
    with pytest.raises(ValueError, match="PolicyArn must be the ARN of a managed policy"):
        handler.on_event(event("Create", PolicyArn="SessionPolicy"))
