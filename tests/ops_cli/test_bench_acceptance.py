"""llmops bench with two replicas on EKS: speculative decoding's acceptance over each run's window, from the environment's
Prometheus workspace (ops_cli/workspace_acceptance.py), not from ``vllm bench serve``'s /metrics readings through the
Service (which need not be of one server).

The command runs in-process with its real AWS client and signer against a stand-in for Amazon Managed Service for
Prometheus on 127.0.0.1 (AWS_ENDPOINT_URL_AMP): ListWorkspaces and DescribeWorkspace in the ``amp`` REST-JSON wire format
(botocore's amp model, 2020-08-01), and the Prometheus-compatible instant query API (``GET .../api/v1/query``, Prometheus
HTTP API answers: ``{"status": "success", "data": {"resultType": "vector", "result": [...]}}``). The Job is the fake
kubectl of tests/ops_cli/test_bench.py; the counters' values are made up."""

from __future__ import annotations

import io
import json
import os
import re
import stat
import subprocess
import urllib.parse
from datetime import datetime, timedelta
from unittest import mock

import pytest
import yaml
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

from cdk_constructs.serving_metrics import series
from endpoint_probe.deadline import Deadline
from ops_cli import load_test, workspace_acceptance
from ops_cli.aws import Aws
from ops_cli.cli import main
from ops_cli.context import Runtime
from ops_cli.errors import ExitCode
from tests.ops_cli.conftest import NOW, FakeClock, Result
from tests.ops_cli.misbehaving_server import Connection, MisbehavingServer, Request, response
from tests.ops_cli.test_bench import FakeKubectl, constructed_result

KEY_ID, SECRET, REGION = "AKIDSTANDIN", "stand-in-secret", "us-west-2"
TOKEN = "stand-in-session-token"  # temporary credentials (SSO, an assumed role) carry one
WORKSPACE_ID = "ws-00000000-1111-2222-3333-444444444444"
T = int(NOW.timestamp())
#: Each run's window on the Job's clock: 180 s, 200 s, and 40 s (less than two 30-s scrapes).
WINDOWS = {1: (T - 600, T - 420), 4: (T - 400, T - 200), 16: (T - 100, T - 60)}
#: Per run, per counter, per pod: the increase the stand-in answers.
COUNTS = {
    1: {"accepted": (300, 260), "draft_tokens": (400, 400), "drafts": (50, 50)},
    4: {"accepted": (1000, 600), "draft_tokens": (1600, 1600), "drafts": (200, 200)},
}
COUNTERS = {
    "accepted": "vllm:spec_decode_num_accepted_tokens_total",
    "draft_tokens": "vllm:spec_decode_num_draft_tokens_total",
    "drafts": "vllm:spec_decode_num_drafts_total",
}
PODS = ("vllm-6d9f7c-abcde", "vllm-6d9f7c-fghij")


def expected_query(counter: str, seconds: int) -> str:
    return f'sum by (pod) (increase({counter}{{job="vllm"}}[{seconds}s]))'


class ApsStandIn:
    """ListWorkspaces, DescribeWorkspace and the query API of one workspace; records every request."""

    def __init__(
        self,
        *,
        query_status: int = 200,
        list_status: int = 200,
        workspaces: list[dict] | None = None,
    ) -> None:
        self.query_status, self.list_status = query_status, list_status
        self.workspaces = workspaces
        self.requests: list[Request] = []

    def queries(self) -> list[Request]:
        return [r for r in self.requests if "/api/v1/query" in r.path]

    def __call__(self, request: Request, conn: Connection) -> None:
        self.requests.append(request)
        path, _, query = request.path.partition("?")
        params = dict(urllib.parse.parse_qsl(query))
        alias = "example-llm-serving"
        summary = {
            "workspaceId": WORKSPACE_ID,
            "alias": alias,
            "arn": f"arn:aws:aps:{REGION}:123456789012:workspace/{WORKSPACE_ID}",
            "status": {"statusCode": "ACTIVE"},
            "createdAt": 1764000000,
        }
        if path == "/workspaces" and self.list_status != 200:
            body = b'{"message": "User: arn:aws:iam::123456789012:user/ops is not authorized to perform: aps:ListWorkspaces"}'
            conn.send(
                response(
                    self.list_status, body, headers={"x-amzn-ErrorType": "AccessDeniedException"}
                )
            )
            return
        if path == "/workspaces":
            answer = {"workspaces": self.workspaces if self.workspaces is not None else [summary]}
        elif path == f"/workspaces/{WORKSPACE_ID}":
            endpoint = f"http://{request.headers['host']}/workspaces/{WORKSPACE_ID}/"
            answer = {"workspace": {**summary, "prometheusEndpoint": endpoint}}
        elif path == f"/workspaces/{WORKSPACE_ID}/api/v1/query":
            if self.query_status != 200:
                body = b'{"message":"User: arn:aws:iam::123456789012:user/ops is not authorized to perform: aps:QueryMetrics"}'
                conn.send(response(self.query_status, body))
                return
            answer = self._vector(params)
        else:
            conn.send(response(404, b'{"message": "not found"}'))
            return
        conn.send(response(200, json.dumps(answer).encode()))

    @staticmethod
    def _vector(params: dict) -> dict:
        for concurrency, (start, end) in WINDOWS.items():
            for name, counter in COUNTERS.items():
                if params == {"query": expected_query(counter, end - start), "time": str(end)}:
                    values = COUNTS[concurrency][name]
                    result = [
                        {"metric": {"pod": pod}, "value": [end, str(v)]}
                        for pod, v in zip(PODS, values, strict=True)
                    ]
                    return {"status": "success", "data": {"resultType": "vector", "result": result}}
        return {"status": "error", "errorType": "bad_data", "error": f"unexpected {params}"}


def expected_authorization(url: str, amz_date: str) -> str:
    """What botocore's SigV4 for ``aps`` in the region, with the stand-in credentials, puts on a GET of ``url`` at
    ``amz_date``: the request the stand-in received must carry exactly this."""
    moment = datetime.strptime(amz_date, "%Y%m%dT%H%M%SZ")
    with mock.patch("botocore.auth.get_current_datetime", return_value=moment):
        request = AWSRequest(method="GET", url=url)
        SigV4Auth(Credentials(KEY_ID, SECRET, TOKEN), "aps", REGION).add_auth(request)
    return request.headers["Authorization"]


def two_replicas_with_spec_decoding(config_dir) -> None:
    path = config_dir / "example.yaml"
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    document["model"]["features"] = ["spec_decoding"]
    document["model"]["speculator_size_gb"] = 8
    document["capacity"]["instance_count"] = 2
    path.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")


def job_log(*concurrencies: int) -> str:
    """Each run's result (with the acceptance ``vllm bench serve`` read through the Service, which must not be shown)
    and its window."""
    lines = []
    for c in concurrencies:
        result = constructed_result(c) | {"spec_decode_acceptance_rate": 99.0}
        lines.append(f"{load_test.RESULT_MARKER} {c} {json.dumps(result)}")
        lines.append(f"{load_test.WINDOW_MARKER} {c} {WINDOWS[c][0]} {WINDOWS[c][1]}")
    return "\n".join(lines) + "\n"


@pytest.fixture
def bench(monkeypatch, tmp_path, config_dir):
    """``bench(stand_in, *argv)``: llmops bench in-process, the fake kubectl, its AWS client the real one pointed at
    the stand-in; no credentials or config files of the machine are read."""
    two_replicas_with_spec_decoding(config_dir)

    def run(stand_in: ApsStandIn, *argv: str) -> tuple[Result, FakeClock]:
        clock = FakeClock()
        with MisbehavingServer(stand_in) as url:
            monkeypatch.setenv("AWS_ENDPOINT_URL_AMP", url)  # botocore reads it from os.environ
            environ = {
                "AWS_ENDPOINT_URL_AMP": url,
                "AWS_ACCESS_KEY_ID": KEY_ID,
                "AWS_SECRET_ACCESS_KEY": SECRET,
                "AWS_SESSION_TOKEN": TOKEN,
                "AWS_CONFIG_FILE": str(tmp_path / "no-config"),
                "AWS_SHARED_CREDENTIALS_FILE": str(tmp_path / "no-credentials"),
                "AWS_EC2_METADATA_DISABLED": "true",
            }
            stdout, stderr = io.StringIO(), io.StringIO()
            runtime = Runtime(
                aws_factory=lambda region: Aws(region, environ=environ, read_timeout=5),
                stdout=stdout,
                stderr=stderr,
                environ=environ,
                clock=clock,
                sleep=clock.sleep,
                now=lambda: NOW,
                run_command=FakeKubectl(job_log(1, 4, 16)),
            )
            argv = ("bench", "--env", "example", "--skip-probe", *argv)
            code = main([*argv, "--config-dir", str(config_dir)], runtime)
        return Result(code, stdout.getvalue(), stderr.getvalue()), clock

    return run


def test_two_replicas_sum_the_pods_counters_over_each_runs_window(bench):
    # given two replicas with speculative decoding, and a Job whose runs lasted 180 s, 200 s and 40 s
    stand_in = ApsStandIn()
    # when the load test runs
    result, _ = bench(stand_in, "--json")
    # then the runs pass, and each long enough run has the acceptance summed over both pods from the workspace
    assert result.code == ExitCode.OK, result.stderr
    one, four, sixteen = (r["spec_decode"] for r in result.json["load_test"]["runs"])
    assert one == {
        "acceptance_rate_percent": 70.0,  # (300 + 260) / (400 + 400)
        "mean_accepted_length": 6.6,  # 1 + 560 / 100
        "source": "Prometheus workspace, 2 pods",
        "problem": None,
    }
    assert (four["acceptance_rate_percent"], four["mean_accepted_length"]) == (50.0, 5.0)
    # the run shorter than two scrapes is not measured, and says so instead of printing a number
    assert sixteen["acceptance_rate_percent"] is None and sixteen["mean_accepted_length"] is None
    assert "lasted 40 s, less than two scrapes (60 s" in sixteen["problem"]
    # what vllm bench serve read through the Service (99 %) is shown nowhere
    assert "99.0" not in result.stdout


def test_each_query_is_sigv4_signed_for_aps_with_the_exact_promql_and_time(bench):
    stand_in = ApsStandIn()
    result, _ = bench(stand_in, "--json")
    assert result.code == ExitCode.OK, result.stderr
    # the workspace is found by the observability stack's alias
    listed = urllib.parse.parse_qs(stand_in.requests[0].path.partition("?")[2])
    assert stand_in.requests[0].path.startswith("/workspaces?") and listed["alias"] == [
        "example-llm-serving"
    ]
    # three queries per measured run, none for the 40-s run, each at the run's end over its length
    sent = [dict(urllib.parse.parse_qsl(q.path.partition("?")[2])) for q in stand_in.queries()]
    assert sent == [
        {"query": expected_query(counter, end - start), "time": str(end)}
        for start, end in (WINDOWS[1], WINDOWS[4])
        for counter in COUNTERS.values()
    ]
    for query in stand_in.queries():
        # SigV4's encoding of the query string: a space as %20, never "+" (which the service reads as a space)
        assert "%20" in query.path and "+" not in query.path
        authorization = query.headers["authorization"]
        assert re.match(
            rf"AWS4-HMAC-SHA256 Credential={KEY_ID}/\d{{8}}/{REGION}/aps/aws4_request, ",
            authorization,
        )
        assert query.headers["x-amz-security-token"] == TOKEN
        url = f"http://{query.headers['host']}{query.path}"
        assert authorization == expected_authorization(url, query.headers["x-amz-date"])


def test_the_table_says_where_each_figure_came_from(bench):
    result, _ = bench(ApsStandIn())
    assert result.code == ExitCode.OK, result.stderr
    lines = result.stdout.splitlines()
    header = next(i for i, line in enumerate(lines) if "draft tokens accepted" in line)
    one, four, sixteen = lines[header + 2 : header + 5]
    assert one.split()[:5] == ["1", "70.0", "%", "6.60", "tokens/step"]
    assert four.split()[:5] == ["4", "50.0", "%", "5.00", "tokens/step"]
    assert one.endswith("Prometheus workspace, 2 pods") and four.endswith(
        "Prometheus workspace, 2 pods"
    )
    assert sixteen.split()[:3] == ["16", "-", "-"]
    assert (
        "Prometheus workspace: not measured: the run lasted 40 s, less than two scrapes" in sixteen
    )
    assert "Bench passed." in result.stdout


@pytest.mark.parametrize(
    "stand_in, problem",
    [
        (ApsStandIn(query_status=403), "HTTP 403 from the workspace query API"),
        (
            ApsStandIn(
                workspaces=[
                    {
                        "workspaceId": "ws-old",
                        "alias": "example-llm-serving",
                        "arn": "arn:aws:aps:us-west-2:123456789012:workspace/ws-old",
                        "status": {"statusCode": "DELETING"},
                        "createdAt": 1764000000,
                    },
                    {
                        "workspaceId": "ws-other",
                        "alias": "example-llm-serving-old",
                        "arn": "arn:aws:aps:us-west-2:123456789012:workspace/ws-other",
                        "status": {"statusCode": "ACTIVE"},
                        "createdAt": 1764000000,
                    },
                ]
            ),
            "no active Prometheus workspace with alias example-llm-serving in us-west-2",
        ),
        (
            ApsStandIn(list_status=403),
            "access denied while trying to list the Prometheus workspaces",
        ),
    ],
    ids=["query-refused", "no-workspace", "list-refused"],
)
def test_a_workspace_that_cannot_be_queried_is_a_clear_row_and_the_runs_still_pass(
    bench, stand_in, problem
):
    result, _ = bench(stand_in, "--json")
    # the acceptance is reported, not checked: the runs passed, so does the command
    assert result.code == ExitCode.OK, result.stderr
    one, four, sixteen = (r["spec_decode"] for r in result.json["load_test"]["runs"])
    for row in (one, four):
        assert row["acceptance_rate_percent"] is None and problem in row["problem"]
    if 403 in (
        stand_in.query_status,
        stand_in.list_status,
    ):  # refused: the row says what llmops needs
        assert (
            "(llmops needs aps:ListWorkspaces, aps:DescribeWorkspace and aps:QueryMetrics)"
            in one["problem"]
        )
    assert "less than two scrapes" in sixteen["problem"]
    # after a refused query no more are sent
    assert len(stand_in.queries()) == (1 if stand_in.query_status != 200 else 0)


def test_it_waits_until_the_scrape_after_the_last_run_can_have_reached_the_workspace():
    run = load_test.BenchRun(1, True, window=(T - 130, T - 10))
    sleeps: list[float] = []
    asked: list[dict] = []

    def get(url: str, params) -> dict:
        asked.append(dict(params))
        pod = {"metric": {"pod": "p"}, "value": [0, "10"]}
        return {"status": "success", "data": {"resultType": "vector", "result": [pod]}}

    aws = mock.Mock(region=REGION)
    with mock.patch.object(
        workspace_acceptance, "find_query_url", return_value="https://x/api/v1/query"
    ):
        workspace_acceptance.measure(
            [run], aws, "c", now=lambda: NOW, sleep=sleeps.append, deadline=Deadline(None), get=get
        )
    # the run ended 10 s ago: 20 s more, so that one scrape interval (30 s) has passed since
    assert sleeps == [20] and len(asked) == 3
    assert (
        run.acceptance_rate_percent == 100.0
        and run.acceptance_source == "Prometheus workspace, 1 pod"
    )


def test_the_job_prints_each_runs_window_on_its_own_clock(tmp_path, default_env):
    # given the Job's script, with a stand-in `vllm` on PATH that writes a result as vllm bench serve does
    plan = load_test.plan_for(
        default_env,
        base_url="http://vllm.llm-serving:8000",
        job_name="llmops-bench-test",
        concurrencies=(1, 4),
        input_len=64,
        output_len=8,
        num_prompts=None,
        seed=1,
        deadline_seconds=600,
    )
    results = tmp_path / "results"
    results.mkdir()
    vllm = tmp_path / "bin" / "vllm"
    vllm.parent.mkdir()
    vllm.write_text(
        "#!/bin/sh\n"
        'while [ $# -gt 0 ]; do case "$1" in --max-concurrency) c=$2;; --result-filename) f=$2;; esac; shift; done\n'
        f'printf \'{{"completed": 10, "failed": 0, "max_concurrency": %s}}\' "$c" > {results}/"$f"\n'
    )
    vllm.chmod(vllm.stat().st_mode | stat.S_IEXEC)
    script = plan.script().replace(f"{load_test.RESULT_DIR}/", f"{results}/")
    before = int(datetime.now().timestamp())
    # when it runs
    out = subprocess.run(
        ["/bin/sh", "-c", script],
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "PATH": f"{vllm.parent}:{os.environ['PATH']}"},
        check=True,
    )
    after = int((datetime.now() + timedelta(seconds=1)).timestamp())
    # then each run's window is read back from its log, on the clock of the machine that ran it
    runs = load_test.parse_log(out.stdout, plan.concurrencies)
    assert [r.concurrency for r in runs] == [1, 4]
    for run in runs:
        assert run.window is not None and before <= run.window[0] <= run.window[1] <= after


def test_a_malformed_window_line_gives_no_window():
    log = (
        f"{load_test.RESULT_MARKER} 1 {json.dumps(constructed_result(1))}\n"
        f"{load_test.WINDOW_MARKER} 1  170\n"  # `date` printed nothing for the start
    )
    (run,) = load_test.parse_log(log, (1,))
    assert run.ok and run.window is None
    workspace_acceptance.measure_run(run, "https://x", get=None)  # type: ignore[arg-type]
    assert "no window" in run.acceptance_problem


def test_the_counters_are_the_scrapers():
    # the counters of the scraper and the publisher's queries (cdk_constructs/serving_metrics/series.py; the job and
    # the interval are deployment_config/metric_names.py's); the workspace's alias is held equal to the synthesized
    # stack's in tests/stacks/test_bench_workspace_alias.py
    assert (
        set(COUNTERS.values())
        == set(series.SPEC_DECODE_METRICS)
        == {
            workspace_acceptance.ACCEPTED,
            workspace_acceptance.DRAFT_TOKENS,
            workspace_acceptance.DRAFTS,
        }
    )
