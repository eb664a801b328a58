"""``llmops training-plans extensions`` and ``extend``: the environment's training plan's extension offerings, and buying
one, shown with its fee and bought only with --yes (ops_cli/training_plan_extensions.py)."""

from __future__ import annotations

import argparse

from ops_cli import training_plan_extensions as tpe
from ops_cli import training_plans as tp
from ops_cli.arguments import positive
from ops_cli.command_help import command_help
from ops_cli.context import Context
from ops_cli.cost_records import upfront_fee
from ops_cli.errors import ExitCode, OpsError
from ops_cli.output import duration, emit_json, money, utc_and_local
from ops_cli.tables import extensions_table

_ENV_HELP = "the HyperPod environment whose plan to extend (hyperpod.training_plan_arn)"
_DURATION_HELP = (
    "the extension's length: whole days up to 14 (24 ... 336), then whole weeks up to 182 days "
    "(default: none: SageMaker's offerings of any length)"
)


def register(plans: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Adds ``extensions`` and ``extend`` under the training-plans group's subparsers."""
    p = plans.add_parser(
        "extensions",
        help="list the extension offerings of the environment's plan, cheapest first",
        parents=[common],
        **command_help(
            "List the extension offerings of the environment's training plan (from its current end to the new end, "
            "length, zone, upfront fee and currency, offering id), cheapest first; buys nothing.",
            [
                "llmops training-plans extensions --env example-hyperpod",
                "llmops training-plans extensions --env example-hyperpod --duration-hours 48 --json",
            ],
            [
                (ExitCode.OK, "listed (no offering is a list too)"),
                (ExitCode.CHECK_FAILED, "the plan cannot be extended (not Active or Scheduled)"),
            ],
        ),
    )
    p.add_argument("--env", required=True, help=_ENV_HELP)
    p.add_argument("--duration-hours", type=positive, help=_DURATION_HELP)
    p.set_defaults(handler=extensions)
    p = plans.add_parser(
        "extend",
        help="buy one extension of the environment's plan (shows the fee; needs --yes)",
        parents=[common],
        **command_help(
            "Extend the environment's training plan with an offering that 'extensions' listed: the offering is "
            "found again, refused if the plan's extension history already has it, its fee shown, and bought only "
            "with --yes, sent once.",
            [
                "llmops training-plans extend --env example-hyperpod --offering-id tpeo-0123456789abcdef",
                "llmops training-plans extend --env example-hyperpod --duration-hours 48 "
                "--offering-id tpeo-0123456789abcdef --yes",
            ],
            [
                (ExitCode.OK, "extended"),
                (ExitCode.CHECK_FAILED, "the plan cannot be extended (not Active or Scheduled)"),
                (ExitCode.CONFIRMATION_REQUIRED, "not extended: --yes is missing"),
                (ExitCode.OFFERING_GONE, "not extended: the offering is not one of the plan's now"),
                (ExitCode.ALREADY_EXISTS, "not extended: that offering was already bought"),
                (
                    ExitCode.PURCHASE_UNKNOWN,
                    "the answer was lost: look before buying again (the message says how)",
                ),
            ],
        ),
    )
    p.add_argument("--env", required=True, help=_ENV_HELP)
    p.add_argument("--offering-id", required=True, help="the extension to buy (from 'extensions')")
    p.add_argument(
        "--duration-hours",
        type=positive,
        help="the length the offering was listed with (default: none, as 'extensions' without it)",
    )
    p.add_argument("--yes", action="store_true", help="confirm the purchase and its upfront fee")
    p.set_defaults(handler=extend)


def extensions(ctx: Context) -> int:
    """The extension offerings of the environment's plan, cheapest first; the plan must be Active or Scheduled."""
    tpe.check_extension_duration(ctx.args.duration_hours)
    arn = tpe.plan_arn(ctx.env)
    aws = ctx.aws()
    plan = tp.describe_plan(aws, arn)
    tpe.check_extendable(plan)
    found = tpe.find_offerings(aws, arn, ctx.args.duration_hours)
    length = f"{duration(ctx.args.duration_hours)} " if ctx.args.duration_hours else ""
    human = (
        [
            extensions_table(found, "zone", lambda o: o.availability_zone),
            f"Buy one: llmops training-plans extend --env {ctx.env.name} "
            + (f"--duration-hours {ctx.args.duration_hours} " if ctx.args.duration_hours else "")
            + "--offering-id ID --yes",
        ]
        if found
        else f"No {length}extension offerings for {plan.get('TrainingPlanName') or arn} (ends "
        f"{utc_and_local(plan.get('EndTime'))})."
    )
    ctx.out([o.to_dict() for o in found], human)
    return ExitCode.OK


def extend(ctx: Context) -> int:
    """Buy one extension: refused when the plan's history has the offering already (exit 9), when it is not on offer
    now (exit 8), without --yes (exit 3); otherwise ExtendTrainingPlan is sent once."""
    args = ctx.args
    tpe.check_extension_offering_id(args.offering_id)
    tpe.check_extension_duration(args.duration_hours)
    arn = tpe.plan_arn(ctx.env)
    aws = ctx.aws()
    plan = tp.describe_plan(aws, arn)
    tpe.check_extendable(plan)
    tpe.check_not_bought(tpe.history(aws, arn), args.offering_id, arn, ctx.env.name)
    offering = next(
        (
            o
            for o in tpe.find_offerings(aws, arn, args.duration_hours)
            if o.offering_id == args.offering_id
        ),
        None,
    )
    if offering is None:
        raise OpsError(
            f"extension offering {args.offering_id} is not one of the extension offerings of {arn} now "
            "(taken, expired, or listed with another --duration-hours)",
            f"list them again (llmops training-plans extensions --env {ctx.env.name}) and pick a current one",
            ExitCode.OFFERING_GONE,
        )
    name = plan.get("TrainingPlanName") or arn
    what = (
        f"training plan {name} by {duration(offering.duration_hours)}, from {utc_and_local(offering.start)} (its "
        f"current end) to {utc_and_local(offering.end)}, upfront fee {money(offering.upfront_fee, offering.currency)}"
    )
    if not args.yes:
        raise OpsError(
            f"not extended: {what}. An extension is paid upfront and cannot be cancelled",
            "run the same command with --yes to buy it",
            ExitCode.CONFIRMATION_REQUIRED,
        )
    bought = tpe.extend(aws, offering, say=ctx.note)
    summary = tpe.extension_summary(bought)
    payload = {"training_plan_arn": arn, "offering": offering.to_dict(), "extension": summary}
    if args.json:  # what was bought is on stderr too, in case stdout cannot take the JSON
        ctx.say(f"extended: {name} to {summary['end']}", ctx.rt.stderr)
        emit_json(payload, ctx.rt.stdout)
        return ExitCode.OK
    paid = money(upfront_fee(bought.get("UpfrontFee")), bought.get("CurrencyCode"))
    ctx.say(
        f"Extended {what}.\n"
        f"The extension is {summary['status'] or '?'} (payment {summary['payment_status'] or '?'}); "
        f"the plan's new end: {utc_and_local(bought.get('EndDate'))}, fee {paid}.\n"
        f"llmops handover --env {ctx.env.name} shows the plan with its extensions."
    )
    return ExitCode.OK
