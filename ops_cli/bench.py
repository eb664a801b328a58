"""``llmops bench``: a correctness probe from where llmops runs, and a load test inside the cluster.

**The probe** (two chat completions, each a row): a question with one checkable answer (``7919 x 13``, whose product
102947 appears nowhere in the question), and a tool call with a JSON-schema'd function under ``tool_choice: "auto"``,
whose arguments are validated against that schema with jsonschema. ``auto`` and not ``required``: vLLM 0.33.0 keeps the
calls that the server's tool-call parser extracts only for ``auto`` (with ``--enable-auto-tool-choice``, which the
preset sets, ``--tool-call-parser kimi_k3``), while ``required`` and a named tool force the calls
(vllm/entrypoints/openai/chat_completion/message_assembly.py, ``keeps_tool_calls``, ``_forces_tool_calls``) by
constraining decoding to the tools' schema (vllm/tool_parsers/utils.py, ``get_json_schema_from_tools``), which would
hide a parser that returns malformed arguments: the failure clients that let the model choose would see.

The figures of a load-test run (:func:`run_result`, from the result JSON of ``vllm bench serve``) are here too: the
deploy-time promotion gate's Lambda function reads them as ``llmops bench`` does. The load test itself, a Kubernetes
Job, is ops_cli/load_test.py.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ops_cli.deadline import Deadline
from ops_cli.http_client import ApiKey, BadResponse, Endpoint, TlsOptions, check_url, printable, quoted
from ops_cli.smoke import Measurement, _add, _chat, _kind, _object, _status_error

try:
    import jsonschema
except ImportError:  # the deploy-time promotion gate's function bundles this module without it: see _schema_errors
    jsonschema = None

# This module is bundled into the deploy-time promotion gate's Lambda function (cdk_constructs/deploy_time_smoke_test.py),
# which has the standard library and botocore only: it imports nothing of the project's configuration.

# --- the correctness probe ---------------------------------------------------------------------------------------

ARITHMETIC = "arithmetic"
TOOL_CALL = "tool call"
ARITHMETIC_PROMPT = "What is 7919 multiplied by 13? Reply with the number only."
ARITHMETIC_ANSWER = 7919 * 13  # 102947
TOOL_NAME = "get_weather"
TOOL_PROMPT = "What is the weather in Paris right now, in degrees Celsius? Use the get_weather tool."
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
TOOLS = [{"type": "function", "function": {
    "name": TOOL_NAME, "description": "The current weather in a city.", "parameters": TOOL_PARAMETERS}}]
#: A reasoning model (the preset's ``--reasoning-parser``) thinks before it answers: room for both.
DEFAULT_PROBE_MAX_TOKENS = 4096
_NUMBER = re.compile(r"\d+")
#: Thousands separators between digit groups: "102,947", "102 947", "102\u202f947", "102_947", "102'947".
_GROUPING = re.compile(r"(?<=\d)[,_'\u00a0\u202f ](?=\d{3}(?!\d))")


def _message(endpoint: Endpoint, what: str, mode: str, body: dict, timeout: float, api_key: ApiKey | None,
             clock: Callable[[], float], deadline: Deadline | None = None) -> tuple[dict | None, dict, Measurement]:
    """POST a chat completion; the answer's first choice and its message, or a failed measurement that says why."""
    started = clock()
    try:
        with _chat(endpoint, what, json.dumps(body).encode(), timeout, "application/json", api_key,
                   deadline) as response:
            if not 200 <= response.status < 300:
                raise _status_error(response, what, api_key)
            raw = response.read()
    except BadResponse as error:
        return None, {}, Measurement(mode, False, clock() - started, problems=[str(error)])
    total = clock() - started
    payload, problem = _object(raw, "the answer")
    measurement = Measurement(mode, False, total)
    if payload is None:
        measurement.problems.append(problem)
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


def arithmetic_probe(endpoint: Endpoint, model: str, timeout: float, *, api_key: ApiKey | None = None,
                     max_tokens: int = DEFAULT_PROBE_MAX_TOKENS,
                     clock: Callable[[], float] = time.perf_counter, deadline: Deadline | None = None) -> Measurement:
    """Ask for 7919 x 13: the last number of the final answer (``content``, not the reasoning) must be 102947."""
    body = {"model": model, "messages": [{"role": "user", "content": ARITHMETIC_PROMPT}], "max_tokens": max_tokens,
            "temperature": 0}
    choice, message, result = _message(endpoint, "POST /v1/chat/completions (arithmetic probe)", ARITHMETIC, body,
                                       timeout, api_key, clock, deadline)
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
        why = (f"no final answer within {max_tokens} tokens (finish_reason 'length'): raise --probe-max-tokens"
               if reason == "length" else f"the answer holds no number: {said}")
        _add(result.problems, why)
    elif int(numbers[-1]) != ARITHMETIC_ANSWER:
        _add(result.problems, f"wrong answer: {numbers[-1]}, not {ARITHMETIC_ANSWER} (7919 x 13)")
    result.ok = not result.problems
    return result


def tool_call_problems(message: dict) -> tuple[list[str], str]:
    """What is wrong with the tool call in ``message`` (an assistant message of a chat completion), and a short text of
    the call for the report."""
    problems: list[str] = []
    calls = message.get("tool_calls")
    if not isinstance(calls, list) or not calls:
        content = message.get("content")
        said = f": it answered {quoted(' '.join(content.split()), 80)}" if isinstance(content, str) and content.strip() else ""
        return [f"no tool call (tool_calls is {_kind(calls) if calls is not None else 'missing'}){said}; is the server "
                "started with --enable-auto-tool-choice and the model's --tool-call-parser?"], ""
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
    for where, message in _schema_errors(parsed):
        problems.append(f"the arguments do not match the tool's schema at {where}: {printable(message, 120)}")
    if not problems and "paris" not in parsed["city"].lower():
        problems.append(f"city is {printable(repr(parsed['city']), 60)}, not Paris")
    return problems, text


def _schema_errors(parsed) -> list[tuple[str, str]]:
    """(where, message) of each way ``parsed`` does not satisfy :data:`TOOL_PARAMETERS`: with jsonschema (Draft 2020-12)
    where it is installed (``llmops``), else with :func:`_subset_errors`, which implements exactly the keywords that
    schema uses (in the promotion gate's Lambda function; tests/test_promotion_gate.py checks that both agree)."""
    if jsonschema is not None:
        validator = jsonschema.Draft202012Validator(TOOL_PARAMETERS)
        return [("/".join(str(p) for p in error.absolute_path) or "(the arguments)", error.message)
                for error in sorted(validator.iter_errors(parsed), key=lambda e: list(e.absolute_path))]
    return _subset_errors(parsed, TOOL_PARAMETERS)


def _subset_errors(value, schema: dict, path: str = "") -> list[tuple[str, str]]:
    """JSON Schema's ``type`` (object, string), ``properties``, ``required``, ``additionalProperties: false``, ``enum``
    and ``minLength`` (JSON Schema Validation 2020-12, sections 6.1.1, 6.1.2, 6.3.2, 6.5.3; Core 10.3.2.1, 10.3.2.3):
    the keywords of :data:`TOOL_PARAMETERS`, nothing more."""
    where = path or "(the arguments)"
    kind = schema.get("type")
    if kind == "object" and not isinstance(value, dict):
        return [(where, f"{_kind(value)} is not of type 'object'")]
    if kind == "string" and not isinstance(value, str):
        return [(where, f"{_kind(value)} is not of type 'string'")]
    errors: list[tuple[str, str]] = []
    if "enum" in schema and not any(value == option and type(value) is type(option) for option in schema["enum"]):
        errors.append((where, f"{printable(repr(value), 40)} is not one of {schema['enum']}"))
    if isinstance(value, str) and len(value) < schema.get("minLength", 0):
        errors.append((where, f"{printable(repr(value), 40)} is shorter than {schema['minLength']} characters"))
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        for name in schema.get("required", []):
            if name not in value:
                errors.append((where, f"{name!r} is a required property"))
        for name, item in value.items():
            if name in properties:
                errors += _subset_errors(item, properties[name], f"{path}/{name}".lstrip("/"))
            elif schema.get("additionalProperties") is False:
                errors.append((where, f"additional property {printable(repr(name), 40)} is not allowed"))
    return errors


def tool_call_probe(endpoint: Endpoint, model: str, timeout: float, *, api_key: ApiKey | None = None,
                    max_tokens: int = DEFAULT_PROBE_MAX_TOKENS,
                    clock: Callable[[], float] = time.perf_counter, deadline: Deadline | None = None) -> Measurement:
    """Offer one function and ask a question only it answers: the model must call it, with arguments that satisfy its
    JSON schema (see :func:`tool_call_problems`)."""
    body = {"model": model, "messages": [{"role": "user", "content": TOOL_PROMPT}], "tools": TOOLS,
            "tool_choice": "auto", "max_tokens": max_tokens, "temperature": 0}
    choice, message, result = _message(endpoint, "POST /v1/chat/completions (tool-call probe)", TOOL_CALL, body,
                                       timeout, api_key, clock, deadline)
    if choice is None:
        return result
    problems, result.text = tool_call_problems(message)
    for problem in problems:
        _add(result.problems, problem)
    result.ok = not result.problems
    return result


def run_probe(url: str, model: str, timeout: float, *, api_key: ApiKey | None = None, tls: TlsOptions | None = None,
              max_tokens: int = DEFAULT_PROBE_MAX_TOKENS, clock: Callable[[], float] = time.perf_counter,
              deadline: Deadline | None = None) -> list[Measurement]:
    """Both probes against ``url``, with the smoke test's rules for what ends the run (ops_cli.smoke.smoke_test): a
    401, an error status or an unreachable endpoint raise :class:`OpsError`; a bad answer is a failed row. Each request
    ends within ``timeout`` and by the command's ``deadline``."""
    endpoint = check_url(url, tls=tls)
    return [arithmetic_probe(endpoint, model, timeout, api_key=api_key, max_tokens=max_tokens, clock=clock,
                             deadline=deadline),
            tool_call_probe(endpoint, model, timeout, api_key=api_key, max_tokens=max_tokens, clock=clock,
                            deadline=deadline)]


# --- a load-test run's figures --------------------------------------------------------------------------------------

PERCENTILES = (50, 90, 99)


@dataclass
class RunResult:
    """One concurrency's figures, from the result JSON of ``vllm bench serve`` (None: not in the result)."""

    concurrency: int
    ok: bool
    completed: int | None = None
    failed: int | None = None
    ttft_ms: dict[int, float | None] = field(default_factory=dict)
    itl_ms: dict[int, float | None] = field(default_factory=dict)
    tpot_ms: dict[int, float | None] = field(default_factory=dict)
    output_throughput: float | None = None
    duration_s: float | None = None
    problems: list[str] = field(default_factory=list)
    #: The published row of the same profile, concurrency and lengths (deployment_config/published.py
    #: ``PublishedRow.to_dict``), set by the caller; None when there is none.
    published: dict | None = None
    #: Speculative decoding's acceptance over the run (percent of draft tokens accepted; tokens per verification step,
    #: the bonus token included), as ``vllm bench serve`` computes it from the server's ``/metrics`` counters before
    #: and after the run (``spec_decode_acceptance_rate``, ``spec_decode_acceptance_length``: vllm-project/vllm@009e6d4a
    #: vllm/benchmarks/serve.py ``fetch_spec_decode_metrics`` and the result's keys; not read in 0.33.0's wheel). None:
    #: the server does not speculate, or the result does not say.
    acceptance_rate_percent: float | None = None
    mean_accepted_length: float | None = None

    def to_dict(self) -> dict:
        def rounded(values: dict) -> dict:
            return {f"p{p}": None if v is None else round(v, 1) for p, v in values.items()}

        return {"concurrency": self.concurrency, "ok": self.ok, "completed": self.completed, "failed": self.failed,
                "ttft_ms": rounded(self.ttft_ms), "itl_ms": rounded(self.itl_ms), "tpot_ms": rounded(self.tpot_ms),
                "output_tokens_per_s": None if self.output_throughput is None else round(self.output_throughput, 1),
                "duration_s": None if self.duration_s is None else round(self.duration_s, 1),
                "published": self.published,
                **({"spec_decode": {"acceptance_rate_percent": round(self.acceptance_rate_percent, 1),
                                    "mean_accepted_length": None if self.mean_accepted_length is None
                                    else round(self.mean_accepted_length, 2)}}
                   if self.acceptance_rate_percent is not None else {}),
                "problems": self.problems}


def _number(value) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def run_result(concurrency: int, result: dict) -> RunResult:
    """The figures of one run from its result JSON (the keys of vllm/benchmarks/serve.py, see the module)."""
    run = RunResult(concurrency, True)
    for metric, target in (("ttft", run.ttft_ms), ("itl", run.itl_ms), ("tpot", run.tpot_ms)):
        for p in PERCENTILES:
            target[p] = _number(result.get(f"p{p}_{metric}_ms"))
    run.output_throughput = _number(result.get("output_throughput"))
    run.acceptance_rate_percent = _number(result.get("spec_decode_acceptance_rate"))
    run.mean_accepted_length = _number(result.get("spec_decode_acceptance_length"))
    run.duration_s = _number(result.get("duration"))
    completed, failed = result.get("completed"), result.get("failed")
    run.completed = completed if isinstance(completed, int) and not isinstance(completed, bool) else None
    run.failed = failed if isinstance(failed, int) and not isinstance(failed, bool) else None
    if run.completed is None or run.failed is None:
        run.problems.append("the result has no completed/failed counts")
    elif run.failed:
        run.problems.append(f"{run.failed} of {run.completed + run.failed} requests failed (see the Job's log)")
    elif run.completed == 0:
        run.problems.append("no request completed")
    if result.get("max_concurrency") not in (None, concurrency):
        run.problems.append(f"the result is for concurrency {printable(repr(result.get('max_concurrency')), 20)}")
    if any(v is None for v in (*run.ttft_ms.values(), *run.itl_ms.values())) or run.output_throughput is None:
        run.problems.append("the result lacks TTFT, ITL or throughput figures")
    run.ok = not run.problems
    return run
