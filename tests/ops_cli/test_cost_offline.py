"""llmops cost without AWS credentials, and --estimate: what the configuration and the vendored price table say is
printed all the same, marked with the table's date; "needs AWS" only on what AWS must answer. Nothing calls AWS: the
clients are real botocore clients with no credentials anywhere (they fail before sending), or Stubbers."""

from __future__ import annotations

import dataclasses
import io
from decimal import Decimal

import pytest

from deployment_config import load_environment
from ops_cli import cost_estimate
from ops_cli.aws import Aws
from ops_cli.cli import main
from ops_cli.context import Runtime
from ops_cli.errors import ExitCode
from tests.conftest import CONFIG_DIR
from tests.ops_cli.conftest import NOW, Result


@pytest.fixture
def run_without_credentials(tmp_path):
    environ = {
        "AWS_CONFIG_FILE": str(tmp_path / "no-config"),
        "AWS_SHARED_CREDENTIALS_FILE": str(tmp_path / "no-credentials"),
        "AWS_EC2_METADATA_DISABLED": "true",
    }

    def _run(*argv: str) -> Result:
        stdout, stderr = io.StringIO(), io.StringIO()
        runtime = Runtime(
            aws_factory=lambda region: Aws(region, environ=environ),
            stdout=stdout,
            stderr=stderr,
            environ=environ,
            sleep=lambda seconds: None,
            now=lambda: NOW,
        )
        code = main([*argv, "--config-dir", str(CONFIG_DIR)], runtime)
        return Result(code, stdout.getvalue(), stderr.getvalue())

    return _run


def test_without_credentials_cost_prints_the_counts_and_the_published_rate_and_exits_0(
    run_without_credentials,
):
    # given no AWS credentials anywhere, when cost runs for the quick start's environment
    result = run_without_credentials("cost", "--env", "example", "--json")
    # then it exits 0 with what it knows offline
    assert result.code == ExitCode.OK, result.stderr
    report = result.json
    assert report["needs_aws"].startswith("no AWS credentials")
    counts = {row["item"].split(" (")[0]: row["count"] for row in report["rows"]}
    assert counts["NAT gateway"] == 2 and counts["interface VPC endpoint x zone"] == 16
    # the block at the table's rate, with the table's date and source
    published = report["published_rate"]
    assert published["per_instance_hour"] == "112.32" and published["instances"] == 1
    assert published["per_hour"] == "112.32" and published["per_day"] == "2695.68"
    assert published["read_on"] == "2026-07-22"
    assert "https://aws.amazon.com/ec2/capacityblocks/pricing/" in published["source"]
    # the block's hours need EC2: no fee for them is made up
    assert published["block_hours"] is None and published["block_fee"] is None
    # "needs AWS" on every price the Price List gives, and no total pretending to be 0
    assert all(row["note"].startswith("needs AWS") for row in report["rows"][1:])
    assert report["total"]["per_hour"] is None and report["total"]["complete"] is False


def test_without_credentials_the_table_says_which_lines_need_aws(run_without_credentials):
    result = run_without_credentials("cost", "--env", "example")
    assert result.code == ExitCode.OK, result.stderr
    text = result.stdout
    assert text.startswith("needs AWS: no AWS credentials")
    assert "its dates: needs AWS (EC2 DescribeCapacityReservations)" in text
    assert (
        "At the published rate (from the price table of 2026-07-22): 1 x p6-b300.48xlarge x 112.32 USD per "
        "instance-hour = 112.32 USD per hour, 2,695.68 USD per day; for the block's hours: needs AWS"
        in text
    )
    assert "Total of the hourly resources: needs AWS" in text


def test_without_credentials_a_given_fee_is_shown_but_not_spread_over_unknown_hours(
    run_without_credentials,
):
    result = run_without_credentials("cost", "--env", "example", "--block-fee", "2695.68", "--json")
    assert result.code == ExitCode.OK, result.stderr
    fee_row = result.json["rows"][0]
    assert fee_row["note"].startswith("2,695.68 USD paid at purchase; per hour needs AWS")
    assert fee_row["per_hour"] is None


def test_on_hyperpod_without_credentials_the_training_plan_has_no_rate_in_the_table(
    run_without_credentials,
):
    result = run_without_credentials("cost", "--env", "example-hyperpod", "--json")
    assert result.code == ExitCode.OK, result.stderr
    published = result.json["published_rate"]
    assert published["per_hour"] is None
    assert published["absent"].startswith("no published rate in the table for a training plan")


def test_estimate_gives_the_cost_per_million_tokens_and_per_gpu_hour(run_without_credentials):
    # given 1,500 tokens per second on one p6-b300 (8 GPUs) at 112.32 USD per instance-hour
    result = run_without_credentials(
        "cost", "--estimate", "--tokens-per-second", "1500", "--env", "example", "--json"
    )
    assert result.code == ExitCode.OK, result.stderr
    answer = result.json
    # then per million tokens = 112.32 / (1500 x 3600) x 10^6, per GPU-hour = 112.32 / 8
    assert answer["per_million_tokens"] == str(
        (Decimal("112.32") / (1500 * 3600) * 1_000_000).quantize(Decimal("0.01"))
    )
    assert answer["per_million_tokens"] == "20.80" and answer["per_gpu_hour"] == "14.040"
    assert answer["read_on"] == "2026-07-22" and answer["gpus"] == 8


def test_estimate_in_words(run_without_credentials):
    result = run_without_credentials(
        "cost", "--estimate", "--tokens-per-second", "1500", "--env", "example"
    )
    assert result.code == ExitCode.OK, result.stderr
    assert "from the price table of 2026-07-22" in result.stdout
    assert "at 1,500 tokens per second: 20.80 USD per million tokens" in result.stdout


@pytest.mark.parametrize(
    "argv, said",
    [
        (["--tokens-per-second", "0"], "--tokens-per-second '0' is out of range"),
        (["--tokens-per-second", "-5"], "--tokens-per-second '-5' is not an amount"),
        (["--tokens-per-second", "1,500"], "--tokens-per-second '1,500' has a ','"),
        (["--tokens-per-second", "fast"], "--tokens-per-second 'fast' is not an amount"),
        (["--tokens-per-second", "99999999"], "is out of range"),
        ([], "--estimate needs the throughput to price"),
    ],
)
def test_a_throughput_that_is_not_one_gets_one_message_and_a_usage_exit(
    run_without_credentials, argv, said
):
    result = run_without_credentials("cost", "--estimate", *argv, "--env", "example")
    assert result.code == ExitCode.USAGE
    assert said in result.stderr and "Traceback" not in result.stderr
    assert result.stderr.count("error:") == 1


def test_a_throughput_without_estimate_is_refused(run_without_credentials):
    result = run_without_credentials("cost", "--tokens-per-second", "1500", "--env", "example")
    assert result.code == ExitCode.USAGE
    assert "--tokens-per-second is for --estimate" in result.stderr


def test_without_a_published_rate_the_estimate_says_so_and_guesses_nothing():
    # given the example environment moved to a region the table has no p6-b300 rate for
    env = dataclasses.replace(load_environment(CONFIG_DIR, "example"), region="eu-central-1")
    said = cost_estimate.estimate(env, Decimal(1500))
    assert said == (
        "no published rate in the table for p6-b300.48xlarge in eu-central-1 "
        "(https://aws.amazon.com/ec2/capacityblocks/pricing/, read 2026-07-22)"
    )
