"""The Phase row every step of the start-up plan is (ops_cli/timeline.py, ops_cli/first_token_plan.py)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Phase:
    """One step of the timeline. ``minutes`` is None where nothing here computes or documents the duration;
    ``limit_minutes`` is the step's bound (weights / the fastest sourced or measured rate), None where there is none;
    ``first_start_minutes``, on a new node where a compile cache is kept, the same start on the first ever of the
    cache's key (the cold warm-up in place of the restored one)."""

    step: str
    minutes: float | None
    basis: str
    without_minutes: str = "not measured"
    limit_minutes: float | None = None
    first_start_minutes: float | None = None


def minutes(seconds: float) -> float:
    return round(seconds / 60, 1)
