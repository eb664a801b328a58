"""How results are shown: tables for people, JSON for pipelines; times in UTC and local time; money with currency."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any, TextIO


def utc_and_local(moment: datetime | None) -> str:
    """``2026-12-01 11:30 UTC (06:30 EST)``; the local part is left out where local time is UTC."""
    if moment is None:
        return "-"
    utc = moment.astimezone(UTC)
    local = moment.astimezone()
    text = utc.strftime("%Y-%m-%d %H:%M UTC")
    if local.utcoffset() != timedelta(0):
        same_day = local.date() == utc.date()
        text += local.strftime(" (%H:%M %Z)" if same_day else " (%Y-%m-%d %H:%M %Z)")
    return text


def iso(moment: datetime | None) -> str | None:
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z") if moment else None


def money(amount: str | Decimal | None, currency: str | None) -> str:
    if amount is None:
        return "-"
    return f"{Decimal(str(amount)):,.2f} {currency or ''}".strip()


def duration(hours: float | int | None) -> str:
    if hours is None:
        return "-"
    days, rest = divmod(int(hours), 24)
    return f"{days}d {rest}h" if days and rest else (f"{days}d" if days else f"{rest}h")


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    cells = [[str(c) for c in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def emit_json(payload: Any, stream: TextIO = sys.stdout) -> None:
    stream.write(json.dumps(payload, indent=2, default=str) + "\n")
