"""Where a vLLM pod's start went: node ready, image pulled, weights present, model loaded, engine ready, first healthy,
each with its duration, from what Kubernetes and vLLM record (read with kubectl; the Kubernetes API is not reachable
through boto3).

The sources, each the only one for its phase:

- the node's ``Ready`` condition (its ``lastTransitionTime``) and the pod's ``PodScheduled`` and ``Ready`` conditions
  (Kubernetes 1.34 API, NodeCondition and PodCondition);
- the kubelet's events for the image pre-pull pod on the same node (``vllm-image-prepull``, charts/vllm_image_prepull.py),
  which pulls the vLLM image beside the weights' copy: its ``Pulling`` and ``Pulled`` when it pulled it
  (ops_cli/image_pull_phase.py); otherwise the pod's own events: ``Pulling`` and ``Pulled`` of the vLLM image, by
  whichever container of the pod pulled it first (with S3 weights that is the ``verify-weights`` init container, which
  runs the vLLM image before the vLLM container starts; the later containers' events then say "already present on
  machine"), with ``eventTime`` or
  ``firstTimestamp``; the kubelet's own duration ("Successfully pulled image ... in 4m30s") is shown beside it;
- the init container that restores vLLM's compile cache (``restore-compile-cache``, charts/compile_cache/): its
  ``terminated`` ``startedAt`` / ``finishedAt``, and its ``message``: the script's outcome (restored, already on the
  node, none saved yet, refused), written to the termination log, so the engine's warm-up that follows reads as with or
  without a cache;
- the init container that copies S3 weights (``fetch-weights``, charts/vllm_deployment.py): its ``terminated``
  ``startedAt`` / ``finishedAt``; with ``model.weight_load: runai_streamer`` there is no copy, and the init container
  that checks the objects in S3 instead (``check-weights-s3``, charts/vllm_weights_check/) gives its own, the stream
  itself being vLLM's "Model loading took";
- vLLM's own log lines, read with ``kubectl logs --timestamps`` (ops_cli/engine_log_phases.py names each line and its
  source): the weights' download and load, torch.compile, CUDA-graph capture, the engine's warm-up, and the first
  completion the server answered (uvicorn's access line), the first token a client got.

A phase whose record is missing (not reached yet, an event Kubernetes has already expired after its one-hour
default TTL, a log rotated away) is reported as unknown, never guessed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from deployment_config.kubernetes_names import IMAGE_PREPULL_POD_LABELS, IMAGE_PREPULL_SELECTOR
from endpoint_probe.deadline import Deadline
from ops_cli.engine_log_phases import DOWNLOADED, first_token, load_and_engine_phases, log_times
from ops_cli.errors import ExitCode, OpsError
from ops_cli.image_pull_phase import image_pull
from ops_cli.startup_records import Phase
from ops_cli.startup_records import as_dict as _dict
from ops_cli.startup_records import dicts as _dicts
from ops_cli.startup_records import parse_time as _time
from ops_cli.tools import command_line, run_tool, tool_failure, tool_json

#: The init container of the EKS path that copies the weights from S3 (charts/vllm_deployment.py).
FETCH_WEIGHTS_CONTAINER = "fetch-weights"
#: The init container after it that checks the copy against its manifest (charts/vllm_weights_check/).
VERIFY_WEIGHTS_CONTAINER = "verify-weights"
#: The init container of a streamed start that checks each object's size and CRC64NVME in S3 against the manifest
#: (charts/vllm_weights_check/ ``S3_INIT_CONTAINER``).
CHECK_S3_CONTAINER = "check-weights-s3"
#: Its phase, as `llmops phases --json` names it (bench/measured_phases.py reads it).
CHECK_S3_PHASE = "weights checked in S3 (size, CRC64NVME)"
#: The init container that restores vLLM's compile cache before vLLM starts (charts/compile_cache/).
RESTORE_CACHE_CONTAINER = "restore-compile-cache"


def _condition(obj: dict, kind: str) -> datetime | None:
    for condition in _dicts(_dict(obj.get("status")).get("conditions")):
        if condition.get("type") == kind and condition.get("status") == "True":
            return _time(condition.get("lastTransitionTime"))
    return None


def _ran(phase: str, container: str, terminated: dict, more: str = "") -> Phase:
    """The phase of a run of the init container ``container``: its ``terminated`` state's start to its finish."""
    return Phase(
        phase,
        _time(terminated.get("startedAt")),
        _time(terminated.get("finishedAt")),
        f"init container {container}{more}",
    )


def _init_terminated(pod: dict, name: str) -> dict:
    """The ``terminated`` state of the init container ``name`` (its last run, if it ran again since); {} if none, and
    for a pod of an unexpected shape."""
    init = next(
        (
            s
            for s in _dicts(_dict(pod.get("status")).get("initContainerStatuses"))
            if s.get("name") == name
        ),
        {},
    )
    return _dict(_dict(init.get("state")).get("terminated")) or _dict(
        _dict(init.get("lastState")).get("terminated")
    )


def startup_phases(
    *,
    pod: dict,
    node: dict | None,
    events: Sequence[dict],
    log_lines: Sequence[str],
    container: str,
    prepull_events: Sequence[dict] = (),
) -> list[Phase]:
    """The phases of ``pod``'s start (its ``container`` runs vLLM), from its node, its events, vLLM's log lines and the
    events of the node's image pre-pull pod (charts/vllm_image_prepull.py)."""
    phases: list[Phase] = []
    node_ready = _condition(node, "Ready") if node else None
    scheduled = _condition(pod, "PodScheduled")
    phases.append(
        Phase(
            "node ready → pod scheduled",
            node_ready,
            scheduled,
            "node condition Ready, pod condition PodScheduled",
        )
    )

    phases.append(image_pull(pod, _dicts(list(events)), container, prepull_events))

    terminated, verified, checked_s3 = (
        _init_terminated(pod, name)
        for name in (FETCH_WEIGHTS_CONTAINER, VERIFY_WEIGHTS_CONTAINER, CHECK_S3_CONTAINER)
    )
    downloaded = log_times(log_lines, DOWNLOADED)
    if checked_s3:
        phases.append(
            _ran(
                CHECK_S3_PHASE,
                CHECK_S3_CONTAINER,
                checked_s3,
                "; the weights are streamed from S3 in the load below",
            )
        )
    elif terminated:
        phases.append(_ran("weights on the node (S3 copy)", FETCH_WEIGHTS_CONTAINER, terminated))
        if verified:
            phases.append(_ran("weights checked (manifest)", VERIFY_WEIGHTS_CONTAINER, verified))
    elif downloaded:
        end, seconds = downloaded
        phases.append(
            Phase(
                "weights on the node (Hugging Face download)",
                end - timedelta(seconds=seconds),
                end,
                "vLLM: Time spent downloading weights",
            )
        )
    else:
        phases.append(
            Phase(
                "weights on the node",
                None,
                None,
                "no download logged (already cached, or not reached yet)",
            )
        )

    restored = _init_terminated(pod, RESTORE_CACHE_CONTAINER)
    if restored:
        outcome = str(restored.get("message") or "").strip().removeprefix("compile-cache: ")
        phases.append(
            _ran(
                "compile cache restored (S3)",
                RESTORE_CACHE_CONTAINER,
                restored,
                f": {outcome}" if outcome else "",
            )
        )
    phases += load_and_engine_phases(log_lines)
    ready = _condition(pod, "Ready")
    last = next((p.finished for p in reversed(phases) if p.finished is not None), None)
    phases.append(Phase("first healthy (readiness)", last, ready, "pod condition Ready"))
    phases.append(first_token(log_lines, ready))
    phases.append(Phase("total: node ready → healthy", node_ready or scheduled, ready, "the above"))
    return phases


def choose_pod(pods: list[dict]) -> tuple[dict, str | None]:
    """The pod whose start to read, and a note when it is not simply the newest.

    With a next Capacity Block the Deployment runs standby replicas (docs/capacity.md, "Serve across blocks") that
    stay Pending, with no node (``spec.nodeName`` unset), until the next block's nodes join: the newest pod is then
    often one that has not started at all. So: a scheduled pod still starting (not Ready, not being deleted), the
    newest such; else the newest scheduled pod; else, none being scheduled, the newest."""

    def newest(among: list[dict]) -> dict:
        return max(among, key=lambda p: str(p["metadata"].get("creationTimestamp") or ""))

    scheduled = [p for p in pods if isinstance(_dict(p.get("spec")).get("nodeName"), str)]
    starting = [
        p
        for p in scheduled
        if not p["metadata"].get("deletionTimestamp")
        and not any(
            c.get("type") == "Ready" and c.get("status") == "True"
            for c in _dicts(_dict(p.get("status")).get("conditions"))
        )
    ]
    last, pod = newest(pods), newest(starting or scheduled or pods)
    name, last_name = pod["metadata"]["name"], last["metadata"]["name"]
    if not scheduled:
        return pod, f"no pod is on a node yet: the newest of {len(pods)}, {name}, is read"
    if pod is last:
        return pod, None
    why = "the newest pod still starting on a node" if starting else "the newest pod on a node"
    state = "is ready or going" if last in scheduled else "has no node yet"
    return pod, f"{name} is read, {why}: the newest, {last_name}, {state}"


def read_startup_phases(
    kubectl: str,
    *,
    namespace: str,
    selector: str,
    container_image: str | None = None,
    run: Callable | None = None,
    deadline: Deadline | None = None,
) -> tuple[dict, dict | None, list[Phase], str | None]:
    """Read the pod matching ``selector`` in ``namespace`` that :func:`choose_pod` picks, its node, its events and its
    vLLM container's log (the container whose image is ``container_image``, else the first), and return (pod, node,
    phases, the note of choose_pod). Each kubectl call
    runs within its cap and what is left of ``deadline`` (ops_cli/tools.py); what kubectl prints that is not the
    JSON asked for is an error naming the command to run by hand."""

    def kubectl_json(*args: str) -> dict:
        result = run_tool([kubectl, *args, "-o", "json"], deadline=deadline, cap=60, run=run)
        if result.returncode != 0:
            raise tool_failure(result)
        return tool_json(result)

    listing = [kubectl, "get", "pods", "-n", namespace, "-l", selector, "-o", "json"]
    pods = [
        p
        for p in _dicts(kubectl_json(*listing[1:-2]).get("items"))
        if isinstance(p.get("metadata"), dict) and isinstance(p["metadata"].get("name"), str)
    ]
    if not pods:
        raise OpsError(
            f"no pod matches {selector} in namespace {namespace}",
            f"deploy the serving stack first, or check --env; by hand: {command_line(listing)}",
            ExitCode.NOT_FOUND,
        )
    pod, note = choose_pod(pods)
    name = pod["metadata"]["name"]
    spec = pod.get("spec") if isinstance(pod.get("spec"), dict) else {}
    containers = _dicts(spec.get("containers")) or [{}]
    container = next(
        (
            c["name"]
            for c in containers
            if container_image
            and c.get("image") == container_image
            and isinstance(c.get("name"), str)
        ),
        str(containers[0].get("name") or ""),
    )
    node_name = spec.get("nodeName") if isinstance(spec.get("nodeName"), str) else None
    node = kubectl_json("get", "node", node_name) if node_name else None
    events = _pod_events(kubectl_json, namespace, name)
    result = run_tool(
        [kubectl, "logs", "-n", namespace, name, "-c", container, "--timestamps"],
        deadline=deadline,
        cap=120,
        run=run,
    )
    lines = result.stdout.splitlines() if result.returncode == 0 else []
    return (
        pod,
        node,
        startup_phases(
            pod=pod,
            node=node,
            events=events,
            log_lines=lines,
            container=container,
            prepull_events=_prepull_events(kubectl_json, namespace, node_name),
        ),
        note,
    )


def _prepull_events(kubectl_json: Callable, namespace: str, node_name: str | None) -> list[dict]:
    """The events of the image pre-pull pod on ``node_name`` (charts/vllm_image_prepull.py), [] when there is none."""
    if node_name is None:
        return []
    pods = _dicts(
        kubectl_json(
            "get",
            "pods",
            "-n",
            namespace,
            "-l",
            IMAGE_PREPULL_SELECTOR,
            "--field-selector",
            f"spec.nodeName={node_name}",
        ).get("items")
    )
    names = [
        p["metadata"]["name"]
        for p in pods
        if isinstance(_dict(p.get("metadata")).get("name"), str)
        and all(
            _dict(p["metadata"].get("labels")).get(k) == v
            for k, v in IMAGE_PREPULL_POD_LABELS.items()
        )
    ]
    if not names:
        return []
    return _pod_events(kubectl_json, namespace, names[0])


def _pod_events(kubectl_json: Callable, namespace: str, pod: str) -> list[dict]:
    """The events Kubernetes still holds about the pod ``pod``."""
    selector = f"involvedObject.kind=Pod,involvedObject.name={pod}"
    return _dicts(
        kubectl_json("get", "events", "-n", namespace, "--field-selector", selector).get("items")
    )
