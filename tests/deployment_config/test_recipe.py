"""The vLLM project's recipe for Kimi-K3 as data: vendored unchanged, composed for the GPU generation and the layout,
its opt-in features validated, its arguments judged by the vendored vLLM rules, and the announced profile unchanged."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path

import pytest

from charts.inference_endpoint_chart import (
    inference_endpoint_spec_for,
    synthesize_inference_endpoint,
)
from charts.serving_spec import serving_spec_for
from charts.vllm_serving_chart import synthesize_manifests
from deployment_config import ConfigError, parse_environment
from deployment_config.catalog import GPU_INSTANCE_TYPES, MODEL_PRESETS
from deployment_config.recipe import (
    GENERATIONS,
    LOCK_FILE,
    RECIPE_DIR,
    RECIPE_FILES,
    STRATEGIES,
    load_recipe,
    lock_data,
    recipe_for,
    recipe_profile,
)
from deployment_config.recipe.vendored import MULTI_NODE_TP_PP, SINGLE_NODE_TP
from deployment_config.sizing import (
    GPU_MEMORY_UTILIZATION,
    KV_CACHE_BYTES,
    check_model_fits,
    startup_budget,
)
from deployment_config.vllm_args import VLLM_SOURCE, extra_args_problems
from deployment_config.vllm_args.values import VALUE_RULES
from deployment_config.yaml_reader import read_yaml
from tests.conftest import CONFIG_DIR

PROJECT = Path(__file__).resolve().parents[2]
RECIPE_FILE = RECIPE_FILES["kimi-k3"]
RECIPE = recipe_for("kimi-k3")


def recipe_args_problems(args, *, recipe_source: str = "the recipe") -> list[str]:
    """What the vendored vLLM 0.33.0 rules for model.extra_args say about arguments the recipe gives: each disagreement
    names ``recipe_source``, the item and vLLM's source."""
    return [
        f"{recipe_source} gives {args[i]!r}; read by the rules of {VLLM_SOURCE}: {p.problem}"
        for i, p in extra_args_problems(args, gpu_memory_utilization_min=GPU_MEMORY_UTILIZATION)
    ]


def _yaml(path: Path) -> dict:
    return read_yaml(path, source=str(path))


def _env(document: dict, name: str = "example"):
    return parse_environment(document, name=name)


def _with(document: dict, **model) -> dict:
    changed = copy.deepcopy(document)
    changed["model"].update(model)
    return changed


# --- the vendored file ------------------------------------------------------------------------------------------------


def test_the_vendored_recipe_is_the_one_its_source_names():
    # given the vendored file and its SOURCE.md, then the digest written there is the file's
    source = (RECIPE_DIR / "SOURCE.md").read_text(encoding="utf-8")
    assert hashlib.sha256(RECIPE_FILE.read_bytes()).hexdigest() in source
    assert "8959cf64189c71d36e11c6a30335f923f261b1f7" in source and "Apache License 2.0" in source


def test_what_depends_on_the_recipe_was_regenerated_with_make_recipes():
    # given the lock file `make recipes` writes, when the recipe is composed again, then nothing differs
    assert json.loads(LOCK_FILE.read_text(encoding="utf-8")) == {"kimi-k3": lock_data()}, (
        "the vendored recipe or its reading changed: run `make recipes` (python -m deployment_config.recipe)"
    )


def test_every_argument_the_recipe_gives_passes_the_vendored_vllm_rules():
    # given every profile of both generations and layouts with every feature the recipe allows there
    for generation in GENERATIONS:
        for strategy in STRATEGIES:
            allowed = [
                f
                for f in RECIPE.opt_in_features
                if not RECIPE.features[f].strategies or strategy in RECIPE.features[f].strategies
            ]
            profile = recipe_profile(
                RECIPE,
                generation=generation,
                strategy=strategy,
                features=allowed,
                load_format="fastsafetensors",
            )
            problems = recipe_args_problems(profile.args, recipe_source=RECIPE.source)
            # then vLLM 0.33.0's parser, as generated from the wheel, has each option, reads each as the recipe
            # means it, and takes each value
            assert problems == [], (
                f"{RECIPE.source} and {VLLM_SOURCE} disagree ({generation}, {strategy}): {problems}"
            )


def _argument_lists(node, path=()):
    """Every argument list of the raw recipe file, with where it stands (also the sections no profile uses)."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _argument_lists(value, (*path, str(key)))
    elif (
        isinstance(node, list)
        and path
        and path[-1] in ("args", "base_args", "extra_args", "vllm_args")
    ):
        yield ".".join(path), [str(item) for item in node]


def test_every_value_the_recipe_file_gives_anywhere_is_one_vllm_accepts():
    # given every argument list of the recipe file: every GPU (AMD, GB200 too), strategy and feature
    lists = dict(_argument_lists(_yaml(RECIPE_FILE)))
    given = {option for args in lists.values() for option in args if option in VALUE_RULES}
    # the recipe gives each of the options whose value vLLM restricts at start-up (but -O, which it leaves unset)
    assert given == set(VALUE_RULES) - {"--optimization-level"}
    refused = [
        (where, option, args[i + 1])
        for where, args in lists.items()
        for i, option in enumerate(args[:-1])
        if option in VALUE_RULES and not VALUE_RULES[option].accepts(args[i + 1])
    ]
    # then vLLM 0.33.0 takes each value of an option whose value it restricts
    assert refused == [], f"{RECIPE.source} and {VLLM_SOURCE} disagree: {refused}"


def test_a_recipe_value_vllm_refuses_fails_naming_both_sources(tmp_path):
    # given the vendored recipe with its Blackwell KV-cache data type changed to one vLLM 0.33.0 does not declare
    text = RECIPE_FILE.read_text(encoding="utf-8")
    wrong = text.replace(
        '- "--kv-cache-dtype"\n      - "fp8"', '- "--kv-cache-dtype"\n      - "fp4"'
    )
    assert wrong != text
    changed = tmp_path / "Kimi-K3.yaml"
    changed.write_text(wrong, encoding="utf-8")
    recipe = load_recipe(changed)
    profile = recipe_profile(
        recipe, generation="blackwell", strategy="single_node_tp", features=(), load_format=None
    )
    # when its arguments are judged by the vendored vLLM rules
    problems = recipe_args_problems(profile.args, recipe_source=recipe.source)
    # then one disagreement names the recipe, the value, vLLM's release and the place vLLM declares the values
    [problem] = problems
    assert recipe.source in problem and VLLM_SOURCE in problem and "'fp4'" in problem
    assert "vllm/config/cache.py CacheDType" in problem and "fp8_e4m3" in problem


@pytest.mark.parametrize(
    ("attention_config", "named"),
    [
        (
            '{"use_prefill_query_quantization":true,"mla_prefill_backend":"flashinfer2"}',
            "validate_mla_prefill_backend_before",
        ),
        (
            '{"use_prefill_query_quantisation":true,"mla_prefill_backend":"flashinfer"}',
            "not a field",
        ),
        ('{"backend":"FLASH_MLA"}', "validate_backend_before"),
    ],
    ids=["prefill-backend", "key", "backend"],
)
def test_an_attention_config_vllm_refuses_fails_naming_both_sources(attention_config, named):
    # given the recipe's --attention-config with a name or a key vLLM 0.33.0's AttentionConfig does not have
    problems = recipe_args_problems(
        ["--attention-config", attention_config], recipe_source=RECIPE.source
    )
    # then one disagreement names the recipe, vLLM and what vLLM checks
    [problem] = problems
    assert RECIPE.source in problem and VLLM_SOURCE in problem
    assert "vllm/config/attention.py AttentionConfig" in problem
    assert named in problem


def test_every_variable_the_recipe_sets_passes_the_environment_rules():
    from deployment_config.vllm_args import extra_env_problems

    for generation in GENERATIONS:
        for strategy in STRATEGIES:
            profile = recipe_profile(
                RECIPE, generation=generation, strategy=strategy, features=(), load_format=None
            )
            assert extra_env_problems(profile.environment) == [], (generation, strategy)


def test_a_recipe_argument_vllm_reads_otherwise_fails_naming_both_sources():
    # given a recipe that gives a flag a value and a config option no JSON object
    problems = recipe_args_problems(
        ["--enable-prefix-caching", "yes", "--speculative-config", "dspark"]
    )
    # then both are disagreements, each naming vLLM's source
    assert len(problems) >= 2 and all(VLLM_SOURCE in p for p in problems)
    assert any("'yes'" in p for p in problems) and any("'dspark'" in p for p in problems)


# --- the recipe profile -----------------------------------------------------------------------------------------------


def test_the_default_example_serves_every_setting_of_the_blackwell_single_node_profile(default_env):
    # given the recipe's own Blackwell single-node settings, read from the raw file
    raw = _yaml(RECIPE_FILE)
    expected_args = [
        *raw["model"]["base_args"],
        *raw["hardware_overrides"]["blackwell"]["extra_args"],
    ]
    expected_env = dict(raw["hardware_overrides"]["blackwell"]["extra_env"])
    # when the default example (p6-b300, one node) is turned into the pod's arguments and environment
    spec = serving_spec_for(default_env)
    assert (
        default_env.gpu_instance_type.gpu_generation == "blackwell"
        and not default_env.layout.multi_node
    )
    # then every option is there with the recipe's value
    i = 0
    while i < len(expected_args):
        option = expected_args[i]
        takes_value = i + 1 < len(expected_args) and not expected_args[i + 1].startswith("--")
        assert option in spec.args, option
        if takes_value:
            assert spec.args[spec.args.index(option) + 1] == expected_args[i + 1], option
        i += 2 if takes_value else 1
    # and every variable, the engine's timeout no shorter than the recipe's (the app derives it from the weights): 15
    # of 15, the Rust frontend included with the key required, since the key is checked in front (charts/key_proxy.py)
    timeout, rust_frontend = "VLLM_ENGINE_READY_TIMEOUT_S", "VLLM_USE_RUST_FRONTEND"
    assert expected_env[rust_frontend] == "1" and default_env.endpoint.api_key_required
    for name, value in expected_env.items():
        if name == timeout:
            assert int(spec.environment[name]) >= int(value)
        elif name == rust_frontend:
            assert spec.environment[name] == "1" and "--middleware" not in spec.args
        else:
            assert spec.environment[name] == value, name
    # and the tool and reasoning parsers and the announced load format
    assert spec.args[spec.args.index("--tool-call-parser") + 1] == "kimi_k3"
    assert spec.args[spec.args.index("--load-format") + 1] == MODEL_PRESETS["kimi-k3"].load_format


def test_the_recipe_and_the_announcement_agree_on_the_blackwell_load_format():
    # the load format comes from one place (the preset); the recipe's Blackwell profile must not say otherwise
    blackwell = RECIPE.hardware_args["blackwell"]
    assert blackwell[blackwell.index("--load-format") + 1] == MODEL_PRESETS["kimi-k3"].load_format


def test_the_sizing_counts_the_profile_memory_share_context_and_fp8_cache(default_env):
    # given the recipe profile on a p6-b300: 95 % of GPU memory, a 1M context, an fp8 KV cache
    memory = default_env.model.memory
    assert (memory.single_node_utilization, memory.max_model_len, memory.kv_cache_dtype) == (
        0.95,
        1048576,
        "fp8",
    )
    assert KV_CACHE_BYTES["fp8"] * 2 == KV_CACHE_BYTES["auto"]
    fit = check_model_fits(
        model_id="m",
        weights_gb=1420,
        instance_type=GPU_INSTANCE_TYPES["p6-b300.48xlarge"],
        tensor_parallel_size=8,
        memory=memory,
    )
    # then the sizing message says so
    message = memory.describe(fit, 1)
    assert (
        "95%" in message
        and "fp8" in message
        and "1048576" in message
        and "twice the tokens" in message
    )
    assert fit.usable_gb == pytest.approx(fit.total_gb * 0.95)


def test_check_config_prints_the_sizing_of_the_profile(capsys):
    from deployment_config.__main__ import main as check_config

    assert check_config(["example"], config_dir=CONFIG_DIR) == 0
    out = capsys.readouterr().out
    assert (
        "sizing: 1 x p6-b300.48xlarge per replica, recipe profile (blackwell, single_node_tp): vLLM takes 95%"
        in out
    )
    assert (
        "KV cache in fp8 (1 byte per value, half of bf16's: twice the tokens fit), context up to 1048576"
        in out
    )


def test_extra_args_that_change_the_memory_share_are_what_the_sizing_counts(example_document):
    env = _env(
        _with(
            example_document,
            extra_args=["--gpu-memory-utilization", "0.91", "--kv-cache-dtype", "auto"],
        )
    )
    assert (
        env.model.memory.single_node_utilization == 0.91
        and env.model.memory.kv_cache_dtype == "auto"
    )


@pytest.mark.parametrize(
    ("extra_args", "share", "dtype", "length"),
    [
        # an alias, the underscore spelling and an abbreviation: vLLM 0.33.0 reads each as --gpu-memory-utilization
        (["--device-memory-utilization", "0.91"], 0.91, "fp8", 1048576),
        (["--gpu_memory_utilization=0.92"], 0.92, "fp8", 1048576),
        (["--gpu-memory-util", "0.93"], 0.93, "fp8", 1048576),
        (["--kv_cache_dtype", "auto"], 0.95, "auto", 1048576),
        # human_readable_int_or_auto: K is 1024; auto leaves the length to vLLM at start-up
        (["--max-model-len", "256K"], 0.95, "fp8", 262144),
        (["--max_model_len=auto"], 0.95, "fp8", None),
    ],
    ids=lambda part: " ".join(part) if isinstance(part, list) else "",
)
def test_the_sizing_counts_what_vllm_reads_in_any_spelling_it_accepts(
    example_document, extra_args, share, dtype, length
):
    # given model.extra_args that set vLLM's memory share, KV-cache data type or context in a spelling vLLM accepts
    env = _env(_with(example_document, extra_args=extra_args))
    # then the sizing counts the value vLLM gets, never the profile's larger share in its place
    memory = env.model.memory
    assert (memory.single_node_utilization, memory.kv_cache_dtype, memory.max_model_len) == (
        share,
        dtype,
        length,
    )


def test_the_derived_startup_budget_is_never_shorter_than_the_recipes():
    for weights in (1420, MODEL_PRESETS["kimi-k3"].weight_size_gb):
        assert (
            startup_budget(weights).engine_ready_timeout_seconds >= 3600
        )  # hardware_overrides.blackwell.extra_env


def test_two_replicas_with_spec_decoding_serve_dspark_with_the_recipes_speculator(example_document):
    # given two p6-b300 nodes and features: [spec_decoding]
    document = _with(example_document, features=["spec_decoding"], speculator_size_gb=8)
    document["capacity"]["instance_count"] = 2
    env = _env(document)
    # when the serving chart is synthesized
    deployment = next(
        m for m in synthesize_manifests(serving_spec_for(env)) if m["kind"] == "Deployment"
    )
    args = deployment["spec"]["template"]["spec"]["containers"][0]["args"]
    # then two replicas run vLLM with DSpark, the recipe's speculator and 8 speculative tokens
    assert deployment["spec"]["replicas"] == 2
    config = json.loads(args[args.index("--speculative-config") + 1])
    assert config["method"] == "dspark" and config["model"] == "RedHatAI/Kimi-K3-speculator.dspark"
    assert config["num_speculative_tokens"] == 8


def test_a_two_node_pipeline_gets_the_recipes_tp_pp_settings():
    env = _env(_yaml(PROJECT / "tests" / "configs" / "multi-node.yaml"), "multi-node")
    args, environment = env.model.serving_args, env.model.environment
    assert args[args.index("--gpu-memory-utilization") + 1] == "0.90"
    assert args[args.index("--max-num-batched-tokens") + 1] == "8192"
    assert environment["NCCL_CUMEM_ENABLE"] == "1"


def test_a_model_too_large_for_one_node_is_refused_naming_the_share_it_was_judged_at():
    # given Kimi-K3 on one p6-b200 node, which it fits only as a two-node pipeline (the recipe's share there: 0.90)
    document = _yaml(PROJECT / "tests" / "configs" / "multi-node.yaml")
    document["capacity"]["instance_count"] = 1
    with pytest.raises(ConfigError) as raised:
        _env(document, "multi-node")
    (issue,) = [i for i in raised.value.issues if i.field == "capacity.instance_type"]
    # then the message gives the share of one node and the profile that share is from, not the pipeline's
    single, pipeline = (
        recipe_profile(
            RECIPE, generation="blackwell", strategy=s, features=(), load_format=None
        ).gpu_memory_utilization
        for s in (SINGLE_NODE_TP, MULTI_NODE_TP_PP)
    )
    assert single != pipeline
    assert (
        f"at {single:.0%} utilization on one node (recipe profile (blackwell, single_node_tp))"
        in issue.problem
    )
    assert "multi_node_tp_pp" not in issue.problem
    assert "set capacity.instance_count to 2" in issue.fix


def test_spec_decoding_on_a_two_node_pipeline_is_refused_with_the_recipes_reason():
    document = _with(
        _yaml(PROJECT / "tests" / "configs" / "multi-node.yaml"),
        features=["spec_decoding"],
        speculator_size_gb=8,
    )
    with pytest.raises(ConfigError) as raised:
        _env(document, "multi-node")
    issue = raised.value.issues[0]
    assert issue.field == "model.features[0]"
    assert (
        "DSpark does not compose with pipeline parallelism yet (vllm-project/vllm#50098)"
        in issue.problem
    )


def test_an_unknown_feature_lists_the_known_ones(example_document):
    with pytest.raises(ConfigError) as raised:
        _env(_with(example_document, features=["speculative"]))
    assert "spec_decoding, text_only, decode_context_parallelism" in raised.value.issues[0].fix


# --- the announced profile --------------------------------------------------------------------------------------------

#: sha256 of the JSON (sorted keys) of each example's manifests, rendered at 30aced6, the last commit before the recipe;
#: multi-node's since c16d0c7, which gives the EFA pods' vLLM container IPC_LOCK (charts/vllm_deployment.py); the EKS
#: ones since the key check moved in front of vLLM (charts/key_proxy.py: a Caddy sidecar, vLLM on the loopback, the
#: previous key mounted from AWSPREVIOUS: charts/vllm_secret_provider.py), and issue 30's vllm-image-prepull DaemonSet,
#: verify-weights' --marker and the copy's target_bandwidth 300Gb/s.
ANNOUNCED_DIGESTS = {
    ("config", "example"): "f3e179c786032df0b281900d285630dff029b84aa5244f470649424cee7d981f",
    ("config", "example-prod"): "df1c1cf87930ec205ae57c2ee3b3948bb51955c615e887ff1d7707c0b6ceb8d8",
    (
        "tests/configs",
        "multi-node",
    ): "72d96cf7cbf17a4d93441ad46deb31e7ed138f49e7bc2b0c5168fbc65a320eaf",
    (
        "config",
        "example-hyperpod",
    ): "f8b744fd0d7b429d63a6c16b746ee0cb9506df8c809e98e79b18eb3d879d2026",
}


@pytest.mark.parametrize("directory, name", sorted(ANNOUNCED_DIGESTS))
def test_announced_reproduces_todays_manifests_byte_for_byte(directory, name):
    env = _env(
        _with(_yaml(PROJECT / directory / f"{name}.yaml"), serving_profile="announced"), name
    )
    manifests = (
        synthesize_inference_endpoint(inference_endpoint_spec_for(env))
        if env.platform.value == "hyperpod"
        else synthesize_manifests(serving_spec_for(env))
    )
    digest = hashlib.sha256(json.dumps(manifests, sort_keys=True).encode()).hexdigest()
    assert digest == ANNOUNCED_DIGESTS[(directory, name)]


def test_dcp_and_text_only_on_one_node_replace_what_the_recipe_says_they_replace(example_document):
    # given both features on the single-node B300 layout the recipe scopes DCP to
    args = _env(
        _with(example_document, features=["decode_context_parallelism", "text_only"])
    ).model.serving_args
    # then DCP 8 with TOKENSPEED_MLA, and its attention config wins over the Blackwell one (the builder's last-wins)
    assert args[args.index("--decode-context-parallel-size") + 1] == "8"
    assert args[args.index("--attention-backend") + 1] == "TOKENSPEED_MLA"
    assert (
        args.count("--attention-config") == 1
        and "TRTLLM_RAGGED" in args[args.index("--attention-config") + 1]
    )
    assert "--language-model-only" in args
