"""Typed configuration of the delivery pipeline (config/pipeline/NAME.yaml), validated once when loaded.

Environments named in the waves are the same files under config/ that a direct deploy uses; each is loaded and
validated with the same loader.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deployment_config.errors import ConfigError, ConfigIssue
from deployment_config.file_models import PipelineFile
from deployment_config.loader import (
    available_environments,
    check_name,
    load_environment,
    read_config_file,
    validate_document,
)
from deployment_config.model import EnvironmentConfig, Platform
from deployment_config.placeholders import PIPELINE_ID_FIELDS, placeholder_fields

PIPELINE_DIR = "pipeline"
DEFAULT_PIPELINE = "example"


@dataclass(frozen=True)
class Source:
    """Where the pipeline takes the code from: a CodeConnections connection, a repository and a branch."""

    connection_arn: str
    repository: str
    branch: str


@dataclass(frozen=True)
class Wave:
    """Environments deployed together, optionally behind a manual approval.

    :param name: the wave's name in the pipeline.
    :param environments: the environments of the wave, in order.
    :param approval: a person approves before the wave starts (and any widening of IAM permissions). Default: false.
    """

    name: str
    environments: tuple[EnvironmentConfig, ...]
    approval: bool = False


@dataclass(frozen=True)
class PipelineConfig:
    name: str
    source_file: str
    account: str
    region: str
    source: Source
    waves: tuple[Wave, ...]
    #: Fields that still hold a placeholder value of the example (deployment_config.placeholders).
    placeholders: tuple[str, ...] = ()

    @property
    def environments(self) -> list[EnvironmentConfig]:
        return [env for wave in self.waves for env in wave.environments]


def load_pipeline(config_dir: Path, name: str = DEFAULT_PIPELINE) -> PipelineConfig:
    check_name(name, context_key="pipeline")
    path, data = read_config_file(
        config_dir / PIPELINE_DIR / f"{name}.yaml",
        context_key="pipeline",
        known=sorted(p.stem for p in (config_dir / PIPELINE_DIR).glob("*.yaml")),
    )
    return _parse(data, name=name, source=str(path), config_dir=config_dir)


def _parse(data: Any, *, name: str, source: str, config_dir: Path) -> PipelineConfig:
    context: dict[str, Any] = {}
    file: PipelineFile = validate_document(data, PipelineFile, source=source, context=context)
    known = available_environments(config_dir)
    issues: list[ConfigIssue] = []
    seen_waves: set[str] = set()
    seen_envs: dict[str, str] = {}
    for i, wave in enumerate(file.waves):
        if wave.name in seen_waves:
            issues.append(
                ConfigIssue(
                    f"waves[{i}].name", f"wave '{wave.name}' is defined twice", "rename one"
                )
            )
        seen_waves.add(wave.name)
        for j, env_name in enumerate(wave.environments):
            field = f"waves[{i}].environments[{j}]"
            if env_name not in known:
                issues.append(
                    ConfigIssue(
                        field,
                        f"there is no environment '{env_name}' (config/{env_name}.yaml)",
                        f"use one of: {', '.join(known)}",
                    )
                )
            elif env_name in seen_envs:
                issues.append(
                    ConfigIssue(
                        field,
                        f"'{env_name}' is already deployed by wave '{seen_envs[env_name]}'",
                        "deploy each environment once",
                    )
                )
            else:
                seen_envs[env_name] = wave.name
    if issues:
        raise ConfigError.of(issues, source=source)
    # Each environment file is validated on its own; its mistakes are reported against that file.
    waves = []
    for i, wave in enumerate(file.waves):
        envs = []
        for j, env_name in enumerate(wave.environments):
            env = load_environment(config_dir, env_name)
            if env.platform is Platform.HYPERPOD and not env.endpoint.deploy_time_smoke_test:
                # The CodeBuild smoke test step (stacks/pipeline_stack.py) runs `llmops wait endpoint` and `smoke-test
                # --env`, which read a HyperPod endpoint's state and certificate through the cluster's private API.
                # The deploy-time smoke test runs in the VPC and needs neither (cdk_constructs/deploy_time_smoke_test/).
                issues.append(
                    ConfigIssue(
                        f"waves[{i}].environments[{j}]",
                        f"'{env_name}' is a HyperPod environment without endpoint.deploy_time_smoke_test: the pipeline's "
                        "smoke test step would need the cluster's private API, which it cannot reach",
                        f"set endpoint.deploy_time_smoke_test: true in config/{env_name}.yaml (its stage then smoke-tests "
                        f"the endpoint from inside the VPC), or deploy it directly (npx cdk deploy -c env={env_name} --all)",
                    )
                )
            envs.append(env)
        waves.append(Wave(wave.name, tuple(envs), wave.approval))
    if issues:
        raise ConfigError.of(issues, source=source)
    return PipelineConfig(
        name=name,
        source_file=source,
        account=file.account,
        region=file.region,
        source=Source(file.source.connection_arn, file.source.repository, file.source.branch),
        waves=tuple(waves),
        placeholders=placeholder_fields(file.model_dump(), PIPELINE_ID_FIELDS),
    )
