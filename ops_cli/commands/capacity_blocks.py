"""``llmops capacity-blocks``: EC2 Capacity Blocks: offerings, purchase, extend, show, use (ops_cli/capacity_blocks.py)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from deployment_config import EnvironmentConfig
from ops_cli import capacity_blocks as cb
from ops_cli.arguments import positive
from ops_cli.capacity_search import add_search_options, search
from ops_cli.command_help import command_help
from ops_cli.config_writer import (
    check_environment_file,
    env_name_problem,
    missing_environment,
    update_environment_file,
)
from ops_cli.context import Context, cli_words, load_environment_option
from ops_cli.errors import ExitCode, OpsError
from ops_cli.offering import Offering
from ops_cli.output import duration, emit_json, iso, money, parse_iso, table, utc_and_local
from ops_cli.tables import offerings_table


def register(groups: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    blocks = groups.add_parser(
        "capacity-blocks", help="EC2 Capacity Blocks", parents=[common]
    ).add_subparsers(dest="command", required=True, metavar="SUBCOMMAND")
    p = blocks.add_parser(
        "offerings",
        help="list offerings, cheapest first",
        parents=[common],
        **command_help(
            "List the Capacity Block offerings for an instance type, count and length in a date range, cheapest first, "
            "with their upfront fees; buys nothing.",
            [
                "llmops capacity-blocks offerings --env prod",
                "llmops capacity-blocks offerings --instance-type p6-b300.48xlarge --count 2 --duration-hours 96 "
                "--region us-west-2",
                "llmops capacity-blocks offerings --env prod --start-after 2026-12-10 --end-before 2026-12-24 --json",
            ],
            [(ExitCode.OK, "listed (no offering is a list too)")],
        ),
    )
    add_search_options(p, "p6-b300.48xlarge", 48)
    p.set_defaults(handler=offerings)
    p = blocks.add_parser(
        "purchase",
        help="buy an offering (shows the fee; needs --yes)",
        parents=[common],
        **command_help(
            "Buy a Capacity Block offering that 'offerings' listed: shows the upfront fee (paid at once, not refundable) "
            "and buys only with --yes; --write-config records the reservation in an environment file.",
            [
                "llmops capacity-blocks purchase --env prod --offering-id cb-0123456789abcdef0 --dry-run",
                "llmops capacity-blocks purchase --env prod --offering-id cb-0123456789abcdef0 --yes --write-config prod",
            ],
            [
                (ExitCode.OK, "bought, or the dry run passed"),
                (ExitCode.CONFIRMATION_REQUIRED, "not bought: --yes is missing"),
                (ExitCode.INSUFFICIENT_CAPACITY, "not bought: EC2 has no capacity for it"),
                (ExitCode.OFFERING_GONE, "not bought: the offering was taken or expired"),
                (
                    ExitCode.BOUGHT_NOT_WRITTEN,
                    "BOUGHT, but not written into --write-config: the message says how",
                ),
                (
                    ExitCode.PURCHASE_UNKNOWN,
                    "the answer was lost: look before buying again (the message says how)",
                ),
            ],
        ),
    )
    add_search_options(p, "p6-b300.48xlarge", 48)
    p.add_argument("--offering-id", required=True, help="the offering to buy (from 'offerings')")
    p.add_argument("--yes", action="store_true", help="confirm the purchase and its upfront fee")
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="ask EC2 to check permission and availability, buy nothing",
    )
    p.add_argument(
        "--write-config",
        metavar="ENV",
        help="write the reservation id and zone into config/ENV.yaml "
        "(default: none: nothing is written)",
    )
    p.set_defaults(handler=purchase)
    p = blocks.add_parser(
        "extend",
        help="extend a reservation: list extension offerings, or buy one (needs --yes)",
        parents=[common],
        **command_help(
            "Extend a Capacity Block: without --offering-id list the extension offerings of --duration-hours, cheapest "
            "first; with it buy that extension (shows the fee; needs --yes).",
            [
                "llmops capacity-blocks extend --env prod --duration-hours 24",
                "llmops capacity-blocks extend cr-0123456789abcdef0 --duration-hours 48 --offering-id cbe-0123456789abcdef0 "
                "--yes",
            ],
            [
                (ExitCode.OK, "listed, extended, or the dry run passed"),
                (
                    ExitCode.CHECK_FAILED,
                    "the reservation cannot be extended (ended, not active, or too far from its end)",
                ),
                (ExitCode.CONFIRMATION_REQUIRED, "not extended: --yes is missing"),
                (
                    ExitCode.OFFERING_GONE,
                    "not extended: the extension offering was taken or expired",
                ),
                (ExitCode.NOT_FOUND, "no such reservation"),
                (
                    ExitCode.PURCHASE_UNKNOWN,
                    "the answer was lost: look before buying again (the message says how)",
                ),
            ],
        ),
    )
    p.add_argument(
        "reservation_id", nargs="?", help="the reservation (default: the environment's, with --env)"
    )
    p.add_argument(
        "--env",
        help="extend the environment's Capacity Block (capacity.capacity_reservation_id) "
        "(default: none: name the reservation)",
    )
    p.add_argument(
        "--duration-hours",
        type=positive,
        required=True,
        help="how much longer: whole days up to 14 (24 ... 336), then whole weeks",
    )
    p.add_argument(
        "--offering-id",
        help="the extension to buy (from the list this command prints without it; "
        "default: none: list them)",
    )
    p.add_argument("--yes", action="store_true", help="confirm the purchase and its upfront fee")
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="ask EC2 to check permission and availability, buy nothing",
    )
    p.set_defaults(handler=extend)
    p = blocks.add_parser(
        "show",
        help="show a reservation",
        parents=[common],
        **command_help(
            "Show a Capacity Block reservation: its state, instance type and count, zone, start and end.",
            ["llmops capacity-blocks show cr-0123456789abcdef0 --region us-west-2"],
            [(ExitCode.OK, "shown"), (ExitCode.NOT_FOUND, "no such reservation in that region")],
        ),
    )
    p.add_argument("reservation_id", help="the reservation: 'cr-' and 17 hex digits")
    p.set_defaults(handler=show)
    p = blocks.add_parser(
        "use",
        help="write a reservation's id and zone into an environment file",
        parents=[common],
        **command_help(
            "Write a reservation's id and zone into an environment file (capacity.capacity_reservation_id and "
            "capacity.availability_zone), once its instance type and count match the environment's.",
            ["llmops capacity-blocks use cr-0123456789abcdef0 --env prod"],
            [
                (ExitCode.OK, "written"),
                (ExitCode.NOT_FOUND, "no such reservation in the environment's region"),
            ],
        ),
    )
    p.add_argument("reservation_id", help="the reservation: 'cr-' and 17 hex digits")
    p.add_argument("--env", required=True, help="the environment file to write: config/ENV.yaml")
    p.set_defaults(handler=use)


def offerings(ctx: Context) -> int:
    wanted = search(ctx, sagemaker=False)
    found = cb.find_offerings(ctx.aws(), wanted)
    human = (
        offerings_table(found)
        if found
        else f"No Capacity Block offerings for {wanted.instance_count} x {wanted.instance_type}, "
        f"{wanted.duration_hours} h, between {utc_and_local(wanted.start_after)} "
        f"and {utc_and_local(wanted.end_before)}."
    )
    ctx.out([o.to_dict() for o in found], human)
    return ExitCode.OK


def purchase(ctx: Context) -> int:
    args = ctx.args
    cb.check_offering_id(args.offering_id)
    target = args.write_config
    if target is not None:  # what can be checked without the offering, before any AWS call
        _write_target(ctx, target)
    wanted = search(ctx, sagemaker=False)
    aws = ctx.aws()
    offering = cb.find_offering(aws, wanted, args.offering_id)
    fee = money(offering.upfront_fee, offering.currency)
    what = (
        f"{offering.instance_count} x {offering.instance_type} in {offering.availability_zone}, "
        f"{utc_and_local(offering.start)} to {utc_and_local(offering.end)}, upfront fee {fee}"
    )
    if target is not None:  # before anything is bought: would the file take this reservation?
        _check_write_target(ctx, target, offering)
    if not confirmed(
        ctx,
        offering,
        f"buy {what}",
        f"not bought: {what}. Capacity Blocks are paid upfront and cannot be cancelled",
        lambda: cb.purchase(aws, offering, dry_run=True, tags={"created-by": "llmops"}),
    ):
        return ExitCode.OK
    # Sent once; a lost answer is looked up (bought, or UNKNOWN: ops_cli/purchase_outcome.py).
    reservation = cb.purchase(
        aws, offering, dry_run=False, tags={"created-by": "llmops"}, say=ctx.note
    )
    summary = cb.reservation_summary(reservation)
    reservation_id = summary["reservation_id"]
    # The id is shown now, before anything else can fail: with --json the one JSON document comes at the end.
    bought = f"Bought {what}.\nReservation {reservation_id} is {summary['state']}."
    if args.json:
        ctx.say(f"bought: reservation {reservation_id}", ctx.rt.stderr)
    else:
        ctx.say(bought)
    if target is None:
        if args.json:
            emit_json(summary, ctx.rt.stdout)
        return ExitCode.OK
    try:
        path = update_environment_file(
            ctx.config_dir,
            target,
            {
                "capacity.capacity_reservation_id": reservation_id,
                "capacity.availability_zone": summary["availability_zone"],
            },
        )
    except (Exception, KeyboardInterrupt) as error:  # noqa: BLE001 - whatever it was, the purchase must be reported
        problem = (
            error.message if isinstance(error, OpsError) else f"{type(error).__name__}: {error}"
        )
        raise OpsError(
            f"reservation {reservation_id} WAS bought ({what}), but its id and zone were not written "
            f"into --write-config {target}: {problem}",
            f"write them with: llmops capacity-blocks use {reservation_id} --env {target}  (after fixing "
            "the problem above; or set capacity.capacity_reservation_id and capacity.availability_zone "
            "by hand)",
            ExitCode.BOUGHT_NOT_WRITTEN,
            details={**summary, "bought": True, "config_written": False},
        ) from None
    if args.json:
        emit_json({**summary, "config_file": str(path)}, ctx.rt.stdout)
    else:
        ctx.rt.stdout.write(f"Wrote its id and zone into {path}.\n")
    return ExitCode.OK


def confirmed(
    ctx: Context, offering, action: str, refusal: str, dry_run: Callable[[], object]
) -> bool:
    """Whether to go on and buy ``offering``: with --dry-run, EC2's check runs (``dry_run``), its result is shown
    and nothing is bought (False); without --yes, nothing is bought either and the command fails with
    ``refusal`` (exit 3); with --yes, True."""
    if ctx.args.dry_run:
        dry_run()
        ctx.out(
            {"dry_run": True, "offering": offering.to_dict(), "would_succeed": True},
            f"Dry run passed: you may {action}. Nothing was bought.",
        )
        return False
    if not ctx.args.yes:
        raise OpsError(
            refusal, "run the same command with --yes to buy it", ExitCode.CONFIRMATION_REQUIRED
        )
    return True


def _not_bought(target: str, problem: str, fix: str) -> OpsError:
    return OpsError(
        f"nothing bought: --write-config {target} could not take this reservation: {cli_words(problem)}",
        cli_words(fix),
        ExitCode.USAGE,
    )


def _write_target(ctx: Context, target: str) -> EnvironmentConfig:
    """The --write-config environment as it is now, if it could hold a Capacity Block reservation at all."""
    problem = env_name_problem(target)
    if problem:
        raise OpsError(
            f"--write-config: {problem}",
            "name a file of the config directory without '.yaml', for example --write-config prod",
            ExitCode.USAGE,
        )
    if not (Path(ctx.config_dir) / f"{target}.yaml").is_file():
        error = missing_environment(ctx.config_dir, target)
        raise OpsError(
            error.message, error.fix.replace("--env NAME", "--write-config NAME"), ExitCode.USAGE
        )
    try:
        current = load_environment_option(ctx.config_dir, target, "--write-config")
        check_environment_file(ctx.config_dir, target, {})  # can it be edited safely at all?
    except OpsError as error:
        raise _not_bought(target, error.message, error.fix) from None
    if current.capacity is None:
        raise _not_bought(
            target,
            f"it is a platform: {current.platform.value} environment without a capacity "
            "section; Capacity Blocks serve platform: eks",
            "write into an eks environment, or leave out --write-config",
        )
    return current


def _check_write_target(ctx: Context, target: str, offering: Offering) -> None:
    """Refuse, before a purchase, a --write-config file that could not take the reservation's id and zone."""
    _write_target(ctx, target)  # again: the file may have changed while EC2 was searched
    try:  # a syntactically valid id stands in for the one the purchase will return
        config = check_environment_file(
            ctx.config_dir,
            target,
            {
                "capacity.capacity_reservation_id": cb.PROBE_RESERVATION_ID,
                "capacity.availability_zone": offering.availability_zone,
            },
        )
    except OpsError as error:
        raise _not_bought(target, error.message, error.fix) from None
    held = (offering.instance_type, offering.instance_count)
    wanted = (config.capacity.instance_type, config.capacity.instance_count)
    if held != wanted:
        raise _not_bought(
            target,
            f"the offering holds {held[1]} x {held[0]}, the environment asks for "
            f"{wanted[1]} x {wanted[0]}",
            "buy an offering that matches (--env NAME searches for the "
            "environment's type and count), or change capacity.instance_type and "
            "capacity.instance_count first",
        )


def show(ctx: Context) -> int:
    cb.check_reservation_id(ctx.args.reservation_id)
    summary = cb.reservation_summary(cb.describe_reservation(ctx.aws(), ctx.args.reservation_id))
    human = table(
        ["field", "value"],
        [
            (k, summary[k])
            for k in (
                "reservation_id",
                "state",
                "instance_type",
                "instance_count",
                "availability_zone",
            )
        ]
        + [
            ("start", utc_and_local(parse_iso(summary["start"]))),
            ("end", utc_and_local(parse_iso(summary["end"]))),
        ],
    )
    ctx.out(summary, human)
    return ExitCode.OK


def extend(ctx: Context) -> int:
    """Without --offering-id: the extension offerings of --duration-hours for the reservation, cheapest first. With
    it: the offering found again (exit 8 when gone), its fee shown, bought only with --yes (exit 3 without), or
    checked by EC2 with --dry-run. The reservation must be extendable (cb.check_extendable) before any offering is
    asked for."""
    args = ctx.args
    reservation_id = args.reservation_id
    if reservation_id is None:
        env = ctx.env
        if env is None:
            raise OpsError(
                "no reservation: name one (capacity-blocks extend cr-...) or pass --env NAME",
                "llmops capacity-blocks extend cr-0123456789abcdef0 --duration-hours 24",
                ExitCode.USAGE,
            )
        if env.capacity is None:
            raise OpsError(
                f"{env.name} has no capacity section (platform {env.platform.value})",
                "Capacity Blocks serve platform: eks",
                ExitCode.USAGE,
            )
        reservation_id = env.capacity.capacity_reservation_id
    cb.check_reservation_id(reservation_id)
    cb.check_duration(args.duration_hours)
    if args.offering_id is not None:
        cb.check_extension_offering_id(args.offering_id)
    aws = ctx.aws()
    reservation = cb.describe_reservation(aws, reservation_id)
    cb.check_extendable(reservation, ctx.rt.now())
    found = cb.find_extensions(aws, reservation_id, args.duration_hours)
    if args.offering_id is None:
        rows = [
            (
                o.offering_id,
                utc_and_local(o.start),
                utc_and_local(o.end),
                duration(o.duration_hours),
                o.instance_count,
                money(o.upfront_fee, o.currency),
            )
            for o in found
        ]
        human = (
            table(
                ["offering", "from (current end)", "to", "extension", "count", "upfront fee"], rows
            )
            if found
            else f"No extension offerings of {duration(args.duration_hours)} for "
            f"{reservation_id} (ends {utc_and_local(reservation.get('EndDate'))})."
        )
        ctx.out([o.to_dict() for o in found], human)
        return ExitCode.OK
    offering = next((o for o in found if o.offering_id == args.offering_id), None)
    if offering is None:
        raise OpsError(
            f"extension offering {args.offering_id} is no longer offered for {reservation_id} and "
            f"{args.duration_hours} h (taken, or expired)",
            "list the extension offerings again and pick a current one",
            ExitCode.OFFERING_GONE,
        )
    what = (
        f"{reservation_id} ({offering.instance_count} x {offering.instance_type}) from "
        f"{utc_and_local(offering.start)} to {utc_and_local(offering.end)}, upfront fee "
        f"{money(offering.upfront_fee, offering.currency)}"
    )
    if not confirmed(
        ctx,
        offering,
        f"extend {what}",
        f"not extended: {what}. An extension is paid upfront and cannot be cancelled",
        lambda: cb.purchase_extension(aws, offering, dry_run=True),
    ):
        return ExitCode.OK
    extension = cb.purchase_extension(aws, offering, dry_run=False, say=ctx.note)
    status = extension.get("CapacityBlockExtensionStatus", "?")
    ctx.out(
        {
            "reservation_id": reservation_id,
            "status": status,
            "offering": offering.to_dict(),
            "extension_end": iso(extension.get("CapacityBlockExtensionEndDate")),
        },
        [
            f"Extended {what}.",
            f"The extension is {status}: EC2 fails it if the payment is not processed within "
            "12 hours or 35 minutes before the current end, whichever comes first; "
            f"llmops capacity-blocks show {reservation_id} shows the new end once it is paid.",
        ],
    )
    return ExitCode.OK


def use(ctx: Context) -> int:
    cb.check_reservation_id(ctx.args.reservation_id)
    env = ctx.env
    check_environment_file(
        ctx.config_dir, env.name, {}
    )  # a file it cannot edit is refused before any call
    if env.capacity is None:
        raise OpsError(
            f"{env.name} has no capacity section (platform {env.platform.value})",
            "Capacity Blocks serve platform: eks; for HyperPod use training-plans use",
            ExitCode.USAGE,
        )
    reservation = cb.describe_reservation(ctx.aws(), ctx.args.reservation_id)
    held = (reservation.get("InstanceType"), reservation.get("TotalInstanceCount"))
    wanted = (env.capacity.instance_type, env.capacity.instance_count)
    if held != wanted:
        raise OpsError(
            f"not written: the reservation holds {held[1]} x {held[0]}, the environment asks for "
            f"{wanted[1]} x {wanted[0]}",
            "set capacity.instance_type and capacity.instance_count to match "
            "first, or use another reservation",
            ExitCode.USAGE,
        )
    path = update_environment_file(
        ctx.config_dir,
        ctx.args.env,
        {
            "capacity.capacity_reservation_id": reservation["CapacityReservationId"],
            "capacity.availability_zone": reservation["AvailabilityZone"],
        },
    )
    ctx.out(
        {"config_file": str(path), **cb.reservation_summary(reservation)},
        f"Wrote {reservation['CapacityReservationId']} ({reservation['AvailabilityZone']}) into {path}.",
    )
    return ExitCode.OK
