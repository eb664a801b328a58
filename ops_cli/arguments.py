"""The argument types several commands share, each a one-line ``error:`` of its own when argparse rejects a value."""

from __future__ import annotations

import argparse
import re
from datetime import UTC, date, datetime

from ops_cli.errors import shown


def moment(text: str) -> datetime:
    """An ISO date or date-time, in UTC; UTC unless it says otherwise."""
    try:
        moment = (
            datetime.fromisoformat(text)
            if "T" in text or " " in text
            else datetime.combine(date.fromisoformat(text), datetime.min.time())
        )
        return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    except (ValueError, OverflowError):
        raise argparse.ArgumentTypeError(
            f"{shown(text)} is not a date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:MM)"
        ) from None


#: Every --timeout bounds the whole command (endpoint_probe/deadline.py).
TIMEOUT_HELP = (
    "seconds the whole command may take, kubectl and every request included: at the deadline what runs "
    "is stopped and the command exits 10, naming what it was waiting for (default: {})"
)

#: The largest number any option takes (a timeout of 115 days); larger ones cannot be slept or sent.
MAX_NUMBER = 10_000_000


def positive(text: str) -> int:
    """A whole number written one way only: ASCII digits (``int`` alone would also take '1_000', ' 5', '+5' and digits
    of other scripts)."""
    if not re.fullmatch(r"[0-9]+", text):
        raise argparse.ArgumentTypeError(
            f"{shown(text)} is not a whole number (digits only, no separators or signs)"
        )
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be at least 1")
    if value > MAX_NUMBER:
        raise argparse.ArgumentTypeError(f"{shown(text)} is too large (at most {MAX_NUMBER:,})")
    return value
