"""One offer of reserved GPU capacity, a Capacity Block or a training plan, as the CLI shows and compares them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from ops_cli.cost_records import upfront_fee
from ops_cli.errors import shown, unexpected_answer
from ops_cli.output import iso


def field(item: dict, key: str, kind: type | tuple[type, ...], what: str):  # noqa: ANN201 - of type ``kind``
    """``item[key]`` of an offering AWS listed, refused (exit 21, naming the field) when absent or of another type: an
    offering is bought by its id and for its fee, so none is shown or compared without them."""
    value = item.get(key)
    if isinstance(value, bool) or not isinstance(value, kind) or value == "":
        raise unexpected_answer(
            f"{what} in AWS's answer has no usable {key} ({shown(str(value))}): it cannot be shown or bought"
        )
    return value


def fee(item: dict, what: str) -> Decimal:
    """The offering's UpfrontFee: a finite number, 0 or more (ops_cli.cost_records.upfront_fee), else refused."""
    amount = upfront_fee(item.get("UpfrontFee"))
    if amount is None:
        field({}, "UpfrontFee", Decimal, what)
    return amount


@dataclass(frozen=True)
class Offering:
    offering_id: str
    instance_type: str
    instance_count: int
    availability_zone: str
    start: datetime | None
    end: datetime | None
    duration_hours: int
    upfront_fee: Decimal
    currency: str

    def to_dict(self) -> dict:
        return {
            "offering_id": self.offering_id,
            "instance_type": self.instance_type,
            "instance_count": self.instance_count,
            "availability_zone": self.availability_zone,
            "start": iso(self.start),
            "end": iso(self.end),
            "duration_hours": self.duration_hours,
            "upfront_fee": str(self.upfront_fee),
            "currency": self.currency,
        }


@dataclass(frozen=True)
class Search:
    """What to look for: the same question to EC2 (Capacity Blocks) and SageMaker (training plans)."""

    instance_type: str
    instance_count: int
    duration_hours: int
    start_after: datetime
    end_before: datetime


def cheapest_first(offerings: list[Offering]) -> list[Offering]:
    """Cheapest first, then the earliest start, then by id so that the order is stable."""
    return sorted(offerings, key=lambda o: (o.upfront_fee, o.start or datetime.max, o.offering_id))
