"""model.extra_args and model.extra_env, judged the way vLLM 0.33.0 reads them (deployment_config.vllm_args)."""

from __future__ import annotations

import argparse

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from charts.serving_spec import VLLM_PORT
from deployment_config.catalog import MODEL_PRESETS
from deployment_config.sizing import ENGINE_READY_TIMEOUT_ENV, GPU_MEMORY_UTILIZATION
from deployment_config.vllm_args import (
    JUDGED_OPTIONS,
    OPTIONS,
    SERVING_PORT,
    VLLM_SOURCE,
    extra_args_problems,
    extra_env_problems,
)

MIN = GPU_MEMORY_UTILIZATION
FAST = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def problems(*args: str, minimum: float = MIN) -> list[tuple[int, str, str]]:
    return [
        (index, p.problem, p.fix)
        for index, p in extra_args_problems(list(args), gpu_memory_utilization_min=minimum)
    ]


def indexes(*args: str) -> list[int]:
    return [index for index, _, _ in problems(*args)]


# --- accepted ----------------------------------------------------------------------------------------------------

#: Realistic additions, each a group of items; none repeats an option of another.
ACCEPTED_GROUPS = (
    ("--max-model-len", "262144"),
    ("--max-num-seqs=64",),
    ("--kv-cache-dtype", "fp8"),
    ("--enable-expert-parallel",),
    ("--gpu-memory-utilization", "0.95"),
    ("--hf-overrides", '{"a": 1}'),
    ("--chat-template", "{% for m in messages %}{{ m['content'] }} {% endfor %}"),
    ('--default-chat-template-kwargs={"thinking": false}',),
    ("--max_num_batched_tokens", "16k"),
    ("--enforce-eager",),
    ("--no-enable-log-requests",),
    ("--cudagraph-capture-sizes", "1", "2", "4", "8"),
    ("-q", "fp8"),
    ("-dcp", "2"),
    ("--compilation-config.mode", "3"),
    ("--compilation-config.cudagraph_mode", "FULL_AND_PIECEWISE"),
    ("--speculative-config", '{"method": "mtp", "num_speculative_tokens": 1}'),
    ("--middleware", "my.module.a"),
    ("--middleware", "my.module.b"),
    ("--hf-token",),
    ("-O3",),
    ("--api-server-count", "2"),
    ("--seed", "-1"),
    ("--disable-uvicorn-access-log",),
    ("--generation-config", "vllm"),
    ("--limit-mm-per-prompt.image", "2"),
    ("--limit-mm-per-prompt.video", "0"),
)


@pytest.mark.parametrize("group", ACCEPTED_GROUPS, ids=lambda group: group[0])
def test_realistic_additions_are_accepted(group):
    assert problems(*group) == []


def test_the_briefs_additions_are_accepted_together():
    assert (
        problems(
            "--max-model-len",
            "262144",
            "--max-num-seqs=64",
            "--kv-cache-dtype",
            "fp8",
            "--enable-expert-parallel",
            "--gpu-memory-utilization",
            "0.95",
            "--hf-overrides",
            '{"a": 1}',
        )
        == []
    )


def test_an_empty_list_is_fine():
    assert problems() == []


def test_values_with_spaces_after_an_option_are_values():
    assert (
        problems("--chat-template", "- role: {{ m }}") == []
    )  # starts with "- ", but is not an option
    assert problems("--chat-template={{ messages }} x") == []


@given(
    st.lists(
        st.sampled_from(range(len(ACCEPTED_GROUPS))), unique=True, max_size=len(ACCEPTED_GROUPS)
    )
)
@FAST
def test_any_interleaving_of_accepted_groups_is_accepted(order):
    items = [item for i in order for item in ACCEPTED_GROUPS[i]]
    assert problems(*items) == []


# --- spellings of the options the project derives or forbids ----------------------------------------------------

ALWAYS_REFUSED = [
    (option, rule)
    for option, rule in JUDGED_OPTIONS
    if rule not in ("gpu_memory", "api_servers", "hf_token", "value")
]


def test_the_table_names_the_derived_options_and_their_aliases():
    by_name = {option.name: (option, rule) for option, rule in JUDGED_OPTIONS}
    assert by_name["--tensor-parallel-size"][0].names == ("--tensor-parallel-size", "-tp")
    assert by_name["--pipeline-parallel-size"][0].names == ("--pipeline-parallel-size", "-pp")
    assert by_name["--data-parallel-size"][0].names == ("--data-parallel-size", "-dp")
    assert by_name["--served-model-name"][0].arity == "many"
    assert by_name["--gpu-memory-utilization"][0].names == (
        "--gpu-memory-utilization",
        "--device-memory-utilization",
    )
    assert {
        "--model",
        "--port",
        "--host",
        "--uds",
        "--headless",
        "--download-dir",
        "--api-key",
        "--config",
    } <= set(by_name)
    assert "4ba787ec9" in VLLM_SOURCE and "0.33.0" in VLLM_SOURCE
    assert SERVING_PORT == VLLM_PORT


def test_each_option_string_belongs_to_one_option():
    spellings = [s for option in OPTIONS for s in option.spellings]
    assert len(spellings) == len(set(spellings))


@pytest.mark.parametrize(
    "args, index",
    [
        (["-tp", "4"], 0),
        (["--tensor_parallel_size=4"], 0),
        (["--max-model-len", "1000", "--tensor-parallel-size", "4"], 2),
        (["--tensor-p", "4"], 0),  # abbreviation: allow_abbrev is argparse's default
        (["-t", "4"], 0),  # abbreviation of -tp
        (["-tp=4"], 0),
        (["-tp4"], 0),  # glued: vLLM rejects it, but it is meant as -tp 4
        (["--model", "other/model"], 0),
        (["--model=other/model"], 0),
        (["--served-model-name", "a", "b"], 0),
        (["--served_model_name=a"], 0),
        (
            ["--shutdown-timeout", "900"],
            0,
        ),  # endpoint.drain_seconds sizes the pod's grace period from it
        (["--shutdown_timeout=0"], 0),
        (["--port=9000"], 0),
        (["--host", "0.0.0.0"], 0),
        (["--uds", "/tmp/vllm.sock"], 0),
        (["--headless"], 0),
        (["--grpc"], 0),
        (["--ssl-keyfile", "/k.pem"], 0),
        (["-pp", "2"], 0),
        (["--pipeline_parallel_size", "2"], 0),
        (["-dp", "2"], 0),
        (["--data-parallel-size-local", "2"], 0),
        (["-dpl", "2"], 0),
        (["-dph"], 0),
        (["--data-parallel-rpc-port", "13345"], 0),
        (["-pcp", "2"], 0),
        (["--nnodes", "2"], 0),
        (["-n4"], 0),
        (["--node-rank", "1"], 0),
        (["--device-ids", "0,1"], 0),
        (["--enable-elastic-ep"], 0),
        (["--no-enable-elastic-ep"], 0),
        (["--download-dir", "/tmp/weights"], 0),
        (["--download_dir=/tmp"], 0),
        (["--kv-cache-memory-bytes", "10G"], 0),
        (["--num-gpu-blocks-override", "4096"], 0),
        (["--num_gpu_blocks_override=4096"], 0),
        (["--config", "more.yaml"], 0),
        (["--help=all"], 0),
        (["-h"], 0),
        (
            ["--tensor-parallel-size.x", "4"],
            0,
        ),  # a dotted key of a derived option is still that option
    ],
)
def test_a_derived_or_forbidden_option_is_refused_at_its_item(args, index):
    assert index in indexes(*args)


def test_a_fixed_number_of_kv_cache_blocks_is_refused_like_a_fixed_kv_cache_size():
    # given --num-gpu-blocks-override, which overrides the KV cache vLLM profiles in its share of GPU memory
    [(index, problem, fix)] = problems("--num-gpu-blocks-override", "4096")
    # then it is refused as --kv-cache-memory-bytes is, pointing to the share of memory instead
    assert (
        index == 0 and "--gpu-memory-utilization" in problem and "--gpu-memory-utilization" in fix
    )


@pytest.mark.parametrize(
    "load_format",
    [
        "dummy",
        "DUMMY",
        "ipc_cache",
        "modelexpress",
        "sharded_state",
        "runai_streamer_sharded",
        "tensorizer",
    ],
)
def test_a_loader_that_does_not_read_the_models_weights_is_refused(load_format):
    # given a --load-format vLLM accepts but whose loader does not read the checkpoint (dummy: random weights), last
    # on the command line, where it wins over the profile's --load-format
    [(index, problem, _)] = problems("--load-format", load_format)
    # then make check-config refuses it at the value, saying why
    assert index == 1 and "read the model's own weights" in problem and "health checks" in problem


@pytest.mark.parametrize(
    "load_format", ["fastsafetensors", "safetensors", "auto", "runai_streamer"]
)
def test_the_loaders_that_read_the_checkpoint_are_accepted(load_format):
    assert problems("--load-format", load_format) == []


def test_pinning_the_revision_in_extra_args_points_to_the_one_typed_setting_with_the_commit():
    # given the revision pinned through extra_args, as the README once advised
    commit = "0123456789abcdef0123456789abcdef01234567"
    found = problems("--revision", commit, "--code-revision", commit)
    # then each option is refused with the setting that gives vLLM both (tests/charts/test_serving_chart.py checks that it
    # does), and the fix names the commit to write there
    assert [index for index, _, _ in found] == [0, 2]
    for _, problem, fix in found:
        assert "--revision and --code-revision" in problem
        assert fix.endswith(f"set model.hugging_face_revision: {commit}")


def test_pinning_a_branch_in_extra_args_says_how_to_find_its_commit():
    [(_, _, fix)] = problems("--revision=main")
    assert (
        "model.hugging_face_revision to the 40-hex commit of 'main'" in fix
        and "git ls-remote" in fix
    )


def test_an_abbreviation_of_several_judged_options_asks_for_the_full_name():
    [(index, problem, fix)] = problems("--p", "1")
    assert index == 0 and "--port" in problem and "--pipeline-parallel-size" in problem
    assert fix == "write the option name in full"


def test_options_that_keep_the_gpus_of_a_replica_are_accepted():
    assert (
        problems(
            "-dcp",
            "2",
            "--enable-expert-parallel",
            "--enable-eplb",
            "--all2all-backend",
            "deepep_low_latency",
        )
        == []
    )


def _spellings(option) -> st.SearchStrategy[list[str]]:
    """Items spelling ``option`` (with a value when it takes one), the ways vLLM accepts them."""
    names = option.spellings if option.arity == "flag" else option.names
    # one choice per '-' of the name (the longest name's count): each may be written '_'
    hyphens = max(name[2:].count("-") for name in names)

    def spell(draw_name: str, underscores: list[bool], equals: bool, cut: int) -> list[str]:
        if draw_name.startswith("--"):
            flips = iter(underscores)
            draw_name = "--" + "".join(
                "_" if c == "-" and next(flips) else c for c in draw_name[2:]
            )
        if cut:
            draw_name = draw_name[: max(len(draw_name) - cut, 2)]
        if option.arity == "flag":
            return [draw_name]
        return [f"{draw_name}=4"] if equals else [draw_name, "4"]

    return st.builds(
        spell,
        st.sampled_from(names),
        st.lists(st.booleans(), min_size=hyphens, max_size=hyphens),
        st.booleans(),
        st.integers(min_value=0, max_value=3),
    )


@pytest.mark.parametrize(
    "option", [option for option, _ in ALWAYS_REFUSED], ids=lambda option: option.name
)
def test_every_spelling_of_a_refused_option_is_found_at_its_item(option):
    @given(
        _spellings(option),
        st.lists(st.sampled_from(range(len(ACCEPTED_GROUPS))), unique=True, max_size=6),
        st.integers(min_value=0, max_value=6),
    )
    @settings(max_examples=25, deadline=None)
    def check(spelled, around, position):
        groups = [ACCEPTED_GROUPS[i] for i in around]
        position = min(position, len(groups))
        before = [item for group in groups[:position] for item in group]
        after = [item for group in groups[position:] for item in group]
        found = indexes(*before, *spelled, *after)
        assert found and set(found) == {len(before)}, (before, spelled, after, found)

    check()


# --- positionals, one-item pairs, empty items -------------------------------------------------------------------


def test_a_positional_argument_is_refused_because_vllm_takes_it_for_the_model():
    [(index, problem, _)] = problems("--max-model-len", "1000", "other/model")
    assert index == 2 and "positional" in problem and "model" in problem


def test_a_value_after_a_flag_is_a_positional_and_the_message_names_the_flag():
    [(index, problem, _)] = problems("--enforce-eager", "true")
    assert index == 1 and "--enforce-eager is a flag" in problem


def test_an_option_and_its_value_in_one_item_is_refused_with_the_two_items_to_write():
    found = problems("--port 9000")
    assert found[0] == (0, found[0][1], "write it as two items: - --port / - 9000")
    assert any("port 8000" in problem for _, problem, _ in found)  # and --port itself is refused
    [(index, _, fix)] = problems("--max-num-seqs 64")
    assert index == 0 and fix == "write it as two items: - --max-num-seqs / - 64"


def test_an_empty_item_and_a_bare_double_dash_are_refused():
    assert indexes("--enforce-eager", "") == [1]
    assert indexes("--", "--max-model-len", "1000") == [0]


def test_a_negative_decimal_as_its_own_item_is_caught_by_vllms_dotted_option_rule():
    # vLLM's pre-processing takes "-0.5" away as a dotted option: the option is left without its value too
    [(first, missing, _), (index, problem, fix)] = problems("--video-pruning-rate", "-0.5")
    assert first == 0 and "needs a value" in missing
    assert index == 1 and "dotted option" in problem and "=" in fix
    assert problems("--video-pruning-rate=-0.5") == []
    assert problems("--seed", "-3") == []  # a negative whole number is a value for argparse


def test_a_dotted_option_without_its_value_is_refused():
    assert indexes("--compilation-config.mode") == [0]


def test_a_dotted_option_swallows_the_next_item_even_an_option():
    assert indexes("--compilation-config.mode", "--max-num-seqs", "64") == [
        0,
        2,
    ]  # and 64 is left as a positional


def test_the_presets_own_arguments_parse_without_a_problem():
    assert problems(*MODEL_PRESETS["kimi-k3"].serving_args) == []


# --- duplicates --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, index",
    [
        (["--max-num-seqs", "64", "--max_num_seqs=32"], 2),
        (["--enable-prefix-caching", "--no-enable-prefix-caching"], 1),
        (
            ["--enable-chunked-prefill", "--disable-chunked-prefill"],
            1,
        ),  # vLLM's EnableDisableAction pairs them
        (["-q", "fp8", "--quantization", "awq"], 2),
        (["--gpu-memory-utilization", "0.95", "--device-memory-utilization", "0.92"], 2),
        (
            ["--compilation-config", "{}", "-cc.mode", "3"],
            2,
        ),  # the merged dotted value replaces the plain one
        (["-cc.mode", "3", "--compilation-config.mode", "2"], 2),
        (["-O3", "--optimization-level", "2"], 1),
    ],
)
def test_an_option_given_twice_is_refused_at_the_second_item(args, index):
    assert indexes(*args) == [index]


def test_repeatable_and_mergeable_options_may_repeat():
    assert problems("--middleware", "a.b", "--middleware", "c.d") == []  # action="append"
    assert problems("-cc.mode", "3", "-cc.cudagraph_mode", "FULL") == []  # dotted keys merge
    assert problems("-cc.splitting_ops+", "a", "-cc.splitting_ops+", "b") == []  # lists add up
    # "--cc" is no option string of vLLM's (the alias is "-cc"): vLLM stops with "unrecognized arguments: --cc"
    assert indexes("--cc.splitting_ops+", "a") == [0]


# --- GPU memory share --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, index",
    [
        (["--gpu-memory-utilization", "0.5"], 1),
        (["--gpu-memory-utilization=0.5"], 0),
        (["--gpu_memory_utilization", "0.89"], 1),
        (["--device-memory-utilization", "0.5"], 1),
        (["--gpu-mem", "0.5"], 1),  # abbreviation
        (["--gpu-memory-utilization", "abc"], 1),
        (["--gpu-memory-utilization", "0"], 1),
        (["--gpu-memory-utilization", "1.01"], 1),
        (["--gpu-memory-utilization", "nan"], 1),
        (["--gpu-memory-utilization", "inf"], 1),
        (["--gpu-memory-utilization"], 0),
        (["--gpu-memory-utilization", "--enforce-eager"], 0),
        (["--gpu-memory-utilization.x", "1"], 0),
    ],
)
def test_a_gpu_memory_share_below_the_sizing_or_not_a_share_is_refused(args, index):
    assert indexes(*args) == [index]


def test_the_gpu_memory_message_names_the_share_the_sizing_assumed():
    [(_, problem, fix)] = problems("--gpu-memory-utilization", "0.5")
    assert "0.9" in problem and "90%" in problem and "0.9 to 1.0" in fix


@pytest.mark.parametrize("value", ["0.9", "0.90", "0.95", "1", "1.0", "9.5e-1", " 0.95 "])
def test_a_gpu_memory_share_from_the_sizing_to_one_is_accepted(value):
    assert problems("--gpu-memory-utilization", value) == []
    assert problems(f"--gpu-memory-utilization={value}") == []


@given(
    st.floats(min_value=-1.5, max_value=2.5, allow_nan=False),
    st.sampled_from([repr, str, "{:.3f}".format, "{:e}".format]),
    st.booleans(),
    st.floats(min_value=0.05, max_value=0.99),
)
@FAST
def test_gpu_memory_shares_are_judged_exactly_by_the_threshold(value, fmt, equals, minimum):
    text = fmt(value)
    share = float(text)
    assume(
        equals or not text.startswith("-")
    )  # a separate negative decimal item is vLLM's dotted-option case
    args = [f"--gpu-memory-utilization={text}"] if equals else ["--gpu-memory-utilization", text]
    found = problems(*args, minimum=minimum)
    if minimum <= share <= 1:
        assert found == []
    else:
        assert [index for index, _, _ in found] == [len(args) - 1]


def test_api_server_count_must_leave_an_api_server():
    assert indexes("--api-server-count", "0") == [1]
    assert indexes("-asc=0") == [0]
    assert indexes("--api-server-count", "two") == [1]
    assert problems("--api-server-count", "4") == []


# --- secrets -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["--api-key", "sk-SECRET"],
        ["--api-key=sk-SECRET"],
        ["--api-key sk-SECRET"],
        ["--api_key", "sk-SECRET", "sk-SECRET2"],
        ["--hf-token", "hf_SECRET"],
        ["--hf-token=hf_SECRET"],
        ["--hf-token hf_SECRET"],
    ],
)
def test_secrets_in_args_are_refused_and_never_quoted_back(args):
    found = problems(*args)
    assert [index for index, _, _ in found] == [0]
    assert all("SECRET" not in problem + fix for _, problem, fix in found)
    assert found[0][2].startswith("do not put secrets in the configuration file")
    assert "Secrets Manager" in found[0][2] and "Secrets Store CSI driver" in found[0][2]


def test_a_bare_hf_token_uses_the_token_of_the_environment_and_is_accepted():
    assert problems("--hf-token", "--enforce-eager") == []


# --- oracle: argparse itself decides what is a value and what is a positional ------------------------------------

#: Real vLLM 0.33.0 options with one value: four whose value the table checks (the test looks only at what is read as
#: a value or a positional, not at the values themselves) and two it does not list (it assumes one value for them).
ONE_VALUE = (
    "--max-model-len",
    "--max-num-seqs",
    "--kv-cache-dtype",
    "--tool-call-parser",
    "--seed",
    "--block-size",
)


def _oracle() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(add_help=False, allow_abbrev=False, exit_on_error=False)
    parser.add_argument("model_tag", nargs="?")
    for option in OPTIONS:
        if option.name in {o.name for o, _ in JUDGED_OPTIONS}:
            continue
        kwargs = {
            "flag": dict(action="store_true"),
            "many": dict(nargs="+"),
            "append": dict(action="append"),
            "one": {},
            "optional": dict(nargs="?"),
        }[option.arity]
        for spelling in option.spellings:
            parser.add_argument(
                spelling, dest=spelling.strip("-").replace("-", "_") + "_", **kwargs
            )
    added = set(parser._option_string_actions)
    for name in ONE_VALUE:
        if name not in added:
            parser.add_argument(name)
    return parser


ORACLE = _oracle()
_VOCABULARY = [
    s for o in OPTIONS for s in o.spellings if not any(s in j.spellings for j, _ in JUDGED_OPTIONS)
]
_VOCABULARY += list(ONE_VALUE)


_VALUES = ("v", "-7", "0.5", '{"a": 1}', "x y")


@given(st.lists(st.one_of(st.sampled_from(_VOCABULARY), st.sampled_from(_VALUES)), max_size=8))
@FAST
def test_values_and_positionals_are_told_apart_as_argparse_does(items):
    items = [
        f"{item}{i}" if item in _VALUES else item for i, item in enumerate(items)
    ]  # unique values
    try:
        namespace, extras = ORACLE.parse_known_args(["MODEL", *items])
    except (argparse.ArgumentError, SystemExit):
        assume(False)  # argparse stops, e.g. an option without its value: nothing to compare
    assert namespace.model_tag == "MODEL"
    expected = sorted(items.index(extra) for extra in extras)
    found = [
        index
        for index, problem, _ in problems(*items)
        if "positional" in problem or "in one item" in problem
    ]
    assert found == expected, (items, extras)


# --- environment -------------------------------------------------------------------------------------------------


def env_problems(**variables: str) -> dict[str, tuple[str, str]]:
    return {name: (p.problem, p.fix) for name, p in extra_env_problems(variables)}


def test_ordinary_variables_are_accepted():
    preset = dict(MODEL_PRESETS["kimi-k3"].environment)
    assert (
        env_problems(
            **preset,
            VLLM_LOGGING_LEVEL="DEBUG",
            NCCL_DEBUG="INFO",
            VLLM_CACHE_ROOT="/models/vllm-cache",
            HF_TOKEN_PATH="/mnt/secrets/hf-token",
            TOKENIZERS_PARALLELISM="false",
            XDG_CACHE_HOME="/tmp",
            VLLM_MULTI_STREAM_GEMM_TOKEN_THRESHOLD="1024",
            VLLM_MAX_TOKENS_PER_EXPERT_FP4_MOE="163840",
        )
        == {}
    )


@pytest.mark.parametrize("name", ["1ABC", "A-B", "A B", "", "A=B", "ÄB"])
def test_names_that_are_not_environment_variable_names_are_refused(name):
    [(key, problem)] = extra_env_problems({name: "1"})
    assert key == name and "not an environment variable name" in problem.problem


def test_the_engine_ready_timeout_is_derived():
    assert (
        env_problems(**{ENGINE_READY_TIMEOUT_ENV: "3600"})[ENGINE_READY_TIMEOUT_ENV][1]
        == "remove it; raise model.weight_size_gb if loading takes longer"
    )


@pytest.mark.parametrize(
    "name",
    [
        "HF_HOME",
        "HF_HUB_CACHE",
        "HUGGINGFACE_HUB_CACHE",
        "TRANSFORMERS_CACHE",
        "HF_XET_CACHE",
        "HF_ENDPOINT",
        "HF_HUB_OFFLINE",
        "TRANSFORMERS_OFFLINE",
        "VLLM_USE_MODELSCOPE",
    ],
)
def test_variables_that_move_the_weights_or_their_cache_are_refused(name):
    problem, _ = env_problems(**{name: "/tmp/x"})[name]
    assert "NVMe model cache" in problem


@pytest.mark.parametrize(
    "name",
    ["VLLM_PORT", "VLLM_HOST_IP", "VLLM_DP_SIZE", "VLLM_DP_MASTER_PORT", "CUDA_VISIBLE_DEVICES"],
)
def test_variables_that_place_vllms_processes_gpus_or_ports_are_refused(name):
    assert name in env_problems(**{name: "1"})


def test_vllm_port_is_explained_as_the_internal_port_it_is():
    problem, _ = env_problems(VLLM_PORT="9000")["VLLM_PORT"]
    assert "internal" in problem and "8000" in problem


@pytest.mark.parametrize(
    "name",
    [
        "HF_TOKEN",
        "HUGGING_FACE_HUB_TOKEN",
        "VLLM_API_KEY",
        "OPENAI_API_KEY",
        "GITHUB_TOKEN",
        "DB_PASSWORD",
        "MY_SECRET",
        "SERVICE_APIKEY",
        "hf_token",
        "MYTOKEN",
        "CLIENT_CREDENTIALS",
    ],
)
def test_secrets_in_the_environment_are_refused_and_never_quoted_back(name):
    problem, fix = env_problems(**{name: "VALUE-SECRET"})[name]
    assert (
        fix.startswith("do not put secrets in the configuration file")
        and "Secrets Store CSI driver" in fix
    )
    assert "VALUE-SECRET" not in problem + fix


@pytest.mark.parametrize(
    "name",
    ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "S3_SECRET_ACCESS_KEY"],
)
def test_aws_credentials_are_refused_because_the_pod_has_an_iam_role(name):
    problem, fix = env_problems(**{name: "x"})[name]
    assert "IRSA" in problem and fix.startswith("do not put secrets in the configuration file")


def test_every_problem_of_a_mapping_is_reported_in_its_order():
    assert [
        name
        for name, _ in extra_env_problems(
            {"HF_HOME": "/x", "OK_VAR": "1", "HF_TOKEN": "t", "9": "1"}
        )
    ] == ["HF_HOME", "HF_TOKEN", "9"]
