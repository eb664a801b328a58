"""Smoke test of an OpenAI-compatible endpoint: one plain and one streaming chat completion, with timings.

Nothing the endpoint sends can crash the smoke test: every answer is checked for shape and type before it is used,
and what is wrong with it becomes a problem of that request's row (a FAILED row, exit code 1). This module checks
the served model and the API key and runs the whole test; the two completions are endpoint_probe/completions.py's.

The endpoint's API key: vLLM 0.33.0 started with ``--api-key`` or ``VLLM_API_KEY`` answers every request under /v1
(and /v2, /inference, /cohere) that lacks ``Authorization: Bearer KEY`` with ``401 {"error":"Unauthorized"}``, and
leaves /health, /metrics, /ping and /version open (vllm/entrypoints/serve/middleware/authenticate.py, vLLM 0.33.0,
commit 4ba787ec9). Every request here is under /v1, so each carries the key; a 401 stops the smoke test with a
message that names where the key came from, never the key.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from endpoint_probe.answers import (
    UNAUTHORIZED,
    Measurement,
    _kind,
    _object,
    unauthorized,
)
from endpoint_probe.completions import plain_completion, streaming_completion
from endpoint_probe.deadline import Deadline
from endpoint_probe.errors import BadResponse, printable
from endpoint_probe.http import exchange
from endpoint_probe.url import ApiKey, Endpoint, TlsOptions, check_url

DEFAULT_PROMPT = "Reply with one short sentence: what is 2 + 2?"
MODELS = "GET /v1/models"
NO_KEY = "GET /v1/models without the API key"
NO_KEY_INVOCATIONS = "POST /invocations without the API key"


def served_model(
    endpoint: Endpoint,
    model: str,
    model_path: str | None,
    timeout: float,
    clock: Callable[[], float] = time.perf_counter,
    api_key: ApiKey | None = None,
    *,
    deadline: Deadline | None = None,
) -> Measurement:
    """``GET /v1/models``: the served name must be listed, and its ``root`` must be the configured model.

    vLLM lists each model with ``id`` = the served name and ``root`` = the ``--model`` it loaded
    (vllm/entrypoints/openai/serving_models.py). A vLLM started without ``--model`` loads its own small default model
    and still answers under the served name: only ``root`` tells the two apart. A 401 (a missing or wrong API key)
    raises :func:`unauthorized`: every later request would be refused the same way.
    """
    started = clock()
    try:
        with exchange(
            endpoint,
            "GET",
            "/v1/models",
            what=MODELS,
            timeout=timeout,
            headers={"Accept": "application/json"},
            api_key=api_key,
            deadline=deadline,
        ) as response:
            if response.status == UNAUTHORIZED:
                raise unauthorized(response, MODELS, api_key)
            if not 200 <= response.status < 300:
                problem = f"{MODELS} answered {response.summary()}"
                if 300 <= response.status < 400:
                    problem += (
                        "; redirects are not followed: pass the address it redirects to as --url"
                    )
                return Measurement("models", False, clock() - started, problems=[problem])
            raw = response.read()
    except BadResponse as error:
        return Measurement("models", False, clock() - started, problems=[f"{MODELS}: {error}"])
    total = clock() - started
    payload, problem = _object(raw, f"the answer to {MODELS}")
    if payload is None:
        return Measurement("models", False, total, problems=[problem])
    cards = payload.get("data")
    if not isinstance(cards, list):
        return Measurement(
            "models", False, total, problems=[f"{MODELS}: data is {_kind(cards)}, not an array"]
        )
    card = next((c for c in cards if isinstance(c, dict) and c.get("id") == model), None)
    if card is None:
        ids = [printable(repr(c.get("id")), 60) for c in cards if isinstance(c, dict)]
        listed = (
            ", ".join(ids[:10]) + (f" and {len(ids) - 10} more" if len(ids) > 10 else "")
            or "nothing"
        )
        return Measurement(
            "models", False, total, problems=[f"{model!r} is not served (listed: {listed})"]
        )
    root = card.get("root")
    problems = []
    if model_path is not None and root != model_path:
        problems.append(
            f"{model!r} is served from {printable(repr(root), 120)}, not {model_path!r}: vLLM loaded another "
            "model (is --model missing from its arguments?)"
        )
    return Measurement(
        "models", not problems, total, text=printable(str(root), 200), problems=problems
    )


def refused_without_key(
    endpoint: Endpoint,
    timeout: float,
    clock: Callable[[], float] = time.perf_counter,
    *,
    invocations: bool = True,
    deadline: Deadline | None = None,
) -> Measurement:
    """``GET /v1/models`` and ``POST /invocations`` without a key must both be refused (401) by an endpoint whose
    environment requires one. vLLM started without ``--api-key`` and ``VLLM_API_KEY`` serves anyone who reaches it,
    and the requests that carry the key pass all the same, so only a request without it shows the difference. And
    vLLM's own check leaves ``/invocations`` (the same completions, for SageMaker) open: only the project's middleware
    (charts/vllm_auth_middleware/runtime/llm_serving_auth.py) closes it.

    :param invocations: check ``/invocations`` too (both platforms deploy the middleware); False for a vLLM with its
        own check only.
    """
    started = clock()
    problems, statuses = [], []
    probes = [("GET", "/v1/models", NO_KEY, None)]
    if invocations:
        probes.append(("POST", "/invocations", NO_KEY_INVOCATIONS, b"{}"))
    for method, path, what, body in probes:
        try:
            headers = {
                "Accept": "application/json",
                **({"Content-Type": "application/json"} if body else {}),
            }
            with exchange(
                endpoint,
                method,
                path,
                what=what,
                timeout=timeout,
                headers=headers,
                body=body,
                deadline=deadline,
            ) as response:
                status = response.status
                summary = "" if status in (UNAUTHORIZED, 200) else response.summary()
        except BadResponse as error:
            problems.append(f"{what}: {error}")
            continue
        statuses.append(f"{path} {status}")
        if status == UNAUTHORIZED:
            continue
        if path == "/invocations":
            problems.append(
                f"{what} answered {summary or f'HTTP {status}'}, not HTTP 401: /invocations serves the same "
                "completions as /v1 to anyone who reaches the endpoint (vLLM checks its key under /v1 only; "
                "is the --middleware llm_serving_auth.RequireApiKeyEverywhere argument missing?)"
            )
        elif 200 <= status < 300:
            problems.append(
                f"{what} answered HTTP {status}: the endpoint serves anyone who reaches it, although the "
                "environment requires its API key (vLLM was started without --api-key and VLLM_API_KEY)"
            )
        else:
            problems.append(f"{what} answered {summary}, not HTTP 401")
    total = clock() - started
    if not problems:
        return Measurement(
            "no key",
            True,
            total,
            text="refused: HTTP 401 (" + ", ".join(path for _, path, _, _ in probes) + ")",
        )
    return Measurement("no key", False, total, text=", ".join(statuses), problems=problems)


def smoke_test(
    url: str,
    model: str,
    prompt: str = DEFAULT_PROMPT,
    max_tokens: int = 64,
    timeout: float = 300.0,
    clock: Callable[[], float] = time.perf_counter,
    model_path: str | None = None,
    api_key: ApiKey | None = None,
    key_required: bool = False,
    key_on_every_path: bool = True,
    tls: TlsOptions | None = None,
    deadline: Deadline | None = None,
) -> list[Measurement]:
    """Check which model is served, then one plain and one streaming chat completion.

    ``timeout`` is a deadline for each request as a whole: connecting, sending, the headers and every byte of the
    answer or of the event stream (see endpoint_probe.http); ``deadline``, the command's (``llmops smoke-test
    --timeout``: the smoke test as a whole, endpoint_probe/deadline.py), cuts each request shorter when less is left of it.
    How each failure ends:

    * ``url`` cannot work (no scheme, not http/https, a broken host or port): :class:`OpsError` with
      ``ExitCode.USAGE`` (2), before anything is sent.
    * nothing answers (the name does not resolve, connection refused, TLS failure): ``OpsError``, ``CHECK_FAILED`` (1).
    * a request runs past its deadline: ``OpsError`` with ``ExitCode.TIMEOUT`` (10), naming the request, the seconds
      and what it was waiting for; the requests after it are not sent.
    * a chat completion answered with an error status (a wrong --model, HTTP 500, a redirect): ``OpsError``,
      ``CHECK_FAILED`` (1).
    * anything else the endpoint gets wrong (a reset, a truncated, oversized (over 16 MiB) or malformed body, JSON of
      the wrong shape, invalid UTF-8, broken stream chunks): a measurement with ``ok`` False and the problems, which
      the CLI shows as a FAILED row and exit code 1.
    * the endpoint answers 401 (no key, or the wrong one): ``OpsError``, ``CHECK_FAILED`` (1), from
      :func:`unauthorized`, before the chat completions.

    :param model_path: the ``--model`` the server must have loaded (its ``root`` in /v1/models); None checks only
        that the served name is listed.
    :param api_key: sent as ``Authorization: Bearer KEY`` with every request (all are under /v1).
    :param key_on_every_path: the endpoint also refuses ``/invocations`` without the key (the project's middleware, on
        both platforms); False checks ``/v1`` only.
    :param key_required: the environment requires the key: first check, with a measurement ``no key``, that a
        request without it is refused.
    :param tls: the name to verify an ``https://`` endpoint's certificate for (default: the URL's host) and the CAs to
        trust; a certificate that does not verify is ``CHECK_FAILED`` (1), naming the name.
    """
    endpoint = check_url(url, tls=tls)
    checks = (
        [
            refused_without_key(
                endpoint, timeout, clock, invocations=key_on_every_path, deadline=deadline
            )
        ]
        if key_required
        else []
    )
    return [
        *checks,
        served_model(endpoint, model, model_path, timeout, clock, api_key, deadline=deadline),
        plain_completion(
            endpoint, model, prompt, max_tokens, timeout, clock, api_key, deadline=deadline
        ),
        streaming_completion(
            endpoint, model, prompt, max_tokens, timeout, clock, api_key, deadline=deadline
        ),
    ]
