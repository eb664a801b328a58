"""What ``llmops cost`` counts (ops_cli/cost.py): the environment's billable resources from its configuration, each
with the Price List query that prices it, what is billed by use (named, not estimated) and the EBS volumes (per
GB-month). Each item carries the ``kind`` of bench/running_resources.py's inventory, which counts the same resources from
the synthesized templates: tests/stacks/test_inventory.py checks that every kind there is priced or listed here, on the
same price basis."""

from __future__ import annotations

from deployment_config.gpu_nodes import GPU_ROOT_VOLUME_GIB
from deployment_config.model import EnvironmentConfig, Platform
from deployment_config.sections.access import ACCESS_ROOT_VOLUME_GB
from ops_cli.cost_estimate import gpu_capacity
from ops_cli.cost_records import CostRow
from ops_cli.price_list import PriceQuery


def ec2_instance(region: str, instance_type: str) -> PriceQuery:
    return PriceQuery(
        "AmazonEC2",
        (
            ("regionCode", region),
            ("instanceType", instance_type),
            ("operatingSystem", "Linux"),
            ("tenancy", "Shared"),
            ("preInstalledSw", "NA"),
            ("capacitystatus", "Used"),
        ),
        usage_type=f"BoxUsage:{instance_type}",
    )


def billable_rows(env: EnvironmentConfig) -> list[CostRow]:
    """The hourly-billed resources of ``env``, counted from its configuration, with the query that prices each."""
    region = env.region
    hyperpod = env.platform is Platform.HYPERPOD
    zones = len(env.availability_zones)
    access = env.access
    rows = [
        CostRow(
            f"EC2 {env.cluster.system_instance_type} system node (On-Demand)",
            env.cluster.system_node_count,
            ec2_instance(region, env.cluster.system_instance_type),
            kind="system-node",
        ),
        *(
            [
                CostRow(
                    f"EC2 {access.instance_type} access host (On-Demand)",
                    1,
                    ec2_instance(region, access.instance_type),
                    kind="access-host",
                )
            ]
            if access.enabled
            else []
        ),
        CostRow(
            "EKS cluster (control plane, standard support)",
            1,
            PriceQuery(
                "AmazonEKS", (("regionCode", region),), usage_type="AmazonEKS-Hours:perCluster"
            ),
            note="a Kubernetes version in extended support costs more per hour",
            kind="eks-cluster",
        ),
        CostRow(
            f"NAT gateway (one per zone, {zones} zones)",
            env.nat_gateway_count,
            PriceQuery(
                "AmazonEC2",
                (("regionCode", region), ("productFamily", "NAT Gateway")),
                usage_type="NatGateway-Hours",
            ),
            note="plus each GB processed",
            kind="nat-gateway",
        ),
        CostRow(
            "public IPv4 address (Elastic IP, on a NAT gateway)",
            env.nat_gateway_count,
            PriceQuery("AmazonVPC", (("regionCode", region),), usage_type=PUBLIC_IPV4_USAGE),
            kind="public-ipv4",
        ),
        CostRow(
            f"interface VPC endpoint x zone ({env.interface_endpoint_zone_count // zones} endpoints)",
            env.interface_endpoint_zone_count,
            PriceQuery(
                "AmazonVPC",
                (("regionCode", region), ("productFamily", "VpcEndpoint")),
                usage_type="VpcEndpoint-Hours",
            ),
            note="plus each GB processed",
            kind="interface-endpoint",
        ),
        CostRow(
            "Application Load Balancer (Inference Operator)"
            if hyperpod
            else "Network Load Balancer (vllm Service)",
            1,
            PriceQuery(
                "AWSELB",
                (
                    ("regionCode", region),
                    (
                        "productFamily",
                        "Load Balancer-Application" if hyperpod else "Load Balancer-Network",
                    ),
                ),
                usage_type="LoadBalancerUsage",
            ),
            note="plus capacity units (LCU/NLCU)",
            kind="load-balancer",
        ),
    ]
    return rows


#: What is billed by use, named and not estimated, with the kinds of bench/running_resources.py's inventory it covers.
USAGE_BASED_BY_KIND = (
    (
        ("prometheus",),
        "Amazon Managed Service for Prometheus (samples ingested, stored, queried) and its scraper "
        "(scraper-hour + samples)",
    ),
    (
        ("cloudwatch",),
        "CloudWatch (alarms, dashboard, logs ingested and stored, the VPC flow log, metrics)",
    ),
    (
        (),
        "data processed by the NAT gateways, endpoints and load balancer (the first download of the weights goes "
        "through the NAT gateways)",
    ),
    (
        ("lambda",),
        "Lambda (requests and duration: the metrics publisher every minute, the rest on deploy and destroy) and "
        "Step Functions (state transitions)",
    ),
    (("notifications",), "SNS (the alarm topic's notifications)"),
    (("keys-and-secrets",), "KMS keys, Secrets Manager secrets, SSM parameters"),
    (("s3",), "S3 buckets (GB-month and requests)"),
)
USAGE_BASED = tuple(text for _, text in USAGE_BASED_BY_KIND)
#: the Price List's usage type of an in-use public IPv4 address, charged per hour since 2024-02-01 ("a charge of $0.005
#: per IP per hour for all public IPv4 addresses", AWS News Blog, "New - AWS Public IPv4 Address Charge + Public IP
#: Insights", https://aws.amazon.com/blogs/aws/new-aws-public-ipv4-address-charge-public-ip-insights/); as the other usage
#: types here, matched exactly once or "price not found"
PUBLIC_IPV4_USAGE = "PublicIPv4:InUseAddress"


def ebs_volumes(env: EnvironmentConfig) -> tuple[str, ...]:
    """The EBS volumes the stacks give ``env`` (the counts bench/running_resources.py reads from the templates),
    billed per GB-month: listed beside the hourly rows, not in their totals."""
    gpu_type, count = gpu_capacity(env)
    volumes = [
        f"{env.cluster.system_node_count} x the AMI's default size (root volume of each "
        f"{env.cluster.system_instance_type} system node)"
    ]
    if env.platform is Platform.HYPERPOD:
        if env.hyperpod.volume_size_gb:
            volumes.append(
                f"{count} x {env.hyperpod.volume_size_gb} GiB (the EBS volume of each HyperPod instance)"
            )
    else:
        volumes.append(
            f"{count} x {GPU_ROOT_VOLUME_GIB} GiB gp3 (root volume of each {gpu_type} node)"
        )
    if env.access.enabled:
        volumes.append(
            f"1 x {ACCESS_ROOT_VOLUME_GB} GiB gp3 (root volume of the {env.access.instance_type} access host)"
        )
    return tuple(volumes)
