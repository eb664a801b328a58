"""Stage the next revision's weights on a GPU node's NVMe while the live one serves (the ``weights-prestage``
DaemonSet, charts/vllm_weights_prestage.py); the serving pod of that revision then finds a verified copy and loads it.

Layout under the node cache's ``s3-weights/`` (deployment_config/model_location.py ``node_weights_path``):

- ``REVISION/`` and ``REVISION.verified.json``: a revision's copy and the marker of its complete sha256 check
  (runtime/verify_weights.py ``--marker``), which the serving pod's ``fetch-weights`` and ``verify-weights`` trust;
- ``.staging-REVISION/``: the DaemonSet's copy in progress, never a directory any ``--model`` points at.

Steps, one command each, in the DaemonSet pod's init containers (in order, each to success):

1. ``prune ROOT --keep LIVE --keep NEXT``: remove every revision but the two (their copies, markers and staging
   directories) before the copy needs the room: the instance store holds two revisions, not three (the config check
   deployment_config/prestage.py). The speculator's directory is left alone.
2. (the AWS CLI image) ``aws s3 sync`` of the next revision into ``.staging-NEXT/`` unless ``NEXT/`` exists.
3. ``promote ROOT NEXT``: hash every file of ``.staging-NEXT/`` against its manifest (the same check as the serving
   pod's), then rename the directory to ``NEXT/`` and, last, its marker to ``NEXT.verified.json``; both renames are
   within one filesystem, which POSIX makes atomic (``rename``), and keep each file's inode and mtime, so the marker
   still matches. A crash between the two leaves ``NEXT/`` without a marker: the serving pod then syncs (nothing is
   missing) and hashes it, as for any copy of its own. A half copy is never promoted: the check removes a wrong file,
   and with ``--repair-from s3://BUCKET/PREFIX/NEXT/`` fetches it, and any missing one, again (verify_weights.py
   ``repair``, runtime/repair_weights.py), then checks again.

Why the staging copy is repaired too, though it is renamed into place only after a full check (so a serving pod never
sees it half-made): the kubelet restarts the failed ``promote`` alone, not the copy before it (Kubernetes
documentation, "Init Containers"), so without the repair a damaged staging copy would keep this pod failing, the
revision unstaged on the node and ``llmops rollout`` waiting on it (ops_cli/rollout_staging.py), until someone deleted
the pod. Only what the repair cannot mend (the copy in S3 wrong, a read denied) is refused, by name.

If ``NEXT/`` exists already with a marker, it is staged; without one, it is a serving pod's own copy (in progress, or
stopped half-way): left to that pod, never written here, since two writers of one directory would mix their files.

The standard library only (boto3, in the vLLM image, for a repair), and the verifier and its repair beside this file in
the same ConfigMap (``import verify_weights``: python puts the script's own directory first on ``sys.path``). Log lines
go to stderr, each starting ``prestage-weights:``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

import verify_weights

STAGING_PREFIX = ".staging-"
MARKER_SUFFIX = ".verified.json"
#: The speculator's directory beside the revisions (deployment_config/speculator.py SPECULATOR_DIR): not staged here.
KEPT_NAMES = frozenset({"speculator"})


def say(line: str) -> None:
    print(f"prestage-weights: {line}", file=sys.stderr, flush=True)


def marker_of(directory: Path) -> Path:
    """The marker of the copy in ``directory`` (charts/vllm_weights_check/__init__.py ``marker_path``)."""
    return directory.with_name(directory.name + MARKER_SUFFIX)


def staging_of(root: Path, revision: str) -> Path:
    return root / f"{STAGING_PREFIX}{revision}"


def _revision_of(name: str) -> str:
    """The revision an entry of ROOT belongs to: ``REV``, ``REV.verified.json``, ``.staging-REV`` and its marker, and
    a marker being written (verify_weights.py ``_write_marker``: ``.REV.verified.json.PID.tmp``, which a serving pod's
    check may be writing while this runs)."""
    if name.startswith(STAGING_PREFIX):
        name = name.removeprefix(STAGING_PREFIX)
    elif name.startswith("."):
        name = name[1:]
    return name.split(MARKER_SUFFIX, 1)[0]


def prune(root: Path, keep: set[str]) -> list[str]:
    """Remove every entry of ``root`` that belongs to no revision of ``keep`` (and is not the speculator's); the names
    removed."""
    removed = []
    if not root.is_dir():
        return removed
    for entry in sorted(root.iterdir()):
        if entry.name in KEPT_NAMES or _revision_of(entry.name) in keep:
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        else:
            entry.unlink()
        removed.append(entry.name)
    return removed


def promote(root: Path, revision: str, *, jobs: int, repair_from: str | None = None, region: str | None = None) -> int:
    """Check the staging copy of ``revision`` whole (repaired from ``repair_from`` when it does not match) and move it
    into place, marker last; 0 when the revision is staged (now or before) or is a serving pod's own copy, 1 when the
    staging copy does not match its manifest."""
    final = root / revision
    if final.exists():
        if marker_of(final).exists():
            say(f"STAGED: {final} was verified before; nothing to do")
        else:
            say(f"{final} exists without a marker: a serving pod's own copy of it (in progress or stopped "
                "half-way), left to that pod; nothing staged")
        return 0
    staging = staging_of(root, revision)
    marker = marker_of(staging)

    def check() -> tuple[list[str], int, int, int]:
        return verify_weights.problems_of(staging, revision=revision, jobs=jobs, delete=True, marker=marker)

    problems, files, size, _ = check()
    if problems and repair_from:
        for problem in problems[:verify_weights.SHOWN]:
            say(problem)
        unmended = verify_weights.repair(staging, repair_from, region=region, revision=revision, manifest_sha256=None,
                                         check=check, say=say)
        problems, files, size, _ = check()
        problems = unmended + problems if problems else []
    if problems:
        for problem in problems[:verify_weights.SHOWN]:
            say(problem)
        advice = (f"A repair from {repair_from} did not mend it; each restart of this step repairs again, but not a "
                  "copy in S3 that is wrong: run llmops weights mirror again." if repair_from else
                  "The wrong files were removed; delete this pod so that its replacement copies them again: kubectl "
                  f"delete pod {os.environ.get('HOSTNAME', 'POD')} (with -n NAMESPACE)")
        say(f"REFUSED: the staging copy {staging} does not match its manifest ({len(problems)} problems); nothing is "
            f"moved into place. {advice}")
        return 1
    os.rename(staging, final)
    os.replace(marker, marker_of(final))
    say(f"STAGED: {files} files, {size} bytes of revision {revision} in {final}, sha256 checked")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    pruning = commands.add_parser("prune", help="remove every revision but the kept ones")
    pruning.add_argument("root", type=Path)
    pruning.add_argument("--keep", action="append", required=True, help="a revision to keep (repeat)")
    promoting = commands.add_parser("promote", help="check the staging copy, then move it into place")
    promoting.add_argument("root", type=Path)
    promoting.add_argument("revision")
    promoting.add_argument("--jobs", type=int, default=verify_weights.default_jobs())
    promoting.add_argument("--repair-from", metavar="S3_URI", help="s3://BUCKET/PREFIX/REVISION/: fetch what is wrong")
    promoting.add_argument("--region", help="the bucket's region, for --repair-from")
    args = parser.parse_args(argv)
    if args.command == "prune":
        removed = prune(args.root, set(args.keep))
        say(f"kept {', '.join(sorted(args.keep))}; removed {', '.join(removed) or 'nothing'}")
        return 0
    if args.repair_from is not None and not (args.repair_from.startswith("s3://") and args.repair_from.endswith("/")):
        promoting.error(f"--repair-from {args.repair_from!r}: give s3://BUCKET/PREFIX/REVISION/ (ending in /)")
    return promote(args.root, args.revision, jobs=max(1, args.jobs), repair_from=args.repair_from, region=args.region)


if __name__ == "__main__":
    sys.exit(main())
