"""``llmops handover`` on HyperPod: the environment's training plan as a timeline, with its extensions.

On HyperPod the succession the API supports is extending the plan (docs/hyperpod.md, "Training plans and succession";
ops_cli/training_plan_extensions.py): the instance group keeps its plan ARN and its nodes, so there is no second group,
no cold start and nothing to hand over; "your running ... SageMaker HyperPod clusters continue to work seamlessly
without interruption once the plan is extended. The extended plan reflects the new end date"
(https://docs.aws.amazon.com/sagemaker/latest/dg/training-plan-extension.html). What the user needs to know is when the
plan ends, which extensions are bought, and whether one is bought beyond now; this module reads the plan
(DescribeTrainingPlan) and its extension history (DescribeTrainingPlanExtensionHistory) and says so. SageMaker
publishes no lead time before the plan's EndTime at which the instances go (unlike EKS's forty minutes before a
Capacity Block's end), so the timeline names only EndTime.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from deployment_config.model import EnvironmentConfig
from ops_cli import training_plan_extensions as tpe
from ops_cli.aws import Aws
from ops_cli.cost_records import upfront_fee
from ops_cli.errors import ExitCode
from ops_cli.handover import Step
from ops_cli.output import duration, money, parse_iso, utc_and_local
from ops_cli.training_plans import describe_plan, plan_summary

#: The verdicts: an extension is bought that starts after now (the plan runs on past the period running now), or none
#: is (the endpoint stops at the plan's end), or the plan has ended or failed.
EXTENDED, NOT_EXTENDED, PLAN_OVER = ("extension bought", "no extension bought", "plan over")
#: Plan states with no capacity to come (TrainingPlanStatus in the SageMaker model).
_OVER_STATES = ("Expired", "Failed")


@dataclass(frozen=True)
class PlanTimeline:
    """The plan's timeline and verdict. ``hours_left``: from now to the plan's end (0 once it ended)."""

    env: str
    plan: dict
    extensions: list[dict]
    steps: list[Step]
    verdict: str
    hours_left: float
    warnings: list[str] = field(default_factory=list)
    extend_commands: list[str] = field(default_factory=list)

    @property
    def exit_code(self) -> ExitCode:
        return ExitCode.OK if self.verdict == EXTENDED else ExitCode.CHECK_FAILED

    def to_dict(self) -> dict:
        return {
            "env": self.env,
            "platform": "hyperpod",
            "plan": self.plan,
            "extensions": self.extensions,
            "steps": [s.to_dict() for s in self.steps],
            "verdict": self.verdict,
            "hours_left": self.hours_left,
            "warnings": list(self.warnings),
            "extend_commands": list(self.extend_commands),
        }


def _period(item: dict) -> str:
    return f"{utc_and_local(item.get('StartDate'))} to {utc_and_local(item.get('EndDate'))}"


def plan_timeline(aws: Aws, env: EnvironmentConfig, now: datetime) -> PlanTimeline:
    """Read the environment's plan and its extension history, and lay them out in time order."""
    arn = tpe.plan_arn(env)
    plan = describe_plan(aws, arn)
    bought = tpe.history(aws, arn)
    name, start, end = (
        plan.get("TrainingPlanName") or arn,
        plan.get("StartTime"),
        plan.get("EndTime"),
    )
    steps = (
        [Step(start, f"training plan {name} starts ({plan.get('Status', '?')})")] if start else []
    )
    for item in bought:
        if item.get("StartDate") is None:
            continue
        steps.append(
            Step(
                item["StartDate"],
                f"extension {item.get('TrainingPlanExtensionOfferingId')}: {_period(item)} "
                f"({duration(item.get('DurationHours'))}), {item.get('Status', '?')}, payment "
                f"{item.get('PaymentStatus', '?')}, fee {money(upfront_fee(item.get('UpfrontFee')), item.get('CurrencyCode'))}",
            )
        )
    left = max(0.0, (end - now).total_seconds() / 3600) if end else 0.0
    if not left:
        now_text = "now: the plan has ended"
    elif start and now < start:
        now_text = f"now: the plan starts in {duration((start - now).total_seconds() / 3600)} and ends in {duration(left)}"
    else:
        now_text = f"now: the plan runs {duration(left)} more"
    steps.append(Step(now, now_text))
    if end:
        steps.append(
            Step(
                end,
                f"{name} ends: the instance group's capacity goes and the endpoint stops, unless the plan is extended "
                "before (SageMaker publishes no earlier time at which the instances go)",
            )
        )
    steps.sort(key=lambda s: s.at)
    ahead = [
        e
        for e in bought
        if e.get("Status") in tpe.LIVE_EXTENSION_STATES
        and e.get("StartDate") is not None
        and e["StartDate"] > now
    ]
    warnings = []
    late = [
        e
        for e in bought
        if e.get("Status") in tpe.LIVE_EXTENSION_STATES
        and end
        and e.get("EndDate")
        and e["EndDate"] > end
    ]
    for item in late:
        warnings.append(
            f"extension {item.get('TrainingPlanExtensionOfferingId')} ends {utc_and_local(item['EndDate'])}, after the "
            f"plan's EndTime ({utc_and_local(end)}): the plan does not include it yet ({item.get('Status')}, "
            f"payment {item.get('PaymentStatus', '?')}); run bin/llmops handover again later"
        )
    for item in ahead:
        if item.get("Status") == "Pending":
            warnings.append(
                f"extension {item.get('TrainingPlanExtensionOfferingId')} is Pending (payment "
                f"{item.get('PaymentStatus', '?')}): bought, not yet confirmed by SageMaker"
            )
    commands = [
        f"bin/llmops training-plans extensions --env {env.name} --duration-hours 24",
        f"bin/llmops training-plans extend --env {env.name} --duration-hours 24 --offering-id ID --yes",
    ]
    if plan.get("Status") in _OVER_STATES or not left:
        verdict = PLAN_OVER
        warnings.append(
            f"{name} is {plan.get('Status', '?')}"
            + ("" if left else f" and ended {utc_and_local(end)}")
            + ": it cannot be extended; buy a new plan (bin/llmops training-plans offerings --env "
            f"{env.name}) and write it into the environment with bin/llmops training-plans use"
        )
        commands = []
    elif ahead:
        verdict = EXTENDED
    else:
        verdict = NOT_EXTENDED
    return PlanTimeline(
        env.name,
        plan_summary(plan),
        [tpe.extension_summary(e) for e in bought],
        steps,
        verdict,
        round(left, 1),
        warnings,
        commands,
    )


def timeline_human(timeline: PlanTimeline) -> list[str]:
    plan = timeline.plan
    lines = [
        f"{timeline.env}: training plan {plan['name'] or plan['arn']}, {plan['status']}, "
        f"{len(timeline.extensions)} extension(s) bought",
        "",
        *(f"  {utc_and_local(step.at):<36}  {step.what}" for step in timeline.steps),
        "",
    ]
    if timeline.verdict == EXTENDED:
        lines.append(
            f"extension bought: the plan runs to {utc_and_local(parse_iso(plan['end']))}, "
            f"{duration(timeline.hours_left)} from now; the nodes stay, so there is no handover and no cold start"
        )
    elif timeline.verdict == NOT_EXTENDED:
        lines.append(
            f"no extension bought: the endpoint stops when the plan ends, {duration(timeline.hours_left)} from now. "
            "Extend it (the instance group keeps its plan and its nodes):"
        )
        lines += [f"  {command}" for command in timeline.extend_commands]
    lines += [f"warning: {w}" for w in timeline.warnings]
    return lines
