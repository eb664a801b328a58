"""llmops preflight on a multi-node environment: the EFA check Job on the GPU nodes (strict Kubernetes 1.34, one pod per
node, the vLLM container's EFA devices and security context), what its script prints, the reading of the pods' logs
into rows, and the whole command with a fake kubectl.

The NCCL lines are recorded ones, quoted from public issues: NVIDIA/nccl#1597 (NCCL with aws-ofi-nccl before its
February 2025 wording, "Selected Provider is efa (found 16 nics)", and "Using network Libfabric") and
aws/aws-ofi-nccl#1020 (the plugin's warning when fi_getinfo finds no EFA device in the container). The newer wording
is the plugin's format string (aws/aws-ofi-nccl@2daf7d30 src/nccl_ofi_net.cpp) filled in; "Socket" is NCCL's own
network's name. No cluster was reachable from this machine."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from datetime import timedelta
from pathlib import Path

import kubernetes_validate
import pytest

from charts.serving_spec import serving_spec_for
from charts.vllm_serving_chart import synthesize_manifests
from deployment_config.gpu_nodes import EFA_ENVIRONMENT
from deployment_config.loader import load_environment
from ops_cli import efa_check_job, preflight_efa
from ops_cli.efa_check_job import MARKER, job_manifest, parse_log
from ops_cli.preflight_check import Status
from tests.ops_cli.conftest import NOW, client_error
from tests.ops_cli.test_preflight import (
    expect_addons,
    expect_bootstrap,
    expect_identity,
    expect_reservation,
    instance_type_info,
    rows,
)

TEST_CONFIGS = Path(__file__).resolve().parents[1] / "configs"
#: The cluster entry ``aws eks update-kubeconfig`` writes for the two-node example (named after the cluster's ARN).
CLUSTER_ARN = "arn:aws:eks:us-west-2:123456789012:cluster/multi-node-llm"
NODES = ["ip-10-0-1-11.us-west-2.compute.internal", "ip-10-0-1-12.us-west-2.compute.internal"]

#: NVIDIA/nccl#1597: NCCL with aws-ofi-nccl on a p5en (the plugin's wording before February 2025).
NCCL_1597 = (
    "8h200-2:6831:6840 [0] NCCL INFO Using network Libfabric\n"
    "8h200-3:6310:6318 [0] NCCL INFO NET/OFI Selected Provider is efa (found 16 nics)\n"
)
#: The plugin's current wording (src/nccl_ofi_net.cpp ``nccl_net_ofi_query_provider_capabilities``), filled in.
NCCL_CURRENT = (
    "ip-10-0-1-11:41:52 [0] NCCL INFO NET/OFI Selected provider is efa, fabric is efa-direct (found 8 nics)\n"
    "ip-10-0-1-11:41:52 [0] NCCL INFO Using network Libfabric\n"
)
#: aws/aws-ofi-nccl#1020: the container had no /dev/infiniband; NCCL then fell back to its socket network.
NCCL_NO_DEVICE = (
    "ip-172-31-3-90:1929:1937 [0] nccl_net_ofi_rdma_init:7978 NCCL WARN NET/OFI OFI fi_getinfo() call failed: "
    "No data available\n"
    "ip-172-31-3-90:1929:1937 [0] NCCL INFO Using network Socket\n"
)


@pytest.fixture(scope="module")
def multi_env():
    return load_environment(TEST_CONFIGS, "multi-node")


def node_log(
    node: str,
    nccl: str = NCCL_CURRENT,
    *,
    fi_info: str = "rc=0 domains=16",
    devices: int = 8,
    memlock: str = "unlimited",
    ipc_lock: int = 1,
) -> str:
    """What one pod prints, in the script's own words (efa_check_job.SCRIPT), with NCCL's lines passed on."""
    lines = [
        f"fi_info {fi_info}",
        f"devices {devices}",
        f"memlock {memlock}",
        f"ipc_lock {ipc_lock}",
        "nccl rc=0",
        *(f"log {line}" for line in nccl.splitlines()),
    ]
    return "".join(f"{MARKER} {node} {line}\n" for line in lines)


# --- the Job ----------------------------------------------------------------------------------------------------------


def test_the_job_validates_strictly_against_kubernetes_1_34(multi_env):
    manifest = job_manifest(multi_env, "llmops-efa-check-120000", 2, 960)
    kubernetes_validate.validate(manifest, multi_env.kubernetes_version, strict=True)


def test_the_job_runs_one_pod_on_each_gpu_node_with_every_efa_device(multi_env):
    # given the two-node example (2 x p6-b200.48xlarge, 8 EFA interfaces each)
    spec = job_manifest(multi_env, "llmops-efa-check-120000", 2, 960)["spec"]
    pod = spec["template"]["spec"]
    # then as many pods as nodes, indexed, at most one on a node, each failing on its own
    assert spec["completionMode"] == "Indexed" and spec["completions"] == spec["parallelism"] == 2
    assert spec["backoffLimitPerIndex"] == 0
    (term,) = pod["affinity"]["podAntiAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
    assert term["topologyKey"] == "kubernetes.io/hostname"
    assert (
        term["labelSelector"]["matchLabels"].items()
        <= spec["template"]["metadata"]["labels"].items()
    )
    # and on the GPU nodes, in the serving image, with every EFA device of the node and the vLLM pod's EFA variables
    (container,) = pod["containers"]
    assert pod["nodeSelector"] == {"llm-serving/node-role": "gpu-inference"}
    assert container["image"] == multi_env.serving_image
    for kind in ("requests", "limits"):
        assert container["resources"][kind]["vpc.amazonaws.com/efa"] == 8
        assert container["resources"][kind]["nvidia.com/gpu"] == 1
    env = {e["name"]: e.get("value") for e in container["env"]}
    assert EFA_ENVIRONMENT.items() <= env.items() and env["NCCL_DEBUG"] == "INFO"


def test_the_pod_has_the_vllm_containers_security_context(multi_env):
    # given the vLLM container of the multi-node LeaderWorkerSet as the chart renders it
    (lws,) = [
        m
        for m in synthesize_manifests(serving_spec_for(multi_env))
        if m["kind"] == "LeaderWorkerSet"
    ]
    template = lws["spec"]["leaderWorkerTemplate"]["workerTemplate"]
    (vllm,) = [c for c in template["spec"]["containers"] if c["name"] == "vllm"]
    # then the check's container has the same one (IPC_LOCK back, everything else dropped), and so does the pod
    (container,) = job_manifest(multi_env, "x", 2, 960)["spec"]["template"]["spec"]["containers"]
    assert container["securityContext"] == vllm["securityContext"]
    assert container["securityContext"]["capabilities"]["add"] == ["IPC_LOCK"]


# --- the script, run by /bin/sh with stand-ins for fi_info and python3 ----------------------------------------------


def _tool(directory: Path, name: str, body: str) -> None:
    path = directory / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)


def test_the_script_prints_lines_the_reader_reads(tmp_path):
    # given fi_info that finds the efa provider (libfabric util/info.c's short format) and a python3 whose NCCL prints
    # the recorded lines
    _tool(
        tmp_path,
        "fi_info",
        "printf 'provider: efa\\n    fabric: efa\\n    domain: rdmap0s31-rdm\\n'\n",
    )
    nccl = NCCL_1597.replace("'", "")
    _tool(tmp_path, "python3", f"printf '%s' '{nccl}' >&2\nexit 0\n")
    environ = {
        "PATH": f"{tmp_path}:/usr/bin:/bin",
        "NODE_NAME": NODES[0],
        "NCCL_PROBE": efa_check_job.NCCL_PROBE,
    }
    # when the pod's script runs
    out = subprocess.run(
        ["/bin/sh", "-c", efa_check_job.SCRIPT],
        env=environ,
        capture_output=True,
        text=True,
        timeout=30,
    )
    # then it ends 0 and the reader finds every finding of the node
    assert out.returncode == 0, out.stderr
    (report,) = parse_log(out.stdout).values()
    assert report.node == NODES[0] and report.fi_info_found and report.efa_domains == 1
    assert report.network == "Libfabric" and report.provider == "efa" and report.nccl_exit == 0
    assert report.memlock is not None and report.ipc_lock is not None
    assert report.devices is not None


def test_the_script_says_when_the_image_has_no_fi_info(tmp_path):
    _tool(tmp_path, "python3", "exit 1\n")
    environ = {"PATH": f"{tmp_path}:/usr/bin:/bin", "NODE_NAME": NODES[0]}
    out = subprocess.run(
        ["/bin/sh", "-c", efa_check_job.SCRIPT],
        env=environ,
        capture_output=True,
        text=True,
        timeout=30,
    )
    (report,) = parse_log(out.stdout).values()
    assert report.fi_info_found is False and report.nccl_exit == 1 and report.network is None


# --- the rows ---------------------------------------------------------------------------------------------------------


def statuses(checks) -> dict[str, Status]:
    return {c.name: c.status for c in checks}


def test_both_nodes_on_efa_pass_every_row(multi_env):
    # given both nodes report the efa provider, unlimited locked memory and NCCL on Libfabric/efa (both wordings)
    reports = parse_log(node_log(NODES[0], NCCL_1597) + node_log(NODES[1], NCCL_CURRENT))
    checks = preflight_efa.node_rows(multi_env, list(reports.values()))
    # then the three rows pass
    assert statuses(checks) == {
        preflight_efa.ROW_DEVICES: Status.PASS,
        preflight_efa.ROW_MEMLOCK: Status.PASS,
        preflight_efa.ROW_NCCL: Status.PASS,
    }
    assert "2 node(s)" in checks[2].detail


def test_an_image_without_libfabric_fails_naming_the_image_fix(multi_env):
    # given the public vLLM image: no fi_info, and NCCL on its socket network (aws/aws-ofi-nccl#1020's fallback)
    log = node_log(NODES[0], NCCL_NO_DEVICE, fi_info="missing")
    checks = {c.name: c for c in preflight_efa.node_rows(multi_env, list(parse_log(log).values()))}
    # then the devices and NCCL rows fail, each naming the node and the image to build
    devices, nccl = checks[preflight_efa.ROW_DEVICES], checks[preflight_efa.ROW_NCCL]
    assert devices.status is Status.FAIL and NODES[0] in devices.detail
    assert nccl.status is Status.FAIL and "network Socket" in nccl.detail
    assert "efa_installer.sh" in devices.fix and "model.image" in nccl.fix


def test_no_efa_device_in_the_pod_fails_naming_the_device_plugin(multi_env):
    log = node_log(NODES[1], NCCL_NO_DEVICE, fi_info="rc=195 domains=0", devices=0)
    check = {c.name: c for c in preflight_efa.node_rows(multi_env, list(parse_log(log).values()))}[
        preflight_efa.ROW_DEVICES
    ]
    assert check.status is Status.FAIL and NODES[1] in check.detail
    assert "EFA device plugin" in check.fix


def test_limited_locked_memory_fails_without_ipc_lock_and_warns_with_it(multi_env):
    # given a node with a 64 MiB limit (awslabs/awsome-distributed-ai#647's 65536), with and without IPC_LOCK
    without = parse_log(node_log(NODES[0], memlock="65536", ipc_lock=0)).values()
    lifted = parse_log(node_log(NODES[0], memlock="65536", ipc_lock=1)).values()
    # then without IPC_LOCK the row fails (EFA's registration would fail), with it the row warns
    failed = preflight_efa.node_rows(multi_env, list(without))[1]
    assert (
        failed.status is Status.FAIL and "65536 KiB" in failed.detail and "IPC_LOCK" in failed.fix
    )
    assert preflight_efa.node_rows(multi_env, list(lifted))[1].status is Status.WARN


@pytest.mark.parametrize(
    "line",
    [
        f"{MARKER} n1 devices 99999999999999999999999",
        f"{MARKER} n1 memlock \x1b[31munlimited",
        f"{MARKER} n1 fi_info rc=0 domains=-5",
        f"{MARKER} n1 ipc_lock yes",
        f"{MARKER} \x1b]0;title\x07 nccl rc=abc",
        f"{MARKER} n1",
        "x" * 100_000,
    ],
)
def test_a_line_of_another_shape_is_read_as_not_reported(multi_env, line):
    # given a log line whose value is not what the script prints
    reports = parse_log(line)
    # then nothing is guessed: the value is left out, and the rows still come out (failing where a value is missing)
    for report in reports.values():
        assert report.devices is None and report.ipc_lock is None and report.nccl_exit is None
        assert report.memlock in (None,) and report.efa_domains in (None, 0)
        assert "\x1b" not in report.node
        assert preflight_efa.node_rows(multi_env, [report])[1].status is Status.FAIL


# --- the whole command, with a fake kubectl ---------------------------------------------------------------------------


class FakeKubectl:
    """Answers the EFA check's kubectl calls: the GPU nodes, the Job's states in turn, its pods' logs; records them."""

    def __init__(
        self,
        log: str,
        *,
        nodes=NODES,
        states=None,
        pods=None,
        nodes_exit: int = 0,
        cluster: str = CLUSTER_ARN,
    ) -> None:
        self.log, self.nodes, self.nodes_exit, self.cluster = log, nodes, nodes_exit, cluster
        self.states = states or [
            {"active": 2},
            {"conditions": [{"type": "Complete", "status": "True"}]},
        ]
        self.pods = pods or [{"status": {"phase": "Succeeded"}}] * len(nodes)
        self.commands: list[list[str]] = []
        self.applied: dict | None = None

    def __call__(self, command, **kwargs):
        self.commands.append(command)
        args = command[1:]

        def answer(stdout: str, code: int = 0, stderr: str = "") -> subprocess.CompletedProcess:
            return subprocess.CompletedProcess(command, code, stdout, stderr)

        if args[:2] == ["config", "view"]:
            return answer(json.dumps({"clusters": [{"name": self.cluster}]}))
        if args[:2] == ["get", "nodes"]:
            ready = [{"type": "Ready", "status": "True"}]
            items = [{"metadata": {"name": n}, "status": {"conditions": ready}} for n in self.nodes]
            if self.nodes_exit:
                return answer(
                    "", self.nodes_exit, "error: You must be logged in to the server (Unauthorized)"
                )
            return answer(json.dumps({"items": items}))
        if args[:3] == ["apply", "-f", "-"]:
            self.applied = json.loads(kwargs["input"])
            return answer("job.batch/x created\n")
        if args[:2] == ["get", "job"]:
            state = self.states.pop(0) if len(self.states) > 1 else self.states[0]
            return answer(json.dumps({"kind": "Job", "status": state}))
        if args[0] == "logs":
            return answer(self.log)
        if args[:2] == ["get", "pods"]:
            return answer(json.dumps({"items": self.pods}))
        if args[:2] == ["delete", "job"]:
            return answer("job.batch deleted\n")
        raise AssertionError(command)


@pytest.fixture
def multi_node_config(config_dir):
    """The two-node example in the test's configuration directory, pinned as a real environment's must be."""
    text = (TEST_CONFIGS / "multi-node.yaml").read_text()
    (config_dir / "multi-node.yaml").write_text(text)
    return config_dir


def expect_multi_node_eks(aws) -> None:
    """Every AWS call of the two-node example's preflight, answered (p6-b200.48xlarge, 2 instances)."""
    p6_b200 = "p6-b200.48xlarge"
    expect_identity(aws)
    expect_reservation(
        aws, state="active", instance_type=p6_b200, count=2, end=NOW + timedelta(days=2)
    )
    aws.stub("eks").add_client_error(
        "describe_nodegroup",
        expected_params={"clusterName": "multi-node-llm", "nodegroupName": "gpu-capacity-block"},
        **client_error("ResourceNotFoundException", "No node group found.", 404),
    )
    offering = {
        "InstanceType": p6_b200,
        "LocationType": "availability-zone",
        "Location": "us-west-2a",
    }
    aws.stub("ec2").add_response(
        "describe_instance_type_offerings", {"InstanceTypeOfferings": [offering]}, None
    )
    facts = {**instance_type_info(), "InstanceType": p6_b200}
    aws.stub("ec2").add_response("describe_instance_types", {"InstanceTypes": [facts]}, None)
    expect_addons(aws)
    expect_bootstrap(aws)


def test_preflight_runs_the_job_on_both_nodes_reports_its_rows_and_deletes_it(
    aws, run_with_kubectl, multi_node_config
):
    # given the two-node example, two Ready GPU nodes, and a Job whose pods find EFA
    expect_multi_node_eks(aws)
    kubectl = FakeKubectl(node_log(NODES[0]) + node_log(NODES[1], NCCL_1597))
    # when preflight runs
    result = run_with_kubectl(kubectl, "preflight", "--env", "multi-node", "--json")
    # then the Job was applied for two pods, its rows are in the answer and pass, and it was deleted
    assert kubectl.applied["spec"]["parallelism"] == 2
    checks = rows(result)
    for name in (preflight_efa.ROW_DEVICES, preflight_efa.ROW_MEMLOCK, preflight_efa.ROW_NCCL):
        assert checks[name]["status"] == "pass", checks[name]
    assert kubectl.commands[-1][1:3] == ["delete", "job"]
    assert list(checks)[-1] == "CDK bootstrap"


def test_preflight_fails_the_nccl_row_of_a_node_on_sockets_and_names_the_fix(
    aws, run_with_kubectl, multi_node_config
):
    expect_multi_node_eks(aws)
    kubectl = FakeKubectl(node_log(NODES[0]) + node_log(NODES[1], NCCL_NO_DEVICE))
    result = run_with_kubectl(kubectl, "preflight", "--env", "multi-node", "--json")
    nccl = rows(result)[preflight_efa.ROW_NCCL]
    assert result.code == 1 and nccl["status"] == "fail"
    assert NODES[1] in nccl["detail"] and NODES[0] not in nccl["detail"]
    assert "efa_installer.sh" in nccl["fix"]


def test_a_job_that_cannot_be_scheduled_is_waited_for_with_a_bound_then_deleted(
    aws, run_with_kubectl, clock, multi_node_config
):
    # given GPU nodes whose EFA devices the serving pods hold: the check's pods stay Pending
    expect_multi_node_eks(aws)
    pending = {
        "status": {
            "phase": "Pending",
            "conditions": [
                {
                    "type": "PodScheduled",
                    "status": "False",
                    "message": "0/2 nodes are available: 2 Insufficient vpc.amazonaws.com/efa.",
                }
            ],
        }
    }
    kubectl = FakeKubectl("", states=[{"active": 0}], pods=[pending, pending])
    # when preflight runs
    result = run_with_kubectl(kubectl, "preflight", "--env", "multi-node", "--json")
    # then it waited no longer than its bound (on the fake clock), says why, and deleted the Job
    assert sum(clock.sleeps) <= preflight_efa.WAIT_SECONDS
    job = rows(result)[preflight_efa.ROW_JOB]
    assert job["status"] == "warn" and "Insufficient vpc.amazonaws.com/efa" in job["detail"]
    assert "2 Pending" in job["detail"]
    assert kubectl.commands[-1][1:3] == ["delete", "job"]


def test_before_the_cluster_exists_the_check_warns_and_preflight_goes_on(
    aws, run_with_kubectl, multi_node_config
):
    expect_multi_node_eks(aws)
    kubectl = FakeKubectl("", nodes_exit=1)
    result = run_with_kubectl(kubectl, "preflight", "--env", "multi-node", "--json")
    job = rows(result)[preflight_efa.ROW_JOB]
    assert job["status"] == "warn" and "Unauthorized" in job["detail"]
    assert "update-kubeconfig" in job["fix"]
    assert kubectl.applied is None and list(rows(result))[-1] == "CDK bootstrap"


def test_a_kubeconfig_of_another_cluster_creates_nothing(aws, run_with_kubectl, multi_node_config):
    # given kubectl's current context pointing at another environment's cluster
    expect_multi_node_eks(aws)
    kubectl = FakeKubectl("", cluster="arn:aws:eks:us-west-2:123456789012:cluster/prod-llm")
    # when preflight runs
    result = run_with_kubectl(kubectl, "preflight", "--env", "multi-node", "--json")
    # then no Job is created there, and the row says which cluster kubectl points at and how to switch
    job = rows(result)[preflight_efa.ROW_JOB]
    assert kubectl.applied is None and job["status"] == "warn"
    assert "prod-llm" in job["detail"] and "update-kubeconfig --name multi-node-llm" in job["fix"]


def test_a_single_node_environment_skips_the_check_with_its_reason(default_env):
    (check,) = preflight_efa.efa_checks(default_env, kubectl="kubectl", run=None, now=NOW)
    assert check.status is Status.PASS and check.detail.startswith("skipped:")
    assert "NVLink" in check.detail


def test_the_shell_is_posix(tmp_path):
    # the script runs under dash in the image; here /bin/sh must parse it too (sh -n: syntax only)
    assert subprocess.run(["/bin/sh", "-n", "-c", efa_check_job.SCRIPT], timeout=30).returncode == 0
    assert os.access("/bin/sh", os.X_OK)
