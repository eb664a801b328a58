"""One request under one deadline: the phase it is in (for messages), connecting and the TLS handshake under the
deadline, and what a failure means (endpoint_probe/http.py describes the mechanism and what is raised). Standard
library only.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
import threading
import time

from endpoint_probe.deadline import Deadline
from endpoint_probe.errors import (
    BadResponse,
    CertificateInvalid,
    DeadlineExceeded,
    ExitCode,
    OpsError,
    Unreachable,
    printable,
    quoted,
)
from endpoint_probe.url import Endpoint
from endpoint_probe.watchdog import Watchdog

_UNREACHABLE_FIX = "check the address and that you are inside the VPC (or use kubectl port-forward)"


class Call:
    """One request under one deadline: the phase it is in, for messages, and the translation of failures."""

    def __init__(
        self,
        endpoint: Endpoint,
        what: str,
        seconds: float,
        timeout_option: str,
        deadline: Deadline | None = None,
    ) -> None:
        self.endpoint = endpoint
        self.what = what
        # The command's deadline, when it leaves less than the request's own: then it is the one that is reported.
        self.command_deadline = (
            deadline if deadline is not None and deadline.binds(seconds) else None
        )
        self.seconds = deadline.bound(seconds) if deadline is not None else seconds
        self.timeout_option = timeout_option
        self.started = time.monotonic()
        self.watchdog = Watchdog(self.seconds)
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
        message = (
            f"{self.what} to {self.endpoint.url} did not finish within {limit}: "
            f"gave up after {elapsed:.1f} s, {phase}"
        )
        if self.phase.startswith(("resolving", "connecting")):
            fix = f"{_UNREACHABLE_FIX}; raise {option} if the network is just slow"
        else:
            fix = (
                f"raise {option} if the endpoint is just slow (the first requests after a start can "
                "take minutes), else look at its load and its logs"
            )
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
        if (
            self.over()
        ):  # whatever was read after the watchdog fired is cut short: it does not count
            raise self.expired()
        return result

    # --- connecting ---

    def resolve(self) -> list:
        host, port = self.endpoint.host, self.endpoint.port
        try:
            ipaddress.ip_address(host.split("%")[0])
            return socket.getaddrinfo(
                host, port, type=socket.SOCK_STREAM, flags=socket.AI_NUMERICHOST
            )
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
            raise self.unreachable(
                f"cannot resolve the host name {quoted(host, 80)} ({printable(detail, 80)})",
                "check the host name for typos, and the DNS: internal names resolve only inside the VPC",
            )
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
        except (
            OSError,
            ValueError,
        ) as error:  # an unreadable or malformed CA file (checked by the CLI first)
            raise OpsError(
                f"cannot load the CA bundle {quoted(self.endpoint.tls.ca_file or '', 200)}: "
                f"{printable(str(error), 120)}",
                "pass a PEM file of CA certificates to --ca-bundle",
                ExitCode.USAGE,
            ) from None
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
                reason = (
                    f"its TLS certificate is not valid for {quoted(name, 200)} "
                    f"({printable(error.verify_message or str(error), 120)})"
                )
                if self.endpoint.tls.server_name:
                    fix = (
                        "check that the certificate covers that name (aws acm describe-certificate lists its names), "
                        "or pass the name it covers to --tls-server-name"
                    )
                else:
                    fix = (
                        "connect by a name the certificate covers, or keep this URL and pass that name to "
                        "--tls-server-name (or use --env NAME, whose endpoint.domain_name is used)"
                    )
                if self.endpoint.tls.ca_source:
                    fix += (
                        f"; it was checked against {self.endpoint.tls.ca_source}: if that is not the certificate of "
                        "this endpoint, pass --ca-bundle FILE"
                    )
                else:
                    fix += "; a certificate of a private CA needs --ca-bundle FILE"
                raise CertificateInvalid(
                    f"cannot reach {self.endpoint.url}: {reason}", fix, reason
                ) from None
            if isinstance(error, ssl.SSLError):
                reason = f"the TLS handshake failed ({printable(error.reason or str(error), 120)})"
                raise self.unreachable(
                    reason, "check that this port speaks https, or use http://"
                ) from None
            raise self.failure(error) from None


def _describe(error: BaseException, phase: str) -> str:
    if isinstance(error, http.client.RemoteDisconnected):
        return "the endpoint closed the connection without answering"
    if isinstance(error, ConnectionResetError):
        return f"the endpoint reset the connection while {phase}"
    if isinstance(error, BrokenPipeError):
        return f"the endpoint closed the connection while {phase}"
    if isinstance(error, http.client.IncompleteRead):
        if (
            error.expected is None
        ):  # http.client's word for a chunk size line that is not a hex number
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
