"""Preflight's capacity rows: the EC2 Capacity Block reservation (platform eks) or the SageMaker training plan
(platform hyperpod) exists, holds the configured instance type and count in the configured zone, and is active or
about to be; and, while a Capacity Block is active, whether its GPU node group can be updated (ops_cli/preflight.py
runs them in that order)."""

from __future__ import annotations

from datetime import datetime, timedelta

from capacity_rules import FINAL_STATES
from deployment_config.model import EnvironmentConfig
from ops_cli.aws import Aws
from ops_cli.capacity_blocks import describe_reservation
from ops_cli.errors import ExitCode, OpsError
from ops_cli.output import utc_and_local
from ops_cli.preflight_check import Check, Status
from ops_cli.waiting import GPU_NODEGROUP, NEXT_GPU_NODEGROUP, describe_group

WARN_BEFORE_END = timedelta(days=1)


def reservation_checks(
    aws: Aws, env: EnvironmentConfig, now: datetime
) -> tuple[list[Check], dict | None]:
    """The reservation's rows, and the reservation itself (None when it does not exist)."""
    capacity = env.capacity
    try:
        reservation = describe_reservation(aws, capacity.capacity_reservation_id)
    except OpsError as error:
        if error.exit_code is not ExitCode.NOT_FOUND:
            raise
        return [
            Check(
                "reservation exists",
                Status.FAIL,
                f"{capacity.capacity_reservation_id} not found in {env.region}",
                "buy a Capacity Block (llmops capacity-blocks purchase) or fix capacity.capacity_reservation_id",
            )
        ], None
    checks = [
        Check(
            "reservation exists",
            Status.PASS,
            f"{capacity.capacity_reservation_id} ({reservation.get('ReservationType', 'default')})",
        )
    ]

    expected = (capacity.instance_type, capacity.instance_count)
    actual = (reservation.get("InstanceType"), reservation.get("TotalInstanceCount"))
    if actual != expected:
        checks.append(
            Check(
                "instance type and count",
                Status.FAIL,
                f"reservation holds {actual[1]} x {actual[0]}, configuration asks for {expected[1]} x {expected[0]}",
                "set capacity.instance_type and capacity.instance_count to the reservation's",
            )
        )
    else:
        checks.append(Check("instance type and count", Status.PASS, f"{actual[1]} x {actual[0]}"))

    zone = reservation.get("AvailabilityZone")
    if zone != capacity.availability_zone:
        checks.append(
            Check(
                "availability zone",
                Status.FAIL,
                f"reservation is in {zone}, the GPU subnet would be in {capacity.availability_zone}",
                f"set capacity.availability_zone to {zone} (and list it in availability_zones)",
            )
        )
    else:
        checks.append(Check("availability zone", Status.PASS, f"{zone} matches the GPU subnet"))

    checks.append(_window(reservation, now))
    return checks, reservation


def _window(reservation: dict, now: datetime) -> Check:
    state = reservation.get("State", "unknown")
    start, end = reservation.get("StartDate"), reservation.get("EndDate")
    window = f"{utc_and_local(start)} to {utc_and_local(end)}"
    if state in FINAL_STATES or (end and end <= now):
        return Check(
            "state and time window",
            Status.FAIL,
            f"reservation is {state} ({window})",
            "buy a new Capacity Block and put its id in the configuration",
        )
    if end and end - now <= WARN_BEFORE_END:
        return Check(
            "state and time window",
            Status.WARN,
            f"reservation is {state} and ends {utc_and_local(end)}, "
            "within a day; EKS scales the node group to 0 forty minutes before the end",
            "extend the block or plan the work to finish before it ends",
        )
    if state != "active":
        return Check(
            "state and time window",
            Status.WARN,
            f"reservation is {state}; it starts {utc_and_local(start)}",
            "deploy the GPU nodes once it is active: "
            f"bin/llmops wait reservation {reservation['CapacityReservationId']}",
        )
    return Check("state and time window", Status.PASS, f"active until {utc_and_local(end)}")


def training_plan_checks(aws: Aws, env: EnvironmentConfig, now: datetime) -> list[Check]:
    hyperpod = env.hyperpod
    name = hyperpod.training_plan_arn.rsplit("/", 1)[-1]
    try:
        plan = aws.call(
            "sagemaker",
            "describe_training_plan",
            f"describe training plan {name}",
            TrainingPlanName=name,
        )
    except OpsError as error:
        if error.exit_code is not ExitCode.NOT_FOUND:
            raise
        return [
            Check(
                "training plan exists",
                Status.FAIL,
                f"{name} not found in {env.region}",
                "create one (bin/llmops training-plans create) or fix hyperpod.training_plan_arn",
            )
        ]
    checks = [Check("training plan exists", Status.PASS, f"{name} ({plan.get('Status')})")]
    summaries = plan.get("ReservedCapacitySummaries", [])
    types = sorted({s.get("InstanceType") for s in summaries if s.get("InstanceType")})
    count = plan.get("TotalInstanceCount") or sum(s.get("TotalInstanceCount", 0) for s in summaries)
    if types != [hyperpod.instance_type] or count < hyperpod.instance_count:
        checks.append(
            Check(
                "instance type and count",
                Status.FAIL,
                f"plan holds {count} x {', '.join(types) or 'nothing yet'}, configuration asks for "
                f"{hyperpod.instance_count} x {hyperpod.instance_type}",
                "set hyperpod.instance_type and hyperpod.instance_count to the plan's, or use another plan",
            )
        )
    else:
        checks.append(Check("instance type and count", Status.PASS, f"{count} x {types[0]}"))
    zones = sorted({s.get("AvailabilityZone") for s in summaries if s.get("AvailabilityZone")})
    if zones != [hyperpod.availability_zone]:
        checks.append(
            Check(
                "availability zone",
                Status.FAIL,
                f"plan capacity is in {', '.join(zones) or 'no zone yet'}, the instance group would be in "
                f"{hyperpod.availability_zone}",
                "set hyperpod.availability_zone to the plan's zone",
            )
        )
    else:
        checks.append(
            Check(
                "availability zone", Status.PASS, f"{zones[0]} matches the instance group's subnet"
            )
        )
    status = plan.get("Status", "unknown")
    start, end = plan.get("StartTime"), plan.get("EndTime")
    if status in {"Expired", "Failed"} or (end and end <= now):
        detail = plan.get("StatusMessage") or "no detail"
        checks.append(
            Check(
                "state and time window",
                Status.FAIL,
                f"plan is {status} ({detail})",
                "create a new training plan",
            )
        )
    elif end and end - now <= WARN_BEFORE_END:
        checks.append(
            Check(
                "state and time window",
                Status.WARN,
                f"plan ends {utc_and_local(end)}, within a day",
                "plan the work to finish before it ends",
            )
        )
    elif status != "Active":
        checks.append(
            Check(
                "state and time window",
                Status.WARN,
                f"plan is {status}; it starts {utc_and_local(start)}",
                "the HyperPod instance group gets its instances once the plan is active",
            )
        )
    else:
        checks.append(
            Check("state and time window", Status.PASS, f"active until {utc_and_local(end)}")
        )
    return checks


def gpu_node_group_updates_check(aws: Aws, env: EnvironmentConfig) -> Check:
    """While the Capacity Block is active, EKS updates the node group on it only at desired size 0: a deploy that
    changes the GPU node stack then fails, and rolls back.

    Source: the project's shared facts (shared/reference/aws-facts.md, "Upgrading a node group on a Capacity Block
    requires desired size 0", from the EKS user guide on Capacity Blocks for managed node groups); the page itself was
    not among the stored documents here, so this row warns rather than fails."""
    name = "GPU node group updates"
    # With a next reservation its group (stacks/gpu_nodes_stack.py) is on a Capacity Block too, and in the same stack.
    names = [GPU_NODEGROUP]
    if env.capacity.next_capacity_reservation_id:
        names.append(NEXT_GPU_NODEGROUP)
    found: dict[str, int] = {}
    for group_name in names:
        group = describe_group(aws, env, group_name, "describe the GPU node group")
        if group is not None:
            found[group_name] = group.get("scalingConfig", {}).get("desiredSize", 0)
    if not found:
        return Check(name, Status.PASS, f"no GPU node group yet in {env.cluster_name}")
    running = {group_name: desired for group_name, desired in found.items() if desired > 0}
    if running:
        gpu_nodes, serving = env.stack_name("gpu-nodes"), env.stack_name("serving")
        scale = "; ".join(
            f"aws eks update-nodegroup-config --cluster-name {env.cluster_name} --nodegroup-name {group_name} "
            f"--scaling-config desiredSize=0 --region {env.region}"
            for group_name in running
        )
        return Check(
            name,
            Status.WARN,
            "; ".join(f"{g} runs {d} node(s)" for g, d in running.items())
            + "; a managed node group on a Capacity Block can only be "
            f"updated at desired size 0: a change to the {gpu_nodes} stack (launch template, AMI, labels, "
            "taints, size) during the block fails; deploy serving changes alone",
            f"npx cdk deploy {serving} --exclusively -c env={env.name}; to change the GPU nodes, scale to 0 "
            f"first: {scale}",
        )
    return Check(
        name,
        Status.PASS,
        f"{' and '.join(found)} {'is' if len(found) == 1 else 'are'} at desired size 0; the "
        f"{env.stack_name('gpu-nodes')} stack can be updated",
    )
