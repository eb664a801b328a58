"""The check function's ways out: its AWS clients and the wait condition's signal.

Tests replace :func:`client` with a botocore Stubber's client (tests/lambda_handlers.py); every module of this runtime
calls it through this module, so that one replacement covers them all.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Mapping

import boto3

from endpoint_probe.errors import printable

#: A response to CloudFormation, and a wait condition's reason, should stay short; the whole text is in the log.
MAX_REASON_CHARS = 1500
MAX_DATA_CHARS = 3000


def client(service_name: str):
    """The boto3 client of ``service_name``; tests replace this function."""
    return boto3.client(service_name)


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
