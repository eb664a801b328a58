"""A small local server that speaks the OpenAI chat-completions protocol as vLLM does, for the smoke-test tests.

It listens on 127.0.0.1 only, on a free port, and stops when the test ends.

With ``Behaviour(api_key=...)`` it checks the key as vLLM 0.33.0 does (vllm/entrypoints/serve/middleware/
authenticate.py, ``AuthenticationMiddleware``, commit 4ba787ec9): every method but OPTIONS on a path that starts with
/v1, /v2, /inference or /cohere needs ``Authorization: <scheme> <key>`` with the scheme ``bearer`` in any case and the
key exactly (everything after the first space); otherwise ``401`` with the JSON body ``{"error":"Unauthorized"}`` (a
Starlette JSONResponse: compact separators, ``application/json``), before any routing. /health is not checked.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import ssl
import threading
import time
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ANSWER = ["2", " +", " 2", " is", " 4", "."]


def chat_completion(model: str, tokens: list[str]) -> dict:
    """The body of a chat completion that answers ``tokens``, not streamed (12 prompt tokens)."""
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": "".join(tokens)},
                "finish_reason": "stop",
            }
        ],
        "usage": {
            "prompt_tokens": 12,
            "completion_tokens": len(tokens),
            "total_tokens": 12 + len(tokens),
        },
    }


#: vLLM's GUARDED_PREFIX: the paths its API key protects (a plain string prefix: /v1models is guarded too).
GUARDED_PREFIX = ("/v1", "/v2", "/inference", "/cohere")
UNAUTHORIZED_BODY = b'{"error":"Unauthorized"}'


class Behaviour:
    def __init__(
        self,
        model: str = "Kimi-K3",
        root: str = "moonshotai/Kimi-K3",
        # seconds before the first token and between tokens: none unless a test measures them or needs requests in
        # flight together (tests/ops_cli/test_smoke_and_wait.py's timings, tests/charts/test_vllm_router.py)
        first_token_delay: float = 0.0,
        token_delay: float = 0.0,
        healthy: bool = True,
        drop_done: bool = False,
        empty: bool = False,
        api_key: str | None = None,
        echo_authorization: bool = False,
        guard_every_path: bool | None = None,
        answer: str | None = None,
        tool_call: dict | None = None,
    ) -> None:
        self.model = model
        self.root = root  # what vLLM reports as the loaded model in /v1/models
        self.first_token_delay = first_token_delay
        self.token_delay = token_delay
        self.healthy = healthy
        self.drop_done = drop_done
        self.empty = empty
        self.api_key = api_key  # the server's --api-key; None: no key required, as vLLM without one
        self.echo_authorization = (
            echo_authorization  # a hostile server: error bodies repeat the Authorization header
        )
        #: the project's middleware (charts/vllm_auth_middleware/runtime/llm_serving_auth.py) in front: the key on every path but
        #: /health,
        #: /ping, /metrics. Default: on whenever a key is set, as the chart deploys it; False: vLLM's own check only.
        self.guard_every_path = (
            api_key is not None if guard_every_path is None else guard_every_path
        )
        #: the text of every non-streaming answer instead of ANSWER (a right or a wrong answer to a probe)
        self.answer = answer
        #: the assistant message's ``function`` when the request offers ``tools`` (vLLM's ToolCall.function: name and
        #: arguments as a JSON text); None: the default call, get_weather for Paris in celsius
        self.tool_call = tool_call or {
            "name": "get_weather",
            "arguments": '{"city": "Paris", "unit": "celsius"}',
        }
        self.requests: list[dict] = []
        #: answer vLLM's POST /tokenize (the router's cache-aware policy asks for the prompt's token ids)
        self.tokenize = False
        #: (method, path, the Authorization header or None) of every request, in order.
        self.seen: list[tuple[str, str, str | None]] = []

    def authorized(self, method: str, path: str, authorization: str | None) -> bool:
        """vLLM's AuthenticationMiddleware.__call__ and verify_token."""
        if self.api_key is None or method == "OPTIONS":
            return True
        open_path = (
            path in ("/health", "/ping", "/metrics")
            if self.guard_every_path
            else not path.startswith(GUARDED_PREFIX)
        )
        if open_path:
            return True
        if not authorization:
            return False
        scheme, _, param = authorization.partition(" ")
        if scheme.lower() != "bearer":
            return False
        return secrets.compare_digest(
            hashlib.sha256(param.encode("utf-8")).digest(),
            hashlib.sha256(self.api_key.encode("utf-8")).digest(),
        )


def _handler(behaviour: Behaviour):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:  # keep test output clean
            pass

        def _json(self, status: int, payload: dict | bytes) -> None:
            body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def _refused(self) -> bool:
            """Answer 401 as vLLM does when the key is missing or wrong; True if it did."""
            authorization = self.headers.get("Authorization")
            behaviour.seen.append((self.command, self.path, authorization))
            if behaviour.authorized(self.command, self.path, authorization):
                return False
            if behaviour.echo_authorization:
                self._json(401, {"error": {"message": f"Unauthorized: you sent {authorization!r}"}})
            else:
                self._json(401, UNAUTHORIZED_BODY)
            return True

        def do_GET(self) -> None:
            if self._refused():
                return
            if self.path == "/health":
                self.send_response(200 if behaviour.healthy else 503)
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif self.path == "/v1/models":
                # vLLM's ModelCard: id = served name, root = the --model it loaded
                self._json(
                    200,
                    {
                        "object": "list",
                        "data": [
                            {
                                "id": behaviour.model,
                                "object": "model",
                                "owned_by": "vllm",
                                "root": behaviour.root,
                                "parent": None,
                            }
                        ],
                    },
                )
            else:
                self._json(404, {"error": "not found"})

        def do_POST(self) -> None:
            raw = self.rfile.read(
                int(self.headers["Content-Length"])
            )  # read first, so that a 401 is no reset
            if self._refused():
                return
            request = json.loads(raw)
            behaviour.requests.append(request)
            if (
                self.path == "/invocations"
            ):  # vLLM's SageMaker route: the same completions; an empty body is a 400
                return (
                    self._json(400, {"object": "error", "message": "invalid request"})
                    if not request
                    else self._json(200, {"object": "chat.completion", "choices": []})
                )
            if self.path == "/tokenize" and behaviour.tokenize:
                # vLLM's POST /tokenize answers a TokenizeResponse: count, max_model_len, tokens, token_strs
                # (vllm-project/vllm vllm/entrypoints/openai/protocol.py). The ids here are the text's UTF-8 bytes:
                # a deterministic stand-in for the model's tokenizer that keeps shared prefixes shared.
                text = request.get("prompt") or "".join(
                    m.get("content") or "" for m in request.get("messages", [])
                )
                tokens = list(text.encode("utf-8"))
                return self._json(
                    200,
                    {
                        "count": len(tokens),
                        "max_model_len": 1048576,
                        "tokens": tokens,
                        "token_strs": None,
                    },
                )
            if self.path != "/v1/chat/completions":
                return self._json(404, {"error": "not found"})
            if request.get("model") != behaviour.model:
                return self._json(
                    404,
                    {
                        "object": "error",
                        "message": f"The model `{request.get('model')}` does not exist.",
                    },
                )
            tokens = [] if behaviour.empty else ANSWER
            if request.get("tools") and not request.get(
                "stream"
            ):  # vLLM's answer with a parsed tool call
                return self._json(
                    200,
                    {
                        "id": "chatcmpl-3",
                        "object": "chat.completion",
                        "model": behaviour.model,
                        "choices": [
                            {
                                "index": 0,
                                "finish_reason": "tool_calls",
                                "message": {
                                    "role": "assistant",
                                    "content": None,
                                    "reasoning": None,
                                    "tool_calls": [
                                        {
                                            "id": "chatcmpl-tool-1",
                                            "type": "function",
                                            "function": behaviour.tool_call,
                                        }
                                    ],
                                },
                            }
                        ],
                        "usage": {
                            "prompt_tokens": 90,
                            "completion_tokens": 20,
                            "total_tokens": 110,
                        },
                    },
                )
            if behaviour.answer is not None and not request.get("stream"):
                tokens = [behaviour.answer]
            if not request.get("stream"):
                time.sleep(behaviour.first_token_delay)
                return self._json(200, chat_completion(behaviour.model, tokens))
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()

            def send(payload) -> None:
                self.wfile.write(
                    f"data: {payload if isinstance(payload, str) else json.dumps(payload)}\n\n".encode()
                )
                self.wfile.flush()

            chunk = {
                "id": "chatcmpl-2",
                "object": "chat.completion.chunk",
                "model": behaviour.model,
            }
            send(
                {
                    **chunk,
                    "choices": [
                        {
                            "index": 0,
                            "delta": {"role": "assistant", "content": ""},
                            "finish_reason": None,
                        }
                    ],
                }
            )
            time.sleep(behaviour.first_token_delay)
            for token in tokens:
                send(
                    {
                        **chunk,
                        "choices": [
                            {"index": 0, "delta": {"content": token}, "finish_reason": None}
                        ],
                    }
                )
                time.sleep(behaviour.token_delay)
            send({**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
            if request.get("stream_options", {}).get("include_usage"):
                send(
                    {
                        **chunk,
                        "choices": [],
                        "usage": {"prompt_tokens": 12, "completion_tokens": len(tokens)},
                    }
                )
            if not behaviour.drop_done:
                send("[DONE]")

    return Handler


@contextmanager
def openai_server(behaviour: Behaviour, tls: ssl.SSLContext | None = None):
    """Serve ``behaviour`` on 127.0.0.1; with ``tls`` (a server context), over TLS, as an NLB's TLS listener does."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(behaviour))
    if tls is not None:
        # the handshake runs in accept(); a client that refuses the certificate fails it there, and the server goes on
        server.socket = tls.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    try:
        yield f"{'https' if tls is not None else 'http'}://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
