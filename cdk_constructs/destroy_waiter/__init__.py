"""A custom resource that, on delete, waits until AWS resources created outside CloudFormation are gone.

``cdk destroy`` can leave such resources behind and then fail on the VPC: the kubectl provider logs and swallows a
failed ``kubectl delete``, so a Service of type LoadBalancer may keep its load balancer; and CloudFormation does not
wait for the network interfaces SageMaker HyperPod creates in our subnets. A :class:`DestroyWaiter` makes the delete
of its stack wait for them (and fail with a list of what is left, and the commands to delete it, after 30 minutes).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import aws_cdk as cdk
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_stepfunctions as sfn
from aws_cdk import custom_resources as cr
from constructs import Construct

from cdk_constructs.function_defaults import RUNTIME, month_log_group, on_event_function
from cdk_constructs.nag_acknowledgements import (
    STEP_FUNCTIONS_LOG_DELIVERY,
    acknowledge,
    acknowledge_each,
    managed_policy_finding,
)

HANDLER_DIR = Path(__file__).resolve().parent / "runtime"
RESOURCE_TYPE = "Custom::DestroyWaiter"
QUERY_INTERVAL = cdk.Duration.seconds(30)
TOTAL_TIMEOUT = cdk.Duration.minutes(30)
#: The handler gives up (with its own, explicit error) this long before the Provider's total timeout would end.
GIVE_UP_MARGIN = cdk.Duration.seconds(2 * QUERY_INTERVAL.to_seconds())

# Tags of load balancers created for Kubernetes Services -------------------------------------------------------
#
# The AWS cloud provider (the Service controller EKS runs): for a Service annotated
# service.beta.kubernetes.io/aws-load-balancer-type: nlb, ensureLoadBalancerv2 tags the NLB with
# kubernetes.io/service-name = namespacedName.String() ("namespace/name") and, through buildTags(ResourceLifecycleOwned),
# kubernetes.io/cluster/<ClusterID> = "owned". On EKS the ClusterID is the cluster's name.
# Source: kubernetes/cloud-provider-aws @ 63ec440c3275321b55afa45480e2fdfd2b0e93c4,
#   pkg/providers/v1/aws.go (TagNameKubernetesService = "kubernetes.io/service-name"),
#   pkg/providers/v1/tags.go (TagNameKubernetesClusterPrefix = "kubernetes.io/cluster/", ResourceLifecycleOwned = "owned",
#   buildTags), pkg/providers/v1/aws_loadbalancer.go (ensureLoadBalancerv2 puts the tags in CreateLoadBalancer).
CLOUD_PROVIDER_SERVICE_TAG = "kubernetes.io/service-name"
CLOUD_PROVIDER_CLUSTER_TAG_PREFIX = "kubernetes.io/cluster/"
CLOUD_PROVIDER_OWNED = "owned"
#
# The AWS Load Balancer Controller tags every AWS resource it creates with elbv2.k8s.aws/cluster = its --cluster-name
# (and, for a Service, service.k8s.aws/stack = "namespace/name"; for an Ingress, ingress.k8s.aws/stack).
# Source: kubernetes-sigs/aws-load-balancer-controller @ 225f44568848eb25f13e304a5f1cc68c0cd9415d,
#   pkg/shared_constants/tag_keys.go (TagKeyK8sCluster = "elbv2.k8s.aws/cluster"),
#   pkg/deploy/tracking/provider.go (StackTags: TagKeyK8sCluster -> clusterName).
# With its Helm chart's default enableServiceMutatorWebhook: true (helm/aws-load-balancer-controller/values.yaml),
# the controller makes itself the load balancer class of every new Service of type LoadBalancer
# (webhooks/core/service_mutator.go), and then the Service's NLB carries these tags, not the cloud provider's.
LOAD_BALANCER_CONTROLLER_CLUSTER_TAG = "elbv2.k8s.aws/cluster"
#
# The controller's security groups carry the same tag: the shared backend group it creates for its load balancers'
# targets (kubernetes-sigs/aws-load-balancer-controller@fee6232791100fec410b44d69162253522488dda,
# pkg/networking/backend_sg_provider.go: buildBackendSGTags puts tagKeyK8sCluster = "elbv2.k8s.aws/cluster" = the
# cluster name, and elbv2.k8s.aws/resource = backend-sg; releaseSG deletes it once no Ingress needs it, retrying on
# DependencyViolation for up to 2 minutes), and the frontend groups it manages per load balancer, which take the stack
# tags above. Left in the VPC, either makes the network stack's delete fail (a VPC with a security group other than
# its default cannot be deleted).


def service_load_balancer_tags(
    cluster_name: str, namespace: str, service_name: str
) -> dict[str, str]:
    """The tags the AWS cloud provider puts on the NLB of Service ``namespace/service_name`` in ``cluster_name``."""
    return {
        CLOUD_PROVIDER_SERVICE_TAG: f"{namespace}/{service_name}",
        f"{CLOUD_PROVIDER_CLUSTER_TAG_PREFIX}{cluster_name}": CLOUD_PROVIDER_OWNED,
    }


def load_balancer_controller_tags(cluster_name: str) -> dict[str, str]:
    """The tag the AWS Load Balancer Controller (``--cluster-name cluster_name``) puts on every load balancer it
    creates: waiting on it waits for all of the controller's load balancers of the cluster."""
    return {LOAD_BALANCER_CONTROLLER_CLUSTER_TAG: cluster_name}


class DestroyWaiter(Construct):
    """On delete, waits until load balancers with given tags, or network interfaces with given security groups in a
    VPC, are gone; does nothing on create and update.

    Give either ``load_balancer_tags`` or ``vpc_id`` with ``security_group_ids``, not both.

    Ordering: the waiter must be deleted AFTER the thing that creates the load balancer or the network interfaces,
    so make that thing depend on the waiter (CloudFormation then creates the waiter first and deletes it last)::

        waiter = DestroyWaiter(self, "NlbGone", load_balancer_tags=service_load_balancer_tags("llm", "ns", "vllm"))
        manifest.node.add_dependency(waiter)   # the KubernetesManifest that creates the Service

    Put the waiter in the thing's own stack (simplest), or in a stack between the VPC's and the thing's: it must be
    destroyed after the thing and before the VPC, so that the VPC's delete starts only after the waiter's succeeded.

    Gives up after 30 minutes: the delete of the stack then fails with the list of what is left and the AWS CLI
    command that deletes each (the same text is the last line of the isComplete function's log at each poll).
    Changing the properties replaces the waiter; CloudFormation then deletes the old one in the update's cleanup
    phase, which waits for the old tags' load balancers or the old groups' interfaces.

    :param load_balancer_tags: tag key -> value; wait for every Elastic Load Balancing v2 load balancer that carries
        ALL of them. See :func:`service_load_balancer_tags` and :func:`load_balancer_controller_tags`.
        Default: - no load balancer waiter (give ``vpc_id``).
    :param include_security_groups: with ``load_balancer_tags``: also wait for the EC2 security groups that carry all
        of those tags (the AWS Load Balancer Controller's: its backend group and the frontend groups it manages).
        Adding it to a deployed waiter updates it in place (it is not part of the waiter's physical id). Default: False.
    :param vpc_id: wait for the network interfaces in this VPC that carry any of ``security_group_ids``.
        Default: - no network interface waiter (give ``load_balancer_tags``).
    :param security_group_ids: with ``vpc_id``: the security groups of the interfaces to wait for. Pick groups that
        only those interfaces carry: an interface of something deleted later (the EKS cluster's own interfaces carry
        the cluster security group) would make the waiter wait until it gives up. Default: - none (required with
        ``vpc_id``).

    :attr resource: the ``Custom::DestroyWaiter`` CustomResource, for dependencies.
    :attr provider: the Provider framework behind it.
    """

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        load_balancer_tags: Mapping[str, str] | None = None,
        include_security_groups: bool = False,
        vpc_id: str | None = None,
        security_group_ids: Sequence[str] = (),
    ) -> None:
        super().__init__(scope, id)
        properties = _properties(self, load_balancer_tags, vpc_id, security_group_ids)
        if include_security_groups:
            if load_balancer_tags is None:
                raise ValueError(
                    "include_security_groups goes with load_balancer_tags: it waits for the security "
                    "groups that carry those tags"
                )
            properties["IncludeSecurityGroups"] = "true"

        code = lambda_.Code.from_asset(str(HANDLER_DIR), exclude=["__pycache__", "*.pyc"])
        self.on_event_function = on_event_function(
            self,
            HANDLER_DIR,
            timeout=cdk.Duration.seconds(30),
            description="DestroyWaiter onEvent: nothing to do on create and update",
        )
        self.is_complete_function = lambda_.Function(
            self,
            "IsComplete",
            runtime=RUNTIME,
            code=code,
            handler="handler.is_complete",
            timeout=cdk.Duration.minutes(1),
            description="DestroyWaiter isComplete: on delete, waits until the "
            + (
                "tagged load balancers"
                if properties["Kind"] == "LoadBalancersGone"
                else "network interfaces"
            )
            + (" and security groups" if include_security_groups else "")
            + " are gone",
            environment={
                "GIVE_UP_AFTER_SECONDS": str(
                    int(TOTAL_TIMEOUT.to_seconds() - GIVE_UP_MARGIN.to_seconds())
                )
            },
            log_group=month_log_group(self, "IsCompleteLogs"),
        )
        # Only isComplete calls AWS. These Describe actions take no resource types (Service Authorization Reference,
        # Elastic Load Balancing V2 and Amazon EC2): resource "*".
        actions = (
            ["elasticloadbalancing:DescribeLoadBalancers", "elasticloadbalancing:DescribeTags"]
            if properties["Kind"] == "LoadBalancersGone"
            else ["ec2:DescribeNetworkInterfaces"]
        )
        self.is_complete_function.add_to_role_policy(
            iam.PolicyStatement(actions=actions, resources=["*"])
        )
        if include_security_groups:
            # ec2:DescribeSecurityGroups lists no resource types and no condition keys of its own in the Service
            # Authorization Reference (https://docs.aws.amazon.com/service-authorization/latest/reference/
            # list_amazonec2.html): "*" is as narrow as it goes. The handler filters by the tags.
            self.is_complete_function.add_to_role_policy(
                iam.PolicyStatement(actions=["ec2:DescribeSecurityGroups"], resources=["*"])
            )

        self.provider = cr.Provider(
            self,
            "Provider",
            on_event_handler=self.on_event_function,
            is_complete_handler=self.is_complete_function,
            query_interval=QUERY_INTERVAL,
            total_timeout=TOTAL_TIMEOUT,
            log_group=month_log_group(self, "FrameworkLogs"),
            # Every state transition (cdk-nag AwsSolutions-SF1), without the execution data: the event holds the
            # presigned URL that answers CloudFormation. Under /aws/vendedlogs/, as aws-cdk-lib's default log group:
            # other names count against CloudWatch Logs' account-wide resource policy size.
            disable_waiter_state_machine_logging=False,
            waiter_state_machine_log_options=cr.LogOptions(
                destination=month_log_group(
                    self,
                    "WaiterLogs",
                    name=f"/aws/vendedlogs/states/destroy-waiter-{self.node.addr}",
                ),
                level=sfn.LogLevel.ALL,
                include_execution_data=False,
            ),
        )
        self.resource = cdk.CustomResource(
            self,
            "Resource",
            service_token=self.provider.service_token,
            resource_type=RESOURCE_TYPE,
            properties=properties,
        )
        self._acknowledge_findings()

    def _acknowledge_findings(self) -> None:
        """cdk-nag's findings on this construct: its two functions and aws-cdk-lib's Provider framework."""
        stack = cdk.Stack.of(self)
        acknowledge(
            self,
            managed_policy_finding("AWSLambdaBasicExecutionRole", "service-role/"),
            "the waiter's two Lambdas and the Provider framework's three Lambdas write their own logs with it",
        )
        acknowledge(
            self.is_complete_function,
            "AwsSolutions-IAM5[Resource::*]",
            "the Describe actions of Elastic Load Balancing and EC2 take no resource types in the Service "
            "Authorization Reference; "
            "the function only reads, it changes nothing",
        )
        # The framework's roles may invoke every version (ARN:*) of the functions it calls, and nothing else.
        invoked = [
            self.on_event_function,
            self.is_complete_function,
            *(
                self.provider.node.find_child(name)
                for name in ("framework-isComplete", "framework-onTimeout")
            ),
        ]
        acknowledge_each(
            self.provider,
            [
                f"AwsSolutions-IAM5[Resource::<{stack.get_logical_id(function.node.default_child)}.Arn>:*]"
                for function in invoked
            ],
            "aws-cdk-lib's Provider framework invokes any version of these functions of the waiter, nothing else",
        )
        state_machine = self.provider.node.find_child("waiter-state-machine")
        acknowledge(
            state_machine,
            "AwsSolutions-IAM5[Resource::*]",
            "aws-cdk-lib's statement for the waiter's execution log: "
            + STEP_FUNCTIONS_LOG_DELIVERY,
        )
        acknowledge(
            state_machine,
            "AwsSolutions-SF2",
            "the Provider framework's waiter state machine offers no X-Ray option; it runs one Lambda task "
            "whose calls are logged in CloudWatch Logs",
        )


def _properties(
    scope: Construct,
    load_balancer_tags: Mapping[str, str] | None,
    vpc_id: str | None,
    security_group_ids: Sequence[str],
) -> dict:
    """The custom resource's properties (Kind and its parameters), after checking the props."""
    if (load_balancer_tags is None) == (vpc_id is None):
        raise ValueError(
            "DestroyWaiter needs exactly one of load_balancer_tags (wait for load balancers) or vpc_id "
            "with security_group_ids (wait for network interfaces)"
        )
    if load_balancer_tags is not None:
        if security_group_ids:
            raise ValueError("security_group_ids goes with vpc_id, not with load_balancer_tags")
        if not load_balancer_tags:
            raise ValueError(
                "load_balancer_tags must hold at least one tag: with none, every load balancer matches"
            )
        if any(not key for key in load_balancer_tags):
            raise ValueError(
                f"load_balancer_tags has an empty tag key: {dict(load_balancer_tags)!r}"
            )
        # JSON text: tokens (a cluster name from another construct) may be in keys as well as in values.
        return {
            "Kind": "LoadBalancersGone",
            "Tags": cdk.Stack.of(scope).to_json_string(dict(load_balancer_tags)),
        }
    if not vpc_id:
        raise ValueError("vpc_id must not be empty")
    if isinstance(security_group_ids, str) or not security_group_ids:
        raise ValueError("security_group_ids must list at least one security group with vpc_id")
    return {
        "Kind": "NetworkInterfacesGone",
        "VpcId": vpc_id,
        "SecurityGroupIds": list(security_group_ids),
    }


__all__ = ["DestroyWaiter", "load_balancer_controller_tags", "service_load_balancer_tags"]
