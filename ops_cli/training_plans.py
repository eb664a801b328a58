"""SageMaker Flexible Training Plans for HyperPod clusters: search, create, describe."""

from __future__ import annotations

from decimal import Decimal

from ops_cli.aws import Aws
from ops_cli.errors import ExitCode, OpsError
from ops_cli.offering import Offering, Search, cheapest_first
from ops_cli.output import iso

TARGET = "hyperpod-cluster"


def plan_offering_from_api(item: dict) -> Offering:
    capacity = item.get("ReservedCapacityOfferings") or [{}]
    first = capacity[0]
    return Offering(item["TrainingPlanOfferingId"], first.get("InstanceType", "-"),
                    sum(c.get("InstanceCount", 0) for c in capacity), first.get("AvailabilityZone", "-"),
                    first.get("StartTime"), capacity[-1].get("EndTime"), item.get("DurationHours", 0),
                    Decimal(item.get("UpfrontFee", "0")), item.get("CurrencyCode", ""))


def search_params(search: Search) -> dict:
    """``search`` as search_training_plan_offerings parameters, for HyperPod clusters."""
    return {"InstanceType": search.instance_type, "InstanceCount": search.instance_count,
            "DurationHours": search.duration_hours, "StartTimeAfter": search.start_after,
            "EndTimeBefore": search.end_before, "TargetResources": [TARGET]}


def check_instance_type(instance_type: str) -> None:
    if not instance_type.startswith("ml."):
        raise OpsError(f"--instance-type {instance_type} is not a SageMaker instance type",
                       f"use the ml. form, for example ml.{instance_type}", ExitCode.USAGE)


def find_plan_offerings(aws: Aws, search: Search) -> list[Offering]:
    check_instance_type(search.instance_type)
    response = aws.call("sagemaker", "search_training_plan_offerings", "search training plan offerings", **search_params(search))
    return cheapest_first([plan_offering_from_api(i) for i in response.get("TrainingPlanOfferings", [])])


def find_plan_offering(aws: Aws, search: Search, offering_id: str) -> Offering:
    for offering in find_plan_offerings(aws, search):
        if offering.offering_id == offering_id:
            return offering
    raise OpsError(f"training plan offering {offering_id} is no longer offered for these search parameters",
                   "search again and pick a current offering", ExitCode.OFFERING_GONE)


def create_plan(aws: Aws, name: str, offering: Offering) -> str:
    response = aws.call("sagemaker", "create_training_plan", f"create training plan {name}",
                        TrainingPlanName=name, TrainingPlanOfferingId=offering.offering_id)
    return response["TrainingPlanArn"]


def describe_plan(aws: Aws, name: str) -> dict:
    return aws.call("sagemaker", "describe_training_plan", f"describe training plan {name}", TrainingPlanName=name)


def plan_summary(plan: dict) -> dict:
    zones = sorted({s.get("AvailabilityZone") for s in plan.get("ReservedCapacitySummaries", []) if s.get("AvailabilityZone")})
    types = sorted({s.get("InstanceType") for s in plan.get("ReservedCapacitySummaries", []) if s.get("InstanceType")})
    return {"name": plan.get("TrainingPlanName"), "arn": plan.get("TrainingPlanArn"), "status": plan.get("Status"),
            "status_message": plan.get("StatusMessage"), "start": iso(plan.get("StartTime")), "end": iso(plan.get("EndTime")),
            "availability_zones": zones, "instance_types": types, "instance_count": plan.get("TotalInstanceCount"),
            "upfront_fee": plan.get("UpfrontFee"), "currency": plan.get("CurrencyCode")}
