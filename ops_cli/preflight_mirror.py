"""The preflight row that says whether the pinned revision's S3 mirror is complete, before the GPU nodes need it.

The mirror is part of the staged deploy before the block starts (docs/deploy.md): ``llmops weights mirror`` runs as a
Job on the system nodes, which exist from stage 1, and writes ``MANIFEST.json`` last, under the revision's own prefix
(ops_cli/weights.py). So the manifest's presence says the copy finished; its content was checked by the mirror command
itself. Without it a GPU node's ``fetch-weights`` (EKS) or the operator's mount (HyperPod) finds no weights while the
block is paid. The serving stack already refuses an unpinned revision (cdk_constructs/placeholder_guard.py); a pinned
revision whose mirror is missing is what this row catches. An example environment is not checked: it never deploys.

With ``model.weight_load: runai_streamer`` the pod's ``check-weights-s3`` compares each object's CRC64NVME as S3 keeps
it with the manifest's (charts/vllm_weights_check/runtime/check_s3_weights.py), so a manifest without one for every
file (format 1, written by an older ``llmops weights mirror``) would stop every start on the block: the row reads the
manifest and fails on it now, with the mirror as the fix.
"""

from __future__ import annotations

import json

import botocore.exceptions

from deployment_config.model import EnvironmentConfig
from deployment_config.model_location import speculator_s3_uri, weights_s3_uri
from deployment_config.weight_load import WeightLoad
from ops_cli.aws import Aws
from ops_cli.errors import error_code, translate
from ops_cli.preflight_check import Check, Status
from ops_cli.weights import MANIFEST_NAME, s3_location

NAME = "weights mirrored to S3"


def weights_mirror_check(aws: Aws, env: EnvironmentConfig) -> Check | None:
    """The row for an environment with S3 weights at a pinned revision; None otherwise (the pin row covers a missing
    revision, ops_cli/preflight_pins.py). With spec_decoding the speculator's mirror (deployment_config/speculator.py) is
    looked up too: the pod's ``fetch-weights`` copies both."""
    uri = weights_s3_uri(env.model)
    if env.placeholders or uri is None:
        return None
    mirrors = [(uri, f"revision {env.model.hugging_face_revision}")]
    if (speculator := speculator_s3_uri(env.model)) is not None:
        mirrors.append((speculator, f"the speculator's revision {env.model.speculator_revision}"))
    mirror = f"bin/llmops weights mirror --env {env.name}"
    found, regions_checked = [], set()
    for where, what in mirrors:
        bucket, prefix = s3_location(where)
        location = f"s3://{bucket}/{prefix}{MANIFEST_NAME}"
        try:
            if bucket not in regions_checked:
                # The bucket's region first: the node's copy uses the CRT transfer client, which fails requests sent to
                # another region than the bucket's (AWS CLI S3 configuration, charts/vllm_deployment.py
                # S3_TRANSFER_SETTINGS), while boto3 here would follow S3's redirect and pass (HeadBucketOutput.
                # BucketRegion, botocore 1.43.127 s3 model).
                region = aws.client("s3").head_bucket(Bucket=bucket).get("BucketRegion")
                regions_checked.add(bucket)
                if region and region != env.region:
                    return Check(
                        NAME,
                        Status.FAIL,
                        f"s3://{bucket} is in {region}, not in {env.region}: the GPU nodes' "
                        "copy (the CRT transfer client) fails requests to another region than the bucket's",
                        f"mirror into a bucket in {env.region} (model.s3_uri), then {mirror}",
                    )
            head = aws.client("s3").head_object(Bucket=bucket, Key=prefix + MANIFEST_NAME)
        except botocore.exceptions.ClientError as error:
            code = error_code(error)
            if code in ("404", "NoSuchKey", "NotFound"):
                return Check(
                    NAME,
                    Status.FAIL,
                    f"no {location}: {what} is not mirrored, or its copy did not finish; "
                    "GPU nodes would find no weights while the block is paid",
                    f"before the block starts (the system nodes run from stage 1): {mirror}",
                )
            if code in ("403", "AccessDenied"):
                return Check(
                    NAME,
                    Status.FAIL,
                    f"{location} could not be read with these credentials ({code})",
                    f"allow s3:ListBucket on s3://{bucket} and s3:GetObject on s3://{bucket}/{prefix} for "
                    "this role, or run preflight as the role that ran the mirror",
                )
            raise translate(error, f"look up {location}") from None
        except botocore.exceptions.BotoCoreError as error:
            raise translate(error, f"look up {location}") from None
        if where == uri and env.model.weight_load is WeightLoad.RUNAI_STREAMER:
            missing = _without_crc64nvme(aws, bucket, prefix + MANIFEST_NAME, location)
            if missing:
                return Check(
                    NAME,
                    Status.FAIL,
                    f"{location}: {missing}; with model.weight_load: runai_streamer the pod's check-weights-s3 "
                    "compares every object's CRC64NVME with the manifest's, so vLLM would not start",
                    f"write a manifest of format 2 (a CRC64NVME per file) with {mirror}",
                )
        found.append(f"{location} ({head.get('ContentLength', '?')} bytes)")
    return Check(NAME, Status.PASS, "; ".join(found))


def _without_crc64nvme(aws: Aws, bucket: str, key: str, location: str) -> str | None:
    """What keeps the manifest at ``key`` from serving check-weights-s3: not JSON, a format below 2, or a file without
    its CRC64NVME (the fields ops_cli/weights_mirror_job.py writes); None when every file has one."""
    try:
        body = aws.client("s3").get_object(Bucket=bucket, Key=key)["Body"].read()
    except (botocore.exceptions.ClientError, botocore.exceptions.BotoCoreError) as error:
        raise translate(error, f"read {location}") from None
    try:
        manifest = json.loads(body)
    except ValueError:
        return "not JSON"
    files = manifest.get("files") if isinstance(manifest, dict) else None
    if not isinstance(files, list):
        return "no list of files"
    version = manifest.get("format", 1)
    bare = [
        str(f.get("path")) if isinstance(f, dict) else repr(f)
        for f in files
        if not (isinstance(f, dict) and f.get("crc64nvme"))
    ]
    if isinstance(version, int) and version >= 2 and not bare:
        return None
    shown = ", ".join(bare[:3]) + (f" and {len(bare) - 3} more" if len(bare) > 3 else "")
    return f"manifest format {version}, {len(bare)} of {len(files)} files without a CRC64NVME" + (
        f" ({shown})" if bare else ""
    )
