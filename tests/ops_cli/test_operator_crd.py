"""llmops preflight on HyperPod, once the operator runs: the CRD the cluster serves against the endpoint as cdk synth
rendered it (ops_cli/operator_crd.py). kubectl is a stand-in that prints what a cluster would; AWS is stubbed."""

from __future__ import annotations

import copy
import json
import os
import subprocess

import pytest
import yaml

from charts.inference_endpoint_chart import (
    inference_endpoint_spec_for,
    synthesize_inference_endpoint,
)
from deployment_config.addons import INFERENCE_OPERATOR
from deployment_config.loader import load_environment
from ops_cli.errors import ExitCode
from ops_cli.operator_crd import CRD_NAME, schema_problems
from tests.conftest import CONFIG_DIR
from tests.crd_schema import INFERENCE_ENDPOINT_CRD, read_crd
from tests.ops_cli.conftest import no_placeholders
from tests.ops_cli.test_preflight import (
    expect_bootstrap,
    expect_hyperpod_addons,
    expect_identity,
    expect_instance_type,
    expect_plan,
    pin,
    rows,
)

VENDORED_CRD = read_crd(INFERENCE_ENDPOINT_CRD)


@pytest.fixture(autouse=True)
def real_ids(monkeypatch, config_dir):
    """The stubbed AWS answers as the owner of the example's ids: they play real ids, with the image and the model
    pinned as a real environment's must be (as in test_preflight)."""
    monkeypatch.setattr("deployment_config.loader.placeholder_fields", no_placeholders)
    pin(config_dir, "example-hyperpod")


@pytest.fixture(scope="module")
def rendered_objects() -> list[dict]:
    """The HyperPod example's endpoint objects, as `cdk synth` writes them to cdk.out/kubernetes/ENV/PRESET.yaml."""
    return synthesize_inference_endpoint(
        inference_endpoint_spec_for(load_environment(CONFIG_DIR, "example-hyperpod"))
    )


@pytest.fixture
def manifest(tmp_path, rendered_objects, config_dir):
    path = tmp_path / "cdk.out" / "kubernetes" / "example-hyperpod" / "kimi-k3.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(yaml.safe_dump_all(rendered_objects, sort_keys=False), encoding="utf-8")
    source = config_dir / "example-hyperpod.yaml"
    os.utime(
        path, (source.stat().st_mtime + 10, source.stat().st_mtime + 10)
    )  # rendered after the file's last change
    return path


def fake_kubectl(crd: dict | str, calls: list) -> object:
    def run(command, **kwargs):
        calls.append(command)
        stdout = crd if isinstance(crd, str) else json.dumps(crd)
        return subprocess.CompletedProcess(command, 0, stdout=stdout, stderr="")

    return run


def preflight_with_operator(
    aws, run_with_kubectl, kubectl, manifest, installed=INFERENCE_OPERATOR.version
):
    expect_identity(aws)
    expect_plan(aws)
    expect_instance_type(aws)
    expect_hyperpod_addons(aws, operator_installed=installed)
    expect_bootstrap(aws)
    result = run_with_kubectl(
        kubectl, "preflight", "--env", "example-hyperpod", "--manifest", str(manifest), "--json"
    )
    return result.code, rows(result)


def test_the_endpoint_fits_the_crd_of_the_pinned_operator_on_the_cluster(
    aws, run_with_kubectl, manifest
):
    # given a cluster running the pinned add-on build, whose CRD is the vendored one
    calls: list = []
    code, checks = preflight_with_operator(
        aws, run_with_kubectl, fake_kubectl(VENDORED_CRD, calls), manifest
    )
    # then the CRD was read from the cluster, and every field and value of the rendered endpoint fits it
    assert calls == [["kubectl", "get", "crd", CRD_NAME, "-o", "json"]]
    assert code == ExitCode.OK
    assert checks["inference operator"]["status"] == "pass"
    assert "runs v1.2.1-eksbuild.1 installs operator 3.1" in checks["inference operator"]["detail"]
    assert checks["operator CRD"]["status"] == "pass"
    assert f"fit the cluster's {CRD_NAME} (v1)" in checks["operator CRD"]["detail"]


def test_a_crd_without_a_field_or_enum_value_the_endpoint_uses_fails_with_the_paths(
    aws, run_with_kubectl, manifest
):
    # given a cluster whose operator CRD lacks valueFrom on the worker's variables and s3 as a model source
    crd = copy.deepcopy(VENDORED_CRD)
    (v1,) = [v for v in crd["spec"]["versions"] if v["name"] == "v1"]
    spec = v1["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]
    del spec["worker"]["properties"]["environmentVariables"]["items"]["properties"]["valueFrom"]
    spec["modelSourceConfig"]["properties"]["modelSourceType"]["enum"] = ["fsx"]
    code, checks = preflight_with_operator(
        aws, run_with_kubectl, fake_kubectl(crd, []), manifest, installed="v1.1.0-eksbuild.1"
    )
    # then preflight fails before the endpoint stack, naming each missing path and refused value, and the fix
    assert code == ExitCode.CHECK_FAILED
    row = checks["operator CRD"]
    assert row["status"] == "fail"
    assert "spec.worker.environmentVariables[].valueFrom: no such field" in row["detail"]
    assert "spec.modelSourceConfig.modelSourceType: 's3' is not one of ['fsx']" in row["detail"]
    assert "do not deploy the endpoint stack before this row passes" in row["fix"]
    # and the build on the cluster is one no public source maps to an operator version
    assert checks["inference operator"]["status"] == "warn"
    assert "no public source maps v1.1.0-eksbuild.1" in checks["inference operator"]["detail"]


def test_an_endpoint_with_a_field_or_value_the_pinned_operator_lacks_is_caught_by_the_vendored_crd():
    # given an endpoint with a worker volume mount and a model source operator 3.1's CRD does not have
    endpoint = {
        "apiVersion": "inference.sagemaker.aws.amazon.com/v1",
        "kind": "InferenceEndpointConfig",
        "metadata": {"name": "x"},
        "spec": {
            "modelName": "m",
            "modelSourceConfig": {"modelSourceType": "http"},
            "worker": {
                "image": "i",
                "volumeMounts": [{"name": "dshm", "mountPath": "/dev/shm"}],
                "modelInvocationPort": {"containerPort": 8000},
                "modelVolumeMount": {"name": "w"},
                "resources": {},
            },
        },
    }
    # when it is compared with the vendored CRD
    problems = schema_problems(endpoint, VENDORED_CRD)
    # then both are named
    assert "spec.worker.volumeMounts: no such field" in problems
    assert any(
        p.startswith("spec.modelSourceConfig.modelSourceType: 'http' is not one of")
        for p in problems
    )


@pytest.mark.parametrize(
    "printed, words",
    [
        ("<html>garbage</html>", "kubectl printed something that is not JSON"),
        ('{"kind": "Pod"}', "kubectl's answer is not a CustomResourceDefinition"),
    ],
)
def test_kubectl_output_that_is_not_a_crd_fails_the_row_with_the_command_to_run(
    aws, run_with_kubectl, manifest, printed, words
):
    code, checks = preflight_with_operator(
        aws, run_with_kubectl, fake_kubectl(printed, []), manifest
    )
    assert code == ExitCode.CHECK_FAILED
    assert words in checks["operator CRD"]["detail"]
    assert f"kubectl get crd {CRD_NAME} -o json" in checks["operator CRD"]["fix"]


def test_a_rendered_endpoint_older_than_the_environment_file_is_not_compared(
    aws, run_with_kubectl, manifest, config_dir
):
    os.utime(manifest, (0, 0))
    calls: list = []
    code, checks = preflight_with_operator(
        aws, run_with_kubectl, fake_kubectl(VENDORED_CRD, calls), manifest
    )
    assert code == ExitCode.CHECK_FAILED and calls == []
    assert "is older than" in checks["operator CRD"]["detail"]
    assert checks["operator CRD"]["fix"].startswith("npx cdk synth -c env=example-hyperpod")
