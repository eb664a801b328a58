"""The start-up plan of an environment that streams its weights (``model.weight_load: runai_streamer``, issue 30 item
4): the Run:ai distributed stream from S3 is the chosen path on a new node and on a restart, check-weights-s3 in
place of the copy and sha256 check, the budget the stream's; an environment that copies keeps the copy's rows."""

from __future__ import annotations

import copy

from deployment_config.loader import parse_environment
from deployment_config.startup_rates import CHECK_S3_WEIGHTS_SECONDS, RUNAI_DISTRIBUTED_NODE
from ops_cli import timeline
from ops_cli.first_token_plan import chosen_s3_path

DIGEST = "vllm/vllm-openai:kimi-k3@sha256:" + "0123456789abcdef" * 4


def _env(example_document: dict, weight_load: str):
    document = copy.deepcopy(example_document)
    document["model"].update(
        weight_source="s3",
        s3_uri="s3://example-weights/kimi-k3/",
        hugging_face_revision="0123456789abcdef0123456789abcdef01234567",
        image=DIGEST,
        weight_load=weight_load,
    )
    return parse_environment(document, name=weight_load.replace("_", "-"))


def _row(rows, prefix: str):
    (row,) = [p for p in rows if p.step.startswith(prefix)]
    return row


def test_a_streaming_environment_plans_the_run_ai_path_and_its_target_on_it(example_document):
    # given an environment with weight_load: runai_streamer (S3 weights at a revision, the image by digest)
    env = _env(example_document, "runai_streamer")
    # when the plan is made
    rows = timeline.phases(env)
    assert chosen_s3_path(env) == "runai"
    # then the target row is set against the Run:ai stream, on a new node and on a restart, with check-weights-s3 in
    # both totals and no copy or sha256 check
    target = _row(rows, "target (issue 30)")
    assert "the charts' path (Run:ai distributed from S3)" in target.step
    assert "new node met, restart met" in target.step and target.without_minutes == "met"
    new_node, restart = target.basis.split("; restart: ")
    assert new_node.startswith("new node: image pull 360.0 + check-weights-s3 20.0 + stream 151.2")
    assert restart.startswith("check-weights-s3 20.0 + stream 151.2")
    assert "max(image pull, copy)" not in target.basis and "check 32.9" not in target.basis
    # and the restart row says that a restart checks and streams from S3 again
    assert (
        "a restart checks and streams from S3 again"
        in _row(rows, "restart on the same node -> first token, Run:ai distributed from S3").step
    )
    # and the recommended first-token row is the stream's
    assert timeline.recommended_first_token(env).step.startswith(
        "node ready -> first token, weights from S3: Run:ai"
    )
    # and the faster-path row no longer says the chart copies
    faster = _row(rows, "faster S3 path")
    assert "still copies" not in faster.basis
    assert "This environment runs Run:ai distributed from S3" in faster.basis


def test_a_streaming_environment_budgets_the_check_and_the_stream_not_a_copy_and_a_load(
    example_document,
):
    # given the same environment streamed and copied
    streamed, copied = (_env(example_document, load) for load in ("runai_streamer", "copy"))
    # when the plan gives the budget rows
    rows = timeline.phases(streamed)
    steps = [p.step for p in rows]
    # then the streamed budget counts check-weights-s3 and the stream, and no download or disk load
    stream = _row(rows, "budget: check-weights-s3 and the Run:ai stream")
    seconds = CHECK_S3_WEIGHTS_SECONDS + RUNAI_DISTRIBUTED_NODE.seconds_for(1420)
    assert stream.minutes == round(seconds / 60, 1)
    assert not any(s.startswith(("budget: download", "budget: load")) for s in steps)
    # and the pod's startup budget is the stream's, shorter than the copy's (the recipe's 3,600 s floor aside)
    engine = _row(rows, "vLLM engine budget for this environment's weight source")
    assert "streamed=True" in engine.basis
    assert (
        engine.minutes
        < _row(
            timeline.phases(copied), "vLLM engine budget for this environment's weight source"
        ).minutes
    )


def test_a_copying_environment_keeps_the_copy_rows(example_document, default_env):
    # given the same environment with weight_load: copy, and the example (Hub weights)
    for env in (_env(example_document, "copy"), default_env):
        # when the plan is made
        rows = timeline.phases(env)
        # then the target row is set against the copy, the budget rows are the download's and the load's
        assert chosen_s3_path(env) == "copy"
        assert "the charts' path (the copy to the NVMe)" in _row(rows, "target (issue 30)").step
        assert _row(rows, "budget: load").minutes == 19.2
        assert timeline.recommended_first_token(env).step.startswith(
            "node ready -> first token, weights from S3: copy"
        )
        assert "This environment copies" in _row(rows, "faster S3 path").basis
