"""When the bridge capacity starts and stops (docs/stay-up.md): one plan, read by the bridge's schedules
(cdk_constructs/bridge_node_group.py) and by its readers (tests, docs).

With a block ending and no next block (the bridge section refuses one beside capacity.next_capacity_reservation_id):

- the block serves until its **scale-down**, forty minutes before its end: EKS's own scheduled action scales its node
  group to 0 then (deployment_config/gpu_nodes.py, ``EKS_SCALE_IN_BEFORE_END_MINUTES``, with its source);
- the bridge **starts** one startup budget (the startup probe's deadline, :attr:`EnvironmentConfig.pod_startup_budget`)
  and ``bridge.margin_minutes`` before that scale-down, rounded down to the minute: the time its instances need to
  launch and join and its replicas to download, load and warm up, so that they are ready when the block's nodes drain;
- the bridge **stops** (scaled to 0) ``bridge.hours_after_block_end`` after the block's end: with no next block to hand
  over to, that fixed window is how long the endpoint outlives the block, a figure the user chose and pays for.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from deployment_config import gpu_prices
from deployment_config.gpu_nodes import EKS_SCALE_IN_BEFORE_END_MINUTES
from deployment_config.model import EnvironmentConfig


@dataclass(frozen=True)
class BridgePlan:
    """The bridge's times, in UTC, and its size.

    :param block_end: the Capacity Block's end (``bridge.block_end``).
    :param scale_down: when EKS scales the block's node group to 0.
    :param start: when the bridge's node group is scaled up.
    :param stop: when it is scaled to 0.
    :param instances: the bridge's instances while it runs.
    :param startup_budget_seconds: the startup budget the start keeps before the scale-down.
    """

    block_end: datetime
    scale_down: datetime
    start: datetime
    stop: datetime
    instances: int
    startup_budget_seconds: int

    @property
    def hours(self) -> float:
        """Hours the bridge runs, start to stop: what it is billed for at the on-demand rate."""
        return (self.stop - self.start).total_seconds() / 3600


def bridge_plan(env: EnvironmentConfig) -> BridgePlan | None:
    """The bridge of ``env``; None without a ``bridge`` section."""
    bridge = env.bridge
    if bridge is None:
        return None
    budget = env.pod_startup_budget.probe_seconds
    end = bridge.block_end_at
    scale_down = end - timedelta(minutes=EKS_SCALE_IN_BEFORE_END_MINUTES)
    start = scale_down - timedelta(seconds=budget, minutes=bridge.margin_minutes)
    return BridgePlan(
        block_end=end,
        scale_down=scale_down,
        start=start.replace(second=0, microsecond=0),
        stop=end + timedelta(hours=bridge.hours_after_block_end),
        instances=bridge.max_instances or env.capacity.instance_count,
        startup_budget_seconds=budget,
    )


def on_demand_rate(env: EnvironmentConfig) -> gpu_prices.PublishedRate | None:
    """The bridge's On-Demand rate per instance-hour from the price table (deployment_config/gpu_prices.py), the one
    that ``llmops cost``, ``llmops cost --usage`` and the serving metrics publisher price the bridge with; None without
    a bridge section, or where the table has no rate for its type and region."""
    if env.bridge is None:
        return None
    return gpu_prices.on_demand_rate(env.bridge.instance_types[0], env.region)
