"""The parts of a vLLM start that only its log shows (ops_cli/startup_phases.py reads the rest): the weights' download
and load, torch.compile, CUDA-graph capture, the engine's warm-up, and the first completion the server answered, from
``kubectl logs --timestamps`` lines (each prefixed with the kubelet's RFC 3339 time, since vLLM's own date format has
no year or zone: vllm/logger.py ``_DATE_FORMAT``).

Each line gives its own duration, so a phase ends at the line and starts that many seconds before; with tensor
parallelism every rank logs its own line and the last one counts. The lines, each from the vLLM source that prints it:

- ``Time spent downloading weights for M: S seconds`` (vllm/model_executor/model_loader/weight_utils.py, only when the
  download took over half a second), ``Loading weights took S seconds`` (default_loader.py), ``Model loading took G
  GiB memory and S seconds`` (vllm/v1/worker/gpu_model_runner.py) and ``init engine (profile, create kv cache, warmup
  model) took S s`` (vllm/v1/engine/core.py), as vLLM 0.33.0 prints them;
- ``torch.compile took S s in total`` (vLLM 0.25.0 wheel, vllm/compilation/monitor.py:53, as bench/warmup_log.py
  reads it; ``torch.compile takes S s in total`` in vllm-project/vllm@00158387 vllm/compilation/monitor.py, and
  ``torch.compile and initial profiling/warmup run together took S s in total`` without AOT compile,
  vllm/compilation/decorators.py:672): both tenses are read;
- ``Graph capturing finished in N secs, took G GiB`` (vLLM 0.25.0 wheel, vllm/v1/worker/gpu_model_runner.py:6707;
  the same format string in vllm-project/vllm's later gpu_model_runner.py): whole seconds (``%.0f``);
- the first completion answered: uvicorn's access line ``CLIENT - "POST /v1/completions HTTP/1.1" 200`` (or
  ``/v1/chat/completions``; encode/uvicorn@00cb13dd uvicorn/config.py ``LOGGING_CONFIG``, the ``access`` format
  ``%(client_addr)s - "%(request_line)s" %(status_code)s``, on unless vLLM runs with ``--disable-uvicorn-access-log``),
  written when the response starts: for a completion that is not streamed, once its tokens are generated. Nothing
  in a start sends one: the first request does (``llmops smoke-test``), so this phase runs from the first healthy
  answer to that request and stays unknown until one is sent.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime, timedelta

from ops_cli.startup_records import Phase
from ops_cli.startup_records import parse_time as _time

MAX_LOGGED_SECONDS = 7 * 24 * 3600  # a week: a vLLM log line giving more is not believed
DOWNLOADED = re.compile(r"Time spent downloading weights for .*?: (?P<seconds>[0-9.]+) seconds")
_WEIGHTS_LOADED = re.compile(r"Loading weights took (?P<seconds>[0-9.]+) seconds")
_MODEL_LOADED = re.compile(
    r"Model loading took (?P<gib>[0-9.]+) GiB memory and (?P<seconds>[0-9.]+) seconds"
)
COMPILED = re.compile(
    r"torch\.compile (?:and initial profiling/warmup run together )?(?:took|takes) "
    r"(?P<seconds>[0-9.]+) s in total"
)
GRAPHS_CAPTURED = re.compile(r"Graph capturing finished in (?P<seconds>[0-9]+) secs")
_ENGINE_READY = re.compile(
    r"init engine \(profile, create kv cache, warmup model\) took (?P<seconds>[0-9.]+) s"
)
_COMPLETION_ANSWERED = re.compile(r'"POST /v1/(?:chat/)?completions HTTP/[0-9.]+" 200')


def log_times(
    lines: Sequence[str], pattern: re.Pattern, *, first: bool = False
) -> tuple[datetime, float] | None:
    """(time of the last line matching ``pattern``, or the first with ``first``, the seconds it reports; 0 for a
    pattern without them), from ``kubectl logs --timestamps`` lines."""
    found = None
    for line in lines:
        stamp, _, text = line.partition(" ")
        match = pattern.search(text)
        moment = _time(stamp)
        if not match or moment is None or moment.year <= 1:
            continue
        text_seconds = match.groupdict().get("seconds") or "0"
        if text_seconds.count(".") > 1 or float(text_seconds) > MAX_LOGGED_SECONDS:
            continue  # absurd: not believed
        found = (moment, float(text_seconds))
        if first:
            break
    return found


def _logged(name: str, lines: Sequence[str], pattern: re.Pattern, source: str) -> Phase:
    logged = log_times(lines, pattern)
    return Phase(
        name,
        logged[0] - timedelta(seconds=logged[1]) if logged else None,
        logged[0] if logged else None,
        source,
    )


def load_and_engine_phases(lines: Sequence[str]) -> list[Phase]:
    """Model load, torch.compile, CUDA-graph capture and the engine's whole warm-up (compile and graph capture are
    inside it), in that order."""
    loaded = log_times(lines, _MODEL_LOADED) or log_times(lines, _WEIGHTS_LOADED)
    return [
        Phase(
            "model loaded into the GPUs",
            loaded[0] - timedelta(seconds=loaded[1]) if loaded else None,
            loaded[0] if loaded else None,
            "vLLM: Model loading took",
        ),
        _logged(
            "compile (torch.compile)", lines, COMPILED, "vLLM: torch.compile took ... in total"
        ),
        _logged(
            "graph capture (CUDA graphs)",
            lines,
            GRAPHS_CAPTURED,
            "vLLM: Graph capturing finished in",
        ),
        _logged(
            "engine ready (profile, KV cache, warm-up)",
            lines,
            _ENGINE_READY,
            "vLLM: init engine ... took",
        ),
    ]


def first_token(lines: Sequence[str], healthy: datetime | None) -> Phase:
    """From the first healthy answer to the first completion the server answered (uvicorn's access line)."""
    answered = log_times(lines, _COMPLETION_ANSWERED, first=True)
    return Phase(
        "first token (first completion answered)",
        healthy,
        answered[0] if answered else None,
        "uvicorn access log: the first POST /v1/completions answered 200 (sent by llmops smoke-test or a client)",
    )
