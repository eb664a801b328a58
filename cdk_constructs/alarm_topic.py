"""The environment's alarm topic, which the serving alarms (cdk_constructs/serving_alarms.py) and the capacity and
cluster event rules (cdk_constructs/capacity_events.py) notify."""

from __future__ import annotations

import aws_cdk as cdk
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk import aws_sns as sns
from aws_cdk import aws_sns_subscriptions as subscriptions
from constructs import Construct


class AlarmTopic(Construct):
    """The environment's alarm topic: KMS-encrypted (a rotating key of its own), TLS only, one e-mail subscription per
    address of ``alarm_emails``. The serving alarms (NAME-observability) and the reservation and cluster event rules
    (cdk_constructs/capacity_events.py) notify it.

    In the cluster stack, not the observability stack: the cluster stack deploys before the capacity starts (docs/deploy.md,
    "Deploy", stage 1), so the event rules beside the topic are in place when EC2 sends "Capacity Block Delivered", and
    an environment whose later stacks failed still gets its expiration warning. Destroyed after the observability
    stack, whose alarms target it (that stack depends on the cluster stack). The alarms reach it through an export of the
    cluster stack: CloudFormation refuses to change an exported value another stack imports ("Fn::ImportValue",
    CloudFormation template reference, intrinsic-function-reference-importvalue.html), so a change that replaced the
    topic would need the observability stack's alarms off it first. None of its properties forces a replacement (it has
    no TopicName); its construct path (``AlarmTopic/Topic`` in the cluster stack) must stay.

    :attr key: the topic's KMS key.
    :attr topic: the SNS topic.
    """

    def __init__(
        self, scope: Construct, id: str, *, cluster_name: str, alarm_emails: tuple[str, ...]
    ) -> None:
        super().__init__(scope, id)
        self.key = kms.Key(
            self,
            "TopicKey",
            enable_key_rotation=True,
            removal_policy=cdk.RemovalPolicy.DESTROY,
            description=f"Encrypts the alarm notifications of {cluster_name}",
        )
        # CloudWatch publishes to an encrypted topic only if the key lets it (SNS developer guide, "Encryption at rest":
        # key policy for CloudWatch alarms).
        self.key.add_to_resource_policy(
            iam.PolicyStatement(
                principals=[iam.ServicePrincipal("cloudwatch.amazonaws.com")],
                actions=["kms:Decrypt", "kms:GenerateDataKey*"],
                resources=["*"],
                conditions={"StringEquals": {"aws:SourceAccount": cdk.Aws.ACCOUNT_ID}},
            )
        )
        # EventBridge (cdk_constructs/capacity_events.py) needs the same two actions; aws_events_targets.SnsTopic adds
        # them for events.amazonaws.com (topic.grantPublish grants the key too), without conditions: the same SNS page
        # ("Enable compatibility between event sources from AWS services and encrypted topics", sns-key-management.html)
        # says aws:SourceAccount, aws:SourceArn and aws:SourceOrgID are not supported for EventBridge to encrypted topics.
        # The rules live in the same stack as the key, so that statement is in this key's policy.
        self.topic = sns.Topic(
            self,
            "Topic",
            display_name=f"{cluster_name} serving alarms",
            master_key=self.key,
            enforce_ssl=True,
        )
        for address in alarm_emails:
            self.topic.add_subscription(subscriptions.EmailSubscription(address))
