"""What the commands show people, beyond one line: the offerings, the startup phases, the cost report and where the
published figures come from. Apart from ops_cli/output.py, which draws any table, because these know the commands'
own records (ops_cli/offering.py imports output.py)."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from ops_cli.block_usage import Usage as UsageReport
from ops_cli.cost_records import BridgeCost, CostReport, PublishedFee, to_tenths
from ops_cli.offering import Offering
from ops_cli.output import Table, duration, money, table, utc_and_local
from ops_cli.plan import ROLLOUTS, Timeline
from ops_cli.price_list import PRICE_CURRENCY


def cost_human(report: CostReport) -> list:
    """The cost table, its totals and the prices' sources, in words."""
    hours = report.hours_left
    usd = PRICE_CURRENCY

    def amount(value) -> str:
        return "-" if value is None else f"{value:,.2f}" if value >= 1 else f"{value:,.4f}"

    rows = []
    for row in report.rows:
        per_hour = row.per_hour
        rest = (
            "paid"
            if row.fixed_per_hour is not None or (row.query is None and row.per_hour is None)
            else f"{per_hour * hours:,.2f}"
            if per_hour is not None and hours is not None
            else "-"
        )
        rows.append(
            (
                row.item,
                row.count,
                amount(row.price.per_hour) if row.price else "-",
                amount(per_hour),
                rest,
            )
        )
    block = report.block
    when = (
        f"ends {utc_and_local(block.end)}, {to_tenths(hours) if hours is not None else '?'} h from now"
        if block.end is not None or not report.needs_aws
        else f"its dates: needs AWS ({block.fee_source.removeprefix('needs AWS: the dates come from ')})"
    )
    lines = [
        *([f"needs AWS: {report.needs_aws}"] if report.needs_aws else []),
        f"{report.env} in {report.region}: {block.kind} {block.identifier} {when}. Amounts in {usd}.",
        table(
            [
                "item",
                "count",
                f"unit price/h ({usd})",
                f"per hour ({usd})",
                f"rest of the block ({usd})",
            ],
            rows,
        ),
    ]
    if report.needs_aws:
        lines.append(
            "Total of the hourly resources: needs AWS (their prices come from the AWS Price List Query API)."
        )
    else:
        total = f"Total of the hourly resources: {report.hourly_total:,.2f} {usd} per hour"
        if hours is not None:
            total += f", {report.hourly_total * hours:,.2f} {usd} for the rest of the block"
        lines.append(
            total + ("." if not report.missing else f"; without: {', '.join(report.missing)}.")
        )
    fee_row = report.rows[0]
    if fee_row.fixed_per_hour is not None:
        lines.append(
            f"With the block's fee spread over its hours: {report.hourly_total + fee_row.fixed_per_hour:,.2f} "
            f"{usd} per hour."
        )
    if report.published:
        lines.append(published_line(report.published, block.hours, report.needs_aws))
    if report.bridge:
        lines.append(bridge_line(report.bridge))
    lines.append("Sources:")
    lines += [f"  {row.item}: {row.note}" for row in report.rows if row.price is None and row.note]
    lines += [
        f"  {row.item}: AWS Price List Query API, SKU {row.price.sku}, effective {row.price.effective} "
        f"({row.price.description})" + (f"; {row.note}" if row.note else "")
        for row in report.rows
        if row.price
    ]
    lines.append("Usage-based, not estimated: " + "; ".join(report.usage_based) + ".")
    if report.per_gb_month:
        lines.append(
            "Per GB-month, not in the hourly totals: EBS volumes "
            + "; ".join(report.per_gb_month)
            + "."
        )
    return lines


def bridge_line(bridge: BridgeCost) -> str:
    """The bridge's window at the table's On-Demand rate, beside the totals (docs/stay-up.md)."""
    window = (
        f"{bridge.instances} x {bridge.instance_type} on-demand from {utc_and_local(bridge.start)} to "
        f"{utc_and_local(bridge.stop)}, {to_tenths(bridge.hours)} h"
    )
    rate = bridge.rate
    if rate is None:
        return f"Bridge, not in the totals: {window}; {bridge.absent}."
    return (
        f"Bridge, not in the totals: {window} x {rate.per_instance_hour:,} {PRICE_CURRENCY} per instance-hour = "
        f"{bridge.fee:,.2f} {PRICE_CURRENCY} (the On-Demand rate of the price table of {rate.read_on}; "
        f"{rate.price_list.source})."
    )


def published_line(published: PublishedFee, block_hours, needs_aws: str | None) -> str:
    """The GPU capacity at the price table's rate, beside the fee paid (ops_cli/cost_estimate.py)."""
    rate = published.rate
    if rate is None:
        return f"At the published rate: {published.absent}."
    fee = published.fee_for(block_hours)
    block = (
        f"for the block's {to_tenths(block_hours)} h: {fee:,.2f} {PRICE_CURRENCY}"
        if fee is not None
        else "for the block's hours: needs AWS"
        if needs_aws
        else "for the block's hours: unknown (EC2 gave no dates)"
    )
    return (
        f"At the published rate (from the price table of {rate.read_on}): {published.instances} x "
        f"{published.instance_type} x {rate.per_instance_hour:,} {PRICE_CURRENCY} per instance-hour = "
        f"{published.per_hour:,.2f} {PRICE_CURRENCY} per hour, {published.per_hour * 24:,.2f} {PRICE_CURRENCY} per day; {block} "
        f"(a Capacity Block's fee, at the rate of the day of purchase; {rate.price_list.source})."
    )


def phases_table(phases: list) -> Table:
    def moment(value):
        return value.strftime("%H:%M:%S") if value else "?"

    return table(
        ["phase", "from", "to", "took", "source"],
        [
            (
                p.name,
                moment(p.started),
                moment(p.finished),
                "?" if p.seconds is None else f"{int(p.seconds) // 60}m{int(p.seconds) % 60:02d}s",
                p.source,
            )
            for p in phases
        ],
    )


def offerings_table(offerings: list[Offering]) -> Table:
    rows = [
        (
            o.offering_id,
            o.availability_zone,
            utc_and_local(o.start),
            utc_and_local(o.end),
            duration(o.duration_hours),
            o.instance_count,
            money(o.upfront_fee, o.currency),
        )
        for o in offerings
    ]
    return table(["offering", "zone", "start", "end", "duration", "count", "upfront fee"], rows)


def extensions_table(offerings: list, column: str, value: Callable[[Any], object]) -> Table:
    """Extension offerings (of a Capacity Block or a training plan): each from the current end to the new one, with
    ``column`` filled by ``value(offering)``."""
    rows = [
        (
            o.offering_id,
            utc_and_local(o.start),
            utc_and_local(o.end),
            duration(o.duration_hours),
            value(o),
            money(o.upfront_fee, o.currency),
        )
        for o in offerings
    ]
    return table(["offering", "from (current end)", "to", "extension", column, "upfront fee"], rows)


def published_note(key, published) -> str:
    """Where the published column comes from, or that nothing is published for this configuration."""
    if not published:
        return (
            f"Published: no row for {key.describe()} in deployment_config/data/published/ (only published figures "
            "are listed there)."
        )
    sources = sorted({row.source for row in published.values()})
    configurations = sorted({row.configuration for row in published.values()})
    return (
        f"Published, for {key.describe()}: {'; '.join(sources)}. Configuration: {'; '.join(configurations)}. "
        f"Statistic: {', '.join(sorted({row.statistic for row in published.values()}))}."
    )


def usage_human(usage: UsageReport) -> list:
    """What the block has earned so far, each figure with its source, and the extension's verdict, in words."""
    data, block = usage.to_dict(), usage.block
    currency = block.currency or PRICE_CURRENCY

    def count(value: int) -> str:
        return f"{value:,}"

    def ratio(value: str | None) -> str:
        return "-" if value is None else f"{Decimal(value):.1%}"

    counted = [p for p in data["paid_periods"] if p["counted"]]
    shares = " + ".join(
        f"{money(p['fee'], p['fee_currency'])} x {p['hours_so_far']} / {p['hours']} h"
        for p in counted
    )
    fee = (
        f"{shares}; fee from {counted[0]['fee_source']}"
        if len(counted) == 1
        else f"{shares}: the paid periods below"
        if counted
        else f"no fee: {block.fee_source}"
    )
    if data["cost_leaves_out"]:
        fee += "; leaves out " + "; ".join(data["cost_leaves_out"])
    bridge = data["bridge"]
    per_million = f"the cost so far{' (block + bridge)' if bridge else ''} / the tokens (each figure bears the whole cost)"
    rows = [
        ("block cost so far", money(data["cost_so_far"], currency), fee),
        ("input tokens", count(data["input_tokens"]), "vllm:prompt_tokens_total (CloudWatch)"),
        (
            "output tokens",
            count(data["output_tokens"]),
            "vllm:generation_tokens_total (CloudWatch)",
        ),
        (
            "per million input tokens",
            money(data["cost_per_million_input_tokens"], currency),
            per_million,
        ),
        (
            "per million output tokens",
            money(data["cost_per_million_output_tokens"], currency),
            per_million,
        ),
        (
            "idle share",
            ratio(data["idle_share"]),
            f"{count(data['busy_minutes'])} minutes with a running request; vLLM not serving "
            f"{count(data['not_serving_minutes'])} minutes (counted as idle)",
        ),
    ]
    if bridge:
        rate = bridge["on_demand_per_instance_hour"]
        rows[1:1] = [
            (
                "bridge instance-hours",
                bridge["instance_hours"],
                f"BridgeInstances (CloudWatch): {bridge['instance_type']} instances running, counted each minute",
            ),
            (
                "bridge cost so far",
                money(bridge["cost_so_far"], PRICE_CURRENCY),
                f"{bridge['instance_hours']} h x {rate} {PRICE_CURRENCY} per instance-hour, On-Demand "
                f"(price table of {bridge['read_on']})"
                if rate
                else bridge["absent"],
            ),
            (
                "block + bridge cost so far",
                money(data["gpu_cost_so_far"], currency),
                "what the per-token figures bear",
            ),
        ]
    extension = data["extension"]
    return [
        f"{usage.env} in {usage.region}: {block.kind} {block.identifier} from {utc_and_local(block.start)} to "
        f"{utc_and_local(block.end)}"
        + (
            f", the bridge from {utc_and_local(usage.bridge.start)} to {utc_and_local(usage.bridge.stop)}"
            if usage.bridge
            else ""
        )
        + f", {data['block']['hours_so_far']} h so far.",
        table(["figure", "value", "source"], rows),
        "Paid periods (each fee spread over its own hours; a gap between blocks is in none):",
        table(
            ["kind", "id", "start", "end", "fee", "fee source"],
            [
                (
                    p["kind"],
                    p["id"],
                    utc_and_local(period.start),
                    utc_and_local(period.end),
                    money(p["fee"], p["fee_currency"]),
                    p["fee_source"],
                )
                for p, period in zip(data["paid_periods"], usage.periods)
            ],
        ),
        f"Extension: {extension['verdict']}: {extension['reason']}.",
        f"How this is judged: {extension['method']}.",
    ]


def plan_human(plan: Timeline) -> list:
    """``llmops plan``: the timeline as a table (times in UTC), then each cost's basis, what needs AWS, warnings."""

    def at(moment) -> str:
        return "?" if moment is None else moment.strftime("%Y-%m-%d %H:%M")

    rows = [
        (
            p.kind,
            at(p.start),
            at(p.end),
            "?"
            if p.start is None
            else "-"
            if p.start == p.end
            else f"{p.hours_in(plan.now, plan.until):,.1f}",
            p.serves,
            "-" if p.per_hour is None else f"{p.cost_in(plan.now, plan.until):,.2f}",
            p.what,
        )
        for p in plan.periods
    ]
    lines = [
        *([plan.needs_aws] if plan.needs_aws else []),
        f"{plan.env}: {at(plan.now)} to {at(plan.until)} UTC. Amounts in USD, for the part inside the window.",
        table(["kind", "from (UTC)", "to (UTC)", "hours", "serves", "cost", "what"], rows),
        f"Total in the window: {plan.total:,.2f} USD.",
        "Cost basis:",
        *(
            f"  {p.kind} {at(p.start)}: {p.basis}"
            for p in plan.periods
            if p.basis and p.kind != "gap"
        ),
        ROLLOUTS.format(env=plan.env),
    ]
    return lines + [f"warning: {w}" for w in plan.warnings]
