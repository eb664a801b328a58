"""llmops cost --usage with a bridge section (docs/stay-up.md): the bridge's instance-hours and cost so far, beside the
block's, and in the cost per million tokens.

Facts and their sources:

- **Instance-hours**: the Sum of ``BridgeInstances`` / 60, hourly, read in the same CloudWatch GetMetricData call as
  the tokens (ops_cli/block_usage.py): the serving metrics publisher puts, every minute, how many instances of the
  bridge node group run (cdk_constructs/serving_metrics/runtime/bridge.py: DescribeInstances by the node group's EKS
  tags, state ``running``, the one EC2 bills). An instance still running is counted to now.
- **Cost**: instance-hours x the price table's On-Demand rate (deployment_config/bridge.py, ``on_demand_rate``), the
  rate the publisher's ``BridgeCostUsd`` uses too; without a rate in the table, the hours and no cost, and the report
  says the cost leaves the bridge out.
- **The span**: the report runs over the block's paid periods and the bridge's window (its start to its stop,
  deployment_config/bridge.py): the window's minutes outside the block are paid (by the bridge's instance-hours), so
  the tokens and the idle share count them too.

Why this and not EC2 or Cost Explorer: it needs no permission beyond ``cloudwatch:GetMetricData``, which the report
already reads; DescribeInstances lists a terminated instance only for a while, so past bridge hours would vanish from
it, and Cost Explorer needs the tags activated for cost allocation and lags by up to a day. Its limits: minutes in
which the publisher did not run (before the observability stack is deployed, a failed run) or could not read EC2 are
not counted, to the minute; instance-minutes outside both the block and the bridge's window are not read.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from deployment_config import gpu_prices
from deployment_config.metric_names import BRIDGE_INSTANCES
from deployment_config.model import EnvironmentConfig
from ops_cli.cost_estimate import bridge_cost
from ops_cli.cost_records import to_tenths
from ops_cli.paid_periods import PaidPeriod

#: GetMetricData query id -> (metric, statistic, the Hour field, factor), as block_usage.QUERIES.
BRIDGE_QUERY = {"bridge": (BRIDGE_INSTANCES, "Sum", "bridge_minutes", 1)}


@dataclass(frozen=True)
class BridgeUse:
    """The bridge of the environment: its instance type, its window and its On-Demand rate (None: not in the table,
    ``absent`` says so)."""

    instance_type: str
    start: datetime
    stop: datetime
    rate: gpu_prices.PublishedRate | None
    absent: str = ""

    def span(self) -> PaidPeriod:
        """Its window as a span of paid minutes (no fee: it is paid per instance-hour, not spread over the window)."""
        return PaidPeriod(
            "bridge",
            self.instance_type,
            self.start,
            self.stop,
            None,
            None,
            "On-Demand, per instance-hour",
        )

    def cost(self, instance_minutes: Decimal) -> Decimal | None:
        """The instance-minutes at the rate; None without one."""
        return None if self.rate is None else self.rate.per_instance_hour * instance_minutes / 60

    def left_out(self, instance_minutes: Decimal) -> str | None:
        """Why a cost leaves the bridge out: it ran and has no rate; None otherwise."""
        if self.rate is None and instance_minutes > 0:
            return f"bridge {self.instance_type}: {self.absent}"
        return None

    def to_dict(self, instance_minutes: Decimal, cents) -> dict:
        rate, spent = self.rate, self.cost(instance_minutes)
        return {
            "instance_type": self.instance_type,
            "start": self.start.isoformat(),
            "stop": self.stop.isoformat(),
            "instance_hours": str(to_tenths(instance_minutes / 60)),
            "on_demand_per_instance_hour": str(rate.per_instance_hour) if rate else None,
            "cost_so_far": cents(spent),
            "read_on": rate.read_on if rate else None,
            "source": rate.price_list.source if rate else None,
            "absent": self.absent or None,
        }


def bridge_use(env: EnvironmentConfig) -> BridgeUse | None:
    """The bridge of ``env`` (its type, window and rate as ``llmops cost`` prices it), None without a bridge section."""
    cost = bridge_cost(env)
    return cost and BridgeUse(cost.instance_type, cost.start, cost.stop, cost.rate, cost.absent)
