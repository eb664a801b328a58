"""``llmops rollout --canary`` on its Kubernetes side and its refusals: the canary Deployment made from the rendered
chart, the promotion's strategy, the readiness and rollout rules read from kubectl's JSON, the decisions' bounds with an
injected clock, and the cases without a canary to run. The canary against the real router: tests/charts/test_canary.py.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from charts.vllm_router import worker_selector
from ops_cli.canary import ROLLED_BACK, STALLED, CanaryTimes, run_canary
from ops_cli.canary_kubernetes import (
    canary_manifest,
    promotion_manifest,
    ready_pod,
    rolled,
    stuck_reason,
)
from ops_cli.errors import ExitCode
from tests.ops_cli.openai_server import Behaviour, openai_server
from tests.ops_cli.test_rollout import (  # noqa: F401 (rollout: the fixture)
    NEW_IMAGE,
    _applied,
    _render,
    _workload,
    _write_env,
    rollout,
)

KEY = "k" * 48


def _selects(selector: dict, labels: dict) -> bool:
    return all(labels.get(k) == v for k, v in selector.items())


def test_the_canary_joins_the_routers_pool_and_neither_deployment_selects_the_others_pods(
    config_dir,
):
    from charts.serving_spec import serving_spec_for

    # given two replicas behind the router on a block of three nodes, and a new image rendered
    env = _write_env(config_dir, "three", nodes=3, replicas=2, image=NEW_IMAGE)
    rendered = _workload(env)
    canary = canary_manifest(rendered)
    labels = canary["spec"]["template"]["metadata"]["labels"]
    # then the canary is one replica of the new template, in the router's pool (its --selector), tracked as a canary
    assert canary["metadata"]["name"] == "vllm-canary" and canary["spec"]["replicas"] == 1
    assert canary["spec"]["template"]["spec"] == rendered["spec"]["template"]["spec"]
    assert _selects(worker_selector(serving_spec_for(env)), labels) and labels["track"] == "canary"
    # and the canary selects its own pod, the serving Deployment does not select it
    assert _selects(canary["spec"]["selector"]["matchLabels"], labels)
    assert not _selects(rendered["spec"]["selector"]["matchLabels"], labels)
    assert not _selects(
        canary["spec"]["selector"]["matchLabels"],
        rendered["spec"]["template"]["metadata"]["labels"],
    )


def test_the_promotion_rolls_one_replica_at_a_time_without_a_surge_and_keeps_the_template(
    config_dir,
):
    rendered = _workload(_write_env(config_dir, "three", nodes=3, replicas=2, image=NEW_IMAGE))
    promoted = promotion_manifest(rendered)
    # the canary holds the free slot a surge would take: one old replica at a time makes way
    assert promoted["spec"]["strategy"]["rollingUpdate"] == {"maxSurge": 0, "maxUnavailable": 1}
    assert promoted["spec"]["template"] == rendered["spec"]["template"]


def _pod(name: str, phase: str, ready: bool, waiting: str | None = None) -> dict:
    return {
        "metadata": {"name": name},
        "status": {
            "phase": phase,
            "conditions": [{"type": "Ready", "status": "True" if ready else "False"}],
            "containerStatuses": [
                {"name": "vllm", "state": {"waiting": {"reason": waiting}} if waiting else {}}
            ],
        },
    }


def test_kubectls_json_says_when_the_canary_is_ready_stuck_and_when_the_rollout_is_done():
    assert ready_pod({"items": [_pod("a", "Pending", False)]}) is None
    assert ready_pod({"items": [_pod("a", "Running", False), _pod("b", "Running", True)]}) == "b"
    assert stuck_reason({"items": [_pod("a", "Pending", False)]}) is None
    assert stuck_reason({"items": [_pod("a", "Pending", False, "ImagePullBackOff")]}) == (
        "pod a: container vllm ImagePullBackOff"
    )
    done = {
        "metadata": {"generation": 3},
        "spec": {"replicas": 2},
        "status": {
            "observedGeneration": 3,
            "replicas": 2,
            "updatedReplicas": 2,
            "availableReplicas": 2,
        },
    }
    assert rolled(done)
    assert not rolled({**done, "status": {**done["status"], "observedGeneration": 2}})
    assert not rolled(
        {**done, "status": {**done["status"], "replicas": 3}}
    )  # an old pod still terminating
    assert not rolled({**done, "status": {**done["status"], "availableReplicas": 1}})


class FakeCluster:
    def __init__(
        self, *, ready_after: float | None = None, stuck: str | None = None, rolls: bool = True
    ) -> None:
        self.now = 0.0
        self.ready_after, self.stuck, self.rolls = ready_after, stuck, rolls
        self.calls: list[str] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds

    def start_canary(self) -> None:
        self.calls.append("start")

    def canary_url(self) -> str | None:
        ready = self.ready_after is not None and self.now >= self.ready_after
        return "http://canary" if ready else None

    def canary_failure(self) -> str | None:
        return self.stuck

    def promote(self) -> None:
        self.calls.append("promote")

    def promoted(self) -> bool:
        return self.rolls

    def remove_canary(self) -> None:
        self.calls.append("remove")


TIMES = CanaryTimes(ready=600, promotion=1200, poll=5)


def _run(cluster: FakeCluster, probe=lambda url: []):  # noqa: ANN001
    return run_canary(cluster, probe, TIMES, clock=cluster.clock, sleep=cluster.sleep)


def test_a_canary_not_ready_within_the_startup_budget_is_rolled_back_at_the_budget():
    cluster = FakeCluster(ready_after=None)
    outcome = _run(cluster)
    assert outcome.verdict == ROLLED_BACK and "not ready within 600 s" in outcome.reason
    assert cluster.calls == ["start", "remove"] and cluster.now == 600


def test_a_canary_that_cannot_start_is_rolled_back_at_once_with_the_kubelets_reason():
    cluster = FakeCluster(stuck="pod vllm-canary-1: container vllm CrashLoopBackOff")
    outcome = _run(cluster)
    assert outcome.verdict == ROLLED_BACK and "CrashLoopBackOff" in outcome.reason
    assert cluster.calls == ["start", "remove"] and cluster.now == 0


def test_a_probe_that_raises_still_removes_the_canary():
    cluster = FakeCluster(ready_after=0)

    def probe(url: str) -> list[str]:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _run(cluster, probe)
    assert cluster.calls == ["start", "remove"]


def test_a_promotion_that_does_not_finish_stalls_with_the_canary_still_serving():
    cluster = FakeCluster(ready_after=10, rolls=False)
    outcome = _run(cluster)
    assert outcome.verdict == STALLED and "did not finish rolling within 1200 s" in outcome.reason
    assert cluster.calls == ["start", "promote"]


def test_a_canary_needs_a_free_slot_in_the_block(rollout, config_dir):  # noqa: F811
    # given two replicas behind the router filling a block of two nodes, and a new image
    deployed = _write_env(config_dir, "two", nodes=2, replicas=2)
    upgraded = _write_env(config_dir, "two", nodes=2, replicas=2, image=NEW_IMAGE)
    result, kubectl = rollout(deployed, upgraded, "--canary")
    # then it is refused (exit 2) before anything is applied, naming the slots and the fix
    assert result.code == ExitCode.USAGE, result.stderr
    assert "no free slot in the block for the canary: 2 replicas fill its 2" in result.stderr
    assert "lower endpoint.replicas by one" in result.stderr
    assert [c[1] for c in kubectl.commands] == ["get"]


def test_a_canary_needs_the_router(rollout, config_dir):  # noqa: F811
    deployed = _write_env(config_dir, "room", nodes=2, replicas=1)
    upgraded = _write_env(config_dir, "room", nodes=2, replicas=1, image=NEW_IMAGE)
    result, _ = rollout(deployed, upgraded, "--canary")
    assert result.code == ExitCode.USAGE
    assert "a canary needs the router in front of two or more single-node replicas" in result.stderr


def test_without_a_change_there_is_no_canary_to_run(rollout, config_dir):  # noqa: F811
    env = _write_env(config_dir, "three", nodes=3, replicas=2)
    result, _ = rollout(env, env, "--canary")
    assert result.code == ExitCode.USAGE
    assert "no canary to run: the pod template is the one applied" in result.stderr


class CanaryKubectl:
    """kubectl as the canary calls it (subprocess.run's signature): the deployed Deployment, ``apply -f -`` recorded,
    the canary's pod Ready, the serving Deployment rolled, the canary deleted."""

    def __init__(self, live: dict) -> None:
        self.live = live
        self.applied: list[dict] = []
        self.commands: list[list[str]] = []

    def __call__(self, command, **kwargs):
        self.commands.append(command)
        verb = command[1]
        answer = ""
        if verb == "get" and "--ignore-not-found" in command:
            answer = json.dumps(self.live)
        elif verb == "apply":
            self.applied.append(json.loads(kwargs["input"]))
        elif command[1:3] == ["get", "pods"]:
            answer = json.dumps({"items": [_pod("vllm-canary-abc", "Running", True)]})
        elif command[1:3] == ["get", "deployment"]:
            status = {
                "observedGeneration": 2,
                "replicas": 2,
                "updatedReplicas": 2,
                "availableReplicas": 2,
            }
            answer = json.dumps(
                {"metadata": {"generation": 2}, "spec": {"replicas": 2}, "status": status}
            )
        else:
            assert command[1:4] == ["delete", "deployment", "vllm-canary"], command
        return subprocess.CompletedProcess(command, 0, answer, "")


def _port_forward_kubectl(tmp_path, port: int) -> str:
    """A kubectl whose ``port-forward`` says what kubectl says once it listens, for a stand-in on ``port``."""
    script = tmp_path / "kubectl"
    script.write_text(
        f"#!{sys.executable}\nimport sys, time\nassert sys.argv[1:3] == ['port-forward', 'pod/vllm-canary-abc']\n"
        f"print('Forwarding from 127.0.0.1:{port} -> 8000', flush=True)\ntime.sleep(60)\n"
    )
    script.chmod(0o755)
    return str(script)


@pytest.mark.parametrize("answer", ["102947", "102948"])
def test_llmops_rollout_canary_probes_the_canary_pod_alone_then_promotes_or_rolls_back(
    answer, run_with_kubectl, aws, config_dir, tmp_path
):
    from deployment_config.model_location import model_path

    # given two replicas behind the router on three nodes, deployed, and a new image rendered
    deployed = _write_env(config_dir, "three", nodes=3, replicas=2)
    upgraded = _write_env(config_dir, "three", nodes=3, replicas=2, image=NEW_IMAGE)
    kubectl = CanaryKubectl(_applied(_workload(deployed)))
    # and the canary pod (a stand-in behind kubectl port-forward) answering the probe right, or wrongly
    pod = Behaviour(
        model=upgraded.model.served_name, root=model_path(upgraded), api_key=KEY, answer=answer
    )
    passes = answer == "102947"
    if not passes:
        aws.stub("cloudwatch").add_response(
            "put_metric_data",
            {},
            {
                "Namespace": "LLMServing",
                "MetricData": [
                    {
                        "MetricName": "CanaryRollbacks",
                        "Dimensions": [{"Name": "ClusterName", "Value": upgraded.cluster_name}],
                        "Value": 1,
                        "Unit": "Count",
                    }
                ],
            },
        )
    with openai_server(pod) as url:
        port = int(url.rsplit(":", 1)[1])
        argv = [
            "--manifest",
            _render(tmp_path, upgraded),
            "--kubectl",
            _port_forward_kubectl(tmp_path, port),
        ]
        result = run_with_kubectl(
            kubectl, "rollout", "--env", "three", *argv, "--canary", "--api-key", KEY, "--json"
        )
    canary = result.json["canary"]
    # then the canary Deployment was applied first, and the probe reached the canary pod with the key
    assert kubectl.applied[0]["metadata"]["name"] == "vllm-canary"
    assert ("POST", "/v1/chat/completions", f"Bearer {KEY}") in pod.seen
    if passes:
        # then the serving Deployment rolled without a surge, the canary was deleted, exit 0
        assert result.code == ExitCode.OK, result.stderr
        assert canary["verdict"] == "promoted"
        assert kubectl.applied[1]["spec"]["strategy"]["rollingUpdate"] == {
            "maxSurge": 0,
            "maxUnavailable": 1,
        }
    else:
        # then nothing else was applied, the canary was deleted, the reason said, the metric put; exit 1
        assert result.code == ExitCode.CHECK_FAILED
        assert canary["verdict"] == "rolled back" and "102948" in canary["reason"]
        assert len(kubectl.applied) == 1
        assert "error: canary rolled back: the canary failed the correctness probe" in result.stderr
    assert kubectl.commands[-1][1:4] == ["delete", "deployment", "vllm-canary"]
    assert KEY not in result.stdout + result.stderr
