"""The GPU nodes of an environment: the Capacity Block node group and the device plugins."""

from __future__ import annotations

import aws_cdk as cdk
from aws_cdk import aws_ec2 as ec2
from aws_cdk import aws_eks_v2 as eks
from constructs import Construct

from cdk_constructs.bridge_node_group import BridgeNodeGroup
from cdk_constructs.bridge_on_alarm import BridgeOnAlarm
from cdk_constructs.bridge_scale_down import BridgeScaleDown
from cdk_constructs.capacity_block_node_group import CapacityBlockNodeGroup, NodeTaint
from cdk_constructs.gpu_device_plugins import GpuDevicePlugins
from cdk_constructs.image_cache import grant_pull_through
from deployment_config.bridge import bridge_plan
from deployment_config.gpu_nodes import (
    BRIDGE_GPU_NODEGROUP,
    GPU_NODE_LABELS,
    GPU_TAINT_EFFECT,
    GPU_TAINT_KEY,
    GPU_TAINT_VALUE,
    NEXT_GPU_NODEGROUP,
)
from deployment_config.model import EnvironmentConfig


class GpuNodesStack(cdk.Stack):
    """GPU nodes on the configured Capacity Block, tainted so only GPU workloads land on them."""

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        env_config: EnvironmentConfig,
        cluster: eks.ICluster,
        gpu_subnet: ec2.ISubnet,
        efa_security_group: ec2.ISecurityGroup,
        **kwargs,
    ) -> None:
        super().__init__(scope, id, **kwargs)
        capacity = env_config.capacity
        self.device_plugins = GpuDevicePlugins(
            self,
            "DevicePlugins",
            cluster=cluster,
            gpu_instance_type=capacity.instance_type,
            node_selector=GPU_NODE_LABELS,
            tolerations=[
                {
                    "key": GPU_TAINT_KEY,
                    "operator": "Equal",
                    "value": GPU_TAINT_VALUE,
                    "effect": GPU_TAINT_EFFECT,
                }
            ],
        )
        group = dict(
            cluster=cluster,
            instance_type=capacity.gpu_instance_type,
            subnet=gpu_subnet,
            security_groups=[
                cluster.cluster_security_group_id,
                efa_security_group.security_group_id,
            ],
            instance_count=capacity.instance_count,
            labels=GPU_NODE_LABELS,
            taints=[NodeTaint(GPU_TAINT_KEY, GPU_TAINT_VALUE, GPU_TAINT_EFFECT)],
        )
        self.gpu_nodes = CapacityBlockNodeGroup(
            self, "CapacityBlock", capacity_reservation_id=capacity.capacity_reservation_id, **group
        )
        #: Serving across blocks (docs/capacity.md, "Serve across blocks"): the next Capacity Block's own group, with
        #: the same labels and taints, so the serving pods run on either. Its desired size is the reservation's count
        #: from creation: "if the create request is made before the capacity reservation is active, then the ASG won't
        #: be able to launch Amazon EC2 instances until it becomes active ... Whenever the reservation becomes active,
        #: then the launch of instances will succeed and the ASG will be scaled up to the desiredSize" (EKS user guide,
        #: capacity-blocks-mng.adoc at awsdocs/amazon-eks-user-guide@2ef9e38). So its nodes start when the next block
        #: starts, and EKS's own scheduled action ("Amazon EKS Node Group Capacity Scaledown Before Reservation End",
        #: same page) scales the current group to 0 forty minutes before the current block ends: the ordering is the
        #: reservations' dates, which `bin/llmops handover` checks. Same subnet: one GPU subnet, in
        #: capacity.availability_zone; the command refuses a next block in another zone.
        self.next_gpu_nodes: CapacityBlockNodeGroup | None = None
        if capacity.next_capacity_reservation_id:
            self.next_gpu_nodes = CapacityBlockNodeGroup(
                self,
                "NextCapacityBlock",
                capacity_reservation_id=capacity.next_capacity_reservation_id,
                nodegroup_name=NEXT_GPU_NODEGROUP,
                **group,
            )
        #: Bridge capacity (the bridge section, docs/stay-up.md): on-demand nodes at zero with the same labels and taints,
        #: which two one-time schedules start before the block's scale-down and stop after its end.
        self.bridge: BridgeNodeGroup | None = None
        plan = bridge_plan(env_config)
        if plan is not None:
            self.bridge = BridgeNodeGroup(
                self,
                "Bridge",
                cluster=cluster,
                instance_type=env_config.bridge.gpu_instance_type,
                plan=plan,
                subnet=gpu_subnet,
                security_groups=group["security_groups"],
                labels=GPU_NODE_LABELS,
                taints=group["taints"],
                schedule_prefix=env_config.cluster_name,
            )
            #: And without a person when a block node fails: the healthy-target alarm's OK to ALARM starts it.
            self.bridge_on_alarm = BridgeOnAlarm(
                self,
                "BridgeOnAlarm",
                cluster_name=env_config.cluster_name,
                nodegroup_name=BRIDGE_GPU_NODEGROUP,
                nodegroup_arn=self.bridge.nodegroup.nodegroup_arn,
                plan=plan,
            )
            #: And back to 0 once the block's replicas have all been ready again, before the scheduled start only.
            self.bridge_scale_down = BridgeScaleDown(
                self,
                "BridgeScaleDown",
                cluster_name=env_config.cluster_name,
                nodegroup_name=BRIDGE_GPU_NODEGROUP,
                nodegroup_arn=self.bridge.nodegroup.nodegroup_arn,
                plan=plan,
                block_replicas=env_config.replicas,
            )
            cdk.CfnOutput(
                self,
                "BridgeSchedule",
                description="Bridge capacity: started and stopped by EventBridge Scheduler (UTC)",
                value=f"{plan.instances} x {env_config.bridge.instance_types[0]} on-demand from "
                f"{plan.start:%Y-%m-%d %H:%M} to {plan.stop:%Y-%m-%d %H:%M}; the block scales down at "
                f"{plan.scale_down:%Y-%m-%d %H:%M}",
            )
        for nodes in (self.gpu_nodes, self.next_gpu_nodes, self.bridge):
            if nodes and env_config.model.image_cache:
                grant_pull_through(nodes.role, env_config.model.image_cache.repository_prefix)
        cdk.CfnOutput(self, "CapacityReservationId", value=capacity.capacity_reservation_id)
        if capacity.next_capacity_reservation_id:
            cdk.CfnOutput(
                self,
                "NextCapacityReservationId",
                description="The next Capacity Block: its node group starts when it starts",
                value=capacity.next_capacity_reservation_id,
            )
        cdk.CfnOutput(
            self,
            "WatchGpuNodesCommand",
            description="GPU nodes appear once the Capacity Block is active",
            value="kubectl get nodes -l "
            + ",".join(f"{k}={v}" for k, v in GPU_NODE_LABELS.items())
            + " -w",
        )
