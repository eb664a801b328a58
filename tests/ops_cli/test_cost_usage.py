"""llmops cost --usage: the block's fee joined with the tokens vLLM served (stubbed EC2 or SageMaker and CloudWatch
GetMetricData; the Stubber checks every request and answer against botocore's models)."""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from decimal import Decimal

import pytest

from cdk_constructs.serving_metrics import PUBLISHED_METRICS
from deployment_config.metric_names import (
    GENERATION_TOKENS_PER_SECOND,
    PROMPT_TOKENS_PER_SECOND,
    SERVING_BUSY,
)
from ops_cli import block_usage
from ops_cli.cost_records import Block
from ops_cli.errors import ExitCode
from ops_cli.output import Table
from ops_cli.paid_periods import reservation_periods
from ops_cli.tables import usage_human
from tests.ops_cli import test_cost as priced
from tests.ops_cli.conftest import NOW, StubbedAws
from tests.ops_cli.test_cost import PLAN_ARN, RESERVATION, START, expect_reservation

#: test_cost.py's fixtures: the stubbed regional and Price List clients, the CLI runner, config/example.yaml.
stubs, run, example_env = priced.stubs, priced.run, priced.example_env

CLUSTER = "example-llm"
#: The block so far: 24 hours (it started a day before NOW and ends 10 hours after: 34 hours in all).
HOURS = [START + timedelta(hours=h) for h in range(24)]


def expect_extensions(regional: StubbedAws, ids: list[str], *extensions: dict) -> None:
    """EC2's extension history: one call for every reservation the environment names."""
    regional.stub("ec2").add_response(
        "describe_capacity_block_extension_history",
        {"CapacityBlockExtensions": list(extensions)},
        {"CapacityReservationIds": ids},
    )


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


def test_the_names_read_are_ones_the_publisher_puts():
    # the metrics llmops cost --usage reads (deployment_config/metric_names.py) are among those the publisher computes
    assert {PROMPT_TOKENS_PER_SECOND, GENERATION_TOKENS_PER_SECOND, SERVING_BUSY} <= set(
        PUBLISHED_METRICS
    )


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
    expect_extensions(regional, [RESERVATION])
    result = run("cost", "--usage", "--env", "example", "--block-fee", "91540.80", "--json")
    assert result.code == ExitCode.OK, result.stderr
    report = result.json
    assert report["cost_so_far"] == "0.00" and report["block"]["hours_so_far"] == "0.0"
    assert report["cost_per_million_input_tokens"] is None and report["idle_share"] is None
    assert report["extension"]["verdict"] == "unclear"


# --- every fee paid: the block as bought, its extensions, the next block ----------------------------------------------

NEXT = "cr-0fedcba9876543210"
FEE, NEXT_FEE = Decimal("91540.80"), Decimal("45770.40")


def _hours(hours: float) -> timedelta:
    return timedelta(hours=hours)


def _reservations(regional: StubbedAws, *blocks: tuple) -> None:
    """DescribeCapacityReservations for each block in turn (id, StartDate, EndDate[, State: active]), one call each."""
    for reservation_id, start, end, *state in blocks:
        regional.stub("ec2").add_response(
            "describe_capacity_reservations",
            {
                "CapacityReservations": [
                    {
                        "CapacityReservationId": reservation_id,
                        "State": state[0] if state else "active",
                        "StartDate": start,
                        "EndDate": end,
                    }
                ]
            },
            {"CapacityReservationIds": [reservation_id]},
        )


def _extension(reservation_id: str, start, end, status: str, fee: str) -> dict:
    return {
        "CapacityReservationId": reservation_id,
        "CapacityBlockExtensionStatus": status,
        "CapacityBlockExtensionStartDate": start,
        "CapacityBlockExtensionEndDate": end,
        "UpfrontFee": fee,
        "CurrencyCode": "USD",
    }


def _expect_use(regional: StubbedAws, start, busy: list[float | None]) -> None:
    """One page of hourly series from ``start``: per hour the busy minutes (None: vLLM not serving, no tokens);
    serving hours have 120,000 prompt and 30,000 generation tokens and 60 served minutes."""
    stamps = [start + _hours(h) for h in range(len(busy))]

    def series(key: str, value) -> dict:  # noqa: ANN001
        kept = [(t, b) for t, b in zip(stamps, busy) if b is not None]
        return {
            "Id": key,
            "Label": key,
            "Timestamps": [t for t, _ in kept],
            "Values": [value(b) for _, b in kept],
            "StatusCode": "Complete",
        }

    regional.stub("cloudwatch").add_response(
        "get_metric_data",
        {
            "MetricDataResults": [
                series("prompt", lambda b: 120_000.0),
                series("generation", lambda b: 30_000.0),
                series("busy", lambda b: b),
                series("served", lambda b: 60.0),
            ]
        },
        {
            "MetricDataQueries": [
                {
                    "Id": key,
                    "MetricStat": block_usage._query(metric, stat, CLUSTER),
                    "ReturnData": True,
                }
                for key, (metric, stat, _, _) in block_usage.QUERIES.items()
            ],
            "StartTime": start,
            "EndTime": NOW,
            "ScanBy": "TimestampAscending",
        },
    )


def _with_next(env, *, next_fee: float | None = float(NEXT_FEE)):
    return dataclasses.replace(
        env,
        capacity=env.capacity.model_copy(update={"next_capacity_reservation_id": NEXT}),
        observability=env.observability.model_copy(
            update={"block_fee_usd": float(FEE), "next_block_fee_usd": next_fee}
        ),
    )


def _cents(value: Decimal) -> str:
    return str(value.quantize(Decimal("0.01")))


def test_after_an_extension_the_blocks_fee_is_spread_over_the_block_as_bought(stubs, run):
    # given the block bought for 34 hours and extended by 24 (EC2's EndDate is the extended end), 24 hours in
    regional, _ = stubs
    end = START + _hours(34)
    _reservations(regional, (RESERVATION, START, end + _hours(24)))
    expect_extensions(
        regional,
        [RESERVATION],
        _extension(RESERVATION, end, end + _hours(24), "payment-succeeded", "60000.00"),
    )
    expect_busy_day(regional)
    result = run("cost", "--usage", "--env", "example", "--block-fee", "91540.80", "--json")
    assert result.code == ExitCode.OK, result.stderr
    report = result.json
    # then the fee is spread over the 34 hours it bought, not the 58 EndDate now spans (53,107.99 USD)
    assert report["cost_so_far"] == _cents(FEE * 24 / 34) == "64617.04"
    block, extension = report["paid_periods"]
    assert (block["kind"], block["hours"], block["fee"]) == ("block", "34.0", "91540.80")
    assert block["fee_source"].startswith("--block-fee")
    assert (extension["kind"], extension["id"], extension["hours"]) == (
        "extension",
        RESERVATION,
        "24.0",
    )
    assert extension["fee"] == "60000.00" and extension["counted"] is True
    assert extension["fee_source"].startswith("EC2 DescribeCapacityBlockExtensionHistory")
    assert report["cost_complete"] is True and report["cost_leaves_out"] == []
    # the existing keys still say what they said: the reservation as EC2 describes it
    assert report["block"]["hours"] == "58.0" and report["block"]["upfront_fee"] == "91540.80"


def test_an_extension_whose_fee_is_no_number_is_unknown_and_not_counted():
    # given a paid extension whose UpfrontFee (a string in EC2's model) is not a finite number
    block = Block(
        "Capacity Block", RESERVATION, START, START + _hours(34), FEE, "USD", "--block-fee"
    )
    extension = _extension(
        RESERVATION, block.end, block.end + _hours(24), "payment-succeeded", "NaN"
    )
    # when the paid periods are laid out
    _, period = reservation_periods("block", block, [extension], block.fee_source)
    # then its fee is unknown, said so, and not in any sum (a NaN would make every figure NaN)
    assert period.fee is None and period.currency is None and not period.counted("USD")
    assert period.fee_source == "unknown: EC2 gave no UpfrontFee"


def test_during_an_extension_its_own_fee_is_counted_and_an_unpaid_one_is_not(stubs, run):
    # given a block bought for 20 hours, 4 hours into a paid 24-hour extension, and a pending one after it
    regional, _ = stubs
    start = NOW - _hours(24)
    bought, extended = start + _hours(20), start + _hours(44)
    _reservations(regional, (RESERVATION, start, extended))
    expect_extensions(
        regional,
        [RESERVATION],
        _extension(RESERVATION, extended, extended + _hours(24), "payment-pending", "61000.00"),
        _extension(RESERVATION, bought, extended, "payment-succeeded", "60000.00"),
        _extension(RESERVATION, extended, extended + _hours(24), "payment-failed", "62000.00"),
    )
    expect_busy_day(regional)
    result = run("cost", "--usage", "--env", "example", "--block-fee", "91540.80", "--json")
    assert result.code == ExitCode.OK, result.stderr
    report = result.json
    # then the cost is the whole block as bought and 4 of the extension's 24 hours
    assert report["cost_so_far"] == _cents(FEE + Decimal(60000) * 4 / 24)
    kinds = [(p["kind"], p["fee"], p["counted"]) for p in report["paid_periods"]]
    assert kinds == [
        ("block", "91540.80", True),
        ("extension", "60000.00", True),
        ("extension", "61000.00", False),
    ]
    assert report["paid_periods"][2]["fee_source"].startswith("not counted: payment-pending")


def test_while_the_blocks_overlap_both_fees_count_and_each_minute_once(stubs, example_env):
    # given the current block (34 h, 24 gone) and the next (24 h) that started 4 hours ago, both fees configured
    regional, _ = stubs
    next_start = NOW - _hours(4)
    _reservations(
        regional,
        (RESERVATION, START, START + _hours(34)),
        (NEXT, next_start, next_start + _hours(24)),
    )
    expect_extensions(regional, [RESERVATION, NEXT])
    expect_busy_day(regional)
    usage = block_usage.usage_report(
        regional.aws("us-west-2"), _with_next(example_env), now=NOW, block_fee=None
    )
    report = usage.to_dict()
    # then both blocks are paid for the overlap's 4 hours: each fee's share is in the cost
    assert report["cost_so_far"] == _cents(FEE * 24 / 34 + NEXT_FEE * 4 / 24)
    assert [(p["kind"], p["id"]) for p in report["paid_periods"]] == [
        ("block", RESERVATION),
        ("next block", NEXT),
    ]
    assert (
        report["paid_periods"][1]["fee_source"]
        == "observability.next_block_fee_usd in the configuration"
    )
    # and the overlap's minutes count once: 24 hours, a quarter idle, as on one block
    assert report["block"]["hours_so_far"] == "24.0" and report["idle_share"] == "0.250"


def test_a_gap_between_the_blocks_is_not_paid_and_not_counted_as_idle(stubs, example_env):
    # given a 20-hour block that ended 10 hours ago and the next one, started 6 hours ago: a 4-hour gap
    regional, _ = stubs
    first = NOW - _hours(30)
    _reservations(
        regional,
        (RESERVATION, first, first + _hours(20)),
        (NEXT, NOW - _hours(6), NOW + _hours(18)),
    )
    expect_extensions(regional, [RESERVATION, NEXT])
    # 45 busy minutes in every served hour; nothing served in the gap
    _expect_use(regional, first, [45.0] * 20 + [None] * 4 + [45.0] * 6)
    usage = block_usage.usage_report(
        regional.aws("us-west-2"), _with_next(example_env), now=NOW, block_fee=None
    )
    report = usage.to_dict()
    # then the 26 paid hours are the minutes: a quarter idle (the gap's 4 hours would make it 35 %)
    assert report["block"]["hours_so_far"] == "26.0"
    assert report["idle_share"] == "0.250" and report["not_serving_minutes"] == 0
    assert report["cost_so_far"] == _cents(FEE + NEXT_FEE * 6 / 24)


def test_a_next_block_whose_payment_failed_is_listed_and_neither_its_fee_nor_its_minutes_count(
    stubs, example_env
):
    # given the next block, its fee configured, released by EC2 after its payment failed (it would overlap 4 hours)
    regional, _ = stubs
    next_start = NOW - _hours(4)
    _reservations(
        regional,
        (RESERVATION, START, START + _hours(34)),
        (NEXT, next_start, next_start + _hours(24), "payment-failed"),
    )
    expect_extensions(regional, [RESERVATION, NEXT])
    expect_busy_day(regional)
    usage = block_usage.usage_report(
        regional.aws("us-west-2"), _with_next(example_env), now=NOW, block_fee=None
    )
    report = usage.to_dict()
    # then the cost is the current block's share alone, as the publisher's BlockCostUsd
    assert report["cost_so_far"] == "64617.04" and report["cost_complete"] is True
    following = report["paid_periods"][1]
    assert (following["kind"], following["counted"]) == ("next block", False)
    assert following["fee_source"] == "not counted: the reservation is payment-failed (never paid)"


def test_a_next_block_without_its_fee_adds_nothing_and_the_report_says_so(stubs, example_env):
    regional, _ = stubs
    next_start = NOW - _hours(4)
    _reservations(
        regional,
        (RESERVATION, START, START + _hours(34)),
        (NEXT, next_start, next_start + _hours(24)),
    )
    expect_extensions(regional, [RESERVATION, NEXT])
    expect_busy_day(regional)
    env = _with_next(example_env, next_fee=None)
    usage = block_usage.usage_report(regional.aws("us-west-2"), env, now=NOW, block_fee=None)
    report = usage.to_dict()
    # then the cost is the current block's share alone, and it says what it leaves out and how to add it
    assert report["cost_so_far"] == "64617.04"
    assert report["cost_complete"] is False
    (left_out,) = report["cost_leaves_out"]
    assert left_out.startswith(f"next block {NEXT}: unknown: set observability.next_block_fee_usd")
    # the table's cost row says the same
    figures = next(part for part in usage_human(usage) if isinstance(part, Table))
    (cost_row,) = [row for row in figures.rows if row[0] == "block cost so far"]
    assert "leaves out next block" in cost_row[2]
    periods = [part for part in usage_human(usage) if isinstance(part, Table)][1]
    assert periods.headers == ("kind", "id", "start", "end", "fee", "fee source")
    assert [row[0] for row in periods.rows] == ["block", "next block"] and periods.rows[1][4] == "-"


def test_an_extension_in_another_currency_than_the_blocks_fee_is_not_added_and_said_so(stubs, run):
    # given a block fee in EUR (--currency) and an extension EC2 bills in USD, now running
    regional, _ = stubs
    start = NOW - _hours(24)
    bought, extended = start + _hours(20), start + _hours(44)
    _reservations(regional, (RESERVATION, start, extended))
    expect_extensions(
        regional,
        [RESERVATION],
        _extension(RESERVATION, bought, extended, "payment-succeeded", "60000.00"),
    )
    expect_busy_day(regional)
    result = run(
        "cost",
        "--usage",
        "--env",
        "example",
        "--block-fee",
        "91540.80",
        "--currency",
        "EUR",
        "--json",
    )
    assert result.code == ExitCode.OK, result.stderr
    report = result.json
    # then the cost is the block's alone, in EUR, and the report names what it leaves out and why
    assert report["cost_so_far"] == "91540.80" and report["cost_currency"] == "EUR"
    assert report["cost_leaves_out"] == [
        f"extension {RESERVATION}: its fee is in USD, not added to EUR"
    ]
    assert report["cost_complete"] is False


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -120_000.0])
def test_a_metric_value_that_is_negative_or_no_number_is_refused_not_summed(stubs, run, bad):
    # given CloudWatch answering one hour's served minutes with NaN, infinity or a negative count (issue 29)
    regional, _ = stubs
    expect_reservation(regional)
    expect_metrics(
        regional,
        prompt=[120_000.0] * 24,
        generation=[30_000.0] * 24,
        busy=[45.0] * 24,
        served=[60.0] * 23 + [bad],
    )
    # when the usage is asked for
    result = run("cost", "--usage", "--env", "example", "--block-fee", "91540.80")
    # then the answer is refused in one line naming the metric, exit 21, never an internal error or a sum
    assert result.code == ExitCode.UNEXPECTED_ANSWER, result.stderr
    assert f"CloudWatch answered {SERVING_BUSY} (SampleCount)" in result.stderr
    assert "a time and a finite number, 0 or more, were expected" in result.stderr
