"""Lambda handlers of the DestroyWaiter custom resource (aws_cdk.custom_resources.Provider, with isComplete).

Create and Update do nothing. On Delete, ``is_complete`` answers ``IsComplete: False`` while AWS resources that
CloudFormation does not know about are still there, so that the stack's delete waits for them:

- Kind ``LoadBalancersGone`` (``Tags``: tag key -> value, a JSON object or its JSON text): Elastic Load Balancing v2
  load balancers that carry ALL of those tags, as the Kubernetes cloud provider or the AWS Load Balancer Controller
  create them for a Service of type LoadBalancer (which the kubectl provider may fail to delete without failing).
  With ``IncludeSecurityGroups`` ``"true"``, also the EC2 security groups that carry all of those tags: the AWS Load
  Balancer Controller's, which it deletes after its load balancers and which would make the VPC's delete fail.
- Kind ``NetworkInterfacesGone`` (``VpcId``, ``SecurityGroupIds``): network interfaces in the VPC that carry any of
  the security groups, as SageMaker HyperPod creates them in our subnets.

Each poll prints what is still there with the AWS CLI command that deletes it. When the env variable
``GIVE_UP_AFTER_SECONDS`` is set (the construct sets it a little below the Provider's total timeout), the poll after
that time raises an error with the same text, so that the reason CloudFormation shows is this list instead of the
framework's bare "Operation timed out".

Runs on the Lambda Python runtime (3.12 or later) with its boto3; no other dependency.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Iterable, Mapping

import boto3
from botocore.exceptions import ClientError

LOAD_BALANCERS_GONE = "LoadBalancersGone"
NETWORK_INTERFACES_GONE = "NetworkInterfacesGone"
#: elbv2 DescribeTags accepts at most 20 ARNs per call.
DESCRIBE_TAGS_BATCH = 20
#: on_event adds this field to the Delete event; the Provider framework passes on_event's fields on to is_complete
#: (aws-cdk-lib custom-resources/lib/provider-framework/runtime/framework.js, createResponseEvent, and the Provider's
#: documentation: "The input event to isComplete includes all request fields, combined with all fields returned from
#: onEvent").  An error raised by is_complete fails the resource at once, with the error as CloudFormation's reason.
DELETE_STARTED_AT = "DestroyWaiterDeleteStartedAt"
GIVE_UP_AFTER_ENV = "GIVE_UP_AFTER_SECONDS"
#: A custom resource's response to CloudFormation holds at most 4096 bytes; the framework adds a stack trace.
MAX_ERROR_CHARS = 1500
#: Errors that mean "look again at the next poll": a load balancer deleted between the two calls, throttling.
TRANSIENT_ERRORS = {"LoadBalancerNotFound", "Throttling", "ThrottlingException", "RequestLimitExceeded"}


def client(service_name: str):
    """The boto3 client of ``service_name``; tests replace this function."""
    return boto3.client(service_name)


class StillThere(RuntimeError):
    """Raised when the waiter gives up: its message names what is left and how to delete it."""


# ---------------------------------------------------------------------------------------------------- properties


def load_balancer_tags(properties: Mapping) -> dict[str, str]:
    tags = properties.get("Tags")
    if isinstance(tags, str):
        tags = json.loads(tags)
    if not isinstance(tags, dict) or not tags:
        raise ValueError(f"{LOAD_BALANCERS_GONE} needs Tags, a non-empty JSON object of tag key -> value; got {tags!r}")
    return {str(key): str(value) for key, value in tags.items()}


def network_interface_filter(properties: Mapping) -> tuple[str, list[str]]:
    vpc_id, groups = properties.get("VpcId"), properties.get("SecurityGroupIds")
    if not vpc_id or not isinstance(groups, list) or not groups:
        raise ValueError(f"{NETWORK_INTERFACES_GONE} needs VpcId and a non-empty list SecurityGroupIds; "
                         f"got VpcId={vpc_id!r}, SecurityGroupIds={groups!r}")
    return str(vpc_id), sorted(str(group) for group in groups)


def includes_security_groups(properties: Mapping) -> bool:
    """Whether a ``LoadBalancersGone`` waiter also waits for the security groups carrying its tags. CloudFormation
    passes every custom resource property as a string ("true"); a JSON boolean is accepted too.

    Not part of the waiter's identity (:func:`parameters`): a waiter that gains it keeps its physical id and is updated,
    not replaced; a replaced waiter's delete, in the update's cleanup, would wait for the load balancers of the
    endpoint that is still serving."""
    value = properties.get("IncludeSecurityGroups", False)
    if str(value).lower() not in ("true", "false"):
        raise ValueError(f"IncludeSecurityGroups must be true or false; got {value!r}")
    return str(value).lower() == "true"


def parameters(properties: Mapping) -> dict:
    """Kind and its parameters, normalized: the identity of the waiter."""
    kind = properties.get("Kind")
    if kind == LOAD_BALANCERS_GONE:
        includes_security_groups(properties)  # checked here, so that a bad value fails the create, not the delete
        return {"Kind": kind, "Tags": load_balancer_tags(properties)}
    if kind == NETWORK_INTERFACES_GONE:
        vpc_id, groups = network_interface_filter(properties)
        return {"Kind": kind, "VpcId": vpc_id, "SecurityGroupIds": groups}
    raise ValueError(f"unknown Kind {kind!r}; expected {LOAD_BALANCERS_GONE} or {NETWORK_INTERFACES_GONE}")


def physical_resource_id(properties: Mapping) -> str:
    """Stable for the same Kind and parameters (in any order); a change of them replaces the waiter."""
    params = parameters(properties)
    digest = hashlib.sha256(json.dumps(params, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:16]
    return f"DestroyWaiter-{params['Kind']}-{digest}"


# ---------------------------------------------------------------------------------------------------- load balancers


def _batches(items: list, size: int) -> Iterable[list]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


def matching_load_balancer_arns(load_balancers: Iterable[Mapping], tag_descriptions: Iterable[Mapping],
                                wanted: Mapping[str, str]) -> list[str]:
    """The ARNs, in the order of ``load_balancers`` (``DescribeLoadBalancers`` items), whose tags
    (``DescribeTags`` ``TagDescriptions`` items) hold every key of ``wanted`` with its value."""
    tags_by_arn = {d["ResourceArn"]: {t["Key"]: t.get("Value", "") for t in d.get("Tags", [])} for d in tag_descriptions}
    return [lb["LoadBalancerArn"] for lb in load_balancers
            if all(tags_by_arn.get(lb["LoadBalancerArn"], {}).get(key) == value for key, value in wanted.items())]


def remaining_load_balancers(elbv2, wanted: Mapping[str, str]) -> list[dict]:
    """The load balancers (``DescribeLoadBalancers`` items) that carry all ``wanted`` tags."""
    load_balancers = [lb for page in elbv2.get_paginator("describe_load_balancers").paginate()
                      for lb in page["LoadBalancers"]]
    arns = [lb["LoadBalancerArn"] for lb in load_balancers]
    descriptions = [d for batch in _batches(arns, DESCRIBE_TAGS_BATCH)
                    for d in elbv2.describe_tags(ResourceArns=batch)["TagDescriptions"]]
    matching = set(matching_load_balancer_arns(load_balancers, descriptions, wanted))
    return [lb for lb in load_balancers if lb["LoadBalancerArn"] in matching]


def _region_option() -> str:
    region = os.environ.get("AWS_REGION")
    return f" --region {region}" if region else ""


def describe_load_balancers_left(load_balancers: list[dict], wanted: Mapping[str, str]) -> str:
    region = _region_option()
    items = "; ".join(f"{lb.get('LoadBalancerName', '?')} ({lb['LoadBalancerArn']}): "
                      f"aws elbv2 delete-load-balancer --load-balancer-arn {lb['LoadBalancerArn']}{region}"
                      for lb in load_balancers)
    return (f"{len(load_balancers)} load balancer(s) tagged {json.dumps(dict(wanted), sort_keys=True)} still exist, "
            f"created outside CloudFormation (a Kubernetes Service of type LoadBalancer); delete each with: {items}")


# ---------------------------------------------------------------------------------------------------- security groups


def remaining_security_groups(ec2, wanted: Mapping[str, str]) -> list[dict]:
    """The security groups (``DescribeSecurityGroups`` items) that carry all ``wanted`` tags."""
    filters = [{"Name": f"tag:{key}", "Values": [value]} for key, value in sorted(wanted.items())]
    return [group for page in ec2.get_paginator("describe_security_groups").paginate(Filters=filters)
            for group in page["SecurityGroups"]]


def describe_security_groups_left(groups: list[dict], wanted: Mapping[str, str]) -> str:
    region = _region_option()
    items = "; ".join(f"{group['GroupId']} ({group.get('GroupName', '?')} in {group.get('VpcId', '?')}): "
                      f"aws ec2 delete-security-group --group-id {group['GroupId']}{region}" for group in groups)
    return (f"{len(groups)} security group(s) tagged {json.dumps(dict(wanted), sort_keys=True)} still exist, created "
            f"outside CloudFormation (the AWS Load Balancer Controller's; it deletes them after its load balancers); "
            f"delete each with: {items}")


# ---------------------------------------------------------------------------------------------------- network interfaces


def remaining_network_interfaces(ec2, vpc_id: str, security_group_ids: list[str]) -> list[dict]:
    """Interfaces in ``vpc_id`` that carry any of ``security_group_ids`` (``DescribeNetworkInterfaces`` items)."""
    filters = [{"Name": "vpc-id", "Values": [vpc_id]}, {"Name": "group-id", "Values": list(security_group_ids)}]
    return [eni for page in ec2.get_paginator("describe_network_interfaces").paginate(Filters=filters)
            for eni in page["NetworkInterfaces"]]


def describe_network_interfaces_left(interfaces: list[dict], vpc_id: str, security_group_ids: list[str]) -> str:
    region = _region_option()
    items = []
    for eni in interfaces:
        eni_id = eni["NetworkInterfaceId"]
        command = f"aws ec2 delete-network-interface --network-interface-id {eni_id}{region}"
        attachment = eni.get("Attachment", {}).get("AttachmentId")
        if eni.get("Status") == "in-use" and attachment:
            command = f"aws ec2 detach-network-interface --attachment-id {attachment}{region} && {command}"
        items.append(f"{eni_id} ({eni.get('Status', '?')}, {eni.get('Description', '')!r}): {command}")
    return (f"{len(interfaces)} network interface(s) in {vpc_id} with security group(s) {', '.join(security_group_ids)} "
            f"still exist, created outside CloudFormation; delete each with: {'; '.join(items)}")


# ---------------------------------------------------------------------------------------------------- handlers


def _what_is_left(properties: Mapping) -> str | None:
    """None when the waited-for resources are gone, otherwise the text naming them and their delete commands."""
    params = parameters(properties)
    if params["Kind"] == LOAD_BALANCERS_GONE:
        texts = []
        load_balancers = remaining_load_balancers(client("elbv2"), params["Tags"])
        if load_balancers:
            texts.append(describe_load_balancers_left(load_balancers, params["Tags"]))
        if includes_security_groups(properties):
            groups = remaining_security_groups(client("ec2"), params["Tags"])
            if groups:
                texts.append(describe_security_groups_left(groups, params["Tags"]))
        return " | ".join(texts) or None
    left = remaining_network_interfaces(client("ec2"), params["VpcId"], params["SecurityGroupIds"])
    return describe_network_interfaces_left(left, params["VpcId"], params["SecurityGroupIds"]) if left else None


def _shortened(text: str) -> str:
    """The framework sends the error (with a stack trace) to CloudFormation, whose response body takes 4096 bytes."""
    if len(text) <= MAX_ERROR_CHARS:
        return text
    return text[:MAX_ERROR_CHARS] + " ... (cut short; the whole list is in this function's log)"


def on_event(event: Mapping, context, *, now: Callable[[], float] = time.time) -> dict:
    request_type = event["RequestType"]
    properties = event.get("ResourceProperties", {})
    if request_type == "Delete":
        # The physical id must not change on Delete; the start time tells is_complete when to give up.
        return {"PhysicalResourceId": event["PhysicalResourceId"], DELETE_STARTED_AT: now()}
    if request_type in ("Create", "Update"):
        return {"PhysicalResourceId": physical_resource_id(properties)}
    raise ValueError(f"unknown RequestType {request_type!r}")


def is_complete(event: Mapping, context, *, now: Callable[[], float] = time.time) -> dict:
    if event["RequestType"] != "Delete":
        return {"IsComplete": True}
    properties = event.get("ResourceProperties", {})
    try:
        left = _what_is_left(properties)
    except ClientError as error:
        code = error.response.get("Error", {}).get("Code", "")
        if code not in TRANSIENT_ERRORS:
            raise
        print(f"could not check this time ({code}: {error}); looking again at the next poll")
        return {"IsComplete": False}
    if left is None:
        print(f"{parameters(properties)['Kind']}: nothing left, the delete can go on")
        return {"IsComplete": True}
    give_up_after = os.environ.get(GIVE_UP_AFTER_ENV)
    started = event.get(DELETE_STARTED_AT)
    if give_up_after and started is not None and now() - float(started) >= float(give_up_after):
        print(f"giving up: {left}")
        raise StillThere(_shortened(f"gave up after {give_up_after} s: {left}"))
    # The last line of each poll, so that the log shows it last when the Provider's total timeout ends.
    print(f"waiting: {left}")
    return {"IsComplete": False}
