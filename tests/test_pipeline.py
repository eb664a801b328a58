"""The delivery pipeline: waves in order, approvals, a smoke test after every stage, the synth step, cross-account
keys, the same stacks as a direct deploy, and the same gates as everything else."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys

import pytest
import yaml

from tests.conftest import CONFIG_DIR, PROJECT_DIR


def _actions(stage: dict) -> list[dict]:
    return sorted(stage["Actions"], key=lambda a: a["RunOrder"])


def test_waves_deploy_in_the_configured_order(pipeline_assembly):
    names = list(pipeline_assembly.stages)
    assert names[:3] == ["Source", "Build", "UpdatePipeline"]
    assert names.index("example") < names.index("example-prod")


def test_production_waits_for_an_approval_and_a_permissions_check(pipeline_assembly):
    prod = _actions(pipeline_assembly.stages["example-prod"])
    assert prod[0]["Name"] == "Approve-prod" and prod[0]["ActionTypeId"]["Category"] == "Approval"
    assert [a["Name"] for a in prod[1:3]] == ["CheckPermissions-example-prod.Check", "CheckPermissions-example-prod.Confirm"]
    first_deploy = min(a["RunOrder"] for a in prod if a["ActionTypeId"]["Category"] == "Deploy")
    assert all(a["RunOrder"] < first_deploy for a in prod[:3])
    dev = _actions(pipeline_assembly.stages["example"])
    assert not [a for a in dev if a["ActionTypeId"]["Category"] == "Approval"]


@pytest.mark.parametrize("environment", ["example", "example-prod"])
def test_every_stage_ends_with_the_smoke_test_against_its_own_endpoint(pipeline_assembly, environment):
    actions = _actions(pipeline_assembly.stages[environment])
    smoke = actions[-1]
    assert smoke["Name"] == f"SmokeTest-{environment}"
    assert all(a["RunOrder"] < smoke["RunOrder"] for a in actions[:-1])
    (variable,) = json.loads(smoke["Configuration"]["EnvironmentVariables"])
    assert variable["name"] == "ENDPOINT_URL"
    assert variable["value"].endswith(".EndpointUrl}")
    # the output comes from this stage's serving stack
    serving_namespace = variable["value"][2:].split(".")[0]
    deploy = next(a for a in actions if a["Name"] == "serving.Deploy")
    assert deploy["Namespace"] == serving_namespace
    assert deploy["Configuration"]["StackName"] == f"{environment}-serving"


def _build_spec(pipeline_assembly, description_suffix: str) -> str:
    projects = [r["Properties"] for r in pipeline_assembly.template["Resources"].values()
                if r["Type"] == "AWS::CodeBuild::Project"]
    (project,) = [p for p in projects if str(p.get("Description", "")).endswith(description_suffix)]
    return json.dumps(project["Source"]["BuildSpec"])


def test_synth_step_installs_pinned_dependencies_runs_the_tests_and_synthesizes(pipeline_assembly):
    spec = _build_spec(pipeline_assembly, "/Build/Synth")
    for command in ("npm ci", "pip install --quiet -r requirements-dev.txt", "make test",
                    "npx cdk synth --quiet -c pipeline=example"):
        assert command in spec, command


def test_cdk_cli_and_cdk_assets_versions_come_from_package_json(pipeline_assembly):
    versions = json.loads((PROJECT_DIR / "package.json").read_text())["devDependencies"]
    assert f"aws-cdk@{versions['aws-cdk']}" in _build_spec(pipeline_assembly, "/UpdatePipeline/SelfMutate")
    assert f"cdk-assets@{versions['cdk-assets']}" in json.dumps(pipeline_assembly.template)


def test_smoke_test_step_runs_llmops_wait_then_smoke_test(pipeline_assembly):
    spec = _build_spec(pipeline_assembly, "/example/SmokeTest-example")
    assert spec.index("bin/llmops wait endpoint") < spec.index("bin/llmops smoke-test")
    assert "requirements-ops.txt" in spec
    # from the environment file: the served name and the model path /v1/models must report
    assert 'ENDPOINT_URL' in spec and '" --env example --json' in spec.replace('\\', '')


def test_artifacts_are_encrypted_with_a_rotating_cross_account_key(pipeline_assembly):
    resources = pipeline_assembly.template["Resources"]
    keys = {k: r for k, r in resources.items() if r["Type"] == "AWS::KMS::Key"}
    (key_id, key), = keys.items()
    assert key["Properties"]["EnableKeyRotation"] is True
    (bucket,) = [r for r in resources.values() if r["Type"] == "AWS::S3::Bucket"]
    encryption = bucket["Properties"]["BucketEncryption"]["ServerSideEncryptionConfiguration"][0]
    assert encryption["ServerSideEncryptionByDefault"]["SSEAlgorithm"] == "aws:kms"
    assert key_id in json.dumps(encryption)
    # the target accounts' deploy roles may decrypt the artifacts
    key_policy = json.dumps(key["Properties"]["KeyPolicy"])
    for env in pipeline_assembly.config.environments:
        assert env.account in key_policy


def test_a_stage_holds_the_same_stacks_as_a_direct_deploy(pipeline_assembly, synthesized):
    """The stage of 'example' against the direct synthesis of config/example.yaml (the session's default app)."""
    staged = pipeline_assembly.stage_templates["example"]
    direct = {name: t for name, t in synthesized.templates.items() if name.startswith("example-")
              and not name.startswith("example-hyperpod")}
    assert set(staged) == set(direct) == {"example-network", "example-cluster", "example-gpu-nodes", "example-serving"}
    for name in direct:
        summary = lambda t: {k: r["Type"] for k, r in t["Resources"].items()}  # noqa: E731
        assert summary(staged[name]) == summary(direct[name]), name


def test_pipeline_passes_cfn_lint(pipeline_assembly, tmp_path):
    templates = [str(p) for p in pipeline_assembly.directory.glob("*.template.json")]
    templates += [str(p) for p in pipeline_assembly.directory.glob("assembly-*/*.template.json")]
    assert len(templates) == 9  # the pipeline and two stages of four stacks
    result = subprocess.run([sys.executable, "-m", "cfnlint", "--format", "json", "--regions", "us-west-2", "--templates",
                             *templates], capture_output=True, text=True, timeout=300)
    errors = [f for f in json.loads(result.stdout or "[]") if f["Level"] == "Error"]
    assert errors == [], json.dumps(errors, indent=1)


def test_pipeline_passes_cdk_nag(pipeline_assembly):
    report = json.loads((pipeline_assembly.directory / "validation-report.json").read_text())
    aws_solutions = {p["pluginName"]: p for p in report["pluginReports"]}["AwsSolutions"]
    assert aws_solutions["conclusion"] == "success" and aws_solutions["violations"] == []
    for finding in aws_solutions["suppressedViolations"]:
        assert len(finding["reason"].split()) >= 5


# --- configuration --------------------------------------------------------------------------------------------------

@pytest.fixture
def pipeline_dir(tmp_path):
    """A scratch configuration directory with the example environments and pipeline."""
    for path in CONFIG_DIR.glob("*.yaml"):
        (tmp_path / path.name).write_text(path.read_text())
    (tmp_path / "pipeline").mkdir()
    return tmp_path


def _write(pipeline_dir, document: dict) -> None:
    (pipeline_dir / "pipeline" / "example.yaml").write_text(yaml.safe_dump(document))


EXAMPLE = yaml.safe_load((CONFIG_DIR / "pipeline" / "example.yaml").read_text())


def _with(path: str, value):
    document = copy.deepcopy(EXAMPLE)
    node = document
    *parents, last = path.split(".")
    for key in parents:
        node = node[int(key)] if key.isdigit() else node[key]
    node[int(last) if last.isdigit() else last] = value
    return document


# Each kind of bad pipeline file is in the corpus of tests/malformed/pipeline.yaml; here: the real process.
def test_app_rejects_a_bad_pipeline_without_traceback_or_output(pipeline_dir):
    _write(pipeline_dir, _with("account", "11111111111"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("CDK_")}
    env["CDK_CONTEXT_JSON"] = json.dumps({"pipeline": "true", "config_dir": str(pipeline_dir)})
    env["CDK_OUTDIR"] = str(pipeline_dir / "out")
    result = subprocess.run([sys.executable, str(PROJECT_DIR / "app.py")], env=env, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 2
    assert "account:" in result.stderr and "fix:" in result.stderr and "Traceback" not in result.stderr
    assert not (pipeline_dir / "out").exists()


def test_the_pipeline_still_holding_placeholders_refuses_to_deploy(pipeline_assembly):
    # given the example pipeline, whose connection and repository are placeholders
    rule = pipeline_assembly.template["Rules"]["RefuseExamplePlaceholders"]
    # then its template carries a rule that no region satisfies, naming the fields to replace
    (assertion,) = rule["Assertions"]
    assert assertion["Assert"] == {"Fn::Equals": [{"Ref": "AWS::Region"}, "placeholder-values-must-be-replaced"]}
    assert "source.connection_arn" in assertion["AssertDescription"]
