"""The start-up plan's warm-up (issue 30, item 6): the H200's measured proxies in every node ready -> first token and
restart row, restored where the environment keeps a compile cache, cold where it does not; the faster S3 path and
issue 30's target with the warm-up in both totals; the budget's warm-up never below the proxy with its margin."""

from __future__ import annotations

import copy
import dataclasses
import json

from deployment_config import sizing
from deployment_config.loader import parse_environment
from deployment_config.startup_rates import WARM_UP_PROXY
from ops_cli import s3_path_choice, timeline
from ops_cli.first_token_plan import first_token_phases
from ops_cli.warm_up_plan import keeps_compile_cache

COLD, RESTORED = WARM_UP_PROXY["cold"].seconds, WARM_UP_PROXY["restored"].seconds
RESTORE = 45754886 / 1e9 / 0.085  # the proxy's cache archive over one S3 connection


def _with_compile_cache(example_document: dict):
    """The example with what turns the compile cache on: weights from S3 at a revision, the image by digest."""
    document = copy.deepcopy(example_document)
    document["model"].update(
        weight_source="s3",
        s3_uri="s3://example-weights/kimi-k3/",
        hugging_face_revision="0123456789abcdef0123456789abcdef01234567",
        image="vllm/vllm-openai:kimi-k3@sha256:" + "0123456789abcdef" * 4,
    )
    return parse_environment(document, name="cached")


def _row(rows, prefix: str):
    (row,) = [p for p in rows if p.step.startswith(prefix)]
    return row


def test_without_a_compile_cache_every_start_adds_the_cold_proxy_and_says_why(default_env):
    # given the example (weights from the Hub, the image by tag: no compile cache), when the plan is made
    assert not keeps_compile_cache(default_env)
    rows = first_token_phases(default_env)
    restart = _row(rows, "restart on the same node -> first token (weights on the NVMe)")
    new_node = _row(rows, "node ready -> first token, weights from S3: copy")
    # then a restart pays the cold warm-up too (a new pod compiles again), labelled as the H200 proxy with the reason
    assert restart.minutes == round((1420 / 1.23 + COLD) / 60, 1) == 28.0
    assert "warm-up 523.4 s (warm_up_proxy_cold, measured proxy: H200, vLLM 0.25.0" in restart.basis
    assert (
        "no compile cache: weights from the Hub, the image by tag, not by digest" in restart.basis
    )
    # and a new node has no separate first start: every start is one
    assert new_node.first_start_minutes is None


def test_with_a_compile_cache_a_new_node_gives_the_typical_start_and_the_first_start_of_the_key(
    example_document,
):
    # given weights from S3 at a revision and the image by digest (what charts/compile_cache needs)
    env = _with_compile_cache(example_document)
    assert keeps_compile_cache(env)
    rows = first_token_phases(env)
    copy_new = _row(rows, "node ready -> first token, weights from S3: copy")
    restart = _row(rows, "restart on the same node -> first token (weights on the NVMe)")
    # then a new node restores the cache from S3 and adds the restored proxy; its first start ever adds the cold one
    weights = max(360, 1420 / 37.5) + 1420 / 43.2 + 1420 / 1.23
    assert copy_new.minutes == round((weights + RESTORE + RESTORED) / 60, 1) == 27.2
    assert copy_new.first_start_minutes == round((weights + COLD) / 60, 1) == 34.5
    assert "first start ever for this key: warm_up_proxy_cold 523.4 s" in copy_new.basis
    # and a restart finds the cache on the node's NVMe: the restored proxy, nothing downloaded
    assert restart.minutes == round((1420 / 1.23 + RESTORED) / 60, 1)
    assert "the compile cache on the node's NVMe" in restart.basis


def test_hyperpod_keeps_no_compile_cache_so_its_rows_are_cold(hyperpod_env):
    assert not keeps_compile_cache(hyperpod_env)
    restart = _row(first_token_phases(hyperpod_env), "restart on the same node -> first token (w")
    assert "no compile cache: HyperPod" in restart.basis


def test_the_target_line_gives_the_charts_path_against_issue_30_with_the_arithmetic(
    example_document,
):
    # given an environment with a compile cache, when the plan is made
    rows = first_token_phases(_with_compile_cache(example_document))
    target = _row(rows, "target (issue 30)")
    # then the charts' path (the copy) is measured against 15 and 5 minutes, each total with its terms
    assert (
        "the charts' path (the copy to the NVMe): new node not met, restart not met" in target.step
    )
    assert target.without_minutes == "not met"
    assert (
        "new node: max(image pull, copy) 360.0 + check 32.9 + load 1154.5 + compile cache restore 0.5 + "
        "warm-up 86.3 = 1634.2 s = 27.2 min > 15"
    ) in target.basis
    assert "restart: load 1154.5 + warm-up 86.3 = 1240.8 s = 20.7 min > 5" in target.basis
    assert "the first start ever of the compile cache's key: 34.5 min" in target.basis
    assert "Run:ai distributed from S3 would give 10.3 and 4.3 min" in target.basis


def test_a_chosen_run_ai_path_is_looked_up_and_the_faster_path_row_names_the_chosen_one(
    example_document, monkeypatch
):
    # given the terms of both paths as the plan computes them
    captured = {}
    real_target = s3_path_choice.target

    def capture(paths, chosen=s3_path_choice.CHARTS_S3_PATH):
        captured["paths"] = paths
        return real_target(paths, chosen)

    monkeypatch.setattr("ops_cli.first_token_plan.target", capture)
    first_token_phases(_with_compile_cache(example_document))
    paths = captured["paths"]
    # when the chosen path is Run:ai from S3, its totals are what the rows print and it meets the target
    assert s3_path_choice.path_minutes(paths, "runai") == (10.3, 4.3)
    chosen = s3_path_choice.target(paths, "runai")
    assert "(Run:ai distributed from S3): new node met, restart met" in chosen.step
    assert "<= 15" in chosen.basis and "<= 5" in chosen.basis
    # and the faster-path row names the environment's own path
    assert "This environment copies" in s3_path_choice.faster_path(paths, "copy").basis
    assert "This environment runs Run:ai" in s3_path_choice.faster_path(paths, "runai").basis


def test_the_json_plan_shows_the_first_start_beside_the_typical_new_node(example_document):
    env = _with_compile_cache(example_document)
    document = json.loads(json.dumps(timeline.plan_json(env, timeline.phases(env))))
    (row,) = [
        p
        for p in document["phases"]
        if p["step"].startswith("node ready -> first token, weights from S3: c")
    ]
    assert (row["minutes"], row["first_start_minutes"]) == (27.2, 34.5)
    assert "warm_up" not in document["unmeasured"]


def test_the_budgets_warm_up_is_the_allowance_until_the_cold_proxy_with_its_margin_is_longer(
    monkeypatch,
):
    # given the measured cold proxy (523.4 s x 1.5 = 785 s), the budget keeps its 15-minute allowance
    assert sizing.warm_up_budget_seconds() == sizing.WARMUP_ALLOWANCE_SECONDS == 900
    before = sizing.startup_budget(1420, from_hub=False, instance_type="p6-b300.48xlarge")
    # when a new measurement puts the cold warm-up at 20 minutes
    longer = dict(WARM_UP_PROXY, cold=dataclasses.replace(WARM_UP_PROXY["cold"], seconds=1200.0))
    monkeypatch.setattr(sizing, "WARM_UP_PROXY", longer)
    # then the budget's warm-up follows it with the margin, and vLLM's engine timeout grows: a first start that
    # compiles for 20 minutes is not killed by a budget made for 15
    assert sizing.warm_up_budget_seconds() == 1800
    after = sizing.startup_budget(1420, from_hub=False, instance_type="p6-b300.48xlarge")
    assert after.engine_ready_timeout_seconds > before.engine_ready_timeout_seconds
