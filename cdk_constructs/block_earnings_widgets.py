"""The dashboard's "What the block earns" row: tokens served, cost per million input and output tokens, and the share
of the minutes idle, over the dashboard's time range (set it to the block, its start to now; ``llmops cost --usage``
gives the same figures for the block so far without choosing a range).

Every figure is CloudWatch metric math over what the serving metrics publisher puts once a minute
(cdk_constructs/serving_metrics/published.py), each metric's statistic taken over the whole time range
(``setPeriodToTimeRange``):

- tokens: ``PromptTokensPerSecond`` and ``GenerationTokensPerSecond`` are each minute's rate of vLLM's
  ``vllm:prompt_tokens_total`` and ``vllm:generation_tokens_total`` (a 5-minute rate); 60 x their Sum over the range is
  the tokens in it (each token falls into five windows, each counted a fifth), the last few minutes partly counted;
- cost: the Sum of ``BlockCostUsd``, each minute's share of the upfront fees paid for it (each fee x 60 s / its
  period's seconds: the block as bought, each paid extension, the next block; BLOCK_COST_USD says which), put only
  while a paid period runs and only when the block's fee is known (``observability.block_fee_usd`` on EKS, the training
  plan's UpfrontFee on HyperPod); cost per million tokens is that cost over the tokens, so each of the two figures bears the
  whole cost (they do not add up: compared with an API's price per input or output token, each is an upper bound);
- idle: 100 x (1 - minutes with a running request / minutes the publisher ran): ``ServingBusy`` (1 or 0 a minute,
  nothing while vLLM does not serve) over ``VllmTargetsUp``'s sample count (put every minute, 0 when down), so minutes
  in which vLLM did not serve count as idle: the fee is paid either way;
- with a bridge section (:data:`BRIDGE_FIGURES`): its instance-hours, the Sum of ``BridgeInstances`` (the instances
  running, put every minute) / 60, and its cost, the Sum of ``BridgeCostUsd`` (instances x the On-Demand rate / 60 a
  minute, put where the rate is known: cdk_constructs/serving_metrics/runtime/bridge.py). Its replicas serve in the same
  pool, so with the block's fee the cost per million tokens is over both: ``FILL(cost, 0) + FILL(bridgecost, 0)``, each
  0 where the range has none of it (the block's cost is not put after its end, the bridge's is 0 while it is down).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from aws_cdk import aws_cloudwatch as cloudwatch

from cdk_constructs.serving_metrics import (
    BLOCK_COST_USD,
    BRIDGE_COST_USD,
    BRIDGE_INSTANCES,
    SERVING_BUSY,
    BridgeMetering,
)
from deployment_config.metric_names import GENERATION_TOKENS_PER_SECOND, PROMPT_TOKENS_PER_SECOND

#: The figures of the row: label, metric math expression (names: see :func:`block_earnings_widgets`), and whether it
#: needs the block's fee.
FIGURES: tuple[tuple[str, str, bool], ...] = (
    ("input tokens", "60 * promptrate", False),
    ("output tokens", "60 * generationrate", False),
    ("idle share (%)", "100 * (1 - busy / minutes)", False),
    ("block cost (USD)", "cost", True),
    ("USD per million input tokens", "1000000 * cost / (60 * promptrate)", True),
    ("USD per million output tokens", "1000000 * cost / (60 * generationrate)", True),
)
#: The cost of the block and the bridge together, where both are priced: what the cost per million tokens is over.
BLOCK_AND_BRIDGE = "(FILL(cost, 0) + FILL(bridgecost, 0))"
#: With a bridge section: label, expression, and whether it needs the bridge's On-Demand rate.
BRIDGE_FIGURES: tuple[tuple[str, str, bool], ...] = (
    ("bridge instance-hours", "bridgeminutes / 60", False),
    ("bridge cost (USD)", "bridgecost", True),
)


def block_earnings_widgets(
    metric: Callable[..., cloudwatch.Metric],
    *,
    block_cost: bool,
    bridge: BridgeMetering | None = None,
    width: int = 24,
) -> list[cloudwatch.IWidget]:
    """The row's widgets. ``metric(name, statistic, label)`` is a publisher metric of the environment; with
    ``block_cost`` False (EKS without ``observability.block_fee_usd``) the cost figures are replaced by a text that
    says how to get them: no price is invented. With ``bridge``, its figures (:data:`BRIDGE_FIGURES`) too, and the
    cost per million tokens over the block and the bridge where both are priced."""
    bridge_cost = bridge is not None and bridge.per_instance_hour_usd is not None
    inputs = {
        "promptrate": metric(PROMPT_TOKENS_PER_SECOND, "Sum", "prompt token rates, summed"),
        "generationrate": metric(
            GENERATION_TOKENS_PER_SECOND, "Sum", "generation token rates, summed"
        ),
        "busy": metric(SERVING_BUSY, "Sum", "minutes with a running request"),
        "minutes": metric("VllmTargetsUp", "SampleCount", "minutes measured"),
    }
    if block_cost:
        inputs["cost"] = metric(BLOCK_COST_USD, "Sum", "block cost")
    rows = [
        (label, expression)
        for label, expression, needs_fee in FIGURES
        if block_cost or not needs_fee
    ]
    if bridge:
        inputs["bridgeminutes"] = metric(BRIDGE_INSTANCES, "Sum", "bridge instance-minutes")
        if bridge_cost:
            inputs["bridgecost"] = metric(BRIDGE_COST_USD, "Sum", "bridge cost")
        rows += [
            (label, e) for label, e, needs_rate in BRIDGE_FIGURES if bridge_cost or not needs_rate
        ]
        if block_cost and bridge_cost:
            # the per-token figures bear both costs: the bridge's replicas serve in the same pool
            rows = [(label, e.replace("cost /", f"{BLOCK_AND_BRIDGE} /")) for label, e in rows]
            rows.append(("block + bridge cost (USD)", BLOCK_AND_BRIDGE))
    figures = [
        cloudwatch.MathExpression(
            expression=expression,
            using_metrics={k: v for k, v in inputs.items() if re.search(rf"\b{k}\b", expression)},
            label=label,
        )
        for label, expression in rows
    ]
    widgets: list[cloudwatch.IWidget] = [
        cloudwatch.SingleValueWidget(
            title="What the block earns, over the dashboard's time range (set it to the block)",
            metrics=figures,
            set_period_to_time_range=True,
            width=width if block_cost else width * 2 // 3,
            height=4,
        )
    ]
    if not block_cost:
        widgets.append(
            cloudwatch.TextWidget(
                markdown="**Cost per million tokens**: EC2 does not return a Capacity Block's fee after the "
                "purchase. Write it as `observability.block_fee_usd` (what `llmops capacity-blocks purchase` "
                "printed) and deploy, or run `llmops cost --usage --block-fee AMOUNT`.",
                width=width // 3,
                height=4,
            )
        )
    return widgets
