"""A stand-in for S3's object API on 127.0.0.1: GET, HEAD and PUT of objects, path-style (``/BUCKET/KEY``), with
``If-None-Match: *`` on PUT answered 412 PreconditionFailed when the object exists, as S3 does ("Conditional writes",
https://docs.aws.amazon.com/AmazonS3/latest/userguide/conditional-writes.html). Errors in S3's XML error format
(``<Error><Code>``), which botocore parses into ``ClientError``. Enough for the compile cache's script, run for real
with boto3 against it through ``AWS_ENDPOINT_URL_S3``."""

from __future__ import annotations

import threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def _error(code: str) -> bytes:
    return (
        f'<?xml version="1.0" encoding="UTF-8"?><Error><Code>{code}</Code><Message>{code}</Message>'
        "</Error>"
    ).encode()


class _Handler(BaseHTTPRequestHandler):
    # HTTP/1.1, as S3 speaks: botocore sends PutObject with "Expect: 100-continue" and, from an HTTP/1.0 server
    # (http.server's default), waits a second for the interim answer before sending the body (botocore
    # awsrequest.py, AWSConnection._send_output / _handle_expect_response). http.server answers 100 Continue only
    # for HTTP/1.1 (BaseHTTPRequestHandler.handle_expect_100).
    protocol_version = "HTTP/1.1"
    objects: dict[str, bytes]
    puts: list[dict]

    def log_message(self, *args) -> None:  # quiet
        pass

    def _send(self, status: int, body: bytes = b"", *, head: bool = False) -> None:
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.send_header(
            "Content-Type", "application/xml" if status >= 300 else "application/octet-stream"
        )
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def _key(self) -> str:
        return self.path.split("?", 1)[0]

    def do_GET(self) -> None:  # noqa: N802 - http.server's names
        body = self.server.objects.get(self._key())
        if body is None:
            self._send(404, _error("NoSuchKey"))
        else:
            self._send(200, body)

    def do_HEAD(self) -> None:  # noqa: N802
        body = self.server.objects.get(self._key())
        self._send(404 if body is None else 200, b"" if body is None else body, head=True)

    def do_PUT(self) -> None:  # noqa: N802
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        if (
            self.headers.get("Transfer-Encoding") == "chunked"
        ):  # not sent by botocore for a file body
            raise AssertionError("chunked upload")
        self.server.puts.append(
            {"key": self._key(), "if_none_match": self.headers.get("If-None-Match")}
        )
        if self.headers.get("If-None-Match") == "*" and self._key() in self.server.objects:
            self._send(412, _error("PreconditionFailed"))
            return
        self.server.objects[self._key()] = body
        self._send(200)


@contextmanager
def s3_stand_in():
    """Yields the server: ``.url``, ``.objects`` (path ``/BUCKET/KEY`` → bytes), ``.puts`` (each PUT's key and header)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.objects, server.puts = {}, []
    server.url = f"http://127.0.0.1:{server.server_address[1]}"
    # shutdown() waits for serve_forever's next poll: 0.5 s by default, at the end of every test that uses it
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
