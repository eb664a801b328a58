"""The phases of one vLLM start, read from its log lines and the time each line arrived (bench/warmup.py records both).

A record is one JSON object a line, ``{"t": SECONDS, "line": TEXT}``: ``t`` counts from the moment bench/warmup.py
started the process, so the import before vLLM's first line is in it too. A phase ends at the first line that matches
its end; its duration is the time from the end of the phase before. The lines are vLLM 0.25.0's own (each pattern
names the source line it reads, vllm-0.25.0 wheel, ``vllm-0.25.0-cp38-abi3-manylinux_2_28_x86_64.whl``), except the
two marks bench/warmup.py's child prints itself: after ``import vllm`` and after the first generated token.
A phase whose end never shows (a model without DeepGEMM kernels, an eager start without graphs) is None, and its time
falls into the next phase that shows: the sum of the phases is always the start's total.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

#: What bench/warmup.py's child prints (bench/warmup.py CHILD): after the import, and once the first token is back.
IMPORTED_MARK = "warmup-mark: vllm imported"
FIRST_TOKEN_MARK = "warmup-mark: first token"


@dataclass(frozen=True)
class Boundary:
    """The end of one phase: the first line matching ``pattern`` (a regular expression), from ``source``."""

    phase: str
    pattern: str
    source: str


#: In the order vLLM 0.25.0 logs them (vllm/v1/engine/core.py _initialize_kv_caches, vllm/v1/worker/gpu_worker.py
#: compile_or_warm_up_model: profile run with torch.compile, KV cache, kernel_warmup, capture_model).
BOUNDARIES: tuple[Boundary, ...] = (
    Boundary("import", re.escape(IMPORTED_MARK), "bench/warmup.py child, after `import vllm`"),
    Boundary(
        "model inspection",
        r"Starting to load model ",
        "vllm/v1/worker/gpu_model_runner.py:5209 'Starting to load model %s...' (config, architecture, engine "
        "and worker processes before it)",
    ),
    Boundary(
        "weights (dummy)",
        r"Model loading took [\d.]+ GiB memory and [\d.]+ seconds",
        "vllm/v1/worker/gpu_model_runner.py:5306 'Model loading took %s GiB memory and %.6f seconds'",
    ),
    Boundary(
        "compile",
        r"torch\.compile (?:and initial profiling/warmup run together )?took [\d.]+ s in total",
        "vllm/compilation/monitor.py:53 'torch.compile took %.2f s in total' (vllm/compilation/decorators.py:672 "
        "'torch.compile and initial profiling/warmup run together took %.2f s in total' without AOT compile)",
    ),
    Boundary(
        "profile and KV cache",
        r"DeepGEMM warmup",
        "vllm/model_executor/warmup/deep_gemm_warmup.py:414 tqdm desc 'DeepGEMM warmup' (its first bar)",
    ),
    Boundary(
        "JIT kernels",
        r"Capturing CUDA graphs \(",
        "vllm/v1/worker/gpu_model_runner.py:6769 tqdm desc 'Capturing CUDA graphs ({}, {})' (its first bar)",
    ),
    Boundary(
        "graph capture",
        r"Graph capturing finished in \d+ secs",
        "vllm/v1/worker/gpu_model_runner.py:6707 'Graph capturing finished in %.0f secs, took %.2f GiB'",
    ),
    Boundary(
        "engine ready",
        r"init engine \(profile, create kv cache, warmup model\) took",
        "vllm/v1/engine/core.py:326-345 'init engine (profile, create kv cache, warmup model) took %.2f s' (logged from :337)",
    ),
    Boundary(
        "first token",
        re.escape(FIRST_TOKEN_MARK),
        "bench/warmup.py child, after generate() returns",
    ),
)
PHASES = tuple(b.phase for b in BOUNDARIES)

#: vLLM's own figures, read as it prints them (seconds; GiB for the graphs' memory).
REPORTED: Mapping[str, tuple[str, str]] = {
    "loading_seconds": (
        r"Model loading took [\d.]+ GiB memory and ([\d.]+) seconds",
        "vllm/v1/worker/gpu_model_runner.py:5306",
    ),
    "dynamo_seconds": (
        r"Dynamo bytecode transform time: ([\d.]+) s",
        "vllm/compilation/backends.py:1149",
    ),
    "torch_compile_seconds": (
        r"torch\.compile (?:and initial profiling/warmup run together )?took ([\d.]+) s in total",
        "vllm/compilation/monitor.py:53",
    ),
    "profiling_run_seconds": (
        r"Initial profiling/warmup run took ([\d.]+) s",
        "vllm/compilation/monitor.py:81",
    ),
    "graph_capture_seconds": (
        r"Graph capturing finished in (\d+) secs",
        "vllm/v1/worker/gpu_model_runner.py:6707",
    ),
    "graph_capture_gib": (
        r"Graph capturing finished in \d+ secs, took ([\d.]+) GiB",
        "vllm/v1/worker/gpu_model_runner.py:6707",
    ),
    "init_engine_seconds": (
        r"init engine \(profile, create kv cache, warmup model\) took ([\d.]+) s",
        "vllm/v1/engine/core.py:345",
    ),
    "compiled_graphs_loaded": (
        r"(Directly load the compiled graph)",
        "vllm/compilation/backends.py:292 'Directly load the compiled graph(s) for compile range %s from the cache'",
    ),
}


class WarmupLogError(ValueError):
    """A record bench/warmup.py cannot read: one message naming the file and the fix."""


@dataclass(frozen=True)
class Start:
    """One start's phases (seconds, None where the phase's end never showed) and vLLM's own figures."""

    phases: dict[str, float | None]
    total: float
    reported: dict[str, float | str] = field(default_factory=dict)


def parse(records: Iterable[tuple[float, str]]) -> Start:
    """The phases of one start from its (seconds since process start, line) records, in arrival order."""
    ends: dict[str, float] = {}
    reported: dict[str, float | str] = {}
    last = 0.0
    for t, line in records:
        last = max(last, t)
        for boundary in BOUNDARIES:
            if boundary.phase not in ends and re.search(boundary.pattern, line):
                ends[boundary.phase] = t
        for name, (pattern, _) in REPORTED.items():
            match = re.search(pattern, line)
            if name not in reported and match:
                value = match.group(1)
                reported[name] = value if name == "compiled_graphs_loaded" else float(value)
    if "first token" not in ends:
        raise WarmupLogError(
            "the start never reached its first token (no line "
            f"{FIRST_TOKEN_MARK!r}): the run failed or was cut short; read its log for vLLM's error"
        )
    phases: dict[str, float | None] = {}
    previous = 0.0
    for boundary in BOUNDARIES:
        end = ends.get(boundary.phase)
        if end is None or end < previous:
            phases[boundary.phase] = None
            continue
        phases[boundary.phase] = round(end - previous, 3)
        previous = end
    return Start(phases=phases, total=round(ends["first token"], 3), reported=reported)


def read_records(path: Path) -> list[tuple[float, str]]:
    """The records of one file bench/warmup.py wrote (``--log``)."""
    records = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise WarmupLogError(
            f"{path}: cannot be read ({error.strerror}); give a log bench/warmup.py run wrote"
        ) from None
    for number, text in enumerate(lines, 1):
        try:
            record = json.loads(text)
            records.append((float(record["t"]), str(record["line"])))
        except (ValueError, KeyError, TypeError):
            raise WarmupLogError(
                f"{path}:{number}: not a record of bench/warmup.py run (each line is "
                '{"t": SECONDS, "line": TEXT}); give the --log file the run wrote'
            ) from None
    return records
