"""Metrics, dashboard, alarms, logs and node health of the EKS path and the HyperPod path (issue 10).

The stack tests read the session's synthesis (``synthesized``) and one more synthesis, for the session, of the example
with its own observability settings (e-mails, thresholds, retention) and a next Capacity Block
(tests/shared_variants.py, shared with tests/stacks/test_block_succession.py). The publisher's handler runs against
botocore Stubbers and a fake AMP answer: nothing calls AWS.
"""

from __future__ import annotations

import base64
import json
import re
from datetime import UTC, datetime

import pytest
import yaml
from botocore.stub import ANY, Stubber

from cdk_constructs.block_earnings_widgets import FIGURES as EARNINGS_FIGURES
from cdk_constructs.serving_metrics import (
    BLOCK_COST_USD,
    CAPACITY_BLOCK_HOURS_LEFT,
    DCGM_METRICS,
    DCGM_PUBLISHED,
    HEALTHY_TARGETS,
    NAMESPACE,
    PROMETHEUS_SERIES,
    PUBLISHED_METRICS,
    SERVING_BUSY,
    SERVING_GAP_MINUTES,
    TRAINING_PLAN_HOURS_LEFT,
    VLLM_METRICS,
)
from cdk_constructs.serving_metrics.runtime import handler
from deployment_config.addons import (
    CLOUDWATCH_OBSERVABILITY,
    HYPERPOD_OBSERVABILITY,
    NODE_MONITORING_AGENT,
)
from deployment_config.gpu_nodes import EKS_SCALE_IN_BEFORE_END_MINUTES
from deployment_config.model import ObservabilityConfig
from tests.cfn_lint import cfn_lint_errors
from tests.lambda_handlers import stubbed_clients
from tests.shared_variants import NEXT_BLOCK, OBSERVABILITY, stack_templates

# --- what vLLM 0.33.0 exports --------------------------------------------------------------------------------------

#: Read from vllm-0.33.0 (vllm/v1/metrics/loggers.py, PrometheusStatLogger.__init__): the Prometheus name each metric is
#: created with, its type and labels. prometheus_client exposes a Counter "x" as "x_total".
VLLM_0_33_0 = {
    "vllm:time_to_first_token_seconds": ("histogram", ("model_name", "engine")),
    "vllm:inter_token_latency_seconds": ("histogram", ("model_name", "engine")),
    "vllm:e2e_request_latency_seconds": ("histogram", ("model_name", "engine")),
    "vllm:num_requests_running": ("gauge", ("model_name", "engine")),
    "vllm:num_requests_waiting": ("gauge", ("model_name", "engine")),
    "vllm:kv_cache_usage_perc": ("gauge", ("model_name", "engine")),
    "vllm:prompt_tokens": ("counter", ("model_name", "engine")),
    "vllm:generation_tokens": ("counter", ("model_name", "engine")),
    "vllm:num_preemptions": ("counter", ("model_name", "engine")),
    "vllm:request_success": ("counter", ("model_name", "engine", "finished_reason")),
}


def _exposed(name: str, kind: str) -> str:
    return f"{name}_total" if kind == "counter" else name


def test_the_project_lists_vllm_metrics_by_the_names_vllm_0_33_0_exposes():
    expected = {
        _exposed(name, kind): (kind, labels) for name, (kind, labels) in VLLM_0_33_0.items()
    }
    assert {name: (s.type, s.labels) for name, s in VLLM_METRICS.items()} == expected
    # the cache metric of 0.33.0 is kv_cache_usage_perc; the older gpu_cache_usage_perc is gone
    assert "vllm:gpu_cache_usage_perc" not in VLLM_METRICS


#: Read from NVIDIA/dcgm-exporter@b54068a etc/default-counters.csv (and @99a774b etc/dcp-metrics-included.csv, the file
#: AWS's "SageMaker HyperPod cluster metrics" page names): the fields this project reads, with their Prometheus type.
DCGM_DEFAULT_COUNTERS = {
    "DCGM_FI_DEV_GPU_UTIL": "gauge",
    "DCGM_FI_DEV_FB_USED": "gauge",
    "DCGM_FI_DEV_FB_FREE": "gauge",
    "DCGM_FI_DEV_GPU_TEMP": "gauge",
    "DCGM_FI_DEV_POWER_USAGE": "gauge",
    "DCGM_FI_DEV_XID_ERRORS": "gauge",
}


def test_the_project_reads_dcgm_fields_by_the_names_and_types_of_dcgm_exporters_default_counters():
    assert {name: series.type for name, series in DCGM_METRICS.items()} == DCGM_DEFAULT_COUNTERS
    # the add-on's labels are not documented: no GPU query names a label
    for metric in DCGM_PUBLISHED.values():
        assert (
            "{" not in metric.query and " by " not in metric.query and "without" not in metric.query
        ), metric.query


def test_every_series_a_published_metric_reads_is_a_known_one():
    for metric in (*PUBLISHED_METRICS.values(), *DCGM_PUBLISHED.values()):
        for series in metric.series:
            assert series in PROMETHEUS_SERIES, (metric.name, series)
        for name in re.findall(r"DCGM_FI_[A-Z_]+", metric.query):
            assert name in metric.series, (metric.name, name)
        # every vLLM name in the PromQL is a listed series (histograms are read through their _bucket series)
        for name in re.findall(r"vllm:[a-z0-9_]+", metric.query):
            base = name.removesuffix("_bucket")
            assert base in VLLM_METRICS, (metric.name, name)
            assert name == base or VLLM_METRICS[base].type == "histogram", name


# --- the stack -----------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def observability(synthesized) -> dict:
    return synthesized.template("observability")


def _of_type(template: dict, resource_type: str) -> dict[str, dict]:
    return {k: v for k, v in template["Resources"].items() if v["Type"] == resource_type}


def _only_item(resources: dict[str, dict]) -> tuple[str, dict]:
    (item,) = resources.items()
    return item


def _only(resources: dict[str, dict]) -> dict:
    assert len(resources) == 1, list(resources)
    return next(iter(resources.values()))


def _text(value) -> str:
    """A Fn::Join of strings and tokens as one string, tokens as TOKEN."""
    if isinstance(value, str):
        return value
    separator, parts = value["Fn::Join"]
    return separator.join(p if isinstance(p, str) else "TOKEN" for p in parts)


def _scheduled_event(template: dict) -> dict:
    """The event of the one scheduled rule, which runs every minute (the others match reservation events:
    tests/cdk_constructs/test_capacity_events.py)."""
    rule = _only(
        {
            k: r
            for k, r in _of_type(template, "AWS::Events::Rule").items()
            if "ScheduleExpression" in r["Properties"]
        }
    )["Properties"]
    assert rule["ScheduleExpression"] == "rate(1 minute)"
    (target,) = rule["Targets"]
    return json.loads(_text(target["Input"]))


@pytest.fixture(scope="module")
def schedule_event(observability) -> dict:
    return _scheduled_event(observability)


def test_the_publisher_runs_every_minute_with_every_query(schedule_event, default_env):
    assert schedule_event["namespace"] == NAMESPACE
    assert schedule_event["clusterName"] == default_env.cluster_name
    assert {q["name"]: q["query"] for q in schedule_event["queries"]} == {
        m.name: m.query for m in PUBLISHED_METRICS.values()
    }
    # the Service's load balancer is found by the cloud provider's tags, the block by its id
    assert schedule_event["loadBalancerTags"] == {
        "kubernetes.io/service-name": "llm-serving/vllm",
        f"kubernetes.io/cluster/{default_env.cluster_name}": "owned",
    }
    assert schedule_event["capacityReservationId"] == default_env.capacity.capacity_reservation_id


def test_the_publisher_may_read_amp_and_put_only_its_own_namespace(observability):
    policy = _only(_of_type(observability, "AWS::IAM::Policy"))["Properties"]["PolicyDocument"]
    statements = {json.dumps(s["Action"]): s for s in policy["Statement"]}
    put = statements['"cloudwatch:PutMetricData"']
    assert put["Condition"] == {"StringEquals": {"cloudwatch:namespace": NAMESPACE}}
    assert statements['"aps:QueryMetrics"']["Resource"] == {"Fn::GetAtt": ["Prometheus", "Arn"]}


@pytest.fixture(scope="module")
def scrape_config(observability) -> dict:
    scraper = _only(_of_type(observability, "AWS::APS::Scraper"))["Properties"]
    return yaml.safe_load(base64.b64decode(scraper["ScrapeConfiguration"]["ConfigurationBlob"]))


def test_the_scraper_reads_vllm_and_the_node_monitoring_agent_every_30_seconds(scrape_config):
    assert scrape_config["global"]["scrape_interval"] == "30s"
    jobs = {job["job_name"]: job for job in scrape_config["scrape_configs"]}
    assert set(jobs) == {"vllm", "node-monitoring-agent"}
    vllm = jobs["vllm"]
    assert vllm["kubernetes_sd_configs"] == [
        {"role": "pod", "namespaces": {"names": ["llm-serving"]}}
    ]
    assert {
        "action": "keep",
        "source_labels": ["__meta_kubernetes_pod_container_port_number"],
        "regex": "8000",
    } in vllm["relabel_configs"]
    assert vllm["metrics_path"] == "/metrics"
    agent = jobs["node-monitoring-agent"]
    assert agent["kubernetes_sd_configs"] == [
        {"role": "pod", "namespaces": {"names": ["kube-system"]}}
    ]
    assert any(
        r.get("replacement") == "$1:8003" and r["target_label"] == "__address__"
        for r in agent["relabel_configs"]
    )


def test_the_scraper_joins_the_cluster_network_and_writes_to_the_workspace(
    observability, synthesized
):
    scraper = _only(_of_type(observability, "AWS::APS::Scraper"))["Properties"]
    eks_source = scraper["Source"]["EksConfiguration"]
    assert len(eks_source["SubnetIds"]) == len(
        synthesized.env_config.availability_zones
    )  # one private subnet per zone
    assert "ClusterSecurityGroupId" in json.dumps(eks_source["SecurityGroupIds"])
    assert "Arn" in json.dumps(eks_source["ClusterArn"])
    assert scraper["Destination"]["AmpConfiguration"]["WorkspaceArn"] == {
        "Fn::GetAtt": ["Prometheus", "Arn"]
    }


@pytest.fixture(scope="module")
def dashboard(observability) -> dict:
    return json.loads(
        _text(
            _only(_of_type(observability, "AWS::CloudWatch::Dashboard"))["Properties"][
                "DashboardBody"
            ]
        )
        .replace('"TOKEN"', '"REGION"')
        .replace("TOKEN", "REGION")
    )


def _dashboard_metrics(dashboard: dict) -> list[list]:
    return [
        m
        for w in dashboard["widgets"]
        if w["type"] == "metric"
        for m in w["properties"].get("metrics", [])
    ]


def test_the_dashboard_shows_every_serving_metric_gpu_health_and_the_capacity_block(
    dashboard, default_env
):
    metrics = _dashboard_metrics(dashboard)
    serving = {m[1] for m in metrics if m[0] == NAMESPACE}
    assert serving == set(PUBLISHED_METRICS) | {HEALTHY_TARGETS, CAPACITY_BLOCK_HOURS_LEFT}
    expressions = " ".join(m[0]["expression"] for m in metrics if isinstance(m[0], dict))
    for gpu_metric in (
        "node_gpu_utilization",
        "node_gpu_memory_utilization",
        "node_gpu_temperature",
        "node_gpu_power_draw",
    ):
        assert (
            f'MetricName=\\"{gpu_metric}\\"' in expressions
            or f'MetricName="{gpu_metric}"' in expressions
        ), gpu_metric
    assert (
        f"ClusterName = '{default_env.cluster_name}'" in expressions
    )  # GPU samples (Metrics Insights)
    text = " ".join(
        w["properties"]["markdown"] for w in dashboard["widgets"] if w["type"] == "text"
    )
    assert f"bin/llmops capacity-blocks show {default_env.capacity.capacity_reservation_id}" in text
    assert f"/aws/containerinsights/{default_env.cluster_name}/application" in text
    (alarm_widget,) = [w for w in dashboard["widgets"] if w["type"] == "alarm"]
    assert len(alarm_widget["properties"]["alarms"]) == 7  # with CapacityEndingSoon


def test_the_dashboard_draws_the_configured_thresholds(dashboard, default_env):
    lines = {
        w["properties"]["title"]: [
            a["value"] for a in w["properties"].get("annotations", {}).get("horizontal", [])
        ]
        for w in dashboard["widgets"]
        if w["type"] == "metric"
    }
    watch = default_env.observability
    assert lines["Time to first token (s)"] == [watch.time_to_first_token_p90_seconds]
    assert lines["KV-cache usage (%)"] == [watch.kv_cache_usage_percent]
    assert lines["5xx error rate (%)"] == [watch.error_rate_percent]


# --- alarms --------------------------------------------------------------------------------------------------------


def _alarms(template: dict) -> dict[str, dict]:
    return {
        a["Properties"]["AlarmName"].split("-llm-", 1)[1]: a["Properties"]
        for a in _of_type(template, "AWS::CloudWatch::Alarm").values()
    }


#: id -> (metric name, statistic, comparison, evaluation periods, datapoints to alarm, missing data)
EXPECTED_ALARMS = {
    "EndpointNoHealthyTarget": (
        "HealthyTargets",
        "Minimum",
        "LessThanThreshold",
        3,
        3,
        "breaching",
    ),
    "TimeToFirstTokenP90High": (
        "TimeToFirstTokenP90Seconds",
        "Maximum",
        "GreaterThanThreshold",
        5,
        3,
        "notBreaching",
    ),
    "KvCacheUsageHigh": (
        "KvCacheUsagePercent",
        "Minimum",
        "GreaterThanOrEqualToThreshold",
        5,
        5,
        "notBreaching",
    ),
    "ErrorRateHigh": (
        "ErrorRatePercent",
        "Maximum",
        "GreaterThanOrEqualToThreshold",
        5,
        3,
        "notBreaching",
    ),
    "GpuXidErrors": (
        "GpuXidErrors",
        "Maximum",
        "GreaterThanOrEqualToThreshold",
        1,
        1,
        "notBreaching",
    ),
}


def _thresholds(watch: ObservabilityConfig) -> dict[str, float]:
    return {
        "EndpointNoHealthyTarget": 1,
        "TimeToFirstTokenP90High": watch.time_to_first_token_p90_seconds,
        "KvCacheUsageHigh": watch.kv_cache_usage_percent,
        "ErrorRateHigh": watch.error_rate_percent,
        "GpuXidErrors": 1,
    }


@pytest.mark.parametrize("alarm_id", sorted(EXPECTED_ALARMS))
def test_each_serving_alarm_watches_its_metric_with_the_configured_threshold(
    observability, default_env, alarm_id
):
    alarm = _alarms(observability)[alarm_id]
    metric, statistic, comparison, periods, datapoints, missing = EXPECTED_ALARMS[alarm_id]
    assert (alarm["Namespace"], alarm["MetricName"], alarm["Statistic"], alarm["Period"]) == (
        NAMESPACE,
        metric,
        statistic,
        60,
    )
    assert alarm["Dimensions"] == [{"Name": "ClusterName", "Value": default_env.cluster_name}]
    assert alarm["Threshold"] == _thresholds(default_env.observability)[alarm_id]
    assert (
        alarm["ComparisonOperator"],
        alarm["EvaluationPeriods"],
        alarm["DatapointsToAlarm"],
        alarm["TreatMissingData"],
    ) == (comparison, periods, datapoints, missing)


def test_a_missing_gpu_node_alarms_and_missing_data_counts_as_missing_gpus(
    observability, default_env
):
    alarm = _alarms(observability)["GpuNodeMissing"]
    (query,) = alarm["Metrics"]
    assert query["Expression"].startswith(
        'SELECT COUNT(node_gpu_utilization) FROM SCHEMA("ContainerInsights"'
    )
    assert query["Period"] == 300
    gpus = default_env.gpu_instance_type.gpu_count * default_env.capacity.instance_count
    assert 0 < alarm["Threshold"] < gpus * 5  # fewer samples than the GPUs send in 5 minutes
    assert (alarm["ComparisonOperator"], alarm["TreatMissingData"]) == (
        "LessThanThreshold",
        "breaching",
    )


@pytest.fixture(scope="module")
def cluster(synthesized) -> dict:
    """The cluster stack: the alarm topic, its key and the reservation event rules (stacks/cluster_stack.py)."""
    return synthesized.template("cluster")


def _topic_key(template: dict) -> dict:
    """The alarm topic's KMS key (the cluster stack also has the key of Kubernetes secrets)."""
    (topic,) = _of_type(template, "AWS::SNS::Topic").values()
    return _of_type(template, "AWS::KMS::Key")[
        topic["Properties"]["KmsMasterKeyId"]["Fn::GetAtt"][0]
    ]


def _imported(template: dict, action: dict):
    """What ``template`` exports under the name ``action`` imports."""
    (value,) = [
        o["Value"]
        for o in template["Outputs"].values()
        if o.get("Export", {}).get("Name") == action["Fn::ImportValue"]
    ]
    return value


def test_every_alarm_notifies_the_encrypted_tls_only_topic_on_alarm_and_on_ok(
    observability, cluster
):
    topic_id, topic = _only_item(_of_type(cluster, "AWS::SNS::Topic"))
    assert "KmsMasterKeyId" in topic["Properties"]
    for name, alarm in _alarms(observability).items():
        (action,) = alarm["AlarmActions"]
        assert alarm["OKActions"] == [action], name
        assert _imported(cluster, action) == {"Ref": topic_id}, name  # the cluster stack's topic
    policy = _only(_of_type(cluster, "AWS::SNS::TopicPolicy"))["Properties"]["PolicyDocument"]
    assert any(
        s["Effect"] == "Deny" and s["Condition"] == {"Bool": {"aws:SecureTransport": "false"}}
        for s in policy["Statement"]
    )
    key = _topic_key(cluster)["Properties"]
    assert key["EnableKeyRotation"] is True
    assert any(
        s.get("Principal") == {"Service": "cloudwatch.amazonaws.com"}
        for s in key["KeyPolicy"]["Statement"]
    )
    # the example lists no e-mail address
    assert not _of_type(cluster, "AWS::SNS::Subscription")
    assert not _of_type(observability, "AWS::SNS::Topic")


#: The topic key's policy statements (principal, actions, condition), as they were when the key lived in the
#: observability stack: the account's root (the CDK's default), CloudWatch alarms of this account, EventBridge (no
#: condition: SNS developer guide, sns-key-management.html; cdk_constructs/alarm_topic.py, AlarmTopic).
TOPIC_KEY_STATEMENTS = [
    ("root", ["kms:*"], None),
    (
        {"Service": "cloudwatch.amazonaws.com"},
        ["kms:Decrypt", "kms:GenerateDataKey*"],
        {"StringEquals": {"aws:SourceAccount": {"Ref": "AWS::AccountId"}}},
    ),
    ({"Service": "events.amazonaws.com"}, ["kms:Decrypt", "kms:GenerateDataKey*"], None),
]


@pytest.mark.parametrize("platform", ["eks", "hyperpod"])
def test_the_topic_keys_policy_has_exactly_the_root_cloudwatch_and_eventbridge_statements(
    synthesized, synthesized_hyperpod, platform
):
    app = {"eks": synthesized, "hyperpod": synthesized_hyperpod}[platform]
    statements = _topic_key(app.template("cluster"))["Properties"]["KeyPolicy"]["Statement"]
    found = []
    for s in statements:
        assert s["Effect"] == "Allow" and s["Resource"] == "*"
        principal = "root" if ":root" in json.dumps(s["Principal"]) else s["Principal"]
        actions = [s["Action"]] if isinstance(s["Action"], str) else sorted(s["Action"])
        found.append((principal, actions, s.get("Condition")))
    assert found == TOPIC_KEY_STATEMENTS


# --- a variant with its own observability settings --------------------------------------------------------------------

#: The variant's own observability settings: the session's next-block variant (tests/shared_variants.py), whose GPU
#: nodes stack tests/stacks/test_block_succession.py reads.
VARIANT = ObservabilityConfig(**OBSERVABILITY)
#: The variant's next Capacity Block (capacity.next_capacity_reservation_id): serving across blocks, with its gap alarm.
VARIANT_NEXT_BLOCK = NEXT_BLOCK


@pytest.fixture(scope="module")
def variant_env(next_block_env):
    """config/example.yaml with VARIANT as its observability section and a next Capacity Block."""
    assert next_block_env.observability == VARIANT
    assert next_block_env.capacity.next_capacity_reservation_id == VARIANT_NEXT_BLOCK
    return next_block_env


@pytest.fixture(scope="module")
def variant(variant_env, next_block_assembly) -> dict[str, dict]:
    """variant_env synthesized under cdk-nag (once per session)."""
    env = variant_env
    report = json.loads((next_block_assembly / "validation-report.json").read_text())
    assert {p["pluginName"]: p for p in report["pluginReports"]}["AwsSolutions"]["violations"] == []
    templates = stack_templates(next_block_assembly)
    # the variant's alarms, subscriptions and log groups: its own values, not only the example's, pass cfn-lint
    assert (
        cfn_lint_errors(
            [templates["example-cluster"], templates["example-observability"]], [env.region]
        )
        == []
    )
    return {name: json.loads(path.read_text()) for name, path in templates.items()}


def test_each_alarm_email_is_subscribed_to_the_topic(variant):
    # the topic and its subscriptions live in the cluster stack, deployed before the capacity starts
    assert not _of_type(variant["example-observability"], "AWS::SNS::Subscription")
    subscriptions = _of_type(variant["example-cluster"], "AWS::SNS::Subscription").values()
    assert sorted(s["Properties"]["Endpoint"] for s in subscriptions) == sorted(
        VARIANT.alarm_emails
    )
    assert {s["Properties"]["Protocol"] for s in subscriptions} == {"email"}


def test_the_alarm_thresholds_follow_the_configuration(variant):
    alarms = _alarms(variant["example-observability"])
    for alarm_id, threshold in _thresholds(VARIANT).items():
        assert alarms[alarm_id]["Threshold"] == threshold, alarm_id


def test_a_configured_idle_time_alarms_when_no_request_ran_that_long_and_the_default_has_none(
    variant, observability
):
    # given observability.idle_alarm_minutes: 120 (the variant), and none (the example)
    alarm = _alarms(variant["example-observability"])["EndpointIdle"]
    # then one alarm: ServingBusy's maximum below 1 in 120 of the last 121 one-minute periods, missing data (vLLM not
    # serving) not breaching, to the alarm topic like every other
    assert (alarm["Namespace"], alarm["MetricName"], alarm["Statistic"], alarm["Period"]) == (
        NAMESPACE,
        SERVING_BUSY,
        "Maximum",
        60,
    )
    assert (alarm["Threshold"], alarm["ComparisonOperator"]) == (1, "LessThanThreshold")
    assert (alarm["EvaluationPeriods"], alarm["DatapointsToAlarm"]) == (121, 120)
    assert alarm["TreatMissingData"] == "notBreaching"
    assert alarm["AlarmActions"] and alarm["AlarmActions"] == alarm["OKActions"]
    assert "EndpointIdle" not in _alarms(observability)


def _publisher_event(template: dict) -> dict:
    (rule,) = [
        r["Properties"]
        for r in _of_type(template, "AWS::Events::Rule").values()
        if "ScheduleExpression" in r["Properties"]
    ]
    (target,) = rule["Targets"]
    return json.loads(_text(target["Input"]))


def test_given_a_next_block_when_synthesized_then_a_gap_alarms_on_its_first_minute_to_the_topic(
    variant, variant_env
):
    # given the variant, with capacity.next_capacity_reservation_id
    template = variant["example-observability"]
    # when synthesized, then the publisher puts ServingGapMinutes with the cold start llmops handover plans with
    # (EnvironmentConfig.pod_startup_budget) and EKS's scale-down 40 minutes before a block's end
    assert _publisher_event(template)["servingGap"] == {
        "metric": SERVING_GAP_MINUTES,
        "coldStartSeconds": variant_env.pod_startup_budget.probe_seconds,
        "scaleDownBeforeEndMinutes": EKS_SCALE_IN_BEFORE_END_MINUTES,
    }
    # and ServingGap fires on the first minute above 0, keeps its state while EC2 is not read, and notifies the same
    # topic as every other alarm, on ALARM and on OK
    alarms = _alarms(template)
    gap = alarms["ServingGap"]
    assert (gap["Namespace"], gap["MetricName"], gap["Statistic"], gap["Period"]) == (
        NAMESPACE,
        SERVING_GAP_MINUTES,
        "Maximum",
        60,
    )
    assert gap["Dimensions"] == [{"Name": "ClusterName", "Value": variant_env.cluster_name}]
    assert (gap["Threshold"], gap["ComparisonOperator"]) == (0, "GreaterThanThreshold")
    assert (gap["EvaluationPeriods"], gap["DatapointsToAlarm"], gap["TreatMissingData"]) == (
        1,
        1,
        "ignore",
    )
    assert (
        gap["AlarmActions"] == gap["OKActions"] == alarms["EndpointNoHealthyTarget"]["AlarmActions"]
    )
    # and its description says what to do
    description = gap["AlarmDescription"]
    assert f"bin/llmops handover --env {variant_env.name}" in description
    assert "capacity-blocks extend" in description and "capacity-blocks offerings" in description


def test_without_a_next_block_there_is_no_gap_alarm_and_no_gap_in_the_event(
    observability, synthesized_hyperpod
):
    # given the example (one block) and the HyperPod example (a training plan)
    assert "ServingGap" not in _alarms(observability)
    assert "servingGap" not in _publisher_event(observability)
    assert "ServingGap" not in _alarms(synthesized_hyperpod.template("observability"))


def _earnings(template: dict) -> tuple[dict, list[str]]:
    body = _text(
        _only(_of_type(template, "AWS::CloudWatch::Dashboard"))["Properties"]["DashboardBody"]
    )
    dashboard = json.loads(body.replace('"TOKEN"', '"REGION"').replace("TOKEN", "REGION"))
    (widget,) = [
        w for w in dashboard["widgets"] if w["properties"].get("title", "").startswith("What the")
    ]
    texts = [w["properties"]["markdown"] for w in dashboard["widgets"] if w["type"] == "text"]
    return widget, texts


def test_with_the_blocks_fee_the_dashboard_shows_cost_per_million_tokens_and_the_publisher_puts_the_fee(
    variant,
):
    # given observability.block_fee_usd (the variant)
    template = variant["example-observability"]
    widget, _ = _earnings(template)
    # then the earnings widget computes each figure over the dashboard's whole time range
    assert widget["type"] == "metric" and widget["properties"]["setPeriodToTimeRange"] is True
    figures = {
        m[0]["label"]: m[0]["expression"]
        for m in widget["properties"]["metrics"]
        if isinstance(m[0], dict)
    }
    assert figures == {label: expression for label, expression, _ in EARNINGS_FIGURES}
    read = {(m[1], m[-1]["stat"]) for m in widget["properties"]["metrics"] if m[0] == NAMESPACE}
    assert read == {
        ("PromptTokensPerSecond", "Sum"),
        ("GenerationTokensPerSecond", "Sum"),
        (SERVING_BUSY, "Sum"),
        ("VllmTargetsUp", "SampleCount"),
        (BLOCK_COST_USD, "Sum"),
    }
    # and the publisher gets the fee, to put each minute's share of it
    (rule,) = [
        r["Properties"]
        for r in _of_type(template, "AWS::Events::Rule").values()
        if "ScheduleExpression" in r["Properties"]
    ]
    event = json.loads(_text(rule["Targets"][0]["Input"]))
    assert (event["blockFeeUsd"], event["blockCostMetric"]) == (91540.8, BLOCK_COST_USD)


def test_without_the_fee_the_dashboard_shows_tokens_and_idle_share_and_says_how_to_add_the_cost(
    observability, schedule_event
):
    # given the example, which gives no block_fee_usd: no price is invented
    widget, texts = _earnings(observability)
    labels = {m[0]["label"] for m in widget["properties"]["metrics"] if isinstance(m[0], dict)}
    assert labels == {"input tokens", "output tokens", "idle share (%)"}
    assert any("observability.block_fee_usd" in t and "--block-fee" in t for t in texts)
    assert "blockFeeUsd" not in schedule_event and "blockCostMetric" not in schedule_event


def _publisher_actions(template: dict) -> set[str]:
    (policy,) = [
        p["Properties"]["PolicyDocument"]
        for k, p in _of_type(template, "AWS::IAM::Policy").items()
        if k.startswith("ServingMetricsRole")
    ]
    return {
        a
        for s in policy["Statement"]
        for a in ([s["Action"]] if isinstance(s["Action"], str) else s["Action"])
    }


def test_with_a_block_fee_the_publisher_may_read_the_extension_history_and_not_without(
    observability, variant
):
    # given observability.block_fee_usd (the variant): each extension's own fee is read from EC2 every minute
    assert "ec2:DescribeCapacityBlockExtensionHistory" in _publisher_actions(
        variant["example-observability"]
    )
    # without a fee (the example) nothing is priced, and the call is neither made nor granted
    assert "ec2:DescribeCapacityBlockExtensionHistory" not in _publisher_actions(observability)


def test_the_log_retention_follows_the_configuration(variant):
    groups = _of_type(variant["example-cluster"], "AWS::Logs::LogGroup").values()
    assert {g["Properties"]["RetentionInDays"] for g in groups} == {90}


# --- the cluster: add-ons, their role, the log groups ------------------------------------------------------------------


def test_the_add_on_log_groups_exist_before_the_add_on_with_the_retention_and_go_on_destroy(
    synthesized, default_env
):
    cluster = synthesized.template("cluster")
    groups = _of_type(cluster, "AWS::Logs::LogGroup")
    names = {g["Properties"]["LogGroupName"]: key for key, g in groups.items()}
    prefix = f"/aws/containerinsights/{default_env.cluster_name}"
    assert set(names) == {
        f"{prefix}/{kind}" for kind in ("application", "dataplane", "host", "performance")
    }
    for group in groups.values():
        assert (
            group["Properties"]["RetentionInDays"]
            == default_env.observability.log_retention_days
            == 30
        )
        assert group["DeletionPolicy"] == "Delete"
    (addon,) = [
        a
        for a in _of_type(cluster, "AWS::EKS::Addon").values()
        if a["Properties"]["AddonName"] == CLOUDWATCH_OBSERVABILITY.name
    ]
    assert set(names.values()) <= set(addon["DependsOn"])


def _addons(template: dict) -> dict[str, dict]:
    return {a["Properties"]["AddonName"]: a for a in _of_type(template, "AWS::EKS::Addon").values()}


def test_the_observability_add_ons_are_pinned_and_installed_after_the_system_nodes(synthesized):
    cluster = synthesized.template("cluster")
    addons = _addons(cluster)
    (system_nodes,) = [k for k, v in _of_type(cluster, "AWS::EKS::Nodegroup").items()]
    for pin in (CLOUDWATCH_OBSERVABILITY, NODE_MONITORING_AGENT):
        addon = addons[pin.name]
        assert addon["Properties"]["AddonVersion"] == pin.version
        assert system_nodes in addon["DependsOn"], pin.name


def test_the_cloudwatch_agent_gets_its_role_through_pod_identity(synthesized):
    cluster = synthesized.template("cluster")
    addon = _addons(cluster)[CLOUDWATCH_OBSERVABILITY.name]["Properties"]
    (association,) = addon["PodIdentityAssociations"]
    assert association["ServiceAccount"] == "cloudwatch-agent"
    role = cluster["Resources"][association["RoleArn"]["Fn::GetAtt"][0]]["Properties"]
    (statement,) = role["AssumeRolePolicyDocument"]["Statement"]
    assert statement["Principal"] == {"Service": "pods.eks.amazonaws.com"}
    assert set(statement["Action"]) == {"sts:AssumeRole", "sts:TagSession"}
    assert "CloudWatchAgentServerPolicy" in json.dumps(role["ManagedPolicyArns"])
    config = json.loads(addon["ConfigurationValues"])
    assert config["agent"]["config"]["logs"]["metrics_collected"]["kubernetes"] == {
        "enhanced_container_insights": True,
        "accelerated_compute_metrics": True,
    }


def test_the_node_monitoring_agent_runs_its_dcgm_host_engine_on_the_tainted_gpu_nodes(synthesized):
    addon = _addons(synthesized.template("cluster"))[NODE_MONITORING_AGENT.name]["Properties"]
    config = json.loads(addon["ConfigurationValues"])
    assert config == {
        "dcgmAgent": {
            "tolerations": [
                {
                    "key": "nvidia.com/gpu",
                    "operator": "Equal",
                    "value": "present",
                    "effect": "NoSchedule",
                }
            ]
        }
    }


def test_the_hyperpod_path_ships_container_logs_without_a_second_gpu_exporter_or_node_agent(
    synthesized_hyperpod, hyperpod_env
):
    template = synthesized_hyperpod.template("cluster")
    addons = _addons(template)
    # Container Insights for the worker's log, at its pin, its GPU metrics off (the HyperPod add-on's DCGM has them)
    cloudwatch = addons[CLOUDWATCH_OBSERVABILITY.name]["Properties"]
    assert cloudwatch["AddonVersion"] == CLOUDWATCH_OBSERVABILITY.version
    assert json.loads(cloudwatch["ConfigurationValues"])["agent"]["config"]["logs"][
        "metrics_collected"
    ]["kubernetes"] == {"enhanced_container_insights": True, "accelerated_compute_metrics": False}
    # into the log group the stack creates first, with the configured retention
    groups = {
        g["Properties"]["LogGroupName"]: g["Properties"]["RetentionInDays"]
        for g in _of_type(template, "AWS::Logs::LogGroup").values()
    }
    assert (
        groups["/aws/containerinsights/example-hyperpod-llm/application"]
        == hyperpod_env.observability.log_retention_days
    )
    # and no node monitoring agent: HyperPod's own health agent does its job
    assert NODE_MONITORING_AGENT.name not in addons


def test_the_gpu_node_group_repairs_its_nodes(synthesized):
    nodegroup = _only(synthesized.resources("gpu-nodes", "AWS::EKS::Nodegroup"))["Properties"]
    assert nodegroup["NodeRepairConfig"] == {"Enabled": True}


def test_the_observability_stack_deploys_after_serving_and_goes_first_on_destroy(
    synthesized, default_env
):
    deps = set(
        synthesized.manifest["artifacts"][default_env.stack_name("observability")].get(
            "dependencies", []
        )
    )
    assert default_env.stack_name("serving") in deps


# --- the publisher's handler -----------------------------------------------------------------------------------------

REGION = "us-west-2"
NOW = 1_800_000_000.0
TAGS = {
    "kubernetes.io/service-name": "llm-serving/vllm",
    "kubernetes.io/cluster/example-llm": "owned",
}


def _event(queries: list[dict]) -> dict:
    return {
        "namespace": NAMESPACE,
        "clusterName": "example-llm",
        "prometheusEndpoint": "https://aps-workspaces.us-west-2.amazonaws.com/workspaces/ws-1/",
        "queries": queries,
        "loadBalancerTags": TAGS,
        "capacityReservationId": "cr-0123456789abcdef0",
        "healthyTargetsMetric": HEALTHY_TARGETS,
        "capacityBlockHoursLeftMetric": CAPACITY_BLOCK_HOURS_LEFT,
    }


def _vector(*values: str) -> dict:
    return {
        "status": "success",
        "data": {
            "resultType": "vector",
            "result": [{"metric": {}, "value": [NOW, v]} for v in values],
        },
    }


@pytest.mark.parametrize(
    "answer, value",
    [
        (_vector("1.25"), 1.25),
        (_vector(), None),
        (_vector("NaN"), None),
        (_vector("+Inf"), None),
        ({"status": "success", "data": {"resultType": "scalar", "result": [NOW, "3"]}}, 3.0),
    ],
)
def test_an_instant_query_answer_gives_its_value_or_none(answer, value):
    assert handler.instant_value(answer) == value


def test_a_failed_query_answer_is_an_error():
    with pytest.raises(ValueError, match="bad_data"):
        handler.instant_value({"status": "error", "errorType": "bad_data", "error": "parse error"})


@pytest.fixture
def clients():
    with stubbed_clients(("cloudwatch", "elbv2", "ec2", "sagemaker"), region=REGION) as stubbers:
        yield stubbers


def _arn(name: str) -> str:
    return f"arn:aws:elasticloadbalancing:{REGION}:123456789012:loadbalancer/net/{name}/0123456789abcdef"


def _stub_load_balancers(elbv2: Stubber, tagged: bool) -> None:
    elbv2.add_response(
        "describe_load_balancers",
        {
            "LoadBalancers": [
                {"LoadBalancerArn": _arn("other"), "Type": "network"},
                {"LoadBalancerArn": _arn("a1b2c3"), "Type": "network"},
            ]
        },
    )
    # "other" carries the service tag of another cluster's Service; an untagged description has no Tags at all
    service = {"ResourceArn": _arn("a1b2c3")}
    if tagged:
        service["Tags"] = [{"Key": k, "Value": v} for k, v in TAGS.items()]
    elbv2.add_response(
        "describe_tags",
        {
            "TagDescriptions": [
                {
                    "ResourceArn": _arn("other"),
                    "Tags": [
                        {"Key": "kubernetes.io/service-name", "Value": "llm-serving/vllm"},
                        {"Key": "kubernetes.io/cluster/other-llm", "Value": "owned"},
                    ],
                },
                service,
            ]
        },
        {"ResourceArns": [_arn("other"), _arn("a1b2c3")]},
    )


def _stub_reservation(ec2: Stubber, end: datetime, state: str = "active") -> None:
    ec2.add_response(
        "describe_capacity_reservations",
        {
            "CapacityReservations": [
                {"CapacityReservationId": "cr-0123456789abcdef0", "State": state, "EndDate": end}
            ]
        },
        {"CapacityReservationIds": ["cr-0123456789abcdef0"]},
    )


def test_one_run_puts_the_queried_values_the_healthy_targets_and_the_hours_left(clients):
    # given AMP answers for three queries: a value, no series with a fallback, no series without one, and a failure
    queries = [
        {"name": "TimeToFirstTokenP90Seconds", "unit": "Seconds", "query": "q1", "whenEmpty": None},
        {"name": "VllmTargetsUp", "unit": "Count", "query": "q2", "whenEmpty": 0.0},
        {"name": "ErrorRatePercent", "unit": "Percent", "query": "q3", "whenEmpty": None},
        {"name": "RequestsRunning", "unit": "Count", "query": "q4", "whenEmpty": None},
    ]
    answers = {"q1": _vector("4.5"), "q2": _vector(), "q3": _vector()}
    asked = []

    def query(url, params):
        asked.append((url, params["query"], params["time"]))
        if params["query"] == "q4":
            raise OSError("connection reset")
        return answers[params["query"]]

    # and the Service's load balancer with two healthy targets of three, and a block ending in 36 hours
    elbv2, ec2, cloudwatch = clients["elbv2"], clients["ec2"], clients["cloudwatch"]
    _stub_load_balancers(elbv2, tagged=True)
    elbv2.add_response(
        "describe_target_groups",
        {"TargetGroups": [{"TargetGroupArn": "arn:tg"}]},
        {"LoadBalancerArn": _arn("a1b2c3")},
    )
    elbv2.add_response(
        "describe_target_health",
        {
            "TargetHealthDescriptions": [
                {"Target": {"Id": f"i-{n}"}, "TargetHealth": {"State": s}}
                for n, s in enumerate(("healthy", "unhealthy", "healthy"))
            ]
        },
        {"TargetGroupArn": "arn:tg"},
    )
    _stub_reservation(ec2, datetime.fromtimestamp(NOW + 36 * 3600, UTC))
    expected = [
        ("TimeToFirstTokenP90Seconds", "Seconds", 4.5),
        ("VllmTargetsUp", "Count", 0.0),
        (HEALTHY_TARGETS, "Count", 2.0),
        (CAPACITY_BLOCK_HOURS_LEFT, "None", 36.0),
    ]
    cloudwatch.add_response(
        "put_metric_data",
        {},
        {
            "Namespace": NAMESPACE,
            "MetricData": [
                {
                    "MetricName": name,
                    "Unit": unit,
                    "Value": value,
                    "Dimensions": [{"Name": "ClusterName", "Value": "example-llm"}],
                    "Timestamp": ANY,
                }
                for name, unit, value in expected
            ],
        },
    )

    # when the publisher runs
    put = handler.publish(
        _event(queries),
        now=NOW,
        query=query,
        cloudwatch=cloudwatch.client,
        elbv2=elbv2.client,
        ec2=ec2.client,
    )

    # then every query went to the workspace's query API at the run's time, and the failed and empty ones put nothing
    assert {url for url, _, _ in asked} == {
        "https://aps-workspaces.us-west-2.amazonaws.com/workspaces/ws-1/api/v1/query"
    }
    assert {t for _, _, t in asked} == {f"{NOW:.3f}"}
    assert [(d["MetricName"], d["Value"]) for d in put] == [(n, v) for n, _, v in expected]


def test_no_load_balancer_with_the_service_tags_counts_as_no_healthy_target(clients):
    elbv2, ec2, cloudwatch = clients["elbv2"], clients["ec2"], clients["cloudwatch"]
    _stub_load_balancers(elbv2, tagged=False)
    _stub_reservation(ec2, datetime.fromtimestamp(NOW - 3600, UTC), state="expired")
    cloudwatch.add_response("put_metric_data", {}, {"Namespace": NAMESPACE, "MetricData": ANY})
    put = handler.publish(
        _event([]),
        now=NOW,
        query=None,
        cloudwatch=cloudwatch.client,
        elbv2=elbv2.client,
        ec2=ec2.client,
    )
    assert [(d["MetricName"], d["Value"]) for d in put] == [
        (HEALTHY_TARGETS, 0.0),
        (CAPACITY_BLOCK_HOURS_LEFT, 0.0),
    ]


def test_the_query_api_is_under_the_workspace_endpoint_with_or_without_its_slash():
    for endpoint in (
        "https://aps-workspaces.us-west-2.amazonaws.com/workspaces/ws-1/",
        "https://aps-workspaces.us-west-2.amazonaws.com/workspaces/ws-1",
    ):
        assert (
            handler.query_url(endpoint)
            == "https://aps-workspaces.us-west-2.amazonaws.com/workspaces/ws-1/api/v1/query"
        )


def _stub_training_plan(sagemaker: Stubber, end: datetime, status: str = "Active") -> None:
    sagemaker.add_response(
        "describe_training_plan",
        {
            "TrainingPlanArn": "arn:aws:sagemaker:us-west-2:123456789012:training-plan/kimi-k3-december",
            "TrainingPlanName": "kimi-k3-december",
            "Status": status,
            "EndTime": end,
        },
        {"TrainingPlanName": "kimi-k3-december"},
    )


def _hyperpod_event() -> dict:
    event = _event([])
    del event["capacityReservationId"], event["capacityBlockHoursLeftMetric"]
    event.update(
        loadBalancerTags={"elbv2.k8s.aws/cluster": "example-llm"},
        trainingPlanName="kimi-k3-december",
        trainingPlanHoursLeftMetric=TRAINING_PLAN_HOURS_LEFT,
    )
    return event


@pytest.mark.parametrize(
    "status, hours_to_end, hours_left", [("Active", 12.5, 12.5), ("Expired", -1, 0.0)]
)
def test_on_hyperpod_a_run_puts_the_training_plans_hours_left(
    clients, status, hours_to_end, hours_left
):
    # given a training plan ending in 12.5 hours (or already expired), and no load balancer of the operator yet
    sagemaker = clients["sagemaker"]
    _stub_training_plan(sagemaker, datetime.fromtimestamp(NOW + hours_to_end * 3600, UTC), status)
    elbv2, ec2, cloudwatch = clients["elbv2"], clients["ec2"], clients["cloudwatch"]
    elbv2.add_response("describe_load_balancers", {"LoadBalancers": []})
    cloudwatch.add_response("put_metric_data", {}, {"Namespace": NAMESPACE, "MetricData": ANY})
    # when the publisher runs with a HyperPod event
    put = handler.publish(
        _hyperpod_event(),
        now=NOW,
        query=None,
        cloudwatch=cloudwatch.client,
        elbv2=elbv2.client,
        ec2=ec2.client,
        sagemaker=sagemaker.client,
    )
    # then it asks SageMaker, not EC2, and puts the plan's hours left under its own name
    sagemaker.assert_no_pending_responses()
    assert [(d["MetricName"], d["Value"]) for d in put] == [
        (HEALTHY_TARGETS, 0.0),
        (TRAINING_PLAN_HOURS_LEFT, hours_left),
    ]


# --- the HyperPod path: the same constructs, from the session's synthesis --------------------------------------------


@pytest.fixture(scope="module")
def hyperpod_observability(synthesized_hyperpod) -> dict:
    return synthesized_hyperpod.template("observability")


@pytest.fixture(scope="module")
def hyperpod_event(hyperpod_observability) -> dict:
    return _scheduled_event(hyperpod_observability)


def test_a_hyperpod_environment_has_its_observability_stack_after_the_endpoint(
    synthesized_hyperpod, hyperpod_env
):
    deps = set(
        synthesized_hyperpod.manifest["artifacts"][hyperpod_env.stack_name("observability")].get(
            "dependencies", []
        )
    )
    assert hyperpod_env.stack_name("endpoint") in deps


def test_on_hyperpod_the_scraper_reads_the_operators_worker_pod_on_vllms_port(
    hyperpod_observability, synthesized_hyperpod
):
    from charts.inference_endpoint_chart import (
        inference_endpoint_spec_for,
        synthesize_inference_endpoint,
    )

    spec = inference_endpoint_spec_for(synthesized_hyperpod.env_config)
    # the InferenceEndpointConfig as the chart writes it
    (endpoint,) = [
        o for o in synthesize_inference_endpoint(spec) if o["kind"] == "InferenceEndpointConfig"
    ]
    worker = endpoint["spec"]["worker"]
    scraper = _only(_of_type(hyperpod_observability, "AWS::APS::Scraper"))["Properties"]
    config = yaml.safe_load(base64.b64decode(scraper["ScrapeConfiguration"]["ConfigurationBlob"]))
    (job,) = config["scrape_configs"]  # no node monitoring agent on HyperPod
    assert job["job_name"] == "vllm" and job["metrics_path"] == "/metrics"
    assert job["kubernetes_sd_configs"] == [
        {"role": "pod", "namespaces": {"names": [spec.namespace]}}
    ]
    port = str(worker["modelInvocationPort"]["containerPort"])
    assert {
        "action": "keep",
        "source_labels": ["__meta_kubernetes_pod_container_port_number"],
        "regex": port,
    } in job["relabel_configs"]
    # and only the pods the operator labels app=<InferenceEndpointConfig name>, not another pod declaring the same port
    assert {
        "action": "keep",
        "source_labels": ["__meta_kubernetes_pod_label_app"],
        "regex": spec.name,
    } in job["relabel_configs"]
    assert endpoint["metadata"]["name"] == spec.name
    assert endpoint["spec"]["metrics"]["modelMetrics"] == {
        "port": int(port),
        "path": "/metrics",
    }
    assert "ClusterSecurityGroupId" in json.dumps(
        scraper["Source"]["EksConfiguration"]["SecurityGroupIds"]
    )


def test_on_hyperpod_the_publisher_finds_the_operators_load_balancer_and_the_training_plan(
    hyperpod_event, hyperpod_env
):
    # the tag the endpoint stack's destroy waiter finds the operator's load balancers by
    assert hyperpod_event["loadBalancerTags"] == {
        "elbv2.k8s.aws/cluster": hyperpod_env.cluster_name
    }
    assert (
        hyperpod_event["trainingPlanName"]
        == hyperpod_env.hyperpod.training_plan_arn.rsplit("/", 1)[-1]
    )
    assert hyperpod_event["trainingPlanHoursLeftMetric"] == TRAINING_PLAN_HOURS_LEFT
    assert "capacityReservationId" not in hyperpod_event
    # every serving query, none of the node monitoring agent's, and the GPU queries over DCGM's series
    queries = {q["name"]: q["query"] for q in hyperpod_event["queries"]}
    assert set(queries) == set(PUBLISHED_METRICS) - {
        "GpuHardwareFatal",
        "NodeMonitoringAgentsUp",
    } | set(DCGM_PUBLISHED)
    assert {name: queries[name] for name in DCGM_PUBLISHED} == {
        m.name: m.query for m in DCGM_PUBLISHED.values()
    }
    assert "DCGM_FI_DEV_XID_ERRORS" in queries[
        "GpuXidErrors"
    ] and "problem_condition_count" not in json.dumps(queries)


def test_the_hyperpod_endpoint_waiter_and_the_publisher_use_the_same_load_balancer_tags(
    hyperpod_event, synthesized_hyperpod, hyperpod_env
):
    from cdk_constructs.destroy_waiter import load_balancer_controller_tags

    assert hyperpod_event["loadBalancerTags"] == load_balancer_controller_tags(
        hyperpod_env.cluster_name
    )
    (waiter,) = synthesized_hyperpod.resources("endpoint", "Custom::DestroyWaiter").values()
    # the waiter's tags are {key: the cluster's name}, the name imported from the cluster stack
    assert '"{\\"elbv2.k8s.aws/cluster\\":\\""' in json.dumps(waiter["Properties"]["Tags"])


def test_on_hyperpod_the_publisher_may_describe_the_training_plan_not_capacity_reservations(
    hyperpod_observability, hyperpod_env
):
    (policy,) = [
        p["Properties"]["PolicyDocument"]
        for k, p in _of_type(hyperpod_observability, "AWS::IAM::Policy").items()
        if k.startswith("ServingMetricsRole")
    ]
    actions = {
        a
        for s in policy["Statement"]
        for a in ([s["Action"]] if isinstance(s["Action"], str) else s["Action"])
    }
    assert "sagemaker:DescribeTrainingPlan" in actions
    assert "ec2:DescribeCapacityReservations" not in actions
    # DescribeTrainingPlan takes the training-plan resource: the configured plan only, never "*"
    (describe,) = [
        s
        for s in policy["Statement"]
        if "sagemaker:DescribeTrainingPlan" in json.dumps(s["Action"])
    ]
    assert describe["Action"] == "sagemaker:DescribeTrainingPlan"
    assert describe["Resource"] == hyperpod_env.hyperpod.training_plan_arn


def test_on_hyperpod_the_serving_alarms_and_the_xid_alarm_follow_the_configuration(
    hyperpod_observability, hyperpod_env
):
    alarms = _alarms(hyperpod_observability)
    serving = {
        "EndpointNoHealthyTarget",
        "TimeToFirstTokenP90High",
        "KvCacheUsageHigh",
        "ErrorRateHigh",
    }
    # GpusNotReporting (DCGM) in place of the EKS path's GpuNodeMissing (Container Insights' GPU samples)
    # CapacityEndingSoon on TrainingPlanHoursLeft: tests/cdk_constructs/test_capacity_events.py
    assert set(alarms) == serving | {"GpuXidErrors", "GpusNotReporting", "CapacityEndingSoon"}
    for alarm_id in serving | {"GpuXidErrors"}:
        alarm = alarms[alarm_id]
        metric, statistic, comparison, periods, datapoints, missing = EXPECTED_ALARMS[alarm_id]
        assert (alarm["Namespace"], alarm["MetricName"], alarm["Statistic"]) == (
            NAMESPACE,
            metric,
            statistic,
        )
        assert alarm["Dimensions"] == [{"Name": "ClusterName", "Value": hyperpod_env.cluster_name}]
        assert alarm["Threshold"] == _thresholds(hyperpod_env.observability)[alarm_id]
        assert (
            alarm["ComparisonOperator"],
            alarm["EvaluationPeriods"],
            alarm["DatapointsToAlarm"],
            alarm["TreatMissingData"],
        ) == (comparison, periods, datapoints, missing)
    # the instructions name the HyperPod objects, not the EKS path's Deployment
    description = alarms["EndpointNoHealthyTarget"]["AlarmDescription"]
    assert "inferenceendpointconfig" in description and "deployment/vllm" not in description
    assert "training plan's end" in description
    # the XID alarm says where its count comes from on HyperPod, and what to look at
    xid = alarms["GpuXidErrors"]["AlarmDescription"]
    assert "DCGM" in xid and "list-cluster-nodes" in xid and "node-monitoring" not in xid
    assert "nodegroup" not in xid and "AcceleratedHardwareReady" not in xid
    # fewer GPUs than the instance group holds (1 x ml.p6-b300.48xlarge: 8) for 5 minutes, missing data breaching
    missing = alarms["GpusNotReporting"]
    assert (missing["Namespace"], missing["MetricName"], missing["Statistic"]) == (
        NAMESPACE,
        "GpusReporting",
        "Minimum",
    )
    assert (
        missing["Threshold"],
        missing["ComparisonOperator"],
        missing["EvaluationPeriods"],
        missing["DatapointsToAlarm"],
        missing["TreatMissingData"],
    ) == (hyperpod_env.hyperpod.instance_count * 8, "LessThanThreshold", 5, 5, "breaching")
    assert "list-cluster-nodes" in missing["AlarmDescription"]
    assert "training-plans show kimi-k3-example" in missing["AlarmDescription"]


def test_the_hyperpod_dashboard_shows_the_serving_metrics_dcgm_gpu_rows_and_the_training_plan(
    hyperpod_observability, hyperpod_env
):
    body = json.loads(
        _text(
            _only(_of_type(hyperpod_observability, "AWS::CloudWatch::Dashboard"))["Properties"][
                "DashboardBody"
            ]
        )
        .replace('"TOKEN"', '"REGION"')
        .replace("TOKEN", "REGION")
    )
    metrics = _dashboard_metrics(body)
    serving = {m[1] for m in metrics if m[0] == NAMESPACE}
    assert serving == set(PUBLISHED_METRICS) - {"GpuHardwareFatal", "NodeMonitoringAgentsUp"} | set(
        DCGM_PUBLISHED
    ) | {HEALTHY_TARGETS, TRAINING_PLAN_HOURS_LEFT, BLOCK_COST_USD}
    # no Container Insights SEARCH or Metrics Insights query; metric math only in what the block earns
    assert not [
        m
        for m in metrics
        if isinstance(m[0], dict)
        and ("SEARCH" in m[0]["expression"] or "SELECT" in m[0]["expression"])
    ]
    titles = {w["properties"].get("title") for w in body["widgets"]}
    assert {
        "GPU utilization (%)",
        "GPU memory used (%)",
        "GPU temperature (°C)",
        "GPU power draw (W)",
        "GPUs reporting (DCGM)",
        "GPUs with an XID error (5 min)",
    } <= titles
    text = " ".join(w["properties"]["markdown"] for w in body["widgets"] if w["type"] == "text")
    plan = hyperpod_env.hyperpod.training_plan_arn.rsplit("/", 1)[-1]
    assert f"bin/llmops training-plans show {plan}" in text
    assert "aws logs tail /aws/containerinsights/example-hyperpod-llm/application" in text
    (alarm_widget,) = [w for w in body["widgets"] if w["type"] == "alarm"]
    assert len(alarm_widget["properties"]["alarms"]) == 7  # with CapacityEndingSoon


# --- the HyperPod path's GPU metrics: AWS's HyperPod observability add-on ------------------------------------------------


def test_on_hyperpod_the_observability_add_on_is_pinned_and_writes_to_the_serving_workspace(
    hyperpod_observability,
):
    # given the HyperPod environment's observability stack
    (addon,) = _addons(hyperpod_observability).values()
    props = addon["Properties"]
    # then AWS's add-on is installed at its pinned version, removed with the stack
    assert (props["AddonName"], props["AddonVersion"]) == (
        HYPERPOD_OBSERVABILITY.name,
        HYPERPOD_OBSERVABILITY.version,
    )
    assert props["PreserveOnDelete"] is False
    # and remote-writes to the stack's own workspace: its ARN and its endpoint without the trailing slash
    joined = props["ConfigurationValues"]["Fn::Join"][1]
    config = json.loads(_text(props["ConfigurationValues"]).replace("TOKEN", "X"))
    assert config["ampWorkspace"] == {"prometheusEndpoint": "X/workspaces/X", "arn": "X"}
    assert {"Fn::GetAtt": ["Prometheus", "Arn"]} in joined
    assert {"Fn::GetAtt": ["Prometheus", "WorkspaceId"]} in joined
    assert "amgWorkspace" not in config  # no Amazon Managed Grafana (it needs IAM Identity Center)
    assert (
        config["metricsProvider"]["acceleratedComputeMetrics"]["level"] == "BASIC"
    )  # DCGM's default counters
    assert config["logging"] == {"enabled": False}


def test_on_hyperpod_the_add_ons_collector_gets_its_role_through_the_add_ons_pod_identity_association(
    hyperpod_observability,
):
    (addon,) = _addons(hyperpod_observability).values()
    (association,) = addon["Properties"]["PodIdentityAssociations"]
    assert association["ServiceAccount"] == "hyperpod-observability-operator-otel-collector"
    assert HYPERPOD_OBSERVABILITY.service_account == (
        "hyperpod-observability",
        association["ServiceAccount"],
    )
    role_id = association["RoleArn"]["Fn::GetAtt"][0]
    (statement,) = hyperpod_observability["Resources"][role_id]["Properties"][
        "AssumeRolePolicyDocument"
    ]["Statement"]
    assert statement["Principal"] == {"Service": "pods.eks.amazonaws.com"}
    assert set(statement["Action"]) == {"sts:AssumeRole", "sts:TagSession"}
    # only for the add-on's service account of this cluster (the session tags EKS Pod Identity adds)
    conditions = statement["Condition"]["StringEquals"]
    assert (
        conditions["aws:RequestTag/kubernetes-namespace"],
        conditions["aws:RequestTag/kubernetes-service-account"],
    ) == HYPERPOD_OBSERVABILITY.service_account
    cluster_arn = json.dumps(conditions["aws:RequestTag/eks-cluster-arn"])
    assert "Cluster" in cluster_arn and "Arn" in cluster_arn
    assert "aws:SourceArn" not in json.dumps(statement)
    # and the add-on waits for the role's policy
    policy_id, policy = next(
        (k, v)
        for k, v in _of_type(hyperpod_observability, "AWS::IAM::Policy").items()
        if v["Properties"]["Roles"] == [{"Ref": role_id}]
    )
    assert policy_id in addon["DependsOn"]


def test_on_hyperpod_the_collector_may_write_only_to_the_workspace_and_the_clusters_log_groups(
    hyperpod_observability, hyperpod_env
):
    (addon,) = _addons(hyperpod_observability).values()
    role_id = addon["Properties"]["PodIdentityAssociations"][0]["RoleArn"]["Fn::GetAtt"][0]
    (policy,) = [
        v["Properties"]["PolicyDocument"]
        for v in _of_type(hyperpod_observability, "AWS::IAM::Policy").values()
        if v["Properties"]["Roles"] == [{"Ref": role_id}]
    ]
    statements = {s["Sid"]: s for s in policy["Statement"]}
    assert set(statements) == {"PrometheusAccess", "CloudwatchLogsAccess"}
    assert statements["PrometheusAccess"]["Action"] == "aps:RemoteWrite"
    assert statements["PrometheusAccess"]["Resource"] == {"Fn::GetAtt": ["Prometheus", "Arn"]}
    logs = statements["CloudwatchLogsAccess"]
    assert all(a.startswith("logs:") and "*" not in a for a in logs["Action"])
    prefix = (
        f":logs:{hyperpod_env.region}:{hyperpod_env.account}:log-group:/aws/sagemaker/Clusters/*"
    )
    assert [_text(r).removeprefix("arn:TOKEN") for r in logs["Resource"]] == [
        prefix,
        f"{prefix}:log-stream:*",
    ]


def test_the_eks_path_installs_no_hyperpod_observability_add_on(observability):
    assert not _addons(observability)


def test_the_gpu_queries_put_the_aggregates_of_a_stubbed_amp_answer(clients):
    # given AMP's answers to the HyperPod publisher's GPU queries for one node of 8 GPUs, one of them with an XID
    answers = {
        "GpuUtilizationPercent": _vector("87.5"),
        "GpuUtilizationMinPercent": _vector("12"),
        "GpuMemoryUsedPercent": _vector("93.25"),
        "GpuTemperatureMaxCelsius": _vector("71"),
        "GpuPowerDrawWatts": _vector("5600.5"),
        "GpusReporting": _vector("8"),
        "GpuXidErrors": _vector("1"),
    }
    queries = [DCGM_PUBLISHED[name].as_event() for name in answers]
    by_query = {DCGM_PUBLISHED[name].query: answer for name, answer in answers.items()}
    asked = []

    def query(url, params):
        asked.append(params["query"])
        return by_query[params["query"]]

    elbv2, cloudwatch = clients["elbv2"], clients["cloudwatch"]
    sagemaker = clients["sagemaker"]
    _stub_training_plan(sagemaker, datetime.fromtimestamp(NOW + 3600, UTC))
    elbv2.add_response("describe_load_balancers", {"LoadBalancers": []})
    cloudwatch.add_response("put_metric_data", {}, {"Namespace": NAMESPACE, "MetricData": ANY})
    # when the publisher runs with a HyperPod event carrying them
    put = handler.publish(
        {**_hyperpod_event(), "queries": queries},
        now=NOW,
        query=query,
        cloudwatch=cloudwatch.client,
        elbv2=elbv2.client,
        ec2=None,
        sagemaker=sagemaker.client,
    )
    # then it asked each PromQL query over DCGM's series once, and put each value with its unit
    assert sorted(asked) == sorted(by_query)
    assert "sum(max_over_time(DCGM_FI_DEV_XID_ERRORS[5m]) > bool 0)" in asked
    units = {d["MetricName"]: (d["Unit"], d["Value"]) for d in put}
    assert units["GpuUtilizationPercent"] == ("Percent", 87.5)
    assert units["GpuMemoryUsedPercent"] == ("Percent", 93.25)
    assert units["GpuTemperatureMaxCelsius"] == ("None", 71.0)
    assert units["GpuPowerDrawWatts"] == ("None", 5600.5)
    assert units["GpusReporting"] == ("Count", 8.0) and units["GpuXidErrors"] == ("Count", 1.0)


def test_without_dcgm_series_gpus_reporting_is_zero_and_xid_errors_put_nothing():
    # given a workspace with no DCGM series yet (the add-on not running, or no HyperPod node)
    queries = [
        DCGM_PUBLISHED[name].as_event()
        for name in ("GpusReporting", "GpuXidErrors", "GpuUtilizationPercent")
    ]
    # when the queries run
    data = handler.query_metrics(
        {**_hyperpod_event(), "queries": queries}, NOW, lambda url, params: _vector()
    )
    # then the dashboard sees 0 GPUs, and the XID alarm gets no value (missing data is not breaching)
    assert data == [{"MetricName": "GpusReporting", "Unit": "Count", "Value": 0.0}]


def test_gpu_memory_used_is_the_fullest_gpus_share_of_its_framebuffer():
    query = DCGM_PUBLISHED["GpuMemoryUsedPercent"].query
    assert query == "100 * max(DCGM_FI_DEV_FB_USED / (DCGM_FI_DEV_FB_USED + DCGM_FI_DEV_FB_FREE))"
