"""The "image pulled" phase of a vLLM pod's start, from the kubelet's events: of the pre-pull DaemonSet's pod on the same
node when it pulled the image (charts/vllm_image_prepull.py: beside the weights' copy), else of the first container of
the vLLM pod that pulled it (ops_cli/startup_phases.py)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from deployment_config.kubernetes_names import IMAGE_PREPULL_CONTAINER, IMAGE_PREPULL_NAME
from ops_cli.startup_records import Phase, as_dict, dicts, event_time

#: The kubelet's Pulled message: "Successfully pulled image \"IMAGE\" in 4m30.2s (4m30.2s including waiting)"
#: (kubernetes/kubernetes pkg/kubelet/images/image_manager.go); the duration as the kubelet measured it.
_PULL_DURATION = re.compile(r"Successfully pulled image .*? in (?P<duration>[0-9hms.]+)")


def _pulled_by(events: list[dict], field_path: str, who: str) -> Phase | None:
    """The pull the events of the container at ``field_path`` record, None when it pulled nothing (no Pulling event,
    and a Pulled one that says "already present", or none)."""
    mine = [e for e in events if as_dict(e.get("involvedObject")).get("fieldPath") == field_path]
    pulling = next((event_time(e) for e in mine if e.get("reason") == "Pulling"), None)
    pulled = next((e for e in mine if e.get("reason") == "Pulled"), None)
    if pulling is None and (
        pulled is None or "already present" in str(pulled.get("message") or "")
    ):
        return None
    took = _PULL_DURATION.search(str(pulled.get("message") or "")) if pulled else None
    source = f"events Pulling, Pulled of {who}" + (
        f" (kubelet: {took.group('duration')})" if took else ""
    )
    return Phase("image pulled", pulling, event_time(pulled) if pulled else None, source)


def image_pull(
    pod: dict, events: list[dict], container: str, prepull_events: Sequence[dict] = ()
) -> Phase:
    """The pull of the vLLM container's image: by the pre-pull pod of the node (``prepull_events``, its events) when
    it pulled it, else by the first container of the pod that pulled it: init containers run before the vLLM container
    and the kubelet pulls an image once per node (imagePullPolicy IfNotPresent)."""
    prepulled = _pulled_by(
        dicts(list(prepull_events)),
        f"spec.containers{{{IMAGE_PREPULL_CONTAINER}}}",
        f"{IMAGE_PREPULL_NAME} on the node, beside the weights' copy",
    )
    if prepulled is not None:
        return prepulled
    spec = as_dict(pod.get("spec"))
    image = next(
        (c.get("image") for c in dicts(spec.get("containers")) if c.get("name") == container), None
    )
    same_image = [
        f"spec.initContainers{{{c.get('name')}}}"
        for c in dicts(spec.get("initContainers"))
        if image is not None and c.get("image") == image
    ]
    for field_path in (*same_image, f"spec.containers{{{container}}}"):
        found = _pulled_by(events, field_path, field_path.partition("{")[2].rstrip("}"))
        if found is not None:
            return found
    pulled = next(
        (
            e
            for e in events
            if e.get("reason") == "Pulled"
            and as_dict(e.get("involvedObject")).get("fieldPath")
            == f"spec.containers{{{container}}}"
        ),
        None,
    )
    if pulled is not None:
        at = event_time(pulled)
        return Phase("image pulled", at, at, "event Pulled: already present on the node")
    return Phase("image pulled", None, None, "events Pulling, Pulled")
