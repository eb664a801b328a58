"""Bad input: every malformed configuration gives one message naming the field and the fix, a non-zero exit,
no traceback, and no synthesis output."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from deployment_config import ConfigError, parse_environment
from deployment_config.model import Exposure, Platform, WeightSource
from tests.conftest import PROJECT_DIR


def _set(path: str, value):
    """A mutation that sets the dotted ``path`` of the document to ``value``."""
    def mutate(doc: dict) -> None:
        *parents, last = path.split(".")
        for key in parents:
            doc = doc.setdefault(key, {})
        doc[last] = value
    return mutate


def _delete(path: str):
    def mutate(doc: dict) -> None:
        *parents, last = path.split(".")
        for key in parents:
            doc = doc[key]
        del doc[last]
    return mutate


def _both(*mutations):
    def mutate(doc: dict) -> None:
        for m in mutations:
            m(doc)
    return mutate


# (case id, mutation, field named in the message, words the message must contain)
BAD_CONFIGURATIONS = [
    ("reservation-in-another-zone", _set("capacity.availability_zone", "us-west-2c"),
     "capacity.availability_zone", "not one of availability_zones"),
    ("reservation-id-not-cr-hex", _set("capacity.capacity_reservation_id", "cr-0123456789abcdefg"),
     "capacity.capacity_reservation_id", "17 lowercase hex"),
    ("reservation-id-too-short", _set("capacity.capacity_reservation_id", "cr-0123"),
     "capacity.capacity_reservation_id", "not a capacity reservation id"),
    ("account-11-digits", _set("account", "12345678901"), "account", "11 characters"),
    ("account-unquoted-number", _set("account", 123456789012), "account", "expected a string"),
    ("unknown-instance-type", _set("capacity.instance_type", "p7.48xlarge"), "capacity.instance_type",
     "not a known GPU instance type"),
    ("tensor-parallel-16-on-8-gpus", _set("model.tensor_parallel_size", 16), "model.tensor_parallel_size",
     "does not match the 8 GPUs"),
    ("model-too-large-for-any-gpu", _set("model.weight_size_gb", 3000), "capacity.instance_type",
     "does not fit"),
    ("kimi-on-b200-does-not-fit", _set("capacity.instance_type", "p6-b200.48xlarge"), "capacity.instance_type",
     "p6-b300.48xlarge"),
    ("public-endpoint-without-cidrs", _set("endpoint.exposure", "public"), "endpoint.allowed_cidrs",
     "needs the source networks"),
    ("public-endpoint-open-to-world", _both(_set("endpoint.exposure", "public"), _set("endpoint.allowed_cidrs", ["0.0.0.0/0"])),
     "endpoint.allowed_cidrs[0]", "whole internet"),
    ("engine-timeout-set-by-hand", _set("model.extra_env", {"VLLM_ENGINE_READY_TIMEOUT_S": "600"}),
     "model.extra_env.VLLM_ENGINE_READY_TIMEOUT_S", "derived from the weight size"),
    ("unknown-top-level-key", _set("regoin", "us-east-1"), "regoin", "did you mean 'region'"),
    ("unknown-nested-key", _set("capacity.reservation", "cr-0123456789abcdef0"), "capacity.reservation", "unknown key"),
    ("zone-of-another-region", _set("availability_zones", ["us-east-1a", "us-east-1b"]), "availability_zones[0]",
     "not an Availability Zone of us-west-2"),
    ("single-zone", _set("availability_zones", ["us-west-2a"]), "availability_zones", "at least two"),
    ("unsupported-kubernetes", _set("kubernetes_version", "1.29"), "kubernetes_version", "not supported"),
    ("kubernetes-version-as-float", _set("kubernetes_version", 1.34), "kubernetes_version", "expected a string"),
    ("missing-reservation", _delete("capacity.capacity_reservation_id"), "capacity.capacity_reservation_id",
     "required and missing"),
    ("s3-source-without-uri", _set("model.weight_source", "s3"), "model.s3_uri", "required when weight_source is s3"),
    ("derived-arg-in-extra-args", _set("model.extra_args", ["--tensor-parallel-size=4"]), "model.extra_args[0]",
     "set by the app"),
    ("admin-role-not-an-arn", _set("cluster.admin_role_arn", "PlatformAdmin"), "cluster.admin_role_arn",
     "not an IAM role ARN"),
    ("bad-endpoint-cidr", _set("cluster.endpoint_public_cidrs", ["10.0.0.300/24"]), "cluster.endpoint_public_cidrs[0]",
     "not a CIDR block"),
    ("instance-count-over-block-limit", _set("capacity.instance_count", 65), "capacity.instance_count", "1..64"),
    ("reserved-tag-prefix", _set("tags", {"aws:owner": "me"}), "tags.aws:owner", "reserved"),
    ("hyperpod-without-a-plan", _set("platform", "hyperpod"), "hyperpod", "required for platform: hyperpod"),
    ("hyperpod-on-kubernetes-1.35", _both(_set("platform", "hyperpod"), _set("kubernetes_version", "1.35")),
     "kubernetes_version", "HyperPod does not support Kubernetes 1.35"),
    ("hyperpod-instance-type-not-sagemaker",
     _set("hyperpod", {"training_plan_arn": "arn:aws:sagemaker:us-west-2:123456789012:training-plan/k3",
                       "availability_zone": "us-west-2a", "instance_type": "p6-b300.48xlarge"}),
     "hyperpod.instance_type", "not a known SageMaker GPU instance type"),
    ("hyperpod-model-does-not-fit",
     _both(_set("platform", "hyperpod"),
           _set("hyperpod", {"training_plan_arn": "arn:aws:sagemaker:us-west-2:123456789012:training-plan/k3",
                             "availability_zone": "us-west-2a", "instance_type": "ml.p5en.48xlarge"})),
     "hyperpod.instance_type", "ml.p6-b300.48xlarge"),
    ("hyperpod-volume-too-large",
     _set("hyperpod", {"training_plan_arn": "arn:aws:sagemaker:us-west-2:123456789012:training-plan/k3",
                       "availability_zone": "us-west-2a", "volume_size_gb": 20000}),
     "hyperpod.volume_size_gb", "outside 1..16384"),
    ("hyperpod-chart-dir-without-chart",
     _set("hyperpod", {"training_plan_arn": "arn:aws:sagemaker:us-west-2:123456789012:training-plan/k3",
                       "availability_zone": "us-west-2a", "dependencies_chart_dir": "/nonexistent/HyperPodHelmChart"}),
     "hyperpod.dependencies_chart_dir", "has no Chart.yaml"),
    ("training-plan-arn-malformed",
     _set("hyperpod", {"training_plan_arn": "arn:aws:sagemaker:us-west-2:123456789012:cluster/k3",
                       "availability_zone": "us-west-2a"}),
     "hyperpod.training_plan_arn", "not a training plan ARN"),
    ("training-plan-in-another-region",
     _set("hyperpod", {"training_plan_arn": "arn:aws:sagemaker:us-east-1:123456789012:training-plan/k3",
                       "availability_zone": "us-west-2a"}),
     "hyperpod.training_plan_arn", "the plan is in us-east-1"),
    ("training-plan-of-another-account",
     _set("hyperpod", {"training_plan_arn": "arn:aws:sagemaker:us-west-2:999999999999:training-plan/k3",
                       "availability_zone": "us-west-2a"}),
     "hyperpod.training_plan_arn", "belongs to account 999999999999"),
    ("training-plan-zone-not-in-vpc",
     _set("hyperpod", {"training_plan_arn": "arn:aws:sagemaker:us-west-2:123456789012:training-plan/k3",
                       "availability_zone": "us-west-2c"}),
     "hyperpod.availability_zone", "not one of availability_zones"),
]


def _run_app(config_dir: Path, name: str, outdir: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CDK_")}
    env["CDK_CONTEXT_JSON"] = json.dumps({"env": name, "config_dir": str(config_dir)})
    env["CDK_OUTDIR"] = str(outdir)
    return subprocess.run([sys.executable, str(PROJECT_DIR / "app.py")], env=env, capture_output=True, text=True,
                          timeout=60, cwd=config_dir)


def test_example_configuration_is_valid(default_env):
    assert default_env.platform is Platform.EKS
    assert default_env.capacity.instance_type.name == "p6-b300.48xlarge"
    assert default_env.capacity.availability_zone in default_env.availability_zones
    assert default_env.endpoint.exposure is Exposure.INTERNAL
    assert default_env.model.weight_source is WeightSource.HUGGINGFACE
    assert default_env.kubernetes_version == "1.34"
    assert default_env.tags["environment"] == "example"


@pytest.mark.parametrize("case, mutate, field, words", BAD_CONFIGURATIONS, ids=[c[0] for c in BAD_CONFIGURATIONS])
def test_bad_configuration_names_field_and_fix(case, mutate, field, words, example_copy):
    # given a configuration with one mistake
    mutate(example_copy)
    # when it is validated
    with pytest.raises(ConfigError) as raised:
        parse_environment(example_copy, name="bad", source="config/bad.yaml")
    # then the error names the field, says what is wrong, and how to fix it
    error = raised.value
    assert error.field == field
    assert words in str(error)
    assert error.fix and "fix:" in str(error)
    assert str(error).startswith("config/bad.yaml: ")


def test_at_least_fifteen_bad_configurations_are_covered():
    assert len(BAD_CONFIGURATIONS) >= 15


@pytest.mark.parametrize("case, mutate, field, words", BAD_CONFIGURATIONS, ids=[c[0] for c in BAD_CONFIGURATIONS])
def test_app_rejects_bad_configuration_without_traceback_or_output(case, mutate, field, words, example_copy, tmp_path):
    # given a bad environment file selected with -c env=bad
    mutate(example_copy)
    (tmp_path / "bad.yaml").write_text(yaml.safe_dump(example_copy), encoding="utf-8")
    outdir = tmp_path / "cdk.out"
    # when the app runs as the CDK CLI would run it
    result = _run_app(tmp_path, "bad", outdir)
    # then it exits non-zero with one message naming the field, and writes nothing
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.count("error:") == 1
    assert f"{field}:" in result.stderr and "fix:" in result.stderr
    assert result.stdout == ""
    assert not outdir.exists()


def test_app_names_the_known_environments_when_env_is_unknown(tmp_path, example_document):
    (tmp_path / "dev.yaml").write_text(yaml.safe_dump(example_document), encoding="utf-8")
    result = _run_app(tmp_path, "prod", tmp_path / "cdk.out")
    assert result.returncode == 2
    assert "there is no file" in result.stderr and "dev" in result.stderr
    assert "Traceback" not in result.stderr


def test_app_reports_yaml_syntax_errors_with_their_line(tmp_path):
    (tmp_path / "broken.yaml").write_text("account: '123456789012'\nregion: [us-west-2\n", encoding="utf-8")
    result = _run_app(tmp_path, "broken", tmp_path / "cdk.out")
    assert result.returncode == 2
    assert "not valid YAML at line" in result.stderr
    assert "Traceback" not in result.stderr


def test_file_names_that_cannot_name_stacks_are_rejected(example_copy):
    with pytest.raises(ConfigError) as raised:
        parse_environment(example_copy, name="Prod_US", source="config/Prod_US.yaml")
    assert raised.value.field == "(file name)"
