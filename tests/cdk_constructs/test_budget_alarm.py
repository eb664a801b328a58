"""The optional monthly AWS Budgets budget (observability.monthly_budget_usd): the configuration key, and the budget in
the observability stack's template.

One synthesis, with cdk-nag, of only network, cluster and observability of a variant of config/example.yaml with the
key set (tests/configs/budget.yaml), on two nodes: the variant tests/cdk_constructs/test_router_metrics.py reads too
(tests/cdk_constructs/conftest.py, ``budget_router_observability``). Without the key the stack makes no budget
(stacks/observability_stack.py), and the examples leave it out.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deployment_config import ConfigError, load_environment, parse_environment
from tests.cfn_lint import cfn_lint_errors

TEST_CONFIGS = Path(__file__).resolve().parents[1] / "configs"


@pytest.fixture(scope="module")
def budget_env(budget_router_env):
    # tests/configs/budget.yaml, on the two nodes that tests/cdk_constructs/test_router_metrics.py needs of the variant
    assert budget_router_env.observability == load_environment(TEST_CONFIGS, "budget").observability
    return budget_router_env


@pytest.fixture(scope="module")
def budget_stack(budget_router_observability, budget_env):
    assert budget_router_observability.stack_name == "budget-observability"
    return budget_router_observability


@pytest.fixture(scope="module")
def budget(budget_stack) -> dict:
    template = budget_stack.template
    (resource,) = [r for r in template["Resources"].values() if r["Type"] == "AWS::Budgets::Budget"]
    return resource["Properties"]


def test_given_a_monthly_budget_then_the_stack_has_a_cost_budget_of_that_amount_in_usd(budget):
    data = budget["Budget"]
    assert (data["BudgetType"], data["TimeUnit"]) == ("COST", "MONTHLY")
    assert data["BudgetLimit"] == {"Amount": 150000, "Unit": "USD"}
    assert data["BudgetName"] == "llm-serving-budget-monthly"


def test_given_a_monthly_budget_then_it_counts_only_the_costs_tagged_with_the_environment(budget):
    assert budget["Budget"]["CostFilters"] == {"TagKeyValue": ["user:environment$budget"]}


def test_given_a_monthly_budget_then_the_alarm_emails_hear_at_80_percent_actual_and_100_percent_forecasted(
    budget,
):
    notifications = {
        (
            n["Notification"]["NotificationType"],
            n["Notification"]["Threshold"],
            n["Notification"]["ThresholdType"],
            n["Notification"]["ComparisonOperator"],
        ): sorted(s["Address"] for s in n["Subscribers"] if s["SubscriptionType"] == "EMAIL")
        for n in budget["NotificationsWithSubscribers"]
    }
    emails = ["finance@example.com", "oncall@example.com"]
    assert notifications == {
        ("ACTUAL", 80, "PERCENTAGE", "GREATER_THAN"): emails,
        ("FORECASTED", 100, "PERCENTAGE", "GREATER_THAN"): emails,
    }


def test_the_budget_template_passes_cfn_lint(budget_stack):
    errors = cfn_lint_errors([budget_stack.template_full_path], ["us-west-2"])
    assert errors == [], json.dumps(errors, indent=1)


def test_without_the_key_the_examples_have_no_budget(default_env, hyperpod_env):
    assert default_env.observability.monthly_budget_usd is None
    assert hyperpod_env.observability.monthly_budget_usd is None


@pytest.mark.parametrize("amount", [0, -5, 1e9, "20000", True])
def test_a_budget_that_is_not_a_positive_amount_is_refused_with_the_fix(example_copy, amount):
    example_copy["observability"] = {"monthly_budget_usd": amount}
    with pytest.raises(ConfigError) as caught:
        parse_environment(example_copy, name="example")
    assert "observability.monthly_budget_usd" in str(caught.value)
    assert "monthly_budget_usd: 20000" in str(caught.value)


def test_a_budget_with_more_addresses_than_budgets_notifies_is_refused(example_copy):
    example_copy["observability"] = {
        "alarm_emails": [f"person{i}@example.com" for i in range(12)],
        "monthly_budget_usd": 1000,
    }
    with pytest.raises(ConfigError, match="at most 11 subscribers"):
        parse_environment(example_copy, name="example")


def test_a_budget_that_would_notify_nobody_is_refused_with_the_fix(example_copy):
    # given a budget and no alarm_emails, the only addresses the budget notifies
    example_copy["observability"] = {"monthly_budget_usd": 20000}
    # when the file is loaded, then the budget is refused, naming the missing addresses
    with pytest.raises(ConfigError) as caught:
        parse_environment(example_copy, name="example")
    assert [issue.field for issue in caught.value.issues] == ["observability.monthly_budget_usd"]
    assert "notify nobody" in caught.value.problem and "alarm_emails: [" in caught.value.fix


def test_a_fractional_budget_is_kept(example_copy):
    example_copy["observability"] = {
        "alarm_emails": ["finance@example.com"],
        "monthly_budget_usd": 1234.5,
    }
    assert (
        parse_environment(example_copy, name="example").observability.monthly_budget_usd == 1234.5
    )
