"""Where a start went (llmops phases; llmops wait endpoint --env): the phases read from what kubectl prints for the
serving pod, its node, its events and vLLM's log. The kubectl output here is written in the shapes of the Kubernetes
1.34 API and `kubectl logs --timestamps`, with vLLM 0.33.0's own log format strings (ops_cli/startup_phases.py names
each); it was not recorded from a live cluster, which this machine cannot reach."""

from __future__ import annotations

import json
import subprocess

from deployment_config.kubernetes_names import (
    IMAGE_PREPULL_POD_LABELS,
    IMAGE_PREPULL_SELECTOR,
    SERVING_NAMESPACE,
    SERVING_POD_SELECTOR,
)
from ops_cli.errors import ExitCode
from ops_cli.startup_phases import startup_phases
from tests.ops_cli.openai_server import Behaviour, openai_server

POD = "vllm-7d9f8b6c5d-x2k4p"
NODE = "ip-10-0-12-34.us-west-2.compute.internal"


def pod(*, ready: bool = True, fetched: bool = False) -> dict:
    conditions = [
        {"type": "PodScheduled", "status": "True", "lastTransitionTime": "2026-11-30T10:02:10Z"}
    ]
    if ready:
        conditions.append(
            {"type": "Ready", "status": "True", "lastTransitionTime": "2026-11-30T11:31:40Z"}
        )
    status = {"conditions": conditions}
    if fetched:
        status["initContainerStatuses"] = [
            {
                "name": "fetch-weights",
                "state": {
                    "terminated": {
                        "exitCode": 0,
                        "startedAt": "2026-11-30T10:03:00Z",
                        "finishedAt": "2026-11-30T10:21:00Z",
                    }
                },
            },
            {
                "name": "verify-weights",
                "state": {
                    "terminated": {
                        "exitCode": 0,
                        "startedAt": "2026-11-30T10:21:01Z",
                        "finishedAt": "2026-11-30T10:23:01Z",
                    }
                },
            },
        ]
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "name": POD,
            "namespace": SERVING_NAMESPACE,
            "creationTimestamp": "2026-11-30T10:02:09Z",
        },
        "spec": {
            "nodeName": NODE,
            "containers": [{"name": "vllm", "image": "vllm/vllm-openai:kimi-k3"}],
        },
        "status": status,
    }


NODE_JSON = {
    "kind": "Node",
    "metadata": {"name": NODE},
    "status": {
        "conditions": [
            {
                "type": "MemoryPressure",
                "status": "False",
                "lastTransitionTime": "2026-11-30T10:01:30Z",
            },
            {"type": "Ready", "status": "True", "lastTransitionTime": "2026-11-30T10:01:55Z"},
        ]
    },
}


def event(reason: str, time: str, message: str = "") -> dict:
    return {
        "kind": "Event",
        "reason": reason,
        "message": message,
        "firstTimestamp": time,
        "eventTime": None,
        "involvedObject": {"kind": "Pod", "name": POD, "fieldPath": "spec.containers{vllm}"},
    }


EVENTS = [
    {
        "kind": "Event",
        "reason": "Scheduled",
        "firstTimestamp": None,
        "eventTime": "2026-11-30T10:02:10.000000Z",
        "involvedObject": {"kind": "Pod", "name": POD},
    },
    event("Pulling", "2026-11-30T10:02:12Z", 'Pulling image "vllm/vllm-openai:kimi-k3"'),
    event(
        "Pulled",
        "2026-11-30T10:06:42Z",
        'Successfully pulled image "vllm/vllm-openai:kimi-k3" in 4m30s',
    ),
    event("Started", "2026-11-30T10:06:45Z", "Started container vllm"),
]

TP0, TP7 = "(Worker_TP0 pid=211) INFO 11-30", "(Worker_TP7 pid=218) INFO 11-30"
LOG = [
    "2026-11-30T10:06:50.120000000Z INFO 11-30 10:06:50 [api_server/entry.py:139] Starting vLLM server on 0.0.0.0:8000",
    f"2026-11-30T11:05:40.000000000Z {TP0} 11:05:40 [weight_utils.py:538] Time spent downloading weights for "
    "moonshotai/Kimi-K3: 3500.000000 seconds",
    f"2026-11-30T11:17:10.000000000Z {TP0} 11:17:10 [default_loader.py:507] Loading weights took 680.10 seconds",
    f"2026-11-30T11:17:20.000000000Z {TP0} 11:17:20 [gpu_model_runner.py:5089] Model loading took 175.12 GiB memory "
    "and 690.000000 seconds",
    f"2026-11-30T11:17:30.000000000Z {TP7} 11:17:30 [gpu_model_runner.py:5089] Model loading took 175.12 GiB memory "
    "and 700.000000 seconds",
    "2026-11-30T11:31:00.000000000Z INFO 11-30 11:31:00 [core.py:413] init engine (profile, create kv cache, warmup "
    "model) took 800.00 s",
]


def by_name(phases) -> dict:
    return {p.name: p for p in phases}


def test_a_hugging_face_start_is_split_into_its_phases():
    phases = by_name(
        startup_phases(pod=pod(), node=NODE_JSON, events=EVENTS, log_lines=LOG, container="vllm")
    )
    assert phases["node ready → pod scheduled"].seconds == 15
    assert phases["image pulled"].seconds == 270  # Pulling 10:02:12 → Pulled 10:06:42
    download = phases["weights on the node (Hugging Face download)"]
    assert download.seconds == 3500 and download.finished.isoformat() == "2026-11-30T11:05:40+00:00"
    # the last tensor-parallel rank's line counts: rank 7 finished last
    loaded = phases["model loaded into the GPUs"]
    assert loaded.seconds == 700 and loaded.finished.isoformat() == "2026-11-30T11:17:30+00:00"
    assert phases["engine ready (profile, KV cache, warm-up)"].seconds == 800
    assert (
        phases["first healthy (readiness)"].seconds == 40
    )  # engine ready 11:31:00 → Ready 11:31:40
    assert (
        phases["total: node ready → healthy"].seconds == (11 * 60 + 31 - 10 * 60 - 1) * 60 + 40 - 55
    )


def test_an_s3_start_takes_its_weights_phase_from_the_init_container():
    phases = by_name(
        startup_phases(
            pod=pod(fetched=True),
            node=NODE_JSON,
            events=EVENTS,
            log_lines=LOG[2:],
            container="vllm",
        )
    )
    assert phases["weights on the node (S3 copy)"].seconds == 18 * 60
    # and the check of the copy against its manifest, from the init container after it
    assert phases["weights checked (manifest)"].seconds == 2 * 60


def test_an_image_already_on_the_node_took_no_time():
    events = [
        event(
            "Pulled",
            "2026-11-30T10:02:11Z",
            'Container image "vllm/vllm-openai:kimi-k3" already present on machine',
        )
    ]
    phases = by_name(
        startup_phases(pod=pod(), node=NODE_JSON, events=events, log_lines=LOG, container="vllm")
    )
    assert (
        phases["image pulled"].seconds == 0 and "already present" in phases["image pulled"].source
    )


def test_a_start_in_progress_shows_what_is_not_reached_as_unknown():
    # given a pod still loading: no readiness, no model or engine line yet
    phases = by_name(
        startup_phases(
            pod=pod(ready=False), node=NODE_JSON, events=EVENTS, log_lines=LOG[:2], container="vllm"
        )
    )
    assert phases["model loaded into the GPUs"].seconds is None
    assert phases["first healthy (readiness)"].seconds is None
    assert phases["total: node ready → healthy"].seconds is None
    assert phases["image pulled"].seconds == 270


class FakeKubectl:
    """Answers the four kubectl reads of ops_cli.startup_phases.read_startup_phases; records the commands."""

    def __init__(self, pods: list[dict]) -> None:
        self.pods = pods
        self.commands: list[list[str]] = []

    def __call__(self, command, **kwargs):
        self.commands.append(command)
        args = command[1:]
        if args[:2] == ["get", "pods"]:
            out = {"items": self.pods}
        elif args[:2] == ["get", "node"]:
            out = NODE_JSON
        elif args[:2] == ["get", "events"]:
            out = {"items": EVENTS}
        elif args[0] == "logs":
            return subprocess.CompletedProcess(command, 0, "\n".join(LOG) + "\n", "")
        else:
            raise AssertionError(command)
        return subprocess.CompletedProcess(command, 0, json.dumps(out), "")


def test_llmops_phases_reads_the_serving_pod_of_the_environment(run_with_kubectl):
    older = {
        **pod(),
        "metadata": {
            **pod()["metadata"],
            "name": "vllm-old",
            "creationTimestamp": "2026-11-29T00:00:00Z",
        },
    }
    kubectl = FakeKubectl([older, pod()])
    result = run_with_kubectl(kubectl, "phases", "--env", "example", "--json")
    assert result.code == ExitCode.OK, result.stderr
    # the newest pod of the Deployment's labels, its node, its events and its vLLM container's log, with timestamps
    assert kubectl.commands[0][1:] == [
        "get",
        "pods",
        "-n",
        SERVING_NAMESPACE,
        "-l",
        SERVING_POD_SELECTOR,
        "-o",
        "json",
    ]
    assert ["get", "node", NODE, "-o", "json"] == kubectl.commands[1][1:]
    assert f"involvedObject.kind=Pod,involvedObject.name={POD}" in kubectl.commands[2]
    assert kubectl.commands[3][1:] == [
        "logs",
        "-n",
        SERVING_NAMESPACE,
        POD,
        "-c",
        "vllm",
        "--timestamps",
    ]
    phases = {p["phase"]: p for p in result.json["phases"]}
    assert phases["model loaded into the GPUs"]["seconds"] == 700.0


def renamed(base: dict, name: str, created: str, *, node: str | None = NODE) -> dict:
    """``base`` as another pod of the Deployment, created at ``created``, on ``node`` (None: Pending, no node)."""
    spec = {k: v for k, v in base["spec"].items() if k != "nodeName"}
    if node:
        spec["nodeName"] = node
    return {
        **base,
        "metadata": {**base["metadata"], "name": name, "creationTimestamp": created},
        "spec": spec,
    }


def test_phases_read_a_pod_on_a_node_not_the_newer_standby_replica_that_waits_for_the_next_block(
    run_with_kubectl,
):
    # With a next Capacity Block the Deployment's standby replicas stay Pending, with no node, until its nodes join.
    standby = renamed(pod(ready=False), "vllm-standby", "2026-11-30T12:00:00Z", node=None)
    kubectl = FakeKubectl([pod(), standby])
    result = run_with_kubectl(kubectl, "phases", "--env", "example")
    assert result.code == ExitCode.OK, result.stderr
    assert ["get", "node", NODE, "-o", "json"] == kubectl.commands[1][1:]
    assert POD in kubectl.commands[3]
    assert (
        f"{POD} is read, the newest pod on a node: the newest, vllm-standby, has no node yet"
        in result.stdout
    )


def test_phases_prefer_a_pod_still_starting_to_one_already_ready(run_with_kubectl):
    starting = renamed(pod(ready=False), "vllm-starting", "2026-11-30T09:00:00Z")
    kubectl = FakeKubectl([starting, pod()])
    result = run_with_kubectl(kubectl, "phases", "--env", "example", "--json")
    assert result.code == ExitCode.OK, result.stderr
    assert "vllm-starting" in kubectl.commands[3]
    assert result.json["pod_note"].startswith(
        "vllm-starting is read, the newest pod still starting on a node"
    )


def test_phases_with_no_pod_on_a_node_read_the_newest_and_say_so(run_with_kubectl):
    first = renamed(pod(ready=False), "vllm-a", "2026-11-30T09:00:00Z", node=None)
    second = renamed(pod(ready=False), "vllm-b", "2026-11-30T10:00:00Z", node=None)
    kubectl = FakeKubectl([first, second])
    result = run_with_kubectl(kubectl, "phases", "--env", "example")
    assert result.code == ExitCode.OK, result.stderr
    assert "vllm-b" in kubectl.commands[2]  # no node to read: the logs of the newest
    assert "no pod is on a node yet: the newest of 2, vllm-b, is read" in result.stdout


def test_phases_of_the_newest_pod_on_a_node_carry_no_note(run_with_kubectl):
    result = run_with_kubectl(FakeKubectl([pod()]), "phases", "--env", "example", "--json")
    assert result.code == ExitCode.OK, result.stderr
    assert result.json["pod_note"] is None


def test_wait_endpoint_with_env_reports_the_phases_after_healthy(aws, run_with_kubectl):
    from tests.ops_cli.test_api_key import KEY, stub_secret

    stub_secret(aws)
    with openai_server(Behaviour(api_key=KEY)) as url:
        result = run_with_kubectl(
            FakeKubectl([pod()]), "wait", "endpoint", "--url", url, "--env", "example"
        )
    assert result.code == ExitCode.OK, result.stderr
    assert (
        "is healthy" in result.stdout
        and "image pulled" in result.stdout
        and "4m30s" in result.stdout
    )


def test_wait_endpoint_reports_the_phases_of_a_pod_on_a_node_and_says_which(aws, run_with_kubectl):
    from tests.ops_cli.test_api_key import KEY, stub_secret

    stub_secret(aws)
    standby = renamed(pod(ready=False), "vllm-standby", "2026-11-30T12:00:00Z", node=None)
    with openai_server(Behaviour(api_key=KEY)) as url:
        result = run_with_kubectl(
            FakeKubectl([pod(), standby]),
            "wait",
            "endpoint",
            "--url",
            url,
            "--env",
            "example",
            "--json",
        )
    assert result.code == ExitCode.OK, result.stderr
    assert result.json["phases_pod_note"].startswith(f"{POD} is read")


def test_the_selector_is_the_one_the_chart_gives_the_pods(default_env):
    # the labels llmops selects by are on the Deployment's pod template (charts/recommended_labels.py)
    from charts.serving_spec import serving_spec_for
    from charts.vllm_serving_chart import synthesize_manifests

    (deployment,) = [
        o for o in synthesize_manifests(serving_spec_for(default_env)) if o["kind"] == "Deployment"
    ]
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert deployment["metadata"]["namespace"] == SERVING_NAMESPACE
    for requirement in SERVING_POD_SELECTOR.split(","):
        key, value = requirement.split("=")
        assert labels[key] == value


def init_event(container: str, reason: str, time: str, message: str = "") -> dict:
    return {
        **event(reason, time, message),
        "involvedObject": {
            "kind": "Pod",
            "name": POD,
            "fieldPath": f"spec.initContainers{{{container}}}",
        },
    }


RESTORED = (
    "compile-cache: restored s3://weights-bucket/compile-cache/0f3c/vllm-cache.tar to "
    "/models/compile-cache/0f3c"
)
NONE_YET = (
    "compile-cache: no cache saved yet at s3://weights-bucket/compile-cache/0f3c/vllm-cache.tar: vLLM "
    "compiles, and the save after the first healthy start stores it"
)


def s3_pod(*, restored: bool, outcome: str = RESTORED) -> dict:
    """An S3 start: verify-weights runs the vLLM image before vLLM, and (with the compile cache) the restore after it,
    whose outcome the kubelet keeps as its termination message."""
    result = pod(fetched=True)
    result["spec"]["initContainers"] = [
        {"name": "fetch-weights", "image": "public.ecr.aws/aws-cli/aws-cli@sha256:0"},
        {"name": "verify-weights", "image": "vllm/vllm-openai:kimi-k3"},
    ]
    if restored:
        result["spec"]["initContainers"].append(
            {"name": "restore-compile-cache", "image": "vllm/vllm-openai:kimi-k3"}
        )
        result["status"]["initContainerStatuses"].append(
            {
                "name": "restore-compile-cache",
                "state": {
                    "terminated": {
                        "exitCode": 0,
                        "startedAt": "2026-11-30T10:23:02Z",
                        "finishedAt": "2026-11-30T10:23:32Z",
                        "message": outcome,
                    }
                },
            }
        )
    return result


S3_EVENTS = [
    init_event(
        "verify-weights",
        "Pulling",
        "2026-11-30T10:02:12Z",
        'Pulling image "vllm/vllm-openai:kimi-k3"',
    ),
    init_event(
        "verify-weights",
        "Pulled",
        "2026-11-30T10:05:12Z",
        'Successfully pulled image "vllm/vllm-openai:kimi-k3" in 3m0.1s (3m0.1s including waiting)',
    ),
    init_event(
        "restore-compile-cache",
        "Pulled",
        "2026-11-30T10:23:02Z",
        'Container image "vllm/vllm-openai:kimi-k3" already present on machine',
    ),
    event(
        "Pulled",
        "2026-11-30T10:23:33Z",
        'Container image "vllm/vllm-openai:kimi-k3" already present on machine',
    ),
]


def test_the_image_pull_is_measured_on_the_init_container_that_pulled_the_vllm_image_first():
    # given an S3 start: the vLLM image was pulled for verify-weights; vLLM's own container found it present
    phases = by_name(
        startup_phases(
            pod=s3_pod(restored=False),
            node=NODE_JSON,
            events=S3_EVENTS,
            log_lines=LOG[2:],
            container="vllm",
        )
    )
    # then the pull is the 3 minutes it took, not 0, with the kubelet's own figure beside it
    pulled = phases["image pulled"]
    assert pulled.seconds == 180 and "verify-weights" in pulled.source and "3m0.1s" in pulled.source


def test_phases_show_the_warm_up_with_and_without_a_restored_compile_cache():
    without = by_name(
        startup_phases(
            pod=s3_pod(restored=False),
            node=NODE_JSON,
            events=S3_EVENTS,
            log_lines=LOG[2:],
            container="vllm",
        )
    )
    assert "compile cache restored (S3)" not in without
    # with the compile cache: its restore is a phase of its own, before the engine's warm-up
    cached_log = [
        *LOG[2:-1],
        "2026-11-30T10:40:00.000000000Z INFO 11-30 10:40:00 [core.py:413] init engine (profile, "
        "create kv cache, warmup model) took 95.00 s",
    ]
    cached = by_name(
        startup_phases(
            pod=s3_pod(restored=True),
            node=NODE_JSON,
            events=S3_EVENTS,
            log_lines=cached_log,
            container="vllm",
        )
    )
    restored = cached["compile cache restored (S3)"]
    assert restored.seconds == 30 and restored.source.startswith(
        "init container restore-compile-cache: restored s3://"
    )
    assert cached["engine ready (profile, KV cache, warm-up)"].seconds == 95
    # a first start of a key: the restore found nothing, and says that vLLM compiles
    first = by_name(
        startup_phases(
            pod=s3_pod(restored=True, outcome=NONE_YET),
            node=NODE_JSON,
            events=S3_EVENTS,
            log_lines=LOG[2:],
            container="vllm",
        )
    )
    assert "no cache saved yet" in first["compile cache restored (S3)"].source
    assert first["engine ready (profile, KV cache, warm-up)"].seconds == 800
    names = list(cached)
    assert (
        names.index("weights checked (manifest)")
        < names.index("compile cache restored (S3)")
        < names.index("engine ready (profile, KV cache, warm-up)")
    )


PREPULL_POD = "vllm-image-prepull-x7k2p"


def prepull_event(reason: str, time: str, message: str = "") -> dict:
    return {
        **event(reason, time, message),
        "involvedObject": {
            "kind": "Pod",
            "name": PREPULL_POD,
            "fieldPath": "spec.containers{pull-vllm-image}",
        },
    }


#: The node's pre-pull pod pulled the image from 10:02:11 to 10:06:11, while fetch-weights copied; verify-weights then
#: found it present.
PREPULL_EVENTS = [
    prepull_event("Pulling", "2026-11-30T10:02:11Z", 'Pulling image "vllm/vllm-openai:kimi-k3"'),
    prepull_event(
        "Pulled",
        "2026-11-30T10:06:11Z",
        'Successfully pulled image "vllm/vllm-openai:kimi-k3" in 4m0.2s (4m0.2s including waiting)',
    ),
]
PRESENT_FOR_VERIFY = [
    init_event(
        "verify-weights",
        "Pulled",
        "2026-11-30T10:22:12Z",
        'Container image "vllm/vllm-openai:kimi-k3" already present on machine',
    ),
    *S3_EVENTS[2:],
]


def test_the_image_pull_of_the_nodes_prepull_pod_is_the_phase_and_overlaps_the_copy():
    # given an S3 start whose vLLM image the node's pre-pull pod pulled while fetch-weights copied
    phases = by_name(
        startup_phases(
            pod=s3_pod(restored=False),
            node=NODE_JSON,
            events=PRESENT_FOR_VERIFY,
            log_lines=LOG[2:],
            container="vllm",
            prepull_events=PREPULL_EVENTS,
        )
    )
    # then the pull is the pre-pull pod's four minutes, not the zero of "already present" for verify-weights
    pulled = phases["image pulled"]
    assert (
        pulled.seconds == 240
        and "vllm-image-prepull" in pulled.source
        and "4m0.2s" in pulled.source
    )
    # and it ran beside the copy: it began before the copy ended
    copy = phases["weights on the node (S3 copy)"]
    assert pulled.started < copy.finished
    # without the pre-pull pod's events (expired, or no such pod), the pod's own record stands, as before
    alone = by_name(
        startup_phases(
            pod=s3_pod(restored=False),
            node=NODE_JSON,
            events=PRESENT_FOR_VERIFY,
            log_lines=LOG[2:],
            container="vllm",
        )
    )
    assert alone["image pulled"].source == "event Pulled: already present on the node"


class FakeKubectlWithPrepull(FakeKubectl):
    """FakeKubectl, with the node's pre-pull pod and its events."""

    def __call__(self, command, **kwargs):
        args = command[1:]
        if args[:2] == ["get", "pods"] and IMAGE_PREPULL_SELECTOR in args:
            self.commands.append(command)
            prepull = {
                "metadata": {"name": PREPULL_POD, "labels": dict(IMAGE_PREPULL_POD_LABELS)},
                "spec": {"nodeName": NODE},
            }
            return subprocess.CompletedProcess(command, 0, json.dumps({"items": [prepull]}), "")
        if args[:2] == ["get", "events"] and any(PREPULL_POD in a for a in args):
            self.commands.append(command)
            out = {"items": PREPULL_EVENTS}
            return subprocess.CompletedProcess(command, 0, json.dumps(out), "")
        return super().__call__(command, **kwargs)


def test_llmops_phases_reads_the_prepull_pod_on_the_serving_pods_node(run_with_kubectl):
    kubectl = FakeKubectlWithPrepull([pod()])
    result = run_with_kubectl(kubectl, "phases", "--env", "example", "--json")
    assert result.code == ExitCode.OK, result.stderr
    # the pre-pull pod of that very node, then its events
    assert [
        "-l",
        IMAGE_PREPULL_SELECTOR,
        "--field-selector",
        f"spec.nodeName={NODE}",
    ] == kubectl.commands[4][5:9]
    assert f"involvedObject.kind=Pod,involvedObject.name={PREPULL_POD}" in kubectl.commands[5]
    phases = {p["phase"]: p for p in result.json["phases"]}
    assert phases["image pulled"]["seconds"] == 240.0
    assert "vllm-image-prepull" in phases["image pulled"]["source"]
