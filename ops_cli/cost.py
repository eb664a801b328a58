"""llmops cost: what an environment costs per hour and for the rest of its block, priced by the AWS Price List Query API.

What is counted comes from the configuration, through the same values the stacks use: the GPU capacity (Capacity
Block or training plan), ``cluster.system_instance_type`` x ``system_node_count``, one NAT gateway per zone and the
interface endpoints of :data:`deployment_config.model.INTERFACE_ENDPOINT_NAMES` in every zone (both from
``EnvironmentConfig``, which stacks/network_stack.py builds the VPC from), the EKS control plane, and the load balancer
the serving path makes (EKS: the cloud controller's NLB; HyperPod: the Inference Operator's ALB). Usage-based services
(AMP, CloudWatch, data processed) are listed, not estimated.

Facts and their sources:

- The Price List Query API has two endpoints, us-east-1 and ap-south-1; ``GetProducts`` takes a ``ServiceCode`` and
  ``Filters`` of ``Type`` ``TERM_MATCH`` (``Field`` an attribute name), answers ``PriceList``, JSON strings of one product
  each (``product.sku``, ``product.attributes``, ``terms.OnDemand.<offer term>.priceDimensions.<rate code>.pricePerUnit``,
  ``unit``, ``effectiveDate``), paginated with ``NextToken``: AWS Billing User Guide, "Finding services and products
  using AWS Price List Query API" (https://docs.aws.amazon.com/awsaccountbilling/latest/aboutv2/using-price-list-query-api.html,
  the endpoints also on "using-the-aws-price-list-bulk-api.html"); botocore 1.43.127 ``pricing/2017-10-15/service-2.json``
  (``GetProductsRequest``, ``Filter``, ``FilterType``, ``PriceListJsonItems``).
- Attribute names and values (``regionCode``, ``instanceType``, ``operatingSystem`` ``Linux``, ``tenancy`` ``Shared``,
  ``preInstalledSw`` ``NA``, ``capacitystatus`` ``Used``, ``productFamily`` ``NAT Gateway`` / ``VpcEndpoint`` /
  ``Load Balancer-Network`` / ``Load Balancer-Application``, ``usagetype``) and usage types (``BoxUsage:TYPE``,
  ``NatGateway-Hours``, ``VpcEndpoint-Hours`` under service code ``AmazonVPC``, ``AmazonEKS-Hours:perCluster``,
  ``LoadBalancerUsage``): product records as returned by GetProducts and queried in public code (for example
  asheiduk/as-scripts ``x`` for EC2 attributes; AlexanderWiechert/open-costcalculator
  ``src/resources/nat_gateway/nat_gateway_filter.py``). Not read from an AWS page: every query therefore must match
  exactly one product, or its row says "price not found" with the filters, instead of guessing. A usage type carries
  a region prefix (``USW2-``) except in us-east-1, so it is matched as a suffix after the ``-``, in this module
  (``RegionalNatGateway-Hours`` is another product and does not match ``NatGateway-Hours``).
- A Capacity Block's upfront fee is not in DescribeCapacityReservations' answer (botocore's EC2 model,
  ``CapacityReservation`` has ``StartDate``, ``EndDate`` and no fee): the user passes ``--block-fee``, what
  ``capacity-blocks purchase`` printed. A training plan's is: DescribeTrainingPlan answers ``UpfrontFee``,
  ``CurrencyCode``, ``StartTime``, ``EndTime`` (botocore's SageMaker model, ``DescribeTrainingPlanResponse``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal, InvalidOperation

from deployment_config.model import EnvironmentConfig, Platform
from ops_cli import capacity_blocks as cb
from ops_cli import training_plans as tp
from ops_cli.aws import Aws
from ops_cli.errors import ExitCode, OpsError, shown

#: The Price List Query API's endpoints (see the module's sources); the CLI asks the first.
PRICING_REGIONS = ("us-east-1", "ap-south-1")
#: The currency the Price List Query API prices in (``pricePerUnit`` is keyed by it).
PRICE_CURRENCY = "USD"
#: The largest fee accepted with --block-fee: more than any Capacity Block, small enough to catch a typo.
MAX_BLOCK_FEE = Decimal(100_000_000)


@dataclass(frozen=True)
class PriceQuery:
    """One product of the Price List: TERM_MATCH filters, and the usage type it must have (matched as a suffix after
    the region prefix, or exactly)."""

    service_code: str
    filters: tuple[tuple[str, str], ...]
    usage_type: str | None = None

    def params(self) -> dict:
        return {
            "ServiceCode": self.service_code,
            "FormatVersion": "aws_v1",
            "MaxResults": 100,
            "Filters": [
                {"Type": "TERM_MATCH", "Field": name, "Value": value}
                for name, value in self.filters
            ],
        }

    def describe(self) -> str:
        words = [
            f"serviceCode={self.service_code}",
            *(f"{name}={value}" for name, value in self.filters),
        ]
        if self.usage_type:
            words.append(f"usagetype=*{self.usage_type}")
        return ", ".join(words)

    def matches(self, product: dict) -> bool:
        if self.usage_type is None:
            return True
        product_info = product.get("product") if isinstance(product.get("product"), dict) else {}
        attributes = (
            product_info.get("attributes")
            if isinstance(product_info.get("attributes"), dict)
            else {}
        )
        usage = str(attributes.get("usagetype", ""))
        return usage == self.usage_type or usage.endswith(f"-{self.usage_type}")


@dataclass(frozen=True)
class Price:
    """An On-Demand hourly price from the Price List, with its source."""

    per_hour: Decimal
    currency: str
    sku: str
    effective: str
    description: str

    def to_dict(self) -> dict:
        return {
            "per_hour": str(self.per_hour),
            "currency": self.currency,
            "sku": self.sku,
            "effective_date": self.effective,
            "description": self.description,
        }


@dataclass
class CostRow:
    """One billable item: how many, at what price per hour (None: not found, or not hourly)."""

    item: str
    count: int
    query: PriceQuery | None = None
    price: Price | None = None
    note: str = ""
    #: For the block's fee, already known per hour (fee / the block's hours), outside the Price List.
    fixed_per_hour: Decimal | None = None

    @property
    def per_hour(self) -> Decimal | None:
        if self.fixed_per_hour is not None:
            return self.fixed_per_hour
        return self.price.per_hour * self.count if self.price else None

    def to_dict(self, hours: Decimal | None) -> dict:
        per_hour = self.per_hour
        return {
            "item": self.item,
            "count": self.count,
            "unit_price_per_hour": str(self.price.per_hour) if self.price else None,
            "per_hour": str(per_hour) if per_hour is not None else None,
            "rest_of_block": str(_cents(per_hour * hours))
            if per_hour is not None and hours is not None and self.query is not None
            else None,
            "source": self.price.to_dict() if self.price else None,
            "filters": self.query.describe() if self.query else None,
            "note": self.note or None,
        }


@dataclass
class Block:
    """The GPU capacity the environment runs on: its end, length and upfront fee (None when unknown)."""

    kind: str
    identifier: str
    start: datetime | None
    end: datetime | None
    fee: Decimal | None
    currency: str | None
    fee_source: str

    def hours_left(self, now: datetime) -> Decimal | None:
        """Hours from now to the block's end: the network, cluster and nodes run (and bill) until then."""
        if self.end is None:
            return None
        return max(Decimal(0), Decimal(str((self.end - now).total_seconds())) / 3600)

    @property
    def hours(self) -> Decimal | None:
        if self.start is None or self.end is None:
            return None
        return Decimal(str((self.end - self.start).total_seconds())) / 3600


@dataclass
class CostReport:
    env: str
    region: str
    block: Block
    rows: list[CostRow]
    now: datetime
    usage_based: tuple[str, ...] = field(default=())

    @property
    def hours_left(self) -> Decimal | None:
        return self.block.hours_left(self.now)

    def hourly_rows(self) -> list[CostRow]:
        return [r for r in self.rows if r.query is not None]

    @property
    def hourly_total(self) -> Decimal:
        """The priced running resources per hour (rows without a price are not in it)."""
        return sum((r.per_hour for r in self.hourly_rows() if r.per_hour is not None), Decimal(0))

    @property
    def missing(self) -> list[str]:
        """The hourly resources without a price (the block's fee is the block's own)."""
        return [r.item for r in self.hourly_rows() if r.per_hour is None]

    def to_dict(self) -> dict:
        hours = self.hours_left
        fee = self.block.fee if self.block.currency in (None, PRICE_CURRENCY) else None
        all_in = (
            (self.hourly_total + fee / self.block.hours)
            if fee is not None and self.block.hours
            else None
        )
        return {
            "env": self.env,
            "region": self.region,
            "currency": PRICE_CURRENCY,
            "at": self.now.isoformat(),
            "block": {
                "kind": self.block.kind,
                "id": self.block.identifier,
                "start": self.block.start.isoformat() if self.block.start else None,
                "end": self.block.end.isoformat() if self.block.end else None,
                "hours_left": str(_round(hours)) if hours is not None else None,
                "upfront_fee": str(self.block.fee) if self.block.fee is not None else None,
                "fee_currency": self.block.currency,
                "fee_source": self.block.fee_source,
            },
            "rows": [r.to_dict(hours) for r in self.rows],
            "total": {
                "per_hour": str(_cents(self.hourly_total)),
                "rest_of_block": str(_cents(self.hourly_total * hours))
                if hours is not None
                else None,
                "per_hour_with_block_fee": str(_cents(all_in)) if all_in is not None else None,
                "complete": not self.missing,
                "not_priced": self.missing,
            },
            "usage_based_not_estimated": list(self.usage_based),
        }


def _cents(value: Decimal) -> Decimal:
    return value.quantize(Decimal("0.01"))


def _round(value: Decimal) -> Decimal:
    return value.quantize(Decimal("0.1"))


#: An amount on the command line: ASCII digits with an optional '.' and decimal part, nothing else. One way only:
#: a ',' is a decimal comma in much of the world and a thousands separator in the rest ("91,540" is 91540 or 91.54),
#: and Python's Decimal would also take '1_000', '1e5', ' 5', 'NaN' and digits of other scripts.
AMOUNT = re.compile(r"[0-9]+(?:\.[0-9]+)?")
AMOUNT_FORM = (
    "digits with an optional '.' decimal part, no thousands separators, for example 91540.80"
)


def parse_amount(text: str, option: str, most: Decimal) -> Decimal:
    """``text`` as an amount above 0 and at most ``most`` (see :data:`AMOUNT`); one :class:`OpsError` naming
    ``option``, what was wrong and the accepted form otherwise."""
    if "," in text:
        if re.fullmatch(
            r"[0-9]{1,3}(,[0-9]{3})+\.[0-9]+", text
        ):  # '91,540.80': both marks, so ',' groups
            raise OpsError(
                f"{option} {shown(text)} has a thousands separator ','",
                f"write {option} {text.replace(',', '')} ({AMOUNT_FORM.partition(', for')[0]})",
                ExitCode.USAGE,
            )
        raise OpsError(
            f"{option} {shown(text)} has a ',', which is a decimal comma or a thousands separator depending "
            "on where one lives, so its value is ambiguous",
            f"write the amount as {AMOUNT_FORM}",
            ExitCode.USAGE,
        )
    if not AMOUNT.fullmatch(text):
        raise OpsError(
            f"{option} {shown(text)} is not an amount", f"write it as {AMOUNT_FORM}", ExitCode.USAGE
        )
    value = Decimal(text)
    if value <= 0 or value > most:
        raise OpsError(
            f"{option} {shown(text)} is out of range (more than 0, at most {most:,})",
            f"pass the amount as {AMOUNT_FORM}",
            ExitCode.USAGE,
        )
    return value


def parse_block_fee(text: str) -> Decimal:
    """--block-fee: the upfront fee 'capacity-blocks purchase' printed, written as :data:`AMOUNT` (91540.80)."""
    return parse_amount(text, "--block-fee", MAX_BLOCK_FEE)


# --- what the environment runs ------------------------------------------------------------------------------------


def ec2_instance(region: str, instance_type: str) -> PriceQuery:
    return PriceQuery(
        "AmazonEC2",
        (
            ("regionCode", region),
            ("instanceType", instance_type),
            ("operatingSystem", "Linux"),
            ("tenancy", "Shared"),
            ("preInstalledSw", "NA"),
            ("capacitystatus", "Used"),
        ),
        usage_type=f"BoxUsage:{instance_type}",
    )


def billable_rows(env: EnvironmentConfig) -> list[CostRow]:
    """The hourly-billed resources of ``env``, counted from its configuration, with the query that prices each."""
    region = env.region
    hyperpod = env.platform is Platform.HYPERPOD
    zones = len(env.availability_zones)
    rows = [
        CostRow(
            f"EC2 {env.cluster.system_instance_type} system node (On-Demand)",
            env.cluster.system_node_count,
            ec2_instance(region, env.cluster.system_instance_type),
        ),
        CostRow(
            "EKS cluster (control plane, standard support)",
            1,
            PriceQuery(
                "AmazonEKS", (("regionCode", region),), usage_type="AmazonEKS-Hours:perCluster"
            ),
            note="a Kubernetes version in extended support costs more per hour",
        ),
        CostRow(
            f"NAT gateway (one per zone, {zones} zones)",
            env.nat_gateway_count,
            PriceQuery(
                "AmazonEC2",
                (("regionCode", region), ("productFamily", "NAT Gateway")),
                usage_type="NatGateway-Hours",
            ),
            note="plus each GB processed",
        ),
        CostRow(
            f"interface VPC endpoint x zone ({env.interface_endpoint_zone_count // zones} endpoints)",
            env.interface_endpoint_zone_count,
            PriceQuery(
                "AmazonVPC",
                (("regionCode", region), ("productFamily", "VpcEndpoint")),
                usage_type="VpcEndpoint-Hours",
            ),
            note="plus each GB processed",
        ),
        CostRow(
            "Application Load Balancer (Inference Operator)"
            if hyperpod
            else "Network Load Balancer (vllm Service)",
            1,
            PriceQuery(
                "AWSELB",
                (
                    ("regionCode", region),
                    (
                        "productFamily",
                        "Load Balancer-Application" if hyperpod else "Load Balancer-Network",
                    ),
                ),
                usage_type="LoadBalancerUsage",
            ),
            note="plus capacity units (LCU/NLCU)",
        ),
    ]
    return rows


USAGE_BASED = (
    "Amazon Managed Service for Prometheus (samples ingested, stored, queried) and its scraper",
    "CloudWatch (alarms, dashboard, logs ingested and stored, metrics)",
    "data processed by the NAT gateways, endpoints and load balancer (the first download of the weights goes "
    "through the NAT gateways)",
    "public IPv4 addresses of the NAT gateways, KMS keys, Secrets Manager secrets, Lambda",
)


# --- prices -------------------------------------------------------------------------------------------------------


def _products(aws: Aws, query: PriceQuery) -> list[dict]:
    items = aws.pages(
        "pricing",
        "get_products",
        f"look up prices ({query.describe()})",
        "PriceList",
        **query.params(),
    )
    products = []
    for item in items:
        try:
            products.append(json.loads(item) if isinstance(item, str) else item)
        except (ValueError, RecursionError):
            continue
    return [p for p in products if isinstance(p, dict) and query.matches(p)]


def _dict(value) -> dict:
    """A field of the Price List's answer read defensively: another shape than the API's reads as absent."""
    return value if isinstance(value, dict) else {}


def hourly_price(product: dict) -> Price | None:
    """The product's one On-Demand hourly price in USD, or None when it has none or several (or an answer of another
    shape than the Price List's)."""
    terms = _dict(_dict(product.get("terms")).get("OnDemand"))
    found = []
    for term in (t for t in terms.values() if isinstance(t, dict)):
        for dimension in (
            d for d in _dict(term.get("priceDimensions")).values() if isinstance(d, dict)
        ):
            amount = _dict(dimension.get("pricePerUnit")).get(PRICE_CURRENCY)
            if (
                str(dimension.get("unit", "")).lower() in ("hrs", "hours", "hour")
                and amount is not None
            ):
                found.append((term, dimension, amount))
    if len(found) != 1:
        return None
    term, dimension, amount = found[0]
    try:
        per_hour = Decimal(str(amount))
    except InvalidOperation:
        return None
    if not per_hour.is_finite() or per_hour < 0:
        return None
    return Price(
        per_hour,
        PRICE_CURRENCY,
        str(_dict(product.get("product")).get("sku", "?")),
        str(term.get("effectiveDate", "?")),
        str(dimension.get("description", "")),
    )


def price_rows(pricing: Aws, rows: list[CostRow]) -> None:
    """Fill in each row's price; a query that matches no product or several says so in the row's note."""
    for row in rows:
        if row.query is None:
            continue
        products = _products(pricing, row.query)
        prices = [hourly_price(p) for p in products]
        if len(products) == 1 and prices[0] is not None:
            row.price = prices[0]
        else:
            why = (
                f"{len(products)} products match"
                if len(products) != 1
                else "the product has no single hourly On-Demand price"
            )
            row.note = f"price not found ({why}; filters {row.query.describe()})"


# --- the block ----------------------------------------------------------------------------------------------------


def capacity_block(aws: Aws, env: EnvironmentConfig, fee: Decimal | None, currency: str) -> Block:
    reservation_id = env.capacity.capacity_reservation_id
    reservation = cb.describe_reservation(aws, reservation_id)
    return Block(
        "Capacity Block",
        reservation_id,
        reservation.get("StartDate"),
        reservation.get("EndDate"),
        fee,
        currency if fee is not None else None,
        "--block-fee (EC2 does not return a Capacity Block's fee after the purchase)"
        if fee is not None
        else "unknown: pass --block-fee, the upfront fee 'capacity-blocks purchase' printed",
    )


def training_plan(aws: Aws, env: EnvironmentConfig) -> Block:
    arn = env.hyperpod.training_plan_arn
    if not arn:
        raise OpsError(
            f"{env.name} has no hyperpod.training_plan_arn",
            f"write the plan in: llmops training-plans use NAME --env {env.name}",
            ExitCode.USAGE,
        )
    plan = tp.describe_plan(aws, arn.rsplit("/", 1)[-1])
    fee = plan.get("UpfrontFee")
    try:
        amount = Decimal(str(fee)) if fee not in (None, "") else None
    except InvalidOperation:
        amount = None
    return Block(
        "training plan",
        plan.get("TrainingPlanName") or arn,
        plan.get("StartTime"),
        plan.get("EndTime"),
        amount,
        plan.get("CurrencyCode") if amount is not None else None,
        "SageMaker DescribeTrainingPlan (UpfrontFee, CurrencyCode)"
        if amount is not None
        else "unknown: DescribeTrainingPlan returned no UpfrontFee",
    )


def cost_report(
    aws: Aws,
    pricing: Aws,
    env: EnvironmentConfig,
    *,
    now: datetime,
    block_fee: Decimal | None,
    fee_currency: str,
) -> CostReport:
    if env.platform is Platform.HYPERPOD:
        if block_fee is not None:
            raise OpsError(
                "--block-fee is for Capacity Blocks: a training plan's fee is read from SageMaker",
                "leave out --block-fee",
                ExitCode.USAGE,
            )
        block = training_plan(aws, env)
    else:
        block = capacity_block(aws, env, block_fee, fee_currency)
    rows = billable_rows(env)
    price_rows(pricing, rows)
    gpu = env.hyperpod if env.platform is Platform.HYPERPOD else env.capacity
    gpu_type = gpu.instance_type if isinstance(gpu.instance_type, str) else gpu.instance_type.name
    fee_row = CostRow(
        f"{gpu.instance_count} x {gpu_type} ({block.kind} {block.identifier}), upfront fee",
        1,
        note=f"paid at purchase, {block.fee_source}",
    )
    if block.fee is not None and block.currency not in (None, PRICE_CURRENCY):
        fee_row.note = f"{block.fee:,.2f} {block.currency} paid at purchase, not added to the {PRICE_CURRENCY} totals"
    elif block.fee is not None and block.hours:
        fee_row.fixed_per_hour = block.fee / block.hours
        fee_row.note = (
            f"{block.fee:,.2f} {block.currency} paid at purchase for {_round(block.hours)} h, shown per hour "
            f"of the block; {block.fee_source}"
        )
    rows.insert(0, fee_row)
    return CostReport(env.name, env.region, block, rows, now, USAGE_BASED)
