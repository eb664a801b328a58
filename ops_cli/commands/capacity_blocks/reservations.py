"""``llmops capacity-blocks show`` and ``use``: a reservation there is already, shown, or written into an environment
file (capacity.capacity_reservation_id and capacity.availability_zone) once it matches the environment."""

from __future__ import annotations

import argparse

from ops_cli import capacity_blocks as cb
from ops_cli.command_help import command_help
from ops_cli.config_writer import check_environment_file, update_environment_file
from ops_cli.context import Context
from ops_cli.errors import ExitCode, OpsError, unexpected_answer
from ops_cli.output import parse_iso, table, utc_and_local


def register(blocks: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Adds ``show`` and ``use`` under the capacity-blocks group's subparsers (ops_cli/commands/capacity_blocks/)."""
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
    zone = reservation.get("AvailabilityZone")
    if not isinstance(zone, str) or not zone:
        raise unexpected_answer(
            f"not written: EC2's answer about {ctx.args.reservation_id} names no availability zone"
        )
    rid = ctx.args.reservation_id  # the one EC2 answered for (cb.describe_reservation checks)
    path = update_environment_file(
        ctx.config_dir,
        ctx.args.env,
        {"capacity.capacity_reservation_id": rid, "capacity.availability_zone": zone},
    )
    ctx.out(
        {"config_file": str(path), **cb.reservation_summary(reservation)},
        f"Wrote {rid} ({zone}) into {path}.",
    )
    return ExitCode.OK
