"""HTTP to the model endpoint: the URL checked before anything is sent, one deadline for the whole request, a bounded
read, and failures the CLI can explain. Standard library only.

Why not ``urllib.request``: its ``timeout`` applies to each socket operation, so a server that sends one byte per
second keeps a request alive for ever; it follows redirects without saying so; and a truncated body or a broken
status line escapes as an exception no caller expects (``http.client.IncompleteRead``, ``BadStatusLine``, ...).

The deadline covers the whole request: name resolution, connect, TLS handshake, sending, the response headers and
every byte of the body or event stream; the command's own deadline (``--timeout``, endpoint_probe/deadline.py) shortens it
when less of that is left, and the message then names the command's. Two mechanisms enforce it:

* before every blocking step the socket's timeout is set to the time that is left, and the step is refused once
  none is left;
* a watchdog (``threading.Timer``) shuts the socket down at the deadline. ``http.client`` reads the status line and
  the headers (and each line of a chunked body) in loops of its own that no per-operation timeout can bound when the
  server trickles bytes; the shutdown makes the blocked ``recv`` return at once, and everything read after the
  watchdog fired is discarded as a deadline failure.

The timer is cancelled and joined, and the socket closed, when the request ends, however it ends. Name resolution
runs in a daemon thread that is waited for no longer than the deadline (``getaddrinfo`` cannot be interrupted): if
the resolver hangs past the deadline, that thread lives on until the resolver gives up, and nothing waits for it.

What can go wrong, by what is raised:

* :class:`OpsError` with ``ExitCode.USAGE`` from :func:`check_url`: the URL cannot work (no scheme, another scheme,
  a broken host or port, credentials in it, ...). Nothing has been sent, and the message quotes the URL without its
  password or token (endpoint_probe/redaction.py).
* :class:`Unreachable` (``ExitCode.CHECK_FAILED``): no connection (the name does not resolve, connection refused,
  TLS handshake or certificate failure: the message names the name the certificate was verified for).
* :class:`DeadlineExceeded` (``ExitCode.TIMEOUT``): the request did not finish within its deadline; the message says
  which request, after how many seconds, and what it was doing then.
* :class:`BadResponse`: connected, but the endpoint misbehaved (reset, closed early, not HTTP, a truncated or
  oversized body, a malformed chunk). Not an :class:`OpsError`: callers turn it into a failed check.
"""

from __future__ import annotations

import http.client
from collections.abc import Iterator
from contextlib import contextmanager

from endpoint_probe.call import Call
from endpoint_probe.deadline import Deadline
from endpoint_probe.response import Response
from endpoint_probe.url import ApiKey, Endpoint


@contextmanager
def exchange(
    endpoint: Endpoint,
    method: str,
    path: str,
    *,
    what: str,
    timeout: float,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    timeout_option: str = "--timeout",
    api_key: ApiKey | None = None,
    deadline: Deadline | None = None,
) -> Iterator[Response]:
    """Send one request and yield its :class:`Response` (any status: redirects are not followed). Everything up to
    leaving the ``with`` block, reading the body included, must end within ``timeout`` seconds, and before the
    command's ``deadline`` (endpoint_probe/deadline.py) if that comes first. With ``api_key``, the request carries
    ``Authorization: Bearer KEY`` (checked with :func:`api_key_problem` before it gets here)."""
    call = Call(endpoint, what, timeout, timeout_option, deadline)
    conn: http.client.HTTPConnection | None = None
    raw: http.client.HTTPResponse | None = None
    try:
        call.watchdog.start()
        sock = call.connect()
        conn = http.client.HTTPConnection(endpoint.host, endpoint.port)
        conn.sock = (
            sock  # connected already: http.client only writes the request and parses the answer
        )
        all_headers = {
            "Host": endpoint.host_header,
            "Connection": "close",
            "User-Agent": "llmops",
            **(headers or {}),
            **(api_key.headers if api_key else {}),
        }
        call.io(
            lambda: conn.request(method, endpoint.base_path + path, body=body, headers=all_headers),
            "sending the request",
        )
        raw = call.io(conn.getresponse, "waiting for the response headers")
        yield Response(raw, call)
    finally:
        call.watchdog.stop()
        if raw is not None:
            raw.close()
        if conn is not None:
            conn.close()
        if call.sock is not None:
            call.sock.close()
