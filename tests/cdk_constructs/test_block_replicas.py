"""The block's ready replicas (the bridge's scale-down, docs/stay-up.md): each minute the publisher counts the vLLM
pods that Kubernetes calls Ready on the block node group's running instances, joining the scraper's series (their
``node`` label) with EC2's instances (stubbed answers, checked against botocore's models); the bridge's own
replicas never count. No synthesis."""

from __future__ import annotations

import pytest
from botocore.stub import ANY

from cdk_constructs.bridge_scale_down import BLOCK_REPLICAS_EVENT
from cdk_constructs.serving_metrics import NAMESPACE, BridgeMetering
from cdk_constructs.serving_metrics.runtime import handler
from cdk_constructs.serving_metrics.runtime.bridge import block_replicas_metrics
from cdk_constructs.serving_metrics.scrape import scrape_configuration
from tests.cdk_constructs import test_observability as observed
from tests.cdk_constructs.test_bridge_metering import NOW, RATE, _ended_block, _with_bridge

#: test_observability.py's stubbed cloudwatch, elbv2, ec2 and sagemaker clients.
clients = observed.clients

BLOCK_NODE = "ip-10-0-64-10.us-west-2.compute.internal"
BRIDGE_NODE = "ip-10-0-64-99.us-west-2.compute.internal"


def _instances(*instances: tuple[str, str, str]) -> dict:
    """DescribeInstances' answer for (instance id, private DNS name, state) triples."""
    codes = {"running": 16, "terminated": 48}
    return {
        "Reservations": [
            {
                "Instances": [
                    {
                        "InstanceId": i,
                        "PrivateDnsName": dns,
                        "State": {"Code": codes[state], "Name": state},
                    }
                    for i, dns, state in instances
                ]
            }
        ]
    }


def _ready_on(*nodes: str):
    """AMP's answer to the ready query: one series per Ready vLLM pod, on ``nodes``; records the PromQL asked."""
    asked = []

    def query(url: str, params: dict) -> dict:
        asked.append(params["query"])
        if params["query"] != BLOCK_REPLICAS_EVENT["query"]:
            return {"status": "success", "data": {"resultType": "vector", "result": []}}
        result = [
            {"metric": {"job": "vllm", "ready": "true", "node": n}, "value": [NOW.timestamp(), "1"]}
            for n in nodes
        ]
        return {"status": "success", "data": {"resultType": "vector", "result": result}}

    query.asked = asked
    return query


def _publish(clients, query, block_answer: dict | Exception) -> dict[str, float]:
    _ended_block(clients)
    clients["ec2"].add_response(
        "describe_instances", {"Reservations": []}
    )  # the bridge's instances
    block_filters = [
        {"Name": "tag:eks:cluster-name", "Values": ["example-llm"]},
        {"Name": "tag:eks:nodegroup-name", "Values": ["gpu-capacity-block"]},
        {"Name": "instance-state-name", "Values": ["running"]},
    ]
    if isinstance(block_answer, Exception):
        clients["ec2"].add_client_error(
            "describe_instances", "UnauthorizedOperation", str(block_answer)
        )
    else:
        clients["ec2"].add_response("describe_instances", block_answer, {"Filters": block_filters})
    clients["cloudwatch"].add_response(
        "put_metric_data", {}, {"Namespace": NAMESPACE, "MetricData": ANY}
    )
    put = handler.publish(
        _with_bridge(),
        now=NOW.timestamp(),
        query=query,
        cloudwatch=clients["cloudwatch"].client,
        elbv2=clients["elbv2"].client,
        ec2=clients["ec2"].client,
        sagemaker=clients["sagemaker"].client,
    )
    return {d["MetricName"]: d["Value"] for d in put}


def test_only_ready_replicas_on_the_blocks_running_nodes_count(clients):
    # given two Ready vLLM pods, one on the block's node and one on the bridge's
    query = _ready_on(BLOCK_NODE, BRIDGE_NODE)
    # when the publisher runs with the block's one running instance
    put = _publish(clients, query, _instances(("i-0block0000000001", BLOCK_NODE, "running")))
    # then the block has one ready replica: the bridge's does not count
    assert put["BlockReplicasReady"] == 1.0
    # and the series asked for are the Ready pods the scraper reaches
    assert 'up{job="vllm",ready="true"} == 1' in query.asked


def test_a_node_named_after_its_instance_id_counts_too(clients):
    # nodeadm's InstanceIdNodeName feature gate names the node after the instance's ID
    put = _publish(
        clients,
        _ready_on("i-0block0000000001"),
        _instances(("i-0block0000000001", BLOCK_NODE, "running")),
    )
    assert put["BlockReplicasReady"] == 1.0


def test_while_the_blocks_node_is_replaced_its_replicas_are_short(clients):
    # given the failed node's pod still listed as Ready by a stale series, its instance terminated, none running
    put = _publish(clients, _ready_on(BLOCK_NODE, BRIDGE_NODE), _instances())
    # then the block has no ready replica
    assert put["BlockReplicasReady"] == 0.0


def test_when_ec2_cannot_be_read_nothing_is_put_and_the_alarm_counts_the_minute_as_short(clients):
    put = _publish(clients, _ready_on(BLOCK_NODE), RuntimeError("not allowed"))
    assert "BlockReplicasReady" not in put
    assert put["CapacityBlockHoursLeft"] == 0.0  # the rest is put


def test_without_a_bridge_the_block_replicas_are_not_counted():
    assert block_replicas_metrics({"clusterName": "example-llm"}, ec2=None, query=None) == []
    assert BridgeMetering(RATE).as_event()["blockReplicas"] == BLOCK_REPLICAS_EVENT


@pytest.mark.parametrize("router_metrics_port", [None, 9090])
def test_the_scraper_labels_each_vllm_target_with_its_pods_ready_condition(router_metrics_port):
    import yaml

    config = yaml.safe_load(
        scrape_configuration(
            namespace="llm-serving", port=8000, router_metrics_port=router_metrics_port
        )
    )
    (vllm,) = [job for job in config["scrape_configs"] if job["job_name"] == "vllm"]
    assert {
        "action": "replace",
        "source_labels": ["__meta_kubernetes_pod_ready"],
        "target_label": "ready",
    } in vllm["relabel_configs"]
