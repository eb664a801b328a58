"""bench/timeline.py's start-up plan and bench/weight_load.py's checkpoint (bench/synthetic_checkpoint.py), without a
GPU (issue 21, items 1, 2 and 7)."""

from __future__ import annotations

import importlib.util
import json
import struct
import sys
from pathlib import Path

import pytest

from tests.conftest import CONFIG_DIR

BENCH = Path(__file__).resolve().parents[1] / "bench"


def _script(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def timeline():
    return _script("timeline")


@pytest.fixture(scope="module")
def weight_load():
    return _script("weight_load")


@pytest.fixture(scope="module")
def synthetic_checkpoint():
    return _script("synthetic_checkpoint")


@pytest.mark.parametrize("env_name", ["example", "example-hyperpod"])
def test_the_json_plan_names_first_token_for_each_weight_source_with_its_limit_and_no_assumption(
    timeline, capsys, env_name
):
    # Given an environment, when the plan is printed as JSON
    assert timeline.main(["--env", env_name, "--json", "--config-dir", str(CONFIG_DIR)]) == 0
    out = capsys.readouterr().out
    plan = json.loads(out)
    first_token = [p for p in plan["phases"] if "first token" in p["step"]]
    # then node ready -> first token is planned from S3 (both ways), from the Hub and after a restart
    assert [
        s
        for s in ("from S3: copy", "from S3: Run:ai", "Hugging Face Hub", "restart")
        if not any(s in p["step"] for p in first_token)
    ] == []
    # with a limit beside every estimate that has a figure, never above it
    for phase in first_token:
        if phase["minutes"] is not None:
            assert phase["limit_minutes"] is not None and phase["limit_minutes"] <= phase["minutes"]
    # and every rate it used names a source; nothing is "assumed"
    assert plan["rates"] and all(r["source"] and r["kind"] for r in plan["rates"].values())
    assert "assumed" not in out
    # and the warm-up is no unmeasured phase left out of the totals: the measured proxies, each with its label
    assert set(plan["unmeasured"]) == {"instance_store_read", "hub_download"}
    assert {name: p["seconds"] for name, p in plan["warm_up_proxies"].items()} == {
        "warm_up_proxy_cold": 523.4,
        "warm_up_proxy_restored": 86.3,
    }
    assert all(p["kind"] == "measured proxy" for p in plan["warm_up_proxies"].values())
    assert not [p["step"] for p in first_token if "not measured" in p["basis"]]


def test_the_s3_plan_for_kimi_k3_on_p6_b300_follows_the_rates(timeline, default_env):
    rows = {p.step: p for p in timeline.first_token_phases(default_env)}
    streamer = next(p for s, p in rows.items() if "Run:ai" in s)
    # the image pull (6 min documented), then 1,420 GB streamed once for the 8 ranks at the published distributed
    # rate (124.96 GiB in 14.29 s at 8 ranks, marin-community/marin#7136): nothing to overlap the pull with
    # and the cold warm-up measured on the H200 (the example keeps no compile cache: Hub weights, an image by tag); the
    # stream waits for check-weights-s3 (10 rounds of S3 requests at S3's 2 s retry point for small requests)
    distributed = 124.96 * 2**30 / 1e9 / 14.29
    assert streamer.minutes == round((360 + 20 + 1420 / distributed + 523.4) / 60, 1) == 17.6
    assert "distributed" in next(s for s in rows if "Run:ai" in s)
    # the copy path pulls the image beside the copy: the longer of the two counts, not their sum; the copy aims at the
    # card's 300 Gb/s (37.5 GB/s)
    copy = next(
        p for s, p in rows.items() if "from S3: copy to the NVMe beside the image pull" in s
    )
    copy_seconds, check_seconds, load_seconds = 1420 / 37.5, 1420 / 43.2, 1420 / 1.23
    assert copy.minutes == round(
        (max(360, copy_seconds) + check_seconds + load_seconds + 523.4) / 60, 1
    )
    # and the plan names the faster of the two, on a new node and on a restart, warm-up in both
    (choice,) = [p for s, p in rows.items() if s.startswith("faster S3 path by this plan")]
    assert "new node Run:ai distributed (17.6 min against 34.5)" in choice.step
    assert choice.minutes == 17.6
    assert "warm-up included in both" in choice.basis
    # and says that this environment copies (weight_load: copy) and what the other setting checks instead
    assert "This environment copies (model.weight_load: copy" in choice.basis
    assert "still copies" not in choice.basis and "CRC64NVME" in choice.basis
    limit = next(p for s, p in rows.items() if s.startswith("limit: weights / instance bandwidth"))
    assert limit.minutes == round(1420 / 37.5 / 60, 1)


def test_a_restart_plans_the_run_ai_stream_from_the_nodes_checked_copy_too(timeline, default_env):
    # given the example (8 ranks, the weights copied and checked on the node), when the plan lists the restarts
    rows = {p.step: p for p in timeline.first_token_phases(default_env)}
    (from_disk,) = [
        p
        for s, p in rows.items()
        if s.startswith("restart on the same node") and "from the NVMe" in s
    ]
    # then the streamer reading the node's copy (vLLM takes a local directory, distributed too) is planned at the
    # measured one-reader disk rate the ranks share, beside the default loader's restart and the stream from S3
    assert from_disk.minutes == round((1420 / 1.56 + 523.4) / 60, 1) == 23.9
    assert "runai_streamer_from_disk 1.56" in from_disk.basis and "unmeasured" in from_disk.basis
    (choice,) = [p for s, p in rows.items() if s.startswith("faster S3 path by this plan")]
    assert "restart Run:ai distributed (11.6 min against 28)" in choice.step


def test_the_table_prints_every_rate_with_its_source(timeline, capsys):
    assert timeline.main(["--env", "example", "--config-dir", str(CONFIG_DIR)]) == 0
    out = capsys.readouterr().out
    assert (
        "first token" in out
        and "ena_bandwidth" in out
        and "https://aws.amazon.com/ec2/instance-types/p6/" in out
    )
    assert "assumed" not in out


def test_a_synthetic_shard_is_a_safetensors_file_of_mxfp4_blocks_and_scales(
    synthetic_checkpoint, tmp_path
):
    tensors = synthetic_checkpoint.shard_layout(80 << 20, 0)
    size = synthetic_checkpoint.write_shard(tmp_path / "s.safetensors", tensors, b"\x5a" * 4096)
    raw = (tmp_path / "s.safetensors").read_bytes()
    (length,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + length])
    data = {k: v for k, v in header.items() if k != "__metadata__"}
    # the data starts 8-byte aligned and the offsets cover it exactly
    assert (8 + length) % 8 == 0 and max(
        v["data_offsets"][1] for v in data.values()
    ) == size - 8 - length
    blocks = next(v for k, v in data.items() if k.endswith("gate_proj.weight_blocks"))
    scales = next(v for k, v in data.items() if k.endswith("gate_proj.weight_scales"))
    # two 4-bit values a byte, one E8M0 scale per 32 elements
    assert blocks["dtype"] == scales["dtype"] == "U8"
    assert blocks["shape"][1:] == [7168 // 32, 16] and scales["shape"] == [2048, 7168 // 32]


def test_a_tiny_run_without_a_gpu_writes_json_and_reads_every_byte(weight_load, tmp_path, capsys):
    out = tmp_path / "r.json"
    assert (
        weight_load.main(
            [
                "--device",
                "cpu",
                "--size-gb",
                "0.004",
                "--shard-gb",
                "0.002",
                "--no-drop-cache",
                "--skip-memory",
                "--dir",
                str(tmp_path / "ckpt"),
                "--json",
                str(out),
            ]
        )
        == 0
    )
    report = json.loads(out.read_text())
    raw = [r for r in report["results"] if r["method"] == "raw read"]
    assert len(raw) == 2 and all(
        r["gb_per_s"] > 0 and r["gigabytes"] == round(report["checkpoint"]["bytes"] / 1e9, 2)
        for r in raw
    )
    assert not (tmp_path / "ckpt").exists()


def test_the_pod_budget_follows_its_weight_source_and_never_undercuts_the_recipe(
    default_env, hyperpod_env
):
    import dataclasses

    from deployment_config.model import WeightSource
    from deployment_config.sizing import startup_budget

    # given the EKS example from the Hub, the same from S3, and HyperPod (the operator's S3 mount)
    model = dataclasses.replace(
        default_env.model, weight_source=WeightSource.S3, s3_uri="s3://weights-bucket/kimi/"
    )
    from_s3 = dataclasses.replace(default_env, model=model)
    instance = default_env.gpu_instance_type.name
    hub_budget = startup_budget(default_env.model.loaded_gb).engine_ready_timeout_seconds
    s3_budget = startup_budget(
        model.loaded_gb, from_hub=False, instance_type=instance
    ).engine_ready_timeout_seconds
    floor = default_env.model.profile.engine_ready_floor_seconds
    # then the Hub keeps the longest budget, S3 gets its own (a hung start ends sooner), never below the recipe's
    assert floor == 3600  # the recipe's VLLM_ENGINE_READY_TIMEOUT_S
    assert default_env.pod_startup_budget.engine_ready_timeout_seconds == hub_budget
    assert (
        from_s3.pod_startup_budget.engine_ready_timeout_seconds
        == max(s3_budget, floor)
        < hub_budget
    )
    assert (
        hyperpod_env.pod_startup_budget.engine_ready_timeout_seconds
        >= startup_budget(hyperpod_env.model.loaded_gb).engine_ready_timeout_seconds
    )


@pytest.mark.parametrize("name", ["prod", "../etc"])
def test_an_environment_that_is_not_there_is_one_message_naming_the_option_not_a_traceback(
    timeline, capsys, name
):
    # given --env naming no file of the configuration directory, when the plan is asked for
    code = timeline.main(["--env", name, "--config-dir", str(CONFIG_DIR)])
    # then it exits 2 with the file's problem and its fix, in the words of this script's option
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("error: --env ") and name in err
    assert "fix: pass --env NAME" in err and "-c env" not in err and "Traceback" not in err
