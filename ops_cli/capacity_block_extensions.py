"""Extending an EC2 Capacity Block: the extension offerings of a reservation, whether EC2 would extend it, and buying
an extension (EC2 User Guide, "Extend Capacity Blocks", capacity-blocks-extend.html). The purchase, the offerings and
the reservation itself are in ops_cli/capacity_blocks.py."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

import botocore.exceptions

from ops_cli import purchase_outcome as outcome
from ops_cli.aws import Aws
from ops_cli.capacity_blocks import check_duration
from ops_cli.errors import ExitCode, OpsError, error_code, shown, translate
from ops_cli.offering import Offering, fee, field
from ops_cli.output import iso

#: "To extend a Capacity Block, it must have a status of active or scheduled, and have no extensions that are
#: payment-pending. You can request to extend ... up to a minimum of 1 hour or a maximum of 56 days before it expires.
#: You can extend your Capacity Block by 1-day increments up to 14 days, and 7-day increments up to 182 days" (the same
#: steps as a purchase: check_duration). "The extension will remain in payment-pending until the bill is paid. If your
#: payment can't be processed within 12 hours, or up to 35 minutes before the Capacity Block is scheduled to end
#: (whichever comes first), your extension is not successful".
EXTENDABLE_STATES = {"active", "scheduled"}
EXTEND_AT_LEAST_BEFORE_END = timedelta(hours=1)
EXTEND_AT_MOST_BEFORE_END = timedelta(days=56)
#: Extension offering ids: botocore's EC2 model types CapacityBlockExtensionOfferingId as ``OfferingId``, a string with no
#: pattern; only a plausible shape is checked, so that a typo fails before any call.
EXTENSION_OFFERING_ID = re.compile(r"[a-z]{2,4}-[0-9a-z]{1,60}")


@dataclass(frozen=True)
class ExtensionOffering(Offering):
    """One extension of a reservation: an offering (ops_cli.offering.Offering) whose ``start`` is the reservation's
    current end and ``end`` its new one, for ``reservation_id``."""

    reservation_id: str = ""

    def to_dict(self) -> dict:
        offering = super().to_dict()
        return {
            "offering_id": offering.pop("offering_id"),
            "reservation_id": self.reservation_id,
            "extension_start": offering.pop("start"),
            "extension_end": offering.pop("end"),
            **offering,
        }


def check_extension_offering_id(offering_id: str) -> None:
    if not EXTENSION_OFFERING_ID.fullmatch(offering_id):
        raise OpsError(
            f"--offering-id {shown(offering_id)} is not a Capacity Block extension offering id",
            "copy an id from 'llmops capacity-blocks extend RESERVATION --duration-hours N'",
            ExitCode.USAGE,
        )


def check_extendable(reservation: dict, now: datetime) -> None:
    """Refuse, before asking for offerings, a reservation EC2 would not extend: its state, or its end too near or too
    far."""
    reservation_id, state, end = (
        reservation.get("CapacityReservationId"),
        reservation.get("State"),
        reservation.get("EndDate"),
    )
    if state not in EXTENDABLE_STATES:
        raise OpsError(
            f"reservation {reservation_id} is {state}: only an active or scheduled Capacity Block can be "
            "extended",
            "buy a new Capacity Block (llmops capacity-blocks offerings)",
            ExitCode.CHECK_FAILED,
        )
    if end is None:
        return
    left = end - now
    if left < EXTEND_AT_LEAST_BEFORE_END:
        raise OpsError(
            f"reservation {reservation_id} ends {iso(end)}, in less than an hour: EC2 extends a Capacity Block "
            "only up to 1 hour before it ends",
            "buy a new Capacity Block (llmops capacity-blocks offerings)",
            ExitCode.CHECK_FAILED,
        )
    if left > EXTEND_AT_MOST_BEFORE_END:
        raise OpsError(
            f"reservation {reservation_id} ends {iso(end)}, more than 56 days from now: EC2 extends a Capacity "
            "Block only from 56 days before it ends",
            "ask again closer to the end",
            ExitCode.CHECK_FAILED,
        )


def extension_from_api(item: dict, reservation_id: str) -> ExtensionOffering:
    what = f"extension offering {shown(str(item.get('CapacityBlockExtensionOfferingId')))}"
    return ExtensionOffering(
        field(item, "CapacityBlockExtensionOfferingId", str, what),
        item.get("InstanceType", "?"),
        item.get("InstanceCount", 0),
        item.get("AvailabilityZone", "?"),
        item.get("CapacityBlockExtensionStartDate"),
        item.get("CapacityBlockExtensionEndDate"),
        item.get("CapacityBlockExtensionDurationHours", 0),
        fee(item, what),
        item.get("CurrencyCode", ""),
        reservation_id=reservation_id,
    )


def find_extensions(aws: Aws, reservation_id: str, duration_hours: int) -> list[ExtensionOffering]:
    """The extension offerings of ``duration_hours`` for the reservation, over all pages, cheapest first."""
    check_duration(duration_hours)
    items = aws.pages(
        "ec2",
        "describe_capacity_block_extension_offerings",
        f"list extension offerings for {reservation_id}",
        "CapacityBlockExtensionOfferings",
        CapacityReservationId=reservation_id,
        CapacityBlockExtensionDurationHours=duration_hours,
    )
    offerings = [extension_from_api(item, reservation_id) for item in items]
    return sorted(offerings, key=lambda o: (o.upfront_fee, o.offering_id))


def purchase_extension(
    aws: Aws,
    offering: ExtensionOffering,
    *,
    dry_run: bool,
    say: Callable[[str], None] = lambda text: None,
) -> dict | None:
    """Buy the extension, sending PurchaseCapacityBlockExtension once (ops_cli/purchase_outcome.py): the extension, from
    EC2's answer or, when the answer was lost, from the extension history. With ``dry_run``, EC2 only checks permission
    and availability; returns None then."""
    action = f"extend reservation {offering.reservation_id} with offering {offering.offering_id}"
    params = {
        "CapacityBlockExtensionOfferingId": offering.offering_id,
        "CapacityReservationId": offering.reservation_id,
        "DryRun": dry_run,
    }
    look_command = outcome.extension_look_command(
        aws.region, offering.reservation_id, offering.offering_id
    )
    try:
        if dry_run:  # buys nothing: the ordinary client, with its retries
            response = aws.client("ec2").purchase_capacity_block_extension(**params)
        else:
            response = outcome.send_once(
                aws, "ec2", "purchase_capacity_block_extension", look_command=look_command, **params
            )
    except outcome.MaybeSent as lost:
        found = outcome.settle(
            aws,
            lost,
            outcome.extension_lookup(aws, offering.reservation_id, offering.offering_id),
            what=f"the extension of {offering.reservation_id} (offering {offering.offering_id})",
            look_command=look_command,
            say=say,
        )
        say(
            f"Found it in the extension history of {offering.reservation_id}: "
            f"{found.get('CapacityBlockExtensionStatus', '?')}."
        )
        return found
    except botocore.exceptions.ClientError as error:
        if dry_run and error_code(error) == "DryRunOperation":
            return None
        raise translate(error, action) from None
    except botocore.exceptions.BotoCoreError as error:
        raise translate(error, action) from None
    extensions = response.get("CapacityBlockExtensions") or []
    if not extensions:
        raise OpsError(
            f"EC2 accepted the extension of {offering.reservation_id} but returned no extension",
            f"look at it: {look_command}",
            ExitCode.AWS_ERROR,
        )
    return extensions[0]
