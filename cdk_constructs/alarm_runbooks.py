"""What the alarms' texts say on each platform: the runbook of the EKS path and of HyperPod (what to run when an alarm
fires, where XID errors come from), and what ends the capacity (a Capacity Block or a training plan) for the
``CapacityEndingSoon`` alarm. The rules that use them are in cdk_constructs/serving_alarms.py."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Runbook:
    """What the alarms' instructions name, which differs between the EKS path and HyperPod.

    :param capacity: what ends the capacity ("Capacity Block", "training plan").
    :param endpoint_action: what to do when no target is healthy.
    :param errors_action: what to do on 5xx answers.
    :param gpu_hint: where to look for a degraded GPU, in a sentence's parentheses.
    :param xid: where XID errors come from and what to do about one, for the ``GpuXidErrors`` alarm.
    :param gpus_missing_action: what to do when fewer GPUs report than the capacity holds (the HyperPod path's
        ``GpusNotReporting`` alarm; the EKS path's ``GpuNodeMissing`` names its node group).
    """

    capacity: str
    endpoint_action: str
    errors_action: str
    gpu_hint: str
    xid: XidAlarm | None = None
    gpus_missing_action: str | None = None


@dataclass(frozen=True)
class XidAlarm:
    """The ``GpuXidErrors`` alarm's text on one platform: the metric (``GpuXidErrors``, statistic Maximum, threshold 1,
    one minute, missing data not breaching) is the same; where the count comes from, and the repair, differ.

    :param meaning: what a value of 1 or more means, and why missing data is not breaching.
    :param action: what the operator does.
    """

    meaning: str
    action: str


#: The EKS path's XID source: the node monitoring agent's fatal XID conditions, repaired by node auto repair.
EKS_XID = XidAlarm(
    meaning="The node monitoring agent reported a fatal NVIDIA XID error in the last 5 minutes (its "
    "AcceleratedHardwareReady condition turns False). Node auto repair reboots or replaces the node after 10 "
    "minutes. Missing data (no scrape) is not breaching: the GPU-node alarm covers a node that is gone.",
    action="kubectl describe node -l llm-serving/node-role=gpu-inference | grep -A3 AcceleratedHardwareReady; "
    "watch the repair: aws eks describe-nodegroup --cluster-name {cluster_name} --nodegroup-name "
    "gpu-capacity-block --query nodegroup.health",
)

#: The EKS path: the vLLM Deployment in namespace llm-serving on the GPU node group.
EKS_RUNBOOK = Runbook(
    capacity="Capacity Block",
    endpoint_action="kubectl -n llm-serving get pods,service; kubectl -n llm-serving logs deployment/vllm --tail=100; "
    "check the GPU node (kubectl get nodes -l llm-serving/node-role=gpu-inference) and the other alarms.",
    errors_action="kubectl -n llm-serving logs deployment/vllm --since=15m | grep -i error; an engine error often follows "
    "a GPU error (see the GPU alarms).",
    gpu_hint="see the GPU widgets",
    xid=EKS_XID,
)


def hyperpod_runbook(
    *,
    namespace: str,
    endpoint_name: str,
    hyperpod_cluster_name: str,
    region: str,
    training_plan: str = "PLAN",
) -> Runbook:
    """The HyperPod path: the operator's worker pod of InferenceEndpointConfig ``endpoint_name`` in ``namespace``, on
    the nodes of HyperPod cluster ``hyperpod_cluster_name``, whose health HyperPod's own agent and deep health checks
    watch; XID errors from DCGM (stacks/observability_stack.py)."""
    nodes = (
        f"aws sagemaker list-cluster-nodes --cluster-name {hyperpod_cluster_name} --region {region}"
    )
    xid = XidAlarm(
        meaning="NVIDIA DCGM (through the HyperPod observability add-on) reported a nonzero last XID on at least one GPU "
        "in the last 5 minutes. DCGM keeps the last XID's code and does not tell fatal from harmless ones, and "
        "the value stays until the driver clears it: the alarm may stay in ALARM after a harmless XID. "
        "HyperPod's health-monitoring agent finds fatal ones and, with NodeRecovery Automatic, reboots or "
        "replaces the node. Missing data (no DCGM series) is not breaching: GpusReporting shows it.",
        action=f"kubectl get nodes -L sagemaker.amazonaws.com/node-health-status; {nodes}; "
        f"kubectl -n {namespace} logs POD --since=15m | grep -i xid; a replaced node reloads the weights.",
    )
    return Runbook(
        capacity="training plan",
        endpoint_action=f"kubectl -n {namespace} get inferenceendpointconfig {endpoint_name} -o jsonpath='{{.status}}'; "
        f"kubectl -n {namespace} get pods,ingress; kubectl -n {namespace} logs POD --tail=100; "
        f"check the HyperPod nodes ({nodes}) and the other alarms.",
        errors_action=f"kubectl -n {namespace} logs POD --since=15m | grep -i error; an engine error often follows a GPU "
        f"error (HyperPod's health checks: {nodes}).",
        gpu_hint=f"HyperPod's health checks: {nodes}",
        xid=xid,
        gpus_missing_action=f"{nodes}; kubectl get nodes -L sagemaker.amazonaws.com/node-health-status; "
        "kubectl -n hyperpod-observability get pods (the DCGM exporter); bin/llmops training-plans "
        f"show {training_plan} --region {region} (the plan's window)",
    )


@dataclass(frozen=True)
class CapacityEnding:
    """Input of the ``CapacityEndingSoon`` alarm: the publisher's hours-left metric of the environment's capacity.

    :param metric_name: ``CapacityBlockHoursLeft`` (EKS) or ``TrainingPlanHoursLeft`` (HyperPod).
    :param capacity: what ends, in a sentence ("Capacity Block cr-...", "training plan NAME").
    :param consequence: what happens at the end.
    :param action: what to run.
    """

    metric_name: str
    capacity: str
    consequence: str
    action: str


def capacity_block_ending(
    *, metric_name: str, reservation_id: str, env_name: str, region: str
) -> CapacityEnding:
    """The EKS path: the Capacity Block's end, and its extension."""
    return CapacityEnding(
        metric_name,
        f"Capacity Block {reservation_id}",
        "EKS scales the GPU node group to 0 forty minutes before the end and EC2 terminates the instances 30 minutes "
        "before it; EC2 extends a Capacity Block only until 1 hour before its end.",
        f"bin/llmops capacity-blocks show {reservation_id} --region {region}; extend it: bin/llmops capacity-blocks "
        f"extend {reservation_id} --duration-hours 24 --region {region} (lists the offerings; add --offering-id ID "
        f"--yes to buy); or buy the next one: bin/llmops capacity-blocks offerings --env {env_name}",
    )


def training_plan_ending(
    *, metric_name: str, plan_name: str, env_name: str, region: str
) -> CapacityEnding:
    """The HyperPod path: the training plan's end (no EventBridge event announces it)."""
    return CapacityEnding(
        metric_name,
        f"training plan {plan_name}",
        "the HyperPod instance group's instances on the plan's capacity go away at its end, and the endpoint with them.",
        f"bin/llmops training-plans show {plan_name} --region {region}; a following plan: bin/llmops training-plans "
        f"offerings --env {env_name}",
    )
