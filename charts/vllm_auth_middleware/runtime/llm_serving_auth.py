"""An ASGI middleware for vLLM that requires the API key on every path but the probes' and the metrics scraper's, and
accepts the key a rotation replaced as well as the new one.

Why every path: vLLM 0.33.0 checks ``VLLM_API_KEY`` only on paths under ``/v1``, ``/v2``, ``/inference`` and ``/cohere``
(vllm/entrypoints/serve/middleware/authenticate.py, ``GUARDED_PREFIX``), and always registers ``POST /invocations``
(vllm/entrypoints/serve/sagemaker/api_router.py, attached unconditionally by
vllm/entrypoints/launchers/api_server/routers.py), which "exposes the same inference capabilities as /v1" without
the key (the ``--api-key`` help in vllm/entrypoints/common/cli_args.py says so). This middleware closes that: vLLM loads
it with ``--middleware llm_serving_auth.RequireApiKeyEverywhere`` (a class is added with ``app.add_middleware``:
vllm/entrypoints/serve/middleware/register.py), from a ConfigMap mounted on ``PYTHONPATH``.

Why it does the whole check, and vLLM is not given the key: vLLM's own check compares with the one key it read at start
(``VLLM_API_KEY`` or ``--api-key``), so while a rotated key spreads, it would refuse every client that already has the new
one (401) until a restart. So on the EKS path the container has no ``VLLM_API_KEY`` and this middleware reads the keys
from the files the Secrets Store CSI driver keeps current (:data:`KEY_DIR_VARIABLE`; the driver's rotation rewrites them
every ``rotationPollInterval``, deployment_config/addons.py), at most once a second and only when a file changed (one
``stat`` per file). It accepts:

- the current key, the file :data:`CURRENT_KEY_FILE` (the secret's AWSCURRENT version);
- the previous one, the file :data:`PREVIOUS_KEY_FILE` when it exists (reserved for the secret's AWSPREVIOUS version,
  which the chart does not mount yet: charts/vllm_secret_provider.py says why);
- the key a rotation replaced while this process ran: when the current file changes, the key it held stays accepted
  until the next rotation or the process's restart. A restart forgets it: that is how a leaked key is revoked at once.

Without a key directory (the HyperPod worker, which can mount no volume) the keys come from the environment:
``LLM_SERVING_API_KEY`` (or ``VLLM_API_KEY``, which vLLM also reads and checks itself) and ``LLM_SERVING_API_KEY_PREVIOUS``.

It runs inside the vLLM image, so it uses the standard library only (no starlette import), and it is this file, not a
copy, that the chart mounts (charts/vllm_auth_middleware.py reads it) and the tests exercise.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import time
from collections.abc import Callable

#: Paths answered without the key: the kubelet's probes (/health), vLLM's SageMaker-style ping, the Prometheus scraper
#: (/metrics). Exact paths only: "/health/../invocations" is not "/health".
OPEN_PATHS = frozenset({"/health", "/ping", "/metrics"})
_UNAUTHORIZED = json.dumps({"error": "Unauthorized"}).encode()
#: The directory of the key files (the CSI volume's mount); when set, the environment's keys are not read.
KEY_DIR_VARIABLE = "LLM_SERVING_API_KEY_DIR"
#: File names in that directory: the CSI driver names each file after its object's ``objectAlias``.
CURRENT_KEY_FILE = "api-key"
PREVIOUS_KEY_FILE = "api-key-previous"
#: Environment variables of the keys without a directory, the first set one being the current key.
KEY_VARIABLES = ("LLM_SERVING_API_KEY", "VLLM_API_KEY")
PREVIOUS_KEY_VARIABLE = "LLM_SERVING_API_KEY_PREVIOUS"
#: The files are looked at (stat) at most this often.
RECHECK_SECONDS = 1.0


def _digest(value: bytes) -> bytes:
    return hashlib.sha256(value).digest()


class KeyFiles:
    """The accepted keys' digests, from the files of ``directory``, re-read when one changed."""

    def __init__(self, directory: str, clock: Callable[[], float] = time.monotonic) -> None:
        self._directory, self._clock = directory, clock
        self._checked: float | None = None
        self._stamps: tuple | None = None
        self._current = self._previous = self._replaced = None

    def _path(self, name: str) -> str:
        return os.path.join(self._directory, name)

    def _stamp(self, name: str) -> tuple | None:
        try:  # follows the driver's symlinks: a rewritten file is a new inode and a new mtime
            status = os.stat(self._path(name))
        except OSError:
            return None
        return status.st_ino, status.st_mtime_ns, status.st_size

    def _read(self, name: str) -> bytes | None:
        try:
            with open(self._path(name), "rb") as stream:
                key = stream.read(4096).strip()
        except OSError:
            return None
        return _digest(key) if key else None

    def digests(self) -> tuple[bytes, ...]:
        now = self._clock()
        if self._checked is None or now - self._checked >= RECHECK_SECONDS:
            self._checked = now
            self._refresh()
        return tuple(d for d in (self._current, self._previous, self._replaced) if d is not None)

    def _refresh(self) -> None:
        stamps = (self._stamp(CURRENT_KEY_FILE), self._stamp(PREVIOUS_KEY_FILE))
        if stamps == self._stamps:
            return
        current = self._read(CURRENT_KEY_FILE)
        if current is None:
            # Missing or empty, for example between the driver's writes: keep the keys known (none at the start: every
            # request is refused) and look again in a second.
            return
        self._stamps = stamps
        if self._current is not None and current != self._current:
            self._replaced = self._current
        self._current = current
        self._previous = self._read(PREVIOUS_KEY_FILE)


class RequireApiKeyEverywhere:
    """Refuse, with vLLM's own 401 answer, any HTTP or WebSocket request outside :data:`OPEN_PATHS` that does not
    carry ``Authorization: Bearer KEY`` with an accepted key. Without any key every such request is refused (fail
    closed): the key was meant to be there.

    :param api_key: one fixed key instead of the files or the environment (tests).
    :param key_dir: the key files' directory; default: the environment's :data:`KEY_DIR_VARIABLE`.
    """

    def __init__(self, app, api_key: str | None = None, key_dir: str | None = None,  # noqa: ANN001 (an ASGI app)
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.app = app
        key_dir = key_dir if key_dir is not None or api_key is not None else os.environ.get(KEY_DIR_VARIABLE)
        self._files = KeyFiles(key_dir, clock) if key_dir else None
        if api_key is not None:
            keys = [api_key]
        else:
            current = next((os.environ[name] for name in KEY_VARIABLES if os.environ.get(name)), "")
            keys = [current, os.environ.get(PREVIOUS_KEY_VARIABLE, "")] if current else []
        self._fixed = tuple(_digest(key.encode()) for key in keys if key)

    def _digests(self) -> tuple[bytes, ...]:
        return self._files.digests() if self._files is not None else self._fixed

    def _authorized(self, scope: dict) -> bool:
        digests = self._digests()
        if not digests:
            return False
        for name, value in scope.get("headers") or ():
            if name.lower() == b"authorization":
                scheme, _, token = value.partition(b" ")
                if scheme.lower() != b"bearer":
                    return False
                offered = _digest(token)
                # Every accepted key is compared, in constant time each, whichever matches.
                return any([hmac.compare_digest(offered, digest) for digest in digests])
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
