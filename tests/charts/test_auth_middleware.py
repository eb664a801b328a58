"""The middleware that requires the API key on every path (charts/vllm_auth_middleware/runtime/llm_serving_auth.py), run as vLLM
runs it:
an ASGI app called with a scope, receive and send. And the chart that mounts it into the vLLM pod."""

from __future__ import annotations

import asyncio
import json
import os

import pytest

from charts.serving_spec import API_KEY_VARIABLE, PodSecrets
from charts.vllm_auth_middleware.runtime import llm_serving_auth

KEY = "k" * 64


def _call(
    path: str,
    *,
    authorization: str | None = None,
    method: str = "POST",
    kind: str = "http",
    key: str | None = KEY,
) -> tuple[int | None, bytes, list[str]]:
    """(status, body, calls of the app behind) for one request through the middleware."""
    reached: list[str] = []

    async def app(scope, receive, send):
        reached.append(scope["path"])
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"served"})

    sent: list[dict] = []

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "http.request", "body": b""}

    headers = [(b"content-type", b"application/json")]
    if authorization is not None:
        headers.append((b"authorization", authorization.encode()))
    scope = {"type": kind, "method": method, "path": path, "root_path": "", "headers": headers}
    asyncio.run(llm_serving_auth.RequireApiKeyEverywhere(app, api_key=key)(scope, receive, send))
    status = next((m.get("status") for m in sent if m["type"] == "http.response.start"), None)
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return status, body, reached


@pytest.mark.parametrize(
    "path",
    [
        "/invocations",
        "/v1/chat/completions",
        "/tokenize",
        "/docs",
        "/",
        "/health/x",
        "/metrics/../invocations",
    ],
)
def test_every_path_but_the_probes_needs_the_key(path):
    # given a request without the key, as anyone who reaches the load balancer could send
    status, body, reached = _call(path)
    # then the middleware answers as vLLM does (401, {"error": "Unauthorized"}) and vLLM never sees it
    assert status == 401 and json.loads(body) == {"error": "Unauthorized"} and reached == []


@pytest.mark.parametrize("authorization", [f"Bearer {KEY}", f"bearer {KEY}"])
def test_the_key_opens_every_path(authorization):
    assert _call("/invocations", authorization=authorization)[0] == 200


@pytest.mark.parametrize(
    "authorization", ["Bearer wrong", f"Basic {KEY}", f"Bearer {KEY} ", "", f"Bearer{KEY}"]
)
def test_a_wrong_key_or_scheme_is_refused(authorization):
    assert _call("/invocations", authorization=authorization)[0] == 401


@pytest.mark.parametrize("path", ["/health", "/ping", "/metrics"])
def test_the_probes_and_the_metrics_scraper_need_no_key(path):
    assert _call(path, method="GET")[0] == 200


def test_options_lifespan_and_websockets():
    assert (
        _call("/invocations", method="OPTIONS")[0] == 200
    )  # CORS preflight, as vLLM's own middleware lets through
    # a websocket without the key is closed with "policy violation"
    sent = []

    async def send(message):
        sent.append(message)

    async def app(scope, receive, send):  # pragma: no cover - must not be reached
        raise AssertionError("reached the app")

    scope = {"type": "websocket", "path": "/v1/realtime", "headers": []}
    asyncio.run(llm_serving_auth.RequireApiKeyEverywhere(app, api_key=KEY)(scope, None, send))
    assert sent == [{"type": "websocket.close", "code": 1008}]


def test_without_a_key_in_the_environment_everything_but_the_probes_is_refused(monkeypatch):
    monkeypatch.delenv("VLLM_API_KEY", raising=False)
    assert _call("/v1/models", authorization="Bearer ", key="")[0] == 401
    assert _call("/health", method="GET", key="")[0] == 200
    monkeypatch.setenv(
        "VLLM_API_KEY", KEY
    )  # and by default the key is VLLM_API_KEY, what vLLM itself reads

    async def app(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": []})

    sent = []

    async def send(message):
        sent.append(message)

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/invocations",
        "headers": [(b"authorization", f"Bearer {KEY}".encode())],
    }
    asyncio.run(llm_serving_auth.RequireApiKeyEverywhere(app)(scope, None, send))
    assert sent[0]["status"] == 200


def test_the_eks_chart_checks_the_key_in_front_and_loads_no_middleware(default_manifests_with_key):
    # given the EKS chart of an environment with the API key (the default)
    config_map = default_manifests_with_key["ConfigMap"]
    deployment = default_manifests_with_key["Deployment"]
    (vllm,) = [
        c for c in deployment["spec"]["template"]["spec"]["containers"] if c["name"] == "vllm"
    ]
    # then the module travels nowhere on EKS (the Caddy sidecar in front checks the key: charts/key_proxy.py), so that
    # vLLM's Rust frontend, which does not load --middleware, can run (the module stays HyperPod's)
    assert (
        config_map["metadata"]["name"] != "vllm-auth-middleware"
        and "Caddyfile" in config_map["data"]
    )
    assert not [m for m in vllm["volumeMounts"] if "auth-middleware" in m["name"]]
    assert "--middleware" not in vllm["args"]
    assert "PYTHONPATH" not in {e["name"] for e in vllm["env"]}


def test_an_environment_without_the_key_gets_no_middleware(default_env):
    import dataclasses

    from charts.serving_spec import serving_spec_for
    from charts.vllm_serving_chart import synthesize_manifests

    env = dataclasses.replace(
        default_env, endpoint=default_env.endpoint.model_copy(update={"authentication": "none"})
    )
    manifests = synthesize_manifests(serving_spec_for(env))
    assert "ConfigMap" not in {m["kind"] for m in manifests}
    (deployment,) = [m for m in manifests if m["kind"] == "Deployment"]
    assert "--middleware" not in deployment["spec"]["template"]["spec"]["containers"][0]["args"]


@pytest.fixture(scope="module")
def default_manifests_with_key(default_env) -> dict[str, dict]:
    from charts.serving_spec import serving_spec_for
    from charts.vllm_serving_chart import synthesize_manifests

    assert default_env.endpoint.api_key_required
    return {m["kind"]: m for m in synthesize_manifests(serving_spec_for(default_env))}


# --- rotation: the key files the CSI driver rewrites --------------------------------------------------------------

OLD, NEW, UNRELATED = "o" * 64, "n" * 64, "u" * 64


class Clock:
    """A monotonic clock the test moves: the middleware looks at the files at most once a second."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _status(middleware, key: str) -> int:
    """The status of POST /v1/chat/completions with ``key``, through ``middleware`` (one shared instance, as in vLLM)."""
    sent: list[dict] = []

    async def send(message):
        sent.append(message)

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/v1/chat/completions",
        "root_path": "",
        "headers": [(b"authorization", f"Bearer {key}".encode())],
    }
    asyncio.run(middleware(scope, None, send))
    return sent[0]["status"]


def _write_key(directory, name: str, key: str, mtime_ns: int) -> None:
    """A key file as the driver writes it; the mtime is set so that a rewrite within one clock tick still differs."""
    path = directory / name
    path.write_text(key)
    os.utime(path, ns=(mtime_ns, mtime_ns))


def test_a_rotated_key_is_accepted_without_a_restart_and_the_replaced_key_keeps_working(
    tmp_path, monkeypatch
):
    # given vLLM's middleware reading the key from the CSI volume's directory (the chart's LLM_SERVING_API_KEY_DIR),
    # with the old key in the file of the key's objectAlias
    assert llm_serving_auth.CURRENT_KEY_FILE == next(
        key
        for variable, _, key in PodSecrets(
            region="us-west-2", api_key_secret="s", hugging_face_token_secret=None
        ).deliveries
        if variable == API_KEY_VARIABLE
    )
    monkeypatch.delenv("VLLM_API_KEY", raising=False)
    monkeypatch.setenv(llm_serving_auth.KEY_DIR_VARIABLE, str(tmp_path))
    _write_key(tmp_path, "api-key", OLD, 1_000_000_000)
    clock = Clock()

    async def vllm(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": []})

    middleware = llm_serving_auth.RequireApiKeyEverywhere(vllm, clock=clock)
    assert _status(middleware, OLD) == 200
    assert _status(middleware, NEW) == 401
    # when the driver's rotation rewrites the file with the new key (put-secret-value, then its poll)
    _write_key(tmp_path, "api-key", NEW, 2_000_000_000)
    # then within a second the new key is accepted, with no restart
    clock.now += llm_serving_auth.RECHECK_SECONDS
    assert _status(middleware, NEW) == 200
    # and the old key still is, as the previous one, while clients move over
    assert _status(middleware, OLD) == 200
    # but an unrelated key never is
    assert _status(middleware, UNRELATED) == 401
    # when the secret's previous version is there as a file of its own, it is accepted too
    _write_key(tmp_path, "api-key-previous", UNRELATED, 3_000_000_000)
    clock.now += llm_serving_auth.RECHECK_SECONDS
    assert _status(middleware, UNRELATED) == 200
    # a restart (a new instance) forgets the replaced key: how a leaked key is revoked at once
    (tmp_path / "api-key-previous").unlink()
    restarted = llm_serving_auth.RequireApiKeyEverywhere(vllm, clock=clock)
    assert (_status(restarted, NEW), _status(restarted, OLD), _status(restarted, UNRELATED)) == (
        200,
        401,
        401,
    )


def test_the_files_are_looked_at_at_most_once_a_second_and_a_missing_file_keeps_the_known_key(
    tmp_path,
):
    _write_key(tmp_path, "api-key", OLD, 1_000_000_000)
    clock = Clock()

    async def vllm(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": []})

    middleware = llm_serving_auth.RequireApiKeyEverywhere(vllm, key_dir=str(tmp_path), clock=clock)
    assert _status(middleware, OLD) == 200
    _write_key(tmp_path, "api-key", NEW, 2_000_000_000)
    clock.now += 0.5
    assert _status(middleware, NEW) == 401  # not looked at again yet
    # a file gone for a moment (between the driver's writes) locks nobody out
    (tmp_path / "api-key").unlink()
    clock.now += 1
    assert _status(middleware, OLD) == 200
    # and a directory that never held a key refuses everyone (closed, not open)
    empty = llm_serving_auth.RequireApiKeyEverywhere(
        vllm, key_dir=str(tmp_path / "none"), clock=clock
    )
    assert _status(empty, OLD) == 401


def test_without_a_key_directory_the_keys_come_from_the_environment(monkeypatch):
    # the HyperPod worker, which can mount no volume: LLM_SERVING_API_KEY (vLLM does not read it) and the previous key
    async def vllm(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": []})

    monkeypatch.delenv(llm_serving_auth.KEY_DIR_VARIABLE, raising=False)
    monkeypatch.delenv("VLLM_API_KEY", raising=False)
    monkeypatch.setenv("LLM_SERVING_API_KEY", NEW)
    monkeypatch.setenv("LLM_SERVING_API_KEY_PREVIOUS", OLD)
    middleware = llm_serving_auth.RequireApiKeyEverywhere(vllm)
    assert (_status(middleware, NEW), _status(middleware, OLD), _status(middleware, UNRELATED)) == (
        200,
        200,
        401,
    )
    # a previous key alone opens nothing
    monkeypatch.delenv("LLM_SERVING_API_KEY")
    assert _status(llm_serving_auth.RequireApiKeyEverywhere(vllm), OLD) == 401
