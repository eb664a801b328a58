"""The bridge on a failed block node (docs/stay-up.md, "A node fails inside the block"): when the endpoint loses its
last healthy target while it served, a CloudWatch alarm state change starts a Step Functions state machine whose one
task scales the bridge node group up; no person, no function, no loop.

The engine, and why:

- **The event**: CloudWatch sends every alarm state change to EventBridge, with ``detail.alarmName``,
  ``detail.state.value`` and ``detail.previousState.value``, and "guarantees the delivery of alarm state change events
  to EventBridge" (CloudWatch user guide, "Alarm events and EventBridge",
  https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/cloudwatch-and-eventbridge.html). The rule matches
  the healthy-target alarm (cdk_constructs/serving_alarms.py, ``EndpointNoHealthyTarget``, named
  ``CLUSTER-EndpointNoHealthyTarget``) going from **OK** to ALARM only: the endpoint had served and lost every
  target. Before the block's first start and during its first cold start the alarm comes from INSUFFICIENT_DATA or
  stays in ALARM (missing data is breaching), so the planned start of a block starts no on-demand bridge.
- **The call**: the Step Functions AWS SDK service integration ``arn:aws:states:::aws-sdk:eks:updateNodegroupConfig``
  (Step Functions developer guide, "Integrating other services", supported-services-awssdk.html: ``arn:aws:states:::
  aws-sdk:serviceName:apiAction``, the parameters in PascalCase as the SDK's request), the request the bridge's
  schedules send (cdk_constructs/bridge_node_group.py, :func:`scaling_input`). An EventBridge rule cannot call EKS
  itself: its targets are a fixed list of services, EKS not among them (EventBridge user guide, "Event bus targets",
  eb-targets.html), and an API destination is an HTTP endpoint with a connection's basic, OAuth or API-key
  authorization, not SigV4; EventBridge Scheduler's universal target takes only schedules, not events.
- **The block's schedules win**: the machine acts only on an event of before the bridge's scheduled start
  (:attr:`BridgePlan.start`); from then on the bridge is up for the handover and its stop schedule scales it to 0
  after the block's end, whatever the alarm does.
- **No flapping**: the machine only scales up, to the schedule's size; an alarm that flaps sends the same size
  again, which starts nothing more. The scale-down once the block's replicas are ready again is
  cdk_constructs/bridge_scale_down.py's, on a signal of the block's own replicas; else the stop schedule's.
"""

from __future__ import annotations

import aws_cdk as cdk
from aws_cdk import aws_events as events
from aws_cdk import aws_events_targets as targets
from aws_cdk import aws_stepfunctions as sfn
from aws_cdk import aws_stepfunctions_tasks as tasks
from constructs import Construct

from cdk_constructs.function_defaults import month_log_group
from cdk_constructs.nag_acknowledgements import STEP_FUNCTIONS_LOG_DELIVERY, acknowledge
from deployment_config.bridge import BridgePlan

#: The alarm whose OK to ALARM transition starts the bridge (cdk_constructs/serving_alarms.py, ServingAlarms names it
#: ``CLUSTER-ID``).
HEALTHY_TARGET_ALARM = "EndpointNoHealthyTarget"
#: EKS refuses an update while another runs on the node group (ResourceInUseException, EKS API reference,
#: UpdateNodegroupConfig, Errors); the SDK integration names an error ``ServiceName.ErrorName``, both in PascalCase
#: (Step Functions developer guide, supported-services-awssdk.html, "Using AWS SDK service integrations"). Retried
#: every minute for up to an hour.
IN_USE_ERROR = "Eks.ResourceInUseException"
RETRY_INTERVAL_SECONDS = 60
RETRY_ATTEMPTS = 60
#: The event time's format in a Choice rule (RFC 3339, as EventBridge writes ``time``).
RFC3339 = "%Y-%m-%dT%H:%M:%SZ"


def alarm_name(cluster_name: str) -> str:
    """The healthy-target alarm's name, as ServingAlarms writes it."""
    return f"{cluster_name}-{HEALTHY_TARGET_ALARM}"


class BridgeOnAlarm(Construct):
    """The rule and state machine that scale the bridge node group up when the endpoint loses its last healthy target.

    :param cluster_name: the EKS cluster (and the alarms' prefix).
    :param nodegroup_name: the bridge's node group.
    :param nodegroup_arn: its ARN: the one resource the machine may update.
    :param plan: the bridge's schedule and size (deployment_config/bridge.py).
    """

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        cluster_name: str,
        nodegroup_name: str,
        nodegroup_arn: str,
        plan: BridgePlan,
    ) -> None:
        super().__init__(scope, id)
        scale_up = tasks.CallAwsService(
            self,
            "ScaleUpBridge",
            service="eks",
            action="updateNodegroupConfig",
            iam_action="eks:UpdateNodegroupConfig",
            iam_resources=[nodegroup_arn],
            parameters={
                "ClusterName": cluster_name,
                "NodegroupName": nodegroup_name,
                "ScalingConfig": {
                    "MinSize": 0,
                    "MaxSize": plan.instances,
                    "DesiredSize": plan.instances,
                },
            },
            comment=f"{plan.instances} bridge node(s), the size the start schedule sets",
        )
        scale_up.add_retry(
            errors=[IN_USE_ERROR],
            interval=cdk.Duration.seconds(RETRY_INTERVAL_SECONDS),
            max_attempts=RETRY_ATTEMPTS,
            backoff_rate=1,
        )
        before_schedule = sfn.Choice(
            self,
            "BeforeTheScheduledStart",
            comment="From the scheduled start on, the bridge's schedules own its size",
        )
        before_schedule.when(
            sfn.Condition.timestamp_less_than("$.time", plan.start.strftime(RFC3339)), scale_up
        ).otherwise(
            sfn.Succeed(self, "ScheduleOwnsTheBridge", comment="the start schedule has run or will")
        )
        self.state_machine, self.rule = alarm_started_machine(
            self,
            definition=before_schedule,
            comment="Scale the bridge node group up when the endpoint loses its last healthy target",
            log_group_name=f"/aws/vendedlogs/states/{cluster_name}-bridge-on-alarm",
            rule_description="The endpoint lost its last healthy target while it served: start the bridge",
            alarm=alarm_name(cluster_name),
            change=("OK", "ALARM"),
            tracing_reason="one SDK call whose input, output and errors the execution log holds; "
            "X-Ray would add no span to it",
        )


def alarm_started_machine(
    scope: Construct,
    *,
    definition: sfn.IChainable,
    comment: str,
    log_group_name: str,
    rule_description: str,
    alarm: str,
    change: tuple[str, str],
    tracing_reason: str,
) -> tuple[sfn.StateMachine, events.Rule]:
    """A Step Functions machine of ``definition`` that the alarm's state change ``change`` (from, to) starts.

    Both bridge machines (up on a lost target, down once the block serves again) are this shape: logged in full,
    two hours at most, started by an EventBridge rule on the CloudWatch alarm's state change."""
    state_machine = sfn.StateMachine(
        scope,
        "StateMachine",
        definition_body=sfn.DefinitionBody.from_chainable(definition),
        comment=comment,
        timeout=cdk.Duration.hours(2),
        # Every state transition (cdk-nag AwsSolutions-SF1) with the alarm event: when and why the bridge
        # changed. Under /aws/vendedlogs/ as aws-cdk-lib's default (destroy_waiter says why).
        logs=sfn.LogOptions(
            destination=month_log_group(scope, "Logs", name=log_group_name),
            level=sfn.LogLevel.ALL,
            include_execution_data=True,
        ),
    )
    previous, state = change
    rule = events.Rule(
        scope,
        "AlarmRule",
        description=rule_description,
        event_pattern=events.EventPattern(
            source=["aws.cloudwatch"],
            detail_type=["CloudWatch Alarm State Change"],
            detail={
                "alarmName": [alarm],
                "state": {"value": [state]},
                "previousState": {"value": [previous]},
            },
        ),
    )
    rule.add_target(targets.SfnStateMachine(state_machine))
    acknowledge(
        state_machine,
        "AwsSolutions-IAM5[Resource::*]",
        "aws-cdk-lib's statement for the machine's execution log: " + STEP_FUNCTIONS_LOG_DELIVERY,
    )
    acknowledge(state_machine, "AwsSolutions-SF2", tracing_reason)
    return state_machine, rule
