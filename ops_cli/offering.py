"""One offer of reserved GPU capacity, a Capacity Block or a training plan, as the CLI shows and compares them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from ops_cli.output import iso


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
