"""The canary of ``llmops rollout --canary``: a new pod template serves first on one replica, in the router's pool beside
the old ones, and the correctness probe decides whether the rollout goes on.

The steps, each behind :class:`CanaryCluster` so that the same decisions run against the cluster
(ops_cli/canary_kubernetes.py) and against the real router with stand-in replicas (tests/charts/test_canary.py):

1. **start** the canary: one replica of the new template whose labels the router's ``--selector`` matches, so that
   service discovery adds it to the pool once it is Ready (charts/vllm_router.py) and it takes its share of clients;
2. **wait** until it is ready, for at most the startup budget (a new revision or image means a cold start);
3. **probe** that replica alone (its own address, not the router's, which would spread the probe over old and new):
   the correctness probe of ``llmops bench`` and of the promotion gate (endpoint_probe/correctness.py), and the served
   model's check of the smoke test (endpoint_probe/smoke.py);
4. pass: **promote**: the serving workload rolls to the new template one replica at a time while the canary serves, so
   that as many replicas serve throughout as before the canary came; then the canary is removed. Fail (or not ready in
   time): **roll back**: the canary is removed, the router drops it (a deleted pod leaves its pool; a request that
   fails on it is retried on another worker), the old template keeps serving, and the reason is recorded
   (:class:`CanaryOutcome`) and reported as a metric the canary alarm watches (cdk_constructs/canary_alarm.py).

Deadlines read an injected clock; waits poll with an injected sleep.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

PROMOTED = "promoted"
ROLLED_BACK = "rolled back"
#: The canary passed, but the serving workload did not finish rolling in time: the canary keeps serving beside it.
STALLED = "stalled"
#: How often readiness and the promotion's progress are polled.
POLL_SECONDS = 5.0


class CanaryCluster(Protocol):
    """Where the canary runs: the cluster through kubectl, or the router on 127.0.0.1 with stand-ins in the tests."""

    def start_canary(self) -> None:
        """Start one replica of the new template in the router's pool."""

    def canary_url(self) -> str | None:
        """The canary replica's own base URL once it is ready (serving, in the pool); None before."""

    def canary_failure(self) -> str | None:
        """Why the canary cannot become ready (it crashed, its image does not pull); None while it may still."""

    def promote(self) -> None:
        """Start rolling the serving workload to the new template, one replica at a time while the canary serves."""

    def promoted(self) -> bool:
        """Whether every replica of the serving workload runs the new template and is ready."""

    def remove_canary(self) -> None:
        """Remove the canary replica: it leaves the router's pool, its requests finish or are retried elsewhere."""


#: The probe of one replica: the problems found at ``url`` (empty: it passed).
Probe = Callable[[str], list[str]]


@dataclass
class CanaryOutcome:
    """What the canary ended with.

    :param verdict: :data:`PROMOTED`, :data:`ROLLED_BACK` or :data:`STALLED`.
    :param reason: why it was rolled back or stalled (None when promoted).
    :param steps: (seconds since the start, what happened), in order.
    """

    verdict: str = ROLLED_BACK
    reason: str | None = None
    steps: list[tuple[float, str]] = field(default_factory=list)

    @property
    def promoted(self) -> bool:
        return self.verdict == PROMOTED

    def to_dict(self) -> dict:
        return {
            "verdict": self.verdict,
            "reason": self.reason,
            "steps": [{"seconds": round(at, 1), "step": step} for at, step in self.steps],
        }


@dataclass(frozen=True)
class CanaryTimes:
    """The canary's bounds, in seconds: ``ready`` for it to become ready (the startup budget), ``promotion`` for the
    serving workload to roll (one startup budget per replica, and their stops)."""

    ready: float
    promotion: float
    poll: float = POLL_SECONDS


def run_canary(
    cluster: CanaryCluster,
    probe: Probe,
    times: CanaryTimes,
    *,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> CanaryOutcome:
    """Start the canary, probe it alone, then promote the new template or roll back; never leaves the canary behind
    on a rollback (removed even when a step raises)."""
    started = clock()
    outcome = CanaryOutcome()

    def step(text: str) -> None:
        outcome.steps.append((clock() - started, text))

    def roll_back(reason: str) -> CanaryOutcome:
        outcome.reason = reason
        cluster.remove_canary()
        step(f"rolled back: {reason}")
        return outcome

    cluster.start_canary()
    step("canary started")
    try:
        url = _wait_ready(cluster, times, clock, sleep)
    except _NotReady as not_ready:
        return roll_back(str(not_ready))
    except BaseException:
        cluster.remove_canary()
        raise
    step(f"canary ready at {url}")
    try:
        problems = probe(url)
    except BaseException:
        cluster.remove_canary()
        raise
    if problems:
        return roll_back("the canary failed the correctness probe: " + "; ".join(problems))
    step("canary passed the correctness probe")
    cluster.promote()
    step("serving workload rolling to the new template")
    deadline = clock() + times.promotion
    while not cluster.promoted():
        if clock() >= deadline:
            # the new template passed its probe; what stalls is the workload's own rollout (no node for a replica):
            # the canary keeps serving beside it until a person looks (kubectl rollout status)
            outcome.reason = (
                f"the serving workload did not finish rolling within {times.promotion:g} s; the canary still serves "
                "beside it"
            )
            outcome.verdict = STALLED
            step(outcome.reason)
            return outcome
        sleep(times.poll)
    step("serving workload rolled")
    cluster.remove_canary()
    outcome.verdict = PROMOTED
    step("canary removed: promoted")
    return outcome


class _NotReady(Exception):
    pass


def _wait_ready(
    cluster: CanaryCluster, times: CanaryTimes, clock: Callable[[], float], sleep
) -> str:  # noqa: ANN001 (sleep)
    deadline = clock() + times.ready
    while True:
        url = cluster.canary_url()
        if url:
            return url
        failure = cluster.canary_failure()
        if failure:
            raise _NotReady(f"the canary cannot start: {failure}")
        if clock() >= deadline:
            raise _NotReady(
                f"the canary was not ready within {times.ready:g} s (the startup budget)"
            )
        sleep(times.poll)
