"""What ``llmops cost`` reports (ops_cli/cost.py): a row per billable item, the GPU capacity's block, and the totals
with their JSON form; ops_cli/tables.py shows them."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal, InvalidOperation

from deployment_config.gpu_prices import PublishedRate
from ops_cli.price_list import PRICE_CURRENCY, Price, PriceQuery


def upfront_fee(text: object) -> Decimal | None:
    """An UpfrontFee as EC2 and SageMaker send it (a string in their models) as a number; None when they sent none, or
    no finite number, or a negative one (a fee is paid, never received: it would lower the sum)."""
    try:
        amount = Decimal(str(text)) if text not in (None, "") else None
    except InvalidOperation:
        return None
    return amount if amount is not None and amount.is_finite() and amount >= 0 else None


@dataclass
class CostRow:
    """One billable item: how many, at what price per hour (None: not found, or not hourly)."""

    item: str
    count: int
    query: PriceQuery | None = None
    price: Price | None = None
    note: str = ""
    #: For the block's fee, already known per hour (fee / the block's hours), outside the Price List.
    fixed_per_hour: Decimal | None = None
    #: what it is in bench/running_resources.py's inventory (its rows' ``kind``)
    kind: str = ""

    @property
    def per_hour(self) -> Decimal | None:
        if self.fixed_per_hour is not None:
            return self.fixed_per_hour
        return self.price.per_hour * self.count if self.price else None

    def to_dict(self, hours: Decimal | None) -> dict:
        per_hour = self.per_hour
        return {
            "item": self.item,
            "count": self.count,
            "unit_price_per_hour": str(self.price.per_hour) if self.price else None,
            "per_hour": str(per_hour) if per_hour is not None else None,
            "rest_of_block": str(_cents(per_hour * hours))
            if per_hour is not None and hours is not None and self.query is not None
            else None,
            "source": self.price.to_dict() if self.price else None,
            "filters": self.query.describe() if self.query else None,
            "note": self.note or None,
        }


@dataclass
class Block:
    """The GPU capacity the environment runs on: its end, length and upfront fee (None when unknown)."""

    kind: str
    identifier: str
    start: datetime | None
    end: datetime | None
    fee: Decimal | None
    currency: str | None
    fee_source: str
    #: The reservation's State (EC2 DescribeCapacityReservations); None for a training plan.
    state: str | None = None

    def hours_left(self, now: datetime) -> Decimal | None:
        """Hours from now to the block's end: the network, cluster and nodes run (and bill) until then."""
        if self.end is None:
            return None
        return max(Decimal(0), Decimal(str((self.end - now).total_seconds())) / 3600)

    @property
    def hours(self) -> Decimal | None:
        if self.start is None or self.end is None:
            return None
        return Decimal(str((self.end - self.start).total_seconds())) / 3600


@dataclass(frozen=True)
class PublishedFee:
    """The GPU capacity at the price table's rate (deployment_config/gpu_prices.py): what the block comes to at the
    published rate, beside the fee actually paid (never instead of it, never in the totals)."""

    instance_type: str
    instances: int
    rate: PublishedRate | None
    #: why there is no rate (the table's own words, with its source and date), when ``rate`` is None
    absent: str = ""

    @property
    def per_hour(self) -> Decimal | None:
        return self.rate.per_instance_hour * self.instances if self.rate else None

    def fee_for(self, hours: Decimal | None) -> Decimal | None:
        """The fee a block of ``hours`` comes to at this rate (None without a rate or without the hours)."""
        per_hour = self.per_hour
        return _cents(per_hour * hours) if per_hour is not None and hours is not None else None

    def to_dict(self, block_hours: Decimal | None) -> dict:
        fee = self.fee_for(block_hours)
        rate = self.rate
        return {
            "instance_type": self.instance_type,
            "instances": self.instances,
            "per_instance_hour": str(rate.per_instance_hour) if rate else None,
            "per_hour": str(self.per_hour) if rate else None,
            "per_day": str(_cents(self.per_hour * 24)) if rate else None,
            "block_hours": str(to_tenths(block_hours)) if block_hours is not None else None,
            "block_fee": str(fee) if fee is not None else None,
            "read_on": rate.read_on if rate else None,
            "source": rate.price_list.source if rate else None,
            "absent": self.absent or None,
        }


@dataclass(frozen=True)
class BridgeCost:
    """The bridge (the bridge section, docs/stay-up.md) at the price table's On-Demand rate: its instances x its
    hours, start to stop (deployment_config/bridge.py). Beside the hourly rows, not in their totals: it runs in its
    window only."""

    instance_type: str
    instances: int
    start: datetime
    stop: datetime
    rate: PublishedRate | None
    #: why there is no rate (the table's own words, with its source and date), when ``rate`` is None
    absent: str = ""

    @property
    def hours(self) -> Decimal:
        return Decimal(str((self.stop - self.start).total_seconds())) / 3600

    @property
    def fee(self) -> Decimal | None:
        if self.rate is None:
            return None
        return _cents(self.rate.per_instance_hour * self.instances * self.hours)

    def to_dict(self) -> dict:
        rate = self.rate
        return {
            "instance_type": self.instance_type,
            "instances": self.instances,
            "start": self.start.isoformat(),
            "stop": self.stop.isoformat(),
            "hours": str(to_tenths(self.hours)),
            "on_demand_per_instance_hour": str(rate.per_instance_hour) if rate else None,
            "fee": str(self.fee) if rate else None,
            "read_on": rate.read_on if rate else None,
            "source": rate.price_list.source if rate else None,
            "absent": self.absent or None,
        }


@dataclass
class CostReport:
    env: str
    region: str
    block: Block
    rows: list[CostRow]
    now: datetime
    usage_based: tuple[str, ...] = field(default=())
    #: what is billed per GB-month (EBS volumes), listed beside the hourly rows, not in their totals
    per_gb_month: tuple[str, ...] = field(default=())
    #: the GPU capacity at the price table's rate
    published: PublishedFee | None = None
    #: why the AWS part is missing (no credentials): every line that needs AWS says so
    needs_aws: str | None = None
    #: the bridge at the price table's On-Demand rate, beside the totals; None without a bridge section
    bridge: BridgeCost | None = None

    @property
    def hours_left(self) -> Decimal | None:
        return self.block.hours_left(self.now)

    def hourly_rows(self) -> list[CostRow]:
        return [r for r in self.rows if r.query is not None]

    @property
    def hourly_total(self) -> Decimal:
        """The priced running resources per hour (rows without a price are not in it)."""
        return sum((r.per_hour for r in self.hourly_rows() if r.per_hour is not None), Decimal(0))

    @property
    def missing(self) -> list[str]:
        """The hourly resources without a price (the block's fee is the block's own)."""
        return [r.item for r in self.hourly_rows() if r.per_hour is None]

    def to_dict(self) -> dict:
        hours = self.hours_left
        # The capacity's fees per hour: the fee row's (ops_cli/cost.py), None when unknown or in another currency.
        fee_rate = next(
            (
                r.fixed_per_hour
                for r in self.rows
                if r.query is None and r.fixed_per_hour is not None
            ),
            None,
        )
        all_in = self.hourly_total + fee_rate if fee_rate is not None else None
        return {
            "env": self.env,
            "region": self.region,
            "currency": PRICE_CURRENCY,
            "at": self.now.isoformat(),
            "block": {
                "kind": self.block.kind,
                "id": self.block.identifier,
                "start": self.block.start.isoformat() if self.block.start else None,
                "end": self.block.end.isoformat() if self.block.end else None,
                "hours_left": str(to_tenths(hours)) if hours is not None else None,
                "upfront_fee": str(self.block.fee) if self.block.fee is not None else None,
                "fee_currency": self.block.currency,
                "fee_source": self.block.fee_source,
            },
            "rows": [r.to_dict(hours) for r in self.rows],
            "total": {
                "per_hour": str(_cents(self.hourly_total)) if not self.needs_aws else None,
                "rest_of_block": str(_cents(self.hourly_total * hours))
                if hours is not None
                else None,
                "per_hour_with_block_fee": str(_cents(all_in)) if all_in is not None else None,
                "complete": not self.missing,
                "not_priced": self.missing,
            },
            "usage_based_not_estimated": list(self.usage_based),
            "per_gb_month_not_in_totals": list(self.per_gb_month),
            "published_rate": self.published.to_dict(self.block.hours) if self.published else None,
            "needs_aws": self.needs_aws,
            "bridge_not_in_totals": self.bridge.to_dict() if self.bridge else None,
        }


def _cents(value: Decimal) -> Decimal:
    return value.quantize(Decimal("0.01"))


def to_tenths(value: Decimal) -> Decimal:
    return value.quantize(Decimal("0.1"))
