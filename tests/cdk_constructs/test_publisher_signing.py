"""The serving-metrics publisher's query to the Prometheus workspace is signed the way the service checks it.

A SigV4 service decodes the query string it receives and encodes each name and value again by SigV4's rules before it
computes the signature (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html,
"canonical query string": unreserved characters as they are, every other byte as %XY, so a space is %20). botocore
signs the query string of the URL exactly as sent (botocore/auth.py ``_canonical_query_string_url``). A "+" for a space
(``urllib.parse.urlencode``'s default) is then signed as "+" while the service reads a space and signs "%20": the
signatures differ and every query with a space is refused (the same failure on EC2:
VictoriaMetrics/VictoriaMetrics#3171). The stand-in on 127.0.0.1 below checks the signature as the service does.
"""

from __future__ import annotations

import http.server
import json
import threading
import urllib.parse
from datetime import datetime
from unittest import mock

import pytest
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

from cdk_constructs.serving_metrics.runtime import handler

KEY_ID, SECRET, REGION = "AKIDSTANDIN", "stand-in-secret", "us-west-2"
#: A query of the publisher's kind: spaces, braces, quotes, a comparison.
QUERY = 'sum(vllm:num_requests_running{job="vllm"}) > bool 0'


def service_side_authorization(path: str, raw_query: str, amz_date: str, host: str) -> str:
    """The Authorization the service expects: the received query decoded, then encoded again by SigV4's rules."""
    pairs = urllib.parse.parse_qsl(raw_query, keep_blank_values=True)
    canonical = "&".join(
        f"{urllib.parse.quote(k, safe='-_.~')}={urllib.parse.quote(v, safe='-_.~')}"
        for k, v in sorted(pairs)
    )
    moment = datetime.strptime(amz_date, "%Y%m%dT%H%M%SZ")
    with mock.patch("botocore.auth.get_current_datetime", return_value=moment):
        request = AWSRequest(method="GET", url=f"http://{host}{path}?{canonical}")
        SigV4Auth(Credentials(KEY_ID, SECRET), "aps", REGION).add_auth(request)
    return request.headers["Authorization"]


@pytest.fixture
def workspace(monkeypatch):
    """A stand-in query API that answers 403 to a request whose signature the service would not accept."""
    seen: list[dict] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (http.server's name)
            path, _, raw = self.path.partition("?")
            expected = service_side_authorization(
                path, raw, self.headers["X-Amz-Date"], self.headers["Host"]
            )
            ok = self.headers["Authorization"] == expected
            seen.append({"raw_query": raw, "signature_ok": ok})
            body = (
                {"status": "success", "data": {"resultType": "vector", "result": []}}
                if ok
                else {"message": "The request signature we calculated does not match"}
            )
            data = json.dumps(body).encode()
            self.send_response(200 if ok else 403)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    for name, value in {
        "AWS_ACCESS_KEY_ID": KEY_ID,
        "AWS_SECRET_ACCESS_KEY": SECRET,
        "AWS_SESSION_TOKEN": "",
    }.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("AWS_SESSION_TOKEN")
    yield f"http://127.0.0.1:{server.server_address[1]}/workspaces/ws-1/api/v1/query", seen
    server.shutdown()
    server.server_close()


def test_a_query_with_spaces_is_signed_as_the_service_checks_it(workspace):
    url, seen = workspace
    # when the publisher queries the workspace with a PromQL expression that has spaces
    answer = handler._signed_get(url, {"query": QUERY, "time": "1764000000"}, REGION)
    # then the service's own check of the signature passes, and the space travels as %20
    assert seen == [{"raw_query": seen[0]["raw_query"], "signature_ok": True}]
    assert "%20" in seen[0]["raw_query"] and "+" not in seen[0]["raw_query"]
    assert answer["status"] == "success"
