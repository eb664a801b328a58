"""Issue 21's done-when, computed from the user's measurements (bench/measured_phases.py): node ready -> first token
on a new node with weights from S3 at most 15 minutes, a restart on the same node at most 5, each printed with its
arithmetic, and the terms nothing measured named instead of guessed. ``bench/timeline.py --measured`` prints them.
"""

from __future__ import annotations

from dataclasses import dataclass

from measured_phases import (
    CHECK,
    HEALTHY,
    IMAGE,
    RESTORE,
    S3_CHECK,
    SCHEDULED,
    Measured,
    measured_seconds,
)

from deployment_config.model import EnvironmentConfig
from deployment_config.startup_rates import Rate
from deployment_config.weight_load import WeightLoad

#: issue 21, "Done when": node ready -> first token at most 15 minutes, a restart on the same node at most 5.
FIRST_TOKEN_LIMIT_MINUTES = 15
RESTART_LIMIT_MINUTES = 5


@dataclass(frozen=True)
class Verdict:
    """One figure of the done-when: its terms in seconds (None: not measured), and its limit."""

    name: str
    limit_minutes: int | None
    terms: tuple[tuple[str, float | None], ...]
    not_counted: tuple[str, ...] = ()

    @property
    def missing(self) -> list[str]:
        return [label for label, seconds in self.terms if seconds is None]

    @property
    def minutes(self) -> float | None:
        return None if self.missing else round(sum(s for _, s in self.terms) / 60, 1)

    @property
    def met(self) -> bool | None:
        if self.minutes is None or self.limit_minutes is None:
            return None
        return sum(s for _, s in self.terms) <= self.limit_minutes * 60

    def line(self) -> str:
        limit = "" if self.limit_minutes is None else f" (limit {self.limit_minutes})"
        if self.minutes is None:
            return f"{self.name}: not computed{limit}: not measured: {'; '.join(self.missing)}"
        verdict = "" if self.met is None else (": met" if self.met else ": NOT met")
        sums = " + ".join(f"{s / 60:.1f} {label}" for label, s in self.terms)
        skipped = f" (not counted: {'; '.join(self.not_counted)})" if self.not_counted else ""
        return f"{self.name} {self.minutes:.1f} min{limit}{verdict}: {sums} = {self.minutes:.1f} min{skipped}"

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "minutes": self.minutes,
            "limit_minutes": self.limit_minutes,
            "met": self.met,
            "terms": [{"term": label, "seconds": s} for label, s in self.terms],
            "not_measured": self.missing,
            "not_counted": list(self.not_counted),
            "arithmetic": self.line(),
        }


def _step(measured: Measured, name: str, label: str) -> tuple[str, float | None]:
    step = measured.steps.get(name)
    return (label, None if step is None else step.seconds)


def _warm_up(measured: Measured, *, new_node: bool) -> tuple[str, float | None]:
    chosen = measured.warm_up(new_node=new_node)
    if chosen is None:
        return ("warm-up (engine ready: a start's llmops phases)", None)
    return (f"warm-up ({chosen[0]})", chosen[1].seconds)


def _between(measured: Measured) -> tuple[str, float | None]:
    """What a start spends in none of its phases (bench/measured_phases.py ``between_phases``): without it the terms
    sum the phases, not the start."""
    step = measured.between_phases
    return (
        "between the phases (containers starting, vLLM's start before loading)",
        None if step is None else step.seconds,
    )


def _load(
    measured: Measured, gigabytes: float, *, streamed: bool = False
) -> tuple[str, float | None]:
    """The load term: from the instance store, or, streamed, the Run:ai stream from S3 ("Model loading took" of a
    streamed start)."""
    if measured.load is None:
        return (
            "stream from S3 (llmops phases of a streamed start: Model loading took)"
            if streamed
            else "load from the instance store (llmops phases, or bench/weight_load.py on the node)",
            None,
        )
    rate = measured.load.gb_per_second
    name = "runai_stream_measured" if streamed else "instance_store_load"
    return (
        f"{'stream' if streamed else 'load'} ({gigabytes} GB / {name} {rate:g} GB/s)",
        gigabytes / rate,
    )


def verdicts(env: EnvironmentConfig, measured: Measured, s3_download: Rate) -> list[Verdict]:
    """The done-when of issue 21 for weights from S3: a new node (weights copied to its NVMe, then loaded) and a
    restart of the pod on the same node (weights, image and compile cache already there), and, for reference, the
    first start of a configuration, which compiles. Each term is a measured duration or the weights over a measured
    or documented rate (the S3 copy's: measured, else the documented s3_download), and the time of a start in none
    of its phases (the slowest record's); a term nothing measured leaves the figure uncomputed and says which."""
    weights = env.model.loaded_gb
    if env.model.weight_load is WeightLoad.RUNAI_STREAMER:
        return _streamed_verdicts(measured, weights)
    copy, copy_name = (
        (measured.s3_copy, "s3_copy_measured") if measured.s3_copy else (s3_download, "s3_download")
    )
    copy_term = (
        f"S3 copy ({weights} GB / {copy_name} {copy.gb_per_second:g} GB/s)",
        copy.seconds_for(weights),
    )
    head = (
        _step(measured, SCHEDULED, "node ready → pod scheduled"),
        _step(measured, IMAGE, "image pull (a start that pulled it)"),
        copy_term,
        _step(measured, CHECK, "manifest check"),
    )
    tail = (_step(measured, HEALTHY, "readiness"), _between(measured))
    warm = _warm_up(measured, new_node=True)
    restore = (
        (_step(measured, RESTORE, "compile cache restored from S3"),)
        if "with_compile_cache" in warm[0]
        else ()
    )
    first = Verdict(
        "node ready → first token",
        FIRST_TOKEN_LIMIT_MINUTES,
        (*head, *restore, _load(measured, weights), warm, *tail),
    )
    sync = measured.restart_sync
    on_node = measured.restore_on_node
    restart = Verdict(
        "restart on the same node",
        RESTART_LIMIT_MINUTES,
        (
            *((("S3 sync of the files already there", sync.seconds),) if sync else ()),
            _step(measured, CHECK, "manifest check"),
            *((("compile cache already on the node", on_node.seconds),) if on_node else ()),
            _load(measured, weights),
            _warm_up(measured, new_node=False),
            *tail,
        ),
        not_counted=(
            "the new pod's scheduling",
            *(
                ()
                if sync
                else ("the S3 sync of files already there: no record of a pod on a used node",)
            ),
            *(
                ()
                if on_node
                else (
                    "finding the compile cache on the node: no record of a restart that found it",
                )
            ),
        ),
    )
    compiles = Verdict(
        "first start of this configuration (vLLM compiles, nothing to restore)",
        None,
        (
            *head,
            _load(measured, weights),
            (
                "warm-up (warm_up_without_compile_cache)",
                measured.warm_up_uncached.seconds if measured.warm_up_uncached else None,
            ),
            *tail,
        ),
    )
    return [first, restart, compiles]


def _streamed_verdicts(measured: Measured, weights: float) -> list[Verdict]:
    """The same figures for ``model.weight_load: runai_streamer``: no copy and no sha256 check; check-weights-s3 and
    the stream from S3 on every start, a restart on the same node included (nothing of the weights is kept there)."""
    check = _step(measured, S3_CHECK, "check-weights-s3 (size and CRC64NVME in S3)")
    stream = _load(measured, weights, streamed=True)
    tail = (_step(measured, HEALTHY, "readiness"), _between(measured))
    head = (
        _step(measured, SCHEDULED, "node ready → pod scheduled"),
        _step(measured, IMAGE, "image pull (a start that pulled it)"),
        check,
    )
    warm = _warm_up(measured, new_node=True)
    restore = (
        (_step(measured, RESTORE, "compile cache restored from S3"),)
        if "with_compile_cache" in warm[0]
        else ()
    )
    on_node = measured.restore_on_node
    uncached = measured.warm_up_uncached
    return [
        Verdict(
            "node ready → first token",
            FIRST_TOKEN_LIMIT_MINUTES,
            (*head, *restore, stream, warm, *tail),
        ),
        Verdict(
            "restart on the same node",
            RESTART_LIMIT_MINUTES,
            (
                check,
                *((("compile cache already on the node", on_node.seconds),) if on_node else ()),
                stream,
                _warm_up(measured, new_node=False),
                *tail,
            ),
            not_counted=("the new pod's scheduling",),
        ),
        Verdict(
            "first start of this configuration (vLLM compiles, nothing to restore)",
            None,
            (
                *head,
                stream,
                ("warm-up (warm_up_without_compile_cache)", uncached.seconds if uncached else None),
                *tail,
            ),
        ),
    ]


def measured_lines(measured: Measured) -> list[str]:
    return [
        f"  {name:<30} {s.seconds:>7g} s  {s.source}"
        for name, s in measured_seconds(measured).items()
    ]


def measured_json(measured: Measured, found: list[Verdict]) -> dict:
    return {
        "files": list(measured.files),
        "seconds": {
            name: {"seconds": s.seconds, "source": s.source}
            for name, s in measured_seconds(measured).items()
        },
        "done_when": [v.to_dict() for v in found],
    }
