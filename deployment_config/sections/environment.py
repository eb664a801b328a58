"""An environment file (config/NAME.yaml): the top-level keys and the sections, as one model."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from deployment_config import aws_rules
from deployment_config.errors import key_in_path
from deployment_config.sections._fields import (
    _STRICT,
    _rule,
    _text,
    report,
)
from deployment_config.sections.access import AccessSection
from deployment_config.sections.bridge import BridgeSection
from deployment_config.sections.capacity import CapacitySection
from deployment_config.sections.cluster import ClusterSection
from deployment_config.sections.endpoint import EndpointSection
from deployment_config.sections.hyperpod import HyperPodSection
from deployment_config.sections.model import ModelSection
from deployment_config.sections.observability import ObservabilitySection

#: Kubernetes versions the app can deploy: each needs a matching kubectl Lambda layer in requirements.txt.
SUPPORTED_KUBERNETES_VERSIONS = ("1.34", "1.35")
#: Of those, the ones SageMaker HyperPod supports (it lags EKS): "Getting started with Amazon EKS support in SageMaker
#: HyperPod", Requirements, "Kubernetes version support" lists 1.28 to 1.34
#: (https://docs.aws.amazon.com/sagemaker/latest/dg/sagemaker-hyperpod-eks-prerequisites.html).
HYPERPOD_KUBERNETES_VERSIONS = ("1.34",)
DEFAULT_KUBERNETES_VERSION = "1.34"
#: The subnets stacks/network_stack.py lays out in every zone of the VPC (CDK allocates them in this order, each
#: aligned to its own size).
PUBLIC_SUBNET_PREFIX = 24
PRIVATE_SUBNET_PREFIX = 20
#: Tag keys the app adds itself to every resource.
RESERVED_TAG_KEYS = ("environment",)


def vpc_addresses_needed(zones: int) -> int:
    """Addresses the public subnets, then the private ones (each aligned to its size) take in a VPC of ``zones`` zones."""
    public, private = 2 ** (32 - PUBLIC_SUBNET_PREFIX), 2 ** (32 - PRIVATE_SUBNET_PREFIX)
    return -(-zones * public // private) * private + zones * private


class EnvironmentFile(BaseModel):
    """One environment: config/NAME.yaml. Deployed with `npx cdk deploy -c env=NAME --all`."""

    model_config = ConfigDict(
        **_STRICT,
        title="LLM serving environment",
        json_schema_extra={"$id": "https://llm-serving.invalid/schema/environment.schema.json"},
    )

    account: Annotated[str, _text(64), _rule(aws_rules.account_problem)] = Field(
        description="The AWS account id: 12 digits, quoted so that leading zeros survive.",
        examples=["123456789012"],
        json_schema_extra={"pattern": "^[0-9]{12}$"},
    )
    region: Annotated[str, _text(64), _rule(aws_rules.region_problem)] = Field(
        description="The AWS region.",
        examples=["us-west-2"],
        json_schema_extra={"enum": list(aws_rules.known_regions())},
    )
    availability_zones: list[Annotated[str, _text(64)]] = Field(
        min_length=2,
        description="At least two zones of the region; the GPU capacity's zone among them.",
        examples=[["us-west-2a", "us-west-2b"]],
    )
    platform: Literal["eks", "hyperpod"] = Field(
        default="eks",
        validate_default=True,
        description="'eks' (managed node group on a Capacity Block; the default) or 'hyperpod' "
        "(SageMaker HyperPod on a Flexible Training Plan).",
        examples=["eks"],
    )
    kubernetes_version: Literal[SUPPORTED_KUBERNETES_VERSIONS] = Field(  # type: ignore[valid-type]
        default=DEFAULT_KUBERNETES_VERSION,
        validate_default=True,
        description="The EKS Kubernetes version, quoted.",
        examples=["1.34"],
    )
    vpc_cidr: Annotated[str, _text(64), _rule(aws_rules.vpc_cidr_problem)] = Field(
        default="10.0.0.0/16",
        validate_default=True,
        description="The VPC's private IPv4 range: a /16 to /18 (two or three zones need a /18, four a /17). "
        "Default: 10.0.0.0/16.",
        examples=["10.0.0.0/16"],
    )
    cluster: ClusterSection = Field(description="The EKS cluster.")
    capacity: CapacitySection | None = Field(
        default=None,
        validate_default=True,
        description="The Capacity Block; required for platform: eks.",
    )
    hyperpod: HyperPodSection | None = Field(
        default=None,
        validate_default=True,
        description="The training plan; required for platform: hyperpod.",
    )
    bridge: BridgeSection | None = Field(
        default=None,
        description="On-demand GPU nodes that keep the endpoint up after the Capacity Block ends (platform: eks; "
        "docs/stay-up.md). Default: none, the endpoint stops with the block.",
    )
    # Defaults as mappings, validated: an omitted section still goes through its rules (the model must fit the GPUs).
    model: ModelSection = Field(
        default={}, validate_default=True, description="The model. Default: the kimi-k3 preset."
    )
    endpoint: EndpointSection = Field(
        default={}, validate_default=True, description="The endpoint. Default: internal."
    )
    observability: ObservabilitySection = Field(
        default={},
        validate_default=True,
        description="Metrics, dashboard, alarms and logs. Default: on, no e-mail.",
    )
    access: AccessSection = Field(
        default={}, validate_default=True, description="A way into the private VPC. Default: none."
    )
    tags: dict[Annotated[str, _text(128)], Annotated[str, _text(256)]] = Field(
        default={},
        description="Tags on every resource (the app adds 'environment').",
        examples=[{"project": "kimi-k3-serving"}],
    )

    @field_validator("tags")
    @classmethod
    def _tags(cls, value: dict[str, str], info: ValidationInfo) -> dict[str, str]:
        for key, problem in aws_rules.tags_problems(value, reserved_keys=RESERVED_TAG_KEYS):
            report(info, "tags" if key is None else f"tags.{key_in_path(key)}", problem)
        return value
