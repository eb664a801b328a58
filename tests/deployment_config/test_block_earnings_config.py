"""observability.block_fee_usd and observability.idle_alarm_minutes: what is accepted, and the one clear message (the
field, what was wrong, the fix) for what is not."""

from __future__ import annotations

import copy

import pytest
import yaml

from deployment_config import ConfigError, parse_environment
from tests.conftest import CONFIG_DIR


def test_without_the_keys_there_is_no_fee_and_no_idle_alarm(default_env, hyperpod_env):
    for env in (default_env, hyperpod_env):
        assert env.observability.block_fee_usd is None
        assert env.observability.idle_alarm_minutes is None


def test_a_fee_and_an_idle_time_are_kept(example_copy):
    example_copy["observability"] = {"block_fee_usd": 91540.80, "idle_alarm_minutes": 120}
    watch = parse_environment(example_copy, name="example").observability
    assert (watch.block_fee_usd, watch.idle_alarm_minutes) == (91540.80, 120)


@pytest.mark.parametrize("amount", [0, -5, 1e9, "91540.80", True])
def test_a_fee_that_is_not_a_positive_amount_is_refused_with_the_fix(example_copy, amount):
    example_copy["observability"] = {"block_fee_usd": amount}
    with pytest.raises(ConfigError) as caught:
        parse_environment(example_copy, name="example")
    assert [issue.field for issue in caught.value.issues] == ["observability.block_fee_usd"]
    if isinstance(amount, int | float) and not isinstance(amount, bool):
        assert "is not a Capacity Block's fee" in caught.value.problem
        assert "block_fee_usd: 91540.80" in caught.value.fix


@pytest.mark.parametrize("minutes", [0, 4, 1440, 30.5, "60"])
def test_an_idle_time_outside_5_minutes_to_a_day_is_refused(example_copy, minutes):
    example_copy["observability"] = {"idle_alarm_minutes": minutes}
    with pytest.raises(ConfigError) as caught:
        parse_environment(example_copy, name="example")
    assert [issue.field for issue in caught.value.issues] == ["observability.idle_alarm_minutes"]


def test_a_block_fee_on_hyperpod_is_refused_because_sagemaker_gives_the_plans_fee():
    # given a HyperPod environment with a Capacity Block's fee
    document = yaml.safe_load((CONFIG_DIR / "example-hyperpod.yaml").read_text(encoding="utf-8"))
    document = copy.deepcopy(document)
    document.setdefault("observability", {})["block_fee_usd"] = 70400
    # when it is loaded, then one message names the field, why and the fix
    with pytest.raises(ConfigError) as caught:
        parse_environment(document, name="example-hyperpod")
    (issue,) = caught.value.issues
    assert issue.field == "observability.block_fee_usd"
    assert "platform: hyperpod runs on a training plan" in issue.problem
    assert "DescribeTrainingPlan UpfrontFee" in issue.problem
    assert issue.fix.startswith("remove block_fee_usd")


# --- the next Capacity Block's fee (observability.next_block_fee_usd) -------------------------------------------------

NEXT = "cr-0fedcba9876543210"


def test_the_next_blocks_fee_is_kept_beside_the_next_block(example_copy):
    example_copy["capacity"]["next_capacity_reservation_id"] = NEXT
    example_copy["observability"] = {"block_fee_usd": 91540.80, "next_block_fee_usd": 45770.40}
    watch = parse_environment(example_copy, name="example").observability
    assert (watch.block_fee_usd, watch.next_block_fee_usd) == (91540.80, 45770.40)


def test_without_the_key_there_is_no_next_fee(default_env):
    assert default_env.observability.next_block_fee_usd is None


@pytest.mark.parametrize("amount", [0, -5, 1e9])
def test_a_next_fee_that_is_not_a_positive_amount_is_refused_with_its_own_name(
    example_copy, amount
):
    example_copy["capacity"]["next_capacity_reservation_id"] = NEXT
    example_copy["observability"] = {"block_fee_usd": 91540.80, "next_block_fee_usd": amount}
    with pytest.raises(ConfigError) as caught:
        parse_environment(example_copy, name="example")
    (issue,) = caught.value.issues
    assert issue.field == "observability.next_block_fee_usd"
    assert "is not a Capacity Block's fee" in issue.problem
    assert "next_block_fee_usd: 91540.80" in issue.fix


def test_a_next_fee_without_a_next_block_is_refused_with_one_message(example_copy):
    # given a next block's fee, and no next block in the capacity section
    example_copy["observability"] = {"block_fee_usd": 91540.80, "next_block_fee_usd": 45770.40}
    # when the file is loaded, then one message names the field, why and the fix
    with pytest.raises(ConfigError) as caught:
        parse_environment(example_copy, name="example")
    (issue,) = caught.value.issues
    assert issue.field == "observability.next_block_fee_usd"
    assert "capacity.next_capacity_reservation_id names no next block" in issue.problem
    assert issue.fix.startswith("add capacity.next_capacity_reservation_id")


def test_a_next_fee_without_the_current_blocks_fee_is_refused(example_copy):
    # given both blocks and only the next block's fee: the cost figures would leave the current block's out
    example_copy["capacity"]["next_capacity_reservation_id"] = NEXT
    example_copy["observability"] = {"next_block_fee_usd": 45770.40}
    with pytest.raises(ConfigError) as caught:
        parse_environment(example_copy, name="example")
    (issue,) = caught.value.issues
    assert issue.field == "observability.next_block_fee_usd"
    assert "without observability.block_fee_usd" in issue.problem
    assert issue.fix.startswith("add block_fee_usd")


def test_a_next_fee_on_hyperpod_is_refused():
    document = yaml.safe_load((CONFIG_DIR / "example-hyperpod.yaml").read_text(encoding="utf-8"))
    document.setdefault("observability", {})["next_block_fee_usd"] = 70400
    with pytest.raises(ConfigError) as caught:
        parse_environment(document, name="example-hyperpod")
    (issue,) = caught.value.issues
    assert issue.field == "observability.next_block_fee_usd"
    assert "names no next block" in issue.problem
