"""What the endpoint answered, and whether it may be trusted: a request's row (:class:`Measurement`), the checks of
a JSON answer's shape and types, and the errors that end a run (a 401, an error status). Shared by the smoke test
(endpoint_probe/smoke.py) and the correctness probe (endpoint_probe/correctness.py). Standard library only.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from endpoint_probe.deadline import Deadline
from endpoint_probe.errors import BadResponse, ExitCode, OpsError, quoted
from endpoint_probe.http import exchange
from endpoint_probe.response import Response
from endpoint_probe.url import ApiKey, Endpoint

#: Problems kept per request: a broken stream repeats its fault in every chunk.
MAX_PROBLEMS = 8


@dataclass
class Measurement:
    mode: str
    ok: bool
    total_s: float
    time_to_first_token_s: float | None = None
    completion_tokens: int | None = None
    tokens_per_s: float | None = None
    text: str = ""
    problems: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {k: (round(v, 3) if isinstance(v, float) else v) for k, v in asdict(self).items()}


def _add(problems: list[str], problem: str) -> None:
    if problem in problems:
        return
    if len(problems) < MAX_PROBLEMS:
        problems.append(problem)
    elif len(problems) == MAX_PROBLEMS:
        problems.append("more problems left out")


def _kind(value) -> str:
    """The JSON type of a parsed value, for messages."""
    if value is None:
        return "JSON null"
    if isinstance(value, bool):
        return "a JSON boolean"
    if isinstance(value, dict):
        return "a JSON object"
    if isinstance(value, list):
        return "a JSON array"
    return "a JSON string" if isinstance(value, str) else "a JSON number"


def _object(raw: bytes | str, what: str) -> tuple[dict | None, str | None]:
    """``raw`` parsed as a JSON object, or why it is not one."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            return None, f"{what} is not valid UTF-8 (byte {error.start})"
    try:
        payload = json.loads(raw)
    except (ValueError, RecursionError):
        return None, f"{what} is not JSON: {quoted(raw.strip(), 60)}"
    if not isinstance(payload, dict):
        return None, f"{what} is {_kind(payload)}, not an object"
    return payload, None


def _count(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _string(container: dict, key: str, where: str, problems: list[str]) -> str:
    value = container.get(key)
    if value is None or isinstance(value, str):
        return value or ""
    _add(problems, f"{where}.{key} is {_kind(value)}, not a string")
    return ""


#: vLLM's status for a request without the right key (vllm/entrypoints/serve/middleware/authenticate.py).
UNAUTHORIZED = 401


def unauthorized(response: Response, what: str, api_key: ApiKey | None) -> OpsError:
    """The error for a 401: which key was sent (where it came from, never its value) and how to get the right one."""
    summary = response.summary()
    if api_key is None:
        return OpsError(
            f"{what} answered {summary}: the endpoint requires an API key, and none was sent",
            "pass --env NAME to send the environment's key (from its secret llm-serving/NAME/api-key), "
            "--api-key-secret NAME_OR_ARN to read another secret, or set LLMOPS_API_KEY",
            ExitCode.CHECK_FAILED,
        )
    return OpsError(
        f"{what} answered {summary}: the endpoint refused the API key from {api_key.source}",
        "the server accepts another key. On EKS the pod reads the secret's file, which the CSI driver "
        "refreshes every 2 minutes: a key put into the secret just now is accepted once it has; a HyperPod "
        "worker reads its key when it starts, so a key changed since then needs a new worker pod. "
        "Otherwise send the key the server has: --env NAME reads the environment's secret "
        "llm-serving/NAME/api-key, --api-key-secret NAME_OR_ARN another one",
        ExitCode.CHECK_FAILED,
    )


def _status_error(response: Response, what: str, api_key: ApiKey | None = None) -> OpsError:
    if response.status == UNAUTHORIZED:
        return unauthorized(response, what, api_key)
    summary = response.summary()
    if 300 <= response.status < 400:
        fix = "redirects are not followed: pass the address it redirects to as --url"
    else:
        fix = "check --model (the served model name) and the endpoint's logs"
    return OpsError(f"{what} answered {summary}", fix, ExitCode.CHECK_FAILED)


def _chat(
    endpoint: Endpoint,
    what: str,
    body: bytes,
    timeout: float,
    accept: str,
    api_key: ApiKey | None,
    deadline: Deadline | None = None,
):
    return exchange(
        endpoint,
        "POST",
        "/v1/chat/completions",
        what=what,
        timeout=timeout,
        body=body,
        headers={"Content-Type": "application/json", "Accept": accept},
        api_key=api_key,
        deadline=deadline,
    )


def _post(
    endpoint: Endpoint,
    what: str,
    mode: str,
    body: bytes,
    timeout: float,
    api_key: ApiKey | None,
    clock: Callable[[], float],
    deadline: Deadline | None = None,
) -> tuple[dict | None, Measurement]:
    """POST a chat completion that answers JSON: the answer as an object and its (not yet ok) timed measurement, or
    None and a failed measurement that says why (an error status raises, :func:`_status_error`)."""
    started = clock()
    try:
        with _chat(
            endpoint, what, body, timeout, "application/json", api_key, deadline
        ) as response:
            if not 200 <= response.status < 300:
                raise _status_error(response, what, api_key)
            raw = response.read()
    except BadResponse as error:
        return None, Measurement(mode, False, clock() - started, problems=[str(error)])
    measurement = Measurement(mode, False, clock() - started)
    payload, problem = _object(raw, "the answer")
    if payload is None:
        measurement.problems.append(problem)
    return payload, measurement
