"""llmops preflight: one row per check, pass / warn / fail with the fix; non-zero exit when any row fails."""

from __future__ import annotations

import dataclasses
import json
from datetime import timedelta

import pytest

from deployment_config.addons import (
    CLOUDWATCH_OBSERVABILITY,
    HYPERPOD_OBSERVABILITY,
    INFERENCE_OPERATOR,
    NODE_MONITORING_AGENT,
    SECRETS_STORE_CSI_PROVIDER,
    AddonPin,
)
from deployment_config.loader import load_environment
from ops_cli import preflight, preflight_pins
from ops_cli.errors import ExitCode
from ops_cli.preflight_certificate import covers
from ops_cli.preflight_instance_type import card_ranges
from tests.conftest import CONFIG_DIR
from tests.ops_cli.conftest import NOW, client_error, no_placeholders
from tests.ops_cli.test_capacity_blocks import reservation

RESERVATION = "cr-0123456789abcdef0"  # the example configuration's
P6_B300 = "p6-b300.48xlarge"
KUBERNETES = "1.34"  # both example configurations'


DIGEST = "sha256:" + "d" * 64
REVISION = "0123456789abcdef0123456789abcdef01234567"


def pin(config_dir, name: str = "example") -> None:
    """Pin the image by digest and the model at a commit in config_dir/NAME.yaml, as a real environment must."""
    path = config_dir / f"{name}.yaml"
    path.write_text(
        path.read_text().replace(
            "  preset: kimi-k3",
            f"  image: vllm/vllm-openai:kimi-k3@{DIGEST}\n  hugging_face_revision: {REVISION}\n"
            "  preset: kimi-k3",
            1,
        )
    )


@pytest.fixture(autouse=True)
def real_ids(request, monkeypatch, config_dir):
    """In these tests the stubbed AWS answers as the owner of the example's ids (account 123456789012, reservation
    cr-0123456789abcdef0), so they play real ids: the loader finds no placeholder, and the image and the model are
    pinned as a real environment's must be. Tests marked ``placeholders`` see the examples as they are; tests marked
    ``unpinned`` see a real environment that pins neither."""
    if request.node.get_closest_marker("placeholders") is None:
        monkeypatch.setattr("deployment_config.loader.placeholder_fields", no_placeholders)
        if request.node.get_closest_marker("unpinned") is None:
            pin(config_dir)
            pin(config_dir, "example-hyperpod")
            # the key check in front of vLLM, which every EKS environment with the key runs, pinned by digest as
            # deployment_config/support_images.py asks a real user to
            pin_key_proxy_image(monkeypatch)


def pin_key_proxy_image(monkeypatch) -> None:
    from deployment_config import support_images

    monkeypatch.setattr(support_images, "CADDY_IMAGE", f"{support_images.CADDY_IMAGE}@{DIGEST}")


def expect_identity(aws, account: str = "123456789012") -> None:
    identity = {
        "Account": account,
        "Arn": f"arn:aws:sts::{account}:assumed-role/Admin/me",
        "UserId": "AROAEXAMPLE:me",
    }
    aws.stub("sts").add_response("get_caller_identity", identity, {})


def expect_reservation(aws, **overrides) -> None:
    item = reservation(
        reservation_id=RESERVATION, **{k: v for k, v in overrides.items() if k != "end"}
    )
    if "end" in overrides:
        item["EndDate"] = overrides["end"]
    aws.stub("ec2").add_response(
        "describe_capacity_reservations",
        {"CapacityReservations": [item]},
        {"CapacityReservationIds": [RESERVATION]},
    )


def expect_offered(aws, offered: bool = True) -> None:
    item = {
        "InstanceType": "p6-b300.48xlarge",
        "LocationType": "availability-zone",
        "Location": "us-west-2a",
    }
    items = [item] if offered else []
    aws.stub("ec2").add_response(
        "describe_instance_type_offerings",
        {"InstanceTypeOfferings": items},
        {
            "LocationType": "availability-zone",
            "Filters": [
                {"Name": "instance-type", "Values": ["p6-b300.48xlarge"]},
                {"Name": "location", "Values": ["us-west-2a"]},
            ],
        },
    )


def expect_bootstrap(aws, exists: bool = True) -> None:
    cfn = aws.stub("cloudformation")
    if exists:
        cfn.add_response(
            "describe_stacks",
            {
                "Stacks": [
                    {
                        "StackName": "CDKToolkit",
                        "StackStatus": "UPDATE_COMPLETE",
                        "CreationTime": NOW,
                    }
                ]
            },
            {"StackName": "CDKToolkit"},
        )
    else:
        cfn.add_client_error(
            "describe_stacks",
            **client_error("ValidationError", "Stack with id CDKToolkit does not exist"),
        )


def instance_type_info(
    efa_cards=range(1, 17),
    gpu_memory_mib: int = 275040,
    gpus: int = 8,
    cards: int = 17,
    interface_types: bool = True,
) -> dict:
    """DescribeInstanceTypes' answer for p6-b300.48xlarge: 8 B300 GPUs; 17 network cards, card 0 ENA only (the primary
    interface), cards 1-16 EFA."""

    def card(index: int) -> dict:
        item = {
            "NetworkCardIndex": index,
            "NetworkPerformance": "400 Gigabit",
            "MaximumNetworkInterfaces": 2,
            "BaselineBandwidthInGbps": 400.0,
            "PeakBandwidthInGbps": 400.0,
        }
        if interface_types:
            item["InterfaceTypes"] = (
                ["interface", "efa", "efa-only"] if index in efa_cards else ["interface"]
            )
        return item

    return {
        "InstanceType": P6_B300,
        "CurrentGeneration": True,
        "BareMetal": False,
        "Hypervisor": "nitro",
        "SupportedUsageClasses": ["capacity-block"],
        "VCpuInfo": {"DefaultVCpus": 192},
        "MemoryInfo": {"SizeInMiB": 4096 * 1024},
        "GpuInfo": {
            "Gpus": [
                {
                    "Name": "B300",
                    "Manufacturer": "NVIDIA",
                    "Count": gpus,
                    "MemoryInfo": {"SizeInMiB": gpu_memory_mib},
                }
            ],
            "TotalGpuMemoryInMiB": gpus * gpu_memory_mib,
        },
        "NetworkInfo": {
            "NetworkPerformance": "6400 Gigabit",
            "MaximumNetworkInterfaces": 2 * cards,
            "MaximumNetworkCards": cards,
            "DefaultNetworkCardIndex": 0,
            "EnaSupport": "required",
            "EfaSupported": True,
            "EfaInfo": {"MaximumEfaInterfaces": len(efa_cards)},
            "NetworkCards": [card(i) for i in range(cards)],
        },
    }


def expect_instance_type(aws, **overrides) -> None:
    aws.stub("ec2").add_response(
        "describe_instance_types",
        {"InstanceTypes": [instance_type_info(**overrides)]},
        {"InstanceTypes": [P6_B300]},
    )


def addon_versions(
    name: str, versions: list[str], default: str | None = None, kubernetes: str = KUBERNETES
) -> dict:
    """One page of DescribeAddonVersions for one add-on, newest version first as EKS lists them."""
    return {
        "addons": [
            {
                "addonName": name,
                "type": "networking",
                "publisher": "eks",
                "owner": "aws",
                "addonVersions": [
                    {
                        "addonVersion": version,
                        "architecture": ["amd64", "arm64"],
                        "computeTypes": ["ec2"],
                        "compatibilities": [
                            {
                                "clusterVersion": kubernetes,
                                "platformVersions": ["*"],
                                "defaultVersion": version == default,
                            }
                        ],
                        "requiresConfiguration": False,
                        "requiresIamPermissions": False,
                    }
                    for version in versions
                ],
            }
        ]
    }


def expect_addon_versions(aws, name: str, answer: dict, token: str | None = None) -> None:
    params = {
        "addonName": name,
        "kubernetesVersion": KUBERNETES,
        **({"nextToken": token} if token else {}),
    }
    aws.stub("eks").add_response("describe_addon_versions", answer, params)


#: EKS's default versions for Kubernetes 1.34 in the "all good" answers (EKS chooses these for unpinned add-ons).
DEFAULTS = {
    "vpc-cni": ["v1.20.4-eksbuild.2", "v1.20.4-eksbuild.1", "v1.19.6-eksbuild.7"],
    "kube-proxy": ["v1.34.1-eksbuild.2", "v1.34.0-eksbuild.4"],
    "eks-pod-identity-agent": ["v1.3.9-eksbuild.3"],
    "coredns": ["v1.12.4-eksbuild.1", "v1.12.3-eksbuild.1"],
}
#: The versions offered for the add-ons the project pins (the pinned one and a newer one).
PINNED = {
    "cert-manager": ["v1.18.3-eksbuild.1", "v1.18.2-eksbuild.2"],
    "metrics-server": ["v0.8.0-eksbuild.2", "v0.7.2-eksbuild.4"],
    "aws-mountpoint-s3-csi-driver": ["v2.1.0-eksbuild.1", "v1.14.1-eksbuild.1"],
    "aws-fsx-csi-driver": ["v1.7.0-eksbuild.1", "v1.6.0-eksbuild.1"],
    "amazon-sagemaker-hyperpod-inference": [
        "v1.3.0-eksbuild.1",
        "v1.2.1-eksbuild.1",
        "v1.0.1-eksbuild.1",
        "v1.0.0-eksbuild.1",
    ],
}

#: A small schema of the shape EKS publishes for the Inference Operator add-on (DescribeAddonConfiguration).
OPERATOR_SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "additionalProperties": False,
    "required": ["executionRoleArn", "tlsCertificateS3Bucket", "hyperpodClusterArn"],
    "properties": {
        "executionRoleArn": {
            "type": "string",
            "pattern": "^arn:aws[a-z-]*:iam::[0-9]{12}:role/.+$",
        },
        "tlsCertificateS3Bucket": {"type": "string", "minLength": 3, "maxLength": 63},
        "hyperpodClusterArn": {
            "type": "string",
            "pattern": "^arn:aws[a-z-]*:sagemaker:[a-z0-9-]+:[0-9]{12}:cluster/.+$",
        },
        "jumpstartGatedModelDownloadRoleArn": {"type": "string"},
        "alb": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "enabled": {"type": "boolean"},
                "serviceAccount": {
                    "type": "object",
                    "additionalProperties": False,
                    "properties": {"create": {"type": "boolean"}, "roleArn": {"type": "string"}},
                },
            },
        },
        "keda": {
            "type": "object",
            "properties": {"enabled": {"type": "boolean"}, "auth": {"type": "object"}},
        },
    },
}


#: A small schema of the shape of the HyperPod observability add-on's keys (AWS's Terraform module writes them; see
#: deployment_config/addons.py): the workspace required, the levels each category accepts there.
GPU_METRICS_SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "additionalProperties": False,
    "required": ["ampWorkspace"],
    "properties": {
        "ampWorkspace": {
            "type": "object",
            "required": ["prometheusEndpoint", "arn"],
            "properties": {
                "prometheusEndpoint": {
                    "type": "string",
                    "pattern": "^https://aps-workspaces\\.[a-z0-9-]+\\.amazonaws\\.com/"
                    "workspaces/ws-[0-9a-f-]+$",
                },
                "arn": {
                    "type": "string",
                    "pattern": "^arn:aws[a-z-]*:aps:[a-z0-9-]+:[0-9]{12}:workspace/ws-[0-9a-f-]+$",
                },
            },
        },
        "amgWorkspace": {"type": "object"},
        "metricsProvider": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "properties": {
                    "level": {"type": "string", "enum": ["DISABLED", "BASIC", "ADVANCED"]},
                    "scrapeInterval": {"type": "integer", "minimum": 1},
                },
            },
        },
        "logging": {"type": "object", "properties": {"enabled": {"type": "boolean"}}},
    },
}
#: The versions offered for the HyperPod observability add-on (the pinned one and a newer one).
GPU_METRICS_VERSIONS = ["v1.0.6-eksbuild.1", HYPERPOD_OBSERVABILITY.version]


def expect_gpu_metrics_addon(
    aws, versions: list[str] = GPU_METRICS_VERSIONS, schema: dict | None = GPU_METRICS_SCHEMA
) -> None:
    """The HyperPod observability add-on (the observability stack's, after the operator): offered, and with ``schema``
    its configuration checked against it (None: the pinned version is not offered, so no schema is asked for)."""
    name = HYPERPOD_OBSERVABILITY.name
    expect_addon_versions(aws, name, addon_versions(name, versions, default=versions[0]))
    if schema is not None:
        expect_addon_configuration(aws, name, HYPERPOD_OBSERVABILITY.version, schema)


def expect_addon_configuration(aws, name: str, version: str, schema: dict) -> None:
    aws.stub("eks").add_response(
        "describe_addon_configuration",
        {"addonName": name, "addonVersion": version, "configurationSchema": json.dumps(schema)},
        {"addonName": name, "addonVersion": version},
    )


#: Schemas of the shape EKS publishes (DescribeAddonConfiguration) for the add-ons the project configures: the keys
#: the project sets, typed; everything else allowed, as the charts' own schemas do.
VPC_CNI_SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {"enableNetworkPolicy": {"type": "string", "enum": ["true", "false"]}},
}
OPEN_SCHEMA = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"}
#: The EKS path's own add-ons: the versions offered (the pinned one among them) and a schema.
EKS_ONLY = {
    CLOUDWATCH_OBSERVABILITY.name: ["v4.11.0-eksbuild.1", CLOUDWATCH_OBSERVABILITY.version],
    NODE_MONITORING_AGENT.name: ["v1.7.0-eksbuild.1", NODE_MONITORING_AGENT.version],
    SECRETS_STORE_CSI_PROVIDER.name: ["v2.1.1-eksbuild.1", "v2.0.0-eksbuild.1"],
}


def expect_network_addons(aws) -> None:
    """vpc-cni (with its network-policy configuration), kube-proxy, eks-pod-identity-agent and coredns: both platforms."""
    for name, versions in DEFAULTS.items():
        expect_addon_versions(aws, name, addon_versions(name, versions, default=versions[-1]))
        if name == "vpc-cni":
            expect_addon_configuration(aws, name, versions[-1], VPC_CNI_SCHEMA)


def expect_eks_only_addons(aws) -> None:
    """CloudWatch observability, node monitoring agent, Secrets Store CSI provider: each offered and configured."""
    for name, versions in EKS_ONLY.items():
        default = versions[-1]
        expect_addon_versions(aws, name, addon_versions(name, versions, default=default))
        pinned = {
            CLOUDWATCH_OBSERVABILITY.name: CLOUDWATCH_OBSERVABILITY.version,
            NODE_MONITORING_AGENT.name: NODE_MONITORING_AGENT.version,
        }.get(name, default)
        expect_addon_configuration(aws, name, pinned, OPEN_SCHEMA)


def expect_container_insights_addon(aws) -> None:
    """Container Insights on the HyperPod path (the worker's log; its GPU metrics off): offered at its pin, configured."""
    name = CLOUDWATCH_OBSERVABILITY.name
    expect_addon_versions(
        aws, name, addon_versions(name, EKS_ONLY[name], default=EKS_ONLY[name][-1])
    )
    expect_addon_configuration(aws, name, CLOUDWATCH_OBSERVABILITY.version, OPEN_SCHEMA)


def expect_secrets_store_addon(aws) -> None:
    """The Secrets Store CSI provider on the HyperPod path: offered, its default version's schema asked, after coredns
    (the cluster stack installs it on both platforms; deployment_config.environment_addons.addons_for)."""
    name = SECRETS_STORE_CSI_PROVIDER.name
    versions = EKS_ONLY[name]
    expect_addon_versions(aws, name, addon_versions(name, versions, default=versions[-1]))
    expect_addon_configuration(aws, name, versions[-1], OPEN_SCHEMA)


def expect_addons(aws, hyperpod: bool = False, operator_schema: dict = OPERATOR_SCHEMA) -> None:
    """The "all good" answers for every add-on of the platform, in the order the stacks install them."""
    expect_network_addons(aws)
    if hyperpod:
        expect_container_insights_addon(aws)
        expect_secrets_store_addon(aws)
        for name, versions in PINNED.items():
            expect_addon_versions(aws, name, addon_versions(name, versions, default=versions[0]))
        expect_addon_configuration(
            aws, INFERENCE_OPERATOR.name, INFERENCE_OPERATOR.version, operator_schema
        )
        expect_gpu_metrics_addon(aws)
        expect_operator_installed(aws, None)
    else:
        expect_eks_only_addons(aws)


def expect_operator_installed(
    aws, version: str | None, cluster: str = "example-hyperpod-llm"
) -> None:
    """eks:DescribeAddon of the Inference Operator add-on on the cluster: at ``version``, or (None) not installed."""
    params = {"clusterName": cluster, "addonName": INFERENCE_OPERATOR.name}
    if version is None:
        aws.stub("eks").add_client_error(
            "describe_addon",
            expected_params=params,
            **client_error(
                "ResourceNotFoundException",
                f"No addon: {INFERENCE_OPERATOR.name} found in cluster: {cluster}",
                404,
            ),
        )
        return
    aws.stub("eks").add_response(
        "describe_addon",
        {
            "addon": {
                "addonName": INFERENCE_OPERATOR.name,
                "clusterName": cluster,
                "status": "ACTIVE",
                "addonVersion": version,
            }
        },
        params,
    )


def expect_node_group(aws, desired: int | None = None, name: str = "gpu-capacity-block") -> None:
    """The GPU node group ``name`` at ``desired`` size, or (None) not created yet."""
    params = {"clusterName": "example-llm", "nodegroupName": name}
    if desired is None:
        aws.stub("eks").add_client_error(
            "describe_nodegroup",
            expected_params=params,
            **client_error(
                "ResourceNotFoundException",
                f"No node group found for name: {name}.",
                404,
            ),
        )
        return
    aws.stub("eks").add_response(
        "describe_nodegroup",
        {
            "nodegroup": {
                "nodegroupName": name,
                "clusterName": "example-llm",
                "status": "ACTIVE",
                "capacityType": "CAPACITY_BLOCK",
                "scalingConfig": {"minSize": 0, "maxSize": 1, "desiredSize": desired},
            }
        },
        params,
    )


def expect_facts_and_addons(aws, hyperpod: bool = False) -> None:
    """The "all good" answers of the instance type facts and add-on checks."""
    expect_instance_type(aws)
    expect_addons(aws, hyperpod=hyperpod)


def expect_mirrored(aws, bucket: str, prefix: str, region: str = "us-west-2") -> None:
    aws.stub("s3").add_response("head_bucket", {"BucketRegion": region}, {"Bucket": bucket})
    aws.stub("s3").add_response(
        "head_object",
        {"ContentLength": 23456},
        {"Bucket": bucket, "Key": f"{prefix}{REVISION}/MANIFEST.json"},
    )


def rows(result) -> dict[str, dict]:
    return {c["check"]: c for c in result.json["checks"]}


def expect_eks(
    aws,
    *,
    zone: str = "us-west-2a",
    node_group: int | None = None,
    instance_type: dict | None = None,
    addons=None,
    state: str = "active",
) -> None:
    """Stub every call of an EKS preflight, in order, with good answers except the ones given."""
    expect_identity(aws)
    expect_reservation(aws, state=state, zone=zone, end=NOW + timedelta(days=2))
    if state == "active":
        expect_node_group(aws, node_group)
    expect_offered(aws)
    expect_instance_type(aws, **(instance_type or {}))
    (addons or expect_addons)(aws)
    expect_bootstrap(aws)


def test_everything_in_order_passes(aws, run):
    expect_eks(aws)
    result = run("preflight", "--env", "example", "--json")
    assert result.code == ExitCode.OK
    assert result.json["passed"] is True
    assert {c["status"] for c in result.json["checks"]} == {"pass"}
    assert list(rows(result)) == [
        "configuration",
        "model sizing",
        "image pinned by digest",
        "support images pinned by digest",
        "model revision pinned",
        "credentials",
        "reservation exists",
        "instance type and count",
        "availability zone",
        "state and time window",
        "GPU node group updates",
        "instance type offered",
        "instance type facts",
        "add-on vpc-cni",
        "add-on kube-proxy",
        "add-on eks-pod-identity-agent",
        "add-on coredns",
        "add-on amazon-cloudwatch-observability",
        "add-on eks-node-monitoring-agent",
        "add-on aws-secrets-store-csi-driver-provider",
        "EFA on the GPU nodes",
        "CDK bootstrap",
    ]
    checks = rows(result)
    assert checks["GPU node group updates"]["detail"] == "no GPU node group yet in example-llm"
    assert checks["instance type facts"]["detail"] == (
        "p6-b300.48xlarge: 8 x 275040 MiB GPUs, 17 network cards, "
        "EFA on cards 1-16 match the catalog"
    )
    assert checks["add-on coredns"]["detail"] == "default v1.12.3-eksbuild.1 for Kubernetes 1.34"


@pytest.mark.placeholders
def test_placeholder_values_fail_the_first_row_and_the_run_goes_on(aws, run):
    # given the example file, whose account, role and reservation are the example's placeholders
    expect_eks(aws)
    # when preflight runs
    result = run("preflight", "--env", "example", "--json")
    # then the first row fails and names them, and every other check still runs
    assert result.code == ExitCode.CHECK_FAILED and result.json["passed"] is False
    first = result.json["checks"][0]
    assert first["check"] == "placeholder values" and first["status"] == "fail"
    assert "account, cluster.admin_role_arn, capacity.capacity_reservation_id" in first["detail"]
    assert "capacity-blocks use" in first["fix"]
    assert [c["status"] for c in result.json["checks"][1:]] == ["pass"] * 19


def test_human_table_lists_the_new_rows(aws, run):
    expect_eks(aws)
    result = run("preflight", "--env", "example")
    assert result.code == ExitCode.OK
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["check", "result", "detail", "fix"]
    assert any(line.startswith("instance type facts") and " PASS " in line for line in lines)
    assert any(line.startswith("add-on vpc-cni") for line in lines)
    assert lines[-1] == "Preflight passed."


def test_credentials_of_another_account_stop_the_run(aws, run):
    expect_identity(aws, account="999999999999")
    result = run("preflight", "--env", "example")
    assert result.code == ExitCode.CHECK_FAILED
    assert (
        "FAIL" in result.stdout
        and "999999999999" in result.stdout
        and "Preflight FAILED" in result.stdout
    )


def test_reservation_in_another_zone_fails_with_the_fix(aws, run):
    expect_eks(aws, zone="us-west-2b")
    result = run("preflight", "--env", "example", "--json")
    assert result.code == ExitCode.CHECK_FAILED
    zone = rows(result)["availability zone"]
    assert zone["status"] == "fail" and "us-west-2b" in zone["fix"]


@pytest.mark.parametrize(
    "state, end, status",
    [
        ("expired", NOW - timedelta(hours=1), "fail"),
        ("active", NOW + timedelta(hours=5), "warn"),
        ("scheduled", NOW + timedelta(days=3), "warn"),
        ("payment-pending", NOW + timedelta(days=3), "warn"),
        # released by EC2 (EC2 user guide, capacity-blocks-view): it never becomes active
        ("payment-failed", NOW + timedelta(days=3), "fail"),
    ],
)
def test_reservation_window(aws, run, state, end, status):
    expect_identity(aws)
    expect_reservation(aws, state=state, end=end)
    if state == "active":
        expect_node_group(aws)
    expect_offered(aws)
    expect_facts_and_addons(aws)
    expect_bootstrap(aws)
    result = run("preflight", "--env", "example", "--json")
    assert rows(result)["state and time window"]["status"] == status
    assert ("GPU node group updates" in rows(result)) == (state == "active")
    assert result.code == (ExitCode.CHECK_FAILED if status == "fail" else ExitCode.OK)


def test_mismatched_instance_count_and_missing_bootstrap_and_offering(aws, run):
    expect_identity(aws)
    expect_reservation(aws, state="active", count=2, end=NOW + timedelta(days=2))
    expect_node_group(aws)
    expect_offered(aws, offered=False)
    expect_facts_and_addons(aws)
    expect_bootstrap(aws, exists=False)
    result = run("preflight", "--env", "example", "--json")
    checks = rows(result)
    assert checks["instance type and count"]["status"] == "fail"
    assert checks["instance type offered"]["status"] == "fail"
    assert checks["CDK bootstrap"]["status"] == "fail"
    assert checks["CDK bootstrap"]["fix"] == "npx cdk bootstrap aws://123456789012/us-west-2"


def test_missing_reservation(aws, run):
    expect_identity(aws)
    aws.stub("ec2").add_client_error(
        "describe_capacity_reservations", **client_error("InvalidCapacityReservationId.NotFound")
    )
    expect_offered(aws)
    expect_facts_and_addons(aws)
    expect_bootstrap(aws)
    result = run("preflight", "--env", "example", "--json")
    assert rows(result)["reservation exists"]["status"] == "fail"
    assert "GPU node group updates" not in rows(result)


def test_expired_credentials_end_the_run_at_the_credentials_row_after_the_local_rows(run, aws):
    # given credentials that AWS refuses as expired, with a message that quotes a secret
    aws.stub("sts").add_client_error(
        "get_caller_identity",
        **client_error(
            "ExpiredToken",
            "The security token included in the request is expired (session_token=FQoGZXIvYXdzEXAMPLE)",
            status=403,
        ),
    )
    # when preflight runs
    result = run("preflight", "--env", "example", "--json")
    # then the rows that need no AWS call are there, the credentials row says how to log in again, nothing else ran,
    # and the exit code is the credentials error's (4), not a failed check's (1)
    assert result.code == ExitCode.CREDENTIALS and result.json["kind"] == "CREDENTIALS"
    assert list(rows(result)) == [
        "configuration",
        "model sizing",
        "image pinned by digest",
        "support images pinned by digest",
        "model revision pinned",
        "credentials",
    ]
    credentials = rows(result)["credentials"]
    assert (
        credentials["status"] == "fail" and "AWS rejected the credentials" in credentials["detail"]
    )
    assert "aws sso login" in credentials["fix"] and "Traceback" not in result.stderr
    # and the secret is not printed back, in the row or in the error's fields of the --json answer
    assert (
        "FQoGZXIvYXdzEXAMPLE" not in result.stdout
        and "session_token=<redacted>" in credentials["detail"]
    )


def test_unknown_environment(run):
    result = run("preflight", "--env", "nope")
    assert result.code == ExitCode.USAGE and "there is no file" in result.stderr
    assert result.stderr.count("fix:") == 1


PLAN = "arn:aws:sagemaker:us-west-2:123456789012:training-plan/kimi-k3-example"


def expect_plan(
    aws,
    zone="us-west-2a",
    instance_type="ml.p6-b300.48xlarge",
    status="Active",
    end=NOW + timedelta(days=3),
):
    aws.stub("sagemaker").add_response(
        "describe_training_plan",
        {
            "TrainingPlanArn": PLAN,
            "TrainingPlanName": "kimi-k3-example",
            "Status": status,
            "StartTime": NOW - timedelta(hours=1),
            "EndTime": end,
            "TotalInstanceCount": 1,
            "ReservedCapacitySummaries": [
                {
                    "ReservedCapacityArn": f"{PLAN}/rc",
                    "InstanceType": instance_type,
                    "TotalInstanceCount": 1,
                    "Status": status,
                    "AvailabilityZone": zone,
                }
            ],
        },
        {"TrainingPlanName": "kimi-k3-example"},
    )
    # the HyperPod example's weights are mirrored to S3: its pinned revision's manifest (ops_cli/preflight_mirror.py)
    expect_mirrored(aws, "my-model-bucket", "moonshotai/Kimi-K3/")


def test_hyperpod_environment_checks_its_training_plan(aws, run):
    expect_identity(aws)
    expect_plan(aws)
    expect_facts_and_addons(aws, hyperpod=True)
    expect_bootstrap(aws)
    result = run("preflight", "--env", "example-hyperpod", "--json")
    assert result.code == ExitCode.OK, result.stdout
    # every row passes but the endpoint not rendered yet and the worker's /dev/shm, which warn (below)
    statuses = {c["check"]: c["status"] for c in result.json["checks"]}
    assert set(statuses.values()) == {"pass", "warn"}
    assert [name for name, status in statuses.items() if status == "warn"] == [
        "rendered endpoint",
        "worker /dev/shm",
    ]
    assert list(rows(result)) == [
        "configuration",
        "model sizing",
        "image pinned by digest",
        "model revision pinned",
        "rendered endpoint",
        "worker /dev/shm",
        "credentials",
        "training plan exists",
        "instance type and count",
        "availability zone",
        "state and time window",
        "instance type facts",
        "weights mirrored to S3",
        "add-on vpc-cni",
        "add-on kube-proxy",
        "add-on eks-pod-identity-agent",
        "add-on coredns",
        "add-on amazon-cloudwatch-observability",
        "add-on aws-secrets-store-csi-driver-provider",
        "add-on cert-manager",
        "add-on metrics-server",
        "add-on aws-mountpoint-s3-csi-driver",
        "add-on aws-fsx-csi-driver",
        "add-on amazon-sagemaker-hyperpod-inference",
        "add-on amazon-sagemaker-hyperpod-observability",
        "inference operator",
        "operator CRD",
        "EFA on the GPU nodes",
        "CDK bootstrap",
    ]
    # the pinned build, the operator version it installs per the published mapping, and the builds nothing maps
    operator = rows(result)["add-on amazon-sagemaker-hyperpod-inference"]
    assert operator["detail"] == (
        "v1.2.1-eksbuild.1 is offered for Kubernetes 1.34 (v1.2.1-eksbuild.1 installs "
        "operator 3.1 (chart 2.1.1); also offered, mapped to no operator version by any public "
        "source: v1.3.0-eksbuild.1, v1.0.1-eksbuild.1); the configuration matches its schema"
    )
    # before cdk synth there is no rendered endpoint (not checked: a warning with the synthesis to run, never a pass),
    # before the operator stack no CRD on the cluster: said, not failed
    endpoint = rows(result)["rendered endpoint"]
    assert endpoint["status"] == "warn" and endpoint["detail"].startswith("not checked:")
    assert endpoint["fix"].startswith("npx cdk synth -c env=example-hyperpod")
    assert (
        "not installed on example-hyperpod-llm yet" in rows(result)["inference operator"]["detail"]
    )
    assert "once the operator stack has installed" in rows(result)["operator CRD"]["detail"]


def test_training_plan_for_another_instance_type_and_zone(aws, run):
    expect_identity(aws)
    expect_plan(aws, zone="us-west-2b", instance_type="ml.p5en.48xlarge")
    expect_facts_and_addons(aws, hyperpod=True)
    expect_bootstrap(aws)
    result = run("preflight", "--env", "example-hyperpod", "--json")
    assert result.code == ExitCode.CHECK_FAILED
    checks = rows(result)
    mismatch = checks["instance type and count"]
    assert mismatch["status"] == "fail" and "ml.p5en.48xlarge" in mismatch["detail"]
    assert checks["availability zone"]["status"] == "fail"


def test_expired_training_plan(aws, run):
    expect_identity(aws)
    expect_plan(aws, status="Expired", end=NOW - timedelta(days=1))
    expect_facts_and_addons(aws, hyperpod=True)
    expect_bootstrap(aws)
    result = run("preflight", "--env", "example-hyperpod", "--json")
    assert rows(result)["state and time window"]["status"] == "fail"


# --- instance type facts: what EC2 says about the GPU instance type against deployment_config/catalog.py ---------------


def preflight_eks(aws, run, **answers) -> dict[str, dict]:
    """Run an EKS preflight whose answers are all good except the ones given (see :func:`expect_eks`)."""
    expect_eks(aws, **answers)
    result = run("preflight", "--env", "example", "--json")
    return rows(result) | {"_code": result.code}


def test_instance_type_facts_fail_when_ec2_puts_efa_on_card_0_and_gpu_memory_differs(aws, run):
    checks = preflight_eks(
        aws, run, instance_type={"efa_cards": range(0, 17), "gpu_memory_mib": 281600}
    )
    assert checks["_code"] == ExitCode.CHECK_FAILED
    facts = checks["instance type facts"]
    assert facts["status"] == "fail"
    assert "network cards with EFA: EC2 says 0-16, the project assumes 1-16" in facts["detail"]
    assert "memory per GPU: EC2 says 281600 MiB, the project assumes 275040 MiB" in facts["detail"]
    assert "GPUs:" not in facts["detail"] and "network cards: " not in facts["detail"]
    assert facts["fix"].startswith(
        "the launch template would be rejected or miss devices: correct "
        "deployment_config/catalog.py from `aws ec2 describe-instance-types "
        "--instance-types p6-b300.48xlarge`"
    )
    assert "efa-acc-inst-types" in facts["fix"]


def test_instance_type_facts_fail_on_gpu_and_card_counts(aws, run):
    checks = preflight_eks(
        aws, run, instance_type={"gpus": 4, "cards": 16, "efa_cards": range(1, 16)}
    )
    detail = checks["instance type facts"]["detail"]
    assert "GPUs: EC2 says 4, the project assumes 8" in detail
    assert "network cards: EC2 says 16, the project assumes 17" in detail
    assert "network cards with EFA: EC2 says 1-15, the project assumes 1-16" in detail


def test_instance_type_unknown_to_ec2_fails(aws, run):
    expect_identity(aws)
    expect_reservation(aws, state="scheduled", end=NOW + timedelta(days=3))
    expect_offered(aws)
    aws.stub("ec2").add_client_error(
        "describe_instance_types",
        expected_params={"InstanceTypes": [P6_B300]},
        **client_error(
            "InvalidInstanceType",
            "The following supplied instance types do not exist: [p6-b300.48xlarge]",
        ),
    )
    expect_addons(aws)
    expect_bootstrap(aws)
    result = run("preflight", "--env", "example", "--json")
    facts = rows(result)["instance type facts"]
    assert result.code == ExitCode.CHECK_FAILED
    assert (
        facts["status"] == "fail"
        and facts["detail"] == "EC2 does not know p6-b300.48xlarge in us-west-2"
    )
    assert (
        "aws ec2 describe-instance-types --instance-types p6-b300.48xlarge --region us-west-2"
        in facts["fix"]
    )


def test_instance_type_facts_warn_when_ec2_does_not_report_interface_types(aws, run):
    checks = preflight_eks(aws, run, instance_type={"interface_types": False})
    facts = checks["instance type facts"]
    assert facts["status"] == "warn" and "the project assumes 1-16" in facts["detail"]


def test_hyperpod_instance_type_facts_use_the_ec2_name_and_fail_on_a_difference(aws, run):
    expect_identity(aws)
    expect_plan(aws)
    expect_instance_type(
        aws, efa_cards=range(0, 17)
    )  # asked for p6-b300.48xlarge, not ml.p6-b300.48xlarge
    expect_addons(aws, hyperpod=True)
    expect_bootstrap(aws)
    result = run("preflight", "--env", "example-hyperpod", "--json")
    assert result.code == ExitCode.CHECK_FAILED
    assert (
        "EC2 says 0-16, the project assumes 1-16" in rows(result)["instance type facts"]["detail"]
    )


@pytest.mark.parametrize(
    "cards, text", [((1, 2, 3, 5, 7, 8), "1-3, 5, 7-8"), ((0,), "0"), ((), "none")]
)
def test_card_ranges(cards, text):
    assert card_ranges(cards) == text


# --- add-ons: offered for the cluster's Kubernetes version, configuration valid against the add-on's schema ------------


def test_addon_not_offered_for_the_kubernetes_version_fails(aws, run):
    def addons(aws):
        expect_addon_versions(
            aws, "vpc-cni", {"addons": []}
        )  # not offered: its configuration is not asked for
        for name in ("kube-proxy", "eks-pod-identity-agent", "coredns"):
            expect_addon_versions(
                aws, name, addon_versions(name, DEFAULTS[name], default=DEFAULTS[name][-1])
            )
        expect_eks_only_addons(aws)

    checks = preflight_eks(aws, run, addons=addons)
    assert checks["_code"] == ExitCode.CHECK_FAILED
    cni = checks["add-on vpc-cni"]
    assert (
        cni["status"] == "fail"
        and cni["detail"] == "vpc-cni is not offered for Kubernetes 1.34 in us-west-2"
    )
    assert "aws eks describe-addon-versions --addon-name vpc-cni" in cni["fix"]
    assert checks["add-on coredns"]["status"] == "pass"


def test_addon_versions_follow_next_token(aws, run):
    def addons(aws):
        expect_addon_versions(
            aws,
            "vpc-cni",
            {**addon_versions("vpc-cni", ["v1.20.4-eksbuild.2"]), "nextToken": "page-2"},
        )
        expect_addon_versions(
            aws,
            "vpc-cni",
            addon_versions("vpc-cni", ["v1.19.6-eksbuild.7"], default="v1.19.6-eksbuild.7"),
            token="page-2",
        )
        expect_addon_configuration(aws, "vpc-cni", "v1.19.6-eksbuild.7", VPC_CNI_SCHEMA)
        for name in ("kube-proxy", "eks-pod-identity-agent", "coredns"):
            expect_addon_versions(
                aws, name, addon_versions(name, DEFAULTS[name], default=DEFAULTS[name][-1])
            )
        expect_eks_only_addons(aws)

    checks = preflight_eks(aws, run, addons=addons)
    assert checks["add-on vpc-cni"] == {
        "check": "add-on vpc-cni",
        "status": "pass",
        "detail": "default v1.19.6-eksbuild.7 for Kubernetes 1.34; the configuration matches its schema",
        "fix": "",
    }


def test_addon_versions_for_another_kubernetes_version_do_not_count(aws, run):
    def addons(aws):
        expect_addon_versions(
            aws, "vpc-cni", addon_versions("vpc-cni", ["v1.20.4-eksbuild.2"], kubernetes="1.33")
        )
        for name in ("kube-proxy", "eks-pod-identity-agent", "coredns"):
            expect_addon_versions(
                aws, name, addon_versions(name, DEFAULTS[name], default=DEFAULTS[name][-1])
            )
        expect_eks_only_addons(aws)

    assert preflight_eks(aws, run, addons=addons)["add-on vpc-cni"]["status"] == "fail"


def expect_hyperpod_addons(
    aws,
    offered: dict[str, list[str]] | None = None,
    schema: dict = OPERATOR_SCHEMA,
    configuration_version: str | None = INFERENCE_OPERATOR.version,
    gpu_metrics: dict | None = None,
    operator_installed: str | None = None,
) -> None:
    expect_network_addons(aws)
    expect_container_insights_addon(aws)
    expect_secrets_store_addon(aws)
    for name, versions in {**PINNED, **(offered or {})}.items():
        expect_addon_versions(aws, name, addon_versions(name, versions, default=versions[0]))
    if configuration_version:
        expect_addon_configuration(aws, INFERENCE_OPERATOR.name, configuration_version, schema)
    expect_gpu_metrics_addon(aws, **(gpu_metrics or {}))
    expect_operator_installed(aws, operator_installed)


def preflight_hyperpod(aws, run, **addons) -> dict[str, dict]:
    expect_identity(aws)
    expect_plan(aws)
    expect_instance_type(aws)
    expect_hyperpod_addons(aws, **addons)
    expect_bootstrap(aws)
    result = run("preflight", "--env", "example-hyperpod", "--json")
    return rows(result) | {"_code": result.code}


def test_pinned_addon_version_not_offered_lists_the_newest_five(aws, run):
    offered = [
        f"v1.{minor}.0-eksbuild.1" for minor in (12, 18, 15, 14, 19, 16, 13)
    ]  # in no particular order
    checks = preflight_hyperpod(aws, run, offered={"cert-manager": offered})
    assert checks["_code"] == ExitCode.CHECK_FAILED
    cert = checks["add-on cert-manager"]
    assert cert["status"] == "fail"
    assert cert["detail"] == (
        "v1.18.2-eksbuild.2 is not offered for Kubernetes 1.34; offered: v1.19.0-eksbuild.1, "
        "v1.18.0-eksbuild.1, v1.16.0-eksbuild.1, v1.15.0-eksbuild.1, v1.14.0-eksbuild.1 (and 2 older)"
    )
    assert "deployment_config/addons.py" in cert["fix"]


def test_operator_version_not_offered_skips_its_configuration(aws, run):
    checks = preflight_hyperpod(
        aws,
        run,
        offered={INFERENCE_OPERATOR.name: ["v1.0.1-eksbuild.1"]},
        configuration_version=None,
    )
    operator = checks["add-on amazon-sagemaker-hyperpod-inference"]
    assert operator["status"] == "fail" and "offered: v1.0.1-eksbuild.1" in operator["detail"]


def test_operator_configuration_missing_a_required_key_fails_with_its_json_path(aws, run):
    schema = json.loads(json.dumps(OPERATOR_SCHEMA))
    schema["required"].append("region")
    schema["properties"]["region"] = {"type": "string"}
    schema["properties"]["keda"]["properties"]["enabled"] = {"type": "string"}
    checks = preflight_hyperpod(aws, run, schema=schema)
    assert checks["_code"] == ExitCode.CHECK_FAILED
    operator = checks["add-on amazon-sagemaker-hyperpod-inference"]
    assert operator["status"] == "fail"
    assert operator["detail"] == (
        "v1.2.1-eksbuild.1 is offered for Kubernetes 1.34 (v1.2.1-eksbuild.1 installs "
        "operator 3.1 (chart 2.1.1); also offered, mapped to no operator version by any public "
        "source: v1.3.0-eksbuild.1, v1.0.1-eksbuild.1), but its configuration does not "
        "match the add-on's schema: $: 'region' is a required property; "
        "$.keda.enabled: True is not of type 'string'"
    )
    assert operator["fix"].startswith(
        "correct the configuration in deployment_config/addons.py from "
        "`aws eks describe-addon-configuration --addon-name "
        "amazon-sagemaker-hyperpod-inference --addon-version v1.2.1-eksbuild.1`"
    )


def test_operator_configuration_with_a_key_the_schema_does_not_know_fails(aws):
    """additionalProperties: false at the top and under alb.serviceAccount: a misspelt key is an error, not ignored."""
    env = load_environment(CONFIG_DIR, "example-hyperpod")
    pin = AddonPin(INFERENCE_OPERATOR.name, INFERENCE_OPERATOR.version, "test")
    expect_addon_versions(aws, pin.name, addon_versions(pin.name, PINNED[pin.name]))
    expect_addon_configuration(aws, pin.name, pin.version, OPERATOR_SCHEMA)
    configuration = {
        "executionRoleArn": "arn:aws:iam::123456789012:role/SageMakerHyperPodInference-x",
        "tlsCertificateS3Bucket": "x-tls-certificates",
        "hyperpodClusterArn": "arn:aws:sagemaker:us-west-2:123456789012:cluster/abcdefgh1234",
        "tlsCertificateBucket": "x",
        "alb": {"serviceAccount": {"create": True, "role": "r"}},
    }
    check = preflight._addon(aws.aws("us-west-2"), env, pin, configuration)
    assert check.status is preflight.Status.FAIL
    assert (
        "$: Additional properties are not allowed ('tlsCertificateBucket' was unexpected)"
        in check.detail
    )
    assert (
        "$.alb.serviceAccount: Additional properties are not allowed ('role' was unexpected)"
        in check.detail
    )


def test_schema_with_another_draft_is_validated_with_that_draft(aws):
    env = load_environment(CONFIG_DIR, "example-hyperpod")
    pin = AddonPin(INFERENCE_OPERATOR.name, INFERENCE_OPERATOR.version, "test")
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {"replicas": {"type": "integer", "exclusiveMinimum": 0}},
    }
    expect_addon_versions(aws, pin.name, addon_versions(pin.name, PINNED[pin.name]))
    expect_addon_configuration(aws, pin.name, pin.version, schema)
    check = preflight._addon(aws.aws("us-west-2"), env, pin, {"replicas": 0})
    assert (
        check.status is preflight.Status.FAIL
        and "$.replicas: 0 is less than or equal to" in check.detail
    )


# --- GPU node group updates: a managed node group on a Capacity Block is updated only at desired size 0 ----------------


def test_running_gpu_node_group_warns_that_the_gpu_nodes_stack_cannot_change(aws, run):
    checks = preflight_eks(aws, run, node_group=1)
    assert checks["_code"] == ExitCode.OK  # a warning, not a failure
    group = checks["GPU node group updates"]
    assert group["status"] == "warn"
    assert (
        "a managed node group on a Capacity Block can only be updated at desired size 0: a change to the "
        "example-gpu-nodes stack (launch template, AMI, labels, taints, size) during the block fails"
    ) in group["detail"]
    assert "npx cdk deploy example-serving --exclusively -c env=example" in group["fix"]
    assert (
        "aws eks update-nodegroup-config --cluster-name example-llm --nodegroup-name gpu-capacity-block "
        "--scaling-config desiredSize=0"
    ) in group["fix"]


def test_gpu_node_group_at_size_0_can_be_updated(aws, run):
    group = preflight_eks(aws, run, node_group=0)["GPU node group updates"]
    assert group["status"] == "pass" and "desired size 0" in group["detail"]


def test_no_gpu_node_group_row_before_the_block_is_active(aws, run):
    checks = preflight_eks(aws, run, state="scheduled")
    assert "GPU node group updates" not in checks


# --- the TLS certificate of the endpoint (endpoint.certificate_arn, endpoint.domain_name) ------------------------------

CERTIFICATE = "arn:aws:acm:us-west-2:123456789012:certificate/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"


def with_tls(config_dir, domain: str = "llm.example.com") -> None:
    """The example environment with its endpoint behind TLS."""
    path = config_dir / "example.yaml"
    path.write_text(
        path.read_text().replace(
            "  exposure: internal",
            f"  exposure: internal\n  certificate_arn: {CERTIFICATE}\n  domain_name: {domain}",
        )
    )


def expect_certificate(
    aws,
    *,
    status: str = "ISSUED",
    names: tuple[str, ...] = ("llm.example.com",),
    not_after=NOW + timedelta(days=300),
    kind: str = "AMAZON_ISSUED",
) -> None:
    certificate = {
        "CertificateArn": CERTIFICATE,
        "DomainName": names[0],
        "SubjectAlternativeNames": list(names),
        "Status": status,
        "Type": kind,
        "NotAfter": not_after,
    }
    aws.stub("acm").add_response(
        "describe_certificate", {"Certificate": certificate}, {"CertificateArn": CERTIFICATE}
    )


@pytest.mark.parametrize(
    "answer, status, words",
    [
        ({}, "pass", "is issued and covers llm.example.com"),
        ({"names": ("*.example.com",)}, "pass", "covers llm.example.com"),
        ({"names": ("*.other.example.com", "api.example.com")}, "fail", "not llm.example.com"),
        ({"status": "PENDING_VALIDATION"}, "fail", "PENDING_VALIDATION, not ISSUED"),
        (
            {"not_after": NOW + timedelta(days=10)},
            "warn",
            "ACM renews it once its validation record is in place",
        ),
        (
            {"not_after": NOW + timedelta(days=10), "kind": "IMPORTED"},
            "warn",
            "ACM does not renew an imported certificate",
        ),
    ],
)
def test_the_endpoints_certificate_is_issued_covers_the_domain_and_does_not_end_soon(
    aws, run, config_dir, answer, status, words
):
    # given an environment whose endpoint answers TLS with an ACM certificate
    with_tls(config_dir)
    expect_eks(aws)
    expect_certificate(aws, **answer)
    # when preflight runs
    result = run("preflight", "--env", "example", "--json")
    # then one row judges the certificate before the deploy does, an hour in
    row = rows(result)["TLS certificate"]
    assert row["status"] == status and words in row["detail"], row
    assert list(rows(result))[-2:] == ["TLS certificate", "CDK bootstrap"]
    assert result.code == (ExitCode.CHECK_FAILED if status == "fail" else ExitCode.OK)


def test_no_certificate_row_without_tls(aws, run):
    expect_eks(aws)
    assert "TLS certificate" not in rows(run("preflight", "--env", "example", "--json"))


@pytest.mark.parametrize(
    "pattern, name, covered",
    [
        ("llm.example.com", "LLM.example.com.", True),
        ("*.example.com", "llm.example.com", True),
        ("*.example.com", "a.llm.example.com", False),
        ("*.example.com", "example.com", False),
        ("api.example.com", "llm.example.com", False),
    ],
)
def test_certificate_names_cover_as_rfc_6125_says(pattern, name, covered):
    assert covers(pattern, name) is covered


# --- the HyperPod observability add-on (GPU metrics): pinned version offered, configuration against its schema ----------


def test_hyperpod_observability_add_on_is_checked_at_its_pin_with_the_workspace_configuration(
    aws, run
):
    checks = preflight_hyperpod(aws, run)
    assert checks["_code"] == ExitCode.OK
    row = checks["add-on amazon-sagemaker-hyperpod-observability"]
    assert row["status"] == "pass"
    assert row["detail"] == (
        f"{HYPERPOD_OBSERVABILITY.version} is offered for Kubernetes 1.34; "
        "the configuration matches its schema"
    )


def test_hyperpod_observability_add_on_not_offered_at_its_pin_fails_and_names_the_source(aws, run):
    checks = preflight_hyperpod(
        aws,
        run,
        gpu_metrics={"versions": ["v1.0.6-eksbuild.1", "v1.0.4-eksbuild.1"], "schema": None},
    )
    assert checks["_code"] == ExitCode.CHECK_FAILED
    row = checks["add-on amazon-sagemaker-hyperpod-observability"]
    assert (
        row["status"] == "fail" and "offered: v1.0.6-eksbuild.1, v1.0.4-eksbuild.1" in row["detail"]
    )
    assert (
        "deployment_config/addons.py" in row["fix"] and "hyperpod-observability-addon" in row["fix"]
    )


def test_hyperpod_observability_add_on_with_a_level_its_schema_refuses_fails_with_the_json_path(
    aws, run
):
    schema = json.loads(json.dumps(GPU_METRICS_SCHEMA))
    schema["properties"]["metricsProvider"]["additionalProperties"]["properties"]["level"][
        "enum"
    ] = ["BASIC", "ADVANCED"]
    checks = preflight_hyperpod(aws, run, gpu_metrics={"schema": schema})
    row = checks["add-on amazon-sagemaker-hyperpod-observability"]
    assert row["status"] == "fail"
    assert (
        "$.metricsProvider.networkMetrics.level: 'DISABLED' is not one of ['BASIC', 'ADVANCED']"
        in row["detail"]
    )


@pytest.mark.unpinned
def test_a_real_environment_with_an_image_tag_and_no_model_revision_fails_with_the_commands_that_give_them(
    aws, run
):
    # given an environment that is not an example, whose image is a tag and whose model has no pinned revision
    expect_eks(aws)
    # when preflight runs
    result = run("preflight", "--env", "example", "--json")
    # then both rows fail, each with the command that gives the digest or the commit, and the other checks still run
    assert result.code == ExitCode.CHECK_FAILED
    checks = rows(result)
    image, revision = checks["image pinned by digest"], checks["model revision pinned"]
    assert image["status"] == revision["status"] == "fail"
    assert "vllm/vllm-openai:kimi-k3 names a tag" in image["detail"]
    assert (
        "docker buildx imagetools inspect vllm/vllm-openai:kimi-k3 --format '{{json .Manifest}}'"
        in image["fix"]
    )
    assert "crane digest vllm/vllm-openai:kimi-k3" in image["fix"]
    assert (
        "--trust-remote-code" in revision["detail"]
    )  # the preset's: the repository's code would run unpinned
    assert "https://huggingface.co/api/models/moonshotai/Kimi-K3/revision/main" in revision["fix"]
    assert "model.hugging_face_revision: COMMIT" in revision["fix"]
    assert checks["credentials"]["status"] == "pass"


@pytest.mark.unpinned
def test_unpinned_s3_weights_point_at_the_mirror(aws, run, config_dir):
    path = config_dir / "example.yaml"
    path.write_text(
        path.read_text().replace(
            "weight_source: huggingface",
            "weight_source: s3\n  s3_uri: s3://weights-bucket/kimi-k3/",
            1,
        )
    )
    expect_eks(aws)
    revision = rows(run("preflight", "--env", "example", "--json"))["model revision pinned"]
    assert (
        revision["status"] == "fail"
        and "bin/llmops weights mirror --env example" in revision["fix"]
    )


@pytest.mark.placeholders
def test_an_example_environment_gets_no_pin_rows(aws, run):
    expect_eks(aws)
    assert not {"image pinned by digest", "model revision pinned"} & set(
        rows(run("preflight", "--env", "example", "--json"))
    )


def s3_weights(config_dir) -> None:
    """The pinned example (see ``pin``) with its weights from S3: the mirror of REVISION is what the nodes copy."""
    path = config_dir / "example.yaml"
    path.write_text(
        path.read_text().replace(
            "weight_source: huggingface",
            "weight_source: s3\n  s3_uri: s3://weights-bucket/kimi-k3/",
            1,
        )
    )


def pin_support_images(monkeypatch) -> None:
    """The AWS CLI and router images pinned by digest, as deployment_config/support_images.py asks a real user to."""
    from deployment_config import support_images

    for constant in ("AWS_CLI_IMAGE", "ROUTER_IMAGE"):
        monkeypatch.setattr(
            support_images, constant, f"{getattr(support_images, constant)}@{DIGEST}"
        )


@pytest.mark.unpinned
def test_the_key_check_image_by_tag_is_refused_with_the_command_that_pins_it(config_dir):
    # given an EKS environment that requires the key (the default): the key check in front of vLLM runs Caddy's image
    from deployment_config import support_images

    env = load_environment(config_dir, "example")
    assert support_images.support_images(env) == {"key-proxy": support_images.CADDY_IMAGE}
    # when it is by tag, the row fails naming the container and the command that reads its digest
    check = preflight_pins._support_images(env)
    assert check.status is preflight.Status.FAIL
    assert f"key-proxy runs {support_images.CADDY_IMAGE}: a tag" in check.detail
    assert f"crane digest {support_images.CADDY_IMAGE}" in check.fix


def test_s3_weights_with_the_aws_cli_image_by_tag_are_refused_with_the_command_that_pins_it(
    aws, run, config_dir
):
    # given a real environment with S3 weights: the fetch-weights init container runs the AWS CLI image, by tag
    s3_weights(config_dir)
    expect_eks(aws)
    expect_mirrored(aws, "weights-bucket", "kimi-k3/")
    # when preflight runs
    result = run("preflight", "--env", "example", "--json")
    # then its row fails, naming the container, the image and how to pin it, and the run goes on
    assert result.code == ExitCode.CHECK_FAILED
    row = rows(result)["support images pinned by digest"]
    assert row["status"] == "fail"
    assert "fetch-weights runs public.ecr.aws/aws-cli/aws-cli:2.27.49: a tag" in row["detail"]
    assert "crane digest public.ecr.aws/aws-cli/aws-cli:2.27.49" in row["fix"]
    assert "deployment_config/support_images.py" in row["fix"]
    assert rows(result)["weights mirrored to S3"]["status"] == "pass"


def test_a_router_image_by_tag_is_refused_and_a_pinned_one_passes(
    aws, run, config_dir, monkeypatch
):
    from deployment_config import support_images

    # given two replicas on EKS, which run the router in front of them
    env = load_environment(config_dir, "example")
    two = dataclasses.replace(env, endpoint=env.endpoint.model_copy(update={"replicas": 2}))
    assert support_images.support_images(two) == {
        "router": support_images.ROUTER_IMAGE,
        "key-proxy": support_images.CADDY_IMAGE,
    }
    check = preflight_pins._support_images(two)
    assert (
        check.status is preflight.Status.FAIL
        and "router runs docker.io/vllm/vllm-router:v" in check.detail
    )
    # when both images are pinned by digest, the row passes
    pin_support_images(monkeypatch)
    assert preflight_pins._support_images(two).status is preflight.Status.PASS


def test_a_pinned_revision_whose_mirror_finished_passes(aws, run, config_dir, monkeypatch):
    # given S3 weights at a pinned revision whose manifest the mirror wrote last, and the AWS CLI image by digest
    s3_weights(config_dir)
    pin_support_images(monkeypatch)
    expect_eks(aws)
    expect_mirrored(aws, "weights-bucket", "kimi-k3/")
    result = run("preflight", "--env", "example", "--json")
    row = rows(result)["weights mirrored to S3"]
    assert (
        row["status"] == "pass"
        and f"s3://weights-bucket/kimi-k3/{REVISION}/MANIFEST.json" in row["detail"]
    )
    assert result.code == ExitCode.OK


def test_a_pinned_revision_without_its_mirror_fails_before_the_block(aws, run, config_dir):
    # given S3 weights at a pinned revision that was never mirrored (or whose copy stopped before the manifest)
    s3_weights(config_dir)
    expect_eks(aws)
    aws.stub("s3").add_response(
        "head_bucket", {"BucketRegion": "us-west-2"}, {"Bucket": "weights-bucket"}
    )
    aws.stub("s3").add_client_error("head_object", **client_error("404", "Not Found", 404))
    result = run("preflight", "--env", "example", "--json")
    row = rows(result)["weights mirrored to S3"]
    # then the row fails, names the manifest it looked for and the command to run while only the system nodes run
    assert (
        row["status"] == "fail"
        and f"s3://weights-bucket/kimi-k3/{REVISION}/MANIFEST.json" in row["detail"]
    )
    assert (
        "before the block starts" in row["fix"]
        and "bin/llmops weights mirror --env example" in row["fix"]
    )
    assert result.code != ExitCode.OK and result.json["passed"] is False


def test_a_mirror_in_a_bucket_of_another_region_fails_before_the_block(aws, run, config_dir):
    # given S3 weights in a bucket of us-east-1 for an environment in us-west-2 (boto3 would follow S3's redirect)
    s3_weights(config_dir)
    expect_eks(aws)
    aws.stub("s3").add_response(
        "head_bucket", {"BucketRegion": "us-east-1"}, {"Bucket": "weights-bucket"}
    )
    result = run("preflight", "--env", "example", "--json")
    row = rows(result)["weights mirrored to S3"]
    # then the row fails: the nodes' CRT copy fails across regions, so the manifest is not even looked at
    assert (
        row["status"] == "fail"
        and "s3://weights-bucket is in us-east-1, not in us-west-2" in row["detail"]
    )
    assert "mirror into a bucket in us-west-2" in row["fix"]


def test_hub_weights_get_no_mirror_row(aws, run):
    expect_eks(aws)
    assert "weights mirrored to S3" not in rows(run("preflight", "--env", "example", "--json"))


SPECULATOR_REVISION = "89abcdef0123456789abcdef0123456789abcdef"


def test_with_spec_decoding_the_speculators_mirror_is_looked_up_too(aws, run, config_dir):
    # given S3 weights and spec_decoding, both revisions pinned; the weights mirrored, the speculator's copy unfinished
    s3_weights(config_dir)
    path = config_dir / "example.yaml"
    path.write_text(
        path.read_text().replace(
            "features: []",
            f"features: [spec_decoding]\n  speculator_size_gb: 8\n  speculator_revision: {SPECULATOR_REVISION}",
            1,
        )
    )
    expect_eks(aws)
    expect_mirrored(aws, "weights-bucket", "kimi-k3/")
    aws.stub("s3").add_client_error(
        "head_object",
        **client_error("404", "Not Found", 404),
        expected_params={
            "Bucket": "weights-bucket",
            "Key": f"kimi-k3/speculator/{SPECULATOR_REVISION}/MANIFEST.json",
        },
    )
    row = rows(run("preflight", "--env", "example", "--json"))["weights mirrored to S3"]
    # then the row fails on the speculator's manifest, with the command that mirrors it
    assert (
        row["status"] == "fail"
        and f"kimi-k3/speculator/{SPECULATOR_REVISION}/MANIFEST.json" in row["detail"]
    )
    assert "speculator" in row["detail"] and "bin/llmops weights mirror --env example" in row["fix"]


# --- the next Capacity Block (capacity.next_capacity_reservation_id, ops_cli/handover.py) -------------------------------

NEXT_RESERVATION = "cr-0fedcba9876543210"


def preflight_with_next(
    aws,
    run,
    config_dir,
    *,
    start,
    zone: str = "us-west-2a",
    desired: int = 1,
    running: tuple[int | None, int | None] = (None, None),
) -> dict[str, dict]:
    """An EKS preflight of the example with a next block starting at ``start``: the handover's row reads both
    reservations after the current block's rows. ``running``: the two GPU node groups' desired sizes as the updates
    row reads them (None: not deployed)."""
    path = config_dir / "example.yaml"
    line = f"  capacity_reservation_id: {RESERVATION}"
    path.write_text(
        path.read_text().replace(
            line, f"{line}\n  next_capacity_reservation_id: {NEXT_RESERVATION}", 1
        )
    )
    end = NOW + timedelta(days=2)
    expect_identity(aws)
    expect_reservation(aws, state="active", end=end)
    expect_node_group(aws, running[0])
    expect_node_group(aws, running[1], "gpu-capacity-block-next")
    current = reservation(state="active", reservation_id=RESERVATION)
    current["StartDate"], current["EndDate"] = NOW - timedelta(days=1), end
    nxt = reservation(state="scheduled", zone=zone, reservation_id=NEXT_RESERVATION)
    nxt["StartDate"], nxt["EndDate"] = start, start + timedelta(days=7)
    for item in (current, nxt):
        aws.stub("ec2").add_response(
            "describe_capacity_reservations",
            {"CapacityReservations": [item]},
            {"CapacityReservationIds": [item["CapacityReservationId"]]},
        )
    if zone == "us-west-2a":
        aws.stub("eks").add_response(
            "describe_nodegroup",
            {"nodegroup": {"scalingConfig": {"minSize": 0, "maxSize": 1, "desiredSize": desired}}},
            {"clusterName": "example-llm", "nodegroupName": "gpu-capacity-block-next"},
        )
    expect_offered(aws)
    expect_facts_and_addons(aws)
    expect_bootstrap(aws)
    result = run("preflight", "--env", "example", "--json")
    return rows(result) | {"_code": result.code}


def test_a_next_block_that_overlaps_enough_passes_its_own_row(aws, run, config_dir):
    checks = preflight_with_next(aws, run, config_dir, start=NOW + timedelta(days=1))
    row = checks["next Capacity Block"]
    assert row["status"] == "pass" and NEXT_RESERVATION in row["detail"]
    assert (
        list(checks).index("next Capacity Block")
        == list(checks).index("GPU node group updates") + 1
    )
    assert checks["_code"] == ExitCode.OK


def test_a_next_block_that_starts_after_the_drain_warns_that_there_is_a_gap(aws, run, config_dir):
    checks = preflight_with_next(aws, run, config_dir, start=NOW + timedelta(days=3))
    row = checks["next Capacity Block"]
    assert row["status"] == "warn" and "gap" in row["detail"]
    assert "bin/llmops handover --env example" in row["fix"]


def test_the_updates_row_warns_for_the_next_group_when_it_runs_nodes(aws, run, config_dir):
    # After a handover the nodes run in the next reservation's group: a GPU stack change would fail there too.
    checks = preflight_with_next(
        aws, run, config_dir, start=NOW + timedelta(days=1), running=(0, 1)
    )
    row = checks["GPU node group updates"]
    assert row["status"] == "warn"
    assert row["detail"].startswith("gpu-capacity-block-next runs 1 node(s)")
    assert "--nodegroup-name gpu-capacity-block-next --scaling-config desiredSize=0" in row["fix"]


def test_the_updates_row_names_both_groups_at_0(aws, run, config_dir):
    checks = preflight_with_next(
        aws, run, config_dir, start=NOW + timedelta(days=1), running=(0, 0)
    )
    row = checks["GPU node group updates"]
    assert row["status"] == "pass"
    assert "gpu-capacity-block and gpu-capacity-block-next are at desired size 0" in row["detail"]


def test_a_next_group_at_0_and_a_gap_warns_both(aws, run, config_dir):
    # The gap is the news a user can still act on (buy another block): it is not hidden behind the group's state.
    checks = preflight_with_next(aws, run, config_dir, start=NOW + timedelta(days=3), desired=0)
    row = checks["next Capacity Block"]
    assert row["status"] == "warn" and "next nodes will not start and gap" in row["detail"]
    assert "desired size 0" in row["detail"] and "gap:" in row["detail"]


def test_a_next_block_in_another_zone_fails_naming_the_field(aws, run, config_dir):
    checks = preflight_with_next(
        aws, run, config_dir, start=NOW + timedelta(days=1), zone="us-west-2b"
    )
    row = checks["next Capacity Block"]
    assert row["status"] == "fail" and "capacity.next_capacity_reservation_id" in row["detail"]
    assert "us-west-2a" in row["fix"] and checks["_code"] == ExitCode.CHECK_FAILED
