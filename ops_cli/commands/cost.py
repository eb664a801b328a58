"""``llmops cost``: what the environment costs per hour and for the rest of its block, with the prices' sources
(ops_cli/cost.py)."""

from __future__ import annotations

import argparse
import re

from ops_cli import block_usage
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
            "the block spent idle, and whether an extension would be used (a heuristic on the last hours' idle share).",
            [
                "llmops cost --env prod --block-fee 91540.80",
                "llmops cost --env example-hyperpod --json",
                "llmops cost --usage --env prod --block-fee 91540.80 --json",
            ],
            [
                (
                    ExitCode.OK,
                    "priced (a resource without a price is listed as such); with --usage, reported",
                ),
                (ExitCode.USAGE, "an amount that is not one, or --block-fee on HyperPod"),
                (ExitCode.NOT_FOUND, "the capacity reservation does not exist in the region"),
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
    if args.usage:
        usage = block_usage.usage_report(
            ctx.aws(), env, now=ctx.rt.now(), block_fee=fee, fee_currency=currency
        )
        ctx.out(usage.to_dict(), usage_human(usage))
        return ExitCode.OK
    report = pricing.cost_report(
        ctx.aws(),
        ctx.aws_in(args.pricing_region),
        env,
        now=ctx.rt.now(),
        block_fee=fee,
        fee_currency=currency,
    )
    ctx.out(report.to_dict(), cost_human(report))
    return ExitCode.OK
