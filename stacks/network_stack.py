"""The VPC the cluster, the GPU nodes and the load balancer live in."""

from __future__ import annotations

import aws_cdk as cdk
from aws_cdk import aws_ec2 as ec2
from aws_cdk import aws_logs as logs
from constructs import Construct

from cdk_constructs.nag_acknowledgements import acknowledge_explicit_zones
from deployment_config.file_models import PRIVATE_SUBNET_PREFIX, PUBLIC_SUBNET_PREFIX
from deployment_config.model import INTERFACE_ENDPOINT_NAMES, EnvironmentConfig

#: Interface endpoints for node bootstrap, image pulls from ECR, credentials and logs without the NAT.
INTERFACE_ENDPOINTS = {
    "Ec2": ec2.InterfaceVpcEndpointAwsService.EC2,
    "EcrApi": ec2.InterfaceVpcEndpointAwsService.ECR,
    "EcrDocker": ec2.InterfaceVpcEndpointAwsService.ECR_DOCKER,
    "Sts": ec2.InterfaceVpcEndpointAwsService.STS,
    "Eks": ec2.InterfaceVpcEndpointAwsService.EKS,
    "EksAuth": ec2.InterfaceVpcEndpointAwsService.EKS_AUTH,
    "Logs": ec2.InterfaceVpcEndpointAwsService.CLOUDWATCH_LOGS,
    "ElasticLoadBalancing": ec2.InterfaceVpcEndpointAwsService.ELASTIC_LOAD_BALANCING,
}


class NetworkStack(cdk.Stack):
    """A VPC over the configured Availability Zones with one private subnet in the reservation's zone.

    - public subnets (NAT gateways, public load balancers) and private subnets (nodes, internal load balancers),
      tagged so the AWS cloud controller finds them;
    - an S3 gateway endpoint and the interface endpoints in :data:`INTERFACE_ENDPOINTS`;
    - VPC flow logs to CloudWatch Logs;
    - a security group that lets EFA traffic flow between the GPU nodes.
    """

    def __init__(
        self, scope: Construct, id: str, *, env_config: EnvironmentConfig, **kwargs
    ) -> None:
        super().__init__(scope, id, **kwargs)
        self._zones = list(env_config.availability_zones)
        self.vpc = ec2.Vpc(
            self,
            "Vpc",
            ip_addresses=ec2.IpAddresses.cidr(env_config.vpc_cidr),
            # Explicit zones: no look-up, so synthesis needs no credentials.
            availability_zones=list(env_config.availability_zones),
            nat_gateways=env_config.nat_gateway_count,  # one per zone; llmops cost counts the same
            subnet_configuration=[
                ec2.SubnetConfiguration(
                    name="public", subnet_type=ec2.SubnetType.PUBLIC, cidr_mask=PUBLIC_SUBNET_PREFIX
                ),
                ec2.SubnetConfiguration(
                    name="private",
                    subnet_type=ec2.SubnetType.PRIVATE_WITH_EGRESS,
                    cidr_mask=PRIVATE_SUBNET_PREFIX,
                ),
            ],
            gateway_endpoints={
                "S3": ec2.GatewayVpcEndpointOptions(service=ec2.GatewayVpcEndpointAwsService.S3)
            },
        )
        acknowledge_explicit_zones(self.vpc)
        for subnet in self.vpc.public_subnets:
            cdk.Tags.of(subnet).add("kubernetes.io/role/elb", "1")
        for subnet in self.vpc.private_subnets:
            cdk.Tags.of(subnet).add("kubernetes.io/role/internal-elb", "1")

        flow_log_group = logs.LogGroup(
            self,
            "FlowLogs",
            retention=logs.RetentionDays.THREE_MONTHS,
            removal_policy=cdk.RemovalPolicy.DESTROY,
        )
        self.vpc.add_flow_log(
            "FlowLog",
            destination=ec2.FlowLogDestination.to_cloud_watch_logs(flow_log_group),
            traffic_type=ec2.FlowLogTrafficType.ALL,
        )
        # One group for all interface endpoints: HTTPS from the VPC's own range, written out rather than a token
        # so that reviewers (and cdk-nag) see exactly what is open.
        endpoint_security_group = ec2.SecurityGroup(
            self,
            "EndpointSecurityGroup",
            vpc=self.vpc,
            allow_all_outbound=False,
            description="HTTPS from inside the VPC to the interface endpoints",
        )
        endpoint_security_group.add_ingress_rule(
            ec2.Peer.ipv4(env_config.vpc_cidr), ec2.Port.tcp(443), "HTTPS from the VPC"
        )
        for name in (
            INTERFACE_ENDPOINT_NAMES
        ):  # the names llmops cost counts; each must be in INTERFACE_ENDPOINTS
            self.vpc.add_interface_endpoint(
                name,
                service=INTERFACE_ENDPOINTS[name],
                private_dns_enabled=True,
                open=False,
                security_groups=[endpoint_security_group],
                subnets=ec2.SubnetSelection(subnet_type=ec2.SubnetType.PRIVATE_WITH_EGRESS),
            )

        zone = env_config.gpu_availability_zone
        self.gpu_subnets = [s for s in self.vpc.private_subnets if s.availability_zone == zone]
        if len(self.gpu_subnets) != 1:  # the loader guarantees the zone is one of the VPC's
            raise ValueError(
                f"expected one private subnet in {zone}, found {len(self.gpu_subnets)}"
            )

        self.efa_security_group = ec2.SecurityGroup(
            self,
            "EfaSecurityGroup",
            vpc=self.vpc,
            allow_all_outbound=False,
            description="EFA traffic between GPU nodes: all protocols to and from members of this group only",
        )
        # EFA's SRD protocol is not TCP or UDP: the group must allow all traffic between its members, both ways.
        # Written as L1 rules with fixed ids: add_ingress_rule derives the logical id from the construct path, which a
        # pipeline stage changes, and the rules would be replaced when an environment moves into the pipeline.
        group_id = self.efa_security_group.security_group_id
        ec2.CfnSecurityGroupIngress(
            self,
            "EfaIngressFromMembers",
            group_id=group_id,
            ip_protocol="-1",
            source_security_group_id=group_id,
            description="EFA from GPU nodes",
        )
        ec2.CfnSecurityGroupEgress(
            self,
            "EfaEgressToMembers",
            group_id=group_id,
            ip_protocol="-1",
            destination_security_group_id=group_id,
            description="EFA to GPU nodes",
        )

    @property
    def availability_zones(self) -> list[str]:
        """The configured zones. Without this, constructs that ask the stack for its zones trigger an AWS look-up."""
        return self._zones
