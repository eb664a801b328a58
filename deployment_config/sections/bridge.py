"""The bridge section: on-demand GPU nodes that start a cold start before the Capacity Block's scale-down and keep the
endpoint up after the block ends (platform: eks; docs/stay-up.md)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Annotated, Literal

from pydantic import BaseModel, Field, field_validator

from deployment_config.catalog import GPU_INSTANCE_TYPES, GpuInstanceType
from deployment_config.errors import Problem, quoted
from deployment_config.sections._fields import _STRICT, _text, fail, pattern

_GPU_TYPES = tuple(GPU_INSTANCE_TYPES)
#: The block's end as EC2 reports it (DescribeCapacityReservations EndDate), in UTC, to the minute.
BLOCK_END = r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:00)?Z"
#: The capacity types the file may name; only ``on-demand`` is built (``_capacity_type`` says why not the others).
CAPACITY_TYPES = ("on-demand", "spot", "capacity-reservation")
#: What the bridge's start keeps besides the startup budget by default: an on-demand launch, the node joining the
#: cluster and the image pull, none of which the startup budget (deployment_config/sizing.py) counts.
DEFAULT_MARGIN_MINUTES = 30
#: How long the bridge serves after the block's end by default, with no next block to hand over to.
DEFAULT_HOURS_AFTER_BLOCK_END = 24


class BridgeSection(BaseModel):
    """Bridge capacity (platform: eks): a second GPU node group, on-demand and at zero, that EventBridge Scheduler
    starts one startup budget and a margin before the Capacity Block's scale-down and stops a fixed time after the
    block's end (docs/stay-up.md)."""

    model_config = _STRICT

    instance_types: list[Literal[_GPU_TYPES]] = Field(  # type: ignore[valid-type]
        min_length=1,
        description="GPU instance types in order of preference. Each must serve the model with the block's layout "
        "and vLLM profile (capacity.instance_type's); for now exactly one.",
        examples=[["p6-b300.48xlarge"]],
    )
    capacity_type: Literal[CAPACITY_TYPES] = Field(  # type: ignore[valid-type]
        default="on-demand",
        validate_default=True,
        description="How the bridge's instances are bought: 'on-demand' (the default; the only one built so far).",
        examples=["on-demand"],
    )
    max_instances: int | None = Field(
        default=None,
        ge=1,
        le=64,
        description="Bridge instances, started together: a multiple of the nodes one replica needs. "
        "Default: capacity.instance_count, as many as the block serves on.",
        examples=[1],
    )
    margin_minutes: int = Field(
        default=DEFAULT_MARGIN_MINUTES,
        ge=0,
        le=240,
        description="Minutes the bridge starts before the block's scale-down besides the startup budget: the "
        f"instance's launch, its join and the image pull. Default: {DEFAULT_MARGIN_MINUTES}.",
        examples=[DEFAULT_MARGIN_MINUTES],
    )
    block_end: Annotated[str, _text(32)] = Field(
        description="The end of capacity.capacity_reservation_id's block, in UTC, quoted: EC2's EndDate "
        "('bin/llmops capacity-blocks show' prints it; 'bin/llmops preflight' compares the two).",
        examples=["2026-12-06T11:30Z"],
        json_schema_extra=pattern(BLOCK_END),
    )
    hours_after_block_end: int = Field(
        default=DEFAULT_HOURS_AFTER_BLOCK_END,
        ge=1,
        le=336,
        description="Hours the bridge serves after the block's end before it is scaled to 0 (there is no next "
        f"block to hand over to). Default: {DEFAULT_HOURS_AFTER_BLOCK_END}.",
        examples=[DEFAULT_HOURS_AFTER_BLOCK_END],
    )

    @field_validator("instance_types")
    @classmethod
    def _one_type(cls, value: list[str]) -> list[str]:
        if len(value) > 1:
            fail(
                Problem(
                    f"names {len(value)} instance types; a fallback from one bridge type to the next is not built yet "
                    "(the schedule starts one node group of one type)",
                    f"keep one: instance_types: [{value[0]}]",
                )
            )
        return value

    @field_validator("capacity_type")
    @classmethod
    def _capacity_type(cls, value: str) -> str:
        if value == "spot":
            fail(
                Problem(
                    "'spot' is not built yet: EC2 can interrupt a Spot bridge, and nothing here starts another "
                    "in its place",
                    "use capacity_type: on-demand",
                )
            )
        if value == "capacity-reservation":
            fail(
                Problem(
                    "'capacity-reservation' is not built yet: the bridge's launch template targets no "
                    "reservation, so one you hold would not be used",
                    "use capacity_type: on-demand",
                )
            )
        return value

    @field_validator("block_end", mode="before")
    @classmethod
    def _unquoted(cls, value: object) -> object:
        # YAML reads an unquoted 2026-12-06T11:30:00Z as a timestamp (deployment_config/yaml_reader.py).
        if isinstance(value, datetime):
            if value.tzinfo is None or value.utcoffset() != timedelta(0):
                fail(
                    Problem(
                        f"{value.isoformat()} is not in UTC",
                        "write EC2's EndDate in UTC, quoted: block_end: '2026-12-06T11:30Z'",
                    )
                )
            return value.strftime("%Y-%m-%dT%H:%M:%SZ")
        return value

    @field_validator("block_end")
    @classmethod
    def _block_end(cls, value: str) -> str:
        if not re.fullmatch(BLOCK_END, value):
            fail(
                Problem(
                    f"{quoted(value)} is not a time in UTC to the minute (YYYY-MM-DDTHH:MMZ)",
                    "copy the block's end from 'bin/llmops capacity-blocks show', for example '2026-12-06T11:30Z'",
                )
            )
        try:
            datetime.fromisoformat(value)
        except ValueError:
            fail(
                Problem(
                    f"{quoted(value)} is not a date and time", "for example '2026-12-06T11:30Z'"
                )
            )
        return value

    @property
    def block_end_at(self) -> datetime:
        """:attr:`block_end` as an aware datetime in UTC."""
        return datetime.fromisoformat(self.block_end).astimezone(UTC)

    @property
    def gpu_instance_type(self) -> GpuInstanceType:
        """The catalog entry of the bridge's (one) instance type."""
        return GPU_INSTANCE_TYPES[self.instance_types[0]]
