"""The next-block variant (a pytest plugin of tests/conftest.py), read by tests/cdk_constructs/test_observability.py
(its observability stack: alarm e-mails, thresholds, retention, the gap alarm) and tests/stacks/test_block_succession.py
(its GPU nodes stack: a node group per block), synthesized once per test process instead of once per file:
config/example.yaml with the observability section :data:`OBSERVABILITY` and a next Capacity Block
(:data:`NEXT_BLOCK`), every stack of the app, under cdk-nag.

Session-scoped: built by the first of the two files a process runs, reused by the other (both with ``-n 0``, and with
xdist because tests/scheduling.py's SAME_WORKER gives them to one worker).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

#: The variant's observability section, as keyword arguments of deployment_config.model.ObservabilityConfig.
OBSERVABILITY = dict(
    alarm_emails=["oncall@example.com", "ml-platform@example.com"],
    log_retention_days=90,
    time_to_first_token_p90_seconds=2.5,
    kv_cache_usage_percent=90,
    error_rate_percent=2,
    block_fee_usd=91540.8,
    idle_alarm_minutes=120,
)
#: The variant's next Capacity Block (capacity.next_capacity_reservation_id): serving across blocks.
NEXT_BLOCK = "cr-0fedcba9876543210"


@pytest.fixture(scope="session")
def next_block_env(default_env):
    """config/example.yaml with OBSERVABILITY as its observability section and NEXT_BLOCK after its block."""
    from deployment_config.model import ObservabilityConfig

    capacity = default_env.capacity.model_copy(update={"next_capacity_reservation_id": NEXT_BLOCK})
    return dataclasses.replace(
        default_env, observability=ObservabilityConfig(**OBSERVABILITY), capacity=capacity
    )


@pytest.fixture(scope="session")
def next_block_assembly(next_block_env, tmp_path_factory) -> Path:
    """The cloud assembly directory of next_block_env, synthesized as `cdk synth` does (app.synthesize) but for
    inspection only (app.checked_app): it raises on an unacknowledged cdk-nag finding."""
    from app import synthesize

    result = synthesize(
        [next_block_env], outdir=str(tmp_path_factory.mktemp("next-block.out")), inspect_only=True
    )
    return result.directory


def stack_templates(directory: Path) -> dict[str, Path]:
    """Stack name → template file of a cloud assembly directory, from its manifest.json."""
    manifest = json.loads((directory / "manifest.json").read_text())
    return {
        name: directory / a["properties"]["templateFile"]
        for name, a in manifest["artifacts"].items()
        if a["type"] == "aws:cloudformation:stack"
    }
