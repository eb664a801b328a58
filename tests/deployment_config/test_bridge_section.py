"""The bridge section (docs/stay-up.md): what is accepted, its defaults, and the one clear message (the field, what was
wrong, the fix) for each mistake, the pieces not built yet included."""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from pathlib import Path

import pytest
import yaml

from deployment_config import ConfigError, load_environment, parse_environment
from deployment_config.yaml_reader import parse_yaml
from tests.crd_schema import INFERENCE_ENDPOINT_CRD, read_crd

TEST_CONFIGS = Path(__file__).resolve().parents[1] / "configs"


@pytest.fixture(scope="module")
def bridge_document() -> dict:
    return yaml.safe_load((TEST_CONFIGS / "bridge.yaml").read_text(encoding="utf-8"))


def _issue(document: dict):
    with pytest.raises(ConfigError) as caught:
        parse_environment(document, name="bridge")
    (issue,) = caught.value.issues
    return issue


def _with(document: dict, **bridge) -> dict:
    changed = copy.deepcopy(document)
    changed["bridge"].update(bridge)
    return changed


def test_without_the_section_there_is_no_bridge(default_env):
    assert default_env.bridge is None


def test_a_bridge_is_kept_with_its_defaults(bridge_document):
    document = copy.deepcopy(bridge_document)
    document["bridge"] = {"instance_types": ["p6-b300.48xlarge"], "block_end": "2026-12-06T11:30Z"}
    bridge = parse_environment(document, name="bridge").bridge
    assert (bridge.capacity_type, bridge.max_instances, bridge.margin_minutes) == (
        "on-demand",
        None,
        30,
    )
    assert bridge.hours_after_block_end == 24
    assert bridge.block_end_at == datetime(2026, 12, 6, 11, 30, tzinfo=UTC)


def test_an_unquoted_block_end_that_yaml_reads_as_a_timestamp_is_accepted(bridge_document):
    # given the block's end written without quotes: YAML makes it a datetime
    text = (TEST_CONFIGS / "bridge.yaml").read_text(encoding="utf-8")
    document = parse_yaml(text.replace('"2026-12-06T11:30Z"', "2026-12-06T11:30:00Z"), source="x")
    # then it is the same end
    bridge = parse_environment(document, name="bridge").bridge
    assert bridge.block_end_at == datetime(2026, 12, 6, 11, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    "value", ["2026-12-06 11:30", "2026-12-06T11:30", "2026-12-06T11:30:15Z", "soon"]
)
def test_a_block_end_that_is_not_utc_to_the_minute_is_refused_with_an_example(
    bridge_document, value
):
    issue = _issue(_with(bridge_document, block_end=value))
    assert issue.field == "bridge.block_end"
    assert "is not a time in UTC to the minute" in issue.problem
    assert "bin/llmops capacity-blocks show" in issue.fix


def test_an_impossible_date_is_refused(bridge_document):
    issue = _issue(_with(bridge_document, block_end="2026-13-06T11:30Z"))
    assert (issue.field, issue.problem) == (
        "bridge.block_end",
        "'2026-13-06T11:30Z' is not a date and time",
    )


def test_another_layout_than_the_blocks_is_refused_as_not_built_yet(bridge_document):
    # given a p6-b300 block and a p6-b200 bridge, on which Kimi-K3 needs two nodes (TP 8 x PP 2)
    issue = _issue(_with(bridge_document, instance_types=["p6-b200.48xlarge"]))
    # then the bridge type is refused, with the two layouts and the reason
    assert issue.field == "bridge.instance_types[0]"
    assert "2 x p6-b200.48xlarge (TP 8 x PP 2)" in issue.problem
    assert "1 x p6-b300.48xlarge (TP 8 x PP 1)" in issue.problem
    assert "a bridge with another layout is not built yet" in issue.problem
    assert "p6-b300.48xlarge" in issue.fix


def test_a_second_instance_type_is_refused_as_not_built_yet(bridge_document):
    issue = _issue(_with(bridge_document, instance_types=["p6-b300.48xlarge", "p6-b200.48xlarge"]))
    assert issue.field == "bridge.instance_types"
    assert "not built yet" in issue.problem
    assert issue.fix == "keep one: instance_types: [p6-b300.48xlarge]"


@pytest.mark.parametrize("kind", ["spot", "capacity-reservation"])
def test_capacity_types_other_than_on_demand_are_refused_with_the_reason(bridge_document, kind):
    issue = _issue(_with(bridge_document, capacity_type=kind))
    assert issue.field == "bridge.capacity_type"
    assert f"'{kind}' is not built yet" in issue.problem
    assert issue.fix == "use capacity_type: on-demand"


def test_a_bridge_beside_a_next_block_is_refused_as_not_built_yet(bridge_document):
    document = copy.deepcopy(bridge_document)
    document["capacity"]["next_capacity_reservation_id"] = "cr-0fedcba9876543210"
    issue = _issue(document)
    assert issue.field == "bridge"
    assert "a bridge for the gap before a next block is not built yet" in issue.problem


def test_a_bridge_on_hyperpod_is_refused():
    from tests.conftest import CONFIG_DIR

    document = yaml.safe_load((CONFIG_DIR / "example-hyperpod.yaml").read_text(encoding="utf-8"))
    document["bridge"] = {"instance_types": ["p6-b300.48xlarge"], "block_end": "2026-12-06T11:30Z"}
    with pytest.raises(ConfigError) as caught:
        parse_environment(document, name="example-hyperpod")
    (issue,) = [i for i in caught.value.issues if "HyperPod bridge" in i.problem]
    assert issue.field == "bridge"
    # the reason names the operator's fields it rests on
    for field in ("spec.nodeAffinity", "spec.instanceTypes", "spec.instanceType", "UpdateCluster"):
        assert field in issue.problem


def test_the_hyperpod_bridge_reason_holds_for_the_vendored_crd():
    # given the served v1 schema of the vendored InferenceEndpointConfig CRD and the endpoint the chart writes
    root = Path(__file__).resolve().parents[2]
    crd = read_crd(INFERENCE_ENDPOINT_CRD)
    (v1,) = [v for v in crd["spec"]["versions"] if v["name"] == "v1"]
    spec = v1["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]
    # then instanceTypes orders types (strings), not instance groups
    assert spec["instanceTypes"]["items"] == {"type": "string"}
    assert "order of preference" in spec["instanceTypes"]["description"]
    # and only nodeAffinity prefers nodes by label, exclusive of instanceType
    assert "preferredDuringSchedulingIgnoredDuringExecution" in spec["nodeAffinity"]["properties"]
    assert "mutually exclusive with instanceType" in spec["nodeAffinity"]["description"]
    # and the endpoint is written with instanceType
    assert "instance_type=spec.instance_type" in (
        root / "charts/inference_endpoint_config.py"
    ).read_text(encoding="utf-8")


def test_max_instances_is_a_whole_number_of_replicas(bridge_document):
    # given a model that spans two nodes per replica (a p6-b200 block of 4)
    document = copy.deepcopy(bridge_document)
    document["capacity"].update(instance_type="p6-b200.48xlarge", instance_count=4)
    document["bridge"].update(instance_types=["p6-b200.48xlarge"], max_instances=3)
    issue = _issue(document)
    assert (issue.field, issue.fix) == ("bridge.max_instances", "use a multiple of 2")


def test_the_test_variant_loads(bridge_document):
    env = load_environment(TEST_CONFIGS, "bridge")
    assert env.bridge.instance_types == ["p6-b300.48xlarge"]
