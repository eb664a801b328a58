"""A preflight row: its name, pass / warn / fail, what was found and the fix (ops_cli/preflight.py and the modules of
its checks)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Status(StrEnum):
    PASS = "pass"
    WARN = "warn"
    FAIL = "fail"


@dataclass(frozen=True)
class Check:
    name: str
    status: Status
    detail: str
    fix: str = ""

    def to_dict(self) -> dict:
        return {
            "check": self.name,
            "status": self.status.value,
            "detail": self.detail,
            "fix": self.fix,
        }
