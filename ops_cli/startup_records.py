"""What kubectl printed about a pod's start, read defensively: a field of another shape than the Kubernetes API's reads
as absent (an unknown phase), never as a crash; and the phase those records make (ops_cli/startup_phases.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from ops_cli.output import iso


@dataclass(frozen=True)
class Phase:
    """One phase of a start: ``name``, when it began and ended (None when unknown), and how it was measured."""

    name: str
    started: datetime | None
    finished: datetime | None
    source: str

    @property
    def seconds(self) -> float | None:
        if self.started is None or self.finished is None:
            return None
        return max(0.0, (self.finished - self.started).total_seconds())

    def to_dict(self) -> dict:
        return {
            "phase": self.name,
            "started": iso(self.started),
            "finished": iso(self.finished),
            "seconds": None if self.seconds is None else round(self.seconds, 1),
            "source": self.source,
        }


def as_dict(value) -> dict:
    return value if isinstance(value, dict) else {}


def dicts(value) -> list[dict]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def parse_time(text) -> datetime | None:
    if not text or not isinstance(text, str):
        return None
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
        # naive times cannot be compared with the others; one beyond datetime's range in UTC is no time either
        return moment.astimezone(UTC) if moment.tzinfo is not None else None
    except (ValueError, OverflowError):
        return None


def event_time(event: dict) -> datetime | None:
    return parse_time(
        event.get("eventTime")
        or event.get("firstTimestamp")
        or as_dict(event.get("metadata")).get("creationTimestamp")
    )
