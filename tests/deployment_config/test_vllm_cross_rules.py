"""model.extra_args against the rest of the file (deployment_config/cross_section_rules/vllm_serving.py, serving.py
routing): one --speculative-config with spec_decoding, a decode context parallel size dividing TP, a router that has
replicas to route over when HyperPod autoscales; and the same through `python -m deployment_config` (make
check-config)."""

from __future__ import annotations

import copy

import pytest
import yaml

from deployment_config import ConfigError, parse_environment
from deployment_config.__main__ import main as check_config
from tests.conftest import CONFIG_DIR


def _issues(document: dict) -> dict[str, str]:
    with pytest.raises(ConfigError) as error:
        parse_environment(document, name="example")
    return {issue.field: issue.problem for issue in error.value.issues}


def _with_model(document: dict, **model) -> dict:
    changed = copy.deepcopy(document)
    changed["model"].update(model)
    return changed


SPEC = {"features": ["spec_decoding"], "speculator_size_gb": 8}


@pytest.mark.parametrize(
    "extra_args",
    [
        ["--speculative-config", '{"method": "mtp", "num_speculative_tokens": 1}'],
        ["-sc", '{"model": "someone/other-draft"}'],
        ["--speculative_config.model", "someone/other-draft"],
    ],
)
def test_spec_decoding_refuses_a_second_speculative_config(example_document, extra_args):
    # given spec_decoding on and a --speculative-config of the user's in model.extra_args, in any spelling
    issues = _issues(_with_model(example_document, extra_args=extra_args, **SPEC))
    # then that item is refused: the project already gives the recipe speculator's, pinned at its commit
    assert list(issues) == ["model.extra_args[0]"]
    assert "spec_decoding" in issues["model.extra_args[0]"]


def test_without_spec_decoding_a_speculative_config_is_the_users_own(example_document):
    extra_args = ["--speculative-config", '{"method": "mtp", "num_speculative_tokens": 1}']
    parse_environment(_with_model(example_document, extra_args=extra_args), name="example")


def test_a_decode_context_parallel_size_that_does_not_divide_tp_is_refused(example_document):
    # given the kimi-k3 preset (TP 8) and -dcp 3, which vLLM 0.33.0's ParallelConfig refuses at start-up
    issues = _issues(_with_model(example_document, extra_args=["--enforce-eager", "-dcp", "3"]))
    # then the item that sets it is refused, with vLLM's own message
    assert list(issues) == ["model.extra_args[1]"]
    assert "tp_size=8 must be divisible by dcp_size=3" in issues["model.extra_args[1]"]
    assert "vllm/config/parallel.py" in issues["model.extra_args[1]"]


@pytest.mark.parametrize("dcp", ["1", "2", "4", "8"])
def test_a_decode_context_parallel_size_dividing_tp_is_accepted(example_document, dcp):
    parse_environment(
        _with_model(example_document, extra_args=["--decode-context-parallel-size", dcp]),
        name="example",
    )


@pytest.fixture
def hyperpod_document() -> dict:
    return yaml.safe_load((CONFIG_DIR / "example-hyperpod.yaml").read_text(encoding="utf-8"))


def test_routing_with_autoscaling_to_one_replica_is_refused(hyperpod_document):
    # given HyperPod autoscaling between 1 and 1 workers, and the operator's prefix-aware router asked for (on an
    # endpoint without a key: with one, cache_aware is refused on HyperPod for another reason)
    hyperpod_document["hyperpod"]["autoscaling"] = {"min_replicas": 1, "max_replicas": 1}
    hyperpod_document.setdefault("endpoint", {})["routing"] = "cache_aware"
    hyperpod_document["endpoint"]["authentication"] = "none"
    issues = _issues(hyperpod_document)
    # then the router is refused: there are never two replicas to route over
    assert "max_replicas is 1" in issues["endpoint.routing"]


def test_make_check_config_refuses_the_issues_extra_args_each_at_its_item(
    tmp_path, example_document, capsys
):
    # given an environment file whose extra_args hold values vLLM 0.33.0 refuses, and dummy weights
    document = _with_model(
        example_document,
        extra_args=["--dtype", "fp8", "-O", "5", "--load-format", "dummy", "-dcp", "3"],
    )
    (tmp_path / "bad.yaml").write_text(yaml.safe_dump(document), encoding="utf-8")
    # when make check-config runs on it (python -m deployment_config's main, in this process: a real process of a
    # refused file is test_config_validation.py's test_the_real_process_reports_every_mistake_at_once_with_exit_code_2)
    code = check_config(["bad"], tmp_path)
    # then it exits 2 with one line per mistake, each naming its item, and no traceback
    captured = capsys.readouterr()
    output = captured.out + captured.err
    assert code == 2, output
    assert "Traceback" not in output
    for index in (1, 2, 5, 6):
        assert f"model.extra_args[{index}]" in output, output


@pytest.mark.parametrize("value", ["1048577", "2M", "1100k"])
def test_a_max_model_len_beyond_the_models_context_is_refused(example_document, value):
    # given --max-model-len past Kimi-K3's context (the vendored recipe's model.context_length: 1048576 tokens)
    issues = _issues(_with_model(example_document, extra_args=["--max-model-len", value]))
    # then the item is refused, naming the model's context and the recipe it comes from
    assert list(issues) == ["model.extra_args[0]"]
    assert "1048576" in issues["model.extra_args[0]"]
    assert "Kimi-K3.yaml" in issues["model.extra_args[0]"]


@pytest.mark.parametrize("value", ["1048576", "1M", "262144", "auto"])
def test_a_max_model_len_within_the_context_is_accepted(example_document, value):
    parse_environment(
        _with_model(example_document, extra_args=["--max-model-len", value]), name="example"
    )


@pytest.mark.parametrize(
    "uri",
    [
        "s3://my-bucket/compile-cache/",
        "s3://my-bucket/compile-cache/weights/",
        "s3://bkt/compile-cache",
    ],
)
def test_weights_inside_the_compile_cache_prefix_are_refused(example_document, uri):
    # given S3 weights inside compile-cache/, the prefix the vLLM pod may write (charts/compile_cache S3_PREFIX)
    issues = _issues(_with_model(example_document, weight_source="s3", s3_uri=uri))
    # then model.s3_uri is refused: the pod could replace the weights it loads
    assert "compile cache" in issues["model.s3_uri"]


def test_weights_beside_the_compile_cache_prefix_are_accepted(example_document):
    parse_environment(
        _with_model(
            example_document, weight_source="s3", s3_uri="s3://my-bucket/compile-cache-weights/"
        ),
        name="example",
    )


CACHED = {
    "weight_source": "s3",
    "s3_uri": "s3://weights-bucket/kimi-k3/",
    "hugging_face_revision": "0123456789abcdef0123456789abcdef01234567",
    "image": "vllm/vllm-openai:kimi-k3@sha256:" + "a" * 64,
}


def test_a_kernel_cache_variable_in_extra_env_is_refused_where_the_compile_cache_is_on(
    example_document,
):
    # given S3 weights at a revision and an image by digest (the compile cache on), and Triton's cache moved
    document = _with_model(
        example_document, **CACHED, extra_env={"TRITON_CACHE_DIR": "/elsewhere/triton"}
    )
    # then make check-config refuses it: the chart would point it under the cache's directory instead
    problem = _issues(document)["model.extra_env"]
    assert "TRITON_CACHE_DIR" in problem and "would replace your value" in problem


def test_a_kernel_cache_variable_in_extra_env_is_the_users_own_without_a_compile_cache(
    example_document,
):
    # given the same variable with an image by tag (no compile cache: the chart sets no cache variable)
    document = _with_model(
        example_document,
        **{**CACHED, "image": "vllm/vllm-openai:kimi-k3"},
        extra_env={"TRITON_CACHE_DIR": "/elsewhere/triton"},
    )
    # then the file loads and vLLM gets the user's value
    env = parse_environment(document, name="example")
    assert env.model.extra_env["TRITON_CACHE_DIR"] == "/elsewhere/triton"


@pytest.mark.parametrize(
    "extra_args, item",
    [
        (["--load-format", "runai_streamer"], 0),
        (["--load-format=runai_streamer", "--model-loader-extra-config", '{"concurrency": 16}'], 1),
        (
            [
                "--load-format",
                "runai_streamer",
                "--model-loader-extra-config",
                '{"distributed": "yes"}',
            ],
            2,
        ),
    ],
)
def test_the_runai_loader_at_tp_8_without_distributed_is_refused(
    example_document, extra_args, item
):
    # given the kimi-k3 preset (TP 8) loaded with the Run:ai streamer, without {"distributed": true}
    issues = _issues(_with_model(example_document, extra_args=extra_args))
    # then the item is refused: every rank would stream the whole checkpoint; the fix names the setting
    assert list(issues) == [f"model.extra_args[{item}]"]
    assert "each of the 8 ranks streams the whole checkpoint" in issues[f"model.extra_args[{item}]"]


def test_the_runai_loader_distributed_and_other_loaders_are_accepted(example_document):
    for extra_args in (
        ["--load-format", "runai_streamer", "--model-loader-extra-config", '{"distributed": true}'],
        [
            "--load-format",
            "runai_streamer",
            "--model-loader-extra-config",
            '{"distributed": true, "concurrency": 16}',
        ],
        ["--load-format", "safetensors"],
    ):
        parse_environment(_with_model(example_document, extra_args=extra_args), name="example")
