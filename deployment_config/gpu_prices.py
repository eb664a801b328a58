"""Published hourly rates of the GPU instance types, offline: a vendored, dated table (data/gpu_prices.json).

Two price lists, each with the page it comes from, what was read and on which day:

- ``capacity_blocks``: the reservation fee of an EC2 Capacity Block for ML per instance-hour ("Effective Instance
  Hourly Rate", https://aws.amazon.com/ec2/capacityblocks/pricing/). A block's fee is that rate x its instances x its
  hours, at the rate of the day of purchase: the offering's ``UpfrontFee`` is what is actually paid.
- ``on_demand``: the On-Demand Linux rate per instance-hour (https://aws.amazon.com/ec2/pricing/on-demand/), for
  capacity outside a block.

A type or region the table does not list has no rate here (:func:`rate` answers None and :func:`absent` says so with
the source and date): nothing is guessed. The file's ``how_to_update`` says how to read it again. The table is checked
when it is read: every list names its page, what was read and the day, and every rate is a positive decimal.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from pathlib import Path
from types import MappingProxyType

PRICES_FILE = Path(__file__).resolve().parent / "data" / "gpu_prices.json"
#: The price lists of the table.
LISTS = ("capacity_blocks", "on_demand")
CURRENCY = "USD"
_RATE = re.compile(r"[0-9]+(\.[0-9]+)?")
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


@dataclass(frozen=True)
class PriceList:
    """One price list of the table: its rates per instance type and region code, and where they come from."""

    name: str
    what: str
    source_page: str
    read_from: str
    read_on: str
    rates: MappingProxyType

    @property
    def source(self) -> str:
        """The source in one line: the page, what was read, the day."""
        return f"{self.source_page}, read {self.read_on} from {self.read_from}"


@dataclass(frozen=True)
class PublishedRate:
    """A rate per instance-hour in USD, with its price list."""

    per_instance_hour: Decimal
    instance_type: str
    region: str
    price_list: PriceList

    @property
    def read_on(self) -> str:
        return self.price_list.read_on


def _checked(name: str, raw: dict) -> PriceList:
    for key in ("what", "source_page", "read_from", "read_on", "rates"):
        if not raw.get(key):
            raise ValueError(f"{PRICES_FILE}: {name}.{key} is missing")
    if not _DAY.fullmatch(raw["read_on"]):
        raise ValueError(f"{PRICES_FILE}: {name}.read_on {raw['read_on']!r} is not YYYY-MM-DD")
    rates = {}
    for instance_type, by_region in raw["rates"].items():
        for region, text in by_region.items():
            if not isinstance(text, str) or not _RATE.fullmatch(text) or Decimal(text) <= 0:
                raise ValueError(
                    f"{PRICES_FILE}: {name}.rates.{instance_type}.{region} {text!r} is not a positive rate"
                )
        rates[instance_type] = MappingProxyType({r: Decimal(t) for r, t in by_region.items()})
    return PriceList(
        name,
        raw["what"],
        raw["source_page"],
        raw["read_from"],
        raw["read_on"],
        MappingProxyType(rates),
    )


@cache
def price_lists() -> MappingProxyType:
    """The table's price lists by name (:data:`LISTS`), checked."""
    raw = json.loads(PRICES_FILE.read_text(encoding="utf-8"))
    return MappingProxyType({name: _checked(name, raw[name]) for name in LISTS})


def rate(price_list: str, instance_type: str, region: str) -> PublishedRate | None:
    """The published rate of ``instance_type`` in ``region`` from ``price_list``, or None where the table has none."""
    prices = price_lists()[price_list]
    per_hour = prices.rates.get(instance_type, {}).get(region)
    return None if per_hour is None else PublishedRate(per_hour, instance_type, region, prices)


def capacity_block_rate(instance_type: str, region: str) -> PublishedRate | None:
    return rate("capacity_blocks", instance_type, region)


def on_demand_rate(instance_type: str, region: str) -> PublishedRate | None:
    return rate("on_demand", instance_type, region)


def absent(price_list: str, instance_type: str, region: str) -> str:
    """What the CLI says where the table has no rate: which list, its source and date."""
    prices = price_lists()[price_list]
    return (
        f"no published rate in the table for {instance_type} in {region} "
        f"({prices.source_page}, read {prices.read_on})"
    )
