"""Smoke test of an OpenAI-compatible endpoint: one plain and one streaming chat completion, with timings.

Nothing the endpoint sends can crash the smoke test: every answer is checked for shape and type before it is used,
and what is wrong with it becomes a problem of that request's row (a FAILED row, exit code 1).

The endpoint's API key: vLLM 0.33.0 started with ``--api-key`` or ``VLLM_API_KEY`` answers every request under /v1
(and /v2, /inference, /cohere) that lacks ``Authorization: Bearer KEY`` with ``401 {"error":"Unauthorized"}``, and
leaves /health, /metrics, /ping and /version open (vllm/entrypoints/serve/middleware/authenticate.py, vLLM 0.33.0,
commit 4ba787ec9). Every request here is under /v1, so each carries the key; a 401 stops the smoke test with a
message that names where the key came from, never the key.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

import botocore.exceptions

from ops_cli.aws import Aws
from ops_cli.deadline import Deadline
from ops_cli.errors import ExitCode, OpsError, error_code, translate
from ops_cli.http_client import (
    ApiKey,
    BadResponse,
    Endpoint,
    Response,
    TlsOptions,
    api_key_problem,
    check_url,
    exchange,
    printable,
    quoted,
)

DEFAULT_PROMPT = "Reply with one short sentence: what is 2 + 2?"
MODELS = "GET /v1/models"
NO_KEY = "GET /v1/models without the API key"
NO_KEY_INVOCATIONS = "POST /invocations without the API key"
PLAIN = "POST /v1/chat/completions (plain)"
STREAMING = "POST /v1/chat/completions (streaming)"
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
        return OpsError(f"{what} answered {summary}: the endpoint requires an API key, and none was sent",
                        "pass --env NAME to send the environment's key (from its secret llm-serving/NAME/api-key), "
                        "--api-key-secret NAME_OR_ARN to read another secret, or set LLMOPS_API_KEY",
                        ExitCode.CHECK_FAILED)
    return OpsError(f"{what} answered {summary}: the endpoint refused the API key from {api_key.source}",
                    "the server accepts another key. On EKS the pod reads the secret's file, which the CSI driver "
                    "refreshes every 2 minutes: a key put into the secret just now is accepted once it has; a HyperPod "
                    "worker reads its key when it starts, so a key changed since then needs a new worker pod. "
                    "Otherwise send the key the server has: --env NAME reads the environment's secret "
                    "llm-serving/NAME/api-key, --api-key-secret NAME_OR_ARN another one", ExitCode.CHECK_FAILED)


def _status_error(response: Response, what: str, api_key: ApiKey | None = None) -> OpsError:
    if response.status == UNAUTHORIZED:
        return unauthorized(response, what, api_key)
    summary = response.summary()
    if 300 <= response.status < 400:
        fix = "redirects are not followed: pass the address it redirects to as --url"
    else:
        fix = "check --model (the served model name) and the endpoint's logs"
    return OpsError(f"{what} answered {summary}", fix, ExitCode.CHECK_FAILED)


def _body(model: str, prompt: str, max_tokens: int, stream: bool) -> bytes:
    body = {"model": model, "messages": [{"role": "user", "content": prompt}], "max_tokens": max_tokens,
            "temperature": 0, "stream": stream}
    if stream:
        body["stream_options"] = {"include_usage": True}
    return json.dumps(body).encode()


def _chat(endpoint: Endpoint, what: str, body: bytes, timeout: float, accept: str, api_key: ApiKey | None,
          deadline: Deadline | None = None):
    return exchange(endpoint, "POST", "/v1/chat/completions", what=what, timeout=timeout, body=body,
                    headers={"Content-Type": "application/json", "Accept": accept}, api_key=api_key, deadline=deadline)


def plain_completion(endpoint: Endpoint, model: str, prompt: str, max_tokens: int, timeout: float,
                     clock: Callable[[], float] = time.perf_counter, api_key: ApiKey | None = None, *,
                     deadline: Deadline | None = None) -> Measurement:
    started = clock()
    try:
        with _chat(endpoint, PLAIN, _body(model, prompt, max_tokens, False), timeout, "application/json",
                   api_key, deadline) as response:
            if not 200 <= response.status < 300:
                raise _status_error(response, PLAIN, api_key)
            raw = response.read()
    except BadResponse as error:
        return Measurement("plain", False, clock() - started, problems=[str(error)])
    total = clock() - started
    payload, problem = _object(raw, "the answer")
    if payload is None:
        return Measurement("plain", False, total, problems=[problem])
    problems: list[str] = []
    choices = payload.get("choices")
    if choices is not None and not isinstance(choices, list):
        _add(problems, f"choices is {_kind(choices)}, not an array")
    choices = choices if isinstance(choices, list) else []
    choice = choices[0] if choices else {}
    if not isinstance(choice, dict):
        _add(problems, f"choices[0] is {_kind(choice)}, not an object")
        choice = {}
    message = choice.get("message")
    if message is not None and not isinstance(message, dict):
        _add(problems, f"choices[0].message is {_kind(message)}, not an object")
    message = message if isinstance(message, dict) else {}
    text = (_string(message, "content", "choices[0].message", problems)
            or _string(message, "reasoning_content", "choices[0].message", problems))
    usage = payload.get("usage")
    if usage is not None and not isinstance(usage, dict):
        _add(problems, f"usage is {_kind(usage)}, not an object")
    usage = usage if isinstance(usage, dict) else {}
    tokens = usage.get("completion_tokens")
    if payload.get("object") != "chat.completion":
        _add(problems, f"object is {quoted(repr(payload.get('object')), 60)}, not 'chat.completion'")
    if not choices:
        _add(problems, "no choices")
    elif not choice.get("finish_reason"):
        _add(problems, "the choice has no finish_reason")
    if not text.strip():
        _add(problems, "the answer is empty")
    if tokens is None:
        _add(problems, "usage.completion_tokens is missing")
    elif not _count(tokens):
        _add(problems, f"usage.completion_tokens is {_kind(tokens)} ({printable(repr(tokens), 40)}), not a whole number")
        tokens = None
    elif tokens < 1:
        _add(problems, f"usage.completion_tokens is {tokens}")
    if payload.get("model") != model:
        _add(problems, f"model is {printable(repr(payload.get('model')), 80)}, not {model!r}")
    rate = tokens / total if tokens is not None and total > 0 else None
    return Measurement("plain", not problems, total, None, tokens, rate, text, problems)


def streaming_completion(endpoint: Endpoint, model: str, prompt: str, max_tokens: int, timeout: float,
                         clock: Callable[[], float] = time.perf_counter, api_key: ApiKey | None = None, *,
                         deadline: Deadline | None = None) -> Measurement:
    started = clock()
    first_token: float | None = None
    pieces: list[str] = []
    tokens: int | None = None
    problems: list[str] = []
    finished = done = streaming = False
    try:
        with _chat(endpoint, STREAMING, _body(model, prompt, max_tokens, True), timeout, "text/event-stream",
                   api_key, deadline) as response:
            if not 200 <= response.status < 300:
                raise _status_error(response, STREAMING, api_key)
            streaming = True
            for raw_line in response.lines():
                try:
                    line = raw_line.decode("utf-8").strip()
                except UnicodeDecodeError:
                    _add(problems, "a line of the event stream is not valid UTF-8")
                    continue
                if not line or line.startswith(":"):
                    continue
                if not line.startswith("data:"):
                    _add(problems, f"unexpected line in the event stream: {quoted(line, 60)}")
                    continue
                data = line[5:].strip()
                if data == "[DONE]":
                    done = True
                    break
                chunk, problem = _object(data, "a chunk")
                if chunk is None:
                    _add(problems, problem)
                    continue
                if chunk.get("object") != "chat.completion.chunk":
                    _add(problems, f"chunk object is {printable(repr(chunk.get('object')), 60)}")
                choices = chunk.get("choices")
                if choices is not None and not isinstance(choices, list):
                    _add(problems, f"a chunk's choices is {_kind(choices)}, not an array")
                for choice in choices if isinstance(choices, list) else []:
                    if not isinstance(choice, dict):
                        _add(problems, f"a chunk's choice is {_kind(choice)}, not an object")
                        continue
                    delta = choice.get("delta")
                    if delta is not None and not isinstance(delta, dict):
                        _add(problems, f"a chunk's delta is {_kind(delta)}, not an object")
                    delta = delta if isinstance(delta, dict) else {}
                    piece = (_string(delta, "content", "a chunk's delta", problems)
                             or _string(delta, "reasoning_content", "a chunk's delta", problems))
                    if piece:
                        if first_token is None:
                            first_token = clock() - started
                        pieces.append(piece)
                    finished = finished or bool(choice.get("finish_reason"))
                usage = chunk.get("usage")
                if usage is not None and not isinstance(usage, dict):
                    _add(problems, f"a chunk's usage is {_kind(usage)}, not an object")
                elif usage:
                    count = usage.get("completion_tokens")
                    if _count(count):
                        tokens = count
                    elif count is not None:
                        _add(problems, f"usage.completion_tokens is {_kind(count)} ({printable(repr(count), 40)}), "
                                       "not a whole number")
    except BadResponse as error:
        if not streaming:  # no answer at all
            return Measurement("streaming", False, clock() - started, problems=[str(error)])
        _add(problems, f"the stream broke off: {error}")  # what arrived before still counts
    total = clock() - started
    if not done:
        _add(problems, "the stream did not end with [DONE]")
    if not finished:
        _add(problems, "no chunk carried a finish_reason")
    if first_token is None:
        _add(problems, "no token arrived")
    if tokens is None:
        tokens = len(pieces)  # vLLM sends one token per chunk when usage is not reported
    decode_time = total - (first_token or 0.0)
    rate = (tokens - 1) / decode_time if tokens and tokens > 1 and decode_time > 0 else None
    return Measurement("streaming", not problems, total, first_token, tokens, rate, "".join(pieces), problems)


def served_model(endpoint: Endpoint, model: str, model_path: str | None, timeout: float,
                 clock: Callable[[], float] = time.perf_counter, api_key: ApiKey | None = None, *,
                 deadline: Deadline | None = None) -> Measurement:
    """``GET /v1/models``: the served name must be listed, and its ``root`` must be the configured model.

    vLLM lists each model with ``id`` = the served name and ``root`` = the ``--model`` it loaded
    (vllm/entrypoints/openai/serving_models.py). A vLLM started without ``--model`` loads its own small default model
    and still answers under the served name: only ``root`` tells the two apart. A 401 (a missing or wrong API key)
    raises :func:`unauthorized`: every later request would be refused the same way.
    """
    started = clock()
    try:
        with exchange(endpoint, "GET", "/v1/models", what=MODELS, timeout=timeout,
                      headers={"Accept": "application/json"}, api_key=api_key, deadline=deadline) as response:
            if response.status == UNAUTHORIZED:
                raise unauthorized(response, MODELS, api_key)
            if not 200 <= response.status < 300:
                problem = f"{MODELS} answered {response.summary()}"
                if 300 <= response.status < 400:
                    problem += "; redirects are not followed: pass the address it redirects to as --url"
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
        return Measurement("models", False, total, problems=[f"{MODELS}: data is {_kind(cards)}, not an array"])
    card = next((c for c in cards if isinstance(c, dict) and c.get("id") == model), None)
    if card is None:
        ids = [printable(repr(c.get("id")), 60) for c in cards if isinstance(c, dict)]
        listed = ", ".join(ids[:10]) + (f" and {len(ids) - 10} more" if len(ids) > 10 else "") or "nothing"
        return Measurement("models", False, total, problems=[f"{model!r} is not served (listed: {listed})"])
    root = card.get("root")
    problems = []
    if model_path is not None and root != model_path:
        problems.append(f"{model!r} is served from {printable(repr(root), 120)}, not {model_path!r}: vLLM loaded another "
                        "model (is --model missing from its arguments?)")
    return Measurement("models", not problems, total, text=printable(str(root), 200), problems=problems)


def refused_without_key(endpoint: Endpoint, timeout: float, clock: Callable[[], float] = time.perf_counter, *,
                        invocations: bool = True, deadline: Deadline | None = None) -> Measurement:
    """``GET /v1/models`` and ``POST /invocations`` without a key must both be refused (401) by an endpoint whose
    environment requires one. vLLM started without ``--api-key`` and ``VLLM_API_KEY`` serves anyone who reaches it,
    and the requests that carry the key pass all the same, so only a request without it shows the difference. And
    vLLM's own check leaves ``/invocations`` (the same completions, for SageMaker) open: only the project's middleware
    (charts/vllm_auth/llm_serving_auth.py) closes it.

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
            headers = {"Accept": "application/json", **({"Content-Type": "application/json"} if body else {})}
            with exchange(endpoint, method, path, what=what, timeout=timeout, headers=headers, body=body,
                          deadline=deadline) as response:
                status = response.status
                summary = "" if status in (UNAUTHORIZED, 200) else response.summary()
        except BadResponse as error:
            problems.append(f"{what}: {error}")
            continue
        statuses.append(f"{path} {status}")
        if status == UNAUTHORIZED:
            continue
        if path == "/invocations":
            problems.append(f"{what} answered {summary or f'HTTP {status}'}, not HTTP 401: /invocations serves the same "
                            "completions as /v1 to anyone who reaches the endpoint (vLLM checks its key under /v1 only; "
                            "is the --middleware llm_serving_auth.RequireApiKeyEverywhere argument missing?)")
        elif 200 <= status < 300:
            problems.append(f"{what} answered HTTP {status}: the endpoint serves anyone who reaches it, although the "
                            "environment requires its API key (vLLM was started without --api-key and VLLM_API_KEY)")
        else:
            problems.append(f"{what} answered {summary}, not HTTP 401")
    total = clock() - started
    if not problems:
        return Measurement("no key", True, total,
                           text="refused: HTTP 401 (" + ", ".join(path for _, path, _, _ in probes) + ")")
    return Measurement("no key", False, total, text=", ".join(statuses), problems=problems)


def smoke_test(url: str, model: str, prompt: str = DEFAULT_PROMPT, max_tokens: int = 64, timeout: float = 300.0,
               clock: Callable[[], float] = time.perf_counter, model_path: str | None = None,
               api_key: ApiKey | None = None, key_required: bool = False,
               key_on_every_path: bool = True, tls: TlsOptions | None = None,
               deadline: Deadline | None = None) -> list[Measurement]:
    """Check which model is served, then one plain and one streaming chat completion.

    ``timeout`` is a deadline for each request as a whole: connecting, sending, the headers and every byte of the
    answer or of the event stream (see ops_cli.http_client); ``deadline``, the command's (``llmops smoke-test
    --timeout``: the smoke test as a whole, ops_cli/deadline.py), cuts each request shorter when less is left of it.
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
    checks = ([refused_without_key(endpoint, timeout, clock, invocations=key_on_every_path, deadline=deadline)]
              if key_required else [])
    return [*checks,
            served_model(endpoint, model, model_path, timeout, clock, api_key, deadline=deadline),
            plain_completion(endpoint, model, prompt, max_tokens, timeout, clock, api_key, deadline=deadline),
            streaming_completion(endpoint, model, prompt, max_tokens, timeout, clock, api_key, deadline=deadline)]


# --- reading the key from Secrets Manager ------------------------------------------------------------------------

#: What GetSecretValue fails with when the caller may not use the secret's KMS key: AccessDeniedException "Access to
#: KMS is not allowed" (AWS Knowledge Center, "secrets-manager-cross-account-key"), or DecryptionFailure ("Secrets
#: Manager can't decrypt the protected secret text using the provided KMS key", the API model's error shape).
_KMS_DENIED = "DecryptionFailure"


def read_api_key_secret(aws: Aws, secret_id: str, described: str) -> ApiKey:
    """The API key held as text by the Secrets Manager secret ``secret_id`` (a name, or an ARN, which a secret of
    another account needs: botocore's secretsmanager model, GetSecretValue ``SecretId``).

    Every failure is an :class:`OpsError` with the CLI's usual exit code (ops_cli.errors.translate: access denied 5,
    not found 11, no credentials 4, ...) and a fix that names the secret and the permission it needs; the message
    names ``described``, never the value.
    """
    action = f"read the API key from secret {described}"
    try:
        answer = aws.client("secretsmanager").get_secret_value(SecretId=secret_id)
    except (botocore.exceptions.ClientError, botocore.exceptions.BotoCoreError) as error:
        raise _secret_error(error, action, described, aws.region) from None
    value = answer.get("SecretString")
    if not isinstance(value, str):
        raise OpsError(f"secret {described} holds binary data, not the API key as text",
                       "store the key as the secret's text (SecretString)", ExitCode.USAGE)
    problem = api_key_problem(value)
    if problem:
        raise OpsError(f"the API key in secret {described} {problem}",
                       "store the key exactly as the server expects it, as plain text without a trailing newline",
                       ExitCode.USAGE)
    return ApiKey(value, f"secret {described}")


def _secret_error(error: Exception, action: str, described: str, region: str) -> OpsError:
    failure = translate(error, action)
    code = error_code(error) if isinstance(error, botocore.exceptions.ClientError) else ""
    text = error.response.get("Error", {}).get("Message", "") if code else ""
    if code == _KMS_DENIED or (failure.exit_code is ExitCode.ACCESS_DENIED and "kms" in text.lower()):
        failure.fix = (f"allow kms:Decrypt on the KMS key that encrypts secret {described} to this identity, with the "
                       f"condition kms:ViaService = secretsmanager.{region}.amazonaws.com; from another account both "
                       "its IAM policy and the key's policy must allow it")
    elif failure.exit_code is ExitCode.ACCESS_DENIED:
        failure.fix = (f"allow secretsmanager:GetSecretValue on secret {described} to this identity; from another "
                       "account the secret's resource policy must allow it too, and its key must allow kms:Decrypt")
    elif failure.exit_code is ExitCode.NOT_FOUND:
        failure.fix = (f"check the name, the account and the region of secret {described}; an environment's secret "
                       "is created by its serving stack (npx cdk deploy NAME-serving -c env=NAME)")
    elif code == "InvalidRequestException":
        failure.fix = (f"the secret may be scheduled for deletion: restore it (aws secretsmanager restore-secret "
                       f"--secret-id ...) or deploy the serving stack again; see the message for {described}")
    return failure

