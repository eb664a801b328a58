"""The bridge's hours and cost in the serving metrics (the bridge section, docs/stay-up.md): the publisher counts the
bridge node group's running instances every minute and prices them at the On-Demand rate (stubbed EC2 answers, checked
against botocore's models), may call DescribeInstances only with a bridge, and the dashboard's earnings row shows the
bridge's instance-hours and cost with the cost per million tokens over the block and the bridge. The constructs are
synthesized in stacks of their own: no app synthesis."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from botocore.stub import ANY

from cdk_constructs.serving_metrics import (
    BLOCK_COST_USD,
    BRIDGE_COST_USD,
    BRIDGE_INSTANCES,
    NAMESPACE,
    BridgeMetering,
    bridge_metering,
)
from cdk_constructs.serving_metrics.runtime import handler
from deployment_config import load_environment
from tests.cdk_constructs import test_observability as observed
from tests.cdk_constructs.test_observability import _earnings, _event
from tests.conftest import bare_app

#: test_observability.py's stubbed cloudwatch, elbv2, ec2 and sagemaker clients.
clients = observed.clients

#: tests/configs/bridge.yaml's block ends 2026-12-06 11:30 UTC; now is two hours later, the bridge serving on.
BLOCK_END = datetime(2026, 12, 6, 11, 30, tzinfo=UTC)
NOW = datetime(2026, 12, 6, 13, 30, tzinfo=UTC)
#: The table's On-Demand rate of p6-b300.48xlarge in us-west-2 (deployment_config/data/gpu_prices.json).
RATE = 142.416
BRIDGE_FILTERS = [
    {"Name": "tag:eks:cluster-name", "Values": ["example-llm"]},
    {"Name": "tag:eks:nodegroup-name", "Values": ["gpu-bridge"]},
]


def bridge_instances() -> dict:
    """The two bridge instances as DescribeInstances answers: the first started at the bridge's start (08:22) and was
    replaced at 11:22 (terminated, still listed), the second started at 11:00 and still runs."""
    return {
        "Reservations": [
            {
                "Instances": [
                    {
                        "InstanceId": "i-0aaaaaaaaaaaaaaa1",
                        "InstanceType": "p6-b300.48xlarge",
                        "LaunchTime": datetime(2026, 12, 6, 8, 22, tzinfo=UTC),
                        "State": {"Code": 48, "Name": "terminated"},
                    },
                    {
                        "InstanceId": "i-0bbbbbbbbbbbbbbb2",
                        "InstanceType": "p6-b300.48xlarge",
                        "LaunchTime": datetime(2026, 12, 6, 11, 0, tzinfo=UTC),
                        "State": {"Code": 16, "Name": "running"},
                    },
                ]
            }
        ]
    }


def _ended_block(clients) -> None:
    clients["elbv2"].add_response("describe_load_balancers", {"LoadBalancers": []})
    clients["ec2"].add_response(
        "describe_capacity_reservations",
        {
            "CapacityReservations": [
                {
                    "CapacityReservationId": "cr-0123456789abcdef0",
                    "State": "expired",
                    "StartDate": datetime(2026, 12, 5, 1, 30, tzinfo=UTC),
                    "EndDate": BLOCK_END,
                }
            ]
        },
        {"CapacityReservationIds": ["cr-0123456789abcdef0"]},
    )


def _publish(clients, event: dict) -> dict[str, float]:
    put = handler.publish(
        event,
        now=NOW.timestamp(),
        query=None,
        cloudwatch=clients["cloudwatch"].client,
        elbv2=clients["elbv2"].client,
        ec2=clients["ec2"].client,
        sagemaker=clients["sagemaker"].client,
    )
    return {d["MetricName"]: d["Value"] for d in put}


def _with_bridge(rate: float | None = RATE) -> dict:
    return {**_event([]), "bridge": BridgeMetering(rate).as_event()}


def test_each_minute_puts_the_bridge_instances_running_and_their_cost_at_the_on_demand_rate(
    clients,
):
    # given the block ended two hours ago, and two bridge instances: one replaced (terminated), one running
    _ended_block(clients)
    clients["ec2"].add_response(
        "describe_instances", bridge_instances(), {"Filters": BRIDGE_FILTERS}
    )
    clients["cloudwatch"].add_response(
        "put_metric_data", {}, {"Namespace": NAMESPACE, "MetricData": ANY}
    )
    # when the publisher runs with the bridge in its event
    put = _publish(clients, _with_bridge())
    # then the running one is counted (a terminated instance is not billed), and its minute at the table's rate
    assert put[BRIDGE_INSTANCES] == 1.0
    assert put[BRIDGE_COST_USD] == pytest.approx(RATE / 60)
    assert BLOCK_COST_USD not in put  # after the block, its fee costs nothing more


def test_without_a_rate_the_instances_are_put_and_no_cost_is_made_up(clients):
    _ended_block(clients)
    clients["ec2"].add_response(
        "describe_instances", bridge_instances(), {"Filters": BRIDGE_FILTERS}
    )
    clients["cloudwatch"].add_response(
        "put_metric_data", {}, {"Namespace": NAMESPACE, "MetricData": ANY}
    )
    put = _publish(clients, _with_bridge(rate=None))
    assert put[BRIDGE_INSTANCES] == 1.0 and BRIDGE_COST_USD not in put


def test_when_ec2_refuses_describe_instances_nothing_is_put_for_the_bridge_and_the_rest_is(clients):
    # a minute not read puts nothing, not 0: the bridge's hours are short by it, not made up
    _ended_block(clients)
    clients["ec2"].add_client_error("describe_instances", "UnauthorizedOperation", "not allowed")
    clients["cloudwatch"].add_response(
        "put_metric_data", {}, {"Namespace": NAMESPACE, "MetricData": ANY}
    )
    put = _publish(clients, _with_bridge())
    assert BRIDGE_INSTANCES not in put and BRIDGE_COST_USD not in put
    assert put["CapacityBlockHoursLeft"] == 0.0


@pytest.fixture(scope="module")
def bridge_env():
    from tests.conftest import PROJECT_DIR

    return load_environment(PROJECT_DIR / "tests" / "configs", "bridge")


def test_the_bridge_section_gives_the_publisher_the_tables_on_demand_rate(bridge_env, default_env):
    assert bridge_metering(bridge_env) == BridgeMetering(RATE, "gpu-bridge")
    assert bridge_metering(default_env) is None


def _publisher_template(bridge: BridgeMetering | None) -> dict:
    import aws_cdk as cdk

    from cdk_constructs.serving_metrics import ServingMetricsPublisher

    app = bare_app()
    stack = cdk.Stack(app, "Observability")
    ServingMetricsPublisher(
        stack,
        "Metrics",
        cluster_name="example-llm",
        prometheus_endpoint="https://aps/ws/",
        workspace_arn="arn:aws:aps:us-west-2:123456789012:workspace/ws-1",
        load_balancer_tags={},
        capacity_reservation_id="cr-0123456789abcdef0",
        bridge=bridge,
    )
    return app.synth().get_stack_by_name("Observability").template


def _actions(template: dict) -> set[str]:
    return {
        action
        for resource in template["Resources"].values()
        if resource["Type"] == "AWS::IAM::Policy"
        for statement in resource["Properties"]["PolicyDocument"]["Statement"]
        for action in (
            [statement["Action"]] if isinstance(statement["Action"], str) else statement["Action"]
        )
    }


def test_the_publisher_may_describe_instances_only_with_a_bridge_and_its_event_names_it():
    with_bridge, without = _publisher_template(BridgeMetering(RATE)), _publisher_template(None)
    assert "ec2:DescribeInstances" in _actions(with_bridge)
    assert "ec2:DescribeInstances" not in _actions(without)
    (rule,) = [
        r["Properties"]
        for r in with_bridge["Resources"].values()
        if r["Type"] == "AWS::Events::Rule"
    ]
    event = json.loads(rule["Targets"][0]["Input"])
    assert event["bridge"] == {
        "nodegroupName": "gpu-bridge",
        "instancesMetric": BRIDGE_INSTANCES,
        "costMetric": BRIDGE_COST_USD,
        "perInstanceHourUsd": RATE,
        # the block's ready replicas, for the bridge's scale-down (tests/cdk_constructs/test_block_replicas.py)
        "blockReplicas": {
            "metric": "BlockReplicasReady",
            "nodegroupName": "gpu-capacity-block",
            "query": 'up{job="vllm",ready="true"} == 1',
        },
    }


def _dashboard(observability, bridge: BridgeMetering | None) -> dict:
    import aws_cdk as cdk

    from cdk_constructs.serving_dashboard import ServingDashboard, capacity_block_view

    app = bare_app()
    stack = cdk.Stack(app, "Dashboard")
    ServingDashboard(
        stack,
        "Dashboard",
        env_name="bridge",
        cluster_name="example-llm",
        region="us-west-2",
        served_name="kimi-k3",
        capacity=capacity_block_view("cr-0123456789abcdef0", "us-west-2"),
        observability=observability,
        alarms=[],
        bridge=bridge,
    )
    return app.synth().get_stack_by_name("Dashboard").template


def _figures(widget: dict) -> dict[str, str]:
    return {
        m[0]["label"]: m[0]["expression"]
        for m in widget["properties"]["metrics"]
        if isinstance(m[0], dict)
    }


def test_the_dashboard_shows_the_bridge_hours_and_cost_and_prices_tokens_over_block_and_bridge(
    bridge_env,
):
    # given a bridge with its rate and the block's fee configured
    observability = bridge_env.observability.model_copy(update={"block_fee_usd": 91540.8})
    widget, _ = _earnings(_dashboard(observability, bridge_metering(bridge_env)))
    figures = _figures(widget)
    # then the earnings row shows the bridge's instance-hours and cost, and both costs together
    assert figures["bridge instance-hours"] == "bridgeminutes / 60"
    assert figures["bridge cost (USD)"] == "bridgecost"
    both = "(FILL(cost, 0) + FILL(bridgecost, 0))"
    assert figures["block + bridge cost (USD)"] == both
    assert figures["USD per million output tokens"] == f"1000000 * {both} / (60 * generationrate)"
    read = {(m[1], m[-1]["stat"]) for m in widget["properties"]["metrics"] if m[0] == NAMESPACE}
    assert {(BRIDGE_INSTANCES, "Sum"), (BRIDGE_COST_USD, "Sum"), (BLOCK_COST_USD, "Sum")} <= read


def test_without_the_blocks_fee_the_dashboard_shows_the_bridge_alone_and_no_cost_per_token(
    bridge_env,
):
    widget, texts = _earnings(_dashboard(bridge_env.observability, bridge_metering(bridge_env)))
    figures = _figures(widget)
    assert figures["bridge cost (USD)"] == "bridgecost"
    # the per-token figures would leave the block's fee out: not shown, and the text says how to add it
    assert not any(label.startswith("USD per million") for label in figures)
    assert any("observability.block_fee_usd" in t for t in texts)


def test_without_a_bridge_the_earnings_row_is_as_before(default_env):
    widget, _ = _earnings(_dashboard(default_env.observability, None))
    assert not any("bridge" in label for label in _figures(widget))
