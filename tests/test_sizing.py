"""The sizing check and the startup budget, on the instance table."""

from __future__ import annotations

import pytest

from deployment_config import ConfigError
from deployment_config.catalog import GPU_INSTANCE_TYPES, MODEL_PRESETS
from deployment_config.sizing import check_model_fits, fit_of, startup_budget_seconds

KIMI = MODEL_PRESETS["kimi-k3"]


def test_instance_table_covers_the_current_gpu_generations():
    assert {"p5.48xlarge", "p5e.48xlarge", "p5en.48xlarge", "p6-b200.48xlarge", "p6-b300.48xlarge"} <= set(GPU_INSTANCE_TYPES)
    assert GPU_INSTANCE_TYPES["p6-b300.48xlarge"].total_gpu_memory_gb == 8 * 288


def test_kimi_k3_fits_one_p6_b300_with_room_for_the_kv_cache():
    fit = check_model_fits(model_id=KIMI.hugging_face_id, weights_gb=KIMI.weight_size_gb,
                           instance_type=GPU_INSTANCE_TYPES["p6-b300.48xlarge"], tensor_parallel_size=8)
    assert fit.kv_cache_gb >= fit.kv_reserve_gb > 200


@pytest.mark.parametrize("name", ["p5.48xlarge", "p5e.48xlarge", "p5en.48xlarge", "p6-b200.48xlarge"])
def test_kimi_k3_does_not_fit_smaller_gpus_and_the_message_says_what_would(name):
    with pytest.raises(ConfigError) as raised:
        check_model_fits(model_id=KIMI.hugging_face_id, weights_gb=KIMI.weight_size_gb,
                         instance_type=GPU_INSTANCE_TYPES[name], tensor_parallel_size=8)
    assert "1420 GB" in raised.value.problem
    assert "p6-b300.48xlarge" in raised.value.fix


def test_a_small_model_fits_everywhere():
    assert all(fit_of(140, t).fits for t in GPU_INSTANCE_TYPES.values())


def test_tensor_parallel_must_match_the_gpus_of_one_node():
    with pytest.raises(ConfigError) as raised:
        check_model_fits(model_id="m", weights_gb=100, instance_type=GPU_INSTANCE_TYPES["p5.48xlarge"],
                         tensor_parallel_size=4)
    assert raised.value.field == "model.tensor_parallel_size"


def test_startup_budget_grows_with_the_weights_and_covers_kimi_k3():
    kimi = startup_budget_seconds(KIMI.weight_size_gb)
    assert 90 * 60 <= kimi <= 150 * 60
    assert startup_budget_seconds(100) < startup_budget_seconds(500) < kimi
    assert kimi % 60 == 0
