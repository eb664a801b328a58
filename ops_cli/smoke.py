"""Smoke test of an OpenAI-compatible endpoint: one plain and one streaming chat completion, with timings."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from ops_cli.errors import ExitCode, OpsError

DEFAULT_PROMPT = "Reply with one short sentence: what is 2 + 2?"


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


def _request(url: str, body: dict, timeout: float):
    data = json.dumps(body).encode()
    request = urllib.request.Request(url.rstrip("/") + "/v1/chat/completions", data=data, method="POST",
                                     headers={"Content-Type": "application/json", "Accept": "application/json"})
    try:
        return urllib.request.urlopen(request, timeout=timeout)
    except urllib.error.HTTPError as error:
        detail = error.read(500).decode(errors="replace")
        raise OpsError(f"the endpoint answered HTTP {error.code}: {detail}",
                       "check --model (the served model name) and the endpoint's logs", ExitCode.CHECK_FAILED) from None
    except (urllib.error.URLError, OSError) as error:
        raise OpsError(f"cannot reach {url}: {getattr(error, 'reason', error)}",
                       "check the address and that you are inside the VPC (or use kubectl port-forward)",
                       ExitCode.CHECK_FAILED) from None


def _body(model: str, prompt: str, max_tokens: int, stream: bool) -> dict:
    body = {"model": model, "messages": [{"role": "user", "content": prompt}], "max_tokens": max_tokens,
            "temperature": 0, "stream": stream}
    if stream:
        body["stream_options"] = {"include_usage": True}
    return body


def plain_completion(url: str, model: str, prompt: str, max_tokens: int, timeout: float,
                     clock: Callable[[], float] = time.perf_counter) -> Measurement:
    started = clock()
    with _request(url, _body(model, prompt, max_tokens, False), timeout) as response:
        raw = response.read()
    total = clock() - started
    problems: list[str] = []
    try:
        payload = json.loads(raw)
    except ValueError:
        return Measurement("plain", False, total, problems=["the response is not JSON"])
    choices = payload.get("choices") or []
    message = choices[0].get("message", {}) if choices else {}
    text = message.get("content") or message.get("reasoning_content") or ""
    usage = payload.get("usage") or {}
    tokens = usage.get("completion_tokens")
    if payload.get("object") != "chat.completion":
        problems.append(f"object is {payload.get('object')!r}, not 'chat.completion'")
    if not choices:
        problems.append("no choices")
    elif not choices[0].get("finish_reason"):
        problems.append("the choice has no finish_reason")
    if not text.strip():
        problems.append("the answer is empty")
    if not isinstance(tokens, int) or tokens < 1:
        problems.append("usage.completion_tokens is missing")
    if payload.get("model") != model:
        problems.append(f"model is {payload.get('model')!r}, not {model!r}")
    rate = tokens / total if isinstance(tokens, int) and total > 0 else None
    return Measurement("plain", not problems, total, None, tokens if isinstance(tokens, int) else None, rate, text, problems)


def streaming_completion(url: str, model: str, prompt: str, max_tokens: int, timeout: float,
                         clock: Callable[[], float] = time.perf_counter) -> Measurement:
    started = clock()
    first_token: float | None = None
    pieces: list[str] = []
    tokens: int | None = None
    problems: list[str] = []
    finished = done = False
    with _request(url, _body(model, prompt, max_tokens, True), timeout) as response:
        for raw_line in response:
            line = raw_line.decode(errors="replace").strip()
            if not line or line.startswith(":"):
                continue
            if not line.startswith("data:"):
                problems.append(f"unexpected line in the event stream: {line[:60]!r}")
                continue
            data = line[5:].strip()
            if data == "[DONE]":
                done = True
                break
            try:
                chunk = json.loads(data)
            except ValueError:
                problems.append("a chunk is not JSON")
                continue
            if chunk.get("object") != "chat.completion.chunk":
                problems.append(f"chunk object is {chunk.get('object')!r}")
            for choice in chunk.get("choices") or []:
                delta = choice.get("delta") or {}
                piece = delta.get("content") or delta.get("reasoning_content") or ""
                if piece:
                    if first_token is None:
                        first_token = clock() - started
                    pieces.append(piece)
                finished = finished or bool(choice.get("finish_reason"))
            if chunk.get("usage"):
                tokens = chunk["usage"].get("completion_tokens")
    total = clock() - started
    if not done:
        problems.append("the stream did not end with [DONE]")
    if not finished:
        problems.append("no chunk carried a finish_reason")
    if first_token is None:
        problems.append("no token arrived")
    if tokens is None:
        tokens = len(pieces)  # vLLM sends one token per chunk when usage is not reported
    decode_time = total - (first_token or 0.0)
    rate = (tokens - 1) / decode_time if tokens and tokens > 1 and decode_time > 0 else None
    return Measurement("streaming", not problems, total, first_token, tokens, rate, "".join(pieces), problems)


def served_model(url: str, model: str, model_path: str | None, timeout: float,
                 clock: Callable[[], float] = time.perf_counter) -> Measurement:
    """``GET /v1/models``: the served name must be listed, and its ``root`` must be the configured model.

    vLLM lists each model with ``id`` = the served name and ``root`` = the ``--model`` it loaded
    (vllm/entrypoints/openai/serving_models.py). A vLLM started without ``--model`` loads its own small default model
    and still answers under the served name: only ``root`` tells the two apart.
    """
    started = clock()
    request = urllib.request.Request(url.rstrip("/") + "/v1/models", headers={"Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            raw = response.read()
    except urllib.error.HTTPError as error:
        return Measurement("models", False, clock() - started, problems=[f"GET /v1/models answered HTTP {error.code}"])
    except (urllib.error.URLError, OSError) as error:
        raise OpsError(f"cannot reach {url}: {getattr(error, 'reason', error)}",
                       "check the address and that you are inside the VPC (or use kubectl port-forward)",
                       ExitCode.CHECK_FAILED) from None
    total = clock() - started
    try:
        cards = json.loads(raw).get("data") or []
    except (ValueError, AttributeError):
        return Measurement("models", False, total, problems=["GET /v1/models did not answer a JSON object"])
    card = next((c for c in cards if isinstance(c, dict) and c.get("id") == model), None)
    if card is None:
        listed = ", ".join(repr(c.get("id")) for c in cards if isinstance(c, dict)) or "nothing"
        return Measurement("models", False, total, problems=[f"{model!r} is not served (listed: {listed})"])
    root = card.get("root")
    problems = []
    if model_path is not None and root != model_path:
        problems.append(f"{model!r} is served from {root!r}, not {model_path!r}: vLLM loaded another model "
                        "(is --model missing from its arguments?)")
    return Measurement("models", not problems, total, text=str(root), problems=problems)


def smoke_test(url: str, model: str, prompt: str = DEFAULT_PROMPT, max_tokens: int = 64, timeout: float = 300.0,
               clock: Callable[[], float] = time.perf_counter, model_path: str | None = None) -> list[Measurement]:
    """Check which model is served, then one plain and one streaming chat completion.

    :param model_path: the ``--model`` the server must have loaded (its ``root`` in /v1/models); None checks only
        that the served name is listed.
    """
    return [served_model(url, model, model_path, timeout, clock),
            plain_completion(url, model, prompt, max_tokens, timeout, clock),
            streaming_completion(url, model, prompt, max_tokens, timeout, clock)]
