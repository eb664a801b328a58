"""The router the EKS path puts in front of two or more vLLM replicas (charts/vllm_router.py), run for real: the
``vllm-router`` command of the PyPI package pinned in requirements-dev.txt, on 127.0.0.1, with the chart's own arguments
(static worker URLs instead of Kubernetes discovery), in front of two OpenAI-compatible stand-ins that require the API
key as the chart's middleware does (tests/ops_cli/openai_server.py)."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager

import pytest

from cdk_constructs.serving_metrics import ROUTER_METRICS
from deployment_config.support_images import ROUTER_VERSION
from tests.ops_cli.openai_server import Behaviour, openai_server

API_KEY = "router-test-key"
MODEL = "Kimi-K3"
#: The start-up of the router (it waits for a worker's /health before it listens) and of one request, at most.
START_SECONDS, REQUEST_SECONDS = 60, 10
ANSWER_SECONDS = 0.3
CONCURRENT = 8


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _router_command(spec, workers: list[str], port: int, metrics_port: int) -> list[str]:
    """The router container's command and arguments as the chart renders them, with loopback addresses, free ports and
    static workers in place of Kubernetes discovery."""
    from charts.vllm_serving_chart import synthesize_manifests

    (container,) = [
        c
        for m in synthesize_manifests(spec)
        if m["kind"] == "Deployment"
        for c in m["spec"]["template"]["spec"]["containers"]
        if c["name"] == "router"
    ]
    # the command the container runs (the image's CMD is replaced by args: charts/vllm_router.py ROUTER_COMMAND)
    program, *args = [*(container.get("command") or []), *container["args"]]
    assert program == "vllm-router", f"the router container would run {program!r}"
    kept = []
    replaced = {
        "--host": "127.0.0.1",
        "--port": str(port),
        "--prometheus-host": "127.0.0.1",
        "--prometheus-port": str(metrics_port),
    }
    discovery_values = {"--service-discovery-namespace", "--service-discovery-port"}
    skip_selector = False
    for index, arg in enumerate(args):
        previous = args[index - 1] if index else None
        if arg == "--service-discovery" or arg in discovery_values or previous in discovery_values:
            continue
        if arg == "--selector":
            skip_selector = True
            continue
        if skip_selector and not arg.startswith("--"):
            continue
        skip_selector = False
        kept.append(replaced.get(previous, arg) if previous in replaced else arg)
    # requirements-dev.txt installs the package into the test's own environment, whose console script this is (beside
    # the interpreter, which `make test` runs without activating the venv): missing means a broken environment
    binary = shutil.which(
        program, path=os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "")])
    )
    assert binary, (
        f"vllm-router is not installed: install requirements-dev.txt (vllm-router=={ROUTER_VERSION})"
    )
    return [binary, *kept, "--worker-urls", *workers]


def _request(
    url: str, payload: dict | None = None, key: str | None = API_KEY
) -> tuple[int, dict | str]:
    headers = {
        "Content-Type": "application/json",
        **({"Authorization": f"Bearer {key}"} if key else {}),
    }
    data = json.dumps(payload).encode() if payload is not None else None
    request = urllib.request.Request(
        url, data=data, headers=headers, method="POST" if data else "GET"
    )
    try:
        with urllib.request.urlopen(request, timeout=REQUEST_SECONDS) as response:
            body = response.read().decode()
            return response.status, json.loads(body) if body.startswith("{") else body
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


@contextmanager
def _running(command: list[str], url: str, log_path):
    with open(log_path, "wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            assert process.poll() is None, (
                f"the router exited: {log_path.read_text(errors='replace')[-3000:]}"
            )
            try:
                if _request(f"{url}/liveness", key=None)[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, (
                f"no router after {START_SECONDS} s: {log_path.read_text()[-3000:]}"
            )
            time.sleep(0.02)  # a refused connection costs next to nothing: look often
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@pytest.fixture(scope="module")
def router(default_env, tmp_path_factory):
    """The real router in front of two stand-ins; yields (router URL, [the two stand-ins' Behaviour], its metrics URL)."""
    import dataclasses

    from charts.serving_spec import serving_spec_for

    spec = dataclasses.replace(
        serving_spec_for(default_env), replicas=2, router_policy="cache_aware"
    )
    # the stand-ins answer at once, but for the test of concurrent requests (ANSWER_SECONDS)
    backends = [Behaviour(model=MODEL, api_key=API_KEY) for _ in range(2)]
    for behaviour in backends:
        behaviour.tokenize = (
            True  # the router asks a worker for the prompt's token ids (vLLM's /tokenize)
        )
    with ExitStack() as stack:
        workers = [stack.enter_context(openai_server(behaviour)) for behaviour in backends]
        port = _free_port()
        url = f"http://127.0.0.1:{port}"
        metrics_port = _free_port()
        command = _router_command(spec, workers, port, metrics_port)
        stack.enter_context(
            _running(command, url, tmp_path_factory.mktemp("router") / "router.log")
        )
        yield url, backends, f"http://127.0.0.1:{metrics_port}/metrics"


def _chat(url: str, system: str, question: str, key: str | None = API_KEY) -> int:
    return _request(
        f"{url}/v1/chat/completions",
        {
            "model": MODEL,
            "max_tokens": 8,
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": question},
            ],
        },
        key=key,
    )[0]


def _served(backends) -> list[int]:
    """Chat completions each stand-in answered (the router also asks workers for /tokenize and
    /v1/chat/completions/render, which the stand-in does not serve: it then routes on the request's text)."""
    return [
        sum(
            1
            for method, path, _ in behaviour.seen
            if (method, path) == ("POST", "/v1/chat/completions")
        )
        for behaviour in backends
    ]


def _words(seed: int, count: int) -> str:
    """Text that shares no prefix with another seed's (a small linear congruential sequence of word numbers)."""
    value, words = seed * 7919 + 1, []
    for _ in range(count):
        value = (value * 1103515245 + 12345) % 2**31
        words.append(f"w{value % 100000}")
    return " ".join(words)


def _concurrently(url: str, conversations: list[tuple[str, str]]) -> None:
    with ThreadPoolExecutor(max_workers=len(conversations)) as pool:
        statuses = list(pool.map(lambda pair: _chat(url, *pair), conversations))
    assert statuses == [200] * len(conversations)


def test_requests_sharing_a_long_prefix_land_on_one_replica_and_unrelated_ones_spread(router):
    url, backends, _ = router
    # given requests in flight together that share nothing (distinct system prompts and questions)
    before = _served(backends)
    # (each answer takes a moment, so that they are in flight together, as on a busy endpoint)
    for behaviour in backends:
        behaviour.first_token_delay = ANSWER_SECONDS
    try:
        _concurrently(
            url, [(_words(seed, 150), _words(100 + seed, 10)) for seed in range(CONCURRENT)]
        )
    finally:
        for behaviour in backends:
            behaviour.first_token_delay = 0
    unrelated = [after - start for after, start in zip(_served(backends), before)]
    # then the router spreads them over both replicas (no prefix to follow: the least loaded one)
    assert sum(unrelated) == CONCURRENT and min(unrelated) >= 2, unrelated
    # given an agent whose turns share a long system prompt (tool definitions) and differ in the last message
    tools = "You are a coding agent. Tools: " + _words(1000, 800)
    # (one after another, as an agent's turns come)
    before = _served(backends)
    for turn in range(CONCURRENT):
        assert _chat(url, tools, f"Step {turn}: " + _words(200 + turn, 5)) == 200
    shared = [after - start for after, start in zip(_served(backends), before)]
    # then every turn lands on the replica that holds the prefix in its cache
    assert sorted(shared) == [0, CONCURRENT], shared


def test_the_router_forwards_the_clients_api_key_and_the_replica_still_requires_it(router):
    url, backends, _ = router
    # given replicas that require the API key on every path but /health (the chart's middleware)
    # when a client calls through the router with the key, then the replica receives it and answers
    assert _chat(url, "short", "with the key") == 200
    posts = [
        authorization
        for behaviour in backends
        for method, _path, authorization in behaviour.seen
        if method == "POST"
    ]
    assert posts and set(posts) == {f"Bearer {API_KEY}"}
    # when a client calls without the key or with a wrong one, then the replica refuses it through the router
    assert _chat(url, "short", "without a key", key=None) == 401
    assert _chat(url, "short", "with a wrong key", key="wrong") == 401


def _exported(metrics_url: str) -> dict[str, tuple[str, set[frozenset[str]]]]:
    """The router's /metrics page: each metric's TYPE and the label names of its samples."""
    with urllib.request.urlopen(metrics_url, timeout=REQUEST_SECONDS) as response:
        page = response.read().decode()
    types = dict(re.findall(r"^# TYPE (\S+) (\S+)$", page, flags=re.MULTILINE))
    labels: dict[str, set[frozenset[str]]] = {name: set() for name in types}
    for sample, label_text in re.findall(r"^([a-z_:]+)(?:\{(.*?)\})? ", page, flags=re.MULTILINE):
        base = re.sub(r"_(bucket|sum|count)$", "", sample) if sample not in types else sample
        names = frozenset(re.findall(r'(\w+)="', label_text or "")) - {"le"}
        labels.setdefault(base, set()).add(names)
    return {name: (types[name], labels.get(name, set())) for name in types}


def test_the_router_exports_the_metrics_the_dashboard_reads_by_their_names_types_and_labels(router):
    url, _, metrics_url = router
    # given requests through the router: answered ones, and one refused for want of the API key
    assert _chat(url, "metrics", "one") == 200
    assert _chat(url, "metrics", "two", key=None) == 401
    exported = _exported(metrics_url)
    # then each series the publisher queries (cdk_constructs/serving_metrics/series.py ROUTER_METRICS) is on the
    # router's /metrics page with the listed type and label names
    for name, series in ROUTER_METRICS.items():
        if name == "vllm_router_retries_exhausted_total":
            # only after a request failed with 408, 429 or 5xx on every retry, which the stand-ins never answer
            assert name not in exported
            continue
        assert name in exported, (name, sorted(exported))
        kind, label_sets = exported[name]
        assert kind == series.type, name
        assert label_sets == {frozenset(series.labels)}, (name, label_sets)
