"""The endpoint's address and its API key, checked before anything is sent: the URL (scheme, host, port, no
credentials in it), the TLS settings and the name a certificate is verified for, and the key as an HTTP header can carry
it. Standard library only.

:func:`check_url` raises :class:`~endpoint_probe.errors.OpsError` with ``ExitCode.USAGE`` when the URL cannot work;
nothing has been sent then, and the message quotes the URL without its password or token
(endpoint_probe/redaction.py).
"""

from __future__ import annotations

import ipaddress
import re
import ssl
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass, field

from endpoint_probe.errors import ExitCode, OpsError, printable, quoted
from endpoint_probe.redaction import redact_url

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
        if name == host or (
            name.startswith("*.") and host.partition(".")[2] == name[2:] and host.partition(".")[0]
        ):
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
_HOST_FIX = (
    "check the host for typos: a host name has only letters, digits, '-' and '.'; IPv6 addresses go in "
    "brackets, for example http://[::1]:8000"
)


def check_url(url: str, option: str = "--url", tls: TlsOptions | None = None) -> Endpoint:
    """The endpoint ``url`` names, or an :class:`OpsError` with ``ExitCode.USAGE`` saying what is wrong with it.

    :param tls: how to check an ``https://`` endpoint's certificate; a server name needs an ``https://`` URL.
    Local only: nothing is resolved or sent.
    """
    text = (url or "").strip()
    shown = redact_url(text)  # what messages quote: never a password or token the URL carries

    def bad(problem: str, fix: str) -> OpsError:
        return OpsError(
            f"{option} {quoted(shown)} {problem}" if text else f"{option} is empty",
            fix,
            ExitCode.USAGE,
        )

    example = "for example http://localhost:8000"
    if not text:
        raise bad("", f"give the endpoint's address, {example}")
    if any(not c.isprintable() for c in text):
        raise bad("contains a control character", f"retype it, {example}")
    if "://" not in text:
        if re.match(r"^https?:", text, re.IGNORECASE):
            raise bad("is malformed: the scheme must be followed by //", f"write it as {example}")
        raise bad(
            "has no scheme (http:// or https://)",
            f"write it as http://{printable(shown, 120)} (or https://...)",
        )
    try:
        parts = urllib.parse.urlsplit(text)
    except ValueError as error:
        raise bad(f"is not a valid URL ({printable(str(error), 80)})", _HOST_FIX) from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise bad(
            f"uses {printable(scheme, 20)}://; only http:// and https:// are supported",
            f"use the endpoint's HTTP address, {example}",
        )
    if parts.username is not None or parts.password is not None:
        raise bad(
            "contains credentials (user@ or user:password@)",
            "remove them: the endpoint takes none in the URL",
        )
    try:
        port = parts.port
    except ValueError:
        raise bad(
            f"has an invalid port {quoted(parts.netloc.rpartition(':')[2], 20)}",
            "a port is a number from 1 to 65535, for example http://localhost:8000",
        ) from None
    if port == 0:
        raise bad(
            "has port 0", "a port is a number from 1 to 65535, for example http://localhost:8000"
        )
    host = parts.hostname or ""
    if not host:
        raise bad("has no host", f"write it as {example}")
    host = _check_host(host, "[" in parts.netloc, bad)
    if parts.query or parts.fragment or "?" in text or "#" in text:
        raise bad(
            "has a query or a fragment",
            f"give the base address only, for example {scheme}://{parts.netloc}",
        )
    if any(c.isspace() for c in parts.path):
        raise bad("has a space in its path", "remove it, or encode it as %20")
    base_path = urllib.parse.quote(parts.path.rstrip("/"), safe="/%!$&'()*+,;=:@-._~")
    default_port = 443 if scheme == "https" else 80
    tls = tls or TlsOptions()
    if tls.server_name is not None and scheme != "https":
        raise bad(
            "is http://, but a TLS server name is given",
            f"use https://{parts.netloc}{parts.path} (the "
            "load balancer's TLS port is 443), or leave out --tls-server-name",
        )
    header_host = f"[{host.split('%')[0]}]" if ":" in host else host
    header_host = tls.server_name or header_host
    return Endpoint(
        text.rstrip("/"),
        scheme,
        host,
        port or default_port,
        base_path,
        header_host + (f":{port}" if port and port != default_port else ""),
        tls,
    )


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
            return (
                f"has a character that cannot be sent in an HTTP header at position {position} (only printable "
                "ASCII can be)"
            )
    if value != value.strip(" "):
        return "begins or ends with a space, which HTTP drops from a header value"
    return None
