"""Lambda handler of the DetachOnDelete custom resource (aws_cdk.custom_resources.Provider, onEvent only).

Create and Update do nothing. On Delete, every user, group and role the managed policy ``PolicyArn`` is attached to
has it detached (``ListEntitiesForPolicy``, then ``DetachUserPolicy``, ``DetachGroupPolicy``, ``DetachRolePolicy``), so
that CloudFormation, which deletes this resource before the policy it names, can then delete the policy: IAM refuses
``DeletePolicy`` while the policy is attached (IAM API reference, DeletePolicy: "Before you can delete a managed
policy, you must first detach the policy from all users, groups, and roles that it is attached to",
https://docs.aws.amazon.com/IAM/latest/APIReference/API_DeletePolicy.html).

An entity already gone, or the policy itself, is nothing to do. A detach IAM refuses fails the delete at once, with
the AWS CLI command that detaches each entity left, so that the stack's DELETE_FAILED reason says what to run.

Runs on the Lambda Python runtime (3.12 or later) with its boto3; no other dependency.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

import boto3
from botocore.exceptions import ClientError

#: ListEntitiesForPolicy answers at most 100 entities a page (MaxItems, IAM API reference); 50 pages are 5,000
#: attachments, far above any real use of one policy: beyond that the delete fails with a clear error, never loops.
MAX_PAGES = 50
#: A custom resource's response to CloudFormation holds at most 4096 bytes; the framework adds a stack trace.
MAX_ERROR_CHARS = 1500
#: Kind of entity -> (the ListEntitiesForPolicy field, its name field, the detach call, the AWS CLI command's names).
ENTITIES = {
    "user": ("PolicyUsers", "UserName", "detach_user_policy", "detach-user-policy", "--user-name"),
    "group": ("PolicyGroups", "GroupName", "detach_group_policy", "detach-group-policy", "--group-name"),
    "role": ("PolicyRoles", "RoleName", "detach_role_policy", "detach-role-policy", "--role-name"),
}


def client(service_name: str):
    """The boto3 client of ``service_name``; tests replace this function."""
    return boto3.client(service_name)


class NotDetached(RuntimeError):
    """Raised when IAM refused a detach: its message names each entity left and the command that detaches it."""


def policy_arn(properties: Mapping) -> str:
    arn = properties.get("PolicyArn")
    if not isinstance(arn, str) or ":policy/" not in arn:
        raise ValueError(f"PolicyArn must be the ARN of a managed policy (arn:PARTITION:iam::ACCOUNT:policy/NAME); got {arn!r}")
    return arn


def physical_resource_id(arn: str) -> str:
    """Stable for one policy; another policy (the old one replaced) is another resource, whose delete detaches the old."""
    return f"DetachOnDelete-{hashlib.sha256(arn.encode()).hexdigest()[:16]}"


def _error_code(error: ClientError) -> str:
    return str(error.response.get("Error", {}).get("Code", ""))


def attached_entities(iam, arn: str) -> list[tuple[str, str]]:
    """(kind, name) of every user, group and role the policy is attached to as a permissions policy; empty when the
    policy is gone already."""
    entities: list[tuple[str, str]] = []
    marker = None
    for _ in range(MAX_PAGES):
        request = {"PolicyArn": arn, "PolicyUsageFilter": "PermissionsPolicy"}
        if marker:
            request["Marker"] = marker
        try:
            page = iam.list_entities_for_policy(**request)
        except ClientError as error:
            if _error_code(error) == "NoSuchEntity":
                return []
            raise
        for kind, (field, name_field, *_rest) in ENTITIES.items():
            entities += [(kind, item[name_field]) for item in page.get(field, [])]
        marker = page.get("Marker") if page.get("IsTruncated") else None
        if not marker:
            return entities
    raise NotDetached(
        f"{arn} is attached to more than {MAX_PAGES} pages of users, groups and roles; nothing was detached. List them "
        f"with: aws iam list-entities-for-policy --policy-arn {arn}, detach each, then delete the stack again"
    )


def detach_all(iam, arn: str) -> list[tuple[str, str]]:
    """Detach the policy from every entity it is attached to; the (kind, name) detached. Raises :class:`NotDetached`
    naming what IAM refused, after trying every entity."""
    detached, refused = [], []
    for kind, name in attached_entities(iam, arn):
        _field, name_field, call, command, option = ENTITIES[kind]
        try:
            getattr(iam, call)(**{name_field: name, "PolicyArn": arn})
        except ClientError as error:
            if _error_code(error) == "NoSuchEntity":  # the entity, or the attachment, is gone already
                continue
            refused.append(f"{kind} {name} ({_error_code(error) or 'error'}): aws iam {command} {option} {name} "
                           f"--policy-arn {arn}")
            continue
        print(f"detached {arn} from {kind} {name}")
        detached.append((kind, name))
    if refused:
        print("not detached: " + "; ".join(refused))
        message = (f"IAM refused to detach {arn} from {len(refused)} entity(ies); detach each, then delete the stack "
                   f"again: " + "; ".join(refused))
        raise NotDetached(message if len(message) <= MAX_ERROR_CHARS else message[: MAX_ERROR_CHARS - 30] + " … (see the log)")
    return detached


def on_event(event: Mapping, context=None) -> dict:
    arn = policy_arn(event["ResourceProperties"])
    if event["RequestType"] == "Delete":
        detach_all(client("iam"), arn)
        return {"PhysicalResourceId": event["PhysicalResourceId"]}
    return {"PhysicalResourceId": physical_resource_id(arn)}
