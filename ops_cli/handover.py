"""The handover from one Capacity Block to the next (capacity.next_capacity_reservation_id), as a timeline.

What moves the endpoint from one block to the next is in the synthesized resources (docs/capacity.md, "Serve across
blocks"): the next block's node group, whose Auto Scaling group launches its instances once the reservation is active,
and the serving Deployment's standby replicas, which schedule on those nodes, start and join the Service when ready.
This module reads both reservations from EC2 and says when each step happens and whether the replicas on the next
block's nodes can be ready before the current block's nodes drain:

- the next block's nodes start at its ``StartDate`` ("Whenever the reservation becomes active, then the launch of
  instances will succeed and the ASG will be scaled up to the desiredSize": EKS user guide, capacity-blocks-mng.adoc at
  awsdocs/amazon-eks-user-guide@2ef9e38);
- its replicas are ready by the startup probe's budget after that (``EnvironmentConfig.pod_startup_budget``, the
  figure bench/timeline.py prints as "startup probe budget"): an upper bound of download, load and warm-up. The node's
  own launch and join is measured nowhere (bench/timeline.py says so), so it is not in it;
- EKS scales the current block's group to 0 forty minutes before its ``EndDate`` (scheduled action "Amazon EKS Node
  Group Capacity Scaledown Before Reservation End", same page) and EC2 shuts its instances down thirty minutes before
  (EC2 Auto Scaling user guide, launch-template-capacity-blocks): deployment_config/gpu_nodes.py.

The next reservation must be in capacity.availability_zone: the GPU node groups have one subnet, in that zone
(stacks/gpu_nodes_stack.py), and EKS wants "only the subnet in the same Availability Zone as the capacity reservation"
(capacity-blocks-mng). Its instance type must be the configured one (the launch template names it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from capacity_rules import FINAL_STATES
from deployment_config.gpu_nodes import (
    EC2_SHUTDOWN_BEFORE_END_MINUTES,
    EKS_SCALE_IN_BEFORE_END_MINUTES,
)
from deployment_config.model import EnvironmentConfig
from ops_cli.aws import Aws
from ops_cli.capacity_blocks import (
    check_serves,
    describe_reservation,
    reservation_summary,
)
from ops_cli.errors import ExitCode, OpsError, shown
from ops_cli.output import iso, utc_and_local
from ops_cli.waiting import GPU_NODEGROUP, NEXT_GPU_NODEGROUP, describe_group

#: The verdicts of a plan: the replicas on the next block's nodes are ready before the drain, or not in time, or the
#: next block starts after the drain (a gap), or there is no next block.
READY_IN_TIME, NOT_IN_TIME, GAP, NO_NEXT_BLOCK = (
    "ready in time",
    "not in time",
    "gap",
    "no next block",
)
#: The next block's node group does not exist, or is at desired size 0: its nodes will not start with the block.
NO_NODES = "next nodes will not start"
#: Every verdict that applies is in the plan (``verdicts``), the most severe first, and ``verdict`` is that one: nodes
#: that will not start leave the endpoint down from the drain on with no end; a gap leaves it down until the next
#: block's replicas are ready; not in time, for at most the shortfall.
SEVERITY = (NO_NODES, GAP, NOT_IN_TIME, READY_IN_TIME)


@dataclass(frozen=True)
class Step:
    at: datetime
    what: str

    def to_dict(self) -> dict:
        return {"at": iso(self.at), "what": self.what}


@dataclass(frozen=True)
class HandoverPlan:
    """The timeline of one handover and its verdict.

    :param margin: the time between the next replicas' ready-by and the current group's scale-down (negative: short);
        None without a next block.
    :param verdicts: every verdict that applies, the most severe first (``verdict`` is the first; SEVERITY).
    :param next_group: the next block's node group, its status and health issues (group_summary); None without one.
    """

    env: str
    current: dict
    next: dict | None
    cold_start: timedelta
    steps: list[Step]
    verdict: str
    margin: timedelta | None
    warnings: list[str] = field(default_factory=list)
    verdicts: list[str] = field(default_factory=list)
    next_group: dict | None = None

    @property
    def exit_code(self) -> ExitCode:
        return ExitCode.OK if self.verdict == READY_IN_TIME else ExitCode.CHECK_FAILED

    def to_dict(self) -> dict:
        minutes = None if self.margin is None else round(self.margin.total_seconds() / 60, 1)
        return {
            "env": self.env,
            "current": self.current,
            "next": self.next,
            "cold_start_minutes": round(self.cold_start.total_seconds() / 60, 1),
            "steps": [s.to_dict() for s in self.steps],
            "verdict": self.verdict,
            "verdicts": list(self.verdicts) or [self.verdict],
            "next_group": self.next_group,
            "margin_minutes": minutes,
            "warnings": list(self.warnings),
        }


def _minutes(delta: timedelta) -> str:
    return f"{abs(delta.total_seconds()) / 60:g} min"


def check_next_matches(
    env: EnvironmentConfig, reservation: dict, key: str = "next_capacity_reservation_id"
) -> list[str]:
    """Refuse a next reservation the next node group cannot use (another zone, another instance type, one that will
    never be active); the warnings for one it can use with fewer nodes. ``key``: the capacity field that names it
    (after the slots swap, the block handed over to is in capacity_reservation_id)."""
    capacity = env.capacity
    rid, field = reservation.get("CapacityReservationId"), f"capacity.{key}"
    # capacity_reservation_id is required: only the next slot can be left empty
    remove = f"remove {field}" if key == KEYS[1] else f"name another Capacity Block in {field}"
    zone = reservation.get("AvailabilityZone")
    if zone != capacity.availability_zone:
        raise OpsError(
            f"{field}: {rid} is in {shown(zone)}, and the GPU node groups have one subnet, "
            f"in capacity.availability_zone ({capacity.availability_zone})",
            f"buy the next Capacity Block in {capacity.availability_zone} ('bin/llmops capacity-blocks offerings --env "
            f"{env.name}' lists that zone's), or {remove}",
            ExitCode.USAGE,
        )
    instance_type = reservation.get("InstanceType")
    if instance_type != capacity.instance_type:
        raise OpsError(
            f"{field}: {rid} holds {shown(instance_type)}, and the node groups launch "
            f"capacity.instance_type ({capacity.instance_type})",
            f"buy the next Capacity Block of {capacity.instance_type}, or {remove}",
            ExitCode.USAGE,
        )
    state = reservation.get("State")
    if state in FINAL_STATES:
        raise OpsError(
            f"{field}: {rid} is {state}; it will never start a node",
            f"buy another Capacity Block and name it in {field}",
            ExitCode.USAGE,
        )
    count = reservation.get("TotalInstanceCount")
    if count != capacity.instance_count:
        return [
            f"{rid} holds {count} instances and capacity.instance_count is {capacity.instance_count}: the next group "
            f"runs at most {min(count or 0, capacity.instance_count)} nodes, and as many replicas serve"
        ]
    return []


def check_not_over(old: dict, key: str, new_id: str) -> None:
    """Refuse a plan whose handover is over: the block handed over from expired (or never served), so nothing is
    configured after ``new_id``, and its slot is the one to fill (docs/capacity.md, "Serve across blocks")."""
    state = old.get("State")
    if state in FINAL_STATES:
        raise OpsError(
            f"capacity.{key}: {old['CapacityReservationId']} is {state}: the handover from it is over and no block "
            f"follows {new_id}",
            f"name the block after {new_id} in capacity.{key} ('bin/llmops capacity-blocks offerings', 'purchase')",
            ExitCode.USAGE,
        )


#: The node groups of the two slots (stacks/gpu_nodes_stack.py): capacity_reservation_id's, next_capacity_reservation_id's.
GROUPS = (GPU_NODEGROUP, NEXT_GPU_NODEGROUP)
#: The capacity fields of the two slots, in GROUPS' order.
KEYS = ("capacity_reservation_id", "next_capacity_reservation_id")


def _ending_steps(group: str, reservation: dict) -> tuple[datetime, list[Step]]:
    """When ``group``'s block drains (its scale-down), and the steps of its end."""
    rid, end = reservation["CapacityReservationId"], reservation["EndDate"]
    scale_down = end - timedelta(minutes=EKS_SCALE_IN_BEFORE_END_MINUTES)
    return scale_down, [
        Step(
            scale_down,
            f"EKS scales {group} ({rid}) to 0: its nodes drain, their replicas stop (pre-stop pause, then vLLM "
            "finishes its running requests)",
        ),
        Step(
            end - timedelta(minutes=EC2_SHUTDOWN_BEFORE_END_MINUTES),
            f"EC2 shuts the instances of {rid} down",
        ),
        Step(end, f"{rid} ends"),
    ]


#: A node group's states that are failed or going away (NodegroupStatus in botocore 1.43's eks service model): no
#: node is to be expected from it.
_BROKEN_STATES = ("CREATE_FAILED", "DELETING", "DELETE_FAILED")


def group_summary(group: str, found: dict | None) -> dict:
    """What the plan shows of the next block's node group: its ``status`` and ``health.issues`` (DescribeNodegroup)."""
    if found is None:
        return {"name": group, "status": None, "desired_size": None, "health_issues": []}
    issues = found.get("health", {}).get("issues", [])
    return {
        "name": group,
        "status": found.get("status"),
        "desired_size": found.get("scalingConfig", {}).get("desiredSize", 0),
        "health_issues": [{"code": i.get("code"), "message": i.get("message")} for i in issues],
    }


def _issues_text(summary: dict) -> str:
    return (
        "; ".join(f"{i['code']}: {i['message']}" for i in summary["health_issues"])
        or "no issue listed"
    )


def _group_problems(
    env: EnvironmentConfig, group: str, found: dict | None, start: datetime, now: datetime
) -> tuple[str | None, str | None]:
    """(why ``group``'s nodes will not start when its block does, a warning that does not stop them), each or None.

    A group created with a desired size starts them as the reservation becomes active (capacity-blocks-mng, as above);
    EKS's scale-down before a block's end leaves the group at desired size 0, and a deploy that only changes its launch
    template to the block after keeps it there (the desired size is not a property that changed): "If you set
    desiredSize to 0 ... Use the Amazon EKS console or eks update-nodegroup-config to update the scaling config and set
    the desired size" (same page). "If the create request is made before the capacity reservation is active, then the
    ASG won't be able to launch Amazon EC2 instances until it becomes active" (same page): a DEGRADED group
    (AsgInstanceLaunchFailures) is expected before ``start`` and means the nodes are not coming after it.
    """
    if found is None:
        return (
            f"{group} is not in {env.cluster_name} yet: deploy it before the next block starts "
            f"(npx cdk deploy {env.stack_name('gpu-nodes')} -c env={env.name})"
        ), None
    summary = group_summary(group, found)
    desired, count = summary["desired_size"], env.capacity.instance_count
    if desired < count:
        return (
            f"{group} is at desired size {desired}: its nodes will not start with the block; set it: aws eks "
            f"update-nodegroup-config --cluster-name {env.cluster_name} --nodegroup-name {group} --scaling-config "
            f"desiredSize={count} --region {env.region}"
        ), None
    status = summary["status"]
    if status in _BROKEN_STATES:
        return f"{group} is {status}: it launches no node ({_issues_text(summary)})", None
    if status != "DEGRADED":
        return None, None
    if now < start:
        return None, (
            f"{group} is DEGRADED ({_issues_text(summary)}): expected before its block starts: its Auto Scaling "
            f"group cannot launch instances until the reservation is active; check again after {utc_and_local(start)}"
        )
    return (
        f"{group} is DEGRADED since its block started ({_issues_text(summary)}): its nodes are not coming; "
        f"aws eks describe-nodegroup --cluster-name {env.cluster_name} --nodegroup-name {group} --region {env.region}"
    ), None


def handover_plan(aws: Aws, env: EnvironmentConfig, now: datetime) -> HandoverPlan:
    """Read both reservations and lay out the handover from the block that starts first to the other: the slots
    alternate (docs/capacity.md, "Serve across blocks"), so either slot may hold the block running now. The timing's
    verdict (ready in time, not in time, gap) does not depend on the next group's state: a gap is worth knowing while
    the group is still to be deployed, since another block can still be bought."""
    capacity = env.capacity
    if capacity is None:
        raise OpsError(
            f"environment {env.name} has no capacity section: the handover is between Capacity Blocks (platform: eks)",
            "on HyperPod, see docs/hyperpod.md, 'Training plans and succession'",
            ExitCode.USAGE,
        )
    current = describe_reservation(aws, capacity.capacity_reservation_id)
    check_serves(current, KEYS[0])
    cold_start = timedelta(seconds=env.pod_startup_budget.probe_seconds)
    if not capacity.next_capacity_reservation_id:
        scale_down, steps = _ending_steps(GROUPS[0], current)
        return HandoverPlan(
            env.name,
            reservation_summary(current),
            None,
            cold_start,
            steps + [Step(scale_down, "the endpoint stops answering: no next block is configured")],
            NO_NEXT_BLOCK,
            None,
        )
    following = describe_reservation(aws, capacity.next_capacity_reservation_id)
    check_serves(following, KEYS[1])
    (old_group, old_key, old), (new_group, new_key, new) = sorted(
        zip(GROUPS, KEYS, (current, following), strict=True), key=lambda slot: slot[2]["StartDate"]
    )
    # the block handed over to is checked, whichever slot holds it; the one handed over from only for its end
    check_not_over(old, old_key, new["CapacityReservationId"])
    warnings = check_next_matches(env, new, new_key)
    scale_down, old_steps = _ending_steps(old_group, old)
    new_id, start = new["CapacityReservationId"], new["StartDate"]
    found = describe_group(aws, env, new_group, f"describe node group {new_group}")
    not_starting, degraded = _group_problems(env, new_group, found, start, now)
    ready_by = start + cold_start
    steps = sorted(
        [
            Step(
                start,
                f"{new_id} starts: {new_group} launches its nodes; the standby replicas schedule there and "
                "download and load the weights",
            ),
            Step(
                ready_by,
                f"the next block's replicas pass the readiness probe by now at the latest (startup budget "
                f"{_minutes(cold_start)}): they join the Service and traffic moves to them",
            ),
            *old_steps,
        ],
        key=lambda s: s.at,
    )
    margin = scale_down - ready_by
    verdicts = []
    if start <= now < scale_down and not not_starting:
        warnings.append(overlap_now(env, start, scale_down))
    if not_starting:
        verdicts.append(NO_NODES)
        warnings.append(not_starting)
    if degraded:
        warnings.append(degraded)
    if start >= scale_down:
        verdicts.append(GAP)
        warnings.append(
            f"gap: {new_id} starts {_minutes(start - scale_down)} after the current nodes drain "
            f"({utc_and_local(scale_down)}); the endpoint is down from then until the next replicas are ready, up to "
            f"{utc_and_local(ready_by)}"
        )
    elif margin < timedelta(0):
        verdicts.append(NOT_IN_TIME)
        warnings.append(
            f"not enough overlap: the blocks overlap {_minutes(scale_down - start)} before the current nodes drain, "
            f"and the cold start may take {_minutes(cold_start)}; the endpoint may be down up to {_minutes(margin)} "
            f"(buy the next block to start at least {_minutes(cold_start)} before {utc_and_local(scale_down)})"
        )
    verdicts = sorted(verdicts, key=SEVERITY.index) or [READY_IN_TIME]
    return HandoverPlan(
        env.name,
        reservation_summary(old),
        reservation_summary(new),
        cold_start,
        steps,
        verdicts[0],
        margin,
        warnings,
        verdicts,
        group_summary(new_group, found),
    )


def overlap_now(env: EnvironmentConfig, start: datetime, scale_down: datetime) -> str:
    """Both blocks' replicas are ready until the scale-down: one Deployment holds them all, and its rollout's
    maxUnavailable, 1 + endpoint.replicas so that a rollout proceeds while the standby replicas wait outside an
    overlap (charts: the standby replicas), would then stop that many ready replicas at once."""
    stopped = 1 + env.replicas
    return (
        f"the blocks overlap now, until {utc_and_local(scale_down)}: a serving change deployed now may stop "
        f"{stopped} of the {2 * env.replicas} ready replicas at once"
        + (" (both: the endpoint goes down)" if env.replicas == 1 else "")
        + f"; deploy serving changes before {utc_and_local(start)} or after the scale-down"
    )


def handover_human(plan: HandoverPlan) -> list[str]:
    lines = [
        f"{plan.env}: handover from {plan.current['reservation_id']}"
        + (f" to {plan.next['reservation_id']}" if plan.next else " (no next block configured)"),
        f"cold start (startup probe budget, EnvironmentConfig.pod_startup_budget): {_minutes(plan.cold_start)}",
        "",
    ]
    lines += [f"  {utc_and_local(step.at):<36}  {step.what}" for step in plan.steps]
    lines.append("")
    if plan.verdict == READY_IN_TIME:
        lines.append(
            f"ready in time: the next replicas can be ready {_minutes(plan.margin)} before the current nodes drain"
        )
    elif plan.verdict == NO_NEXT_BLOCK:
        lines.append(
            "no next block: set capacity.next_capacity_reservation_id to a Capacity Block that starts at least "
            f"{_minutes(plan.cold_start)} before the scale-down ('bin/llmops capacity-blocks offerings', 'purchase')"
        )
    if len(plan.verdicts) > 1:
        lines.append(
            f"{' and '.join(plan.verdicts)}: exit 1 for the most severe, {plan.verdict}; every warning below"
        )
    lines += [f"warning: {w}" for w in plan.warnings]
    return lines
