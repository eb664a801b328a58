"""Extending a SageMaker training plan: its extension offerings, its extension history, and buying one extension.

This is the succession the API supports on HyperPod (docs/hyperpod.md, "Training plans and succession"): "When a
training plan is approaching expiration, you can extend it ... With training plan extensions, your running ... SageMaker
HyperPod clusters continue to work seamlessly without interruption once the plan is extended. The extended plan
reflects the new end date" (SageMaker developer guide, https://docs.aws.amazon.com/sagemaker/latest/dg/training-plan-extension.html).
Three operations of botocore 1.43.127's SageMaker model (botocore/data/sagemaker/2017-07-24/service-2.json):

- ``SearchTrainingPlanOfferings`` with ``TrainingPlanArn`` (and the optional ``DurationHours``) answers
  ``TrainingPlanExtensionOfferings`` (TrainingPlanExtensionOffering: TrainingPlanExtensionOfferingId, AvailabilityZone,
  StartDate, EndDate, DurationHours, UpfrontFee, CurrencyCode). "TrainingPlanArn must reference an existing training
  plan with a status of Active or Scheduled" (https://docs.aws.amazon.com/sagemaker/latest/dg/search-extension-offerings-api-cli-sdk.html).
- ``ExtendTrainingPlan`` takes only ``TrainingPlanExtensionOfferingId`` (the offering names its plan), has no client
  token and is not marked idempotent: it is sent once (ops_cli/purchase_outcome.py). "Extensions cannot be cancelled or
  modified" (training-plan-extension, above).
- ``DescribeTrainingPlanExtensionHistory`` (TrainingPlanArn; paginated by NextToken) lists every extension bought
  (TrainingPlanExtension: the offering id, ExtendedAt, StartDate, EndDate, Status "e.g., Pending, Active, Scheduled,
  Failed, Expired", PaymentStatus, UpfrontFee, CurrencyCode). An offering id in it was bought: it is never bought again.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

import botocore.exceptions

from deployment_config.model import EnvironmentConfig
from ops_cli import purchase_outcome as outcome
from ops_cli.aws import Aws
from ops_cli.capacity_blocks import check_duration
from ops_cli.cost_records import upfront_fee
from ops_cli.errors import ExitCode, OpsError, shown, translate
from ops_cli.offering import field
from ops_cli.output import iso

#: The plan states whose extension offerings SageMaker lists (search-extension-offerings-api-cli-sdk, above).
EXTENDABLE_STATES = ("Active", "Scheduled")
#: Extension states that hold capacity, bought or being paid (TrainingPlanExtension.Status, model documentation).
LIVE_EXTENSION_STATES = ("Pending", "Scheduled", "Active")
#: The model types TrainingPlanExtensionOfferingId as a string with no pattern; the guide's ids are "tpeo-" and a
#: SHA-256 hash (extend-training-plan-api-cli-sdk). Only a plausible shape is checked, so that a typo fails before any
#: call.
EXTENSION_OFFERING_ID = re.compile(r"[a-z]{2,8}-[0-9a-z\-]{1,250}")


@dataclass(frozen=True)
class PlanExtensionOffering:
    """One extension a plan may buy: from ``start`` (the plan's current end) to ``end``, for ``upfront_fee``."""

    offering_id: str
    training_plan_arn: str
    availability_zone: str
    start: datetime | None
    end: datetime | None
    duration_hours: int | None
    upfront_fee: Decimal | None
    currency: str

    def to_dict(self) -> dict:
        return {
            "offering_id": self.offering_id,
            "training_plan_arn": self.training_plan_arn,
            "availability_zone": self.availability_zone,
            "extension_start": iso(self.start),
            "extension_end": iso(self.end),
            "duration_hours": self.duration_hours,
            "upfront_fee": None if self.upfront_fee is None else str(self.upfront_fee),
            "currency": self.currency,
        }


def check_extension_offering_id(offering_id: str) -> None:
    if not EXTENSION_OFFERING_ID.fullmatch(offering_id):
        raise OpsError(
            f"--offering-id {shown(offering_id)} is not a training plan extension offering id",
            "copy an id from 'llmops training-plans extensions --env NAME'",
            ExitCode.USAGE,
        )


def check_extension_duration(hours: int | None) -> None:
    """None (SageMaker's offerings of any length), or an extension length: "Extend plans by 1-day increments up to 14
    days, or 7-day increments up to 182 days" (training-plan-extension, above; the model's
    TrainingPlanExtensionDurationHours allows at most 4368), the steps of a Capacity Block."""
    if hours is not None:
        check_duration(hours, "training plan extension length")


def plan_arn(env: EnvironmentConfig) -> str:
    """The environment's training plan (hyperpod.training_plan_arn); a usage error for any other environment."""
    if env.hyperpod is None:
        raise OpsError(
            f"{env.name} has no hyperpod section (platform {env.platform.value}): training plans serve "
            "platform: hyperpod",
            f"for a Capacity Block: llmops capacity-blocks extend --env {env.name} --duration-hours 24",
            ExitCode.USAGE,
        )
    return env.hyperpod.training_plan_arn


def check_extendable(plan: dict) -> None:
    """Refuse, before asking for offerings, a plan SageMaker would not extend."""
    status = plan.get("Status")
    if status not in EXTENDABLE_STATES:
        raise OpsError(
            f"training plan {plan.get('TrainingPlanName') or plan.get('TrainingPlanArn')} is {status}: only an "
            "Active or Scheduled plan can be extended",
            "buy a new plan (llmops training-plans offerings) and write it with llmops training-plans use",
            ExitCode.CHECK_FAILED,
        )


def offering_from_api(item: dict, arn: str) -> PlanExtensionOffering:
    return PlanExtensionOffering(
        field(item, "TrainingPlanExtensionOfferingId", str, "a training plan extension offering"),
        arn,
        item.get("AvailabilityZone") or "-",
        item.get("StartDate"),
        item.get("EndDate"),
        item.get("DurationHours"),
        upfront_fee(item.get("UpfrontFee")),
        item.get("CurrencyCode") or "",
    )


def find_offerings(aws: Aws, arn: str, duration_hours: int | None) -> list[PlanExtensionOffering]:
    """The plan's extension offerings (of ``duration_hours`` when given), cheapest first, then by id. The operation has
    no pagination (SearchTrainingPlanOfferingsResponse has no NextToken)."""
    check_extension_duration(duration_hours)
    params = {"TrainingPlanArn": arn}
    if duration_hours is not None:
        params["DurationHours"] = duration_hours
    response = aws.call(
        "sagemaker",
        "search_training_plan_offerings",
        f"list the extension offerings of {arn}",
        **params,
    )
    found = [offering_from_api(i, arn) for i in response.get("TrainingPlanExtensionOfferings", [])]
    return sorted(
        found,
        key=lambda o: (o.upfront_fee is None, o.upfront_fee or Decimal(0), o.offering_id),
    )


def history(aws: Aws, arn: str) -> list[dict]:
    """Every extension of the plan (DescribeTrainingPlanExtensionHistory, all pages), earliest start first."""
    items = aws.pages(
        "sagemaker",
        "describe_training_plan_extension_history",
        f"read the extension history of {arn}",
        "TrainingPlanExtensions",
        TrainingPlanArn=arn,
    )
    return sorted(items, key=lambda e: (e.get("StartDate") is None, e.get("StartDate") or 0))


def extension_summary(item: dict) -> dict:
    return {
        "offering_id": item.get("TrainingPlanExtensionOfferingId"),
        "extended_at": iso(item.get("ExtendedAt")),
        "start": iso(item.get("StartDate")),
        "end": iso(item.get("EndDate")),
        "duration_hours": item.get("DurationHours"),
        "status": item.get("Status"),
        "payment_status": item.get("PaymentStatus"),
        "upfront_fee": item.get("UpfrontFee"),
        "currency": item.get("CurrencyCode"),
    }


def check_not_bought(bought: list[dict], offering_id: str, arn: str, env: str) -> None:
    """Refuse an offering that the extension history already has: buying it again could spend twice."""
    same = [e for e in bought if e.get("TrainingPlanExtensionOfferingId") == offering_id]
    if same:
        e = same[0]
        raise OpsError(
            f"extension offering {offering_id} was already bought for {arn} ({e.get('Status', '?')}, payment "
            f"{e.get('PaymentStatus', '?')}, {iso(e.get('StartDate'))} to {iso(e.get('EndDate'))}): nothing was sent",
            f"llmops handover --env {env} shows the plan with its extensions; to extend further, list the offerings "
            f"again (llmops training-plans extensions --env {env}) and pick a current one",
            ExitCode.ALREADY_EXISTS,
        )


def look_command(region: str, arn: str, offering_id: str) -> str:
    """The aws command that shows whether ``offering_id`` was bought (the id is checked: letters, digits, '-')."""
    query = f"TrainingPlanExtensions[?TrainingPlanExtensionOfferingId=='{offering_id}']"
    return (
        f"aws sagemaker describe-training-plan-extension-history --region {shlex.quote(region)} "
        f'--training-plan-arn {shlex.quote(arn)} --query "{query}"'
    )


def lookup(aws: Aws, arn: str, offering_id: str) -> Callable[[], outcome.Look]:
    """The extension bought from ``offering_id``. The history had none just before the purchase
    (check_not_bought), so an entry for it now is this purchase, whatever its status."""

    def look() -> outcome.Look:
        ours = [
            e for e in history(aws, arn) if e.get("TrainingPlanExtensionOfferingId") == offering_id
        ]
        return outcome.Look(found=ours[0]) if ours else outcome.Look()

    return look


def extend(
    aws: Aws,
    offering: PlanExtensionOffering,
    say: Callable[[str], None] = lambda text: None,
) -> dict:
    """Buy ``offering``, sending ExtendTrainingPlan exactly once (purchase_outcome.send_once: no SDK retry, no re-send
    after throttling). The extension, from SageMaker's answer or, when the answer was lost, from the extension history
    (purchase_outcome.settle: bought, or UNKNOWN with the command to look)."""
    arn, offering_id = offering.training_plan_arn, offering.offering_id
    command = look_command(aws.region, arn, offering_id)
    try:
        response = outcome.send_once(
            aws,
            "sagemaker",
            "extend_training_plan",
            look_command=command,
            TrainingPlanExtensionOfferingId=offering_id,
        )
    except outcome.MaybeSent as lost:
        found = outcome.settle(
            aws,
            lost,
            lookup(aws, arn, offering_id),
            what=f"the extension of {arn} (offering {offering_id})",
            look_command=command,
            say=say,
        )
        say(f"Found it in the extension history of {arn}: {found.get('Status', '?')}.")
        return found
    except (botocore.exceptions.ClientError, botocore.exceptions.BotoCoreError) as error:
        raise translate(error, f"extend {arn} with offering {offering_id}") from None
    ours = [
        e
        for e in response.get("TrainingPlanExtensions") or []
        if e.get("TrainingPlanExtensionOfferingId") == offering_id
    ]
    if not ours:
        raise OpsError(
            f"SageMaker accepted the extension of {arn} but its answer lists no extension from offering {offering_id}",
            f"look at it before anything else: {command}",
            ExitCode.AWS_ERROR,
        )
    return ours[0]
