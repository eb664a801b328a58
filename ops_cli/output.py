"""How results are shown: tables for people, JSON for pipelines; times in UTC and local time; money with currency."""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
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


def parse_iso(text: str | None) -> datetime | None:
    """The inverse of :func:`iso` (and of any ISO 8601 date-time Python reads), None for none."""
    return datetime.fromisoformat(text.replace("Z", "+00:00")) if text else None


def money(amount: str | Decimal | None, currency: str | None) -> str:
    if amount is None:
        return "-"
    return f"{Decimal(str(amount)):,.2f} {currency or ''}".strip()


def duration(hours: float | int | None) -> str:
    if hours is None:
        return "-"
    days, rest = divmod(int(hours), 24)
    return f"{days}d {rest}h" if days and rest else (f"{days}d" if days else f"{rest}h")


@dataclass(frozen=True)
class Table:
    """Rows under headers. ``str()`` is the plain rendering (columns padded with spaces, a dashed rule under the
    headers) for pipes, files and logs; :func:`write_human` draws it with rich on a terminal."""

    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    def __str__(self) -> str:
        cells = [list(self.headers)] + [list(row) for row in self.rows]
        widths = [max(len(r[i]) for r in cells) for i in range(len(self.headers))]
        lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells]
        lines.insert(1, "  ".join("-" * w for w in widths))
        return "\n".join(lines)


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> Table:
    return Table(tuple(str(c) for c in headers), tuple(tuple(str(c) for c in row) for row in rows))


#: What a command shows people: text, a table, or several of them, one after the other.
Human = str | Table | Sequence[str | Table]
#: Cell values that carry a verdict, and their colour on a terminal.
VERDICT_STYLES = {
    "FAIL": "bold red",
    "FAILED": "bold red",
    "PASS": "green",
    "ok": "green",
    "WARN": "yellow",
    "SKIP": "dim",
}


def styled_output(stream: TextIO, environ: Mapping[str, str]) -> bool:
    """Whether to draw for a person: ``stream`` is a terminal, and ``TERM`` is not ``dumb``."""
    isatty = getattr(stream, "isatty", None)
    try:
        terminal = bool(isatty and isatty())
    except (OSError, ValueError):
        terminal = False
    return terminal and environ.get("TERM") != "dumb"


def console(stream: TextIO, environ: Mapping[str, str]):
    """A rich console on ``stream``, drawing as on a terminal, colourless when ``NO_COLOR`` is set (no-color.org)."""
    from rich.console import Console

    return Console(
        file=stream,
        force_terminal=True,
        no_color=bool(environ.get("NO_COLOR")),
        highlight=False,
        emoji=False,
        markup=False,
    )


def write_human(human: Human, stream: TextIO, *, environ: Mapping[str, str]) -> None:
    """Write ``human``: plain text (tables as :meth:`Table.__str__`) unless ``stream`` is a terminal; there, tables are
    drawn by rich with bold headers and coloured verdicts. Text is never read as markup."""
    parts = [human] if isinstance(human, (str, Table)) else list(human)
    if not styled_output(stream, environ):
        stream.write("\n".join(str(part).rstrip("\n") for part in parts).rstrip("\n") + "\n")
        return
    from rich import box
    from rich.table import Table as RichTable
    from rich.text import Text

    out = console(stream, environ)
    # A stream that hides a secret (ops_cli.api_key.Redacting) redacts each text before it is drawn.
    redact = getattr(stream, "redact_text", None) or (lambda text: text)
    for part in parts:
        if isinstance(part, Table):
            drawn = RichTable(
                box=box.SIMPLE_HEAD, header_style="bold", show_edge=False, pad_edge=False
            )
            for header in part.headers:
                drawn.add_column(redact(header), overflow="fold")
            for row in part.rows:
                drawn.add_row(
                    *(Text(redact(cell), style=VERDICT_STYLES.get(cell, "")) for cell in row)
                )
            out.print(drawn)
        else:
            out.print(Text(redact(str(part).strip("\n"))))


def emit_json(payload: Any, stream: TextIO = sys.stdout) -> None:
    stream.write(json.dumps(payload, indent=2, default=str) + "\n")


def write_if_open(stream: TextIO | None, text: str) -> None:
    """Write to ``stream`` if it can still be written to (a closed stderr must not turn into a traceback)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        stream.write(text)
        stream.flush()
