"""Preflight: everything that can be checked about an environment before `cdk deploy`, one row per check."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum

from deployment_config.model import EnvironmentConfig, Platform
from ops_cli.aws import Aws
from ops_cli.capacity_blocks import describe_reservation
from ops_cli.errors import ExitCode, OpsError
from ops_cli.output import utc_and_local

WARN_BEFORE_END = timedelta(days=1)
BOOTSTRAP_STACK = "CDKToolkit"


class Status(StrEnum):
    PASS = "pass"
    WARN = "warn"
    FAIL = "fail"


@dataclass(frozen=True)
class Check:
    name: str
    status: Status
    detail: str
    fix: str = ""

    def to_dict(self) -> dict:
        return {"check": self.name, "status": self.status.value, "detail": self.detail, "fix": self.fix}


def run_preflight(aws: Aws, env: EnvironmentConfig, now: datetime | None = None) -> list[Check]:
    """Run every check; a check that cannot run (for example, no credentials) ends the run with an OpsError."""
    now = now or datetime.now(UTC)
    checks = [_credentials(aws, env)]
    if checks[0].status is Status.FAIL:
        return checks  # every further call would go to the wrong account
    if env.platform is Platform.HYPERPOD:
        checks += _training_plan(aws, env, now)
    else:
        checks += _reservation(aws, env, now)
        checks.append(_instance_type_offered(aws, env))
    checks.append(_bootstrap(aws, env))
    return checks


def _credentials(aws: Aws, env: EnvironmentConfig) -> Check:
    identity = aws.call("sts", "get_caller_identity", "identify the caller")
    account, arn = identity["Account"], identity["Arn"]
    if account != env.account:
        return Check("credentials", Status.FAIL,
                     f"credentials are for account {account} ({arn}), the environment is {env.account}",
                     f"use a profile or role of account {env.account} (AWS_PROFILE=...)")
    return Check("credentials", Status.PASS, f"{arn} in {env.account}, region {aws.region}")


def _reservation(aws: Aws, env: EnvironmentConfig, now: datetime) -> list[Check]:
    capacity = env.capacity
    try:
        reservation = describe_reservation(aws, capacity.capacity_reservation_id)
    except OpsError as error:
        if error.exit_code is not ExitCode.NOT_FOUND:
            raise
        return [Check("reservation exists", Status.FAIL, f"{capacity.capacity_reservation_id} not found in {env.region}",
                      "buy a Capacity Block (llmops capacity-blocks purchase) or fix capacity.capacity_reservation_id")]
    checks = [Check("reservation exists", Status.PASS,
                    f"{capacity.capacity_reservation_id} ({reservation.get('ReservationType', 'default')})")]

    expected = (capacity.instance_type.name, capacity.instance_count)
    actual = (reservation.get("InstanceType"), reservation.get("TotalInstanceCount"))
    if actual != expected:
        checks.append(Check("instance type and count", Status.FAIL,
                            f"reservation holds {actual[1]} x {actual[0]}, configuration asks for {expected[1]} x {expected[0]}",
                            "set capacity.instance_type and capacity.instance_count to the reservation's"))
    else:
        checks.append(Check("instance type and count", Status.PASS, f"{actual[1]} x {actual[0]}"))

    zone = reservation.get("AvailabilityZone")
    if zone != capacity.availability_zone:
        checks.append(Check("availability zone", Status.FAIL,
                            f"reservation is in {zone}, the GPU subnet would be in {capacity.availability_zone}",
                            f"set capacity.availability_zone to {zone} (and list it in availability_zones)"))
    else:
        checks.append(Check("availability zone", Status.PASS, f"{zone} matches the GPU subnet"))

    checks.append(_window(reservation, now))
    return checks


def _window(reservation: dict, now: datetime) -> Check:
    state = reservation.get("State", "unknown")
    start, end = reservation.get("StartDate"), reservation.get("EndDate")
    window = f"{utc_and_local(start)} to {utc_and_local(end)}"
    if state in {"expired", "cancelled", "failed", "unsupported"} or (end and end <= now):
        return Check("state and time window", Status.FAIL, f"reservation is {state} ({window})",
                     "buy a new Capacity Block and put its id in the configuration")
    if end and end - now <= WARN_BEFORE_END:
        return Check("state and time window", Status.WARN, f"reservation is {state} and ends {utc_and_local(end)}, "
                     "within a day; EKS scales the node group to 0 forty minutes before the end",
                     "extend the block or plan the work to finish before it ends")
    if state != "active":
        return Check("state and time window", Status.WARN, f"reservation is {state}; it starts {utc_and_local(start)}",
                     "deploy the GPU nodes once it is active: "
                     f"bin/llmops wait reservation {reservation['CapacityReservationId']}")
    return Check("state and time window", Status.PASS, f"active until {utc_and_local(end)}")


def _training_plan(aws: Aws, env: EnvironmentConfig, now: datetime) -> list[Check]:
    hyperpod = env.hyperpod
    name = hyperpod.training_plan_arn.rsplit("/", 1)[-1]
    try:
        plan = aws.call("sagemaker", "describe_training_plan", f"describe training plan {name}", TrainingPlanName=name)
    except OpsError as error:
        if error.exit_code is not ExitCode.NOT_FOUND:
            raise
        return [Check("training plan exists", Status.FAIL, f"{name} not found in {env.region}",
                      "create one (bin/llmops training-plans create) or fix hyperpod.training_plan_arn")]
    checks = [Check("training plan exists", Status.PASS, f"{name} ({plan.get('Status')})")]
    summaries = plan.get("ReservedCapacitySummaries", [])
    types = sorted({s.get("InstanceType") for s in summaries if s.get("InstanceType")})
    count = plan.get("TotalInstanceCount") or sum(s.get("TotalInstanceCount", 0) for s in summaries)
    if types != [hyperpod.instance_type] or count < hyperpod.instance_count:
        checks.append(Check("instance type and count", Status.FAIL,
                            f"plan holds {count} x {', '.join(types) or 'nothing yet'}, configuration asks for "
                            f"{hyperpod.instance_count} x {hyperpod.instance_type}",
                            "set hyperpod.instance_type and hyperpod.instance_count to the plan's, or use another plan"))
    else:
        checks.append(Check("instance type and count", Status.PASS, f"{count} x {types[0]}"))
    zones = sorted({s.get("AvailabilityZone") for s in summaries if s.get("AvailabilityZone")})
    if zones != [hyperpod.availability_zone]:
        checks.append(Check("availability zone", Status.FAIL,
                            f"plan capacity is in {', '.join(zones) or 'no zone yet'}, the instance group would be in "
                            f"{hyperpod.availability_zone}", "set hyperpod.availability_zone to the plan's zone"))
    else:
        checks.append(Check("availability zone", Status.PASS, f"{zones[0]} matches the instance group's subnet"))
    status = plan.get("Status", "unknown")
    start, end = plan.get("StartTime"), plan.get("EndTime")
    if status in {"Expired", "Failed"} or (end and end <= now):
        detail = plan.get("StatusMessage") or "no detail"
        checks.append(Check("state and time window", Status.FAIL, f"plan is {status} ({detail})", "create a new training plan"))
    elif end and end - now <= WARN_BEFORE_END:
        checks.append(Check("state and time window", Status.WARN, f"plan ends {utc_and_local(end)}, within a day",
                            "plan the work to finish before it ends"))
    elif status != "Active":
        checks.append(Check("state and time window", Status.WARN, f"plan is {status}; it starts {utc_and_local(start)}",
                            "the HyperPod instance group gets its instances once the plan is active"))
    else:
        checks.append(Check("state and time window", Status.PASS, f"active until {utc_and_local(end)}"))
    return checks


def _instance_type_offered(aws: Aws, env: EnvironmentConfig) -> Check:
    name, zone = env.capacity.instance_type.name, env.capacity.availability_zone
    offered = aws.pages("ec2", "describe_instance_type_offerings", "list instance type offerings", "InstanceTypeOfferings",
                        LocationType="availability-zone",
                        Filters=[{"Name": "instance-type", "Values": [name]}, {"Name": "location", "Values": [zone]}])
    if not offered:
        return Check("instance type offered", Status.FAIL, f"{name} is not offered in {zone}",
                     "choose a zone where it is (aws ec2 describe-instance-type-offerings --location-type availability-zone)")
    return Check("instance type offered", Status.PASS, f"{name} in {zone}")


def _bootstrap(aws: Aws, env: EnvironmentConfig) -> Check:
    fix = f"npx cdk bootstrap aws://{env.account}/{env.region}"
    try:
        stacks = aws.call("cloudformation", "describe_stacks", "look up the CDK bootstrap stack", StackName=BOOTSTRAP_STACK)
    except OpsError as error:
        if error.exit_code in (ExitCode.NOT_FOUND, ExitCode.AWS_ERROR) and "does not exist" in error.message:
            return Check("CDK bootstrap", Status.FAIL, f"no {BOOTSTRAP_STACK} stack in {env.account}/{env.region}", fix)
        raise
    status = stacks["Stacks"][0]["StackStatus"]
    if not status.endswith("_COMPLETE") or "ROLLBACK" in status or "DELETE" in status:
        return Check("CDK bootstrap", Status.FAIL, f"{BOOTSTRAP_STACK} is {status}", fix)
    return Check("CDK bootstrap", Status.PASS, f"{BOOTSTRAP_STACK} is {status}")
