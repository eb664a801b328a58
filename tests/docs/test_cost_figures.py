"""The price figures the README and docs/costs.md state are the ones the code computes from the vendored price table
(deployment_config/data/gpu_prices.json), with the command that prints them.

Given the quick start's environment (config/example.yaml), when its block is priced at the table's rate (and a
throughput turned into a cost per million tokens), then the pages show those figures, that date and that command."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

from deployment_config import load_environment
from ops_cli import cost_estimate
from tests.conftest import CONFIG_DIR

PROJECT_DIR = Path(__file__).resolve().parents[2]
README = " ".join((PROJECT_DIR / "README.md").read_text(encoding="utf-8").split())
COSTS = " ".join((PROJECT_DIR / "docs" / "costs.md").read_text(encoding="utf-8").split())


def _published():
    return cost_estimate.published_fee(load_environment(CONFIG_DIR, "example"))


def test_the_readme_states_the_default_blocks_price_with_the_command_that_prints_it():
    published = _published()
    per_hour, per_day = published.per_hour, published.per_hour * 24
    assert (
        f"**{per_hour:,.2f} USD per hour, {per_day:,.2f} USD per day** at AWS's published Capacity Block rate "
        f"(the price table of {published.rate.read_on}), which `bin/llmops cost --env example` prints without "
        "credentials" in README
    )
    assert f"1 x {published.instance_type} in us-west-2" in README


def test_the_costs_page_shows_the_published_line_and_the_estimate_the_code_computes():
    published = _published()
    rate = published.rate
    assert (
        f"At the published rate (from the price table of {rate.read_on}): 1 x {published.instance_type} x "
        f"{rate.per_instance_hour} USD per instance-hour = {published.per_hour:,.2f} USD per hour, "
        f"{published.per_hour * 24:,.2f} USD per day" in COSTS
    )
    estimate = cost_estimate.estimate(load_environment(CONFIG_DIR, "example"), Decimal(1500))
    answer = estimate.to_dict()
    assert (
        f"at 1,500 tokens per second, {answer['per_gpu_hour']} USD per GPU-hour and "
        f"{answer['per_million_tokens']} USD per million tokens" in COSTS
    )
    # the page's sample output names the table's source as the command prints it
    assert rate.price_list.source in COSTS
    assert re.search(
        rf"p6-b300\.48xlarge: {re.escape(str(rate.per_instance_hour))} USD per instance-hour", COSTS
    )
