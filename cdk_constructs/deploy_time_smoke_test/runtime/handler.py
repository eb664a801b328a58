"""Lambda handlers of the deploy-time smoke test (cdk_constructs/deploy_time_smoke_test/): the same checks as
``llmops smoke-test --env NAME``, run inside the environment's VPC while the stack is being deployed.

Three entry points:

- :func:`on_event` (the custom resource, aws-cdk-lib's Provider framework without isComplete): on Create and Update it
  starts the poller state machine with the settings, the wait condition handle's URL and the deadline; on Delete it does
  nothing.
- :func:`check` (each task of the poller, every minute): finds the endpoint's load balancer by its tags, as the destroy
  waiter and the serving metrics publisher do; once it is active and ``GET /health`` answers 200, reads the API key and
  runs :func:`endpoint_probe.smoke.smoke_test`, then signals the wait condition SUCCESS (with the measurements as its data) or
  FAILURE (with the smoke test's own problem lines as its reason). Past the deadline without a healthy endpoint it
  signals FAILURE with what it saw last. Returns the state with ``done``.
- :func:`report_error` (the poller's catch): an error of :func:`check` itself signals FAILURE with that error, so that
  the stack fails at once instead of when the wait condition times out.

The wait condition signal: an HTTP PUT of ``{"Status": "SUCCESS"|"FAILURE", "Reason", "UniqueId", "Data"}`` to the
handle's presigned URL, with an empty Content-Type (CloudFormation user guide, "Create wait conditions in a
CloudFormation template", "Signaling a wait condition").

With the promotion gate (``Settings.Gate``, cdk_constructs/promotion_gate.py) a passed smoke test does not signal yet:
the polls that follow run the gate's phases (gate.py).

Runs on the Lambda Python runtime with its boto3. The bundle is the project's own files, not copies: this folder, the
destroy waiter's handler (for its load balancer lookup) and the endpoint probe (endpoint_probe/, standard library
only), at their paths in the project; the function's handler names this module by its package path
(cdk_constructs/deploy_time_smoke_test/__init__.py ``BUNDLE``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime

from cdk_constructs.deploy_time_smoke_test.runtime import aws
from cdk_constructs.deploy_time_smoke_test.runtime.aws import signal
from cdk_constructs.deploy_time_smoke_test.runtime.endpoint import (
    endpoint_url,
    find_load_balancer,
    read_api_key,
    settings_of,
    tls_options,
)
from cdk_constructs.deploy_time_smoke_test.runtime.gate import (
    LOAD_TEST,
    PROBE,
    collect_results,
    probe_then_start,
)
from endpoint_probe.answers import Measurement
from endpoint_probe.errors import BadResponse, ExitCode, OpsError
from endpoint_probe.http import exchange
from endpoint_probe.smoke import smoke_test
from endpoint_probe.url import TlsOptions, check_url

HEALTH_TIMEOUT_SECONDS = 10


# ---------------------------------------------------------------------------------------------------- the checks


def health(url: str, tls: TlsOptions) -> str | None:
    """None when ``GET /health`` answers 200, otherwise what it answered (vLLM answers 200 once its engine is ready)."""
    try:
        endpoint = check_url(url, tls=tls)
        with exchange(endpoint, "GET", "/health", what="GET /health", timeout=HEALTH_TIMEOUT_SECONDS) as response:
            if response.status == 200:
                return None
            return f"GET {url}/health answered {response.summary()}"
    except OpsError as error:
        return error.message
    except BadResponse as error:
        return f"GET {url}/health: {error}"


def problem_lines(results: list[Measurement]) -> list[str]:
    """``mode: problem`` for every problem of every failed request, as ``llmops smoke-test`` shows them."""
    return [f"{r.mode}: {problem}" for r in results if not r.ok for problem in (r.problems or ["FAILED"])]


def run_smoke_test(settings: Mapping, url: str, tls: TlsOptions) -> tuple[bool, str, dict]:
    """(passed, reason, data): the smoke test of ``llmops smoke-test --env NAME`` against ``url``."""
    try:
        api_key = read_api_key(settings["ApiKeySecret"]) if settings.get("ApiKeySecret") else None
        results = smoke_test(url, settings["Model"], max_tokens=int(settings.get("MaxTokens", 64)),
                             timeout=float(settings.get("RequestTimeoutSeconds", 120)),
                             model_path=settings.get("ModelPath"), api_key=api_key,
                             key_required=bool(settings.get("KeyRequired")),
                             key_on_every_path=bool(settings.get("KeyOnEveryPath", True)), tls=tls)
    except OpsError as error:
        return False, f"smoke test of {url} failed: {error.message}" + (f" (fix: {error.fix})" if error.fix else ""), {}
    data = {"url": url, "passed": all(r.ok for r in results), "requests": [r.to_dict() for r in results]}
    for request in data["requests"]:
        request.pop("text", None)  # the model's answer: not needed in a stack output
    if data["passed"]:
        streaming = next((r for r in results if r.mode == "streaming"), None)
        first_token = f", first token after {streaming.time_to_first_token_s:.2f} s" \
            if streaming and streaming.time_to_first_token_s is not None else ""
        return True, f"smoke test of {url} passed{first_token}", data
    return False, f"smoke test of {url} FAILED: " + "; ".join(problem_lines(results)), data


# ---------------------------------------------------------------------------------------------------- handlers


def run_id(moment: float) -> str:
    """The promotion gate's run: the UTC time the check started, ``20261201T120000Z``."""
    return datetime.fromtimestamp(moment, UTC).strftime("%Y%m%dT%H%M%SZ")


def on_event(event: Mapping, context, *, now: Callable[[], float] = time.time) -> dict:
    request_type = event["RequestType"]
    if request_type == "Delete":
        return {"PhysicalResourceId": event["PhysicalResourceId"]}  # nothing to undo
    if request_type not in ("Create", "Update"):
        raise ValueError(f"unknown RequestType {request_type!r}")
    properties = event.get("ResourceProperties", {})
    settings = settings_of(properties)
    handle_url = properties["HandleUrl"]
    gate = settings.get("Gate")
    if gate:  # where this run's results go: the Job gets the same RunId (the resource's attribute)
        settings = {**settings, "Gate": {**gate, "RunId": run_id(now()), "Bucket": properties["ResultsBucket"]}}
    state = {"settings": settings, "handleUrl": handle_url,
             "deadline": now() + float(settings["HealthyWithinSeconds"]), "done": False}
    execution = aws.client("stepfunctions").start_execution(stateMachineArn=properties["StateMachineArn"],
                                                        input=json.dumps(state))
    print(f"started {execution['executionArn']}")
    if gate:
        return {"PhysicalResourceId": execution["executionArn"], "Data": {"RunId": settings["Gate"]["RunId"]}}
    return {"PhysicalResourceId": execution["executionArn"]}


def check(event: Mapping, context, *, now: Callable[[], float] = time.time) -> dict:
    """One poll: the state with ``done`` (and ``detail``); signals the wait condition when the check is over."""
    settings = event["settings"]
    state = {key: event[key] for key in ("settings", "handleUrl", "deadline")}
    phase = event.get("phase")
    if phase == PROBE:
        return probe_then_start(event, state, now=now)
    if phase == LOAD_TEST:
        return collect_results(event, state, now=now)
    load_balancer, detail = find_load_balancer(settings)
    if load_balancer is not None:
        url = endpoint_url(settings, load_balancer["DNSName"])
        try:
            tls = tls_options(settings, load_balancer)
            if tls.ca_source:
                print(f"trusting {tls.ca_source}, for the name {tls.server_name or load_balancer['DNSName']}")
        except OpsError as error:
            if error.exit_code is not ExitCode.NOT_FOUND:  # the function's own access, or a request AWS refuses
                reason = f"the smoke test could not read the endpoint's certificate: {error.message} (fix: {error.fix})"
                signal(event["handleUrl"], success=False, reason=reason)
                return {**state, "done": True, "detail": reason}
            tls, detail = None, error.message  # a listener or certificate not there yet: wait for it, as for /health
        unhealthy = health(url, tls) if tls is not None else detail
        if unhealthy is None:
            passed, reason, data = run_smoke_test(settings, url, tls)
            if passed and settings.get("Gate"):
                print(f"{reason}; the promotion gate's correctness probe is next")
                found = {key: load_balancer[key] for key in ("LoadBalancerArn", "LoadBalancerName", "DNSName")
                         if key in load_balancer}
                return {**state, "done": False, "detail": reason, "phase": PROBE, "url": url, "loadBalancer": found}
            signal(event["handleUrl"], success=passed, reason=reason, data=data)
            return {**state, "done": True, "detail": reason}
        detail = unhealthy
    if now() >= float(event["deadline"]):
        minutes = round(float(settings["HealthyWithinSeconds"]) / 60)
        reason = (f"the endpoint did not become healthy within {minutes} minutes (the startup budget and the load "
                  f"balancer's registration): {detail}")
        signal(event["handleUrl"], success=False, reason=reason)
        return {**state, "done": True, "detail": reason}
    print(f"waiting: {detail}")
    return {**state, "done": False, "detail": detail}


def report_error(event: Mapping, context) -> dict:
    """The poller caught an error of :func:`check`: signal FAILURE with it, so that the stack does not wait for the
    wait condition's timeout."""
    error = event.get("error") or {}
    reason = f"the deploy-time smoke test failed: {error.get('Error', 'error')}: {error.get('Cause', '')}"
    signal(event["handleUrl"], success=False, reason=reason)
    return {"done": True, "detail": reason}
