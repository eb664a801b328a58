"""Which of the two S3 paths the start-up plan finds faster, and whether the path the charts run meets issue 30's target
(node ready -> first token at most 15 minutes typical on a new node, at most 5 on a restart of the same node), each
total with its arithmetic, warm-up included (ops_cli/warm_up_plan.py)."""

from __future__ import annotations

from dataclasses import dataclass

from ops_cli.plan_phase import Phase, minutes

#: The S3 paths by the names the plan uses, in the words of its rows.
PATH_NAMES = {"copy": "the copy to the NVMe", "runai": "Run:ai distributed from S3"}
#: The path the charts run by default (``model.weight_load: copy``): the copy to the node's NVMe, checked against the
#: manifest (charts/vllm_deployment.py, the comment above ``S3_TRANSFER_SETTINGS``). With ``weight_load:
#: runai_streamer`` the caller (ops_cli/first_token_plan.py ``chosen_s3_path``) passes "runai".
CHARTS_S3_PATH = "copy"
#: Issue 30, "Done when": node ready -> first token with S3 weights.
TARGET_NEW_NODE_MINUTES = 15
TARGET_RESTART_MINUTES = 5


@dataclass(frozen=True)
class PathTerms:
    """The terms (name, seconds) of one S3 path's two totals: a new node, and a restart on the same node;
    ``first_start_warm_up``, where a compile cache is kept, the cold warm-up of the key's first start in place of the
    new node's ``compile cache restore`` and ``warm-up`` terms (a first start has nothing to restore)."""

    new_node: tuple[tuple[str, float], ...]
    restart: tuple[tuple[str, float], ...]
    first_start_warm_up: float | None = None

    @property
    def new_node_seconds(self) -> float:
        return sum(seconds for _, seconds in self.new_node)

    @property
    def restart_seconds(self) -> float:
        return sum(seconds for _, seconds in self.restart)

    @property
    def first_start_minutes(self) -> float | None:
        if self.first_start_warm_up is None:
            return None
        warm = sum(s for name, s in self.new_node if name in ("compile cache restore", "warm-up"))
        return minutes(self.new_node_seconds - warm + self.first_start_warm_up)


def path_minutes(paths: dict[str, PathTerms], path: str) -> tuple[float, float]:
    """(new node, restart) minutes of ``path`` ("copy" or "runai"): the totals the rows above print."""
    terms = paths[path]
    return minutes(terms.new_node_seconds), minutes(terms.restart_seconds)


def _arithmetic(terms: tuple[tuple[str, float], ...], limit: int) -> str:
    total = sum(seconds for _, seconds in terms)
    sign = "<=" if minutes(total) <= limit else ">"
    parts = " + ".join(f"{name} {seconds:.1f}" for name, seconds in terms)
    return f"{parts} = {total:.1f} s = {minutes(total):g} min {sign} {limit}"


def faster_path(paths: dict[str, PathTerms], chosen: str = CHARTS_S3_PATH) -> Phase:
    """Which of the two S3 paths is faster, on a new node and on a restart, warm-up in both totals, and what the
    environment's path (``chosen``) checks: the copy hashes every file against the manifest's sha256; the stream is
    preceded by check-weights-s3, each object's size and CRC64NVME against the manifest (format 2)."""
    copy_new, copy_restart = path_minutes(paths, "copy")
    runai_new, runai_restart = path_minutes(paths, "runai")

    def faster(copy: float, runai: float) -> str:
        return (
            f"Run:ai distributed ({runai:g} min against {copy:g})"
            if runai < copy
            else f"the copy ({copy:g} min against {runai:g})"
        )

    why = (
        "This environment copies (model.weight_load: copy, the default): the node hashes every file against the "
        "manifest's sha256 once, then restarts load from the NVMe. model.weight_load: runai_streamer streams instead, "
        "after check-weights-s3 has checked each object's size and CRC64NVME as S3 keeps it against the manifest "
        "(format 2, written by llmops weights mirror); docs/weights.md, 'Streaming into the GPUs (Run:ai)', says what "
        "that check covers and what it does not"
        if chosen == "copy"
        else f"This environment runs {PATH_NAMES[chosen]} (model.weight_load: runai_streamer): check-weights-s3 checks "
        "each object's size and CRC64NVME as S3 keeps it against the manifest (format 2) on every start, no byte read; "
        "nothing is kept on the node, so a restart checks and streams from S3 again"
    )
    return Phase(
        f"faster S3 path by this plan: new node {faster(copy_new, runai_new)}; restart "
        f"{faster(copy_restart, runai_restart)}",
        min(copy_new, runai_new),
        "the estimates above, warm-up included in both (the same term); the copy's load rate is the slowest measured "
        "disk (the instance store's is unmeasured), Run:ai's a published 8-rank figure from other storage. "
        + why,
    )


def target(paths: dict[str, PathTerms], chosen: str = CHARTS_S3_PATH) -> Phase:
    """Issue 30's target against the ``chosen`` path's totals, with the arithmetic, and what the other path would give."""
    terms = paths[chosen]
    new_node, restart = path_minutes(paths, chosen)
    met_new, met_restart = new_node <= TARGET_NEW_NODE_MINUTES, restart <= TARGET_RESTART_MINUTES
    other = next(name for name in paths if name != chosen)
    other_new, other_restart = path_minutes(paths, other)
    first = (
        f"; the first start ever of the compile cache's key: {terms.first_start_minutes:g} min (cold warm-up "
        f"{terms.first_start_warm_up:.1f} s)"
        if terms.first_start_warm_up is not None
        else ""
    )
    return Phase(
        f"target (issue 30): first token <= {TARGET_NEW_NODE_MINUTES} min typical on a new node, <= "
        f"{TARGET_RESTART_MINUTES} min on a restart of the same node; the charts' path ({PATH_NAMES[chosen]}): "
        f"new node {'met' if met_new else 'not met'}, restart {'met' if met_restart else 'not met'}",
        None,
        f"new node: {_arithmetic(terms.new_node, TARGET_NEW_NODE_MINUTES)}; restart: "
        f"{_arithmetic(terms.restart, TARGET_RESTART_MINUTES)}{first}; {PATH_NAMES[other]} would give "
        f"{other_new:g} and {other_restart:g} min",
        "met" if met_new and met_restart else "not met",
    )
