"""Reservation and cluster events to the environment's alarm topic (issue 11, item 1), and the capacity-ending alarm.

Given the session's synthesis of both example environments, the rules' event patterns are matched against AWS's own
sample events, with a small matcher for the part of EventBridge's pattern syntax the rules use; the messages are
rendered from the same samples as EventBridge's input transformer would. The rules and the topic live in the cluster
stack, which a staged deploy creates before the capacity starts (docs/deploy.md); the capacity-ending alarm in the
observability stack. Nothing calls AWS.
"""

from __future__ import annotations

import copy
import json
import re

import pytest

from cdk_constructs.serving_alarms import CAPACITY_ENDING_HOURS
from cdk_constructs.serving_metrics import (
    CAPACITY_BLOCK_HOURS_LEFT,
    NAMESPACE,
    TRAINING_PLAN_HOURS_LEFT,
)

# --- a matcher for the subset of EventBridge event patterns the rules use ------------------------------------------
# EventBridge User Guide, "Amazon EventBridge event patterns" (eb-event-patterns.html) and "Comparison operators"
# (eb-create-pattern-operators.html): every field of the pattern must be in the event (AND); a field's list of values
# matches when the event's value equals any of them (OR); nested objects match the event's nested objects; an event
# value that is an array matches when any of its elements matches; {"prefix": "..."} matches the start of a string.


def _value_matches(candidates: list, value) -> bool:
    values = value if isinstance(value, list) else [value]
    for candidate in candidates:
        for v in values:
            if isinstance(candidate, dict):
                ((operator, operand),) = candidate.items()
                if operator != "prefix":
                    raise NotImplementedError(
                        f"pattern operator {operator!r} is not in the rules' subset"
                    )
                if isinstance(v, str) and v.startswith(operand):
                    return True
            elif candidate == v:
                return True
    return False


def matches(pattern: dict, event: dict) -> bool:
    for key, expected in pattern.items():
        if key not in event:
            return False
        if isinstance(expected, dict):
            if not isinstance(event[key], dict) or not matches(expected, event[key]):
                return False
        elif not _value_matches(expected, event[key]):
            return False
    return True


def test_the_matcher_follows_eventbridges_semantics():
    event = {"source": "aws.ec2", "detail": {"id": "cr-1", "tags": ["a", "b"]}}
    assert matches({"source": ["aws.ec2", "aws.sagemaker"]}, event)
    assert matches({"detail": {"tags": ["b"]}}, event)
    assert matches({"detail": {"id": [{"prefix": "cr-"}]}}, event)
    assert not matches({"detail": {"id": ["cr-2"]}}, event)
    assert not matches({"detail": {"missing": ["x"]}}, event)
    assert not matches({"source": ["aws.ec2"], "detail": {"id": ["cr-2"]}}, event)


# --- AWS's sample events -------------------------------------------------------------------------------------------


def ec2_sample(detail_type: str, reservation_id: str, end: str = "2026-12-03T11:30:00Z") -> dict:
    """EC2 User Guide, "Monitor Capacity Blocks using EventBridge" (capacity-blocks-monitor.html): the sample as shown,
    with its placeholders filled in. The page writes the detail type as ``detail_type``; EventBridge delivers every
    event with the field ``detail-type`` (EventBridge User Guide, "Amazon EventBridge event structure"), which is what
    a pattern is matched against."""
    return {
        "customer_event_id": f"{reservation_id}-delivered",
        "detail-type": detail_type,
        "source": "aws.ec2",
        "account": "111122223333",
        "time": "2026-11-30T19:50:00Z",
        "resources": [f"arn:aws:ec2:us-west-2:111122223333:capacity-reservation/{reservation_id}"],
        "detail": {"capacity-reservation-id": reservation_id, "end-date": end},
    }


#: The same page's "EC2 Capacity Reservation Instance Interruption Warning" (interruptible reservations, not blocks).
EC2_INTERRUPTION_WARNING = {
    "version": "0",
    "id": "12345678-1234-1234-1234-123456789012",
    "detail-type": "EC2 Capacity Reservation Instance Interruption Warning",
    "source": "aws.ec2",
    "account": "111122223333",
    "time": "2026-11-30T19:50:00Z",
    "region": "us-west-2",
    "resources": ["arn:aws:ec2:us-west-2:111122223333:instance/i-0123456789abcdef0"],
    "detail": {
        "instance-id": "i-0123456789abcdef0",
        "instance-action": "terminate",
        "instance-termination-time": "2026-11-30T19:52:00Z",
        "azId": "usw2-az1",
    },
}

#: SageMaker developer guide, "Events that Amazon SageMaker AI sends to Amazon EventBridge"
#: (automating-sagemaker-with-eventbridge.html), "SageMaker HyperPod cluster node health", as published.
HYPERPOD_NODE_HEALTH_SAMPLE = {
    "version": "0",
    "id": "0bd4a141-0a02-9d8a-f977-3924c3fb259c",
    "detail-type": "SageMaker HyperPod Cluster Node Health Event",
    "source": "aws.sagemaker",
    "account": "111122223333",
    "time": "2021-10-25T01:52:12Z",
    "region": "us-west-2",
    "resources": ["arn:aws:sagemaker:us-west-2:111122223333:cluster/sample-cluster"],
    "detail": {
        "ClusterName": "sample-cluster",
        "ClusterArn": "arn:aws:sagemaker:us-west-2:111122223333:cluster/sample-cluster",
        "InstanceId": "i-12345678abcdefghi",
        "Tags": {},
        "HealthSummary": {
            "HealthStatus": "Unhealthy",
            "HealthStatusReason": "HyperPod Health Monitoring Agent (HMA) has detected fault type NvidiaErrorTerminate on "
            "this node and is unhealthy.",
            "RepairAction": "None",
            "Recommendation": "Please Replace the Faulty Node.",
        },
    },
}

#: The same page, "SageMaker HyperPod cluster state change" (its InstanceGroups shortened to the fields read here).
HYPERPOD_STATE_CHANGE_SAMPLE = {
    "version": "0",
    "id": "0bd4a141-0a02-9d8a-f977-3924c3fb259c",
    "detail-type": "SageMaker HyperPod Cluster State Change",
    "source": "aws.sagemaker",
    "account": "111122223333",
    "time": "2025-04-28T16:59:01Z",
    "region": "us-west-2",
    "resources": ["arn:aws:sagemaker:us-west-2:111122223333:cluster/sample-cluster"],
    "detail": {
        "ClusterArn": "arn:aws:sagemaker:us-west-2:111122223333:cluster/sample-cluster",
        "ClusterName": "sample-cluster",
        "ClusterStatus": "InService",
        "CreationTime": 1745858447412,
        "FailureMessage": "",
        "InstanceGroups": [
            {
                "CurrentCount": 1,
                "InstanceGroupName": "example instance group name",
                "Status": "Failed",
                "TargetCount": 2,
                "TrainingPlanStatus": "NotApplicable",
            }
        ],
        "NodeRecovery": "Automatic",
        "Orchestrator": {
            "Eks": {
                "ClusterArn": "arn:aws:eks:us-west-2:111122223333:cluster/my-hyperPod-eks-cluster"
            }
        },
    },
}


def for_cluster(sample: dict, cluster_name: str) -> dict:
    """The sample with its cluster name (and the name in its ARNs) replaced."""
    return json.loads(json.dumps(sample).replace("sample-cluster", cluster_name))


# --- the synthesized rules -------------------------------------------------------------------------------------------


def _rules(template: dict) -> dict[str, dict]:
    """The stack's event-pattern rules by their construct id (the publisher's schedule rule has no pattern)."""
    return {
        re.sub(r"^CapacityEvents|[0-9A-F]{8}$", "", k): v["Properties"]
        for k, v in template["Resources"].items()
        if v["Type"] == "AWS::Events::Rule" and "EventPattern" in v["Properties"]
    }


@pytest.fixture(scope="module")
def eks_template(synthesized) -> dict:
    """The EKS example's cluster stack: the alarm topic and the event rules."""
    return synthesized.template("cluster")


@pytest.fixture(scope="module")
def hyperpod_template(synthesized_hyperpod) -> dict:
    return synthesized_hyperpod.template("cluster")


@pytest.fixture(scope="module")
def eks_observability(synthesized) -> dict:
    """The EKS example's observability stack: the alarms."""
    return synthesized.template("observability")


@pytest.fixture(scope="module")
def hyperpod_observability(synthesized_hyperpod) -> dict:
    return synthesized_hyperpod.template("observability")


@pytest.fixture(scope="module")
def eks_rules(eks_template) -> dict[str, dict]:
    return _rules(eks_template)


@pytest.fixture(scope="module")
def hyperpod_rules(hyperpod_template) -> dict[str, dict]:
    return _rules(hyperpod_template)


def _matching(rules: dict[str, dict], event: dict) -> set[str]:
    return {name for name, rule in rules.items() if matches(rule["EventPattern"], event)}


def render(rule: dict, event: dict) -> str:
    """The text EventBridge's input transformer sends for ``event`` (EventBridge User Guide, "Amazon EventBridge input
    transformation": each ``<name>`` of the template is the value at ``InputPathsMap[name]``)."""
    (target,) = rule["Targets"]
    transformer = target["InputTransformer"]
    text = json.loads(transformer["InputTemplate"])  # a quoted template: the target gets a string
    for name, path in transformer["InputPathsMap"].items():
        value = event
        for part in path.removeprefix("$.").split("."):
            value = value[part]
        text = text.replace(f"<{name}>", str(value))
    assert not re.search(r"<[\w-]+>", text), text
    return text


@pytest.mark.parametrize(
    "spelling", ["Capacity Block Delivered", "Capacity Block Reservation Delivered"]
)
def test_the_delivered_event_of_the_environments_capacity_block_matches_in_both_spellings(
    eks_rules, default_env, spelling
):
    event = ec2_sample(spelling, default_env.capacity.capacity_reservation_id)
    assert _matching(eks_rules, event) == {"CapacityBlockDelivered"}


@pytest.mark.parametrize(
    "spelling",
    ["Capacity Block Expiration Warning", "Capacity Block Reservation Expiration Warning"],
)
def test_the_expiration_warning_of_the_environments_capacity_block_matches_in_both_spellings(
    eks_rules, default_env, spelling
):
    event = ec2_sample(spelling, default_env.capacity.capacity_reservation_id)
    assert _matching(eks_rules, event) == {"CapacityBlockExpirationWarning"}


@pytest.mark.parametrize(
    "spelling", ["Capacity Block Delivered", "Capacity Block Reservation Expiration Warning"]
)
def test_another_reservations_events_do_not_match(eks_rules, hyperpod_rules, spelling):
    event = ec2_sample(spelling, "cr-0fedcba9876543210")
    assert _matching(eks_rules, event) == set() == _matching(hyperpod_rules, event)


def test_an_interruptible_reservations_warning_and_hyperpod_events_do_not_match_the_eks_rules(
    eks_rules, hyperpod_env
):
    assert _matching(eks_rules, EC2_INTERRUPTION_WARNING) == set()
    for sample in (HYPERPOD_NODE_HEALTH_SAMPLE, HYPERPOD_STATE_CHANGE_SAMPLE):
        assert _matching(eks_rules, for_cluster(sample, f"{hyperpod_env.name}-hyperpod")) == set()


def test_the_delivered_message_names_the_environment_the_reservation_its_end_and_what_to_run(
    eks_rules, default_env
):
    reservation = default_env.capacity.capacity_reservation_id
    text = render(
        eks_rules["CapacityBlockDelivered"], ec2_sample("Capacity Block Delivered", reservation)
    )
    assert text.startswith(
        f"[{default_env.name}] Capacity Block {reservation} was delivered at 2026-11-30T19:50:00Z"
    )
    assert "active until 2026-12-03T11:30:00Z" in text
    assert f"bin/llmops capacity-blocks show {reservation} --region {default_env.region}" in text
    assert f"bin/llmops wait nodes --env {default_env.name}" in text


def test_the_expiration_message_says_what_happens_in_the_next_40_minutes_and_what_to_run(
    eks_rules, default_env
):
    reservation = default_env.capacity.capacity_reservation_id
    text = render(
        eks_rules["CapacityBlockExpirationWarning"],
        ec2_sample("Capacity Block Reservation Expiration Warning", reservation),
    )
    assert text.startswith(
        f"[{default_env.name}] Capacity Block {reservation} ends at 2026-12-03T11:30:00Z"
    )
    assert (
        "EKS scales the GPU node group to 0 now; EC2 begins to terminate the instances in 10 minutes"
        in text
    )
    assert f"bin/llmops capacity-blocks extend {reservation} --duration-hours 24" in text
    assert f"bin/llmops capacity-blocks offerings --env {default_env.name}" in text


@pytest.mark.parametrize(
    ("sample", "rule"),
    [
        (HYPERPOD_NODE_HEALTH_SAMPLE, "HyperPodNodeHealth"),
        (HYPERPOD_STATE_CHANGE_SAMPLE, "HyperPodClusterStateChange"),
    ],
)
def test_hyperpod_samples_of_this_cluster_match_and_another_clusters_do_not(
    hyperpod_rules, hyperpod_env, sample, rule
):
    assert _matching(hyperpod_rules, for_cluster(sample, f"{hyperpod_env.name}-hyperpod")) == {rule}
    assert _matching(hyperpod_rules, sample) == set()  # AWS's sample-cluster
    assert _matching(hyperpod_rules, for_cluster(sample, "other-hyperpod")) == set()


def test_a_hyperpod_environment_has_no_capacity_block_rules_and_an_eks_one_no_hyperpod_rules(
    eks_rules, hyperpod_rules
):
    assert set(eks_rules) == {"CapacityBlockDelivered", "CapacityBlockExpirationWarning"}
    # no "SageMaker HyperPod Cluster Event" rule: it comes only with NodeProvisioningMode Continuous, which the
    # project's cluster does not set
    assert set(hyperpod_rules) == {"HyperPodClusterStateChange", "HyperPodNodeHealth"}


def test_the_hyperpod_cluster_sets_no_continuous_provisioning(synthesized_hyperpod):
    (cluster,) = synthesized_hyperpod.resources("hyperpod", "AWS::SageMaker::Cluster").values()
    assert "NodeProvisioningMode" not in cluster["Properties"]


def test_the_node_health_message_names_the_node_its_health_the_repair_and_what_to_run(
    hyperpod_rules, hyperpod_env
):
    name = f"{hyperpod_env.name}-hyperpod"
    text = render(
        hyperpod_rules["HyperPodNodeHealth"], for_cluster(HYPERPOD_NODE_HEALTH_SAMPLE, name)
    )
    assert text.startswith(
        f"[{hyperpod_env.name}] HyperPod cluster {name}, instance i-12345678abcdefghi: Unhealthy"
    )
    assert "NvidiaErrorTerminate" in text and "Please Replace the Faulty Node." in text
    assert (
        f"aws sagemaker list-cluster-nodes --cluster-name {name} --region {hyperpod_env.region}"
        in text
    )


def test_the_state_change_message_names_the_status_and_what_to_run(hyperpod_rules, hyperpod_env):
    name = f"{hyperpod_env.name}-hyperpod"
    failed = copy.deepcopy(for_cluster(HYPERPOD_STATE_CHANGE_SAMPLE, name))
    failed["detail"]["ClusterStatus"] = "Failed"
    text = render(hyperpod_rules["HyperPodClusterStateChange"], failed)
    assert text.startswith(
        f"[{hyperpod_env.name}] HyperPod cluster {name} is now Failed (2025-04-28T16:59:01Z)"
    )
    assert f"aws sagemaker describe-cluster --cluster-name {name}" in text


@pytest.mark.parametrize("which", ["eks", "hyperpod"])
def test_every_rule_sends_its_text_to_the_alarm_topic(eks_template, hyperpod_template, which):
    template = {"eks": eks_template, "hyperpod": hyperpod_template}[which]
    (topic_id,) = [k for k, v in template["Resources"].items() if v["Type"] == "AWS::SNS::Topic"]
    for name, rule in _rules(template).items():
        (target,) = rule["Targets"]
        assert target["Arn"] == {"Ref": topic_id}, name
        assert rule["State"] == "ENABLED"
        assert json.loads(target["InputTransformer"]["InputTemplate"]).startswith("["), name


@pytest.mark.parametrize("which", ["eks", "hyperpod"])
def test_the_rules_and_the_topic_are_in_the_cluster_stack_which_a_staged_deploy_creates_before_the_capacity(
    synthesized, synthesized_hyperpod, which
):
    """Given the staged deploy (stage 1: ``cdk deploy NAME-cluster`` before the block or plan starts), when EC2 or
    SageMaker sends the start event, then the rule is already there: the cluster stack needs only the network stack,
    and the observability stack (deployed at stage 2) holds no rule and no topic of its own."""
    app = {"eks": synthesized, "hyperpod": synthesized_hyperpod}[which]
    env = app.env_config
    cluster = app.template("cluster")
    assert len(_rules(cluster)) == 2
    assert len([r for r in cluster["Resources"].values() if r["Type"] == "AWS::SNS::Topic"]) == 1
    stacks = app.manifest["artifacts"]
    assert {
        d
        for d in stacks[env.stack_name("cluster")].get("dependencies", [])
        if d in stacks and stacks[d]["type"] == "aws:cloudformation:stack"
    } == {env.stack_name("network")}
    observability = app.template("observability")
    assert _rules(observability) == {}
    assert not [
        r
        for r in observability["Resources"].values()
        if r["Type"] in ("AWS::SNS::Topic", "AWS::KMS::Key")
    ]


def _exported(template: dict, export_name: str):
    """The value ``template`` exports under ``export_name``."""
    (value,) = [
        o["Value"]
        for o in template.get("Outputs", {}).values()
        if o.get("Export", {}).get("Name") == export_name
    ]
    return value


@pytest.mark.parametrize("which", ["eks", "hyperpod"])
def test_every_alarm_of_the_observability_stack_notifies_the_cluster_stacks_topic(
    synthesized, synthesized_hyperpod, which
):
    """Given the topic in the cluster stack, then each alarm's ALARM and OK actions import the topic's ARN from it, and
    the observability stack depends on the cluster stack: it is destroyed first, so the topic outlives its alarms."""
    app = {"eks": synthesized, "hyperpod": synthesized_hyperpod}[which]
    env = app.env_config
    cluster = app.template("cluster")
    (topic_id,) = [k for k, v in cluster["Resources"].items() if v["Type"] == "AWS::SNS::Topic"]
    alarms = [
        v["Properties"]
        for v in app.template("observability")["Resources"].values()
        if v["Type"] == "AWS::CloudWatch::Alarm"
    ]
    assert alarms
    for alarm in alarms:
        (action,) = alarm["AlarmActions"]
        assert alarm["OKActions"] == [action], alarm["AlarmName"]
        assert _exported(cluster, action["Fn::ImportValue"]) == {"Ref": topic_id}, alarm[
            "AlarmName"
        ]
    assert (
        env.stack_name("cluster")
        in app.manifest["artifacts"][env.stack_name("observability")]["dependencies"]
    )


@pytest.mark.parametrize("which", ["eks", "hyperpod"])
def test_the_alarm_topic_arn_is_an_output_of_the_cluster_stack(
    synthesized, synthesized_hyperpod, which
):
    app = {"eks": synthesized, "hyperpod": synthesized_hyperpod}[which]
    cluster = app.template("cluster")
    (topic_id,) = [k for k, v in cluster["Resources"].items() if v["Type"] == "AWS::SNS::Topic"]
    assert cluster["Outputs"]["AlarmTopicArn"]["Value"] == {"Ref": topic_id}
    assert "AlarmTopicArn" not in app.template("observability").get("Outputs", {})


@pytest.mark.parametrize("which", ["eks", "hyperpod"])
def test_eventbridge_may_publish_to_the_topic_and_use_its_key_without_unsupported_conditions(
    eks_template, hyperpod_template, which
):
    template = {"eks": eks_template, "hyperpod": hyperpod_template}[which]
    resources = template["Resources"].values()
    (policy,) = [
        r["Properties"]["PolicyDocument"] for r in resources if r["Type"] == "AWS::SNS::TopicPolicy"
    ]
    events = {"Service": "events.amazonaws.com"}
    assert any(
        s["Effect"] == "Allow" and s["Principal"] == events and s["Action"] == "sns:Publish"
        for s in policy["Statement"]
    )
    (key,) = [
        r["Properties"]["KeyPolicy"]
        for r in resources
        if r["Type"] == "AWS::KMS::Key"
        and any(s.get("Principal") == events for s in r["Properties"]["KeyPolicy"]["Statement"])
    ]
    (statement,) = [s for s in key["Statement"] if s.get("Principal") == events]
    assert sorted(statement["Action"]) == ["kms:Decrypt", "kms:GenerateDataKey*"]
    # SNS developer guide: aws:SourceAccount / aws:SourceArn are not supported for EventBridge to encrypted topics
    assert "Condition" not in statement


# --- the capacity-ending alarm -------------------------------------------------------------------------------------


def _alarm(template: dict, alarm_id: str) -> dict:
    (alarm,) = [
        v["Properties"]
        for v in template["Resources"].values()
        if v["Type"] == "AWS::CloudWatch::Alarm"
        and v["Properties"]["AlarmName"].endswith(f"-{alarm_id}")
    ]
    return alarm


@pytest.mark.parametrize(
    ("which", "metric"),
    [("eks", CAPACITY_BLOCK_HOURS_LEFT), ("hyperpod", TRAINING_PLAN_HOURS_LEFT)],
)
def test_the_capacity_ending_alarm_fires_2_hours_before_the_end(
    eks_observability, hyperpod_observability, default_env, hyperpod_env, which, metric
):
    template, env = {
        "eks": (eks_observability, default_env),
        "hyperpod": (hyperpod_observability, hyperpod_env),
    }[which]
    alarm = _alarm(template, "CapacityEndingSoon")
    assert (alarm["Namespace"], alarm["MetricName"], alarm["Statistic"], alarm["Period"]) == (
        NAMESPACE,
        metric,
        "Minimum",
        60,
    )
    assert alarm["Dimensions"] == [{"Name": "ClusterName", "Value": env.cluster_name}]
    assert (
        alarm["Threshold"],
        alarm["ComparisonOperator"],
        alarm["EvaluationPeriods"],
        alarm["DatapointsToAlarm"],
        alarm["TreatMissingData"],
    ) == (CAPACITY_ENDING_HOURS, "LessThanThreshold", 1, 1, "notBreaching")
    assert CAPACITY_ENDING_HOURS > 1  # EC2 extends a Capacity Block until 1 hour before its end
    (topic,) = alarm["AlarmActions"]
    assert alarm["OKActions"] == [topic] and "ImportValue" in json.dumps(
        topic
    )  # the cluster stack's topic


def test_the_capacity_ending_alarms_say_how_to_extend_or_replace_the_capacity(
    eks_observability, hyperpod_observability, default_env, hyperpod_env
):
    reservation = default_env.capacity.capacity_reservation_id
    eks = _alarm(eks_observability, "CapacityEndingSoon")["AlarmDescription"]
    assert f"bin/llmops capacity-blocks extend {reservation} --duration-hours 24" in eks
    plan = hyperpod_env.hyperpod.training_plan_arn.rsplit("/", 1)[-1]
    hyperpod = _alarm(hyperpod_observability, "CapacityEndingSoon")["AlarmDescription"]
    assert (
        f"bin/llmops training-plans show {plan}" in hyperpod and "capacity-blocks" not in hyperpod
    )
