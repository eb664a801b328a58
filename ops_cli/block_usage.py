"""llmops cost --usage: what the block has earned so far - its fee spread over the hours gone, joined with the tokens
vLLM served in them - and whether an extension would be used.

Facts and their sources:

- The block's start, end and fee: a Capacity Block's StartDate and EndDate from DescribeCapacityReservations, its fee
  from ``--block-fee`` or ``observability.block_fee_usd`` (EC2 does not return it: ops_cli/cost.py); a training plan's
  StartTime, EndTime, UpfrontFee and CurrencyCode from DescribeTrainingPlan (ops_cli/cost.py, ``training_plan``).
- The tokens and the busy minutes: CloudWatch GetMetricData over the block so far, hourly periods, on what the serving
  metrics publisher puts once a minute (cdk_constructs/serving_metrics/published.py, names from
  deployment_config/metric_names.py): ``PromptTokensPerSecond`` and ``GenerationTokensPerSecond`` are each minute's
  5-minute rate of vLLM's ``vllm:prompt_tokens_total`` and ``vllm:generation_tokens_total``, so 60 x their Sum is the
  tokens (the last few minutes partly counted); ``ServingBusy`` is 1 in a minute with a running request
  (``vllm:num_requests_running`` > 0 at a scrape), 0 in one without, and absent while vLLM does not serve. Its Sum is
  the busy minutes, its SampleCount the minutes vLLM served.
- Cost so far is the sum over the paid periods (ops_cli/paid_periods.py: the block as bought, each paid extension, the
  next block) of each fee x the hours of that period gone / its hours: a fee is paid whole at purchase; this is the
  share of it the hours so far used up. A period whose fee is unknown adds nothing, and the report says so. Cost per
  million input (output) tokens is that cost over the input (output) tokens alone: each figure bears the whole cost,
  so the two do not add up, and against an API's per-token prices each is an upper bound.
  The other hourly resources (system nodes, NAT gateways, ...) are ``llmops cost``'s, not counted here.
- With a bridge section, the bridge's instance-hours and their cost at the On-Demand rate, over the block and the
  bridge's window (ops_cli/bridge_usage.py); the cost per million tokens is then over the block's and the bridge's.
- Idle share: 1 - busy minutes / the paid minutes so far (the minutes inside a paid period; a gap between two blocks
  is not paid and not counted). Minutes in which vLLM did not serve (starting, stopped) count as idle: the fee is paid
  either way. A request that starts and ends between two scrapes (30 s) is not seen, so the idle share is an upper
  bound.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal

from deployment_config.metric_names import (
    GENERATION_TOKENS_PER_SECOND,
    PROMPT_TOKENS_PER_SECOND,
    SERVING_BUSY,
    SERVING_METRICS_NAMESPACE,
)
from deployment_config.model import EnvironmentConfig, Platform
from ops_cli import cost
from ops_cli.aws import Aws
from ops_cli.bridge_usage import BRIDGE_QUERY, BridgeUse, bridge_use
from ops_cli.cost_records import Block, to_tenths
from ops_cli.errors import shown, unexpected_answer
from ops_cli.paid_periods import PaidPeriod, capacity_periods, paid_minutes, plan_period
from ops_cli.price_list import PRICE_CURRENCY

HOUR = 3600
#: The hours the extension heuristic looks at: the latest use, not the block's first day.
RECENT_HOURS = 3
#: Recent idle shares at or above this say "unlikely to be used"; at or below LIKELY_IDLE, "likely".
UNLIKELY_IDLE, LIKELY_IDLE = Decimal("0.9"), Decimal("0.5")
HEURISTIC = (
    f"a heuristic, not a forecast: the idle share of the last {RECENT_HOURS} hours (at most), 'likely used' at or "
    f"below {LIKELY_IDLE:.0%} idle, 'unlikely' at or above {UNLIKELY_IDLE:.0%}, and the trend against the block so far"
)
MILLION = Decimal(1_000_000)


@dataclass(frozen=True)
class Hour:
    """One hour of the block (the last one may be partly gone): what the publisher put in it."""

    start: datetime
    minutes: Decimal
    input_tokens: Decimal = Decimal(0)
    output_tokens: Decimal = Decimal(0)
    busy_minutes: Decimal = Decimal(0)
    served_minutes: Decimal = Decimal(0)
    #: the bridge's instance-minutes in the hour (ops_cli/bridge_usage.py)
    bridge_minutes: Decimal = Decimal(0)


def _share(busy: Decimal, minutes: Decimal) -> Decimal | None:
    return None if minutes <= 0 else max(Decimal(0), 1 - busy / minutes)


@dataclass
class Usage:
    env: str
    region: str
    block: Block
    now: datetime
    hours: list[Hour] = field(default_factory=list)
    #: The periods paid for (ops_cli/paid_periods.py); the block alone when not given.
    periods: list[PaidPeriod] = field(default_factory=list)
    #: the bridge, with a bridge section (ops_cli/bridge_usage.py)
    bridge: BridgeUse | None = None

    @property
    def paid(self) -> list[PaidPeriod]:
        """The paid periods with both dates (a pending extension is listed, not paid)."""
        return [p for p in self.periods if p.paid and p.start is not None and p.end is not None]

    def spans(self) -> list[PaidPeriod]:
        """The spans of paid minutes: the paid periods, and the bridge's window."""
        return [*self.paid, *([self.bridge.span()] if self.bridge else [])]

    @property
    def start(self) -> datetime | None:
        return min((p.start for p in self.spans()), default=None)

    @property
    def until(self) -> datetime | None:
        """The end of the span read so far: now, within the first paid start and the last paid end."""
        if self.start is None:
            return None
        return max(self.start, min(self.now, max(p.end for p in self.spans())))

    @property
    def currency(self) -> str:
        """The currency of the sum: the block's fee's, USD without one."""
        return self.block.currency or PRICE_CURRENCY

    def counted(self) -> list[PaidPeriod]:
        return [p for p in self.periods if p.counted(self.currency)]

    def left_out(self) -> list[PaidPeriod]:
        """The paid periods that have begun and whose fee is not in the cost so far (unknown, another currency)."""
        return [p for p in self.paid if not p.counted(self.currency) and p.hours_gone(self.now) > 0]

    @property
    def minutes(self) -> Decimal:
        return sum((h.minutes for h in self.hours), Decimal(0))

    def total(self, name: str) -> Decimal:
        return sum((getattr(h, name) for h in self.hours), Decimal(0))

    @property
    def cost_so_far(self) -> Decimal | None:
        """The sum of each counted period's fee x its hours gone / its hours; None when no fee is known."""
        counted = self.counted()
        if not counted:
            return None
        return sum((p.cost_so_far(self.now) for p in counted), Decimal(0))

    @property
    def bridge_cost(self) -> Decimal | None:
        """The bridge's instance-minutes so far at its rate; None without a bridge or a rate."""
        return self.bridge.cost(self.total("bridge_minutes")) if self.bridge else None

    @property
    def gpu_cost(self) -> Decimal | None:
        """What the per-token figures bear: the block's cost so far, and the bridge's where there is one."""
        spent = self.cost_so_far
        if spent is None or self.bridge is None:
            return spent
        return spent + (self.bridge_cost or Decimal(0))

    def per_million(self, tokens: Decimal) -> Decimal | None:
        spent = self.gpu_cost
        return None if spent is None or tokens <= 0 else spent * MILLION / tokens

    @property
    def idle_share(self) -> Decimal | None:
        return _share(self.total("busy_minutes"), self.minutes)

    def extension(self) -> dict:
        """Whether an extension would be used, judged from the use so far (:data:`HEURISTIC`)."""
        recent = self.hours[-RECENT_HOURS:]
        minutes = sum((h.minutes for h in recent), Decimal(0))
        idle = _share(sum((h.busy_minutes for h in recent), Decimal(0)), minutes)
        overall = self.idle_share
        verdict, reason = "unclear", "too little of the block has gone to tell"
        if idle is not None and minutes >= 60:
            span = f"the last {to_tenths(minutes / 60)} h were {idle:.0%} idle"
            if idle >= UNLIKELY_IDLE:
                verdict, reason = "unlikely used", span
            elif idle <= LIKELY_IDLE:
                verdict, reason = "likely used", span
            else:
                verdict, reason = "unclear", span
            if overall is not None:
                trend = "rising" if idle < overall else "falling" if idle > overall else "flat"
                reason += f" ({overall:.0%} over the block so far: use is {trend})"
        return {
            "verdict": verdict,
            "reason": reason,
            "recent_idle_share": _ratio(idle),
            "method": HEURISTIC,
        }

    def to_dict(self) -> dict:
        block, spent = self.block, self.cost_so_far
        inputs, outputs = self.total("input_tokens"), self.total("output_tokens")
        return {
            "env": self.env,
            "region": self.region,
            "at": self.now.isoformat(),
            "block": {
                "kind": block.kind,
                "id": block.identifier,
                "start": block.start.isoformat() if block.start else None,
                "end": block.end.isoformat() if block.end else None,
                "hours": str(to_tenths(block.hours)) if block.hours is not None else None,
                "hours_so_far": str(to_tenths(self.minutes / 60)),
                "upfront_fee": str(block.fee) if block.fee is not None else None,
                "fee_currency": block.currency,
                "fee_source": block.fee_source,
            },
            "cost_so_far": _cents(spent),
            "cost_currency": self.currency,
            "cost_complete": spent is not None and not self._leaves_out(),
            "cost_leaves_out": self._leaves_out(),
            "bridge": self.bridge.to_dict(self.total("bridge_minutes"), _cents)
            if self.bridge
            else None,
            "gpu_cost_so_far": _cents(self.gpu_cost),
            "paid_periods": [self._period(p) for p in self.periods],
            "input_tokens": int(inputs),
            "output_tokens": int(outputs),
            "cost_per_million_input_tokens": _cents(self.per_million(inputs)),
            "cost_per_million_output_tokens": _cents(self.per_million(outputs)),
            "idle_share": _ratio(self.idle_share),
            "busy_minutes": int(self.total("busy_minutes")),
            "not_serving_minutes": int(self.minutes - self.total("served_minutes")),
            "extension": self.extension(),
            "hours_detail": [
                {
                    "start": h.start.isoformat(),
                    "input_tokens": int(h.input_tokens),
                    "output_tokens": int(h.output_tokens),
                    "busy_minutes": int(h.busy_minutes),
                    "idle_share": _ratio(_share(h.busy_minutes, h.minutes)),
                }
                for h in self.hours
            ],
        }

    def _leaves_out(self) -> list[str]:
        """What the cost leaves out: begun periods without a counted fee, a bridge that ran without a rate."""
        bridge = self.bridge.left_out(self.total("bridge_minutes")) if self.bridge else None
        return [self._left_out(p) for p in self.left_out()] + ([bridge] if bridge else [])

    def _left_out(self, period: PaidPeriod) -> str:
        """Why a begun period's fee is not in the cost: unknown (its source says how to add it), or another currency."""
        other = period.fee is not None and period.currency != self.currency
        why = (
            f"its fee is in {period.currency}, not added to {self.currency}"
            if other
            else period.fee_source
        )
        return f"{period.kind} {period.identifier}: {why}"

    def _period(self, period: PaidPeriod) -> dict:
        counted = period.counted(self.currency)
        return {
            "kind": period.kind,
            "id": period.identifier,
            "start": period.start.isoformat() if period.start else None,
            "end": period.end.isoformat() if period.end else None,
            "hours": str(to_tenths(period.hours)) if period.hours is not None else None,
            "hours_so_far": str(to_tenths(period.hours_gone(self.now))),
            "fee": str(period.fee) if period.fee is not None else None,
            "fee_currency": period.currency,
            "fee_source": period.fee_source,
            "counted": counted,
            "cost_so_far": _cents(period.cost_so_far(self.now)) if counted else None,
        }


def _cents(value: Decimal | None) -> str | None:
    return None if value is None else str(value.quantize(Decimal("0.01")))


def _ratio(value: Decimal | None) -> str | None:
    return None if value is None else str(value.quantize(Decimal("0.001")))


# --- AWS ----------------------------------------------------------------------------------------------------------


def _query(metric: str, stat: str, cluster_name: str) -> dict:
    return {
        "Metric": {
            "Namespace": SERVING_METRICS_NAMESPACE,
            "MetricName": metric,
            "Dimensions": [{"Name": "ClusterName", "Value": cluster_name}],
        },
        "Period": HOUR,
        "Stat": stat,
    }


#: GetMetricData query id -> (metric, statistic, the :class:`Hour` field, factor).
QUERIES = {
    "prompt": (PROMPT_TOKENS_PER_SECOND, "Sum", "input_tokens", 60),
    "generation": (GENERATION_TOKENS_PER_SECOND, "Sum", "output_tokens", 60),
    "busy": (SERVING_BUSY, "Sum", "busy_minutes", 1),
    "served": (SERVING_BUSY, "SampleCount", "served_minutes", 1),
}


def _count(value: object) -> bool:
    """Whether a metric's value can be summed: a finite number, 0 or more (tokens and minutes are never negative)."""
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and math.isfinite(value)
        and value >= 0
    )


def hourly_use(
    aws: Aws,
    cluster_name: str,
    start: datetime,
    until: datetime,
    periods: list[PaidPeriod],
    queries: dict = QUERIES,
) -> list[Hour]:
    """The hours from ``start`` to ``until``, each with its paid minutes (``periods``: a gap between two blocks has
    none), filled from CloudWatch GetMetricData (every page) with ``queries`` (:data:`QUERIES`' form)."""
    hours = []
    moment = start
    while moment < until:
        step = min(until, moment + timedelta(seconds=HOUR))
        hours.append({"start": moment, "minutes": paid_minutes(periods, moment, step)})
        moment += timedelta(seconds=HOUR)
    if not hours:
        return []
    params = {
        "MetricDataQueries": [
            {"Id": key, "MetricStat": _query(metric, stat, cluster_name), "ReturnData": True}
            for key, (metric, stat, _, _) in queries.items()
        ],
        "StartTime": start,
        "EndTime": until,
        "ScanBy": "TimestampAscending",
    }
    for page in aws.each_page(
        "cloudwatch", "get_metric_data", f"read {cluster_name}'s serving metrics", **params
    ):
        for result in page.get("MetricDataResults") or []:
            query = queries.get(result.get("Id")) if isinstance(result, dict) else None
            if query is None:
                raise unexpected_answer(
                    f"CloudWatch answered {cluster_name}'s metrics with a result of no query asked for"
                )
            _, _, name, factor = query
            for stamp, value in zip(result.get("Timestamps") or [], result.get("Values") or []):
                if not isinstance(stamp, datetime) or not _count(value):
                    raise unexpected_answer(
                        f"CloudWatch answered {query[0]} ({query[1]}) of {cluster_name} with "
                        f"{shown(str(value))} at {shown(str(stamp))}: a time and a finite number, 0 or "
                        "more, were expected"
                    )
                index = min(len(hours) - 1, max(0, int((stamp - start).total_seconds() // HOUR)))
                hour = hours[index]
                hour[name] = hour.get(name, Decimal(0)) + Decimal(str(value)) * factor
    return [Hour(**h) for h in hours]


def usage_report(
    aws: Aws,
    env: EnvironmentConfig,
    *,
    now: datetime,
    block_fee: Decimal | None,
    fee_currency: str = "USD",
) -> Usage:
    block = cost.block_of(aws, env, block_fee, fee_currency)
    periods = (
        plan_period(block)
        if env.platform is Platform.HYPERPOD
        else capacity_periods(aws, env, block)
    )
    usage = Usage(env.name, env.region, block, now, periods=periods, bridge=bridge_use(env))
    queries = {**QUERIES, **(BRIDGE_QUERY if usage.bridge else {})}
    if usage.until is not None:
        usage.hours = hourly_use(
            aws, env.cluster_name, usage.start, usage.until, usage.spans(), queries
        )
    return usage
