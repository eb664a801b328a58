"""The command's ``--timeout`` deadline (endpoint_probe/deadline.py), spent ahead of real time, so that a test of a
command that runs into it does not wait out the whole-second ``--timeout`` (the option takes whole seconds only).

The deadline keeps its real clock and its real enforcement: what is left of it is given to the request, the child
process or the alarm as real seconds, as in use; only the time spent is moved on, at the command's start
(:attr:`CommandDeadlines.left`) or when a stand-in says so (:meth:`CommandDeadlines.spend`: a server whose answer
"took" that long; :meth:`CommandDeadlines.leave`: what is left for the request that comes next).
The message still names the ``--timeout`` the user gave. Each mechanism's real-time check at the
full second stays where it is: tests/ops_cli/test_cli_keeps_its_word.py (a child process group, the backstop's alarm)
and tests/ops_cli/test_hostile_endpoint.py (a request whose headers drip, the whole request bounded).
"""

from __future__ import annotations

import pytest

from endpoint_probe.deadline import Deadline
from ops_cli import context


class CommandDeadlines:
    """Stands in for ``Deadline`` where ops_cli/context.py makes each command's; records what it made."""

    def __init__(self, left: float | None = None) -> None:
        #: Seconds left of a ``--timeout`` when the command starts (None: all of it, as in use).
        self.left = left
        self.made: list[Deadline] = []

    def __call__(self, seconds: float | None, *args, **kwargs) -> Deadline:
        deadline = Deadline(seconds, *args, **kwargs)
        if seconds is not None and self.left is not None:
            deadline.started -= max(seconds - self.left, 0.0)
        self.made.append(deadline)
        return deadline

    def leave(self, seconds: float) -> None:
        """Every command's deadline has exactly ``seconds`` left from now on: called by a stand-in just before the
        request whose bound a test checks, so that the requests before it may take what a loaded machine takes."""
        for deadline in self.made:
            if deadline.seconds is not None:
                deadline.started = deadline.clock() - (deadline.seconds - seconds)

    def spend(self, seconds: float) -> None:
        """``seconds`` of every command's deadline pass at once (a stand-in's slow answer, without the wait)."""
        for deadline in self.made:
            deadline.started -= seconds


def installed(monkeypatch: pytest.MonkeyPatch) -> CommandDeadlines:
    """A :class:`CommandDeadlines` that makes every command's deadline for the rest of the test."""
    deadlines = CommandDeadlines()
    monkeypatch.setattr(context, "Deadline", deadlines)
    return deadlines
