"""The hyperpod section: the Flexible Training Plan, its instance group and the workers' autoscaling (platform:
hyperpod)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, Field, ValidationInfo, field_validator, model_validator

from deployment_config.catalog import GPU_INSTANCE_TYPES, GpuInstanceType
from deployment_config.errors import Problem, quoted
from deployment_config.sections._fields import (
    _STRICT,
    _text,
    fail,
    report,
)

#: Room an image and the node's own files need beside the weights on a HyperPod volume (GB).
VOLUME_HEADROOM_GB = 100
_ML_GPU_TYPES = tuple(f"ml.{name}" for name in GPU_INSTANCE_TYPES)
#: The resource part of a training plan ARN: the SageMaker API model (botocore 1.43.127, sagemaker service-2.json) has
#: TrainingPlanName = [a-zA-Z0-9](-*[a-zA-Z0-9]){0,63}, 1 to 64 characters.
TRAINING_PLAN_RESOURCE = r"training-plan/(?=.{1,64}$)[A-Za-z0-9](-*[A-Za-z0-9]){0,63}"


class AutoscalingSection(BaseModel):
    """The Inference Operator's autoscaling of the HyperPod workers (KEDA, from the operator's CRD ``autoScalingSpec``),
    on the serving metric the observability stack puts into CloudWatch (``LLMServing`` / ``RequestsWaiting``)."""

    model_config = _STRICT

    min_replicas: int = Field(
        default=1,
        ge=1,
        le=64,
        description="Workers always running (at least 1: a worker that scales from 0 reloads the "
        "weights, up to the startup budget). Default: 1.",
        examples=[1],
    )
    max_replicas: int = Field(
        ge=1,
        le=64,
        description="Workers at most: at most hyperpod.instance_count (a worker takes an instance's GPUs).",
        examples=[2],
    )
    target_requests_waiting: float = Field(
        # validate_default: the default, written 8 in the schema, is held as the float the field's type says
        default=8,
        validate_default=True,
        gt=0,
        le=10000,
        description="Requests waiting in vLLM's queue per worker "
        "above which another worker is started. Default: 8.",
        examples=[8],
    )

    @model_validator(mode="after")
    def _bounds(self, info: ValidationInfo) -> AutoscalingSection:
        if self.min_replicas > self.max_replicas:
            report(
                info,
                "hyperpod.autoscaling.min_replicas",
                Problem(
                    f"is {self.min_replicas}, more than max_replicas ({self.max_replicas})",
                    "make min_replicas at most max_replicas",
                ),
            )
        return self


class HyperPodSection(BaseModel):
    """The Flexible Training Plan and the HyperPod instance group it feeds (platform: hyperpod)."""

    model_config = _STRICT

    training_plan_arn: Annotated[str, _text(2048)] = Field(
        description="The plan's ARN; it must be in the environment's account and region.",
        examples=["arn:aws:sagemaker:us-west-2:123456789012:training-plan/kimi-k3"],
        json_schema_extra={
            "pattern": r"^arn:aws[a-z-]*:sagemaker:[a-z0-9-]+:\d{12}:training-plan/"
            r"[A-Za-z0-9](-*[A-Za-z0-9]){0,63}$"
        },
    )
    availability_zone: Annotated[str, _text(64)] = Field(
        description="The zone of the plan's capacity; it must be one of availability_zones.",
        examples=["us-west-2a"],
    )
    instance_type: Literal[_ML_GPU_TYPES] = Field(  # type: ignore[valid-type]
        default="ml.p6-b300.48xlarge",
        description="SageMaker instance type. Default: ml.p6-b300.48xlarge.",
        examples=["ml.p6-b300.48xlarge"],
        validate_default=True,
    )
    instance_count: int = Field(
        default=1,
        ge=1,
        le=64,
        description="Instances in the group (1..64). Default: 1.",
        examples=[1],
    )
    autoscaling: AutoscalingSection | None = Field(
        default=None,
        description="Scale the workers between min_replicas and max_replicas on vLLM's queue. Default: "
        "none, a fixed number of workers (endpoint.replicas, else one per instance).",
    )
    volume_size_gb: int | None = Field(
        default=None,
        ge=1,
        le=16384,
        description="An extra EBS volume per instance (GB), mounted at /opt/sagemaker. "
        "Default: none; the instance store holds the image and the weights.",
        examples=[2000],
    )
    dependencies_chart_dir: Annotated[str, _text(4096)] | None = Field(
        default=None,
        description="A local copy of the HyperPod dependencies Helm chart to install instead of the "
        "vendored one. Default: the vendored chart.",
        examples=["../sagemaker-hyperpod-cli/helm_chart/HyperPodHelmChart"],
    )

    @field_validator("dependencies_chart_dir")
    @classmethod
    def _chart(cls, value: str | None) -> str | None:
        """The chart's directory as an absolute path: the stacks read it from wherever the CDK runs."""
        if value is None:
            return None
        if not (Path(value).expanduser() / "Chart.yaml").is_file():
            fail(
                Problem(
                    f"{quoted(value)} has no Chart.yaml",
                    "point it at a local copy of helm_chart/HyperPodHelmChart from the aws/sagemaker-hyperpod-cli "
                    "repository (with its dependencies: helm dependency build), or remove it",
                )
            )
        return str(Path(value).expanduser().resolve())

    @property
    def gpu_instance_type(self) -> GpuInstanceType:
        """The catalog's entry of ``instance_type`` (SageMaker's name is the EC2 name behind ``ml.``)."""
        return GPU_INSTANCE_TYPES[self.instance_type.removeprefix("ml.")]
