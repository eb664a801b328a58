"""HTTP to the model endpoint: the URL checked before anything is sent, one deadline for the whole request, a bounded
read, and failures the CLI can explain. Standard library only.

Why not ``urllib.request``: its ``timeout`` applies to each socket operation, so a server that sends one byte per
second keeps a request alive for ever; it follows redirects without saying so; and a truncated body or a broken
status line escapes as an exception no caller expects (``http.client.IncompleteRead``, ``BadStatusLine``, ...).

The deadline covers the whole request: name resolution, connect, TLS handshake, sending, the response headers and
every byte of the body or event stream; the command's own deadline (``--timeout``, ops_cli/deadline.py) shortens it
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
  password or token (ops_cli/redaction.py).
* :class:`Unreachable` (``ExitCode.CHECK_FAILED``): no connection (the name does not resolve, connection refused,
  TLS handshake or certificate failure: the message names the name the certificate was verified for).
* :class:`DeadlineExceeded` (``ExitCode.TIMEOUT``): the request did not finish within its deadline; the message says
  which request, after how many seconds, and what it was doing then.
* :class:`BadResponse`: connected, but the endpoint misbehaved (reset, closed early, not HTTP, a truncated or
  oversized body, a malformed chunk). Not an :class:`OpsError`: callers turn it into a failed check.
"""

from __future__ import annotations

import html
import http.client
import ipaddress
import json
import re
import socket
import ssl
import threading
import time
import urllib.parse
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial

from ops_cli.deadline import Deadline
from ops_cli.errors import ExitCode, OpsError
from ops_cli.redaction import redact_url

MiB = 1024 * 1024
#: The most read from one response (a body, or a whole event stream); more is reported, not read.
MAX_BODY_BYTES = 16 * MiB
_READ_SIZE = 64 * 1024
_UNREACHABLE_FIX = "check the address and that you are inside the VPC (or use kubectl port-forward)"


class Unreachable(OpsError):
    """No connection to the endpoint. ``reason`` is the short cause, for progress lines."""

    def __init__(self, message: str, fix: str, reason: str) -> None:
        super().__init__(message, fix, ExitCode.CHECK_FAILED)
        self.reason = reason


class CertificateInvalid(Unreachable):
    """The endpoint's TLS certificate does not verify for the name checked: no wait makes it valid."""


class DeadlineExceeded(OpsError):
    def __init__(self, message: str, fix: str, seconds: float) -> None:
        super().__init__(message, fix, ExitCode.TIMEOUT)
        self.seconds = seconds


class BadResponse(Exception):
    """The endpoint answered, but not with a usable HTTP response; the message says what was wrong."""


def printable(text: str, limit: int = 300) -> str:
    """``text`` safe for a terminal, at most about ``limit`` characters: control characters (escape sequences from a
    hostile server included) are shown escaped."""
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text[: limit + 1])
    return shown[:limit] + "..." if len(shown) > limit else shown


def quoted(text: str, limit: int = 120) -> str:
    return "'" + printable(text, limit) + "'"


# --- the URL -----------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TlsOptions:
    """How an ``https://`` endpoint's certificate is checked.

    :param server_name: the name sent in SNI and verified in the certificate, instead of the URL's host: to test an
        endpoint by its load balancer's own name before the DNS record of the name clients use exists. The request's
        Host header names it too, as a client that connects by that name sends it.
    :param ca_file: a PEM file of the certificate authorities to trust instead of the system's (a private CA, or a
        test's). Without it the system's store is used, which OpenSSL itself lets ``SSL_CERT_FILE`` and
        ``SSL_CERT_DIR`` replace.
    :param ca_data: PEM certificates to trust instead of the system's, as text: the certificate a HyperPod Inference
        Operator generated for its load balancer (ops_cli/operator_certificate.py). A self-signed certificate is its own
        trust anchor either way; OpenSSL's partial chain flag also accepts a stored certificate whose issuer is not
        stored (a leaf issued by an in-cluster CA), since the server presents exactly the certificate the status names.
    :param ca_source: where ``ca_data`` came from, for messages.
    """

    server_name: str | None = None
    ca_file: str | None = None
    ca_data: str | None = None
    ca_source: str | None = None

    def context(self) -> ssl.SSLContext:
        """A client context that verifies the certificate and its name (the standard library's defaults)."""
        if self.ca_data is not None:
            context = ssl.create_default_context(cadata=self.ca_data)
            context.verify_flags |= ssl.VERIFY_X509_PARTIAL_CHAIN
            return context
        return ssl.create_default_context(cafile=self.ca_file)


def server_name_for(host: str, domain_names: Sequence[str]) -> str | None:
    """The name to verify when connecting to ``host`` with a certificate for ``domain_names``: None when it covers
    ``host`` itself (a ``*.`` name covers one label), else the first name it covers that is not a wildcard (an endpoint
    reached by its load balancer's name or address, which its certificate does not name)."""
    host = host.rstrip(".").lower()
    for name in domain_names:
        name = name.rstrip(".").lower()
        if name == host or (name.startswith("*.") and host.partition(".")[2] == name[2:] and host.partition(".")[0]):
            return None
    return next((name for name in domain_names if not name.startswith("*.")), None)


@dataclass(frozen=True)
class Endpoint:
    """A checked ``http(s)://host[:port][/base/path]``."""

    url: str  # as given, without surrounding whitespace or trailing slashes, for messages
    scheme: str
    host: str  # what to connect to: an IP address (no brackets) or an ASCII (IDNA) host name
    port: int
    base_path: str  # "" or "/prefix", percent-encoded, no trailing slash
    host_header: str
    tls: TlsOptions = TlsOptions()

    @property
    def verified_name(self) -> str:
        """The name the endpoint's certificate must be valid for."""
        return self.tls.server_name or self.host.split("%")[0]


_LABEL = re.compile(r"^[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?$")
_HOST_FIX = "check the host for typos: a host name has only letters, digits, '-' and '.'; IPv6 addresses go in " \
            "brackets, for example http://[::1]:8000"


def check_url(url: str, option: str = "--url", tls: TlsOptions | None = None) -> Endpoint:
    """The endpoint ``url`` names, or an :class:`OpsError` with ``ExitCode.USAGE`` saying what is wrong with it.

    :param tls: how to check an ``https://`` endpoint's certificate; a server name needs an ``https://`` URL.
    Local only: nothing is resolved or sent.
    """
    text = (url or "").strip()
    shown = redact_url(text)  # what messages quote: never a password or token the URL carries

    def bad(problem: str, fix: str) -> OpsError:
        return OpsError(f"{option} {quoted(shown)} {problem}" if text else f"{option} is empty", fix, ExitCode.USAGE)

    example = "for example http://localhost:8000"
    if not text:
        raise bad("", f"give the endpoint's address, {example}")
    if any(not c.isprintable() for c in text):
        raise bad("contains a control character", f"retype it, {example}")
    if "://" not in text:
        if re.match(r"^https?:", text, re.IGNORECASE):
            raise bad("is malformed: the scheme must be followed by //", f"write it as {example}")
        raise bad("has no scheme (http:// or https://)", f"write it as http://{printable(shown, 120)} (or https://...)")
    try:
        parts = urllib.parse.urlsplit(text)
    except ValueError as error:
        raise bad(f"is not a valid URL ({printable(str(error), 80)})", _HOST_FIX) from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise bad(f"uses {printable(scheme, 20)}://; only http:// and https:// are supported",
                  f"use the endpoint's HTTP address, {example}")
    if parts.username is not None or parts.password is not None:
        raise bad("contains credentials (user@ or user:password@)", "remove them: the endpoint takes none in the URL")
    try:
        port = parts.port
    except ValueError:
        raise bad(f"has an invalid port {quoted(parts.netloc.rpartition(':')[2], 20)}",
                  "a port is a number from 1 to 65535, for example http://localhost:8000") from None
    if port == 0:
        raise bad("has port 0", "a port is a number from 1 to 65535, for example http://localhost:8000")
    host = parts.hostname or ""
    if not host:
        raise bad("has no host", f"write it as {example}")
    host = _check_host(host, "[" in parts.netloc, bad)
    if parts.query or parts.fragment or "?" in text or "#" in text:
        raise bad("has a query or a fragment", f"give the base address only, for example {scheme}://{parts.netloc}")
    if any(c.isspace() for c in parts.path):
        raise bad("has a space in its path", "remove it, or encode it as %20")
    base_path = urllib.parse.quote(parts.path.rstrip("/"), safe="/%!$&'()*+,;=:@-._~")
    default_port = 443 if scheme == "https" else 80
    tls = tls or TlsOptions()
    if tls.server_name is not None and scheme != "https":
        raise bad("is http://, but a TLS server name is given", f"use https://{parts.netloc}{parts.path} (the "
                  "load balancer's TLS port is 443), or leave out --tls-server-name")
    header_host = f"[{host.split('%')[0]}]" if ":" in host else host
    header_host = tls.server_name or header_host
    return Endpoint(text.rstrip("/"), scheme, host, port or default_port, base_path,
                    header_host + (f":{port}" if port and port != default_port else ""), tls)


def _check_host(host: str, bracketed: bool, bad) -> str:
    if bracketed:
        host = urllib.parse.unquote(host)  # a zone is written %25eth0 (RFC 6874)
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            raise bad(f"has an invalid IPv6 address {quoted(host, 60)}", _HOST_FIX) from None
        return host
    if re.fullmatch(r"[0-9.]+", host):
        try:
            ipaddress.IPv4Address(host)
        except ValueError:
            raise bad(f"has an invalid IPv4 address {quoted(host, 60)}", _HOST_FIX) from None
        return host
    try:
        ascii_host = host.encode("idna").decode("ascii")
    except UnicodeError:
        raise bad(f"has an invalid host name {quoted(host, 60)}", _HOST_FIX) from None
    labels = ascii_host[:-1].split(".") if ascii_host.endswith(".") else ascii_host.split(".")
    if len(ascii_host) > 253 or not all(_LABEL.match(label) for label in labels):
        raise bad(f"has an invalid host name {quoted(host, 60)}", _HOST_FIX)
    return ascii_host


# --- the API key -------------------------------------------------------------------------------------------------

#: Shorter keys are not searched for in what is printed: replacing every occurrence of a few common characters would
#: garble the output. (Nothing the CLI writes itself contains a key; the search is against endpoints that echo it.)
_MIN_REDACTED_LENGTH = 8


@dataclass(frozen=True)
class ApiKey:
    """An endpoint's API key and where it came from.

    vLLM 0.33.0 checks it as ``Authorization: Bearer KEY`` on every path under /v1, /v2, /inference and /cohere, and
    answers ``401 {"error":"Unauthorized"}`` without it (vllm/entrypoints/serve/middleware/authenticate.py,
    ``AuthenticationMiddleware``; registered for ``--api-key`` or ``VLLM_API_KEY`` in
    vllm/entrypoints/serve/middleware/register.py). /health, /metrics, /ping and /version are not checked.

    :param value: the key. Never in ``repr``, messages or output: messages name :attr:`source` instead.
    :param source: where it came from, for messages: ``--api-key``, ``LLMOPS_API_KEY`` or ``secret NAME (...)``.
    """

    value: str = field(repr=False)
    source: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.value}"}

    def redact(self, text: str) -> str:
        """``text`` with every occurrence of the key replaced (an endpoint may echo the request in an error body)."""
        if len(self.value) < _MIN_REDACTED_LENGTH or not isinstance(text, str):
            return text
        return text.replace(self.value, "<the API key>")


def api_key_problem(value: str) -> str | None:
    """Why ``value`` cannot be sent as ``Authorization: Bearer VALUE``, without quoting it; None if it can.

    http.client refuses a header value with a line break with an error that quotes the value, and vLLM compares the
    UTF-8 bytes of the header it decoded as Latin-1, so that a key outside printable ASCII never matches.
    """
    if not value:
        return "is empty"
    for position, character in enumerate(value, start=1):
        if not " " <= character <= "~":
            return (f"has a character that cannot be sent in an HTTP header at position {position} (only printable "
                    "ASCII can be)")
    if value != value.strip(" "):
        return "begins or ends with a space, which HTTP drops from a header value"
    return None


# --- the deadline ------------------------------------------------------------------------------------------------

class _Watchdog:
    """Shuts the watched socket down when the deadline passes, so that a read blocked inside http.client returns."""

    def __init__(self, seconds: float) -> None:
        self._lock = threading.Lock()
        self._sock: socket.socket | None = None
        self.fired = False
        self._timer = threading.Timer(max(seconds, 0.0), self._fire)
        self._timer.name = "llmops-deadline"
        self._timer.daemon = True

    def start(self) -> None:
        self._timer.start()

    def watch(self, sock: socket.socket | None) -> None:
        with self._lock:
            self._sock = sock
            if self.fired and sock is not None:
                _shutdown(sock)

    def _fire(self) -> None:
        with self._lock:
            self.fired = True
            if self._sock is not None:
                _shutdown(self._sock)

    def stop(self) -> None:
        """Cancel the timer and wait for its thread: after this it touches no socket."""
        self._timer.cancel()
        if self._timer.is_alive() or self._timer.ident is not None:
            self._timer.join()
        with self._lock:
            self._sock = None


def _shutdown(sock: socket.socket) -> None:
    try:
        # socket.socket's own shutdown, also for an SSLSocket: it acts on the descriptor and leaves the TLS state
        # alone, which the thread blocked in the read is still using.
        socket.socket.shutdown(sock, socket.SHUT_RDWR)
    except OSError:
        pass  # not connected yet, or closed already


class _Call:
    """One request under one deadline: the phase it is in, for messages, and the translation of failures."""

    def __init__(self, endpoint: Endpoint, what: str, seconds: float, timeout_option: str,
                 deadline: Deadline | None = None) -> None:
        self.endpoint = endpoint
        self.what = what
        # The command's deadline, when it leaves less than the request's own: then it is the one that is reported.
        self.command_deadline = deadline if deadline is not None and deadline.binds(seconds) else None
        self.seconds = deadline.bound(seconds) if deadline is not None else seconds
        self.timeout_option = timeout_option
        self.started = time.monotonic()
        self.watchdog = _Watchdog(self.seconds)
        self.sock: socket.socket | None = None
        self.phase = "resolving the host name"
        self.received = 0  # body bytes so far

    def remaining(self) -> float:
        return self.seconds - (time.monotonic() - self.started)

    def over(self) -> bool:
        return self.watchdog.fired or self.remaining() <= 0

    def expired(self) -> DeadlineExceeded:
        elapsed = time.monotonic() - self.started
        phase = self.phase + (f" ({self.received} bytes so far)" if self.received else "")
        option, limit = self.timeout_option, f"its {self.seconds:g} s deadline"
        if self.command_deadline is not None:
            option = self.command_deadline.option
            limit = f"the command's {self.command_deadline.seconds:g} s deadline ({option})"
        message = (f"{self.what} to {self.endpoint.url} did not finish within {limit}: "
                   f"gave up after {elapsed:.1f} s, {phase}")
        if self.phase.startswith(("resolving", "connecting")):
            fix = f"{_UNREACHABLE_FIX}; raise {option} if the network is just slow"
        else:
            fix = (f"raise {option} if the endpoint is just slow (the first requests after a start can "
                   "take minutes), else look at its load and its logs")
        return DeadlineExceeded(message, fix, self.seconds)

    def unreachable(self, reason: str, fix: str = _UNREACHABLE_FIX) -> Unreachable:
        return Unreachable(f"cannot reach {self.endpoint.url}: {reason}", fix, reason)

    def failure(self, error: BaseException) -> Exception:
        """What a failed socket or HTTP operation means: the deadline, or a misbehaving endpoint."""
        if self.over() or isinstance(error, TimeoutError):
            return self.expired()
        return BadResponse(_describe(error, self.phase))

    def arm(self) -> None:
        """Before a blocking step: refuse it when no time is left, else give the socket what is left."""
        remaining = self.remaining()
        if remaining <= 0 or self.watchdog.fired:
            raise self.expired()
        if self.sock is not None:
            self.sock.settimeout(remaining)

    def io(self, operation, phase: str):
        self.phase = phase
        self.arm()
        try:
            result = operation()
        except (OSError, http.client.HTTPException, ValueError) as error:
            raise self.failure(error) from None
        if self.over():  # whatever was read after the watchdog fired is cut short: it does not count
            raise self.expired()
        return result

    # --- connecting ---

    def resolve(self) -> list:
        host, port = self.endpoint.host, self.endpoint.port
        try:
            ipaddress.ip_address(host.split("%")[0])
            return socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_NUMERICHOST)
        except ValueError:
            pass  # a name: resolve it below
        except OSError as error:
            raise self.unreachable(f"bad address ({error})") from None
        box: dict = {}

        def resolve() -> None:
            try:
                box["addresses"] = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
            except (OSError, UnicodeError) as error:
                box["error"] = error

        thread = threading.Thread(target=resolve, name="llmops-resolve", daemon=True)
        thread.start()
        thread.join(max(self.remaining(), 0.0))
        if thread.is_alive():
            raise self.expired()
        if "error" in box or not box.get("addresses"):
            error = box.get("error")
            detail = getattr(error, "strerror", None) or str(error or "no address")
            raise self.unreachable(f"cannot resolve the host name {quoted(host, 80)} ({printable(detail, 80)})",
                                   "check the host name for typos, and the DNS: internal names resolve only inside the VPC")
        return box["addresses"]

    def connect(self) -> socket.socket:
        addresses = self.resolve()
        last_error: OSError | None = None
        for family, kind, proto, _, address in addresses:
            self.phase = f"connecting to {self.endpoint.host}:{self.endpoint.port}"
            try:
                sock = socket.socket(family, kind, proto)
            except OSError as error:  # an address family this machine lacks
                last_error = error
                continue
            self.sock = sock
            self.watchdog.watch(sock)
            try:
                self.arm()
                sock.connect(address)
                break
            except OSError as error:
                self.watchdog.watch(None)
                self.sock = None
                sock.close()
                if self.over() or isinstance(error, TimeoutError):
                    raise self.expired() from None
                last_error = error
            except DeadlineExceeded:
                self.watchdog.watch(None)
                self.sock = None
                sock.close()
                raise
        else:
            if isinstance(last_error, ConnectionRefusedError):
                reason = f"connection refused (nothing listens on port {self.endpoint.port})"
            else:
                reason = printable(getattr(last_error, "strerror", None) or str(last_error), 120)
            raise self.unreachable(reason)
        if self.endpoint.scheme == "https":
            self._tls()
        return self.sock

    def _tls(self) -> None:
        self.phase = "in the TLS handshake"
        name = self.endpoint.verified_name
        try:
            context = self.endpoint.tls.context()
        except (OSError, ValueError) as error:  # an unreadable or malformed CA file (checked by the CLI first)
            raise OpsError(f"cannot load the CA bundle {quoted(self.endpoint.tls.ca_file or '', 200)}: "
                           f"{printable(str(error), 120)}", "pass a PEM file of CA certificates to --ca-bundle",
                           ExitCode.USAGE) from None
        # SNI and the certificate's name: the URL's host, or the server name given for it
        tls = context.wrap_socket(self.sock, server_hostname=name, do_handshake_on_connect=False)
        self.sock = tls  # the plain socket is detached now
        self.watchdog.watch(tls)
        self.arm()
        try:
            tls.do_handshake()
        except OSError as error:
            # first the deadline: the watchdog's shutdown reads as an unexpected EOF in the handshake
            if self.over() or isinstance(error, TimeoutError):
                raise self.expired() from None
            if isinstance(error, ssl.SSLCertVerificationError):
                reason = (f"its TLS certificate is not valid for {quoted(name, 200)} "
                          f"({printable(error.verify_message or str(error), 120)})")
                if self.endpoint.tls.server_name:
                    fix = ("check that the certificate covers that name (aws acm describe-certificate lists its names), "
                           "or pass the name it covers to --tls-server-name")
                else:
                    fix = ("connect by a name the certificate covers, or keep this URL and pass that name to "
                           "--tls-server-name (or use --env NAME, whose endpoint.domain_name is used)")
                if self.endpoint.tls.ca_source:
                    fix += (f"; it was checked against {self.endpoint.tls.ca_source}: if that is not the certificate of "
                            "this endpoint, pass --ca-bundle FILE")
                else:
                    fix += "; a certificate of a private CA needs --ca-bundle FILE"
                raise CertificateInvalid(f"cannot reach {self.endpoint.url}: {reason}", fix, reason) from None
            if isinstance(error, ssl.SSLError):
                reason = f"the TLS handshake failed ({printable(error.reason or str(error), 120)})"
                raise self.unreachable(reason, "check that this port speaks https, or use http://") from None
            raise self.failure(error) from None


def _describe(error: BaseException, phase: str) -> str:
    if isinstance(error, http.client.RemoteDisconnected):
        return "the endpoint closed the connection without answering"
    if isinstance(error, ConnectionResetError):
        return f"the endpoint reset the connection while {phase}"
    if isinstance(error, BrokenPipeError):
        return f"the endpoint closed the connection while {phase}"
    if isinstance(error, http.client.IncompleteRead):
        if error.expected is None:  # http.client's word for a chunk size line that is not a hex number
            return "the chunked body is cut off or has a malformed chunk size"
        return f"the body was cut off ({error.expected} more bytes of a chunk were expected)"
    if isinstance(error, http.client.BadStatusLine):
        line = error.line if isinstance(error.line, str) else repr(error.line)
        return f"the endpoint did not answer HTTP (its first line: {quoted(line.strip(), 80)})"
    if isinstance(error, http.client.LineTooLong):
        return "malformed HTTP answer: a line of its header is longer than 64 KiB"
    if isinstance(error, http.client.HTTPException):
        return f"malformed HTTP answer ({printable(str(error), 120)})"
    if isinstance(error, ValueError):
        return f"malformed HTTP answer while {phase} ({printable(str(error), 120)})"
    if isinstance(error, ssl.SSLError):
        return f"TLS error while {phase} ({printable(error.reason or str(error), 120)})"
    return f"network error while {phase} ({printable(getattr(error, 'strerror', None) or str(error), 120)})"


# --- the exchange ------------------------------------------------------------------------------------------------

class Response:
    """The status and headers of an answer; its body is read with :meth:`read` or :meth:`lines`, under the deadline."""

    def __init__(self, raw: http.client.HTTPResponse, call: _Call) -> None:
        self._raw = raw
        self._call = call
        self.status = raw.status
        self.headers = raw.headers
        length = None if raw.chunked else raw.headers.get("Content-Length", "")
        self.declared = int(length) if length and length.strip().isdigit() else None

    def _check_declared(self, limit: int) -> None:
        if self.declared is not None and self.declared > limit:
            raise BadResponse(f"the body is {self.declared} bytes (Content-Length), more than the {limit // MiB} MiB "
                              "read at most; not read")

    def _too_large(self, limit: int) -> BadResponse:
        return BadResponse(f"the body is larger than the {limit // MiB} MiB read at most; stopped reading there")

    def _end(self) -> None:
        if self.declared is not None and self._call.received < self.declared:
            raise BadResponse(f"the body was cut off after {self._call.received} of {self.declared} bytes (Content-Length)")

    def read(self, limit: int = MAX_BODY_BYTES) -> bytes:
        """The whole body; :class:`BadResponse` if it is truncated or larger than ``limit``."""
        self._check_declared(limit)
        parts: list[bytes] = []
        while True:
            chunk = self._call.io(partial(self._raw.read1, _READ_SIZE), "reading the body")
            if not chunk:
                self._end()
                return b"".join(parts)
            self._call.received += len(chunk)
            if self._call.received > limit:
                raise self._too_large(limit)
            parts.append(chunk)

    def _start(self, limit: int) -> bytes:
        """Up to ``limit`` bytes of the body, whatever happens: for error messages."""
        parts: list[bytes] = []
        size = 0
        try:
            while size < limit:
                chunk = self._call.io(partial(self._raw.read1, limit - size), "reading the body")
                if not chunk:
                    break
                parts.append(chunk)
                size += len(chunk)
                self._call.received += len(chunk)
        except (BadResponse, DeadlineExceeded):
            pass
        return b"".join(parts)

    def lines(self, limit: int = MAX_BODY_BYTES) -> Iterator[bytes]:
        """The body line by line, as it arrives (an event stream); at most ``limit`` bytes in all."""
        self._check_declared(limit)
        while True:
            line = self._call.io(partial(self._raw.readline, limit - self._call.received + 1), "reading the body")
            if not line:
                self._end()
                return
            self._call.received += len(line)
            if self._call.received > limit:
                raise self._too_large(limit)
            yield line

    def summary(self, limit: int = 4096) -> str:
        """``HTTP 500: what the body says``, best effort (a body that does not come in time is left out)."""
        text = f"HTTP {self.status}"
        location = self.headers.get("Location")
        if 300 <= self.status < 400 and location:
            text += f" (a redirect to {quoted(location, 200)})"
        detail = _body_text(self._start(limit), self.headers.get("Content-Type", ""))
        return f"{text}: {printable(detail, 300)}" if detail else text


def _body_text(body: bytes, content_type: str) -> str:
    text = body.decode("utf-8", errors="replace")
    try:
        payload = json.loads(text)
    except (ValueError, RecursionError):
        payload = None
    if isinstance(payload, dict):  # OpenAI-style errors: {"message": ...} or {"error": {"message": ...}}
        error = payload.get("error")
        message = payload.get("message") or (error.get("message") if isinstance(error, dict) else error)
        if isinstance(message, str) and message.strip():
            return " ".join(message.split())
    if "html" in content_type.lower() or text.lstrip()[:1] == "<":
        text = re.sub(r"(?is)<(script|style)\b.*?</\1\s*>", " ", text)
        text = html.unescape(re.sub(r"(?s)<[^>]*>", " ", text))
    return " ".join(text.split())


@contextmanager
def exchange(endpoint: Endpoint, method: str, path: str, *, what: str, timeout: float, body: bytes | None = None,
             headers: dict[str, str] | None = None, timeout_option: str = "--timeout",
             api_key: ApiKey | None = None, deadline: Deadline | None = None) -> Iterator[Response]:
    """Send one request and yield its :class:`Response` (any status: redirects are not followed). Everything up to
    leaving the ``with`` block, reading the body included, must end within ``timeout`` seconds, and before the
    command's ``deadline`` (ops_cli/deadline.py) if that comes first. With ``api_key``, the request carries
    ``Authorization: Bearer KEY`` (checked with :func:`api_key_problem` before it gets here)."""
    call = _Call(endpoint, what, timeout, timeout_option, deadline)
    conn: http.client.HTTPConnection | None = None
    raw: http.client.HTTPResponse | None = None
    try:
        call.watchdog.start()
        sock = call.connect()
        conn = http.client.HTTPConnection(endpoint.host, endpoint.port)
        conn.sock = sock  # connected already: http.client only writes the request and parses the answer
        all_headers = {"Host": endpoint.host_header, "Connection": "close", "User-Agent": "llmops", **(headers or {}),
                       **(api_key.headers if api_key else {})}
        call.io(lambda: conn.request(method, endpoint.base_path + path, body=body, headers=all_headers),
                "sending the request")
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
