"""The endpoint's promotion gate: the load test after the deploy-time smoke test, and its thresholds."""

from __future__ import annotations

from pydantic import BaseModel, Field, field_validator

from deployment_config.errors import Problem
from deployment_config.promotion_gate import GateRun, PromotionGateConfig, default_num_prompts
from deployment_config.sections._fields import (
    _STRICT,
    fail,
)


class PromotionGateRunSection(BaseModel):
    """One load test run of the promotion gate and its thresholds."""

    model_config = _STRICT

    concurrency: int = Field(
        ge=1,
        le=1024,
        description="Concurrent requests (vllm bench serve --max-concurrency).",
        examples=[4],
    )
    num_prompts: int | None = Field(
        default=None,
        ge=1,
        le=10000,
        description="Requests in the run. Default: max(10, 4 x concurrency), as llmops bench.",
        examples=[16],
    )
    max_ttft_p90_ms: float | None = Field(
        default=None,
        gt=0,
        le=600000,
        description="Fail when the 90th percentile of "
        "time to first token exceeds this many milliseconds. Default: not checked.",
        examples=[900],
    )
    min_output_tokens_per_s: float | None = Field(
        default=None,
        gt=0,
        le=1000000,
        description="Fail when the run's "
        "output tokens per second (all requests) are fewer. Default: not "
        "checked (the run may then take up to 10 tok/s).",
        examples=[350],
    )
    within_percent_of_published: float | None = Field(
        default=None,
        gt=0,
        le=100,
        description="Fail when the run's output tokens per second fall more than this many "
        "percent below the published figure for the same GPU, serving profile, features, concurrency and lengths "
        "(deployment_config/data/published/); such a row must exist. Default: not checked.",
        examples=[10],
    )


class PromotionGateSection(BaseModel):
    """After the deploy-time smoke test: the correctness probe and a load test in the cluster with thresholds; the
    stack NAME-smoke (and a pipeline stage) fails when they are not met."""

    model_config = _STRICT

    runs: list[PromotionGateRunSection] = Field(
        min_length=1,
        max_length=8,
        description="The load test's runs, one "
        "after the other, each with its thresholds; distinct concurrencies.",
        examples=[
            [
                {"concurrency": 1, "max_ttft_p90_ms": 600},
                {"concurrency": 4, "min_output_tokens_per_s": 350},
            ]
        ],
    )
    input_len: int = Field(
        default=8192,
        ge=1,
        le=262144,
        description="Prompt tokens per request. Default: 8192.",
        examples=[8192],
    )
    output_len: int = Field(
        default=1024,
        ge=1,
        le=65536,
        description="Generated tokens per request (EOS ignored). Default: 1024.",
        examples=[1024],
    )
    correctness: bool = Field(
        default=True,
        description="Run llmops bench's correctness probe (7919 x 13, and a tool "
        "call checked against its JSON schema) before the load test. Default: true.",
        examples=[True],
    )
    max_failed_requests: int = Field(
        default=0, ge=0, description="Failed requests allowed per run. Default: 0.", examples=[0]
    )
    retention_days: int = Field(
        default=365,
        ge=1,
        le=3650,
        description="Days the results bucket keeps each result. Default: 365.",
        examples=[365],
    )

    @field_validator("runs")
    @classmethod
    def _distinct(cls, value: list[PromotionGateRunSection]) -> list[PromotionGateRunSection]:
        seen = [run.concurrency for run in value]
        twice = sorted({c for c in seen if seen.count(c) > 1})
        if twice:
            fail(
                Problem(
                    f"concurrency {', '.join(map(str, twice))} is listed more than once",
                    "give each run its own concurrency",
                )
            )
        return value


def promotion_gate_config(section: PromotionGateSection) -> PromotionGateConfig:
    """The frozen configuration of a validated ``endpoint.promotion_gate``."""
    return PromotionGateConfig(
        runs=tuple(
            GateRun(
                concurrency=run.concurrency,
                num_prompts=run.num_prompts or default_num_prompts(run.concurrency),
                max_ttft_p90_ms=run.max_ttft_p90_ms,
                min_output_tokens_per_s=run.min_output_tokens_per_s,
                within_percent_of_published=run.within_percent_of_published,
            )
            for run in section.runs
        ),
        input_len=section.input_len,
        output_len=section.output_len,
        correctness=section.correctness,
        max_failed_requests=section.max_failed_requests,
        retention_days=section.retention_days,
    )
