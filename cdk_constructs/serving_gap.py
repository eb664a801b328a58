"""``ServingGap``: a gap between two Capacity Blocks is announced by an alarm before it happens (issue 24).

With ``capacity.next_capacity_reservation_id`` the serving metrics publisher puts ``ServingGapMinutes`` every minute:
the minutes in which, as planned, neither block serves, from the scale-down of the block that starts first (EKS scales
its node group to 0 forty minutes before its end: deployment_config/gpu_nodes.py) to the other block's replicas being
ready (its start + the cold start). It is the timeline of ``llmops handover`` (ops_cli/handover.py): the same
scale-down, the same cold start (the startup probe's budget, ``EnvironmentConfig.pod_startup_budget``, computed here at
synth time and passed in the event), the same choice of which block is first (the one that starts first, whichever slot
holds it). tests/ops_cli/test_serving_gap_agreement.py holds the metric and the command's plan equal.

The rules (cdk_constructs/serving_metrics/runtime/handler.py, serving_gap_minutes, is where they are computed):

- 0 when the overlap covers the cold start; the shortfall when the next block starts too late for it ("not in time" in
  ``llmops handover``), the whole time from the scale-down on when it starts after it ("gap");
- 0 once the first block has ended: the handover is past, and the endpoint's own alarms watch what followed;
- a next block that will never serve (cancelled, failed, expired, unsupported, payment-failed: ``llmops handover``
  refuses it) leaves the endpoint down from the scale-down with no end: the minutes it was to serve after the
  scale-down are put, so the alarm fires at once, days ahead when the block was bought early, rather than at
  ``CapacityEndingSoon``'s two hours;
- unknown (EC2 does not answer, or does not return both blocks with their dates): nothing is put, and the alarm keeps
  its state (missing data ``ignore``). A read that fails for a minute must neither raise nor clear an announcement
  about a day to come; a reservation id EC2 does not know is refused by ``llmops preflight`` and ``llmops handover``
  (not found), and a dead publisher is the healthy-target alarm's, which treats missing data as breaching.

The alarm fires on the first value above 0 (1 of 1 minute): the value is a plan, not a noisy measurement, and each
minute of notice is a minute to extend the block or buy another.
"""

from __future__ import annotations

from aws_cdk import aws_cloudwatch as cloudwatch

from cdk_constructs.serving_alarms import AlarmRule, serving_metric
from cdk_constructs.serving_metrics import SERVING_GAP_MINUTES, ServingGapPlan
from deployment_config.model import EnvironmentConfig


def serving_gap_plan(env: EnvironmentConfig) -> ServingGapPlan | None:
    """The gap's plan of an EKS environment with a next Capacity Block; None otherwise (no alarm, no metric)."""
    capacity = env.capacity
    if capacity is None or not capacity.next_capacity_reservation_id:
        return None
    # ops_cli/handover.py, handover_plan: cold_start = the startup probe's budget, the same property.
    return ServingGapPlan(env.pod_startup_budget.probe_seconds)


def serving_gap_rule(
    cluster_name: str, env_name: str, region: str, plan: ServingGapPlan
) -> AlarmRule:
    """``ServingGap``: ``ServingGapMinutes`` above 0 in one minute. Missing data keeps the state (module docstring)."""
    cold = f"{plan.cold_start_seconds / 60:g} min"
    return AlarmRule(
        "ServingGap",
        "Neither Capacity Block will serve for a while",
        serving_metric(cluster_name, SERVING_GAP_MINUTES, "Maximum"),
        0,
        cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        1,
        1,
        cloudwatch.TreatMissingData.IGNORE,
        "As planned, no block serves for ServingGapMinutes minutes between the two: from the first block's "
        f"scale-down ({plan.scale_down_minutes} min before its end) until the next block's replicas are ready (its "
        f"start + the {cold} cold start), or the block that starts later will never serve (cancelled, "
        "failed, expired, payment failed). 0 once the first block has ended. Missing data keeps the state.",
        f"bin/llmops handover --env {env_name} shows the plan. Extend the block that ends first "
        f"(bin/llmops capacity-blocks extend cr-... --duration-hours 24 --region {region}), or buy a next block that "
        f"starts at least {cold} before that scale-down (bin/llmops capacity-blocks offerings --env {env_name}) "
        "and name it in capacity.next_capacity_reservation_id.",
    )
