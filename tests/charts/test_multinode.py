"""A model that fits no single node: the layout the sizing chooses, its message, and the LeaderWorkerSet that serves it.

The worked example is tests/configs/multi-node.yaml: Kimi-K3 (1,420 GB) on 2 x p6-b200.48xlarge (8 x 192 GB each).
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import json
from functools import cache
from pathlib import Path

import jsonschema
import kubernetes_validate
import pytest
import yaml

from charts.key_proxy import CONTAINER as KEY_PROXY
from charts.serving_spec import serving_spec_for
from charts.vllm_leader_worker_set import ROLE_LABEL, SET_NAME_LABEL
from charts.vllm_serving_chart import synthesize_manifests
from deployment_config import ConfigError, load_environment
from deployment_config.catalog import GPU_INSTANCE_TYPES, MODEL_PRESETS
from deployment_config.loader import parse_environment
from deployment_config.sizing import MAX_LAYOUT_NODES, check_model_fits, fit_over, layout_for
from deployment_config.vllm_args import extra_args_problems
from tests.charts.test_serving_chart import KEY_PROXY_CAPABILITIES
from tests.crd_schema import read_crd, strict_schema

TEST_CONFIGS = Path(__file__).resolve().parents[1] / "configs"
LWS_CRD = (
    Path(__file__).resolve().parents[1]
    / "data"
    / "lws"
    / "leaderworkerset.x-k8s.io_leaderworkersets.yaml"
)
KIMI = MODEL_PRESETS["kimi-k3"]


# --- the layouts ------------------------------------------------------------------------------------------------------

#: Kimi-K3 on each type of the catalog: the fewest nodes that hold its weights and the KV-cache reserve.
KIMI_NODES = {
    "p6-b300.48xlarge": 1,
    "p6-b200.48xlarge": 2,
    "p5en.48xlarge": 2,
    "p5e.48xlarge": 2,
    "p5.48xlarge": 3,
}


@pytest.mark.parametrize("name", sorted(GPU_INSTANCE_TYPES))
def test_the_layout_is_the_fewest_nodes_with_tensor_parallel_in_a_node_and_pipeline_across(name):
    instance_type = GPU_INSTANCE_TYPES[name]
    # given Kimi-K3 and one instance type of the catalog, when the sizing chooses a layout
    layout = layout_for(KIMI.weight_size_gb, instance_type)
    # then it is the fewest nodes the model fits on, all GPUs of a node in tensor parallel, one pipeline stage a node
    assert layout.nodes == KIMI_NODES[name]
    assert layout.tensor_parallel_size == instance_type.gpu_count
    assert layout.pipeline_parallel_size == layout.nodes
    assert fit_over(KIMI.weight_size_gb, instance_type, layout.nodes).fits
    assert (
        not fit_over(KIMI.weight_size_gb, instance_type, layout.nodes - 1).fits
        if layout.nodes > 1
        else True
    )


def test_a_model_beyond_the_largest_layout_gets_none():
    assert layout_for(100_000, GPU_INSTANCE_TYPES["p5.48xlarge"]) is None
    assert MAX_LAYOUT_NODES == 4


def _example(instance_type: str, nodes: int, replicas: int | None = None):
    document = yaml.safe_load((TEST_CONFIGS / "multi-node.yaml").read_text())
    document["capacity"].update(instance_type=instance_type, instance_count=nodes)
    if replicas is not None:
        document["endpoint"]["replicas"] = replicas
    return parse_environment(document, name="sizing")


@pytest.mark.parametrize("nodes", [1, 3])
def test_a_model_that_fits_no_single_node_gets_the_multi_node_layout_proposed(nodes):
    # given Kimi-K3 on p6-b200 with a reservation that is not a multiple of the 2 nodes it needs
    with pytest.raises(ConfigError) as raised:
        _example("p6-b200.48xlarge", nodes)
    (issue,) = raised.value.issues
    # then the message proposes the two-node layout (and the type it fits on alone), instead of refusing outright
    assert issue.field == "capacity.instance_type"
    assert "1420 GB" in issue.problem
    assert "set capacity.instance_count to 2" in issue.fix
    assert "tensor parallel 8 within each node, pipeline parallel 2 across the nodes" in issue.fix
    assert "p6-b300.48xlarge" in issue.fix


@pytest.mark.parametrize(("nodes", "replicas", "expected"), [(2, None, 1), (4, None, 2), (4, 1, 1)])
def test_a_reservation_of_whole_groups_is_accepted_and_replicas_count_model_instances(
    nodes, replicas, expected
):
    env = _example("p6-b200.48xlarge", nodes, replicas)
    assert env.layout.nodes == 2
    assert env.replicas == expected


def test_more_replicas_than_groups_of_nodes_is_refused():
    with pytest.raises(ConfigError) as raised:
        _example("p6-b200.48xlarge", 2, replicas=2)
    (issue,) = raised.value.issues
    assert issue.field == "endpoint.replicas"
    assert "2 replicas need 4 GPU nodes, 2 each" in issue.problem


def test_a_model_that_fits_one_node_keeps_the_single_node_layout(default_env):
    assert default_env.layout.nodes == 1
    assert default_env.replicas == default_env.capacity.instance_count


def test_hyperpod_keeps_one_node_per_instance():
    # node_count None is the HyperPod path: the old refusal, no multi-node proposal
    with pytest.raises(ConfigError) as raised:
        check_model_fits(
            model_id=KIMI.hugging_face_id,
            weights_gb=KIMI.weight_size_gb,
            instance_type=GPU_INSTANCE_TYPES["p6-b200.48xlarge"],
            tensor_parallel_size=8,
            field="hyperpod.instance_type",
            type_prefix="ml.",
        )
    assert "instance_count" not in raised.value.fix
    assert "ml.p6-b300.48xlarge" in raised.value.fix


# --- the LeaderWorkerSet ----------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def multi_env():
    return load_environment(TEST_CONFIGS, "multi-node")


@pytest.fixture(scope="module")
def manifests(multi_env) -> list[dict]:
    return synthesize_manifests(serving_spec_for(multi_env))


def _kind(manifests: list[dict], kind: str) -> dict:
    (obj,) = [m for m in manifests if m["kind"] == kind]
    return obj


@pytest.fixture(scope="module")
def lws(manifests) -> dict:
    return _kind(manifests, "LeaderWorkerSet")


def _vllm(template: dict) -> dict:
    (container,) = [c for c in template["spec"]["containers"] if c["name"] == "vllm"]
    return container


def test_the_two_node_example_is_one_group_of_two_pods_and_no_deployment(manifests, lws):
    assert not [m for m in manifests if m["kind"] == "Deployment"]
    assert lws["apiVersion"] == "leaderworkerset.x-k8s.io/v1"
    assert lws["spec"]["replicas"] == 1
    assert lws["spec"]["leaderWorkerTemplate"]["size"] == 2
    # a dead peer cannot be replaced inside a running vLLM instance: the whole group restarts
    assert lws["spec"]["leaderWorkerTemplate"]["restartPolicy"] == "RecreateGroupOnPodRestart"


@cache
def _lws_schema() -> dict:
    crd = read_crd(LWS_CRD)
    (version,) = [v for v in crd["spec"]["versions"] if v["name"] == "v1"]
    assert version["served"] and version["storage"]
    return strict_schema(version["schema"]["openAPIV3Schema"])


def test_the_leader_worker_set_validates_strictly_against_the_crd_of_the_pinned_chart(lws):
    jsonschema.Draft7Validator(_lws_schema()).validate(lws)


def test_strict_crd_validation_catches_a_misspelled_field(lws):
    broken = copy.deepcopy(lws)
    broken["spec"]["leaderWorkerTemplate"]["sizes"] = 2
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft7Validator(_lws_schema()).validate(broken)


def test_the_sets_own_fields_go_through_the_typed_bindings_of_the_crd():
    from charts.imports import leaderworkerset as bindings

    # a group template without its required worker template, and a restart policy the CRD does not list, fail when
    # the chart is built (charts/vllm_leader_worker_set.py writes these fields through the bindings)
    with pytest.raises(TypeError, match="worker_template"):
        bindings.LeaderWorkerSetSpecLeaderWorkerTemplate(size=2)
    with pytest.raises(AttributeError, match="RECREATE_GROUP_ON_NODE_FAILURE"):
        bindings.LeaderWorkerSetSpecLeaderWorkerTemplateRestartPolicy.RECREATE_GROUP_ON_NODE_FAILURE  # noqa: B018
    assert bindings.LeaderWorkerSet.GVK.api_version == "leaderworkerset.x-k8s.io/v1"


def test_the_pod_specs_keep_every_field_of_the_deployments_rendering(lws):
    # the generated toJson drops what is not one of its own types (a probe's port, quantities): the pod specs must not
    # go through it
    leader = lws["spec"]["leaderWorkerTemplate"]["leaderTemplate"]["spec"]
    containers = {c["name"]: c for c in leader["containers"]}
    assert set(containers) == {"vllm", KEY_PROXY}
    vllm, proxy = containers["vllm"], containers[KEY_PROXY]
    assert vllm["startupProbe"]["httpGet"]["port"] == 8000
    # the key check's sidecar, patched in, keeps its probe port and quantities too
    assert proxy["readinessProbe"]["tcpSocket"]["port"] == 8000
    assert proxy["resources"]["requests"] == {"cpu": "500m", "memory": "128Mi"}
    assert (
        vllm["resources"]["limits"]["nvidia.com/gpu"] == 8
        and vllm["resources"]["requests"]["cpu"] == "96"
    )
    assert {v["name"]: v for v in leader["volumes"]}["dshm"]["emptyDir"]["sizeLimit"]
    assert leader["setHostnameAsFQDN"] is False


@pytest.mark.parametrize("role", ["leaderTemplate", "workerTemplate"])
def test_each_pod_template_validates_strictly_against_kubernetes(lws, multi_env, role):
    template = lws["spec"]["leaderWorkerTemplate"][role]
    pod = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "vllm-0", **template["metadata"]},
        "spec": template["spec"],
    }
    kubernetes_validate.validate(pod, multi_env.kubernetes_version, strict=True)


def test_every_other_object_validates_strictly_against_kubernetes(manifests, multi_env):
    for manifest in manifests:
        if manifest["kind"] in ("LeaderWorkerSet", "SecretProviderClass"):
            continue
        kubernetes_validate.validate(manifest, multi_env.kubernetes_version, strict=True)


def _parallel_parser() -> argparse.ArgumentParser:
    """A mirror of the vLLM 0.33.0 options a multi-node launch depends on (vllm/engine/arg_utils.py
    EngineArgs.add_cli_args: --tensor-parallel-size/-tp, --pipeline-parallel-size/-pp, --master-addr, --master-port,
    --nnodes/-n, --node-rank/-r; vllm/entrypoints/common/cli_args.py: --headless, store_true)."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--tensor-parallel-size", "-tp", type=int, default=1)
    parser.add_argument("--pipeline-parallel-size", "-pp", type=int, default=1)
    parser.add_argument("--master-addr", default="127.0.0.1")
    parser.add_argument("--master-port", type=int, default=29501)
    parser.add_argument("--nnodes", "-n", type=int, default=1)
    parser.add_argument("--node-rank", "-r", type=int, default=0)
    parser.add_argument("--headless", action="store_true")
    parser.add_argument("--model")
    return parser


def _launch(args: list[str], worker_index: int) -> argparse.Namespace:
    """What vLLM reads from ``args`` after the kubelet has expanded the variables the LWS controller sets."""
    expanded = [
        a.replace("$(LWS_LEADER_ADDRESS)", "vllm-0.vllm.llm-serving").replace(
            "$(LWS_WORKER_INDEX)", str(worker_index)
        )
        for a in args
    ]
    parsed, _ = _parallel_parser().parse_known_args(expanded)
    # vllm/engine/arg_utils.py create_engine_config: nnodes must divide the world size, and 0 <= node_rank < nnodes
    world_size = parsed.tensor_parallel_size * parsed.pipeline_parallel_size
    assert world_size % parsed.nnodes == 0
    assert 0 <= parsed.node_rank < parsed.nnodes
    return parsed


def test_the_leader_serves_the_api_as_node_rank_0_of_a_two_stage_pipeline(lws):
    leader = _launch(_vllm(lws["spec"]["leaderWorkerTemplate"]["leaderTemplate"])["args"], 0)
    assert (leader.tensor_parallel_size, leader.pipeline_parallel_size) == (8, 2)
    assert (leader.nnodes, leader.node_rank, leader.headless) == (2, 0, False)
    assert leader.master_addr == "vllm-0.vllm.llm-serving"
    assert leader.model == "moonshotai/Kimi-K3"


def test_the_worker_runs_headless_with_its_rank_and_joins_the_leader(lws):
    args = _vllm(lws["spec"]["leaderWorkerTemplate"]["workerTemplate"])["args"]
    assert "$(LWS_WORKER_INDEX)" in args and "$(LWS_LEADER_ADDRESS)" in args
    worker = _launch(args, 1)
    assert (worker.nnodes, worker.node_rank, worker.headless) == (2, 1, True)
    assert (worker.tensor_parallel_size, worker.pipeline_parallel_size) == (8, 2)
    assert worker.master_addr == "vllm-0.vllm.llm-serving"


def test_the_derived_multi_node_options_stay_refused_in_extra_args():
    # the project derives them; a user who sets them would split the layout the sizing counted on
    for option in (
        ["--nnodes", "2"],
        ["--node-rank", "1"],
        ["--master-addr", "x"],
        ["-pp", "2"],
        ["--headless"],
    ):
        assert extra_args_problems(option, gpu_memory_utilization_min=0.9), option


def test_leader_and_worker_share_every_engine_argument(lws):
    templates = lws["spec"]["leaderWorkerTemplate"]
    leader, worker = (
        _vllm(templates["leaderTemplate"])["args"],
        _vllm(templates["workerTemplate"])["args"],
    )
    assert leader[: leader.index("--nnodes")] == worker[: worker.index("--nnodes")]


@pytest.mark.parametrize("role", ["leaderTemplate", "workerTemplate"])
def test_every_pod_takes_all_gpus_and_all_efa_interfaces_of_its_node(lws, multi_env, role):
    container = _vllm(lws["spec"]["leaderWorkerTemplate"][role])
    instance_type = multi_env.gpu_instance_type
    for kind in ("requests", "limits"):
        assert container["resources"][kind]["nvidia.com/gpu"] == instance_type.gpu_count == 8
        assert (
            container["resources"][kind]["vpc.amazonaws.com/efa"]
            == instance_type.efa_interfaces
            == 8
        )
    env = {e["name"]: e.get("value") for e in container["env"]}
    assert env["FI_PROVIDER"] == "efa"
    assert env["FI_EFA_USE_DEVICE_RDMA"] == "1"
    assert env["FI_EFA_FORK_SAFE"] == "1"


@pytest.mark.parametrize("role", ["leaderTemplate", "workerTemplate"])
def test_the_vllm_container_may_pin_memory_for_efa_and_nothing_else_comes_back(lws, role):
    # given pods that request EFA devices: EFA registers (pins) the memory it sends from, which fails with libfabric's
    # "Cannot allocate memory" under a low locked-memory limit (awslabs/awsome-distributed-ai#647)
    pod = lws["spec"]["leaderWorkerTemplate"][role]["spec"]
    # then vLLM's container gets IPC_LOCK, which lets it pin beyond the limit, and every other capability stays dropped
    assert _vllm(lws["spec"]["leaderWorkerTemplate"][role])["securityContext"]["capabilities"] == {
        "drop": ["ALL"],
        "add": ["IPC_LOCK"],
    }
    # and the containers that do not talk over EFA get nothing back; the leader's key check keeps only the capability
    # its image's binary needs in the bounding set to be exec'd at all (charts/key_proxy.py)
    for container in pod["containers"] + pod.get("initContainers", []):
        if container["name"] == KEY_PROXY:
            assert role == "leaderTemplate"
            assert container["securityContext"]["capabilities"] == KEY_PROXY_CAPABILITIES
        elif container["name"] != "vllm":
            assert container["securityContext"]["capabilities"] == {"drop": ["ALL"]}


def test_only_the_leader_is_probed_on_the_api_port(lws):
    templates = lws["spec"]["leaderWorkerTemplate"]
    leader, worker = _vllm(templates["leaderTemplate"]), _vllm(templates["workerTemplate"])
    assert leader["startupProbe"]["httpGet"]["path"] == "/health"
    assert "startupProbe" not in worker and "readinessProbe" not in worker and "ports" not in worker


def test_the_service_selects_the_leaders_only(manifests):
    service = _kind(manifests, "Service")
    assert service["spec"]["selector"] == {SET_NAME_LABEL: "vllm", ROLE_LABEL: "leader"}
    assert service["spec"]["type"] == "LoadBalancer"
    leader_labels = _kind(manifests, "LeaderWorkerSet")["spec"]["leaderWorkerTemplate"][
        "leaderTemplate"
    ]["metadata"]
    assert leader_labels["labels"][ROLE_LABEL] == "leader"


def test_the_group_may_talk_to_itself_on_every_port_and_the_vpc_reaches_the_api_port(
    manifests, multi_env
):
    policy = _kind(manifests, "NetworkPolicy")["spec"]
    assert policy["podSelector"] == {"matchLabels": {SET_NAME_LABEL: "vllm"}}
    api, group = policy["ingress"]
    assert api["from"] == [{"ipBlock": {"cidr": multi_env.vpc_cidr}}]
    assert api["ports"] == [{"port": 8000, "protocol": "TCP"}]
    assert group == {"from": [{"podSelector": {"matchLabels": {SET_NAME_LABEL: "vllm"}}}]}


def test_the_single_node_default_is_unchanged(default_env):
    # given the default example (Kimi-K3 on one p6-b300): a Deployment, no EFA, no multi-node option or variable
    manifests = synthesize_manifests(serving_spec_for(default_env))
    assert not [m for m in manifests if m["kind"] == "LeaderWorkerSet"]
    deployment = _kind(manifests, "Deployment")
    container = _vllm(deployment["spec"]["template"])
    assert "vpc.amazonaws.com/efa" not in container["resources"]["requests"]
    assert not {
        "--nnodes",
        "--node-rank",
        "--master-addr",
        "--headless",
        "--pipeline-parallel-size",
    } & set(container["args"])
    assert not [e for e in container["env"] if e["name"].startswith("FI_")]


# --- the stacks: the controller as code, cfn-lint and cdk-nag ---------------------------------------------------------


@pytest.fixture(scope="module")
def multi_node_assembly(multi_env, tmp_path_factory):
    """The example's stacks, synthesized once through the app's own cdk-nag checks (synthesis raises on a finding)."""
    from app import build

    app, _ = build(
        [multi_env], outdir=str(tmp_path_factory.mktemp("multi-node.out")), inspect_only=True
    )
    return app.synth()


def test_the_serving_stack_installs_the_pinned_lws_chart_before_the_workload(multi_node_assembly):
    from cdk_constructs.lws_controller import LWS_CHART_REPOSITORY, LWS_CHART_VERSION

    template = multi_node_assembly.get_stack_by_name("multi-node-serving").template
    charts = {
        k: r
        for k, r in template["Resources"].items()
        if r["Type"] == "Custom::AWSCDK-EKS-HelmChart"
    }
    ((chart_id, chart),) = charts.items()
    assert (
        chart["Properties"]["Repository"]
        == LWS_CHART_REPOSITORY
        == "oci://registry.k8s.io/lws/charts/lws"
    )
    assert chart["Properties"]["Version"] == LWS_CHART_VERSION == "0.10.0"
    assert chart["Properties"]["Namespace"] == "lws-system"
    (manifest,) = [
        r
        for r in template["Resources"].values()
        if r["Type"] == "Custom::AWSCDK-EKS-KubernetesResource"
        and "LeaderWorkerSet" in json.dumps(r["Properties"]["Manifest"])
    ]
    assert chart_id in manifest["DependsOn"]
    # the startup command follows the group's leader, not a Deployment that does not exist
    assert (
        template["Outputs"]["WatchStartupCommand"]["Value"]
        == "kubectl -n llm-serving logs -f pod/vllm-0"
    )


def test_the_multi_node_templates_pass_cfn_lint(multi_node_assembly):
    from tests.cfn_lint import cfn_lint_errors

    templates = [
        str(Path(multi_node_assembly.directory) / s.template_file)
        for s in multi_node_assembly.stacks
    ]
    assert cfn_lint_errors(templates, ["us-west-2"]) == []


def test_the_single_node_serving_stack_installs_no_lws(synthesized):
    template = synthesized.template("serving")
    assert not [
        r for r in template["Resources"].values() if r["Type"] == "Custom::AWSCDK-EKS-HelmChart"
    ]


@pytest.mark.parametrize(
    "image, noted",
    [
        ("vllm/vllm-openai:kimi-k3", True),
        ("docker.io/vllm/vllm-openai:v0.33.0@sha256:" + "a" * 64, True),
        ("123456789012.dkr.ecr.us-west-2.amazonaws.com/vllm-efa:v0.33.0", False),
        ("vllm/vllm-openai-efa:v1", False),
    ],
)
def test_synthesis_notes_that_the_public_image_has_no_efa_plugin_for_a_multi_node_model(
    multi_env, capsys, image, noted
):
    from app import _warn_multi_node_image

    # given the multi-node example with an image, when the app checks it before synthesizing
    _warn_multi_node_image(
        dataclasses.replace(multi_env, model=dataclasses.replace(multi_env.model, image=image))
    )
    # then the public vLLM image gets a note naming the missing plugin and the fix; an image of one's own does not
    note = capsys.readouterr().err
    assert ("aws-ofi-nccl" in note and "EFA installer" in note and "over 2 nodes" in note) is noted
    assert bool(note) is noted


def test_a_single_node_model_gets_no_efa_note(default_env, capsys):
    from app import _warn_multi_node_image

    _warn_multi_node_image(default_env)
    assert capsys.readouterr().err == ""
