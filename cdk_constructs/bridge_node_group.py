"""Bridge capacity (the ``bridge`` section, docs/stay-up.md): an on-demand GPU node group at zero, scaled up before
the Capacity Block's scale-down and to zero after, by two EventBridge Scheduler one-time schedules.

The engine, and why:

- **EventBridge Scheduler, one-time schedules** (``at(yyyy-mm-ddThh:mm:ss)`` in a time zone, "invokes a target only
  once", with 60-second precision: EventBridge Scheduler user guide, "Schedule types", schedule-types.html) whose target
  is the **universal target** ``arn:aws:scheduler:::aws-sdk:eks:updateNodegroupConfig`` (user guide, "Using universal
  targets", managing-targets-universal.html: ``arn:aws:scheduler:::aws-sdk:service:apiAction``, the service's SDK
  identifier, and only read-only actions such as get/describe/list are refused). The input is the SDK request with its
  members in PascalCase (``ClusterName``, ``NodegroupName``, ``ScalingConfig``), as the CDK's own universal-target
  example writes RDS's ``DbClusterIdentifier`` (aws-cdk-lib 2.275.0 ``aws_scheduler_targets.Universal``); EKS's REST
  body is camelCase, which the target does not take. The times are known at synthesis (deployment_config/bridge.py),
  the call is one API, and nothing runs in between: no function, no controller.
- Not **Auto Scaling scheduled actions**: the managed node group's Auto Scaling group is created by EKS and named only
  once it exists, so a template cannot attach an ``AWS::AutoScaling::ScheduledAction`` to it; and EKS owns the group's
  sizes (UpdateNodegroupConfig is the documented way to change them).
- Not **Karpenter**: not installed here; a NodePool would need the controller, its IAM and its interruption queue for
  one scale-up and one scale-down a block.

The node group is the block's twin (cdk_constructs/capacity_block_node_group.py): the same launch template but for the
Capacity Block's market options and reservation, the same labels and taints, so the serving pods (their standby
replicas, deployment_config/rollout.py) schedule onto it; in the same GPU subnet. Its sizes in the template are 0: a
later deploy that changes nothing of them leaves the size the schedule set (CloudFormation updates only the properties
that changed).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

import aws_cdk as cdk
from aws_cdk import aws_ec2 as ec2
from aws_cdk import aws_eks_v2 as eks
from aws_cdk import aws_iam as iam
from aws_cdk import aws_scheduler as scheduler
from constructs import Construct

from cdk_constructs.capacity_block_node_group import NodeTaint, gpu_nodegroup
from deployment_config.bridge import BridgePlan
from deployment_config.catalog import GpuInstanceType
from deployment_config.gpu_nodes import BRIDGE_GPU_NODEGROUP

#: How EventBridge Scheduler writes a one-time schedule's time: "at(yyyy-mm-ddThh:mm:ss)" (schedule-types.html).
AT_FORMAT = "at(%Y-%m-%dT%H:%M:%S)"
#: How long, and how often, the Scheduler retries a call EKS refuses (a node group busy with another update): its own
#: defaults, 24 hours and 185 attempts (EventBridge Scheduler API reference, RetryPolicy), written out.
RETRY_EVENT_AGE_SECONDS = 86400
RETRY_ATTEMPTS = 185


def scaling_input(cluster_name: str, nodegroup_name: str, desired: int, maximum: int) -> str:
    """The universal target's input: UpdateNodegroupConfig's request, with min 0 so that both calls keep it."""
    return json.dumps(
        {
            "ClusterName": cluster_name,
            "NodegroupName": nodegroup_name,
            "ScalingConfig": {"MinSize": 0, "MaxSize": maximum, "DesiredSize": desired},
        },
        sort_keys=True,
    )


class BridgeNodeGroup(Construct):
    """On-demand GPU nodes at zero and the two schedules that start and stop them.

    :param cluster: the cluster the nodes join.
    :param instance_type: the bridge's GPU instance type.
    :param plan: when the bridge starts and stops, and its instances (deployment_config/bridge.py).
    :param subnet: the GPU subnet (the block's zone).
    :param security_groups: security groups of every network interface, the cluster's included.
    :param labels: Kubernetes labels of the nodes: the block's. Default: none.
    :param taints: Kubernetes taints of the nodes: the block's. Default: none.
    :param schedule_prefix: the schedules are named ``PREFIX-bridge-start`` and ``PREFIX-bridge-stop`` (at most 64
        characters each). Default: none, ``bridge-start`` and ``bridge-stop``.
    """

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        cluster: eks.ICluster,
        instance_type: GpuInstanceType,
        plan: BridgePlan,
        subnet: ec2.ISubnet,
        security_groups: Sequence[str],
        labels: Mapping[str, str] | None = None,
        taints: Sequence[NodeTaint] = (),
        schedule_prefix: str = "",
    ) -> None:
        super().__init__(scope, id)
        if plan.stop <= plan.start:
            raise ValueError(f"the bridge must stop after it starts: {plan.start} to {plan.stop}")
        # As the block's (capacity_block_node_group.py), without the reservation: a failed GPU node is repaired, here
        # by a new on-demand one.
        self.launch_template, self.role, self.nodegroup = gpu_nodegroup(
            self,
            cluster=cluster,
            instance_type=instance_type,
            security_groups=security_groups,
            capacity_reservation_id=None,
            nodegroup_name=BRIDGE_GPU_NODEGROUP,
            capacity_type=eks.CapacityType.ON_DEMAND,
            subnet=subnet,
            desired_size=0,
            max_size=plan.instances,
            labels=labels,
            taints=taints,
        )

        # The schedules' role: the one call, on this node group only. aws:SourceAccount keeps another account's
        # schedule from using it (EventBridge Scheduler user guide, "Set up the execution role", confused deputy).
        self.scheduler_role = iam.Role(
            self,
            "SchedulerRole",
            assumed_by=iam.ServicePrincipal(
                "scheduler.amazonaws.com",
                conditions={"StringEquals": {"aws:SourceAccount": cdk.Aws.ACCOUNT_ID}},
            ),
            description="EventBridge Scheduler scales the bridge node group up before the block's scale-down and "
            "to 0 after",
        )
        self.scheduler_role.add_to_policy(
            iam.PolicyStatement(
                actions=["eks:UpdateNodegroupConfig"], resources=[self.nodegroup.nodegroup_arn]
            )
        )
        prefix = f"{schedule_prefix}-" if schedule_prefix else ""
        self.start = self._schedule(
            "Start",
            f"{prefix}bridge-start",
            plan.start.strftime(AT_FORMAT),
            scaling_input(
                cluster.cluster_name, BRIDGE_GPU_NODEGROUP, plan.instances, plan.instances
            ),
            f"Start {plan.instances} bridge node(s) one startup budget and the margin before the block's "
            f"scale-down ({plan.scale_down:%Y-%m-%d %H:%M} UTC)",
        )
        self.stop = self._schedule(
            "Stop",
            f"{prefix}bridge-stop",
            plan.stop.strftime(AT_FORMAT),
            scaling_input(cluster.cluster_name, BRIDGE_GPU_NODEGROUP, 0, plan.instances),
            "Scale the bridge node group to 0 after the block's end",
        )

    def _schedule(
        self, id: str, name: str, at: str, input: str, description: str
    ) -> scheduler.CfnSchedule:
        schedule = scheduler.CfnSchedule(
            self,
            id,
            name=name,
            description=description,
            schedule_expression=at,
            schedule_expression_timezone="UTC",
            flexible_time_window=scheduler.CfnSchedule.FlexibleTimeWindowProperty(mode="OFF"),
            state="ENABLED",
            target=scheduler.CfnSchedule.TargetProperty(
                arn=f"arn:{cdk.Aws.PARTITION}:scheduler:::aws-sdk:eks:updateNodegroupConfig",
                role_arn=self.scheduler_role.role_arn,
                input=input,
                retry_policy=scheduler.CfnSchedule.RetryPolicyProperty(
                    maximum_event_age_in_seconds=RETRY_EVENT_AGE_SECONDS,
                    maximum_retry_attempts=RETRY_ATTEMPTS,
                ),
            ),
        )
        # The role's policy must exist before the first call.
        schedule.node.add_dependency(self.scheduler_role)
        return schedule
