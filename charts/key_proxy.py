"""The one key check, in front: a Caddy sidecar on the pod's API port in front of vLLM (the Deployment's pods, a
LeaderWorkerSet's leaders) and in front of the router, on the EKS path. vLLM and the router listen on 127.0.0.1 only
(:data:`BACKEND_PORT`); the Service, the router's discovery and the NetworkPolicies reach Caddy on ``spec.port``.

Why a proxy and not the Python ``--middleware`` it replaces (charts/vllm_auth_middleware/, now HyperPod's only): vLLM's
Rust frontend, which the recipe turns on (``VLLM_USE_RUST_FRONTEND=1``), does not load ``--middleware`` (kserve/kserve's
vLLM controller skips its own for that reason), and the router (vllm-router 0.1.17) answers ``/add_worker`` and
``/remove_worker`` without any key (``authorize_request`` is a no-op without ``--api-key-validation-urls``,
vllm-project/router@00edc4e src/server.rs). One layer outside both closes the two. Why Caddy: a maintained, single
static binary with an official image (``caddy:2.11.7``, deployment_config/support_images.py) whose Caddyfile reads a
file on every request: the ``{file.PATH}`` placeholder (Caddy 2.11.7 replacer.go ``fileReplacementProvider``, trailing
newline stripped; verified with the real binary, tests/charts/test_key_proxy.py), so the key the Secrets Store CSI
driver rewrites on rotation is taken at once, without a restart or a reload. Envoy would need an external
authorization service or a filter of its own to do the same.

What each pod's Caddy does (the Caddyfiles below; the tests run the real binary with the chart's own text):

- vLLM's: ``/health`` and ``/metrics`` without the key (:data:`OPEN_PATHS`): the kubelet's probes and the router's
  health checks (``/health``) and the AMP managed scraper (``/metrics``, cdk_constructs/serving_metrics/scrape.py),
  which sends no key and cannot read the secret; the metrics carry counts and latencies, no prompt. Every other path,
  inference, ``/tokenize``, ``/v1/models``, ``/invocations`` included, passes only with ``Authorization: Bearer KEY``
  where KEY is the current key's file or the previous one's; anything else gets vLLM's own 401 answer.
- the router's: only the paths a client calls (:data:`ROUTER_CLIENT_PATHS`) reach the router; every other path, the
  worker management ones (``/add_worker``, ``/remove_worker``, ``/list_workers``, ``/flush_cache``, ``/workers``…)
  among them, is 403 whatever the headers, so it is reachable only from inside the router's pod. With the key
  required a client path without a Bearer token is 401 there already; the key itself is compared by the vLLM pod's
  Caddy behind it (the router forwards the client's ``Authorization``: charts/vllm_router.py), because the router's
  pods have no identity that may read the secret (EKS Pod Identity gives the serving role to vLLM's service account
  only, and one more reader of the key is one more place it leaks from).

The empty key: a missing, unreadable or empty key file makes ``{file.…}`` empty, and the header matcher would then
compare with ``Bearer `` (Caddy 2.11.7 modules/caddyhttp/matchers.go ``matchHeaders``, which also treats a value
ending in ``*`` as a prefix). Each key matcher therefore also requires the file's text to be at least
:data:`KEY_MINIMUM_LENGTH` printable characters without space or ``*`` (:data:`KEY_PATTERN`, a ``vars_regexp`` on the
placeholder itself): no such file, no match, every request refused. The generated key and the documented rotation
command (docs/security.md) give 64 letters and digits.

vLLM's Rust frontend behind it (checked in the vLLM 0.33.0 wheel, sha256 4b6bdec4ab269990…, not run): the Python
launcher binds ``--host``/``--port`` itself and hands the socket to the ``vllm/vllm-rs`` binary as ``--listen-fd``
(vllm/entrypoints/launchers/launcher.py ``setup_server``, vllm/v1/utils.py ``RustFrontendProcessManager``), so
:func:`charts.serving_spec.key_proxy_backend_args` binds it to the loopback too; the binary's strings hold ``/health``,
``/metrics``, ``/v1/models``, ``/tokenize`` and ``/detokenize``, the routes the probes, the router and the scraper use.

Probes: the kubelet reaches the pod's address, never its loopback, so vLLM's startup and readiness probes go to
Caddy's keyless ``/health`` (which checks what a client's request goes through), and its liveness probe runs in vLLM's
own container against 127.0.0.1 (:func:`liveness_command`): a Caddy that is down or restarting then never restarts
vLLM, whose restart reloads 1.4 TB of weights. Caddy's own probes open a TCP connection to its port.
"""

from __future__ import annotations

import cdk8s
import cdk8s_plus_28 as kplus
from cdk8s_plus_28 import k8s
from constructs import Construct

from charts.vllm_auth_middleware.runtime.llm_serving_auth import CURRENT_KEY_FILE, PREVIOUS_KEY_FILE
from deployment_config.support_images import CADDY_IMAGE

#: Where vLLM and the router listen, on 127.0.0.1 only, behind Caddy on the pod's API port.
LOOPBACK = "127.0.0.1"
BACKEND_PORT = 8001
#: vLLM's paths answered without the key: the probes' and the router's health checks, and the metrics scraper's.
OPEN_PATHS = ("/health", "/metrics")
#: The router's paths a client calls (vllm-project/router@00edc4e src/server.rs routes; the tests find the others
#: refused): the OpenAI API, vLLM's tokenizer pair, and the router's own probes.
ROUTER_CLIENT_PATHS = ("/v1/*", "/tokenize", "/detokenize", "/health", "/liveness", "/readiness")
#: The router's paths that need no client key: its health and probes (they answer from the router itself).
ROUTER_OPEN_PATHS = ("/health", "/liveness", "/readiness")
KEY_MINIMUM_LENGTH = 16
#: Printable ASCII without space (0x20) and ``*`` (0x2a): ``!`` to ``)``, ``+`` to ``~``.
KEY_PATTERN = f"^[!-)+-~]{{{KEY_MINIMUM_LENGTH},}}$"
#: vLLM's own 401 body (vLLM 0.33.0 vllm/entrypoints/serve/middleware/authenticate.py), so clients see one answer.
UNAUTHORIZED = '{"error":"Unauthorized"}'
CONFIG_DIR = "/etc/caddy"
CONFIG_FILE = "Caddyfile"
#: The official image's program and its data and config directories (XDG_DATA_HOME=/data, XDG_CONFIG_HOME=/config:
#: caddyserver/caddy-docker Dockerfile), writable emptyDirs under a read-only root filesystem.
CADDY_COMMAND = (
    "caddy",
    "run",
    "--config",
    f"{CONFIG_DIR}/{CONFIG_FILE}",
    "--adapter",
    "caddyfile",
)
STATE_DIRS = ("/data", "/config")
CONTAINER = "key-proxy"
#: The image's user is root; the sidecar runs as this one (the router's, charts/vllm_router.py).
RUN_AS = 65532

_GLOBAL = """{
	# no admin API (nothing else in the pod may reconfigure it), no certificates, nothing written back
	admin off
	auto_https off
	persist_config off
}
"""


def _proxy(port: int) -> str:
    # flush at once: streamed completions (server-sent events) pass token by token
    return f"reverse_proxy {LOOPBACK}:{port} {{\n\t\t\tflush_interval -1\n\t\t}}"


def _key_matchers(key_files: tuple[str, ...]) -> str:
    blocks = []
    for index, path in enumerate(key_files):
        blocks.append(
            f"\t@key{index} {{\n"
            f'\t\tvars_regexp {{file.{path}}} "{KEY_PATTERN}"\n'
            f'\t\theader Authorization "Bearer {{file.{path}}}"\n'
            "\t}\n"
        )
    return "".join(blocks)


def worker_caddyfile(*, port: int, key_files: tuple[str, ...]) -> str:
    """The Caddyfile in front of vLLM: :data:`OPEN_PATHS` open, every other path with one of ``key_files``' keys."""
    keyed = "".join(
        f"\thandle @key{index} {{\n\t\t{_proxy(BACKEND_PORT)}\n\t}}\n"
        for index in range(len(key_files))
    )
    return (
        _GLOBAL
        + f"\nhttp://:{port} {{\n"
        + f"\t@open path {' '.join(OPEN_PATHS)}\n"
        + f"\thandle @open {{\n\t\t{_proxy(BACKEND_PORT)}\n\t}}\n"
        + _key_matchers(key_files)
        + keyed
        + "\thandle {\n\t\theader Content-Type application/json\n"
        + f"\t\trespond `{UNAUTHORIZED}` 401\n\t}}\n}}\n"
    )


def router_caddyfile(*, port: int, key_required: bool) -> str:
    """The Caddyfile in front of the router: :data:`ROUTER_CLIENT_PATHS` only, the rest 403; with ``key_required`` a
    client path other than :data:`ROUTER_OPEN_PATHS` without a Bearer token is 401 (the vLLM pod compares the key)."""
    bearer = (
        f"\t@no_bearer {{\n\t\tnot path {' '.join(ROUTER_OPEN_PATHS)}\n"
        '\t\tnot header_regexp Authorization "^Bearer [^ ]"\n\t}\n'
        "\thandle @no_bearer {\n\t\theader Content-Type application/json\n"
        f"\t\trespond `{UNAUTHORIZED}` 401\n\t}}\n"
        if key_required
        else ""
    )
    return (
        _GLOBAL
        + f"\nhttp://:{port} {{\n"
        + "\t@outside not path "
        + " ".join(ROUTER_CLIENT_PATHS)
        + "\n\thandle @outside {\n\t\trespond 403\n\t}\n"
        + bearer
        + f"\thandle {{\n\t\t{_proxy(BACKEND_PORT)}\n\t}}\n}}\n"
    )


def liveness_command(port: int = BACKEND_PORT) -> list[str]:
    """vLLM's liveness probe: ``/health`` on its loopback port from inside its container (python3 is the image's: the
    HyperPod bootstrap and the compile cache's containers run it too)."""
    return [
        "python3",
        "-c",
        f"import urllib.request; urllib.request.urlopen('http://{LOOPBACK}:{port}/health', timeout=8)",
    ]


def key_proxy_container(
    *, port: int, config_volume: str, state_volume: str, key_mount: tuple[str, str] | None
) -> dict:
    """The sidecar as plain Kubernetes JSON: ``config_volume`` (the ConfigMap) on :data:`CONFIG_DIR`,
    ``state_volume`` (an emptyDir) on :data:`STATE_DIRS`, and ``key_mount`` (volume name, path) read-only."""
    mounts = [{"name": config_volume, "mountPath": CONFIG_DIR, "readOnly": True}]
    mounts += [
        {"name": state_volume, "mountPath": path, "subPath": path.strip("/")} for path in STATE_DIRS
    ]
    if key_mount:
        mounts.append({"name": key_mount[0], "mountPath": key_mount[1], "readOnly": True})
    return {
        "name": CONTAINER,
        "image": CADDY_IMAGE,
        "imagePullPolicy": "IfNotPresent",
        "command": list(CADDY_COMMAND),
        "ports": [{"name": "http", "containerPort": port, "protocol": "TCP"}],
        "volumeMounts": mounts,
        "readinessProbe": {"tcpSocket": {"port": port}, "periodSeconds": 5, "failureThreshold": 2},
        "livenessProbe": {"tcpSocket": {"port": port}, "periodSeconds": 10, "failureThreshold": 3},
        "resources": {
            "requests": {"cpu": "500m", "memory": "128Mi"},
            "limits": {"memory": "512Mi"},
        },
        "securityContext": {
            "allowPrivilegeEscalation": False,
            "readOnlyRootFilesystem": True,
            "runAsNonRoot": True,
            "runAsUser": RUN_AS,
            "runAsGroup": RUN_AS,
            # Every capability dropped but NET_BIND_SERVICE, which is never used (the port is above 1024) but must be
            # in the bounding set: the official image's binary carries it as a file capability, and the kernel refuses
            # to exec a binary whose file capabilities it cannot grant ("Safety checking for capability-dumb
            # binaries", capabilities(7); caddyserver/caddy-docker#396 and #466: "exec /usr/bin/caddy: operation not
            # permitted" under --cap-drop ALL). With allowPrivilegeEscalation false (no_new_privs) the process gains
            # nothing from it. The restricted Pod Security Standard allows exactly this one back.
            "capabilities": {"drop": ["ALL"], "add": ["NET_BIND_SERVICE"]},
        },
    }


def add_key_proxy_config_map(
    scope: Construct, construct_id: str, *, name: str, namespace: str, caddyfile: str
) -> kplus.ConfigMap:
    """The ConfigMap ``name`` holding the Caddyfile (as charts/script_config_map.py holds the project's scripts)."""
    return kplus.ConfigMap(
        scope,
        construct_id,
        metadata=cdk8s.ApiObjectMetadata(name=name, namespace=namespace),
        data={CONFIG_FILE: caddyfile},
    )


def pod_volumes(config_map: str, *, config_volume: str, state_volume: str) -> list[dict]:
    """The sidecar's two volumes as plain Kubernetes JSON."""
    return [
        {"name": config_volume, "configMap": {"name": config_map}},
        {"name": state_volume, "emptyDir": {"sizeLimit": "16Mi"}},
    ]


#: The key files the vLLM pod's Caddy compares with, in the Secrets Store CSI volume: the current key (the secret's
#: AWSCURRENT, object alias ``api-key``, charts/serving_spec.py PodSecrets) and the previous one (its AWSPREVIOUS,
#: which cdk_constructs/previous_key/ makes exist from the start: charts/vllm_secret_provider.py), the names the
#: middleware reads on HyperPod too (charts/vllm_auth_middleware/runtime/llm_serving_auth.py). A file that is absent
#: or too short matches nothing.
KEY_FILES = (CURRENT_KEY_FILE, PREVIOUS_KEY_FILE)
CONFIG_VOLUME, STATE_VOLUME = "key-proxy-config", "key-proxy-state"


def add_key_proxy(
    scope: Construct,
    *,
    api_object: cdk8s.ApiObject,
    name: str,
    namespace: str,
    caddyfile: str,
    port: int,
    key_mount: tuple[str, str] | None = None,
    pod_path: str = "/spec/template/spec",
) -> cdk8s.ApiObject:
    """Add the ConfigMap ``name`` with ``caddyfile`` to ``scope`` and the sidecar, after the pod's other containers
    (charts/vllm_deployment.py patches vLLM's container by index 0), to ``api_object``'s pod (at ``pod_path``)."""
    config_map = add_key_proxy_config_map(
        scope, f"{name}-config-map", name=name, namespace=namespace, caddyfile=caddyfile
    )
    container = key_proxy_container(
        port=port, config_volume=CONFIG_VOLUME, state_volume=STATE_VOLUME, key_mount=key_mount
    )
    # A patch of a cdk8s-plus object is rendered through the Kubernetes types, which keep an IntOrString or a
    # Quantity only as their own objects (a plain 8000 or "500m" comes out empty: charts/vllm_leader_worker_set.py)
    for probe in ("readinessProbe", "livenessProbe"):
        container[probe]["tcpSocket"]["port"] = k8s.IntOrString.from_number(port)
    container["resources"] = {
        kind: {name: k8s.Quantity.from_string(value) for name, value in values.items()}
        for kind, values in container["resources"].items()
    }
    api_object.add_json_patch(cdk8s.JsonPatch.add(f"{pod_path}/containers/-", container))
    for volume in pod_volumes(name, config_volume=CONFIG_VOLUME, state_volume=STATE_VOLUME):
        if "emptyDir" in volume:
            volume["emptyDir"]["sizeLimit"] = k8s.Quantity.from_string(
                volume["emptyDir"]["sizeLimit"]
            )
        api_object.add_json_patch(cdk8s.JsonPatch.add(f"{pod_path}/volumes/-", volume))
    return config_map
