"""``llmops capacity-blocks purchase``: buy a Capacity Block offering, shown with its fee and bought only with --yes;
with --write-config, the reservation's id and zone go into an environment file, which is checked before anything is
bought (ops_cli/capacity_blocks.py). ``confirmed`` is the --dry-run / --yes gate that ``extend`` uses too."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from deployment_config import EnvironmentConfig
from ops_cli import capacity_blocks as cb
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
from ops_cli.output import emit_json, money, utc_and_local


def register(blocks: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Adds ``purchase`` under the capacity-blocks group's subparsers (ops_cli/commands/capacity_blocks/)."""
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
