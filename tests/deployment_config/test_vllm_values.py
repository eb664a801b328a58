"""The values of vLLM options that vLLM 0.33.0 restricts (deployment_config/vllm_args/values.py), judged in
model.extra_args: a whole number, or a name vLLM declares or registers; a refused value names the option, the value,
what vLLM accepts and where vLLM declares it."""

from __future__ import annotations

import pytest

from deployment_config.sizing import GPU_MEMORY_UTILIZATION
from deployment_config.vllm_args import JUDGED_OPTIONS, VLLM_SOURCE, extra_args_problems
from deployment_config.vllm_args.values import VALUE_RULES

#: The options the recipe gives whose value vLLM restricts (tests/deployment_config/test_recipe.py).
RECIPE_VALUE_OPTIONS = {
    "--max-num-seqs",
    "--max-model-len",
    "--moe-backend",
    "--max-num-batched-tokens",
    "--tool-call-parser",
    "--reasoning-parser",
    "--dcp-comm-backend",
    "--attention-backend",
    "--load-format",
    "--kv-cache-dtype",
}


def problems(*args: str) -> list[tuple[int, str, str]]:
    return [
        (index, p.problem, p.fix)
        for index, p in extra_args_problems(
            list(args), gpu_memory_utilization_min=GPU_MEMORY_UTILIZATION
        )
    ]


def test_every_value_checked_option_is_in_the_table_with_one_value_and_its_source():
    # given the option table and the value rules
    checked = {option.name: option for option, rule in JUDGED_OPTIONS if rule == "value"}
    # then they name the same options, those the recipe gives, each with one value and where vLLM adds it
    assert set(checked) == set(VALUE_RULES) == RECIPE_VALUE_OPTIONS | {"--optimization-level"}
    for name, option in checked.items():
        assert option.arity == "one" and option.source.startswith("vllm/"), name
        assert VALUE_RULES[name].source.startswith("vllm/"), name


@pytest.mark.parametrize(
    "args",
    [
        ("--max-model-len", "1048576"),
        ("--max-model-len", "1M"),  # human_readable_int: K/M/G are powers of 1024
        ("--max-model-len", "25.6k"),  # k/m/g are powers of 1000 and take decimals
        ("--max-model-len", "auto"),
        ("--max-model-len", "AUTO"),
        ("--max-model-len", "-1"),
        ("--max-num-seqs", "5"),
        ("--max-num-seqs", " 64 "),  # argparse type=int: int() strips whitespace
        ("--max-num-batched-tokens", "16K"),
        ("--max-num-batched-tokens", "4096"),
        ("--kv-cache-dtype", "fp8"),
        ("--kv-cache-dtype", "auto"),
        ("--load-format", "fastsafetensors"),
        ("--load-format", "FASTSAFETENSORS"),  # LoadConfig lowercases it
        ("--moe-backend", "marlin"),
        ("--moe-backend", "Deep-GEMM-Mega-MoE"),  # add_cli_args: lower, and - for _
        ("--attention-backend", "FLASHMLA"),
        ("--attention-backend", "tokenspeed_mla"),  # AttentionBackendEnum[value.upper()]
        ("--attention-backend", "auto"),
        ("--dcp-comm-backend", "a2a"),
        ("--tool-call-parser", "kimi_k3"),
        ("--reasoning-parser", "kimi_k3"),
        ("--reasoning-parser", "None"),  # parse_reasoning_parser: none, any case, unsets it
        ("--kv_cache_dtype=fp8_e4m3",),
    ],
    ids=" ".join,
)
def test_values_vllm_accepts_are_accepted(args):
    assert problems(*args) == []


@pytest.mark.parametrize(
    ("option", "value", "source", "expected"),
    [
        ("--max-model-len", "lots", "human_readable_int_or_auto", "or auto / -1"),
        ("--max-model-len", "0", "ModelConfig.max_model_len", "1 or more"),
        (
            "--max-model-len",
            "1.5M",
            "human_readable_int",
            "K/M/G (x1024",
        ),  # no decimals with a binary suffix
        ("--max-num-seqs", "1k", "SchedulerConfig.max_num_seqs", "whole number of 1 or more"),
        ("--max-num-seqs", "0", "Field ge=1", "whole number of 1 or more"),
        ("--max-num-batched-tokens", "0.0001k", "human_readable_int", "1 or more"),
        ("--kv-cache-dtype", "fp4", "vllm/config/cache.py CacheDType", "fp8_e4m3"),
        ("--load-format", "gguf", "_LOAD_FORMAT_TO_MODEL_LOADER", "runai_streamer"),
        ("--moe-backend", "deepgemm2", "vllm/config/kernel.py MoEBackend", "deep_gemm_mega_moe"),
        ("--attention-backend", "FLASH_MLA_X", "AttentionBackendEnum", "TOKENSPEED_MLA"),
        ("--attention-backend", "CUSTOM", "AttentionBackendEnum", "FLASHMLA"),
        ("--dcp-comm-backend", "A2A", "vllm/config/parallel.py DCPCommBackend", "ag_rs, a2a"),
        ("--tool-call-parser", "kimi-k3", "_TOOL_PARSERS_TO_REGISTER", "kimi_k3"),
        ("--reasoning-parser", "k3", "_REASONING_PARSERS_TO_REGISTER", "kimi_k3"),
    ],
    ids=lambda part: part if part.startswith("--") else "",
)
def test_a_value_vllm_refuses_is_one_message_naming_option_value_allowed_values_and_source(
    option, value, source, expected
):
    # given an option whose value vLLM 0.33.0 refuses, between accepted items
    found = problems("--enforce-eager", option, value, "--enable-prefix-caching")
    # then one problem, at the value, names the option, the value, what vLLM accepts and where it says so
    [(index, problem, fix)] = found
    assert index == 2
    assert option in problem and repr(value) in problem
    assert VLLM_SOURCE in problem and source in problem and expected in problem
    assert fix


def test_a_name_close_to_an_accepted_one_is_suggested():
    [(_, _, fix)] = problems("--kv-cache-dtype", "FP8")  # the cache data type is case-sensitive
    assert fix == "use fp8, the closest name vLLM accepts"
    [(_, _, fix)] = problems("--tool-call-parser", "kimi-k3")
    assert fix == "use kimi_k3, the closest name vLLM accepts"


def test_a_value_in_the_equals_form_is_judged_at_its_item():
    [(index, problem, _)] = problems("--enforce-eager", "--max_num_seqs=many")
    assert index == 1 and "'many'" in problem and "--max-num-seqs" in problem


def test_an_abbreviation_of_a_value_checked_option_asks_for_the_full_name():
    # --kv-cache-dt: vLLM also has --kv-cache-dtype-skip-layers, so vLLM itself stops on it as ambiguous
    [(index, _, fix)] = problems("--kv-cache-dt", "fp8")
    assert index == 0 and fix == "write --kv-cache-dtype in full"


def test_a_value_checked_option_without_a_value_or_with_json_keys_is_refused():
    [(_, problem, _)] = problems("--max-num-seqs")
    assert "needs a value" in problem
    [(_, problem, _)] = problems("--kv-cache-dtype.a", "fp8")
    assert "takes one value, not JSON keys" in problem


def test_a_value_checked_option_given_twice_is_refused_at_the_second():
    [(index, problem, _)] = problems("--kv-cache-dtype", "fp8", "--kv-cache-dtype=auto")
    assert index == 2 and "again" in problem


@pytest.mark.parametrize(
    ("item", "option"),
    [("--max-num-seqs5", "--max-num-seqs"), ("--api-server-count2", "--api-server-count")],
)
def test_a_value_glued_to_a_long_option_is_refused_as_vllm_refuses_it(item, option):
    # argparse glues a value only to a one-letter option: vLLM stops on --max-num-seqs5 as an unknown option
    [(index, problem, fix)] = problems("--enforce-eager", item)
    assert index == 1 and "glued" in problem
    assert fix == f"write {option} and its value as two items"


@pytest.mark.parametrize(
    "args", [("--tool-call-parser", "None"), ("--tool-call-parser=",)], ids=" ".join
)
def test_an_unset_tool_call_parser_is_refused_as_auto_tool_choice_needs_one(args):
    # given model.extra_args that unset the tool-call parser (optional_type's "" and "None"), while both serving
    # profiles give vLLM --enable-auto-tool-choice, with which vLLM 0.33.0 stops at start-up
    # (validate_parsed_serve_args: "--enable-auto-tool-choice requires --tool-call-parser")
    [(index, problem, fix)] = problems(*args)
    # then one problem names the option, that auto tool choice requires a parser, and the names vLLM accepts
    assert index == len(args) - 1 and "--tool-call-parser" in problem
    assert "--enable-auto-tool-choice" in problem and "kimi_k3" in problem
    assert fix == "use one of those names, or remove it"
