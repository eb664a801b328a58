"""``llmops cost``: what the environment costs per hour and for the rest of its block, with the prices' sources
(ops_cli/cost.py)."""

from __future__ import annotations

import argparse
import re

from deployment_config.model import Platform
from ops_cli import block_usage, cost_estimate
from ops_cli import cost as pricing
from ops_cli.command_help import command_help
from ops_cli.context import Context
from ops_cli.errors import ExitCode, OpsError, shown
from ops_cli.price_list import PRICING_REGIONS
from ops_cli.tables import cost_human, usage_human


def register(groups: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = groups.add_parser(
        "cost",
        help="what the environment costs per hour and for the rest of its block, with the "
        "prices' sources (AWS Price List Query API)",
        parents=[common],
        **command_help(
            "Price what an environment runs per hour and for the rest of its Capacity Block or training plan, from the "
            "AWS Price List Query API, with each price's source; usage-based charges are named, not estimated. With "
            "--usage: what the block has earned so far instead - its fee over the hours gone, the tokens vLLM served "
            "(CloudWatch, from the serving metrics publisher), cost per million input and output tokens, the share of "
            "the block spent idle, and whether an extension would be used (a heuristic on the last hours' idle share). "
            "Without AWS credentials it prints what it knows offline: the counts, and the GPU capacity at the published "
            "rate of the vendored price table (its date and source named), 'needs AWS' on the rest. With --estimate "
            "--tokens-per-second N: the cost per million tokens and per GPU-hour at that throughput, from the table.",
            [
                "llmops cost --env example",
                "llmops cost --estimate --tokens-per-second 1500 --env example",
                "llmops cost --usage --env prod --block-fee 91540.80 --json",
            ],
            [
                (
                    ExitCode.OK,
                    "priced (a resource without a price is listed as such); with --usage, reported",
                ),
                (
                    ExitCode.USAGE,
                    "an amount or a throughput that is not one, or --block-fee on HyperPod",
                ),
                (
                    ExitCode.NOT_FOUND,
                    "the capacity reservation does not exist in the region; with --estimate, "
                    "no published rate in the table for the type and region",
                ),
            ],
        ),
    )
    p.add_argument("--env", required=True, help="the environment to count and price")
    p.add_argument(
        "--block-fee",
        metavar="AMOUNT",
        help="EKS: the Capacity Block's upfront fee that 'capacity-blocks "
        "purchase' printed (EC2 does not return it later), written without thousands separators: 91540.80 "
        "for '91,540.80 USD'; HyperPod reads the training plan's (default: observability.block_fee_usd, else none: the fee is "
        "shown as unknown)",
    )
    p.add_argument(
        "--usage",
        action="store_true",
        help="what the block has earned so far: tokens served, cost per million input and output tokens, idle "
        "share, and whether an extension would be used (the fees: --block-fee, else observability.block_fee_usd, "
        "for the block as bought; each paid extension's from EC2; observability.next_block_fee_usd for the next "
        "block; HyperPod: the training plan's)",
    )
    p.add_argument(
        "--estimate",
        action="store_true",
        help="offline: the cost per million tokens and per GPU-hour at --tokens-per-second, from the published "
        "Capacity Block rate of the price table (deployment_config/data/gpu_prices.json)",
    )
    p.add_argument(
        "--tokens-per-second",
        metavar="N",
        help="with --estimate: the environment's output throughput, tokens per second across its instances "
        "(for example what llmops bench measured), digits with an optional decimal part (no default: required with --estimate)",
    )
    p.add_argument("--currency", default="USD", help="the currency of --block-fee (default: USD)")
    p.add_argument(
        "--pricing-region",
        choices=PRICING_REGIONS,
        default=PRICING_REGIONS[0],
        help="the Price List Query API endpoint to ask (default: us-east-1; prices are for the environment's "
        "region either way)",
    )
    p.set_defaults(handler=cost)


def cost(ctx: Context) -> int:
    """The environment's billable resources, priced per hour and for the rest of its block (ops_cli/cost.py)."""
    args, env = ctx.args, ctx.env
    fee = pricing.parse_block_fee(args.block_fee) if args.block_fee is not None else None
    currency = args.currency.strip().upper()
    if not re.fullmatch(r"[A-Z]{3}", currency):
        raise OpsError(
            f"--currency {shown(args.currency)} is not a currency code",
            "use a three-letter code, for example USD",
            ExitCode.USAGE,
        )
    if args.estimate or args.tokens_per_second is not None:
        return estimate(ctx)
    if args.usage:
        usage = block_usage.usage_report(
            ctx.aws(), env, now=ctx.rt.now(), block_fee=fee, fee_currency=currency
        )
        ctx.out(usage.to_dict(), usage_human(usage))
        return ExitCode.OK
    try:
        report = pricing.cost_report(
            ctx.aws(),
            ctx.aws_in(args.pricing_region),
            env,
            now=ctx.rt.now(),
            block_fee=fee,
            fee_currency=currency,
        )
    except OpsError as error:
        if error.exit_code != ExitCode.CREDENTIALS:
            raise
        # what the configuration and the price table say is printed all the same; the rest says "needs AWS"
        report = pricing.offline_report(
            env,
            now=ctx.rt.now(),
            why=f"{error.message} ({error.fix})",
            block_fee=fee,
            fee_currency=currency,
        )
    ctx.out(report.to_dict(), cost_human(report))
    return ExitCode.OK


def estimate(ctx: Context) -> int:
    """--estimate --tokens-per-second N: the cost per million tokens at N, from the published rate (offline)."""
    args = ctx.args
    if not args.estimate:
        raise OpsError(
            "--tokens-per-second is for --estimate",
            f"add --estimate: llmops cost --estimate --tokens-per-second {args.tokens_per_second} --env {args.env}",
            ExitCode.USAGE,
        )
    if args.tokens_per_second is None:
        raise OpsError(
            "--estimate needs the throughput to price",
            f"add --tokens-per-second N, for example: llmops cost --estimate --tokens-per-second 1500 --env {args.env}",
            ExitCode.USAGE,
        )
    if args.usage or args.block_fee is not None:
        raise OpsError(
            "--estimate prices a throughput at the published rate; --usage and --block-fee are for the block itself",
            "leave out --usage and --block-fee, or --estimate",
            ExitCode.USAGE,
        )
    tokens = pricing.parse_amount(
        args.tokens_per_second, "--tokens-per-second", cost_estimate.MAX_TOKENS_PER_SECOND, "1500"
    )
    result = cost_estimate.estimate(ctx.env, tokens)
    if isinstance(result, str):
        raise OpsError(
            result,
            "price the capacity from its offering instead: llmops "
            f"{'training-plans' if ctx.env.platform is Platform.HYPERPOD else 'capacity-blocks'} offerings "
            "(column 'upfront fee')",
            ExitCode.NOT_FOUND,
        )
    ctx.out(result.to_dict(), result.lines())
    return ExitCode.OK
