"""``llmops weights mirror``: copy the model from the Hugging Face Hub to the environment's S3 prefix once, at a pinned
commit, in the cluster; then check the checksum manifest the copy wrote.

Choices (README, "Mirror the weights to S3"):

- The copy runs as a Kubernetes Job in the cluster, not on the operator's machine: 1.4 TB through a laptop's uplink
  takes days; a pod in the VPC reaches both the Hub and S3 (through the NAT gateways and S3) at the node's bandwidth.
- Its image is a small Python image, the Docker official ``python:3.12-slim`` from Amazon ECR Public
  (``public.ecr.aws/docker/library/``, where AWS mirrors Docker's official images: no Docker Hub rate limit), with
  huggingface_hub and boto3 installed at start at pinned versions (:data:`JOB_PACKAGES`). Not the vLLM image, which
  has both but is 20+ GB: the Job runs on the system nodes (it tolerates no GPU taint), whose root volume is EKS's
  default 20 GiB (botocore's EKS model, CreateNodegroup ``diskSize``), so that the weights can be mirrored before the
  Capacity Block starts, while only the cheap nodes run.
- Maintained copiers on both sides, one file at a time, streamed: ``huggingface_hub.HfFileSystem`` opens each file of
  the commit as a stream (auth, redirects, Xet storage are the library's), and boto3's managed transfer
  (``upload_fileobj``: multipart, concurrent parts) uploads it. Nothing is written to the node's disk, so any node
  that can pull the image will do. ``HF_HUB_ENABLE_HF_TRANSFER`` is not set: huggingface_hub no longer uses hf_transfer
  and warns that the variable is deprecated in favour of ``HF_XET_HIGH_PERFORMANCE``
  (huggingface/huggingface_hub@ee0a4510 src/huggingface_hub/constants.py), which the Job sets.
- sha256 is computed while streaming; the manifest holds path, size, sha256 and the Hub's LFS sha256
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
- AWS access: the Job runs as its own service account (``weights-mirror`` in ``llm-serving``), which needs an EKS Pod
  Identity association with a role that may write only the weights prefix (s3:ListBucket with an s3:prefix condition;
  s3:PutObject, s3:GetObject, s3:AbortMultipartUpload on ``PREFIX*``) and read the Hugging Face token's secret. The
  stacks do not create it yet (README, "Mirror the weights to S3", gives the commands). The Job reads the token itself,
  with boto3: it never passes through this machine, a Kubernetes Secret or the manifest.
"""

from __future__ import annotations

import json
import re
import urllib.parse
from collections.abc import Callable, Mapping
from contextlib import nullcontext
from dataclasses import dataclass

from deployment_config import speculator
from deployment_config.kubernetes_names import SERVING_NAMESPACE, WEIGHTS_MIRROR_NAME
from deployment_config.model import EnvironmentConfig, WeightSource
from deployment_config.model_location import revision_s3_uri
from endpoint_probe.deadline import Deadline
from endpoint_probe.errors import BadResponse, DeadlineExceeded, Unreachable
from endpoint_probe.http import exchange
from endpoint_probe.redaction import redact_secrets
from endpoint_probe.url import check_url
from ops_cli.errors import ExitCode, OpsError, shown
from ops_cli.tools import run_tool, tool_failure, tool_json

#: The Hub's API: ``GET {endpoint}/api/models/{repo_id}/revision/{revision}`` answers the model's info at that
#: revision, whose ``sha`` is the commit (huggingface/huggingface_hub@ee0a4510 src/huggingface_hub/hf_api.py
#: ``HfApi.model_info``; the endpoint is ``HF_ENDPOINT`` or https://huggingface.co, constants.py).
HUB_ENDPOINT = "https://huggingface.co"
COMMIT = re.compile(r"[0-9a-f]{40}")
#: A branch or tag name as a revision argument: no spaces, no control characters, no '..' (git check-ref-format).
_REF = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/-]{0,254}")
MIRROR_JOB = MIRROR_SERVICE_ACCOUNT = WEIGHTS_MIRROR_NAME
MANIFEST_NAME = "MANIFEST.json"
#: One progress line per file, printed by the Job's script and read back from ``kubectl logs``.
PROGRESS_PREFIX = "MIRROR "


def s3_location(s3_uri: str) -> tuple[str, str]:
    """(bucket, prefix ending in '/' or empty) of ``s3://bucket/prefix``."""
    bucket, _, prefix = s3_uri.removeprefix("s3://").partition("/")
    return bucket, (prefix.rstrip("/") + "/") if prefix.strip("/") else ""


#: The longest the Hub's answer may take, a command's --timeout can only shorten it.
HUB_CAP_S = 30
#: The most read of the Hub's answer (a model's info with its file list).
MAX_HUB_ANSWER = 4 * 1024 * 1024


def hub_endpoint(environ: Mapping[str, str]) -> str:
    """The Hub to ask: ``HF_ENDPOINT`` as huggingface_hub reads it (a private mirror of the Hub), else
    :data:`HUB_ENDPOINT`. The copy Job asks huggingface.co itself; a mirror must serve the same commits."""
    return (environ.get("HF_ENDPOINT") or "").strip() or HUB_ENDPOINT


def hub_get(url: str, token: str | None, *, deadline: Deadline | None = None) -> dict:
    """:func:`_hub_get`, with the token out of any message (a Hub, or a proxy, may echo the request)."""
    try:
        return _hub_get(url, token, deadline=deadline)
    except OpsError as error:
        error.message, error.fix = (
            redact_secrets(error.message, (token or "",)),
            redact_secrets(error.fix, (token or "",)),
        )
        raise


def _hub_get(url: str, token: str | None, *, deadline: Deadline | None = None) -> dict:
    """GET a Hub API URL and decode its JSON object (replaced in tests that do not test the Hub's answers).

    Not ``urllib.request``, whose timeout bounds each socket read only, so that a Hub that sends a byte every few
    seconds kept llmops waiting for ever: endpoint_probe/http.py bounds the request as a whole, by :data:`HUB_CAP_S`
    and by what is left of the command's ``deadline``. Redirects are not followed."""
    base, _, path = url.partition("/api/")
    endpoint = check_url(base, option="the Hugging Face Hub address (HF_ENDPOINT)")
    headers = {
        "Accept": "application/json",
        **({"Authorization": f"Bearer {token}"} if token else {}),
    }
    where = f"{endpoint.url}/api/{path}"
    try:
        with exchange(
            endpoint,
            "GET",
            f"/api/{path}",
            what="GET the model's info from the Hugging Face Hub",
            timeout=HUB_CAP_S,
            headers=headers,
            deadline=deadline,
        ) as response:
            status = response.status
            if status in (401, 403):
                raise OpsError(
                    f"the Hugging Face Hub refused {where} ({status})",
                    "set model.hugging_face_token_secret to a secret holding a token that may read the model "
                    "(a gated model needs its licence accepted)",
                    ExitCode.ACCESS_DENIED,
                )
            if status == 404:
                raise OpsError(
                    f"the Hugging Face Hub has no such model or revision: {where}",
                    "check model.hugging_face_id and --revision",
                    ExitCode.NOT_FOUND,
                )
            if not 200 <= status < 300:
                raise OpsError(
                    f"the Hugging Face Hub answered {response.summary()} for {where}",
                    "try again later; a redirect means the model was renamed: set model.hugging_face_id to "
                    "its new name",
                    ExitCode.AWS_ERROR,
                )
            raw = response.read(MAX_HUB_ANSWER)
    except DeadlineExceeded as error:
        if deadline is not None and deadline.passed():
            raise
        raise OpsError(
            error.message,
            f"the Hub is slow or unreachable from here: try again later ({where})",
            ExitCode.TIMEOUT,
        ) from None
    except (Unreachable, BadResponse) as error:
        raise OpsError(
            f"could not ask the Hugging Face Hub ({where}): {error}",
            "check the network (and HF_ENDPOINT, if set)",
            ExitCode.AWS_ERROR,
        ) from None
    try:
        info = json.loads(raw)
    except (ValueError, RecursionError):
        info = None
    if not isinstance(info, dict):
        raise OpsError(
            f"the Hugging Face Hub's answer for {where} is not a JSON object",
            f"look at it by hand: curl -sS {where}",
            ExitCode.AWS_ERROR,
        )
    return info


def resolve_revision(
    repo_id: str,
    ref: str,
    *,
    token: str | None = None,
    get: Callable[..., dict] | None = None,
    hub: str = HUB_ENDPOINT,
    deadline: Deadline | None = None,
) -> str:
    """The commit id ``ref`` (a branch, tag or commit) points at now, from the Hub at ``hub``."""
    if not _REF.fullmatch(ref) or ".." in ref:
        raise OpsError(
            f"--revision {shown(ref)} is not a branch, tag or commit id",
            "for example main, or a commit id",
            ExitCode.USAGE,
        )
    url = f"{hub.rstrip('/')}/api/models/{repo_id}/revision/{urllib.parse.quote(ref, safe='')}"
    with (
        deadline.during(f"asking the Hugging Face Hub for {repo_id}@{ref}")
        if deadline
        else nullcontext()
    ):
        info = (get or hub_get)(url, token, deadline=deadline)
    sha = info.get("sha") if isinstance(info, dict) else None
    if not isinstance(sha, str) or not COMMIT.fullmatch(sha):
        raise OpsError(
            f"the Hub's answer for {repo_id}@{ref} carries no commit id",
            "try again, or pass the commit id",
            ExitCode.AWS_ERROR,
        )
    return sha


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


#: The Job's program (python3 of the vLLM image). argv: repo_id, commit, bucket, prefix, region, token secret or ""; then
#: the same six for the ``spec_decoding`` speculator (deployment_config/speculator.py), copied after the weights.
JOB_SCRIPT = r"""
import hashlib, json, sys, boto3
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
    config = TransferConfig(multipart_chunksize=64 * 1024 * 1024, max_concurrency=16)
    total, copied, entries = sum(f.size or 0 for f in files), 0, []
    class Hashing:
        def __init__(self, stream, size):
            self.stream, self.digest, self.size = stream, hashlib.sha256(), 0
            self.blob = hashlib.sha1(b"blob %d\0" % size)
        def read(self, n=-1):
            data = self.stream.read(n); self.digest.update(data); self.blob.update(data); self.size += len(data)
            return data
    for index, sibling in enumerate(files, 1):
        with fs.open(f"{repo}/{sibling.rfilename}", "rb", revision=sha, block_size=0) as source:
            reader = Hashing(source, sibling.size or 0)
            s3.upload_fileobj(reader, bucket, prefix + sibling.rfilename, Config=config)
        copied += reader.size
        entry = {"path": sibling.rfilename, "size": reader.size, "sha256": reader.digest.hexdigest(),
                 "hub_lfs_sha256": sibling.lfs.sha256 if sibling.lfs else None,
                 "git_blob_sha1": None if sibling.lfs else reader.blob.hexdigest(),
                 "hub_blob_id": None if sibling.lfs else sibling.blob_id}
        entries.append(entry)
        record = {**entry, "file": index, "files": len(files), "bytes_copied": copied, "bytes_total": total}
        print("MIRROR " + json.dumps(record), flush=True)
    manifest = {"repo_id": repo, "revision": sha, "files": entries}
    s3.put_object(Bucket=bucket, Key=prefix + "MANIFEST.json", Body=json.dumps(manifest, indent=1).encode(),
                  ContentType="application/json")
    print("MIRROR " + json.dumps({"done": True, "files": len(entries), "bytes_copied": copied}), flush=True)
"""


#: The mirror Job's image and the packages it installs when it starts (pinned: the versions this project tests with;
#: boto3 is requirements-ops.txt's). The cluster reaches PyPI through the NAT gateways.
JOB_IMAGE = "public.ecr.aws/docker/library/python:3.12-slim"
JOB_PACKAGES = ("huggingface_hub==2.4.0", "boto3==1.43.11")
#: ``sh -c``: install the packages, then run the script (in the container's environment as ``MIRROR_SCRIPT``) with
#: the Job's arguments (``$@``; ``$0`` is a name).
JOB_BOOTSTRAP = (
    f"pip install --no-cache-dir --quiet --disable-pip-version-check {' '.join(JOB_PACKAGES)} >&2 && "
    'exec python3 -c "$MIRROR_SCRIPT" "$@"'
)


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
            {"name": "HF_XET_HIGH_PERFORMANCE", "value": "1"},
            {"name": "HF_HUB_DISABLE_TELEMETRY", "value": "1"},
        ],
        "resources": {"requests": {"cpu": "2", "memory": "8Gi"}, "limits": {"memory": "12Gi"}},
        "securityContext": {
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


def read_mirror(
    aws_client: Callable[[str], object], bucket: str, prefix: str
) -> tuple[dict, dict[str, int]]:
    """The manifest and the sizes of the objects under the prefix."""
    s3 = aws_client("s3")
    location = f"s3://{bucket}/{prefix}{MANIFEST_NAME}"
    try:
        body = s3.get_object(Bucket=bucket, Key=prefix + MANIFEST_NAME)["Body"].read()
    except s3.exceptions.NoSuchKey:
        raise OpsError(
            f"{location} does not exist: the mirror did not finish",
            "run llmops weights mirror again",
            ExitCode.CHECK_FAILED,
        ) from None
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
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix):
        objects.update({o["Key"]: o["Size"] for o in page.get("Contents") or []})
    return manifest, objects


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
