"""``llmops rollout``: before a deploy, whether it replaces the serving pods and what that costs the endpoint.

The rendered chart is the project's own (synthesize_manifests of the environment, as cdk synth writes it); the deployed
object is that chart's workload as ``kubectl apply`` leaves it in the cluster: its own JSON in the
last-applied-configuration annotation, and fields the API server defaults in its live template (which must not count
as a change). kubectl is a stand-in that records what it was asked."""

from __future__ import annotations

import copy
import json
import os
import subprocess

import pytest
import yaml

from charts.serving_spec import serving_spec_for
from charts.vllm_serving_chart import synthesize_manifests
from deployment_config import load_environment
from ops_cli.errors import ExitCode
from ops_cli.rollout import LAST_APPLIED, differences
from tests.conftest import PROJECT_DIR

NEW_IMAGE = "vllm/vllm-openai:kimi-k3-next"


class FakeKubectl:
    """``kubectl get <resource> vllm -n llm-serving -o json --ignore-not-found``: the object, or nothing."""

    def __init__(self, live: dict | None, daemon_set: dict | None = None) -> None:
        self.live = live
        self.daemon_set = daemon_set
        self.commands: list[list[str]] = []

    def __call__(self, command, **kwargs):
        self.commands.append(command)
        assert command[1] == "get" and "--ignore-not-found" in command, command
        found = self.daemon_set if command[2] == "daemonsets.apps" else self.live
        out = json.dumps(found) if found is not None else ""
        return subprocess.CompletedProcess(command, 0, out, "")


def _write_env(config_dir, name: str, *, nodes: int = 1, replicas: int | None = None, **model):
    document = yaml.safe_load((config_dir / "example.yaml").read_text())
    document["capacity"]["instance_count"] = nodes
    if replicas is not None:
        document["endpoint"] = {**(document.get("endpoint") or {}), "replicas": replicas}
    document["model"].update(model)
    (config_dir / f"{name}.yaml").write_text(yaml.safe_dump(document, sort_keys=False))
    return load_environment(config_dir, name)


def _manifests(env) -> list[dict]:
    """The serving chart's objects for ``env``: synthesized once per serving spec (cdk8s through jsii, about 0.14 s of
    CPU; these tests render 14 specs 34 times), a copy each time."""
    spec = serving_spec_for(env)
    key = repr(spec)  # every field of the spec (frozen dataclasses and pydantic sections)
    if key not in _SYNTHESIZED:
        _SYNTHESIZED[key] = synthesize_manifests(spec)
    return copy.deepcopy(_SYNTHESIZED[key])


_SYNTHESIZED: dict[str, list[dict]] = {}


def _workload(env) -> dict:
    (workload,) = [
        o
        for o in _manifests(env)
        if o["kind"] in ("Deployment", "LeaderWorkerSet") and o["metadata"]["name"] == "vllm"
    ]
    return workload


def _render(tmp_path, env) -> str:
    """The chart as cdk synth writes it (charts/manifest_files.py), newer than the environment file."""
    path = tmp_path / f"{env.name}-serving.yaml"
    path.write_text(yaml.safe_dump_all(_manifests(env), sort_keys=False))
    later = os.stat(env.source).st_mtime + 1
    os.utime(path, (later, later))
    return str(path)


def _applied(workload: dict) -> dict:
    """``workload`` as kubectl apply leaves it: the annotation holds what was applied, the API server fills defaults."""
    live = copy.deepcopy(workload)
    live["metadata"].setdefault("annotations", {})[LAST_APPLIED] = json.dumps(workload)
    pod = live["spec"]["template"]["spec"]
    pod["dnsPolicy"] = "ClusterFirst"
    pod["containers"][0]["terminationMessagePath"] = "/dev/termination-log"
    return live


@pytest.fixture
def rollout(run_with_kubectl, config_dir, tmp_path):
    """``rollout(deployed_env, next_env, *flags)``: llmops rollout for ``next_env``'s rendered chart against
    ``deployed_env``'s workload (None: nothing deployed); the result and the kubectl stand-in."""

    def run(deployed, next_env, *flags, live: dict | None = None):
        kubectl = FakeKubectl(
            live if live is not None else _applied(_workload(deployed)) if deployed else None
        )
        manifest = _render(tmp_path, next_env)
        result = run_with_kubectl(
            kubectl, "rollout", "--env", next_env.name, "--manifest", manifest, *flags
        )
        return result, kubectl

    return run


def _minutes(seconds: int) -> int:
    return -(-seconds // 60)


def test_a_new_image_on_one_replica_with_no_spare_node_is_refused_with_the_outage_length(
    rollout, config_dir
):
    # given one replica on the block's one node, deployed, and a new image to deploy
    deployed = _write_env(config_dir, "one")
    upgraded = _write_env(config_dir, "one", image=NEW_IMAGE)
    # when llmops rollout is asked before the deploy, without --yes
    result, kubectl = rollout(deployed, upgraded)
    # then it reads the Deployment from the cluster
    assert kubectl.commands[0][1:] == [
        "get",
        "deployments.apps",
        "vllm",
        "-n",
        "llm-serving",
        "-o",
        "json",
        "--ignore-not-found",
    ]
    # and refuses (exit 3), naming the change, the outage and its length: the old pod's stop (its grace period), then
    # the startup budget
    assert result.code == ExitCode.CONFIRMATION_REQUIRED
    budget = _minutes(upgraded.pod_startup_budget.probe_seconds)
    stop = _minutes(upgraded.endpoint.termination_grace_seconds)
    total = _minutes(
        upgraded.pod_startup_budget.probe_seconds + upgraded.endpoint.termination_grace_seconds
    )
    assert "template.spec.containers[vllm].image" in result.stdout
    assert (
        f"the endpoint is down for up to {total} min ({stop} min for the old pod to stop, then {budget} min, "
        "the startup budget)"
    ) in result.stdout
    assert "error: not confirmed: a deploy now means an outage" in result.stderr
    assert f"for up to {total} min per replica" in result.stderr
    assert "--yes" in result.stderr
    assert "one replica's nodes more (capacity.instance_count)" in result.stderr


def test_the_same_upgrade_with_yes_is_accepted_and_says_so_in_json(rollout, config_dir):
    deployed = _write_env(config_dir, "one")
    upgraded = _write_env(config_dir, "one", image=NEW_IMAGE)
    result, _ = rollout(deployed, upgraded, "--yes", "--json")
    assert result.code == ExitCode.OK, result.stderr
    report = result.json
    assert report["verdict"] == "outage"
    assert report["confirmation_required"] and report["confirmed"]
    assert report["serving_during_rollout"] == 0
    assert report["startup_budget_seconds"] == upgraded.pod_startup_budget.probe_seconds
    assert report["replacement_seconds"] == (
        report["startup_budget_seconds"] + upgraded.endpoint.termination_grace_seconds
    )
    assert report["strategy"] == {"max_surge": 0, "max_unavailable": 1}
    assert "template.spec.containers[vllm].image" in report["changes"]


def test_without_a_change_of_the_pod_template_nothing_is_asked(rollout, config_dir):
    # given the chart already applied (the live template carries the API server's defaults besides)
    env = _write_env(config_dir, "one")
    result, _ = rollout(env, env, "--json")
    # then the deploy replaces no pod: no --yes needed
    assert result.code == ExitCode.OK, result.stderr
    assert result.json["verdict"] == "unchanged"
    assert result.json["changes"] == [] and not result.json["rolls"]


def test_a_changed_extra_args_on_four_replicas_with_no_spare_node_means_n_minus_one(
    rollout, config_dir
):
    deployed = _write_env(config_dir, "four", nodes=4)
    changed = _write_env(config_dir, "four", nodes=4, extra_args=["--max-num-seqs", "32"])
    result, _ = rollout(deployed, changed)
    assert result.code == ExitCode.CONFIRMATION_REQUIRED
    assert "template.spec.containers[vllm].args" in result.stdout
    assert "3 of 4 replicas serve" in result.stdout
    assert "a deploy now means 3 of 4 replicas serving" in result.stderr
    assert "free a slot first (endpoint.replicas below the block's 4)" in result.stderr


def test_with_a_free_node_the_rollout_surges_and_needs_no_confirmation(rollout, config_dir):
    # given one replica on a block of two nodes
    deployed = _write_env(config_dir, "room", nodes=2, replicas=1)
    upgraded = _write_env(config_dir, "room", nodes=2, replicas=1, image=NEW_IMAGE)
    result, _ = rollout(deployed, upgraded, "--json")
    # then the new replica starts on the free node and is ready before the old one stops
    assert result.code == ExitCode.OK, result.stderr
    assert result.json["verdict"] == "surge"
    assert result.json["strategy"] == {"max_surge": 1, "max_unavailable": 0}
    assert result.json["serving_during_rollout"] == 1
    assert result.json["summary"].startswith("the deploy replaces the serving pods; surge:")


def test_a_first_deploy_has_nothing_to_interrupt(rollout, config_dir):
    env = _write_env(config_dir, "one")
    result, _ = rollout(None, env)
    assert result.code == ExitCode.OK, result.stderr
    assert "nothing serves to interrupt" in result.stdout


def test_a_workload_not_applied_by_kubectl_apply_counts_as_changed(rollout, config_dir):
    env = _write_env(config_dir, "one")
    live = _workload(env)  # no last-applied annotation
    result, _ = rollout(env, env, live=live)
    assert result.code == ExitCode.CONFIRMATION_REQUIRED
    assert "changes           unknown" in result.stdout


def test_a_chart_rendered_before_the_environment_file_changed_is_refused(
    run_with_kubectl, config_dir, tmp_path
):
    env = _write_env(config_dir, "one")
    manifest = _render(tmp_path, env)
    earlier = os.stat(env.source).st_mtime - 10
    os.utime(manifest, (earlier, earlier))
    kubectl = FakeKubectl(None)
    result = run_with_kubectl(kubectl, "rollout", "--env", "one", "--manifest", manifest)
    assert result.code == ExitCode.USAGE
    assert "is older than" in result.stderr and "npx cdk synth -c env=one" in result.stderr
    assert kubectl.commands == []  # refused before kubectl is asked


def test_hyperpod_is_refused_with_the_reason(run_with_kubectl):
    kubectl = FakeKubectl(None)
    result = run_with_kubectl(kubectl, "rollout", "--env", "example-hyperpod")
    assert result.code == ExitCode.USAGE
    assert "no rollout strategy" in result.stderr
    assert kubectl.commands == []


def test_differences_name_list_items_by_name_and_see_an_added_variable():
    old = {"containers": [{"name": "vllm", "env": [{"name": "A", "value": "1"}]}]}
    new = {
        "containers": [
            {"name": "vllm", "env": [{"name": "B", "value": "2"}, {"name": "A", "value": "1"}]}
        ]
    }
    assert differences(old, new) == ["containers[vllm].env[B]"]
    assert differences(new, new) == []


def test_the_session_the_upgrade_page_shows_is_what_llmops_says(rollout, config_dir):
    page = (PROJECT_DIR / "docs" / "deploy.md").read_text(encoding="utf-8")
    start = page.index("$ bin/llmops rollout --env prod\n")
    shown = page[start : page.index("(exit 3)", start)].splitlines()[1:]
    deployed = _write_env(config_dir, "prod")
    upgraded = _write_env(config_dir, "prod", image=NEW_IMAGE)
    result, _ = rollout(deployed, upgraded)
    assert result.code == ExitCode.CONFIRMATION_REQUIRED
    assert shown == (result.stdout + result.stderr).splitlines()


LIVE_SHA = "0123456789abcdef0123456789abcdef01234567"
NEXT_SHA = "fedcba9876543210fedcba9876543210fedcba98"
S3_WEIGHTS = {"weight_source": "s3", "s3_uri": "s3://weights-bucket/kimi-k3/"}


def _prestage(revision: str, *, nodes: int, ready: int) -> dict:
    """The weights-prestage DaemonSet as kubectl prints it: its revision label and its status."""
    return {
        "kind": "DaemonSet",
        "metadata": {
            "name": "weights-prestage",
            "generation": 2,
            "labels": {"llm-serving/staged-revision": revision},
        },
        "status": {
            "observedGeneration": 2,
            "desiredNumberScheduled": nodes,
            "numberReady": ready,
            "updatedNumberScheduled": ready,
        },
    }


def _staged_rollout(run_with_kubectl, config_dir, tmp_path, daemon_set):
    # given revision LIVE serving with NEXT pre-staged, and the environment then switched to NEXT
    deployed = _write_env(
        config_dir, "s3", hugging_face_revision=LIVE_SHA, next_revision=NEXT_SHA, **S3_WEIGHTS
    )
    live = _applied(_workload(deployed))
    upgraded = _write_env(config_dir, "s3", hugging_face_revision=NEXT_SHA, **S3_WEIGHTS)
    kubectl = FakeKubectl(live, daemon_set)
    manifest = _render(tmp_path, upgraded)
    result = run_with_kubectl(
        kubectl, "rollout", "--env", "s3", "--manifest", manifest, "--yes", "--json"
    )
    return result, kubectl


def test_a_rollout_to_the_revision_staged_on_every_node_says_load_only(
    run_with_kubectl, config_dir, tmp_path
):
    daemon_set = _prestage(NEXT_SHA, nodes=1, ready=1)
    result, kubectl = _staged_rollout(run_with_kubectl, config_dir, tmp_path, daemon_set)
    # then the DaemonSet is read after the workload, and the rollout says it costs a load, not a copy
    assert result.code == ExitCode.OK, result.stderr
    assert kubectl.commands[1][1:4] == ["get", "daemonsets.apps", "weights-prestage"]
    report = json.loads(result.stdout)
    assert report["weights"].startswith(
        f"load only: revision {NEXT_SHA} is staged on every GPU node"
    )
    assert "load only" in report["summary"]


def test_a_rollout_while_the_revision_is_still_staging_says_the_replica_copies(
    run_with_kubectl, config_dir, tmp_path
):
    daemon_set = _prestage(NEXT_SHA, nodes=2, ready=1)
    result, _ = _staged_rollout(run_with_kubectl, config_dir, tmp_path, daemon_set)
    report = json.loads(result.stdout)
    assert "staged on 1 of 2 GPU nodes" in report["weights"]
    assert not report["weights"].startswith("load only")


def test_without_a_staged_copy_of_the_revision_nothing_is_said_of_the_weights(
    run_with_kubectl, config_dir, tmp_path
):
    result, _ = _staged_rollout(
        run_with_kubectl, config_dir, tmp_path, _prestage("a" * 40, nodes=1, ready=1)
    )
    assert json.loads(result.stdout)["weights"] is None
