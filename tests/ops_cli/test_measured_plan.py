"""bench/timeline.py --measured: the start-up plan from the user's own records (issue 21's done-when).

Every record here is what `llmops phases --env example --json` printed for a fake cluster built from
tests/ops_cli/test_startup_phases.py's pods, events and vLLM log lines, so that the record's format is the command's,
never hand-written; the timeline then reads it as a user's file."""

from __future__ import annotations

import copy
import importlib.util
import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from ops_cli.commands.phases import INSTANCE_TYPE_LABEL
from ops_cli.errors import ExitCode
from tests.conftest import CONFIG_DIR
from tests.ops_cli.test_startup_phases import (
    EVENTS,
    LOG,
    NODE_JSON,
    NONE_YET,
    RESTORED,
    S3_EVENTS,
    FakeKubectl,
    s3_pod,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def timeline():
    spec = importlib.util.spec_from_file_location("bench_timeline", ROOT / "bench" / "timeline.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


class Cluster(FakeKubectl):
    """FakeKubectl with this test's node, events and log."""

    def __init__(self, pods, *, node=None, events=EVENTS, log=LOG):
        super().__init__(pods)
        self.node = node or labelled("p6-b300.48xlarge")
        self.events, self.log = events, log

    def __call__(self, command, **kwargs):
        self.commands.append(command)
        args = command[1:]
        if args[0] == "logs":
            return subprocess.CompletedProcess(command, 0, "\n".join(self.log) + "\n", "")
        out = {"get node": self.node, "get events": {"items": self.events}}.get(" ".join(args[:2]))
        if out is None:
            return super().__call__(command, **kwargs)
        return subprocess.CompletedProcess(command, 0, json.dumps(out), "")


def labelled(instance_type: str) -> dict:
    return {
        **NODE_JSON,
        "metadata": {**NODE_JSON["metadata"], "labels": {INSTANCE_TYPE_LABEL: instance_type}},
    }


def ready_at(base: dict, time: str) -> dict:
    result = copy.deepcopy(base)
    for condition in result["status"]["conditions"]:
        if condition["type"] == "Ready":
            condition["lastTransitionTime"] = time
    return result


def vllm_lines(*, loading_s: float, engine_s: float, loaded_at: str, engine_at: str) -> list[str]:
    """vLLM 0.33.0's lines of a start (the shapes of test_startup_phases.LOG): the load ends at ``loaded_at``, the
    engine's init at ``engine_at``."""
    return [
        f"{loaded_at} (Worker_TP7 pid=218) INFO 11-30 [gpu_model_runner.py:5089] Model loading took 175.12 GiB "
        f"memory and {loading_s} seconds",
        f"{engine_at} INFO 11-30 [core.py:413] init engine (profile, create kv cache, warmup model) took "
        f"{engine_s} s",
    ]


# The fixture's S3 start: scheduled 15 s after node ready, image pulled in 180 s, S3 copy 1080 s, check 120 s,
# compile cache restore 30 s (until 10:23:32); then this test's vLLM start of 60 s (none of the phases: 64 s of the
# start between them, with the 2 s before the pull and the 1 s after the check), load, warm-up and readiness.
COLD = dict(
    pod=ready_at(s3_pod(restored=True, outcome=NONE_YET), "2026-11-30T10:50:12Z"),
    events=S3_EVENTS,
    # load 700 s from 10:24:32, warm-up 800 s: readiness 40 s
    log=vllm_lines(
        loading_s=700,
        engine_s=800,
        loaded_at="2026-11-30T10:36:12.000000000Z",
        engine_at="2026-11-30T10:49:32.000000000Z",
    ),
)
CACHED = dict(
    pod=ready_at(s3_pod(restored=True, outcome=RESTORED), "2026-11-30T10:38:17Z"),
    events=S3_EVENTS,
    # load 700 s from 10:24:32, warm-up 95 s: readiness 30 s
    log=vllm_lines(
        loading_s=700,
        engine_s=95,
        loaded_at="2026-11-30T10:36:12.000000000Z",
        engine_at="2026-11-30T10:37:47.000000000Z",
    ),
)


@pytest.fixture
def record(run_with_kubectl, tmp_path):
    """``record(name, pod=..., events=..., log=..., node=...)``: the file `llmops phases --json` writes."""

    def write(name: str, *, pod, events, log, node=None) -> Path:
        result = run_with_kubectl(
            Cluster([pod], node=node, events=events, log=log),
            "phases",
            "--env",
            "example",
            "--json",
        )
        assert result.code == ExitCode.OK, result.stderr
        path = tmp_path / name
        path.write_text(result.stdout)
        return path

    return write


def plan(timeline, capsys, config_dir, *files, env="example", json_out=False):
    argv = ["--env", env, "--config-dir", str(config_dir), *(["--json"] if json_out else [])]
    for f in files:
        argv += ["--measured", str(f)]
    code = timeline.main(argv)
    out, err = capsys.readouterr()
    return code, (json.loads(out) if json_out and code == 0 else out), err


def test_phases_json_says_which_pod_node_configuration_and_cache_it_measured(record):
    data = json.loads(record("cold.json", **COLD).read_text())
    # the keys it always had are still there
    assert {"env", "phases", "pod_note"} <= set(data)
    rec = data["record"]
    assert rec["pod"] == "vllm-7d9f8b6c5d-x2k4p" and rec["node"].startswith("ip-10-0-12-34")
    assert rec["compile_cache"] == "none"  # the restore found none saved yet: vLLM compiled
    assert rec["identity"]["instance_type"] == "p6-b300.48xlarge"  # the node's label
    assert rec["identity"]["image"] == "vllm/vllm-openai:kimi-k3"  # the pod's vLLM container
    assert rec["identity"]["layout"] == {
        "nodes": 1,
        "tensor_parallel_size": 8,
        "pipeline_parallel_size": 1,
    }


def test_the_measured_plan_uses_the_measured_warm_up_and_load_and_gives_the_verdict(
    timeline, capsys, config_dir, record
):
    cold, cached = record("cold.json", **COLD), record("cached.json", **CACHED)
    code, out, err = plan(timeline, capsys, config_dir, cold, cached)
    assert code == 0, err
    # the unmeasured warm-up and instance store rate are measured now, each row naming its file, pod and time
    unmeasured = out.split("\nunmeasured (")[1].split("\nmeasured (--measured")[0]
    assert "warm_up " not in unmeasured and "instance_store_read" not in unmeasured
    assert "hub_download" in unmeasured
    assert (
        f"warm_up_with_compile_cache          95 s  {cached}: llmops phases, env example, pod "
        "vllm-7d9f8b6c5d-x2k4p on ip-10-0-12-34.us-west-2.compute.internal, start at 2026-11-30T10:01:55Z"
    ) in out
    assert f"warm_up_without_compile_cache      800 s  {cold}" in out
    assert f"instance_store_load          2.02857  measured: {cold}" in out  # 1420 GB / 700 s
    # the restart row: 1420 GB / 2.03 GB/s + the cached warm-up
    assert (
        "instance_store_load 2.02857 GB/s + warm-up 95 s (warm_up_with_compile_cache, measured)"
        in out
    )
    # the verdict, with its arithmetic: 15 + 180 + 1080 + 120 + 30 + 700 + 95 + 40 (the slowest readiness) + 64 s
    first = next(line for line in out.splitlines() if "node ready → first token" in line)
    assert first == (
        "  node ready → first token 38.7 min (limit 15): NOT met: 0.2 node ready → pod scheduled + 3.0 image "
        "pull (a start that pulled it) + 18.0 S3 copy (1420 GB / s3_copy_measured 1.31481 GB/s) + 2.0 "
        "manifest check + 0.5 compile cache restored from S3 + 11.7 load (1420 GB / instance_store_load "
        "2.02857 GB/s) + 1.6 warm-up (warm_up_with_compile_cache) + 0.7 readiness + 1.1 between the phases "
        "(containers starting, vLLM's start before loading) = 38.7 min"
    )
    restart = next(
        line for line in out.splitlines() if line.startswith("  restart on the same node ")
    )
    # 120 + 700 + 95 + 40 + 64 s
    assert restart.startswith(
        "  restart on the same node 17.0 min (limit 5): NOT met: 2.0 manifest check"
    )
    assert "not counted: the new pod's scheduling; the S3 sync of files already there" in restart
    # and a restart with no record of the compile cache found on the node says that term is missing, not zero
    assert "finding the compile cache on the node: no record of a restart that found it" in restart


def fast_start(*, vllm_start_s: int) -> dict:
    """A start from S3 with a compile cache: copy 120 s, check 30 s, restore 30 s, then vLLM's own start of
    ``vllm_start_s`` before its load of 120 s, warm-up 60 s and readiness 20 s (the 2 s before the pull and the 1 s
    between the check and the restore are in no phase either)."""
    fast = copy.deepcopy(CACHED)
    fetch, check, restore = (
        s["state"]["terminated"] for s in fast["pod"]["status"]["initContainerStatuses"]
    )
    fetch["finishedAt"] = "2026-11-30T10:05:00Z"  # 120 s
    check["startedAt"], check["finishedAt"] = "2026-11-30T10:05:01Z", "2026-11-30T10:05:31Z"
    restore["startedAt"], restore["finishedAt"] = "2026-11-30T10:05:32Z", "2026-11-30T10:06:02Z"
    loading = datetime(2026, 11, 30, 10, 6, 2, tzinfo=UTC) + timedelta(seconds=vllm_start_s)

    def at(seconds: int) -> str:
        return (loading + timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%S.000000000Z")

    fast["log"] = vllm_lines(loading_s=120, engine_s=60, loaded_at=at(120), engine_at=at(180))
    fast["pod"] = ready_at(fast["pod"], at(200).replace(".000000000", ""))
    return fast


def test_a_fast_start_meets_the_done_when(timeline, capsys, config_dir, record):
    # given starts whose load took 120 s and warm-up 60 s with a cache, vLLM starting in 7 s
    fast = fast_start(vllm_start_s=7)
    files = [record("fast.json", **fast)]
    # a restart on the same node: image and compile cache there, the S3 sync finds every file
    again = copy.deepcopy(fast)
    again["pod"]["status"]["initContainerStatuses"][0]["state"]["terminated"]["finishedAt"] = (
        "2026-11-30T10:03:20Z"  # 20 s
    )
    # scheduled hours after its node became ready: the node's age, which a new node's start does not count
    again["pod"]["status"]["conditions"][0]["lastTransitionTime"] = "2026-11-30T13:00:00Z"
    terminated = again["pod"]["status"]["initContainerStatuses"][2]["state"]["terminated"]
    terminated["message"] = "compile-cache: the cache of 0f3c is already on this node at /models/x"
    again["events"] = [
        {
            **e,
            "reason": "Pulled",
            "message": 'Container image "vllm/vllm-openai:kimi-k3" already present',
        }
        for e in S3_EVENTS
        if e["reason"] == "Pulled"
    ]
    files.append(record("restart.json", **again))
    code, data, err = plan(timeline, capsys, config_dir, *files, json_out=True)
    assert code == 0, err
    verdicts = {v["name"]: v for v in data["measured"]["done_when"]}
    first, restart = verdicts["node ready → first token"], verdicts["restart on the same node"]
    # then: the first token within 15 minutes: scheduling, pull, S3 copy, check, cache restore, load, warm-up, ready,
    # and the 10 s of the start in none of them
    seconds = [t["seconds"] for t in first["terms"]]
    assert seconds == [15, 180, pytest.approx(120), 30, 30, pytest.approx(120), 60, 20, 10]
    assert first["minutes"] == round(585 / 60, 1) == 9.8
    assert first["met"] is True and first["limit_minutes"] == 15
    # the restart: 20 s of sync, the check, the cache on the node, the load, the cached warm-up, readiness, and the
    # slowest time between phases
    assert [t["term"].split(" (")[0] for t in restart["terms"]] == [
        "S3 sync of the files already there",
        "manifest check",
        "compile cache already on the node",
        "load",
        "warm-up",
        "readiness",
        "between the phases",
    ]
    assert restart["minutes"] == round((20 + 30 + 30 + 120 + 60 + 20 + 10) / 60, 1) == 4.8
    assert restart["met"] is True and restart["limit_minutes"] == 5
    assert data["measured"]["seconds"]["restart_s3_sync"]["source"].startswith(str(files[1]))
    # and the printed line says so, with its sum
    assert restart["arithmetic"].startswith(
        "restart on the same node 4.8 min (limit 5): met: 0.3 S3 sync"
    )


def test_the_time_a_start_spends_between_its_phases_counts(timeline, capsys, config_dir, record):
    # given a start whose phases sum to 9.6 min but whose vLLM took 10 min to start loading: 17.5 min in all
    slow = record("slow-vllm-start.json", **fast_start(vllm_start_s=600))
    recorded = json.loads(slow.read_text())["phases"]
    total = next(p["seconds"] for p in recorded if p["phase"].startswith("total"))
    assert (
        total == 15 + 2 + 199 + 1 + 30 + 600 + 120 + 60 + 20
    )  # pull and copy overlap: 10:02:12 to 10:05:31
    # when the plan is computed from it
    code, data, err = plan(timeline, capsys, config_dir, slow, json_out=True)
    assert code == 0, err
    first = data["measured"]["done_when"][0]
    # then the 603 s in none of the phases is a term, and the done-when is not met
    assert first["terms"][-1] == {
        "term": "between the phases (containers starting, vLLM's start before loading)",
        "seconds": 603,
    }
    assert first["minutes"] == round((575 + 603) / 60, 1) == 19.6
    assert first["met"] is False
    assert data["measured"]["seconds"]["between_the_phases"]["source"].startswith(str(slow))


def test_without_measured_the_plan_is_the_one_the_deploy_guide_shows(timeline, capsys):
    # docs/deploy.md prints `llmops timeline`'s output for the example, which is bench/timeline.py's plan:
    # --measured changes nothing without it
    guide = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    block = guide.split("$ bin/llmops timeline --env example\n", 1)[1].split("```", 1)[0]
    assert timeline.main(["--env", "example", "--config-dir", str(CONFIG_DIR)]) == 0
    assert capsys.readouterr().out == block


def refused(timeline, capsys, config_dir, *files, env="example") -> str:
    code, out, err = plan(timeline, capsys, config_dir, *files, env=env)
    assert code == 2 and out == "" and "Traceback" not in err
    assert err.startswith("bench/timeline.py --measured: ") and err.count("\n") == 1
    return err


def test_a_record_of_another_instance_type_or_image_is_refused(
    timeline, capsys, config_dir, record
):
    other = record("p5en.json", **COLD, node=labelled("p5en.48xlarge"))
    err = refused(timeline, capsys, config_dir, other)
    assert "instance type 'p5en.48xlarge' (environment example: 'p6-b300.48xlarge')" in err
    assert str(other) in err and "llmops phases --env example --json" in err
    newer = copy.deepcopy(COLD)
    newer["pod"]["spec"]["containers"][0]["image"] = "vllm/vllm-openai:v0.34.0"
    err = refused(timeline, capsys, config_dir, record("image.json", **newer))
    assert "image 'vllm/vllm-openai:v0.34.0'" in err


def test_on_hyperpod_the_nodes_ml_instance_type_is_the_environments(
    timeline, capsys, config_dir, run_with_kubectl, tmp_path
):
    # given a start on a HyperPod node: its instance-type label carries SageMaker's "ml." prefix (the label the
    # project's own HyperPod pods select on: stacks/hyperpod_prerequisites_stack.py)
    cluster = Cluster([COLD["pod"]], node=labelled("ml.p6-b300.48xlarge"), events=COLD["events"])
    cluster.log = COLD["log"]
    result = run_with_kubectl(cluster, "phases", "--env", "example-hyperpod", "--json")
    assert result.code == ExitCode.OK, result.stderr
    path = tmp_path / "hyperpod.json"
    path.write_text(result.stdout)
    # then the record names the environment's instance type, and the plan takes it, not refusing it as another one
    assert json.loads(result.stdout)["record"]["identity"]["instance_type"] == "p6-b300.48xlarge"
    code, out, err = plan(timeline, capsys, config_dir, path, env="example-hyperpod")
    assert code == 0, err


def test_a_record_of_another_serving_profile_or_layout_is_refused(
    timeline, capsys, config_dir, record
):
    cold = record("cold.json", **COLD)
    # given the environment's vLLM arguments changed after the measurement
    example = config_dir / "example.yaml"
    example.write_text(
        example.read_text().replace("extra_args: []", 'extra_args: ["--max-num-seqs", "64"]')
    )
    err = refused(timeline, capsys, config_dir, cold)
    assert "serving profile (vLLM arguments and environment)" in err
    # and a record of another parallel layout (a record of tensor parallel 4)
    data = json.loads(cold.read_text())
    data["record"]["identity"]["layout"]["tensor_parallel_size"] = 4
    cold.write_text(json.dumps(data))
    example.write_text(
        example.read_text().replace('extra_args: ["--max-num-seqs", "64"]', "extra_args: []")
    )
    assert "parallel layout" in refused(timeline, capsys, config_dir, cold)


def test_a_record_of_a_start_not_finished_is_refused_naming_the_phases(
    timeline, capsys, config_dir, record
):
    starting = dict(COLD, pod=s3_pod(restored=True, outcome=NONE_YET), log=LOG[2:-1])
    starting["pod"]["status"]["conditions"] = starting["pod"]["status"]["conditions"][:1]
    err = refused(timeline, capsys, config_dir, record("starting.json", **starting))
    assert (
        "phases incomplete: engine ready (profile, KV cache, warm-up), first healthy (readiness), "
        "total: node ready → healthy not measured"
    ) in err


def test_files_that_are_no_record_are_refused(timeline, capsys, config_dir, record, tmp_path):
    old = json.loads(record("cold.json", **COLD).read_text())
    del old["record"]  # as llmops phases printed it before it recorded what it measured
    (tmp_path / "old.json").write_text(json.dumps(old))
    assert "no 'record'" in refused(timeline, capsys, config_dir, tmp_path / "old.json")
    (tmp_path / "text.json").write_text("node ready 15 s")
    assert "not readable as JSON" in refused(timeline, capsys, config_dir, tmp_path / "text.json")
    (tmp_path / "other.json").write_text('{"environment": "example"}')
    assert "neither" in refused(timeline, capsys, config_dir, tmp_path / "other.json")


def test_a_weight_load_report_from_the_node_gives_the_load_rate(
    timeline, capsys, config_dir, tmp_path
):
    weight_load = importlib.util.spec_from_file_location(
        "bench_wl", ROOT / "bench" / "weight_load.py"
    )
    module = importlib.util.module_from_spec(weight_load)
    sys.modules[weight_load.name] = module  # its dataclasses look their module up there
    weight_load.loader.exec_module(module)
    argv = ["--device", "cpu", "--size-gb", "0.004", "--shard-gb", "0.002", "--no-drop-cache"]
    argv += ["--skip-memory", "--dir", str(tmp_path / "ckpt"), "--json", str(tmp_path / "r.json")]
    # given a report without the instance type: refused, naming the option
    assert module.main(argv) == 0
    capsys.readouterr()
    assert "--instance-type p6-b300.48xlarge" in refused(
        timeline, capsys, config_dir, tmp_path / "r.json"
    )
    # with it, on a machine without the loader (no GPU, no torch here): no figure for the loader, refused
    assert module.main([*argv, "--instance-type", "p6-b300.48xlarge"]) == 0
    capsys.readouterr()
    report = json.loads((tmp_path / "r.json").read_text())
    rows = [r for r in report["results"] if r["method"] == "fastsafetensors"]
    if all(r["gb_per_s"] is None for r in rows):
        assert "no figure for fastsafetensors" in refused(
            timeline, capsys, config_dir, tmp_path / "r.json"
        )
    # and with the loader's figures, as a GPU node writes them: the slower is the load rate
    for r, rate in zip(rows, (3.1, 6.2), strict=True):
        r.update(gb_per_s=rate, seconds=1.0)
    (tmp_path / "r.json").write_text(json.dumps(report))
    code, out, err = plan(timeline, capsys, config_dir, tmp_path / "r.json")
    assert code == 0, err
    assert (
        f"instance_store_load              3.1  measured: {tmp_path / 'r.json'}: bench/weight_load.py"
        in out
    )
    # the warm-up, not measured by that report, stays the H200's proxy, labelled
    assert "instance_store_read" not in out and "warm_up_proxy_cold" in out
    assert "warm-up 523.4 s (warm_up_proxy_cold, measured proxy: H200, vLLM 0.25.0" in out


# --- hostile files (issue 29): only finite, non-negative durations, a bounded read, strict JSON out --------------------


def with_engine_seconds(path: Path, text: str) -> Path:
    """The record at ``path`` with the warm-up's seconds replaced by the JSON ``text`` as written."""
    document = json.loads(path.read_text())
    for phase in document["phases"]:
        if phase["phase"] == "engine ready (profile, KV cache, warm-up)":
            phase["seconds"] = "@SECONDS@"
    path.write_text(json.dumps(document).replace('"@SECONDS@"', text))
    return path


@pytest.mark.parametrize(
    "text", ["NaN", "Infinity", "-Infinity", "1e400", "-95", "true", "10" + "0" * 400]
)
def test_a_duration_that_is_no_duration_is_refused_naming_it(
    timeline, capsys, config_dir, record, text
):
    # given a record whose warm-up took NaN, infinite, negative, `true` or beyond-float seconds
    path = with_engine_seconds(record("cold.json", **COLD), text)
    # when the plan reads it, then it is refused in one line naming the file (and the phase where it parsed)
    err = refused(timeline, capsys, config_dir, path)
    assert str(path) in err
    assert "engine ready" in err or "is not a measurement" in err


def test_the_json_plan_is_strict_json(timeline, capsys, config_dir, record):
    # given a usable record
    argv = ["--env", "example", "--config-dir", str(config_dir), "--json"]
    # when the plan is printed as JSON
    code = timeline.main([*argv, "--measured", str(record("cold.json", **COLD))])
    out, err = capsys.readouterr()
    assert code == 0, err

    def refuse(name):
        raise AssertionError(f"{name} in the --json plan")

    # then a strict parser reads it: no NaN, no Infinity
    assert json.loads(out, parse_constant=refuse)["measured"]


def test_files_that_cannot_be_read_safely_are_refused_without_waiting(
    timeline, capsys, config_dir, tmp_path
):
    # given a FIFO nobody writes to, a file over the bound, and JSON nested a hundred thousand deep
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    big = tmp_path / "big.json"
    big.write_text('{"phases": []' + " " * (1 << 20) + "}")
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    # when the plan reads each, then each is one line, no traceback and no hang
    assert "not a regular file" in refused(timeline, capsys, config_dir, fifo)
    assert "larger than 1048576 bytes" in refused(timeline, capsys, config_dir, big)
    assert "nested too deeply" in refused(timeline, capsys, config_dir, deep)
