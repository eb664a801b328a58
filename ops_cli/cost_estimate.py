"""The GPU capacity at the published rate, offline (deployment_config/gpu_prices.py): ``llmops cost`` shows what the
block comes to at the price table's rate, and ``llmops cost --estimate --tokens-per-second N`` what a million tokens
cost at a throughput.

Arithmetic only, on the table's figures: per hour = rate per instance-hour x instances; per GPU-hour = that / the
instances' GPUs (deployment_config/catalog.py); per million tokens = per hour / (N x 3600 s) x 10^6. The throughput is
the user's (for example what ``llmops bench`` measured), the environment's total across its instances.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from deployment_config import gpu_prices
from deployment_config.bridge import bridge_plan, on_demand_rate
from deployment_config.catalog import GPU_INSTANCE_TYPES
from deployment_config.model import EnvironmentConfig, Platform
from ops_cli.cost_records import BridgeCost, PublishedFee

#: More tokens per second than any one environment serves, small enough to catch a typo (an extra digit or three).
MAX_TOKENS_PER_SECOND = Decimal(10_000_000)


def gpu_capacity(env: EnvironmentConfig) -> tuple[str, int]:
    """The GPU instance type and how many instances the environment holds (the block's, or the training plan's)."""
    gpu = env.hyperpod if env.platform is Platform.HYPERPOD else env.capacity
    name = gpu.instance_type if isinstance(gpu.instance_type, str) else gpu.instance_type.name
    return name.removeprefix("ml."), gpu.instance_count


def published_fee(env: EnvironmentConfig) -> PublishedFee:
    """The environment's GPU capacity at the table's Capacity Block rate. A training plan is SageMaker's offering,
    priced by its own offering: the table of EC2 Capacity Blocks is not its price, and it says so."""
    instance_type, count = gpu_capacity(env)
    if env.platform is Platform.HYPERPOD:
        return PublishedFee(
            instance_type,
            count,
            None,
            "no published rate in the table for a training plan: the table holds EC2 Capacity Blocks "
            f"({gpu_prices.price_lists()['capacity_blocks'].source_page}); a plan's fee is its offering's "
            "(llmops training-plans offerings)",
        )
    rate = gpu_prices.capacity_block_rate(instance_type, env.region)
    return PublishedFee(
        instance_type,
        count,
        rate,
        "" if rate else gpu_prices.absent("capacity_blocks", instance_type, env.region),
    )


def bridge_cost(env: EnvironmentConfig) -> BridgeCost | None:
    """The bridge's instances x its hours at the table's On-Demand rate (None without a bridge section)."""
    plan = bridge_plan(env)
    if plan is None:
        return None
    instance_type = env.bridge.instance_types[0]
    rate = on_demand_rate(env)
    return BridgeCost(
        instance_type,
        plan.instances,
        plan.start,
        plan.stop,
        rate,
        "" if rate else gpu_prices.absent("on_demand", instance_type, env.region),
    )


@dataclass(frozen=True)
class Estimate:
    """Cost per million tokens at a throughput, from the published rate."""

    env: str
    region: str
    published: PublishedFee
    gpus: int
    tokens_per_second: Decimal

    @property
    def per_gpu_hour(self) -> Decimal:
        return self.published.per_hour / self.gpus

    @property
    def per_million_tokens(self) -> Decimal:
        return self.published.per_hour / (self.tokens_per_second * 3600) * 1_000_000

    def to_dict(self) -> dict:
        rate = self.published.rate
        return {
            "env": self.env,
            "region": self.region,
            "currency": gpu_prices.CURRENCY,
            "instance_type": self.published.instance_type,
            "instances": self.published.instances,
            "gpus": self.gpus,
            "tokens_per_second": str(self.tokens_per_second),
            "per_hour": str(self.published.per_hour),
            "per_gpu_hour": str(self.per_gpu_hour.quantize(Decimal("0.001"))),
            "per_million_tokens": str(self.per_million_tokens.quantize(Decimal("0.01"))),
            "rate_per_instance_hour": str(rate.per_instance_hour),
            "read_on": rate.read_on,
            "source": rate.price_list.source,
            "covers": "the GPU capacity's fee at the published rate; not the hourly resources around it (llmops cost)",
        }

    def lines(self) -> list[str]:
        rate = self.published.rate
        p = self.published
        return [
            f"{self.env} in {self.region}: {p.instances} x {p.instance_type} ({self.gpus} GPUs) at "
            f"{rate.per_instance_hour:,} USD per instance-hour, from the price table of {rate.read_on}.",
            f"per hour: {p.per_hour:,.2f} USD; per GPU-hour: {self.per_gpu_hour:,.3f} USD",
            f"at {self.tokens_per_second:,} tokens per second: {self.per_million_tokens:,.2f} USD per million tokens",
            "Covers the GPU capacity's fee at the published rate, not the hourly resources around it (llmops cost). "
            f"Source: {rate.price_list.source}.",
        ]


def estimate(env: EnvironmentConfig, tokens_per_second: Decimal) -> Estimate | str:
    """The estimate, or where the table has no rate, what the CLI says instead."""
    published = published_fee(env)
    if published.rate is None:
        return published.absent
    gpus = GPU_INSTANCE_TYPES[published.instance_type].gpu_count * published.instances
    return Estimate(env.name, env.region, published, gpus, tokens_per_second)
