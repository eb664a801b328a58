"""The start-up plan from the user's own measurements: ``bench/timeline.py --measured FILE`` (repeatable).

A FILE is what ``llmops phases --env NAME --json`` printed for one start of the serving pod (ops_cli/commands/
phases.py: its phases, and in ``record`` the pod, the node and the serving identity it ran with), or the report
``bench/weight_load.py --json FILE --instance-type TYPE`` wrote on the node. Which it is, is read from the file: one
flag for both, repeated, because a plan needs several starts (the first of a configuration compiles; a later one, on a
new node or the same, restores the compile cache) and the order or kind of the files should not matter.

From them, in place of what deployment_config.startup_rates lists as unmeasured:

- the warm-up (vLLM's "init engine (profile, create kv cache, warmup model) took"), with a compile cache (restored from
  S3, or already on the node) and without, as the record's ``compile_cache`` says;
- the load rate from the node's instance store into GPU memory: the weights over "Model loading took", or the
  environment's loader read from the NVMe by bench/weight_load.py;
- the S3 copy's rate (the weights over the ``fetch-weights`` init container's run), in place of the CRT client's goal;
- the other phases of a start as measured (scheduling, image pull, the manifest check, the cache's restore, readiness);
- the time of a start in none of its phases: the record's total (node ready -> healthy) less the time its phases
  cover (containers starting between the init containers, vLLM's own start - imports, worker processes, the
  distributed set-up - before "Model loading" begins). The phases are measured from their own records, so their sum
  alone is not the start: without this term a verdict could be met by a start whose measured total is not.

Of several records, each figure is the slowest: a plan that holds for every measured start. A record of another model,
revision, image, instance type, serving profile or parallel layout than the environment's is refused, and so is one
whose phases are incomplete, each with one message naming the file and the fix (:class:`MeasuredRecordError`).

bench/cold_start_verdict.py computes the issue's done-when from them (issue 21).
"""

from __future__ import annotations

import json
import math
import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from types import MappingProxyType

from deployment_config.model import EnvironmentConfig
from deployment_config.startup_rates import Rate

# The phase names of ops_cli/startup_phases.py (startup_phases), as `llmops phases --json` prints them.
SCHEDULED = "node ready → pod scheduled"
IMAGE = "image pulled"
COPY = "weights on the node (S3 copy)"
CHECK = "weights checked (manifest)"
S3_CHECK = "weights checked in S3 (size, CRC64NVME)"  # ops_cli/startup_phases.py CHECK_S3_PHASE: a streamed start
RESTORE = "compile cache restored (S3)"
LOADED = "model loaded into the GPUs"
ENGINE = "engine ready (profile, KV cache, warm-up)"
HEALTHY = "first healthy (readiness)"
COMPILE = "compile (torch.compile)"
GRAPHS = "graph capture (CUDA graphs)"
FIRST_TOKEN = "first token (first completion answered)"
TOTAL = "total: node ready → healthy"
#: A start whose weights were on the node already logs no download; an eager start (--enforce-eager) logs no compile
#: and no graph capture; the first completion waits for a request (llmops smoke-test). Those may stay unknown.
MAY_BE_UNKNOWN = ("weights on the node", COMPILE, GRAPHS, FIRST_TOKEN)
#: What the identity must match, in the words of the refusal.
IDENTITY_FIELDS = {
    "model": "model",
    "model_revision": "model revision",
    "image": "image",
    "instance_type": "instance type",
    "layout": "parallel layout",
    "serving_profile_sha256": "serving profile (vLLM arguments and environment)",
}


class MeasuredRecordError(Exception):
    """A --measured file that cannot be used: the message names the file, what is wrong and the fix."""


@dataclass(frozen=True)
class Step:
    """A measured duration and where it was measured."""

    seconds: float
    source: str


@dataclass(frozen=True)
class Measured:
    """The slowest figure of each kind over the records (None: no record measured it)."""

    files: tuple[str, ...]
    steps: Mapping[str, Step] = field(default_factory=dict)  # phase name -> duration, as measured
    warm_up_cached: Step | None = None
    warm_up_uncached: Step | None = None
    restart_sync: Step | None = None  # the S3 copy of a start that found the image on its node
    restore_on_node: Step | None = None
    between_phases: Step | None = None  # a start's total less the time its phases cover
    load: Rate | None = None
    s3_copy: Rate | None = None

    @property
    def s3_check(self) -> Step | None:
        """check-weights-s3 of a streamed start (``model.weight_load: runai_streamer``), the slowest measured."""
        return self.steps.get(S3_CHECK)

    def warm_up(self, *, new_node: bool) -> tuple[str, Step] | None:
        """The warm-up a start plans with: with the compile cache where one was measured (on a new node only when a
        restore from S3 was measured too), else without."""
        cached = self.warm_up_cached and (not new_node or RESTORE in self.steps)
        if cached:
            return "warm_up_with_compile_cache", self.warm_up_cached
        if self.warm_up_uncached:
            return "warm_up_without_compile_cache", self.warm_up_uncached
        return None


def load_measured(paths: list[Path], env: EnvironmentConfig, loader: str) -> Measured:
    """Read every FILE, refuse one that does not fit ``env`` (:class:`MeasuredRecordError`), keep the slowest figures.
    ``loader`` is the environment's --load-format, whose row of a bench/weight_load.py report counts."""
    found: dict = {"steps": {}}
    for path in paths:
        document = _read(path)
        if isinstance(document.get("phases"), list):
            _phases_record(path, document, env, found)
        elif isinstance(document.get("results"), list) and "checkpoint" in document:
            _weight_load_report(path, document, env, loader, found)
        else:
            raise MeasuredRecordError(
                f"{path}: neither `llmops phases --json` output nor a bench/weight_load.py --json report: "
                "pass one of those"
            )
    found["steps"] = MappingProxyType(found["steps"])
    return Measured(files=tuple(str(p) for p in paths), **found)


#: The most a --measured file may hold: `llmops phases --json` prints a few kilobytes, a weight_load.py report less.
MAX_FILE_BYTES = 1 << 20


def duration(value: object) -> bool:
    """Whether ``value`` is a measured duration or rate: a finite, non-negative JSON number (a boolean is not one)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        return math.isfinite(float(value)) and value >= 0
    except OverflowError:  # an integer beyond a float's range
        return False


def _refuse_constant(name: str) -> None:
    raise MeasuredRecordError(f"{name} is not a measurement")


def _read(path: Path) -> dict:
    """The file's JSON object: a regular file (a FIFO or a device is refused without waiting on it) of at most
    :data:`MAX_FILE_BYTES`, with no NaN or Infinity, not nested beyond what the parser can take."""
    again = "pass the file that `llmops phases --env NAME --json > FILE` wrote"
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as error:
        raise MeasuredRecordError(f"{path}: not readable ({error.strerror}): {again}") from None
    with os.fdopen(descriptor, "rb") as stream:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise MeasuredRecordError(f"{path}: not a regular file (a pipe, a device?): {again}")
        data = stream.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise MeasuredRecordError(
            f"{path}: larger than {MAX_FILE_BYTES} bytes, more than any measurement: {again}"
        )
    try:
        document = json.loads(data.decode("utf-8"), parse_constant=_refuse_constant)
    except MeasuredRecordError as error:
        raise MeasuredRecordError(f"{path}: {error}: {again}") from None
    except RecursionError:
        raise MeasuredRecordError(
            f"{path}: JSON nested too deeply to be a measurement: {again}"
        ) from None
    except (
        UnicodeDecodeError,
        ValueError,
    ) as error:  # JSONDecodeError, and integers of more than 4300 digits
        raise MeasuredRecordError(f"{path}: not readable as JSON ({error}): {again}") from None
    if not isinstance(document, dict):
        raise MeasuredRecordError(f"{path}: a JSON object was expected: pass a measurement file")
    return document


def _check_identity(path: Path, recorded: dict, env: EnvironmentConfig, again: str) -> None:
    expected = env.serving_identity
    wrong = [
        f"{words} {recorded.get(key)!r} (environment {env.name}: {expected[key]!r})"
        for key, words in IDENTITY_FIELDS.items()
        if recorded.get(key) != expected[key]
    ]
    if wrong:
        raise MeasuredRecordError(
            f"{path}: measured with another configuration than environment {env.name}: "
            + "; ".join(wrong)
            + f". A warm-up or a load rate measured on one says nothing about the other: {again}"
        )


def _phases_record(path: Path, document: dict, env: EnvironmentConfig, found: dict) -> None:
    again = f"measure this one: `llmops phases --env {env.name} --json > {path}` after its start"
    record = document.get("record")
    if not isinstance(record, dict) or not isinstance(record.get("identity"), dict):
        raise MeasuredRecordError(
            f"{path}: no 'record' (which pod, image, instance type and layout were measured): it was "
            f"written by an older llmops; {again}"
        )
    _check_identity(path, record["identity"], env, again)
    phases = {p.get("phase"): p for p in document["phases"] if isinstance(p, dict)}
    wrong = [
        f"{name}: {p['seconds']!r}"
        for name, p in phases.items()
        if p.get("seconds") is not None and not duration(p["seconds"])
    ]
    if wrong:
        raise MeasuredRecordError(
            f"{path}: seconds that are no duration (a finite number, 0 or more): {'; '.join(wrong)}. "
            f"The file was edited or damaged: {again}"
        )
    unknown = [
        name
        for name, p in phases.items()
        if p.get("seconds") is None and name not in MAY_BE_UNKNOWN
    ]
    missing = [name for name in (LOADED, ENGINE, HEALTHY) if name not in phases]
    if unknown or missing:
        # kube-apiserver --event-ttl, "Default: 1h0m0s":
        # https://kubernetes.io/docs/reference/command-line-tools-reference/kube-apiserver/
        raise MeasuredRecordError(
            f"{path}: phases incomplete: {', '.join(unknown + missing)} not measured. Read them once the "
            "pod is healthy and within an hour of its start (Kubernetes keeps events for an hour by default): "
            f"`llmops phases --env {env.name} --json > {path}`"
        )
    started = phases.get(TOTAL, {}).get("started")
    source = (
        f"{path}: llmops phases, env {document.get('env')}, pod {record.get('pod')} on "
        f"{record.get('node')}, start at {started}"
    )

    def keep(name: str, seconds: float) -> None:
        if name not in found["steps"] or found["steps"][name].seconds < seconds:
            found["steps"][name] = Step(seconds, source)

    def slowest(slot: str, seconds: float) -> None:
        if found.get(slot) is None or found[slot].seconds < seconds:
            found[slot] = Step(seconds, source)

    def slowest_rate(slot: str, seconds: float, what: str) -> None:
        rate = env.model.loaded_gb / max(seconds, 0.1)
        if found.get(slot) is None or found[slot].gb_per_second > rate:
            found[slot] = Rate(rate, f"{source}: {what}", measured=True)

    seconds = {
        name: float(p["seconds"]) for name, p in phases.items() if p.get("seconds") is not None
    }
    pulled = IMAGE in seconds and "already present" not in str(phases[IMAGE].get("source"))
    cache = record.get("compile_cache")
    # A pod started on a node that had run one before: the image there, and the compile cache too where one is kept.
    # Its "node ready → pod scheduled" is the node's age, not a start's: it counts only for a new node.
    same_node = not pulled and cache in ("on the node", "not configured")
    # check-weights-s3 runs on every streamed start, a restart on the same node included (nothing is kept there)
    for name in (CHECK, S3_CHECK, HEALTHY) if same_node else (SCHEDULED, CHECK, S3_CHECK, HEALTHY):
        if name in seconds:
            keep(name, seconds[name])
    # Inside the engine's warm-up (compile, graph capture) or after readiness (the first completion): shown, not added.
    for name in (COMPILE, GRAPHS, FIRST_TOKEN):
        if name in seconds:
            keep(name, seconds[name])
    if pulled:
        keep(IMAGE, seconds[IMAGE])
    if RESTORE in seconds and cache == "restored":
        keep(RESTORE, seconds[RESTORE])
    if RESTORE in seconds and cache == "on the node":
        slowest("restore_on_node", seconds[RESTORE])
    if COPY in seconds and same_node:
        slowest("restart_sync", seconds[COPY])  # aws s3 sync of the files already there
    elif COPY in seconds:
        slowest_rate("s3_copy", seconds[COPY], f"{env.model.loaded_gb} GB over its S3 copy")
    slowest_rate("load", seconds[LOADED], f"{env.model.loaded_gb} GB over 'Model loading took'")
    slowest("between_phases", between_phases(document["phases"]))
    slowest(
        "warm_up_cached" if cache in ("restored", "on the node") else "warm_up_uncached",
        seconds[ENGINE],
    )


def _moment(text) -> datetime | None:
    try:
        moment = datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else None


def between_phases(phases: list) -> float:
    """The seconds of the record's total (node ready -> healthy) that none of its phases covers: the total less the
    union of the phases' spans within it (an overlap counted once; a phase without both times covers nothing, so an
    unknown one is in here). 0 without a total."""
    spans = {
        p.get("phase"): (_moment(p.get("started")), _moment(p.get("finished")))
        for p in phases
        if isinstance(p, dict)
    }
    low, high = spans.pop(TOTAL, (None, None))
    if low is None or high is None or high <= low:
        return 0.0
    covered, reach = 0.0, low
    for start, end in sorted((s, e) for s, e in spans.values() if s is not None and e is not None):
        start, end = max(start, reach), min(end, high)
        if end > start:
            covered += (end - start).total_seconds()
            reach = end
    return max(0.0, (high - low).total_seconds() - covered)


def _weight_load_report(
    path: Path, document: dict, env: EnvironmentConfig, loader: str, found: dict
) -> None:
    instance = env.gpu_instance_type.name
    if document.get("instance_type") != instance:
        raise MeasuredRecordError(
            f"{path}: bench/weight_load.py measured on instance type {document.get('instance_type')!r}, "
            f"environment {env.name} runs {instance}: run it on the node with --instance-type {instance} "
            "and --dir on its instance store"
        )
    rows = [
        r
        for r in document["results"]
        if isinstance(r, dict)
        and r.get("method") == loader
        and str(r.get("storage")).startswith("disk")
    ]
    rates = [r for r in rows if duration(r.get("gb_per_s")) and r["gb_per_s"] > 0]
    if not rates:
        raise MeasuredRecordError(
            f"{path}: phases incomplete: no figure for {loader} (this environment's --load-format) from the "
            f"disk ({'; '.join(str(r.get('note')) for r in rows) or 'no such row'}): run bench/weight_load.py "
            "again on the node, with that loader installed"
        )
    slow = min(rates, key=lambda r: r["gb_per_s"])
    rate = Rate(
        slow["gb_per_s"],
        f"{path}: bench/weight_load.py on {instance} at {document.get('measured_at')}, {loader}, "
        f"{slow.get('readers')} reader(s), {slow['storage']}",
        measured=True,
    )
    if found.get("load") is None or found["load"].gb_per_second > rate.gb_per_second:
        found["load"] = rate


def measured_seconds(measured: Measured) -> dict[str, Step]:
    """Every measured duration by the name the plan prints, each with its file, environment, pod and time (the
    measured rates are listed with the other rates)."""
    named = {
        "warm_up_with_compile_cache": measured.warm_up_cached,
        "warm_up_without_compile_cache": measured.warm_up_uncached,
        "restart_s3_sync": measured.restart_sync,
        "restore_on_the_node": measured.restore_on_node,
        "between_the_phases": measured.between_phases,
        **measured.steps,
    }
    return {name: step for name, step in named.items() if step is not None}
