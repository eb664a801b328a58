"""Waiting with visible progress and a timeout: :class:`Progress` polls a probe until it reports done (the waits of
ops_cli/waiting.py, and the Jobs that ``llmops bench`` and ``llmops weights mirror`` follow)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TextIO

from endpoint_probe.deadline import Deadline
from ops_cli.errors import ExitCode, OpsError


@dataclass
class Progress:
    """Polls ``probe`` until it reports done, printing one line per poll, or raises after ``timeout`` seconds.

    :param what: what is being waited for, for messages.
    :param timeout: seconds before giving up.
    :param interval: seconds between polls.
    :param clock: monotonic seconds (tests pass a fake).
    :param sleep: waits between polls (tests pass a fake).
    :param stream: where progress lines go (stderr, so that --json output stays clean).
    :param live: draw a live status line on ``stream`` (a terminal, without --json): a spinner, the status, the time
        waited and the next check, redrawn every second, with a permanent line each time the status changes. Without
        it, one plain line per poll (pipes, CI logs).
    :param environ: the environment, for ``NO_COLOR`` in live mode.
    :param deadline: the command's deadline (endpoint_probe/deadline.py), in real time: no wait between polls runs past it.
    """

    what: str
    timeout: float
    interval: float
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep
    stream: TextIO = field(default_factory=lambda: sys.stderr)
    live: bool = False
    environ: Mapping[str, str] = field(default_factory=dict)
    deadline: Deadline | None = None

    def run(self, probe: Callable[[], tuple[bool, str]]) -> str:
        if self.deadline is None:
            return self._run(probe)
        with self.deadline.during(f"waiting for {self.what}"):
            return self._run(probe)

    def _run(self, probe: Callable[[], tuple[bool, str]]) -> str:
        started = self.clock()
        display = self._live_display() if self.live else None
        last_status = None
        try:
            while True:
                done, status = probe()
                elapsed = self.clock() - started
                line = f"[{datetime.now(UTC).strftime('%H:%M:%S UTC')} +{_clock(elapsed)}] {self.what}: {status}"
                if display is None:
                    self.stream.write(line + "\n")
                    self.stream.flush()
                elif status != last_status:
                    display.console.print(_text(line))
                last_status = status
                if done:
                    return status
                out_of_time = (
                    self.deadline is not None and self.deadline.remaining() < self.interval
                )
                if elapsed + self.interval > self.timeout or out_of_time:
                    raise OpsError(
                        f"gave up waiting for {self.what} after {int(elapsed)} s; last seen: {status}",
                        "run the wait again with a longer --timeout, or look at the resource in the console",
                        ExitCode.TIMEOUT,
                    )
                if display is None:
                    self.sleep(self.interval)
                    continue
                # Redrawn every second until the next check: the time waited moves on screen.
                waited = 0.0
                while waited < self.interval:
                    step = min(1.0, self.interval - waited)
                    display.update(
                        self._status_line(status, self.clock() - started, self.interval - waited),
                        refresh=True,
                    )
                    self.sleep(step)
                    waited += step
        finally:
            if display is not None:
                display.stop()

    def _live_display(self):
        from rich.live import Live

        from ops_cli.output import console

        display = Live(
            console=console(self.stream, self.environ), auto_refresh=False, transient=True
        )
        display.start()
        return display

    def _status_line(self, status: str, elapsed: float, next_check: float):
        from rich.spinner import Spinner

        return Spinner(
            "dots",
            text=_text(
                f"{self.what}: {status} · waited {_clock(elapsed)} · next check in "
                f"{int(next_check)} s"
            ),
        )


def _clock(seconds: float) -> str:
    """``1m05s``: minutes and seconds of a wait."""
    return f"{int(seconds) // 60}m{int(seconds) % 60:02d}s"


def _text(line: str):
    from rich.text import Text

    return Text(line)
