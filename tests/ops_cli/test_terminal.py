"""llmops on a terminal: tables drawn by rich with coloured verdicts, a live status line for waits; and on a pipe, the
plain text the other tests read. The terminal is a text stream that says it is one (isatty), as a pty would."""

from __future__ import annotations

import io
import re

from endpoint_probe.url import ApiKey
from ops_cli.api_key import Redacting
from ops_cli.cli import main
from ops_cli.context import Runtime
from ops_cli.errors import ExitCode
from ops_cli.output import Table, write_human
from tests.ops_cli.conftest import NOW, Result
from tests.ops_cli.openai_server import Behaviour, openai_server

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
GREEN, BOLD_RED = "\x1b[32m", "\x1b[1;31m"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _run(aws, clock, *argv, environ=None, stdout=None, stderr=None) -> Result:
    stdout, stderr = stdout or Terminal(), stderr or Terminal()
    runtime = Runtime(
        aws_factory=aws.aws,
        stdout=stdout,
        stderr=stderr,
        environ=environ or {},
        clock=clock,
        sleep=clock.sleep,
        now=lambda: NOW,
    )
    return Result(main(list(argv), runtime), stdout.getvalue(), stderr.getvalue())


def test_on_a_terminal_the_smoke_test_table_is_drawn_with_coloured_verdicts(aws, clock):
    with openai_server(Behaviour(root="moonshotai/Kimi-K3")) as url:
        result = _run(aws, clock, "smoke-test", "--url", url, "--model", "Kimi-K3")
    assert result.code == ExitCode.OK, result.stderr
    # rich drew it: escape codes, the verdicts in green, the header bold, and the same words as the plain table
    assert GREEN + "ok" in result.stdout and "\x1b[1m" in result.stdout
    plain = ANSI.sub("", result.stdout)
    assert (
        re.search(r"request\s+│?\s*result", plain)
        and "streaming" in plain
        and "Smoke test passed." in plain
    )
    assert "---------" not in plain  # not the plain rendering's dashed rule


def test_a_failed_row_is_bold_red(aws, clock):
    with openai_server(Behaviour(empty=True)) as url:
        result = _run(aws, clock, "smoke-test", "--url", url, "--model", "Kimi-K3")
    assert result.code == ExitCode.CHECK_FAILED
    assert BOLD_RED + "FAILED" in result.stdout and "Smoke test FAILED." in ANSI.sub(
        "", result.stdout
    )


def test_no_color_keeps_the_drawing_without_colour(aws, clock):
    with openai_server(Behaviour()) as url:
        result = _run(
            aws, clock, "smoke-test", "--url", url, "--model", "Kimi-K3", environ={"NO_COLOR": "1"}
        )
    assert result.code == ExitCode.OK
    assert (
        GREEN not in result.stdout
        and BOLD_RED not in result.stdout
        and "Smoke test passed." in result.stdout
    )


def test_on_a_pipe_or_with_json_the_output_is_plain(aws, clock):
    with openai_server(Behaviour()) as url:
        piped = _run(
            aws, clock, "smoke-test", "--url", url, "--model", "Kimi-K3", stdout=io.StringIO()
        )
        machine = _run(aws, clock, "smoke-test", "--url", url, "--model", "Kimi-K3", "--json")
    assert not ANSI.search(piped.stdout) and "-------  ------" in piped.stdout
    assert not ANSI.search(machine.stdout) and machine.stdout.lstrip().startswith("{")


def test_a_wait_on_a_terminal_shows_a_live_status_line_and_keeps_each_change(aws, clock):
    # given an endpoint that never becomes healthy, waited for on a terminal
    with openai_server(Behaviour(healthy=False)) as url:
        result = _run(
            aws, clock, "wait", "endpoint", "--url", url, "--timeout", "90", "--interval", "30"
        )
    assert result.code == ExitCode.TIMEOUT
    screen = ANSI.sub("", result.stderr)
    # then the status line was redrawn every second with the time waited and the next check
    assert "waited 0m29s · next check in 1 s" in screen and "next check in 30 s" in screen
    assert clock.sleeps == [1.0] * 90
    # and the status, the same at every poll, was written once as a permanent line, then the error
    permanent = [line for line in screen.splitlines() if line.startswith("[")]
    assert len(permanent) == 1 and permanent[0].endswith("HTTP 503")
    assert "gave up waiting" in screen


def test_a_wait_with_json_on_a_terminal_writes_plain_lines(aws, clock):
    with openai_server(Behaviour(healthy=False)) as url:
        result = _run(
            aws,
            clock,
            "wait",
            "endpoint",
            "--url",
            url,
            "--timeout",
            "60",
            "--interval",
            "30",
            "--json",
        )
    assert result.code == ExitCode.TIMEOUT and not ANSI.search(result.stderr.split("error:")[0])
    assert clock.sleeps == [30, 30]


def test_a_key_in_a_folded_cell_is_redacted_before_it_is_drawn():
    # given a table cell holding the API key, wide enough that the terminal folds it across lines
    key = "k" * 64
    terminal = Terminal()
    stream = Redacting(terminal, ApiKey(key, "--api-key"))
    folded = Table(
        ("request", "problems"),
        (("a request whose name takes half the width", f"answered 'Bearer {key}'"),),
    )
    write_human(folded, stream, environ={})
    # then no piece of the key long enough to matter reached the terminal
    assert "k" * 16 not in ANSI.sub("", terminal.getvalue())
    # which redacting each write alone would not have done: the folded key no longer matches as a whole
    unguarded = Terminal()
    write_human(folded, unguarded, environ={})
    drawn = ApiKey(key, "--api-key").redact(unguarded.getvalue())
    assert "k" * 16 in ANSI.sub("", drawn)
