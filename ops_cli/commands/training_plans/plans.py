"""``llmops training-plans offerings``, ``create``, ``show`` and ``use``: SageMaker Flexible Training Plans for HyperPod
(ops_cli/training_plans.py)."""

from __future__ import annotations

import argparse

from ops_cli import training_plans as tp
from ops_cli.capacity_search import add_search_options, search
from ops_cli.command_help import command_help
from ops_cli.config_writer import check_environment_file, update_environment_file
from ops_cli.context import Context
from ops_cli.errors import ExitCode, OpsError
from ops_cli.output import emit_json, money, parse_iso, table, utc_and_local
from ops_cli.tables import offerings_table


def register(plans: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Adds offerings, create, show and use under the training-plans group's subparsers."""
    p = plans.add_parser(
        "offerings",
        help="search offerings for HyperPod clusters, cheapest first",
        parents=[common],
        **command_help(
            "List the SageMaker training plan offerings for HyperPod clusters (instance type, count, length, date range), "
            "cheapest first, with their upfront fees; buys nothing.",
            [
                "llmops training-plans offerings --env example-hyperpod",
                "llmops training-plans offerings --instance-type ml.p6-b300.48xlarge --count 2 --region us-west-2",
            ],
            [(ExitCode.OK, "listed (no offering is a list too)")],
        ),
    )
    add_search_options(p, "ml.p6-b300.48xlarge", 48)
    p.set_defaults(handler=offerings)
    p = plans.add_parser(
        "create",
        help="create a plan from an offering (shows the fee; needs --yes)",
        parents=[common],
        **command_help(
            "Create (buy) a training plan from an offering that 'offerings' listed: shows the upfront fee and creates it "
            "only with --yes.",
            [
                "llmops training-plans create --env example-hyperpod --name kimi-k3-december --offering-id tpo-0123456789 "
                "--yes"
            ],
            [
                (ExitCode.OK, "created"),
                (ExitCode.CONFIRMATION_REQUIRED, "not created: --yes is missing"),
                (ExitCode.OFFERING_GONE, "not created: the offering was taken or expired"),
                (ExitCode.ALREADY_EXISTS, "a plan of that name exists"),
                (
                    ExitCode.PURCHASE_UNKNOWN,
                    "the answer was lost: look before buying again (the message says how)",
                ),
            ],
        ),
    )
    add_search_options(p, "ml.p6-b300.48xlarge", 48)
    p.add_argument("--name", required=True, help="the plan's name")
    p.add_argument("--offering-id", required=True, help="the offering to buy (from 'offerings')")
    p.add_argument("--yes", action="store_true", help="confirm the purchase and its upfront fee")
    p.set_defaults(handler=create)
    p = plans.add_parser(
        "show",
        help="describe a plan",
        parents=[common],
        **command_help(
            "Show a training plan: its ARN, status, instance types and count, zones, start, end and upfront fee.",
            ["llmops training-plans show kimi-k3-december --region us-west-2"],
            [(ExitCode.OK, "shown"), (ExitCode.NOT_FOUND, "no such plan in that region")],
        ),
    )
    p.add_argument("name", help="the plan's name or ARN")
    p.set_defaults(handler=show)
    p = plans.add_parser(
        "use",
        help="write a plan's ARN and zone into an environment file",
        parents=[common],
        **command_help(
            "Write a training plan's ARN and zone into an environment file (hyperpod.training_plan_arn and "
            "hyperpod.availability_zone); a plan with capacity in several zones is refused.",
            ["llmops training-plans use kimi-k3-december --env example-hyperpod"],
            [
                (ExitCode.OK, "written"),
                (ExitCode.NOT_FOUND, "no such plan in the environment's region"),
            ],
        ),
    )
    p.add_argument("name", help="the plan's name or ARN")
    p.add_argument("--env", required=True, help="the environment file to write: config/ENV.yaml")
    p.set_defaults(handler=use)


def offerings(ctx: Context) -> int:
    wanted = search(ctx, sagemaker=True)
    found = tp.find_plan_offerings(ctx.aws(), wanted)
    human = (
        offerings_table(found)
        if found
        else f"No training plan offerings for {wanted.instance_count} x {wanted.instance_type}, {wanted.duration_hours} h."
    )
    ctx.out([o.to_dict() for o in found], human)
    return ExitCode.OK


def create(ctx: Context) -> int:
    args = ctx.args
    tp.check_plan_name(args.name, arn_allowed=False)
    tp.check_offering_id(args.offering_id)
    wanted = search(ctx, sagemaker=True)
    aws = ctx.aws()
    offering = tp.find_plan_offering(aws, wanted, args.offering_id)
    what = (
        f"plan '{args.name}': {offering.instance_count} x {offering.instance_type} in {offering.availability_zone}, "
        f"{utc_and_local(offering.start)} to {utc_and_local(offering.end)}, "
        f"upfront fee {money(offering.upfront_fee, offering.currency)}"
    )
    if not args.yes:
        raise OpsError(
            f"not created: {what}. Training plans are paid upfront",
            "run the same command with --yes to create it",
            ExitCode.CONFIRMATION_REQUIRED,
        )
    arn = tp.create_plan(
        aws, args.name, offering, say=ctx.note
    )  # sent once, as a Capacity Block purchase
    shown_arn = (
        arn or f"(not in SageMaker's answer; llmops training-plans show {args.name} shows it)"
    )
    if args.json:  # what was bought is on stderr too, in case stdout cannot take the JSON
        ctx.say(f"created: training plan {args.name}, ARN {shown_arn}", ctx.rt.stderr)
        emit_json({"name": args.name, "arn": arn, "offering": offering.to_dict()}, ctx.rt.stdout)
    else:
        ctx.say(f"Created {what}.\nARN: {shown_arn}")
    return ExitCode.OK


def show(ctx: Context) -> int:
    tp.check_plan_name(ctx.args.name, arn_allowed=True)
    summary = tp.plan_summary(tp.describe_plan(ctx.aws(), ctx.args.name))
    rows = [(k, summary[k]) for k in ("name", "arn", "status", "instance_count")]
    rows += [
        ("zones", ", ".join(summary["availability_zones"])),
        ("instance types", ", ".join(summary["instance_types"])),
        ("start", utc_and_local(parse_iso(summary["start"]))),
        ("end", utc_and_local(parse_iso(summary["end"]))),
        ("upfront fee", money(summary["upfront_fee"], summary["currency"])),
    ]
    ctx.out(summary, table(["field", "value"], rows))
    return ExitCode.OK


def use(ctx: Context) -> int:
    tp.check_plan_name(ctx.args.name, arn_allowed=True)
    # --env is required: loading it (ctx.env) validates the file before anything is asked of AWS
    check_environment_file(
        ctx.config_dir, ctx.env.name, {}
    )  # a file it cannot edit is refused before any call
    summary = tp.plan_summary(tp.describe_plan(ctx.aws(), ctx.args.name))
    zones = summary["availability_zones"]
    if len(zones) != 1:
        raise OpsError(
            f"plan {ctx.args.name} has capacity in {len(zones)} zones ({', '.join(zones) or 'none yet'})",
            "set hyperpod.training_plan_arn and hyperpod.availability_zone by hand",
            ExitCode.USAGE,
        )
    path = update_environment_file(
        ctx.config_dir,
        ctx.args.env,
        {"hyperpod.training_plan_arn": summary["arn"], "hyperpod.availability_zone": zones[0]},
    )
    ctx.out(
        {"config_file": str(path), **summary}, f"Wrote {summary['arn']} ({zones[0]}) into {path}."
    )
    return ExitCode.OK
