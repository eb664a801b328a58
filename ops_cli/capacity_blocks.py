"""EC2 Capacity Blocks: find offerings, buy one, show a reservation, wait for it to become active. Extending a
reservation is in ops_cli/capacity_block_extensions.py."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import botocore.exceptions

from ops_cli import purchase_outcome as outcome
from ops_cli.aws import Aws
from ops_cli.errors import ExitCode, OpsError, error_code, shown, translate, unexpected_answer
from ops_cli.offering import Offering, Search, cheapest_first, fee, field
from ops_cli.output import iso, utc_and_local

#: Capacity Block durations: 1-day steps up to 14 days, then 7-day steps up to 182 days. Extensions of a Capacity Block
#: and of a training plan take the same steps (ops_cli/capacity_block_extensions.py, training_plan_extensions.py).
MAX_DAILY_HOURS = 14 * 24
MAX_HOURS = 182 * 24
#: "Each Capacity Block can have up to 64 instances" (EC2 User Guide, Find and purchase Capacity Blocks).
MAX_INSTANCE_COUNT = 64
#: Capacity reservation ids: 'cr-' and 17 lowercase hex digits, the loader's rule for capacity.capacity_reservation_id
#: (deployment_config/loader.py). botocore's EC2 model gives CapacityReservationId no pattern (a plain string), so this
#: is EC2's documented id format (resource ids have 17 hex digits since 2018), checked here before any call.
RESERVATION_ID = re.compile(r"cr-[0-9a-f]{17}")
#: Capacity Block offering ids. botocore's EC2 model (ec2/2016-11-15/service-2.json) types
#: PurchaseCapacityBlock.CapacityBlockOfferingId and CapacityBlockOffering.CapacityBlockOfferingId as the shape
#: ``OfferingId``, a plain string with no pattern or length. The EC2 User Guide's example is 'cb-0123456789abcdefg' (its
#: last character is not hex), so only the shape is checked: 'cb-' and lowercase letters or digits, 64 at most.
OFFERING_ID = re.compile(r"cb-[0-9a-z]{1,61}")
#: A syntactically valid id, used to check an environment file before a purchase whose id is not known yet.
PROBE_RESERVATION_ID = "cr-" + "0" * 17


def check_reservation_id(reservation_id: str) -> None:
    if not RESERVATION_ID.fullmatch(reservation_id):
        raise OpsError(
            f"{shown(reservation_id)} is not a capacity reservation id ('cr-' and 17 lowercase hex digits)",
            "copy the id from 'llmops capacity-blocks purchase' or 'aws ec2 describe-capacity-reservations', "
            "for example cr-0123456789abcdef0",
            ExitCode.USAGE,
        )


def check_offering_id(offering_id: str) -> None:
    if not OFFERING_ID.fullmatch(offering_id):
        raise OpsError(
            f"--offering-id {shown(offering_id)} is not a Capacity Block offering id ('cb-' and lowercase "
            "letters or digits)",
            "copy an id from 'llmops capacity-blocks offerings'",
            ExitCode.USAGE,
        )


def check_duration(hours: int, what: str = "Capacity Block duration") -> None:
    """Refuse ``hours`` that is not whole days up to 14, then whole weeks up to 182 days: ``what`` names the length."""
    valid = (hours % 24 == 0 and 24 <= hours <= MAX_DAILY_HOURS) or (
        hours % 168 == 0 and MAX_DAILY_HOURS < hours <= MAX_HOURS
    )
    if not valid:
        raise OpsError(
            f"--duration-hours {hours} is not a {what}",
            "use whole days up to 14 (24, 48, ... 336), then whole weeks up to 182 days (504, 672, ... 4368)",
            ExitCode.USAGE,
        )


def offering_from_api(item: dict) -> Offering:
    what = f"Capacity Block offering {shown(str(item.get('CapacityBlockOfferingId')))}"
    return Offering(
        field(item, "CapacityBlockOfferingId", str, what),
        field(item, "InstanceType", str, what),
        field(item, "InstanceCount", int, what),
        field(item, "AvailabilityZone", str, what),
        field(item, "StartDate", datetime, what),
        field(item, "EndDate", datetime, what),
        field(item, "CapacityBlockDurationHours", int, what),
        fee(item, what),
        field(item, "CurrencyCode", str, what),
    )


def search_params(search: Search) -> dict:
    """``search`` as describe_capacity_block_offerings parameters."""
    return {
        "InstanceType": search.instance_type,
        "InstanceCount": search.instance_count,
        "CapacityDurationHours": search.duration_hours,
        "StartDateRange": search.start_after,
        "EndDateRange": search.end_before,
    }


def default_window(now: datetime | None = None) -> tuple[datetime, datetime]:
    now = now or datetime.now(UTC)
    return now, now + timedelta(weeks=8)


def find_offerings(aws: Aws, search: Search) -> list[Offering]:
    """Every offering that matches, over all pages, cheapest first (then earliest)."""
    check_duration(search.duration_hours)
    items = aws.pages(
        "ec2",
        "describe_capacity_block_offerings",
        "list Capacity Block offerings",
        "CapacityBlockOfferings",
        **search_params(search),
    )
    return cheapest_first([offering_from_api(i) for i in items])


def find_offering(aws: Aws, search: Search, offering_id: str) -> Offering:
    for offering in find_offerings(aws, search):
        if offering.offering_id == offering_id:
            return offering
    raise OpsError(
        f"offering {offering_id} is no longer offered for these search parameters (sold, or expired)",
        "list the offerings again and pick a current one",
        ExitCode.OFFERING_GONE,
    )


def purchase(
    aws: Aws,
    offering: Offering,
    *,
    dry_run: bool,
    tags: dict[str, str],
    say: Callable[[str], None] = lambda text: None,
) -> dict | None:
    """Buy ``offering``, sending PurchaseCapacityBlock once (ops_cli/purchase_outcome.py): the reservation, from EC2's
    answer or, when the answer was lost, from the lookup (which fails with UNKNOWN otherwise). The
    reservation is tagged ``tags`` and a fresh purchase id (outcome.PURCHASE_ID_TAG) that the lookup looks for.
    With ``dry_run``, EC2 only checks permission and availability; returns None then."""
    action = f"purchase Capacity Block offering {offering.offering_id}"
    purchase_id = uuid.uuid4().hex
    tags = tags if dry_run else {**tags, outcome.PURCHASE_ID_TAG: purchase_id}
    params = {
        "CapacityBlockOfferingId": offering.offering_id,
        "InstancePlatform": "Linux/UNIX",
        "DryRun": dry_run,
    }
    if tags:
        params["TagSpecifications"] = [
            {
                "ResourceType": "capacity-reservation",
                "Tags": [{"Key": k, "Value": v} for k, v in tags.items()],
            }
        ]
    look_command = outcome.block_look_command(
        aws.region, offering.instance_type, offering.availability_zone, purchase_id
    )
    try:
        if dry_run:  # buys nothing: the ordinary client, with its retries
            response = aws.client("ec2").purchase_capacity_block(**params)
        else:
            response = outcome.send_once(
                aws, "ec2", "purchase_capacity_block", look_command=look_command, **params
            )
    except outcome.MaybeSent as lost:
        look = outcome.block_lookup(
            aws,
            instance_type=offering.instance_type,
            zone=offering.availability_zone,
            start=offering.start,
            end=offering.end,
            purchase_id=purchase_id,
        )
        found = outcome.settle(
            aws,
            lost,
            look,
            what=f"Capacity Block offering {offering.offering_id}",
            look_command=look_command,
            say=say,
        )
        say(
            f"Found it: reservation {found.get('CapacityReservationId')} carries this purchase's tag "
            f"{outcome.PURCHASE_ID_TAG}={purchase_id}."
        )
        return found
    except botocore.exceptions.ClientError as error:
        code = error_code(error)
        if dry_run and code == "DryRunOperation":
            return None
        if code in {
            "InvalidCapacityBlockOfferingId",
            "InvalidCapacityBlockOfferingId.NotFound",
            "OfferingNotFound",
        }:
            raise OpsError(
                f"offering {offering.offering_id} is gone: {error.response['Error'].get('Message', code)}",
                "list the offerings again and pick a current one",
                ExitCode.OFFERING_GONE,
            ) from None
        raise translate(error, action) from None
    except botocore.exceptions.BotoCoreError as error:
        raise translate(error, action) from None
    reservation = response.get("CapacityReservation")
    if not reservation or not reservation.get("CapacityReservationId"):
        raise OpsError(
            f"EC2 accepted the purchase of offering {offering.offering_id} but returned no reservation id",
            f"find the new reservation with: {look_command}",
            ExitCode.BOUGHT_NOT_WRITTEN,
        )
    return reservation


def describe_reservation(aws: Aws, reservation_id: str) -> dict:
    check_reservation_id(reservation_id)
    response = aws.call(
        "ec2",
        "describe_capacity_reservations",
        f"describe capacity reservation {reservation_id}",
        CapacityReservationIds=[reservation_id],
    )
    reservations = response.get("CapacityReservations")
    if not isinstance(
        reservations, list
    ):  # EC2 always sends the list (capacityReservationSet): this is no EC2 answer
        raise unexpected_answer(
            f"EC2's answer about capacity reservation {reservation_id} in {aws.region} has no list of reservations"
        )
    if not reservations:
        raise OpsError(
            f"capacity reservation {reservation_id} does not exist in {aws.region}",
            "check the id and the region (--region)",
            ExitCode.NOT_FOUND,
        )
    ids = [r.get("CapacityReservationId") if isinstance(r, dict) else None for r in reservations]
    if ids != [reservation_id]:
        raise unexpected_answer(
            f"asked EC2 for capacity reservation {reservation_id} in {aws.region}, it answered for "
            f"{', '.join(shown(str(i)) for i in ids)}"
        )
    return reservations[0]


def check_serves(reservation: dict, key: str) -> None:
    """Refuse a block that cannot serve however it is timed: EC2's answer without its period (exit 21), or a period
    that ends before it starts, or no instances (exit 2: name another block in ``capacity.key``)."""
    rid, start, end = (
        reservation.get("CapacityReservationId"),
        reservation.get("StartDate"),
        reservation.get("EndDate"),
    )
    if not isinstance(start, datetime) or not isinstance(end, datetime):
        raise unexpected_answer(
            f"EC2's answer about {rid} (capacity.{key}) has no start or end date: a Capacity Block has both"
        )
    count = reservation.get("TotalInstanceCount")
    if end <= start or isinstance(count, bool) or not isinstance(count, int) or count < 1:
        why = (
            f"ends ({utc_and_local(end)}) before it starts ({utc_and_local(start)})"
            if end <= start
            else f"holds {shown(str(count))} instances"
        )
        raise OpsError(
            f"capacity.{key}: {rid} {why}: it will never serve",
            f"buy another Capacity Block and name it in capacity.{key}",
            ExitCode.USAGE,
        )


def reservation_summary(reservation: dict) -> dict:
    return {
        "reservation_id": reservation.get("CapacityReservationId"),
        "state": reservation.get("State"),
        "instance_type": reservation.get("InstanceType"),
        "instance_count": reservation.get("TotalInstanceCount"),
        "availability_zone": reservation.get("AvailabilityZone"),
        "start": iso(reservation.get("StartDate")),
        "end": iso(reservation.get("EndDate")),
        "reservation_type": reservation.get("ReservationType"),
    }
