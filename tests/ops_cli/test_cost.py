"""llmops cost: the environment's billable resources, priced by the AWS Price List Query API (stubbed pricing in
us-east-1, EC2 or SageMaker in the environment's region; the Stubber checks every request against botocore's models)."""

from __future__ import annotations

import dataclasses
import io
import json
from datetime import timedelta
from decimal import Decimal

import pytest

from deployment_config import load_environment
from ops_cli import cost, cost_inventory
from ops_cli.cli import main
from ops_cli.context import Runtime
from ops_cli.errors import ExitCode
from ops_cli.price_list import PriceQuery
from tests.conftest import CONFIG_DIR
from tests.ops_cli.conftest import NOW, Result, StubbedAws

RESERVATION = "cr-0123456789abcdef0"  # config/example.yaml's
PLAN_ARN = "arn:aws:sagemaker:us-west-2:123456789012:training-plan/kimi-k3-example"  # config/example-hyperpod.yaml's
#: The block started a day ago and ends in 10 hours: 34 hours in all.
START, END = NOW - timedelta(hours=24), NOW + timedelta(hours=10)

#: Hourly prices the stubbed Price List answers with (made up for the test, not AWS's).
PRICES = {
    "m7i.xlarge": "0.2016",
    "eks": "0.10",
    "nat": "0.045",
    "ipv4": "0.005",
    "endpoint": "0.01",
    "nlb": "0.0225",
    "alb": "0.0225",
}


@pytest.fixture
def stubs():
    regional, pricing = StubbedAws("us-west-2"), StubbedAws("us-east-1")
    try:
        yield regional, pricing
        regional.assert_all_used()
        pricing.assert_all_used()
    finally:
        regional.deactivate()
        pricing.deactivate()


@pytest.fixture
def run(stubs):
    regional, pricing = stubs

    def _run(*argv: str) -> Result:
        stdout, stderr = io.StringIO(), io.StringIO()
        factory = {"us-west-2": regional, "us-east-1": pricing}
        runtime = Runtime(
            aws_factory=lambda region: factory[region].aws(region),
            stdout=stdout,
            stderr=stderr,
            environ={},
            sleep=lambda seconds: None,
            now=lambda: NOW,
        )
        code = main([*argv, "--config-dir", str(CONFIG_DIR)], runtime)
        return Result(code, stdout.getvalue(), stderr.getvalue())

    return _run


def product(sku: str, usage_type: str, price: str, unit: str = "Hrs") -> str:
    """One PriceList item as the API returns it: a JSON string."""
    return json.dumps(
        {
            "product": {
                "sku": sku,
                "productFamily": "x",
                "attributes": {"usagetype": usage_type, "regionCode": "us-west-2"},
            },
            "serviceCode": "x",
            "publicationDate": "2026-11-01T00:00:00Z",
            "version": "20261101000000",
            "terms": {
                "OnDemand": {
                    f"{sku}.JRTCKXETXF": {
                        "offerTermCode": "JRTCKXETXF",
                        "sku": sku,
                        "effectiveDate": "2026-11-01T00:00:00Z",
                        "priceDimensions": {
                            f"{sku}.JRTCKXETXF.6YS6EN2CT7": {
                                "unit": unit,
                                "pricePerUnit": {"USD": price},
                                "description": f"{usage_type} at {price} per {unit}",
                                "beginRange": "0",
                                "endRange": "Inf",
                                "rateCode": f"{sku}.JRTCKXETXF.6YS6EN2CT7",
                            }
                        },
                    }
                }
            },
        }
    )


def expect_products(
    pricing: StubbedAws, query: PriceQuery, items: list[str], pages: int = 1
) -> None:
    """``items`` over ``pages`` pages, the request checked field by field."""
    size = max(1, -(-len(items) // pages))
    chunks = [items[i : i + size] for i in range(0, len(items), size)] or [[]]
    for index, chunk in enumerate(chunks):
        params = query.params() | ({"NextToken": f"page-{index}"} if index else {})
        response = {"FormatVersion": "aws_v1", "PriceList": chunk}
        if index + 1 < len(chunks):
            response["NextToken"] = f"page-{index + 1}"
        pricing.stub("pricing").add_response("get_products", response, params)


def expect_all_prices(
    pricing: StubbedAws, env, *, nat_items: list[str] | None = None, load_balancer: str = "nlb"
) -> None:
    rows = cost_inventory.billable_rows(env)
    answers = [
        [
            product("SYSNODE", "USW2-BoxUsage:m7i.xlarge", PRICES["m7i.xlarge"]),
            product("SYSNODE-CR", "USW2-Reservation:m7i.xlarge", "0.2016"),
        ],  # another usage type: not this product
        [
            product("EKSSTD", "USW2-AmazonEKS-Hours:perCluster", PRICES["eks"]),
            product("EKSEXT", "USW2-AmazonEKS-Hours:extendedSupport", "0.60"),
        ],
        nat_items
        if nat_items is not None
        else [
            product("NATHOURS", "USW2-NatGateway-Hours", PRICES["nat"]),
            product("NATBYTES", "USW2-NatGateway-Bytes", "0.045", unit="GB"),
        ],
        [
            product("IPV4", "USW2-PublicIPv4:InUseAddress", PRICES["ipv4"]),
            product("IPV4IDLE", "USW2-PublicIPv4:IdleAddress", "0.005"),
        ],  # an idle address is another product
        [product("VPCE", "USW2-VpcEndpoint-Hours", PRICES["endpoint"])],
        [
            product("LB", "USW2-LoadBalancerUsage", PRICES[load_balancer]),
            product("LCU", "USW2-LCUUsage", "0.006", "LCU-Hrs"),
        ],
    ]
    for row, items in zip(rows, answers, strict=True):
        expect_products(pricing, row.query, items, pages=2 if len(items) > 1 else 1)


def expect_reservation(regional: StubbedAws, *, history: bool = True) -> None:
    """config/example.yaml's block, START to END, never extended (its extension history is read only to price a fee:
    ``history``)."""
    regional.stub("ec2").add_response(
        "describe_capacity_reservations",
        {
            "CapacityReservations": [
                {
                    "CapacityReservationId": RESERVATION,
                    "InstanceType": "p6-b300.48xlarge",
                    "AvailabilityZone": "us-west-2a",
                    "TotalInstanceCount": 1,
                    "State": "active",
                    "StartDate": START,
                    "EndDate": END,
                    "ReservationType": "capacity-block",
                }
            ]
        },
        {"CapacityReservationIds": [RESERVATION]},
    )
    if not history:
        return
    # never extended: EC2's extension history is empty
    regional.stub("ec2").add_response(
        "describe_capacity_block_extension_history",
        {"CapacityBlockExtensions": []},
        {"CapacityReservationIds": [RESERVATION]},
    )


@pytest.fixture(scope="module")
def example_env():
    return load_environment(CONFIG_DIR, "example")


@pytest.fixture(scope="module")
def hyperpod_example_env():
    return load_environment(CONFIG_DIR, "example-hyperpod")


def test_the_counts_are_the_ones_the_network_stack_builds(example_env):
    from stacks.network_stack import INTERFACE_ENDPOINTS

    rows = {row.item.split(" (")[0]: row.count for row in cost_inventory.billable_rows(example_env)}
    assert rows["NAT gateway"] == len(example_env.availability_zones) == 2
    assert rows["interface VPC endpoint x zone"] == len(INTERFACE_ENDPOINTS) * 2 == 16
    assert rows["EC2 m7i.xlarge system node"] == 2
    assert rows["EKS cluster"] == rows["Network Load Balancer"] == 1
    # one public IPv4 address per NAT gateway, priced per hour like the gateway itself
    assert rows["public IPv4 address"] == 2
    # the access host only when access is on
    assert not any("access host" in item for item in rows)


def test_with_access_on_the_host_and_its_volume_are_counted(example_env):
    from deployment_config.sections.access import AccessSection

    env = dataclasses.replace(example_env, access=AccessSection(enabled=True))
    (host,) = [row for row in cost_inventory.billable_rows(env) if row.kind == "access-host"]
    assert host.item == "EC2 t3.medium access host (On-Demand)" and host.count == 1
    assert host.query.usage_type == "BoxUsage:t3.medium"
    assert (
        "1 x 20 GiB gp3 (root volume of the t3.medium access host)"
        in cost_inventory.ebs_volumes(env)
    )


def test_given_every_price_when_cost_runs_then_each_row_and_the_totals_are_priced_for_the_rest_of_the_block(
    stubs, run, example_env
):
    regional, pricing = stubs
    expect_reservation(regional)
    expect_all_prices(pricing, example_env)
    result = run("cost", "--env", "example", "--block-fee", "91540.80", "--json")
    assert result.code == ExitCode.OK, result.stderr
    report = result.json
    rows = {row["item"].split(" (")[0]: row for row in report["rows"]}
    assert (
        rows["NAT gateway"]["per_hour"] == "0.090"
        and rows["NAT gateway"]["rest_of_block"] == "0.90"
    )
    assert rows["interface VPC endpoint x zone"]["per_hour"] == "0.16"
    hourly = (
        2 * Decimal("0.2016")
        + Decimal("0.10")
        + 2 * Decimal("0.045")
        + 2 * Decimal("0.005")
        + 16 * Decimal("0.01")
        + Decimal("0.0225")
    )
    assert report["total"]["per_hour"] == str(hourly.quantize(Decimal("0.01")))
    assert report["total"]["rest_of_block"] == str((hourly * 10).quantize(Decimal("0.01")))
    assert report["total"]["complete"] is True and report["total"]["not_priced"] == []
    # The block's fee, spread over its 34 hours, on top of the hourly resources.
    assert report["total"]["per_hour_with_block_fee"] == str(
        (hourly + Decimal("91540.80") / 34).quantize(Decimal("0.01"))
    )
    assert report["block"] == {
        "kind": "Capacity Block",
        "id": RESERVATION,
        "start": START.isoformat(),
        "end": END.isoformat(),
        "hours_left": "10.0",
        "upfront_fee": "91540.80",
        "fee_currency": "USD",
        "fee_source": report["block"]["fee_source"],
    }
    assert report["currency"] == "USD"
    # Every priced row names its product and the price's date.
    sources = {row["item"].split(" (")[0]: row["source"] for row in report["rows"] if row["source"]}
    assert sources["EC2 m7i.xlarge system node"]["sku"] == "SYSNODE"
    assert (
        sources["EKS cluster"]["sku"] == "EKSSTD"
        and sources["EKS cluster"]["effective_date"] == "2026-11-01T00:00:00Z"
    )
    assert "usage-based" not in json.dumps(report["rows"]) and report["usage_based_not_estimated"]


@pytest.mark.parametrize(
    "start, per_hour, why",
    [
        (
            START,
            Decimal("91540.80") / 34,
            "in the block as bought: its fee over its 34 hours, not 58",
        ),
        (
            NOW - timedelta(hours=40),
            Decimal(60000) / 24,
            "in the extension: the extension's own fee per hour",
        ),
    ],
)
def test_after_an_extension_the_fee_per_hour_is_that_of_the_period_paid_now(
    stubs, run, example_env, start, per_hour, why
):
    # given a block bought for 34 hours and extended by 24 for 60,000 USD (EC2's EndDate is the extended end)
    regional, pricing = stubs
    bought = start + timedelta(hours=34)
    regional.stub("ec2").add_response(
        "describe_capacity_reservations",
        {
            "CapacityReservations": [
                {
                    "CapacityReservationId": RESERVATION,
                    "State": "active",
                    "StartDate": start,
                    "EndDate": bought + timedelta(hours=24),
                }
            ]
        },
        {"CapacityReservationIds": [RESERVATION]},
    )
    regional.stub("ec2").add_response(
        "describe_capacity_block_extension_history",
        {
            "CapacityBlockExtensions": [
                {
                    "CapacityReservationId": RESERVATION,
                    "CapacityBlockExtensionStatus": "payment-succeeded",
                    "CapacityBlockExtensionStartDate": bought,
                    "CapacityBlockExtensionEndDate": bought + timedelta(hours=24),
                    "UpfrontFee": "60000.00",
                    "CurrencyCode": "USD",
                }
            ]
        },
        {"CapacityReservationIds": [RESERVATION]},
    )
    expect_all_prices(pricing, example_env)
    result = run("cost", "--env", "example", "--block-fee", "91540.80", "--json")
    assert result.code == ExitCode.OK, result.stderr
    report = result.json
    hourly = Decimal(report["total"]["per_hour"])
    fee_row = report["rows"][0]
    assert fee_row["per_hour"] is not None
    assert Decimal(fee_row["per_hour"]).quantize(Decimal("0.01")) == per_hour.quantize(
        Decimal("0.01")
    ), why
    assert "paid at purchase for 34.0 h" in fee_row["note"]
    assert Decimal(report["total"]["per_hour_with_block_fee"]) == pytest.approx(
        hourly + per_hour, abs=Decimal("0.01")
    )


def test_without_a_fee_the_extension_history_is_not_read(stubs, run, example_env):
    # given no fee anywhere (the example has no observability.block_fee_usd): the Stubber would fail a call it has not
    # been told of, so reading the extension history (and needing its permission) would fail this test
    regional, pricing = stubs
    expect_reservation(regional, history=False)
    expect_all_prices(pricing, example_env)
    result = run("cost", "--env", "example", "--json")
    assert result.code == ExitCode.OK, result.stderr


def test_without_block_fee_the_configured_fee_prices_the_block(stubs, example_env):
    # given observability.block_fee_usd in the configuration and no --block-fee
    regional, pricing = stubs
    expect_reservation(regional)
    expect_all_prices(pricing, example_env)
    env = dataclasses.replace(
        example_env,
        observability=example_env.observability.model_copy(update={"block_fee_usd": 91540.8}),
    )
    # when the environment is priced
    report = cost.cost_report(
        regional.aws("us-west-2"),
        pricing.aws("us-east-1"),
        env,
        now=NOW,
        block_fee=None,
        fee_currency="USD",
    ).to_dict()
    # then the block's fee is the configured one, spread over its hours as --block-fee's would be
    assert report["block"]["upfront_fee"] == "91540.8"
    assert report["block"]["fee_source"] == "observability.block_fee_usd in the configuration"
    assert report["rows"][0]["per_hour"] is not None
    assert report["total"]["per_hour_with_block_fee"] is not None


def test_after_the_block_no_fee_is_counted_per_hour_now(stubs, run, example_env):
    # given a 34-hour block that ended an hour ago, never extended
    regional, pricing = stubs
    ended = NOW - timedelta(hours=1)
    regional.stub("ec2").add_response(
        "describe_capacity_reservations",
        {
            "CapacityReservations": [
                {
                    "CapacityReservationId": RESERVATION,
                    "State": "expired",
                    "StartDate": ended - timedelta(hours=34),
                    "EndDate": ended,
                }
            ]
        },
        {"CapacityReservationIds": [RESERVATION]},
    )
    regional.stub("ec2").add_response(
        "describe_capacity_block_extension_history",
        {"CapacityBlockExtensions": []},
        {"CapacityReservationIds": [RESERVATION]},
    )
    expect_all_prices(pricing, example_env)
    result = run("cost", "--env", "example", "--block-fee", "91540.80", "--json")
    assert result.code == ExitCode.OK, result.stderr
    # then the fee's row says no paid period covers now, and its per hour is 0, not the block's rate
    fee_row = result.json["rows"][0]
    assert "per hour now: none (no paid period covers now" in fee_row["note"]
    assert Decimal(fee_row["per_hour"]) == 0


@pytest.mark.parametrize(
    ("extension", "per_hour", "note"),
    [
        (
            {"CapacityBlockExtensionStatus": "payment-pending", "UpfrontFee": "60000.00"},
            Decimal(0),
            f"per hour now: none counted: extension {RESERVATION} covers now, not counted: payment-pending",
        ),
        (
            {"CapacityBlockExtensionStatus": "payment-succeeded"},  # EC2 gave no UpfrontFee
            None,
            f"per hour now: unknown: extension {RESERVATION} covers now, its fee unknown: EC2 gave no "
            "UpfrontFee",
        ),
    ],
)
def test_a_period_covering_now_without_a_counted_fee_is_named_not_called_a_gap(
    stubs, run, example_env, extension, per_hour, note
):
    # given a block bought for 34 hours that ended 2 hours ago, and an extension from then whose fee is not counted
    regional, pricing = stubs
    bought = NOW - timedelta(hours=2)
    regional.stub("ec2").add_response(
        "describe_capacity_reservations",
        {
            "CapacityReservations": [
                {
                    "CapacityReservationId": RESERVATION,
                    "State": "active",
                    "StartDate": bought - timedelta(hours=34),
                    "EndDate": bought + timedelta(hours=24),
                }
            ]
        },
        {"CapacityReservationIds": [RESERVATION]},
    )
    regional.stub("ec2").add_response(
        "describe_capacity_block_extension_history",
        {
            "CapacityBlockExtensions": [
                {
                    "CapacityReservationId": RESERVATION,
                    "CapacityBlockExtensionStartDate": bought,
                    "CapacityBlockExtensionEndDate": bought + timedelta(hours=24),
                    "CurrencyCode": "USD",
                    **extension,
                }
            ]
        },
        {"CapacityReservationIds": [RESERVATION]},
    )
    expect_all_prices(pricing, example_env)
    result = run("cost", "--env", "example", "--block-fee", "91540.80", "--json")
    assert result.code == ExitCode.OK, result.stderr
    # then the fee row names the period serving now and why its fee is not counted: it is no gap between blocks
    fee_row = result.json["rows"][0]
    assert note in fee_row["note"] and "gap" not in fee_row["note"]
    assert (None if fee_row["per_hour"] is None else Decimal(fee_row["per_hour"])) == per_hour
    # and an unknown fee per hour is not added to the total as if known
    if per_hour is None:
        assert result.json["total"]["per_hour_with_block_fee"] is None


def test_the_table_shows_the_currency_the_totals_and_the_sources(stubs, run, example_env):
    regional, pricing = stubs
    expect_reservation(regional)
    expect_all_prices(pricing, example_env)
    result = run("cost", "--env", "example", "--block-fee", "91540.80")
    assert result.code == ExitCode.OK, result.stderr
    text = result.stdout
    assert "Amounts in USD" in text and "10.0 h from now" in text
    header = next(line for line in text.splitlines() if line.startswith("item"))
    assert "unit price/h (USD)" in header and "rest of the block (USD)" in header
    assert (
        "Total of the hourly resources: 0.79 USD per hour, 7.86 USD for the rest of the block."
        in text
    )
    assert "SKU NATHOURS, effective 2026-11-01T00:00:00Z" in text
    assert "Usage-based, not estimated: Amazon Managed Service for Prometheus" in text


def test_a_price_that_matches_no_product_is_not_guessed(stubs, run, example_env):
    regional, pricing = stubs
    expect_reservation(regional, history=False)
    expect_all_prices(
        pricing, example_env, nat_items=[product("RNAT", "USW2-RegionalNatGateway-Hours", "0.05")]
    )
    result = run("cost", "--env", "example", "--json")
    assert result.code == ExitCode.OK, result.stderr
    nat = next(row for row in result.json["rows"] if row["item"].startswith("NAT gateway"))
    assert nat["per_hour"] is None and nat["source"] is None
    assert nat["note"].startswith(
        "price not found (0 products match; filters serviceCode=AmazonEC2, regionCode=us-west-2, "
        "productFamily=NAT Gateway, usagetype=*NatGateway-Hours"
    )
    total = result.json["total"]
    assert total["complete"] is False and any(
        item.startswith("NAT gateway") for item in total["not_priced"]
    )


def test_a_query_that_matches_several_products_is_not_guessed(stubs, run, example_env):
    regional, pricing = stubs
    expect_reservation(regional, history=False)
    expect_all_prices(
        pricing,
        example_env,
        nat_items=[
            product("NAT1", "USW2-NatGateway-Hours", "0.045"),
            product("NAT2", "USW2-NatGateway-Hours", "0.048"),
        ],
    )
    result = run("cost", "--env", "example")
    assert result.code == ExitCode.OK, result.stderr
    assert "price not found (2 products match; filters serviceCode=AmazonEC2" in result.stdout
    assert "without: NAT gateway" in result.stdout


def test_without_the_block_fee_the_fee_is_unknown_and_said_so(stubs, run, example_env):
    regional, pricing = stubs
    expect_reservation(regional, history=False)
    expect_all_prices(pricing, example_env)
    result = run("cost", "--env", "example", "--json")
    assert result.code == ExitCode.OK, result.stderr
    fee = result.json["rows"][0]
    assert fee["per_hour"] is None and "pass --block-fee" in fee["note"]
    assert result.json["total"]["per_hour_with_block_fee"] is None


def test_on_hyperpod_the_training_plans_fee_and_end_come_from_sagemaker(
    stubs, run, hyperpod_example_env
):
    regional, pricing = stubs
    regional.stub("sagemaker").add_response(
        "describe_training_plan",
        {
            "TrainingPlanArn": PLAN_ARN,
            "TrainingPlanName": "kimi-k3-example",
            "Status": "Active",
            "StartTime": START,
            "EndTime": END,
            "UpfrontFee": "70400.00",
            "CurrencyCode": "USD",
            "DurationHours": 34,
        },
        {"TrainingPlanName": "kimi-k3-example"},
    )
    expect_all_prices(pricing, hyperpod_example_env, load_balancer="alb")
    result = run("cost", "--env", "example-hyperpod", "--json")
    assert result.code == ExitCode.OK, result.stderr
    report = result.json
    assert (
        report["block"]["kind"] == "training plan" and report["block"]["upfront_fee"] == "70400.00"
    )
    assert report["rows"][0]["per_hour"] == str(Decimal("70400.00") / 34)
    assert any(row["item"].startswith("Application Load Balancer") for row in report["rows"])


@pytest.mark.parametrize("fee", ["abc", "0", "-5", "1e12", "nan"])
def test_a_block_fee_that_is_not_an_amount_is_refused_before_any_call(run, fee):
    result = run("cost", "--env", "example", "--block-fee", fee)
    assert result.code == ExitCode.USAGE
    assert "--block-fee" in result.stderr and "fix:" in result.stderr


def test_the_environment_is_required(run):
    result = run("cost")
    assert result.code == ExitCode.USAGE and "--env" in result.stderr


def test_before_a_block_never_paid_its_rate_is_not_the_fee_per_hour():
    # given a block that starts in an hour but whose payment failed (EC2 released it: never paid)
    from ops_cli.paid_periods import PaidPeriod, fee_per_hour

    start = NOW + timedelta(hours=1)
    never_paid = PaidPeriod(
        "block",
        RESERVATION,
        start,
        start + timedelta(hours=34),
        Decimal("91540.80"),
        "USD",
        "not counted: the reservation is payment-failed (never paid)",
        paid=False,
    )
    # then no fee accrues per hour, where before its fee over its hours was shown
    assert fee_per_hour([never_paid], NOW, "USD") == (Decimal(0), [])


def test_on_hyperpod_after_the_training_plan_no_fee_is_counted_per_hour_now(
    stubs, run, hyperpod_example_env
):
    # given a 34-hour training plan that ended an hour ago
    regional, pricing = stubs
    ended = NOW - timedelta(hours=1)
    regional.stub("sagemaker").add_response(
        "describe_training_plan",
        {
            "TrainingPlanArn": PLAN_ARN,
            "TrainingPlanName": "kimi-k3-example",
            "Status": "Expired",
            "StartTime": ended - timedelta(hours=34),
            "EndTime": ended,
            "UpfrontFee": "70400.00",
            "CurrencyCode": "USD",
            "DurationHours": 34,
        },
        {"TrainingPlanName": "kimi-k3-example"},
    )
    expect_all_prices(pricing, hyperpod_example_env, load_balancer="alb")
    result = run("cost", "--env", "example-hyperpod", "--json")
    assert result.code == ExitCode.OK, result.stderr
    # then, as on EKS after the block, the fee's per hour is 0 and says why, not the plan's rate
    fee_row = result.json["rows"][0]
    assert Decimal(fee_row["per_hour"]) == 0
    assert "per hour now: none (no paid period covers now" in fee_row["note"]


def test_with_aws_the_published_rate_prices_the_block_over_its_hours_beside_the_fee_paid(
    stubs, run, example_env
):
    # given the stubbed 34-hour block and every price
    regional, pricing = stubs
    expect_reservation(regional)
    expect_all_prices(pricing, example_env)
    result = run("cost", "--env", "example", "--block-fee", "91540.80", "--json")
    assert result.code == ExitCode.OK, result.stderr
    # then the table's rate over the block's hours is shown, and the totals keep the fee paid
    published = result.json["published_rate"]
    assert published["block_hours"] == "34.0"
    assert published["block_fee"] == str(Decimal("112.32") * 34)
    assert result.json["needs_aws"] is None
    assert result.json["block"]["upfront_fee"] == "91540.80"  # the fee paid, not the table's
