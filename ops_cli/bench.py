"""``llmops bench``: a correctness probe from where llmops runs, and a load test inside the cluster.

**The probe** (two chat completions, each a row): a question with one checkable answer (``7919 x 13``, whose product
102947 appears nowhere in the question), and a tool call with a JSON-schema'd function under ``tool_choice: "auto"``,
whose arguments are validated against that schema with jsonschema. ``auto`` and not ``required``: vLLM 0.33.0 keeps the
calls that the server's tool-call parser extracts only for ``auto`` (with ``--enable-auto-tool-choice``, which the
preset sets, ``--tool-call-parser kimi_k3``), while ``required`` and a named tool force the calls
(vllm/entrypoints/openai/chat_completion/message_assembly.py, ``keeps_tool_calls``, ``_forces_tool_calls``) by
constraining decoding to the tools' schema (vllm/tool_parsers/utils.py, ``get_json_schema_from_tools``), which would
hide a parser that returns malformed arguments: the failure clients that let the model choose would see.

The probe itself is endpoint_probe/correctness.py (standard library only: the deploy-time promotion gate's Lambda
function runs it too); here it checks the tool call's arguments with jsonschema. The figures of a load-test run are
endpoint_probe/load_test_result.py; the load test, a Kubernetes Job, is ops_cli/load_test.py.
"""

from __future__ import annotations

import functools

from endpoint_probe import correctness
from endpoint_probe.correctness import DEFAULT_PROBE_MAX_TOKENS as DEFAULT_PROBE_MAX_TOKENS
from endpoint_probe.correctness import TOOL_PARAMETERS

# --- the correctness probe: endpoint_probe/correctness.py, with jsonschema ------------------------------------------


def _schema_errors(parsed) -> list[tuple[str, str]]:
    """(where, message) of each way ``parsed`` does not satisfy the tool's parameters, with jsonschema (Draft 2020-12);
    the deploy-time check, which has no jsonschema, uses endpoint_probe.correctness.subset_errors."""
    import jsonschema  # only here, as in addon_checks.py: keeps `llmops --help` from loading it

    validator = jsonschema.Draft202012Validator(TOOL_PARAMETERS)
    return [
        ("/".join(str(p) for p in error.absolute_path) or "(the arguments)", error.message)
        for error in sorted(validator.iter_errors(parsed), key=lambda e: list(e.absolute_path))
    ]


#: Both probes of endpoint_probe.correctness.run_probe, the tool call's arguments checked with jsonschema.
run_probe = functools.partial(correctness.run_probe, schema_errors=_schema_errors)
