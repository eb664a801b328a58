"""Multi-account delivery: a CDK Pipeline that deploys every environment, wave by wave, and smoke-tests each."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import aws_cdk as cdk
from aws_cdk import aws_codebuild as codebuild
from aws_cdk import aws_codepipeline as codepipeline
from aws_cdk import aws_iam as iam
from aws_cdk import pipelines
from constructs import Construct

from cdk_constructs.deploy_time_smoke_test import api_key_statements
from cdk_constructs.nag_acknowledgements import acknowledge_pipeline, acknowledge_replication_bucket
from cdk_constructs.placeholder_guard import refuse_placeholders
from deployment_config.aws_rules import partition_of
from deployment_config.model import EnvironmentConfig
from deployment_config.pipeline import PipelineConfig
from stacks.composition import Environment, add_environment

#: How long the smoke test step waits for vLLM to load 1.4 TB on a fresh node before it sends a request.
SMOKE_TEST_TIMEOUT = cdk.Duration.hours(3)
PYTHON_SETUP = ["python3 -m venv .venv", ".venv/bin/pip install --quiet -r requirements-dev.txt"]
#: The smoke test needs only the operations CLI's dependencies.
OPS_SETUP = ["python3 -m venv .venv", ".venv/bin/pip install --quiet -r requirements-ops.txt"]


class EnvironmentStage(cdk.Stage):
    """One environment, built by exactly the code path of a direct `cdk deploy -c env=NAME`.

    :param api_key_reader_roles: roles of other accounts that may read the environment's API key secret (the
        pipeline's smoke test step's, :func:`smoke_test_role_arn`).
    """

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        env_config: EnvironmentConfig,
        api_key_reader_roles: Sequence[str] = (),
        **kwargs,
    ) -> None:
        super().__init__(scope, id, **kwargs)
        self.environment: Environment = add_environment(
            self, env_config, api_key_reader_roles=api_key_reader_roles
        )


def smoke_test_role_name(pipeline_config: PipelineConfig, env_config: EnvironmentConfig) -> str:
    """The smoke test step's role, named so that the environment's stacks (another stage, often another account, which
    cannot refer to the pipeline stack's resources) can name it as the API key's only reader: the environment's name
    and a digest of the pipeline's, so that two pipelines of one account never share a role (IAM role names are at
    most 64 characters; an environment's name is at most 20)."""
    digest = hashlib.sha256(pipeline_config.name.encode()).hexdigest()[:8]
    return f"llm-serving-smoke-{env_config.name}-{digest}"


def smoke_test_role_arn(pipeline_config: PipelineConfig, env_config: EnvironmentConfig) -> str:
    partition = partition_of(pipeline_config.region)
    return (
        f"arn:{partition}:iam::{pipeline_config.account}:role/"
        f"{smoke_test_role_name(pipeline_config, env_config)}"
    )


def api_key_reader_statements(env_config: EnvironmentConfig) -> list[iam.PolicyStatement]:
    """What the smoke test step's role (in the pipeline account) needs to read the environment's API key from its
    secret ``env_config.api_key_secret_name`` in the environment's account and region; nothing when the environment
    opted out of the key. The secret's resource policy and its KMS key's policy, written by the serving stack for
    ``api_key_reader_roles`` (this step's role only), are the other half: a secret of another account needs both
    ("Access AWS Secrets Manager secrets from a different account", Secrets Manager User Guide).

    * ``secretsmanager:GetSecretValue`` on the secret's ARN, whose name Secrets Manager ends with '-' and six random
      characters (``-??????``, as aws-cdk-lib 2.275.0 writes a secret of another account or known by its partial ARN
      into a policy: ``arnForPolicies`` in aws-secretsmanager/lib/secret.js).
    * ``kms:Decrypt``: Secrets Manager decrypts the secret's data key with the customer-managed key on the caller's
      behalf ("Secret encryption and decryption in AWS Secrets Manager"). That key is made in the target account by
      the serving stack, so its ARN is not known here: the statement allows the keys of that account and region only
      through Secrets Manager of that region (``kms:ViaService``) and only for this secret (the encryption context
      ``SecretARN`` that Secrets Manager sends), the conditions of AWS's own managed policy
      AWSSecretsManagerClientReadOnlyAccess, narrowed to one region and one secret.
    """
    if not env_config.endpoint.api_key_required:
        return []
    return api_key_statements(
        env_config.api_key_secret_name,
        partition=partition_of(env_config.region),
        region=env_config.region,
        account=env_config.account,
    )


class PipelineStack(cdk.Stack):
    """CodePipeline in the pipeline account: source from CodeConnections, synth (tests included), then one stage per
    environment, wave by wave, each followed by the operations CLI's smoke test against that stage's endpoint.

    :param pipeline_config: the waves, the source and the pipeline's own account and region.
    :param tool_versions: npm package versions pinned in package.json; ``aws-cdk`` and ``cdk-assets`` are used.
    """

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        pipeline_config: PipelineConfig,
        tool_versions: dict[str, str],
        **kwargs,
    ) -> None:
        super().__init__(scope, id, **kwargs)
        source = pipelines.CodePipelineSource.connection(
            pipeline_config.source.repository,
            pipeline_config.source.branch,
            connection_arn=pipeline_config.source.connection_arn,
        )
        self.synth_step = pipelines.ShellStep(
            "Synth",
            input=source,
            install_commands=["npm ci --no-audit --no-fund", *PYTHON_SETUP],
            commands=["make test", f"npx cdk synth --quiet -c pipeline={pipeline_config.name}"],
            primary_output_directory="cdk.out",
        )
        self.pipeline = pipelines.CodePipeline(
            self,
            "Pipeline",
            pipeline_name=f"llm-serving-{pipeline_config.name}",
            synth=self.synth_step,
            pipeline_type=codepipeline.PipelineType.V2,
            cross_account_keys=True,  # target accounts decrypt the artifacts with the pipeline's key
            enable_key_rotation=True,
            cli_version=tool_versions["aws-cdk"],
            cdk_assets_cli_version=tool_versions["cdk-assets"],
            code_build_defaults=pipelines.CodeBuildOptions(
                build_environment=codebuild.BuildEnvironment(
                    build_image=codebuild.LinuxBuildImage.STANDARD_7_0
                )
            ),
        )
        self.stages: dict[str, EnvironmentStage] = {}
        self.smoke_tests: dict[str, pipelines.CodeBuildStep] = {}
        for wave_config in pipeline_config.waves:
            pre = (
                [
                    pipelines.ManualApprovalStep(
                        f"Approve-{wave_config.name}", comment=f"Deploy wave {wave_config.name}"
                    )
                ]
                if wave_config.approval
                else None
            )
            wave = self.pipeline.add_wave(wave_config.name, pre=pre)
            for env_config in wave_config.environments:
                external = needs_external_smoke_test(env_config)
                stage = EnvironmentStage(
                    self,
                    env_config.name,
                    env_config=env_config,
                    api_key_reader_roles=(smoke_test_role_arn(pipeline_config, env_config),)
                    if external
                    else (),
                    env=cdk.Environment(account=env_config.account, region=env_config.region),
                )
                smoke = (
                    self._smoke_test(source, stage, pipeline_config, env_config)
                    if external
                    else None
                )
                checks = (
                    [
                        pipelines.ConfirmPermissionsBroadening(
                            f"CheckPermissions-{env_config.name}", stage=stage
                        )
                    ]
                    if wave_config.approval
                    else None
                )
                wave.add_stage(stage, pre=checks, post=[smoke] if smoke else None)
                self.stages[env_config.name] = stage
                if smoke:
                    self.smoke_tests[env_config.name] = smoke
        self.pipeline.build_pipeline()
        # cfn-lint 1.58 reports CDK Pipelines' deploy actions, whose RoleArn is an Fn::Join with an empty delimiter, under
        # E3703 ("prefer Fn::Sub"): a style preference raised at error level, on this one resource only.
        self.pipeline.pipeline.node.default_child.add_metadata(
            "cfn-lint", {"config": {"ignore_checks": ["E3703"]}}
        )
        acknowledge_pipeline(self.pipeline)
        # Environments in another region than the pipeline get a support stack with a replication bucket there.
        for support in self.pipeline.pipeline.cross_region_support.values():
            acknowledge_replication_bucket(support.replication_bucket)
        refuse_placeholders(
            self,
            source=pipeline_config.source_file,
            fields=pipeline_config.placeholders,
            how_to_fix="Copy it to config/pipeline/NAME.yaml, put in your own account, connection and "
            "repository, and deploy that: npx cdk deploy -c pipeline=NAME",
        )

    def _smoke_test(
        self,
        source: pipelines.IFileSetProducer,
        stage: EnvironmentStage,
        pipeline_config: PipelineConfig,
        env_config: EnvironmentConfig,
    ) -> pipelines.CodeBuildStep:
        # The step's own role, by the name the environment's API key policy allows (smoke_test_role_name); inside the
        # pipeline construct, as the role CDK Pipelines would make, so that acknowledge_pipeline covers its findings.
        role = iam.Role(
            self.pipeline,
            f"SmokeTestRole-{env_config.name}",
            role_name=smoke_test_role_name(pipeline_config, env_config),
            assumed_by=iam.ServicePrincipal("codebuild.amazonaws.com"),
            description=f"The smoke test step of {env_config.name}: the only reader of its API key in this account",
        )
        return smoke_test_step(source, stage, env_config, role=role)


def needs_external_smoke_test(env_config: EnvironmentConfig) -> bool:
    """Whether a CodeBuild step smoke-tests the stage from the pipeline account: not when the environment deploys its own
    deploy-time smoke test (``endpoint.deploy_time_smoke_test``, stacks/smoke_stack.py). That one runs inside the VPC,
    where an internal endpoint is reachable, and fails the stage's deployment itself, before the next wave; the step
    would add nothing but a second run from outside, which cannot reach an internal endpoint. Without it the step stays,
    and the pipeline's account may read the API key for it."""
    return not env_config.endpoint.deploy_time_smoke_test


def smoke_test_commands(env_config: EnvironmentConfig) -> tuple[dict[str, str], list[str]]:
    """The smoke test step's variables (name → the serving stack's output they come from) and its commands.

    Without TLS the step tests the stack's ``EndpointUrl``. With TLS that URL names ``endpoint.domain_name``, whose DNS
    record is the user's and may not exist yet: the step connects to the load balancer's own name (the output
    ``LoadBalancerHostname``) and sends and verifies the domain with ``--tls-server-name``, so it tests the certificate
    clients will see without depending on the record.
    """
    if env_config.endpoint.tls:
        variables = {"LOAD_BALANCER_HOSTNAME": "load_balancer_hostname"}
        target = f'--url "https://$LOAD_BALANCER_HOSTNAME" --tls-server-name {env_config.endpoint.domain_name}'
    else:
        variables = {"ENDPOINT_URL": "endpoint_url"}
        target = '--url "$ENDPOINT_URL"'
    return variables, [
        # --env: the API key from the environment's secret (read by ARN in its account and region: the step
        # runs in the pipeline account), tried once /health answers, which itself needs no key
        f"bin/llmops wait endpoint {target} --env {env_config.name} --timeout 10000 --interval 60",
        # --env: the key, the served name and the model vLLM must have loaded (its root in /v1/models)
        f"bin/llmops smoke-test {target} --env {env_config.name} --json",
    ]


def smoke_test_step(
    source: pipelines.IFileSetProducer,
    stage: EnvironmentStage,
    env_config: EnvironmentConfig,
    *,
    role: iam.IRole | None = None,
) -> pipelines.CodeBuildStep:
    """The CodeBuild step after ``stage``: ``llmops wait endpoint`` and ``smoke-test`` against its serving stack's
    outputs (CDK Pipelines passes them as environment variables, ``env_from_cfn_outputs``)."""
    serving = stage.environment.stack("serving")
    variables, commands = smoke_test_commands(env_config)
    return pipelines.CodeBuildStep(
        f"SmokeTest-{env_config.name}",
        input=source,
        install_commands=OPS_SETUP,
        env_from_cfn_outputs={name: getattr(serving, output) for name, output in variables.items()},
        commands=commands,
        role=role,
        role_policy_statements=api_key_reader_statements(env_config),
        timeout=SMOKE_TEST_TIMEOUT,
    )
