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
