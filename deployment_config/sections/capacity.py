"""The capacity section: the EC2 Capacity Block of the GPU nodes (platform: eks)."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import BaseModel, Field, ValidationInfo, field_validator, model_validator

from deployment_config.catalog import GPU_INSTANCE_TYPES, GpuInstanceType
from deployment_config.errors import Problem, quoted
from deployment_config.sections._fields import (
    _STRICT,
    _text,
    fail,
    pattern,
    report,
)

_GPU_TYPES = tuple(GPU_INSTANCE_TYPES)
#: A capacity reservation id: 'cr-' and 17 lowercase hex digits.
RESERVATION_ID = r"cr-[0-9a-f]{17}"


# The validated ``capacity`` section, frozen, is what the stacks and ops_cli read (EnvironmentConfig.capacity), with the
# GPU type's catalog entry derived (gpu_instance_type, as HyperPodSection has it); ``instance_type`` stays the name.
# (The class's docstring is the schema's description of the section.)
class CapacitySection(BaseModel):
    """The EC2 Capacity Block the GPU nodes run on (platform: eks)."""

    model_config = _STRICT

    instance_type: Literal[_GPU_TYPES] = Field(  # type: ignore[valid-type]
        description="The GPU instance type of the reservation.", examples=["p6-b300.48xlarge"]
    )
    instance_count: int = Field(
        default=1,
        ge=1,
        le=64,
        description="Instances in the reservation, and GPU nodes "
        "(a Capacity Block holds 1 to 64). Default: 1.",
        examples=[1],
    )
    capacity_reservation_id: Annotated[str, _text(64)] = Field(
        description="The Capacity Block reservation: 'cr-' and 17 lowercase hex digits.",
        examples=["cr-0123456789abcdef0"],
        json_schema_extra=pattern(RESERVATION_ID),
    )
    availability_zone: Annotated[str, _text(64)] = Field(
        description="The reservation's Availability Zone; it must be one of availability_zones.",
        examples=["us-west-2a"],
    )

    next_capacity_reservation_id: Annotated[str, _text(64)] | None = Field(
        default=None,
        description="The Capacity Block after this one, for serving across blocks (docs/capacity.md, 'Serve across "
        "blocks'): it gets its own GPU node group, with the same labels and taints, whose nodes start when it starts. "
        "Same instance type, count and Availability Zone as capacity_reservation_id ('bin/llmops handover' checks). "
        "Default: none, the endpoint stops at the block's end.",
        examples=["cr-0fedcba9876543210"],
        json_schema_extra=pattern(RESERVATION_ID),
    )

    @field_validator("capacity_reservation_id", "next_capacity_reservation_id")
    @classmethod
    def _reservation(cls, value: str | None) -> str | None:
        if value is None:
            return value
        if not re.fullmatch(RESERVATION_ID, value):
            fail(
                Problem(
                    f"{quoted(value)} is not a capacity reservation id ('cr-' followed by 17 lowercase hex digits)",
                    "copy the id from 'aws ec2 describe-capacity-reservations' or the purchase confirmation",
                )
            )
        return value

    @model_validator(mode="after")
    def _next_is_another_block(self, info: ValidationInfo) -> CapacitySection:
        # Two node groups on one reservation would share its instances: the second could never start a node.
        if self.next_capacity_reservation_id == self.capacity_reservation_id:
            report(
                info,
                "capacity.next_capacity_reservation_id",
                Problem(
                    f"{quoted(self.capacity_reservation_id)} is the current reservation "
                    "(capacity.capacity_reservation_id), not the block after it",
                    "name the Capacity Block that starts before this one ends ('bin/llmops capacity-blocks purchase' "
                    "prints its id), or remove capacity.next_capacity_reservation_id",
                ),
            )
        return self

    @property
    def gpu_instance_type(self) -> GpuInstanceType:
        """The catalog entry of ``instance_type`` (deployment_config/catalog.py): GPUs, memory, EFA interfaces."""
        return GPU_INSTANCE_TYPES[self.instance_type]
