"""Fetch again from S3 the files of a node's weights copy that its check (verify_weights.py) found missing or removed as
wrong, so that the serving pod heals without a person (``verify_weights.py --repair-from s3://BUCKET/PREFIX/REVISION/``).

Why the check repairs and not ``fetch-weights``: the kubelet restarts a failed init container alone, never the ones
before it (Kubernetes documentation, "Init Containers",
https://kubernetes.io/docs/concepts/workloads/pods/init-containers/: "If a Pod's init container fails, the kubelet
repeatedly restarts that init container until it succeeds"), so a check that only removed the wrong files would fail
on every restart until someone deleted the pod.

Each file is downloaded to a temporary name in its own directory (``.NAME.PID.repair``), hashed, and renamed over
the final name (``os.replace``, atomic within one filesystem in POSIX) only once its size and sha256 are the
manifest's: the final name holds the old bytes or the new, never a mix, and a download cut off (a lost connection,
the container killed) leaves at most the temporary file, which the next check removes as a file the manifest does not
list before this fetches the file again. A file whose bytes in S3 are not the manifest's is not moved into place: the
copy in S3 is wrong (run ``llmops weights mirror`` again). The manifest itself is fetched again when the node's is
missing, unreadable, of another revision or not the one the environment pins, and placed only when it is of the
revision and, with a pin, has the pinned sha256.

boto3 (with its s3transfer: ranged GETs of :data:`PART_BYTES`, the copy's chunk size in charts/vllm_deployment.py) is in
the vLLM image (vllm-project/vllm@0000977e docker/Dockerfile, stage ``vllm-openai-base``: ``boto3
runai-model-streamer[s3]``), with the pod's EKS Pod Identity credentials, the ones ``fetch-weights`` uses
(stacks/serving_stack.py: s3:GetObject on the revision's prefix). The client is built as check_s3_weights.py builds
its own (``boto3.client("s3", region_name=REGION)``), so ``AWS_ENDPOINT_URL_S3`` points it elsewhere (AWS SDKs and
Tools reference guide, "Service-specific endpoints", https://docs.aws.amazon.com/sdkref/latest/guide/feature-ss-endpoints.html),
as the tests do. Bounded: :data:`FILES_AT_ONCE` files at once, each with
:data:`GETS_PER_FILE` ranged GETs, so at most 32 connections beside the node's other traffic.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

MANIFEST_NAME = "MANIFEST.json"
FILES_AT_ONCE = 4
GETS_PER_FILE = 8
PART_BYTES = 64 << 20
#: S3's error codes for a denied request and a missing key (S3 API reference, "Error responses",
#: https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html); a HEAD has no body, so botocore gives its
#: status instead ("403", "404"), and s3transfer's download starts with one (boto/s3transfer 0.17.1
#: s3transfer/download.py: ``head_object`` when the size is not given).
_DENIED = ("403", "AccessDenied")
_MISSING = ("404", "NoSuchKey", "NotFound")


def client(region: str | None):
    import boto3
    from botocore.config import Config

    return boto3.client("s3", region_name=region,
                        config=Config(max_pool_connections=FILES_AT_ONCE * GETS_PER_FILE))


def _split(uri: str) -> tuple[str, str]:
    bucket, _, prefix = uri.removeprefix("s3://").partition("/")
    return bucket, prefix


def _why(path: str, uri: str, error: Exception) -> str:
    """One line naming the file, what S3 answered, and the fix."""
    code = str(getattr(error, "response", {}).get("Error", {}).get("Code", ""))
    if code in _DENIED:
        return (f"{path}: S3 denied the repair's read of {uri}{path} ({code}): the pod's role (the serving stack's, by "
                "EKS Pod Identity) needs s3:GetObject on the prefix; deploy the serving stack of this environment again")
    if code in _MISSING:
        return f"{path}: not in S3 at {uri}{path}: the copy in S3 is partial, run llmops weights mirror again"
    return f"{path}: its repair from {uri}{path} failed ({type(error).__name__}: {error}); the next restart tries again"


def _fetch(s3, uri: str, directory: Path, sha256_of: Callable[[str], str], path: str, size: int, sha: str) -> str | None:
    """Download one file beside its final name and move it there once it matches; what went wrong, or None."""
    from boto3.exceptions import Boto3Error
    from boto3.s3.transfer import TransferConfig
    from botocore.exceptions import BotoCoreError, ClientError

    final = directory / path
    temporary = final.with_name(f".{final.name}.{os.getpid()}.repair")
    bucket, prefix = _split(uri)
    config = TransferConfig(multipart_chunksize=PART_BYTES, max_concurrency=GETS_PER_FILE)
    try:
        final.parent.mkdir(parents=True, exist_ok=True)
        s3.download_file(bucket, prefix + path, str(temporary), Config=config)
        actual_size = temporary.stat().st_size
        if actual_size != size:
            return (f"{path}: {actual_size} bytes in S3, the manifest says {size}: the copy in S3 is wrong, run llmops "
                    "weights mirror again")
        digest = sha256_of(str(temporary))
        if digest != sha:
            return (f"{path}: sha256 {digest} in S3, the manifest says {sha}: the copy in S3 is wrong (or the manifest "
                    "is not the mirror's), run llmops weights mirror again")
        os.replace(temporary, final)
        return None
    except (BotoCoreError, ClientError, Boto3Error, OSError) as error:
        return _why(path, uri, error)
    finally:
        temporary.unlink(missing_ok=True)


def fetch_files(s3, uri: str, directory: Path, entries: list[tuple[str, int, str]],
                say: Callable[[str], None], sha256_of: Callable[[str], str]) -> list[str]:
    """Fetch each (path, size, sha256) of ``entries`` from ``uri`` into ``directory``; a line for each file still not
    in place. ``sha256_of`` is the check's own (verify_weights.py), which imports this module."""
    say(f"repairing {len(entries)} files, {sum(size for _, size, _ in entries) / 1e9:.1f} GB from {uri}: "
        + ", ".join(path for path, _, _ in entries[:5]) + (", ..." if len(entries) > 5 else ""))
    with ThreadPoolExecutor(max_workers=FILES_AT_ONCE) as pool:
        results = list(pool.map(lambda entry: _fetch(s3, uri, directory, sha256_of, *entry), entries))
    problems = [problem for problem in results if problem]
    say(f"repaired {len(entries) - len(problems)} of {len(entries)} files")
    return problems


def fetch_manifest(s3, uri: str, directory: Path, *, revision: str | None, manifest_sha256: str | None) -> str | None:
    """Replace the node's manifest with the one in S3 when that one is of ``revision`` and has the pinned sha256; what
    is wrong with it otherwise."""
    from botocore.exceptions import BotoCoreError, ClientError

    bucket, prefix = _split(uri)
    try:
        body = s3.get_object(Bucket=bucket, Key=prefix + MANIFEST_NAME)["Body"].read()
    except (BotoCoreError, ClientError) as error:
        return _why(MANIFEST_NAME, uri, error)
    digest = hashlib.sha256(body).hexdigest()
    if manifest_sha256 is not None and digest != manifest_sha256:
        return (f"{MANIFEST_NAME}: sha256 {digest} in S3, the environment pins {manifest_sha256}: not the manifest "
                "llmops weights mirror wrote; run llmops weights mirror again and deploy the digest it writes")
    try:
        stated = json.loads(body).get("revision")
    except (ValueError, AttributeError):
        stated = None
    if revision is not None and stated != revision:
        return f"{MANIFEST_NAME}: of revision {stated!r} in S3, not {revision}: run llmops weights mirror again"
    temporary = directory / f".{MANIFEST_NAME}.{os.getpid()}.repair"
    directory.mkdir(parents=True, exist_ok=True)
    try:
        temporary.write_bytes(body)
        os.replace(temporary, directory / MANIFEST_NAME)
    finally:
        temporary.unlink(missing_ok=True)
    return None
