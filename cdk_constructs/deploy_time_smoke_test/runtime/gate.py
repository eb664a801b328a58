"""The promotion gate's phases of the check (``Settings.Gate``, cdk_constructs/promotion_gate.py): after a passed smoke
test, the correctness probe of ``llmops bench`` (phase ``probe``), then the start object that the load test's Job
waits for (phase ``load-test``); the following polls wait for each run's result object, and once all are there (or
the load test's time is up) evaluate the thresholds, write ``summary.json`` and signal.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping

from cdk_constructs.deploy_time_smoke_test.runtime import aws
from cdk_constructs.deploy_time_smoke_test.runtime.aws import signal
from cdk_constructs.deploy_time_smoke_test.runtime.endpoint import read_api_key, tls_options
from endpoint_probe.correctness import run_probe
from endpoint_probe.errors import OpsError
from endpoint_probe.load_test_result import run_result

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
            rows = run_probe(url, settings["Model"], float(settings.get("RequestTimeoutSeconds", 120)),
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
    aws.client("s3").put_object(Bucket=gate["Bucket"], Key=key, Body=json.dumps({"url": url}).encode(),
                            ContentType="application/json")
    print(f"wrote s3://{gate['Bucket']}/{key}: the load test Job {gate.get('Job', '')} starts")
    return {**state, "done": False, "detail": "load test started", "phase": LOAD_TEST,
            "loadTestDeadline": now() + float(gate["LoadTestSeconds"])}


def _listed(bucket: str, prefix: str) -> set[str]:
    keys: set[str] = set()
    token = None
    while True:
        page = aws.client("s3").list_objects_v2(Bucket=bucket, Prefix=prefix,
                                            **({"ContinuationToken": token} if token else {}))
        keys |= {item["Key"] for item in page.get("Contents", [])}
        token = page.get("NextContinuationToken")
        if not token:
            return keys


def evaluate_run(run: Mapping, result: Mapping | None, max_failed_requests: int, replicas: int = 1) -> dict:
    """One run's figures and what fails the gate: the result's own problems (endpoint_probe/load_test_result.py
    ``run_result``: missing figures, failed requests, another concurrency), then the thresholds."""
    concurrency = int(run["Concurrency"])
    if result is None:
        return {"concurrency": concurrency, "ok": False, "problems": ["no result"]}
    if "llmops_gate_failed" in result:
        return {"concurrency": concurrency, "ok": False,
                "problems": [f"{result['llmops_gate_failed']}; its output is in the Job's log"]}
    figures = run_result(concurrency, dict(result))
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
    if replicas > 1 and summary.pop("spec_decode", None) is not None:
        # vllm bench serve's /metrics readings before and after went through the Service: not one server's
        summary["spec_decode_not_measured"] = (f"{replicas} replicas: /metrics before and after the run need not be of "
                                               "one server; llmops bench reads the acceptance from the workspace")
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
            raw = aws.client("s3").get_object(Bucket=bucket, Key=key)["Body"].read()
            try:
                result = json.loads(raw)
            except ValueError:
                result = {"llmops_gate_failed": "the result is not JSON"}
            result = result if isinstance(result, dict) else {"llmops_gate_failed": "the result is not a JSON object"}
        row = evaluate_run(run, result, int(gate.get("MaxFailedRequests", 0)), int(gate.get("Replicas", 1)))
        if result is None:
            row["problems"] = [f"no result within {round(float(gate['LoadTestSeconds']) / 60)} minutes (the Job "
                               f"{gate.get('Job', '')}: kubectl -n {gate.get('Job', '/').split('/')[0]} logs "
                               f"job/{gate.get('Job', '/').split('/')[-1]})"]
        evaluated.append(row)
    passed = all(row["ok"] for row in evaluated)
    summary = {"passed": passed, "runId": gate["RunId"], "results": f"s3://{bucket}/{prefix}",
               "inputLen": gate.get("InputLen"), "outputLen": gate.get("OutputLen"), "runs": evaluated}
    aws.client("s3").put_object(Bucket=bucket, Key=prefix + "summary.json", Body=json.dumps(summary, indent=1).encode(),
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
