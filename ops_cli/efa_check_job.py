"""The EFA check of ``llmops preflight`` on a multi-node environment (ops_cli/preflight_efa.py runs it): a Job with one
pod on each GPU node, in the serving image and with the vLLM container's EFA devices, environment and security
context, that prints what it found as lines ``LLMOPS_EFA NODE KEY VALUE``; and the reading of those lines.

What each pod shows, and where the words it reads come from:

- **EFA devices**: ``fi_info -p efa`` (libfabric's tool; the EFA installer puts it in /opt/amazon/efa/bin) prints one
  ``provider: efa`` block per EFA domain, or ``fi_getinfo: -61`` (FI_ENODATA) when there is none
  (ofiwg/libfabric@04401320 util/info.c ``print_short_info`` and ``run``); in a container that was not given the
  devices it prints -61 (aws/aws-ofi-nccl#1020).
- **Locked memory**: ``ulimit -l`` ("unlimited", or KiB) and whether CAP_IPC_LOCK is effective (bit 14 of ``CapEff``
  in /proc/self/status; Linux include/uapi/linux/capability.h ``CAP_IPC_LOCK 14``), which lets a process pin memory
  beyond the limit (charts/vllm_deployment.py ``container_security`` has the source).
- **NCCL's network**: a one-rank all_reduce in the image's PyTorch with ``NCCL_DEBUG=INFO``. NCCL initializes its
  network for every communicator, one rank included (NVIDIA/nccl@00ad458b src/init.cc ``commAlloc``:
  ``ncclNetInit``, then ``INFO(NCCL_INIT, "Using network %s", ...)``). The aws-ofi-nccl plugin is named
  ``Libfabric`` (aws/aws-ofi-nccl@2daf7d30 src/nccl_ofi_interface_nvidia.cpp; ``AWS Libfabric`` in its Neuron
  interface) and logs ``NET/OFI Selected provider is %s, fabric is %s (found %d nics)`` (src/nccl_ofi_net.cpp;
  ``Selected Provider is %s (found %d nics)`` before its commit 194aa153 of February 2025); without the plugin NCCL
  falls back to its own ``Socket`` network. Traffic between the nodes (a two-node all_reduce, its bandwidth) is not
  measured here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from deployment_config.gpu_nodes import (
    EFA_ENVIRONMENT,
    GPU_NODE_LABELS,
    GPU_TAINT_EFFECT,
    GPU_TAINT_KEY,
    GPU_TAINT_VALUE,
)
from deployment_config.model import EnvironmentConfig
from endpoint_probe.errors import printable

MARKER = "LLMOPS_EFA"
CONTAINER = "efa-check"
NAMESPACE = "default"  # exists before the serving stack creates its own
LABELS = {"app.kubernetes.io/name": "llmops-efa-check", "app.kubernetes.io/managed-by": "llmops"}

#: One NCCL communicator of one rank on the pod's GPU, and an all_reduce on it.
NCCL_PROBE = """
import torch, torch.distributed as dist
torch.cuda.set_device(0)
dist.init_process_group("nccl", init_method="tcp://127.0.0.1:29500", rank=0, world_size=1)
t = torch.ones(1, device="cuda")
dist.all_reduce(t)
torch.cuda.synchronize()
dist.destroy_process_group()
"""

#: What each pod runs (/bin/sh: dash in the Ubuntu-based vLLM image). It always exits 0 once it has printed its lines:
#: the verdict is read from them, and a Job whose pods all ran is Complete.
SCRIPT = rf"""
node="${{NODE_NAME:-unknown}}"
say() {{ echo "{MARKER} $node $*"; }}
fi_info=$(command -v fi_info || ls /opt/amazon/efa/bin/fi_info 2>/dev/null)
if [ -z "$fi_info" ]; then say fi_info missing; else
  out=$("$fi_info" -p efa 2>&1); rc=$?
  say fi_info rc=$rc domains=$(printf '%s\n' "$out" | grep -c '^provider: efa')
fi
say devices $(ls /dev/infiniband 2>/dev/null | grep -c '^uverbs')
say memlock $(ulimit -l)
capeff=$(awk '/^CapEff:/ {{print $2}}' /proc/self/status)
say ipc_lock $(( (0x${{capeff:-0}} >> 14) & 1 ))
python3 -c "$NCCL_PROBE" >/tmp/nccl.log 2>&1; rc=$?
say nccl rc=$rc
grep -E 'Using network|NET/OFI Selected|NCCL WARN' /tmp/nccl.log | head -n 20 | while IFS= read -r line; do
  say log "$line"
done
exit 0
"""


def job_name(now_label: str) -> str:
    """The Job's name: one per run (``now_label`` is the time, HHMMSS), so that a run never meets an earlier one's."""
    return f"llmops-efa-check-{now_label}"


def security_context() -> dict:
    """The vLLM container's on a pod given EFA devices (charts/vllm_deployment.py ``container_security`` with
    ``lock_memory``; ops_cli does not import the charts, and a test compares the two)."""
    return {
        "allowPrivilegeEscalation": False,
        "capabilities": {"add": ["IPC_LOCK"], "drop": ["ALL"]},
        "privileged": False,
        "readOnlyRootFilesystem": False,
        "runAsNonRoot": False,
    }


def job_manifest(env: EnvironmentConfig, name: str, nodes: int, deadline_seconds: int) -> dict:
    """The Job (Kubernetes 1.34 batch/v1): ``nodes`` pods, indexed, at most one on a node (a required anti-affinity on
    the host name, and each takes every EFA device of its node), on the GPU nodes, with one GPU each."""
    instance = env.gpu_instance_type
    extended = {"nvidia.com/gpu": 1, "vpc.amazonaws.com/efa": instance.efa_interfaces}
    environment = [
        {"name": "NODE_NAME", "valueFrom": {"fieldRef": {"fieldPath": "spec.nodeName"}}},
        {"name": "NCCL_PROBE", "value": NCCL_PROBE},
        {"name": "NCCL_DEBUG", "value": "INFO"},
        {"name": "NCCL_DEBUG_SUBSYS", "value": "INIT,NET"},
        *({"name": k, "value": v} for k, v in EFA_ENVIRONMENT.items()),
    ]
    container = {
        "name": CONTAINER,
        "image": env.serving_image,
        "imagePullPolicy": "IfNotPresent",
        "command": ["/bin/sh", "-c", SCRIPT],
        "env": environment,
        "resources": {
            "requests": {"cpu": "2", "memory": "8Gi", **extended},
            "limits": {"memory": "16Gi", **extended},
        },
        "securityContext": security_context(),
    }
    return {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": name, "namespace": NAMESPACE, "labels": LABELS},
        "spec": {
            "completionMode": "Indexed",
            "completions": nodes,
            "parallelism": nodes,
            "backoffLimitPerIndex": 0,  # a node's failure is its own; the other nodes still report
            "activeDeadlineSeconds": deadline_seconds,
            "ttlSecondsAfterFinished": 3600,  # removed by Kubernetes even if llmops stops before it deletes it
            "template": {
                "metadata": {"labels": LABELS},
                "spec": {
                    "restartPolicy": "Never",
                    "automountServiceAccountToken": False,
                    "enableServiceLinks": False,
                    "nodeSelector": dict(GPU_NODE_LABELS),
                    "tolerations": [
                        {
                            "key": GPU_TAINT_KEY,
                            "operator": "Equal",
                            "value": GPU_TAINT_VALUE,
                            "effect": GPU_TAINT_EFFECT,
                        }
                    ],
                    "affinity": {
                        "podAntiAffinity": {
                            "requiredDuringSchedulingIgnoredDuringExecution": [
                                {
                                    "labelSelector": {"matchLabels": dict(LABELS)},
                                    "topologyKey": "kubernetes.io/hostname",
                                }
                            ]
                        }
                    },
                    "securityContext": {"seccompProfile": {"type": "RuntimeDefault"}},
                    "containers": [container],
                },
            },
        },
    }


@dataclass
class NodeReport:
    """What one node's pod printed; None where it printed nothing readable."""

    node: str
    fi_info_found: bool | None = None
    efa_domains: int | None = None
    devices: int | None = None
    memlock: str | None = None
    ipc_lock: bool | None = None
    nccl_exit: int | None = None
    network: str | None = None
    provider: str | None = None
    warnings: list[str] = field(default_factory=list)


_NUMBER = re.compile(r"[0-9]{1,6}")
_KIB = re.compile(r"[0-9]{1,20}")
_NETWORK = re.compile(r"NCCL INFO Using network (\S[^\r\n]{0,40})")
_PROVIDER = re.compile(r"NET/OFI Selected [Pp]rovider is ([A-Za-z0-9_-]{1,40})")


def _number(text: str) -> int | None:
    return int(text) if _NUMBER.fullmatch(text) else None


def _pairs(words: list[str]) -> dict[str, str]:
    return dict(word.partition("=")[::2] for word in words if "=" in word)


def parse_log(text: str) -> dict[str, NodeReport]:
    """The reports in the pods' logs, by node: only the lines that start with :data:`MARKER`; a value that is not the
    expected shape is left out (None), never guessed."""
    reports: dict[str, NodeReport] = {}
    for line in text.splitlines()[:10_000]:
        words = line.split()
        if len(words) < 3 or words[0] != MARKER:
            continue
        node, key, rest = printable(words[1], 253), words[2], words[3:]
        report = reports.setdefault(node, NodeReport(node))
        if key == "fi_info":
            pairs = _pairs(rest)
            report.fi_info_found = rest != ["missing"]
            report.efa_domains = _number(pairs.get("domains", "")) if report.fi_info_found else 0
        elif key == "devices" and rest:
            report.devices = _number(rest[0])
        elif key == "memlock" and rest:
            value = rest[0]
            report.memlock = value if value == "unlimited" or _KIB.fullmatch(value) else None
        elif key == "ipc_lock" and rest:
            report.ipc_lock = {"1": True, "0": False}.get(rest[0])
        elif key == "nccl":
            report.nccl_exit = _number(_pairs(rest).get("rc", ""))
        elif key == "log":
            _read_nccl_line(report, line.split(" log ", 1)[-1])
    return reports


def _read_nccl_line(report: NodeReport, line: str) -> None:
    if (network := _NETWORK.search(line)) and report.network is None:
        report.network = printable(network.group(1).strip(), 40)
    if (provider := _PROVIDER.search(line)) and report.provider is None:
        report.provider = provider.group(1)
    if "NCCL WARN" in line and len(report.warnings) < 3:
        report.warnings.append(printable(line.split("NCCL WARN", 1)[1].strip(), 200))
