"""``RouterErrorRateHigh``: the share of requests the router in front of two or more vLLM replicas fails.

vLLM's ``ErrorRateHigh`` counts the 5xx answers of the vLLM servers; a request the router fails itself (no worker
available, every retry used up: vllm-router 0.1.17 ``src/routers/http/router.rs``, as
cdk_constructs/serving_metrics/published.py ``ROUTER_PUBLISHED`` reads it) never reaches one, so only the router's own
counters see it. The alarm is metric math on the two router rates the publisher already puts, so it adds no query:
100 x failed / (failed + succeeded) per minute; a minute without requests divides by zero, which CloudWatch's metric
math leaves out, and missing data is not breaching, as for ``ErrorRateHigh``. CloudWatch user guide, "Using metric
math", basic arithmetic functions: "Missing values in a time series are treated as 0. If the value of a data point
causes a function to attempt to divide by zero, the data point is dropped"
(https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/using-metric-math.html; awsdocs/amazon-cloudwatch-user-
guide@20a560c doc_source/using-metric-math.md). So failures while the succeeded rate is not put yet (no request has
succeeded since the router started: its counter has no series) read 100 %, not nothing.
"""

from __future__ import annotations

import aws_cdk as cdk
from aws_cdk import aws_cloudwatch as cloudwatch

from cdk_constructs.serving_alarms import AlarmRule, serving_metric
from deployment_config.model import ObservabilityConfig


def router_error_rule(cluster_name: str, observability: ObservabilityConfig) -> AlarmRule:
    """The rule, on ``observability.error_rate_percent`` with ErrorRateHigh's 3 of 5 minutes."""
    share = cloudwatch.MathExpression(
        expression="100 * failed / (failed + succeeded)",
        using_metrics={
            "failed": serving_metric(cluster_name, "RouterRequestsFailedPerSecond"),
            "succeeded": serving_metric(cluster_name, "RouterRequestsSucceededPerSecond"),
        },
        period=cdk.Duration.minutes(1),
        label="RouterFailedPercent",
    )
    return AlarmRule(
        "RouterErrorRateHigh",
        "The router fails requests above the threshold",
        share,
        observability.error_rate_percent,
        cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        5,
        3,
        cloudwatch.TreatMissingData.NOT_BREACHING,
        f"At least {observability.error_rate_percent} % of the requests through the router failed there (an error it "
        "answered, or every retry used up) in 3 of the last 5 minutes. No requests, no share: missing data is not "
        "breaching.",
        "Look at the dashboard's router row: no worker receiving means the router sees no ready vLLM pod (kubectl -n "
        "llm-serving get pods,endpointslices); vLLM's own errors show in ErrorRateHigh. Restart the router "
        "(kubectl -n llm-serving rollout restart deployment/vllm-router) if its workers are ready but it fails.",
    )
