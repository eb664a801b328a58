"""Upgrades without downtime where the block has room: given an environment of N GPU nodes and R replicas, a change of
the pod template rolls with a surge onto a free slot (the new replica ready before the old one stops) when the block
holds one more replica than it serves, and stops one replica first when it does not (deployment_config/rollout.py).
Read from the rendered Deployment and LeaderWorkerSet, as the cluster gets them."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from charts.serving_spec import serving_spec_for
from charts.vllm_serving_chart import synthesize_manifests
from deployment_config.loader import parse_environment
from deployment_config.rollout import rollout_plan

CONFIGS = Path(__file__).resolve().parents[1] / "configs"
NEXT_BLOCK = "cr-0fedcba9876543210"

SURGE = {"maxSurge": 1, "maxUnavailable": 0}
STOP_FIRST = {"maxSurge": 0, "maxUnavailable": 1}


def _env(config: str, nodes: int, replicas: int | None = None, next_block: bool = False):
    document = copy.deepcopy(yaml.safe_load((CONFIGS / f"{config}.yaml").read_text()))
    document["capacity"]["instance_count"] = nodes
    if next_block:
        document["capacity"]["next_capacity_reservation_id"] = NEXT_BLOCK
    if replicas is not None:
        document["endpoint"] = {**(document.get("endpoint") or {}), "replicas": replicas}
    return parse_environment(document, name=f"r{nodes}x{replicas or 0}")


def _deployment_strategy(env) -> dict:
    (deployment,) = [
        o
        for o in synthesize_manifests(serving_spec_for(env))
        if o["kind"] == "Deployment" and o["metadata"]["name"] == "vllm"
    ]
    assert deployment["spec"]["strategy"]["type"] == "RollingUpdate"
    return deployment["spec"]["strategy"]["rollingUpdate"]


@pytest.mark.parametrize(
    ("nodes", "replicas", "next_block", "expected"),
    [
        # one node, one replica: no room, the replica stops before its successor starts (an outage)
        (1, None, False, STOP_FIRST),
        # four nodes, a replica on each: no room, three of four serve during the rollout
        (4, None, False, STOP_FIRST),
        # two nodes, one replica: the new replica starts on the free node, ready before the old one stops
        (2, 1, False, SURGE),
        (4, 2, False, SURGE),
        # a next block: the standby replica takes the free node of this block, so there is no room
        (2, 1, True, {"maxSurge": 0, "maxUnavailable": 2}),
        # three nodes for one replica and its standby: one node is still free
        (3, 1, True, SURGE),
    ],
)
def test_given_n_nodes_and_r_replicas_then_the_deployment_surges_only_onto_a_free_node(
    nodes, replicas, next_block, expected
):
    env = _env("example", nodes, replicas, next_block)
    assert _deployment_strategy(env) == expected


@pytest.mark.parametrize(
    ("nodes", "replicas", "expected"),
    [
        # one group of two nodes on two nodes: no room
        (2, None, STOP_FIRST),
        # two groups on four nodes: no room
        (4, None, STOP_FIRST),
        # one group on four nodes: a whole group's two nodes are free, the new group is ready before the old one stops
        (4, 1, SURGE),
    ],
)
def test_given_n_nodes_and_r_groups_then_the_leader_worker_set_surges_only_onto_a_free_group_of_nodes(
    nodes, replicas, expected
):
    env = _env("multi-node", nodes, replicas)
    (lws,) = [
        o for o in synthesize_manifests(serving_spec_for(env)) if o["kind"] == "LeaderWorkerSet"
    ]
    assert lws["spec"]["rolloutStrategy"]["rollingUpdateConfiguration"] == expected


def test_the_plan_says_what_a_rollout_costs_in_the_startup_budget():
    env = _env("example", 1)
    one = rollout_plan(env)
    # given one replica and no free node: an outage of the old pod's stop (its grace period), then the startup budget
    assert one.startup_budget_seconds == env.pod_startup_budget.probe_seconds
    assert one.stop_seconds == env.endpoint.termination_grace_seconds
    assert (one.surges, one.serving_during_rollout) == (False, 0)
    assert one.describe().startswith("outage:")
    total, budget = (-(-s // 60) for s in (one.replacement_seconds, one.startup_budget_seconds))
    assert f"down for up to {total} min" in one.describe()
    assert f"then {budget} min, the startup budget" in one.describe()
    # four replicas on four nodes: three serve, one replica after the other
    four = rollout_plan(_env("example", 4))
    assert four.serving_during_rollout == 3
    assert four.longest_seconds == 4 * (four.stop_seconds + four.startup_budget_seconds)
    assert four.describe().startswith("3 of 4 replicas serve")
    # one replica on two nodes: all serve
    room = rollout_plan(_env("example", 2, 1))
    assert (room.surges, room.spare_slots, room.serving_during_rollout) == (True, 1, 1)
    assert room.describe().startswith("surge:")
