"""llmops cost: what an environment costs per hour and for the rest of its block, priced by the AWS Price List Query API.

What is counted comes from the configuration, through the same values the stacks use: the GPU capacity (Capacity
Block or training plan), ``cluster.system_instance_type`` x ``system_node_count``, one NAT gateway per zone and the
interface endpoints of :data:`deployment_config.model.INTERFACE_ENDPOINT_NAMES` in every zone (both from
``EnvironmentConfig``, which stacks/network_stack.py builds the VPC from), the EKS control plane, and the load balancer
the serving path makes (EKS: the cloud controller's NLB; HyperPod: the Inference Operator's ALB). Usage-based services
(AMP, CloudWatch, data processed) are listed, not estimated. Without AWS credentials it still prints what it knows
(:func:`offline_report`): the counts, and the GPU capacity at the published rate of the price table
(deployment_config/gpu_prices.py, ops_cli/cost_estimate.py), each price that needs AWS marked so.

Facts and their sources:

- The prices: the AWS Price List Query API (ops_cli/price_list.py, with its sources); every query must match exactly
  one product, or its row says "price not found" with the filters, instead of guessing.
- A Capacity Block's upfront fee is not in DescribeCapacityReservations' answer (botocore's EC2 model,
  ``CapacityReservation`` has ``StartDate``, ``EndDate`` and no fee): the user passes ``--block-fee``, what
  ``capacity-blocks purchase`` printed, or configures ``observability.block_fee_usd`` (:func:`block_of`). A training
  plan's is: DescribeTrainingPlan answers ``UpfrontFee``, ``CurrencyCode``, ``StartTime``, ``EndTime`` (botocore's
  SageMaker model, ``DescribeTrainingPlanResponse``).
- After an extension EC2's EndDate is the extended end: the block's fee per hour is over the block as bought, and
  the capacity's cost per hour now is that of every paid period covering now (an extension's own fee, both blocks
  while they overlap), from ops_cli/paid_periods.py.
"""

from __future__ import annotations

import re
from datetime import datetime
from decimal import Decimal

from deployment_config.model import EnvironmentConfig, Platform
from ops_cli import price_list
from ops_cli import training_plans as tp
from ops_cli.aws import Aws
from ops_cli.cost_estimate import bridge_cost, gpu_capacity, published_fee
from ops_cli.cost_inventory import USAGE_BASED, billable_rows, ebs_volumes
from ops_cli.cost_records import Block, CostReport, CostRow, to_tenths, upfront_fee
from ops_cli.errors import ExitCode, OpsError, shown
from ops_cli.paid_periods import (
    capacity_periods,
    fee_per_hour,
    plan_period,
    reservation_block,
    uncounted_now,
    why_uncounted,
)
from ops_cli.price_list import PRICE_CURRENCY, hourly_price

#: The largest fee accepted with --block-fee: more than any Capacity Block, small enough to catch a typo.
MAX_BLOCK_FEE = Decimal(100_000_000)


#: An amount on the command line: ASCII digits with an optional '.' and decimal part, nothing else. One way only:
#: a ',' is a decimal comma in much of the world and a thousands separator in the rest ("91,540" is 91540 or 91.54),
#: and Python's Decimal would also take '1_000', '1e5', ' 5', 'NaN' and digits of other scripts.
AMOUNT = re.compile(r"[0-9]+(?:\.[0-9]+)?")
AMOUNT_FORM = (
    "digits with an optional '.' decimal part, no thousands separators, for example 91540.80"
)


def parse_amount(text: str, option: str, most: Decimal, example: str = "91540.80") -> Decimal:
    """``text`` as an amount above 0 and at most ``most`` (see :data:`AMOUNT`); one :class:`OpsError` naming
    ``option``, what was wrong and the accepted form (with ``example``) otherwise."""
    form = AMOUNT_FORM.replace("91540.80", example)
    if "," in text:
        if re.fullmatch(
            r"[0-9]{1,3}(,[0-9]{3})+\.[0-9]+", text
        ):  # '91,540.80': both marks, so ',' groups
            raise OpsError(
                f"{option} {shown(text)} has a thousands separator ','",
                f"write {option} {text.replace(',', '')} ({form.partition(', for')[0]})",
                ExitCode.USAGE,
            )
        raise OpsError(
            f"{option} {shown(text)} has a ',', which is a decimal comma or a thousands separator depending "
            "on where one lives, so its value is ambiguous",
            f"write the amount as {form}",
            ExitCode.USAGE,
        )
    if not AMOUNT.fullmatch(text):
        raise OpsError(
            f"{option} {shown(text)} is not an amount", f"write it as {form}", ExitCode.USAGE
        )
    value = Decimal(text)
    if value <= 0 or value > most:
        raise OpsError(
            f"{option} {shown(text)} is out of range (more than 0, at most {most:,})",
            f"pass the amount as {form}",
            ExitCode.USAGE,
        )
    return value


def parse_block_fee(text: str) -> Decimal:
    """--block-fee: the upfront fee 'capacity-blocks purchase' printed, written as :data:`AMOUNT` (91540.80)."""
    return parse_amount(text, "--block-fee", MAX_BLOCK_FEE)


# --- prices -------------------------------------------------------------------------------------------------------


def price_rows(pricing: Aws, rows: list[CostRow]) -> None:
    """Fill in each row's price; a query that matches no product or several says so in the row's note."""
    for row in rows:
        if row.query is None:
            continue
        products = price_list.products(pricing, row.query)
        prices = [hourly_price(p) for p in products]
        if len(products) == 1 and prices[0] is not None:
            row.price = prices[0]
        else:
            why = (
                f"{len(products)} products match"
                if len(products) != 1
                else "the product has no single hourly On-Demand price"
            )
            row.note = f"price not found ({why}; filters {row.query.describe()})"


# --- the block ----------------------------------------------------------------------------------------------------


def block_of(
    aws: Aws, env: EnvironmentConfig, block_fee: Decimal | None, currency: str = PRICE_CURRENCY
) -> Block:
    """The GPU capacity with its fee. HyperPod: the training plan, its fee SageMaker's (``--block-fee`` is refused).
    EKS: the Capacity Block, its fee ``--block-fee``, else ``observability.block_fee_usd``, else unknown."""
    if env.platform is Platform.HYPERPOD:
        if block_fee is not None:
            raise OpsError(
                "--block-fee is for Capacity Blocks: a training plan's fee is read from SageMaker",
                "leave out --block-fee",
                ExitCode.USAGE,
            )
        return training_plan(aws, env)
    configured = env.observability.block_fee_usd
    if block_fee is None and configured is not None:
        fee, currency = Decimal(str(configured)), "USD"
        source = "observability.block_fee_usd in the configuration"
    else:
        fee, source = (
            block_fee,
            "--block-fee (EC2 does not return a Capacity Block's fee after the purchase)",
        )
    return reservation_block(
        aws,
        env.capacity.capacity_reservation_id,
        fee,
        currency,
        source,
        unknown="unknown: pass --block-fee (or set observability.block_fee_usd), the upfront fee "
        "'capacity-blocks purchase' printed",
    )


def training_plan(aws: Aws, env: EnvironmentConfig) -> Block:
    arn = env.hyperpod.training_plan_arn
    if not arn:
        raise OpsError(
            f"{env.name} has no hyperpod.training_plan_arn",
            f"write the plan in: llmops training-plans use NAME --env {env.name}",
            ExitCode.USAGE,
        )
    plan = tp.describe_plan(aws, arn.rsplit("/", 1)[-1])
    amount = upfront_fee(plan.get("UpfrontFee"))
    return Block(
        "training plan",
        plan.get("TrainingPlanName") or arn,
        plan.get("StartTime"),
        plan.get("EndTime"),
        amount,
        plan.get("CurrencyCode") if amount is not None else None,
        "SageMaker DescribeTrainingPlan (UpfrontFee, CurrencyCode)"
        if amount is not None
        else "unknown: DescribeTrainingPlan returned no UpfrontFee",
    )


def cost_report(
    aws: Aws,
    pricing: Aws,
    env: EnvironmentConfig,
    *,
    now: datetime,
    block_fee: Decimal | None,
    fee_currency: str,
) -> CostReport:
    block = block_of(aws, env, block_fee, fee_currency)
    if env.platform is Platform.HYPERPOD:
        periods = plan_period(
            block
        )  # its fee over StartTime to EndTime: none per hour once it has ended
    else:
        # the periods only price the fee: without one, no extension history (nor its permission) is needed
        periods = capacity_periods(aws, env, block) if block.fee is not None else []
    rows = billable_rows(env)
    price_rows(pricing, rows)
    fee_row = _fee_row(env, block)
    if block.fee is not None and block.currency not in (None, PRICE_CURRENCY):
        fee_row.note = f"{block.fee:,.2f} {block.currency} paid at purchase, not added to the {PRICE_CURRENCY} totals"
    elif block.fee is not None and periods and periods[0].hours:
        # EKS: the fee is over the block as bought; now maybe also an extension's or the next block's. HyperPod: the
        # training plan's.
        fee_row.fixed_per_hour, paying = fee_per_hour(periods, now, PRICE_CURRENCY)
        fee_row.note = (
            f"{block.fee:,.2f} {block.currency} paid at purchase for {to_tenths(periods[0].hours)} h, shown per "
            f"hour of the block; {block.fee_source}"
        )
        uncounted = uncounted_now(periods, now, PRICE_CURRENCY) if not paying else []
        if uncounted:
            # a period serves now, its fee not counted: 0 when none of them is paid (a payment pending, never
            # paid), else unknown (a paid fee EC2 or the configuration does not give, or in another currency)
            none_paid = not any(p.paid for p in uncounted)
            fee_row.fixed_per_hour = fee_row.fixed_per_hour if none_paid else None
            fee_row.note += (
                f"; per hour now: {'none counted' if none_paid else 'unknown'}: "
                + "; ".join(
                    f"{p.kind} {p.identifier} covers now, {why_uncounted(p, PRICE_CURRENCY)}"
                    for p in uncounted
                )
            )
        elif not paying:
            fee_row.note += "; per hour now: none (no paid period covers now: a gap between blocks, or after them)"
        elif paying != periods[:1]:
            fee_row.note += "; per hour now: " + " + ".join(
                f"{p.kind} {p.identifier} {p.fee:,.2f} / {to_tenths(p.hours)} h" for p in paying
            )
    elif block.fee is not None and block.hours:
        fee_row.fixed_per_hour = block.fee / block.hours
        fee_row.note = (
            f"{block.fee:,.2f} {block.currency} paid at purchase for {to_tenths(block.hours)} h, shown per hour "
            f"of the block; {block.fee_source}"
        )
    return _report(env, block, [fee_row, *rows], now)


def _report(
    env: EnvironmentConfig, block: Block, rows: list[CostRow], now: datetime, **more
) -> CostReport:
    """The report of ``rows``, with what the configuration alone gives (the volumes, the published fee, the bridge)."""
    return CostReport(
        env.name,
        env.region,
        block,
        rows,
        now,
        USAGE_BASED,
        per_gb_month=ebs_volumes(env),
        published=published_fee(env),
        bridge=bridge_cost(env),
        **more,
    )


def _fee_row(env: EnvironmentConfig, block: Block) -> CostRow:
    gpu_type, count = gpu_capacity(env)
    return CostRow(
        f"{count} x {gpu_type} ({block.kind} {block.identifier}), upfront fee",
        1,
        note=f"paid at purchase, {block.fee_source}",
        kind="gpu-capacity",
    )


def offline_report(
    env: EnvironmentConfig, *, now: datetime, why: str, block_fee: Decimal | None, fee_currency: str
) -> CostReport:
    """What ``llmops cost`` knows without AWS (``why``: the credentials error): the counts from the configuration, the
    GPU capacity at the price table's rate; "needs AWS" on the prices, the block's dates and, on HyperPod, the fee."""
    hyperpod = env.platform is Platform.HYPERPOD
    kind, identifier = (
        ("training plan", (env.hyperpod.training_plan_arn or "?").rsplit("/", 1)[-1])
        if hyperpod
        else ("Capacity Block", env.capacity.capacity_reservation_id)
    )
    dates = "SageMaker DescribeTrainingPlan" if hyperpod else "EC2 DescribeCapacityReservations"
    configured = env.observability.block_fee_usd
    if hyperpod:
        fee = None
    elif block_fee is None and configured is not None:
        fee, fee_currency = Decimal(str(configured)), "USD"
    else:
        fee = block_fee
    block = Block(
        kind,
        identifier,
        None,
        None,
        fee,
        fee_currency if fee is not None else None,
        f"needs AWS: the dates come from {dates}",
    )
    fee_row = _fee_row(env, block)
    fee_row.note = (
        f"{fee:,.2f} {fee_currency} paid at purchase; per hour needs AWS: the block's hours ({dates})"
        if fee is not None
        else f"needs AWS: the fee and the dates come from {dates}"
        if hyperpod
        else "the fee paid: --block-fee or observability.block_fee_usd; the block's hours need AWS "
        f"({dates}); the published rate: 'At the published rate'"
    )
    rows = billable_rows(env)
    for row in rows:
        row.note = "needs AWS: the price comes from the AWS Price List Query API" + (
            f"; {row.note}" if row.note else ""
        )
    return _report(env, block, [fee_row, *rows], now, needs_aws=why)
