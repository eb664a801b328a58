"""Serving across blocks (capacity.next_capacity_reservation_id): two node groups, each on its own reservation, and the
serving Deployment's replicas waiting for the next block's nodes.

The GPU nodes stack of the session's next-block variant (tests/shared_variants.py, shared with
tests/cdk_constructs/test_observability.py): config/example.yaml with a next reservation, every stack synthesized as
`cdk synth` does, with cdk-nag; the Kubernetes objects come from the serving chart alone (no CDK). The default
environment, without a next reservation, has one group (tests/stacks/test_stacks.py) and outputs unchanged
(bench/output_identity.py).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from tests.cfn_lint import cfn_lint_errors
from tests.shared_variants import NEXT_BLOCK, stack_templates

NEXT = NEXT_BLOCK


@pytest.fixture(scope="module")
def succession_env(next_block_env, default_env):
    # the example with a next reservation (and the observability settings the session's variant carries for
    # tests/cdk_constructs/test_observability.py, which no GPU nodes resource reads)
    assert next_block_env.capacity == default_env.capacity.model_copy(
        update={"next_capacity_reservation_id": NEXT}
    )
    return next_block_env


@pytest.fixture(scope="module")
def gpu_nodes_template_file(succession_env, next_block_assembly) -> Path:
    return stack_templates(next_block_assembly)[succession_env.stack_name("gpu-nodes")]


@pytest.fixture(scope="module")
def gpu_nodes_template(gpu_nodes_template_file) -> dict:
    return json.loads(gpu_nodes_template_file.read_text())


def _resources(template: dict, kind: str) -> dict[str, dict]:
    return {k: r for k, r in template["Resources"].items() if r["Type"] == kind}


def _groups(template: dict) -> dict[str, dict]:
    """Node group name -> (its properties, the reservation its launch template targets)."""
    templates = _resources(template, "AWS::EC2::LaunchTemplate")
    groups = {}
    for group in _resources(template, "AWS::EKS::Nodegroup").values():
        props = group["Properties"]
        launch = templates[props["LaunchTemplate"]["Id"]["Ref"]]["Properties"]["LaunchTemplateData"]
        target = launch["CapacityReservationSpecification"]["CapacityReservationTarget"]
        groups[props["NodegroupName"]] = (props, target["CapacityReservationId"], launch)
    return groups


def test_given_a_next_reservation_then_each_block_has_its_own_node_group_and_launch_template(
    gpu_nodes_template, succession_env
):
    groups = _groups(gpu_nodes_template)
    assert {name: reservation for name, (_, reservation, _) in groups.items()} == {
        "gpu-capacity-block": succession_env.capacity.capacity_reservation_id,
        "gpu-capacity-block-next": NEXT,
    }
    for props, _, launch in groups.values():
        assert props["CapacityType"] == "CAPACITY_BLOCK"
        assert launch["InstanceMarketOptions"] == {"MarketType": "capacity-block"}
        assert launch["InstanceType"] == succession_env.capacity.instance_type


def test_given_a_next_reservation_then_both_groups_carry_the_labels_and_taints_the_serving_pods_select(
    gpu_nodes_template, succession_env
):
    from charts.serving_spec import serving_spec_for

    spec = serving_spec_for(succession_env)
    taint_key, taint_value, taint_effect = spec.toleration
    for props, _, _ in _groups(gpu_nodes_template).values():
        assert props["Labels"] == dict(spec.node_labels)
        assert [(t["Key"], t["Value"], t["Effect"]) for t in props["Taints"]] == [
            (
                taint_key,
                taint_value,
                "NO_SCHEDULE" if taint_effect == "NoSchedule" else taint_effect,
            )
        ]


def test_given_a_next_reservation_then_its_nodes_start_when_it_starts_and_the_current_group_may_go_to_zero(
    gpu_nodes_template, succession_env
):
    # The ordering is the reservations' windows: a desired size from creation, which the ASG reaches once the block is
    # active (EKS user guide, capacity-blocks-mng), and a minimum of 0, which EKS's scale-down 40 minutes before the
    # end needs. No scheduled action of this app's own could move either.
    count = succession_env.capacity.instance_count
    for props, _, _ in _groups(gpu_nodes_template).values():
        assert props["ScalingConfig"] == {"MinSize": 0, "DesiredSize": count, "MaxSize": count}
    assert not _resources(gpu_nodes_template, "AWS::AutoScaling::ScheduledAction")


def test_given_a_next_reservation_then_the_template_passes_cfn_lint(
    gpu_nodes_template_file, succession_env
):
    assert cfn_lint_errors([gpu_nodes_template_file], [succession_env.region]) == []


def _deployment(env) -> dict:
    from charts.serving_spec import serving_spec_for
    from charts.vllm_serving_chart import synthesize_manifests

    (deployment,) = [
        o
        for o in synthesize_manifests(serving_spec_for(env))
        if o["kind"] == "Deployment" and o["metadata"]["name"] == "vllm"
    ]
    return deployment["spec"]


def test_given_a_next_reservation_then_as_many_replicas_wait_for_its_nodes_and_a_rollout_is_not_held_by_them(
    succession_env, default_env
):
    # The new replicas join the Service before the old nodes drain only if they exist before the drain: Pending, one
    # per node by the hostname anti-affinity, scheduled as the next block's nodes join.
    alone, handover = _deployment(default_env), _deployment(succession_env)
    assert handover["replicas"] == 2 * alone["replicas"] == 2 * default_env.replicas
    affinity = handover["template"]["spec"]["affinity"]["podAntiAffinity"]
    (term,) = affinity["requiredDuringSchedulingIgnoredDuringExecution"]
    assert term["topologyKey"] == "kubernetes.io/hostname"
    rolling = handover["strategy"]["rollingUpdate"]
    assert (rolling["maxSurge"], rolling["maxUnavailable"]) == (0, 1 + default_env.replicas)
    assert alone["strategy"]["rollingUpdate"]["maxUnavailable"] == 1


def test_given_a_next_reservation_for_a_model_of_several_nodes_then_as_many_groups_wait_for_its_nodes():
    from charts.serving_spec import serving_spec_for
    from charts.vllm_serving_chart import synthesize_manifests
    from deployment_config import load_environment

    env = load_environment(Path(__file__).resolve().parents[1] / "configs", "multi-node")
    capacity = env.capacity.model_copy(update={"next_capacity_reservation_id": NEXT})
    handover = dataclasses.replace(env, capacity=capacity)

    def leader_worker_set(environment) -> dict:
        (lws,) = [
            o
            for o in synthesize_manifests(serving_spec_for(environment))
            if o["kind"] == "LeaderWorkerSet"
        ]
        return lws["spec"]

    alone, both = leader_worker_set(env), leader_worker_set(handover)
    assert both["replicas"] == 2 * alone["replicas"] == 2 * env.replicas
    rolling = both["rolloutStrategy"]["rollingUpdateConfiguration"]
    assert rolling["maxUnavailable"] == 1 + env.replicas
    assert alone["rolloutStrategy"]["rollingUpdateConfiguration"]["maxUnavailable"] == 1
