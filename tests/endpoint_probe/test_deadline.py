"""A ``--timeout`` that cannot be swallowed (endpoint_probe/deadline.py, issue 29): the backstop's alarm repeats and
checks the monotonic clock, so one alarm lost in a garbage-collector callback does not let the command run on; and a
watchdog thread ends a process that swallows every alarm. The in-process tests raise the alarm themselves on a fake
clock (no real waiting, whatever the machine's load); the one real process has a minute of margin."""

from __future__ import annotations

import gc
import io
import signal
import subprocess
import sys

import pytest

from endpoint_probe.deadline import ALARM_REPEAT_S, CommandTimedOut, Deadline
from ops_cli import tools
from ops_cli.command_end import last_resort
from ops_cli.context import Runtime
from ops_cli.errors import ExitCode
from tests.conftest import PROJECT_DIR


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_given_the_first_alarm_swallowed_in_a_gc_callback_then_the_next_one_still_ends_the_command(
    monkeypatch,
):
    # given a command with a 60 s deadline on a fake clock, and a gc callback in which an alarm is swallowed
    swallowed: list[BaseException] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda raised: swallowed.append(raised.exc_value))
    clock = FakeClock()
    deadline = Deadline(60, clock=clock)
    with pytest.raises(CommandTimedOut) as ended:
        with deadline.enforced(), deadline.during("waiting for EC2"):
            # then the alarm is a repeating one
            assert signal.getitimer(signal.ITIMER_REAL)[1] == pytest.approx(ALARM_REPEAT_S)
            # when an alarm comes before the deadline, the clock says it has not passed: nothing happens
            signal.raise_signal(signal.SIGALRM)
            clock.now = 61  # the deadline has passed

            def alarm_during_collection(phase, info):  # noqa: ANN001 - gc.callbacks' signature
                if phase == "start":
                    signal.raise_signal(signal.SIGALRM)

            gc.callbacks.append(alarm_during_collection)
            try:
                gc.collect()
            finally:
                gc.callbacks.remove(alarm_during_collection)
            assert swallowed, (
                "the alarm raised in the gc callback was not swallowed: the test proves nothing"
            )
            # when the next alarm comes, the command ends
            signal.raise_signal(signal.SIGALRM)
            pytest.fail("the command ran on after its deadline")
    assert ended.value.exit_code is ExitCode.TIMEOUT
    assert "timed out after 60 s (--timeout) while waiting for EC2" in ended.value.message
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # and nothing fires after the command


SWALLOWS_EVERY_ALARM = """
import os, sys, time
from endpoint_probe import deadline
from endpoint_probe.deadline import Deadline

# 5 s, 0.5 s and 0.5 s in use: the same mechanism, less waiting (the alarm still comes first, and is swallowed)
deadline.WATCHDOG_GRACE_S = 0.3
deadline.BACKSTOP_GRACE_S = deadline.ALARM_REPEAT_S = 0.05

def end(error):
    sys.stderr.write("error: " + error.message + "\\n")
    sys.stderr.flush()
    os._exit(int(error.exit_code))

with Deadline(0.2).enforced(end):
    while True:
        try:
            time.sleep(0.05)
        except BaseException:
            pass
"""


def test_given_a_process_that_swallows_every_alarm_then_the_watchdog_ends_it_with_the_timeout_code():
    # given a process with a 0.2 s deadline whose code catches every BaseException, alarms included (its watchdog
    # 0.3 s after the deadline rather than WATCHDOG_GRACE_S: the backstop's alarms, from 0.05 s on, are swallowed first)
    # when it runs (the bound is a minute, not a benchmark)
    done = subprocess.run(
        [sys.executable, "-c", SWALLOWS_EVERY_ALARM],
        cwd=PROJECT_DIR,
        capture_output=True,
        text=True,
        timeout=120,
    )
    # then the watchdog ends it with exit 10 and the time-out's message
    assert done.returncode == ExitCode.TIMEOUT, done.stderr
    assert "timed out after 0.2 s (--timeout)" in done.stderr


def test_the_cli_s_last_resort_kills_the_children_reports_the_time_out_then_ends_the_process(
    monkeypatch,
):
    # given the CLI's runtime as a real process has it (a hard exit), recorded here, and a child still running
    exits: list[int] = []
    stderr = io.StringIO()
    end = last_resort(Runtime(stderr=stderr, hard_exit=exits.append), False, tuple)
    child = subprocess.Popen(["sleep", "600"], process_group=0)
    monkeypatch.setattr(tools, "_RUNNING", {child.pid})
    # when the watchdog calls it
    end(Deadline(2).error("waiting for kubectl"))
    # then the child's group is killed, the time-out is reported as every error is, and the process ends with exit 10
    assert child.wait(timeout=60) == -signal.SIGKILL
    assert exits == [ExitCode.TIMEOUT]
    assert stderr.getvalue().startswith(
        "error: timed out after 2 s (--timeout) while waiting for kubectl"
    )
    # and in-process (tests, no hard exit) there is no watchdog
    assert last_resort(Runtime(), False, tuple) is None
