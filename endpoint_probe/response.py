"""An endpoint's answer, read under the request's deadline and bounded: at most :data:`MAX_BODY_BYTES` of a body or
an event stream, a truncated body reported as such (endpoint_probe/http.py sends the request). Standard library only.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from functools import partial
from typing import TYPE_CHECKING

from endpoint_probe.errors import BadResponse, DeadlineExceeded, printable, quoted

if TYPE_CHECKING:
    import http.client

    from endpoint_probe.call import Call

MiB = 1024 * 1024
#: The most read from one response (a body, or a whole event stream); more is reported, not read.
MAX_BODY_BYTES = 16 * MiB
_READ_SIZE = 64 * 1024


class Response:
    """The status and headers of an answer; its body is read with :meth:`read` or :meth:`lines`, under the deadline."""

    def __init__(self, raw: http.client.HTTPResponse, call: Call) -> None:
        self._raw = raw
        self._call = call
        self.status = raw.status
        self.headers = raw.headers
        length = None if raw.chunked else raw.headers.get("Content-Length", "")
        self.declared = int(length) if length and length.strip().isdigit() else None

    def _check_declared(self, limit: int) -> None:
        if self.declared is not None and self.declared > limit:
            raise BadResponse(
                f"the body is {self.declared} bytes (Content-Length), more than the {limit // MiB} MiB "
                "read at most; not read"
            )

    def _too_large(self, limit: int) -> BadResponse:
        return BadResponse(
            f"the body is larger than the {limit // MiB} MiB read at most; stopped reading there"
        )

    def _end(self) -> None:
        if self.declared is not None and self._call.received < self.declared:
            raise BadResponse(
                f"the body was cut off after {self._call.received} of {self.declared} bytes (Content-Length)"
            )

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
            line = self._call.io(
                partial(self._raw.readline, limit - self._call.received + 1), "reading the body"
            )
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
    if isinstance(
        payload, dict
    ):  # OpenAI-style errors: {"message": ...} or {"error": {"message": ...}}
        error = payload.get("error")
        message = payload.get("message") or (
            error.get("message") if isinstance(error, dict) else error
        )
        if isinstance(message, str) and message.strip():
            return " ".join(message.split())
    if "html" in content_type.lower() or text.lstrip()[:1] == "<":
        text = re.sub(r"(?is)<(script|style)\b.*?</\1\s*>", " ", text)
        text = html.unescape(re.sub(r"(?s)<[^>]*>", " ", text))
    return " ".join(text.split())
