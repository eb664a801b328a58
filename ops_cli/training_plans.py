"""SageMaker Flexible Training Plans for HyperPod clusters: search, create, describe."""

from __future__ import annotations

import re
from collections.abc import Callable

import botocore.exceptions

from deployment_config import EnvironmentConfig
from ops_cli import purchase_outcome as outcome
from ops_cli.aws import Aws
from ops_cli.errors import ExitCode, OpsError, shown, translate
from ops_cli.offering import Offering, Search, cheapest_first, fee, field
from ops_cli.output import iso, utc_and_local
from ops_cli.progress import Progress

TARGET = "hyperpod-cluster"

# The patterns below are botocore's SageMaker model (sagemaker/2017-07-24/service-2.json); the model's patterns are
# meant to match the whole value, so they are used with fullmatch, after the model's length limits.
#: shape TrainingPlanName: min 1, max 64, pattern [a-zA-Z0-9](-*[a-zA-Z0-9]){0,63}
PLAN_NAME = re.compile(r"[a-zA-Z0-9](-*[a-zA-Z0-9]){0,63}")
PLAN_NAME_MAX = 64
#: shape TrainingPlanNameOrArn (DescribeTrainingPlan): min 1, max 2048
PLAN_NAME_OR_ARN = re.compile(
    r"(arn:aws[a-z\-]*:sagemaker:[a-z0-9\-]*:[0-9]{12}:training-plan/)?"
    r"[a-zA-Z0-9](-*[a-zA-Z0-9]){0,63}"
)
#: shape TrainingPlanOfferingId: min 1, max 256, pattern [a-z0-9\-]+
OFFERING_ID = re.compile(r"[a-z0-9\-]+")
OFFERING_ID_MAX = 256
#: SearchTrainingPlanOfferings: InstanceCount (ReservedCapacityInstanceCount) max 256; DurationHours
#: (TrainingPlanDurationHoursInput) max 87600.
MAX_INSTANCE_COUNT = 256
MAX_DURATION_HOURS = 87600

_NAME_RULE = "1 to 64 letters, digits and '-', starting and ending with a letter or digit"


def check_plan_name(name: str, *, arn_allowed: bool) -> None:
    pattern = PLAN_NAME_OR_ARN if arn_allowed else PLAN_NAME
    if len(name) > (2048 if arn_allowed else PLAN_NAME_MAX) or not pattern.fullmatch(name):
        raise OpsError(
            f"{shown(name)} is not a training plan name ({_NAME_RULE}{' or its ARN' if arn_allowed else ''})",
            "use a name such as kimi-k3-december",
            ExitCode.USAGE,
        )


def check_offering_id(offering_id: str) -> None:
    if len(offering_id) > OFFERING_ID_MAX or not OFFERING_ID.fullmatch(offering_id):
        raise OpsError(
            f"--offering-id {shown(offering_id)} is not a training plan offering id (lowercase letters, "
            "digits and '-', at most 256)",
            "copy an id from 'llmops training-plans offerings'",
            ExitCode.USAGE,
        )


def plan_offering_from_api(item: dict) -> Offering:
    capacity = item.get("ReservedCapacityOfferings") or [{}]
    first = capacity[0]
    what = f"training plan offering {shown(str(item.get('TrainingPlanOfferingId')))}"
    return Offering(
        field(item, "TrainingPlanOfferingId", str, what),
        first.get("InstanceType", "-"),
        sum(c.get("InstanceCount", 0) for c in capacity),
        first.get("AvailabilityZone", "-"),
        first.get("StartTime"),
        capacity[-1].get("EndTime"),
        item.get("DurationHours", 0),
        fee(item, what),
        item.get("CurrencyCode", ""),
    )


def search_params(search: Search) -> dict:
    """``search`` as search_training_plan_offerings parameters, for HyperPod clusters."""
    return {
        "InstanceType": search.instance_type,
        "InstanceCount": search.instance_count,
        "DurationHours": search.duration_hours,
        "StartTimeAfter": search.start_after,
        "EndTimeBefore": search.end_before,
        "TargetResources": [TARGET],
    }


def check_instance_type(instance_type: str) -> None:
    if not instance_type.startswith("ml."):
        raise OpsError(
            f"--instance-type {shown(instance_type)} is not a SageMaker instance type",
            f"use the ml. form, for example ml.{instance_type if len(instance_type) <= 64 else 'p6-b300.48xlarge'}",
            ExitCode.USAGE,
        )


def find_plan_offerings(aws: Aws, search: Search) -> list[Offering]:
    check_instance_type(search.instance_type)
    response = aws.call(
        "sagemaker",
        "search_training_plan_offerings",
        "search training plan offerings",
        **search_params(search),
    )
    return cheapest_first(
        [plan_offering_from_api(i) for i in response.get("TrainingPlanOfferings", [])]
    )


def find_plan_offering(aws: Aws, search: Search, offering_id: str) -> Offering:
    for offering in find_plan_offerings(aws, search):
        if offering.offering_id == offering_id:
            return offering
    raise OpsError(
        f"training plan offering {offering_id} is no longer offered for these search parameters",
        "search again and pick a current offering",
        ExitCode.OFFERING_GONE,
    )


def check_name_free(aws: Aws, name: str) -> None:
    """Refuse a name that a plan already has, before buying: CreateTrainingPlan would refuse it (ResourceInUse), and
    after a lost answer the lookup by name (purchase_outcome.plan_lookup) relies on the name having been free."""
    try:
        plan = describe_plan(aws, name)
    except OpsError as error:
        if error.exit_code == ExitCode.NOT_FOUND:
            return
        raise
    raise OpsError(
        f"a training plan named {name} already exists ({plan.get('Status', '?')}, {plan.get('TrainingPlanArn')})",
        "choose another name (llmops training-plans show NAME shows a plan)",
        ExitCode.ALREADY_EXISTS,
    )


def create_plan(
    aws: Aws, name: str, offering: Offering, say: Callable[[str], None] = lambda text: None
) -> str | None:
    """The new plan's ARN (None if SageMaker's answer had none: the plan exists all the same). CreateTrainingPlan is sent
    once (ops_cli/purchase_outcome.py); when its answer is lost the plan is looked up by name."""
    check_plan_name(name, arn_allowed=False)
    check_name_free(aws, name)
    action = f"create training plan {name}"
    look_command = outcome.plan_look_command(aws.region, name)
    try:
        response = outcome.send_once(
            aws,
            "sagemaker",
            "create_training_plan",
            look_command=look_command,
            TrainingPlanName=name,
            TrainingPlanOfferingId=offering.offering_id,
        )
    except outcome.MaybeSent as lost:
        plan = outcome.settle(
            aws,
            lost,
            outcome.plan_lookup(aws, name),
            what=f"training plan {name}",
            look_command=look_command,
            say=say,
        )
        say(
            f"Found it: training plan {name} exists, status {plan.get('Status', '?')} "
            f"(llmops training-plans show {name} follows it)."
        )
        return plan.get("TrainingPlanArn")
    except (botocore.exceptions.ClientError, botocore.exceptions.BotoCoreError) as error:
        raise translate(error, action) from None
    return response.get("TrainingPlanArn")


def describe_plan(aws: Aws, name: str) -> dict:
    check_plan_name(name, arn_allowed=True)
    return aws.call(
        "sagemaker",
        "describe_training_plan",
        f"describe training plan {name}",
        TrainingPlanName=name,
    )


#: DescribeTrainingPlan's Status (botocore 1.43.127 sagemaker/2017-07-24/service-2.json, shape TrainingPlanStatus:
#: Pending, Active, Scheduled, Expired, Failed): the plan serves when Active; Expired and Failed are final.
PLAN_ACTIVE = "Active"
PLAN_FINAL_STATES = frozenset({"Expired", "Failed"})


def environment_plan(env: EnvironmentConfig | None) -> str:
    """The training plan of ``env`` (hyperpod.training_plan_arn); a usage error for none or an EKS environment."""
    if env is None or env.hyperpod is None:
        raise OpsError(
            "no training plan: name one, or --env of a HyperPod environment (platform: hyperpod)",
            "llmops wait plan --env NAME, or llmops wait plan PLAN_NAME_OR_ARN --region REGION",
            ExitCode.USAGE,
        )
    return env.hyperpod.training_plan_arn


def wait_for_plan(aws: Aws, name: str, progress: Progress) -> dict:
    """Poll DescribeTrainingPlan until the plan is Active; an OpsError (exit 1) once it is Expired or Failed."""
    check_plan_name(name, arn_allowed=True)
    last: dict = {}

    def probe() -> tuple[bool, str]:
        plan = describe_plan(aws, name)
        last.clear()
        last.update(plan)
        status = plan.get("Status", "unknown")
        if status in PLAN_FINAL_STATES:
            why = f": {plan['StatusMessage']}" if plan.get("StatusMessage") else ""
            raise OpsError(
                f"training plan {name} is {status}{why}; it will never become Active",
                "buy a new plan: llmops training-plans offerings, then create",
                ExitCode.CHECK_FAILED,
            )
        return status == PLAN_ACTIVE, f"{status}, starts {utc_and_local(plan.get('StartTime'))}"

    progress.run(probe)
    return last


def plan_summary(plan: dict) -> dict:
    zones = sorted(
        {
            s.get("AvailabilityZone")
            for s in plan.get("ReservedCapacitySummaries", [])
            if s.get("AvailabilityZone")
        }
    )
    types = sorted(
        {
            s.get("InstanceType")
            for s in plan.get("ReservedCapacitySummaries", [])
            if s.get("InstanceType")
        }
    )
    return {
        "name": plan.get("TrainingPlanName"),
        "arn": plan.get("TrainingPlanArn"),
        "status": plan.get("Status"),
        "status_message": plan.get("StatusMessage"),
        "start": iso(plan.get("StartTime")),
        "end": iso(plan.get("EndTime")),
        "availability_zones": zones,
        "instance_types": types,
        "instance_count": plan.get("TotalInstanceCount"),
        "upfront_fee": plan.get("UpfrontFee"),
        "currency": plan.get("CurrencyCode"),
    }
