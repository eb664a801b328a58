"""The vendored price table (deployment_config/data/gpu_prices.json): every figure has its page, what was read and the
day; only the catalog's GPU types are in it; a type or region it does not list has no rate, and that is said with the
source and date, never guessed."""

from __future__ import annotations

import json
import re
from decimal import Decimal

import pytest

from deployment_config import gpu_prices
from deployment_config.catalog import GPU_INSTANCE_TYPES


def test_every_price_list_names_its_page_what_was_read_and_the_day():
    # given the table as shipped, when it is read
    lists = gpu_prices.price_lists()
    # then both lists are there, each with its source and a date
    assert set(lists) == {"capacity_blocks", "on_demand"}
    assert (
        lists["capacity_blocks"].source_page == "https://aws.amazon.com/ec2/capacityblocks/pricing/"
    )
    assert lists["on_demand"].source_page == "https://aws.amazon.com/ec2/pricing/on-demand/"
    for prices in lists.values():
        assert "@" in prices.read_from and ":" in prices.read_from  # repository@commit:path
        assert prices.read_on in prices.source


def test_only_the_catalogs_gpu_types_are_priced_and_every_rate_is_positive():
    for prices in gpu_prices.price_lists().values():
        assert set(prices.rates) <= set(GPU_INSTANCE_TYPES)
        assert all(r > 0 for by_region in prices.rates.values() for r in by_region.values())
        # region codes only: a Local Zone is not an environment's region
        assert all(
            region.count("-") in (2, 3)
            for by_region in prices.rates.values()
            for region in by_region
        )


def test_the_default_environments_block_has_its_published_rate():
    # given the quick start's type and region (config/example.yaml), when the table is asked
    rate = gpu_prices.capacity_block_rate("p6-b300.48xlarge", "us-west-2")
    # then it answers the page's figure of the day read, with that day
    assert rate is not None and rate.per_instance_hour == Decimal("112.32")
    assert rate.read_on == "2026-07-22"


def test_a_type_or_region_without_a_published_rate_gets_none_and_says_where_it_looked():
    # p5e has no On-Demand rate in the source read; p6-b300 no Capacity Block rate in Frankfurt
    assert gpu_prices.rate("on_demand", "p5e.48xlarge", "us-west-2") is None
    assert gpu_prices.capacity_block_rate("p6-b300.48xlarge", "eu-central-1") is None
    said = gpu_prices.absent("capacity_blocks", "p6-b300.48xlarge", "eu-central-1")
    assert said.startswith("no published rate in the table for p6-b300.48xlarge in eu-central-1")
    assert "https://aws.amazon.com/ec2/capacityblocks/pricing/, read 2026-07-22" in said


@pytest.mark.parametrize(
    "change, complaint",
    [
        (lambda t: t["capacity_blocks"].pop("read_on"), "capacity_blocks.read_on is missing"),
        (lambda t: t["on_demand"].update(read_on="July 2026"), "is not YYYY-MM-DD"),
        (
            lambda t: t["capacity_blocks"]["rates"]["p5.48xlarge"].update({"us-east-1": "41,5"}),
            "p5.48xlarge.us-east-1 '41,5' is not a positive rate",
        ),
        (
            lambda t: t["capacity_blocks"]["rates"]["p5.48xlarge"].update({"us-east-1": "0"}),
            "is not a positive rate",
        ),
    ],
)
def test_a_table_without_its_source_or_with_a_malformed_rate_is_refused(
    tmp_path, monkeypatch, change, complaint
):
    table = json.loads(gpu_prices.PRICES_FILE.read_text(encoding="utf-8"))
    change(table)
    broken = tmp_path / "gpu_prices.json"
    broken.write_text(json.dumps(table), encoding="utf-8")
    monkeypatch.setattr(gpu_prices, "PRICES_FILE", broken)
    gpu_prices.price_lists.cache_clear()
    try:
        with pytest.raises(ValueError, match=re.escape(complaint)):
            gpu_prices.price_lists()
    finally:
        monkeypatch.undo()
        gpu_prices.price_lists.cache_clear()
