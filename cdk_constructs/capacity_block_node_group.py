"""A managed node group on an EC2 Capacity Block reservation."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import aws_cdk as cdk
from aws_cdk import aws_ec2 as ec2
from aws_cdk import aws_eks_v2 as eks
from aws_cdk import aws_iam as iam
from constructs import Construct

from cdk_constructs.nag_acknowledgements import NODE_POLICY_REASONS, acknowledge_node_role
from deployment_config.catalog import GpuInstanceType, NetworkLayout
from deployment_config.gpu_nodes import GPU_NODEGROUP, GPU_ROOT_VOLUME_GIB

#: nodeadm configuration: assemble the instance-store NVMe disks into one RAID0 array for kubelet, containerd
#: and the model cache. Managed node groups merge this MIME part with their own bootstrap configuration.
NODEADM_USER_DATA = """MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="//"

--//
Content-Type: application/node.eks.aws

---
apiVersion: node.eks.aws/v1alpha1
kind: NodeConfig
spec:
  instance:
    localStorage:
      strategy: RAID0

--//--
"""

TAINT_EFFECTS = {
    "NoSchedule": eks.TaintEffect.NO_SCHEDULE,
    "NoExecute": eks.TaintEffect.NO_EXECUTE,
    "PreferNoSchedule": eks.TaintEffect.PREFER_NO_SCHEDULE,
}


@dataclass(frozen=True)
class NodeTaint:
    key: str
    value: str
    effect: str = "NoSchedule"


def launch_template_interfaces(
    layout: NetworkLayout, security_group_ids: Sequence[str]
) -> list[dict]:
    """Launch template network interfaces for an instance type's network layout (see
    :attr:`deployment_config.catalog.NetworkLayout.interfaces` for the rule and its source)."""
    groups = list(security_group_ids)
    return [
        {
            "NetworkCardIndex": slot.network_card_index,
            "DeviceIndex": slot.device_index,
            "InterfaceType": slot.interface_type,
            "Groups": groups,
            "DeleteOnTermination": True,
        }
        for slot in layout.interfaces
    ]


def gpu_launch_template_data(
    cluster: eks.ICluster,
    instance_type: GpuInstanceType,
    security_groups: Sequence[str],
    capacity_reservation_id: str | None,
) -> ec2.CfnLaunchTemplate.LaunchTemplateDataProperty:
    """A GPU node group's launch template: the instance type, IMDSv2, the encrypted root volume, the network
    interfaces of the type's layout and the NVMe RAID0; on ``capacity_reservation_id``'s Capacity Block, or on-demand
    (the bridge, cdk_constructs/bridge_node_group.py) without one."""
    block = (
        dict(
            # Both are required; with only the market type set, node group creation fails.
            instance_market_options=ec2.CfnLaunchTemplate.InstanceMarketOptionsProperty(
                market_type="capacity-block"
            ),
            capacity_reservation_specification=ec2.CfnLaunchTemplate.CapacityReservationSpecificationProperty(
                capacity_reservation_target=ec2.CfnLaunchTemplate.CapacityReservationTargetProperty(
                    capacity_reservation_id=capacity_reservation_id,
                ),
            ),
        )
        if capacity_reservation_id
        else {}
    )
    return ec2.CfnLaunchTemplate.LaunchTemplateDataProperty(
        # The instance type belongs here: the node group rejects p6 names in its own InstanceTypes.
        instance_type=instance_type.name,
        **block,
        metadata_options=ec2.CfnLaunchTemplate.MetadataOptionsProperty(
            http_tokens="required",
            # Pods get AWS credentials from EKS Pod Identity, never from the node role through IMDS.
            http_put_response_hop_limit=1,
            http_endpoint="enabled",
        ),
        block_device_mappings=[
            ec2.CfnLaunchTemplate.BlockDeviceMappingProperty(
                device_name="/dev/xvda",
                ebs=ec2.CfnLaunchTemplate.EbsProperty(
                    volume_size=GPU_ROOT_VOLUME_GIB,
                    volume_type="gp3",
                    encrypted=True,
                    delete_on_termination=True,
                ),
            )
        ],
        network_interfaces=[
            ec2.CfnLaunchTemplate.NetworkInterfaceProperty(
                network_card_index=i["NetworkCardIndex"],
                device_index=i["DeviceIndex"],
                interface_type=i["InterfaceType"],
                groups=i["Groups"],
                delete_on_termination=i["DeleteOnTermination"],
            )
            for i in launch_template_interfaces(instance_type.network, security_groups)
        ],
        user_data=cdk.Fn.base64(NODEADM_USER_DATA),
        tag_specifications=[
            ec2.CfnLaunchTemplate.TagSpecificationProperty(
                resource_type="instance",
                tags=[cdk.CfnTag(key="Name", value=f"{cluster.cluster_name}-gpu")],
            )
        ],
    )


def gpu_node_role(scope: Construct) -> iam.Role:
    """The GPU nodes' role (``NodeRole``), with the AWS managed policies of ``NODE_POLICY_REASONS``."""
    role = iam.Role(
        scope,
        "NodeRole",
        assumed_by=iam.ServicePrincipal("ec2.amazonaws.com"),
        managed_policies=[
            iam.ManagedPolicy.from_aws_managed_policy_name(name) for name in NODE_POLICY_REASONS
        ],
    )
    acknowledge_node_role(role, NODE_POLICY_REASONS)
    return role


def gpu_nodegroup(
    scope: Construct,
    *,
    cluster: eks.ICluster,
    instance_type: GpuInstanceType,
    security_groups: Sequence[str],
    capacity_reservation_id: str | None,
    nodegroup_name: str,
    capacity_type: eks.CapacityType,
    subnet: ec2.ISubnet,
    desired_size: int,
    max_size: int,
    labels: Mapping[str, str] | None,
    taints: Sequence[NodeTaint],
) -> tuple[ec2.CfnLaunchTemplate, iam.Role, eks.Nodegroup]:
    """A GPU managed node group (min 0) in ``subnet``, with its launch template (``LaunchTemplate``, targeting
    ``capacity_reservation_id`` when given) and role (``NodeRole``), the labels and taints the serving pods select."""
    launch_template = ec2.CfnLaunchTemplate(
        scope,
        "LaunchTemplate",
        launch_template_data=gpu_launch_template_data(
            cluster, instance_type, security_groups, capacity_reservation_id
        ),
    )
    role = gpu_node_role(scope)
    nodegroup = eks.Nodegroup(
        scope,
        "Nodegroup",
        cluster=cluster,
        nodegroup_name=nodegroup_name,
        capacity_type=capacity_type,
        ami_type=eks.NodegroupAmiType.AL2023_X86_64_NVIDIA,
        launch_template_spec=eks.LaunchTemplateSpec(
            id=launch_template.ref, version=launch_template.attr_latest_version_number
        ),
        node_role=role,
        subnets=ec2.SubnetSelection(subnets=[subnet]),
        # EKS scales a Capacity Block's group to 0 before the block ends; min 0 lets it (and the bridge rests at 0).
        min_size=0,
        desired_size=desired_size,
        max_size=max_size,
        labels=dict(labels or {}),
        taints=[
            eks.TaintSpec(key=t.key, value=t.value, effect=TAINT_EFFECTS[t.effect]) for t in taints
        ],
        # Node auto repair, on the conditions the eks-node-monitoring-agent add-on sets (cluster stack): an
        # AcceleratedHardwareReady failure (NVIDIA XID errors) is repaired after 10 minutes by a reboot or a
        # replacement, depending on the XID; a NotReady node after 30 minutes by a replacement (EKS user guide,
        # "Automatically repair nodes in EKS clusters", node-repair.html). Both work inside a Capacity Block: a reboot
        # keeps the instance, and "if you terminate an instance running in the Capacity Block before the reservation
        # ends, you can launch a new instance in its place" after several minutes of clean-up (EC2 user guide,
        # "Launch instances using Capacity Blocks", capacity-blocks-launch.html). The reservation's count is fixed,
        # so a replacement is terminate-then-launch into the same slot; the new node starts with an empty NVMe cache
        # and downloads and loads the weights again (the startup budget). Without repair a node with a failed GPU
        # would hold the block's only slot, serving nothing, until someone replaces it by hand. EKS stops repairing
        # when more than 20 % of a group of more than five nodes is unhealthy (same page). At the block's end EKS
        # scales the group to 0 forty minutes before, and EC2 shuts instances down 30 minutes before (EKS user
        # guide, capacity-blocks-mng.adoc at awsdocs/amazon-eks-user-guide@4d52b4d): no repair runs after that.
        enable_node_auto_repair=True,
    )
    return launch_template, role, nodegroup


class CapacityBlockNodeGroup(Construct):
    """GPU nodes from a Capacity Block: a launch template that targets the reservation and a managed node group.

    :param cluster: the cluster the nodes join.
    :param instance_type: the GPU instance type of the reservation.
    :param capacity_reservation_id: the Capacity Block reservation (``cr-…``).
    :param subnet: the one subnet in the reservation's Availability Zone.
    :param security_groups: security groups of every network interface; must include the cluster security group,
        since a launch template with network interfaces replaces the groups EKS would add.
    :param instance_count: nodes to run. Default: 1.
    :param labels: Kubernetes labels of the nodes. Default: none.
    :param taints: Kubernetes taints of the nodes. Default: none.
    :param nodegroup_name: the node group's name in EKS. Default: ``gpu-capacity-block``; the next block's group
        (serving across blocks, stacks/gpu_nodes_stack.py) has its own.
    """

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        cluster: eks.ICluster,
        instance_type: GpuInstanceType,
        capacity_reservation_id: str,
        subnet: ec2.ISubnet,
        security_groups: Sequence[str],
        instance_count: int = 1,
        labels: Mapping[str, str] | None = None,
        taints: Sequence[NodeTaint] = (),
        nodegroup_name: str = GPU_NODEGROUP,
    ) -> None:
        super().__init__(scope, id)
        if not capacity_reservation_id.startswith("cr-"):
            raise ValueError(
                f"capacity_reservation_id must start with 'cr-', got {capacity_reservation_id!r}"
            )
        if instance_count < 1:
            raise ValueError(f"instance_count must be at least 1, got {instance_count}")
        if not security_groups:
            raise ValueError("security_groups must list at least the cluster security group")

        self.launch_template, self.role, self.nodegroup = gpu_nodegroup(
            self,
            cluster=cluster,
            instance_type=instance_type,
            security_groups=security_groups,
            capacity_reservation_id=capacity_reservation_id,
            nodegroup_name=nodegroup_name,
            capacity_type=eks.CapacityType.CAPACITY_BLOCK,
            subnet=subnet,
            desired_size=instance_count,
            max_size=instance_count,
            labels=labels,
            taints=taints,
        )
