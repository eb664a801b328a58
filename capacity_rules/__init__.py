"""The rules about Capacity Blocks that the serving metrics publisher (a Lambda function:
cdk_constructs/serving_metrics/runtime/handler.py) and ``llmops`` (ops_cli/) both apply, written once: which reservation
states never serve or were never paid, which extensions were paid, and where the block as bought ends.

Standard library only: the publisher's code bundles this package at its own path (cdk_constructs/serving_metrics/,
``BUNDLE``), as the deploy-time smoke test's bundles endpoint_probe/; ``llmops`` imports it from its wheel.
"""

from __future__ import annotations

#: Reservation states after which a Capacity Block never serves (again): the publisher puts 0 hours left and counts
#: the block in no serving gap, ``llmops handover``/``preflight`` refuse it. From the EC2 API reference's
#: CapacityReservation State; payment-failed: "The payment couldn't be processed in the 12 hour time frame. Your
#: Capacity Block was released" (EC2 user guide, https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/capacity-blocks-view.html).
FINAL_STATES = frozenset({"expired", "cancelled", "failed", "unsupported", "payment-failed"})
#: Reservation states of a block that was never paid: neither its fee nor its minutes count (same page).
NEVER_PAID = ("cancelled", "failed", "unsupported", "payment-failed")
#: CapacityBlockExtensionStatus values. EC2 API reference, CapacityBlockExtension.CapacityBlockExtensionStatus
#: (botocore's EC2 model): payment-pending (processing; failed if not processed within 12 hours), payment-failed (not
#: paid), payment-succeeded (paid: invoiced as a one-time upfront payment against the reservation id). The reservation's
#: EndDate moves to the extension's end only once its payment succeeded; after a failed one the block ends at its
#: original end (EC2 user guide, https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/capacity-blocks-extend.html,
#: "Billing"; the extension continues the block "without disruption", so it starts where the block ended).
PAID, FAILED = "payment-succeeded", "payment-failed"


def extensions_of(reservation_id: str | None, extensions: list[dict]) -> list[dict]:
    """The extensions of ``reservation_id`` that have a start (DescribeCapacityBlockExtensionHistory), in time order."""
    ours = [
        x
        for x in extensions
        if x.get("CapacityReservationId") == reservation_id
        and x.get("CapacityBlockExtensionStartDate")
    ]
    return sorted(ours, key=lambda x: x["CapacityBlockExtensionStartDate"])


def bought_until(end_date, ours: list[dict]):
    """Where the block as bought ends: its first extension's start (an extension starts where what it extends ended,
    paid or not), else its EndDate (after a paid extension EC2's EndDate is the extended end); None without either."""
    starts = (x["CapacityBlockExtensionStartDate"] for x in ours)
    return min((d for d in (end_date, *starts) if d is not None), default=None)
