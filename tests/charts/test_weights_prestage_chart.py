"""``model.next_revision``: refused where no staged copy would be used or two revisions do not fit the instance store;
otherwise the serving chart adds the ``weights-prestage`` DaemonSet (charts/vllm_weights_prestage.py), strictly
valid, which prunes, copies at the lower goal and checks, in that order, on the serving pods' nodes."""

from __future__ import annotations

import kubernetes_validate
import pytest

from deployment_config import parse_environment
from tests.charts.test_runai_weight_load import S3_MODEL, SHA, _document, _issues

NEXT = "fedcba9876543210fedcba9876543210fedcba98"


@pytest.fixture(scope="module")
def staged(example_document_module) -> tuple:
    from charts.serving_spec import serving_spec_for
    from charts.vllm_serving_chart import synthesize_manifests

    env = parse_environment(
        _document(example_document_module, next_revision=NEXT, **S3_MODEL), name="example"
    )
    return env, synthesize_manifests(serving_spec_for(env))


@pytest.fixture(scope="module")
def example_document_module():
    import yaml

    from tests.conftest import CONFIG_DIR

    return yaml.safe_load((CONFIG_DIR / "example.yaml").read_text(encoding="utf-8"))


def _daemon_set(manifests: list[dict]) -> dict:
    (found,) = [
        m
        for m in manifests
        if m["kind"] == "DaemonSet" and m["metadata"]["name"] == "weights-prestage"
    ]
    return found


def test_the_next_revision_is_staged_by_a_strictly_valid_daemon_set_on_the_serving_nodes(staged):
    env, manifests = staged
    daemon_set = _daemon_set(manifests)
    (config_map,) = [
        m
        for m in manifests
        if m["kind"] == "ConfigMap" and m["metadata"]["name"] == "weights-prestage"
    ]
    for manifest in (daemon_set, config_map):
        kubernetes_validate.validate(manifest, env.kubernetes_version, strict=True)
    assert daemon_set["metadata"]["labels"]["llm-serving/staged-revision"] == NEXT
    pod = daemon_set["spec"]["template"]["spec"]
    (deployment,) = [m for m in manifests if m["kind"] == "Deployment"]
    serving = deployment["spec"]["template"]["spec"]
    # on the serving pods' nodes, with their node cache and their service account (S3 read access)
    assert pod["affinity"]["nodeAffinity"] == serving["affinity"]["nodeAffinity"]
    assert pod["tolerations"] == serving["tolerations"]
    assert pod["serviceAccountName"] == serving["serviceAccountName"]
    (cache,) = [v for v in pod["volumes"] if v["name"] == "model-cache"]
    (serving_cache,) = [v for v in serving["volumes"] if v["name"] == "model-cache"]
    assert cache["hostPath"]["path"] == serving_cache["hostPath"]["path"]
    # prune to the live and next revisions, copy into a staging directory, then check and move into place
    prune, copy, verify = pod["initContainers"]
    assert prune["command"][2:] == ["prune", "/models/s3-weights", "--keep", SHA, "--keep", NEXT]
    assert copy["command"][-3:] == [
        f"s3://weights-bucket/kimi-k3/{NEXT}/",
        f"/models/s3-weights/{NEXT}",
        f"/models/s3-weights/.staging-{NEXT}",
    ]
    assert verify["command"][2:5] == ["promote", "/models/s3-weights", NEXT]
    # and what that check finds wrong it fetches again from the prefix the copy read, in the environment's region
    repair = verify["command"][verify["command"].index("--repair-from") :]
    assert repair == ["--repair-from", copy["command"][-3], "--region", env.region]
    # at a quarter of the cold start's goal, so that the serving replica keeps most of the card
    assert "target_bandwidth 75Gb/s" in copy["command"][2]
    (fetch,) = [c for c in serving["initContainers"] if c["name"] == "fetch-weights"]
    assert "target_bandwidth 300Gb/s" in fetch["command"][2]
    # the scripts it runs are the shipped files
    from charts.vllm_weights_check import REPAIR_SCRIPT_FILE
    from charts.vllm_weights_prestage import PRESTAGE_SCRIPT_FILE

    for script in (PRESTAGE_SCRIPT_FILE, REPAIR_SCRIPT_FILE):
        assert config_map["data"][script.name] == script.read_text()


def test_without_a_next_revision_nothing_is_staged(example_document_module):
    from charts.serving_spec import serving_spec_for
    from charts.vllm_serving_chart import synthesize_manifests

    env = parse_environment(_document(example_document_module, **S3_MODEL), name="example")
    names = [
        m["metadata"]["name"]
        for m in synthesize_manifests(serving_spec_for(env))
        if m["kind"] == "DaemonSet"
    ]
    assert "weights-prestage" not in names


def test_a_next_revision_with_the_run_ai_streamer_is_refused_with_the_reason(
    example_document_module,
):
    issues = _issues(
        _document(
            example_document_module, next_revision=NEXT, weight_load="runai_streamer", **S3_MODEL
        )
    )
    assert "keeps no copy on the node" in issues["model.next_revision"]


def test_a_next_revision_of_hub_weights_is_refused(example_document_module):
    issues = _issues(_document(example_document_module, next_revision=NEXT))
    assert "no mirror to stage from" in issues["model.next_revision"]


def test_a_next_revision_equal_to_the_serving_one_is_refused(example_document_module):
    issues = _issues(_document(example_document_module, next_revision=SHA, **S3_MODEL))
    assert "nothing to stage" in issues["model.next_revision"]


def test_two_revisions_that_do_not_fit_the_instance_store_are_refused(example_document_module):
    # given weights of 16 TB: two copies need 32 TB, and the instance store holds 30.4 TB
    issues = _issues(
        _document(example_document_module, next_revision=NEXT, weight_size_gb=16000, **S3_MODEL)
    )
    assert "two revisions take 32000 GB" in issues["model.next_revision"]
    assert "30400 GB" in issues["model.next_revision"]
