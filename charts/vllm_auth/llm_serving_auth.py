"""An ASGI middleware for vLLM that requires the API key on every path but the probes' and the metrics scraper's.

Why: vLLM 0.33.0 checks ``VLLM_API_KEY`` only on paths under ``/v1``, ``/v2``, ``/inference`` and ``/cohere``
(vllm/entrypoints/serve/middleware/authenticate.py, ``GUARDED_PREFIX``), and always registers ``POST /invocations``
(vllm/entrypoints/serve/sagemaker/api_router.py, attached unconditionally by
vllm/entrypoints/launchers/api_server/routers.py), which "exposes the same inference capabilities as /v1" without
the key (the ``--api-key`` help in vllm/entrypoints/common/cli_args.py says so). This middleware closes that: vLLM loads
it with ``--middleware llm_serving_auth.RequireApiKeyEverywhere`` (a class is added with ``app.add_middleware``:
vllm/entrypoints/serve/middleware/register.py), from a ConfigMap mounted on ``PYTHONPATH``.

It runs inside the vLLM image, so it uses the standard library only (no starlette import), and it is this file, not a
copy, that the chart mounts (charts/vllm_auth_middleware.py reads it) and the tests exercise.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os

#: Paths answered without the key: the kubelet's probes (/health), vLLM's SageMaker-style ping, the Prometheus scraper
#: (/metrics). Exact paths only: "/health/../invocations" is not "/health".
OPEN_PATHS = frozenset({"/health", "/ping", "/metrics"})
_UNAUTHORIZED = json.dumps({"error": "Unauthorized"}).encode()


def _digest(value: bytes) -> bytes:
    return hashlib.sha256(value).digest()


class RequireApiKeyEverywhere:
    """Refuse, with vLLM's own 401 answer, any HTTP or WebSocket request outside :data:`OPEN_PATHS` that does not
    carry ``Authorization: Bearer <VLLM_API_KEY>``. Without a key in the environment every such request is refused
    (fail closed): the key was meant to be there."""

    def __init__(self, app, api_key: str | None = None) -> None:  # noqa: ANN001 (an ASGI app)
        self.app = app
        key = os.environ.get("VLLM_API_KEY", "") if api_key is None else api_key
        self._key_digest = _digest(key.encode()) if key else None

    def _authorized(self, scope: dict) -> bool:
        if self._key_digest is None:
            return False
        for name, value in scope.get("headers") or ():
            if name.lower() == b"authorization":
                scheme, _, token = value.partition(b" ")
                return scheme.lower() == b"bearer" and hmac.compare_digest(_digest(token), self._key_digest)
        return False

    async def __call__(self, scope, receive, send) -> None:  # noqa: ANN001 (ASGI)
        if scope.get("type") not in ("http", "websocket") or scope.get("method") == "OPTIONS":
            return await self.app(scope, receive, send)
        path = scope.get("path", "").removeprefix(scope.get("root_path", "")) or "/"
        if path in OPEN_PATHS or self._authorized(scope):
            return await self.app(scope, receive, send)
        if scope["type"] == "websocket":
            return await send({"type": "websocket.close", "code": 1008})
        await send({"type": "http.response.start", "status": 401,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(_UNAUTHORIZED)).encode())]})
        await send({"type": "http.response.body", "body": _UNAUTHORIZED})
