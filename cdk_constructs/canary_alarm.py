"""``CanaryRolledBack``: ``llmops rollout --canary`` rolled a new version back (ops_cli/canary.py), so that the
environment's alarm topic says so with everyone else's alarms, not only the terminal that ran it.

llmops puts ``CanaryRollbacks`` = 1 (namespace LLMServing, dimension ClusterName, the publisher's: deployment_config/
metric_names.py) when it rolls back; the alarm fires on a Sum of 1 or more in a minute. Missing data (no canary) is not
breaching, so the alarm returns to OK the minute after, and the topic's OK notice closes it: the rollback is already
done, the alarm only tells. Only with a router (two or more replicas): a canary needs one to share clients with.
"""

from __future__ import annotations

from aws_cdk import aws_cloudwatch as cloudwatch

from cdk_constructs.serving_alarms import AlarmRule, serving_metric
from deployment_config.metric_names import CANARY_ROLLBACKS


def canary_rollback_rule(cluster_name: str, env_name: str) -> AlarmRule:
    return AlarmRule(
        "CanaryRolledBack",
        "A canary of a new version was rolled back",
        serving_metric(cluster_name, CANARY_ROLLBACKS, "Sum"),
        1,
        cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        1,
        1,
        cloudwatch.TreatMissingData.NOT_BREACHING,
        "llmops rollout --canary started the new pod template on one replica, and it failed the correctness probe or "
        "did not start within the startup budget: the canary was removed, the old version serves. Missing data (no "
        "canary) is not breaching.",
        f"Read the reason llmops rollout printed (--json: canary.reason); fix the image, revision or setting, then run "
        f"npx cdk synth -c env={env_name} and llmops rollout --env {env_name} --canary again.",
    )
