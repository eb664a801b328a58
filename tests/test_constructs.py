"""The reusable constructs validate their props when they are built."""

from __future__ import annotations

import pytest

from cdk_constructs.capacity_block_node_group import CapacityBlockNodeGroup, efa_network_interfaces
from deployment_config.catalog import GPU_INSTANCE_TYPES


def test_efa_interfaces_follow_the_multi_card_layout():
    interfaces = efa_network_interfaces(4, ["sg-1"])
    assert [(i["NetworkCardIndex"], i["DeviceIndex"], i["InterfaceType"]) for i in interfaces] == [
        (0, 0, "interface"), (0, 1, "efa-only"), (1, 0, "efa-only"), (2, 0, "efa-only"), (3, 0, "efa-only")]
    assert efa_network_interfaces(0, ["sg-1"]) == [interfaces[0]]


@pytest.mark.parametrize("overrides, message", [
    ({"capacity_reservation_id": "0123456789abcdef0"}, "capacity_reservation_id must start with 'cr-'"),
    ({"instance_count": 0}, "instance_count must be at least 1"),
    ({"security_groups": []}, "security_groups must list at least the cluster security group"),
])
def test_capacity_block_node_group_rejects_bad_props(overrides, message):
    import aws_cdk as cdk

    stack = cdk.Stack(cdk.App(), "Props")
    props = dict(cluster=None, instance_type=GPU_INSTANCE_TYPES["p6-b300.48xlarge"],
                 capacity_reservation_id="cr-0123456789abcdef0", subnet=None, security_groups=["sg-1"])
    props.update(overrides)
    with pytest.raises(ValueError, match=message):
        CapacityBlockNodeGroup(stack, "Gpu", **props)
