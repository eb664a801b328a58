"""Reservation and cluster events of one environment, to its alarm topic, as a message a person can act on.

Which events, where AWS writes them down:

- *EC2 Capacity Blocks* (EKS path). EC2 User Guide, "Monitor Capacity Blocks using EventBridge"
  (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/capacity-blocks-monitor.html): source ``aws.ec2``; one event
  when the reservation starts ("your capacity is ready to use") and one forty minutes before it ends ("any instances
  running in the reservation will begin to terminate in 10 minutes"); ``detail`` has ``capacity-reservation-id`` and
  ``end-date``. The English page spells the detail types "Capacity Block Delivered" and "Capacity Block Expiration
  Warning", as does EventBridge's event reference ("Amazon Elastic Compute Cloud events", events-ref-ec2.html); the
  China-region page (docs.amazonaws.cn, same path) and the translated pages (ja_jp) spell them "Capacity Block
  Reservation Delivered" and "Capacity Block Reservation Expiration Warning". Each rule matches both spellings.
  Not matched: "EC2 Capacity Reservation Instance Interruption Warning" (the same page, for interruptible Capacity
  Reservations, "Monitor interruptible Capacity Reservations", monitor-interruptible-cr.html: not a Capacity Block)
  and "EC2 Capacity Reservation Active/Expired/..." (future-dated Capacity Reservations, monitor-fcr-state.html).
  With a next block (capacity.next_capacity_reservation_id, serving across blocks: docs/capacity.md) its "Delivered"
  event is a rule of its own, which announces the handover, and the current block's expiration warning names the next
  block's node group as the one that serves on. The next block's expiration warning is a rule of its own too: after
  the slots swap (the block after it goes into the emptied ``capacity_reservation_id``, docs/capacity.md) it is the
  block that serves, and its end needs the same warning.
- *SageMaker HyperPod* (HyperPod path). EventBridge's "Amazon SageMaker AI events" (events-ref-sagemaker.html) lists
  "SageMaker HyperPod Cluster State Change", "SageMaker HyperPod Cluster Node Health Event" and "SageMaker HyperPod
  Cluster Event" (source ``aws.sagemaker``), and no training-plan event; the SageMaker developer guide, "Events that
  Amazon SageMaker AI sends to Amazon EventBridge" (automating-sagemaker-with-eventbridge.html), has their samples:
  the state change's ``detail`` carries ``ClusterName``, ``ClusterArn`` and ``ClusterStatus``; the node health
  event's ``ClusterName``, ``ClusterArn``, ``InstanceId`` and ``HealthSummary`` {``HealthStatus``,
  ``HealthStatusReason``, ``RepairAction``, ``Recommendation``}. "SageMaker HyperPod Cluster Event" comes only from
  clusters with ``NodeProvisioningMode`` ``Continuous`` ("SageMaker HyperPod cluster events reference",
  sagemaker-hyperpod-cluster-events-reference.html); this project's cluster (cdk_constructs/hyperpod_cluster/) sets
  no ``NodeProvisioningMode``, so no rule waits for it. The training plan's end is the ``CapacityEndingSoon`` alarm
  (cdk_constructs/serving_alarms.py) on the publisher's hours left, since no event announces it.

Filtering to this environment: EC2's events by ``detail.capacity-reservation-id`` = the environment's reservation;
HyperPod's by ``detail.ClusterName`` = the environment's HyperPod cluster (``NAME-hyperpod``, a name this app chooses,
known at synthesis; the API reference gives a cluster ARN's last part as the cluster's id, ``cluster/[a-z0-9]{12}``,
while the samples show the name: the name is the field both agree on). Pattern semantics (exact string values, a list
matches any of its values, every field must match): EventBridge User Guide, "Amazon EventBridge event patterns"
(eb-event-patterns.html).

Delivery: ``aws_events_targets.SnsTopic`` grants ``events.amazonaws.com`` ``sns:Publish`` on the topic (topic policy)
and, because the topic has a customer managed key, ``kms:Decrypt`` and ``kms:GenerateDataKey*`` on that key (key
policy) — what the SNS developer guide asks for event sources and encrypted topics ("Enable compatibility between event
sources from AWS services and encrypted topics", sns-key-management.html), which also says that ``aws:SourceAccount`` /
``aws:SourceArn`` / ``aws:SourceOrgID`` conditions in the key policy are not supported for EventBridge to an encrypted
topic: the statement has none. The message is an input transformer's text (EventBridge User Guide, "Amazon
EventBridge input transformation", eb-transform-target-input.html).

Where: the cluster stack (stacks/cluster_stack.py), beside the alarm topic (cdk_constructs/alarm_topic.py,
``AlarmTopic``). A staged deploy creates it before the capacity starts (docs/deploy.md), and EC2 sends "Capacity Block
Delivered" once: a rule created after the start never sees it. In the observability stack (deployed once the capacity is
active, after the serving or endpoint stack) the rule would miss that event, and an environment whose serving stack
failed would get no expiration warning either.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from aws_cdk import aws_events as events
from aws_cdk import aws_events_targets as targets
from aws_cdk import aws_sns as sns
from constructs import Construct

#: The two spellings of each Capacity Block event (see the module docstring).
CAPACITY_BLOCK_DELIVERED = ("Capacity Block Delivered", "Capacity Block Reservation Delivered")
CAPACITY_BLOCK_EXPIRATION_WARNING = (
    "Capacity Block Expiration Warning",
    "Capacity Block Reservation Expiration Warning",
)
HYPERPOD_CLUSTER_STATE_CHANGE = "SageMaker HyperPod Cluster State Change"
HYPERPOD_NODE_HEALTH = "SageMaker HyperPod Cluster Node Health Event"


@dataclass(frozen=True)
class EventRule:
    """One rule: what it matches and what the message says.

    :param id: construct id of the rule.
    :param description: the rule's description.
    :param pattern: the event pattern (``source``, ``detail-type``, ``detail``), exact values only.
    :param message: the text sent to the topic; ``<name>`` placeholders are replaced by the event's value at ``fields[name]``.
    :param fields: placeholder name -> JSON path into the event.
    """

    id: str
    description: str
    pattern: Mapping
    message: str
    fields: Mapping[str, str] = field(default_factory=dict)


def capacity_block_rules(
    *, env_name: str, reservation_id: str, region: str, next_reservation_id: str | None = None
) -> list[EventRule]:
    """The EKS path: the environment's Capacity Block delivered, and its expiration warning; with a next block
    (capacity.next_capacity_reservation_id, serving across blocks) that block's delivery and expiration warning too,
    and each warning says who serves on."""
    show = f"bin/llmops capacity-blocks show {reservation_id} --region {region}"
    times = {"time": "$.time", "end": "$.detail.end-date"}

    def pattern(detail_types: tuple[str, ...], reservation: str = reservation_id) -> dict:
        return {
            "source": ["aws.ec2"],
            "detail-type": list(detail_types),
            "detail": {"capacity-reservation-id": [reservation]},
        }

    handover = f"bin/llmops handover --env {env_name} --region {region}"
    ending = (
        "What happens next: EKS scales the GPU node group to 0 now; EC2 begins to terminate the instances in 10 "
        "minutes; the endpoint stops answering until the next Capacity Block.\n"
        f"What to run: {show}. It is too late to extend this one (EC2 extends a Capacity Block until 1 hour before "
        f"its end: bin/llmops capacity-blocks extend {reservation_id} --duration-hours 24 --region {region}, after "
        "the CapacityEndingSoon alarm); buy the next one with "
        f"bin/llmops capacity-blocks offerings --env {env_name} --region {region}."
    )
    if next_reservation_id:
        ending = (
            "What happens next: EKS scales the GPU node group gpu-capacity-block to 0 now and its vLLM replicas "
            "stop; EC2 begins to terminate its instances in 10 minutes; the replicas on gpu-capacity-block-next "
            f"(Capacity Block {next_reservation_id}) serve on if they are ready.\n"
            f"What to run: {handover}; kubectl get nodes -L eks.amazonaws.com/nodegroup. Once this block "
            "has ended, the next block's group keeps serving: see docs/capacity.md, 'Serve across blocks'."
        )
    rules = [
        EventRule(
            "CapacityBlockDelivered",
            f"{env_name}: Capacity Block {reservation_id} delivered",
            pattern(CAPACITY_BLOCK_DELIVERED),
            f"[{env_name}] Capacity Block {reservation_id} was delivered at <time>: the reservation is active until "
            "<end>.\n"
            "What happens next: the GPU node group's instances start in the reservation, then vLLM downloads and loads "
            "the weights (up to the startup budget) before the endpoint answers.\n"
            f"What to run: {show}; bin/llmops wait nodes --env {env_name} --region {region}; "
            f"bin/llmops phases --env {env_name} --region {region}",
            times,
        ),
        EventRule(
            "CapacityBlockExpirationWarning",
            f"{env_name}: Capacity Block {reservation_id} ends in 40 minutes",
            pattern(CAPACITY_BLOCK_EXPIRATION_WARNING),
            f"[{env_name}] Capacity Block {reservation_id} ends at <end> (warning sent at <time>).\n"
            + ending,
            times,
        ),
    ]
    if next_reservation_id:
        next_show = f"bin/llmops capacity-blocks show {next_reservation_id} --region {region}"
        rules.append(
            EventRule(
                "NextCapacityBlockDelivered",
                f"{env_name}: next Capacity Block {next_reservation_id} delivered",
                pattern(CAPACITY_BLOCK_DELIVERED, next_reservation_id),
                f"[{env_name}] The next Capacity Block {next_reservation_id} was delivered at <time>: it is active "
                "until <end>.\n"
                "What happens next: node group gpu-capacity-block-next launches its instances; the standby vLLM "
                "replicas schedule there, download and load the weights (up to the startup budget) and join the "
                f"Service; the nodes of {reservation_id} drain 40 minutes before it ends.\n"
                f"What to run: {handover}; {next_show}; bin/llmops phases --env {env_name} --region {region}",
                times,
            )
        )
        rules.append(
            EventRule(
                "NextCapacityBlockExpirationWarning",
                f"{env_name}: next Capacity Block {next_reservation_id} ends in 40 minutes",
                pattern(CAPACITY_BLOCK_EXPIRATION_WARNING, next_reservation_id),
                f"[{env_name}] Capacity Block {next_reservation_id} (node group gpu-capacity-block-next) ends at "
                "<end> (warning sent at <time>).\n"
                "What happens next: EKS scales the GPU node group gpu-capacity-block-next to 0 now and its vLLM "
                "replicas stop; EC2 begins to terminate its instances in 10 minutes; the replicas on "
                f"gpu-capacity-block (Capacity Block {reservation_id}) serve on if that block is running and they "
                "are ready, else the endpoint stops answering until the next Capacity Block.\n"
                f"What to run: {handover}; {next_show}; kubectl get nodes -L eks.amazonaws.com/nodegroup. "
                "The block after this one goes into the slot whose group is empty: see docs/capacity.md, 'Serve "
                "across blocks'.",
                times,
            )
        )
    return rules


def hyperpod_rules(
    *, env_name: str, hyperpod_cluster_name: str, region: str, namespace: str, endpoint_name: str
) -> list[EventRule]:
    """The HyperPod path: the cluster's state changes and its nodes' health events."""
    nodes = (
        f"aws sagemaker list-cluster-nodes --cluster-name {hyperpod_cluster_name} --region {region}"
    )
    describe = (
        f"aws sagemaker describe-cluster --cluster-name {hyperpod_cluster_name} --region {region} "
        "--query '[ClusterStatus,FailureMessage]'"
    )

    def pattern(detail_type: str) -> dict:
        return {
            "source": ["aws.sagemaker"],
            "detail-type": [detail_type],
            "detail": {"ClusterName": [hyperpod_cluster_name]},
        }

    return [
        EventRule(
            "HyperPodClusterStateChange",
            f"{env_name}: state changes of HyperPod cluster {hyperpod_cluster_name}",
            pattern(HYPERPOD_CLUSTER_STATE_CHANGE),
            f"[{env_name}] HyperPod cluster {hyperpod_cluster_name} is now <status> (<time>).\n"
            "What happens next: InService: the instance group's nodes join the EKS cluster and the Inference Operator "
            "starts the endpoint's worker; Failed or RollingBack: the cluster stack's deployment fails or rolls back, "
            "and no GPU node serves.\n"
            f"What to run: {describe}; {nodes}; bin/llmops wait inference-endpoint --name {endpoint_name} "
            f"--namespace {namespace}",
            {"time": "$.time", "status": "$.detail.ClusterStatus"},
        ),
        EventRule(
            "HyperPodNodeHealth",
            f"{env_name}: node health of HyperPod cluster {hyperpod_cluster_name}",
            pattern(HYPERPOD_NODE_HEALTH),
            f"[{env_name}] HyperPod cluster {hyperpod_cluster_name}, instance <instance>: <health> (<time>). "
            "<reason> Repair action: <repair>. Recommendation: <recommendation>\n"
            "What happens next: with NodeRecovery Automatic HyperPod reboots or replaces a faulty node; a replaced "
            "node downloads and loads the weights again, and the endpoint has no healthy target meanwhile.\n"
            f"What to run: {nodes}; kubectl get nodes -L sagemaker.amazonaws.com/node-health-status; "
            f"kubectl -n {namespace} get pods -l app={endpoint_name}",
            {
                "time": "$.time",
                "instance": "$.detail.InstanceId",
                "health": "$.detail.HealthSummary.HealthStatus",
                "reason": "$.detail.HealthSummary.HealthStatusReason",
                "repair": "$.detail.HealthSummary.RepairAction",
                "recommendation": "$.detail.HealthSummary.Recommendation",
            },
        ),
    ]


class CapacityEvents(Construct):
    """One EventBridge rule per :class:`EventRule` on the default event bus, each sending its message to ``topic``.

    :attr rules: the rules by id.
    """

    def __init__(
        self, scope: Construct, id: str, *, topic: sns.ITopic, rules: list[EventRule]
    ) -> None:
        super().__init__(scope, id)
        self.rules: dict[str, events.Rule] = {}
        for rule in rules:
            pattern = rule.pattern
            message = rule.message
            for name, path in rule.fields.items():
                message = message.replace(f"<{name}>", events.EventField.from_path(path))
            self.rules[rule.id] = events.Rule(
                self,
                rule.id,
                description=rule.description[:512],
                event_pattern=events.EventPattern(
                    source=pattern["source"],
                    detail_type=pattern["detail-type"],
                    detail=pattern.get("detail"),
                ),
                targets=[
                    targets.SnsTopic(topic, message=events.RuleTargetInput.from_text(message))
                ],
            )
