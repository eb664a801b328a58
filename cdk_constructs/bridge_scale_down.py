"""The bridge's scale-down once the block serves again (docs/stay-up.md, "A node fails inside the block"): an alarm
on the block's own ready replicas, whose return to OK starts a Step Functions state machine that scales the bridge
node group to 0; no person, no function, no home-made scaler.

The signal, and why this one: ``BlockReplicasReady``, the vLLM replicas that Kubernetes calls Ready on the block node
group's running instances, put every minute by the serving metrics publisher (runtime/bridge.py,
``block_replicas_metrics``, says how it joins the scraper's series with EC2's instances and why the load balancer's
health cannot say it: its targets are nodes, each healthy while any replica is). Its limit: a replica counts once
its pod is Ready and its ``/metrics`` answers the scraper, the Service's own criterion (the readiness probe), not a
served request; and a multi-node replica counts by its leader's node.

The engine:

- **The alarm** ``NAME-BlockReplicasShort`` is in ALARM while fewer than the block's replicas are ready in any of the
  last :data:`BACK_FOR_MINUTES` minutes. With "M out of N" at 1 of N, the alarm goes to OK only when none of the last
  N datapoints breaches (CloudWatch user guide, "Alarm evaluation", alarm-evaluation.html: M is the datapoints within
  the evaluation periods that must breach to go to ALARM): the block's replicas have all been ready for N minutes.
  Missing data is breaching, which CloudWatch applies only when fewer than M real datapoints are in the range
  ("Configuring how CloudWatch alarms treat missing data", alarms-and-missing-data.html): a range without any data is
  short, a minute the publisher missed among real ones is left out.
- **The event**: the rule matches its ALARM to OK transition (CloudWatch sends every state change to EventBridge:
  cloudwatch-and-eventbridge.html, as cdk_constructs/bridge_on_alarm.py). No actions on the alarm itself.
- **The machine** (the Step Functions SDK integrations, as bridge_on_alarm.py) decides at every attempt, from the
  time it runs (``$$.State.EnteredTime``, Step Functions developer guide, "Accessing execution data from the Context
  object"):
  1. from the bridge's scheduled start on, nothing: the schedules own the bridge across the handover, and its stop
     schedule scales it to 0 after the block's end;
  2. the alarm must still be OK (cloudwatch:DescribeAlarms): after a wait the block may have failed again;
  3. the bridge must be up (eks:DescribeNodegroup, ``Nodegroup.ScalingConfig.DesiredSize`` > 0): before the scheduled
     start only the alarm path (or a person) starts it, so the block's first cold start, whose replicas also turn the
     alarm OK, scales nothing;
  4. then UpdateNodegroupConfig to 0, min 0 and max the bridge's size (the stop schedule's request). A node group
     busy with another update (Eks.ResourceInUseException) waits a minute and decides again from step 1, so a retry
     never lands after the scheduled start.
"""

from __future__ import annotations

import aws_cdk as cdk
from aws_cdk import aws_cloudwatch as cloudwatch
from aws_cdk import aws_stepfunctions as sfn
from aws_cdk import aws_stepfunctions_tasks as tasks
from constructs import Construct

from cdk_constructs.bridge_on_alarm import (
    IN_USE_ERROR,
    RETRY_INTERVAL_SECONDS,
    RFC3339,
    alarm_started_machine,
)
from deployment_config.bridge import BridgePlan
from deployment_config.gpu_nodes import GPU_NODEGROUP
from deployment_config.metric_names import (
    BLOCK_REPLICAS_READY,
    READY_LABEL,
    SERVING_METRICS_NAMESPACE,
    VLLM_JOB,
)

#: What the publisher counts for the scale-down (its event's ``bridge.blockReplicas``: runtime/bridge.py): the vLLM
#: series of Ready pods, joined with the block node group's running instances.
BLOCK_REPLICAS_EVENT = {
    "metric": BLOCK_REPLICAS_READY,
    "nodegroupName": GPU_NODEGROUP,
    "query": f'up{{job="{VLLM_JOB}",{READY_LABEL}="true"}} == 1',
}
#: The alarm's name after the cluster's: ALARM while the block has fewer ready replicas than configured.
SHORT_ALARM = "BlockReplicasShort"
#: How long every block replica must have been ready before the bridge stops: twice the healthy-target alarm's
#: 3 minutes plus the publisher's minute of lag, a choice (a replica that flaps inside it keeps the bridge).
BACK_FOR_MINUTES = 10


def short_alarm_name(cluster_name: str) -> str:
    return f"{cluster_name}-{SHORT_ALARM}"


class BridgeScaleDown(Construct):
    """The alarm, rule and state machine that scale the bridge to 0 once the block's replicas are ready again.

    :param cluster_name: the EKS cluster (the metric's ClusterName and the alarm's prefix).
    :param nodegroup_name: the bridge's node group.
    :param nodegroup_arn: its ARN: the one node group the machine may read and update.
    :param plan: the bridge's schedule and size (deployment_config/bridge.py).
    :param block_replicas: the replicas the block serves with (EnvironmentConfig.replicas): the alarm's threshold.
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
        block_replicas: int,
    ) -> None:
        super().__init__(scope, id)
        self.alarm = cloudwatch.Alarm(
            self,
            "BlockReplicasShort",
            alarm_name=short_alarm_name(cluster_name),
            alarm_description=f"Fewer than {block_replicas} vLLM replica(s) ready on the block's nodes in one of the "
            f"last {BACK_FOR_MINUTES} minutes; its return to OK scales the bridge to 0 (docs/stay-up.md)",
            metric=cloudwatch.Metric(
                namespace=SERVING_METRICS_NAMESPACE,
                metric_name=BLOCK_REPLICAS_READY,
                dimensions_map={"ClusterName": cluster_name},
                statistic="Minimum",
                period=cdk.Duration.minutes(1),
            ),
            threshold=block_replicas,
            comparison_operator=cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
            evaluation_periods=BACK_FOR_MINUTES,
            datapoints_to_alarm=1,
            treat_missing_data=cloudwatch.TreatMissingData.BREACHING,
        )
        node_group = {"ClusterName": cluster_name, "NodegroupName": nodegroup_name}
        now = sfn.Pass(
            self,
            "Now",
            parameters={"now.$": "$$.State.EnteredTime"},
            comment="the time of this attempt",
        )
        alarm_state = tasks.CallAwsService(
            self,
            "AlarmState",
            service="cloudwatch",
            action="describeAlarms",
            iam_action="cloudwatch:DescribeAlarms",
            iam_resources=[self.alarm.alarm_arn],
            parameters={"AlarmNames": [short_alarm_name(cluster_name)]},
            result_selector={"state.$": "$.MetricAlarms[0].StateValue"},
            result_path="$.alarm",
        )
        bridge_size = tasks.CallAwsService(
            self,
            "BridgeSize",
            service="eks",
            action="describeNodegroup",
            iam_action="eks:DescribeNodegroup",
            iam_resources=[nodegroup_arn],
            parameters=node_group,
            result_selector={"desired.$": "$.Nodegroup.ScalingConfig.DesiredSize"},
            result_path="$.bridge",
        )
        scale_down = tasks.CallAwsService(
            self,
            "ScaleDownBridge",
            service="eks",
            action="updateNodegroupConfig",
            iam_action="eks:UpdateNodegroupConfig",
            iam_resources=[nodegroup_arn],
            parameters={
                **node_group,
                "ScalingConfig": {"MinSize": 0, "MaxSize": plan.instances, "DesiredSize": 0},
            },
            comment="0 bridge nodes, the stop schedule's request",
        )
        scale_down.add_catch(
            sfn.Wait(
                self,
                "NodegroupBusy",
                time=sfn.WaitTime.duration(cdk.Duration.seconds(RETRY_INTERVAL_SECONDS)),
            ).next(now),
            errors=[IN_USE_ERROR],
            result_path=sfn.JsonPath.DISCARD,
        )
        nothing = sfn.Succeed(self, "BridgeStays", comment="the schedules own it, or it is not up")
        now.next(
            sfn.Choice(self, "BeforeTheScheduledStart")
            .when(
                sfn.Condition.timestamp_less_than("$.now", plan.start.strftime(RFC3339)),
                alarm_state.next(
                    sfn.Choice(self, "BlockStillServes")
                    .when(
                        sfn.Condition.string_equals("$.alarm.state", "OK"),
                        bridge_size.next(
                            sfn.Choice(self, "BridgeIsUp")
                            .when(
                                sfn.Condition.number_greater_than("$.bridge.desired", 0), scale_down
                            )
                            .otherwise(nothing)
                        ),
                    )
                    .otherwise(nothing)
                ),
            )
            .otherwise(nothing)
        )
        self.state_machine, self.rule = alarm_started_machine(
            self,
            definition=now,
            comment="Scale the bridge node group to 0 once the block's replicas are ready again",
            log_group_name=f"/aws/vendedlogs/states/{cluster_name}-bridge-scale-down",
            rule_description="Every block replica has been ready again: scale the bridge to 0",
            alarm=short_alarm_name(cluster_name),
            change=("ALARM", "OK"),
            tracing_reason="three SDK calls whose input, output and errors the execution log holds; "
            "X-Ray would add no span",
        )
