"""Multi-account delivery: a CDK Pipeline that deploys every environment, wave by wave, and smoke-tests each."""

from __future__ import annotations

import aws_cdk as cdk
from aws_cdk import aws_codebuild as codebuild
from aws_cdk import aws_codepipeline as codepipeline
from aws_cdk import pipelines
from constructs import Construct

from cdk_constructs.nag_acknowledgements import acknowledge_pipeline, acknowledge_replication_bucket
from cdk_constructs.placeholder_guard import refuse_placeholders
from deployment_config.model import EnvironmentConfig
from deployment_config.pipeline import PipelineConfig
from stacks.composition import Environment, add_environment

#: How long the smoke test step waits for vLLM to load 1.4 TB on a fresh node before it sends a request.
SMOKE_TEST_TIMEOUT = cdk.Duration.hours(3)
PYTHON_SETUP = ["python3 -m venv .venv", ".venv/bin/pip install --quiet -r requirements-dev.txt"]
#: The smoke test needs only the operations CLI's dependencies.
OPS_SETUP = ["python3 -m venv .venv", ".venv/bin/pip install --quiet -r requirements-ops.txt"]


class EnvironmentStage(cdk.Stage):
    """One environment, built by exactly the code path of a direct `cdk deploy -c env=NAME`."""

    def __init__(self, scope: Construct, id: str, *, env_config: EnvironmentConfig, **kwargs) -> None:
        super().__init__(scope, id, **kwargs)
        self.environment: Environment = add_environment(self, env_config)


class PipelineStack(cdk.Stack):
    """CodePipeline in the pipeline account: source from CodeConnections, synth (tests included), then one stage per
    environment, wave by wave, each followed by the operations CLI's smoke test against that stage's endpoint.

    :param pipeline_config: the waves, the source and the pipeline's own account and region.
    :param tool_versions: npm package versions pinned in package.json; ``aws-cdk`` and ``cdk-assets`` are used.
    """

    def __init__(self, scope: Construct, id: str, *, pipeline_config: PipelineConfig, tool_versions: dict[str, str],
                 **kwargs) -> None:
        super().__init__(scope, id, **kwargs)
        source = pipelines.CodePipelineSource.connection(
            pipeline_config.source.repository, pipeline_config.source.branch,
            connection_arn=pipeline_config.source.connection_arn)
        self.synth_step = pipelines.ShellStep(
            "Synth",
            input=source,
            install_commands=["npm ci --no-audit --no-fund", *PYTHON_SETUP],
            commands=["make test", f"npx cdk synth --quiet -c pipeline={pipeline_config.name}"],
            primary_output_directory="cdk.out",
        )
        self.pipeline = pipelines.CodePipeline(
            self, "Pipeline",
            pipeline_name=f"llm-serving-{pipeline_config.name}",
            synth=self.synth_step,
            pipeline_type=codepipeline.PipelineType.V2,
            cross_account_keys=True,  # target accounts decrypt the artifacts with the pipeline's key
            enable_key_rotation=True,
            cli_version=tool_versions["aws-cdk"],
            cdk_assets_cli_version=tool_versions["cdk-assets"],
            code_build_defaults=pipelines.CodeBuildOptions(
                build_environment=codebuild.BuildEnvironment(build_image=codebuild.LinuxBuildImage.STANDARD_7_0)),
        )
        self.stages: dict[str, EnvironmentStage] = {}
        self.smoke_tests: dict[str, pipelines.CodeBuildStep] = {}
        for wave_config in pipeline_config.waves:
            pre = [pipelines.ManualApprovalStep(f"Approve-{wave_config.name}",
                                                comment=f"Deploy wave {wave_config.name}")] if wave_config.approval else None
            wave = self.pipeline.add_wave(wave_config.name, pre=pre)
            for env_config in wave_config.environments:
                stage = EnvironmentStage(self, env_config.name, env_config=env_config,
                                         env=cdk.Environment(account=env_config.account, region=env_config.region))
                smoke = self._smoke_test(source, stage, env_config)
                checks = [pipelines.ConfirmPermissionsBroadening(f"CheckPermissions-{env_config.name}", stage=stage)] \
                    if wave_config.approval else None
                wave.add_stage(stage, pre=checks, post=[smoke])
                self.stages[env_config.name] = stage
                self.smoke_tests[env_config.name] = smoke
        self.pipeline.build_pipeline()
        # cfn-lint 1.58 reports CDK Pipelines' deploy actions, whose RoleArn is an Fn::Join with an empty delimiter, under
        # E3703 ("prefer Fn::Sub"): a style preference raised at error level, on this one resource only.
        self.pipeline.pipeline.node.default_child.add_metadata("cfn-lint", {"config": {"ignore_checks": ["E3703"]}})
        acknowledge_pipeline(self.pipeline)
        # Environments in another region than the pipeline get a support stack with a replication bucket there.
        for support in self.pipeline.pipeline.cross_region_support.values():
            acknowledge_replication_bucket(support.replication_bucket)
        refuse_placeholders(self, source=pipeline_config.source_file, fields=pipeline_config.placeholders,
                            how_to_fix="Copy it to config/pipeline/NAME.yaml, put in your own account, connection and "
                                       "repository, and deploy that: npx cdk deploy -c pipeline=NAME")

    def _smoke_test(self, source: pipelines.IFileSetProducer, stage: EnvironmentStage,
                    env_config: EnvironmentConfig) -> pipelines.CodeBuildStep:
        serving = stage.environment.stack("serving")
        return pipelines.CodeBuildStep(
            f"SmokeTest-{env_config.name}",
            input=source,
            install_commands=OPS_SETUP,
            env_from_cfn_outputs={"ENDPOINT_URL": serving.endpoint_url},
            commands=[
                'bin/llmops wait endpoint --url "$ENDPOINT_URL" --timeout 10000 --interval 60',
                # --env: the served name and the model vLLM must have loaded (its root in /v1/models) come from the file
                f'bin/llmops smoke-test --url "$ENDPOINT_URL" --env {env_config.name} --json',
            ],
            timeout=SMOKE_TEST_TIMEOUT,
        )
