"""DestroyWaiter: on delete, the stack waits until load balancers or network interfaces created outside
CloudFormation are gone, and gives up with a list of what is left and the commands to delete it.

The handler runs against botocore Stubbers (each request is checked against the real API model); the construct is
synthesized once, by the app's checked App, so that cdk-nag fails the synthesis on any finding left unacknowledged.
"""

from __future__ import annotations

import json

import pytest

from cdk_constructs.destroy_waiter.runtime import handler
from tests.conftest import bare_app
from tests.lambda_handlers import handler_with_stubbed_clients

REGION = "us-west-2"
CLUSTER = "llm"
SERVICE_TAGS = {
    "kubernetes.io/service-name": "llm-serving/vllm",
    f"kubernetes.io/cluster/{CLUSTER}": "owned",
}
VPC = "vpc-0123456789abcdef0"
GROUPS = ["sg-0aaaaaaaaaaaaaaaa", "sg-0bbbbbbbbbbbbbbbb"]


def lb_arn(name: str) -> str:
    return f"arn:aws:elasticloadbalancing:{REGION}:123456789012:loadbalancer/net/{name}/0123456789abcdef"


def load_balancer(name: str) -> dict:
    return {"LoadBalancerArn": lb_arn(name), "LoadBalancerName": name, "Type": "network"}


def tag_description(name: str, tags: dict[str, str]) -> dict:
    """A DescribeTags item; an untagged load balancer's has no Tags (the API model allows no empty list)."""
    description = {"ResourceArn": lb_arn(name)}
    if tags:
        description["Tags"] = [{"Key": k, "Value": v} for k, v in tags.items()]
    return description


def lb_event(request_type: str, **extra) -> dict:
    return {
        "RequestType": request_type,
        "PhysicalResourceId": "DestroyWaiter-LoadBalancersGone-x",
        "ResourceProperties": {
            "ServiceToken": "arn:aws:lambda:fn",
            "Kind": "LoadBalancersGone",
            "Tags": json.dumps(SERVICE_TAGS),
        },
        **extra,
    }


def eni_event(request_type: str, **extra) -> dict:
    return {
        "RequestType": request_type,
        "PhysicalResourceId": "DestroyWaiter-NetworkInterfacesGone-x",
        "ResourceProperties": {
            "ServiceToken": "arn:aws:lambda:fn",
            "Kind": "NetworkInterfacesGone",
            "VpcId": VPC,
            "SecurityGroupIds": GROUPS,
        },
        **extra,
    }


ENI_FILTERS = [{"Name": "vpc-id", "Values": [VPC]}, {"Name": "group-id", "Values": GROUPS}]


@pytest.fixture
def stubs(monkeypatch):
    """The handler's clients, stubbed; a request without a queued response fails the test."""
    with handler_with_stubbed_clients(
        handler, monkeypatch, ("elbv2", "ec2"), region=REGION
    ) as stubbers:
        monkeypatch.setenv("AWS_REGION", REGION)
        monkeypatch.delenv(handler.GIVE_UP_AFTER_ENV, raising=False)
        yield stubbers


# ---------------------------------------------------------------------------------------------------- load balancers


def test_delete_waits_while_a_load_balancer_with_all_tags_remains_and_names_it(stubs, capsys):
    # given: the Service's NLB is still there, beside another Service's NLB of the same cluster
    stubs["elbv2"].add_response(
        "describe_load_balancers",
        {"LoadBalancers": [load_balancer("a1b2c3"), load_balancer("other")]},
        {},
    )
    stubs["elbv2"].add_response(
        "describe_tags",
        {
            "TagDescriptions": [
                tag_description("a1b2c3", {**SERVICE_TAGS, "extra": "tag"}),
                tag_description(
                    "other", {**SERVICE_TAGS, "kubernetes.io/service-name": "llm-serving/other"}
                ),
            ]
        },
        {"ResourceArns": [lb_arn("a1b2c3"), lb_arn("other")]},
    )

    # when
    result = handler.is_complete(lb_event("Delete"), None)

    # then: not complete, and the last log line names it with the command that deletes it
    assert result == {"IsComplete": False}
    last_line = capsys.readouterr().out.strip().splitlines()[-1]
    assert "a1b2c3" in last_line
    assert (
        f"aws elbv2 delete-load-balancer --load-balancer-arn {lb_arn('a1b2c3')} --region {REGION}"
        in last_line
    )
    assert lb_arn("other") not in last_line


def test_delete_completes_when_remaining_load_balancers_carry_only_some_of_the_tags(stubs, capsys):
    # given: a load balancer of the same cluster but of no such service, and one of the service in another cluster
    stubs["elbv2"].add_response(
        "describe_load_balancers",
        {"LoadBalancers": [load_balancer("cluster-only"), load_balancer("service-only")]},
        {},
    )
    stubs["elbv2"].add_response(
        "describe_tags",
        {
            "TagDescriptions": [
                tag_description("cluster-only", {f"kubernetes.io/cluster/{CLUSTER}": "owned"}),
                tag_description(
                    "service-only",
                    {
                        "kubernetes.io/service-name": "llm-serving/vllm",
                        "kubernetes.io/cluster/other": "owned",
                    },
                ),
            ]
        },
        {"ResourceArns": [lb_arn("cluster-only"), lb_arn("service-only")]},
    )

    # when / then
    assert handler.is_complete(lb_event("Delete"), None) == {"IsComplete": True}
    assert "delete-load-balancer" not in capsys.readouterr().out


def test_delete_reads_every_page_of_load_balancers_and_tags_them_twenty_at_a_time(stubs, capsys):
    # given: 25 load balancers over two pages; the matching one is in the second DescribeTags batch
    names = [f"lb{i:02d}" for i in range(25)]
    stubs["elbv2"].add_response(
        "describe_load_balancers",
        {"LoadBalancers": [load_balancer(n) for n in names[:15]], "NextMarker": "page-2"},
        {},
    )
    stubs["elbv2"].add_response(
        "describe_load_balancers",
        {"LoadBalancers": [load_balancer(n) for n in names[15:]]},
        {"Marker": "page-2"},
    )
    stubs["elbv2"].add_response(
        "describe_tags",
        {"TagDescriptions": [tag_description(n, {}) for n in names[:20]]},
        {"ResourceArns": [lb_arn(n) for n in names[:20]]},
    )
    stubs["elbv2"].add_response(
        "describe_tags",
        {
            "TagDescriptions": [
                tag_description(n, SERVICE_TAGS if n == "lb22" else {}) for n in names[20:]
            ]
        },
        {"ResourceArns": [lb_arn(n) for n in names[20:]]},
    )

    # when
    result = handler.is_complete(lb_event("Delete"), None)

    # then
    assert result == {"IsComplete": False}
    out = capsys.readouterr().out
    assert lb_arn("lb22") in out
    assert "1 load balancer(s)" in out


def test_delete_completes_when_no_load_balancer_exists_without_describing_tags(stubs):
    stubs["elbv2"].add_response("describe_load_balancers", {"LoadBalancers": []}, {})

    assert handler.is_complete(lb_event("Delete"), None) == {"IsComplete": True}


def test_a_load_balancer_deleted_between_the_two_calls_means_look_again_not_fail(stubs):
    # given: the load balancer disappears after it was listed, before its tags are read
    stubs["elbv2"].add_response(
        "describe_load_balancers", {"LoadBalancers": [load_balancer("a1b2c3")]}, {}
    )
    stubs["elbv2"].add_client_error(
        "describe_tags", service_error_code="LoadBalancerNotFound", http_status_code=400
    )

    # when / then: the next poll decides (an exception here would fail the stack's delete at once)
    assert handler.is_complete(lb_event("Delete"), None) == {"IsComplete": False}


def test_access_denied_fails_at_once_instead_of_waiting_half_an_hour(stubs):
    stubs["elbv2"].add_client_error(
        "describe_load_balancers", service_error_code="AccessDenied", http_status_code=403
    )

    with pytest.raises(handler.ClientError, match="AccessDenied"):
        handler.is_complete(lb_event("Delete"), None)


def test_matching_arns_need_every_wanted_tag_with_its_value():
    load_balancers = [load_balancer("all"), load_balancer("wrong-value"), load_balancer("untagged")]
    descriptions = [
        tag_description("all", SERVICE_TAGS),
        tag_description(
            "wrong-value", {**SERVICE_TAGS, f"kubernetes.io/cluster/{CLUSTER}": "shared"}
        ),
    ]

    assert handler.matching_load_balancer_arns(load_balancers, descriptions, SERVICE_TAGS) == [
        lb_arn("all")
    ]


# ---------------------------------------------------------------------------------------------------- give up


def expect_the_services_load_balancer(stubs) -> None:
    """One load balancer left, a1b2c3, with the Service's tags."""
    stubs["elbv2"].add_response(
        "describe_load_balancers", {"LoadBalancers": [load_balancer("a1b2c3")]}, {}
    )
    stubs["elbv2"].add_response(
        "describe_tags",
        {"TagDescriptions": [tag_description("a1b2c3", SERVICE_TAGS)]},
        {"ResourceArns": [lb_arn("a1b2c3")]},
    )


def test_after_the_give_up_time_the_error_names_what_is_left_and_how_to_delete_it(
    stubs, monkeypatch, capsys
):
    # given: the delete started 29 minutes ago and the NLB is still there
    monkeypatch.setenv(handler.GIVE_UP_AFTER_ENV, "1740")
    expect_the_services_load_balancer(stubs)
    event = lb_event("Delete", **{handler.DELETE_STARTED_AT: 1000.0})

    # when / then: the error (which CloudFormation shows as the reason) carries the list, not "Operation timed out"
    with pytest.raises(handler.StillThere) as error:
        handler.is_complete(event, None, now=lambda: 1000.0 + 1740)
    assert f"aws elbv2 delete-load-balancer --load-balancer-arn {lb_arn('a1b2c3')}" in str(
        error.value
    )
    assert lb_arn("a1b2c3") in capsys.readouterr().out.strip().splitlines()[-1]


def test_before_the_give_up_time_the_waiter_keeps_waiting(stubs, monkeypatch):
    monkeypatch.setenv(handler.GIVE_UP_AFTER_ENV, "1740")
    expect_the_services_load_balancer(stubs)
    event = lb_event("Delete", **{handler.DELETE_STARTED_AT: 1000.0})

    assert handler.is_complete(event, None, now=lambda: 1000.0 + 1739) == {"IsComplete": False}


def test_a_long_list_is_cut_to_fit_cloudformations_response_but_the_log_keeps_it_all(
    stubs, monkeypatch, capsys
):
    monkeypatch.setenv(handler.GIVE_UP_AFTER_ENV, "0")
    names = [f"lb{i:02d}" for i in range(20)]
    stubs["elbv2"].add_response(
        "describe_load_balancers", {"LoadBalancers": [load_balancer(n) for n in names]}, {}
    )
    stubs["elbv2"].add_response(
        "describe_tags",
        {"TagDescriptions": [tag_description(n, SERVICE_TAGS) for n in names]},
        {"ResourceArns": [lb_arn(n) for n in names]},
    )

    with pytest.raises(handler.StillThere) as error:
        handler.is_complete(
            lb_event("Delete", **{handler.DELETE_STARTED_AT: 0.0}), None, now=lambda: 1.0
        )

    assert len(str(error.value)) < 2000
    log = capsys.readouterr().out
    assert all(lb_arn(n) in log for n in names)


# ---------------------------------------------------------------------------------------------------- create/update


@pytest.mark.parametrize(
    "event",
    [lb_event("Create"), lb_event("Update"), eni_event("Create"), eni_event("Update")],
    ids=["lb-create", "lb-update", "eni-create", "eni-update"],
)
def test_create_and_update_complete_at_once_without_calling_aws(stubs, event):
    # given: no stubbed response, so any AWS call would fail the test
    # when
    response = handler.on_event(event, None)

    # then
    assert response == {
        "PhysicalResourceId": handler.physical_resource_id(event["ResourceProperties"])
    }
    assert handler.is_complete({**event, **response}, None) == {"IsComplete": True}


def test_the_physical_id_depends_on_kind_and_parameters_only():
    properties = lb_event("Create")["ResourceProperties"]
    reordered = {
        **properties,
        "ServiceToken": "another",
        "Tags": json.dumps(dict(reversed(SERVICE_TAGS.items()))),
    }
    other_service = {
        **properties,
        "Tags": json.dumps({**SERVICE_TAGS, "kubernetes.io/service-name": "ns/other"}),
    }

    assert handler.physical_resource_id(properties) == handler.physical_resource_id(reordered)
    assert handler.physical_resource_id(properties) != handler.physical_resource_id(other_service)
    assert handler.physical_resource_id(properties).startswith("DestroyWaiter-LoadBalancersGone-")


def test_delete_keeps_the_physical_id_and_records_when_it_started():
    response = handler.on_event(lb_event("Delete"), None, now=lambda: 1234.5)

    assert response == {
        "PhysicalResourceId": "DestroyWaiter-LoadBalancersGone-x",
        handler.DELETE_STARTED_AT: 1234.5,
    }


@pytest.mark.parametrize(
    "properties, problem",
    [
        ({"Kind": "Nothing"}, "unknown Kind"),
        ({"Kind": "LoadBalancersGone", "Tags": "{}"}, "non-empty"),
        (
            {"Kind": "NetworkInterfacesGone", "VpcId": VPC, "SecurityGroupIds": []},
            "SecurityGroupIds",
        ),
    ],
)
def test_create_with_bad_properties_fails_with_the_problem(properties, problem):
    with pytest.raises(ValueError, match=problem):
        handler.on_event({"RequestType": "Create", "ResourceProperties": properties}, None)


# ---------------------------------------------------------------------------------------------------- security groups

CONTROLLER_TAGS = {"elbv2.k8s.aws/cluster": CLUSTER}
SG_FILTERS = [{"Name": "tag:elbv2.k8s.aws/cluster", "Values": [CLUSTER]}]


def controller_event(request_type: str, **extra) -> dict:
    """The HyperPod endpoint's waiter: the AWS Load Balancer Controller's load balancers and security groups."""
    return {
        "RequestType": request_type,
        "PhysicalResourceId": "DestroyWaiter-LoadBalancersGone-y",
        "ResourceProperties": {
            "ServiceToken": "arn:aws:lambda:fn",
            "Kind": "LoadBalancersGone",
            "Tags": json.dumps(CONTROLLER_TAGS),
            "IncludeSecurityGroups": "true",
        },
        **extra,
    }


def test_delete_waits_for_the_controllers_security_groups_after_its_load_balancers_are_gone(
    stubs, capsys
):
    # given: the controller's load balancer is gone, but its backend security group is still there (two pages)
    stubs["elbv2"].add_response("describe_load_balancers", {"LoadBalancers": []}, {})
    stubs["ec2"].add_response(
        "describe_security_groups",
        {
            "SecurityGroups": [
                {"GroupId": "sg-0backend", "GroupName": "k8s-traffic-llm-0123456789", "VpcId": VPC}
            ],
            "NextToken": "t2",
        },
        {"Filters": SG_FILTERS},
    )
    stubs["ec2"].add_response(
        "describe_security_groups",
        {"SecurityGroups": []},
        {"Filters": SG_FILTERS, "NextToken": "t2"},
    )

    # when
    result = handler.is_complete(controller_event("Delete"), None)

    # then: not complete, and the last log line names the group with the command that deletes it
    assert result == {"IsComplete": False}
    last_line = capsys.readouterr().out.strip().splitlines()[-1]
    assert f"aws ec2 delete-security-group --group-id sg-0backend --region {REGION}" in last_line
    assert "k8s-traffic-llm-0123456789" in last_line and VPC in last_line


def test_delete_completes_when_neither_load_balancers_nor_security_groups_of_the_controller_are_left(
    stubs,
):
    stubs["elbv2"].add_response("describe_load_balancers", {"LoadBalancers": []}, {})
    stubs["ec2"].add_response(
        "describe_security_groups", {"SecurityGroups": []}, {"Filters": SG_FILTERS}
    )

    assert handler.is_complete(controller_event("Delete"), None) == {"IsComplete": True}


def test_a_waiter_without_the_flag_never_looks_at_security_groups(stubs):
    # given: no EC2 response queued, so a DescribeSecurityGroups call would fail the test
    stubs["elbv2"].add_response("describe_load_balancers", {"LoadBalancers": []}, {})

    assert handler.is_complete(lb_event("Delete"), None) == {"IsComplete": True}


def test_gaining_the_security_group_wait_updates_the_waiter_instead_of_replacing_it():
    # A replaced waiter's delete (the update's cleanup) would wait for the load balancer of the endpoint still serving.
    with_groups = controller_event("Create")["ResourceProperties"]
    without = {k: v for k, v in with_groups.items() if k != "IncludeSecurityGroups"}

    assert handler.physical_resource_id(with_groups) == handler.physical_resource_id(without)
    with pytest.raises(ValueError, match="IncludeSecurityGroups must be true or false"):
        handler.on_event(
            {
                "RequestType": "Create",
                "ResourceProperties": {**with_groups, "IncludeSecurityGroups": "yes"},
            },
            None,
        )


# ---------------------------------------------------------------------------------------------------- network interfaces


def test_delete_waits_for_network_interfaces_and_says_how_to_remove_them(stubs, capsys):
    # given: one interface still attached, one detached, over two pages
    stubs["ec2"].add_response(
        "describe_network_interfaces",
        {
            "NetworkInterfaces": [
                {
                    "NetworkInterfaceId": "eni-0attached",
                    "Status": "in-use",
                    "Description": "HyperPod",
                    "Attachment": {"AttachmentId": "eni-attach-0123"},
                }
            ],
            "NextToken": "t2",
        },
        {"Filters": ENI_FILTERS},
    )
    stubs["ec2"].add_response(
        "describe_network_interfaces",
        {
            "NetworkInterfaces": [
                {"NetworkInterfaceId": "eni-0available", "Status": "available", "Description": ""}
            ]
        },
        {"Filters": ENI_FILTERS, "NextToken": "t2"},
    )

    # when
    result = handler.is_complete(eni_event("Delete"), None)

    # then
    assert result == {"IsComplete": False}
    last_line = capsys.readouterr().out.strip().splitlines()[-1]
    assert (
        f"aws ec2 delete-network-interface --network-interface-id eni-0available --region {REGION}"
        in last_line
    )
    assert "aws ec2 detach-network-interface --attachment-id eni-attach-0123" in last_line
    assert "eni-0attached" in last_line and VPC in last_line


def test_delete_completes_when_no_network_interface_is_left(stubs):
    stubs["ec2"].add_response(
        "describe_network_interfaces", {"NetworkInterfaces": []}, {"Filters": ENI_FILTERS}
    )

    assert handler.is_complete(eni_event("Delete"), None) == {"IsComplete": True}


# ---------------------------------------------------------------------------------------------------- construct


def test_tag_helpers_give_the_tags_the_controllers_put_on_load_balancers():
    from cdk_constructs.destroy_waiter import (
        load_balancer_controller_tags,
        service_load_balancer_tags,
    )

    assert service_load_balancer_tags(CLUSTER, "llm-serving", "vllm") == SERVICE_TAGS
    assert load_balancer_controller_tags(CLUSTER) == {"elbv2.k8s.aws/cluster": CLUSTER}


@pytest.mark.parametrize(
    "props, problem",
    [
        ({}, "exactly one"),
        (
            {"load_balancer_tags": {"a": "b"}, "vpc_id": VPC, "security_group_ids": GROUPS},
            "exactly one",
        ),
        ({"load_balancer_tags": {}}, "at least one tag"),
        ({"load_balancer_tags": {"a": "b"}, "security_group_ids": GROUPS}, "goes with vpc_id"),
        ({"vpc_id": VPC}, "at least one security group"),
        (
            {"vpc_id": VPC, "security_group_ids": GROUPS, "include_security_groups": True},
            "goes with load_balancer_tags",
        ),
    ],
)
def test_the_construct_rejects_props_that_would_wait_for_nothing_or_everything(props, problem):
    import aws_cdk as cdk

    from cdk_constructs.destroy_waiter import DestroyWaiter

    with pytest.raises(ValueError, match=problem):
        DestroyWaiter(cdk.Stack(bare_app(), "Props"), "Waiter", **props)


@pytest.fixture(scope="module")
def waiter_templates(synthesized, synthesized_hyperpod) -> dict[str, dict]:
    """Both kinds as the session's one synthesis of the default app has them (cdk-nag ran over it): the serving stack's
    load balancer waiter and the HyperPod stack's network interface waiter, by construct id."""
    return {
        "LoadBalancerGone": synthesized.template("serving"),
        "NetworkInterfacesGone": synthesized_hyperpod.template("hyperpod"),
    }


def _resources(template: dict, resource_type: str) -> dict[str, dict]:
    return {k: r for k, r in template["Resources"].items() if r["Type"] == resource_type}


def test_the_waiters_may_only_describe_load_balancers_and_network_interfaces(waiter_templates):
    # given: the statements of each waiter's policies, but for the framework's own (invoke, start, logs)
    framework = ("lambda:", "states:", "logs:")
    reads: dict[str, list] = {}
    for waiter, template in waiter_templates.items():
        for logical_id, policy in _resources(template, "AWS::IAM::Policy").items():
            if not logical_id.startswith(waiter):
                continue
            for statement in policy["Properties"]["PolicyDocument"]["Statement"]:
                actions = (
                    statement["Action"]
                    if isinstance(statement["Action"], list)
                    else [statement["Action"]]
                )
                if not all(action.startswith(framework) for action in actions):
                    reads.setdefault(waiter, []).append((sorted(actions), statement["Resource"]))

    # then: each kind may read only what it waits for (these actions take no resource-level permissions)
    assert reads == {
        "LoadBalancerGone": [
            (
                ["elasticloadbalancing:DescribeLoadBalancers", "elasticloadbalancing:DescribeTags"],
                "*",
            )
        ],
        "NetworkInterfacesGone": [(["ec2:DescribeNetworkInterfaces"], "*")],
    }


def test_the_hyperpod_endpoint_waiter_also_waits_for_the_controllers_security_groups(
    synthesized_hyperpod,
):
    # given: the HyperPod endpoint stack's waiter (the operator's AWS Load Balancer Controller makes the load balancer)
    template = synthesized_hyperpod.template("endpoint")
    (waiter,) = _resources(template, "Custom::DestroyWaiter").values()
    # then: it waits for the controller's load balancers and security groups of this cluster
    assert waiter["Properties"]["Kind"] == "LoadBalancersGone"
    assert waiter["Properties"]["IncludeSecurityGroups"] == "true"
    assert '"{\\"elbv2.k8s.aws/cluster\\":\\""' in json.dumps(waiter["Properties"]["Tags"])
    # and its function may describe them, and nothing more (no resource-level permissions on these Describe actions)
    framework = ("lambda:", "states:", "logs:")
    reads = []
    for logical_id, policy in _resources(template, "AWS::IAM::Policy").items():
        for statement in (
            policy["Properties"]["PolicyDocument"]["Statement"]
            if logical_id.startswith("LoadBalancerGone")
            else []
        ):
            actions = (
                statement["Action"]
                if isinstance(statement["Action"], list)
                else [statement["Action"]]
            )
            if not all(action.startswith(framework) for action in actions):
                reads.append((sorted(actions), statement["Resource"]))
    assert reads == [
        (
            [
                "ec2:DescribeSecurityGroups",
                "elasticloadbalancing:DescribeLoadBalancers",
                "elasticloadbalancing:DescribeTags",
            ],
            "*",
        )
    ]


@pytest.mark.parametrize("waiter", ["LoadBalancerGone", "NetworkInterfacesGone"])
def test_each_waiter_polls_its_is_complete_function_every_30_seconds_for_30_minutes(
    waiter_templates, waiter
):
    from aws_cdk.assertions import Match, Template

    template = Template.from_json(waiter_templates[waiter])
    template.resource_properties_count_is(
        "AWS::Lambda::Function", {"Handler": "handler.is_complete", "Runtime": "python3.14"}, 1
    )
    # (the serving stack's ApiKeyPreviousVersion has an on_event handler of its own: the waiter's is the one so described)
    template.resource_properties_count_is(
        "AWS::Lambda::Function",
        {
            "Handler": "handler.on_event",
            "Runtime": "python3.14",
            "Description": "DestroyWaiter onEvent: nothing to do on create and update",
        },
        1,
    )
    # The framework's onEvent starts the waiter state machine, which retries the framework's isComplete.
    template.resource_properties_count_is(
        "AWS::Lambda::Function",
        {
            "Environment": {
                "Variables": {
                    "USER_IS_COMPLETE_FUNCTION_ARN": Match.any_value(),
                    "WAITER_STATE_MACHINE_ARN": Match.any_value(),
                }
            }
        },
        1,
    )
    (machine,) = _resources(waiter_templates[waiter], "AWS::StepFunctions::StateMachine").values()
    definition = json.dumps(machine["Properties"]["DefinitionString"])
    assert '\\"IntervalSeconds\\":30,\\"MaxAttempts\\":60' in definition
    assert machine["Properties"]["LoggingConfiguration"]["Level"] == "ALL"
