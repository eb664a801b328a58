"""The node's copy repairs itself (charts/vllm_weights_check/runtime/verify_weights.py ``--repair-from``, with
runtime/repair_weights.py): run for real, as the ``verify-weights`` init container runs it, against a copy in a
temporary directory and the S3 stand-in (tests/s3_stand_in.py) holding the mirror's objects. What the check finds wrong
or missing is fetched again and checked; only what S3 cannot mend is refused, by name and with its fix."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from charts.vllm_weights_check import SCRIPT_FILE
from tests.charts.test_weights_verifier import FILES, SHA, write_copy
from tests.s3_stand_in import s3_stand_in

BUCKET, PREFIX = "weights-bucket", f"kimi-k3/{SHA}/"
URI = f"s3://{BUCKET}/{PREFIX}"
SHARD_1, SHARD_2 = "model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"


@pytest.fixture
def s3(tmp_path):
    """The stand-in holding the mirror's objects: the files and the very manifest of the node's copy."""
    mirrored = write_copy(tmp_path / "mirrored", FILES)
    with s3_stand_in() as server:
        for path in [*FILES, "MANIFEST.json"]:
            server.objects[f"/{BUCKET}/{PREFIX}{path}"] = (mirrored / path).read_bytes()
        yield server


@pytest.fixture
def copy(tmp_path) -> Path:
    return write_copy(tmp_path / "s3-weights" / SHA, FILES)


def command(copy: Path, *args: str) -> list[str]:
    """The init container's command (charts/vllm_weights_check ``verify_command``), after the interpreter."""
    return [
        str(SCRIPT_FILE),
        str(copy),
        "--revision",
        SHA,
        "--delete-mismatched",
        "--jobs",
        "1",
        "--marker",
        f"{copy}.verified.json",
        "--repair-from",
        URI,
        "--region",
        "us-west-2",
        *args,
    ]


@pytest.fixture
def verify(s3, monkeypatch):
    """The check's ``main`` in this process, with the container's arguments, against the stand-in: what it returned and
    wrote to stderr. In-process, as each run of a real one imports boto3 again (about 0.6 s of CPU); the first test runs
    the script as the container does. The script imports its sibling repair_weights.py by name (the ConfigMap's files
    lie side by side), hence the runtime directory on sys.path."""
    import contextlib
    import io

    from charts.vllm_weights_check.runtime import verify_weights

    monkeypatch.syspath_prepend(str(SCRIPT_FILE.parent))
    for name, value in s3.environment.items():
        if name != "PATH":
            monkeypatch.setenv(name, value)

    def run(copy: Path, *args: str) -> subprocess.CompletedProcess:
        stderr = io.StringIO()
        with contextlib.redirect_stderr(stderr):
            returncode = verify_weights.main(command(copy, *args)[1:])
        return subprocess.CompletedProcess([], returncode, "", stderr.getvalue())

    return run


def files_of(copy: Path) -> dict[str, bytes]:
    """Every file under the copy, temporary ones included, but the manifest."""
    return {
        p.relative_to(copy).as_posix(): p.read_bytes()
        for p in copy.rglob("*")
        if p.is_file() and p.name != "MANIFEST.json"
    }


def test_a_corrupt_and_a_missing_file_are_fetched_again_and_the_copy_passes(s3, copy):
    # given a node's copy with one shard damaged (same size, other bytes) and the other gone, S3 holding the right bytes
    (copy / SHARD_1).write_bytes(b"\x09" * 4096)
    (copy / SHARD_2).unlink()
    # when the init container's check runs, with the repair
    result = subprocess.run(
        [sys.executable, *command(copy)],
        env=s3.environment,
        capture_output=True,
        text=True,
        timeout=60,
    )
    # then both are replaced, the check passes and the marker of a complete sha256 check is written
    assert result.returncode == 0, result.stderr
    assert "verify-weights: repairing 2 files" in result.stderr
    assert f"after a repair from {URI}" in result.stderr
    assert files_of(copy) == FILES
    assert Path(f"{copy}.verified.json").exists()


def test_a_copy_that_matches_costs_no_request_to_s3(s3, copy, verify):
    # given a good copy and an S3 that would deny every read
    s3.denied.update(s3.objects)
    result = verify(copy)
    # then the check passes as without the option, and nothing is repaired
    assert result.returncode == 0, result.stderr
    assert "repair" not in result.stderr


def test_wrong_bytes_in_s3_are_refused_by_name_with_no_marker_and_no_temporary_file(
    s3, copy, verify
):
    # given the damaged shard on the node and other bytes in S3 too
    (copy / SHARD_1).write_bytes(b"\x09" * 4096)
    s3.objects[f"/{BUCKET}/{PREFIX}{SHARD_1}"] = b"\x07" * 4096
    result = verify(copy)
    # then vLLM does not start; the line names the file and the mirror to run again
    assert result.returncode == 1
    assert f"verify-weights: {SHARD_1}: sha256 " in result.stderr
    assert "in S3, the manifest says" in result.stderr and "llmops weights mirror" in result.stderr
    assert "REFUSED" in result.stderr and "kubectl delete pod" not in result.stderr
    # and neither the S3 bytes nor a temporary file are left, nor a marker
    assert files_of(copy) == {k: v for k, v in FILES.items() if k != SHARD_1}
    assert not Path(f"{copy}.verified.json").exists()


def test_a_repair_cut_off_half_way_leaves_no_partial_file_and_the_next_run_completes_it(
    s3, copy, verify
):
    # given two shards missing, and every GET of one of them cut off half-way (s3transfer's retries included)
    (copy / SHARD_1).unlink()
    (copy / SHARD_2).unlink()
    s3.cut.add(f"/{BUCKET}/{PREFIX}{SHARD_2}")
    first = verify(copy)
    # then the check fails, naming the file; the other is in place, and no partial file under any name
    assert first.returncode == 1
    assert f"{SHARD_2}: its repair from {URI}{SHARD_2} failed" in first.stderr
    assert files_of(copy) == {k: v for k, v in FILES.items() if k != SHARD_2}
    # when the kubelet restarts the check, with the connection back
    s3.cut.clear()
    again = verify(copy)
    # then it fetches what is still missing and passes
    assert again.returncode == 0, again.stderr
    assert "repairing 1 files" in again.stderr and files_of(copy) == FILES


def test_a_temporary_file_of_a_killed_repair_is_removed_and_its_file_fetched(s3, copy, verify):
    # given a repair killed while it wrote a shard: its temporary file beside the missing final name
    (copy / SHARD_1).unlink()
    (copy / f".{SHARD_1}.4242.repair").write_bytes(b"\x01" * 100)
    result = verify(copy)
    assert result.returncode == 0, result.stderr
    assert files_of(copy) == FILES


def test_a_missing_manifest_is_fetched_only_when_it_is_the_pinned_one(s3, copy, verify):
    pinned = hashlib.sha256((copy / "MANIFEST.json").read_bytes()).hexdigest()
    # given a copy cut before its manifest arrived
    (copy / "MANIFEST.json").unlink()
    (copy / SHARD_2).unlink()
    # then S3's manifest, of the pinned digest, is fetched, and then the missing shard
    result = verify(copy, "--manifest-sha256", pinned)
    assert result.returncode == 0, result.stderr
    assert files_of(copy) == FILES
    # given S3 holding a manifest other than the pinned one: refused, naming both digests and the mirror
    (copy / "MANIFEST.json").unlink()
    s3.objects[f"/{BUCKET}/{PREFIX}MANIFEST.json"] += b" "
    result = verify(copy, "--manifest-sha256", pinned)
    assert result.returncode == 1
    assert f"in S3, the environment pins {pinned}" in result.stderr
    assert "run llmops weights mirror again" in result.stderr
    assert not (copy / "MANIFEST.json").exists()


def test_a_denied_read_is_refused_naming_the_pods_role(s3, copy, verify):
    (copy / SHARD_1).unlink()
    s3.denied.add(f"/{BUCKET}/{PREFIX}{SHARD_1}")
    result = verify(copy)
    assert result.returncode == 1
    assert f"{SHARD_1}: S3 denied the repair's read" in result.stderr
    assert "the pod's role" in result.stderr and "s3:GetObject" in result.stderr


def test_a_repair_from_something_else_than_an_s3_prefix_is_refused_before_any_check(s3, copy):
    result = subprocess.run(
        [sys.executable, str(SCRIPT_FILE), str(copy), "--repair-from", "weights-bucket/x"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2 and "--repair-from 'weights-bucket/x'" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_serving_pods_check_repairs_from_its_revisions_prefix_in_s3(default_env):
    import dataclasses

    from charts.serving_spec import serving_spec_for
    from charts.vllm_serving_chart import synthesize_manifests
    from charts.vllm_weights_check import REPAIR_SCRIPT_FILE
    from deployment_config.model import WeightSource

    # given S3 weights copied to the node (the default weight load)
    model = dataclasses.replace(
        default_env.model,
        weight_source=WeightSource.S3,
        s3_uri="s3://weights-bucket/kimi-k3/",
        hugging_face_revision=SHA,
    )
    manifests = synthesize_manifests(
        serving_spec_for(dataclasses.replace(default_env, model=model))
    )
    (deployment,) = [m for m in manifests if m["kind"] == "Deployment"]
    init = {c["name"]: c for c in deployment["spec"]["template"]["spec"]["initContainers"]}
    # then verify-weights repairs from the very prefix fetch-weights copied, in the environment's region
    command = init["verify-weights"]["command"]
    assert (
        command[command.index("--repair-from") + 1] == init["fetch-weights"]["command"][-2] == URI
    )
    assert command[command.index("--region") + 1] == default_env.region
    # and its ConfigMap carries the module the repair imports, beside the check
    (script_map,) = [
        m for m in manifests if m["kind"] == "ConfigMap" and SCRIPT_FILE.name in m.get("data", {})
    ]
    assert script_map["data"][REPAIR_SCRIPT_FILE.name] == REPAIR_SCRIPT_FILE.read_text()


def test_a_damaged_staging_copy_is_repaired_then_moved_into_place(s3, tmp_path):
    from charts.vllm_weights_prestage import PRESTAGE_SCRIPT_FILE

    # given the DaemonSet's staging copy of the next revision with a short shard (a copy cut half-way)
    root = tmp_path / "node"
    staging = write_copy(root / f".staging-{SHA}", FILES)
    (staging / SHARD_2).write_bytes(b"\x02" * 100)
    result = subprocess.run(
        [sys.executable, str(PRESTAGE_SCRIPT_FILE), "promote", str(root), SHA, "--jobs", "1"]
        + ["--repair-from", URI, "--region", "us-west-2"],
        env=s3.environment,
        capture_output=True,
        text=True,
        timeout=60,
    )
    # then its promote step fetches the shard again, checks the whole copy and moves it into place
    assert result.returncode == 0, result.stderr
    assert "prestage-weights: repairing 1 files" in result.stderr and "STAGED" in result.stderr
    assert files_of(root / SHA) == FILES and Path(f"{root / SHA}.verified.json").exists()
