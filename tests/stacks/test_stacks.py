"""What the synthesized default app deploys: the fields a user with a Capacity Block relies on.

Every test reads the one synthesis of the session (the ``synthesized`` fixture).
"""

from __future__ import annotations

import json

import pytest
from aws_cdk.assertions import Match

from cdk_constructs.gpu_device_plugins import (
    EFA_DEVICE_PLUGIN_VERSION,
    NVIDIA_DEVICE_PLUGIN_VERSION,
)


def _only(resources: dict[str, dict]) -> dict:
    assert len(resources) == 1, list(resources)
    return next(iter(resources.values()))


def _exported_value(synthesized, import_value: dict):
    """Follow an Fn::ImportValue to the value the exporting stack outputs."""
    export_name = import_value["Fn::ImportValue"]
    stack_name = export_name.split(":", 1)[0]
    for output in synthesized.templates[stack_name]["Outputs"].values():
        if output.get("Export", {}).get("Name") == export_name:
            return stack_name, output["Value"]
    raise AssertionError(f"no export {export_name}")


# --- the GPU node group on the Capacity Block -------------------------------------------------------------------


@pytest.fixture(scope="module")
def launch_template_data(synthesized) -> dict:
    return _only(synthesized.resources("gpu-nodes", "AWS::EC2::LaunchTemplate"))["Properties"][
        "LaunchTemplateData"
    ]


def test_launch_template_targets_the_capacity_block(synthesized, default_env):
    synthesized.assertions("gpu-nodes").has_resource_properties(
        "AWS::EC2::LaunchTemplate",
        {
            "LaunchTemplateData": Match.object_like(
                {
                    "InstanceType": "p6-b300.48xlarge",
                    "InstanceMarketOptions": {"MarketType": "capacity-block"},
                    "CapacityReservationSpecification": {
                        "CapacityReservationTarget": {
                            "CapacityReservationId": default_env.capacity.capacity_reservation_id
                        },
                    },
                }
            ),
        },
    )


def test_launch_template_requires_imdsv2_and_encrypts_a_large_root_volume(launch_template_data):
    assert launch_template_data["MetadataOptions"]["HttpTokens"] == "required"
    # a pod on the pod network cannot reach IMDS, so cannot take the node role
    assert launch_template_data["MetadataOptions"]["HttpPutResponseHopLimit"] == 1
    (root,) = launch_template_data["BlockDeviceMappings"]
    assert root["Ebs"]["Encrypted"] is True
    assert root["Ebs"]["VolumeSize"] >= 100


def test_launch_template_attaches_every_efa_interface(launch_template_data, default_env):
    interfaces = launch_template_data["NetworkInterfaces"]
    efa = [i for i in interfaces if i["InterfaceType"] == "efa-only"]
    assert len(efa) == default_env.capacity.gpu_instance_type.efa_interfaces == 16
    # p6-b300's card 0 is ENA only: EC2 rejects a launch with an EFA interface there
    assert {i["NetworkCardIndex"] for i in efa} == set(range(1, 17))
    assert all(i["DeviceIndex"] == 0 for i in efa)
    primary = [i for i in interfaces if i["DeviceIndex"] == 0 and i["NetworkCardIndex"] == 0]
    assert primary == [next(i for i in interfaces if i["InterfaceType"] == "interface")]
    # one interface per (card, device) slot
    assert len({(i["NetworkCardIndex"], i["DeviceIndex"]) for i in interfaces}) == len(interfaces)
    # the cluster security group must be on every interface: the template replaces what EKS would attach
    for interface in interfaces:
        assert len(interface["Groups"]) == 2


def test_launch_template_assembles_the_nvme_disks_as_raid0(launch_template_data):
    user_data = launch_template_data["UserData"]["Fn::Base64"]
    assert "Content-Type: application/node.eks.aws" in user_data
    assert "strategy: RAID0" in user_data


def test_node_group_is_a_capacity_block_group_with_gpu_ami_taint_and_labels(
    synthesized, default_env
):
    synthesized.assertions("gpu-nodes").has_resource_properties(
        "AWS::EKS::Nodegroup",
        {
            "CapacityType": "CAPACITY_BLOCK",
            "AmiType": "AL2023_x86_64_NVIDIA",
            "ScalingConfig": {
                "MinSize": 0,
                "DesiredSize": default_env.capacity.instance_count,
                "MaxSize": default_env.capacity.instance_count,
            },
            "Taints": [{"Effect": "NO_SCHEDULE", "Key": "nvidia.com/gpu", "Value": "present"}],
            "Labels": {"llm-serving/node-role": "gpu-inference"},
            # instance types belong in the launch template, never in the node group
            "InstanceTypes": Match.absent(),
        },
    )


def test_node_group_subnets_are_only_in_the_reservation_zone(synthesized, default_env):
    nodegroup = _only(synthesized.resources("gpu-nodes", "AWS::EKS::Nodegroup"))["Properties"]
    zones = set()
    for subnet in nodegroup["Subnets"]:
        stack_name, value = _exported_value(synthesized, subnet)
        subnet_resource = synthesized.templates[stack_name]["Resources"][value["Ref"]]
        zones.add(subnet_resource["Properties"]["AvailabilityZone"])
    assert zones == {default_env.capacity.availability_zone}


def test_device_plugins_come_from_official_charts_pinned_and_tolerating_the_gpu_taint(synthesized):
    charts = {
        c["Properties"]["Chart"]: c["Properties"]
        for c in synthesized.resources("gpu-nodes", "Custom::AWSCDK-EKS-HelmChart").values()
    }
    assert (
        charts["nvidia-device-plugin"]["Repository"] == "https://nvidia.github.io/k8s-device-plugin"
    )
    assert charts["nvidia-device-plugin"]["Version"] == NVIDIA_DEVICE_PLUGIN_VERSION
    assert charts["aws-efa-k8s-device-plugin"]["Repository"] == "https://aws.github.io/eks-charts"
    assert charts["aws-efa-k8s-device-plugin"]["Version"] == EFA_DEVICE_PLUGIN_VERSION
    toleration = {
        "key": "nvidia.com/gpu",
        "operator": "Equal",
        "value": "present",
        "effect": "NoSchedule",
    }
    for props in charts.values():
        assert toleration in json.loads(props["Values"])["tolerations"]
    efa_values = json.loads(charts["aws-efa-k8s-device-plugin"]["Values"])
    assert efa_values["supportedInstanceLabels"]["values"] == ["p6-b300.48xlarge"]


# --- the cluster --------------------------------------------------------------------------------------------------


def test_cluster_is_private_encrypted_logged_and_not_auto_mode(synthesized, default_env):
    synthesized.assertions("cluster").has_resource_properties(
        "AWS::EKS::Cluster",
        {
            "Version": default_env.kubernetes_version,
            "Name": default_env.cluster_name,
            "ResourcesVpcConfig": Match.object_like(
                {"EndpointPrivateAccess": True, "EndpointPublicAccess": False}
            ),
            "EncryptionConfig": [Match.object_like({"Resources": ["secrets"]})],
            "Logging": {
                "ClusterLogging": {
                    "EnabledTypes": Match.array_with([{"Type": "api"}, {"Type": "audit"}])
                }
            },
            "ComputeConfig": {"Enabled": False},
            "AccessConfig": Match.object_like(
                {"AuthenticationMode": "API", "BootstrapClusterCreatorAdminPermissions": False}
            ),
        },
    )
    synthesized.assertions("cluster").has_resource_properties(
        "AWS::KMS::Key", {"EnableKeyRotation": True}
    )


def test_admin_role_gets_cluster_admin_through_an_access_entry(synthesized, default_env):
    entries = [
        e["Properties"] for e in synthesized.resources("cluster", "AWS::EKS::AccessEntry").values()
    ]
    (admin,) = [e for e in entries if e["PrincipalArn"] == default_env.cluster.admin_role_arn]
    (policy,) = admin["AccessPolicies"]
    assert policy["AccessScope"] == {"Type": "cluster"}
    assert "AmazonEKSClusterAdminPolicy" in json.dumps(policy["PolicyArn"])


def test_cluster_has_the_managed_addons_and_a_system_node_group(synthesized):
    addons = {
        a["Properties"]["AddonName"]
        for a in synthesized.resources("cluster", "AWS::EKS::Addon").values()
    }
    assert addons >= {
        "vpc-cni",
        "coredns",
        "kube-proxy",
        "eks-pod-identity-agent",
        # Container Insights and node health (tests/cdk_constructs/test_observability.py)
        "amazon-cloudwatch-observability",
        "eks-node-monitoring-agent",
    }
    synthesized.assertions("cluster").has_resource_properties(
        "AWS::EKS::Nodegroup",
        {
            "CapacityType": "ON_DEMAND",
            "InstanceTypes": ["m7i.xlarge"],
            "AmiType": "AL2023_x86_64_STANDARD",
        },
    )


@pytest.mark.parametrize("platform", ["eks", "hyperpod"])
def test_every_node_group_requires_imdsv2_with_a_hop_limit_of_one(
    synthesized, synthesized_hyperpod, platform
):
    # given every managed node group of the environment (the system nodes; on EKS also the GPU nodes)
    view = synthesized if platform == "eks" else synthesized_hyperpod
    units = ["cluster", "gpu-nodes"] if platform == "eks" else ["cluster"]
    groups = [
        (unit, g) for unit in units for g in view.resources(unit, "AWS::EKS::Nodegroup").values()
    ]
    assert len(groups) == len(units)
    for unit, group in groups:
        # then each launches from a launch template of its stack that requires IMDSv2 one hop away
        template_id = group["Properties"]["LaunchTemplate"]["Id"]["Ref"]
        data = view.template(unit)["Resources"][template_id]["Properties"]["LaunchTemplateData"]
        assert data["MetadataOptions"] == {
            "HttpEndpoint": "enabled",
            "HttpTokens": "required",
            "HttpPutResponseHopLimit": 1,
        }, unit
        assert group["Properties"]["LaunchTemplate"]["Version"] == {
            "Fn::GetAtt": [template_id, "LatestVersionNumber"]
        }, unit


def test_kubectl_layer_matches_the_kubernetes_version(synthesized):
    descriptions = [
        layer["Properties"].get("Description", "")
        for layer in synthesized.resources("cluster", "AWS::Lambda::LayerVersion").values()
    ]
    assert any("kubectl" in d and "1.34" in d for d in descriptions), descriptions


# --- the network --------------------------------------------------------------------------------------------------


def test_vpc_spans_the_configured_zones_with_flow_logs_and_endpoints(synthesized, default_env):
    subnets = synthesized.resources("network", "AWS::EC2::Subnet").values()
    assert {s["Properties"]["AvailabilityZone"] for s in subnets} == set(
        default_env.availability_zones
    )
    network = synthesized.assertions("network")
    network.has_resource_properties(
        "AWS::EC2::FlowLog", {"TrafficType": "ALL", "ResourceType": "VPC"}
    )
    endpoints = synthesized.resources("network", "AWS::EC2::VPCEndpoint").values()
    services = {json.dumps(e["Properties"]["ServiceName"]) for e in endpoints}
    for service in ("ecr.api", "ecr.dkr", "sts", "s3", "eks", "ec2"):
        assert any(f".{service}" in s or f'{service}"' in s for s in services), service
    network.resource_count_is("AWS::EC2::NatGateway", len(default_env.availability_zones))


def test_efa_security_group_allows_all_traffic_between_its_members_only(synthesized):
    ingress = [
        r["Properties"]
        for r in synthesized.resources("network", "AWS::EC2::SecurityGroupIngress").values()
    ]
    egress = [
        r["Properties"]
        for r in synthesized.resources("network", "AWS::EC2::SecurityGroupEgress").values()
    ]
    for rules in (ingress, egress):
        (rule,) = [r for r in rules if r.get("IpProtocol") == "-1"]
        peer = rule.get("SourceSecurityGroupId") or rule.get("DestinationSecurityGroupId")
        assert peer == {"Fn::GetAtt": [rule["GroupId"]["Fn::GetAtt"][0], "GroupId"]}


def test_subnets_are_tagged_for_load_balancers(synthesized):
    tags = [
        {t["Key"]: t["Value"] for t in s["Properties"]["Tags"]}
        for s in synthesized.resources("network", "AWS::EC2::Subnet").values()
    ]
    assert sum("kubernetes.io/role/internal-elb" in t for t in tags) == 2
    assert sum("kubernetes.io/role/elb" in t for t in tags) == 2


# --- serving, order and clean destroy ------------------------------------------------------------------------------


def test_serving_stack_applies_the_chart_written_for_review(synthesized):
    import yaml

    manifest = _only(synthesized.resources("serving", "Custom::AWSCDK-EKS-KubernetesResource"))[
        "Properties"
    ]["Manifest"]
    applied = json.loads(manifest)
    reviewed = list(yaml.safe_load_all(synthesized.kubernetes_file.read_text()))
    strip = lambda objs: [(o["kind"], o["metadata"]["name"]) for o in objs]  # noqa: E731
    assert strip(applied) == strip(reviewed)
    assert ("Service", "vllm") in strip(applied) and ("Deployment", "vllm") in strip(applied)


def test_deploy_order_is_network_cluster_gpu_nodes_serving(synthesized, default_env):
    # cdk destroy deletes in the reverse of this order: the Service, and with it the load balancer the cloud
    # controller made, goes before the nodes, the cluster and the VPC.
    deps = {
        name: set(a.get("dependencies", []))
        for name, a in synthesized.manifest["artifacts"].items()
    }
    name = default_env.stack_name
    assert name("network") in deps[name("cluster")]
    assert name("cluster") in deps[name("gpu-nodes")]
    assert name("gpu-nodes") in deps[name("serving")]
    assert not deps[name("network")] - {name("network") + ".assets"}


def test_only_the_serving_stack_creates_kubernetes_load_balancers(synthesized):
    for unit in ("network", "cluster", "gpu-nodes"):
        for resource in synthesized.resources(
            unit, "Custom::AWSCDK-EKS-KubernetesResource"
        ).values():
            assert '"LoadBalancer"' not in json.dumps(resource["Properties"].get("Manifest", ""))


def test_outputs_give_the_next_commands(synthesized, default_env):
    cluster_outputs = synthesized.template("cluster")["Outputs"]
    assert cluster_outputs["UpdateKubeconfigCommand"]["Value"].startswith(
        f"aws eks update-kubeconfig --region {default_env.region} --name {default_env.cluster_name}"
    )
    serving_outputs = synthesized.template("serving")["Outputs"]
    assert "get service vllm" in serving_outputs["EndpointAddressCommand"]["Value"]


def test_every_stack_carries_the_configured_tags(synthesized, default_env):
    for unit in ("network", "cluster", "gpu-nodes", "serving", "observability"):
        artifact = synthesized.manifest["artifacts"][default_env.stack_name(unit)]
        assert artifact["properties"]["tags"] == dict(default_env.tags)


# --- destroy: the Service's load balancer is gone before the nodes, the cluster and the VPC ----------------------


def _waiters(view, unit: str) -> dict[str, dict]:
    return view.resources(unit, "Custom::DestroyWaiter")


def test_serving_stack_waits_on_destroy_for_the_services_load_balancer(synthesized):
    ((key, waiter),) = _waiters(synthesized, "serving").items()
    properties = waiter["Properties"]
    assert properties["Kind"] == "LoadBalancersGone"
    # the tags the AWS cloud provider puts on the Service's NLB, with the cluster's name filled in at deploy time
    separator, parts = properties["Tags"]["Fn::Join"]
    tags = json.loads(separator.join(p if isinstance(p, str) else "CLUSTER" for p in parts))
    assert tags == {
        "kubernetes.io/service-name": "llm-serving/vllm",
        "kubernetes.io/cluster/CLUSTER": "owned",
    }
    assert "example-cluster" in json.dumps(parts)
    # the manifest depends on the waiter: CloudFormation deletes the manifest first, then waits in the waiter
    (manifest,) = synthesized.resources("serving", "Custom::AWSCDK-EKS-KubernetesResource").values()
    assert key in manifest["DependsOn"]
    # and the waiter polls through the Provider framework's is-complete loop
    synthesized.assertions("serving").resource_count_is("AWS::StepFunctions::StateMachine", 1)


def _eks_cluster_of(assembly, stack_name: str, value: dict) -> str:
    """The AWS::EKS::Cluster whose Arn ``value`` is (a GetAtt in its stack, or an import of that stack's export)."""
    if "Fn::ImportValue" in value:
        ((stack_name, output),) = [
            (name, o)
            for name, t in assembly.templates.items()
            for o in t.get("Outputs", {}).values()
            if o.get("Export", {}).get("Name") == value["Fn::ImportValue"]
        ]
        value = output["Value"]
    logical_id, attribute = value["Fn::GetAtt"]
    assert attribute == "Arn"
    assert assembly.templates[stack_name]["Resources"][logical_id]["Type"] == "AWS::EKS::Cluster"
    return f"{stack_name}/{logical_id}"


def test_every_pod_identity_role_trusts_only_this_clusters_pods_of_this_account(
    assembly, default_env, hyperpod_env
):
    # given every role of both example environments that Pod Identity may assume
    trusted = {}
    for stack_name, template in assembly.templates.items():
        for logical_id, resource in template["Resources"].items():
            if resource["Type"] != "AWS::IAM::Role":
                continue
            for statement in resource["Properties"]["AssumeRolePolicyDocument"]["Statement"]:
                if statement["Principal"] == {"Service": "pods.eks.amazonaws.com"}:
                    trusted[(stack_name, logical_id)] = statement
    # the serving pod, the HyperPod endpoint's pod, the CloudWatch agents of both clusters, the GPU metrics collector
    assert {(stack, logical_id.rstrip("0123456789ABCDEF")) for stack, logical_id in trusted} >= {
        (default_env.stack_name("serving"), "PodRole"),
        (hyperpod_env.stack_name("endpoint"), "PodRole"),
        (default_env.stack_name("cluster"), "CloudWatchAgentRole"),
        (hyperpod_env.stack_name("cluster"), "CloudWatchAgentRole"),
        (hyperpod_env.stack_name("observability"), "GpuMetricsCollectorRole"),
    }
    # then each trust is for the environment's own EKS cluster and the one service account its association gives the
    # role, by the session tags EKS Pod Identity adds (EKS user guide, pod-id-role.html and pod-id-abac.html), and no
    # aws:SourceArn, which EKS does not document for Pod Identity
    for (stack_name, logical_id), statement in trusted.items():
        env = hyperpod_env if stack_name.startswith(hyperpod_env.name + "-") else default_env
        assert sorted(statement["Action"]) == ["sts:AssumeRole", "sts:TagSession"], logical_id
        assert set(statement["Condition"]) == {"StringEquals"}, logical_id
        conditions = statement["Condition"]["StringEquals"]
        assert set(conditions) == {
            "aws:RequestTag/eks-cluster-arn",
            "aws:RequestTag/kubernetes-namespace",
            "aws:RequestTag/kubernetes-service-account",
        }, logical_id
        assert _eks_cluster_of(
            assembly, stack_name, conditions["aws:RequestTag/eks-cluster-arn"]
        ).startswith(env.stack_name("cluster") + "/"), logical_id
        assert _associated_service_accounts(assembly.templates[stack_name], logical_id) == [
            (
                conditions["aws:RequestTag/kubernetes-namespace"],
                conditions["aws:RequestTag/kubernetes-service-account"],
            )
        ], logical_id


def _associated_service_accounts(template: dict, role_id: str) -> list[tuple[str, str]]:
    """(namespace, service account) of every Pod Identity association of the role in its stack: its own
    associations', and those of the add-ons that take it (namespace: the add-on's, deployment_config.addons)."""
    from deployment_config.addons import CLOUDWATCH_OBSERVABILITY, HYPERPOD_OBSERVABILITY

    addon_namespaces = {
        addon.name: addon.service_account[0]
        for addon in (CLOUDWATCH_OBSERVABILITY, HYPERPOD_OBSERVABILITY)
    }
    role_arn = {"Fn::GetAtt": [role_id, "Arn"]}
    found = []
    for resource in template["Resources"].values():
        properties = resource.get("Properties", {})
        if resource["Type"] == "AWS::EKS::PodIdentityAssociation":
            associations = [properties]
        elif resource["Type"] == "AWS::EKS::Addon":
            namespace = addon_namespaces.get(properties["AddonName"])
            associations = [
                {"Namespace": namespace, **a} for a in properties.get("PodIdentityAssociations", [])
            ]
        else:
            continue
        found += [
            (a["Namespace"], a["ServiceAccount"]) for a in associations if a["RoleArn"] == role_arn
        ]
    return found
