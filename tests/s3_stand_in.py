"""A stand-in for S3's object API on 127.0.0.1: GET, HEAD and PUT of objects, path-style (``/BUCKET/KEY``), with
``If-None-Match: *`` on PUT answered 412 PreconditionFailed when the object exists, as S3 does ("Conditional writes",
https://docs.aws.amazon.com/AmazonS3/latest/userguide/conditional-writes.html). Errors in S3's XML error format
(``<Error><Code>``), which botocore parses into ``ClientError``. Enough for the compile cache's script and the Run:ai
path's check of the weights (charts/vllm_weights_check/runtime/check_s3_weights.py), run for real with boto3 against it
through ``AWS_ENDPOINT_URL_S3``.

HEAD answers, as S3 does for an object uploaded with (or given by default) a CRC64NVME and asked with
``x-amz-checksum-mode: ENABLED``, ``x-amz-checksum-crc64nvme`` (base64 of the 8 big-endian bytes) and
``x-amz-checksum-type: FULL_OBJECT`` (S3 API reference, HeadObject,
https://docs.aws.amazon.com/AmazonS3/latest/API/API_HeadObject.html); ``.checksums`` overrides the value S3 keeps for a
path (None: no checksum). GET ignores ``Range`` (whole objects only: the tests' files are below s3transfer's 8 MB
multipart threshold). ``GET /BUCKET?list-type=2&prefix=P`` lists the keys under P in one page (ListObjectsV2).
:func:`crc64nvme` is the test's own CRC-64/NVME, independent of awscrt."""

from __future__ import annotations

import base64
import functools
import os
import threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit
from xml.sax.saxutils import escape

#: CRC-64/NVME: reflected polynomial 0x9A6C9329AC4BC9B5, initial value and final XOR all ones (the CRC catalogue's
#: "CRC-64/NVME", check value 0xAE8B14860A799888 for b"123456789"; NVM Express NVM Command Set Specification 1.0,
#: 5.2.1.3.4 "64b CRC"), table-driven, one byte at a time.
_POLY = 0x9A6C9329AC4BC9B5
_TABLE = []
for _byte in range(256):
    _crc = _byte
    for _ in range(8):
        _crc = (_crc >> 1) ^ _POLY if _crc & 1 else _crc >> 1
    _TABLE.append(_crc)


def crc64nvme(data: bytes) -> int:
    crc = 0xFFFFFFFFFFFFFFFF
    for byte in data:
        crc = _TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFFFFFFFFFF


def crc64nvme_b64(data: bytes) -> str:
    """The value of S3's ``x-amz-checksum-crc64nvme`` (and boto3's ``ChecksumCRC64NVME``) for ``data``."""
    return base64.b64encode(crc64nvme(data).to_bytes(8, "big")).decode()


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
    checksums: dict[str, str | None]
    cut: set[str]
    denied: set[str]

    def log_message(self, *args) -> None:  # quiet
        pass

    def _send(
        self, status: int, body: bytes = b"", *, head: bool = False, headers: dict | None = None
    ) -> None:
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.send_header(
            "Content-Type", "application/xml" if status >= 300 else "application/octet-stream"
        )
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def _key(self) -> str:
        return self.path.split("?", 1)[0]

    def _list(self, bucket: str, prefix: str) -> bytes:
        keys = sorted(
            path.removeprefix(bucket + "/")
            for path in self.server.objects
            if path.startswith(f"{bucket}/{prefix}")
        )
        contents = "".join(
            f"<Contents><Key>{escape(key)}</Key><Size>{len(self.server.objects[f'{bucket}/{key}'])}</Size></Contents>"
            for key in keys
        )
        return (
            '<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>'
            f"{escape(bucket[1:])}</Name><Prefix>{escape(prefix)}</Prefix><KeyCount>{len(keys)}</KeyCount>"
            f"<IsTruncated>false</IsTruncated>{contents}</ListBucketResult>"
        ).encode()

    def do_GET(self) -> None:  # noqa: N802 - http.server's names
        query = parse_qs(urlsplit(self.path).query)
        if query.get("list-type") == ["2"]:
            self._send(200, self._list(self._key().rstrip("/"), query.get("prefix", [""])[0]))
            return
        body = self.server.objects.get(self._key())
        if body is None:
            self._send(404, _error("NoSuchKey"))
        elif self._key() in self.server.denied:
            self._send(403, _error("AccessDenied"))
        elif self._key() in self.server.cut:
            # the connection lost half-way: the whole length announced, half the bytes sent
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[: len(body) // 2])
            self.close_connection = True
        else:
            self._send(200, body)

    def do_HEAD(self) -> None:  # noqa: N802
        body = self.server.objects.get(self._key())
        if body is None or self._key() in self.server.denied:
            self._send(404 if body is None else 403, head=True)
            return
        headers = {}
        checksum = self.server.checksums.get(self._key(), crc64nvme_b64(body))
        if checksum is not None and self.headers.get("x-amz-checksum-mode") == "ENABLED":
            headers = {"x-amz-checksum-crc64nvme": checksum, "x-amz-checksum-type": "FULL_OBJECT"}
        self._send(200, body, head=True, headers=headers)

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


#: The credentials a client of the stand-in signs with (it checks none).
KEY_ID = SECRET = "stand-in"


@functools.cache
def stand_in_session():
    """One boto3 session per test process for the stand-in's clients, with its credentials: its data loader parses S3's
    model once, not once per client (0.1 s of CPU each). It keeps no endpoint: a client is given the stand-in's
    ``url``, or reads AWS_ENDPOINT_URL_S3 when it is made."""
    import boto3

    return boto3.Session(aws_access_key_id=KEY_ID, aws_secret_access_key=SECRET)


@contextmanager
def s3_stand_in():
    """Yields the server: ``.url``, ``.objects`` (path ``/BUCKET/KEY`` → bytes), ``.puts`` (each PUT's key and header),
    ``.checksums`` (path → the CRC64NVME a HEAD returns instead of the object's own; None for none), ``.cut`` (paths
    whose every GET stops half-way: the full Content-Length, half the bytes, the connection closed) and ``.denied``
    (paths answered 403 AccessDenied), and ``.environment``: a process's whole environment for boto3 to reach the
    stand-in and nothing of the machine (no credentials, config files or instance metadata)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.objects, server.puts, server.checksums = {}, [], {}
    server.cut, server.denied = set(), set()
    server.url = f"http://127.0.0.1:{server.server_address[1]}"
    server.environment = {
        "PATH": os.environ.get("PATH", ""),
        "AWS_ENDPOINT_URL_S3": server.url,
        "AWS_ACCESS_KEY_ID": KEY_ID,
        "AWS_SECRET_ACCESS_KEY": SECRET,
        "AWS_CONFIG_FILE": os.devnull,
        "AWS_SHARED_CREDENTIALS_FILE": os.devnull,
        "AWS_EC2_METADATA_DISABLED": "true",
    }
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
