"""How the serving replicas are replaced when their pod template changes (a new image, revision, recipe setting or
``extra_args``): with a free slot on the block's nodes, a new replica starts there and is ready before an old one
stops; without one, an old replica stops first and its successor starts on the node it freed.

One rule, read by the Deployment (charts/vllm_deployment.py), the LeaderWorkerSet (charts/vllm_leader_worker_set.py)
and ``llmops rollout`` (ops_cli/rollout.py), which says what a deploy costs before it is applied.

- A **slot** is the nodes one replica needs (:attr:`EnvironmentConfig.layout` ``.nodes``): the block holds
  ``gpu_node_count // nodes`` of them (the GPU node group's desired size is the block's instance count,
  cdk_constructs/capacity_block_node_group.py). Every replica the workload asks for takes one: the serving replicas
  and, with a next block configured, the standby replicas (:func:`standby_replicas`), which schedule onto any free
  node of the current block before they wait for the next one's.
- **Surge** (``maxSurge: 1``, ``maxUnavailable: 0``) when a slot is left over. Kubernetes Deployment: "maxSurge ...
  the maximum number of Pods that can be created over the desired number of Pods", "maxUnavailable ... the maximum
  number of Pods that can be unavailable during the update" (Kubernetes documentation, "Deployments", Rolling Update
  Deployment, https://kubernetes.io/docs/concepts/workloads/controllers/deployment/#rolling-update-deployment). The
  LeaderWorkerSet's fields mean the same for groups and may be 0 for ``maxUnavailable`` only when ``maxSurge`` is not
  (kubernetes-sigs/lws v0.10.0, commit 2161f38, config/crd leaderworkersets ``rolloutStrategy.rollingUpdateConfiguration``,
  vendored as tests/data/lws/leaderworkerset.x-k8s.io_leaderworkersets.yaml).
- **Stop first** (``maxSurge: 0``, ``maxUnavailable: 1`` plus the standby replicas, which are Pending and so already
  unavailable outside a handover) when every slot is taken: a new replica needs a whole slot's GPUs and there is none
  to start it on. One replica: the endpoint is down while its successor starts; N: N-1 serve, one replica after the
  other. Each replacement lasts up to the old pod's stop (its termination grace period: the pre-stop pause and
  ``endpoint.drain_seconds``, during which it has already left the Service's endpoints; its GPUs are free only once it
  has exited) and then the startup budget (:attr:`EnvironmentConfig.pod_startup_budget`, the startup probe's deadline).
"""

from __future__ import annotations

from dataclasses import dataclass

from deployment_config.model import EnvironmentConfig


def standby_replicas(env: EnvironmentConfig) -> int:
    """Replicas waiting for the next Capacity Block's nodes (``capacity.next_capacity_reservation_id``): as many as
    serve, Pending while only one block's nodes exist; 0 without a next block."""
    capacity = env.capacity
    return env.replicas if capacity is not None and capacity.next_capacity_reservation_id else 0


@dataclass(frozen=True)
class RolloutPlan:
    """How a change of the serving pods' template is rolled out on an environment.

    :param slots: replicas the block's GPU nodes hold (nodes // nodes per replica).
    :param replicas: serving replicas.
    :param standby_replicas: replicas waiting for the next block's nodes.
    :param nodes_per_replica: GPU nodes one replica spans.
    :param startup_budget_seconds: how long one new replica may take to become ready (the startup probe's deadline).
    :param stop_seconds: how long an old replica may take to stop (its termination grace period).
    """

    slots: int
    replicas: int
    standby_replicas: int
    nodes_per_replica: int
    startup_budget_seconds: int
    stop_seconds: int

    @property
    def spare_slots(self) -> int:
        """Slots no replica takes: where a new replica can start before an old one stops."""
        return max(0, self.slots - self.replicas - self.standby_replicas)

    @property
    def surges(self) -> bool:
        return self.spare_slots >= 1

    @property
    def max_surge(self) -> int:
        return 1 if self.surges else 0

    @property
    def max_unavailable(self) -> int:
        return 0 if self.surges else 1 + self.standby_replicas

    @property
    def serving_during_rollout(self) -> int:
        """Replicas that keep serving while one is replaced: all with a spare slot, one fewer without (0: an outage)."""
        return self.replicas if self.surges else self.replicas - 1

    @property
    def replacement_seconds(self) -> int:
        """The longest one replica is missing without a spare slot: its stop, then its successor's start."""
        return self.stop_seconds + self.startup_budget_seconds

    @property
    def longest_seconds(self) -> int:
        """The longest a whole rollout may take: one replica after the other, each its stop and its successor's start."""
        return self.replicas * self.replacement_seconds

    def describe(self) -> str:
        """What a change of the serving pods means here, in one sentence."""
        budget = minutes(self.startup_budget_seconds)
        each = (
            f"up to {minutes(self.replacement_seconds)} ({minutes(self.stop_seconds)} for the old pod to stop, then "
            f"{budget}, the startup budget)"
        )
        if self.surges:
            return (
                f"surge: {self.spare_slots} free slot(s) of {self.slots}, so a new replica starts there and is ready "
                f"(up to {budget}, the startup budget) before an old one stops; {self.replicas} of {self.replicas} "
                "replicas serve throughout"
            )
        if self.replicas == 1:
            return (
                f"outage: every slot of the block is taken ({self.slots}), so the one replica stops before its "
                f"successor starts; the endpoint is down for {each}"
            )
        return (
            f"{self.serving_during_rollout} of {self.replicas} replicas serve: every slot of the block is taken "
            f"({self.slots}), so one replica at a time stops before its successor starts, each for {each}, up to "
            f"{minutes(self.longest_seconds)} in all"
        )


def rollout_plan(env: EnvironmentConfig) -> RolloutPlan:
    """The rollout of ``env``'s serving replicas (platform eks: the Deployment or the LeaderWorkerSet)."""
    nodes = env.layout.nodes
    return RolloutPlan(
        slots=env.gpu_node_count // nodes,
        replicas=env.replicas,
        standby_replicas=standby_replicas(env),
        nodes_per_replica=nodes,
        startup_budget_seconds=env.pod_startup_budget.probe_seconds,
        stop_seconds=env.endpoint.termination_grace_seconds,
    )


def minutes(seconds: int) -> str:
    """``seconds`` in whole minutes, rounded up: how long a person should plan for."""
    return f"{-(-seconds // 60)} min"
