"""Bridge capacity (the bridge section, docs/stay-up.md): with a block ending and no next block, an on-demand node
group at zero that two EventBridge Scheduler one-time schedules start one startup budget (and the margin) before the
block's scale-down and stop after the block's end.

One synthesis for the module, with cdk-nag, of network, cluster and GPU nodes of tests/configs/bridge.yaml (the
project's pattern for a variant: tests/stacks/test_block_succession.py); the schedule is read back from the template,
not from the plan that wrote it.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.cfn_lint import cfn_lint_errors
from tests.iam_statements import findings, statements

TEST_CONFIGS = Path(__file__).resolve().parents[1] / "configs"
TARGET = "arn:${AWS::Partition}:scheduler:::aws-sdk:eks:updateNodegroupConfig"


@pytest.fixture(scope="module")
def bridge_env():
    from deployment_config import load_environment

    return load_environment(TEST_CONFIGS, "bridge")


@pytest.fixture(scope="module")
def gpu_nodes_stack(bridge_env, tmp_path_factory):
    from app import checked_app
    from stacks.composition import _base, _props
    from stacks.gpu_nodes_stack import GpuNodesStack

    app = checked_app(str(tmp_path_factory.mktemp("bridge.out")), inspect_only=True)
    network, cluster = _base(app, bridge_env)
    GpuNodesStack(
        app,
        **_props(bridge_env, "gpu-nodes"),
        env_config=bridge_env,
        cluster=cluster.cluster,
        gpu_subnet=network.gpu_subnets[0],
        efa_security_group=network.efa_security_group,
    )
    assembly = app.synth()  # raises on an unacknowledged cdk-nag finding
    return assembly.get_stack_by_name(bridge_env.stack_name("gpu-nodes"))


@pytest.fixture(scope="module")
def template(gpu_nodes_stack) -> dict:
    return gpu_nodes_stack.template


def _resources(template: dict, kind: str) -> dict[str, dict]:
    return {k: r for k, r in template["Resources"].items() if r["Type"] == kind}


def _groups(template: dict) -> dict[str, dict]:
    return {
        r["Properties"]["NodegroupName"]: r
        for r in _resources(template, "AWS::EKS::Nodegroup").values()
    }


def _target_arn(target: dict) -> str:
    arn = target["Arn"]
    if isinstance(
        arn, dict
    ):  # {"Fn::Join": ["", ["arn:", {"Ref": "AWS::Partition"}, ":scheduler:::..."]]}
        arn = "".join(
            p if isinstance(p, str) else "${" + p["Ref"] + "}" for p in arn["Fn::Join"][1]
        )
    return arn


def _input(target: dict) -> dict:
    text = target["Input"]
    if isinstance(text, dict):  # the cluster's name is a token: Fn::Join of strings and references
        text = "".join(p if isinstance(p, str) else "CLUSTER" for p in text["Fn::Join"][1])
    return json.loads(text)


def _schedule(template: dict) -> list[tuple[datetime, dict]]:
    """The template's schedules, read as EventBridge Scheduler does: (when, the UpdateNodegroupConfig request)."""
    found = []
    for resource in _resources(template, "AWS::Scheduler::Schedule").values():
        props = resource["Properties"]
        assert props["ScheduleExpressionTimezone"] == "UTC"
        assert props["FlexibleTimeWindow"] == {"Mode": "OFF"}
        expression = props["ScheduleExpression"]
        assert expression.startswith("at(") and expression.endswith(")")
        when = datetime.strptime(expression[3:-1], "%Y-%m-%dT%H:%M:%S").replace(tzinfo=UTC)
        assert _target_arn(props["Target"]) == TARGET
        found.append((when, _input(props["Target"])))
    return sorted(found, key=lambda item: item[0])


def test_given_a_block_ending_and_no_next_block_then_the_bridge_starts_a_startup_budget_before_the_scale_down(
    template, bridge_env
):
    # given the block's end in the file and the startup budget of its pods
    scale_down = datetime(2026, 12, 6, 11, 30, tzinfo=UTC) - timedelta(minutes=40)
    budget = timedelta(seconds=bridge_env.pod_startup_budget.probe_seconds)
    # when the schedules are read from the synthesized template
    (start_at, start), (stop_at, stop) = _schedule(template)
    # then the bridge starts at least one startup budget (and the margin) before EKS scales the block down
    assert start_at <= scale_down - budget - timedelta(minutes=bridge_env.bridge.margin_minutes)
    assert start["ScalingConfig"] == {"MinSize": 0, "MaxSize": 1, "DesiredSize": 1}
    # and it stops after the block has ended, scaled to 0
    assert stop_at == datetime(2026, 12, 7, 11, 30, tzinfo=UTC) > scale_down
    assert stop["ScalingConfig"] == {"MinSize": 0, "MaxSize": 1, "DesiredSize": 0}
    for request in (start, stop):
        assert request["NodegroupName"] == "gpu-bridge"
    # named as docs/stay-up.md tells the reader to look them up
    names = sorted(
        r["Properties"]["Name"] for r in _resources(template, "AWS::Scheduler::Schedule").values()
    )
    assert names == ["bridge-llm-bridge-start", "bridge-llm-bridge-stop"]


def test_given_a_bridge_then_its_node_group_is_on_demand_at_zero_with_the_blocks_labels_and_taints(
    template, bridge_env
):
    groups = _groups(template)
    block, bridge = groups["gpu-capacity-block"]["Properties"], groups["gpu-bridge"]["Properties"]
    assert bridge["CapacityType"] == "ON_DEMAND"
    assert bridge["ScalingConfig"] == {"MinSize": 0, "DesiredSize": 0, "MaxSize": 1}
    assert (bridge["Labels"], bridge["Taints"], bridge["Subnets"]) == (
        block["Labels"],
        block["Taints"],
        block["Subnets"],
    )
    # its own launch template, of the bridge's type, on no reservation
    launch = template["Resources"][bridge["LaunchTemplate"]["Id"]["Ref"]]["Properties"]
    data = launch["LaunchTemplateData"]
    assert data["InstanceType"] == bridge_env.bridge.instance_types[0]
    assert "CapacityReservationSpecification" not in data
    assert "InstanceMarketOptions" not in data


def test_given_a_bridge_then_the_schedules_may_update_that_one_node_group_only(template):
    # given the schedules' role
    (schedule, *_) = _resources(template, "AWS::Scheduler::Schedule").values()
    role_id = schedule["Properties"]["Target"]["RoleArn"]["Fn::GetAtt"][0]
    role = template["Resources"][role_id]["Properties"]
    (trust,) = role["AssumeRolePolicyDocument"]["Statement"]
    assert trust["Principal"] == {"Service": "scheduler.amazonaws.com"}
    assert trust["Condition"] == {"StringEquals": {"aws:SourceAccount": {"Ref": "AWS::AccountId"}}}
    # then its one grant is UpdateNodegroupConfig on the bridge's node group
    bridge_id = next(
        k for k, r in _resources(template, "AWS::EKS::Nodegroup").items() if "Bridge" in k
    )
    granted = [
        s
        for p in _resources(template, "AWS::IAM::Policy").values()
        if {"Ref": role_id} in p["Properties"]["Roles"]
        for s in p["Properties"]["PolicyDocument"]["Statement"]
    ]
    assert granted == [
        {
            "Action": "eks:UpdateNodegroupConfig",
            "Effect": "Allow",
            "Resource": {"Fn::GetAtt": [bridge_id, "Arn"]},
        }
    ]


def test_given_a_bridge_then_every_statement_passes_the_service_authorization_reference(template):
    wrong = [f for s in statements({"bridge-gpu-nodes": template}) for f in findings(s)]
    assert wrong == [], wrong


def test_given_a_bridge_then_the_template_passes_cfn_lint(gpu_nodes_stack, bridge_env):
    assert cfn_lint_errors([gpu_nodes_stack.template_full_path], [bridge_env.region]) == []


def test_given_a_bridge_then_as_many_replicas_wait_for_its_nodes(bridge_env, default_env):
    from charts.serving_spec import serving_spec_for
    from charts.vllm_serving_chart import synthesize_manifests

    def deployment(env) -> dict:
        (found,) = [
            o
            for o in synthesize_manifests(serving_spec_for(env))
            if o["kind"] == "Deployment" and o["metadata"]["name"] == "vllm"
        ]
        return found["spec"]

    # the bridge's replicas exist before its nodes do (Pending), so they start as soon as the nodes join
    assert deployment(bridge_env)["replicas"] == 2 * deployment(default_env)["replicas"]


def _machine(template: dict, construct: str = "BridgeOnAlarm") -> tuple[str, dict]:
    """The logical id and resource of the state machine of ``construct`` (BridgeOnAlarm or BridgeScaleDown)."""
    (found,) = [
        (k, r)
        for k, r in _resources(template, "AWS::StepFunctions::StateMachine").items()
        if k.startswith(construct)
    ]
    return found


def _rule(template: dict, construct: str = "BridgeOnAlarm") -> dict:
    (found,) = [
        r for k, r in _resources(template, "AWS::Events::Rule").items() if k.startswith(construct)
    ]
    return found


def _definition(template: dict, construct: str = "BridgeOnAlarm") -> dict:
    """A state machine's definition, its Fn::Join resolved (tokens written as ${Ref} or ${Id.Attr})."""
    machine = _machine(template, construct)[1]
    parts = machine["Properties"]["DefinitionString"]["Fn::Join"][1]

    def text(part) -> str:
        if isinstance(part, str):
            return part
        if "Ref" in part:
            return "${" + part["Ref"] + "}"
        return "${" + ".".join(part["Fn::GetAtt"]) + "}"

    return json.loads("".join(text(p) for p in parts))


def test_given_a_bridge_then_the_healthy_target_alarm_going_from_ok_to_alarm_starts_the_state_machine(
    template, bridge_env
):
    # given the bridge-on-alarm rule of the GPU nodes stack
    rule = _rule(template)
    pattern = rule["Properties"]["EventPattern"]
    # then it names the serving alarm on healthy targets, and only its OK to ALARM transition
    assert pattern["source"] == ["aws.cloudwatch"]
    assert pattern["detail-type"] == ["CloudWatch Alarm State Change"]
    assert pattern["detail"] == {
        "alarmName": [f"{bridge_env.cluster_name}-EndpointNoHealthyTarget"],
        "state": {"value": ["ALARM"]},
        "previousState": {"value": ["OK"]},
    }
    # and its target is the state machine
    (target,) = rule["Properties"]["Targets"]
    assert target["Arn"] == {"Ref": _machine(template)[0]}


def test_given_a_bridge_then_the_alarm_machine_scales_the_bridge_to_the_schedules_size_before_its_start(
    template, bridge_env
):
    from deployment_config.bridge import bridge_plan

    plan = bridge_plan(bridge_env)
    definition = _definition(template)
    states = definition["States"]
    # given a valid definition: every Next and Default names a state, and the start is one of them
    assert definition["StartAt"] in states
    for state in states.values():
        for name in [state.get("Next"), state.get("Default")] + [
            c["Next"] for c in state.get("Choices", [])
        ]:
            assert name is None or name in states
    # when the event is of before the bridge's scheduled start
    choice = states[definition["StartAt"]]
    (rule,) = choice["Choices"]
    assert rule == {
        "Variable": "$.time",
        "TimestampLessThan": plan.start.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "Next": rule["Next"],
    }
    # then it calls UpdateNodegroupConfig on the bridge node group, with the start schedule's size
    task = states[rule["Next"]]
    assert task["Resource"] == "arn:${AWS::Partition}:states:::aws-sdk:eks:updateNodegroupConfig"
    assert task["Parameters"] == {
        "ClusterName": bridge_env.cluster_name,
        "NodegroupName": "gpu-bridge",
        "ScalingConfig": {"MinSize": 0, "MaxSize": plan.instances, "DesiredSize": plan.instances},
    }
    assert task.get("End") is True
    # and after it the schedules own the bridge: the machine changes nothing
    assert states[choice["Default"]]["Type"] == "Succeed"


def test_given_a_bridge_then_the_alarm_machine_may_update_that_one_node_group_only(template):
    machine = _machine(template)[1]
    role_id = machine["Properties"]["RoleArn"]["Fn::GetAtt"][0]
    bridge_id = next(
        k for k, r in _resources(template, "AWS::EKS::Nodegroup").items() if "Bridge" in k
    )
    granted = [
        s
        for p in _resources(template, "AWS::IAM::Policy").values()
        if {"Ref": role_id} in p["Properties"]["Roles"]
        for s in p["Properties"]["PolicyDocument"]["Statement"]
        if s["Action"] == "eks:UpdateNodegroupConfig" or "eks:UpdateNodegroupConfig" in s["Action"]
    ]
    assert granted == [
        {
            "Action": "eks:UpdateNodegroupConfig",
            "Effect": "Allow",
            "Resource": {"Fn::GetAtt": [bridge_id, "Arn"]},
        }
    ]


# The scale-down once the block's replicas are back (cdk_constructs/bridge_scale_down.py).


def test_given_a_bridge_then_an_alarm_is_ok_only_after_every_block_replica_was_ready_ten_minutes(
    template, bridge_env
):
    # given the alarm on the block's ready replicas
    (alarm,) = [
        r["Properties"]
        for r in _resources(template, "AWS::CloudWatch::Alarm").values()
        if r["Properties"].get("AlarmName") == f"{bridge_env.cluster_name}-BlockReplicasShort"
    ]
    # then it reads the publisher's BlockReplicasReady of this cluster, its worst minute
    assert (alarm["Namespace"], alarm["MetricName"]) == ("LLMServing", "BlockReplicasReady")
    assert alarm["Dimensions"] == [{"Name": "ClusterName", "Value": bridge_env.cluster_name}]
    assert (alarm["Statistic"], alarm["Period"]) == ("Minimum", 60)
    # and is in ALARM while fewer than the block's replicas are ready in any of the last 10 minutes (1 of 10),
    # a minute without data counting as short: OK means 10 minutes with every replica ready
    assert alarm["ComparisonOperator"] == "LessThanThreshold"
    assert alarm["Threshold"] == bridge_env.replicas
    assert (alarm["EvaluationPeriods"], alarm["DatapointsToAlarm"]) == (10, 1)
    assert alarm["TreatMissingData"] == "breaching"
    # and it notifies nobody: its state change is the signal
    assert "AlarmActions" not in alarm and "OKActions" not in alarm


def test_given_a_bridge_then_the_block_alarm_going_from_alarm_to_ok_starts_the_scale_down_machine(
    template, bridge_env
):
    rule = _rule(template, "BridgeScaleDown")
    assert rule["Properties"]["EventPattern"] == {
        "source": ["aws.cloudwatch"],
        "detail-type": ["CloudWatch Alarm State Change"],
        "detail": {
            "alarmName": [f"{bridge_env.cluster_name}-BlockReplicasShort"],
            "state": {"value": ["OK"]},
            "previousState": {"value": ["ALARM"]},
        },
    }
    (target,) = rule["Properties"]["Targets"]
    assert target["Arn"] == {"Ref": _machine(template, "BridgeScaleDown")[0]}


def _test(rule: dict, data: dict) -> bool:
    """One Choice rule of the operators the machine uses, on ``data`` (the Amazon States Language's meaning)."""
    value = data
    for key in rule["Variable"].removeprefix("$.").split("."):
        value = value[key]
    if "TimestampLessThan" in rule:
        return datetime.fromisoformat(value) < datetime.fromisoformat(rule["TimestampLessThan"])
    if "StringEquals" in rule:
        return value == rule["StringEquals"]
    return value > rule["NumericGreaterThan"]


def _run(definition: dict, *, now: datetime, alarm: str, desired: int, busy: int = 0) -> list[str]:
    """The calls the machine makes, walking its definition with stand-in answers: the alarm's state, the bridge's
    desired size, and how many UpdateNodegroupConfig calls EKS refuses as busy (each wait moves ``now`` a minute)."""
    states, name, data, calls = definition["States"], definition["StartAt"], {}, []
    while True:
        state = states[name]
        if state["Type"] == "Succeed":
            return calls
        if state["Type"] == "Pass":
            data = {"now": now.strftime("%Y-%m-%dT%H:%M:%S.000Z")}
        elif state["Type"] == "Wait":
            now += timedelta(seconds=state["Seconds"])
        elif state["Type"] == "Choice":
            name = next((c["Next"] for c in state["Choices"] if _test(c, data)), state["Default"])
            continue
        else:
            action = state["Resource"].rsplit(":", 1)[1]
            calls.append(action)
            if action == "describeAlarms":
                data["alarm"] = {"state": alarm}
            elif action == "describeNodegroup":
                data["bridge"] = {"desired": desired}
            elif busy:
                busy -= 1
                (catch,) = state["Catch"]
                assert catch["ErrorEquals"] == ["Eks.ResourceInUseException"]
                name = catch["Next"]
                continue
        if state.get("End"):
            return calls
        name = state["Next"]


def test_given_an_alarm_started_bridge_when_the_block_serves_again_then_it_scales_to_zero(
    template, bridge_env
):
    from deployment_config.bridge import bridge_plan

    plan = bridge_plan(bridge_env)
    definition = _definition(template, "BridgeScaleDown")
    before = plan.start - timedelta(hours=5)
    # given the bridge up before its scheduled start and the block's alarm OK: it is scaled to 0
    assert _run(definition, now=before, alarm="OK", desired=1) == [
        "describeAlarms",
        "describeNodegroup",
        "updateNodegroupConfig",
    ]
    (update,) = [
        s for s in definition["States"].values() if s.get("Resource", "").endswith("Config")
    ]
    assert update["Parameters"] == {
        "ClusterName": bridge_env.cluster_name,
        "NodegroupName": "gpu-bridge",
        "ScalingConfig": {"MinSize": 0, "MaxSize": plan.instances, "DesiredSize": 0},
    }
    # and a busy node group is tried again a minute later, deciding again
    assert _run(definition, now=before, alarm="OK", desired=1, busy=2).count("describeAlarms") == 3


def test_given_the_scale_down_machine_then_it_never_stops_the_bridge_the_endpoint_needs(
    template, bridge_env
):
    from deployment_config.bridge import bridge_plan

    plan = bridge_plan(bridge_env)
    definition = _definition(template, "BridgeScaleDown")
    before = plan.start - timedelta(hours=5)
    # the block short again by the time the machine runs: nothing changes
    assert _run(definition, now=before, alarm="ALARM", desired=1) == ["describeAlarms"]
    # the bridge not up (the block's first cold start also turns the alarm OK): nothing changes
    assert _run(definition, now=before, alarm="OK", desired=0) == [
        "describeAlarms",
        "describeNodegroup",
    ]
    # from the scheduled start on the schedules own it (the handover, then the stop after the block's end)
    for now in (plan.start, plan.scale_down, plan.block_end + timedelta(hours=1)):
        assert _run(definition, now=now, alarm="OK", desired=1) == []
    # and a busy node group whose retry would land after the scheduled start is left to the schedules: the one
    # refused attempt, then, a minute later, nothing
    assert _run(
        definition, now=plan.start - timedelta(seconds=30), alarm="OK", desired=1, busy=1
    ) == ["describeAlarms", "describeNodegroup", "updateNodegroupConfig"]


def test_given_the_scale_down_machine_then_it_may_read_and_update_the_bridge_and_read_its_alarm_only(
    template,
):
    role_id = _machine(template, "BridgeScaleDown")[1]["Properties"]["RoleArn"]["Fn::GetAtt"][0]
    bridge_id = next(
        k for k, r in _resources(template, "AWS::EKS::Nodegroup").items() if "Bridge" in k
    )
    alarm_id = next(
        k for k in _resources(template, "AWS::CloudWatch::Alarm") if k.startswith("BridgeScaleDown")
    )
    granted = {
        action: s["Resource"]
        for p in _resources(template, "AWS::IAM::Policy").values()
        if {"Ref": role_id} in p["Properties"]["Roles"]
        for s in p["Properties"]["PolicyDocument"]["Statement"]
        for action in ([s["Action"]] if isinstance(s["Action"], str) else s["Action"])
        # but aws-cdk-lib's statement for the execution log (acknowledged for cdk-nag: the construct says why)
        if not action.startswith("logs:")
    }
    assert granted == {
        "cloudwatch:DescribeAlarms": {"Fn::GetAtt": [alarm_id, "Arn"]},
        "eks:DescribeNodegroup": {"Fn::GetAtt": [bridge_id, "Arn"]},
        "eks:UpdateNodegroupConfig": {"Fn::GetAtt": [bridge_id, "Arn"]},
    }
