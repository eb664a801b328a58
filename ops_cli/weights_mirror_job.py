"""The Job of ``llmops weights mirror`` (ops_cli/weights.py): its manifests, its program, and its progress read back
from its log.

Choices (docs/weights.md):

- The copy runs as a Kubernetes Job in the cluster, not on the operator's machine: 1.4 TB through a laptop's uplink
  takes days; a pod in the VPC reaches both the Hub and S3 (through the NAT gateways and S3) at the node's bandwidth.
- Its image is a small Python image, the Docker official ``python:3.12-slim`` from Amazon ECR Public
  (``public.ecr.aws/docker/library/``, where AWS mirrors Docker's official images: no Docker Hub rate limit), by
  digest, with huggingface_hub and boto3 installed at start with ``pip --require-hashes`` from
  :data:`REQUIREMENTS_FILE` (every package and dependency pinned with the sha256 of its files), as an unprivileged
  user with a read-only root filesystem. The Job writes the very hashes ``llmops`` and ``verify-weights`` later trust:
  nothing it runs may be swapped under it. Not the vLLM image, which
  has both but is 20+ GB: the Job runs on the system nodes (it tolerates no GPU taint), whose root volume is EKS's
  default 20 GiB (botocore's EKS model, CreateNodegroup ``diskSize``), so that the weights can be mirrored before the
  Capacity Block starts, while only the cheap nodes run.
- Maintained copiers on both sides, one file at a time, streamed: ``huggingface_hub.HfFileSystem`` opens each file of
  the commit as a stream (auth, redirects, Xet storage are the library's), and boto3's managed transfer
  (``upload_fileobj``: multipart, concurrent parts) uploads it. Nothing is written to the node's disk, so any node
  that can pull the image will do. ``HF_HUB_ENABLE_HF_TRANSFER`` is not set: huggingface_hub no longer uses hf_transfer
  and warns that the variable is deprecated in favour of ``HF_XET_HIGH_PERFORMANCE``
  (huggingface/huggingface_hub@ee0a4510 src/huggingface_hub/constants.py), which the Job sets.
- Every file's CRC64NVME too, over the very bytes its sha256 is of, in the same pass (awscrt's
  ``awscrt.checksums.crc64nvme``, the C implementation botocore itself uses for CRC64NVME: botocore 1.43.127
  httpchecksum.py ``CrtCrc64NvmeChecksum``; botocore has none without awscrt, which its ``crt`` extra pins at 0.38.0).
  The upload asks S3 for CRC64NVME (``ChecksumAlgorithm``), so botocore sends each part's CRC64NVME and S3 refuses a
  part whose bytes do not match it. S3's ChecksumCRC64NVME is "the Base64 encoded, 64-bit CRC64NVME checksum of the
  object", where its CRC32 and SHA-256 of a multipart object are "a calculation based on the checksum values of each
  individual part" (S3 API reference, Checksum, https://docs.aws.amazon.com/AmazonS3/latest/API/API_Checksum.html; the
  type, ``FULL_OBJECT`` or ``COMPOSITE``, is in HeadObject's ``ChecksumType``, botocore 1.43.127's S3 model). After
  each upload the Job reads it back
  (``HeadObject`` with ``ChecksumMode=ENABLED``) and fails, naming the file, unless it is a ``FULL_OBJECT`` CRC64NVME
  equal to its own and the size is the bytes it read: the manifest (format 2) then records for each file a CRC64NVME
  that S3 itself keeps and returns on a HEAD, which the Run:ai path checks before vLLM streams (docs/weights.md).
  The full-object value cannot be sent with the upload instead: it is known only once the last byte is read, and
  s3transfer takes a full-object checksum in the call's ``ExtraArgs``, before it reads the first byte (s3transfer
  0.17.1 upload.py ``_submit_multipart_request``). The transfer
  client stays boto3's classic one (``preferred_transfer_client="classic"``): with awscrt installed, boto3 would switch
  to the CRT client on the instance types CRT is tuned for (boto3 1.43.11 s3/transfer.py ``_should_use_crt``), whose
  upload of a stream is another code path than the one this Job is tested with. The HEAD needs s3:GetObject (S3 API
  reference, HeadObject, "Permissions"), which the mirror's role has on the prefix.
- AWS access: the Job runs as its own service account (``weights-mirror`` in ``llm-serving``), which needs an EKS Pod
  Identity association with a role that may write only the weights prefix (s3:ListBucket with an s3:prefix condition;
  s3:PutObject, s3:GetObject, s3:AbortMultipartUpload on ``PREFIX*``) and read the Hugging Face token's secret. The
  stacks do not create it yet (docs/weights.md gives the commands). The Job reads the token itself,
  with boto3: it never passes through this machine, a Kubernetes Secret or the manifest.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from deployment_config.kubernetes_names import SERVING_NAMESPACE, WEIGHTS_MIRROR_NAME
from deployment_config.model import EnvironmentConfig
from endpoint_probe.deadline import Deadline
from ops_cli.tools import run_tool, tool_failure, tool_json
from ops_cli.weights import check_mirror_target, mirrored_speculator, speculator_target

MIRROR_JOB = MIRROR_SERVICE_ACCOUNT = WEIGHTS_MIRROR_NAME
#: One progress line per file, printed by the Job's script and read back from ``kubectl logs``.
PROGRESS_PREFIX = "MIRROR "

#: The Job's program (python3 of the vLLM image). argv: repo_id, commit, bucket, prefix, region, token secret or ""; then
#: the same six for the ``spec_decoding`` speculator (deployment_config/speculator.py), copied after the weights.
JOB_SCRIPT = r"""
import base64, hashlib, json, sys, boto3
from awscrt import checksums
from boto3.s3.transfer import TransferConfig
from huggingface_hub import HfApi, HfFileSystem
for start in range(1, len(sys.argv), 6):
    repo, sha, bucket, prefix, region, secret = sys.argv[start:start + 6]
    token = None
    if secret:
        token = boto3.client("secretsmanager", region_name=region).get_secret_value(SecretId=secret)["SecretString"].strip()
    info = HfApi(token=token).model_info(repo, revision=sha, files_metadata=True)
    files = sorted(info.siblings, key=lambda s: s.rfilename)
    fs, s3 = HfFileSystem(token=token), boto3.client("s3", region_name=region)
    config = TransferConfig(multipart_chunksize=64 * 1024 * 1024, max_concurrency=16, preferred_transfer_client="classic")
    total, copied, entries = sum(f.size or 0 for f in files), 0, []
    class Hashing:
        def __init__(self, stream, size):
            self.stream, self.digest, self.size, self.crc = stream, hashlib.sha256(), 0, 0
            self.blob = hashlib.sha1(b"blob %d\0" % size)
        def read(self, n=-1):
            data = self.stream.read(n); self.digest.update(data); self.blob.update(data); self.size += len(data)
            self.crc = checksums.crc64nvme(data, self.crc)
            return data
    for index, sibling in enumerate(files, 1):
        key = prefix + sibling.rfilename
        with fs.open(f"{repo}/{sibling.rfilename}", "rb", revision=sha, block_size=0) as source:
            reader = Hashing(source, sibling.size or 0)
            s3.upload_fileobj(reader, bucket, key, ExtraArgs={"ChecksumAlgorithm": "CRC64NVME"}, Config=config)
        crc = base64.b64encode(reader.crc.to_bytes(8, "big")).decode()
        head = s3.head_object(Bucket=bucket, Key=key, ChecksumMode="ENABLED")
        stored = (head.get("ChecksumCRC64NVME"), head.get("ChecksumType"), head.get("ContentLength"))
        if stored != (crc, "FULL_OBJECT", reader.size):
            print(f"MIRROR FAILED: s3://{bucket}/{key}: S3 keeps CRC64NVME {stored[0]} ({stored[1]}) and {stored[2]} "
                  f"bytes; the Job read {reader.size} bytes of CRC64NVME {crc}", file=sys.stderr, flush=True)
            sys.exit(1)
        copied += reader.size
        entry = {"path": sibling.rfilename, "size": reader.size, "sha256": reader.digest.hexdigest(), "crc64nvme": crc,
                 "hub_lfs_sha256": sibling.lfs.sha256 if sibling.lfs else None,
                 "git_blob_sha1": None if sibling.lfs else reader.blob.hexdigest(),
                 "hub_blob_id": None if sibling.lfs else sibling.blob_id}
        entries.append(entry)
        record = {**entry, "file": index, "files": len(files), "bytes_copied": copied, "bytes_total": total}
        print("MIRROR " + json.dumps(record), flush=True)
    manifest = {"format": 2, "repo_id": repo, "revision": sha, "files": entries}
    s3.put_object(Bucket=bucket, Key=prefix + "MANIFEST.json", Body=json.dumps(manifest, indent=1).encode(),
                  ContentType="application/json")
    print("MIRROR " + json.dumps({"done": True, "files": len(entries), "bytes_copied": copied}), flush=True)
"""


#: The mirror Job's image: python:3.12-slim (Python 3.12.13 on Debian trixie) by the digest of its multi-platform
#: index, as Docker's official-images record lists it (docker-library/repo-info@2986dca3a80cb11b70fc4599941096374ea9e509
#: repos/python/remote/3.12-slim.md: "docker pull python@sha256:229a2c5b…"). ECR Public's docker/library repositories
#: are copies of the official images, so the same digest names the same image there; a registry that served other
#: content under it would fail the pull, never run it. Move it on purpose, with that record.
JOB_IMAGE = (
    "public.ecr.aws/docker/library/python:3.12-slim"
    "@sha256:229a2c5bfa27522db7815ea81f9bed70af17ccb9de9fc7ad142b1877b5830d36"
)
#: The packages the Job installs at start, with the sha256 of every file of each (the file says how it is made); the
#: versions this project tests with (boto3 is requirements-ops.txt's). The cluster reaches PyPI through the NAT
#: gateways.
REQUIREMENTS_FILE = Path(__file__).resolve().parent / "data" / "weights_mirror_requirements.txt"
#: Not root: an id no file of the image belongs to; the Job writes only its emptyDir, which the kubelet makes writable
#: (Kubernetes "Configure a Security Context for a Pod or Container": runAsUser, runAsNonRoot).
JOB_USER = 65532
#: The Job's one writable directory (an emptyDir): the requirements, the installed packages, HOME, TMPDIR and the Hub's
#: cache.
WORK_DIR = "/work"
#: ``sh -c``: write the hashed requirements (``MIRROR_REQUIREMENTS``) to a file, install them into the work directory
#: with every hash checked and wheels only (nothing is built), then run the script (``MIRROR_SCRIPT``) with the Job's
#: arguments (``$@``; ``$0`` is a name).
JOB_BOOTSTRAP = (
    f'mkdir -p {WORK_DIR}/tmp && printf "%s" "$MIRROR_REQUIREMENTS" > {WORK_DIR}/requirements.txt && '
    "pip install --no-cache-dir --quiet --disable-pip-version-check --require-hashes --only-binary :all: "
    f"--target {WORK_DIR}/packages -r {WORK_DIR}/requirements.txt >&2 && "
    'exec python3 -c "$MIRROR_SCRIPT" "$@"'
)


def job_requirements() -> str:
    return REQUIREMENTS_FILE.read_text(encoding="utf-8")


def mirror_manifests(
    env: EnvironmentConfig, sha: str, speculator_sha: str | None = None
) -> list[dict]:
    """The namespace, the ServiceAccount (the Pod Identity association names it) and the Job that copies ``sha`` to its
    own prefix. The namespace is applied too because the mirror runs before any stack creates it: on EKS before the
    serving stack (whose chart applies the same Namespace later, which ``kubectl apply`` adopts), and on HyperPod, whose
    endpoint lives in a namespace of its own, at all (stacks/cluster_stack.py gives the role on both platforms).
    ``speculator_sha``: with spec_decoding, the speculator's commit, copied by the same Job after the weights into
    :func:`speculator_target` (the mirror's role may write under the whole of ``model.s3_uri``)."""
    bucket, prefix = check_mirror_target(env, sha)
    secret = env.model.hugging_face_token_secret or ""
    more: list[str] = []
    if speculator_sha is not None:
        spec_bucket, spec_prefix = speculator_target(env, speculator_sha)
        more = [
            mirrored_speculator(env) or "",
            speculator_sha,
            spec_bucket,
            spec_prefix,
            env.region,
            secret,
        ]
    labels = {
        "app.kubernetes.io/name": MIRROR_JOB,
        "app.kubernetes.io/instance": env.name,
        "app.kubernetes.io/part-of": "llm-serving",
        "app.kubernetes.io/managed-by": "llmops",
    }
    metadata = {"name": MIRROR_JOB, "namespace": SERVING_NAMESPACE, "labels": labels}
    container = {
        "name": "mirror",
        "image": JOB_IMAGE,
        "imagePullPolicy": "IfNotPresent",
        "command": [
            "sh",
            "-c",
            JOB_BOOTSTRAP,
            "mirror",
            env.model.hugging_face_id,
            sha,
            bucket,
            prefix,
            env.region,
            secret,
            *more,
        ],
        "env": [
            {"name": "MIRROR_SCRIPT", "value": JOB_SCRIPT},
            {"name": "MIRROR_REQUIREMENTS", "value": job_requirements()},
            {"name": "PYTHONPATH", "value": f"{WORK_DIR}/packages"},
            {"name": "HOME", "value": WORK_DIR},
            # pip's and Python's temporary files: the root filesystem is read-only
            {"name": "TMPDIR", "value": f"{WORK_DIR}/tmp"},
            {"name": "HF_XET_HIGH_PERFORMANCE", "value": "1"},
            {"name": "HF_HUB_DISABLE_TELEMETRY", "value": "1"},
        ],
        "resources": {"requests": {"cpu": "2", "memory": "8Gi"}, "limits": {"memory": "12Gi"}},
        "volumeMounts": [{"name": "work", "mountPath": WORK_DIR}],
        "securityContext": {
            "runAsNonRoot": True,
            "runAsUser": JOB_USER,
            "runAsGroup": JOB_USER,
            "readOnlyRootFilesystem": True,
            "allowPrivilegeEscalation": False,
            "privileged": False,
            "capabilities": {"drop": ["ALL"]},
            "seccompProfile": {"type": "RuntimeDefault"},
        },
    }
    job = {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": metadata,
        "spec": {
            "backoffLimit": 2,
            "ttlSecondsAfterFinished": 7 * 24 * 3600,
            "template": {
                "metadata": {"labels": labels},
                "spec": {
                    "serviceAccountName": MIRROR_SERVICE_ACCOUNT,
                    "restartPolicy": "Never",
                    "enableServiceLinks": False,
                    "containers": [container],
                    # The packages (about 60 MB) and the Hub's small cache; the weights stream through, never here.
                    "volumes": [{"name": "work", "emptyDir": {"sizeLimit": "2Gi"}}],
                },
            },
        },
    }
    account = {
        "apiVersion": "v1",
        "kind": "ServiceAccount",
        "metadata": {**metadata, "name": MIRROR_SERVICE_ACCOUNT},
        "automountServiceAccountToken": False,
    }
    namespace = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": SERVING_NAMESPACE}}
    return [namespace, account, job]


def kubectl(
    run: Callable | None,
    binary: str,
    *args: str,
    stdin: str | None = None,
    timeout: float = 120,
    deadline: Deadline | None = None,
) -> str:
    """What ``kubectl ARGS`` printed, within ``timeout`` and what is left of ``deadline`` (ops_cli/tools.py)."""
    result = run_tool([binary, *args], deadline=deadline, cap=timeout, stdin=stdin, run=run)
    if result.returncode != 0:
        raise tool_failure(result)
    return result.stdout


def kubectl_json(
    run: Callable | None, binary: str, *args: str, deadline: Deadline | None = None
) -> dict:
    """``kubectl ARGS -o json`` as the JSON object it must print; a clear error naming the command otherwise."""
    result = run_tool([binary, *args, "-o", "json"], deadline=deadline, cap=120, run=run)
    if result.returncode != 0:
        raise tool_failure(result)
    return tool_json(result)


def progress_lines(log: str) -> list[dict]:
    """The Job's progress records, in order; a line that is not a JSON object is skipped (the log is the Job's
    output, through kubectl: nothing in it may crash the command)."""
    records = []
    for line in log.splitlines():
        if line.startswith(PROGRESS_PREFIX):
            try:
                record = json.loads(line[len(PROGRESS_PREFIX) :])
            except (ValueError, RecursionError):
                continue
            if isinstance(record, dict):
                records.append(record)
    return records


_FILE_FIELDS = ("file", "files", "size", "bytes_copied", "bytes_total")


def file_records(log: str) -> list[dict]:
    """The records of the files copied so far: a ``path`` and the whole numbers :data:`_FILE_FIELDS`."""
    return [
        r
        for r in progress_lines(log)
        if isinstance(r.get("path"), str)
        and all(isinstance(r.get(k), int) and not isinstance(r.get(k), bool) for k in _FILE_FIELDS)
    ]
