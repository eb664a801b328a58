"""bench/warmup.py and bench/warmup_log.py: the phases of a vLLM start read from its recorded lines (no GPU here).

The records are the ones bench/warmup.py wrote on an H200 (bench/data/warmup): vLLM 0.25.0's own lines with the time
each arrived, so the parser is tested on what vLLM prints, not on lines written for the test."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from deployment_config.startup_rates import WARM_UP_PROXY

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "bench" / "data" / "warmup"
sys.path.insert(0, str(ROOT / "bench"))

import warmup  # noqa: E402
from warmup_log import PHASES, WarmupLogError, parse, read_records  # noqa: E402


def start(name: str):
    return parse(read_records(DATA / f"{name}.log"))


def test_a_cold_start_is_read_phase_by_phase_from_vllms_own_lines():
    # given the recorded cold start of 4 layers on the H200, when its phases are read
    cold = start("cold4")
    # then every phase showed, and together they are the start: process start to the first token
    assert None not in cold.phases.values()
    assert sum(cold.phases.values()) == pytest.approx(cold.total, abs=0.01)
    assert cold.total == 389.311
    # the largest is DeepGEMM's JIT kernels, not torch.compile
    assert max(cold.phases, key=cold.phases.get) == "JIT kernels"
    assert cold.phases["JIT kernels"] == pytest.approx(240.29, abs=0.01)
    # and vLLM's own figures are read as it printed them
    assert cold.reported["torch_compile_seconds"] == 14.24
    assert cold.reported["graph_capture_seconds"] == 29.0
    assert cold.reported["graph_capture_gib"] == 4.23
    assert cold.reported["init_engine_seconds"] == 346.26


@pytest.mark.parametrize("layers", [4, 8])
def test_a_start_with_every_cache_restored_is_faster_where_a_cache_applies(layers):
    # given a cold start and one with its caches restored where they were written
    cold, warm = start(f"cold{layers}"), start(f"warm{layers}")
    # then the start is faster, and so is every phase a cache serves (Python's import and the one token are not cached)
    assert warm.total < cold.total / 5
    cached = [p for p in PHASES if p not in ("import", "first token")]
    assert [p for p in cached if not warm.phases[p] < cold.phases[p]] == []
    # and torch.compile was loaded, not run
    assert "torch_compile_seconds" in warm.reported and warm.reported["torch_compile_seconds"] < 3


def test_a_cache_restored_into_another_directory_compiles_again():
    # given the 4-layer caches restored into another directory than the one they were written in
    moved, warm = start("warm4-elsewhere"), start("warm4")
    # then torch.compile ran again (vLLM's AOT cache missed), while DeepGEMM's kernels were still found
    assert moved.phases["compile"] > 5 * warm.phases["compile"]
    assert moved.phases["JIT kernels"] < 2


def test_a_phase_that_never_shows_falls_into_the_next_and_the_sum_stays_the_total():
    # given an eager start: no graphs captured, no DeepGEMM kernels
    records = [
        (r[0], r[1])
        for r in read_records(DATA / "cold4.log")
        if "Capturing CUDA graphs" not in r[1]
        and "Graph capturing finished" not in r[1]
        and "DeepGEMM warmup" not in r[1]
    ]
    eager = parse(records)
    # then those phases are None, and the phases that showed still add up to the start
    assert eager.phases["graph capture"] is None and eager.phases["JIT kernels"] is None
    assert sum(v for v in eager.phases.values() if v is not None) == pytest.approx(
        eager.total, abs=0.01
    )


def test_a_start_without_its_first_token_is_refused_with_the_fix():
    records = [r for r in read_records(DATA / "cold4.log") if "first token" not in r[1]]
    with pytest.raises(WarmupLogError, match="never reached its first token.*read its log"):
        parse(records)


def test_the_report_of_a_file_that_is_no_record_says_which_line_and_exits_2(tmp_path):
    # given a log that is not bench/warmup.py's, with its summary
    (tmp_path / "x.log").write_text("INFO plain text\n")
    (tmp_path / "x.summary.json").write_text(json.dumps({"layers": 4, "caches": "cold"}))
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "warmup.py"), "report", str(tmp_path / "x.log")],
        capture_output=True,
        text=True,
        check=False,
    )
    # then one message names the file and line and the fix, without a traceback
    assert result.returncode == 2
    assert f"{tmp_path / 'x.log'}:1: not a record of bench/warmup.py run" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_plans_warm_up_proxies_are_the_extrapolation_of_the_recorded_runs():
    # given the recorded runs, when they are extrapolated to Kimi-K3's 93 layers
    runs = [warmup.load(DATA / f"{n}.log") for n in ("cold4", "cold8", "warm4", "warm8")]
    fits = warmup.extrapolate(runs, 93)
    # then graph capture grows by the measured seconds a layer, and the warm-up (the sum less the dummy weights) is
    # the figure deployment_config.startup_rates gives the plan
    capture = fits["cold"]["phases"]["graph capture"]
    assert capture["arithmetic"] == "25.948 + 1.585 x (93 - 4)" and capture["seconds"] == 167.0
    assert fits["cold"]["phases"]["warm_up"]["seconds"] == WARM_UP_PROXY["cold"].seconds
    assert fits["restored"]["phases"]["warm_up"]["seconds"] == WARM_UP_PROXY["restored"].seconds
    for proxy in WARM_UP_PROXY.values():
        assert all(
            label in proxy.source for label in ("GPU H200", "vLLM 0.25.0", "93", "dummy weights")
        )


def test_the_recording_ends_at_the_first_token_even_if_a_process_keeps_the_pipe_open(tmp_path):
    # given a start whose child exits after its first token while a process it started (vLLM's engine core) lives on
    child = (
        "import subprocess, sys; subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)']); "
        "print('warmup-mark: vllm imported', flush=True); print('warmup-mark: first token [1]', flush=True)"
    )
    log = tmp_path / "r.log"
    # when it is recorded with a timeout far shorter than that process' life
    code = warmup.record_start([sys.executable, "-c", child], {}, log, timeout=20)
    # then the recording stopped at the first token, not at the timeout
    lines = [r[1] for r in read_records(log)]
    assert code == 0 and lines[-1] == "warmup-mark: first token [1]"
    assert not any("killed at the --timeout" in line for line in lines)
