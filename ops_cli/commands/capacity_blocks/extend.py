"""``llmops capacity-blocks extend``: list a reservation's extension offerings, or buy one, shown with its fee and
bought only with --yes (ops_cli/capacity_block_extensions.py)."""

from __future__ import annotations

import argparse

from ops_cli import capacity_block_extensions as extensions
from ops_cli import capacity_blocks as cb
from ops_cli.arguments import positive
from ops_cli.command_help import command_help
from ops_cli.commands.capacity_blocks.purchase import confirmed
from ops_cli.context import Context
from ops_cli.errors import ExitCode, OpsError
from ops_cli.output import duration, iso, money, utc_and_local
from ops_cli.tables import extensions_table


def register(blocks: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Adds ``extend`` under the capacity-blocks group's subparsers (ops_cli/commands/capacity_blocks/)."""
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


def extend(ctx: Context) -> int:
    """Without --offering-id: the extension offerings of --duration-hours for the reservation, cheapest first. With
    it: the offering found again (exit 8 when gone), its fee shown, bought only with --yes (exit 3 without), or
    checked by EC2 with --dry-run. The reservation must be extendable (extensions.check_extendable) before any offering is
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
        extensions.check_extension_offering_id(args.offering_id)
    aws = ctx.aws()
    reservation = cb.describe_reservation(aws, reservation_id)
    extensions.check_extendable(reservation, ctx.rt.now())
    found = extensions.find_extensions(aws, reservation_id, args.duration_hours)
    if args.offering_id is None:
        human = (
            extensions_table(found, "count", lambda o: o.instance_count)
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
        lambda: extensions.purchase_extension(aws, offering, dry_run=True),
    ):
        return ExitCode.OK
    extension = extensions.purchase_extension(aws, offering, dry_run=False, say=ctx.note)
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
