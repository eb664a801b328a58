"""llmops weights mirror: the Hub revision pinned to a commit and written into the environment file, the copy Job
(strictly valid Kubernetes 1.34), the flow through kubectl, and the checksum manifest check. Nothing reaches the Hub, AWS
or a cluster: the Hub call is replaced, AWS is stubbed with botocore's Stubber, kubectl is a fake."""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import io
import json
import re
import subprocess

import kubernetes_validate
import pytest
import yaml
from botocore.response import StreamingBody

from deployment_config import ConfigError, load_environment
from deployment_config.kubernetes_names import SERVING_NAMESPACE
from deployment_config.model import WeightSource
from ops_cli import hugging_face_hub, weights, weights_mirror_job
from ops_cli.errors import ExitCode, OpsError
from tests.ops_cli.conftest import client_error, run_llmops
from tests.s3_stand_in import crc64nvme, crc64nvme_b64

SHA = "0123456789abcdef0123456789abcdef01234567"
BUCKET, BASE = "weights-bucket", "kimi-k3/"
#: The revision's own prefix under model.s3_uri, where the mirror writes.
PREFIX = f"{BASE}{SHA}/"
SHARD = "model-00001-of-00118.safetensors"
SHARD_SHA = "a" * 64


@pytest.fixture
def s3_config_dir(config_dir):
    """The example environment, switched to S3 weights."""
    path = config_dir / "example.yaml"
    text = path.read_text()
    assert yaml.safe_load(text)["model"]["weight_source"] == "huggingface"
    path.write_text(
        text.replace(
            "weight_source: huggingface", f"weight_source: s3\n  s3_uri: s3://{BUCKET}/{BASE}", 1
        )
    )
    return config_dir


@pytest.fixture
def s3_env(s3_config_dir):
    return load_environment(s3_config_dir, "example")


@pytest.fixture
def hub(monkeypatch):
    """The Hub's model-info answer, recorded per URL; no request leaves the process."""
    asked: list[tuple[str, str | None]] = []

    def get(url: str, token: str | None, **_) -> dict:
        asked.append((url, token))
        return {"id": "moonshotai/Kimi-K3", "sha": SHA}

    monkeypatch.setattr(hugging_face_hub, "hub_get", get)
    return asked


def test_a_branch_is_resolved_to_its_commit_with_the_hub_api(hub):
    assert hugging_face_hub.resolve_revision("moonshotai/Kimi-K3", "main") == SHA
    assert hub == [("https://huggingface.co/api/models/moonshotai/Kimi-K3/revision/main", None)]


def test_a_revision_that_is_no_ref_is_refused_before_asking_the_hub(hub):
    with pytest.raises(OpsError) as error:
        hugging_face_hub.resolve_revision("moonshotai/Kimi-K3", "main; rm -rf /")
    assert error.value.exit_code == ExitCode.USAGE and hub == []


def test_an_answer_without_a_commit_is_an_error():
    with pytest.raises(OpsError, match="no commit id"):
        hugging_face_hub.resolve_revision(
            "moonshotai/Kimi-K3", "main", get=lambda url, token, **_: {"sha": "main"}
        )


def test_the_revision_key_takes_only_a_commit_id(s3_config_dir):
    path = s3_config_dir / "example.yaml"
    text = path.read_text()
    path.write_text(text.replace("model:\n", "model:\n  hugging_face_revision: main\n", 1))
    with pytest.raises(ConfigError) as error:
        load_environment(s3_config_dir, "example")
    assert "model.hugging_face_revision" in str(error.value) and "40 lowercase hex" in str(
        error.value
    )
    path.write_text(text.replace("model:\n", f"model:\n  hugging_face_revision: {SHA}\n", 1))
    assert load_environment(s3_config_dir, "example").model.hugging_face_revision == SHA


def test_revision_in_extra_args_is_refused_as_derived(s3_config_dir):
    path = s3_config_dir / "example.yaml"
    path.write_text(
        path.read_text().replace("extra_args: []", "extra_args: [--code-revision, main]", 1)
    )
    with pytest.raises(ConfigError, match="hugging_face_revision"):
        load_environment(s3_config_dir, "example")


def test_the_job_is_valid_kubernetes_and_copies_the_pinned_commit_with_its_own_service_account(
    s3_env,
):
    namespace, account, job = weights_mirror_job.mirror_manifests(s3_env, SHA)
    for manifest in (namespace, account, job):
        kubernetes_validate.validate(manifest, "1.34", strict=True)
    # the namespace first: the mirror runs before any stack has created it (on HyperPod no stack ever does)
    assert namespace["kind"] == "Namespace" and namespace["metadata"]["name"] == SERVING_NAMESPACE
    pod = job["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    # a small Python image from ECR Public, able to run on the system nodes before the GPU capacity starts; the
    # account the Pod Identity role is bound to
    assert container["image"] == weights_mirror_job.JOB_IMAGE
    assert "tolerations" not in pod
    assert (
        pod["serviceAccountName"]
        == account["metadata"]["name"]
        == weights_mirror_job.MIRROR_SERVICE_ACCOUNT
    )
    assert job["metadata"]["namespace"] == account["metadata"]["namespace"] == SERVING_NAMESPACE
    # the repository, the commit, the bucket and the commit's own prefix as arguments of the script, never the token
    assert (
        container["command"][:2] == ["sh", "-c"]
        and 'exec python3 -c "$MIRROR_SCRIPT" "$@"' in container["command"][2]
    )
    assert container["command"][4:] == ["moonshotai/Kimi-K3", SHA, BUCKET, PREFIX, "us-west-2", ""]
    env = {e["name"]: e["value"] for e in container["env"]}
    assert env["MIRROR_SCRIPT"] == weights_mirror_job.JOB_SCRIPT
    assert env["HF_XET_HIGH_PERFORMANCE"] == "1" and "HF_HUB_ENABLE_HF_TRANSFER" not in env
    assert pod["restartPolicy"] == "Never"


def test_the_job_runs_an_image_by_digest_installs_only_hashed_wheels_and_is_not_root(s3_env):
    # the Job writes the hashes llmops and verify-weights later trust: nothing it runs may change under it
    *_, job = weights_mirror_job.mirror_manifests(s3_env, SHA)
    pod = job["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    # the image by the digest of python:3.12-slim's index (a tag can be moved to other content)
    assert re.fullmatch(
        r"public\.ecr\.aws/docker/library/python:3\.12-slim@sha256:[0-9a-f]{64}", container["image"]
    )
    # pip installs the shipped requirements, every file's hash checked, wheels only (no build runs code)
    env = {e["name"]: e["value"] for e in container["env"]}
    assert env["MIRROR_REQUIREMENTS"] == weights_mirror_job.REQUIREMENTS_FILE.read_text()
    bootstrap = container["command"][2]
    assert "--require-hashes" in bootstrap and "--only-binary :all:" in bootstrap
    assert '"$MIRROR_REQUIREMENTS"' in bootstrap and "-r /work/requirements.txt" in bootstrap
    # as a user that is not root, on a read-only root filesystem, writing only its emptyDir
    context = container["securityContext"]
    assert context["runAsNonRoot"] is True and context["runAsUser"] != 0
    assert context["readOnlyRootFilesystem"] is True
    assert context["capabilities"] == {"drop": ["ALL"]}
    assert container["volumeMounts"] == [{"name": "work", "mountPath": "/work"}]
    assert pod["volumes"][0]["name"] == "work" and "emptyDir" in pod["volumes"][0]
    assert env["PYTHONPATH"] == "/work/packages" and env["TMPDIR"].startswith("/work/")


def test_every_requirement_of_the_job_is_pinned_with_its_hashes():
    # given the requirements file the Job installs with --require-hashes (pip refuses a file missing one)
    text = weights_mirror_job.REQUIREMENTS_FILE.read_text()
    entries = re.findall(
        r"^([A-Za-z0-9_.-]+)==(\S+) \\\n((?:    --hash=sha256:[0-9a-f]{64}.*\n)+)", text, re.M
    )
    pins = {name.lower(): version for name, version, _ in entries}
    # then the copiers at the versions this project tests with (boto3 as requirements-ops.txt has it), and every
    # requirement line of the file carries hashes
    assert pins["huggingface-hub"] == "2.4.0"
    ops = (weights_mirror_job.REQUIREMENTS_FILE.parents[2] / "requirements-ops.txt").read_text()
    assert f"boto3=={pins['boto3']} " in ops and f"botocore=={pins['botocore']} " in ops
    # and awscrt, whose crc64nvme the Job computes with, at the version botocore's crt extra pins
    from importlib.metadata import requires

    assert [r for r in requires("botocore") if r.startswith("awscrt")] == [
        f"awscrt (=={pins['awscrt']}) ; extra == 'crt'"
    ]
    requirement_lines = [
        line for line in text.splitlines() if re.match(r"^[A-Za-z0-9_.-]+==", line)
    ]
    assert len(requirement_lines) == len(entries) > 10


def test_the_job_reads_the_token_from_its_secret_itself(s3_env):
    gated = dataclasses.replace(
        s3_env, model=dataclasses.replace(s3_env.model, hugging_face_token_secret="hf/token")
    )
    *_, job = weights_mirror_job.mirror_manifests(gated, SHA)
    command = job["spec"]["template"]["spec"]["containers"][0]["command"]
    script = job["spec"]["template"]["spec"]["containers"][0]["env"][0]["value"]
    assert command[-1] == "hf/token" and "get_secret_value" in script


def test_a_hub_environment_has_nothing_to_mirror(s3_env):
    hub_env = dataclasses.replace(
        s3_env,
        model=dataclasses.replace(
            s3_env.model, weight_source=WeightSource.HUGGINGFACE, s3_uri=None
        ),
    )
    with pytest.raises(OpsError) as error:
        weights_mirror_job.mirror_manifests(hub_env, SHA)
    assert "weight_source: s3" in error.value.fix


def manifest(**overrides) -> dict:
    files = [
        {"path": "config.json", "size": 10, "sha256": "c" * 64, "hub_lfs_sha256": None},
        {"path": SHARD, "size": 1000, "sha256": SHARD_SHA, "hub_lfs_sha256": SHARD_SHA},
    ]
    files[1].update(overrides)
    return {"repo_id": "moonshotai/Kimi-K3", "revision": SHA, "files": files}


OBJECTS = {PREFIX + "config.json": 10, PREFIX + SHARD: 1000, PREFIX + "MANIFEST.json": 500}


def test_a_complete_mirror_passes_the_check():
    assert weights.check_manifest(manifest(), OBJECTS, PREFIX) == []


def test_a_checksum_mismatch_names_the_file():
    (problem,) = weights.check_manifest(manifest(sha256="b" * 64), OBJECTS, PREFIX)
    assert problem.path == SHARD and "differs from the Hub's" in problem.problem


def test_an_object_the_manifest_does_not_list_names_the_file():
    # the node's check would refuse it, and its copy fetch it again on every start
    (extra,) = weights.check_manifest(
        manifest(), {**OBJECTS, PREFIX + "stray.safetensors": 5}, PREFIX
    )
    assert extra.path == "stray.safetensors" and "not in the manifest" in extra.problem


def test_a_missing_or_short_object_names_the_file():
    assert [
        p.path for p in weights.check_manifest(manifest(), {PREFIX + "config.json": 10}, PREFIX)
    ] == [SHARD]
    (short,) = weights.check_manifest(manifest(), {**OBJECTS, PREFIX + SHARD: 999}, PREFIX)
    assert short.path == SHARD and "999 bytes" in short.problem


class FakeKubectl:
    """Answers delete, apply, logs and get job like kubectl; records the commands and what apply read."""

    def __init__(self, succeeded: bool = True) -> None:
        self.commands: list[list[str]] = []
        self.applied: dict | None = None
        self.succeeded = succeeded

    def __call__(self, command, **kwargs):
        self.commands.append(command)
        args = command[1:]
        if args[0] == "delete":
            return subprocess.CompletedProcess(command, 0, "", "")
        if args[0] == "apply":
            self.applied = json.loads(kwargs["input"])
            return subprocess.CompletedProcess(command, 0, "job.batch/weights-mirror created\n", "")
        if args[0] == "logs":
            lines = [
                "Fetching 2 files",
                "MIRROR "
                + json.dumps(
                    {
                        "path": "config.json",
                        "size": 10,
                        "sha256": "c" * 64,
                        "hub_lfs_sha256": None,
                        "file": 1,
                        "files": 2,
                        "bytes_copied": 10,
                        "bytes_total": 1010,
                    }
                ),
                "MIRROR "
                + json.dumps(
                    {
                        "path": SHARD,
                        "size": 1000,
                        "sha256": SHARD_SHA,
                        "hub_lfs_sha256": SHARD_SHA,
                        "file": 2,
                        "files": 2,
                        "bytes_copied": 1010,
                        "bytes_total": 1010,
                    }
                ),
                "MIRROR " + json.dumps({"done": True, "files": 2, "bytes_copied": 1010}),
            ]
            return subprocess.CompletedProcess(command, 0, "\n".join(lines) + "\n", "")
        if args[:2] == ["get", "job"]:
            status = {"succeeded": 1} if self.succeeded else {"failed": 3}
            return subprocess.CompletedProcess(
                command, 0, json.dumps({"kind": "Job", "status": status}), ""
            )
        raise AssertionError(command)


def stub_mirror_in_s3(aws, body: dict, prefix: str = PREFIX, objects: dict = OBJECTS) -> None:
    """S3 holding the manifest ``body`` and ``objects`` (key -> size) under ``prefix``."""
    data = json.dumps(body).encode()
    s3 = aws.stub("s3")
    s3.add_response(
        "get_object",
        {"Body": StreamingBody(io.BytesIO(data), len(data))},
        {"Bucket": BUCKET, "Key": prefix + "MANIFEST.json"},
    )
    s3.add_response(
        "list_objects_v2",
        {"Contents": [{"Key": k, "Size": v} for k, v in objects.items()], "IsTruncated": False},
        {"Bucket": BUCKET, "Prefix": prefix},
    )


@pytest.fixture
def run_mirror(aws, clock, s3_config_dir, hub):
    return lambda kubectl, *argv: run_llmops(
        aws,
        clock,
        s3_config_dir,
        ["weights", "mirror", "--env", "example", *argv],
        run_command=kubectl,
    )


def test_mirror_pins_the_commit_runs_the_job_follows_it_and_checks_the_manifest(
    aws, run_mirror, s3_config_dir, hub
):
    # given an S3 environment without a pinned revision
    stub_mirror_in_s3(aws, manifest())
    kubectl = FakeKubectl()
    # when the mirror runs
    result = run_mirror(kubectl, "--json")
    # then main is resolved on the Hub and its commit written into the environment file, for the mirror and the serving
    assert result.code == ExitCode.OK, result.stderr
    assert hub[0][0].endswith("/revision/main")
    assert load_environment(s3_config_dir, "example").model.hugging_face_revision == SHA
    assert f"hugging_face_revision: {SHA}" in (s3_config_dir / "example.yaml").read_text()
    # and so is the sha256 of the manifest it checked, which the node's check then requires (a manifest swapped in
    # S3 afterwards, with hashes to match other files of the same sizes, is refused there)
    pinned = hashlib.sha256(json.dumps(manifest()).encode()).hexdigest()
    assert load_environment(s3_config_dir, "example").model.weights_manifest_sha256 == pinned
    # the old Job goes, the new one is applied with its service account, followed, and its status read
    assert [c[1] for c in kubectl.commands] == ["delete", "apply", "logs", "get"]
    kinds = [item["kind"] for item in kubectl.applied["items"]]
    assert kinds == ["Namespace", "ServiceAccount", "Job"]
    assert (
        kubectl.applied["items"][-1]["spec"]["template"]["spec"]["containers"][0]["command"][5]
        == SHA
    )
    # one progress line per file, with the bytes copied so far
    assert f"[2/2] {SHARD}  1,000 bytes  (1,010 of 1,010)" in result.stderr
    assert result.json == {
        "env": "example",
        "revision": SHA,
        "s3_uri": f"s3://{BUCKET}/{PREFIX}",
        "files": 2,
        "bytes": 1010,
        "config_file": str(s3_config_dir / "example.yaml"),
    }
    # the copy went to the revision's own prefix under model.s3_uri, never over another revision's files
    assert kubectl.applied["items"][-1]["spec"]["template"]["spec"]["containers"][0]["command"][
        6:8
    ] == [BUCKET, PREFIX]


def test_mirror_fails_with_the_name_of_a_file_whose_checksum_differs(
    aws, run_mirror, s3_config_dir
):
    before = (s3_config_dir / "example.yaml").read_text()
    stub_mirror_in_s3(aws, manifest(sha256="b" * 64))
    result = run_mirror(FakeKubectl())
    assert result.code == ExitCode.CHECK_FAILED
    assert SHARD in result.stderr and "differs from the Hub's" in result.stderr
    # and the environment file is as it was: the charts keep serving the revision they served
    assert (s3_config_dir / "example.yaml").read_text() == before


def test_a_failed_job_is_reported_with_where_to_look_and_the_file_is_left_as_it_was(
    aws, run_mirror, s3_config_dir
):
    before = (s3_config_dir / "example.yaml").read_text()
    result = run_mirror(FakeKubectl(succeeded=False))
    assert result.code == ExitCode.CHECK_FAILED
    assert "did not succeed" in result.stderr and "logs job/weights-mirror" in result.stderr
    assert (s3_config_dir / "example.yaml").read_text() == before


def test_a_hub_environment_is_refused_before_any_call(run, hub):
    result = run("weights", "mirror", "--env", "example")
    assert result.code == ExitCode.USAGE and "nothing to mirror" in result.stderr and hub == []


# --- the Job's script, run for real against stand-ins for huggingface_hub and boto3 ----------------------------------

FAKE_HUB = """
import hashlib, io, json, os
FILES = json.loads(os.environ["FAKE_HUB_FILES"])
class _Lfs:
    def __init__(self, sha256): self.sha256 = sha256
class _Sibling:
    def __init__(self, name, spec):
        data = spec["content"].encode()
        self.rfilename, self.size = name, len(data)
        self.lfs = _Lfs(hashlib.sha256(data).hexdigest()) if spec["lfs"] else None
        self.blob_id = spec.get("blob_id") or hashlib.sha1(b"blob %d\\0" % len(data) + data).hexdigest()
class _Info:
    def __init__(self): self.siblings = [_Sibling(n, s) for n, s in FILES.items()]
class HfApi:
    def __init__(self, token=None): pass
    def model_info(self, repo, revision, files_metadata): return _Info()
class HfFileSystem:
    def __init__(self, token=None): pass
    def open(self, path, mode, revision, block_size): return io.BytesIO(FILES[path.split("/", 2)[2]]["content"].encode())
"""
FAKE_BOTO3 = """
import json, os
from tests.s3_stand_in import crc64nvme_b64
class _S3:
    def _path(self, bucket, key):
        path = os.path.join(os.environ["FAKE_S3_DIR"], bucket, key)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        return path
    def upload_fileobj(self, reader, bucket, key, ExtraArgs=None, Config=None):
        assert ExtraArgs == {"ChecksumAlgorithm": "CRC64NVME"}, ExtraArgs
        with open(self._path(bucket, key), "wb") as out:
            while data := reader.read(7):
                out.write(data)
    def head_object(self, Bucket, Key, ChecksumMode=None):
        # S3's side: the CRC64NVME of the bytes it holds, by the tests' own implementation, unless a test damages it
        with open(self._path(Bucket, Key), "rb") as stored:
            data = stored.read()
        data += json.loads(os.environ.get("FAKE_S3_DAMAGE", "{}")).get(Key, "").encode()
        return {"ContentLength": len(data), "ChecksumType": "FULL_OBJECT",
                "ChecksumCRC64NVME": crc64nvme_b64(data) if ChecksumMode == "ENABLED" else None}
    def put_object(self, Bucket, Key, Body, ContentType=None):
        with open(self._path(Bucket, Key), "wb") as out:
            out.write(Body)
def client(name, region_name=None):
    return _S3()
"""


#: awscrt's CRC64NVME for the Job, bit by bit: another implementation than the tests' table-driven one
#: (tests/s3_stand_in.py), which the stand-in S3 answers with, so that a recorded CRC matching S3's is two
#: computations agreeing, and the running value is carried from read to read as awscrt's ``previous_crc64nvme``.
FAKE_AWSCRT = """
def crc64nvme(data, previous_crc64nvme=0):
    crc = previous_crc64nvme ^ 0xFFFFFFFFFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x9A6C9329AC4BC9B5 if crc & 1 else crc >> 1
    return crc ^ 0xFFFFFFFFFFFFFFFF
"""


def run_job_script(
    tmp_path, files: dict, *more_repositories: str, damage: dict | None = None
) -> tuple[subprocess.CompletedProcess, object]:
    """The Job's script with its argv as the Job gives it (the weights' repository, then ``more_repositories``: six
    words each), huggingface_hub, boto3 and awscrt replaced by stand-ins that serve ``files`` and write "S3" objects
    under tmp_path/s3/BUCKET/KEY; ``damage``: key -> bytes S3's HEAD counts as appended (an object S3 holds otherwise
    than the Job sent it)."""
    import os
    import sys
    from pathlib import Path

    fakes = tmp_path / "fakes"
    (fakes / "huggingface_hub").mkdir(parents=True)
    (fakes / "huggingface_hub" / "__init__.py").write_text(FAKE_HUB)
    (fakes / "boto3" / "s3").mkdir(parents=True)
    (fakes / "boto3" / "__init__.py").write_text(FAKE_BOTO3)
    (fakes / "boto3" / "s3" / "__init__.py").write_text("")
    (fakes / "boto3" / "s3" / "transfer.py").write_text(
        "class TransferConfig:\n    def __init__(self, **kw): pass\n"
    )
    (fakes / "awscrt").mkdir()
    (fakes / "awscrt" / "__init__.py").write_text("")
    (fakes / "awscrt" / "checksums.py").write_text(FAKE_AWSCRT)
    root = Path(__file__).resolve().parents[2]
    environ = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(fakes), str(root)]),
        "FAKE_HUB_FILES": json.dumps(files),
        "FAKE_S3_DIR": str(tmp_path / "s3"),
        "FAKE_S3_DAMAGE": json.dumps(damage or {}),
    }
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            weights_mirror_job.JOB_SCRIPT,
            "moonshotai/Kimi-K3",
            SHA,
            BUCKET,
            PREFIX,
            "us-west-2",
            "",
            *more_repositories,
        ],
        capture_output=True,
        text=True,
        env=environ,
        timeout=60,
    )
    return result, tmp_path / "s3" / BUCKET


def test_the_job_writes_every_file_and_then_its_manifest_under_the_revisions_prefix(tmp_path):
    files = {
        "config.json": {"content": '{"model_type": "kimi_k3"}', "lfs": False},
        "modeling_kimi.py": {"content": "def forward(): pass\n", "lfs": False},
        SHARD: {"content": "weights" * 100, "lfs": True},
    }
    result, bucket = run_job_script(tmp_path, files)
    assert result.returncode == 0, result.stderr
    # every file under BASE/SHA/, and the manifest last, with size and sha256 of what was streamed
    manifest = json.loads((bucket / PREFIX / "MANIFEST.json").read_text())
    assert manifest["revision"] == SHA and [f["path"] for f in manifest["files"]] == sorted(files)
    objects = {
        PREFIX + p.relative_to(bucket / PREFIX).as_posix(): p.stat().st_size
        for p in (bucket / PREFIX).rglob("*")
        if p.is_file()
    }
    assert weights.check_manifest(manifest, objects, PREFIX) == []
    # the model's Python code (kept in git, not LFS) is checked against the Hub's git blob id
    (code,) = [f for f in manifest["files"] if f["path"] == "modeling_kimi.py"]
    assert code["hub_lfs_sha256"] is None and code["git_blob_sha1"] == code["hub_blob_id"]
    # and the node's verifier accepts the copy as the mirror left it
    from charts.vllm_weights_check.runtime.verify_weights import problems_of

    assert problems_of(bucket / PREFIX, revision=SHA)[0] == []


def test_the_job_records_each_files_crc64nvme_as_s3_keeps_it_in_a_manifest_of_format_2(tmp_path):
    # given files of several sizes, read by the Job 7 bytes at a time (its CRC carried from read to read)
    files = {
        "config.json": {"content": '{"model_type": "kimi_k3"}', "lfs": False},
        SHARD: {"content": "weights" * 1000, "lfs": True},
        "empty.txt": {"content": "", "lfs": False},
    }
    # when the Job mirrors them
    result, bucket = run_job_script(tmp_path, files)
    # then the manifest is of format 2 and every file's CRC64NVME is the one the tests' own implementation gives
    # for the same bytes, base64 of its 8 big-endian bytes, as S3 returns it
    assert result.returncode == 0, result.stderr
    manifest = json.loads((bucket / PREFIX / "MANIFEST.json").read_text())
    assert manifest["format"] == 2
    recorded = {entry["path"]: entry["crc64nvme"] for entry in manifest["files"]}
    assert recorded == {
        path: crc64nvme_b64(spec["content"].encode()) for path, spec in files.items()
    }


def test_an_object_s3_holds_otherwise_than_the_job_read_it_fails_the_job_naming_the_file(tmp_path):
    # given S3 keeping, for the shard, a CRC64NVME of other bytes than the Job read from the Hub
    files = {
        "config.json": {"content": "{}", "lfs": False},
        SHARD: {"content": "w" * 50, "lfs": True},
    }
    # when the Job mirrors
    result, bucket = run_job_script(tmp_path, files, damage={PREFIX + SHARD: "x"})
    # then it stops with the object's name, and writes no manifest (llmops pins nothing)
    assert result.returncode == 1
    assert f"MIRROR FAILED: s3://{BUCKET}/{PREFIX}{SHARD}" in result.stderr
    assert not (bucket / PREFIX / "MANIFEST.json").exists()


def test_the_tests_crc64nvme_is_the_standard_one():
    # the CRC catalogue's check value of CRC-64/NVME, and S3's encoding of it
    assert crc64nvme(b"123456789") == 0xAE8B14860A799888
    assert (
        crc64nvme_b64(b"123456789") == base64.b64encode(bytes.fromhex("ae8b14860a799888")).decode()
    )


def test_code_that_differs_from_the_hubs_git_blob_is_named(tmp_path):
    files = {
        "modeling_kimi.py": {
            "content": "import os  # not what the Hub's git holds\n",
            "lfs": False,
            "blob_id": "0" * 40,
        }
    }
    result, bucket = run_job_script(tmp_path, files)
    assert result.returncode == 0, result.stderr
    manifest = json.loads((bucket / PREFIX / "MANIFEST.json").read_text())
    (problem,) = weights.check_manifest(
        manifest, {PREFIX + "modeling_kimi.py": 42, PREFIX + "MANIFEST.json": 1}, PREFIX
    )
    assert problem.path == "modeling_kimi.py" and "differs from the Hub's" in problem.problem


# --- with spec_decoding: the recipe's speculator mirrored by the same Job, both revisions pinned or neither ----------

SPEC_SHA = "89abcdef0123456789abcdef0123456789abcdef"
SPEC_ID = "RedHatAI/Kimi-K3-speculator.dspark"
SPEC_PREFIX = f"{BASE}speculator/{SPEC_SHA}/"
SPEC_FILE = "model.safetensors"


@pytest.fixture
def spec_config_dir(s3_config_dir):
    path = s3_config_dir / "example.yaml"
    path.write_text(
        path.read_text().replace(
            "features: []", "features: [spec_decoding]\n  speculator_size_gb: 8", 1
        )
    )
    return s3_config_dir


@pytest.fixture
def two_hubs(monkeypatch):
    """The Hub's answers: the model's commit and the speculator's, per repository."""
    asked: list[str] = []

    def get(url: str, token: str | None, **_) -> dict:
        asked.append(url)
        return {"sha": SPEC_SHA if SPEC_ID in url else SHA}

    monkeypatch.setattr(hugging_face_hub, "hub_get", get)
    return asked


def test_with_spec_decoding_the_job_copies_the_weights_then_the_speculator_into_its_own_prefix(
    spec_config_dir,
):
    env = load_environment(spec_config_dir, "example")
    *_, job = weights_mirror_job.mirror_manifests(env, SHA, SPEC_SHA)
    kubernetes_validate.validate(job, "1.34", strict=True)
    command = job["spec"]["template"]["spec"]["containers"][0]["command"]
    assert command[4:] == [
        "moonshotai/Kimi-K3",
        SHA,
        BUCKET,
        PREFIX,
        "us-west-2",
        "",
        SPEC_ID,
        SPEC_SHA,
        BUCKET,
        SPEC_PREFIX,
        "us-west-2",
        "",
    ]


def test_the_job_script_mirrors_two_repositories_each_with_its_manifest(tmp_path):
    files = {
        "config.json": {"content": "{}", "lfs": False},
        SHARD: {"content": "w" * 50, "lfs": True},
    }
    # the two-repository argv, as the Job gives it
    result, _ = run_job_script(
        tmp_path, files, SPEC_ID, SPEC_SHA, BUCKET, SPEC_PREFIX, "us-west-2", ""
    )
    assert result.returncode == 0, result.stderr
    for prefix, repo, sha in (
        (PREFIX, "moonshotai/Kimi-K3", SHA),
        (SPEC_PREFIX, SPEC_ID, SPEC_SHA),
    ):
        manifest = json.loads((tmp_path / "s3" / BUCKET / prefix / "MANIFEST.json").read_text())
        assert (manifest["repo_id"], manifest["revision"]) == (repo, sha)


def _speculator_manifest(sha256: str = "d" * 64) -> dict:
    return {
        "repo_id": SPEC_ID,
        "revision": SPEC_SHA,
        "files": [
            {"path": SPEC_FILE, "size": 7_120_000_000, "sha256": sha256, "hub_lfs_sha256": "d" * 64}
        ],
    }


def test_mirror_pins_both_revisions_once_both_manifests_check_out(
    aws, clock, spec_config_dir, two_hubs
):
    stub_mirror_in_s3(aws, manifest())
    stub_mirror_in_s3(
        aws,
        _speculator_manifest(),
        SPEC_PREFIX,
        {SPEC_PREFIX + SPEC_FILE: 7_120_000_000, SPEC_PREFIX + "MANIFEST.json": 100},
    )
    kubectl = FakeKubectl()
    result = run_llmops(
        aws,
        clock,
        spec_config_dir,
        ["weights", "mirror", "--env", "example", "--json"],
        run_command=kubectl,
    )
    assert result.code == ExitCode.OK, result.stderr
    assert any(url.endswith(f"/api/models/{SPEC_ID}/revision/main") for url in two_hubs)
    model = load_environment(spec_config_dir, "example").model
    assert (model.hugging_face_revision, model.speculator_revision) == (SHA, SPEC_SHA)
    assert result.json["speculator"] == {
        "repo_id": SPEC_ID,
        "revision": SPEC_SHA,
        "s3_uri": f"s3://{BUCKET}/{SPEC_PREFIX}",
        "files": 1,
        "bytes": 7_120_000_000,
        "size_gb": 8,
    }


def test_a_speculator_that_does_not_check_out_pins_neither_revision(
    aws, clock, spec_config_dir, two_hubs
):
    before = (spec_config_dir / "example.yaml").read_text()
    stub_mirror_in_s3(aws, manifest())
    stub_mirror_in_s3(
        aws,
        _speculator_manifest(sha256="e" * 64),
        SPEC_PREFIX,
        {SPEC_PREFIX + SPEC_FILE: 7_120_000_000, SPEC_PREFIX + "MANIFEST.json": 100},
    )
    result = run_llmops(
        aws,
        clock,
        spec_config_dir,
        ["weights", "mirror", "--env", "example"],
        run_command=FakeKubectl(),
    )
    assert result.code == ExitCode.CHECK_FAILED
    assert SPEC_PREFIX in result.stderr and "differs from the Hub's" in result.stderr
    assert (spec_config_dir / "example.yaml").read_text() == before


def test_a_manifest_s3_refuses_to_give_is_a_clear_line_and_the_file_is_left_as_it_was(
    aws, run_mirror, s3_config_dir
):
    # given S3 denying the read of the manifest after the Job copied the files (issue 29: was exit 70)
    before = (s3_config_dir / "example.yaml").read_text()
    aws.stub("s3").add_client_error(
        "get_object",
        expected_params={"Bucket": BUCKET, "Key": PREFIX + "MANIFEST.json"},
        **client_error("AccessDenied", "Access Denied", 403),
    )
    # when the mirror checks the copy, then the denial is reported as such (exit 5), the file untouched
    result = run_mirror(FakeKubectl())
    assert result.code == ExitCode.ACCESS_DENIED, result.stderr
    assert f"s3://{BUCKET}/{PREFIX}MANIFEST.json" in result.stderr
    assert (s3_config_dir / "example.yaml").read_text() == before
