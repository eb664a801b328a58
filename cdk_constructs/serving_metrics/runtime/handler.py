"""Puts the serving metrics of one environment into CloudWatch, once a minute (EventBridge schedule).

The event (built by cdk_constructs/serving_metrics/, visible in the template) says what to do:

    {"namespace": "LLMServing", "clusterName": "prod-llm",
     "prometheusEndpoint": "https://aps-workspaces.REGION.amazonaws.com/workspaces/ws-.../",
     "queries": [{"name": "TimeToFirstTokenP90Seconds", "unit": "Seconds", "query": "histogram_quantile(...)",
                  "whenEmpty": null}, ...],
     "loadBalancerTags": {"kubernetes.io/service-name": "llm-serving/vllm", "kubernetes.io/cluster/prod-llm": "owned"},
     "capacityReservationId": "cr-...", "healthyTargetsMetric": "HealthyTargets",
     "capacityBlockHoursLeftMetric": "CapacityBlockHoursLeft", "blockCostMetric": "BlockCostUsd",
     "blockFeeUsd": 91540.8}

``blockFeeUsd`` is there only when the configuration gives the Capacity Block's fee (observability.block_fee_usd): then
each minute puts as ``blockCostMetric`` the sum of the shares of every paid period that covers it (a period's fee x 60 s
/ its seconds): the block as bought (StartDate to its first extension's start) with that fee, each paid extension with
its own UpfrontFee (DescribeCapacityBlockExtensionHistory), and, with ``"nextBlockFeeUsd"``
(observability.next_block_fee_usd), the next block's periods the same way. A period whose fee is unknown adds nothing.

``"nextCapacityReservationId": "cr-..."`` is there only when the configuration names the next Capacity Block
(capacity.next_capacity_reservation_id: a second GPU node group serves from it, docs/capacity.md "Serve across blocks").
Then the hours left count to the end of serving: the later block's end when it starts by the end of the block that starts
first (whichever slot holds it), else the first block's end (a gap stops serving there) until it has ended.
One DescribeCapacityReservations call reads both, one DescribeCapacityBlockExtensionHistory call their extensions; while
the blocks overlap both are paid, and both shares are put.

``"bridge": {...}`` is there only with a bridge section: then the run also puts the bridge's instances running and, with
an On-Demand rate, their minute's cost, and the vLLM replicas ready on the block's own nodes (runtime/bridge.py).

``"servingGap": {"metric": "ServingGapMinutes", "coldStartSeconds": 7080, "scaleDownBeforeEndMinutes": 40}`` is there
only with ``nextCapacityReservationId``: then the run also puts the minutes in which, as planned, neither block serves
(serving_gap_minutes), from the same DescribeCapacityReservations answer.

On HyperPod the capacity is a training plan: ``"trainingPlanName": "kimi-k3-december"`` and
``"trainingPlanHoursLeftMetric": "TrainingPlanHoursLeft"`` instead of the Capacity Block keys (the fee is the plan's
UpfrontFee, when its CurrencyCode is USD), and the load balancer
tags are the AWS Load Balancer Controller's (``{"elbv2.k8s.aws/cluster": "prod-hyperpod-llm"}``). Its queries also
aggregate NVIDIA DCGM's GPU series, which the HyperPod observability add-on writes to the same workspace (GpusReporting,
GpuXidErrors, ...: cdk_constructs/serving_metrics/published.py, DCGM_PUBLISHED); the handler treats them as any other query.

A query that fails or returns NaN puts nothing: the alarm's missing-data rule decides what that means. A query that
returns no series puts ``whenEmpty`` when the event gives one. No load balancer with the tags puts 0 healthy targets.
"""

from __future__ import annotations

import json
import logging
import math
import os
import time
import urllib.request
from collections.abc import Callable, Mapping
from datetime import UTC, datetime

import boto3
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.session import Session
from botocore.utils import percent_encode_sequence

from capacity_rules import FINAL_STATES, NEVER_PAID, PAID, bought_until, extensions_of
from cdk_constructs.serving_metrics.runtime.bridge import block_replicas_metrics, bridge_metrics

LOGGER = logging.getLogger()
LOGGER.setLevel(logging.INFO)

#: elasticloadbalancing:DescribeTags takes at most 20 ARNs per call (ELBv2 API reference, DescribeTags ResourceArns).
TAG_BATCH = 20
#: PutMetricData takes at most 1000 metrics per call (CloudWatch API reference); far more than one run puts.
PUT_BATCH = 1000
QUERY_TIMEOUT_SECONDS = 10


def _signed_get(url: str, params: Mapping[str, str], region: str) -> dict:
    """GET ``url`` with SigV4 (service ``aps``), as AMP's query API wants, and return the JSON answer."""
    # SigV4's encoding (a space as %20, never urlencode's "+"): botocore signs the query as sent, the service decodes it
    # and encodes it again by SigV4's rules (tests/cdk_constructs/test_publisher_signing.py says where this is written)
    full = f"{url}?{percent_encode_sequence(params)}"
    credentials = Session().get_credentials().get_frozen_credentials()
    request = AWSRequest(method="GET", url=full)
    SigV4Auth(credentials, "aps", region).add_auth(request)
    with urllib.request.urlopen(urllib.request.Request(full, headers=dict(request.headers)),  # noqa: S310 (https only)
                                timeout=QUERY_TIMEOUT_SECONDS) as response:
        return json.loads(response.read())


def instant_value(answer: dict) -> float | None:
    """The value of a PromQL instant query's answer: the first series' value, None for no series, NaN or infinity."""
    if answer.get("status") != "success":
        raise ValueError(f"query failed: {answer.get('errorType')}: {answer.get('error')}")
    data = answer.get("data", {})
    if data.get("resultType") == "scalar":
        raw = data.get("result", [None, "NaN"])[1]
    else:
        result = data.get("result", [])
        if not result:
            return None
        raw = result[0]["value"][1]
    value = float(raw)
    return value if math.isfinite(value) else None


def query_url(endpoint: str) -> str:
    """AMP's Prometheus-compatible instant query API under the workspace endpoint (AMP user guide, "Query your
    Prometheus metrics": GET <endpoint>api/v1/query)."""
    return f"{endpoint.rstrip('/')}/api/v1/query"


def query_metrics(event: dict, now: float, query: Callable[[str, Mapping[str, str]], dict]) -> list[dict]:
    """One CloudWatch datum per query of the event that has a value (see the module docstring)."""
    url = query_url(event["prometheusEndpoint"])
    data = []
    for item in event["queries"]:
        try:
            value = instant_value(query(url, {"query": item["query"], "time": f"{now:.3f}"}))
        except Exception as error:  # one failed query must not stop the others
            LOGGER.warning("query %s failed: %s", item["name"], error)
            continue
        if value is None:
            value = item.get("whenEmpty")
        if value is None:
            continue
        data.append({"MetricName": item["name"], "Unit": item["unit"], "Value": value})
    return data


def find_load_balancer(elbv2, tags: Mapping[str, str]) -> str | None:
    """The ARN of the load balancer that carries every one of ``tags``, or None."""
    arns = [lb["LoadBalancerArn"] for page in elbv2.get_paginator("describe_load_balancers").paginate()
            for lb in page["LoadBalancers"]]
    for start in range(0, len(arns), TAG_BATCH):
        for description in elbv2.describe_tags(ResourceArns=arns[start:start + TAG_BATCH])["TagDescriptions"]:
            carried = {t["Key"]: t.get("Value", "") for t in description.get("Tags", [])}
            if all(carried.get(key) == value for key, value in tags.items()):
                return description["ResourceArn"]
    return None


def healthy_targets(elbv2, tags: Mapping[str, str]) -> int:
    """Healthy targets over the target groups of the Service's load balancer; 0 when there is no such load balancer."""
    arn = find_load_balancer(elbv2, tags)
    if arn is None:
        LOGGER.warning("no load balancer carries the tags %s", dict(tags))
        return 0
    healthy = 0
    for group in elbv2.describe_target_groups(LoadBalancerArn=arn)["TargetGroups"]:
        descriptions = elbv2.describe_target_health(TargetGroupArn=group["TargetGroupArn"])["TargetHealthDescriptions"]
        healthy += sum(1 for d in descriptions if d["TargetHealth"]["State"] == "healthy")
    return healthy


def minute_of_fee(fee: float | None, start, end, now: float) -> float | None:
    """The minute's share of the block's upfront fee: fee x 60 s / the block's seconds, while start <= now < end; None
    outside the block or when the fee or a date is unknown (a minute outside the block costs the block nothing)."""
    if fee is None or start is None or end is None:
        return None
    length = end.timestamp() - start.timestamp()
    if length <= 0 or not start.timestamp() <= now < end.timestamp():
        return None
    return fee * 60 / length


def extension_history(ec2, reservation_ids: list[str]) -> list[dict]:
    """Every extension of the reservations, from one DescribeCapacityBlockExtensionHistory call for all of them (more
    only when EC2 pages its answer: NextToken, at most 10 pages)."""
    extensions, params = [], {"CapacityReservationIds": reservation_ids}
    for _ in range(10):
        page = ec2.describe_capacity_block_extension_history(**params)
        extensions += page.get("CapacityBlockExtensions", [])
        if not page.get("NextToken"):
            break
        params["NextToken"] = page["NextToken"]
    return extensions


def usd_fee(record: dict) -> float | None:
    """An extension's or a training plan's UpfrontFee when its CurrencyCode is USD; None without one, or not a number."""
    try:
        return float(record["UpfrontFee"]) if record.get("CurrencyCode") == "USD" else None
    except (KeyError, ValueError):
        return None


def paid_periods(reservation: dict, extensions: list[dict], fee: float | None) -> list[tuple]:
    """(start, end, fee in USD or None) of each period paid for the reservation: the block as bought
    (capacity_rules.bought_until) with ``fee``, then each paid extension with its UpfrontFee when its CurrencyCode is
    USD; none for a reservation never paid (capacity_rules.NEVER_PAID)."""
    if reservation.get("State") in NEVER_PAID:
        return []
    ours = extensions_of(reservation.get("CapacityReservationId"), extensions)
    periods = [(reservation.get("StartDate"), bought_until(reservation.get("EndDate"), ours), fee)]
    for x in ours:
        if x.get("CapacityBlockExtensionStatus") == PAID:
            periods.append((x["CapacityBlockExtensionStartDate"], x.get("CapacityBlockExtensionEndDate"), usd_fee(x)))
    return periods


def minute_of_fees(periods: list[tuple], now: float) -> float | None:
    """The minute's share of every paid period that covers it (both blocks while they overlap); None when no period
    with a known fee covers it."""
    shares = [share for share in (minute_of_fee(fee, start, end, now) for start, end, fee in periods)
              if share is not None]
    return sum(shares) if shares else None


def _block(reservation: dict, now: float) -> float | None:
    """Hours until the reservation's EndDate, 0 once ended, cancelled or expired (:data:`FINAL_STATES`)."""
    end = reservation.get("EndDate")
    if reservation.get("State") in FINAL_STATES:
        return 0.0
    return None if end is None else max(0.0, (end.timestamp() - now) / 3600)


def capacity_block(ec2, reservation_id: str, now: float, fee: float | None = None,
                   next_reservation_id: str | None = None,
                   next_fee: float | None = None) -> tuple[float | None, float | None]:
    """(hours until serving on the Capacity Block(s) ends, 0 once ended, cancelled or expired; the minute's share of
    every paid period that covers it), each None when EC2 does not know it. Both blocks are read in one
    DescribeCapacityReservations call (the module docstring says where serving ends). The fees: ``fee`` for the block in
    reservation_id as bought, ``next_fee`` for the next block's, each extension's own from one
    DescribeCapacityBlockExtensionHistory call (read only when a fee is given: without one nothing is put); when that
    call fails the minute's cost is not put (the periods are unknown), the hours are."""
    ids = [reservation_id, *([next_reservation_id] if next_reservation_id else [])]
    try:
        reservations = ec2.describe_capacity_reservations(CapacityReservationIds=ids)["CapacityReservations"]
    except Exception as error:
        # One unknown id fails the whole call (InvalidCapacityReservationId.NotFound or .Malformed, as ops_cli/errors.py
        # reads them): the block in reservation_id is then read alone, its hours to its own end (CapacityEndingSoon).
        # Not after any other failure: those hours, put while the next block serves on, would fire that alarm.
        code = (getattr(error, "response", None) or {}).get("Error", {}).get("Code", "")
        if not next_reservation_id or not code.startswith("InvalidCapacityReservationId."):
            raise
        LOGGER.warning("both Capacity Blocks not read (%s): reading %s alone", error, reservation_id)
        ids, next_reservation_id = [reservation_id], None
        reservations = ec2.describe_capacity_reservations(CapacityReservationIds=ids)["CapacityReservations"]
    by_id = {r.get("CapacityReservationId"): r for r in reservations}
    if not next_reservation_id and reservations:
        by_id = {reservation_id: reservations[0]}
    current, following = by_id.get(reservation_id), by_id.get(next_reservation_id)
    cost = None
    if fee is not None or next_fee is not None:
        try:
            extensions = extension_history(ec2, ids)
            periods = [*(paid_periods(current, extensions, fee) if current else []),
                       *(paid_periods(following, extensions, next_fee) if following else [])]
            cost = minute_of_fees(periods, now)
        except Exception as error:  # the hours left are known without it
            LOGGER.warning("Capacity Block extension history not read, block cost not put: %s", error)
    hours = _block(current, now) if current else None
    next_hours = _block(following, now) if following else None
    if next_hours is None:
        return hours, cost
    # The later block carries serving on when it starts by the first one's end; after a gap serving stops at the first
    # block's end. The first is the one that starts first, whichever slot holds it (after a handover they alternate).
    (first, first_hours), (second, second_hours) = sorted(
        ((current or {}, hours), (following, next_hours)),
        key=lambda slot: (slot[0].get("StartDate") is None, slot[0].get("StartDate") or 0))
    end, start = first.get("EndDate"), second.get("StartDate")
    if not first_hours or end is None or start is None or start <= end:
        return max(first_hours or 0.0, second_hours or 0.0), cost
    return first_hours, cost


def training_plan(sagemaker, plan_name: str, now: float) -> tuple[float | None, float | None]:
    """(hours until the training plan's EndTime, 0 once Expired or Failed; the minute's share of its UpfrontFee when
    its CurrencyCode is USD), each None when SageMaker does not give it."""
    plan = sagemaker.describe_training_plan(TrainingPlanName=plan_name)
    if plan.get("Status") in ("Expired", "Failed"):
        return 0.0, None
    end = plan.get("EndTime")
    cost = minute_of_fee(usd_fee(plan), plan.get("StartTime"), end, now)
    return (None if end is None else max(0.0, (end.timestamp() - now) / 3600)), cost


def serving_gap_minutes(ec2, reservation_ids: list[str], now: float, cold_start_seconds: float,
                        scale_down_minutes: float) -> float | None:
    """Minutes in which, as planned, no Capacity Block serves: from the scale-down of the block that starts first (its
    EndDate - ``scale_down_minutes``: EKS drains its nodes) to the other block's replicas being ready (its StartDate +
    ``cold_start_seconds``, the startup budget ``llmops handover`` plans with). The first block is the one that starts
    first, whichever slot holds it, as in ``llmops handover`` (the slots alternate: docs/capacity.md).

    0 when the overlap covers the cold start, and 0 once the first block has ended or never served (its handover is
    past). A second block that will never serve (FINAL_STATES) leaves no end to the gap: its minutes are then those it
    was to serve after the scale-down, to its EndDate (0 when it was to end before: it covered nothing). None (nothing
    put) when EC2 does not return both blocks with their dates."""
    reservations = ec2.describe_capacity_reservations(CapacityReservationIds=reservation_ids)["CapacityReservations"]
    by_id = {r.get("CapacityReservationId"): r for r in reservations}
    blocks = [by_id.get(rid) or {} for rid in reservation_ids]
    if any(b.get("StartDate") is None or b.get("EndDate") is None for b in blocks):
        return None
    first, second = sorted(blocks, key=lambda b: b["StartDate"])
    if first.get("State") in FINAL_STATES or now >= first["EndDate"].timestamp():
        return 0.0
    scale_down = first["EndDate"].timestamp() - scale_down_minutes * 60
    if second.get("State") in FINAL_STATES:
        return max(0.0, (second["EndDate"].timestamp() - scale_down) / 60)
    return max(0.0, (second["StartDate"].timestamp() + cold_start_seconds - scale_down) / 60)


def serving_gap(event: dict, ec2, now: float) -> list[dict]:
    """The event's ``servingGap`` metric as a datum (none without a next block, or when EC2 is not read)."""
    gap = event.get("servingGap")
    if not gap:
        return []
    try:
        minutes = serving_gap_minutes(ec2, [event["capacityReservationId"], event["nextCapacityReservationId"]], now,
                                      gap["coldStartSeconds"], gap["scaleDownBeforeEndMinutes"])
    except Exception as error:
        LOGGER.warning("serving gap not read: %s", error)
        return []
    return [] if minutes is None else [{"MetricName": gap["metric"], "Unit": "None", "Value": minutes}]


class DescribeOnce:
    """An EC2 client whose DescribeCapacityReservations is sent once a run per list of ids: the hours left and the
    serving gap read the same answer, or the same error (one call a minute, as before the gap was read)."""

    def __init__(self, ec2):
        self._ec2, self._answers = ec2, {}

    def __getattr__(self, name):  # every other call (the extension history) goes to the client as it is
        return getattr(self._ec2, name)

    def describe_capacity_reservations(self, **params):
        key = tuple(params.get("CapacityReservationIds", ()))
        if key not in self._answers:
            try:
                self._answers[key] = self._ec2.describe_capacity_reservations(**params)
            except Exception as error:
                self._answers[key] = error
        if isinstance(self._answers[key], Exception):
            raise self._answers[key]
        return self._answers[key]


def put(cloudwatch, namespace: str, cluster_name: str, data: list[dict], timestamp: float) -> None:
    dimensions = [{"Name": "ClusterName", "Value": cluster_name}]
    at = datetime.fromtimestamp(timestamp, UTC)
    stamped = [{**datum, "Dimensions": dimensions, "Timestamp": at} for datum in data]
    for start in range(0, len(stamped), PUT_BATCH):
        cloudwatch.put_metric_data(Namespace=namespace, MetricData=stamped[start:start + PUT_BATCH])


def publish(event: dict, *, now: float, query, cloudwatch, elbv2, ec2, sagemaker=None) -> list[dict]:
    """Compute and put every metric of one run; returns what was put (for the log and the tests)."""
    ec2 = DescribeOnce(ec2)
    data = query_metrics(event, now, query)
    try:
        data.append({"MetricName": event["healthyTargetsMetric"], "Unit": "Count",
                     "Value": float(healthy_targets(elbv2, event["loadBalancerTags"]))})
    except Exception as error:
        LOGGER.warning("load balancer health not read: %s", error)
    try:
        if event.get("capacityReservationId"):
            hours, cost = capacity_block(ec2, event["capacityReservationId"], now, event.get("blockFeeUsd"),
                                         event.get("nextCapacityReservationId"), event.get("nextBlockFeeUsd"))
            metric = "capacityBlockHoursLeftMetric"
        else:
            hours, cost = training_plan(sagemaker, event["trainingPlanName"], now)
            metric = "trainingPlanHoursLeftMetric"
        if hours is not None:
            data.append({"MetricName": event[metric], "Unit": "None", "Value": hours})
        if cost is not None and event.get("blockCostMetric"):
            data.append({"MetricName": event["blockCostMetric"], "Unit": "None", "Value": cost})
    except Exception as error:
        LOGGER.warning("capacity end not read: %s", error)
    data += serving_gap(event, ec2, now)
    data += bridge_metrics(event, ec2)
    url = query_url(event["prometheusEndpoint"])
    data += block_replicas_metrics(event, ec2, lambda promql: query(url, {"query": promql, "time": f"{now:.3f}"}))
    if data:
        put(cloudwatch, event["namespace"], event["clusterName"], data, now)
    return data


def handler(event, _context):
    region = os.environ["AWS_REGION"]
    data = publish(
        event, now=time.time(), query=lambda url, params: _signed_get(url, params, region),
        cloudwatch=boto3.client("cloudwatch"), elbv2=boto3.client("elbv2"), ec2=boto3.client("ec2"),
        sagemaker=boto3.client("sagemaker"))
    LOGGER.info("put %s", json.dumps({d["MetricName"]: d["Value"] for d in data}))
    return {"put": len(data)}
