"""The smoke test's two chat completions, one plain and one streaming, with their timings (endpoint_probe/smoke.py
runs them). Every answer is checked for shape and type before it is used: what is wrong with it becomes a problem of
the measurement, never an exception. Standard library only.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from endpoint_probe.answers import (
    Measurement,
    _add,
    _chat,
    _count,
    _kind,
    _object,
    _post,
    _status_error,
    _string,
)
from endpoint_probe.deadline import Deadline
from endpoint_probe.errors import BadResponse, printable, quoted
from endpoint_probe.url import ApiKey, Endpoint

PLAIN = "POST /v1/chat/completions (plain)"
STREAMING = "POST /v1/chat/completions (streaming)"


def _body(model: str, prompt: str, max_tokens: int, stream: bool) -> bytes:
    body = {
        "model": model,
        "messages": [{"role": "user", "content": prompt}],
        "max_tokens": max_tokens,
        "temperature": 0,
        "stream": stream,
    }
    if stream:
        body["stream_options"] = {"include_usage": True}
    return json.dumps(body).encode()


def plain_completion(
    endpoint: Endpoint,
    model: str,
    prompt: str,
    max_tokens: int,
    timeout: float,
    clock: Callable[[], float] = time.perf_counter,
    api_key: ApiKey | None = None,
    *,
    deadline: Deadline | None = None,
) -> Measurement:
    body = _body(model, prompt, max_tokens, False)
    payload, result = _post(endpoint, PLAIN, "plain", body, timeout, api_key, clock, deadline)
    if payload is None:
        return result
    total, problems = result.total_s, result.problems
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
    text = _string(message, "content", "choices[0].message", problems) or _string(
        message, "reasoning_content", "choices[0].message", problems
    )
    usage = payload.get("usage")
    if usage is not None and not isinstance(usage, dict):
        _add(problems, f"usage is {_kind(usage)}, not an object")
    usage = usage if isinstance(usage, dict) else {}
    tokens = usage.get("completion_tokens")
    if payload.get("object") != "chat.completion":
        _add(
            problems, f"object is {quoted(repr(payload.get('object')), 60)}, not 'chat.completion'"
        )
    if not choices:
        _add(problems, "no choices")
    elif not choice.get("finish_reason"):
        _add(problems, "the choice has no finish_reason")
    if not text.strip():
        _add(problems, "the answer is empty")
    if tokens is None:
        _add(problems, "usage.completion_tokens is missing")
    elif not _count(tokens):
        _add(
            problems,
            f"usage.completion_tokens is {_kind(tokens)} ({printable(repr(tokens), 40)}), not a whole number",
        )
        tokens = None
    elif tokens < 1:
        _add(problems, f"usage.completion_tokens is {tokens}")
    if payload.get("model") != model:
        _add(problems, f"model is {printable(repr(payload.get('model')), 80)}, not {model!r}")
    rate = tokens / total if tokens is not None and total > 0 else None
    return Measurement("plain", not problems, total, None, tokens, rate, text, problems)


def streaming_completion(
    endpoint: Endpoint,
    model: str,
    prompt: str,
    max_tokens: int,
    timeout: float,
    clock: Callable[[], float] = time.perf_counter,
    api_key: ApiKey | None = None,
    *,
    deadline: Deadline | None = None,
) -> Measurement:
    started = clock()
    first_token: float | None = None
    pieces: list[str] = []
    tokens: int | None = None
    problems: list[str] = []
    finished = done = streaming = False
    try:
        with _chat(
            endpoint,
            STREAMING,
            _body(model, prompt, max_tokens, True),
            timeout,
            "text/event-stream",
            api_key,
            deadline,
        ) as response:
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
                    piece = _string(delta, "content", "a chunk's delta", problems) or _string(
                        delta, "reasoning_content", "a chunk's delta", problems
                    )
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
                        _add(
                            problems,
                            f"usage.completion_tokens is {_kind(count)} ({printable(repr(count), 40)}), "
                            "not a whole number",
                        )
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
    return Measurement(
        "streaming", not problems, total, first_token, tokens, rate, "".join(pieces), problems
    )
