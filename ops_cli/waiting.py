"""Waiting with visible progress and a timeout: for a reservation, for GPU nodes, for the endpoint. The polling and its
progress lines are ops_cli/progress.py's :class:`Progress`."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from capacity_rules import FINAL_STATES
from deployment_config.gpu_nodes import (
    EKS_SCALE_IN_BEFORE_END_MINUTES,
    GPU_NODEGROUP,
    NEXT_GPU_NODEGROUP,
)
from deployment_config.model import EnvironmentConfig
from endpoint_probe.answers import UNAUTHORIZED, unauthorized
from endpoint_probe.deadline import Deadline
from endpoint_probe.errors import (
    BadResponse,
    CertificateInvalid,
    DeadlineExceeded,
    Unreachable,
    printable,
    quoted,
)
from endpoint_probe.http import exchange
from endpoint_probe.smoke import MODELS
from endpoint_probe.url import ApiKey, TlsOptions, check_url
from ops_cli.aws import Aws
from ops_cli.capacity_blocks import describe_reservation
from ops_cli.errors import ExitCode, OpsError
from ops_cli.output import utc_and_local
from ops_cli.progress import Progress
from ops_cli.tools import ToolTimedOut, command_line, run_tool, tool_failure, tool_json


def describe_group(aws: Aws, env: EnvironmentConfig, group: str, action: str) -> dict | None:
    """``group`` as EKS describes it (DescribeNodegroup's ``nodegroup``), or None when it is not deployed."""
    try:
        return aws.call(
            "eks",
            "describe_nodegroup",
            action,
            clusterName=env.cluster_name,
            nodegroupName=group,
        )["nodegroup"]
    except OpsError as error:
        if error.exit_code is not ExitCode.NOT_FOUND:
            raise
        return None


def gpu_node_groups(aws: Aws, env: EnvironmentConfig, now: datetime) -> tuple[list[str], str]:
    """The GPU node groups whose nodes to wait for, and why these.

    Without a next reservation, GPU_NODEGROUP. With one (docs/capacity.md, "Serve across blocks"), each slot's group
    whose reservation is active and not yet at its scale-down (EKS scales the group to 0 forty minutes before the
    block's end, deployment_config/gpu_nodes.py: those nodes are going, not coming); when no reservation is, the group
    of the one that starts first (a group launches its instances when its reservation becomes active, EKS user guide
    capacity-blocks-mng.adoc at awsdocs/amazon-eks-user-guide@2ef9e38, so its nodes come first)."""
    capacity = env.capacity
    if capacity is None or not capacity.next_capacity_reservation_id:
        return [GPU_NODEGROUP], ""
    slots = [
        (GPU_NODEGROUP, describe_reservation(aws, capacity.capacity_reservation_id)),
        (NEXT_GPU_NODEGROUP, describe_reservation(aws, capacity.next_capacity_reservation_id)),
    ]
    scale_in = timedelta(minutes=EKS_SCALE_IN_BEFORE_END_MINUTES)
    serving = [
        group
        for group, found in slots
        if found.get("State") == "active"
        and (found.get("EndDate") is None or now < found["EndDate"] - scale_in)
    ]
    if serving:
        return serving, "the group(s) whose Capacity Block is active and before its scale-down"
    coming = [slot for slot in slots if slot[1].get("State") not in FINAL_STATES]
    if not coming:
        return [GPU_NODEGROUP], "no Capacity Block is active or coming"
    # a reservation without a start date (another shape than EC2's) sorts last: read as not coming yet
    first = min(coming, key=lambda slot: _start(slot[1]))
    return (
        [first[0]],
        f"no Capacity Block is active: the group of the one that starts first, {first[1]['CapacityReservationId']}",
    )


def wait_for_reservation(aws: Aws, reservation_id: str, progress: Progress) -> dict:
    last: dict = {}

    def probe() -> tuple[bool, str]:
        reservation = describe_reservation(aws, reservation_id)
        last.update(reservation)
        state = reservation.get("State", "unknown")
        if state in FINAL_STATES:
            raise OpsError(
                f"reservation {reservation_id} is {state}; it will never become active",
                "buy a new Capacity Block",
                ExitCode.CHECK_FAILED,
            )
        return state == "active", f"{state}, starts {utc_and_local(reservation.get('StartDate'))}"

    progress.run(probe)
    return last


def _group_state(
    aws: Aws, env: EnvironmentConfig, name: str, named: bool
) -> tuple[bool, str, dict]:
    """One GPU node group: (ready, the status line, its state); raises when it failed with no node in service.
    ``named``: more than one group is waited for, so the messages name it."""
    group = aws.call(
        "eks",
        "describe_nodegroup",
        f"describe the GPU node group {name}" if named else "describe the GPU node group",
        clusterName=env.cluster_name,
        nodegroupName=name,
    )["nodegroup"]
    desired = group.get("scalingConfig", {}).get("desiredSize", 0)
    issues = [
        f"{i.get('code')}: {i.get('message')}" for i in group.get("health", {}).get("issues", [])
    ]
    asg_names = [g["name"] for g in group.get("resources", {}).get("autoScalingGroups", [])]
    in_service = 0
    if asg_names:
        asgs = aws.call(
            "autoscaling",
            "describe_auto_scaling_groups",
            "describe the GPU Auto Scaling group",
            AutoScalingGroupNames=asg_names,
        )["AutoScalingGroups"]
        in_service = sum(
            1
            for g in asgs
            for i in g.get("Instances", [])
            if i.get("LifecycleState") == "InService"
        )
    state = {
        "status": group.get("status"),
        "desired": desired,
        "in_service": in_service,
        "issues": issues,
    }
    if group.get("status") in {"CREATE_FAILED", "DELETING", "DEGRADED"} and not in_service:
        raise OpsError(
            f"GPU node group {name + ' ' if named else ''}is {group.get('status')}: "
            f"{'; '.join(issues) or 'no detail'}",
            "check the Capacity Block state and the node group's health issues",
            ExitCode.CHECK_FAILED,
        )
    status = f"{name}: " if named else ""
    status += f"{group.get('status')}, {in_service}/{desired} instances in service"
    if issues:
        status += f" ({issues[0]})"
    return group.get("status") == "ACTIVE" and desired > 0 and in_service >= desired, status, state


def wait_for_gpu_nodes(
    aws: Aws, env: EnvironmentConfig, progress: Progress, now: datetime | None = None
) -> dict:
    """Until the GPU node group(s) holding nodes (:func:`gpu_node_groups`) are ACTIVE and their Auto Scaling groups
    have the desired instances in service. With two groups the state has each (``groups``), the totals and why
    these groups (``chosen``)."""
    names, why = gpu_node_groups(aws, env, now or datetime.now(UTC))
    named = bool(why)  # with a next reservation configured, every message names its group
    last: dict = {}

    def probe() -> tuple[bool, str]:
        results = [(name, *_group_state(aws, env, name, named)) for name in names]
        if not why:
            last.update(results[0][3])
            return results[0][1], results[0][2]
        states = {name: state for name, _, _, state in results}
        last.update(
            {
                "groups": states,
                "chosen": why,
                "desired": sum(s["desired"] for s in states.values()),
                "in_service": sum(s["in_service"] for s in states.values()),
            }
        )
        return all(ready for _, ready, _, _ in results), "; ".join(
            line for _, _, line, _ in results
        )

    progress.run(probe)
    return last


def wait_for_health(
    url: str,
    progress: Progress,
    request_timeout: float = 10.0,
    api_key: ApiKey | None = None,
    tls: TlsOptions | None = None,
    deadline: Deadline | None = None,
) -> dict | None:
    """Until ``url``/health answers 200; then, with ``api_key``, one ``GET /v1/models`` with the key.

    A URL that cannot work fails at once with ``ExitCode.USAGE``, before any request. Each probe has its own deadline
    of ``request_timeout`` seconds for the whole request (see endpoint_probe.http); a probe that runs past it, finds nothing
    listening, or gets garbage back means "not healthy yet", and the wait goes on until ``progress`` gives up.

    The probes carry no key: vLLM 0.33.0 checks the key only under /v1, /v2, /inference and /cohere, never on /health
    (vllm/entrypoints/serve/middleware/authenticate.py, ``GUARDED_PREFIX``), so a wait needs none and a wrong key
    cannot make it time out. A healthy server that refuses the key would still fail every request after the wait,
    so the key is tried once at the end: a 401 is an ``OpsError`` (``CHECK_FAILED``) naming where the key came from.

    A TLS certificate that does not verify for the name checked (``tls.server_name``, else the URL's host) ends the
    wait at once with that error (``CHECK_FAILED``): waiting does not make it valid.

    :returns: ``{"source", "accepted", "detail"}`` of the key check, or None without ``api_key``. ``accepted`` is
        None when the check got no clear answer (anything but 2xx or 401), which does not fail the wait.
    """
    endpoint = check_url(url, tls=tls)

    def probe() -> tuple[bool, str]:
        try:
            with exchange(
                endpoint,
                "GET",
                "/health",
                what="GET /health",
                timeout=request_timeout,
                timeout_option="--request-timeout",
                deadline=deadline,
            ) as response:
                if response.status == 200:
                    return True, "HTTP 200"
                location = (
                    response.headers.get("Location") if 300 <= response.status < 400 else None
                )
                return False, f"HTTP {response.status}" + (
                    f" (a redirect to {quoted(location, 120)})" if location else ""
                )
        except DeadlineExceeded:
            if deadline is not None and deadline.passed() and deadline.seconds < request_timeout:
                return (
                    False,
                    f"no complete answer within {deadline.seconds:g} s (the command's {deadline.option})",
                )
            return False, f"no complete answer within {request_timeout:g} s"
        except CertificateInvalid:
            raise
        except Unreachable as error:
            return False, f"not answering ({error.reason})"
        except BadResponse as error:
            return False, f"bad answer ({error})"

    progress.run(probe)
    return verify_api_key(endpoint, api_key, request_timeout, deadline) if api_key else None


def verify_api_key(
    endpoint, api_key: ApiKey, request_timeout: float, deadline: Deadline | None = None
) -> dict:
    """One ``GET /v1/models`` with ``api_key``: accepted (2xx), refused (401: :func:`endpoint_probe.answers.unauthorized`), or
    not known (any other answer, or none within ``request_timeout``; the smoke test will tell)."""
    result = {"source": api_key.source, "accepted": None, "detail": ""}
    try:
        with exchange(
            endpoint,
            "GET",
            "/v1/models",
            what=MODELS,
            timeout=request_timeout,
            timeout_option="--request-timeout",
            headers={"Accept": "application/json"},
            api_key=api_key,
            deadline=deadline,
        ) as response:
            if response.status == UNAUTHORIZED:
                raise unauthorized(response, MODELS, api_key)
            if 200 <= response.status < 300:
                result.update(
                    accepted=True, detail=f"{MODELS} with the key: HTTP {response.status}"
                )
            else:
                result["detail"] = f"{MODELS} with the key answered {response.summary()}"
    except (DeadlineExceeded, Unreachable, BadResponse) as error:
        result["detail"] = f"{MODELS} with the key: {error}"
    return result


INFERENCE_RESOURCE = "inferenceendpointconfigs.inference.sagemaker.aws.amazon.com"
#: The longest one kubectl read may take; a wait's --timeout can only shorten it.
KUBECTL_CAP_S = 60


def inference_endpoint_state(
    kubectl: str, name: str, namespace: str, run=None, *, deadline: Deadline | None = None
) -> dict:
    """The InferenceEndpointConfig as JSON, read with kubectl (the Kubernetes API is not reachable through boto3), in
    at most :data:`KUBECTL_CAP_S` and what is left of ``deadline``. A read that took longer than its cap (but not past
    the deadline) is a state of its own, ``unknown``: the next poll tries again."""
    argv = [kubectl, "get", INFERENCE_RESOURCE, name, "-n", namespace, "-o", "json"]
    try:
        result = run_tool(argv, deadline=deadline, cap=KUBECTL_CAP_S, run=run)
    except ToolTimedOut as error:
        if error.deadline_passed:
            raise
        return {"status": {"state": f"unknown (kubectl did not answer within {KUBECTL_CAP_S} s)"}}
    if result.returncode != 0:
        detail = (
            result.stderr.strip().splitlines()[-1]
            if result.stderr.strip()
            else f"exit {result.returncode}"
        )
        if "NotFound" in detail or "not found" in detail:
            raise OpsError(
                f"no InferenceEndpointConfig {namespace}/{name}: {printable(detail, 300)}",
                "check --name and --namespace, or apply the endpoint first",
                ExitCode.NOT_FOUND,
            )
        raise tool_failure(result)
    state = tool_json(result)
    if not isinstance(state.get("status", {}), dict):
        raise OpsError(
            f"kubectl's InferenceEndpointConfig {namespace}/{name} has a status that is not an object",
            f"look at it by hand: {command_line(argv)}",
            ExitCode.AWS_ERROR,
        )
    return state


def wait_for_inference_endpoint(
    kubectl: str,
    name: str,
    namespace: str,
    progress: Progress,
    run=None,
    *,
    deadline: Deadline | None = None,
) -> dict:
    """Until the HyperPod InferenceEndpointConfig reaches DeploymentComplete; fail with its reason on DeploymentFailed."""
    last: dict = {}

    def probe() -> tuple[bool, str]:
        status = (
            inference_endpoint_state(kubectl, name, namespace, run, deadline=deadline).get("status")
            or {}
        )
        last.clear()
        last.update(status)
        # Only the fields of the shapes the operator writes count; anything else reads as not there yet.
        state = status.get("state") if isinstance(status.get("state"), str) else "no status yet"
        deployment = (
            status.get("deploymentStatus")
            if isinstance(status.get("deploymentStatus"), dict)
            else {}
        )
        conditions = [c for c in _list(status.get("conditions")) if isinstance(c, dict)]
        detail = deployment.get("message") or next(
            (
                c.get("message")
                for c in conditions
                if c.get("status") == "False" and c.get("message")
            ),
            "",
        )
        state, detail = printable(state, 80), printable(str(detail), 300)
        if state in {
            "DeploymentFailed",
            "DeletionPending",
            "DeletionInProgress",
            "DeletionFailed",
            "DeletionComplete",
        }:
            raise OpsError(
                f"InferenceEndpointConfig {namespace}/{name} is {state}: {detail or 'no reason given'}",
                f"kubectl describe {INFERENCE_RESOURCE.split('.')[0]} {name} -n {namespace}; fix and re-apply",
                ExitCode.CHECK_FAILED,
            )
        return state == "DeploymentComplete", f"{state}{f' ({detail})' if detail else ''}"

    progress.run(probe)
    return last


def _start(reservation: dict) -> datetime:
    start = reservation.get("StartDate")
    return start if isinstance(start, datetime) else datetime.max.replace(tzinfo=UTC)


def _list(value) -> list:
    return value if isinstance(value, list) else []
