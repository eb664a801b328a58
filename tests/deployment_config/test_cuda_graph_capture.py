"""The CUDA graphs a first start captures, bounded by the endpoint's own --max-num-seqs, and the GPU memory left for
the graph pool (deployment_config/cuda_graph_capture.py, issue 30 item 5): in the pod's arguments on both platforms,
and in check-config."""

from __future__ import annotations

import copy
import dataclasses
import json

import pytest

from charts.inference_endpoint_spec import inference_endpoint_spec_for
from charts.serving_spec import serving_spec_for
from deployment_config import ConfigError, parse_environment
from deployment_config.cuda_graph_capture import capture_bound, capture_bound_args
from deployment_config.vllm_args import extra_env_problems


def _capture(args) -> dict | None:
    args = list(args)
    if "--compilation-config" not in args:
        return None
    return json.loads(args[args.index("--compilation-config") + 1])


def _with_args(env, *extra):
    model = dataclasses.replace(env.model, extra_args=(*env.model.extra_args, *extra))
    return dataclasses.replace(env, model=model)


@pytest.mark.parametrize(
    "seqs, bound", [(1, 1), (3, 4), (64, 64), (100, 104), (256, 256), (300, 304)]
)
def test_the_bound_is_max_num_seqs_on_vllms_own_capture_grid(seqs, bound):
    # vLLM 0.33.0 captures 1, 2, 4, every 8 below 256 and every 16 above: the bound is the grid's size that holds the
    # largest decode batch, so that batch keeps its graph
    assert capture_bound(seqs) == bound


def test_the_pod_captures_graphs_only_up_to_the_endpoints_max_num_seqs_on_both_platforms(
    default_env, hyperpod_env
):
    # given an endpoint of --max-num-seqs 64 (vLLM's own bound would be min(2 x 64, 512 or 1024) = 128)
    for env in (default_env, hyperpod_env):
        bounded = _with_args(env, "--max-num-seqs", "64")
        args = (
            serving_spec_for(bounded).args
            if env.platform.value == "eks"
            else inference_endpoint_spec_for(bounded).args
        )
        # then vLLM is told to capture up to 64 tokens, not 128
        assert _capture(args) == {"max_cudagraph_capture_size": 64}


@pytest.mark.parametrize(
    "extra",
    [
        (),  # vLLM's default max_num_seqs depends on the GPU: its own bound stands
        ("--max-num-seqs", "64", "--enforce-eager"),  # no graphs at all
        (
            "--max-num-seqs",
            "64",
            "-cc",
            '{"cudagraph_capture_sizes": [1, 2]}',
        ),  # the user's own wins
        (
            "--max-num-seqs",
            "64",
            "--speculative-config",
            '{"method": "mtp", "num_speculative_tokens": 2}',
        ),
    ],
)
def test_vllms_default_stands_where_the_bound_would_not_be_the_endpoints(default_env, extra):
    assert capture_bound_args(extra) == ()
    assert "--compilation-config" not in serving_spec_for(_with_args(default_env, *extra)).args


def _issues(document: dict) -> dict[str, str]:
    with pytest.raises(ConfigError) as error:
        parse_environment(document, name="example")
    return {issue.field: issue.problem + " | " + issue.fix for issue in error.value.issues}


def test_a_memory_share_that_leaves_no_room_for_the_graph_pool_is_refused(example_document):
    # given a p6-b300 (275,040 MiB a GPU as EC2 reports it) and --gpu-memory-utilization 0.99: 2.7 GiB outside the share,
    # less than the 4.1 GiB of graph pool vLLM's estimate missed in the measured run
    document = copy.deepcopy(example_document)
    document["model"]["extra_args"] = ["--gpu-memory-utilization", "0.99"]
    issues = _issues(document)
    # then the item is refused, with the measurement and the highest share that leaves room
    (message,) = issues.values()
    assert list(issues) == ["model.extra_args[0]"]
    assert "4.3 GiB" in message and "8.4 GiB" in message and "use at most 0.98" in message
    # while 0.95 (13.4 GiB outside) passes, and so does 0.99 without CUDA graphs
    for extra in (
        ["--gpu-memory-utilization", "0.95"],
        ["--gpu-memory-utilization", "0.99", "--enforce-eager"],
    ):
        document["model"]["extra_args"] = extra
        parse_environment(document, name="example")


def test_turning_off_vllms_graph_memory_estimate_is_refused():
    [(name, problem)] = extra_env_problems({"VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS": "0"})
    assert name == "VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS" and "remove it" in problem.fix
