"""Typed configuration of the delivery pipeline (config/pipeline/NAME.yaml), validated once when loaded.

Environments named in the waves are the same files under config/ that a direct deploy uses; each is loaded and
validated with the same loader.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deployment_config.errors import ConfigError
from deployment_config.loader import (
    _ACCOUNT,
    _REGION,
    _check,
    _Section,
    available_environments,
    load_environment,
    read_config_file,
)
from deployment_config.model import EnvironmentConfig, Platform

PIPELINE_DIR = "pipeline"
DEFAULT_PIPELINE = "example"
_CONNECTION_ARN = re.compile(
    r"^arn:aws[a-z-]*:(codeconnections|codestar-connections):([a-z0-9-]+):(\d{12}):connection/[0-9a-f-]{36}$")
_REPOSITORY = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
_WAVE_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9-]{0,39}$")


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

    @property
    def environments(self) -> list[EnvironmentConfig]:
        return [env for wave in self.waves for env in wave.environments]


def load_pipeline(config_dir: Path, name: str = DEFAULT_PIPELINE) -> PipelineConfig:
    path, data = read_config_file(config_dir / PIPELINE_DIR / f"{name}.yaml", context_key="pipeline",
                                  known=sorted(p.stem for p in (config_dir / PIPELINE_DIR).glob("*.yaml")))
    try:
        return _parse(data, name=name, source=str(path), config_dir=config_dir)
    except ConfigError as error:
        raise (error if error.source else error.with_source(str(path))) from None


def _parse(data: Any, *, name: str, source: str, config_dir: Path) -> PipelineConfig:
    top = _Section(data, "", ("account", "region", "source", "waves"))
    account = top.required("account", str, '"111111111111"')
    _check(bool(_ACCOUNT.match(account)), "account", f"'{account}' is not an AWS account id ({len(account)} characters)",
           "use the 12-digit id of the pipeline's own account, quoted")
    region = top.required("region", str, "us-west-2")
    _check(bool(_REGION.match(region)), "region", f"'{region}' is not an AWS region name", "use a region such as us-west-2")

    src = top.section("source", ("connection_arn", "repository", "branch"))
    arn = src.required("connection_arn", str, f"arn:aws:codeconnections:{region}:{account}:connection/UUID")
    match = _CONNECTION_ARN.match(arn)
    _check(bool(match), src.field("connection_arn"), f"'{arn}' is not a CodeConnections connection ARN",
           "copy the ARN from 'aws codeconnections list-connections' (arn:aws:codeconnections:REGION:ACCOUNT:connection/UUID)")
    repository = src.required("repository", str, "my-org/llm-serving")
    _check(bool(_REPOSITORY.match(repository)), src.field("repository"), f"'{repository}' is not OWNER/NAME",
           "write the repository as owner/name, for example my-org/llm-serving")
    branch = src.required("branch", str, "main")
    _check(bool(branch.strip()) and " " not in branch, src.field("branch"), f"'{branch}' is not a branch name", "use main")

    waves_data = top.required("waves", list, "[{name: dev, environments: [dev]}]")
    _check(bool(waves_data), "waves", "lists no wave", "add at least one wave with one environment")
    known = available_environments(config_dir)
    seen_waves: set[str] = set()
    seen_envs: dict[str, str] = {}
    waves = []
    for i, item in enumerate(waves_data):
        wave = _Section(item, f"waves[{i}]", ("name", "environments", "approval"))
        wave_name = wave.required("name", str, "prod")
        _check(bool(_WAVE_NAME.match(wave_name)), wave.field("name"), f"'{wave_name}' cannot name a pipeline wave",
               "start with a letter; use letters, digits and '-'")
        _check(wave_name not in seen_waves, wave.field("name"), f"wave '{wave_name}' is defined twice", "rename one")
        seen_waves.add(wave_name)
        names = wave.string_list("environments", "prod")
        _check(bool(names), wave.field("environments"), "lists no environment", "name at least one file of config/")
        envs = []
        for j, env_name in enumerate(names):
            field = f"{wave.field('environments')}[{j}]"
            _check(env_name in known, field, f"there is no environment '{env_name}' (config/{env_name}.yaml)",
                   f"use one of: {', '.join(known)}")
            _check(env_name not in seen_envs, field,
                   f"'{env_name}' is already deployed by wave '{seen_envs.get(env_name)}'", "deploy each environment once")
            seen_envs[env_name] = wave_name
            env = load_environment(config_dir, env_name)
            _check(env.platform is Platform.EKS, field,
                   f"'{env_name}' is a HyperPod environment: its endpoint state is only visible through the cluster's "
                   "private API, which the pipeline's smoke test step cannot reach",
                   "deploy HyperPod environments directly (npx cdk deploy -c env=NAME --all)")
            envs.append(env)
        approval = wave.optional("approval", bool, False, "true")
        waves.append(Wave(wave_name, tuple(envs), approval))
    return PipelineConfig(name=name, source_file=source, account=account, region=region,
                          source=Source(arn, repository, branch), waves=tuple(waves))
