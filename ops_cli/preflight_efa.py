"""``llmops preflight`` on a multi-node environment: EFA shown on every GPU node by a Job there (ops_cli/efa_check_job.py
says what each pod runs and reads): the EFA provider, the locked-memory limit, and the network NCCL picks. Three rows,
one per finding, each naming the nodes that fail it and the fix; a fourth when the Job could not run or report.

The check needs the GPU nodes: before they exist (no cluster yet, the Capacity Block not active, the nodes not
joined) it says so as a warning and preflight goes on. It takes one GPU and every EFA device of each node, so it runs
before the serving workload holds them; with the workload running its pods stay Pending, which the Job row says. A
single-node environment uses no EFA (one row saying it is skipped).
"""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Callable, Iterable
from datetime import datetime

from deployment_config.gpu_nodes import GPU_NODE_LABELS
from deployment_config.model import EnvironmentConfig
from endpoint_probe.errors import printable
from ops_cli.efa_check_job import (
    CONTAINER,
    NAMESPACE,
    NodeReport,
    job_manifest,
    job_name,
    parse_log,
)
from ops_cli.errors import OpsError
from ops_cli.preflight_check import Check, Status
from ops_cli.tools import ToolTimedOut, command_line, run_tool

ROW_SKIPPED = "EFA on the GPU nodes"
ROW_JOB = "EFA check Job"
ROW_DEVICES = "EFA devices (fi_info -p efa)"
ROW_MEMLOCK = "locked memory (ulimit -l)"
ROW_NCCL = "NCCL network (EFA)"
#: How long the Job may take: pulling the serving image onto a fresh node (tens of GB) and starting CUDA.
WAIT_SECONDS = 900
POLL_SECONDS = 15
KUBECTL_TIMEOUT_S = 60
IMAGE_FIX = (
    "build the serving image with the EFA installer (efa_installer.sh -y --skip-kmod: libfabric in /opt/amazon/efa, "
    "aws-ofi-nccl in /opt/amazon/ofi-nccl) and set model.image to it (docs/configure.md, Multi-node models)"
)


class _Unchecked(Exception):
    def __init__(self, detail: str, fix: str) -> None:
        super().__init__(detail)
        self.detail, self.fix = detail, fix


def efa_checks(
    env: EnvironmentConfig,
    *,
    kubectl: str,
    run: Callable | None,
    now: datetime,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    wait_seconds: int = WAIT_SECONDS,
) -> list[Check]:
    """The EFA rows of ``env``: skipped for one node per instance, else from the Job on its GPU nodes."""
    layout = env.layout
    if not layout.multi_node:
        return [
            Check(
                ROW_SKIPPED,
                Status.PASS,
                "skipped: one model instance fits one node and talks NVLink only, so no pod requests EFA "
                "(the check runs for a multi-node layout)",
            )
        ]
    again = (
        f"run llmops preflight --env {env.name} again once the GPU nodes are Ready, before the serving "
        "workload takes their EFA devices"
    )
    try:
        nodes = _ready_gpu_nodes(kubectl, run, env)
    except _Unchecked as unchecked:
        return [Check(ROW_JOB, Status.WARN, f"not checked: {unchecked.detail}", unchecked.fix)]
    if not nodes:
        return [
            Check(
                ROW_JOB, Status.WARN, "not checked: no GPU node is Ready in the cluster yet", again
            )
        ]
    name = job_name(now.strftime("%H%M%S"))
    try:
        finished, logs, pods = _run_job(
            env, name, len(nodes), kubectl, run, clock, sleep, wait_seconds
        )
    except _Unchecked as unchecked:
        return [Check(ROW_JOB, Status.WARN, f"not checked: {unchecked.detail}", unchecked.fix)]
    reports = parse_log(logs)
    rows = []
    if not finished:
        rows.append(
            Check(
                ROW_JOB,
                Status.WARN,
                f"the Job did not finish within {wait_seconds} s: {pods}",
                "it takes one GPU and every EFA device of each GPU node: run it before the serving workload "
                "holds them, or once the image is on the nodes; " + again,
            )
        )
    silent = sorted(set(nodes) - set(reports))
    if finished and silent:
        rows.append(
            Check(
                ROW_JOB,
                Status.FAIL,
                f"no report from {', '.join(silent)} ({pods})",
                f"run the check by hand: {command_line([kubectl, 'logs', '-n', NAMESPACE, '-l', f'job-name={name}'])}"
                " while the Job is kept (it is removed an hour after it ends)",
            )
        )
    if reports:
        rows += node_rows(env, list(reports.values()))
    return rows


def node_rows(env: EnvironmentConfig, reports: list[NodeReport]) -> list[Check]:
    """The three finding rows from the nodes' reports."""
    return [_devices_row(env, reports), _memlock_row(reports), _nccl_row(reports)]


def _names(reports: Iterable[NodeReport]) -> str:
    return ", ".join(r.node for r in reports)


def _devices_row(env: EnvironmentConfig, reports: list[NodeReport]) -> Check:
    expected = env.gpu_instance_type.efa_interfaces
    no_tool = [r for r in reports if r.fi_info_found is not True]
    none = [r for r in reports if r.fi_info_found and not r.efa_domains]
    if no_tool:
        return Check(
            ROW_DEVICES,
            Status.FAIL,
            f"the serving image has no fi_info (no libfabric) on {_names(no_tool)}: NCCL cannot use EFA",
            IMAGE_FIX,
        )
    if none:
        return Check(
            ROW_DEVICES,
            Status.FAIL,
            f"fi_info -p efa finds no EFA provider on {_names(none)} (devices in /dev/infiniband: "
            + ", ".join(f"{r.node} {r.devices if r.devices is not None else '?'}" for r in none)
            + ")",
            "check the node's EFA interfaces (the launch template's efa-only interfaces) and the EFA device plugin "
            "there (kubectl -n kube-system get pods -o wide | grep efa), which gives pods /dev/infiniband",
        )
    fewer = [r for r in reports if r.devices is not None and r.devices < expected]
    if fewer:
        return Check(
            ROW_DEVICES,
            Status.WARN,
            f"fewer EFA devices than the {expected} of {env.gpu_instance_type.name}: "
            + ", ".join(f"{r.node} {r.devices}" for r in fewer),
            "check the node's network interfaces: every EFA card should carry an efa-only interface",
        )
    return Check(
        ROW_DEVICES,
        Status.PASS,
        f"the efa provider is there on {len(reports)} node(s): {_names(reports)}",
    )


def _memlock_row(reports: list[NodeReport]) -> Check:
    limited = [r for r in reports if r.memlock != "unlimited"]
    unlifted = [r for r in limited if not r.ipc_lock]
    shown = ", ".join(
        f"{r.node} {r.memlock + ' KiB' if r.memlock else 'not reported'}" for r in limited
    )
    if unlifted:
        return Check(
            ROW_MEMLOCK,
            Status.FAIL,
            f"locked memory is limited and IPC_LOCK is not in effect: {shown}; EFA's memory registration fails "
            "with 'Cannot allocate memory' (awslabs/awsome-distributed-ai#647)",
            "keep IPC_LOCK on the vLLM container (the chart adds it; check that no admission policy drops it), or "
            "raise the container runtime's memlock limit on the GPU nodes to unlimited",
        )
    if limited:
        return Check(
            ROW_MEMLOCK,
            Status.WARN,
            f"locked memory is limited ({shown}); IPC_LOCK, which the vLLM container has, lets it pin beyond",
            "raise the container runtime's memlock limit on the GPU nodes to unlimited, as EFA's guides ask",
        )
    return Check(ROW_MEMLOCK, Status.PASS, f"unlimited on {len(reports)} node(s)")


def _nccl_row(reports: list[NodeReport]) -> Check:
    def efa(r: NodeReport) -> bool:
        return bool(r.network and "Libfabric" in r.network and (r.provider or "").startswith("efa"))

    wrong = [r for r in reports if not efa(r)]
    if not wrong:
        return Check(
            ROW_NCCL,
            Status.PASS,
            f"NCCL uses the Libfabric network with the efa provider on {len(reports)} node(s)",
        )
    details = []
    for r in wrong:
        if r.network:
            details.append(
                f"{r.node}: network {r.network}"
                + (f", provider {r.provider}" if r.provider else "")
            )
        else:
            why = f"; {r.warnings[0]}" if r.warnings else ""
            exit_text = r.nccl_exit if r.nccl_exit is not None else "?"
            details.append(f"{r.node}: no NCCL network in the log (probe exit {exit_text}{why})")
    socket = any(r.network and "Libfabric" not in r.network for r in wrong)
    return Check(
        ROW_NCCL,
        Status.FAIL,
        "NCCL does not use EFA: "
        + "; ".join(details)
        + (" (Socket is TCP: every pipeline hand-off slows)" if socket else ""),
        IMAGE_FIX if socket else f"read NCCL's warning in the detail; {IMAGE_FIX}",
    )


def _kubectl(
    kubectl: str, run: Callable | None, args: list[str], stdin: str | None = None
) -> subprocess.CompletedProcess:
    command = [kubectl, *args]
    try:
        result = run_tool(command, cap=KUBECTL_TIMEOUT_S, stdin=stdin, run=run)
    except ToolTimedOut:
        raise _Unchecked(
            f"kubectl did not answer within {KUBECTL_TIMEOUT_S} s (it was stopped)",
            f"run `{command_line(command)}` by hand",
        ) from None
    except OpsError as error:
        raise _Unchecked(error.message, error.fix) from None
    return result


def _json(result: subprocess.CompletedProcess) -> dict:
    try:
        value = json.loads(result.stdout if isinstance(result.stdout, str) else "")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _same_cluster(kubectl: str, run: Callable | None, env: EnvironmentConfig) -> None:
    """Refuse to create GPU pods through a kubeconfig whose current context is another cluster's. ``aws eks
    update-kubeconfig`` names the cluster entry after the cluster's ARN (aws/aws-cli@01e092bd
    awscli/customizations/eks/update_kubeconfig.py ``EKSClient.get_cluster_entry``)."""
    expected = f":eks:{env.region}:{env.account}:cluster/{env.cluster_name}"
    fix = (
        f"aws eks update-kubeconfig --name {env.cluster_name} --region {env.region} (it switches the current "
        f"context to that cluster), then run llmops preflight --env {env.name} again"
    )
    result = _kubectl(kubectl, run, ["config", "view", "--minify", "-o", "json"])
    clusters = _json(result).get("clusters") if result.returncode == 0 else None
    names = (
        [c.get("name") for c in clusters if isinstance(c, dict)]
        if isinstance(clusters, list)
        else []
    )
    if len(names) != 1 or not isinstance(names[0], str) or not names[0].endswith(expected):
        shown = printable(str(names[0]), 200) if len(names) == 1 else "none"
        raise _Unchecked(
            f"kubectl's current context is for cluster {shown}, not {env.cluster_name} in "
            f"{env.account}/{env.region}: no pod is created there",
            fix,
        )


def _ready_gpu_nodes(kubectl: str, run: Callable | None, env: EnvironmentConfig) -> list[str]:
    _same_cluster(kubectl, run, env)
    selector = ",".join(f"{k}={v}" for k, v in GPU_NODE_LABELS.items())
    result = _kubectl(kubectl, run, ["get", "nodes", "-l", selector, "-o", "json"])
    if result.returncode != 0:
        lines = (result.stderr or "").strip().splitlines()
        raise _Unchecked(
            f"kubectl cannot list the GPU nodes: {printable(lines[-1] if lines else f'exit {result.returncode}', 200)}",
            f"aws eks update-kubeconfig --name {env.cluster_name} --region {env.region} once the cluster "
            f"exists, then run llmops preflight --env {env.name} again",
        )
    nodes = []
    for item in _items(_json(result)):
        conditions = (item.get("status") or {}).get("conditions") or []
        ready = any(
            isinstance(c, dict) and c.get("type") == "Ready" and c.get("status") == "True"
            for c in conditions
        )
        name = (item.get("metadata") or {}).get("name")
        if ready and isinstance(name, str):
            nodes.append(printable(name, 253))
    return nodes


def _items(document: dict) -> list[dict]:
    items = document.get("items")
    return [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []


def _run_job(
    env: EnvironmentConfig,
    name: str,
    nodes: int,
    kubectl: str,
    run: Callable | None,
    clock: Callable[[], float],
    sleep: Callable[[float], None],
    wait_seconds: int,
) -> tuple[bool, str, str]:
    """Apply the Job, wait for it (at most ``wait_seconds``), read its pods' logs and states, delete it. Returns
    (finished, logs, the pods' states in words)."""
    manifest = job_manifest(env, name, nodes, deadline_seconds=wait_seconds + 60)
    applied = _kubectl(kubectl, run, ["apply", "-f", "-"], stdin=json.dumps(manifest))
    if applied.returncode != 0:
        lines = (applied.stderr or "").strip().splitlines()
        raise _Unchecked(
            f"kubectl could not create the Job: {printable(lines[-1] if lines else '', 200)}",
            "check that your role may create Jobs in the default namespace",
        )
    namespace = ["-n", NAMESPACE]
    try:
        started, finished = clock(), False
        while not finished:
            job = _json(_kubectl(kubectl, run, ["get", "job", name, *namespace, "-o", "json"]))
            finished = _finished(job)
            if finished or clock() - started + POLL_SECONDS > wait_seconds:
                break
            sleep(POLL_SECONDS)
        selector = ["-l", f"job-name={name}"]
        logs = _kubectl(
            kubectl,
            run,
            [
                "logs",
                *namespace,
                *selector,
                "-c",
                CONTAINER,
                "--tail=-1",
                f"--max-log-requests={nodes}",
            ],
        )
        pods = _pod_states(
            _json(_kubectl(kubectl, run, ["get", "pods", *namespace, *selector, "-o", "json"]))
        )
    finally:
        try:
            _kubectl(
                kubectl,
                run,
                ["delete", "job", name, *namespace, "--ignore-not-found", "--wait=false"],
            )
        except _Unchecked:
            pass  # Kubernetes removes it an hour after it ends (ttlSecondsAfterFinished)
    return (
        finished,
        logs.stdout if logs.returncode == 0 and isinstance(logs.stdout, str) else "",
        pods,
    )


def _finished(job: dict) -> bool:
    """A Job's Complete or Failed condition (Kubernetes 1.34 JobStatus)."""
    conditions = (
        (job.get("status") or {}).get("conditions") if isinstance(job.get("status"), dict) else None
    )
    return any(
        isinstance(c, dict)
        and c.get("type") in ("Complete", "Failed")
        and c.get("status") == "True"
        for c in (conditions if isinstance(conditions, list) else [])
    )


def _pod_states(document: dict) -> str:
    """The pods' phases counted, and why the first Pending one is not scheduled."""
    phases: dict[str, int] = {}
    why = ""
    for pod in _items(document):
        status = pod.get("status") if isinstance(pod.get("status"), dict) else {}
        phase = printable(str(status.get("phase") or "Unknown"), 20)
        phases[phase] = phases.get(phase, 0) + 1
        for condition in status.get("conditions") or []:
            if (
                not why
                and isinstance(condition, dict)
                and condition.get("type") == "PodScheduled"
                and condition.get("status") == "False"
            ):
                why = f" ({printable(str(condition.get('message') or ''), 200)})"
    counted = ", ".join(f"{count} {phase}" for phase, count in sorted(phases.items()))
    return (counted or "no pods") + why
