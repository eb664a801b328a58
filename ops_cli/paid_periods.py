"""The periods paid for the GPU capacity that serves, each with its fee: what ``llmops cost --usage`` spreads over time.

A Capacity Block's fee pays for the block as bought; an extension is paid apart, with its own fee; a next Capacity
Block (``capacity.next_capacity_reservation_id``, serving across blocks) is a reservation of its own. So:

- **block**: the reservation in ``capacity.capacity_reservation_id`` as bought (StartDate to
  capacity_rules.bought_until), with ``--block-fee`` or ``observability.block_fee_usd`` (EC2 does not return a
  Capacity Block's fee: ops_cli/cost.py).
- **extension**: each extension of either reservation from EC2 DescribeCapacityBlockExtensionHistory, read in one
  call for both ids, with its ``UpfrontFee`` and ``CurrencyCode``. Only ``payment-succeeded`` is paid; a
  ``payment-pending`` one is listed, not counted; a ``payment-failed`` one is left out (capacity_rules says where EC2
  documents each status).
- **next block**: the reservation in ``capacity.next_capacity_reservation_id`` as bought (its own extensions are
  extensions), with ``observability.next_block_fee_usd``.
- On HyperPod, the **training plan** (DescribeTrainingPlan's StartTime, EndTime, UpfrontFee) is the one period.

A period whose fee is unknown (or in another currency than the sum) adds nothing to the cost, and says so; its minutes
are still paid minutes (the tokens and the idle share count them). A gap between the blocks is in no period. A block
whose reservation was never paid (capacity_rules.NEVER_PAID, the publisher's rule for BlockCostUsd) is listed, not
counted.

Needs ``ec2:DescribeCapacityBlockExtensionHistory`` besides ``ec2:DescribeCapacityReservations``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from capacity_rules import FAILED, NEVER_PAID, PAID, bought_until, extensions_of
from deployment_config.model import EnvironmentConfig
from ops_cli import capacity_blocks as cb
from ops_cli.aws import Aws
from ops_cli.cost_records import Block, upfront_fee

EXTENSION_SOURCE = (
    "EC2 DescribeCapacityBlockExtensionHistory (UpfrontFee, CurrencyCode; payment-succeeded)"
)


@dataclass(frozen=True)
class PaidPeriod:
    """One period of GPU capacity and its fee (None: unknown). ``paid`` is False for an extension whose payment is
    still pending: listed, neither its fee nor its minutes counted."""

    kind: str
    identifier: str
    start: datetime | None
    end: datetime | None
    fee: Decimal | None
    currency: str | None
    fee_source: str
    paid: bool = True

    @property
    def hours(self) -> Decimal | None:
        """Its length; None without both dates, or when it ends before it starts (no length: nothing counted)."""
        if self.start is None or self.end is None or self.end < self.start:
            return None
        return Decimal(str((self.end - self.start).total_seconds())) / 3600

    def hours_gone(self, now: datetime) -> Decimal:
        """The hours of the period before ``now`` (0 before it starts, all of it once it has ended)."""
        if self.start is None or self.end is None or now <= self.start:
            return Decimal(0)
        return Decimal(str((min(now, self.end) - self.start).total_seconds())) / 3600

    def counted(self, currency: str) -> bool:
        """Whether its fee is in the cost: paid, known, in ``currency``, and of a period with a length."""
        return self.paid and self.fee is not None and self.currency == currency and bool(self.hours)

    def cost_so_far(self, now: datetime) -> Decimal | None:
        """fee x the hours gone / the period's hours; None when the fee is unknown or the period has no length."""
        if self.fee is None or not self.hours:
            return None
        return self.fee * self.hours_gone(now) / self.hours


def extension_history(aws: Aws, reservation_ids: list[str]) -> list[dict]:
    """Every extension of the reservations, one DescribeCapacityBlockExtensionHistory call for all (and its pages)."""
    return aws.pages(
        "ec2",
        "describe_capacity_block_extension_history",
        f"read the extension history of {', '.join(reservation_ids)}",
        "CapacityBlockExtensions",
        CapacityReservationIds=reservation_ids,
    )


def reservation_periods(
    kind: str, block: Block, extensions: list[dict], fee_source: str
) -> list[PaidPeriod]:
    """The reservation ``block`` (its fee is the block's as bought) and its extensions, in time order."""
    # a failed extension is no period; its start still bounds the block as bought (capacity_rules.bought_until)
    extended = extensions_of(block.identifier, extensions)
    ours = [x for x in extended if x.get("CapacityBlockExtensionStatus") != FAILED]
    unpaid = block.state in NEVER_PAID
    periods = [
        PaidPeriod(
            kind,
            block.identifier,
            block.start,
            bought_until(block.end, extended),
            block.fee,
            block.currency,
            f"not counted: the reservation is {block.state} (never paid)" if unpaid else fee_source,
            paid=not unpaid,
        )
    ]
    for x in ours:
        paid, fee = x.get("CapacityBlockExtensionStatus") == PAID, upfront_fee(x.get("UpfrontFee"))
        source = (
            EXTENSION_SOURCE
            if paid and fee is not None
            else "unknown: EC2 gave no UpfrontFee"
            if paid
            else f"not counted: {x.get('CapacityBlockExtensionStatus')} (only a payment that "
            "succeeded is paid)"
        )
        periods.append(
            PaidPeriod(
                "extension",
                block.identifier,
                x["CapacityBlockExtensionStartDate"],
                x.get("CapacityBlockExtensionEndDate"),
                fee,
                x.get("CurrencyCode") if fee is not None else None,
                source,
                paid=paid,
            )
        )
    return periods


def reservation_block(
    aws: Aws,
    reservation_id: str,
    fee: Decimal | None,
    currency: str,
    fee_source: str,
    *,
    unknown: str,
) -> Block:
    """A Capacity Block as DescribeCapacityReservations describes it, with ``fee`` in ``currency`` from ``fee_source``;
    without a fee, ``unknown`` says how to give one."""
    reservation = cb.describe_reservation(aws, reservation_id)
    return Block(
        "Capacity Block",
        reservation_id,
        reservation.get("StartDate"),
        reservation.get("EndDate"),
        fee,
        currency if fee is not None else None,
        fee_source if fee is not None else unknown,
        reservation.get("State"),
    )


def next_block(aws: Aws, env: EnvironmentConfig) -> Block | None:
    """The next Capacity Block with its configured fee, or None when none is configured."""
    reservation_id = env.capacity.next_capacity_reservation_id
    if not reservation_id:
        return None
    configured = env.observability.next_block_fee_usd
    return reservation_block(
        aws,
        reservation_id,
        Decimal(str(configured)) if configured is not None else None,
        "USD",
        "observability.next_block_fee_usd in the configuration",
        unknown="unknown: set observability.next_block_fee_usd, the fee 'capacity-blocks purchase' printed",
    )


def capacity_periods(aws: Aws, env: EnvironmentConfig, block: Block) -> list[PaidPeriod]:
    """Every period paid for the Capacity Blocks of ``env``: the block, its extensions, the next block and its."""
    following = next_block(aws, env)
    blocks = [block, *([following] if following else [])]
    extensions = extension_history(aws, [b.identifier for b in blocks])
    periods = reservation_periods("block", block, extensions, block.fee_source)
    if following:
        periods += reservation_periods("next block", following, extensions, following.fee_source)
    return periods


def plan_period(block: Block) -> list[PaidPeriod]:
    """A training plan: one period, its fee SageMaker's."""
    return [
        PaidPeriod(
            "training plan",
            block.identifier,
            block.start,
            block.end,
            block.fee,
            block.currency,
            block.fee_source,
        )
    ]


def fee_per_hour(
    periods: list[PaidPeriod], now: datetime, currency: str
) -> tuple[Decimal, list[PaidPeriod]]:
    """(the fees per hour at ``now``, the periods they are of): every counted period covering now (both blocks while
    they overlap); before the first period, its own (the block as bought, as it will be); in a gap between blocks or
    after the last, none (0: no fee accrues)."""
    covering = [p for p in periods if p.counted(currency) and p.start <= now < p.end]
    first = [p for p in periods[:1] if p.counted(currency)]
    before = bool(first) and first[0].start is not None and now < first[0].start
    paying = covering or (first if before else [])
    return sum((p.fee / p.hours for p in paying), Decimal(0)), paying


def uncounted_now(periods: list[PaidPeriod], now: datetime, currency: str) -> list[PaidPeriod]:
    """The periods covering ``now`` whose fee is not counted (unknown, in another currency, a payment pending, a
    reservation never paid): where :func:`fee_per_hour` finds none paying, these say why, a gap does not."""
    return [
        p
        for p in periods
        if not p.counted(currency) and p.start is not None and p.end is not None
        if p.start <= now < p.end
    ]


def why_uncounted(period: PaidPeriod, currency: str) -> str:
    """Why ``period``'s fee is not in the ``currency`` sum, in words after its kind and id."""
    if not period.paid:
        return period.fee_source  # "not counted: ..."
    if period.fee is None:
        return f"its fee {period.fee_source}"
    return f"its fee {period.fee:,.2f} {period.currency}, not in the {currency} sum"


def paid_minutes(periods: list[PaidPeriod], start: datetime, end: datetime) -> Decimal:
    """The minutes from ``start`` to ``end`` inside at least one paid period (an overlap counts once, a gap not)."""
    spans = sorted(
        (max(p.start, start), min(p.end, end))
        for p in periods
        if p.paid and p.start is not None and p.end is not None
    )
    total, reach = Decimal(0), start
    for low, high in spans:
        low = max(low, reach)
        if high > low:
            total += Decimal(str((high - low).total_seconds()))
            reach = high
    return total / 60
