"""Check a copy of the model's weights against its manifest before vLLM loads it; exit non-zero when it does not match.

``llmops weights mirror`` (ops_cli/weights.py) writes ``MANIFEST.json`` last, next to the files of one Hub revision
under ``s3://BUCKET/PREFIX/REVISION/``: the repository, the revision, and every file's relative path, size and sha256.
A node's copy of that prefix (the EKS path's ``aws s3 sync`` into the NVMe cache, charts/vllm_deployment.py; the
HyperPod operator's copy into the worker's model mount, charts/vllm_auth_middleware.py) is checked here:

- every file of the manifest is present with the manifest's size (a copy that stopped half-way: missing or short);
- no other file is in the directory but the manifest (a file of another revision, which vLLM could pick up);
- the manifest is of the revision the environment serves (``--revision``), and is the very file the mirror wrote: its
  sha256 is the one ``llmops weights mirror`` wrote into the environment file (``--manifest-sha256``,
  ``model.weights_manifest_sha256``), so a manifest rewritten in S3 afterwards (other hashes, same sizes) is refused;
- unless ``--sizes-only``: every file's sha256 is the manifest's (a file of another revision with the same name).

Hashed once per copy (``--marker PATH``, on the node's disk beside the copy): after a check that found nothing wrong,
the sha256 of the manifest and each file's size, inode and modification time (ns) are written to PATH, atomically (a
temporary file in the same directory, then ``os.replace``, which POSIX makes atomic within one filesystem). The next
check with a marker of the same manifest and the same size, inode and mtime for every file trusts the earlier
sha256 and hashes nothing: a restart on the same node costs a ``stat`` a file. Anything else (another manifest, a file
re-downloaded, which ``aws s3 sync`` writes as a new file with the object's time; a file touched or rewritten in place,
which changes its mtime) hashes every file again; a check that finds a problem removes the marker. The sizes and the
absence of stray files are checked on every start, marker or not.

Cost of the sha256 (how it was estimated): hashlib's sha256 (OpenSSL, with the SHA extensions) measured 1.35 GB/s on one
core of an Intel Xeon with sha_ni (64 MiB blocks, ``python3 -c`` with hashlib, this project's development machine). One
process over 1.4 TB would take 1.4e12 / 1.35e9 = about 17 minutes; the files are hashed by ``--jobs`` processes at once
(default: the CPUs this process may run on, at most 32), so the CPU side is 32 x 1.35 = 43 GB/s and the NVMe RAID0 read
is the limit instead; that array's read rate is not measured (deployment_config/startup_rates.py UNMEASURED
``instance_store_read``: the EC2 user guide gives no throughput for it), so the plan (bench/timeline.py) counts the CPU
side, 1.4e12 / 43e9 = about 33 seconds, as the check's bound and names the disk as what may be slower. With a marker,
a restart hashes nothing. A file whose size is already wrong is not hashed.

Repaired from S3 (``--repair-from s3://BUCKET/PREFIX/REVISION/``, the EKS init containers; implies
``--delete-mismatched``): a check that finds a problem fetches again what it removed or found missing
(runtime/repair_weights.py: to a temporary name, moved into place only once its sha256 is the manifest's), then checks
again, so a node's damaged copy heals without a person; only what one repair cannot mend is refused. A copy that
matches costs no request to S3, and a repair hashes the copy once more (the marker went with the problem).

The standard library only (boto3, in the vLLM image, for a repair alone): it runs in the vLLM image's python3 (the EKS
init container ``verify-weights``, and the HyperPod worker's bootstrap, which carries this file alone and repairs
nothing: the operator's mount is read-only), with nothing to install. Log lines go to stderr, each starting ``verify-weights:``;
every problem is named (path and what differs), at most :data:`SHOWN` of them, then their count.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path, PurePosixPath

MANIFEST_NAME = "MANIFEST.json"
#: The marker's format; a marker of another version is not trusted.
MARKER_VERSION = 1
#: How many problems are printed one per line before the count of the rest.
SHOWN = 20
_BLOCK = 8 << 20
#: Hashing processes at most: more only contend for the same disks.
MAX_JOBS = 32


def sha256_of(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        while block := stream.read(_BLOCK):
            digest.update(block)
    return digest.hexdigest()


def _file_stats(directory: Path, entries: list[tuple[str, int, str]]) -> dict[str, list[int]]:
    """[size, inode, mtime in ns] of each file of ``entries`` that exists."""
    stats = {}
    for path, _, _ in entries:
        try:
            stat = (directory / path).stat()
        except FileNotFoundError:
            continue
        stats[path] = [stat.st_size, stat.st_ino, stat.st_mtime_ns]
    return stats


def _marker_matches(marker: Path, manifest_digest: str, stats: dict[str, list[int]]) -> bool:
    """The marker says a complete check of this very manifest found these very files (size, inode, mtime)."""
    try:
        recorded = json.loads(marker.read_text())
    except (OSError, ValueError):
        return False
    return (isinstance(recorded, dict) and recorded.get("version") == MARKER_VERSION
            and recorded.get("manifest_sha256") == manifest_digest and recorded.get("files") == stats)


def _write_marker(marker: Path, manifest_digest: str, stats: dict[str, list[int]]) -> None:
    """Write the marker whole or not at all: a temporary file beside it, flushed, then renamed over it."""
    temporary = marker.with_name(f".{marker.name}.{os.getpid()}.tmp")
    try:
        with open(temporary, "w") as stream:
            json.dump({"version": MARKER_VERSION, "manifest_sha256": manifest_digest, "files": stats}, stream)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, marker)
    finally:
        temporary.unlink(missing_ok=True)


def _entries(manifest: object) -> list[tuple[str, int, str]] | str:
    """(path, size, sha256) of each file of the manifest, or what is wrong with the manifest itself."""
    files = manifest.get("files") if isinstance(manifest, dict) else None
    if not isinstance(files, list) or not files:
        return f"{MANIFEST_NAME} lists no files"
    entries = []
    for entry in files:
        path = entry.get("path") if isinstance(entry, dict) else None
        size, sha = (entry.get("size"), entry.get("sha256")) if isinstance(entry, dict) else (None, None)
        pure = PurePosixPath(path) if isinstance(path, str) else None
        if (pure is None or pure.is_absolute() or ".." in pure.parts or not isinstance(size, int)
                or not isinstance(sha, str) or len(sha) != 64):
            return f"{MANIFEST_NAME} has an entry that is not a relative path with a size and a sha256: {entry!r:.200}"
        entries.append((str(pure), size, sha))
    return entries


def _read_manifest(directory: Path, manifest_sha256: str | None) -> tuple[object, str] | str:
    """(the manifest, its sha256), or what is wrong with it: missing, unreadable, or not the pinned one."""
    try:
        manifest_bytes = (directory / MANIFEST_NAME).read_bytes()
        digest = hashlib.sha256(manifest_bytes).hexdigest()
        if manifest_sha256 is not None and digest != manifest_sha256:
            return (f"{MANIFEST_NAME} has sha256 {digest}, the environment pins {manifest_sha256}: not the manifest "
                    "llmops weights mirror wrote (rewritten or swapped since)")
        return json.loads(manifest_bytes), digest
    except FileNotFoundError:
        return f"{directory / MANIFEST_NAME} is missing: the copy is partial, or not made by llmops weights mirror"
    except (OSError, ValueError) as error:
        return f"{directory / MANIFEST_NAME} cannot be read: {error}"


def problems_of(directory: Path, *, marker: Path | None = None, **options) -> tuple[list[str], int, int, int]:
    """:func:`_problems_of`, and the marker removed when the copy has a problem: it is trusted again only after a
    complete check."""
    found = _problems_of(directory, marker=marker, **options)
    if marker is not None and found[0]:
        marker.unlink(missing_ok=True)
    return found


def _problems_of(directory: Path, *, revision: str | None = None, hash_files: bool = True,
                 jobs: int = 1, delete: bool = False, manifest_sha256: str | None = None,
                 marker: Path | None = None) -> tuple[list[str], int, int, int]:
    """(problems, files, bytes, files hashed) of the copy in ``directory``: an empty list when it matches its manifest. With
    ``marker`` (and ``hash_files``), a matching marker stands for the files' sha256, and a check that finds nothing
    wrong writes it (see the module's docstring). With
    ``delete``, each file found wrong (other size or sha256, not in the manifest) is removed, so that the next copy
    (``aws s3 sync`` copies what is missing; a same-size corrupt file it would keep) fetches it again: the repair
    (``--repair-from``, runtime/repair_weights.py), since the kubelet restarts the failed init container alone, never
    the earlier ``fetch-weights``."""
    wrong: list[Path] = []
    read = _read_manifest(directory, manifest_sha256)
    if isinstance(read, str):
        return [read], 0, 0, 0
    manifest, manifest_digest = read
    entries = _entries(manifest)
    if isinstance(entries, str):
        return [entries], 0, 0, 0
    problems = []
    if revision is not None and manifest.get("revision") != revision:
        problems.append(f"{MANIFEST_NAME} is of revision {manifest.get('revision')!r}, not {revision}: another "
                        "revision's copy")
    listed = {path for path, _, _ in entries}
    for root, _, names in os.walk(directory):
        for name in names:
            relative = Path(root, name).relative_to(directory).as_posix()
            if relative != MANIFEST_NAME and relative not in listed:
                problems.append(f"{relative}: not in the manifest (a file of another revision, or left by another copy)")
                wrong.append(Path(root, name))
    to_hash = []
    for path, size, sha in entries:
        try:
            actual = (directory / path).stat().st_size
        except FileNotFoundError:
            problems.append(f"{path}: missing ({size} bytes expected)")
            continue
        if actual != size:
            problems.append(f"{path}: {actual} bytes, the manifest says {size} (a partial or different file)")
            wrong.append(directory / path)
        elif hash_files:
            to_hash.append((path, size, sha))
    stats = _file_stats(directory, entries) if marker is not None and hash_files else {}
    if to_hash and marker is not None and not problems and _marker_matches(marker, manifest_digest, stats):
        to_hash = []  # verified whole before, and not one file changed since
    if to_hash:
        # Largest first, so that one big file does not start last and keep the others waiting.
        to_hash.sort(key=lambda item: -item[1])
        paths = [str(directory / path) for path, _, _ in to_hash]
        if jobs > 1:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                digests = list(pool.map(sha256_of, paths))
        else:
            digests = [sha256_of(path) for path in paths]
        for (path, _, sha), digest in zip(to_hash, digests):
            if digest != sha:
                problems.append(f"{path}: sha256 {digest}, the manifest says {sha} (a file of another revision, or damaged)")
                wrong.append(directory / path)
    if delete:
        for path in wrong:
            path.unlink(missing_ok=True)
    if marker is not None and hash_files and not problems and to_hash:
        _write_marker(marker, manifest_digest, stats)
    return problems, len(entries), sum(size for _, size, _ in entries), len(to_hash)


def default_jobs() -> int:
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cpus = os.cpu_count() or 1
    return max(1, min(MAX_JOBS, cpus))


def repair(directory: Path, uri: str, *, region: str | None, revision: str | None, manifest_sha256: str | None,
           check, say) -> list[str]:
    """One repair of the copy in ``directory`` from ``uri`` (runtime/repair_weights.py), after ``check`` (the caller's
    :func:`problems_of`, removing what it finds wrong) failed: the manifest fetched again when the node's is missing,
    unreadable, not the pinned one or of another revision (then ``check`` again, to remove what that manifest does not
    list), then every file of the manifest that is missing; the problems it could not mend."""
    import repair_weights  # boto3: only on this path (the HyperPod bootstrap carries this file alone)

    s3 = repair_weights.client(region)
    read = _read_manifest(directory, manifest_sha256)
    if (isinstance(read, str) or isinstance(_entries(read[0]), str)
            or (revision is not None and read[0].get("revision") != revision)):
        problem = repair_weights.fetch_manifest(s3, uri, directory, revision=revision, manifest_sha256=manifest_sha256)
        if problem:
            return [problem]
        check()
        read = _read_manifest(directory, manifest_sha256)
    entries = _entries(read[0]) if not isinstance(read, str) else read
    if isinstance(entries, str):
        return [entries]
    missing = [entry for entry in entries if not (directory / entry[0]).exists()]
    return repair_weights.fetch_files(s3, uri, directory, missing, say, sha256_of) if missing else []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path, help="the copy: the directory holding MANIFEST.json and the files")
    parser.add_argument("--revision", help="the revision the manifest must be of")
    parser.add_argument("--manifest-sha256", help="the sha256 MANIFEST.json itself must have")
    parser.add_argument("--sizes-only", action="store_true", help="check presence and sizes, not sha256")
    parser.add_argument("--marker", type=Path,
                        help="the record of a complete check, outside DIRECTORY: hash only when it does not match")
    parser.add_argument("--delete-mismatched", action="store_true",
                        help="remove each file found wrong, so that the next copy fetches it again")
    parser.add_argument("--repair-from", metavar="S3_URI",
                        help="s3://BUCKET/PREFIX/REVISION/: fetch what is missing or wrong from there (implies "
                             "--delete-mismatched), then check again")
    parser.add_argument("--region", help="the bucket's region, for --repair-from")
    parser.add_argument("--jobs", type=int, default=default_jobs(), help="hashing processes (default: the CPUs, at most 32)")
    args = parser.parse_args(argv)
    if args.repair_from is not None and (not args.repair_from.startswith("s3://") or not args.repair_from.endswith("/")
                                         or args.sizes_only):
        parser.error(f"--repair-from {args.repair_from!r}: give s3://BUCKET/PREFIX/REVISION/ (ending in /), "
                     "without --sizes-only (a repair is checked by sha256)")
    started = time.monotonic()
    delete = args.delete_mismatched or args.repair_from is not None

    def check() -> tuple[list[str], int, int, int]:
        return problems_of(args.directory, revision=args.revision, hash_files=not args.sizes_only,
                           jobs=max(1, args.jobs), delete=delete, manifest_sha256=args.manifest_sha256,
                           marker=args.marker)

    say = lambda line: print(f"verify-weights: {line}", file=sys.stderr, flush=True)  # noqa: E731
    problems, files, size, hashed = check()
    repaired = bool(problems and args.repair_from)
    if repaired:
        for problem in problems[:SHOWN]:
            say(problem)
        unmended = repair(args.directory, args.repair_from, region=args.region, revision=args.revision,
                          manifest_sha256=args.manifest_sha256, check=check, say=say)
        problems, files, size, hashed = check()
        problems = unmended + problems if problems else []
    if problems:
        for problem in problems[:SHOWN]:
            say(problem)
        if len(problems) > SHOWN:
            say(f"... and {len(problems) - SHOWN} more")
        if repaired:
            advice = (f"A repair from {args.repair_from} did not mend it; each restart of this check repairs again (a "
                      "lost connection mends itself), but not a copy in S3 that is wrong: run llmops weights mirror "
                      "again (for a denied read: the pod's role, as its line says).")
        else:
            advice = ("The wrong files were removed; this check fails again on every restart until the pod is deleted, "
                      f"and its replacement copies them again: kubectl delete pod {os.environ.get('HOSTNAME', 'POD')} "
                      "(with -n NAMESPACE). " if args.delete_mismatched else "")
            advice += "If the copy in S3 itself is wrong, run llmops weights mirror again."
        say(f"REFUSED: the copy in {args.directory} does not match its manifest ({len(problems)} problems); vLLM is "
            f"not started. {advice}")
        return 1
    what = ("sizes" if args.sizes_only else "sizes and sha256" if hashed or args.marker is None
            else f"sizes, inodes and mtimes; sha256 as verified before, {args.marker}")
    say(f"OK: {files} files, {size} bytes in {args.directory} match the manifest ({what}"
        + (f", after a repair from {args.repair_from}" if repaired else "")
        + f", {time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
