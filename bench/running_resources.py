#!/usr/bin/env python3
"""What an environment runs that is billed while it exists, counted from its synthesized templates.

    make synth && .venv/bin/python bench/running_resources.py [--env example] [--out cdk.out] [--json]

Reads NAME-*.template.json in the cloud assembly (cdk.out/ after `make synth`; `make synth ENV=NAME` for another
environment). It prints counts, not prices: prices change and differ by region (see docs/costs.md).
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


def _resources(templates: dict[str, dict], resource_type: str) -> list[dict]:
    return [
        r.get("Properties", {})
        for t in templates.values()
        for r in t.get("Resources", {}).values()
        if r["Type"] == resource_type
    ]


def running_resources(templates: dict[str, dict]) -> list[dict]:
    """Rows of (resource, count, billed by), in the order a bill usually weighs them."""
    rows: list[dict] = []

    def add(resource: str, count: int, billed: str) -> None:
        if count:
            rows.append({"resource": resource, "count": count, "billed": billed})

    launch_types = {
        json.dumps(lt.get("LaunchTemplateData", {}).get("InstanceType")): lt
        for lt in _resources(templates, "AWS::EC2::LaunchTemplate")
    }
    for group in _resources(templates, "AWS::EKS::Nodegroup"):
        capacity = group.get("CapacityType", "ON_DEMAND")
        types = group.get("InstanceTypes") or [json.loads(k) for k in launch_types if k != "null"]
        size = group.get("ScalingConfig", {}).get("DesiredSize", 0)
        billed = (
            "the Capacity Block's upfront fee (paid at purchase)"
            if capacity == "CAPACITY_BLOCK"
            else "instance-hour (On-Demand)"
        )
        add(f"EC2 {'/'.join(types)} node ({capacity})", size, billed)
    for cluster in _resources(templates, "AWS::SageMaker::Cluster"):
        for group in cluster.get("InstanceGroups", []):
            add(
                f"HyperPod {group['InstanceType']} instance",
                group["InstanceCount"],
                "the training plan's upfront fee (paid at purchase)",
            )

    def n(resource_type: str, where: Callable[[dict], bool] = lambda _: True) -> int:
        """How many resources of this type the templates hold (those ``where`` accepts)."""
        return len([r for r in _resources(templates, resource_type) if where(r)])

    add("EKS cluster (control plane)", n("AWS::EKS::Cluster"), "cluster-hour")
    add("NAT gateway", n("AWS::EC2::NatGateway"), "gateway-hour + GB processed")
    add("Elastic IP (public IPv4 address, on the NAT gateways)", n("AWS::EC2::EIP"), "address-hour")
    interface = [
        e
        for e in _resources(templates, "AWS::EC2::VPCEndpoint")
        if e.get("VpcEndpointType") == "Interface"
    ]
    add(
        "interface VPC endpoint x zone",
        sum(len(e.get("SubnetIds", [])) for e in interface),
        f"endpoint-zone-hour + GB processed ({len(interface)} endpoints)",
    )
    # "Gateway endpoints ... come at no additional charge":
    # https://docs.aws.amazon.com/prescriptive-guidance/latest/aws-startup-security-baseline/wkld-12.html
    add(
        "gateway VPC endpoint (S3)",
        n("AWS::EC2::VPCEndpoint", lambda e: e.get("VpcEndpointType") == "Gateway"),
        "no additional charge (AWS Prescriptive Guidance, startup security baseline WKLD.12)",
    )
    add("EKS add-on", n("AWS::EKS::Addon"), "its pods run on the nodes above")
    add(
        "Amazon Managed Service for Prometheus workspace",
        n("AWS::APS::Workspace"),
        "samples ingested, stored, queried",
    )
    add("AMP managed scraper", n("AWS::APS::Scraper"), "scraper-hour + samples")
    add(
        "Lambda function on a schedule (metrics publisher)",
        n("AWS::Events::Rule", lambda r: "ScheduleExpression" in r),
        "requests + duration (every minute)",
    )
    # state-change events that AWS services publish to the default bus are not charged:
    # https://aws.amazon.com/eventbridge/pricing/
    add(
        "EventBridge rule on AWS events (capacity, cluster)",
        n("AWS::Events::Rule", lambda r: "EventPattern" in r),
        "free: AWS services' state-change events (EventBridge pricing page)",
    )
    add("CloudWatch alarm", n("AWS::CloudWatch::Alarm"), "alarm-month")
    add("CloudWatch dashboard", n("AWS::CloudWatch::Dashboard"), "dashboard-month")
    add("CloudWatch Logs log group", n("AWS::Logs::LogGroup"), "GB ingested + GB-month stored")
    add("KMS customer managed key", n("AWS::KMS::Key"), "key-month + requests")
    add("Secrets Manager secret", n("AWS::SecretsManager::Secret"), "secret-month + API calls")
    add("S3 bucket", n("AWS::S3::Bucket"), "GB-month + requests")
    return rows


def load_balancer_of(templates: dict[str, dict]) -> str:
    if _resources(templates, "AWS::SageMaker::Cluster"):
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
