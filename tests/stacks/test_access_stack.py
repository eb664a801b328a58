"""The optional access host (access.enabled): what keeps it closed, what lets the admin role in, and that it is off by
default.

One synthesis, shared with tests/stacks/test_inventory.py and tests/docs/test_doc_figures.py (tests/shared_variants.py,
``access_assembly``): the example EKS environment and the example HyperPod environment, each with access on, in one
app (cdk-nag runs on both; cfn-lint checks both access templates).
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import subprocess
import zipfile
from pathlib import Path

import pytest

from tests.cfn_lint import cfn_lint_errors

INSTANCE = "AWS::EC2::Instance"


@pytest.fixture(scope="module")
def template(access_assembly, access_envs) -> dict:
    return access_assembly.get_stack_by_name(access_envs[0].stack_name("access")).template


def _of_type(template: dict, resource_type: str) -> dict[str, dict]:
    return {k: v for k, v in template["Resources"].items() if v["Type"] == resource_type}


def _host_group(template: dict) -> str:
    (instance,) = _of_type(template, INSTANCE).values()
    (interface,) = instance["Properties"]["NetworkInterfaces"]
    (group,) = interface["GroupSet"]
    return group["Fn::GetAtt"][0]


def _host_role(template: dict) -> str:
    """The host's role: the one EC2 assumes (the stack's other roles are its Lambda's, for destroy)."""
    (role_id,) = [
        k
        for k, r in _of_type(template, "AWS::IAM::Role").items()
        if r["Properties"]["AssumeRolePolicyDocument"]["Statement"][0]["Principal"]
        == {"Service": "ec2.amazonaws.com"}
    ]
    return role_id


def test_the_default_app_has_no_access_stack(synthesized, synthesized_hyperpod):
    # off by default: neither example environment has one
    assert (
        not synthesized.env_config.access.enabled
        and not synthesized_hyperpod.env_config.access.enabled
    )
    assert not [name for name in synthesized.templates if name.endswith("-access")]


def test_with_access_on_both_platforms_get_the_stack_after_their_cluster(
    access_assembly, access_envs
):
    for env in access_envs:
        stack = access_assembly.get_stack_by_name(env.stack_name("access"))
        assert env.stack_name("cluster") in [d.id for d in stack.dependencies]


def test_the_host_admits_nothing_in(template):
    group = _host_group(template)
    assert "SecurityGroupIngress" not in template["Resources"][group]["Properties"]
    # no separate ingress rule on the host's group either (the one ingress rule is the cluster's, from the host)
    for rule in _of_type(template, "AWS::EC2::SecurityGroupIngress").values():
        assert rule["Properties"]["GroupId"] != {"Fn::GetAtt": [group, "GroupId"]}


def test_the_host_has_imdsv2_only_no_key_no_public_address_and_encrypted_disks(template):
    (instance,) = _of_type(template, INSTANCE).values()
    properties = instance["Properties"]
    assert properties["MetadataOptions"]["HttpTokens"] == "required"
    assert properties["MetadataOptions"]["HttpPutResponseHopLimit"] == 1
    assert "KeyName" not in properties
    assert properties["NetworkInterfaces"][0]["AssociatePublicIpAddress"] is False
    assert properties["BlockDeviceMappings"] and all(
        m["Ebs"]["Encrypted"] for m in properties["BlockDeviceMappings"]
    )
    assert not _of_type(template, "AWS::EC2::Volume")


def test_the_host_role_has_session_manager_and_describes_only_its_cluster(template):
    role_id = _host_role(template)
    role = template["Resources"][role_id]
    (managed,) = role["Properties"]["ManagedPolicyArns"]
    assert managed["Fn::Join"][1][-1] == ":iam::aws:policy/AmazonSSMManagedInstanceCore"
    statements = [
        s
        for p in _of_type(template, "AWS::IAM::Policy").values()
        if {"Ref": role_id} in p["Properties"]["Roles"]
        for s in p["Properties"]["PolicyDocument"]["Statement"]
    ]
    eks_statements = [s for s in statements if str(s["Action"]).startswith("eks:")]
    (describe,) = eks_statements
    assert describe["Action"] == "eks:DescribeCluster"
    assert "ClusterSecurityGroupId" not in json.dumps(describe["Resource"]) and "Arn" in json.dumps(
        describe["Resource"]
    )
    # nothing else beyond reading its own two boot assets, by exact key
    (reads,) = [s for s in statements if s["Action"] == "s3:GetObject"]
    assert len(reads["Resource"]) == 2 and all(
        r["Fn::Join"][1][-1].endswith(".zip") for r in reads["Resource"]
    )
    assert len(statements) == 2


def test_the_cluster_api_admits_https_from_the_host(template):
    group = _host_group(template)
    (rule,) = _of_type(template, "AWS::EC2::SecurityGroupIngress").values()
    properties = rule["Properties"]
    assert (properties["IpProtocol"], properties["FromPort"], properties["ToPort"]) == (
        "tcp",
        443,
        443,
    )
    assert properties["SourceSecurityGroupId"] == {"Fn::GetAtt": [group, "GroupId"]}
    assert "ClusterSecurityGroupId" in properties["GroupId"]["Fn::ImportValue"]


def test_the_host_role_gets_an_access_entry_on_the_cluster(template):
    role_id = _host_role(template)
    (entry,) = _of_type(template, "AWS::EKS::AccessEntry").values()
    assert entry["Properties"]["PrincipalArn"] == {"Fn::GetAtt": [role_id, "Arn"]}
    (policy,) = entry["Properties"]["AccessPolicies"]
    assert policy["PolicyArn"]["Fn::Join"][1][-1].endswith("/AmazonEKSClusterAdminPolicy")
    assert policy["AccessScope"] == {"Type": "cluster"}


def test_the_session_policy_allows_a_shell_and_port_forwarding_on_this_host_only(template):
    (policy,) = _of_type(template, "AWS::IAM::ManagedPolicy").values()
    (start,) = [
        s
        for s in policy["Properties"]["PolicyDocument"]["Statement"]
        if s["Action"] == "ssm:StartSession"
    ]
    text = json.dumps(start["Resource"])
    (instance_id,) = _of_type(template, INSTANCE)
    assert f'"Ref": "{instance_id}"' in text
    # the AWS-owned document's ARN has no account; the shell's preferences document is the account's own
    assert ":ssm:us-west-2::document/AWS-StartPortForwardingSessionToRemoteHost" in text
    assert ":ssm:us-west-2:123456789012:document/SSM-SessionManagerRunShell" in text
    assert "*" not in text


def test_destroy_detaches_the_session_policy_before_deleting_it_on_both_platforms(
    access_assembly, access_envs
):
    for env in access_envs:
        template = access_assembly.get_stack_by_name(env.stack_name("access")).template
        (policy_id,) = _of_type(template, "AWS::IAM::ManagedPolicy")
        # given the session policy, which the user attaches to their admin role or user (docs/access.md)
        (detacher,) = _of_type(template, "Custom::DetachOnDelete").values()
        # then a custom resource names it: CloudFormation deletes that resource first, which detaches the policy from
        # everyone (cdk_constructs/policy_detacher/), and then the policy, which IAM no longer refuses
        assert detacher["Properties"]["PolicyArn"] == {"Ref": policy_id}
        (function_id,) = [
            k
            for k, f in _of_type(template, "AWS::Lambda::Function").items()
            if f["Properties"].get("Handler") == "handler.on_event"
        ]
        role = template["Resources"][function_id]["Properties"]["Role"]["Fn::GetAtt"][0]
        statements = {
            s.get("Sid"): s
            for p in _of_type(template, "AWS::IAM::Policy").values()
            if {"Ref": role} in p["Properties"]["Roles"]
            for s in p["Properties"]["PolicyDocument"]["Statement"]
        }
        # and its function may list who has this policy and detach this policy only, from anyone
        assert statements.keys() == {"ListWhoHasThePolicy", "DetachThePolicyOnly"}
        listing, detaching = statements["ListWhoHasThePolicy"], statements["DetachThePolicyOnly"]
        assert listing["Action"] == "iam:ListEntitiesForPolicy"
        assert listing["Resource"] == {"Ref": policy_id}
        assert sorted(detaching["Action"]) == [
            "iam:DetachGroupPolicy",
            "iam:DetachRolePolicy",
            "iam:DetachUserPolicy",
        ]
        assert detaching["Condition"] == {"ArnEquals": {"iam:PolicyARN": {"Ref": policy_id}}}
        assert sorted(r["Fn::Join"][1][-1] for r in detaching["Resource"]) == [
            f":iam::{env.account}:{kind}/*" for kind in ("group", "role", "user")
        ]


def test_the_boot_script_installs_a_tool_only_after_its_pinned_checksum_matched(template):
    from cdk_constructs.access_host import TOOL_DIGESTS

    (instance,) = _of_type(template, INSTANCE).values()
    script = "".join(
        p
        for p in instance["Properties"]["UserData"]["Fn::Base64"]["Fn::Join"][1]
        if isinstance(p, str)
    )
    _, digests = TOOL_DIGESTS["1.34"]
    for tool in ("kubectl", "helm"):
        assert f"{tool.upper()}_SHA256={digests[tool]}" in script
        assert script.index(f"${{{tool.upper()}_SHA256}}") < script.index(f"/usr/local/bin/{tool}")
    assert "set -euo pipefail" in script


# --- the boot script, run with stand-ins for the AWS CLI, dnf and Python ---------------------------------------------

STAND_INS = {
    # aws s3 cp s3://assets/KEY DEST copies ASSETS/KEY; aws eks update-kubeconfig ... --kubeconfig PATH writes PATH
    "aws": """#!/bin/bash
set -e
if [ "$1 $2" = "s3 cp" ]; then src=${@: -2:1}; cp "$ASSETS/${src#s3://assets/}" "${@: -1}"; exit 0; fi
if [ "$1 $2" = "eks update-kubeconfig" ]; then echo "apiVersion: v1" > "${@: -1}"; exit 0; fi
exit 3
""",
    "dnf": "#!/bin/bash\nexit 0\n",
    # python3.12 -m venv DIR: a venv whose pip writes its arguments to DIR/pip.log, and whose python prints its
    # PYTHONPATH and arguments
    "python3.12": """#!/bin/bash
set -e
mkdir -p "$3/bin"
printf '#!/bin/bash\\necho "$*" >> "%s/pip.log"\\n' "$3" > "$3/bin/pip"
{
  printf '#!/bin/bash\\necho "python PYTHONPATH=$PYTHONPATH $*"\\n'
  printf 'echo "env $LLMOPS_CONFIG_DIR $KUBECONFIG $AWS_REGION"\\n'
} > "$3/bin/python"
chmod +x "$3/bin/pip" "$3/bin/python"
""",
}


def _boot(
    tmp_path: Path, *, helm_digest: str | None = None
) -> tuple[subprocess.CompletedProcess, Path]:
    """Run runtime/boot.sh as the user data does (the variables first), with ROOT in ``tmp_path``."""
    from cdk_constructs.access_host import BOOT_SCRIPT

    assets, bin_dir, root = tmp_path / "assets", tmp_path / "bin", tmp_path / "root"
    for directory in (assets, bin_dir, root):
        directory.mkdir()
    tools = {
        "kubectl": b"#!/bin/bash\necho kubectl client\n",
        "helm": b"#!/bin/bash\necho helm v4\n",
    }
    with zipfile.ZipFile(assets / "tools.zip", "w") as archive:
        for tool, content in tools.items():
            archive.writestr(f"{tool}/{tool}", content)
    with zipfile.ZipFile(assets / "llmops.zip", "w") as archive:
        archive.writestr("requirements-ops.txt", "")
    for name, text in STAND_INS.items():
        (bin_dir / name).write_text(text)
        (bin_dir / name).chmod(0o755)
    digests = {tool: hashlib.sha256(content).hexdigest() for tool, content in tools.items()}
    variables = {
        "REGION": "us-west-2",
        "CLUSTER_NAME": "reach-llm",
        "TOOLS_ZIP": "s3://assets/tools.zip",
        "LLMOPS_ZIP": "s3://assets/llmops.zip",
        "KUBECTL_SHA256": digests["kubectl"],
        "HELM_SHA256": helm_digest or digests["helm"],
    }
    script = (
        "#!/bin/bash\n"
        + "".join(f"{k}={v}\n" for k, v in variables.items())
        + BOOT_SCRIPT.read_text()
    )
    environ = {"PATH": f"{bin_dir}:{os.environ['PATH']}", "ROOT": str(root), "ASSETS": str(assets)}
    result = subprocess.run(
        ["bash", "-c", script], env=environ, capture_output=True, text=True, timeout=60
    )
    return result, root


def test_the_boot_script_installs_the_tools_and_the_login_settings(tmp_path):
    result, root = _boot(tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    for tool in ("kubectl", "helm", "llmops"):
        assert os.access(root / "usr/local/bin" / tool, os.X_OK)
    profile = (root / "etc/profile.d/llm-serving.sh").read_text()
    assert (
        f'KUBECONFIG="{root}/etc/llm-serving/kubeconfig"' in profile
        and "AWS_REGION=us-west-2" in profile
    )
    assert (root / "etc/llm-serving/kubeconfig").is_file()
    log = (root / "var/log/llm-serving-access-boot.log").read_text()
    assert log.rstrip().endswith("llm-serving access host: ready")


def test_the_access_host_installs_only_hashed_packages_and_runs_llmops_from_source(tmp_path):
    # given the boot script, run with a venv whose pip logs what it is asked to install
    result, root = _boot(tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    # then pip installs only the pinned requirements, with their hashes required: no build of llmops (which would
    # fetch setuptools unchecked)
    (call,) = (root / "opt/llmops/venv/pip.log").read_text().splitlines()
    assert "--require-hashes" in call.split()
    assert call.endswith(f"-r {root}/opt/llmops/src/requirements-ops.txt")
    # and `llmops` runs the venv's python on the source tree
    log = (root / "var/log/llm-serving-access-boot.log").read_text()
    assert f"python PYTHONPATH={root}/opt/llmops/src -m ops_cli --version" in log
    # and, from a shell that did not read the login profile, it still finds the configuration, kubeconfig and region
    plain = subprocess.run(
        [str(root / "usr/local/bin/llmops"), "--version"],
        env={"PATH": os.environ["PATH"]},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert (
        f"env {root}/opt/llmops/src/config {root}/etc/llm-serving/kubeconfig us-west-2"
        in plain.stdout
    )


def test_a_tool_whose_checksum_differs_stops_the_boot_before_anything_is_installed(tmp_path):
    result, root = _boot(tmp_path, helm_digest="0" * 64)
    assert result.returncode != 0
    assert "FAILED" in result.stdout + result.stderr
    assert not list((root / "usr/local/bin").iterdir())
    assert "ready" not in (root / "var/log/llm-serving-access-boot.log").read_text()


def test_a_layer_whose_binaries_are_not_the_pinned_ones_is_refused(monkeypatch):
    from cdk_constructs import access_host

    module, digests = access_host.TOOL_DIGESTS["1.34"]
    monkeypatch.setitem(access_host.TOOL_DIGESTS, "1.34", (module, {**digests, "helm": "0" * 64}))
    with pytest.raises(
        ValueError, match="helm of .* has sha256 .*, not the pinned 0{64}: review the new layer"
    ):
        access_host.tools_zip.__wrapped__("1.34")


def test_the_access_templates_pass_cfn_lint(access_assembly, access_envs):
    templates = [
        Path(access_assembly.directory)
        / access_assembly.get_stack_by_name(env.stack_name("access")).template_file
        for env in access_envs
    ]
    assert cfn_lint_errors(templates, [access_envs[0].region]) == []


def test_the_access_environments_pass_cdk_nag(access_assembly):
    report = json.loads((Path(access_assembly.directory) / "validation-report.json").read_text())
    (aws_solutions,) = [p for p in report["pluginReports"] if p["pluginName"] == "AwsSolutions"]
    assert aws_solutions["conclusion"] == "success" and aws_solutions["violations"] == []


@pytest.mark.parametrize(
    ("instance_type", "problem", "fix"),
    [
        (
            "m7g.large",
            "'m7g.large' is an arm64 type (AWS Graviton); the host installs x86_64 kubectl and helm",
            "use an x86_64 type such as t3.medium or m7i.large",
        ),
        (
            "p6e-gb200.36xlarge",
            "'p6e-gb200.36xlarge' is an arm64 type (NVIDIA Grace); the host installs x86_64 kubectl and helm",
            "use an x86_64 type such as t3.medium or m7i.large",
        ),
        ("t3.mediun", "'t3.mediun' is not an EC2 instance type", "did you mean 't3.medium'?"),
        (
            "mac2-m2.metal",
            "'mac2-m2.metal' is an EC2 Mac instance, which runs macOS on a Dedicated Host only",
            "use an x86_64 type such as t3.medium or m7i.large",
        ),
    ],
)
def test_a_host_type_that_cannot_run_the_tools_is_refused_by_name(
    example_document, instance_type, problem, fix
):
    from deployment_config import ConfigError
    from deployment_config.loader import parse_environment

    document = copy.deepcopy(example_document)
    document["access"] = {"enabled": True, "instance_type": instance_type}
    with pytest.raises(ConfigError) as raised:
        parse_environment(document, name="reach")
    message = str(raised.value)
    assert f"access.instance_type: {problem}" in message and fix in message
