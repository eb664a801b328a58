"""The Run:ai path's check of the weights in S3 (charts/vllm_weights_check/runtime/check_s3_weights.py), run for real with
boto3 against the S3 stand-in (tests/s3_stand_in.py): the manifest's files as S3 keeps them start vLLM; a changed,
resized, missing, unlisted or unchecksummed object, or a manifest without CRC64NVME, stops it with a line naming the file.

The passing check runs as the init container runs it, ``python3 SCRIPT URI ...`` in a process of its own; the refusals
run its ``main`` in the test's process, with the same environment (each such process paid 0.4 s of CPU to import boto3).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from types import SimpleNamespace

import boto3
import pytest

from charts.vllm_weights_check import S3_SCRIPT_FILE
from charts.vllm_weights_check.runtime import check_s3_weights
from tests.s3_stand_in import crc64nvme_b64, s3_stand_in, stand_in_session

SHA = "0123456789abcdef0123456789abcdef01234567"
BUCKET, PREFIX = "weights-bucket", f"kimi-k3/{SHA}/"
URI = f"s3://{BUCKET}/{PREFIX}"
SHARD = "model-00001-of-00002.safetensors"
FILES = {
    "config.json": b'{"model_type": "kimi_k3"}',
    SHARD: b"\x01" * 4096,
    "model-00002-of-00002.safetensors": b"\x02" * 3000,
}


def manifest_bytes(files: dict[str, bytes], *, crc: bool = True) -> bytes:
    """The manifest the mirror writes for ``files``: format 2 with each file's CRC64NVME, or (``crc=False``) an older
    mirror's, without."""
    entries = [
        {
            "path": path,
            "size": len(data),
            "sha256": hashlib.sha256(data).hexdigest(),
            **({"crc64nvme": crc64nvme_b64(data)} if crc else {}),
        }
        for path, data in files.items()
    ]
    head = {"format": 2} if crc else {}
    return json.dumps(
        {**head, "repo_id": "moonshotai/Kimi-K3", "revision": SHA, "files": entries}
    ).encode()


def mirror(s3, files: dict[str, bytes] = FILES, *, crc: bool = True) -> str:
    """Put ``files`` and their manifest under the revision's prefix, as the mirror leaves them; the manifest's sha256."""
    body = manifest_bytes(files, crc=crc)
    for path, data in {**files, "MANIFEST.json": body}.items():
        s3.objects[f"/{BUCKET}/{PREFIX}{path}"] = data
    return hashlib.sha256(body).hexdigest()


ARGUMENTS = (URI, "--region", "us-west-2", "--revision", SHA)


def check_process(s3, *args: str) -> subprocess.CompletedProcess:
    """The init container's command, with the stand-in for S3 and no credentials, config or instance metadata of the
    machine."""
    command = [sys.executable, str(S3_SCRIPT_FILE), *ARGUMENTS, *args]
    return subprocess.run(command, env=s3.environment, capture_output=True, text=True, timeout=60)


@pytest.fixture
def s3():
    with s3_stand_in() as server:
        yield server


@pytest.fixture
def check(s3, monkeypatch, capsys):
    """``check(*args)``: the script's ``main`` in this process, in the environment the process would have (only the
    stand-in's AWS variables), the stand-in's boto3 session as boto3's default (its client reads the endpoint from the
    environment); its exit code and what it wrote to stderr, named as :func:`check_process` returns them."""
    for name in [name for name in os.environ if name.startswith("AWS_")]:
        monkeypatch.delenv(name)
    for name, value in s3.environment.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(boto3, "DEFAULT_SESSION", stand_in_session())

    def run(*args: str) -> SimpleNamespace:
        capsys.readouterr()
        code = check_s3_weights.main([*ARGUMENTS, *args])
        return SimpleNamespace(returncode=code, stderr=capsys.readouterr().err)

    return run


def test_the_manifests_files_as_s3_keeps_them_start_vllm(s3):
    # given the mirror's objects and manifest, pinned by its digest
    digest = mirror(s3)
    # when the init container's command runs
    result = check_process(s3, "--manifest-sha256", digest)
    # then it passes, saying what it compared
    assert result.returncode == 0, result.stderr
    assert "OK: 3 files, 7121 bytes" in result.stderr and "CRC64NVME" in result.stderr


def test_an_object_replaced_by_other_bytes_of_the_same_size_is_refused_by_name(s3, check):
    mirror(s3)
    # given the shard overwritten in place, same size, other bytes (S3 computes the new object's CRC64NVME)
    s3.objects[f"/{BUCKET}/{PREFIX}{SHARD}"] = b"\x07" * 4096
    result = check()
    # then vLLM does not start, and the line names the file and what differs
    assert result.returncode == 1
    assert f"check-weights: {SHARD}: CRC64NVME " in result.stderr
    assert "REFUSED" in result.stderr


def test_an_object_of_another_size_is_refused_by_name(s3, check):
    mirror(s3)
    s3.objects[f"/{BUCKET}/{PREFIX}{SHARD}"] = b"\x01" * 100
    result = check()
    assert result.returncode == 1
    assert f"{SHARD}: 100 bytes in S3, the manifest says 4096" in result.stderr


def test_a_missing_object_is_refused_by_name(s3, check):
    mirror(s3)
    del s3.objects[f"/{BUCKET}/{PREFIX}{SHARD}"]
    result = check()
    assert result.returncode == 1
    assert f"{SHARD}: missing in S3 (4096 bytes expected)" in result.stderr


def test_an_object_without_a_crc64nvme_in_s3_is_refused(s3, check):
    mirror(s3)
    s3.checksums[f"/{BUCKET}/{PREFIX}{SHARD}"] = None
    result = check()
    assert result.returncode == 1
    assert f"{SHARD}: S3 keeps no CRC64NVME" in result.stderr


def test_an_object_the_manifest_does_not_list_is_refused_for_vllm_would_stream_it(s3, check):
    mirror(s3)
    s3.objects[f"/{BUCKET}/{PREFIX}model-00003-of-00002.safetensors"] = b"\x03"
    result = check()
    assert result.returncode == 1
    assert "model-00003-of-00002.safetensors: in S3 but not in the manifest" in result.stderr


def test_a_manifest_without_crc64nvme_is_refused_with_the_mirror_to_run_again(s3, check):
    # given the manifest of an older mirror (format 1: sizes and sha256 only)
    mirror(s3, crc=False)
    result = check()
    # then the check refuses, and says how to get the CRCs
    assert result.returncode == 1
    assert "has no CRC64NVME for config.json (format 1" in result.stderr
    assert "run llmops weights mirror --env NAME again" in result.stderr


def test_a_manifest_other_than_the_pinned_one_is_refused(s3, check):
    mirror(s3)
    result = check("--manifest-sha256", "0" * 64)
    assert result.returncode == 1
    assert "not the manifest llmops weights mirror wrote" in result.stderr
