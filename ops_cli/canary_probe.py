"""The probe of one canary replica: the served model's check of the smoke test (its ``/v1/models`` lists the served name
with the configured ``--model`` as its ``root``: endpoint_probe/smoke.py ``served_model``) and the correctness probe of
``llmops bench`` and of the promotion gate (the arithmetic answer and the tool call: endpoint_probe/correctness.py,
with jsonschema as ``llmops bench`` checks it: ops_cli/bench.py)."""

from __future__ import annotations

from endpoint_probe.answers import Measurement
from endpoint_probe.deadline import Deadline
from endpoint_probe.smoke import served_model
from endpoint_probe.url import ApiKey, check_url
from ops_cli.bench import run_probe
from ops_cli.errors import OpsError


def canary_problems(
    url: str,
    model: str,
    *,
    model_path: str | None,
    api_key: ApiKey | None,
    timeout: float,
    deadline: Deadline | None = None,
) -> list[str]:
    """What is wrong with the replica at ``url``: each failed check as ``MODE: problem``; empty when it passed. An
    error that would stop ``llmops bench`` (refused, unreachable, an error status) is one problem too: the canary
    fails, it does not end the command."""
    try:
        rows: list[Measurement] = [
            served_model(
                check_url(url), model, model_path, timeout, api_key=api_key, deadline=deadline
            ),
            *run_probe(url, model, timeout, api_key=api_key, deadline=deadline),
        ]
    except OpsError as error:
        return [error.message]
    return [
        f"{row.mode}: {problem}"
        for row in rows
        if not row.ok
        for problem in row.problems or ["failed"]
    ]
