"""The Kubernetes Job of ``llmops bench``'s load test (ops_cli/load_test.py: what it runs): its manifest, and running it
with kubectl (apply, wait, read each run's result from its log, delete).

**Where the Job runs.** On the GPU node of a serving pod (a required pod affinity to the serving pods, tolerating the
GPU taint), with no GPU request: the image is already on that node. The system nodes would have to pull the serving
image, which is larger than their disk: the system node group sets no disk size, and EKS's default is 20 GiB
(botocore 1.43.127 ``eks`` model, CreateNodegroup ``diskSize``), while vllm/vllm-openai images are reported at 25 to
28.6 GB (vllm-project/vllm#17163, #22377; not measured here). The benchmark client uses a little CPU next to vLLM, as a
benchmark on the server's own host does.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from endpoint_probe.deadline import Deadline
from endpoint_probe.errors import printable
from ops_cli.errors import OpsError
from ops_cli.load_test import (
    API_KEY_SECRET_KEY,
    HF_TOKEN_SECRET_KEY,
    RESULT_DIR,
    BenchRun,
    LoadTestPlan,
    parse_log,
)
from ops_cli.tools import KUBECONFIG_FIX, command_line, run_tool, tool_failure, tool_json

if TYPE_CHECKING:
    from ops_cli.progress import Progress

#: The GPU nodes' taint (EKS: cdk_constructs/capacity_block_node_group.py), tolerated whatever its value.
GPU_TAINT_KEY = "nvidia.com/gpu"


def job_manifest(plan: LoadTestPlan) -> dict:
    """The Job of ``plan`` (Kubernetes 1.34 batch/v1)."""
    env = []
    if plan.secret_name and plan.api_key:
        env.append(
            {
                "name": "OPENAI_API_KEY",
                "valueFrom": {
                    "secretKeyRef": {"name": plan.secret_name, "key": API_KEY_SECRET_KEY}
                },
            }
        )
    if plan.secret_name and plan.hugging_face_token:
        env.append(
            {
                "name": "HF_TOKEN",
                "valueFrom": {
                    "secretKeyRef": {"name": plan.secret_name, "key": HF_TOKEN_SECRET_KEY}
                },
            }
        )
    env += [
        {"name": "HF_HOME", "value": "/cache/huggingface"},
        {"name": "PYTHONUNBUFFERED", "value": "1"},
    ]
    labels = {
        "app.kubernetes.io/name": "llmops-bench",
        "app.kubernetes.io/managed-by": "llmops",
    }
    container = {
        "name": "bench",
        "image": plan.image,
        "imagePullPolicy": "IfNotPresent",
        "command": ["/bin/sh", "-c", plan.script()],
        "env": env,
        # CPU and memory for the client (tokenizing the prompts, streaming the answers); no GPU.
        "resources": {"requests": {"cpu": "2", "memory": "8Gi"}, "limits": {"memory": "16Gi"}},
        "securityContext": {
            "allowPrivilegeEscalation": False,
            "capabilities": {"drop": ["ALL"]},
            "seccompProfile": {"type": "RuntimeDefault"},
        },
        "volumeMounts": [
            {"name": "results", "mountPath": RESULT_DIR},
            {"name": "cache", "mountPath": "/cache"},
        ],
    }
    return {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": plan.job_name, "namespace": plan.namespace, "labels": labels},
        "spec": {
            "backoffLimit": 0,  # a failed benchmark is reported, not retried against a busy server
            "activeDeadlineSeconds": plan.deadline_seconds,
            "ttlSecondsAfterFinished": 3600,  # removed by Kubernetes even if llmops is stopped before it deletes it
            "template": {
                "metadata": {"labels": labels},
                "spec": {
                    "restartPolicy": "Never",
                    "automountServiceAccountToken": False,
                    "enableServiceLinks": False,
                    # next to a vLLM pod, on its GPU node, where the image already is (see the module)
                    "affinity": {
                        "podAffinity": {
                            "requiredDuringSchedulingIgnoredDuringExecution": [
                                {
                                    "labelSelector": {"matchLabels": dict(plan.serving_pod_labels)},
                                    "topologyKey": "kubernetes.io/hostname",
                                }
                            ]
                        }
                    },
                    "tolerations": [
                        {"key": GPU_TAINT_KEY, "operator": "Exists", "effect": "NoSchedule"}
                    ],
                    "containers": [container],
                    "volumes": [
                        {"name": "results", "emptyDir": {"sizeLimit": "1Gi"}},
                        {"name": "cache", "emptyDir": {"sizeLimit": "10Gi"}},
                    ],
                },
            },
        },
    }


def run_kubectl(
    run: Callable | None,
    kubectl: str,
    args: Sequence[str],
    *,
    timeout: float = 60,
    stdin: str | None = None,
    check: bool = True,
    deadline: Deadline | None = None,
) -> subprocess.CompletedProcess:
    """kubectl ``args``, within ``timeout`` and what is left of ``deadline`` (ops_cli/tools.py)."""
    result = run_tool([kubectl, *args], deadline=deadline, cap=timeout, stdin=stdin, run=run)
    if check and result.returncode != 0:
        raise tool_failure(result, f"{KUBECONFIG_FIX} and that your role may create Jobs")
    return result


def _job_state(job: dict) -> tuple[bool, bool, str]:
    """(finished, succeeded, status) of a Job from its status (Kubernetes 1.34 JobStatus: conditions Complete and
    Failed, counts active / succeeded / failed)."""
    status = (
        job.get("status") if isinstance(job.get("status"), dict) else {}
    )  # another shape: not started yet
    conditions = status.get("conditions") if isinstance(status.get("conditions"), list) else []
    for condition in (c for c in conditions if isinstance(c, dict)):
        if condition.get("status") != "True":
            continue
        if condition.get("type") == "Complete":
            return True, True, "complete"
        if condition.get("type") == "Failed":
            reason = printable(str(condition.get("reason") or ""), 80)
            return True, False, f"failed ({reason})" if reason else "failed"
    if status.get("active"):
        return False, False, "running"
    return False, False, "pending"


def run_load_test(
    plan: LoadTestPlan,
    kubectl: str,
    progress: Progress,
    run: Callable | None = None,
    log: Callable[[str], None] | None = None,
    *,
    deadline: Deadline | None = None,
) -> tuple[list[BenchRun], str]:
    """Apply the Job, wait for it, read each run's result from its log, delete it (also when the wait fails).
    Returns the runs and the Job's final status. Every kubectl call ends by ``deadline``; once it has passed the Job
    is left to its own ``activeDeadlineSeconds`` and ``ttlSecondsAfterFinished``, and the command to delete it is
    logged."""
    job = ["-n", plan.namespace]
    run_kubectl(
        run,
        kubectl,
        ["apply", "-f", "-", *job],
        stdin=json.dumps(job_manifest(plan)),
        deadline=deadline,
    )
    final = {"status": "pending", "succeeded": False}
    try:

        def probe() -> tuple[bool, str]:
            out = run_kubectl(
                run, kubectl, ["get", "job", plan.job_name, *job, "-o", "json"], deadline=deadline
            )
            finished, succeeded, status = _job_state(tool_json(out))
            final.update(status=status, succeeded=succeeded)
            return finished, status

        progress.run(probe)
        out = run_kubectl(
            run,
            kubectl,
            ["logs", f"job/{plan.job_name}", *job, "-c", "bench"],
            timeout=120,
            check=False,
            deadline=deadline,
        )
        if out.returncode != 0 and log:
            log(f"kubectl logs job/{plan.job_name} failed: {printable(out.stderr.strip(), 200)}")
        results = parse_log(out.stdout if out.returncode == 0 else "", plan.concurrencies)
    finally:
        delete = ["delete", "job", plan.job_name, *job, "--ignore-not-found", "--wait=false"]
        if deadline is not None and deadline.passed():
            if log:
                log(
                    f"the Job {plan.namespace}/{plan.job_name} was not deleted (the deadline had passed; Kubernetes "
                    f"stops it at its own deadline and removes it an hour later): {command_line([kubectl, *delete])}"
                )
            deleted = None
        else:
            try:
                deleted = run_kubectl(run, kubectl, delete, check=False, deadline=deadline)
            except OpsError as error:  # the wait's own failure, if any, is the one to report
                deleted = subprocess.CompletedProcess(delete, 1, "", error.message)
        if deleted is not None and deleted.returncode != 0 and log:
            log(
                f"the Job {plan.namespace}/{plan.job_name} was not deleted (Kubernetes removes it an hour after it "
                f"ends): {printable(deleted.stderr.strip(), 200)}"
            )
    return results, final["status"]
