"""The router's metrics on the dashboard (issue 20 item 3): where a router stands in front of two or more vLLM replicas
on EKS (charts/vllm_router.py), the publisher reads a few of the router's own series from the workspace and the
dashboard has a router row; without one, nothing of it. The names come from the router's source; that the running
router exports them is checked in tests/charts/test_vllm_router.py. One synthesis for the session (network, cluster and
observability of the example on two nodes, with cdk-nag, shared with tests/cdk_constructs/test_budget_alarm.py); the
default example's is the session's."""

from __future__ import annotations

import json
import re

import pytest
from botocore.stub import ANY

from cdk_constructs.optional_dashboard_rows import ROUTER_GRAPHS
from cdk_constructs.serving_metrics import (
    CAPACITY_BLOCK_HOURS_LEFT,
    HEALTHY_TARGETS,
    NAMESPACE,
    PROMETHEUS_SERIES,
    ROUTER_JOB,
    ROUTER_METRICS,
    ROUTER_PUBLISHED,
)
from cdk_constructs.serving_metrics.runtime import handler
from charts.serving_spec import serving_spec_for
from stacks.observability_stack import router_metrics_port
from tests.cfn_lint import cfn_lint_errors
from tests.lambda_handlers import stubbed_clients

#: Read from vllm-router 0.1.17 (the PyPI sdist vllm_router-0.1.17.tar.gz, src/metrics.rs, ``RouterMetrics``): the name
#: each metric the project reads is recorded under (``counter!``/``histogram!``), its type and its labels. The
#: exporter (metrics-exporter-prometheus) writes the names as given; ``start_prometheus`` gives every name ending in
#: ``duration_seconds`` buckets, which makes it a histogram.
ROUTER_0_1_17 = {
    "vllm_router_requests_total": ("counter", ("route",)),
    "vllm_router_request_errors_total": ("counter", ("route", "error_type")),
    "vllm_router_retries_exhausted_total": ("counter", ("route",)),
    "vllm_router_processed_requests_total": ("counter", ("worker",)),
    "vllm_router_prefix_routing_decisions_total": ("counter", ("policy", "stage", "outcome")),
    "vllm_router_generate_duration_seconds": ("histogram", ()),
}


def test_the_project_lists_the_routers_metrics_by_the_names_vllm_router_0_1_17_records():
    assert {name: (s.type, s.labels) for name, s in ROUTER_METRICS.items()} == ROUTER_0_1_17


def test_every_router_query_reads_listed_router_series_of_the_router_job():
    for metric in ROUTER_PUBLISHED.values():
        assert metric.name.startswith("Router"), metric.name
        for series in metric.series:
            assert series in PROMETHEUS_SERIES, (metric.name, series)
        names = re.findall(r"vllm_router_[a-z_]+", metric.query)
        for name in names:
            base = name.removesuffix("_bucket")
            assert base in ROUTER_METRICS and base in metric.series, (metric.name, name)
            assert name == base or ROUTER_METRICS[base].type == "histogram", name
        # every selector reads the router's scrape job, never vLLM's
        selectors = re.findall(r"\{([^}]*)\}", metric.query)
        assert selectors and all(f'job="{ROUTER_JOB}"' in s for s in selectors), metric.query


def _counted(query: str, samples: list[tuple[str, dict, int]]) -> int:
    """What a sum of ``sum(rate(SERIES{MATCHERS}[w])) or vector(0)`` terms counts of ``samples`` (series, labels,
    increase): each sample counted once per term whose selector matches it (PromQL's =, !=, =~, !~, anchored)."""
    total = 0
    for series, matchers in re.findall(r"rate\((\w+)\{([^}]*)\}", query):
        pairs = re.findall(r'(\w+)(=~|!~|!=|=)"([^"]*)"', matchers)
        for name, labels, increase in samples:
            ok = name == series and all(
                {
                    "=": labels.get(k, "") == v,
                    "!=": labels.get(k, "") != v,
                    "=~": re.fullmatch(v, labels.get(k, "")) is not None,
                    "!~": re.fullmatch(v, labels.get(k, "")) is None,
                }[op]
                for k, op, v in pairs
            )
            total += increase if ok else 0
    return total


@pytest.mark.parametrize(
    ("samples", "failed", "what"),
    [
        (
            [
                (
                    "errors",
                    {"route": "/v1/chat/completions", "error_type": "no_available_workers"},
                    5,
                ),
                ("exhausted", {"route": "/v1/chat/completions"}, 1),
            ],
            1,
            "a chat request that found no worker on each of its 5 attempts (the router's default retries)",
        ),
        (
            [
                (
                    "errors",
                    {"route": "/v1/chat/completions", "error_type": "no_available_workers"},
                    1,
                ),
                ("ok", {"route": "/v1/chat/completions"}, 1),
            ],
            0,
            "a chat request that found no worker, then one on its retry, and succeeded",
        ),
        (
            [("errors", {"route": "/v1/responses", "error_type": "no_available_workers"}, 1)],
            1,
            "a /v1/responses request with no worker (route_transparent: not retried)",
        ),
        (
            [("errors", {"route": "/v1/chat/completions", "error_type": "non_retryable_error"}, 1)],
            1,
            "a chat request a worker refused with a 4xx",
        ),
    ],
)
def test_the_failed_rate_counts_each_failed_request_once(samples, failed, what):
    # given the counters vllm-router 0.1.17 increments for one request (src/routers/http/router.rs)
    names = {
        "errors": "vllm_router_request_errors_total",
        "exhausted": "vllm_router_retries_exhausted_total",
        "ok": "vllm_router_requests_total",
    }
    job = {"job": ROUTER_JOB}
    samples = [(names[n], {**labels, **job}, k) for n, labels, k in samples]
    # then the failed rate's selectors count it once (or not at all when it succeeded)
    assert _counted(ROUTER_PUBLISHED["RouterRequestsFailedPerSecond"].query, samples) == failed, (
        what
    )


# --- the publisher ---------------------------------------------------------------------------------------------------


def _answer(*series: tuple[dict, str]) -> dict:
    return {
        "status": "success",
        "data": {
            "resultType": "vector",
            "result": [{"metric": labels, "value": [1_800_000_000.0, v]} for labels, v in series],
        },
    }


def test_the_publisher_puts_the_routers_figures_from_the_workspaces_answers():
    # given the router's queries, and AMP answers as a busy router gives them (the spread queries aggregate over the
    # worker label, so that one number comes back)
    queries = [m.as_event() for m in ROUTER_PUBLISHED.values()]
    answers = {
        "RouterRequestsSucceededPerSecond": _answer(({}, "12.5")),
        "RouterRequestsFailedPerSecond": _answer(({}, "0.25")),
        "RouterLatencyP50Seconds": _answer(({}, "1.5")),
        "RouterLatencyP90Seconds": _answer(({}, "NaN")),  # no successful request in the window
        "RouterBusiestWorkerSharePercent": _answer(({}, "75")),
        "RouterLeastBusyWorkerSharePercent": _answer(({}, "25")),
        "RouterWorkersReceiving": _answer(),  # no request sent to any worker
        "RouterPrefixHitPercent": _answer(({}, "60")),
        "RouterTargetsUp": _answer(({}, "2")),
    }
    by_query = {q["query"]: answers[q["name"]] for q in queries}
    expected = {
        "RouterRequestsSucceededPerSecond": (12.5, "Count/Second"),
        "RouterRequestsFailedPerSecond": (0.25, "Count/Second"),
        "RouterLatencyP50Seconds": (1.5, "Seconds"),
        "RouterBusiestWorkerSharePercent": (75.0, "Percent"),
        "RouterLeastBusyWorkerSharePercent": (25.0, "Percent"),
        "RouterWorkersReceiving": (0.0, "Count"),
        "RouterPrefixHitPercent": (60.0, "Percent"),
        "RouterTargetsUp": (2.0, "Count"),
    }
    event = {
        "namespace": NAMESPACE,
        "clusterName": "two-llm",
        "prometheusEndpoint": "https://aps-workspaces.us-west-2.amazonaws.com/workspaces/ws-1/",
        "queries": queries,
        "loadBalancerTags": {"kubernetes.io/service-name": "llm-serving/vllm"},
        "healthyTargetsMetric": HEALTHY_TARGETS,
        "capacityReservationId": "cr-0123456789abcdef0",
        "capacityBlockHoursLeftMetric": CAPACITY_BLOCK_HOURS_LEFT,
    }
    with stubbed_clients(("cloudwatch", "elbv2", "ec2"), region="us-west-2") as stubbers:
        # (the load balancer and the block are not this test's: their calls fail, and the run goes on without them)
        stubbers["elbv2"].add_client_error("describe_load_balancers", "AccessDenied")
        stubbers["ec2"].add_client_error("describe_capacity_reservations", "UnauthorizedOperation")
        stubbers["cloudwatch"].add_response(
            "put_metric_data",
            {},
            {
                "Namespace": NAMESPACE,
                "MetricData": [
                    {
                        "MetricName": name,
                        "Unit": unit,
                        "Value": value,
                        "Dimensions": [{"Name": "ClusterName", "Value": "two-llm"}],
                        "Timestamp": ANY,
                    }
                    for name, (value, unit) in expected.items()
                ],
            },
        )

        # when the publisher runs
        put = handler.publish(
            event,
            now=1_800_000_000.0,
            query=lambda _url, params: by_query[params["query"]],
            cloudwatch=stubbers["cloudwatch"].client,
            elbv2=stubbers["elbv2"].client,
            ec2=stubbers["ec2"].client,
        )

    # then each value is put under its name and unit, for the cluster; NaN puts nothing, no worker receiving puts 0
    assert {d["MetricName"]: (d["Value"], d["Unit"]) for d in put} == expected


# --- the stacks: with a router, and the default example without one -------------------------------------------------


def _event_and_dashboard(template: dict) -> tuple[dict, dict]:
    def text(value) -> str:
        if isinstance(value, str):
            return value
        if "Fn::Join" in value:
            return "".join(text(v) for v in value["Fn::Join"][1])
        return "TOKEN"

    resources = template["Resources"].values()
    (rule,) = [
        r["Properties"]
        for r in resources
        if r["Type"] == "AWS::Events::Rule" and "ScheduleExpression" in r["Properties"]
    ]
    (body,) = [
        r["Properties"]["DashboardBody"]
        for r in resources
        if r["Type"] == "AWS::CloudWatch::Dashboard"
    ]
    event = json.loads(text(rule["Targets"][0]["Input"]))
    return event, json.loads(text(body).replace('"TOKEN"', '"REGION"').replace("TOKEN", "REGION"))


def _router_widgets(dashboard: dict) -> dict[str, set[str]]:
    """Each router graph's title and the LLMServing metrics it draws."""
    return {
        w["properties"]["title"]: {m[1] for m in w["properties"]["metrics"] if m[0] == NAMESPACE}
        for w in dashboard["widgets"]
        if w["type"] == "metric" and w["properties"].get("title", "").startswith("Router")
    }


@pytest.fixture(scope="module")
def two_replicas(budget_router_env):
    """config/example.yaml on a reservation of two nodes: two replicas, routing auto, so the router in front (and the
    monthly budget tests/cdk_constructs/test_budget_alarm.py reads of the same variant, tests/configs/budget.yaml)."""
    env = budget_router_env
    assert env.replicas == 2 and router_metrics_port(serving_spec_for(env)) is not None
    return env


@pytest.fixture(scope="module")
def with_router(two_replicas, budget_router_observability) -> tuple[dict, dict]:
    """The observability stack of two_replicas (one synthesis, with cdk-nag, of only network, cluster and observability,
    shared with tests/cdk_constructs/test_budget_alarm.py): (publisher event, dashboard body, template)."""
    stack = budget_router_observability
    assert cfn_lint_errors([stack.template_full_path], [two_replicas.region]) == []
    return (*_event_and_dashboard(stack.template), stack.template)


def test_with_a_router_the_publisher_queries_its_metrics_and_the_dashboard_has_its_row(
    with_router, two_replicas
):
    # given two replicas on EKS, so a router in front of them (the observability stack of that environment)
    event, dashboard, _ = with_router
    # then every router query is in the publisher's event, as published.py writes it
    queries = {q["name"]: q["query"] for q in event["queries"]}
    assert {name: queries.get(name) for name in ROUTER_PUBLISHED} == {
        name: m.query for name, m in ROUTER_PUBLISHED.items()
    }
    # and one row of router graphs, side by side, draws each of them once, for this cluster
    widgets = _router_widgets(dashboard)
    assert list(widgets) == [title for title, _, _ in ROUTER_GRAPHS]
    drawn = [name for metrics in widgets.values() for name in metrics]
    assert sorted(drawn) == sorted(ROUTER_PUBLISHED)
    lines = [
        m for w in dashboard["widgets"] if w["type"] == "metric" for m in w["properties"]["metrics"]
    ]
    assert {tuple(m[2:4]) for m in lines if m[0] == NAMESPACE and m[1] in ROUTER_PUBLISHED} == {
        ("ClusterName", two_replicas.cluster_name)
    }
    router = [
        w for w in dashboard["widgets"] if w["properties"].get("title", "").startswith("Router")
    ]
    assert len({w["y"] for w in router}) == 1 and sum(w["width"] for w in router) == 24
    # under the endpoint row
    (endpoint,) = [
        w for w in dashboard["widgets"] if w["properties"].get("title", "").startswith("Endpoint")
    ]
    assert router[0]["y"] == endpoint["y"] + endpoint["height"]


def test_without_a_router_the_default_example_neither_queries_nor_shows_one(
    synthesized, default_env
):
    # given the default example: one replica, so no router (charts/vllm_router.py), and no router scrape job
    assert router_metrics_port(serving_spec_for(default_env)) is None
    event, dashboard = _event_and_dashboard(synthesized.template("observability"))
    # then no query reads the router's series and the dashboard has no router graph
    assert not [q for q in event["queries"] if "vllm_router" in q["query"] or "Router" in q["name"]]
    assert _router_widgets(dashboard) == {}
    assert "Router" not in json.dumps(dashboard)


def test_with_a_router_an_alarm_watches_the_share_of_requests_it_fails(with_router, two_replicas):
    # given the router's observability stack
    _, _, template = with_router
    (alarm,) = [
        r["Properties"]
        for r in template["Resources"].values()
        if r["Type"] == "AWS::CloudWatch::Alarm" and "RouterErrorRateHigh" in json.dumps(r)
    ]
    # then it is metric math on the two router rates the publisher puts, at the error-rate threshold, 3 of 5 minutes,
    # quiet without requests
    (expression,) = [m for m in alarm["Metrics"] if "Expression" in m]
    assert expression["Expression"] == "100 * failed / (failed + succeeded)"
    drawn = {
        m["Id"]: m["MetricStat"]["Metric"]["MetricName"]
        for m in alarm["Metrics"]
        if "MetricStat" in m
    }
    assert drawn == {
        "failed": "RouterRequestsFailedPerSecond",
        "succeeded": "RouterRequestsSucceededPerSecond",
    }
    assert set(drawn.values()) <= set(ROUTER_PUBLISHED)
    assert alarm["Threshold"] == two_replicas.observability.error_rate_percent
    assert (alarm["EvaluationPeriods"], alarm["DatapointsToAlarm"]) == (5, 3)
    assert alarm["TreatMissingData"] == "notBreaching"
    assert alarm["ComparisonOperator"] == "GreaterThanOrEqualToThreshold"


def test_without_a_router_there_is_no_router_alarm(synthesized):
    template = synthesized.template("observability")
    assert "RouterErrorRateHigh" not in json.dumps(template)
    assert "CanaryRolledBack" not in json.dumps(template)


def test_with_a_router_a_canary_rolled_back_notifies_the_alarm_topic(with_router):
    from deployment_config.metric_names import CANARY_ROLLBACKS, SERVING_METRICS_NAMESPACE
    from ops_cli import canary_command

    # given the router's observability stack (a canary needs the router)
    _, _, template = with_router
    (alarm,) = [
        r["Properties"]
        for r in template["Resources"].values()
        if r["Type"] == "AWS::CloudWatch::Alarm" and "CanaryRolledBack" in json.dumps(r)
    ]
    # then it fires on the minute llmops rollout --canary puts its rollback, on the metric it puts, and tells the topic
    assert canary_command.CANARY_ROLLBACKS == CANARY_ROLLBACKS
    assert (alarm["MetricName"], alarm["Namespace"]) == (
        CANARY_ROLLBACKS,
        SERVING_METRICS_NAMESPACE,
    )
    assert (alarm["Statistic"], alarm["Period"], alarm["Threshold"]) == ("Sum", 60, 1)
    assert alarm["ComparisonOperator"] == "GreaterThanOrEqualToThreshold"
    assert alarm["TreatMissingData"] == "notBreaching"
    assert alarm["AlarmActions"] and alarm["OKActions"]
