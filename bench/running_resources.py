#!/usr/bin/env python3
"""What an environment runs that is billed while it exists, counted from its synthesized templates.

    make synth && .venv/bin/python bench/running_resources.py [--env example] [--out cdk.out] [--json]

Reads NAME-*.template.json in the cloud assembly (cdk.out/ after `make synth`; `make synth ENV=NAME` for another
environment). It prints counts, not prices: prices change and differ by region (see docs/costs.md). Every billable
resource is in it, EBS volumes and the access host included: tests/stacks/test_inventory.py walks the templates' resource
types and fails on one that no row counts and template_inventory.NOT_BILLED does not explain, and checks that
``llmops cost`` prices or lists every row's kind, with the same price basis.
The load balancer is not in any template (the cloud controller or the Inference Operator makes it), so it is listed
from what the stacks deploy, not counted.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from template_inventory import (  # noqa: E402
    CUSTOM_RESOURCE_PREFIX,
    NOT_BILLED,
    ebs_volumes,
    resources_of,
)


def templates_of(out_dir: Path, env_name: str) -> dict[str, dict]:
    """The templates of one environment's stacks, by stack name. Another environment whose name extends this one
    (example-hyperpod for example) is left out: its stacks are NAME-hyperpod-… and it has its own NAME-network."""
    found = {
        p.name.removesuffix(".template.json"): json.loads(p.read_text())
        for p in sorted(out_dir.glob(f"{env_name}-*.template.json"))
    }
    others = {
        name.removesuffix("-network")
        for name in found
        if name.endswith("-network") and name != f"{env_name}-network"
    }
    return {
        name: t
        for name, t in found.items()
        if not any(name.startswith(f"{other}-") for other in others)
    }


def running_resources(templates: dict[str, dict]) -> list[dict]:
    """Rows of (resource, count, billed by, kind, the resource types counted), in the order a bill usually weighs
    them. ``kind`` names the item for ``llmops cost`` (tests/stacks/test_inventory.py: each is priced or listed there)."""
    rows: list[dict] = []

    def add(resource: str, count: int, billed: str, kind: str, *types: str) -> None:
        if count:
            rows.append(
                {
                    "resource": resource,
                    "count": count,
                    "billed": billed,
                    "kind": kind,
                    "types": list(types),
                }
            )

    launch_types = {
        json.dumps(lt.get("LaunchTemplateData", {}).get("InstanceType")): lt
        for lt in resources_of(templates, "AWS::EC2::LaunchTemplate")
    }
    for group in resources_of(templates, "AWS::EKS::Nodegroup"):
        capacity = group.get("CapacityType", "ON_DEMAND")
        types = group.get("InstanceTypes") or [json.loads(k) for k in launch_types if k != "null"]
        size = group.get("ScalingConfig", {}).get("DesiredSize", 0)
        block = capacity == "CAPACITY_BLOCK"
        billed = (
            "the Capacity Block's upfront fee (paid at purchase)"
            if block
            else "instance-hour (On-Demand)"
        )
        kind = "gpu-capacity" if block else "system-node"
        add(f"EC2 {'/'.join(types)} node ({capacity})", size, billed, kind, "AWS::EKS::Nodegroup")
    for cluster in resources_of(templates, "AWS::SageMaker::Cluster"):
        for group in cluster.get("InstanceGroups", []):
            add(
                f"HyperPod {group['InstanceType']} instance",
                group["InstanceCount"],
                "the training plan's upfront fee (paid at purchase)",
                "gpu-capacity",
                "AWS::SageMaker::Cluster",
            )
    for instance in resources_of(templates, "AWS::EC2::Instance"):
        add(
            f"EC2 {instance.get('InstanceType')} access host (On-Demand)",
            1,
            "instance-hour (On-Demand)",
            "access-host",
            "AWS::EC2::Instance",
        )
    for volume in ebs_volumes(templates):
        size = f"{volume['gib']} GiB" if volume["gib"] else "the AMI's default size"
        add(
            f"EBS {volume['type'] or ''} volume, {volume['what']}".replace("EBS  ", "EBS "),
            volume["count"],
            f"GB-month ({size} each)",
            "ebs",
            "AWS::EC2::LaunchTemplate",
        )

    def n(resource_type: str, where: Callable[[dict], bool] = lambda _: True) -> int:
        """How many resources of this type the templates hold (those ``where`` accepts)."""
        return len([r for r in resources_of(templates, resource_type) if where(r)])

    add(
        "EKS cluster (control plane)",
        n("AWS::EKS::Cluster"),
        "cluster-hour",
        "eks-cluster",
        "AWS::EKS::Cluster",
    )
    add(
        "NAT gateway",
        n("AWS::EC2::NatGateway"),
        "gateway-hour + GB processed",
        "nat-gateway",
        "AWS::EC2::NatGateway",
    )
    # "a charge of $0.005 per IP per hour for all public IPv4 addresses": AWS News Blog, "New - AWS Public IPv4 Address
    # Charge + Public IP Insights", https://aws.amazon.com/blogs/aws/new-aws-public-ipv4-address-charge-public-ip-insights/
    add(
        "public IPv4 address (Elastic IP, on a NAT gateway)",
        n("AWS::EC2::EIP"),
        "address-hour",
        "public-ipv4",
        "AWS::EC2::EIP",
    )
    interface = [
        e
        for e in resources_of(templates, "AWS::EC2::VPCEndpoint")
        if e.get("VpcEndpointType") == "Interface"
    ]
    add(
        "interface VPC endpoint x zone",
        sum(len(e.get("SubnetIds", [])) for e in interface),
        f"endpoint-zone-hour + GB processed ({len(interface)} endpoints)",
        "interface-endpoint",
        "AWS::EC2::VPCEndpoint",
    )
    # "Gateway endpoints ... come at no additional charge":
    # https://docs.aws.amazon.com/prescriptive-guidance/latest/aws-startup-security-baseline/wkld-12.html
    add(
        "gateway VPC endpoint (S3)",
        n("AWS::EC2::VPCEndpoint", lambda e: e.get("VpcEndpointType") == "Gateway"),
        "no additional charge (AWS Prescriptive Guidance, startup security baseline WKLD.12)",
        "free",
        "AWS::EC2::VPCEndpoint",
    )
    add(
        "EKS add-on",
        n("AWS::EKS::Addon"),
        "its pods run on the nodes above",
        "free",
        "AWS::EKS::Addon",
    )
    add(
        "Amazon Managed Service for Prometheus workspace",
        n("AWS::APS::Workspace"),
        "samples ingested, stored, queried",
        "prometheus",
        "AWS::APS::Workspace",
    )
    add(
        "AMP managed scraper",
        n("AWS::APS::Scraper"),
        "scraper-hour + samples",
        "prometheus",
        "AWS::APS::Scraper",
    )
    add(
        "Lambda function",
        n("AWS::Lambda::Function"),
        "requests + duration (the metrics publisher every minute; the rest on deploy and destroy)",
        "lambda",
        "AWS::Lambda::Function",
    )
    add(
        "Step Functions state machine (waits on deploy and destroy)",
        n("AWS::StepFunctions::StateMachine"),
        "state transitions",
        "lambda",
        "AWS::StepFunctions::StateMachine",
    )
    add(
        "EventBridge rule on a schedule (metrics publisher)",
        n("AWS::Events::Rule", lambda r: "ScheduleExpression" in r),
        "the Lambda function's requests + duration (counted above)",
        "lambda",
        "AWS::Events::Rule",
    )
    # state-change events that AWS services publish to the default bus are not charged:
    # https://aws.amazon.com/eventbridge/pricing/
    add(
        "EventBridge rule on AWS events (capacity, cluster)",
        n("AWS::Events::Rule", lambda r: "EventPattern" in r),
        "free: AWS services' state-change events (EventBridge pricing page)",
        "free",
        "AWS::Events::Rule",
    )
    add(
        "CloudWatch alarm",
        n("AWS::CloudWatch::Alarm"),
        "alarm-month",
        "cloudwatch",
        "AWS::CloudWatch::Alarm",
    )
    add(
        "CloudWatch dashboard",
        n("AWS::CloudWatch::Dashboard"),
        "dashboard-month",
        "cloudwatch",
        "AWS::CloudWatch::Dashboard",
    )
    add(
        "CloudWatch Logs log group",
        n("AWS::Logs::LogGroup"),
        "GB ingested + GB-month stored",
        "cloudwatch",
        "AWS::Logs::LogGroup",
    )
    add(
        "VPC flow log (to CloudWatch Logs)",
        n("AWS::EC2::FlowLog"),
        "GB of vended logs ingested + GB-month stored",
        "cloudwatch",
        "AWS::EC2::FlowLog",
    )
    add(
        "SNS topic (alarms)",
        n("AWS::SNS::Topic"),
        "requests + notifications delivered",
        "notifications",
        "AWS::SNS::Topic",
    )
    add(
        "KMS customer managed key",
        n("AWS::KMS::Key"),
        "key-month + requests",
        "keys-and-secrets",
        "AWS::KMS::Key",
    )
    add(
        "Secrets Manager secret",
        n("AWS::SecretsManager::Secret"),
        "secret-month + API calls",
        "keys-and-secrets",
        "AWS::SecretsManager::Secret",
    )
    add(
        "SSM parameter",
        n("AWS::SSM::Parameter"),
        "Parameter Store: by tier and API interactions (AWS Systems Manager pricing)",
        "keys-and-secrets",
        "AWS::SSM::Parameter",
    )
    add("S3 bucket", n("AWS::S3::Bucket"), "GB-month + requests", "s3", "AWS::S3::Bucket")
    return rows


def uncounted_types(templates: dict[str, dict]) -> set[str]:
    """Resource types of the templates that no row counts and :data:`NOT_BILLED` does not explain."""
    counted = {t for row in running_resources(templates) for t in row["types"]}
    return {
        r["Type"]
        for t in templates.values()
        for r in t.get("Resources", {}).values()
        if r["Type"] not in counted
        and r["Type"] not in NOT_BILLED
        and not r["Type"].startswith(CUSTOM_RESOURCE_PREFIX)
    }


def load_balancer_of(templates: dict[str, dict]) -> str:
    if resources_of(templates, "AWS::SageMaker::Cluster"):
        return "1 Application Load Balancer, made by the Inference Operator's load balancer controller (hour + LCU)"
    return (
        "1 Network Load Balancer, made by EKS's cloud controller for the vllm Service (hour + NLCU)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--env", default="example", help="environment name, the stacks' prefix (default: example)"
    )
    parser.add_argument(
        "--out", type=Path, default=PROJECT_DIR / "cdk.out", help="cloud assembly directory"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    templates = templates_of(args.out, args.env)
    if not templates:
        print(
            f"error: no {args.env}-*.template.json in {args.out}\n  fix: run `make synth` (or `make synth ENV={args.env}`)",
            file=sys.stderr,
        )
        return 2
    rows = running_resources(templates)
    if args.json:
        print(
            json.dumps(
                {
                    "environment": args.env,
                    "stacks": sorted(templates),
                    "resources": rows,
                    "load_balancer": load_balancer_of(templates),
                },
                indent=2,
            )
        )
        return 0
    width = max(len(r["resource"]) for r in rows)
    print(f"{args.env}: {len(templates)} stacks ({', '.join(sorted(templates))})")
    for r in rows:
        print(f"{r['resource']:<{width}}  {r['count']:>3}  {r['billed']}")
    print(f"not in the templates: {load_balancer_of(templates)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
