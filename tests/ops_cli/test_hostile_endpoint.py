"""llmops smoke-test and wait endpoint against endpoints that misbehave, and against URLs that cannot work.

Whatever the endpoint does, the CLI ends with a documented exit code and no traceback: an `error:` line and a `fix:`
line, or a FAILED row that names the problem; and it ends within its deadline.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time

import pytest

from ops_cli.errors import ExitCode
from tests.ops_cli import command_deadline
from tests.ops_cli.misbehaving_server import (
    MisbehavingServer,
    chunk,
    good_stream,
    response,
    send,
    send_json,
    sse,
    stream_head,
    vllm,
)

SLACK = 1.5  # seconds a deadline may be overrun by on a loaded machine
#: Seconds left of a 1 s --timeout when the command starts, in the deadline tests other than the one at the full second
#: (test_a_server_that_drips_its_headers_one_byte_per_second): the same request deadline, less waiting.
LEFT = 0.3


def _open_fds() -> int | None:
    return len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else None


@pytest.fixture(autouse=True)
def no_leaks():
    """Every request closes its socket, and cancels and joins its deadline timer."""
    before = _open_fds()
    yield
    assert not [t for t in threading.enumerate() if t.name == "llmops-deadline"]
    after = _open_fds()
    assert before is None or after <= before, f"{after - before} file descriptors leaked"


@pytest.fixture
def smoke(run):
    """Run smoke-test twice, for people and with --json; both must agree and be clean."""

    def _smoke(url: str, *argv: str):
        human = run("smoke-test", "--url", url, "--timeout", "5", *argv)
        machine = run("smoke-test", "--url", url, "--timeout", "5", "--json", *argv)
        assert human.code == machine.code, (human, machine)
        for result in (human, machine):
            assert "Traceback" not in result.stdout + result.stderr
        assert isinstance(machine.json, dict)  # valid JSON
        return human, machine

    return _smoke


def assert_error(result, code: ExitCode, *words: str) -> None:
    """An OpsError: `error: ...` naming the problem, then a `fix:` line, and the same as JSON with --json."""
    assert result.code == code, result
    assert "Traceback" not in result.stdout + result.stderr
    lines = result.stderr.splitlines()
    errors = [i for i, line in enumerate(lines) if line.startswith("error: ")]
    assert errors, result.stderr
    assert lines[errors[-1] + 1].startswith("  fix: ") and len(lines[errors[-1] + 1]) > len(
        "  fix: "
    )
    for word in words:
        assert word in result.stderr, (word, result.stderr)
    if result.stdout.strip().startswith("{"):
        assert result.json["exit_code"] == code and result.json["error"] and result.json["fix"]


def failed_row(human, machine, mode: str, *words: str) -> dict:
    """A FAILED row for ``mode`` whose problems name the problem, in the table and in the JSON; exit code 1."""
    assert machine.code == ExitCode.CHECK_FAILED, machine
    assert machine.json["passed"] is False
    row = next(r for r in machine.json["requests"] if r["mode"] == mode)
    assert not row["ok"]
    problems = "; ".join(row["problems"])
    for word in words:
        assert word in problems, (word, problems)
    table_row = next(line for line in human.stdout.splitlines() if line.startswith(mode))
    assert "FAILED" in table_row and words[0] in table_row
    assert "Smoke test FAILED." in human.stdout
    return row


def rows_ok(machine, *modes: str) -> None:
    rows = {r["mode"]: r for r in machine.json["requests"]}
    assert all(rows[m]["ok"] for m in modes), rows


# --- URLs that cannot work: exit 2, before any request -----------------------------------------------------------

BAD_URLS = [
    ("localhost:8000", "no scheme"),
    ("127.0.0.1:8000/v1", "no scheme"),
    ("http://exa mple.com", "invalid host name"),
    ("http://[::1", "not a valid URL"),
    ("http://[::zz]:8000", "not a valid URL"),
    ("http://host:99999", "invalid port"),
    ("http://host:abc", "invalid port"),
    ("http://host:0", "port 0"),
    ("ftp://host/", "only http:// and https://"),
    ("file:///etc/passwd", "only http:// and https://"),
    ("http://", "no host"),
    ("http://:8000", "no host"),
    ("http:/localhost:8000", "malformed"),
    ("http://999.1.1.1:8000", "invalid IPv4 address"),
    ("http://a..b:8000", "invalid host name"),
    ("http://user:secret@host:8000", "credentials"),
    ("http://host:8000/?model=x", "query"),
    ("http://host:8000/v 1", "space in its path"),
    ("http://host\x1b[31m:8000", "control character"),
    ("", "empty"),
]


@pytest.fixture
def no_network(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a request was made for a URL that cannot work")

    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)


@pytest.mark.parametrize("url, problem", BAD_URLS)
def test_smoke_test_rejects_a_url_that_cannot_work(run, no_network, url, problem):
    result = run("smoke-test", "--url", url)
    assert_error(result, ExitCode.USAGE, problem, "--url")
    assert "\x1b" not in result.stderr
    machine = run("smoke-test", "--url", url, "--json")
    assert_error(machine, ExitCode.USAGE, problem)
    assert machine.json["kind"] == "USAGE"


@pytest.mark.parametrize("url, problem", BAD_URLS[:10])
def test_wait_endpoint_rejects_a_url_that_cannot_work_at_once(run, clock, no_network, url, problem):
    result = run("wait", "endpoint", "--url", url, "--timeout", "36000", "--json")
    assert_error(result, ExitCode.USAGE, problem)
    assert clock.sleeps == [] and not [
        line for line in result.stderr.splitlines() if line.startswith("[")
    ]


def test_a_valid_url_with_a_path_is_used_as_the_base(run):
    server = MisbehavingServer()
    with server as url:
        machine = run("smoke-test", "--url", f"{url}/prefix/", "--json")
    assert machine.code == ExitCode.OK, machine
    assert {r.path for r in server.requests} == {"/prefix/v1/models", "/prefix/v1/chat/completions"}


# --- answers of the wrong shape: FAILED rows, exit 1 ------------------------------------------------------------


def test_json_arrays_instead_of_objects(smoke):
    with MisbehavingServer(send_json([])) as url:
        human, machine = smoke(url)
    failed_row(human, machine, "models", "JSON array, not an object")
    failed_row(human, machine, "plain", "JSON array, not an object")
    failed_row(human, machine, "streaming", "unexpected line in the event stream", "[DONE]")


@pytest.mark.parametrize(
    "payload, problem",
    [
        ("just text", "JSON string, not an object"),
        (None, "JSON null, not an object"),
        (
            {"object": "chat.completion", "model": "Kimi-K3", "choices": "abc"},
            "choices is a JSON string, not an array",
        ),
        (
            {"object": "chat.completion", "model": "Kimi-K3", "choices": [7]},
            "choices[0] is a JSON number, not an object",
        ),
        (
            {
                "object": "chat.completion",
                "model": "Kimi-K3",
                "choices": [{"message": "hi", "finish_reason": "stop"}],
            },
            "choices[0].message is a JSON string",
        ),
        (
            {
                "object": "chat.completion",
                "model": "Kimi-K3",
                "choices": [{"message": {"content": 4}, "finish_reason": "stop"}],
            },
            "choices[0].message.content is a JSON number",
        ),
        (
            {
                "object": "chat.completion",
                "model": "Kimi-K3",
                "usage": {"completion_tokens": "many"},
                "choices": [{"message": {"content": "4"}, "finish_reason": "stop"}],
            },
            "usage.completion_tokens is a JSON string",
        ),
        (
            {
                "object": "chat.completion",
                "model": "Kimi-K3",
                "usage": [1],
                "choices": [{"message": {"content": "4"}, "finish_reason": "stop"}],
            },
            "usage is a JSON array",
        ),
    ],
)
def test_plain_answers_of_the_wrong_shape(smoke, payload, problem):
    with MisbehavingServer({"plain": send_json(payload)}) as url:
        human, machine = smoke(url)
    failed_row(human, machine, "plain", problem)
    rows_ok(machine, "models", "streaming")


def test_a_models_list_of_the_wrong_shape(smoke):
    with MisbehavingServer({"models": send_json({"data": {"id": "Kimi-K3"}})}) as url:
        human, machine = smoke(url)
    failed_row(human, machine, "models", "data is a JSON object, not an array")


@pytest.mark.parametrize(
    "event, problem",
    [
        ("this is not json", "a chunk is not JSON"),
        ("[1, 2]", "a chunk is a JSON array, not an object"),
        ('"text"', "a chunk is a JSON string, not an object"),
        ("42", "a chunk is a JSON number, not an object"),
        ("[" * 100000, "a chunk is not JSON"),  # deeper than the parser's recursion limit
        (chunk(choices="abc"), "choices is a JSON string, not an array"),
        (chunk(choices=[1]), "choice is a JSON number, not an object"),
        (chunk(choices=[{"delta": "x"}]), "delta is a JSON string, not an object"),
        (
            chunk(choices=[{"delta": {"content": 5}}]),
            "delta.content is a JSON number, not a string",
        ),
        (
            chunk(choices=[], usage={"completion_tokens": "many"}),
            "usage.completion_tokens is a JSON string",
        ),
        (
            chunk(choices=[], usage={"completion_tokens": True}),
            "usage.completion_tokens is a JSON boolean",
        ),
        (chunk(choices=[], usage=[1]), "usage is a JSON array, not an object"),
        (b"\xff\xfe{}", "not valid UTF-8"),
    ],
)
def test_malformed_stream_chunks(smoke, event, problem):
    with MisbehavingServer({"stream": send(stream_head() + good_stream(event))}) as url:
        human, machine = smoke(url)
    row = failed_row(human, machine, "streaming", problem)
    assert row["text"] == "2 + 2 is 4."  # the good chunks still count
    rows_ok(machine, "models", "plain")


def test_a_stream_that_repeats_its_fault_reports_it_once(smoke):
    events = ["[1]"] * 500 + [f"bad {i}" for i in range(50)]
    with MisbehavingServer({"stream": send(stream_head() + good_stream(*events))}) as url:
        human, machine = smoke(url)
    row = failed_row(human, machine, "streaming", "a chunk is a JSON array")
    assert row["problems"].count("a chunk is a JSON array, not an object") == 1
    assert len(row["problems"]) <= 9 and row["problems"][-1] == "more problems left out"


def test_invalid_utf8_in_a_body(smoke):
    with MisbehavingServer(
        {"plain": send(response(200, b'{"object": "chat.completion \xff\xfe"}'))}
    ) as url:
        human, machine = smoke(url)
    failed_row(human, machine, "plain", "not valid UTF-8")


def test_an_answer_with_terminal_escapes_is_shown_escaped(run):
    answer = {
        "object": "chat.completion",
        "model": "Kimi-K3",
        "usage": {"completion_tokens": 3},
        "choices": [{"message": {"content": "\x1b[2J4\ud800"}, "finish_reason": "stop"}],
    }
    with MisbehavingServer({"plain": send_json(answer)}) as url:
        result = run("smoke-test", "--url", url)
    assert result.code == ExitCode.OK, result
    assert "\x1b" not in result.stdout and "\ud800" not in result.stdout
    assert "Answer: \\x1b[2J4\\ud800" in result.stdout


# --- broken transfers: FAILED rows, exit 1 ----------------------------------------------------------------------


def test_a_truncated_body(smoke):
    truncated = send(response(200, b'{"object": ', content_length=1000))
    with MisbehavingServer({"models": truncated, "plain": truncated}) as url:
        human, machine = smoke(url)
    failed_row(human, machine, "models", "cut off after 11 of 1000 bytes")
    failed_row(human, machine, "plain", "cut off after 11 of 1000 bytes")
    rows_ok(machine, "streaming")


def test_a_truncated_chunked_stream(smoke):
    head = (
        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
    )
    first = sse(chunk(choices=[{"index": 0, "delta": {"content": "2"}, "finish_reason": None}]))
    body = f"{len(first):x}\r\n".encode() + first + b"\r\n" + b"400\r\ndata: {"
    with MisbehavingServer({"stream": send(head + body)}) as url:
        human, machine = smoke(url)
    row = failed_row(human, machine, "streaming", "the stream broke off", "[DONE]")
    assert row["text"] == "2"


def test_a_bad_chunk_size(smoke):
    head = (
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    )
    with MisbehavingServer({"plain": send(head + b"zz\r\n{}\r\n0\r\n\r\n")}) as url:
        human, machine = smoke(url)
    failed_row(human, machine, "plain", "malformed chunk size")


def test_a_connection_reset(smoke):
    with MisbehavingServer(lambda request, conn: conn.reset()) as url:
        human, machine = smoke(url)
    for mode in ("models", "plain", "streaming"):
        failed_row(human, machine, mode, "reset the connection")


def test_a_connection_closed_without_an_answer(smoke):
    with MisbehavingServer(send(b"")) as url:
        human, machine = smoke(url)
    for mode in ("models", "plain", "streaming"):
        failed_row(human, machine, mode, "closed the connection without answering")


def test_an_endpoint_that_does_not_speak_http(smoke):
    with MisbehavingServer(send(b"SSH-2.0-OpenSSH_9.6\r\n")) as url:
        human, machine = smoke(url)
    failed_row(human, machine, "models", "did not answer HTTP", "SSH-2.0")


def test_too_many_headers(smoke):
    head = b"HTTP/1.1 200 OK\r\n" + b"".join(b"X-%d: y\r\n" % i for i in range(200)) + b"\r\n"
    with MisbehavingServer({"models": send(head)}) as url:
        human, machine = smoke(url)
    failed_row(human, machine, "models", "malformed HTTP answer", "100 headers")


# --- bounded reads: 16 MiB at most ------------------------------------------------------------------------------


def test_a_huge_declared_body_is_not_read(smoke):
    with MisbehavingServer({"models": send(response(200, b"{}", content_length=1 << 40))}) as url:
        human, machine = smoke(url)
    failed_row(human, machine, "models", "more than the 16 MiB read at most")


def test_a_huge_body_is_read_up_to_16_mib(smoke):
    def huge(request, conn):
        if conn.send(response(200, length=False)):
            block = b" " * (1 << 20)
            for _ in range(20):
                if not conn.send(block):
                    return

    with MisbehavingServer({"plain": huge}) as url:
        human, machine = smoke(url)
    failed_row(human, machine, "plain", "larger than the 16 MiB read at most; stopped reading")


def test_an_endless_stream_is_read_up_to_16_mib(smoke):
    def endless(request, conn):
        big = sse(
            chunk(choices=[{"index": 0, "delta": {"content": "x" * 65536}, "finish_reason": None}])
        )
        if conn.send(stream_head()):
            while not conn.stopping.is_set() and conn.send(big):
                pass

    with MisbehavingServer({"stream": endless}) as url:
        human, machine = smoke(url)
    failed_row(human, machine, "streaming", "larger than the 16 MiB read at most")


# --- error statuses and redirects ---------------------------------------------------------------------------------

HTML_500 = response(
    500,
    b"<html><head><title>500</title><style>p {}</style></head><body><h1>Internal Server Error"
    b"</h1>\x1b[31m<p>upstream &amp; co</p></body></html>",
    content_type="text/html",
)


def test_http_500_with_html(smoke):
    with MisbehavingServer(send(HTML_500)) as url:
        human, machine = smoke(url)
    assert_error(
        human,
        ExitCode.CHECK_FAILED,
        "HTTP 500",
        "Internal Server Error",
        "upstream & co",
        "POST /v1/chat/completions (plain)",
    )
    assert_error(machine, ExitCode.CHECK_FAILED, "HTTP 500")
    assert "<h1>" not in human.stderr and "\x1b" not in human.stderr + human.stdout


def test_http_500_on_the_models_list_is_a_failed_row(smoke):
    with MisbehavingServer({"models": send(HTML_500)}) as url:
        human, machine = smoke(url)
    failed_row(human, machine, "models", "HTTP 500", "Internal Server Error")
    rows_ok(machine, "plain", "streaming")


def test_redirects_are_not_followed(smoke):
    server = MisbehavingServer(
        send(response(302, headers={"Location": "http://elsewhere:8000/v1/models"}))
    )
    with server as url:
        human, machine = smoke(url)
    assert_error(human, ExitCode.CHECK_FAILED, "HTTP 302", "http://elsewhere:8000", "--url")
    assert all(r.path.startswith("/v1/") for r in server.requests)  # nothing went elsewhere


def test_an_unresolvable_host(run):
    result = run(
        "smoke-test", "--url", "http://no-such-host.invalid:8000", "--timeout", "2", "--json"
    )
    # the resolver answers "no such name" (1), or does not answer within the deadline (10)
    assert result.code in (ExitCode.CHECK_FAILED, ExitCode.TIMEOUT), result
    assert_error(result, ExitCode(result.code), "no-such-host.invalid")


# --- deadlines: the whole request, not each read ------------------------------------------------------------------


@pytest.fixture
def spent(monkeypatch) -> command_deadline.CommandDeadlines:
    """The command's deadline with :data:`LEFT` of it left when the command starts (tests/ops_cli/command_deadline.py)."""
    deadlines = command_deadline.installed(monkeypatch)
    deadlines.left = LEFT
    return deadlines


def _timed(run, *argv):
    started = time.monotonic()
    result = run(*argv)
    return result, time.monotonic() - started


def test_a_server_that_drips_its_headers_one_byte_per_second(run):
    with MisbehavingServer(lambda request, conn: conn.drip(response(200, b"{}"))) as url:
        result, took = _timed(run, "smoke-test", "--url", url, "--timeout", "1", "--json")
    assert_error(
        result, ExitCode.TIMEOUT, "GET /v1/models", "1 s deadline", "response headers", "--timeout"
    )
    assert took < 1 + SLACK, took


def test_a_stream_that_drips_one_byte_per_second(run, monkeypatch):
    deadlines = command_deadline.installed(monkeypatch)

    def plain(request, conn):
        # the request before the stream: the stream starts with LEFT of the deadline, however long the first took
        deadlines.leave(LEFT)
        vllm(request, conn)

    def drip(request, conn):
        rest = good_stream()
        conn.send(stream_head() + rest[:200])
        conn.drip(rest[200:])

    with MisbehavingServer({"plain": plain, "stream": drip}) as url:
        result, took = _timed(run, "smoke-test", "--url", url, "--timeout", "1")
    assert_error(
        result,
        ExitCode.TIMEOUT,
        "POST /v1/chat/completions (streaming)",
        "1 s deadline",
        "bytes so far",
    )
    assert took < 1 + SLACK, took


def test_a_server_that_accepts_and_never_answers(run, spent):
    with MisbehavingServer(lambda request, conn: conn.hang()) as url:
        result, took = _timed(run, "smoke-test", "--url", url, "--timeout", "1")
    assert_error(
        result,
        ExitCode.TIMEOUT,
        "GET /v1/models",
        "1 s deadline",
        "waiting for the response headers",
    )
    assert took < LEFT + SLACK, took


def test_https_to_a_port_that_speaks_plain_http(run):
    with MisbehavingServer(
        on_connect=lambda conn: conn.send(response(400, b"plain HTTP here"))
    ) as url:
        result = run("smoke-test", "--url", url.replace("http://", "https://"), "--json")
    assert_error(result, ExitCode.CHECK_FAILED, "TLS handshake failed", "use http://")


def test_a_tls_handshake_that_never_completes(run, spent):
    with MisbehavingServer(on_connect=lambda conn: conn.hang()) as url:
        result, took = _timed(
            run, "smoke-test", "--url", url.replace("http://", "https://"), "--timeout", "1"
        )
    assert_error(result, ExitCode.TIMEOUT, "GET /v1/models", "1 s deadline", "TLS handshake")
    assert took < LEFT + SLACK, took


def test_nothing_listening(run):
    with MisbehavingServer() as url:
        pass
    assert_error(
        run("smoke-test", "--url", url, "--json"),
        ExitCode.CHECK_FAILED,
        "cannot reach",
        "connection refused",
    )


# --- wait endpoint: garbage is "not healthy yet" ------------------------------------------------------------------


def _progress(result) -> list[str]:
    return [
        line.split("/health: ", 1)[1] for line in result.stderr.splitlines() if line.startswith("[")
    ]


@pytest.mark.parametrize(
    "responder, status",
    [
        (send(b"garbage\r\n\r\n"), "bad answer (the endpoint did not answer HTTP"),
        (send(HTML_500), "HTTP 500"),
        (lambda request, conn: conn.reset(), "bad answer (the endpoint reset the connection"),
        (
            send(response(301, headers={"Location": "https://elsewhere/health"})),
            "HTTP 301 (a redirect to 'https://elsewhere/health')",
        ),
    ],
)
def test_wait_endpoint_keeps_waiting_through_garbage(run, clock, responder, status):
    with MisbehavingServer({"health": responder}) as url:
        result = run(
            "wait", "endpoint", "--url", url, "--timeout", "60", "--interval", "30", "--json"
        )
    assert_error(result, ExitCode.TIMEOUT, "gave up waiting")
    assert (
        all(line.startswith(status) for line in _progress(result)) and len(_progress(result)) == 3
    ), result.stderr
    assert clock.sleeps == [30, 30]


def test_wait_endpoint_until_garbage_turns_healthy(run):
    answers = [send(b"garbage\r\n\r\n"), lambda request, conn: conn.reset(), send(response(200))]
    with MisbehavingServer({"health": lambda request, conn: answers.pop(0)(request, conn)}) as url:
        result = run("wait", "endpoint", "--url", url, "--interval", "30", "--json")
    assert result.code == ExitCode.OK and result.json["healthy"] is True, result
    assert _progress(result)[-1] == "HTTP 200" and len(_progress(result)) == 3


def test_wait_endpoint_bounds_each_probe(run):
    with MisbehavingServer({"health": lambda request, conn: conn.drip(response(200))}) as url:
        result, took = _timed(
            run,
            "wait",
            "endpoint",
            "--url",
            url,
            "--timeout",
            "1",
            "--interval",
            "2",
            "--request-timeout",
            "1",
            "--json",
        )
    assert_error(result, ExitCode.TIMEOUT, "gave up waiting", "no complete answer within 1 s")
    assert _progress(result) == ["no complete answer within 1 s"]
    assert took < 1 + SLACK, took
    json.loads(result.stdout)
