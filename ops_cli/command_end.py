"""How a command's end is reported: one ``error:`` line and a ``fix:`` line (and the --json error), with no secret
printed back; the internal error of a bug; the deadline's last resort; a standard output closed early."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import traceback
from collections.abc import Callable

from endpoint_probe.redaction import redact_secrets
from ops_cli.context import Context, Runtime
from ops_cli.errors import ExitCode, OpsError
from ops_cli.output import write_if_open
from ops_cli.tools import kill_running_groups


def last_resort(
    runtime: Runtime, json_output: bool, known: Callable[[], tuple[str, ...]]
) -> Callable[[OpsError], None] | None:
    """What the deadline's watchdog does when the command has not ended by then (endpoint_probe/deadline.py): kill the
    children still running (with what they started), report the time-out, end the process with its exit code."""
    if runtime.hard_exit is None:
        return None
    hard_exit = runtime.hard_exit

    def end(error: OpsError) -> None:
        try:
            kill_running_groups()
            report(runtime, error, json_output, known())
        finally:
            hard_exit(int(error.exit_code))

    return end


def report(
    runtime: Runtime, error: OpsError, json_output: bool, known: tuple[str, ...] = ()
) -> int:
    # Whatever the message quotes (a URL, a line a tool printed, an AWS error quoting the request), no password or
    # token is printed back, nor the process's own AWS credentials (``known``, Context.own_secrets).
    error.message, error.fix = (
        redact_secrets(error.message, known),
        redact_secrets(error.fix, known),
    )
    if json_output:
        write_if_open(runtime.stdout, json.dumps(error.to_dict(), indent=2, default=str) + "\n")
    # whatever is still buffered goes out now, or nowhere: never a complaint at exit
    stdout_closed(runtime)
    write_if_open(runtime.stderr, f"error: {error.message}\n  fix: {error.fix}\n")
    return int(error.exit_code)


def stdout_closed(runtime: Runtime) -> bool:
    """Whether standard output is the pipe that broke; if so, point it at /dev/null so that the interpreter's final
    flush does not complain either."""
    try:
        runtime.stdout.flush()
        return False
    except (OSError, ValueError):
        pass
    if runtime.stdout is sys.stdout:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
    return True


def internal_error(
    runtime: Runtime, error: BaseException, json_output: bool, ctx: Context | None
) -> int:
    text = str(error)
    text = text if len(text) <= 500 else text[:500] + f"... ({len(text)} characters)"
    if runtime.environ.get("LLMOPS_DEBUG") == "1":
        write_if_open(runtime.stderr, "".join(traceback.format_exception(error)))
    return report(
        runtime,
        OpsError(
            f"internal error: {type(error).__name__}: {text}",
            "re-run with LLMOPS_DEBUG=1 for the traceback and report it",
            ExitCode.INTERNAL,
        ),
        json_output,
        ctx.own_secrets() if ctx else (),
    )
