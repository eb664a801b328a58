"""``llmops plan``: the next days of an environment as one timeline, each period with its cost (docs/stay-up.md).

What is on it, and where each comes from:

- **blocks**: capacity.capacity_reservation_id and capacity.next_capacity_reservation_id (EC2
  DescribeCapacityReservations), and the account's other Capacity Blocks of the same instance type in the same zone
  (one DescribeCapacityReservations call filtered by ``instance-type`` and ``availability-zone``), which serve nothing
  until the configuration names them. On HyperPod: the training plan (DescribeTrainingPlan) and its extensions
  (DescribeTrainingPlanExtensionHistory).
- **scale-downs**: EKS scales each configured block's node group to 0 forty minutes before its end
  (deployment_config/gpu_nodes.py, with its source).
- **the bridge window**: deployment_config/bridge.py's ``bridge_plan``, the function whose times
  cdk_constructs/bridge_node_group.py writes into its EventBridge Scheduler schedules, so the plan shows what the
  schedules will do, from ``bridge.block_end``.
- **gaps**: the times in the window when nothing serves. A configured block serves from its start plus the cold start
  (the startup probe's budget, as ``llmops handover`` and the ``ServingGap`` alarm count it) to its scale-down; a
  training plan from its start plus the cold start to its end, its extensions without a break; the bridge from the
  block's scale-down (its start keeps the startup budget and the margin before it) to its stop.
- **cost**, for the part of each period inside the window: per hour x hours. A block's per hour is its fee
  (observability.block_fee_usd, next_block_fee_usd) over its hours, else the price table's published Capacity Block
  rate x its instances; an extension's or a training plan's is its UpfrontFee over its hours; the bridge's is the
  table's On-Demand rate x its instances (ops_cli/cost_estimate.py ``bridge_cost``). A gap costs nothing.

A rollout in flight is not on it: only the cluster knows one (``llmops rollout`` reads it there).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal

from capacity_rules import FINAL_STATES
from deployment_config import gpu_prices
from deployment_config.bridge import bridge_plan
from deployment_config.gpu_nodes import EKS_SCALE_IN_BEFORE_END_MINUTES
from deployment_config.model import EnvironmentConfig, Platform
from ops_cli import training_plan_extensions as tpe
from ops_cli.aws import Aws
from ops_cli.capacity_blocks import check_serves, describe_reservation
from ops_cli.cost_estimate import bridge_cost
from ops_cli.cost_records import upfront_fee
from ops_cli.output import iso
from ops_cli.training_plans import describe_plan
from ops_cli.waiting import GPU_NODEGROUP, NEXT_GPU_NODEGROUP

#: Default and bounds of ``--days``: EC2 sells Capacity Blocks that start up to eight weeks ahead (ops_cli/
#: capacity_blocks.py ``default_window``), so a longer window has nothing more to show.
DEFAULT_DAYS, MAX_DAYS = 14, 56
NOT_SERVED = "not served"
ROLLOUTS = "rollouts in flight: not shown, only the cluster knows them (llmops rollout --env {env} reads it)"
_CENTS = Decimal("0.01")


@dataclass(frozen=True)
class Period:
    """One row of the timeline. ``end`` equals ``start`` for a moment (a scale-down). ``per_hour``: USD; None when
    unknown (``basis`` says why) or for a moment."""

    kind: str
    start: datetime | None
    end: datetime | None
    what: str
    serves: str
    per_hour: Decimal | None = None
    basis: str = ""
    #: the reservation id of a block (a gap names the account's blocks that start in it but are not configured)
    identifier: str = ""

    def hours_in(self, low: datetime, high: datetime) -> Decimal:
        """Its hours inside [low, high) (0 for a moment or one outside)."""
        if self.start is None or self.end is None:
            return Decimal(0)
        span = (min(self.end, high) - max(self.start, low)).total_seconds()
        return Decimal(str(max(span, 0))) / 3600

    def cost_in(self, low: datetime, high: datetime) -> Decimal | None:
        if self.per_hour is None:
            return None
        return (self.per_hour * self.hours_in(low, high)).quantize(_CENTS)


@dataclass(frozen=True)
class Timeline:
    env: str
    now: datetime
    until: datetime
    periods: list[Period]
    needs_aws: str | None = None
    warnings: list[str] = field(default_factory=list)

    @property
    def total(self) -> Decimal:
        costs = (p.cost_in(self.now, self.until) for p in self.periods)
        return sum((c for c in costs if c is not None), Decimal(0))

    def to_dict(self) -> dict:
        rows = [
            {
                "kind": p.kind,
                "start": iso(p.start),
                "end": iso(p.end),
                "what": p.what,
                "serves": p.serves,
                "hours_in_window": str(p.hours_in(self.now, self.until).quantize(Decimal("0.1"))),
                "per_hour_usd": None
                if p.per_hour is None
                else str(p.per_hour.quantize(Decimal("0.001"))),
                "cost_in_window_usd": None
                if p.per_hour is None
                else str(p.cost_in(self.now, self.until)),
                "basis": p.basis,
            }
            for p in self.periods
        ]
        return {
            "env": self.env,
            "now": iso(self.now),
            "until": iso(self.until),
            "currency": gpu_prices.CURRENCY,
            "periods": rows,
            "total_in_window_usd": str(self.total),
            "needs_aws": self.needs_aws,
            "not_shown": [ROLLOUTS.format(env=self.env)],
            "warnings": list(self.warnings),
        }


def _block_rate(
    env: EnvironmentConfig, fee: float | None, field_name: str | None, start, end, count
) -> tuple:
    """(per hour, basis) of a Capacity Block: its configured fee (``observability.field_name``) over its hours, else
    the table's published rate (EC2 does not return a block's fee)."""
    if fee is not None and start is not None and end is not None and end > start:
        hours = Decimal(str((end - start).total_seconds())) / 3600
        return Decimal(str(fee)) / hours, f"observability.{field_name} over the block's {hours:g} h"
    rate = gpu_prices.capacity_block_rate(env.capacity.instance_type, env.region)
    if rate is None:
        return None, gpu_prices.absent("capacity_blocks", env.capacity.instance_type, env.region)
    return rate.per_instance_hour * count, (
        f"the published Capacity Block rate {rate.per_instance_hour} USD per instance-hour x {count} "
        f"(price table of {rate.read_on}"
        + (f"; observability.{field_name} gives the fee paid)" if field_name else ")")
    )


def _reservation_period(
    env: EnvironmentConfig, kind: str, reservation: dict, fee_field: str | None
) -> Period:
    rid, state = reservation.get("CapacityReservationId"), reservation.get("State")
    start, end, count = (
        reservation.get("StartDate"),
        reservation.get("EndDate"),
        reservation.get("TotalInstanceCount"),
    )
    fee = getattr(env.observability, fee_field) if fee_field else None
    per_hour, basis = _block_rate(env, fee, fee_field, start, end, count or 0)
    if state in FINAL_STATES:
        serves = f"never: {state}"
    elif fee_field is None:
        serves = "no: not configured (name it in capacity.next_capacity_reservation_id)"
    else:
        serves = "yes, from its start + the cold start to its scale-down"
    what = f"{rid} ({count} x {reservation.get('InstanceType')}, {state})"
    return Period(kind, start, end, what, serves, per_hour, basis, rid)


def held_blocks(aws: Aws, env: EnvironmentConfig, known: set[str]) -> list[dict]:
    """The account's other Capacity Blocks of the environment's instance type and zone that may still serve."""
    found = aws.pages(
        "ec2",
        "describe_capacity_reservations",
        f"list the Capacity Blocks of {env.capacity.instance_type} in {env.capacity.availability_zone}",
        "CapacityReservations",
        Filters=[
            {"Name": "instance-type", "Values": [env.capacity.instance_type]},
            {"Name": "availability-zone", "Values": [env.capacity.availability_zone]},
        ],
    )
    return [
        r
        for r in found
        if r.get("ReservationType") == "capacity-block"
        and r.get("CapacityReservationId") not in known
        and r.get("State") not in FINAL_STATES
        and r.get("StartDate") is not None
        and r.get("EndDate") is not None
    ]


def _bridge_periods(env: EnvironmentConfig) -> tuple[list[Period], list[tuple[datetime, datetime]]]:
    """The bridge's window (bridge_plan: the schedules' own times) with its cost, and when it serves."""
    plan = bridge_plan(env)
    if plan is None:
        return [], []
    cost = bridge_cost(env)
    per_hour = None if cost.rate is None else cost.rate.per_instance_hour * cost.instances
    basis = (
        cost.absent
        if cost.rate is None
        else f"the On-Demand rate {cost.rate.per_instance_hour} USD per instance-hour x {cost.instances} "
        f"(price table of {cost.rate.read_on}); {cost.fee:,.2f} USD for the whole window"
    )
    what = (
        f"{plan.instances} x {cost.instance_type} on-demand: start = the scale-down - the startup budget "
        f"({plan.startup_budget_seconds / 60:g} min) - bridge.margin_minutes ({env.bridge.margin_minutes}); "
        f"stop = the block's end + {env.bridge.hours_after_block_end} h"
    )
    return [
        Period(
            "bridge",
            plan.start,
            plan.stop,
            what,
            "yes, from the block's scale-down to its stop",
            per_hour,
            basis,
        )
    ], [(plan.scale_down, plan.stop)]


def _scale_down(group: str, reservation_id: str, end: datetime) -> Period:
    at = end - timedelta(minutes=EKS_SCALE_IN_BEFORE_END_MINUTES)
    return Period(
        "scale-down", at, at, f"EKS scales {group} ({reservation_id}) to 0; its replicas drain", "-"
    )


def eks_periods(
    aws: Aws, env: EnvironmentConfig
) -> tuple[list[Period], list[tuple[datetime, datetime]], list[str]]:
    """(the rows, the serving spans, the warnings) of an EKS environment, from EC2."""
    capacity, cold = env.capacity, timedelta(seconds=env.pod_startup_budget.probe_seconds)
    configured = [
        (GPU_NODEGROUP, "capacity_reservation_id", "block", "block_fee_usd"),
        (NEXT_GPU_NODEGROUP, "next_capacity_reservation_id", "next block", "next_block_fee_usd"),
    ]
    periods, serving, warnings = [], [], []
    for group, key, kind, fee_field in configured:
        rid = getattr(capacity, key)
        if not rid:
            continue
        reservation = describe_reservation(aws, rid)
        check_serves(reservation, key)
        periods.append(_reservation_period(env, kind, reservation, fee_field))
        end = reservation["EndDate"]
        if reservation.get("State") not in FINAL_STATES:
            periods.append(_scale_down(group, rid, end))
            serving.append(
                (
                    reservation["StartDate"] + cold,
                    end - timedelta(minutes=EKS_SCALE_IN_BEFORE_END_MINUTES),
                )
            )
        if env.bridge is not None and key == configured[0][1] and end != env.bridge.block_end_at:
            warnings.append(
                f"bridge.block_end is {iso(env.bridge.block_end_at)} and EC2's EndDate of {rid} is {iso(end)}: the "
                "bridge's schedules run at the configured times; write the new end and deploy again (llmops preflight)"
            )
    known = {getattr(capacity, key) for _, key, _, _ in configured}
    periods += [
        _reservation_period(env, "held block", r, None) for r in held_blocks(aws, env, known)
    ]
    bridge, spans = _bridge_periods(env)
    return periods + bridge, serving + spans, warnings


def hyperpod_periods(
    aws: Aws, env: EnvironmentConfig
) -> tuple[list[Period], list[tuple[datetime, datetime]], list[str]]:
    """The training plan and its live extensions (SageMaker), each with its UpfrontFee over its hours."""
    arn = tpe.plan_arn(env)
    plan, cold = describe_plan(aws, arn), timedelta(seconds=env.pod_startup_budget.probe_seconds)
    name, start, end = (
        plan.get("TrainingPlanName") or arn,
        plan.get("StartTime"),
        plan.get("EndTime"),
    )
    rows = [
        (
            "training plan",
            name,
            plan.get("Status"),
            start,
            end,
            plan.get("UpfrontFee"),
            plan.get("CurrencyCode"),
        )
    ]
    rows += [
        (
            "extension",
            e.get("TrainingPlanExtensionOfferingId"),
            e.get("Status"),
            e.get("StartDate"),
            e.get("EndDate"),
            e.get("UpfrontFee"),
            e.get("CurrencyCode"),
        )
        for e in tpe.history(aws, arn)
        if e.get("Status") in tpe.LIVE_EXTENSION_STATES and e.get("StartDate") and e.get("EndDate")
    ]
    periods, serving = [], []
    for kind, ident, status, low, high, fee_text, currency in rows:
        fee = upfront_fee(fee_text)
        per_hour, basis = None, f"unknown: SageMaker gave no UpfrontFee in {gpu_prices.CURRENCY}"
        if fee is not None and currency == gpu_prices.CURRENCY and low and high and high > low:
            hours = Decimal(str((high - low).total_seconds())) / 3600
            per_hour, basis = (
                fee / hours,
                f"the UpfrontFee {fee:,.2f} {currency} over its {hours:g} h (SageMaker)",
            )
        over = status in ("Expired", "Failed")
        periods.append(
            Period(
                kind,
                low,
                high,
                f"{ident} ({status})",
                f"never: {status}" if over else "yes",
                per_hour,
                basis,
            )
        )
        if not over and low and high:
            serving.append((low + cold if kind == "training plan" else low, high))
    return periods, serving, []


def gaps(
    serving: list[tuple[datetime, datetime]], now: datetime, until: datetime, held: list[Period]
) -> list[Period]:
    """The times in [now, until) that no serving span covers, each a row with its length."""
    found, reach = [], now
    for low, high in sorted(serving) + [(until, until)]:
        if low > reach:
            hours = (min(low, until) - reach).total_seconds() / 3600
            later = [p for p in held if p.start is not None and reach <= p.start < low]
            what = f"nothing serves for {hours:.1f} h" + "".join(
                f"; {p.identifier} starts {p.start:%Y-%m-%d %H:%M} UTC but is not configured"
                for p in later
            )
            found.append(
                Period(
                    "gap",
                    reach,
                    min(low, until),
                    what,
                    NOT_SERVED,
                    Decimal(0),
                    "no capacity is paid",
                )
            )
        reach = max(reach, high)
        if reach >= until:
            break
    return found


def timeline(aws: Aws, env: EnvironmentConfig, now: datetime, days: int) -> Timeline:
    """The environment's next ``days`` from AWS, with the bridge's window from the configuration."""
    until = now + timedelta(days=days)
    reader = hyperpod_periods if env.platform is Platform.HYPERPOD else eks_periods
    periods, serving, warnings = reader(aws, env)
    inside = [
        p
        for p in periods
        if p.start is not None and p.end is not None and p.start < until and p.end >= now
    ]
    held = [p for p in inside if p.kind == "held block"]
    rows = sorted(
        inside + gaps(serving, now, until, held), key=lambda p: (p.start, p.kind != "gap")
    )
    return Timeline(env.name, now, until, rows, None, warnings)


def offline_timeline(env: EnvironmentConfig, now: datetime, days: int, why: str) -> Timeline:
    """What the configuration alone says (no AWS credentials): the bridge's window and the block's end it names."""
    until = now + timedelta(days=days)
    periods: list[Period] = []
    if env.bridge is not None:
        rid, end = env.capacity.capacity_reservation_id, env.bridge.block_end_at
        what = f"{rid}: its end from bridge.block_end, its start needs AWS"
        block = Period(
            "block", None, end, what, "yes, to its scale-down", None, "needs AWS: the block's hours"
        )
        periods = [block, _scale_down(GPU_NODEGROUP, rid, end), *_bridge_periods(env)[0]]
    reads = (
        "the training plan and its extensions (SageMaker DescribeTrainingPlan)"
        if env.platform is Platform.HYPERPOD
        else "the blocks' dates and states (EC2 DescribeCapacityReservations), the account's other blocks"
    )
    inside = [p for p in periods if p.end >= now and (p.start or p.end) < until]
    inside.sort(key=lambda p: p.start or p.end)
    return Timeline(env.name, now, until, inside, f"{why}; without it: {reads}, and the gaps", [])
