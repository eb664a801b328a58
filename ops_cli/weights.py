"""``llmops weights mirror``: copy the model from the Hugging Face Hub to the environment's S3 prefix once, at a pinned
commit, in the cluster; then check the checksum manifest the copy wrote.

Choices (docs/weights.md):

- sha256 and CRC64NVME are computed while streaming; the manifest (``"format": 2``; one without ``format`` is of
  format 1, without CRC64NVME, and is still read) holds path, size, sha256, CRC64NVME (as S3 keeps it: the Job
  compares the two after each upload, ops_cli/weights_mirror_job.py) and the Hub's LFS sha256
  (``model_info(files_metadata=True)``: siblings[].lfs.sha256, hf_api.py ``RepoSibling``), and is written last, to
  ``MANIFEST.json`` under the prefix. ``llmops`` checks it: every LFS file's sha256 equals the Hub's, and every object
  exists in S3 with the manifest's size. A file kept in git itself (no ``lfs``: the configuration, the tokenizer's
  small files and the model's Python code that ``--trust-remote-code`` runs) is checked against the Hub's git blob id
  (``RepoSibling.blob_id``): the sha1 of ``blob SIZE\0`` and the content, git's object id of a file (Pro Git,
  "Git Internals - Git Objects", https://git-scm.com/book/en/v2/Git-Internals-Git-Objects).
- One prefix per revision: the Job writes under ``s3://BUCKET/PREFIX/REVISION/`` (``model.s3_uri`` and the commit,
  deployment_config/model_location.py ``revision_s3_uri``), never over another revision's files, and ``llmops`` writes
  the revision into the environment file only after the manifest checked out: a copy that fails half-way leaves the
  file, and so what the charts serve, as it was. The node checks its own copy against the same manifest before vLLM
  starts (charts/vllm_weights_check/runtime/verify_weights.py).

The Hub's side (resolving a revision to its commit) is ops_cli/hugging_face_hub.py; the copy Job, its image and its
access are ops_cli/weights_mirror_job.py.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from deployment_config import speculator
from deployment_config.model import EnvironmentConfig, WeightSource
from deployment_config.model_location import revision_s3_uri
from ops_cli.aws import Aws
from ops_cli.errors import SDK_ERRORS, ExitCode, OpsError, translate

MANIFEST_NAME = "MANIFEST.json"


def s3_location(s3_uri: str) -> tuple[str, str]:
    """(bucket, prefix ending in '/' or empty) of ``s3://bucket/prefix``."""
    bucket, _, prefix = s3_uri.removeprefix("s3://").partition("/")
    return bucket, (prefix.rstrip("/") + "/") if prefix.strip("/") else ""


def check_mirror_target(env: EnvironmentConfig, sha: str | None = None) -> tuple[str, str]:
    """(bucket, prefix) the mirror writes to: the revision ``sha``'s own prefix under ``model.s3_uri`` (the prefix
    itself without ``sha``); refused unless the environment takes its weights from S3."""
    if env.model.weight_source is not WeightSource.S3 or not env.model.s3_uri:
        raise OpsError(
            f"{env.name} takes its weights from the Hugging Face Hub (model.weight_source), so there is nothing "
            "to mirror to",
            "set model.weight_source: s3 and model.s3_uri: s3://BUCKET/PREFIX/, deploy the "
            "serving stack (it creates the mirror's role), then run this again",
            ExitCode.USAGE,
        )
    return s3_location(revision_s3_uri(env.model.s3_uri, sha) if sha else env.model.s3_uri)


def mirrored_speculator(env: EnvironmentConfig) -> str | None:
    """The Hub id of the ``spec_decoding`` speculator the mirror copies beside the weights (the recipe's
    ``--speculative-config`` ``model``, deployment_config/speculator.py), or None without spec_decoding."""
    return (
        speculator.speculator_id(env.model.serving_args) if env.model.speculator_size_gb else None
    )


def speculator_target(env: EnvironmentConfig, sha: str) -> tuple[str, str]:
    """(bucket, prefix) of the speculator's revision ``sha``: ``model.s3_uri/speculator/SHA/``, its own prefix, which no
    revision of the weights (a 40-hex name) shares."""
    check_mirror_target(env)
    return s3_location(
        revision_s3_uri(f"{env.model.s3_uri.rstrip('/')}/{speculator.SPECULATOR_DIR}", sha)
    )


@dataclass(frozen=True)
class MirrorProblem:
    path: str
    problem: str


def check_manifest(manifest: dict, objects: dict[str, int], prefix: str) -> list[MirrorProblem]:
    """What is wrong with a mirror: a file whose sha256 differs from the Hub's LFS sha256, or that is missing from S3 or
    has another size there, or an object under the revision's prefix that the manifest does not list (the node's check
    refuses such a file, charts/vllm_weights_check/runtime/verify_weights.py, and its copy would fetch it again on every start).
    ``objects``: key -> size of what S3 lists under the prefix."""
    problems = []
    listed = {prefix + str(entry.get("path")) for entry in manifest.get("files") or []} | {
        prefix + MANIFEST_NAME
    }
    problems += [
        MirrorProblem(
            key.removeprefix(prefix),
            "in S3 but not in the manifest: delete it (aws s3 rm) or mirror again",
        )
        for key in sorted(objects)
        if key not in listed
    ]
    for entry in manifest.get("files") or []:
        path = entry.get("path", "?")
        hub = entry.get("hub_lfs_sha256")
        if hub and hub != entry.get("sha256"):
            problems.append(
                MirrorProblem(path, f"sha256 {entry.get('sha256')} differs from the Hub's {hub}")
            )
        blob = entry.get("hub_blob_id")
        if blob and blob != entry.get("git_blob_sha1"):
            problems.append(
                MirrorProblem(
                    path, f"git blob {entry.get('git_blob_sha1')} differs from the Hub's {blob}"
                )
            )
        size = objects.get(prefix + path)
        if size is None:
            problems.append(MirrorProblem(path, "missing from S3"))
        elif size != entry.get("size"):
            problems.append(MirrorProblem(path, f"{size} bytes in S3, {entry.get('size')} copied"))
    return problems


def read_mirror(aws: Aws, bucket: str, prefix: str) -> tuple[dict, dict[str, int], str]:
    """The manifest, the sizes of the objects under the prefix, and the manifest's own sha256 (of its bytes as
    stored: what the environment file pins and the node's check compares, ``model.weights_manifest_sha256``)."""
    s3 = aws.client("s3")
    location = f"s3://{bucket}/{prefix}{MANIFEST_NAME}"
    try:
        body = s3.get_object(Bucket=bucket, Key=prefix + MANIFEST_NAME)["Body"].read()
    except s3.exceptions.NoSuchKey:
        raise OpsError(
            f"{location} does not exist: the mirror did not finish",
            "run llmops weights mirror again",
            ExitCode.CHECK_FAILED,
        ) from None
    except SDK_ERRORS as error:  # denied, unreachable, or an answer that is not S3's
        raise translate(error, f"read {location}") from None
    try:
        manifest = json.loads(body)
    except (ValueError, RecursionError):
        manifest = None
    if (
        not isinstance(manifest, dict)
        or not isinstance(manifest.get("files", []), list)
        or not all(isinstance(entry, dict) for entry in manifest.get("files", []))
    ):
        raise OpsError(
            f"{location} is not a manifest (a JSON object with a list of files)",
            f"look at it: aws s3 cp {location} -; run llmops weights mirror again",
            ExitCode.CHECK_FAILED,
        )
    objects: dict[str, int] = {}
    for page in aws.each_page(
        "s3",
        "list_objects_v2",
        f"list the objects under s3://{bucket}/{prefix}",
        token_in="ContinuationToken",
        token_out="NextContinuationToken",
        Bucket=bucket,
        Prefix=prefix,
    ):
        objects.update({o["Key"]: o["Size"] for o in page.get("Contents") or []})
    return manifest, objects, hashlib.sha256(body).hexdigest()
