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

from tests.cfn_lint import cfn_lint_errors
from tests.conftest import CONFIG_DIR, PROJECT_DIR, copy_shipped_examples


def _actions(stage: dict) -> list[dict]:
    return sorted(stage["Actions"], key=lambda a: a["RunOrder"])


def test_waves_deploy_in_the_configured_order(pipeline_assembly):
    names = list(pipeline_assembly.stages)
    assert names[:3] == ["Source", "Build", "UpdatePipeline"]
    assert names.index("example") < names.index("example-prod")


def test_production_waits_for_an_approval_and_a_permissions_check(pipeline_assembly):
    prod = _actions(pipeline_assembly.stages["example-prod"])
    assert prod[0]["Name"] == "Approve-prod" and prod[0]["ActionTypeId"]["Category"] == "Approval"
    assert [a["Name"] for a in prod[1:3]] == [
        "CheckPermissions-example-prod.Check",
        "CheckPermissions-example-prod.Confirm",
    ]
    first_deploy = min(a["RunOrder"] for a in prod if a["ActionTypeId"]["Category"] == "Deploy")
    assert all(a["RunOrder"] < first_deploy for a in prod[:3])
    dev = _actions(pipeline_assembly.stages["example"])
    assert not [a for a in dev if a["ActionTypeId"]["Category"] == "Approval"]


@pytest.mark.parametrize("environment", ["example", "example-prod"])
def test_every_stage_ends_with_the_smoke_test_against_its_own_endpoint(
    pipeline_assembly, environment
):
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
    projects = [
        r["Properties"]
        for r in pipeline_assembly.template["Resources"].values()
        if r["Type"] == "AWS::CodeBuild::Project"
    ]
    (project,) = [p for p in projects if str(p.get("Description", "")).endswith(description_suffix)]
    return json.dumps(project["Source"]["BuildSpec"])


def test_synth_step_installs_pinned_dependencies_runs_the_tests_and_synthesizes(pipeline_assembly):
    spec = _build_spec(pipeline_assembly, "/Build/Synth")
    for command in (
        "npm ci",
        "pip install --quiet -r requirements-dev.txt",
        "make test",
        "npx cdk synth --quiet -c pipeline=example",
    ):
        assert command in spec, command


def test_cdk_cli_and_cdk_assets_versions_come_from_package_json(pipeline_assembly):
    versions = json.loads((PROJECT_DIR / "package.json").read_text())["devDependencies"]
    assert f"aws-cdk@{versions['aws-cdk']}" in _build_spec(
        pipeline_assembly, "/UpdatePipeline/SelfMutate"
    )
    assert f"cdk-assets@{versions['cdk-assets']}" in json.dumps(pipeline_assembly.template)


def test_smoke_test_step_runs_llmops_wait_then_smoke_test(pipeline_assembly):
    spec = _build_spec(pipeline_assembly, "/example/SmokeTest-example")
    assert spec.index("bin/llmops wait endpoint") < spec.index("bin/llmops smoke-test")
    assert "requirements-ops.txt" in spec
    # from the environment file: the API key's secret, the served name and the model path /v1/models must report
    commands = json.loads(json.loads(spec))["phases"]["build"]["commands"]
    assert commands == [
        'bin/llmops wait endpoint --url "$ENDPOINT_URL" --env example --timeout 10000 --interval 60',
        'bin/llmops smoke-test --url "$ENDPOINT_URL" --env example --json',
    ]


def _smoke_test_statements(pipeline_assembly, environment: str) -> list[dict]:
    """Every statement of the policies attached to the role of the smoke test step of ``environment``."""
    resources = pipeline_assembly.template["Resources"]
    (project,) = [
        r["Properties"]
        for r in resources.values()
        if r["Type"] == "AWS::CodeBuild::Project"
        and str(r["Properties"].get("Description", "")).endswith(
            f"/{environment}/SmokeTest-{environment}"
        )
    ]
    role = project["ServiceRole"]["Fn::GetAtt"][0]
    return [
        statement
        for r in resources.values()
        if r["Type"] == "AWS::IAM::Policy" and {"Ref": role} in r["Properties"]["Roles"]
        for statement in r["Properties"]["PolicyDocument"]["Statement"]
    ]


@pytest.mark.parametrize(
    "environment, account", [("example", "123456789012"), ("example-prod", "210987654321")]
)
def test_the_smoke_test_step_may_read_exactly_its_environments_api_key(
    pipeline_assembly, environment, account
):
    # given the smoke test step of a stage, which runs in the pipeline account
    statements = {s.get("Sid"): s for s in _smoke_test_statements(pipeline_assembly, environment)}
    secret = f"arn:aws:secretsmanager:us-west-2:{account}:secret:llm-serving/{environment}/api-key-??????"
    # then its role may read that environment's secret, in the target account and region, and nothing else of it
    assert statements["ReadTheApiKey"] == {
        "Sid": "ReadTheApiKey",
        "Effect": "Allow",
        "Action": "secretsmanager:GetSecretValue",
        "Resource": secret,
    }
    # and decrypt it with the key the serving stack made in that account, only through Secrets Manager of that
    # region and only for that secret
    assert statements["DecryptTheApiKey"] == {
        "Sid": "DecryptTheApiKey",
        "Effect": "Allow",
        "Action": "kms:Decrypt",
        "Resource": f"arn:aws:kms:us-west-2:{account}:key/*",
        "Condition": {
            "StringEquals": {"kms:ViaService": "secretsmanager.us-west-2.amazonaws.com"},
            "StringLike": {"kms:EncryptionContext:SecretARN": secret},
        },
    }
    # no other statement of the role mentions Secrets Manager or KMS decryption of another account
    others = json.dumps(
        [s for sid, s in statements.items() if sid not in ("ReadTheApiKey", "DecryptTheApiKey")]
    )
    assert "secretsmanager" not in others and account not in others


def test_the_api_key_statements_follow_the_environment(default_env):
    from dataclasses import replace

    from stacks.pipeline_stack import api_key_reader_statements

    # an environment in another account and region: its own ARNs, its own region's Secrets Manager
    elsewhere = replace(default_env, name="eu", account="999999999999", region="eu-west-1")
    read, decrypt = (statement.to_json() for statement in api_key_reader_statements(elsewhere))
    assert (
        read["Resource"]
        == "arn:aws:secretsmanager:eu-west-1:999999999999:secret:llm-serving/eu/api-key-??????"
    )
    assert decrypt["Condition"]["StringEquals"] == {
        "kms:ViaService": "secretsmanager.eu-west-1.amazonaws.com"
    }
    # an environment that opted out of the key (endpoint.authentication: none) gives the step no access at all
    opted_out = replace(
        default_env, endpoint=default_env.endpoint.model_copy(update={"authentication": "none"})
    )
    assert api_key_reader_statements(opted_out) == []


def test_artifacts_are_encrypted_with_a_rotating_cross_account_key(pipeline_assembly):
    resources = pipeline_assembly.template["Resources"]
    keys = {k: r for k, r in resources.items() if r["Type"] == "AWS::KMS::Key"}
    ((key_id, key),) = keys.items()
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
    """The stage of 'example' against the direct synthesis of config/example.yaml (the session's default app): the
    same resources, but for the API key's resource policy, which lets the pipeline account read the key."""
    staged = pipeline_assembly.stage_templates["example"]
    direct = {
        name: t
        for name, t in synthesized.templates.items()
        if name.startswith("example-") and not name.startswith("example-hyperpod")
    }
    assert set(staged) == set(direct)
    assert {"example-network", "example-cluster", "example-gpu-nodes", "example-serving"} <= set(
        direct
    )
    for name in direct:
        summary = lambda t: {k: r["Type"] for k, r in t["Resources"].items()}  # noqa: E731
        extra = {k: v for k, v in summary(staged[name]).items() if k not in summary(direct[name])}
        assert {k: v for k, v in summary(staged[name]).items() if k not in extra} == summary(
            direct[name]
        ), name
        assert set(extra.values()) <= (
            {"AWS::SecretsManager::ResourcePolicy"} if name == "example-serving" else set()
        ), name


def _principal_accounts(statement: dict) -> set[str]:
    principals = json.dumps(statement.get("Principal", {}))
    return {
        account
        for account in ("111111111111", "123456789012", "210987654321")
        if f":{account}:root" in principals
    }


@pytest.mark.parametrize("environment", ["example", "example-prod"])
def test_the_target_account_lets_only_the_smoke_test_steps_role_read_the_api_key(
    pipeline_assembly, environment
):
    from stacks.pipeline_stack import smoke_test_role_name

    # given the serving stack of a stage, the pipeline's own account and the smoke test step's role there
    serving = pipeline_assembly.stage_templates[environment][f"{environment}-serving"]["Resources"]
    config = pipeline_assembly.config
    (env_config,) = [e for e in config.environments if e.name == environment]
    role_name = smoke_test_role_name(config, env_config)
    (project,) = [
        r["Properties"]
        for r in pipeline_assembly.template["Resources"].values()
        if r["Type"] == "AWS::CodeBuild::Project"
        and str(r["Properties"].get("Description", "")).endswith(f"/SmokeTest-{environment}")
    ]
    role = pipeline_assembly.template["Resources"][project["ServiceRole"]["Fn::GetAtt"][0]]
    assert role["Properties"]["RoleName"] == role_name
    only_the_step = {
        "ArnEquals": {"aws:PrincipalArn": [f"arn:aws:iam::{config.account}:role/{role_name}"]}
    }
    # then the secret's resource policy lets that role of the pipeline account read it (the other half of the step's
    # own statements: a secret of another account needs both), and no other principal of that account
    (policy,) = [
        r["Properties"]
        for r in serving.values()
        if r["Type"] == "AWS::SecretsManager::ResourcePolicy"
    ]
    (reader,) = [
        s
        for s in policy["ResourcePolicy"]["Statement"]
        if s["Effect"] == "Allow" and _principal_accounts(s) == {config.account}
    ]
    assert reader["Action"] == "secretsmanager:GetSecretValue"
    assert reader["Condition"] == only_the_step
    # and so does the secret's KMS key, through Secrets Manager only, for that role only
    (secret,) = [
        r["Properties"]
        for r in serving.values()
        if r["Type"] == "AWS::SecretsManager::Secret"
        and r["Properties"].get("Name") == f"llm-serving/{environment}/api-key"
    ]
    key = serving[secret["KmsKeyId"]["Fn::GetAtt"][0]]["Properties"]["KeyPolicy"]
    (decrypt,) = [
        s
        for s in key["Statement"]
        if _principal_accounts(s) == {config.account} and s["Effect"] == "Allow"
    ]
    assert decrypt["Action"] == "kms:Decrypt"
    assert decrypt["Condition"] == {
        "StringEquals": {"kms:ViaService": "secretsmanager.us-west-2.amazonaws.com"},
        **only_the_step,
    }


def test_pipeline_passes_cfn_lint(pipeline_assembly, tmp_path):
    templates = [str(p) for p in pipeline_assembly.directory.glob("*.template.json")]
    templates += [str(p) for p in pipeline_assembly.directory.glob("assembly-*/*.template.json")]
    # the pipeline and every stack of both stages
    assert len(templates) == 1 + sum(
        len(stage) for stage in pipeline_assembly.stage_templates.values()
    )
    errors = cfn_lint_errors(templates, ["us-west-2"])
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
    return copy_shipped_examples(tmp_path)


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
    result = subprocess.run(
        [sys.executable, str(PROJECT_DIR / "app.py")],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert (
        "account:" in result.stderr and "fix:" in result.stderr and "Traceback" not in result.stderr
    )
    assert not (pipeline_dir / "out").exists()


def test_the_pipeline_still_holding_placeholders_refuses_to_deploy(pipeline_assembly):
    # given the example pipeline, whose connection and repository are placeholders
    rule = pipeline_assembly.template["Rules"]["RefuseExamplePlaceholders"]
    # then its template carries a rule that no region satisfies, naming the fields to replace
    (assertion,) = rule["Assertions"]
    assert assertion["Assert"] == {
        "Fn::Equals": [{"Ref": "AWS::Region"}, "placeholder-values-must-be-replaced"]
    }
    assert "source.connection_arn" in assertion["AssertDescription"]


# --- a HyperPod environment in a wave ---------------------------------------------------------------------------------


def test_a_hyperpod_environment_is_in_a_wave_only_with_its_deploy_time_smoke_test(pipeline_dir):
    from deployment_config import ConfigError
    from deployment_config.pipeline import load_pipeline

    # given the HyperPod example in a wave: refused without its deploy-time smoke test (the CodeBuild step would need the
    # cluster's private API), with the fix
    _write(pipeline_dir, _with("waves", [{"name": "dev", "environments": ["example-hyperpod"]}]))
    with pytest.raises(ConfigError) as refused:
        load_pipeline(pipeline_dir, "example")
    (issue,) = refused.value.issues
    assert issue.field == "waves[0].environments[0]"
    assert "set endpoint.deploy_time_smoke_test: true in config/example-hyperpod.yaml" in issue.fix
    # when the environment runs its smoke test from inside its VPC, then the wave takes it (its stage, synthesized with
    # cdk-nag and linted: test_deploy_time_smoke.py, test_a_hyperpod_stage_tests_its_own_endpoint_from_its_vpc)
    hyperpod = yaml.safe_load((pipeline_dir / "example-hyperpod.yaml").read_text())
    hyperpod.setdefault("endpoint", {})["deploy_time_smoke_test"] = True
    (pipeline_dir / "example-hyperpod.yaml").write_text(yaml.safe_dump(hyperpod))
    (wave,) = load_pipeline(pipeline_dir, "example").waves
    assert [env.name for env in wave.environments] == ["example-hyperpod"]
