"""The sizing check and the startup budget, on the instance table."""

from __future__ import annotations

import pytest

from deployment_config import ConfigError
from deployment_config.catalog import GPU_INSTANCE_TYPES, MODEL_PRESETS
from deployment_config.sizing import (
    HUB_BUDGET_FLOOR,
    STARTUP_SAFETY_FACTOR,
    VLLM_DEFAULT_ENGINE_READY_TIMEOUT_S,
    WARMUP_ALLOWANCE_SECONDS,
    check_model_fits,
    fit_of,
    s3_download_rate,
    startup_budget,
    startup_budget_seconds,
    startup_estimate_seconds,
)
from deployment_config.startup_rates import (
    CRT_TARGET,
    ENA_BANDWIDTH,
    LOADER_FROM_DISK,
    LOADER_FROM_MEMORY,
    S3_PER_CONNECTION,
    SLOWEST_LOAD,
    Rate,
)

KIMI = MODEL_PRESETS["kimi-k3"]


def test_instance_table_covers_the_current_gpu_generations():
    assert {
        "p5.48xlarge",
        "p5e.48xlarge",
        "p5en.48xlarge",
        "p6-b200.48xlarge",
        "p6-b300.48xlarge",
    } <= set(GPU_INSTANCE_TYPES)
    assert GPU_INSTANCE_TYPES["p6-b300.48xlarge"].total_gpu_memory_gb == 8 * 288


def test_kimi_k3_fits_one_p6_b300_with_room_for_the_kv_cache():
    fit = check_model_fits(
        model_id=KIMI.hugging_face_id,
        weights_gb=KIMI.weight_size_gb,
        instance_type=GPU_INSTANCE_TYPES["p6-b300.48xlarge"],
        tensor_parallel_size=8,
    )
    assert fit.kv_cache_gb >= fit.kv_reserve_gb > 200


@pytest.mark.parametrize(
    "name", ["p5.48xlarge", "p5e.48xlarge", "p5en.48xlarge", "p6-b200.48xlarge"]
)
def test_kimi_k3_does_not_fit_smaller_gpus_and_the_message_says_what_would(name):
    with pytest.raises(ConfigError) as raised:
        check_model_fits(
            model_id=KIMI.hugging_face_id,
            weights_gb=KIMI.weight_size_gb,
            instance_type=GPU_INSTANCE_TYPES[name],
            tensor_parallel_size=8,
        )
    assert "1420 GB" in raised.value.problem
    assert "p6-b300.48xlarge" in raised.value.fix


def test_a_small_model_fits_everywhere():
    assert all(fit_of(140, t).fits for t in GPU_INSTANCE_TYPES.values())


def test_tensor_parallel_must_match_the_gpus_of_one_node():
    with pytest.raises(ConfigError) as raised:
        check_model_fits(
            model_id="m",
            weights_gb=100,
            instance_type=GPU_INSTANCE_TYPES["p5.48xlarge"],
            tensor_parallel_size=4,
        )
    assert raised.value.field == "model.tensor_parallel_size"


def test_startup_budget_grows_with_the_weights_and_covers_kimi_k3():
    kimi = startup_budget_seconds(KIMI.weight_size_gb)
    assert 90 * 60 <= kimi <= 150 * 60
    assert startup_budget_seconds(100) < startup_budget_seconds(500) < kimi
    assert kimi % 60 == 0


def test_the_budget_derives_from_the_estimate_with_the_safety_factor_and_the_hub_path_is_the_default():
    # Given Kimi-K3's 1,420 GB on a p6-b300, when the budget is derived for each weight source
    hub = startup_budget(KIMI.weight_size_gb)
    s3 = startup_budget(KIMI.weight_size_gb, from_hub=False, instance_type="p6-b300.48xlarge")
    # then each is its estimate x the safety factor in whole minutes, and a caller that names no source gets the Hub's
    for budget, from_hub in ((hub, True), (s3, False)):
        estimate = startup_estimate_seconds(
            KIMI.weight_size_gb, from_hub=from_hub, instance_type="p6-b300.48xlarge"
        )
        assert (
            estimate * STARTUP_SAFETY_FACTOR
            <= budget.engine_ready_timeout_seconds
            < estimate * STARTUP_SAFETY_FACTOR + 60
        )
    assert hub == startup_budget(KIMI.weight_size_gb, from_hub=True)
    assert (hub.engine_ready_timeout_seconds, s3.engine_ready_timeout_seconds) == (
        113 * 60,
        42 * 60,
    )


def test_no_budget_falls_below_the_slowest_measured_load_or_the_warm_up_allowance():
    for from_hub in (True, False):
        budget = startup_budget(
            KIMI.weight_size_gb, from_hub=from_hub, instance_type="p6-b300.48xlarge"
        )
        assert (
            budget.engine_ready_timeout_seconds
            >= (SLOWEST_LOAD.seconds_for(KIMI.weight_size_gb) + WARMUP_ALLOWANCE_SECONDS)
            * STARTUP_SAFETY_FACTOR
        )
    assert startup_budget(1).engine_ready_timeout_seconds >= VLLM_DEFAULT_ENGINE_READY_TIMEOUT_S


def test_the_s3_download_is_planned_at_the_lowest_of_its_sourced_limits():
    # The CRT goal is p6-b300's ENA bandwidth (300 Gb/s): the card, not a goal below it, bounds the plan
    assert s3_download_rate("p6-b300.48xlarge").gb_per_second == 37.5 == CRT_TARGET.gb_per_second
    assert ENA_BANDWIDTH["p6-b300.48xlarge"].gb_per_second == 37.5
    # an instance type with no documented ENA figure is planned from the client's goal and S3's per-connection rate
    assert s3_download_rate("p5.48xlarge").gb_per_second <= CRT_TARGET.gb_per_second


def test_every_rate_names_its_source_and_the_measured_ones_their_script():
    rates = [
        *ENA_BANDWIDTH.values(),
        *LOADER_FROM_MEMORY.values(),
        *LOADER_FROM_DISK.values(),
        S3_PER_CONNECTION,
        CRT_TARGET,
        HUB_BUDGET_FLOOR,
    ]
    assert all(r.source for r in rates)
    assert all("bench/weight_load.py" in r.source for r in rates if r.measured)
    assert all(r.source.count("https://") for r in rates if r.kind == "documented")
    assert HUB_BUDGET_FLOOR.kind == "allowance, no source"
    with pytest.raises(ValueError):
        Rate(0, "x", measured=True)
