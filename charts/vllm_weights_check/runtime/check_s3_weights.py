"""Check the weights in S3 against their manifest before vLLM streams them (``model.weight_load: runai_streamer``, EKS);
exit non-zero when they do not match.

With the Run:ai streamer vLLM reads ``s3://BUCKET/PREFIX/REVISION/`` itself, with no copy on the node to hash. What S3
keeps of each object is checked instead, without reading its bytes: ``HeadObject`` with ``ChecksumMode=ENABLED``
returns the object's size and its full-object CRC64NVME (S3 API reference, HeadObject and Checksum,
https://docs.aws.amazon.com/AmazonS3/latest/API/API_HeadObject.html), which ``llmops weights mirror`` recorded in the
manifest (format 2) after S3 had returned it equal to the CRC64NVME of the very bytes the mirror hashed with sha256
(ops_cli/weights_mirror_job.py). Refused, one line naming the file each:

- a manifest that is not the one the environment pins (``--manifest-sha256``), of another revision, or without a
  CRC64NVME for every file (written by an older mirror: run ``llmops weights mirror`` again);
- a file of the manifest missing in S3, of another size, without a CRC64NVME or with another;
- an object under the prefix that the manifest does not list (the streamer loads every ``*.safetensors`` it lists:
  vLLM 0.33.0 vllm/model_executor/model_loader/runai_streamer_loader.py).

CRC64NVME is no cryptographic hash: it finds corruption and an object partly or wholly replaced by other bytes by
accident, not bytes chosen to collide with it. The bucket's prefix is writable by the mirror's role alone
(docs/weights.md). The pod role's s3:GetObject on the prefix is what HEAD needs, and its s3:ListBucket (with the prefix
condition) makes a missing object 404, not 403 (S3 API reference, HeadObject, "Permissions").

boto3 is in the vLLM image (vllm-project/vllm@0000977e docker/Dockerfile, stage ``vllm-openai-base``: ``boto3
runai-model-streamer[s3]``), with the pod's EKS Pod Identity credentials. Log lines go to stderr, each starting
``check-weights:``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import PurePosixPath

MANIFEST_NAME = "MANIFEST.json"
#: How many problems are printed one per line before the count of the rest.
SHOWN = 20
#: HEAD requests at once: about 120 files of one revision take a few round trips.
PARALLEL = 16


def _say(line: str) -> None:
    print(f"check-weights: {line}", file=sys.stderr, flush=True)


def _entries(manifest: object) -> list[tuple[str, int, str]] | str:
    """(path, size, crc64nvme) of each file of the manifest, or what is wrong with the manifest itself."""
    files = manifest.get("files") if isinstance(manifest, dict) else None
    if not isinstance(files, list) or not files:
        return f"{MANIFEST_NAME} lists no files"
    entries = []
    for entry in files:
        fields = entry if isinstance(entry, dict) else {}
        path, size, crc = fields.get("path"), fields.get("size"), fields.get("crc64nvme")
        pure = PurePosixPath(path) if isinstance(path, str) else None
        if pure is None or pure.is_absolute() or ".." in pure.parts or not isinstance(size, int):
            return f"{MANIFEST_NAME} has an entry that is not a relative path with a size: {entry!r:.200}"
        if not isinstance(crc, str):
            return (f"{MANIFEST_NAME} has no CRC64NVME for {path} (format {manifest.get('format', 1)}, written by an "
                    "llmops weights mirror that did not record them): run llmops weights mirror --env NAME again, then "
                    "deploy the manifest digest it writes")
        entries.append((str(pure), size, crc))
    return entries


def _head(s3, bucket: str, key: str) -> dict | None:
    """HeadObject with the object's checksum, or None when there is no such object."""
    from botocore.exceptions import ClientError

    try:
        return s3.head_object(Bucket=bucket, Key=key, ChecksumMode="ENABLED")
    except ClientError as error:
        if error.response.get("Error", {}).get("Code") in ("404", "NoSuchKey", "NotFound"):
            return None
        raise


def _object_problem(path: str, size: int, crc: str, head: dict | None) -> str | None:
    if head is None:
        return f"{path}: missing in S3 ({size} bytes expected)"
    if head.get("ContentLength") != size:
        return f"{path}: {head.get('ContentLength')} bytes in S3, the manifest says {size} (a partial or different object)"
    stored = head.get("ChecksumCRC64NVME")
    if stored is None:
        return f"{path}: S3 keeps no CRC64NVME for it (not uploaded by llmops weights mirror): run the mirror again"
    if stored != crc or head.get("ChecksumType", "FULL_OBJECT") != "FULL_OBJECT":
        return (f"{path}: CRC64NVME {stored} ({head.get('ChecksumType')}) in S3, the manifest says {crc} (an object "
                "replaced or damaged since the mirror)")
    return None


def problems_of(s3, uri: str, *, revision: str | None = None, manifest_sha256: str | None = None) -> tuple[list[str], int, int]:
    """(problems, files, bytes) of the weights at ``uri`` (``s3://BUCKET/PREFIX/``): no problem when S3 holds exactly
    the manifest's files, each with the manifest's size and CRC64NVME."""
    from botocore.exceptions import ClientError

    bucket, _, prefix = uri.removeprefix("s3://").partition("/")
    try:
        body = s3.get_object(Bucket=bucket, Key=prefix + MANIFEST_NAME)["Body"].read()
    except ClientError as error:
        return [f"{uri}{MANIFEST_NAME} cannot be read: {error}"], 0, 0
    digest = hashlib.sha256(body).hexdigest()
    if manifest_sha256 is not None and digest != manifest_sha256:
        return [f"{MANIFEST_NAME} has sha256 {digest}, the environment pins {manifest_sha256}: not the manifest "
                "llmops weights mirror wrote (rewritten or swapped since)"], 0, 0
    try:
        manifest = json.loads(body)
    except ValueError as error:
        return [f"{uri}{MANIFEST_NAME} is not JSON: {error}"], 0, 0
    entries = _entries(manifest)
    if isinstance(entries, str):
        return [entries], 0, 0
    problems = []
    if revision is not None and manifest.get("revision") != revision:
        problems.append(f"{MANIFEST_NAME} is of revision {manifest.get('revision')!r}, not {revision}: another "
                        "revision's copy")
    listed = {prefix + path for path, _, _ in entries} | {prefix + MANIFEST_NAME}
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix):
        for item in page.get("Contents", []):
            if item["Key"] not in listed:
                problems.append(f"{item['Key'][len(prefix):]}: in S3 but not in the manifest (vLLM would stream it)")
    with ThreadPoolExecutor(max_workers=PARALLEL) as pool:
        heads = list(pool.map(lambda entry: _head(s3, bucket, prefix + entry[0]), entries))
    for (path, size, crc), head in zip(entries, heads):
        problem = _object_problem(path, size, crc, head)
        if problem:
            problems.append(problem)
    return problems, len(entries), sum(size for _, size, _ in entries)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("uri", help="s3://BUCKET/PREFIX/REVISION/: the objects vLLM streams, and their MANIFEST.json")
    parser.add_argument("--region", required=True, help="the bucket's region (the environment's)")
    parser.add_argument("--revision", help="the revision the manifest must be of")
    parser.add_argument("--manifest-sha256", help="the sha256 MANIFEST.json itself must have")
    args = parser.parse_args(argv)
    if not args.uri.startswith("s3://") or not args.uri.endswith("/"):
        parser.error(f"{args.uri!r} is not s3://BUCKET/PREFIX/")
    import boto3
    from botocore.exceptions import BotoCoreError, ClientError

    try:
        problems, files, size = problems_of(boto3.client("s3", region_name=args.region), args.uri,
                                            revision=args.revision, manifest_sha256=args.manifest_sha256)
    except (BotoCoreError, ClientError) as error:
        problems, files, size = [f"S3 did not answer the check: {error}"], 0, 0
    if problems:
        for problem in problems[:SHOWN]:
            _say(problem)
        if len(problems) > SHOWN:
            _say(f"... and {len(problems) - SHOWN} more")
        _say(f"REFUSED: the weights in {args.uri} do not match their manifest ({len(problems)} problems); vLLM is not "
             "started. If the copy in S3 is wrong, run llmops weights mirror again.")
        return 1
    _say(f"OK: {files} files, {size} bytes in {args.uri} match the manifest (sizes and CRC64NVME as S3 keeps them)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
