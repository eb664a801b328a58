"""EC2 Capacity Blocks: find offerings, buy one, show a reservation, wait for it to become active."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import botocore.exceptions

from ops_cli.aws import Aws
from ops_cli.errors import ExitCode, OpsError, error_code, translate
from ops_cli.offering import Offering, Search, cheapest_first
from ops_cli.output import iso

#: Capacity Block durations: 1-day steps up to 14 days, then 7-day steps up to 182 days.
MAX_DAILY_HOURS = 14 * 24
MAX_HOURS = 182 * 24
FINAL_STATES = {"expired", "cancelled", "failed", "unsupported"}


def check_duration(hours: int) -> None:
    valid = (hours % 24 == 0 and 24 <= hours <= MAX_DAILY_HOURS) or (hours % 168 == 0 and MAX_DAILY_HOURS < hours <= MAX_HOURS)
    if not valid:
        raise OpsError(f"--duration-hours {hours} is not a Capacity Block duration",
                       "use whole days up to 14 (24, 48, ... 336), then whole weeks up to 182 days (504, 672, ... 4368)",
                       ExitCode.USAGE)


def offering_from_api(item: dict) -> Offering:
    return Offering(item["CapacityBlockOfferingId"], item["InstanceType"], item["InstanceCount"], item["AvailabilityZone"],
                    item["StartDate"], item["EndDate"], item["CapacityBlockDurationHours"], Decimal(item["UpfrontFee"]),
                    item["CurrencyCode"])


def search_params(search: Search) -> dict:
    """``search`` as describe_capacity_block_offerings parameters."""
    return {"InstanceType": search.instance_type, "InstanceCount": search.instance_count,
            "CapacityDurationHours": search.duration_hours, "StartDateRange": search.start_after,
            "EndDateRange": search.end_before}


def default_window(now: datetime | None = None) -> tuple[datetime, datetime]:
    now = now or datetime.now(UTC)
    return now, now + timedelta(weeks=8)


def find_offerings(aws: Aws, search: Search) -> list[Offering]:
    """Every offering that matches, over all pages, cheapest first (then earliest)."""
    check_duration(search.duration_hours)
    items = aws.pages("ec2", "describe_capacity_block_offerings", "list Capacity Block offerings",
                      "CapacityBlockOfferings", **search_params(search))
    return cheapest_first([offering_from_api(i) for i in items])


def find_offering(aws: Aws, search: Search, offering_id: str) -> Offering:
    for offering in find_offerings(aws, search):
        if offering.offering_id == offering_id:
            return offering
    raise OpsError(f"offering {offering_id} is no longer offered for these search parameters (sold, or expired)",
                   "list the offerings again and pick a current one", ExitCode.OFFERING_GONE)


def purchase(aws: Aws, offering: Offering, *, dry_run: bool, tags: dict[str, str]) -> dict | None:
    """Buy ``offering``. With ``dry_run``, EC2 only checks permission and availability; returns None then."""
    params = {"CapacityBlockOfferingId": offering.offering_id, "InstancePlatform": "Linux/UNIX", "DryRun": dry_run}
    if tags:
        params["TagSpecifications"] = [{"ResourceType": "capacity-reservation",
                                        "Tags": [{"Key": k, "Value": v} for k, v in tags.items()]}]
    try:
        response = aws.client("ec2").purchase_capacity_block(**params)
    except botocore.exceptions.ClientError as error:
        code = error_code(error)
        if dry_run and code == "DryRunOperation":
            return None
        if code in {"InvalidCapacityBlockOfferingId", "InvalidCapacityBlockOfferingId.NotFound", "OfferingNotFound"}:
            raise OpsError(f"offering {offering.offering_id} is gone: {error.response['Error'].get('Message', code)}",
                           "list the offerings again and pick a current one", ExitCode.OFFERING_GONE) from None
        raise translate(error, f"purchase Capacity Block offering {offering.offering_id}") from None
    except botocore.exceptions.BotoCoreError as error:
        raise translate(error, f"purchase Capacity Block offering {offering.offering_id}") from None
    return response["CapacityReservation"]


def describe_reservation(aws: Aws, reservation_id: str) -> dict:
    response = aws.call("ec2", "describe_capacity_reservations", f"describe capacity reservation {reservation_id}",
                        CapacityReservationIds=[reservation_id])
    reservations = response.get("CapacityReservations", [])
    if not reservations:
        raise OpsError(f"capacity reservation {reservation_id} does not exist in {aws.region}",
                       "check the id and the region (--region)", ExitCode.NOT_FOUND)
    return reservations[0]


def reservation_summary(reservation: dict) -> dict:
    return {
        "reservation_id": reservation["CapacityReservationId"],
        "state": reservation.get("State"),
        "instance_type": reservation.get("InstanceType"),
        "instance_count": reservation.get("TotalInstanceCount"),
        "availability_zone": reservation.get("AvailabilityZone"),
        "start": iso(reservation.get("StartDate")),
        "end": iso(reservation.get("EndDate")),
        "reservation_type": reservation.get("ReservationType"),
    }
