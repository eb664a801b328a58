"""An optional AWS Budgets cost budget over one environment's tagged costs (``observability.monthly_budget_usd``).

Facts and their sources:

- ``AWS::Budgets::Budget``: ``Budget`` (BudgetData: ``BudgetType``, ``TimeUnit``, ``BudgetLimit`` {Amount, Unit},
  ``CostFilters`` as JSON) and ``NotificationsWithSubscribers`` ({Notification {NotificationType, ComparisonOperator,
  Threshold, ThresholdType}, Subscribers [{SubscriptionType, Address}]}): the resource schema cfn-lint 1.58.0 ships
  (cfnlint/data/schemas/resources/03962a7445ec9b4d.json, "AWS::Budgets::Budget" in providers/us-west-2.json); the
  enumerations (``COST``, ``MONTHLY``, ``ACTUAL`` / ``FORECASTED``, ``GREATER_THAN``, ``PERCENTAGE``, ``EMAIL``): botocore
  1.43.127 ``budgets/2016-10-20/service-2.json``.
- A user-defined cost allocation tag is filtered as ``CostFilters: {"TagKeyValue": ["user:KEY$VALUE"]}``: AWS Cost
  Management User Guide, "Creating budget filters" (https://docs.aws.amazon.com/cost-management/latest/userguide/
  budgets-create-filters.html), as quoted in hashicorp/terraform-provider-aws#40987 and the documentation fix #41085;
  boto/boto3#4248 uses the same form. The tag must be activated as a cost allocation tag in the Billing console before
  Budgets sees it (same guide). The newer ``FilterExpression`` is not used: no source read here gives its tag key form.
- A budget is account-wide (no region): a budget name must be unique in the account and cannot contain ``:`` or ``\\``
  (botocore's model, ``BudgetName``), so it carries the environment's name.
"""

from __future__ import annotations

from aws_cdk import aws_budgets as budgets
from constructs import Construct

from deployment_config.model import EnvironmentConfig

#: Notify at 80 % of the budget actually spent and when the month's forecast passes 100 %.
ACTUAL_PERCENT = 80
FORECASTED_PERCENT = 100
#: The tag every resource of an environment carries (deployment_config/loader.py adds ``environment: NAME``).
ENVIRONMENT_TAG = "environment"


def tag_cost_filter(environment: str) -> dict[str, list[str]]:
    """The budget's cost filter: the costs of resources tagged ``environment=NAME`` (a user-defined tag: ``user:``)."""
    return {"TagKeyValue": [f"user:{ENVIRONMENT_TAG}${environment}"]}


class BudgetAlarm(Construct):
    """A monthly cost budget of ``env_config.observability.monthly_budget_usd`` USD over the environment's tag, with
    e-mails to ``observability.alarm_emails`` at 80 % actual and 100 % forecasted spend."""

    def __init__(self, scope: Construct, id: str, *, env_config: EnvironmentConfig) -> None:
        super().__init__(scope, id)
        watch = env_config.observability
        if watch.monthly_budget_usd is None:
            raise ValueError("BudgetAlarm needs observability.monthly_budget_usd")
        subscribers = [
            budgets.CfnBudget.SubscriberProperty(subscription_type="EMAIL", address=address)
            for address in watch.alarm_emails
        ]

        def notification(
            kind: str, percent: int
        ) -> budgets.CfnBudget.NotificationWithSubscribersProperty:
            return budgets.CfnBudget.NotificationWithSubscribersProperty(
                notification=budgets.CfnBudget.NotificationProperty(
                    notification_type=kind,
                    comparison_operator="GREATER_THAN",
                    threshold=percent,
                    threshold_type="PERCENTAGE",
                ),
                subscribers=subscribers,
            )

        self.budget = budgets.CfnBudget(
            self,
            "Budget",
            budget=budgets.CfnBudget.BudgetDataProperty(
                budget_name=f"llm-serving-{env_config.name}-monthly",
                budget_type="COST",
                time_unit="MONTHLY",
                budget_limit=budgets.CfnBudget.SpendProperty(
                    amount=watch.monthly_budget_usd, unit="USD"
                ),
                cost_filters=tag_cost_filter(env_config.name),
            ),
            # Without an address there is nobody to tell: the budget still shows in the Budgets console.
            notifications_with_subscribers=[
                notification("ACTUAL", ACTUAL_PERCENT),
                notification("FORECASTED", FORECASTED_PERCENT),
            ]
            if subscribers
            else None,
        )
