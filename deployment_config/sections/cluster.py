"""The cluster section: the EKS control plane and its system nodes."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field, ValidationInfo, field_validator

from deployment_config.sections._fields import (
    _STRICT,
    Cidr,
    _report_cidrs,
    _text,
    fail_unknown_instance_type,
)


class ClusterSection(BaseModel):
    """The EKS control plane and its system nodes."""

    model_config = _STRICT

    admin_role_arn: Annotated[str, _text(2048)] = Field(
        description="IAM role given cluster-admin through an EKS access entry.",
        examples=["arn:aws:iam::123456789012:role/PlatformAdmin"],
        json_schema_extra={"pattern": r"^arn:aws[a-z-]*:iam::\d{12}:role/[\w+=,.@/-]+$"},
    )
    endpoint_public_cidrs: list[Cidr] = Field(
        default=[],
        description="Networks allowed to the cluster's public API endpoint. Default: none, the endpoint "
        "is private and reachable only from the VPC.",
        examples=[["203.0.113.0/24"]],
    )
    system_instance_type: Annotated[str, _text(64)] = Field(
        default="m7i.xlarge",
        description="Instance type of the on-demand nodes for controllers. Default: m7i.xlarge.",
        examples=["m7i.xlarge"],
        json_schema_extra={"pattern": r"^[a-z][a-z0-9-]*\.[a-z0-9]+$"},
    )
    system_node_count: int = Field(
        default=2,
        ge=1,
        le=10,
        description="How many system nodes (1..10). Default: 2.",
        examples=[2],
    )

    @field_validator("endpoint_public_cidrs")
    @classmethod
    def _cidrs(cls, value: list[str], info: ValidationInfo) -> list[str]:
        _report_cidrs(info, "cluster.endpoint_public_cidrs", value)
        return value

    @field_validator("system_instance_type")
    @classmethod
    def _instance_type(cls, value: str) -> str:
        fail_unknown_instance_type(
            value,
            "use a type such as m7i.xlarge "
            "(`aws ec2 describe-instance-type-offerings` lists those of a region)",
        )
        return value
