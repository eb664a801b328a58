"""The AWS Price List Query API, as ``llmops cost`` asks it (ops_cli/cost.py): one query per billable product, each
answer's one On-Demand hourly price in USD.

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
  ``NatGateway-Hours``, ``VpcEndpoint-Hours`` and ``PublicIPv4:InUseAddress`` under service code ``AmazonVPC``,
  ``AmazonEKS-Hours:perCluster``, ``LoadBalancerUsage``): product records as returned by GetProducts and queried in
  public code (for example asheiduk/as-scripts ``x`` for EC2 attributes; AlexanderWiechert/open-costcalculator
  ``src/resources/nat_gateway/nat_gateway_filter.py``). Not read from an AWS page: every query therefore must match
  exactly one product, or its row says "price not found" with the filters (ops_cli/cost.py ``price_rows``), instead
  of guessing. A usage type carries
  a region prefix (``USW2-``) except in us-east-1, so it is matched as a suffix after the ``-``, in this module
  (``RegionalNatGateway-Hours`` is another product and does not match ``NatGateway-Hours``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from ops_cli.aws import Aws

#: The Price List Query API's endpoints (see the module's sources); the CLI asks the first.
PRICING_REGIONS = ("us-east-1", "ap-south-1")
#: The currency the Price List Query API prices in (``pricePerUnit`` is keyed by it).
PRICE_CURRENCY = "USD"


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


def products(aws: Aws, query: PriceQuery) -> list[dict]:
    """The products that answer ``query`` (every page), those of another usage type left out."""
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
