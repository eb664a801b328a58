"""The correctness probe of ``llmops bench`` and of the deploy-time promotion gate: two chat completions, each a row.

**The probe** (two chat completions, each a row): a question with one checkable answer (``7919 x 13``, whose product
102947 appears nowhere in the question), and a tool call with a JSON-schema'd function under ``tool_choice: "auto"``,
whose arguments are validated against that schema with jsonschema. ``auto`` and not ``required``: vLLM 0.33.0 keeps the
calls that the server's tool-call parser extracts only for ``auto`` (with ``--enable-auto-tool-choice``, which the
preset sets, ``--tool-call-parser kimi_k3``), while ``required`` and a named tool force the calls
(vllm/entrypoints/openai/chat_completion/message_assembly.py, ``keeps_tool_calls``, ``_forces_tool_calls``) by
constraining decoding to the tools' schema (vllm/tool_parsers/utils.py, ``get_json_schema_from_tools``), which would
hide a parser that returns malformed arguments: the failure clients that let the model choose would see.

Standard library only: the deploy-time check (cdk_constructs/deploy_time_smoke_test/runtime/) runs it without
jsonschema, with :func:`subset_errors`; ``llmops bench`` passes jsonschema's validator (ops_cli/bench.py).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable

from endpoint_probe.answers import Measurement, _add, _kind, _post
from endpoint_probe.deadline import Deadline
from endpoint_probe.errors import printable, quoted
from endpoint_probe.url import ApiKey, Endpoint, TlsOptions, check_url

#: (where, message) of each way a tool call's parsed arguments do not satisfy :data:`TOOL_PARAMETERS`.
SchemaErrors = Callable[[object], list[tuple[str, str]]]

ARITHMETIC = "arithmetic"
TOOL_CALL = "tool call"
ARITHMETIC_PROMPT = "What is 7919 multiplied by 13? Reply with the number only."
ARITHMETIC_ANSWER = 7919 * 13  # 102947
TOOL_NAME = "get_weather"
TOOL_PROMPT = (
    "What is the weather in Paris right now, in degrees Celsius? Use the get_weather tool."
)
#: The function's parameters: what the returned arguments must satisfy (JSON Schema draft 2020-12).
TOOL_PARAMETERS = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "minLength": 1, "description": "the city's name"},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
    },
    "required": ["city", "unit"],
    "additionalProperties": False,
}
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": TOOL_NAME,
            "description": "The current weather in a city.",
            "parameters": TOOL_PARAMETERS,
        },
    }
]
#: A reasoning model (the preset's ``--reasoning-parser``) thinks before it answers: room for both.
DEFAULT_PROBE_MAX_TOKENS = 4096
_NUMBER = re.compile(r"\d+")
#: Thousands separators between digit groups: "102,947", "102 947", "102\u202f947", "102_947", "102'947".
_GROUPING = re.compile(r"(?<=\d)[,_'\u00a0\u202f ](?=\d{3}(?!\d))")


def _message(
    endpoint: Endpoint,
    mode: str,
    model: str,
    prompt: str,
    max_tokens: int,
    timeout: float,
    api_key: ApiKey | None,
    clock: Callable[[], float],
    deadline: Deadline | None,
    **tools,
) -> tuple[dict | None, dict, Measurement]:
    """POST ``prompt`` as a chat completion (with ``tools``, the request's tool fields); the answer's first choice and
    its message, or a failed measurement that says why."""
    body = {"model": model, "messages": [{"role": "user", "content": prompt}], **tools}
    body |= {"max_tokens": max_tokens, "temperature": 0}
    what = f"POST /v1/chat/completions ({mode.replace(' ', '-')} probe)"
    payload, measurement = _post(
        endpoint, what, mode, json.dumps(body).encode(), timeout, api_key, clock, deadline
    )
    if payload is None:
        return None, {}, measurement
    choices = payload.get("choices")
    choice = choices[0] if isinstance(choices, list) and choices else None
    if not isinstance(choice, dict):
        measurement.problems.append(f"choices is {_kind(choices)}, not an array of choice objects")
        return None, {}, measurement
    message = choice.get("message")
    if not isinstance(message, dict):
        measurement.problems.append(f"choices[0].message is {_kind(message)}, not an object")
        return None, {}, measurement
    usage = payload.get("usage")
    tokens = usage.get("completion_tokens") if isinstance(usage, dict) else None
    if isinstance(tokens, int) and not isinstance(tokens, bool) and tokens >= 0:
        measurement.completion_tokens = tokens
    return choice, message, measurement


def arithmetic_probe(
    endpoint: Endpoint,
    model: str,
    timeout: float,
    *,
    api_key: ApiKey | None = None,
    max_tokens: int = DEFAULT_PROBE_MAX_TOKENS,
    clock: Callable[[], float] = time.perf_counter,
    deadline: Deadline | None = None,
) -> Measurement:
    """Ask for 7919 x 13: the last number of the final answer (``content``, not the reasoning) must be 102947."""
    choice, message, result = _message(
        endpoint,
        ARITHMETIC,
        model,
        ARITHMETIC_PROMPT,
        max_tokens,
        timeout,
        api_key,
        clock,
        deadline,
    )
    if choice is None:
        return result
    content = message.get("content")
    if content is not None and not isinstance(content, str):
        _add(result.problems, f"choices[0].message.content is {_kind(content)}, not a string")
        return result
    content = content or ""
    result.text = printable(" ".join(content.split()), 200)
    numbers = _NUMBER.findall(_GROUPING.sub("", content))
    if not numbers:
        reason = choice.get("finish_reason")
        said = quoted(content.strip(), 80) if content.strip() else "it is empty"
        why = (
            f"no final answer within {max_tokens} tokens (finish_reason 'length'): raise --probe-max-tokens"
            if reason == "length"
            else f"the answer holds no number: {said}"
        )
        _add(result.problems, why)
    elif int(numbers[-1]) != ARITHMETIC_ANSWER:
        _add(result.problems, f"wrong answer: {numbers[-1]}, not {ARITHMETIC_ANSWER} (7919 x 13)")
    result.ok = not result.problems
    return result


def subset_errors(value, schema: dict = TOOL_PARAMETERS, path: str = "") -> list[tuple[str, str]]:
    """JSON Schema's ``type`` (object, string), ``properties``, ``required``, ``additionalProperties: false``, ``enum``
    and ``minLength`` (JSON Schema Validation 2020-12, sections 6.1.1, 6.1.2, 6.3.2, 6.5.3; Core 10.3.2.1, 10.3.2.3):
    the keywords of :data:`TOOL_PARAMETERS`, nothing more: the deploy-time check's validator, which has no jsonschema.
    ``llmops bench`` passes jsonschema's (ops_cli/bench.py); tests/cdk_constructs/test_promotion_gate.py checks that both
    agree."""
    where = path or "(the arguments)"
    kind = schema.get("type")
    if kind == "object" and not isinstance(value, dict):
        return [(where, f"{_kind(value)} is not of type 'object'")]
    if kind == "string" and not isinstance(value, str):
        return [(where, f"{_kind(value)} is not of type 'string'")]
    errors: list[tuple[str, str]] = []
    if "enum" in schema and not any(
        value == option and type(value) is type(option) for option in schema["enum"]
    ):
        errors.append((where, f"{printable(repr(value), 40)} is not one of {schema['enum']}"))
    if isinstance(value, str) and len(value) < schema.get("minLength", 0):
        errors.append(
            (
                where,
                f"{printable(repr(value), 40)} is shorter than {schema['minLength']} characters",
            )
        )
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        for name in schema.get("required", []):
            if name not in value:
                errors.append((where, f"{name!r} is a required property"))
        for name, item in value.items():
            if name in properties:
                errors += subset_errors(item, properties[name], f"{path}/{name}".lstrip("/"))
            elif schema.get("additionalProperties") is False:
                errors.append(
                    (where, f"additional property {printable(repr(name), 40)} is not allowed")
                )
    return errors


def tool_call_problems(
    message: dict, schema_errors: SchemaErrors = subset_errors
) -> tuple[list[str], str]:
    """What is wrong with the tool call in ``message`` (an assistant message of a chat completion), and a short text of
    the call for the report. ``schema_errors`` (where, message) of each way the parsed arguments do not satisfy
    :data:`TOOL_PARAMETERS`."""
    problems: list[str] = []
    calls = message.get("tool_calls")
    if not isinstance(calls, list) or not calls:
        content = message.get("content")
        said = (
            f": it answered {quoted(' '.join(content.split()), 80)}"
            if isinstance(content, str) and content.strip()
            else ""
        )
        return [
            f"no tool call (tool_calls is {_kind(calls) if calls is not None else 'missing'}){said}; is the server "
            "started with --enable-auto-tool-choice and the model's --tool-call-parser?"
        ], ""
    call = calls[0]
    function = call.get("function") if isinstance(call, dict) else None
    if not isinstance(function, dict):
        return [f"tool_calls[0].function is {_kind(function)}, not an object"], ""
    name, arguments = function.get("name"), function.get("arguments")
    text = f"{printable(str(name), 40)}({printable(str(arguments), 120)})"
    if name != TOOL_NAME:
        problems.append(f"called {printable(repr(name), 60)}, not {TOOL_NAME!r}")
    if not isinstance(arguments, str):
        # The OpenAI protocol carries the arguments as a JSON text (vLLM's FunctionCall.arguments: str).
        problems.append(f"tool_calls[0].function.arguments is {_kind(arguments)}, not a JSON text")
        return problems, text
    try:
        parsed = json.loads(arguments)
    except (ValueError, RecursionError):
        problems.append(f"the arguments are not JSON: {quoted(arguments, 80)}")
        return problems, text
    for where, message in schema_errors(parsed):
        problems.append(
            f"the arguments do not match the tool's schema at {where}: {printable(message, 120)}"
        )
    if not problems and "paris" not in parsed["city"].lower():
        problems.append(f"city is {printable(repr(parsed['city']), 60)}, not Paris")
    return problems, text


def tool_call_probe(
    endpoint: Endpoint,
    model: str,
    timeout: float,
    *,
    api_key: ApiKey | None = None,
    max_tokens: int = DEFAULT_PROBE_MAX_TOKENS,
    clock: Callable[[], float] = time.perf_counter,
    deadline: Deadline | None = None,
    schema_errors: SchemaErrors = subset_errors,
) -> Measurement:
    """Offer one function and ask a question only it answers: the model must call it, with arguments that satisfy its
    JSON schema (see :func:`tool_call_problems`)."""
    choice, message, result = _message(
        endpoint,
        TOOL_CALL,
        model,
        TOOL_PROMPT,
        max_tokens,
        timeout,
        api_key,
        clock,
        deadline,
        tools=TOOLS,
        tool_choice="auto",
    )
    if choice is None:
        return result
    problems, result.text = tool_call_problems(message, schema_errors)
    for problem in problems:
        _add(result.problems, problem)
    result.ok = not result.problems
    return result


def run_probe(
    url: str,
    model: str,
    timeout: float,
    *,
    api_key: ApiKey | None = None,
    tls: TlsOptions | None = None,
    max_tokens: int = DEFAULT_PROBE_MAX_TOKENS,
    clock: Callable[[], float] = time.perf_counter,
    deadline: Deadline | None = None,
    schema_errors: SchemaErrors = subset_errors,
) -> list[Measurement]:
    """Both probes against ``url``, with the smoke test's rules for what ends the run (endpoint_probe.smoke.smoke_test): a
    401, an error status or an unreachable endpoint raise :class:`OpsError`; a bad answer is a failed row. Each request
    ends within ``timeout`` and by the command's ``deadline``."""
    endpoint = check_url(url, tls=tls)
    each = {"api_key": api_key, "max_tokens": max_tokens, "clock": clock, "deadline": deadline}
    return [
        arithmetic_probe(endpoint, model, timeout, **each),
        tool_call_probe(endpoint, model, timeout, **each, schema_errors=schema_errors),
    ]
