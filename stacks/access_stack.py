"""``NAME-access``, with ``access.enabled``: the way into a private environment (docs/access.md).

An SSM-managed instance in a private subnet (cdk_constructs/access_host), and a managed policy for the admin role to
start sessions on it: a shell, and port forwarding of the private EKS API endpoint and of the internal endpoint to a
laptop. Both platforms: the EKS cluster and its private API endpoint are the same on EKS and HyperPod.

The endpoint needs no rule of its own: the host is in the VPC, and both load balancers already admit the VPC. On EKS,
the AWS cloud provider EKS runs opens the nodes' security group to the Service's node port for the Service's source ranges,
0.0.0.0/0 when it has none (an internal Service has none: charts/vllm_service.py), and the pod's NetworkPolicy admits
the VPC's range (charts/vllm_network_policy.py) (kubernetes/cloud-provider-aws@63ec440 pkg/providers/v1/aws.go,
``EnsureLoadBalancer``: "0.0.0.0/0" when ``sourceRangeCidrs`` is empty, passed to ``updateInstanceSecurityGroupsForNLB``
as the client CIDRs, lines 2544-2552); on HyperPod, the operator's load balancer is the one
the deploy-time smoke test reaches from the same private subnets (stacks/smoke_stack.py).
"""

from __future__ import annotations

import aws_cdk as cdk
from aws_cdk import aws_ec2 as ec2
from aws_cdk import aws_eks_v2 as eks
from aws_cdk import aws_iam as iam
from constructs import Construct

from cdk_constructs.access_host import AccessHost
from cdk_constructs.nag_acknowledgements import acknowledge
from cdk_constructs.policy_detacher import DetachOnDelete
from charts.serving_spec import VLLM_PORT
from deployment_config.model import EnvironmentConfig

#: The Session Manager documents the admin role may start: the default shell session, and forwarding to a host the
#: instance reaches (Systems Manager user guide, "Start a session", port forwarding to remote hosts:
#: https://docs.aws.amazon.com/systems-manager/latest/userguide/session-manager-working-with-sessions-start.html;
#: a document named in start-session is checked against the caller's policy:
#: https://docs.aws.amazon.com/systems-manager/latest/userguide/getting-started-specify-session-document.html).
SHELL_DOCUMENT = "SSM-SessionManagerRunShell"
PORT_FORWARDING_DOCUMENT = "AWS-StartPortForwardingSessionToRemoteHost"


class AccessStack(cdk.Stack):
    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        env_config: EnvironmentConfig,
        vpc: ec2.IVpc,
        cluster: eks.Cluster,
        **kwargs,
    ) -> None:
        super().__init__(scope, id, **kwargs)
        # The first private subnet: the one every stack already exports (the cluster's), so no new export is made.
        self.host = AccessHost(
            self,
            "Host",
            env_config=env_config,
            vpc=vpc,
            subnet=vpc.private_subnets[0],
            cluster=cluster,
            cluster_security_group_id=cluster.cluster_security_group_id,
            endpoint_port=VLLM_PORT,
        )
        instance_id = self.host.instance.instance_id
        instance_arn = self.format_arn(
            service="ec2", resource="instance", resource_name=instance_id
        )
        # Not attached: the admin role is the user's, not this app's; the output says how to attach it.
        self.session_policy = iam.ManagedPolicy(
            self,
            "SessionPolicy",
            description=f"Session Manager sessions on the access host of {env_config.name}",
            statements=[
                iam.PolicyStatement(
                    sid="StartSessionsOnTheHost",
                    actions=["ssm:StartSession"],
                    resources=[
                        instance_arn,
                        self.format_arn(
                            service="ssm", resource="document", resource_name=SHELL_DOCUMENT
                        ),
                        # AWS-owned documents have no account in their ARN.
                        self.format_arn(
                            service="ssm",
                            account="",
                            resource="document",
                            resource_name=PORT_FORWARDING_DOCUMENT,
                        ),
                    ],
                ),
                # The caller's own side of a session: open its data channel, end it, resume it. AWS's example end
                # user policy scopes these to session/${aws:userid}-* ("Quickstart end user policies for Session
                # Manager", https://docs.aws.amazon.com/systems-manager/latest/userguide/getting-started-restrict-access-quickstart.html),
                # but a session's id starts with the caller's name (the AWS CLI's example, "Jane-Roe-07a16060613c408b5":
                # https://docs.aws.amazon.com/systems-manager/latest/userguide/example_ssm_StartSession_section.html),
                # for an assumed role its session name, which no ${aws:userid} pattern matches: sessions of this
                # account and region, for the one role given this policy.
                iam.PolicyStatement(
                    sid="UseSessions",
                    resources=[
                        self.format_arn(service="ssm", resource="session", resource_name="*")
                    ],
                    actions=[
                        "ssmmessages:OpenDataChannel",
                        "ssm:TerminateSession",
                        "ssm:ResumeSession",
                    ],
                ),
            ],
        )
        acknowledge(
            self.session_policy,
            f"AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ssm:{self.region}:{self.account}:session/*]",
            "a session id is the caller's name and a random suffix that Session Manager chooses at start, "
            "unknown here; the policy is for the admin role alone, which is cluster admin already",
        )
        # Attached by the user, so CloudFormation could not delete it on destroy (DELETE_FAILED): detached from
        # everyone first (cdk_constructs/policy_detacher/), then deleted with the stack.
        DetachOnDelete(self, "DetachSessionPolicy", policy=self.session_policy)
        region = env_config.region
        cdk.CfnOutput(
            self,
            "InstanceId",
            value=instance_id,
            description="The access host (aws ssm start-session --target)",
        )
        cdk.CfnOutput(
            self,
            "SessionPolicyArn",
            value=self.session_policy.managed_policy_arn,
            description="Attach to the admin role: aws iam attach-role-policy --role-name ROLE --policy-arn ARN",
        )
        cdk.CfnOutput(
            self,
            "StartSessionCommand",
            description="A shell on the host; then bash -l (kubectl, helm, llmops)",
            value=cdk.Fn.join(
                "", ["aws ssm start-session --region ", region, " --target ", instance_id]
            ),
        )


def access_stacks(
    scope: Construct,
    env_config: EnvironmentConfig,
    network: cdk.Stack,
    cluster: cdk.Stack,
    props: dict,
) -> list[cdk.Stack]:
    """``NAME-access`` when ``access.enabled``, after the cluster stack: its access entry and its rule on the
    cluster's security group need the cluster; on destroy it goes before the cluster. Else nothing."""
    if not env_config.access.enabled:
        return []
    stack = AccessStack(
        scope,
        **props,
        env_config=env_config,
        vpc=network.vpc,
        cluster=cluster.cluster,
        description=f"Access host of {env_config.name}: Session Manager into the private VPC",
    )
    stack.add_stack_dependency(
        cluster,
        "the host's access entry and its rule on the cluster's security group need the cluster",
    )
    return [stack]
