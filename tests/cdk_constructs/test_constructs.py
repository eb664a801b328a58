"""The reusable constructs validate their props when they are built."""

from __future__ import annotations

import pytest

from cdk_constructs.capacity_block_node_group import (
    CapacityBlockNodeGroup,
    launch_template_interfaces,
)
from deployment_config.catalog import GPU_INSTANCE_TYPES, NetworkLayout
from tests.conftest import bare_app


def _slots(instance_type: str) -> list[tuple[int, int, str]]:
    interfaces = launch_template_interfaces(GPU_INSTANCE_TYPES[instance_type].network, ["sg-1"])
    return [(i["NetworkCardIndex"], i["DeviceIndex"], i["InterfaceType"]) for i in interfaces]


def test_p6_b300_keeps_efa_off_its_ena_only_card_0():
    # EC2 guide, EFA for accelerated instance types (P6-B300): card 0 is ENA only; cards 1-16 take one EFA-only each
    assert _slots("p6-b300.48xlarge") == [(0, 0, "interface")] + [
        (card, 0, "efa-only") for card in range(1, 17)
    ]


@pytest.mark.parametrize(
    "instance_type, cards",
    [("p5.48xlarge", 32), ("p5e.48xlarge", 32), ("p5en.48xlarge", 16), ("p6-b200.48xlarge", 8)],
)
def test_types_whose_card_0_supports_efa_put_it_at_device_index_1(instance_type, cards):
    assert _slots(instance_type) == [(0, 0, "interface"), (0, 1, "efa-only")] + [
        (card, 0, "efa-only") for card in range(1, cards)
    ]


def test_a_layout_names_only_cards_the_instance_has():
    with pytest.raises(ValueError, match="outside the 4 network cards"):
        NetworkLayout(4, (1, 4), "test")


@pytest.mark.parametrize(
    "overrides, message",
    [
        (
            {"capacity_reservation_id": "0123456789abcdef0"},
            "capacity_reservation_id must start with 'cr-'",
        ),
        ({"instance_count": 0}, "instance_count must be at least 1"),
        ({"security_groups": []}, "security_groups must list at least the cluster security group"),
    ],
)
def test_capacity_block_node_group_rejects_bad_props(overrides, message):
    import aws_cdk as cdk

    stack = cdk.Stack(bare_app(), "Props")
    props = dict(
        cluster=None,
        instance_type=GPU_INSTANCE_TYPES["p6-b300.48xlarge"],
        capacity_reservation_id="cr-0123456789abcdef0",
        subnet=None,
        security_groups=["sg-1"],
    )
    props.update(overrides)
    with pytest.raises(ValueError, match=message):
        CapacityBlockNodeGroup(stack, "Gpu", **props)
