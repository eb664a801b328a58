"""What the synthesized templates hold that bench/running_resources.py counts or leaves out: the resources of a type,
the resource types that are not billed themselves (with why), and every EBS volume the stacks make."""

from __future__ import annotations


def resources_of(templates: dict[str, dict], resource_type: str) -> list[dict]:
    return [
        r.get("Properties", {})
        for t in templates.values()
        for r in t.get("Resources", {}).values()
        if r["Type"] == resource_type
    ]


#: Resource types the stacks create that are not billed themselves, with why; every other type is counted by a row of
#: :func:`running_resources` (tests/stacks/test_inventory.py walks the synthesized templates and fails on a type in
#: neither, so a new billable resource cannot be left out).
NOT_BILLED = {
    # "There's no additional charge for using a VPC": https://aws.amazon.com/vpc/pricing/ (data goes through the NAT
    # gateways, endpoints and load balancer, which are counted)
    **dict.fromkeys(
        (
            "AWS::EC2::VPC",
            "AWS::EC2::Subnet",
            "AWS::EC2::RouteTable",
            "AWS::EC2::Route",
            "AWS::EC2::SubnetRouteTableAssociation",
            "AWS::EC2::InternetGateway",
            "AWS::EC2::VPCGatewayAttachment",
            "AWS::EC2::SecurityGroup",
            "AWS::EC2::SecurityGroupIngress",
            "AWS::EC2::SecurityGroupEgress",
        ),
        "part of the VPC, no charge of its own (Amazon VPC pricing page)",
    ),
    # "IAM is a feature of your AWS account offered at no additional charge": https://aws.amazon.com/iam/faqs/
    **dict.fromkeys(
        (
            "AWS::IAM::Role",
            "AWS::IAM::Policy",
            "AWS::IAM::ManagedPolicy",
            "AWS::IAM::InstanceProfile",
            "AWS::IAM::OIDCProvider",
        ),
        "IAM, no additional charge (IAM FAQs)",
    ),
    **dict.fromkeys(
        ("AWS::EKS::AccessEntry", "AWS::EKS::PodIdentityAssociation"),
        "a setting of the EKS cluster, which is counted",
    ),
    **dict.fromkeys(
        ("AWS::Lambda::Permission", "AWS::S3::BucketPolicy", "AWS::SNS::TopicPolicy"),
        "a policy on a resource that is counted",
    ),
    "AWS::Lambda::LayerVersion": "code of the Lambda functions, which are counted (requests + duration)",
}
#: CloudFormation custom resources (Custom::*) are not billed: the Lambda function behind each is counted.
CUSTOM_RESOURCE_PREFIX = "Custom::"


def _volumes(mappings: list | None) -> list[dict]:
    return [m["Ebs"] for m in mappings or [] if isinstance(m, dict) and "Ebs" in m]


def ebs_volumes(templates: dict[str, dict]) -> list[dict]:
    """Every EBS volume the stacks make, one entry per kind: what it is, how many, GiB each (None: the AMI's default)."""
    found: list[dict] = []
    launch_templates = {
        logical: r.get("Properties", {})
        for t in templates.values()
        for logical, r in t.get("Resources", {}).items()
        if r["Type"] == "AWS::EC2::LaunchTemplate"
    }
    for group in resources_of(templates, "AWS::EKS::Nodegroup"):
        size = group.get("ScalingConfig", {}).get("DesiredSize", 0)
        ref = group.get("LaunchTemplate", {}).get("Id", {})
        data = launch_templates.get(ref.get("Ref") if isinstance(ref, dict) else None, {})
        data = data.get("LaunchTemplateData", {})
        what = f"root volume of each {data.get('InstanceType') or '/'.join(group.get('InstanceTypes') or [])} node"
        volumes = _volumes(data.get("BlockDeviceMappings"))
        if volumes:
            found += [
                {
                    "what": what,
                    "count": size,
                    "gib": v.get("VolumeSize"),
                    "type": v.get("VolumeType"),
                }
                for v in volumes
            ]
        elif size:
            # no size in the launch template nor DiskSize: the AMI's root volume, at its default size
            found.append({"what": what, "count": size, "gib": group.get("DiskSize"), "type": None})
    for instance in resources_of(templates, "AWS::EC2::Instance"):
        found += [
            {
                "what": f"root volume of the {instance.get('InstanceType')} access host",
                "count": 1,
                "gib": v.get("VolumeSize"),
                "type": v.get("VolumeType"),
            }
            for v in _volumes(instance.get("BlockDeviceMappings"))
        ]
    for cluster in resources_of(templates, "AWS::SageMaker::Cluster"):
        for group in cluster.get("InstanceGroups", []):
            for config in group.get("InstanceStorageConfigs") or []:
                ebs = config.get("EbsVolumeConfig", {})
                found.append(
                    {
                        "what": f"EBS volume of each HyperPod {group['InstanceType']} instance",
                        "count": group["InstanceCount"],
                        "gib": ebs.get("VolumeSizeInGB"),
                        "type": None,
                    }
                )
    return [v for v in found if v["count"]]
