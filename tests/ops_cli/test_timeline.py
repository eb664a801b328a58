"""``llmops timeline``: the plan a user gets from llmops is the one bench/timeline.py prints for maintainers (one code,
ops_cli/timeline.py), offline: no AWS client is made."""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path

import pytest

PROJECT_DIR = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(PROJECT_DIR / "bench"))

import timeline as bench_timeline  # noqa: E402


def _bench(config_dir: Path, *argv: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert bench_timeline.main([*argv, "--config-dir", str(config_dir)]) == 0
    return out.getvalue()


@pytest.mark.parametrize("env", ["example", "example-hyperpod"])
def test_llmops_timeline_is_the_bench_plan(run, env, config_dir):
    # given an environment; when the user asks llmops for its plan, as JSON and as text
    as_json = run("timeline", "--env", env, "--json")
    as_text = run("timeline", "--env", env)
    # then both are what bench/timeline.py prints (no AWS stub was needed: the fixture fails on an unexpected call)
    assert as_json.code == 0 and as_text.code == 0, as_json.stderr
    assert as_json.json == json.loads(_bench(config_dir, "--env", env, "--json"))
    assert as_text.stdout.strip() == _bench(config_dir, "--env", env).strip()


def test_llmops_timeline_names_the_recommended_source_row(run):
    result = run("timeline", "--env", "example", "--json")
    steps = [p["step"] for p in result.json["phases"]]
    assert "node ready -> first token, weights from S3: copy to the NVMe beside the image pull, check, then load" in steps
