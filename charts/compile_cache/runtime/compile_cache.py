"""Restore vLLM's compile cache from S3 before vLLM starts, and save it once vLLM is healthy (EKS path).

Shipped in a ConfigMap and run by the vLLM image (charts/compile_cache.py): ``restore`` as an init container,
``save`` as a sidecar. This very file is what the tests run.

What is cached: the ``--cache-dir`` directory with all its subdirectories. vLLM's ``VLLM_CACHE_ROOT`` (vLLM 0.33.0
vllm/envs.py: default ``~/.cache/vllm``) is that directory, under which vLLM keeps its ``torch_compile_cache`` (the
compiled graphs and the Inductor artifacts it points torch at; vLLM docs, "torch.compile integration",
https://docs.vllm.ai/en/latest/design/torch_compile.html); the chart points the kernel libraries' caches (Triton,
FlashInfer, CuTe-DSL, DeepGEMM, CUDA's JIT cache and the others of deployment_config/data/compile_cache_variables.json) at
subdirectories of it. CUDA graphs are captured again at every start: they live in GPU memory, not in a file.

The key: image digest, model revision, the vLLM arguments and environment (the serving profile), the GPU instance type
and the parallel layout (tensor and pipeline parallel sizes, nodes). Its sha256 (of the key's canonical JSON) names the
S3 object, ``PREFIX/SHA256/vllm-cache.tar``, AND the key itself is the archive's first member, ``CACHE_KEY.json``:
``restore`` extracts nothing unless that member equals the expected key, so an object copied or written under another
key's name is refused, never used. ``save`` writes with ``If-None-Match: *``: S3 refuses the write with 412 when an
object of that name exists ("Conditional writes", https://docs.aws.amazon.com/AmazonS3/latest/userguide/conditional-
writes.html), so a saved cache is never overwritten, also when two nodes save at once.

A cache is an optimisation: any failure here (no object yet, S3 unreachable, a refused archive) is logged on one line
and the script exits 0, and vLLM compiles as it would without a cache. Only wrong usage exits non-zero.

boto3 is in the vLLM image (vllm-project/vllm@0000977e docker/Dockerfile, stage ``vllm-openai-base``:
``boto3 runai-model-streamer[s3]``) and takes the pod's EKS Pod Identity credentials from
``AWS_CONTAINER_CREDENTIALS_FULL_URI`` (botocore credentials.py ``ContainerProvider``).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import shutil
import signal
import sys
import tarfile
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

KEY_MEMBER = "CACHE_KEY.json"
ARCHIVE_NAME = "vllm-cache.tar"
#: One PUT carries at most 5 GB (S3 user guide, "Uploading objects": "upload a single object of up to 5 GB"); a
#: multipart upload would need its own conditional completion. A cache larger than that is not saved.
MAX_ARCHIVE_BYTES = 5 * 1000**3
#: The fields of a key, all required, all strings or integers.
KEY_FIELDS = ("image_digest", "model_revision", "serving_profile_sha256", "gpu_instance_type", "tensor_parallel_size",
              "pipeline_parallel_size", "nodes")


def canonical(key: dict) -> str:
    return json.dumps(key, sort_keys=True, separators=(",", ":"))


def key_digest(key: dict) -> str:
    """The sha256 of the key's canonical JSON: the object's directory name."""
    missing = [name for name in KEY_FIELDS if name not in key]
    if missing or set(key) != set(KEY_FIELDS):
        raise ValueError(f"a compile cache key has exactly the fields {', '.join(KEY_FIELDS)}; got {sorted(key)}")
    return hashlib.sha256(canonical(key).encode()).hexdigest()


def object_name(prefix: str, key: dict) -> str:
    return f"{prefix.strip('/')}/{key_digest(key)}/{ARCHIVE_NAME}"


def log(message: str) -> None:
    print(f"compile-cache: {message}", file=sys.stderr, flush=True)


def _s3(region: str):
    import boto3  # in the vLLM image; imported here so that the key functions above need nothing beyond the stdlib

    return boto3.client("s3", region_name=region)


def _error_code(error: Exception) -> str:
    return str(getattr(error, "response", {}).get("Error", {}).get("Code", type(error).__name__))


def _safe_members(archive: tarfile.TarFile) -> list[tarfile.TarInfo]:
    """Regular files and directories under the archive's root only: no links, devices, absolute paths or '..'."""
    members = []
    for member in archive.getmembers():
        path = Path(member.name)
        if path.is_absolute() or ".." in path.parts or not (member.isfile() or member.isdir()):
            raise ValueError(f"member {member.name!r} is not a plain file or directory under the cache root")
        members.append(member)
    return members


def restore(*, key: dict, bucket: str, prefix: str, region: str, cache_dir: Path, client=None) -> str:
    """Put the cache of ``key`` at ``cache_dir`` if S3 has one; return what happened (also logged)."""
    name = object_name(prefix, key)
    marker = cache_dir / KEY_MEMBER
    if marker.is_file() and marker.read_text(encoding="utf-8") == canonical(key):
        return _said(f"the cache of {key_digest(key)} is already on this node at {cache_dir}")
    cache_dir.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache_dir.parent, prefix=".restore-") as work:
        archive_path = Path(work) / ARCHIVE_NAME
        try:
            (client or _s3(region)).download_file(bucket, name, str(archive_path))
        except Exception as error:  # noqa: BLE001 - a cache never stops the start; the code says which failure
            code = _error_code(error)
            if code in ("404", "NoSuchKey", "NotFound"):
                return _said(f"no cache saved yet at s3://{bucket}/{name}: vLLM compiles, and the save after the "
                             "first healthy start stores it")
            return _said(f"s3://{bucket}/{name} not read ({code}): vLLM compiles without a cache")
        staging = Path(work) / "cache"
        try:
            with tarfile.open(archive_path, "r:") as archive:
                first = archive.next()
                if first is None or first.name != KEY_MEMBER or not first.isfile():
                    raise ValueError(f"its first member is not {KEY_MEMBER}")
                recorded = archive.extractfile(first).read().decode("utf-8")
                if recorded != canonical(key):
                    raise ValueError(f"it was saved for another key: {recorded} (this pod's: {canonical(key)})")
                members = _safe_members(archive)
                archive.extractall(staging, members=members, filter="data")
        except (tarfile.TarError, ValueError, UnicodeDecodeError, OSError) as error:
            return _said(f"s3://{bucket}/{name} refused, not used: {error}")
        # Whole or not at all: the directory appears by one rename, its key file inside.
        shutil.rmtree(cache_dir, ignore_errors=True)
        staging.rename(cache_dir)
    return _said(f"restored s3://{bucket}/{name} to {cache_dir}")


def _said(message: str) -> str:
    log(message)
    return message


def wait_healthy(url: str, *, timeout_s: float, interval_s: float = 10.0) -> bool:
    """Poll ``url`` until it answers 200, for at most ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as answer:  # noqa: S310 - the pod's own http://localhost URL
                if answer.status == 200:
                    return True
        except (urllib.error.URLError, OSError):
            pass
        if time.monotonic() + interval_s > deadline:
            return False
        time.sleep(interval_s)


def build_archive(key: dict, cache_dir: Path, target: Path) -> int:
    """Write ``cache_dir`` as an uncompressed tar at ``target``, the key first; return the number of files."""
    files = 0
    with tarfile.open(target, "w:") as archive:
        data = canonical(key).encode("utf-8")
        info = tarfile.TarInfo(KEY_MEMBER)
        info.size, info.mtime = len(data), int(time.time())
        archive.addfile(info, io.BytesIO(data))
        for path in sorted(cache_dir.rglob("*")):
            relative = path.relative_to(cache_dir)
            if relative.as_posix() == KEY_MEMBER or path.is_symlink() or not (path.is_file() or path.is_dir()):
                continue
            archive.add(path, arcname=relative.as_posix(), recursive=False)
            files += path.is_file()
    return files


def save(*, key: dict, bucket: str, prefix: str, region: str, cache_dir: Path, client=None) -> str:
    """Upload ``cache_dir`` as the cache of ``key``, unless an object of that name exists; never overwrite."""
    name = object_name(prefix, key)
    if not cache_dir.is_dir() or not any(p.is_file() for p in cache_dir.rglob("*") if p.name != KEY_MEMBER):
        return _said(f"nothing to save: {cache_dir} holds no compiled artifact")
    s3 = client or _s3(region)
    with tempfile.TemporaryDirectory(dir=cache_dir.parent, prefix=".save-") as work:
        archive_path = Path(work) / ARCHIVE_NAME
        files = build_archive(key, cache_dir, archive_path)
        size = archive_path.stat().st_size
        if size > MAX_ARCHIVE_BYTES:
            return _said(f"not saved: the archive has {size} bytes, more than one PUT carries ({MAX_ARCHIVE_BYTES})")
        try:
            with archive_path.open("rb") as body:
                s3.put_object(Bucket=bucket, Key=name, Body=body, IfNoneMatch="*", ContentType="application/x-tar")
        except Exception as error:  # noqa: BLE001 - a failed save leaves serving as it is; the code says which
            code = _error_code(error)
            if code in ("PreconditionFailed", "412", "ConditionalRequestConflict", "409"):
                return _said(f"s3://{bucket}/{name} exists already (saved by another start): kept as it is")
            return _said(f"not saved to s3://{bucket}/{name} ({code})")
    # This node's copy is now the saved one: the next restore here keeps it without downloading.
    (cache_dir / KEY_MEMBER).write_text(canonical(key), encoding="utf-8")
    return _said(f"saved {files} files ({size} bytes) to s3://{bucket}/{name}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("restore", "save"))
    parser.add_argument("--key", required=True, help="the cache key as JSON")
    parser.add_argument("--bucket", required=True)
    parser.add_argument("--prefix", required=True)
    parser.add_argument("--region", required=True)
    parser.add_argument("--cache-dir", required=True, type=Path)
    parser.add_argument("--health-url", help="save: wait until this answers 200 first")
    parser.add_argument("--health-timeout-s", type=float, default=0)
    parser.add_argument("--stay", action="store_true",
                        help="save: after saving (or not), stay until SIGTERM, as a sidecar of a Deployment must")
    parser.add_argument("--termination-log", type=Path,
                        help="restore: also write the outcome here (the kubelet puts /dev/termination-log's content in "
                             "the container's status, where llmops phases reads it)")
    args = parser.parse_args(argv)
    try:
        key = json.loads(args.key)
        key_digest(key)
    except (ValueError, TypeError, AttributeError) as error:
        parser.error(f"--key: {error}")
    where = dict(key=key, bucket=args.bucket, prefix=args.prefix, region=args.region, cache_dir=args.cache_dir)
    if args.action == "restore":
        outcome = restore(**where)
        if args.termination_log:
            # The kubelet keeps at most 4096 bytes of it (Kubernetes documentation, "Determine the Reason for Pod
            # Failure", "Customizing the termination message").
            try:
                args.termination_log.write_text(outcome[:4000], encoding="utf-8")
            except OSError as error:
                log(f"outcome not written to {args.termination_log}: {error}")
        return 0
    # A sidecar is the pod's PID 1 of its container: without a handler, SIGTERM does nothing to it, and every
    # replacement of the pod would wait for the whole termination grace period. With it, the save exits at once.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    if args.health_url and not wait_healthy(args.health_url, timeout_s=args.health_timeout_s):
        _said(f"{args.health_url} did not answer 200 within {args.health_timeout_s:.0f} s: nothing saved")
    else:
        save(**where)
    # A Deployment restarts a container that exits (restartPolicy Always): the sidecar stays, idle, until SIGTERM.
    while args.stay:
        signal.pause()
    return 0


if __name__ == "__main__":
    sys.exit(main())
