"""What a search for capacity (Capacity Block or training plan offerings) asks for: its options, and the search they
describe, with what they leave out taken from --env, then from the defaults; checked before anything is sent to AWS."""

from __future__ import annotations

import argparse
from datetime import datetime, timedelta

from deployment_config.ec2_instance_types import known_instance_types
from ops_cli import capacity_blocks as cb
from ops_cli import training_plans as tp
from ops_cli.arguments import moment, positive
from ops_cli.context import Context
from ops_cli.errors import ExitCode, OpsError, shown
from ops_cli.offering import Search

#: How far ahead a search may look. Capacity Blocks and training plans are offered weeks ahead; a date years away is
#: a typo (and dates near year 9999 cannot even be shown in local time).
MAX_DAYS_AHEAD = 366


def add_search_options(p: argparse.ArgumentParser, instance_type: str | None, hours: int) -> None:
    p.add_argument(
        "--env",
        help="take instance type, count and region from config/ENV.yaml (default: none: "
        "the defaults below)",
    )
    p.add_argument(
        "--instance-type",
        default=None,
        help=f"instance type (default: the environment's, or {instance_type})",
    )
    p.add_argument(
        "--count", type=positive, default=None, help="instances (default: the environment's, or 1)"
    )
    p.add_argument(
        "--duration-hours",
        type=positive,
        default=hours,
        help=f"length of the reservation (default: {hours})",
    )
    p.add_argument(
        "--start-after", type=moment, help="earliest start, YYYY-MM-DD[THH:MM] UTC (default: now)"
    )
    p.add_argument("--end-before", type=moment, help="latest end (default: 8 weeks from now)")


def _day(when: datetime) -> str:
    return when.strftime("%Y-%m-%d %H:%M UTC")


def _check_instance_type(instance_type: str, sagemaker: bool) -> None:
    name = instance_type[3:] if sagemaker and instance_type.startswith("ml.") else instance_type
    if sagemaker and not instance_type.startswith("ml."):
        tp.check_instance_type(instance_type)
    if not sagemaker and instance_type.startswith("ml."):
        raise OpsError(
            f"--instance-type {shown(instance_type)} is a SageMaker name; Capacity Blocks take EC2 names",
            f"drop the prefix: --instance-type {shown(instance_type[3:])[1:-1]}",
            ExitCode.USAGE,
        )
    if name not in known_instance_types():  # the EC2 model's names, as the loader checks them
        example = "ml.p6-b300.48xlarge" if sagemaker else "p6-b300.48xlarge"
        raise OpsError(
            f"--instance-type {shown(instance_type)} is not an EC2 instance type",
            f"use a name such as {example}",
            ExitCode.USAGE,
        )


def search(ctx: Context, *, sagemaker: bool) -> Search:
    """The search the arguments ask for; what they leave out comes from --env, then from the defaults. Checked
    here, so that nothing absurd is sent to AWS or shown back."""
    args, env = ctx.args, ctx.env
    # With --env, the capacity that platform uses: a HyperPod section for training plans, else the Capacity Block.
    hyperpod = env.hyperpod if env and sagemaker and env.hyperpod else None
    capacity = env.capacity if env and not hyperpod else None
    gpu_type = env.gpu_instance_type.name if env else "p6-b300.48xlarge"
    instance_type = (
        args.instance_type
        if args.instance_type is not None
        else (hyperpod.instance_type if hyperpod else f"ml.{gpu_type}" if sagemaker else gpu_type)
    )
    _check_instance_type(instance_type, sagemaker)
    reserved = hyperpod or capacity
    count = args.count or (reserved.instance_count if reserved else 1)
    most = tp.MAX_INSTANCE_COUNT if sagemaker else cb.MAX_INSTANCE_COUNT
    if count > most:
        raise OpsError(
            f"--count {count} is more than {'a training plan offering' if sagemaker else 'a Capacity Block'} "
            f"holds ({most})",
            f"use at most {most}, and reserve more in several purchases",
            ExitCode.USAGE,
        )
    if sagemaker and args.duration_hours > tp.MAX_DURATION_HOURS:
        raise OpsError(
            f"--duration-hours {args.duration_hours} is longer than a training plan "
            f"({tp.MAX_DURATION_HOURS} h)",
            f"use at most {tp.MAX_DURATION_HOURS}",
            ExitCode.USAGE,
        )
    now = ctx.rt.now()
    start, end = cb.default_window(now)
    # An earliest start in the past means "from now": AWS searches only ahead.
    start, end = max(args.start_after or start, now), args.end_before or end
    horizon = now + timedelta(days=MAX_DAYS_AHEAD)
    for option, when in (("--start-after", args.start_after), ("--end-before", args.end_before)):
        if when is not None and when > horizon:
            raise OpsError(
                f"{option} {_day(when)} is more than {MAX_DAYS_AHEAD} days ahead; AWS offers capacity "
                "weeks ahead, not years",
                f"pick a date before {_day(horizon)}",
                ExitCode.USAGE,
            )
    if end <= now:
        raise OpsError(
            f"--end-before {_day(end)} is in the past", "pick a date after today", ExitCode.USAGE
        )
    if end <= start:
        since = (
            f"--start-after {_day(start)}"
            if args.start_after and start > now
            else f"now ({_day(now)})"
        )
        raise OpsError(
            f"--end-before {_day(end)} is not after {since}", "widen the date range", ExitCode.USAGE
        )
    if end - start < timedelta(hours=args.duration_hours):
        raise OpsError(
            f"from {_day(start)} to {_day(end)} there is less time than --duration-hours "
            f"{args.duration_hours}",
            "widen the date range or shorten the duration",
            ExitCode.USAGE,
        )
    return Search(instance_type, count, args.duration_hours, start, end)
