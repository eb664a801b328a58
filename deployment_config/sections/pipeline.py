"""A pipeline file (config/pipeline/NAME.yaml): the source, the waves and their environments."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, field_validator

from deployment_config import aws_rules
from deployment_config.errors import Problem, quoted
from deployment_config.sections._fields import (
    _STRICT,
    _rule,
    _text,
    fail,
    pattern,
)

_REPOSITORY = r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+"
_WAVE_NAME = r"[A-Za-z][A-Za-z0-9-]{0,39}"


class SourceSection(BaseModel):
    """Where the pipeline takes the code from."""

    model_config = _STRICT

    connection_arn: Annotated[str, _text(2048)] = Field(
        description="A CodeConnections connection in the pipeline's account and region.",
        examples=[
            "arn:aws:codeconnections:us-west-2:111111111111:connection/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
        ],
    )
    repository: Annotated[str, _text(256)] = Field(
        description="The repository, as OWNER/NAME.",
        examples=["my-org/llm-serving"],
        json_schema_extra=pattern(_REPOSITORY),
    )
    branch: Annotated[str, _text(256), _rule(aws_rules.git_branch_problem)] = Field(
        description="The branch the pipeline deploys.", examples=["main"]
    )

    @field_validator("repository")
    @classmethod
    def _repository(cls, value: str) -> str:
        if not re.fullmatch(_REPOSITORY, value):
            fail(
                Problem(
                    f"{quoted(value)} is not OWNER/NAME",
                    "write the repository as owner/name, for example my-org/llm-serving",
                )
            )
        return value


class WaveSection(BaseModel):
    """Environments deployed together, optionally behind a manual approval."""

    model_config = _STRICT

    name: Annotated[str, _text(40)] = Field(
        description="The wave's name in the pipeline.",
        examples=["prod"],
        json_schema_extra=pattern(_WAVE_NAME),
    )
    environments: list[Annotated[str, _text(64)]] = Field(
        min_length=1, description="Files of config/, without .yaml.", examples=[["prod"]]
    )
    approval: bool = Field(
        default=False,
        description="A person approves before the wave starts. Default: false.",
        examples=[True],
    )

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        if not re.fullmatch(_WAVE_NAME, value):
            fail(
                Problem(
                    f"{quoted(value)} cannot name a pipeline wave",
                    "start with a letter; use letters, digits and '-'",
                )
            )
        return value


class PipelineFile(BaseModel):
    """The delivery pipeline: config/pipeline/NAME.yaml. Synthesized with `npx cdk synth -c pipeline=NAME`."""

    model_config = ConfigDict(
        **_STRICT,
        title="LLM serving delivery pipeline",
        json_schema_extra={"$id": "https://llm-serving.invalid/schema/pipeline.schema.json"},
    )

    account: Annotated[str, _text(64), _rule(aws_rules.account_problem)] = Field(
        description="The pipeline's own (tooling) account, quoted.",
        examples=["111111111111"],
        json_schema_extra={"pattern": "^[0-9]{12}$"},
    )
    region: Annotated[str, _text(64), _rule(aws_rules.region_problem)] = Field(
        description="The pipeline's region.",
        examples=["us-west-2"],
        json_schema_extra={"enum": list(aws_rules.known_regions())},
    )
    source: SourceSection = Field(description="The repository the pipeline deploys from.")
    waves: list[WaveSection] = Field(min_length=1, description="Deployed in this order.")
