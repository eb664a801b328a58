"""The bridge's instances, once a minute (the bridge section, docs/stay-up.md): how many instances of the bridge node
group run, and, with an On-Demand rate in the event, what that minute of them costs.

The event's ``"bridge": {"nodegroupName": "gpu-bridge", "instancesMetric": "BridgeInstances",
"costMetric": "BridgeCostUsd", "perInstanceHourUsd": 142.416}`` (the last two only where a rate is known:
deployment_config/bridge.py, ``on_demand_rate``) puts ``instancesMetric``, the instances running (0 while none), and
``costMetric``, instances x the rate x 60 s / 3600 s, every minute: their Sums over a range are its instance-minutes
and its cost.

Facts and their sources:

- The node group's instances are found by the tags EKS puts on a managed node group's instances,
  ``eks:cluster-name`` and ``eks:nodegroup-name`` (AWS's EKS workshop filters DescribeInstances the same way:
  aws-samples/eks-workshop-v2@8661b24e manifests/modules/troubleshooting/workernodes/three/.workshop/terraform/main.tf,
  ``tag:eks:nodegroup-name``); the cluster's tag, as every environment's bridge node group has the same name
  (deployment_config/gpu_nodes.py, BRIDGE_GPU_NODEGROUP).
- Only ``running`` is billed: pending, stopping, stopped, shutting-down and terminated are not (EC2 user guide,
  "Amazon EC2 instance state changes", the table's "Instance usage billing": awsdocs/amazon-ec2-user-guide
  doc_source/ec2-instance-lifecycle.md). DescribeInstances still lists a terminated instance for a while; it is not
  counted.
- A minute in which EC2 cannot be read puts nothing (not 0): the bridge's hours are then short by that minute, and
  the function's log says why.

With ``"blockReplicas": {"metric": "BlockReplicasReady", "nodegroupName": "gpu-capacity-block", "query":
'up{job="vllm",ready="true"} == 1'}`` in the bridge, the run also puts how many vLLM replicas are ready **on the
block's own nodes** (the bridge's scale-down reads it: cdk_constructs/bridge_scale_down.py). No AWS API says it: the
load balancer's targets are nodes, not replicas (the Service's NLB registers instances, and under
``externalTrafficPolicy: Cluster`` its health check is the traffic port on every node, which any ready replica
answers: kubernetes/cloud-provider-aws@63ec440 pkg/providers/v1/aws.go, ``ServiceAnnotationLoadBalancerHealthCheckPort``
and aws_loadbalancer.go ``ensureTargetGroup``, target type instance), and an NLB publishes no metric per target. So
the join is done here:

- the series: one per vLLM pod the scraper reaches and Kubernetes calls Ready (its ``ready`` label is the pod's
  ``__meta_kubernetes_pod_ready``, "true or false for the pod's ready state": Prometheus configuration,
  kubernetes_sd_config, role pod; scrape.py keeps it), with the pod's node name in ``node``. Only a replica's
  leader declares the API port (charts/vllm_leader_worker_set.py), so a series is a replica;
- the block's nodes: the running instances tagged with the block's node group (as above), by ``PrivateDnsName`` or
  ``InstanceId``: nodeadm names the node after the instance's ``PrivateDnsName``, or its ID with the
  ``InstanceIdNodeName`` feature gate (awslabs/amazon-eks-ami@81fec2e nodeadm/internal/kubelet/config.go,
  ``withCloudProvider``).

A run that reads neither puts nothing: the alarm on it treats missing data as short.
"""

from __future__ import annotations

import logging

LOGGER = logging.getLogger()

#: The one state billed for instance usage (EC2 user guide, instance lifecycle; the module docstring).
BILLED_STATE = "running"


def running_instances(ec2, cluster_name: str, nodegroup_name: str) -> int:
    """The instances of the cluster's node group ``nodegroup_name`` in the billed state (every page)."""
    filters = [
        {"Name": "tag:eks:cluster-name", "Values": [cluster_name]},
        {"Name": "tag:eks:nodegroup-name", "Values": [nodegroup_name]},
    ]
    return sum(
        1
        for page in ec2.get_paginator("describe_instances").paginate(Filters=filters)
        for reservation in page.get("Reservations", [])
        for instance in reservation.get("Instances", [])
        if instance.get("State", {}).get("Name") == BILLED_STATE
    )


def block_node_names(ec2, cluster_name: str, nodegroup_name: str) -> set[str]:
    """The names a node of the running instances of ``nodegroup_name`` can have: private DNS names and IDs."""
    filters = [
        {"Name": "tag:eks:cluster-name", "Values": [cluster_name]},
        {"Name": "tag:eks:nodegroup-name", "Values": [nodegroup_name]},
        {"Name": "instance-state-name", "Values": [BILLED_STATE]},
    ]
    return {
        name
        for page in ec2.get_paginator("describe_instances").paginate(Filters=filters)
        for reservation in page.get("Reservations", [])
        for instance in reservation.get("Instances", [])
        for name in (instance.get("PrivateDnsName"), instance.get("InstanceId"))
        if name
    }


def ready_on(answer: dict, nodes: set[str]) -> int:
    """Series of a PromQL vector answer whose ``node`` label is one of ``nodes``."""
    if answer.get("status") != "success":
        raise ValueError(f"query failed: {answer.get('errorType')}: {answer.get('error')}")
    return sum(1 for series in answer["data"]["result"] if series["metric"].get("node") in nodes)


def block_replicas_metrics(event: dict, ec2, query) -> list[dict]:
    """The ready replicas on the block's nodes as data (none without ``bridge.blockReplicas`` or when a read fails).

    :param query: a PromQL instant query to its answer (the handler's AMP call at this run's time).
    """
    block = (event.get("bridge") or {}).get("blockReplicas")
    if not block:
        return []
    try:
        nodes = block_node_names(ec2, event["clusterName"], block["nodegroupName"])
        count = ready_on(query(block["query"]), nodes)
    except Exception as error:  # the other metrics are put without it
        LOGGER.warning("block replicas not read: %s", error)
        return []
    return [{"MetricName": block["metric"], "Unit": "Count", "Value": float(count)}]


def bridge_metrics(event: dict, ec2) -> list[dict]:
    """The event's bridge metrics as data (none without a ``bridge`` key, or when EC2 is not read)."""
    bridge = event.get("bridge")
    if not bridge:
        return []
    try:
        count = running_instances(ec2, event["clusterName"], bridge["nodegroupName"])
    except Exception as error:  # the other metrics are put without it
        LOGGER.warning("bridge instances not read: %s", error)
        return []
    data = [{"MetricName": bridge["instancesMetric"], "Unit": "Count", "Value": float(count)}]
    rate = bridge.get("perInstanceHourUsd")
    if rate is not None:
        data.append({"MetricName": bridge["costMetric"], "Unit": "None", "Value": count * rate / 60})
    return data
