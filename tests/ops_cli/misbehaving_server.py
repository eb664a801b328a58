"""A deliberately broken HTTP endpoint for the hostile-endpoint tests.

Raw sockets on 127.0.0.1 and a free port, one thread per connection: a test picks, per kind of request
(``health``, ``models``, ``plain``, ``stream``), a responder that writes whatever bytes it likes, as slowly as it
likes, or nothing at all. Kinds without a responder get vLLM-like answers. Stopping the server wakes every responder
(a drip or a silent one included), closes every connection and joins every thread.
"""

from __future__ import annotations

import json
import socket
import struct
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from tests.ops_cli.openai_server import ANSWER, chat_completion

MODEL = "Kimi-K3"  # the CLI's default served name


@dataclass
class Request:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def kind(self) -> str:
        if self.path.endswith("/health"):
            return "health"
        if self.path.endswith("/v1/models"):
            return "models"
        if self.path.endswith("/v1/chat/completions"):
            try:
                return "stream" if json.loads(self.body).get("stream") else "plain"
            except ValueError:
                return "plain"
        return "other"


class Connection:
    """One accepted connection, for a responder to write to. Writes stop quietly once the client has gone."""

    def __init__(self, sock: socket.socket, stopping: threading.Event) -> None:
        self.sock = sock
        self.stopping = stopping

    def send(self, data: bytes) -> bool:
        try:
            self.sock.sendall(data)
            return True
        except OSError:
            return False

    def drip(self, data: bytes, interval: float = 1.0) -> None:
        """One byte every ``interval`` seconds."""
        for i in range(len(data)):
            if not self.send(data[i : i + 1]) or self.stopping.wait(interval):
                return

    def hang(self) -> None:
        """Answer nothing, until the server stops."""
        self.stopping.wait()

    def reset(self) -> None:
        """Close with a TCP RST instead of a FIN."""
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.sock.close()


Responder = Callable[[Request, Connection], None]


def response(
    status: int = 200,
    body: bytes = b"",
    content_type: str = "application/json",
    content_length: int | None = None,
    headers: dict[str, str] | None = None,
    length: bool = True,
) -> bytes:
    """The bytes of an HTTP/1.1 answer; ``content_length`` may lie (None: the true length); ``length=False`` leaves
    the header out (the body then ends when the connection closes)."""
    lines = [
        f"HTTP/1.1 {status} Whatever",
        f"Content-Type: {content_type}",
        "Connection: close",
        *(f"{k}: {v}" for k, v in (headers or {}).items()),
    ]
    if length:
        lines.append(f"Content-Length: {len(body) if content_length is None else content_length}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def stream_head() -> bytes:
    """The start of an event stream that runs until the connection closes."""
    return b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n"


def sse(*events: bytes | str | dict) -> bytes:
    """``data:`` lines: a dict is sent as JSON, str and bytes as they are."""
    out = b""
    for event in events:
        payload = (
            json.dumps(event).encode()
            if isinstance(event, dict)
            else event.encode()
            if isinstance(event, str)
            else event
        )
        out += b"data: " + payload + b"\n\n"
    return out


def chunk(**fields) -> dict:
    return {"id": "chatcmpl-2", "object": "chat.completion.chunk", "model": MODEL, **fields}


def good_stream(*extra: bytes | str | dict) -> bytes:
    """A correct vLLM stream, with ``extra`` events slipped in after the first token."""
    tokens = [
        chunk(choices=[{"index": 0, "delta": {"content": t}, "finish_reason": None}])
        for t in ANSWER
    ]
    return sse(
        tokens[0],
        *extra,
        *tokens[1:],
        chunk(choices=[{"index": 0, "delta": {}, "finish_reason": "stop"}]),
        chunk(choices=[], usage={"prompt_tokens": 12, "completion_tokens": len(ANSWER)}),
        "[DONE]",
    )


def good_plain() -> dict:
    return chat_completion(MODEL, ANSWER)


def good_models() -> dict:
    return {
        "object": "list",
        "data": [
            {"id": MODEL, "object": "model", "owned_by": "vllm", "root": "moonshotai/Kimi-K3"}
        ],
    }


def send(data: bytes) -> Responder:
    """Send ``data`` and close."""
    return lambda request, conn: conn.send(data)


def send_json(payload, status: int = 200) -> Responder:
    return send(response(status, json.dumps(payload).encode()))


def vllm(request: Request, conn: Connection) -> None:
    answers = {
        "health": response(200),
        "models": response(200, json.dumps(good_models()).encode()),
        "plain": response(200, json.dumps(good_plain()).encode()),
        "stream": stream_head() + good_stream(),
    }
    conn.send(answers.get(request.kind, response(404, b'{"error": "not found"}')))


@dataclass
class MisbehavingServer:
    """``with MisbehavingServer(responders) as url: ...``; ``responders`` by request kind, or one for every kind."""

    responders: dict[str, Responder] | Responder = field(default_factory=dict)
    #: when set, called on each connection at once, without reading a request (for clients that speak TLS)
    on_connect: Callable[[Connection], None] | None = None
    requests: list[Request] = field(default_factory=list)
    connections: int = 0

    def __post_init__(self) -> None:
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        self._socks: list[socket.socket] = []
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(16)
        self._listener.settimeout(0.05)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._listener.getsockname()[1]}"

    def responder(self, kind: str) -> Responder:
        if callable(self.responders):
            return self.responders
        return self.responders.get(kind, vllm)

    def __enter__(self) -> str:
        accept = threading.Thread(target=self._accept, name="misbehaving-accept", daemon=True)
        self._threads.append(accept)
        accept.start()
        return self.url

    def __exit__(self, *exc) -> None:
        self._stopping.set()
        try:
            self._listener.shutdown(
                socket.SHUT_RDWR
            )  # wakes the accept loop at once (Linux); else it polls
        except OSError:
            pass
        with self._lock:
            threads, socks = list(self._threads), list(self._socks)
        for sock in socks:  # wakes a responder blocked in sendall
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        for thread in threads:
            thread.join(timeout=5)
        for sock in socks:
            sock.close()
        self._listener.close()

    def _accept(self) -> None:
        while not self._stopping.is_set():
            try:
                sock, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with self._lock:
                self.connections += 1
                self._socks.append(sock)
                thread = threading.Thread(
                    target=self._serve, args=(sock,), name="misbehaving-conn", daemon=True
                )
                self._threads.append(thread)
            thread.start()

    def _serve(self, sock: socket.socket) -> None:
        try:
            if self.on_connect is not None:
                self.on_connect(Connection(sock, self._stopping))
                return
            sock.settimeout(5)
            request = _read_request(sock)
            if request is None:
                return
            self.requests.append(request)
            sock.settimeout(None)
            self.responder(request.kind)(request, Connection(sock, self._stopping))
            try:
                sock.shutdown(socket.SHUT_WR)  # a FIN, not an RST: the request was read to the end
            except OSError:
                pass
        except OSError:
            pass  # the client went away
        finally:
            sock.close()


def _read_request(sock: socket.socket) -> Request | None:
    data = b""
    while b"\r\n\r\n" not in data:
        piece = sock.recv(65536)
        if not piece:
            return None
        data += piece
    head, _, body = data.partition(b"\r\n\r\n")
    request_line, *header_lines = head.decode("latin-1").split("\r\n")
    method, path, _ = request_line.split(" ", 2)
    headers = {
        k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in header_lines)
    }
    length = int(headers.get("content-length", "0"))
    while len(body) < length:
        piece = sock.recv(65536)
        if not piece:
            break
        body += piece
    return Request(method, path, headers, body)
