"""The observability section: metrics, dashboard, alarms, logs and the monthly budget."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, ValidationInfo, field_validator

from deployment_config.email_addresses import email_address_problem
from deployment_config.errors import Problem, quoted
from deployment_config.sections._fields import (
    _STRICT,
    _text,
    fail,
    report,
)

#: The retention periods CloudWatch Logs accepts (CloudWatch Logs API reference, PutRetentionPolicy retentionInDays).
LOG_RETENTION_DAYS = (
    1,
    3,
    5,
    7,
    14,
    30,
    60,
    90,
    120,
    150,
    180,
    365,
    400,
    545,
    731,
    1096,
    1827,
    2192,
    2557,
    2922,
    3288,
    3653,
)


#: The largest monthly budget accepted: far above any environment, low enough to catch a mistyped amount.
MAX_MONTHLY_BUDGET_USD = 100_000_000
#: Subscribers of one budget notification: botocore 1.43.127's budgets model, shape ``Subscribers`` (max 11).
MAX_BUDGET_SUBSCRIBERS = 11
#: The largest Capacity Block fee accepted: more than any block (ops_cli/cost.py, MAX_BLOCK_FEE, the same bound).
MAX_BLOCK_FEE_USD = 100_000_000
#: The idle alarm evaluates one-minute periods, and "for alarms with a period of less than one hour (3,600 seconds),
#: the total evaluation period can't be longer than one day (86,400 seconds)" (botocore 1.43.127's CloudWatch model,
#: PutMetricAlarm Period): it evaluates one minute more than this (a missed publish must not end an idle streak:
#: cdk_constructs/serving_alarms.py, _idle_rules), so at most 1439. At least 5 minutes: shorter is the pause between two
#: clients' requests, not an idle block.
IDLE_ALARM_MINUTES = (5, 1439)


class ObservabilitySection(BaseModel):
    """Metrics, dashboard, alarms and logs of the environment; every threshold has a default."""

    model_config = _STRICT

    alarm_emails: list[Annotated[str, _text(254)]] = Field(
        default=[],
        description="E-mail addresses subscribed to the environment's alarm topic (each confirms once). "
        "Default: none; subscribe other endpoints to the topic yourself.",
        examples=[["oncall@example.com"]],
    )
    log_retention_days: Literal[LOG_RETENTION_DAYS] = Field(  # type: ignore[valid-type]
        default=30,
        description="How long container logs stay in CloudWatch Logs. Default: 30.",
        examples=[30],
    )
    time_to_first_token_p90_seconds: float = Field(
        default=10.0,
        gt=0,
        le=3600,
        description="Alarm when the p90 time to first token stays above this. Default: 10.",
        examples=[10],
    )
    kv_cache_usage_percent: int = Field(
        default=95,
        ge=50,
        le=100,
        description="Alarm when vLLM's KV-cache usage stays at or above this. Default: 95.",
        examples=[95],
    )
    error_rate_percent: int = Field(
        default=5,
        ge=1,
        le=100,
        description="Alarm when this share of requests fails. Default: 5.",
        examples=[5],
    )
    monthly_budget_usd: float | None = Field(
        default=None,
        json_schema_extra={"exclusiveMinimum": 0, "maximum": MAX_MONTHLY_BUDGET_USD},
        description="An AWS Budgets cost budget for the month, in USD, over the "
        "costs tagged environment=NAME (activate that cost allocation tag in Billing first): e-mails to alarm_emails at "
        "80 % actual and 100 % forecasted; needs at least one address in alarm_emails. Default: none (no budget).",
        examples=[20000],
    )

    block_fee_usd: float | None = Field(
        default=None,
        json_schema_extra={"exclusiveMinimum": 0, "maximum": MAX_BLOCK_FEE_USD},
        description="platform: eks only. The Capacity Block's upfront fee in USD, what 'llmops capacity-blocks "
        "purchase' printed (EC2 does not return it after the purchase): the serving metrics publisher puts each "
        "minute's share of it, and the dashboard shows the cost per million input and output tokens. HyperPod reads "
        "the training plan's fee from SageMaker. Default: none (the dashboard shows tokens and the idle share, and "
        "says how to add the cost).",
        examples=[91540.80],
    )
    next_block_fee_usd: float | None = Field(
        default=None,
        json_schema_extra={"exclusiveMinimum": 0, "maximum": MAX_BLOCK_FEE_USD},
        description="platform: eks, with capacity.next_capacity_reservation_id only. The next Capacity Block's upfront "
        "fee in USD, what 'llmops capacity-blocks purchase' printed for it (EC2 does not return it after the "
        "purchase): the publisher's BlockCostUsd and 'llmops cost --usage' then count both blocks' fees, both while "
        "they overlap. Needs block_fee_usd too. Default: none (the next block's minutes add nothing to the cost, and "
        "'llmops cost --usage' says so).",
        examples=[91540.80],
    )
    idle_alarm_minutes: int | None = Field(
        default=None,
        ge=IDLE_ALARM_MINUTES[0],
        le=IDLE_ALARM_MINUTES[1],
        description="Alarm (to the alarm topic) when vLLM serves and no request has run in this many of the last "
        "this-many-plus-one minutes (a minute the metrics publisher missed does not end the streak): the prepaid block "
        "earns nothing. 5 to 1439. Default: none (no alarm): an endpoint without round-the-clock "
        "clients idles every night, and an alarm that fires every night teaches the on-call to ignore the topic.",
        examples=[120],
    )

    @field_validator("alarm_emails")
    @classmethod
    def _emails(cls, value: list[str], info: ValidationInfo) -> list[str]:
        for index, address in enumerate(value):
            problem = email_address_problem(address)
            if problem:
                report(info, f"observability.alarm_emails[{index}]", problem)
            elif address in value[:index]:
                report(
                    info,
                    f"observability.alarm_emails[{index}]",
                    Problem(f"lists {quoted(address)} twice", "list each address once"),
                )
        return value

    @field_validator("monthly_budget_usd")
    @classmethod
    def _budget(cls, value: float | None, info: ValidationInfo) -> float | None:
        if value is not None and not 0 < value <= MAX_MONTHLY_BUDGET_USD:
            fail(
                Problem(
                    f"{value:g} USD is not a budget: it must be more than 0 and at most {MAX_MONTHLY_BUDGET_USD:,}",
                    "write the monthly amount in USD, for example monthly_budget_usd: 20000, or leave the key out",
                )
            )
        return value

    @field_validator("block_fee_usd", "next_block_fee_usd")
    @classmethod
    def _block_fee(cls, value: float | None, info: ValidationInfo) -> float | None:
        if value is not None and not 0 < value <= MAX_BLOCK_FEE_USD:
            fail(
                Problem(
                    f"{value:g} USD is not a Capacity Block's fee: it must be more than 0 and at most "
                    f"{MAX_BLOCK_FEE_USD:,}",
                    "write the upfront fee 'llmops capacity-blocks purchase' printed, in USD, for example "
                    f"{info.field_name}: 91540.80, or leave the key out",
                )
            )
        return value
