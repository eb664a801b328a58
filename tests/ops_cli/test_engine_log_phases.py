"""``llmops phases`` records compile, graph capture and the first token of a start from vLLM's own log lines (issue 30,
"Done when"), on the lines of a real vLLM start (bench/data/warmup, recorded on an H200 by bench/warmup.py) as
``kubectl logs --timestamps`` prints them."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from ops_cli.startup_phases import startup_phases
from tests.conftest import PROJECT_DIR
from tests.ops_cli.test_startup_phases import EVENTS, NODE_JSON, pod

WARMUP = PROJECT_DIR / "bench" / "data" / "warmup"
#: The pod of tests/ops_cli/test_startup_phases.py is Ready at 11:31:40.
READY = datetime(2026, 11, 30, 11, 31, 40, tzinfo=UTC)


def kubectl_lines(record: str, engine_ready_at: datetime) -> list[str]:
    """The recorded start's vLLM lines, each prefixed with an RFC 3339 time as kubectl --timestamps prints it, shifted
    so that its 'init engine' line is at ``engine_ready_at``."""
    records = [json.loads(line) for line in (WARMUP / record).read_text().splitlines()]
    engine_t = next(r["t"] for r in records if "init engine (profile" in r["line"])
    base = engine_ready_at - timedelta(seconds=engine_t)
    return [
        f"{(base + timedelta(seconds=r['t'])).strftime('%Y-%m-%dT%H:%M:%S.%fZ')} {r['line']}"
        for r in records
    ]


def by_name(lines: list[str]) -> dict:
    phases = startup_phases(
        pod=pod(), node=NODE_JSON, events=EVENTS, log_lines=lines, container="vllm"
    )
    return {p.name: p for p in phases}


def test_a_real_starts_log_gives_its_load_compile_graph_capture_and_engine_phases():
    # given the cold 8-layer start's lines (vLLM 0.25.0), when llmops phases reads them
    phases = by_name(kubectl_lines("cold8.log", READY - timedelta(seconds=30)))
    # then each phase takes the seconds its own line gives, ending at that line
    assert round(phases["model loaded into the GPUs"].seconds, 2) == 8.68
    assert round(phases["compile (torch.compile)"].seconds, 2) == 14.79
    assert phases["graph capture (CUDA graphs)"].seconds == 33
    assert round(phases["engine ready (profile, KV cache, warm-up)"].seconds, 2) == 334.57
    # and compile and graph capture lie inside the engine's warm-up, in that order
    engine = phases["engine ready (profile, KV cache, warm-up)"]
    compiled, captured = phases["compile (torch.compile)"], phases["graph capture (CUDA graphs)"]
    assert engine.started <= compiled.started < compiled.finished <= captured.started
    assert captured.finished <= engine.finished
    # the readiness still starts where the engine's warm-up ends
    assert phases["first healthy (readiness)"].started == engine.finished


def test_a_restored_start_shows_its_shorter_compile_and_capture():
    cold = by_name(kubectl_lines("cold8.log", READY - timedelta(seconds=30)))
    warm = by_name(kubectl_lines("warm8.log", READY - timedelta(seconds=30)))
    for name in ("compile (torch.compile)", "graph capture (CUDA graphs)"):
        assert warm[name].seconds < cold[name].seconds


def test_the_first_token_is_the_first_completion_answered_after_readiness():
    # given a start's lines, then uvicorn's access lines: the probes' /health, a refused completion, then one answered
    access = 'INFO:     10.0.12.34:53210 - "{request} HTTP/1.1" {status}'
    later = [
        f"2026-11-30T11:31:45.000000000Z {access.format(request='GET /health', status='200 OK')}",
        f"2026-11-30T11:32:00.000000000Z {access.format(request='POST /v1/completions', status='401 Unauthorized')}",
        f"2026-11-30T11:32:10.500000000Z "
        f"{access.format(request='POST /v1/chat/completions', status='200 OK')}",
        f"2026-11-30T11:40:00.000000000Z {access.format(request='POST /v1/completions', status='200 OK')}",
    ]
    phases = by_name(kubectl_lines("cold8.log", READY - timedelta(seconds=30)) + later)
    # then the first token is the first completion answered 200, counted from the first healthy answer
    first = phases["first token (first completion answered)"]
    assert first.started == READY and first.seconds == 30.5
    assert "uvicorn access log" in first.source


def test_without_a_request_or_with_an_eager_start_those_phases_stay_unknown():
    # given an eager start (no compile, no graphs logged) that no client has asked anything yet
    lines = [
        "2026-11-30T11:31:00.000000000Z INFO 11-30 11:31:00 [core.py:413] init engine (profile, create kv cache, "
        "warmup model) took 8.00 s",
    ]
    phases = by_name(lines)
    assert phases["compile (torch.compile)"].seconds is None
    assert phases["graph capture (CUDA graphs)"].seconds is None
    assert phases["first token (first completion answered)"].seconds is None
    assert phases["engine ready (profile, KV cache, warm-up)"].seconds == 8


def test_the_present_tense_of_older_vllm_is_read_too():
    lines = [
        "2026-11-30T11:20:00.000000000Z (EngineCore_DP0 pid=9) INFO 11-30 11:20:00 [monitor.py:34] torch.compile "
        "takes 41.50 s in total",
    ]
    assert by_name(lines)["compile (torch.compile)"].seconds == 41.5
