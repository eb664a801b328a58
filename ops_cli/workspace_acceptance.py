"""Speculative decoding's acceptance over each ``llmops bench`` run, from the environment's Prometheus workspace.

**Why.** ``vllm bench serve`` reads ``/metrics`` at its base URL before and after a run (ops_cli/load_test.py).
With two replicas or more on EKS that URL is the Service, which hands each connection to any pod (or to the router):
the two readings need not be of one server, and their difference means nothing (ops_cli/load_test_target.py
``acceptance_from_workspace``). The managed scraper writes every vLLM pod's counters into the environment's Amazon
Managed Service for Prometheus workspace (cdk_constructs/serving_metrics/), so there the run's window can be summed over
the pods.

**What is asked.** For each run, three PromQL instant queries, evaluated at the run's end over its length ``D`` (the
Job's own clock around ``vllm bench serve``, ops_cli/load_test.py ``WINDOW_MARKER``)::

    sum by (pod) (increase(vllm:spec_decode_num_accepted_tokens_total{job="vllm"}[Ds]))

and the same of ``vllm:spec_decode_num_draft_tokens_total`` and ``vllm:spec_decode_num_drafts_total`` (vLLM's counters,
cdk_constructs/serving_metrics/series.py ``SPEC_DECODE_METRICS``, which cites vLLM's vllm/v1/spec_decode/metrics.py; a
test holds the names equal). ``increase()`` handles a counter that restarts at zero when a vLLM container restarts
(Prometheus documentation, https://prometheus.io/docs/prometheus/latest/querying/functions/#increase: "Breaks in
monotonicity (such as counter resets due to target restarts) are automatically adjusted for"), and it extrapolates
from the samples inside the window to its edges (the same page), so the figures are those of the scrapes inside the
run, to within a scrape at each end. ``sum by (pod)`` adds a pod's
engines; the client adds the pods, and counts them. Acceptance rate = 100 x accepted / draft tokens; mean accepted
length = 1 + accepted / drafts (the bonus token included), as the dashboard computes them
(cdk_constructs/serving_metrics/published.py, from vLLM's own definition).

**Limits, said in the row rather than hidden.** The scraper reads every :data:`SCRAPE_INTERVAL_SECONDS` seconds (the AMP
managed collector's minimum, cdk_constructs/serving_metrics/series.py): a run shorter than two scrapes may hold fewer
than two samples of a counter, from which ``increase()`` computes nothing, so it is not measured. Like ``vllm bench
serve``'s own readings, the counters include any other traffic the pods served during the run.

**Where the workspace is.** The observability stack creates it with the alias ``<cluster>-serving``
(stacks/observability_stack.py; a test holds :func:`workspace_alias` equal to the synthesized ``AWS::APS::Workspace``).
It is found with ListWorkspaces (alias filter, a prefix: kept only when equal, and ACTIVE or UPDATING) and
DescribeWorkspace (its ``prometheusEndpoint``), botocore's ``amp`` model (2020-08-01). This works against an
observability stack deployed before this code, which a new stack output would not (it needs a redeploy first).

**How it is asked.** AMP's Prometheus-compatible query API: ``GET <prometheusEndpoint>api/v1/query`` with ``query`` and
``time`` (Unix seconds), signed with SigV4 for the service ``aps`` (AMP user guide, "Prometheus-compatible APIs",
https://docs.aws.amazon.com/prometheus/latest/userguide/AMP-APIReference-Prometheus-Compatible-APIs.html, and
"QueryMetrics", https://docs.aws.amazon.com/prometheus/latest/userguide/AMP-APIReference-QueryMetrics.html), with
botocore's SigV4Auth as the publisher does (cdk_constructs/serving_metrics/runtime/handler.py ``_signed_get``). IAM:
``aps:ListWorkspaces``, ``aps:DescribeWorkspace``, ``aps:QueryMetrics`` (Service Authorization Reference, Amazon Managed
Service for Prometheus,
https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonmanagedserviceforprometheus.html).

A failure (no workspace, no permission, an error answer) becomes each run's row, not the command's exit code: the
acceptance is reported, not checked (docs/smoke-and-load-test.md).
"""

from __future__ import annotations

import json
import math
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime

import botocore.session
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.utils import percent_encode_sequence

from deployment_config.metric_names import SCRAPE_INTERVAL_SECONDS, VLLM_JOB
from endpoint_probe.deadline import CommandTimedOut, Deadline
from endpoint_probe.errors import printable
from ops_cli.aws import Aws, botocore_session
from ops_cli.errors import OpsError
from ops_cli.load_test import BenchRun

#: The shortest run whose window surely holds two scrapes of each counter.
MIN_WINDOW_SECONDS = 2 * SCRAPE_INTERVAL_SECONDS
ACCEPTED = "vllm:spec_decode_num_accepted_tokens_total"
DRAFT_TOKENS = "vllm:spec_decode_num_draft_tokens_total"
DRAFTS = "vllm:spec_decode_num_drafts_total"
#: Workspace states whose query API answers (botocore amp model, WorkspaceStatusCode).
QUERYABLE = ("ACTIVE", "UPDATING")
QUERY_TIMEOUT_SECONDS = 10
#: The most of an answer read (three pods' vectors are a few hundred bytes).
MAX_ANSWER_BYTES = 1_000_000
WORKSPACE = "Prometheus workspace"
PERMISSIONS = "llmops needs aps:ListWorkspaces, aps:DescribeWorkspace and aps:QueryMetrics"

Get = Callable[[str, Mapping[str, str]], dict]


class QueryFailed(Exception):
    """The workspace could not be found or did not answer a query; the message says why, for the row."""


def workspace_alias(cluster_name: str) -> str:
    """The alias the observability stack gives the environment's workspace."""
    return f"{cluster_name}-serving"


def promql(counter: str, seconds: int) -> str:
    """The increase of ``counter`` over the last ``seconds`` seconds, per pod."""
    return f'sum by (pod) (increase({counter}{{job="{VLLM_JOB}"}}[{seconds}s]))'


def source(pods: int) -> str:
    return f"{WORKSPACE}, {pods} pod{'' if pods == 1 else 's'}"


def find_query_url(aws: Aws, cluster_name: str) -> str:
    """The query API of the environment's workspace (see the module); QueryFailed when there is not exactly one."""
    alias = workspace_alias(cluster_name)
    found: list[dict] = []
    for page in aws.each_page(
        "amp",
        "list_workspaces",
        f"list the Prometheus workspaces with alias {alias}",
        token_in="nextToken",
        token_out="nextToken",
        alias=alias,
    ):
        found += page.get("workspaces") or []
    usable = [
        w
        for w in found
        if w.get("alias") == alias and (w.get("status") or {}).get("statusCode") in QUERYABLE
    ]
    if not usable:
        raise QueryFailed(
            f"no active Prometheus workspace with alias {alias} in {aws.region} (the observability stack "
            "creates it: deploy it)"
        )
    if len(usable) > 1:
        ids = ", ".join(printable(str(w.get("workspaceId")), 40) for w in usable)
        raise QueryFailed(f"{len(usable)} Prometheus workspaces have the alias {alias} ({ids})")
    workspace_id = str(usable[0].get("workspaceId"))
    described = aws.call(
        "amp",
        "describe_workspace",
        f"describe the Prometheus workspace {workspace_id}",
        workspaceId=workspace_id,
    )
    endpoint = (described.get("workspace") or {}).get("prometheusEndpoint")
    if not isinstance(endpoint, str) or not endpoint:
        raise QueryFailed(f"the Prometheus workspace {workspace_id} gives no endpoint")
    return f"{endpoint.rstrip('/')}/api/v1/query"


def signed_getter(aws: Aws, deadline: Deadline) -> Get:
    """GET with SigV4 for ``aps`` in ``aws``'s region, with the credentials ``aws``'s clients use."""
    session = (
        botocore_session(aws.environ) if aws.environ is not None else botocore.session.Session()
    )
    credentials = session.get_credentials()
    if credentials is None:
        raise QueryFailed("no AWS credentials to sign the workspace query with")
    frozen = credentials.get_frozen_credentials()

    def get(url: str, params: Mapping[str, str]) -> dict:
        # SigV4's UriEncode: every byte but A-Z a-z 0-9 - . _ ~ as %XY, a space as %20, not "+" (IAM user guide,
        # "Create a signed AWS API request",
        # https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html): botocore's
        # percent_encode_sequence. urlencode's "+" would be signed as sent while the service reads it as a space.
        full = f"{url}?{percent_encode_sequence(params)}"
        request = AWSRequest(method="GET", url=full)
        SigV4Auth(frozen, "aps", aws.region).add_auth(request)
        try:
            with urllib.request.urlopen(  # noqa: S310 (the workspace's https endpoint, from DescribeWorkspace)
                urllib.request.Request(full, headers=dict(request.headers)),
                timeout=max(0.1, deadline.bound(QUERY_TIMEOUT_SECONDS)),
            ) as answer:
                body = answer.read(MAX_ANSWER_BYTES)
        except urllib.error.HTTPError as error:
            detail = printable(error.read(2000).decode("utf-8", "replace").strip(), 200)
            hint = f" ({PERMISSIONS})" if error.code in (401, 403) else ""
            raise QueryFailed(
                f"HTTP {error.code} from the workspace query API: {detail}{hint}"
            ) from None
        except (urllib.error.URLError, OSError) as error:
            raise QueryFailed(
                f"the workspace query API did not answer: {printable(str(error), 200)}"
            ) from None
        try:
            parsed = json.loads(body)
        except ValueError:
            raise QueryFailed(
                "the workspace query API answered something other than JSON"
            ) from None
        return parsed if isinstance(parsed, dict) else {}

    return get


def by_pod(answer: dict) -> dict[str, float]:
    """Each series' value of an instant vector answer, by its ``pod`` label (finite values only)."""
    if answer.get("status") != "success":
        raise QueryFailed(
            f"the query failed: {printable(str(answer.get('errorType')), 40)}: "
            f"{printable(str(answer.get('error')), 200)}"
        )
    data = answer.get("data") if isinstance(answer.get("data"), dict) else {}
    values: dict[str, float] = {}
    for i, series in enumerate(data.get("result") or []):
        if not isinstance(series, dict):
            continue
        try:
            value = float(series["value"][1])
        except (KeyError, IndexError, TypeError, ValueError):
            continue
        pod = (series.get("metric") or {}).get("pod") or f"series {i}"
        if math.isfinite(value):
            values[str(pod)] = value
    return values


def window_problem(run: BenchRun) -> str | None:
    """Why the workspace cannot measure ``run`` whatever it answers, or None."""
    if run.window is None:
        return "no window in the Job's log (the run gave no result)"
    start, end = run.window
    if end - start < MIN_WINDOW_SECONDS:
        return (
            f"the run lasted {max(end - start, 0)} s, less than two scrapes ({MIN_WINDOW_SECONDS} s, one every "
            f"{SCRAPE_INTERVAL_SECONDS} s): too short for the workspace (more --num-prompts lengthen it)"
        )
    return None


def measure_run(run: BenchRun, url: str, get: Get) -> None:
    """Fill ``run``'s acceptance from the workspace over its window (or say why not); QueryFailed when a query
    fails."""
    run.acceptance_source = WORKSPACE
    run.acceptance_problem = window_problem(run)
    if run.acceptance_problem or run.window is None:
        return
    start, end = run.window
    accepted, drafted, drafts = (
        by_pod(get(url, {"query": promql(counter, end - start), "time": str(end)}))
        for counter in (ACCEPTED, DRAFT_TOKENS, DRAFTS)
    )
    if not drafted:
        run.acceptance_problem = (
            f"the workspace has no {DRAFT_TOKENS} of job {VLLM_JOB} in the run's window (are the vLLM pods "
            "scraped? the dashboard's speculative decoding row says)"
        )
        return
    total_drafted, total_drafts = sum(drafted.values()), sum(drafts.values())
    run.acceptance_source = source(len(drafted))
    if total_drafted <= 0:
        run.acceptance_problem = "no draft tokens in the run's window"
        return
    run.acceptance_rate_percent = 100 * sum(accepted.values()) / total_drafted
    run.mean_accepted_length = (
        1 + sum(accepted.values()) / total_drafts if total_drafts > 0 else None
    )


def measure(
    runs: Sequence[BenchRun],
    aws: Aws,
    cluster_name: str,
    *,
    now: Callable[[], datetime],
    sleep: Callable[[float], None],
    deadline: Deadline,
    get: Get | None = None,
    log: Callable[[str], None] = lambda text: None,
) -> None:
    """Each run's acceptance from the workspace (see the module), or its problem. Waits until one scrape interval has
    passed since the last run ended, so that the scrape nearest its end is in the workspace (the collector's write
    delay is not documented)."""
    # What vllm bench serve read through the Service is not one server's: never shown.
    for run in runs:
        run.acceptance_rate_percent = run.mean_accepted_length = None
        run.acceptance_source, run.acceptance_problem = WORKSPACE, window_problem(run)
    measurable = [r for r in runs if r.acceptance_problem is None and r.window is not None]
    if not measurable:
        return
    settle = max(r.window[1] for r in measurable if r.window) + SCRAPE_INTERVAL_SECONDS
    settle -= now().timestamp()
    if 0 < settle:
        log(
            f"Waiting {math.ceil(settle)} s for the scrape after the last run to reach the workspace."
        )
        sleep(min(settle, deadline.remaining()))
    failure, url = None, ""
    try:
        if deadline.passed():
            raise QueryFailed(f"not asked: the command's {deadline.option} had passed")
        url = find_query_url(aws, cluster_name)
        get = get or signed_getter(aws, deadline)
    except CommandTimedOut:
        raise
    except OpsError as error:  # an AWS call failed: the message says which and why
        failure = f"{error.message} ({PERMISSIONS})"
    except QueryFailed as error:
        failure = str(error)
    for run in measurable:
        if failure is None and get is not None:
            try:
                measure_run(run, url, get)
                continue
            except QueryFailed as error:  # the next queries would fail alike: not sent
                failure = str(error)
        run.acceptance_problem = failure
