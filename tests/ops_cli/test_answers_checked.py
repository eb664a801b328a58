"""Answers checked against what was asked (issue 29): ``handover`` uses EC2's answer only for the reservation id asked,
calls a page that is not EC2's an unexpected answer (exit 21) rather than "does not exist", and never says "ready in
time" for a next block of no instances or one that ends before it starts; ``cost --usage`` sums no negative fee, no
period that ends before it starts and no metric value that is negative or not a number. Stubbed AWS, and an EC2
stand-in on 127.0.0.1 for the answer that is not XML."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest

from ops_cli.aws import Aws
from ops_cli.cli import main
from ops_cli.context import Runtime
from ops_cli.cost_records import upfront_fee
from ops_cli.errors import ExitCode
from ops_cli.paid_periods import PaidPeriod
from tests.ops_cli.conftest import NOW
from tests.ops_cli.misbehaving_server import MisbehavingServer, response
from tests.ops_cli.test_handover import CURRENT, END, expect, reservation

HANDOVER = ("handover", "--env", "example")


def test_given_an_answer_without_dates_then_it_is_an_unexpected_answer(aws, run):
    answer = reservation(CURRENT, END - timedelta(days=2), END)
    del answer["EndDate"]
    expect(aws, CURRENT, answer)
    result = run(*HANDOVER)
    assert result.code == ExitCode.UNEXPECTED_ANSWER
    assert "has no start or end date" in result.stderr


@pytest.mark.parametrize(
    "body", [b"<html><body>Sign in to the network</body></html>", b"{not xml", b""]
)
def test_given_a_page_that_is_not_ec2_s_answer_then_it_is_unexpected_not_missing(
    tmp_path, monkeypatch, config_dir, body
):
    # given something at EC2's address that answers 200 with an HTML page, or a body that is not XML at all
    with MisbehavingServer(
        lambda request, conn: conn.send(response(200, body, content_type="text/html"))
    ) as url:
        monkeypatch.setenv("AWS_ENDPOINT_URL_EC2", url)
        environ = {
            "AWS_ENDPOINT_URL_EC2": url,
            "AWS_ACCESS_KEY_ID": "AKIDSTANDIN",
            "AWS_SECRET_ACCESS_KEY": "stand-in",
            "AWS_CONFIG_FILE": str(tmp_path / "none"),
            "AWS_SHARED_CREDENTIALS_FILE": str(tmp_path / "none"),
            "AWS_EC2_METADATA_DISABLED": "true",
        }
        stdout, stderr = io.StringIO(), io.StringIO()
        code = main(
            [*HANDOVER, "--config-dir", str(config_dir)],
            Runtime(
                aws_factory=lambda region: Aws(region, environ=environ, attempts=1),
                stdout=stdout,
                stderr=stderr,
                environ=environ,
                now=lambda: NOW,
                sleep=lambda seconds: None,
            ),
        )
    # when the handover reads the current block, then it says the answer was unexpected (exit 21), not "does not exist"
    assert code == ExitCode.UNEXPECTED_ANSWER, stderr.getvalue()
    assert "does not exist" not in stderr.getvalue() and "internal error" not in stderr.getvalue()
    assert stderr.getvalue().count("fix:") == 1


@pytest.mark.parametrize("fee", ["-91540.80", "NaN", "Infinity", "-0.01"])
def test_a_fee_that_is_negative_or_no_number_is_unknown_never_summed(fee):
    assert upfront_fee(fee) is None
    assert upfront_fee("0") == 0 and str(upfront_fee("91540.80")) == "91540.80"


def test_a_period_that_ends_before_it_starts_has_no_length_and_counts_nothing():
    backwards = PaidPeriod(
        "extension", "cr-x", NOW, NOW - timedelta(hours=2), upfront_fee("100"), "USD", "fee"
    )
    assert backwards.hours is None
    assert not backwards.counted("USD") and backwards.cost_so_far(NOW + timedelta(hours=1)) is None
