"""The canary of ``llmops rollout --canary`` (ops_cli/canary.py) against the real router (the ``vllm-router`` of
requirements-dev.txt, the chart's arguments: tests/charts/test_vllm_router.py) on 127.0.0.1, with stand-in replicas
labelled old and new (their ``/v1/models`` root names the version). The router's pool changes as service discovery
changes it on EKS, through the router's own worker API (``POST /add_worker?url=``, ``POST /remove_worker?url=``,
``GET /list_workers``: vllm-project/router@00edc4e src/server.rs, as tests/charts/test_key_proxy.py lists them); the
decisions and the probe are the production ones."""

from __future__ import annotations

import dataclasses
import json
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from contextlib import ExitStack

import pytest

from endpoint_probe.url import ApiKey
from ops_cli.canary import PROMOTED, ROLLED_BACK, CanaryTimes, run_canary
from ops_cli.canary_probe import canary_problems
from tests.charts.test_vllm_router import (
    API_KEY,
    MODEL,
    REQUEST_SECONDS,
    _free_port,
    _router_command,
    _running,
    _words,
)
from tests.ops_cli.openai_server import Behaviour, openai_server

OLD, NEW = "moonshotai/Kimi-K3@old", "moonshotai/Kimi-K3@new"
REPLICAS = 2


def _version(root: str, **changes) -> Behaviour:
    """A replica of one version; by default it answers the correctness probe's arithmetic right (7919 x 13)."""
    changes.setdefault("answer", "102947")
    behaviour = Behaviour(
        model=MODEL, root=root, api_key=API_KEY, first_token_delay=0.02, **changes
    )
    behaviour.tokenize = (
        True  # the router's cache-aware policy asks a worker for the prompt's token ids
    )
    return behaviour


def _post(url: str) -> int:
    request = urllib.request.Request(url, data=b"", method="POST")
    with urllib.request.urlopen(request, timeout=REQUEST_SECONDS) as response:
        return response.status


class StandInCluster:
    """:class:`ops_cli.canary.CanaryCluster` on 127.0.0.1: replicas are stand-in servers, the pool the router's."""

    def __init__(self, router_url: str, stack: ExitStack, new: Callable[[], Behaviour]) -> None:
        self.router_url, self.stack, self.new = router_url, stack, new
        self.replicas: dict[str, tuple[Behaviour, ExitStack]] = {}
        self.canary: str | None = None

    def start_replica(self, behaviour: Behaviour) -> str:
        own = ExitStack()
        url = own.enter_context(openai_server(behaviour))
        self.stack.callback(own.close)
        self.replicas[url] = (behaviour, own)
        return url

    def join(self, url: str) -> None:
        # the router answers once the worker's /health has (Router::add_worker waits for a healthy answer)
        assert _post(f"{self.router_url}/add_worker?url={urllib.parse.quote(url, safe='')}") == 200

    def leave(self, url: str) -> None:
        # as a deleted pod: out of the pool first, then stopped (its in-flight answers finish: the server's handler
        # threads outlive its listener)
        assert (
            _post(f"{self.router_url}/remove_worker?url={urllib.parse.quote(url, safe='')}") == 200
        )
        self.replicas.pop(url)[1].close()

    def pool(self) -> list[str]:
        with urllib.request.urlopen(
            f"{self.router_url}/list_workers", timeout=REQUEST_SECONDS
        ) as answer:
            return json.loads(answer.read())["urls"]

    def start_canary(self) -> None:
        self.canary = self.start_replica(self.new())
        self.join(self.canary)

    def canary_url(self) -> str | None:
        return self.canary if self.canary in self.pool() else None

    def canary_failure(self) -> str | None:
        return None

    def promote(self) -> None:
        # maxSurge 0, maxUnavailable 1 while the canary serves: one old replica leaves, a new one takes its place
        for url in [u for u, (b, _) in self.replicas.items() if b.root == OLD]:
            self.leave(url)
            self.join(self.start_replica(self.new()))

    def promoted(self) -> bool:
        roots = [self.replicas[url][0].root for url in self.pool() if url != self.canary]
        return len(roots) == REPLICAS and set(roots) == {NEW}

    def remove_canary(self) -> None:
        if self.canary in self.replicas:
            self.leave(self.canary)


class Clients:
    """Clients calling through the router without pause, each request a prompt that shares no prefix with another
    (the cache-aware policy then routes by load), until stopped; every status they got."""

    def __init__(self, router_url: str, count: int = 4) -> None:
        self.url = f"{router_url}/v1/chat/completions"
        self.statuses: list[int] = []
        self.stopping = threading.Event()
        self.threads = [
            threading.Thread(target=self._call, args=(n,), daemon=True) for n in range(count)
        ]

    def _call(self, number: int) -> None:
        sent = 0
        while not self.stopping.is_set():
            sent += 1
            body = {
                "model": MODEL,
                "max_tokens": 4,
                "messages": [
                    {
                        "role": "user",
                        "content": _words(number * 100003 + sent, 40),
                    }
                ],
            }
            request = urllib.request.Request(
                self.url,
                data=json.dumps(body).encode(),
                headers={"Content-Type": "application/json", "Authorization": f"Bearer {API_KEY}"},
            )
            try:
                with urllib.request.urlopen(request, timeout=REQUEST_SECONDS) as answer:
                    answer.read()
                    self.statuses.append(answer.status)
            except urllib.error.HTTPError as error:
                self.statuses.append(error.code)
            except OSError:
                self.statuses.append(0)

    def __enter__(self) -> Clients:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stopping.set()
        for thread in self.threads:
            thread.join(timeout=REQUEST_SECONDS + 5)

    def failed(self) -> list[int]:
        return [status for status in self.statuses if status != 200]


def _chats(behaviour: Behaviour) -> int:
    return sum(
        1
        for method, path, _ in behaviour.seen
        if (method, path) == ("POST", "/v1/chat/completions")
    )


@pytest.fixture
def serving(default_env, tmp_path):
    """The real router in front of two old replicas; yields (router URL, a cluster factory taking the new version)."""
    from charts.serving_spec import serving_spec_for

    spec = dataclasses.replace(
        serving_spec_for(default_env), replicas=REPLICAS, router_policy="cache_aware"
    )
    with ExitStack() as stack:
        port = _free_port()
        router_url = f"http://127.0.0.1:{port}"
        holder = StandInCluster(router_url, stack, lambda: _version(OLD))
        olds = [holder.start_replica(_version(OLD)) for _ in range(REPLICAS)]
        stack.enter_context(
            _running(
                _router_command(spec, olds, port, _free_port()), router_url, tmp_path / "router.log"
            )
        )

        def cluster(new: Callable[[], Behaviour]) -> StandInCluster:
            holder.new = new
            return holder

        yield router_url, cluster


def _probe(url: str) -> list[str]:
    return canary_problems(
        url, MODEL, model_path=NEW, api_key=ApiKey(API_KEY, "test"), timeout=REQUEST_SECONDS
    )


#: No deadline binds here: each step polls the real processes and ends when they answer.
TIMES = CanaryTimes(ready=REQUEST_SECONDS, promotion=REQUEST_SECONDS, poll=0.05)


def _served_model(router_url: str) -> set[str]:
    request = urllib.request.Request(
        f"{router_url}/v1/models", headers={"Authorization": f"Bearer {API_KEY}"}
    )
    roots = set()
    for _ in range(8):  # the router sends each /v1/models to one worker: ask a few times
        with urllib.request.urlopen(request, timeout=REQUEST_SECONDS) as answer:
            roots |= {card["root"] for card in json.loads(answer.read())["data"]}
    return roots


def test_a_passing_canary_takes_its_share_and_completes_with_the_model_switched_and_no_failed_request(
    serving,
):
    router_url, make_cluster = serving
    canaries: list[Behaviour] = []

    def new() -> Behaviour:
        canaries.append(_version(NEW))
        return canaries[-1]

    cluster = make_cluster(new)
    shares: list[int] = []
    real_probe = _probe

    def probe_after_traffic(url: str) -> list[str]:
        # given clients calling while the canary is in the pool: it takes its share of them before the probe decides
        before = len(clients.statuses)
        while len(clients.statuses) < before + 60:
            clients.stopping.wait(0.02)
        shares.append(_chats(canaries[0]))
        return real_probe(url)

    # when the canary runs while clients call through the router
    with Clients(router_url) as clients:
        outcome = run_canary(cluster, probe_after_traffic, TIMES)
    # then it is promoted, the canary took a share of the clients (one replica of three: at least half of a third),
    # and no request failed
    assert outcome.verdict == PROMOTED, outcome.to_dict()
    assert shares[0] >= 60 // (REPLICAS + 1) // 2, shares
    assert clients.statuses and clients.failed() == [], clients.failed()
    # then the pool is the two new replicas, the canary gone, and the router serves the new model only
    assert len(cluster.pool()) == REPLICAS and cluster.canary not in cluster.pool()
    assert _served_model(router_url) == {NEW}


def test_a_failing_canary_is_rolled_back_with_the_reason_and_no_client_error(serving):
    router_url, make_cluster = serving
    # given a new version that answers the probe's arithmetic wrongly
    cluster = make_cluster(lambda: _version(NEW, answer="102948"))
    with Clients(router_url) as clients:
        outcome = run_canary(cluster, _probe, TIMES)
    # then it is rolled back with the probe's reason, the old replicas serve, and no client saw an error
    assert outcome.verdict == ROLLED_BACK
    assert "correctness probe" in outcome.reason and "arithmetic" in outcome.reason, outcome.reason
    assert clients.statuses and clients.failed() == [], clients.failed()
    assert len(cluster.pool()) == REPLICAS and cluster.canary not in cluster.pool()
    assert _served_model(router_url) == {OLD}
