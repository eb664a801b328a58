"""A purchase is sent once; after a failure that may have reached AWS, what happened is looked up, never guessed.

Three calls buy something that is paid upfront and cannot be cancelled: EC2 PurchaseCapacityBlock and
PurchaseCapacityBlockExtension, SageMaker CreateTrainingPlan. None of them has a client token: botocore 1.43.127's models
(botocore/data/ec2/2016-11-15/service-2.json: PurchaseCapacityBlockRequest has DryRun, TagSpecifications,
CapacityBlockOfferingId, InstancePlatform; PurchaseCapacityBlockExtensionRequest has CapacityBlockExtensionOfferingId,
CapacityReservationId, DryRun; botocore/data/sagemaker/2017-07-24/service-2.json: CreateTrainingPlanRequest has
TrainingPlanName, TrainingPlanOfferingId, SpareInstanceCountPerUltraServer, Tags) have no ClientToken or idempotency
member, and none of the three operations is marked ``idempotent``. So AWS cannot recognise a second copy of the request:
a re-sent request is a second purchase. Hence:

- :func:`send_once` sends the request exactly once, on a client with total_max_attempts 1 (``Aws.client(...,
  single_send=True)``), never through ``Aws.call`` (whose throttling backoff re-sends).
- A throttling *answer* is a refusal and is not re-sent either; the user runs the command again (see THROTTLED below).
- Any other failure that may have reached AWS (an HTTP 5xx answer, a read time-out, a reset or closed connection, an
  unreadable answer, Ctrl-C while the request was on its way) raises :class:`MaybeSent`; :func:`settle` then looks the
  purchase up and returns what was bought, or fails with "UNKNOWN" (exit 13, with the exact ``aws`` command to look),
  also when no lookup found it ("NOT FOUND"): a describe call may show a new purchase only later.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

import botocore.exceptions

from ops_cli.aws import Aws
from ops_cli.errors import THROTTLING_CODES, ExitCode, OpsError, error_code

#: The tag that identifies one purchase: a fresh random value per PurchaseCapacityBlock request, applied by EC2 with the
#: reservation (PurchaseCapacityBlockRequest.TagSpecifications, "The tags to apply to the Capacity Block during launch",
#: the model above), so that the lookup finds this purchase and not another block of the same type, zone and dates.
PURCHASE_ID_TAG = "llmops:purchase-id"

#: Seconds to wait before each lookup. "The Amazon EC2 API follows an eventual consistency model ... if you run a
#: command to modify or describe the resource that you just created, its ID might not have propagated throughout the
#: system"; the advice is to "run the Describe command repeatedly, starting with a couple of seconds of wait time"
#: (https://docs.aws.amazon.com/ec2/latest/devguide/eventual-consistency.html), with no upper bound. So lookups go on for
#: two minutes, and even when none finds the purchase the answer stays "unknown" (look again before buying): a block
#: that EC2 shows only later would otherwise be bought twice. A match that cannot be told apart from another purchase
#: is "unknown" too.
LOOKUP_DELAYS = (0, 2, 4, 8, 16, 30, 60)

#: Errors botocore raises before a request leaves the machine, or when no connection could be made: the request cannot
#: have reached AWS. (botocore/httpsession.py raises EndpointConnectionError for NewConnectionError and gaierror,
#: ConnectTimeoutError for a connect time-out, ProxyConnectionError when the proxy refuses; the others come from
#: parameter validation, credentials and configuration, before sending.) SSLError is deliberately not here: urllib3 can
#: raise it while reading an answer, after the request was sent.
_NOT_SENT = (
    botocore.exceptions.ParamValidationError,
    botocore.exceptions.NoCredentialsError,
    botocore.exceptions.PartialCredentialsError,
    botocore.exceptions.CredentialRetrievalError,
    botocore.exceptions.TokenRetrievalError,
    botocore.exceptions.SSOError,
    botocore.exceptions.NoAuthTokenError,
    botocore.exceptions.NoRegionError,
    botocore.exceptions.ProfileNotFound,
    botocore.exceptions.ConfigParseError,
    botocore.exceptions.UnknownCredentialError,
    botocore.exceptions.ConnectTimeoutError,
    botocore.exceptions.ProxyConnectionError,
)


class MaybeSent(Exception):  # noqa: N818 - a state, not a failure of llmops
    """The purchase request may have reached AWS, and no usable answer came back: ``reason`` says what happened."""

    def __init__(self, reason: str, *, interrupted: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.interrupted = interrupted


def _may_have_been_sent(error: BaseException) -> bool:
    if isinstance(error, botocore.exceptions.SSLError):
        return True
    if type(error) is botocore.exceptions.EndpointConnectionError or isinstance(error, _NOT_SENT):
        return False
    return True


def send_once(aws: Aws, service: str, operation: str, *, look_command: str, **params) -> dict:
    """``service.operation(**params)`` sent exactly once. Returns AWS's answer. A refusal (an HTTP 4xx answer, or an
    error raised before anything was sent) is re-raised as botocore raised it, for the caller to explain; a throttling
    answer becomes an OpsError (exit 6) that is not re-sent; a failure that may have reached AWS becomes MaybeSent."""
    client = aws.client(service, single_send=True)
    try:
        return getattr(client, operation)(**params)
    except KeyboardInterrupt:
        raise MaybeSent(
            "interrupted (Ctrl-C) while the request was on its way to AWS", interrupted=True
        ) from None
    except botocore.exceptions.ClientError as error:
        code = error_code(error)
        status = error.response.get("ResponseMetadata", {}).get("HTTPStatusCode") or 0
        if code in THROTTLING_CODES:
            # A throttling answer is AWS refusing the request: EC2 "throttles EC2 API requests ... If you exceed an
            # API throttling limit, you get the RequestLimitExceeded error code", and once a bucket is empty "the
            # remaining requests ... fail" (https://docs.aws.amazon.com/ec2/latest/devguide/ec2-api-throttling.html);
            # SageMaker's ThrottlingException is "The request was denied due to request throttling"
            # (https://docs.aws.amazon.com/sagemaker/latest/APIReference/CommonErrors.html). So it was not bought, and
            # re-sending would be safe in principle; llmops still does not re-send a purchase by itself: the user
            # runs the command again, after looking if in doubt.
            raise OpsError(
                f"AWS refused the purchase: it was throttled ({code}), so it was not carried out, and "
                "llmops did not send it again",
                "wait a minute and run the same command again (to check "
                f"first that nothing was bought: {look_command})",
                ExitCode.THROTTLED,
            ) from None
        if status >= 500:
            message = error.response.get("Error", {}).get("Message", "")
            raise MaybeSent(
                f"AWS answered HTTP {status} ({code}{': ' + message if message else ''}), which does not "
                "say whether the purchase was carried out"
            ) from None
        raise
    except Exception as error:  # noqa: BLE001 - anything but a known 'not sent' may have reached AWS
        if not _may_have_been_sent(error):
            raise
        raise MaybeSent(
            f"the answer was lost: {type(error).__name__}: {str(error).rstrip('.')}"
        ) from None


@dataclass(frozen=True)
class Look:
    """One lookup: ``found`` is the purchase (as AWS describes it); ``doubt`` names something that may be it."""

    found: dict | None = None
    doubt: str | None = None


def settle(
    aws: Aws,
    lost: MaybeSent,
    look: Callable[[], Look],
    *,
    what: str,
    look_command: str,
    say: Callable[[str], None] = lambda text: None,
) -> dict:
    """After ``lost``: look the purchase up (``look``, at LOOKUP_DELAYS) and return it if it was bought. Otherwise an
    OpsError "UNKNOWN" (exit 13): nothing found by any lookup ("NOT FOUND"), a lookup failed or was interrupted, or it
    found only something that may be it. Never sends the purchase again, and never says it is safe to."""
    say(f"{what}: {lost.reason}. Looking it up (llmops never sends a purchase twice)...")
    doubt = None
    try:
        for delay in LOOKUP_DELAYS:
            if delay:
                aws.sleep(delay)
            result = look()
            if result.found is not None:
                return result.found
            doubt = result.doubt or doubt
    except OpsError as error:
        raise _unknown(what, lost, f"looking it up failed: {error.message}", look_command) from None
    except KeyboardInterrupt:
        raise _unknown(what, lost, "the lookup was interrupted", look_command) from None
    except Exception as error:  # noqa: BLE001 - whatever failed, the purchase may have happened: never lose that
        raise _unknown(
            what, lost, f"looking it up failed: {type(error).__name__}: {error}", look_command
        ) from None
    if doubt:
        raise _unknown(what, lost, doubt, look_command)
    # Nothing found is not proof of nothing bought (eventual consistency, above): never "safe to run again" here.
    raise OpsError(
        f"NOT FOUND, so UNKNOWN whether this was bought: {what}. {_sentence(lost.reason)}; "
        f"{len(LOOKUP_DELAYS)} lookups over {sum(LOOKUP_DELAYS)} s found no such purchase, but EC2 and "
        "SageMaker may show a new purchase later",
        f"do NOT buy again before looking once more in a few minutes: {look_command}",
        ExitCode.PURCHASE_UNKNOWN,
        details={"bought": None, "outcome": "not-found", "look": look_command},
    )


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def _unknown(what: str, lost: MaybeSent, why: str, look_command: str) -> OpsError:
    return OpsError(
        f"UNKNOWN whether this was bought: {what}. {_sentence(lost.reason)}; {why}",
        f"do NOT buy again before looking: {look_command}",
        ExitCode.PURCHASE_UNKNOWN,
        details={"bought": None, "outcome": "unknown", "look": look_command},
    )


# --- Capacity Blocks ----------------------------------------------------------------------------------------------------


def block_filters(instance_type: str, zone: str) -> list[dict]:
    """DescribeCapacityReservations filters documented in the EC2 model (DescribeCapacityReservationsRequest.Filters:
    instance-type, availability-zone); the reservation type, dates and tag are checked on the answer."""
    return [
        {"Name": "instance-type", "Values": [instance_type]},
        {"Name": "availability-zone", "Values": [zone]},
    ]


def block_look_command(region: str, instance_type: str, zone: str, purchase_id: str) -> str:
    query = (
        f"CapacityReservations[?ReservationType=='capacity-block' && "
        f"Tags[?Key=='{PURCHASE_ID_TAG}' && Value=='{purchase_id}']]"
    )
    return " ".join(
        [
            "aws ec2 describe-capacity-reservations",
            "--region",
            shlex.quote(region),
            "--filters",
            shlex.quote(f"Name=instance-type,Values={instance_type}"),
            shlex.quote(f"Name=availability-zone,Values={zone}"),
            "--query",
            _double_quoted(query),
        ]
    )


def _double_quoted(text: str) -> str:
    """``text`` as one shell word: in double quotes when nothing in it is special there (JMESPath's 'literals' then
    read as they are), else shlex's single quotes."""
    return f'"{text}"' if not set(text) & set('"$`\\!') else shlex.quote(text)


def block_lookup(
    aws: Aws,
    *,
    instance_type: str,
    zone: str,
    start: datetime | None,
    end: datetime | None,
    purchase_id: str,
) -> Callable[[], Look]:
    """The Capacity Block reservation of this type and zone that carries this purchase's tag. A capacity-block
    reservation of the same type, zone, start and end without the tag is a doubt: another purchase, or this one whose
    tags are not visible yet."""

    def look() -> Look:
        items = aws.pages(
            "ec2",
            "describe_capacity_reservations",
            f"look up the Capacity Block purchase {purchase_id}",
            "CapacityReservations",
            Filters=block_filters(instance_type, zone),
        )
        blocks = [r for r in items if r.get("ReservationType") == "capacity-block"]
        ours = [
            r
            for r in blocks
            if {"Key": PURCHASE_ID_TAG, "Value": purchase_id} in (r.get("Tags") or [])
        ]
        if ours:
            return Look(found=ours[0])
        alike = [
            r.get("CapacityReservationId", "?")
            for r in blocks
            if r.get("StartDate") == start and r.get("EndDate") == end
        ]
        if alike:
            return Look(
                doubt=f"{', '.join(alike)} has the same type, zone and dates but not this purchase's tag "
                f"{PURCHASE_ID_TAG}={purchase_id}: an earlier purchase, or this one with its tags not "
                "visible yet"
            )
        return Look()

    return look


def extension_look_command(region: str, reservation_id: str, offering_id: str) -> str:
    return " ".join(
        [
            "aws ec2 describe-capacity-block-extension-history",
            "--region",
            shlex.quote(region),
            "--capacity-reservation-ids",
            shlex.quote(reservation_id),
            "--filters",
            shlex.quote(f"Name=capacity-block-extension-offering-id,Values={offering_id}"),
        ]
    )


def extension_lookup(aws: Aws, reservation_id: str, offering_id: str) -> Callable[[], Look]:
    """The extension of ``reservation_id`` bought from ``offering_id``, from DescribeCapacityBlockExtensionHistory
    (filter capacity-block-extension-offering-id, EC2 model). The offering was on offer just before the purchase, so it
    had not been bought before: an entry for it is this purchase, whatever its payment status."""

    def look() -> Look:
        items = aws.pages(
            "ec2",
            "describe_capacity_block_extension_history",
            f"look up the extension of {reservation_id}",
            "CapacityBlockExtensions",
            CapacityReservationIds=[reservation_id],
            Filters=[{"Name": "capacity-block-extension-offering-id", "Values": [offering_id]}],
        )
        ours = [e for e in items if e.get("CapacityBlockExtensionOfferingId") == offering_id]
        return Look(found=ours[0]) if ours else Look()

    return look


# --- training plans -----------------------------------------------------------------------------------------------------


def plan_look_command(region: str, name: str) -> str:
    return f"aws sagemaker describe-training-plan --region {shlex.quote(region)} --training-plan-name {shlex.quote(name)}"


def plan_lookup(aws: Aws, name: str) -> Callable[[], Look]:
    """The training plan by name. The name was checked to be free just before the purchase (training_plans.create_plan),
    so a plan of that name now is this purchase."""

    def look() -> Look:
        try:
            plan = aws.call(
                "sagemaker",
                "describe_training_plan",
                f"look up training plan {name}",
                TrainingPlanName=name,
            )
        except OpsError as error:
            if error.exit_code == ExitCode.NOT_FOUND:
                return Look()
            raise
        return Look(found=plan)

    return look
