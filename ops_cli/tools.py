"""The command-line tools llmops runs (kubectl): under the command's deadline, and what they print read with care.

* :func:`run_tool` runs one in its own process group, given the time the command has left (endpoint_probe/deadline.py) and
  at most its own cap; when either runs out, the whole group is killed (kubectl's exec credential plugin, such as
  ``aws eks get-token``, is a grandchild) and :class:`ToolTimedOut` says which ran out and what was running.
* :func:`tool_json` reads what a tool printed as the JSON object it was asked for. Anything else (garbage, an HTML
  page from a proxy, a JSON array, truncated output) is an :class:`OpsError` naming the tool and the exact command to
  run by hand, with the exit code of other tool failures (``ExitCode.AWS_ERROR``, as a kubectl that exits non-zero),
  never an internal error.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
from collections.abc import Callable, Sequence
from contextlib import suppress

from endpoint_probe.deadline import CommandTimedOut, Deadline, no_deadline
from endpoint_probe.errors import printable, quoted
from ops_cli.errors import ExitCode, OpsError

#: A tool's failure: the exit code kubectl failures have always had.
TOOL_FAILED = ExitCode.AWS_ERROR
KUBECONFIG_FIX = "check the kubeconfig (aws eks update-kubeconfig ...)"


def command_line(argv: Sequence[str]) -> str:
    """``argv`` as one would type it in a shell (quoted where needed), for "run it by hand" fixes."""
    return printable(shlex.join(argv), 400)


def _short(argv: Sequence[str]) -> str:
    """The tool and its first words, for messages: ``kubectl get job NAME``; an option among them keeps its value
    (``kubectl get pods -n llm-serving``, not ``... -n``)."""
    words = list(argv[1:4])
    if words and words[-1].startswith("-") and "=" not in words[-1] and len(argv) > 4:
        words.append(argv[4])
    return printable(" ".join([os.path.basename(argv[0]), *words]), 200)


class ToolTimedOut(CommandTimedOut):
    """A tool did not end in time. ``deadline_passed``: the command's deadline ran out (else the call's own cap)."""

    def __init__(self, message: str, fix: str, phase: str, deadline_passed: bool) -> None:
        super().__init__(message, fix, phase)
        self.deadline_passed = deadline_passed


def run_tool(
    argv: Sequence[str],
    *,
    deadline: Deadline | None = None,
    cap: float = 60,
    stdin: str | None = None,
    run: Callable | None = None,
    missing_fix: str = "install kubectl or pass --kubectl PATH",
) -> subprocess.CompletedProcess:
    """Run ``argv`` to its end, within ``cap`` seconds and what is left of ``deadline``; returns it whatever its exit
    status (callers judge it; :func:`tool_failure` words a failure).

    :param run: a stand-in with ``subprocess.run``'s signature (tests); None runs the real process.
    :raises ToolTimedOut: the time ran out; the process group was killed.
    :raises OpsError: (``ExitCode.USAGE``) the program cannot be run.
    """
    argv = list(argv)
    deadline = deadline or no_deadline()
    phase = f"waiting for {_short(argv)}"
    deadline.check(phase)
    timeout = deadline.bound(cap)
    binding = deadline.binds(cap)
    try:
        with deadline.during(phase):
            if run is not None:
                return run(
                    argv,
                    capture_output=True,
                    text=True,
                    timeout=timeout,
                    **({"input": stdin} if stdin is not None else {}),
                )
            return _run_in_group(argv, stdin, timeout)
    except (FileNotFoundError, PermissionError, NotADirectoryError):
        raise OpsError(
            f"{quoted(argv[0], 200)} cannot be run (not found, or not executable)",
            missing_fix,
            ExitCode.USAGE,
        ) from None
    except subprocess.TimeoutExpired:
        by_hand = f"run it by hand to see where it stops: {command_line(argv)}"
        if binding or deadline.passed():
            raise ToolTimedOut(
                f"timed out after {deadline.seconds:g} s ({deadline.option}) while {phase} "
                "(it was stopped)",
                f"{by_hand}; raise {deadline.option} if it is just slow",
                phase,
                deadline_passed=True,
            ) from None
        raise ToolTimedOut(
            f"{_short(argv)} did not finish within {cap:g} s (it was stopped)",
            f"{by_hand}; {KUBECONFIG_FIX} and that the cluster's endpoint answers",
            phase,
            deadline_passed=False,
        ) from None


#: The process groups of the children running now, for :func:`kill_running_groups`.
_RUNNING: set[int] = set()


def kill_running_groups() -> None:
    """SIGKILL to the process group of every child running now: for the deadline's watchdog, which ends the process
    with ``os._exit`` (no ``finally`` runs, so :func:`_run_in_group` cannot kill them itself)."""
    for group in list(_RUNNING):
        with suppress(ProcessLookupError, PermissionError):
            os.killpg(group, signal.SIGKILL)


def _run_in_group(
    argv: list[str], stdin: str | None, timeout: float
) -> subprocess.CompletedProcess:
    """``subprocess.run``, but in a process group of its own that is killed whole on a timeout, an interrupt or
    any other exception (the deadline's backstop included). Output that is not UTF-8 is kept, with replacement
    characters, for :func:`tool_json` to refuse."""
    process = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        encoding="utf-8",
        errors="replace",
        process_group=0,
    )
    _RUNNING.add(process.pid)
    try:
        out, err = process.communicate(stdin, timeout=timeout)
    except BaseException:
        _kill_group(process)
        raise
    finally:
        _RUNNING.discard(process.pid)
    return subprocess.CompletedProcess(argv, process.returncode, out, err)


def _kill_group(process: subprocess.Popen) -> None:
    """SIGKILL to the child's whole process group, then reap it. Its pipes are closed rather than drained: a
    grandchild that left the group may hold them open, and nothing waits for it."""
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with suppress(ProcessLookupError):
        process.kill()
    for stream in (process.stdin, process.stdout, process.stderr):
        if stream is not None:
            with suppress(OSError):
                stream.close()
    with suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)


def tool_failure(
    result: subprocess.CompletedProcess,
    fix: str = KUBECONFIG_FIX,
    exit_code: ExitCode = TOOL_FAILED,
) -> OpsError:
    """A tool that exited non-zero: its last line on stderr, and the command to run by hand."""
    stderr = (result.stderr or "").strip()
    detail = stderr.splitlines()[-1] if stderr else f"exit status {result.returncode}"
    return OpsError(
        f"{_short(result.args)} failed: {printable(detail, 300)}",
        f"{fix}; the command was: {command_line(result.args)}",
        exit_code,
    )


def tool_json(result: subprocess.CompletedProcess, expected: type = dict) -> dict | list:
    """What ``result`` printed, as the JSON ``expected`` (an object by default); an :class:`OpsError` naming the tool
    and the command to run by hand if it is anything else."""
    text = result.stdout if isinstance(result.stdout, str) else ""
    why = None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as error:
        why = "no output" if not text.strip() else f"not JSON ({printable(str(error), 80)})"
    else:
        if not isinstance(value, expected):
            why = f"JSON, but not {'an object' if expected is dict else 'an array'}"
    if why is None:
        return value
    start = f"; it began {quoted(text.strip(), 80)}" if text.strip() else ""
    raise OpsError(
        f"{_short(result.args)} printed what is not the JSON asked for: {why}{start}",
        f"run it by hand to see what it prints: {command_line(result.args)} (is it kubectl, and is the "
        "kubeconfig's server the cluster's API server, not a proxy or a login page?)",
        TOOL_FAILED,
    )
