"""With a next Capacity Block (capacity.next_capacity_reservation_id), the capacity events say who serves on: the next
block's delivery is announced with the handover to come, and the current block's expiration warning names the next
block's node group instead of "the endpoint stops answering". Without one the rules and messages are the default
environment's (tests/cdk_constructs/test_capacity_events.py; bench/output_identity.py holds them unchanged).

One small stack for the module: the alarm topic and the rules, as the cluster stack makes them (stacks/cluster_stack.py).
"""

from __future__ import annotations

import aws_cdk as cdk
import pytest
from aws_cdk import aws_sns as sns

from cdk_constructs.capacity_events import CapacityEvents, capacity_block_rules
from tests.cdk_constructs.test_capacity_events import _matching, _rules, ec2_sample, render
from tests.conftest import bare_app

CURRENT, NEXT = "cr-0123456789abcdef0", "cr-0fedcba9876543210"


@pytest.fixture(scope="module")
def succession_rules() -> dict[str, dict]:
    app = bare_app()
    stack = cdk.Stack(
        app, "events", env=cdk.Environment(account="123456789012", region="us-west-2")
    )
    rules = capacity_block_rules(
        env_name="prod", reservation_id=CURRENT, region="us-west-2", next_reservation_id=NEXT
    )
    CapacityEvents(stack, "CapacityEvents", topic=sns.Topic(stack, "Topic"), rules=rules)
    return _rules(app.synth().get_stack_by_name("events").template)


@pytest.mark.parametrize(
    "spelling", ["Capacity Block Delivered", "Capacity Block Reservation Delivered"]
)
def test_the_next_blocks_delivery_is_its_own_rule_and_announces_the_handover(
    succession_rules, spelling
):
    event = ec2_sample(spelling, NEXT, end="2026-12-10T11:30:00Z")
    assert _matching(succession_rules, event) == {"NextCapacityBlockDelivered"}
    text = render(succession_rules["NextCapacityBlockDelivered"], event)
    assert text.startswith(f"[prod] The next Capacity Block {NEXT} was delivered")
    assert "2026-12-10T11:30:00Z" in text and "gpu-capacity-block-next" in text
    assert "bin/llmops handover --env prod --region us-west-2" in text


def test_the_current_blocks_expiration_warning_names_who_serves_on(succession_rules):
    event = ec2_sample("Capacity Block Expiration Warning", CURRENT)
    assert _matching(succession_rules, event) == {"CapacityBlockExpirationWarning"}
    text = render(succession_rules["CapacityBlockExpirationWarning"], event)
    assert "gpu-capacity-block-next" in text and NEXT in text
    assert "stops answering" not in text and "bin/llmops handover --env prod" in text


def test_without_a_next_block_there_is_no_next_rule_and_the_warning_says_the_endpoint_stops():
    rules = {
        r.id: r
        for r in capacity_block_rules(env_name="prod", reservation_id=CURRENT, region="us-west-2")
    }
    assert set(rules) == {"CapacityBlockDelivered", "CapacityBlockExpirationWarning"}
    assert "the endpoint stops answering" in rules["CapacityBlockExpirationWarning"].message


@pytest.mark.parametrize(
    "spelling",
    ["Capacity Block Expiration Warning", "Capacity Block Reservation Expiration Warning"],
)
def test_the_next_block_has_its_own_expiration_warning_naming_its_group(succession_rules, spelling):
    # given the next block's expiration warning (after the slots swap it is the block that serves)
    event = ec2_sample(spelling, NEXT, end="2026-12-10T11:30:00Z")
    # then its own rule matches, not the current block's, and says which group stops and what to run
    assert _matching(succession_rules, event) == {"NextCapacityBlockExpirationWarning"}
    text = render(succession_rules["NextCapacityBlockExpirationWarning"], event)
    assert text.startswith(
        f"[prod] Capacity Block {NEXT} (node group gpu-capacity-block-next) ends at"
    )
    assert (
        "2026-12-10T11:30:00Z" in text and f"gpu-capacity-block (Capacity Block {CURRENT})" in text
    )
    assert "bin/llmops handover --env prod --region us-west-2" in text
    assert f"bin/llmops capacity-blocks show {NEXT} --region us-west-2" in text
