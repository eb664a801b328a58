"""llmops cost --usage: the block's fee joined with the tokens vLLM served (stubbed EC2 or SageMaker and CloudWatch
GetMetricData; the Stubber checks every request and answer against botocore's models)."""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from decimal import Decimal

import pytest

from cdk_constructs.serving_metrics import NAMESPACE, PUBLISHED_METRICS, SERVING_BUSY
from ops_cli import block_usage
from ops_cli.errors import ExitCode
from tests.ops_cli import test_cost as priced
from tests.ops_cli.conftest import NOW, StubbedAws
from tests.ops_cli.test_cost import PLAN_ARN, START, expect_reservation

#: test_cost.py's fixtures: the stubbed regional and Price List clients, the CLI runner, config/example.yaml.
stubs, run, example_env = priced.stubs, priced.run, priced.example_env

CLUSTER = "example-llm"
#: The block so far: 24 hours (it started a day before NOW and ends 10 hours after: 34 hours in all).
HOURS = [START + timedelta(hours=h) for h in range(24)]


def _series(key: str, values: list[float]) -> dict:
    stamps = [h for h, v in zip(HOURS, values) if v is not None]
    return {
        "Id": key,
        "Label": key,
        "Timestamps": stamps,
        "Values": [v for v in values if v is not None],
        "StatusCode": "Complete",
    }


def expect_metrics(
    regional: StubbedAws, *, prompt, generation, busy, served, cluster: str = CLUSTER
) -> None:
    """The four hourly series, over two pages (the first two queries, then the other two)."""
    queries = [
        {"Id": key, "MetricStat": block_usage._query(metric, stat, cluster), "ReturnData": True}
        for key, (metric, stat, _, _) in block_usage.QUERIES.items()
    ]
    params = {
        "MetricDataQueries": queries,
        "StartTime": START,
        "EndTime": NOW,
        "ScanBy": "TimestampAscending",
    }
    cloudwatch = regional.stub("cloudwatch")
    cloudwatch.add_response(
        "get_metric_data",
        {
            "MetricDataResults": [_series("prompt", prompt), _series("generation", generation)],
            "NextToken": "page-2",
        },
        params,
    )
    cloudwatch.add_response(
        "get_metric_data",
        {"MetricDataResults": [_series("busy", busy), _series("served", served)]},
        {**params, "NextToken": "page-2"},
    )


def expect_busy_day(regional: StubbedAws, cluster: str = CLUSTER) -> None:
    """2000 prompt and 500 generation tokens a second on average: each minute's rate, summed over an hour's 60 minutes,
    120,000 and 30,000 (7.2 and 1.8 million tokens an hour); a request running in 45 minutes of each hour; vLLM
    loading the weights for the first half hour."""
    expect_metrics(
        regional,
        prompt=[120_000.0] * 24,
        generation=[30_000.0] * 24,
        busy=[45.0] * 24,
        served=[30.0] + [60.0] * 23,
        cluster=cluster,
    )


def test_the_names_read_are_the_ones_the_publisher_puts():
    assert block_usage.NAMESPACE == NAMESPACE
    assert {block_usage.PROMPT_RATE, block_usage.GENERATION_RATE, block_usage.SERVING_BUSY} <= set(
        PUBLISHED_METRICS
    )
    assert block_usage.SERVING_BUSY == SERVING_BUSY


def test_given_a_busy_day_when_usage_runs_then_cost_per_million_tokens_and_idle_share_are_reported(
    stubs, run
):
    regional, _ = stubs
    expect_reservation(regional)
    expect_busy_day(regional)
    result = run("cost", "--usage", "--env", "example", "--block-fee", "91540.80", "--json")
    assert result.code == ExitCode.OK, result.stderr
    report = result.json
    # the fee's share of the 24 hours gone out of 34, over 172.8 million input and 43.2 million output tokens
    spent = Decimal("91540.80") * 24 / 34
    assert report["cost_so_far"] == str(spent.quantize(Decimal("0.01"))) == "64617.04"
    assert (report["input_tokens"], report["output_tokens"]) == (172_800_000, 43_200_000)
    assert report["cost_per_million_input_tokens"] == "373.94"
    assert report["cost_per_million_output_tokens"] == "1495.76"
    # 45 busy minutes an hour: a quarter of the block idle; the half hour of loading is counted in it
    assert report["idle_share"] == "0.250"
    assert (report["busy_minutes"], report["not_serving_minutes"]) == (1080, 30)
    assert report["block"]["hours"] == "34.0" and report["block"]["hours_so_far"] == "24.0"
    assert report["block"]["fee_source"].startswith("--block-fee")
    assert report["extension"]["verdict"] == "likely used"
    assert "the last 3.0 h were 25% idle" in report["extension"]["reason"]
    assert report["extension"]["method"].startswith("a heuristic, not a forecast")
    assert len(report["hours_detail"]) == 24


def test_the_table_names_each_figure_and_its_source(stubs, run):
    regional, _ = stubs
    expect_reservation(regional)
    expect_busy_day(regional)
    result = run("cost", "--usage", "--env", "example", "--block-fee", "91540.80")
    assert result.code == ExitCode.OK, result.stderr
    text = result.stdout
    assert "Capacity Block cr-0123456789abcdef0" in text and "24.0 h so far" in text
    rows = {line.split("  ")[0]: line for line in text.splitlines()}
    assert "64,617.04 USD" in rows["block cost so far"]
    assert "91,540.80 USD x 24.0 / 34.0 h; fee from --block-fee" in rows["block cost so far"]
    assert "172,800,000" in rows["input tokens"]
    assert "vllm:prompt_tokens_total" in rows["input tokens"]
    assert "373.94 USD" in rows["per million input tokens"]
    assert "1,495.76 USD" in rows["per million output tokens"]
    assert "25.0%" in rows["idle share"] and "not serving 30 minutes" in rows["idle share"]
    assert "Extension: likely used: the last 3.0 h were 25% idle" in text
    assert "How this is judged: a heuristic, not a forecast" in text


def test_a_block_without_traffic_is_all_idle_has_no_cost_per_token_and_would_not_use_an_extension(
    stubs, run
):
    regional, _ = stubs
    expect_reservation(regional)
    none = [None] * 24
    expect_metrics(regional, prompt=none, generation=none, busy=[0.0] * 24, served=[60.0] * 24)
    result = run("cost", "--usage", "--env", "example", "--block-fee", "91540.80", "--json")
    assert result.code == ExitCode.OK, result.stderr
    report = result.json
    assert report["input_tokens"] == report["output_tokens"] == 0
    assert report["cost_per_million_input_tokens"] is None
    assert report["idle_share"] == "1.000" and report["not_serving_minutes"] == 0
    assert report["extension"]["verdict"] == "unlikely used"


def test_the_configured_fee_is_used_without_block_fee(stubs, example_env):
    regional, _ = stubs
    expect_reservation(regional)
    expect_busy_day(regional)
    env = dataclasses.replace(
        example_env,
        observability=example_env.observability.model_copy(update={"block_fee_usd": 91540.8}),
    )
    usage = block_usage.usage_report(regional.aws("us-west-2"), env, now=NOW, block_fee=None)
    assert usage.block.fee == Decimal("91540.8")
    assert usage.block.fee_source == "observability.block_fee_usd in the configuration"
    assert usage.to_dict()["cost_so_far"] == "64617.04"


def test_on_hyperpod_the_training_plans_fee_and_dates_come_from_sagemaker(stubs, run):
    regional, _ = stubs
    regional.stub("sagemaker").add_response(
        "describe_training_plan",
        {
            "TrainingPlanArn": PLAN_ARN,
            "TrainingPlanName": "kimi-k3-example",
            "Status": "Active",
            "StartTime": START,
            "EndTime": START + timedelta(hours=48),
            "UpfrontFee": "70400.00",
            "CurrencyCode": "USD",
        },
        {"TrainingPlanName": "kimi-k3-example"},
    )
    expect_busy_day(regional, cluster="example-hyperpod-llm")
    result = run("cost", "--usage", "--env", "example-hyperpod", "--json")
    assert result.code == ExitCode.OK, result.stderr
    report = result.json
    assert report["block"]["kind"] == "training plan" and report["block"]["hours"] == "48.0"
    assert report["cost_so_far"] == "35200.00"  # half of the plan's 48 hours gone
    assert report["cost_per_million_input_tokens"] == str(
        (Decimal(35200) / Decimal("172.8")).quantize(Decimal("0.01"))
    )


def test_block_fee_is_refused_on_hyperpod(run):
    result = run("cost", "--usage", "--env", "example-hyperpod", "--block-fee", "100")
    assert result.code == ExitCode.USAGE
    assert "training plan's fee is read from SageMaker" in result.stderr


@pytest.mark.parametrize(
    "idle, verdict",
    [("0.95", "unlikely used"), ("0.7", "unclear"), ("0.2", "likely used")],
)
def test_the_extension_heuristic_reads_the_last_hours(idle, verdict):
    busy = 60 * (1 - Decimal(idle))
    hours = [
        block_usage.Hour(h, Decimal(60), busy_minutes=Decimal(60) if h < 21 else busy)
        for h in range(24)
    ]
    usage = block_usage.Usage("e", "r", None, NOW, hours)  # type: ignore[arg-type]
    extension = usage.extension()
    assert extension["verdict"] == verdict
    # the block's first 21 hours were busy: the last hours' idle share is above the block's, use is falling
    assert "use is falling" in extension["reason"]


def test_before_the_block_starts_nothing_is_read_from_cloudwatch_and_nothing_is_judged(stubs, run):
    # given a block that starts in an hour (EC2 answers; no CloudWatch answer is stubbed, so a call would fail)
    regional, _ = stubs
    regional.stub("ec2").add_response(
        "describe_capacity_reservations",
        {
            "CapacityReservations": [
                {
                    "CapacityReservationId": "cr-0123456789abcdef0",
                    "State": "scheduled",
                    "StartDate": NOW + timedelta(hours=1),
                    "EndDate": NOW + timedelta(hours=25),
                }
            ]
        },
        {"CapacityReservationIds": ["cr-0123456789abcdef0"]},
    )
    result = run("cost", "--usage", "--env", "example", "--block-fee", "91540.80", "--json")
    assert result.code == ExitCode.OK, result.stderr
    report = result.json
    assert report["cost_so_far"] == "0.00" and report["block"]["hours_so_far"] == "0.0"
    assert report["cost_per_million_input_tokens"] is None and report["idle_share"] is None
    assert report["extension"]["verdict"] == "unclear"
