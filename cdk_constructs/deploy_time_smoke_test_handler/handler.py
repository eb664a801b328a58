"""Lambda handlers of the deploy-time smoke test (cdk_constructs/deploy_time_smoke_test.py): the same checks as
``llmops smoke-test --env NAME``, run inside the environment's VPC while the stack is being deployed.

Three entry points:

- :func:`on_event` (the custom resource, aws-cdk-lib's Provider framework without isComplete): on Create and Update it
  starts the poller state machine with the settings, the wait condition handle's URL and the deadline; on Delete it does
  nothing.
- :func:`check` (each task of the poller, every minute): finds the endpoint's load balancer by its tags, as the destroy
  waiter and the serving metrics publisher do; once it is active and ``GET /health`` answers 200, reads the API key and
  runs :func:`ops_cli.smoke.smoke_test`, then signals the wait condition SUCCESS (with the measurements as its data) or
  FAILURE (with the smoke test's own problem lines as its reason). Past the deadline without a healthy endpoint it
  signals FAILURE with what it saw last. Returns the state with ``done``.
- :func:`report_error` (the poller's catch): an error of :func:`check` itself signals FAILURE with that error, so that
  the stack fails at once instead of when the wait condition times out.

The wait condition signal: an HTTP PUT of ``{"Status": "SUCCESS"|"FAILURE", "Reason", "UniqueId", "Data"}`` to the
handle's presigned URL, with an empty Content-Type (CloudFormation user guide, "Create wait conditions in a
CloudFormation template", "Signaling a wait condition").

With the promotion gate (``Settings.Gate``, cdk_constructs/promotion_gate.py) a passed smoke test does not signal yet:
the next poll runs the correctness probe of ``llmops bench`` (phase ``probe``), then writes the start object that the
load test's Job waits for (phase ``load-test``); the following polls wait for each run's result object, and once all
are there (or the load test's time is up) evaluate the thresholds, write ``summary.json`` and signal.

Runs on the Lambda Python runtime with its boto3; the bundle holds this file, the destroy waiter's handler (for its load
balancer lookup) and the standard-library modules of ops_cli the smoke test needs.
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Callable, Mapping
from datetime import UTC, datetime

import boto3
import botocore.exceptions
from destroy_waiters_handler import load_balancer_tags, remaining_load_balancers

from ops_cli import bench
from ops_cli.errors import THROTTLING_CODES, ExitCode, OpsError
from ops_cli.http_client import (
    ApiKey,
    BadResponse,
    TlsOptions,
    api_key_problem,
    check_url,
    exchange,
    printable,
    server_name_for,
)
from ops_cli.smoke import Measurement, smoke_test

#: Settings of TlsVerification.
VERIFY_SYSTEM = "system"  # the runtime's CA store, for TlsServerName (or the load balancer's name)
LISTENER_CERTIFICATE = "listener-certificate"  # HyperPod: exactly the certificate on the operator's ALB listener
#: A response to CloudFormation, and a wait condition's reason, should stay short; the whole text is in the log.
MAX_REASON_CHARS = 1500
MAX_DATA_CHARS = 3000
HEALTH_TIMEOUT_SECONDS = 10
#: ELBv2 DescribeLoadBalancers State.Code of a load balancer that routes traffic.
ACTIVE = "active"


def client(service_name: str):
    """The boto3 client of ``service_name``; tests replace this function."""
    return boto3.client(service_name)


# ---------------------------------------------------------------------------------------------------- settings


def settings_of(properties: Mapping) -> dict:
    """The custom resource's ``Settings`` (JSON text: CloudFormation passes every property value as a string)."""
    settings = properties.get("Settings")
    settings = json.loads(settings) if isinstance(settings, str) else settings
    missing = [key for key in ("LoadBalancerTags", "Scheme", "Port", "Model", "HealthyWithinSeconds")
               if not isinstance(settings, dict) or key not in settings]
    if missing:
        raise ValueError(f"Settings lacks {', '.join(missing)}: {settings!r}")
    load_balancer_tags({"Tags": settings["LoadBalancerTags"]})  # non-empty object, as the destroy waiter checks it
    return settings


def endpoint_url(settings: Mapping, dns_name: str) -> str:
    default = 443 if settings["Scheme"] == "https" else 80
    port = int(settings["Port"])
    return f"{settings['Scheme']}://{dns_name}" + ("" if port == default else f":{port}")


def tls_options(settings: Mapping, load_balancer: Mapping) -> TlsOptions:
    """How the endpoint's certificate is verified: by the system's CAs for ``TlsServerName`` (EKS), or against the
    certificate of the load balancer's listener (HyperPod, :func:`listener_certificate`)."""
    if settings.get("TlsVerification") == LISTENER_CERTIFICATE:
        return listener_certificate(load_balancer, int(settings["Port"]))
    return TlsOptions(server_name=settings.get("TlsServerName"))


#: AWS errors that waiting may mend (the check tries again at its next poll): throttling after botocore's own retries,
#: the service's own failures, a load balancer or certificate replaced between two calls. Any other (access denied,
#: a request AWS refuses) fails the check at once: waiting up to the startup budget would not change it.
_PASSING_CODES = THROTTLING_CODES | {"LoadBalancerNotFound", "ListenerNotFound", "ResourceNotFoundException",
                                     "InternalFailure", "ServiceUnavailable", "InternalError"}


def _may_pass(error: Exception) -> bool:
    if not isinstance(error, botocore.exceptions.ClientError):
        return True  # no answer at all (a connection or read timeout)
    status = int(error.response.get("ResponseMetadata", {}).get("HTTPStatusCode") or 0)
    return error.response.get("Error", {}).get("Code") in _PASSING_CODES or status >= 500


def listener_certificate(load_balancer: Mapping, port: int) -> TlsOptions:
    """HyperPod: trust exactly the certificate the Inference Operator attached to its ALB's HTTPS listener, read from
    the control plane (ELBv2 DescribeListeners, ACM DescribeCertificate and GetCertificate), not from the connection.

    The operator generates that certificate (self-signed: no public CA vouches for it), imports it into ACM and names
    it in its ALB Ingress's ``alb.ingress.kubernetes.io/certificate-arn`` (aws/sagemaker-hyperpod-cli@011ca92
    ``helm_chart/HyperPodHelmChart/charts/inference-operator/migration/helm_to_addon.sh``, which reads the ARNs from
    those annotations and from ``status.tlsCertificate.certificateARN``; the CRD: "Tracks imported certificates to
    ACM"). ``llmops smoke-test`` reads the same certificate from the S3 object the status names, which needs the
    cluster's private Kubernetes API; this function has only AWS's APIs. The name verified is the load balancer's own
    when the certificate covers it, else the first name it covers (ops_cli.http_client.server_name_for). A listener or
    certificate that is not there yet raises an :class:`OpsError` that the check reports while it waits.
    """
    arn = load_balancer["LoadBalancerArn"]
    name = load_balancer.get("LoadBalancerName", arn)
    try:
        listeners = client("elbv2").describe_listeners(LoadBalancerArn=arn).get("Listeners", [])
        certificate_arns = [certificate["CertificateArn"] for listener in listeners
                            if listener.get("Port") == port and listener.get("Protocol") == "HTTPS"
                            for certificate in listener.get("Certificates") or [] if certificate.get("CertificateArn")]
        if not certificate_arns:
            raise OpsError(f"load balancer {name} has no HTTPS listener with a certificate on port {port} yet",
                           "the Inference Operator adds it with the endpoint's Ingress", ExitCode.NOT_FOUND)
        certificate_arn = certificate_arns[0]  # DescribeListeners lists the listener's default certificate only
        acm = client("acm")
        description = acm.describe_certificate(CertificateArn=certificate_arn)["Certificate"]
        body = acm.get_certificate(CertificateArn=certificate_arn)
    except (botocore.exceptions.ClientError, botocore.exceptions.BotoCoreError) as error:
        raise OpsError(f"could not read the certificate of load balancer {name}'s listener on port {port}: {error}",
                       "this function's role may elasticloadbalancing:DescribeListeners, and acm:DescribeCertificate "
                       "and acm:GetCertificate on the account's certificates",
                       ExitCode.NOT_FOUND if _may_pass(error) else ExitCode.CHECK_FAILED) from None
    pem = "\n".join(part.strip() for part in (body.get("Certificate"), body.get("CertificateChain")) if part)
    if "-----BEGIN CERTIFICATE-----" not in pem:
        raise OpsError(f"ACM returned no certificate for {certificate_arn}", "check the certificate in ACM",
                       ExitCode.CHECK_FAILED)
    names = [description.get("DomainName"), *(description.get("SubjectAlternativeNames") or [])]
    names = list(dict.fromkeys(n for n in names if n))
    return TlsOptions(server_name=server_name_for(load_balancer["DNSName"], names), ca_data=pem + "\n",
                      ca_source=f"the certificate of load balancer {name}'s listener ({certificate_arn}, ACM)")


# ---------------------------------------------------------------------------------------------------- the checks


def find_load_balancer(settings: Mapping) -> tuple[dict | None, str]:
    """The load balancer carrying all the settings' tags, and what was seen (for the log and a timeout's reason)."""
    tags = load_balancer_tags({"Tags": settings["LoadBalancerTags"]})
    found = remaining_load_balancers(client("elbv2"), tags)
    if not found:
        return None, f"no load balancer tagged {json.dumps(tags, sort_keys=True)} yet"
    if len(found) > 1:
        names = ", ".join(lb.get("LoadBalancerName", "?") for lb in found)
        return None, f"{len(found)} load balancers tagged {json.dumps(tags, sort_keys=True)} ({names}): expected one"
    (load_balancer,) = found
    state = (load_balancer.get("State") or {}).get("Code", "?")
    if state != ACTIVE:
        return None, f"load balancer {load_balancer.get('LoadBalancerName', '?')} is {state}, not {ACTIVE}"
    return load_balancer, f"load balancer {load_balancer.get('LoadBalancerName', '?')} is {ACTIVE}"


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


def read_api_key(secret_id: str) -> ApiKey:
    """The environment's API key from Secrets Manager; an :class:`OpsError` names the secret, never the value."""
    try:
        value = client("secretsmanager").get_secret_value(SecretId=secret_id).get("SecretString")
    except (botocore.exceptions.ClientError, botocore.exceptions.BotoCoreError) as error:
        raise OpsError(f"could not read the API key from secret {secret_id}: {error}",
                       "this function's role may secretsmanager:GetSecretValue on exactly that secret and kms:Decrypt "
                       "through Secrets Manager; check that the serving stack created it", ExitCode.CHECK_FAILED) from None
    problem = api_key_problem(value) if isinstance(value, str) else "is not text"
    if problem:
        raise OpsError(f"the API key in secret {secret_id} {problem}", "store the key as the secret's plain text", ExitCode.USAGE)
    return ApiKey(value, f"secret {secret_id}")


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


# ---------------------------------------------------------------------------------------------------- the signal


def shortened(text: str) -> str:
    text = printable(text, 10 * MAX_REASON_CHARS)
    return text if len(text) <= MAX_REASON_CHARS else text[:MAX_REASON_CHARS] + " ... (the whole text is in the log)"


def signal(handle_url: str, *, success: bool, reason: str, data: Mapping | None = None, timeout: float = 30) -> None:
    """Signal the wait condition (the body CloudFormation documents; Content-Type empty, as its presigned URL wants)."""
    text = json.dumps(data or {}, separators=(",", ":"))
    if len(text) > MAX_DATA_CHARS:  # the problems are in the reason already; keep the measurements, as valid JSON
        text = json.dumps({**(data or {}), "requests": [{k: v for k, v in r.items() if k != "problems"}
                                                        for r in (data or {}).get("requests", [])]}, separators=(",", ":"))
    body = {"Status": "SUCCESS" if success else "FAILURE", "Reason": shortened(reason), "UniqueId": "smoke-test",
            "Data": text[:MAX_DATA_CHARS]}
    request = urllib.request.Request(handle_url, data=json.dumps(body).encode(), method="PUT",
                                     headers={"Content-Type": ""})
    with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 - the handle's https URL
        response.read()
    print(f"signalled {body['Status']}: {reason}")


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
    execution = client("stepfunctions").start_execution(stateMachineArn=properties["StateMachineArn"],
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


# ---------------------------------------------------------------------------------------------------- the promotion gate

PROBE = "probe"
LOAD_TEST = "load-test"


def gate_prefix(gate: Mapping) -> str:
    """``results/IMAGE/RUN/``: this run's objects."""
    return f"{gate['KeyPrefix']}{gate['RunId']}/"


def probe_then_start(event: Mapping, state: dict, *, now: Callable[[], float] = time.time) -> dict:
    """The correctness probe (when the gate asks for it); FAILURE with its problems, else the start object that the
    load test's Job waits for, and the load test's deadline."""
    settings, gate = event["settings"], event["settings"]["Gate"]
    url = event["url"]
    if gate.get("Correctness", True):
        try:
            api_key = read_api_key(settings["ApiKeySecret"]) if settings.get("ApiKeySecret") else None
            tls = tls_options(settings, event.get("loadBalancer") or {})
            rows = bench.run_probe(url, settings["Model"], float(settings.get("RequestTimeoutSeconds", 120)),
                                   api_key=api_key, tls=tls)
        except OpsError as error:
            reason = f"promotion gate: the correctness probe of {url} failed: {error.message}"
            signal(event["handleUrl"], success=False, reason=reason)
            return {**state, "done": True, "detail": reason}
        failed = [f"{row.mode}: {problem}" for row in rows if not row.ok for problem in (row.problems or ["FAILED"])]
        if failed:
            reason = "promotion gate FAILED the correctness probe: " + "; ".join(failed)
            signal(event["handleUrl"], success=False, reason=reason,
                   data={"probe": [{"mode": r.mode, "ok": r.ok, "answer": r.text} for r in rows]})
            return {**state, "done": True, "detail": reason}
        print("correctness probe passed: " + "; ".join(f"{r.mode}: {r.text}" for r in rows))
    key = gate_prefix(gate) + "start"
    client("s3").put_object(Bucket=gate["Bucket"], Key=key, Body=json.dumps({"url": url}).encode(),
                            ContentType="application/json")
    print(f"wrote s3://{gate['Bucket']}/{key}: the load test Job {gate.get('Job', '')} starts")
    return {**state, "done": False, "detail": "load test started", "phase": LOAD_TEST,
            "loadTestDeadline": now() + float(gate["LoadTestSeconds"])}


def _listed(bucket: str, prefix: str) -> set[str]:
    keys: set[str] = set()
    token = None
    while True:
        page = client("s3").list_objects_v2(Bucket=bucket, Prefix=prefix,
                                            **({"ContinuationToken": token} if token else {}))
        keys |= {item["Key"] for item in page.get("Contents", [])}
        token = page.get("NextContinuationToken")
        if not token:
            return keys


def evaluate_run(run: Mapping, result: Mapping | None, max_failed_requests: int) -> dict:
    """One run's figures and what fails the gate: the result's own problems (ops_cli/bench.py ``run_result``: missing
    figures, failed requests, another concurrency), then the thresholds."""
    concurrency = int(run["Concurrency"])
    if result is None:
        return {"concurrency": concurrency, "ok": False, "problems": ["no result"]}
    if "llmops_gate_failed" in result:
        return {"concurrency": concurrency, "ok": False,
                "problems": [f"{result['llmops_gate_failed']}; its output is in the Job's log"]}
    figures = bench.run_result(concurrency, dict(result))
    problems = [p for p in figures.problems if not (p.endswith("requests failed (see the Job's log)")
                                                     and figures.failed is not None
                                                     and figures.failed <= max_failed_requests)]
    ttft, rate = figures.ttft_ms.get(90), figures.output_throughput
    limit = run.get("MaxTtftP90Ms")
    if limit is not None and ttft is not None and ttft > float(limit):
        problems.append(f"TTFT p90 {ttft:.0f} ms > {float(limit):g} ms")
    floor = run.get("MinOutputTokensPerS")
    if floor is not None and rate is not None and rate < float(floor):
        problems.append(f"{rate:.1f} output tok/s < {float(floor):g}")
    # The published row of the same configuration (deployment_config/published.py), beside the measured figures; with
    # within_percent_of_published the run fails when its throughput falls further below it (the loader made sure the
    # row exists).
    published, within = run.get("Published"), run.get("WithinPercentOfPublished")
    reference = published.get("output_tokens_per_s") if published else None
    if within is not None and reference and rate is not None and rate < float(reference) * (1 - float(within) / 100):
        problems.append(f"{rate:.1f} output tok/s is more than {float(within):g} % below the published "
                        f"{float(reference):g} ({published.get('source')})")
    summary = figures.to_dict()
    summary["published"] = published
    return {**summary, "ok": not problems, "problems": problems,
            "thresholds": {"max_ttft_p90_ms": limit, "min_output_tokens_per_s": floor,
                           "within_percent_of_published": within}}


def collect_results(event: Mapping, state: dict, *, now: Callable[[], float] = time.time) -> dict:
    """Wait for every run's result object; then evaluate, write ``summary.json`` and signal."""
    gate = event["settings"]["Gate"]
    bucket, prefix = gate["Bucket"], gate_prefix(gate)
    runs = gate["Runs"]
    keys = _listed(bucket, prefix)
    missing = [run["Concurrency"] for run in runs if f"{prefix}c{run['Concurrency']}.json" not in keys]
    late = now() >= float(event["loadTestDeadline"])
    if missing and not late:
        detail = f"load test: waiting for concurrency {', '.join(map(str, missing))} (s3://{bucket}/{prefix})"
        print(detail)
        return {**state, **{k: event[k] for k in ("phase", "loadTestDeadline", "url")}, "done": False,
                "detail": detail}
    evaluated = []
    for run in runs:
        key = f"{prefix}c{run['Concurrency']}.json"
        result = None
        if key in keys:
            raw = client("s3").get_object(Bucket=bucket, Key=key)["Body"].read()
            try:
                result = json.loads(raw)
            except ValueError:
                result = {"llmops_gate_failed": "the result is not JSON"}
            result = result if isinstance(result, dict) else {"llmops_gate_failed": "the result is not a JSON object"}
        row = evaluate_run(run, result, int(gate.get("MaxFailedRequests", 0)))
        if result is None:
            row["problems"] = [f"no result within {round(float(gate['LoadTestSeconds']) / 60)} minutes (the Job "
                               f"{gate.get('Job', '')}: kubectl -n {gate.get('Job', '/').split('/')[0]} logs "
                               f"job/{gate.get('Job', '/').split('/')[-1]})"]
        evaluated.append(row)
    passed = all(row["ok"] for row in evaluated)
    summary = {"passed": passed, "runId": gate["RunId"], "results": f"s3://{bucket}/{prefix}",
               "inputLen": gate.get("InputLen"), "outputLen": gate.get("OutputLen"), "runs": evaluated}
    client("s3").put_object(Bucket=bucket, Key=prefix + "summary.json", Body=json.dumps(summary, indent=1).encode(),
                            ContentType="application/json")
    if passed:
        figures = "; ".join(f"concurrency {r['concurrency']}: TTFT p90 {r['ttft_ms'].get('p90')} ms, "
                            f"{r['output_tokens_per_s']} output tok/s" for r in evaluated)
        reason = f"promotion gate passed: {figures} (s3://{bucket}/{prefix})"
    else:
        failures = "; ".join(f"concurrency {r['concurrency']}: {', '.join(r['problems'])}"
                             for r in evaluated if not r["ok"])
        reason = f"promotion gate FAILED: {failures} (s3://{bucket}/{prefix}summary.json)"
    signal(event["handleUrl"], success=passed, reason=reason,
           data={"results": summary["results"], "passed": passed})
    return {**state, "done": True, "detail": reason}

