"""One deadline for a whole command: what ``--timeout`` promises.

A command's ``--timeout`` bounds the command from its start to its exit, whatever it is doing: running kubectl,
asking the Hugging Face Hub, reading S3. One :class:`Deadline` is made when the command starts and passed down;

* every child process (ops_cli/tools.py) is given the time that is left, in its own process group, and that group is
  killed when the time is up, so that what the child started (kubectl's credential plugin, ``aws eks get-token``)
  dies with it;
* every HTTP request (endpoint_probe/http.py) is given the time that is left, for the request as a whole;
* what neither covers (the AWS SDK, whose ``read_timeout`` applies to each socket read and whose retries resend) is
  cut short by a backstop: a ``SIGALRM`` shortly after the deadline interrupts the main thread wherever it is blocked
  and ends the command with :class:`CommandTimedOut` (:meth:`Deadline.enforced`). The alarm repeats until the command
  has ended, and each one checks the monotonic clock, because one alarm can be lost: the exception it raises is
  swallowed when it lands in a garbage-collector callback or a ``__del__`` (CPython prints "Exception ignored in ..."
  and carries on), or in code that catches ``BaseException``; a ``--timeout 2`` then ran for minutes (issue 29);
* and if the main thread still does not end, a watchdog thread ends the process :data:`WATCHDOG_GRACE_S` after the
  deadline (``last_resort``: the CLI reports the time-out and calls ``os._exit(10)``).

Each ends with :class:`CommandTimedOut` (exit code 10), whose message names the phase the command was in: what
:meth:`Deadline.during` last said it was doing.
"""

from __future__ import annotations

import math
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from endpoint_probe.errors import ExitCode, OpsError

#: How long after the deadline the backstop fires: the per-call bounds (a child's timeout, a request's watchdog)
#: end their call at the deadline itself, with a message of their own; the backstop is for what they do not cover.
BACKSTOP_GRACE_S = 0.5
#: How often the backstop's alarm repeats once it has fired, until the command has ended.
ALARM_REPEAT_S = 0.5
#: How long after the deadline the watchdog thread ends the process, when neither bound nor alarm has ended it.
WATCHDOG_GRACE_S = 5.0


class CommandTimedOut(OpsError):
    """The command's deadline passed. ``phase`` is what it was doing then."""

    def __init__(self, message: str, fix: str, phase: str) -> None:
        super().__init__(message, fix, ExitCode.TIMEOUT)
        self.phase = phase


class Deadline:
    """``seconds`` from now (None: no deadline; every call is then bounded by its own cap only).

    :param option: the option that set it, for messages (``--timeout``).
    :param clock: monotonic seconds. Always real time: the bounds given to child processes and sockets are real.
    """

    def __init__(
        self,
        seconds: float | None,
        option: str = "--timeout",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.seconds = seconds
        self.option = option
        self.clock = clock
        self.started = clock()
        self.phase = "starting"
        self._armed = False

    def remaining(self) -> float:
        """Seconds left (0 once passed; infinity without a deadline)."""
        if self.seconds is None:
            return math.inf
        return max(self.seconds - (self.clock() - self.started), 0.0)

    def passed(self) -> bool:
        return self.remaining() <= 0

    def bound(self, cap: float) -> float:
        """The time a call may take: its own ``cap``, or what is left of the command if that is less."""
        return min(cap, self.remaining())

    def binds(self, cap: float) -> bool:
        """Whether a call given :meth:`bound` (``cap``) is limited by the command's deadline rather than its own cap."""
        return self.remaining() < cap

    @contextmanager
    def during(self, phase: str) -> Iterator[None]:
        """While the block runs, the command is ``phase`` (for the message if the deadline passes in it)."""
        previous, self.phase = self.phase, phase
        try:
            yield
        finally:
            self.phase = previous

    def error(self, phase: str | None = None, fix: str | None = None) -> CommandTimedOut:
        phase = phase or self.phase
        return CommandTimedOut(
            f"timed out after {self.seconds:g} s ({self.option}) while {phase}",
            fix or f"raise {self.option} if it is just slow; else look at what it was waiting for",
            phase,
        )

    def check(self, phase: str) -> None:
        """Refuse to start ``phase`` once the deadline has passed."""
        if self.passed():
            raise self.error(phase)

    @contextmanager
    def enforced(
        self, last_resort: Callable[[CommandTimedOut], None] | None = None
    ) -> Iterator[None]:
        """The backstop, around a whole command: :class:`CommandTimedOut` is raised in the main thread
        :data:`BACKSTOP_GRACE_S` after the deadline, wherever it is blocked, and again every :data:`ALARM_REPEAT_S`
        while the command runs on (an alarm can be swallowed: see the module). Only where it can be done safely: with a
        deadline, in the main thread, and when nobody else handles ``SIGALRM``.

        ``last_resort``: called from a watchdog thread :data:`WATCHDOG_GRACE_S` after the deadline if the block is
        still running, with the error to report; it is expected to end the process (the CLI's calls ``os._exit``).
        """
        usable = (
            self.seconds is not None
            and hasattr(signal, "setitimer")
            and threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, None)
        )
        if not usable:
            yield
            return

        def on_alarm(signum, frame) -> None:  # noqa: ANN001 - the signal module's handler signature
            # armed until the block has ended; the clock, not the signal, says whether the deadline has passed
            if self._armed and self.passed():
                raise _DeadlinePassed(
                    self.phase
                )  # the phase now: the blocks that set it unwind on the way up

        previous = signal.signal(signal.SIGALRM, on_alarm)
        self._armed = True
        signal.setitimer(signal.ITIMER_REAL, self.remaining() + BACKSTOP_GRACE_S, ALARM_REPEAT_S)
        watchdog = self._watchdog(last_resort)
        try:
            try:
                yield
            finally:
                self._disarm(previous, watchdog)
        except (
            _DeadlinePassed
        ) as passed:  # in the block, or in the first steps of the finally above
            self._disarm(previous, watchdog)
            raise self.error(passed.args[0]) from None

    def _watchdog(
        self, last_resort: Callable[[CommandTimedOut], None] | None
    ) -> threading.Timer | None:
        if last_resort is None:
            return None
        timer = threading.Timer(
            self.remaining() + WATCHDOG_GRACE_S, lambda: last_resort(self.error())
        )
        timer.name = "llmops-deadline-watchdog"
        timer.daemon = True
        timer.start()
        return timer

    def _disarm(self, previous, watchdog: threading.Timer | None) -> None:  # noqa: ANN001 - a signal handler or SIG_DFL
        self._armed = False  # first: an alarm from here on is ignored
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if watchdog is not None:
            watchdog.cancel()


class _DeadlinePassed(BaseException):
    """The backstop's alarm, on its way up to :meth:`Deadline.enforced`. Not an ``Exception``: the AWS SDK wraps any
    ``Exception`` raised while it reads (botocore's ``URLLib3Session.send``) into an error it retries, which would
    swallow the alarm; a ``BaseException`` passes through, as Ctrl-C does."""


#: No deadline: for commands without ``--timeout`` (each call then has its own cap).
def no_deadline() -> Deadline:
    return Deadline(None)
