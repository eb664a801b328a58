"""The node's pre-staging of the next revision (charts/vllm_weights_check/runtime/prestage_weights.py) and the serving
pod's fetch step after it (charts/vllm_deployment.py FETCH_SCRIPT), run for real in temporary directories: the AWS
CLI is a stand-in script on PATH that records each call and copies a local "bucket" directory, so the test sees
whether a copy ran, and the shell is /bin/sh as in the AWS CLI image."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from charts.vllm_deployment import FETCH_SCRIPT
from charts.vllm_weights_check import SCRIPT_FILE, marker_path
from charts.vllm_weights_prestage import PRESTAGE_SCRIPT_FILE, STAGE_COPY_SCRIPT
from tests.charts.test_weights_verifier import FILES, OTHER_SHA, SHA, write_copy

#: Stands in for ``aws``: ``aws configure ...`` does nothing; ``aws s3 sync [--only-show-errors] SRC DST`` copies the
#: local directory SRC (the "bucket") into DST and records the call in $AWS_CALLS.
FAKE_AWS = """#!/bin/sh
echo "$*" >> "$AWS_CALLS"
if [ "$1 $2" = "s3 sync" ]; then
  shift 2; [ "$1" = "--only-show-errors" ] && shift
  mkdir -p "$2" && cp -R "$1"/. "$2"/
fi
"""


@pytest.fixture
def node(tmp_path, monkeypatch) -> Path:
    """The node cache's s3-weights directory, an S3 prefix of revision SHA (a directory), and the fake aws on PATH."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "aws").write_text(FAKE_AWS)
    (bin_dir / "aws").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    monkeypatch.setenv("AWS_CALLS", str(tmp_path / "aws-calls"))
    write_copy(tmp_path / "bucket", FILES)
    root = tmp_path / "s3-weights"
    root.mkdir()
    return root


def syncs(node: Path) -> list[str]:
    calls = node.parent / "aws-calls"
    return (
        [c for c in calls.read_text().splitlines() if c.startswith("s3 sync")]
        if calls.exists()
        else []
    )


def sh(script: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["/bin/sh", "-c", script, "sh", *args], capture_output=True, text=True, timeout=60
    )


def python(script: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(script), *args], capture_output=True, text=True, timeout=60
    )


def stage(node: Path, revision: str = SHA) -> subprocess.CompletedProcess:
    """The DaemonSet's copy, then its promote step, as its init containers run them."""
    copied = sh(
        STAGE_COPY_SCRIPT,
        str(node.parent / "bucket"),
        str(node / revision),
        str(node / f".staging-{revision}"),
    )
    assert copied.returncode == 0, copied.stderr
    return python(PRESTAGE_SCRIPT_FILE, "promote", str(node), revision, "--jobs", "1")


def test_a_staged_revision_is_used_by_the_serving_pod_without_a_copy_or_a_hash(node):
    # given the next revision staged by the DaemonSet while the old one serves
    staged = stage(node)
    assert staged.returncode == 0, staged.stderr
    assert "STAGED: 4 files" in staged.stderr
    final = node / SHA
    assert final.is_dir() and Path(marker_path(str(final))).is_file()
    assert not (node / f".staging-{SHA}").exists()
    assert len(syncs(node)) == 1
    # when the serving pod of that revision starts: its fetch step copies nothing
    fetched = sh(FETCH_SCRIPT, str(node.parent / "bucket"), str(final))
    assert fetched.returncode == 0, fetched.stderr
    assert "verified before" in fetched.stderr and len(syncs(node)) == 1
    # and its check trusts the staging's sha256 (the marker survived the rename: same inodes and mtimes)
    checked = python(
        SCRIPT_FILE, str(final), "--revision", SHA, "--marker", marker_path(str(final))
    )
    assert checked.returncode == 0, checked.stderr
    assert "sha256 as verified before" in checked.stderr


def test_a_half_staged_copy_is_never_moved_into_place_and_the_serving_pod_copies_it(node):
    # given a staging copy that stopped half-way (a file short), and so no marker
    staging = write_copy(node / f".staging-{SHA}", FILES)
    shard = staging / "model-00002-of-00002.safetensors"
    shard.write_bytes(shard.read_bytes()[:100])
    # when the promote step runs: it refuses, removes the short file, and moves nothing into place
    promoted = python(PRESTAGE_SCRIPT_FILE, "promote", str(node), SHA, "--jobs", "1")
    assert promoted.returncode == 1
    assert "REFUSED" in promoted.stderr and "model-00002-of-00002.safetensors" in promoted.stderr
    assert not (node / SHA).exists() and not Path(marker_path(str(node / SHA))).exists()
    assert not shard.exists()
    # and a serving pod of that revision finds no verified copy: it copies, into its own directory
    fetched = sh(FETCH_SCRIPT, str(node.parent / "bucket"), str(node / SHA))
    assert fetched.returncode == 0, fetched.stderr
    assert syncs(node) == [f"s3 sync --only-show-errors {node.parent / 'bucket'} {node / SHA}"]


def test_a_copy_without_a_marker_is_left_to_the_serving_pod_that_makes_it(node):
    # given the serving pod's own copy of the revision under way (no marker yet)
    write_copy(node / SHA, {"config.json": FILES["config.json"]})
    # when the DaemonSet stages: it copies nothing and writes nothing into that directory
    staged = stage(node)
    assert staged.returncode == 0, staged.stderr
    assert "left to that pod" in staged.stderr
    assert syncs(node) == [] and not Path(marker_path(str(node / SHA))).exists()


def test_pruning_keeps_the_live_and_the_next_revision_only(node):
    # given the live revision, the next one staging, an older revision with its marker, and the speculator
    for name in (OTHER_SHA, SHA, "a" * 40, f".staging-{'b' * 40}", "speculator"):
        (node / name).mkdir()
    # and the live revision's marker being written by the serving pod's check at this moment
    writing = f".{OTHER_SHA}.verified.json.41.tmp"
    for name in (f"{OTHER_SHA}.verified.json", f"{'a' * 40}.verified.json", writing):
        (node / name).write_text("{}")
    # when the DaemonSet prunes before its copy
    pruned = python(
        PRESTAGE_SCRIPT_FILE, "prune", str(node), "--keep", OTHER_SHA, "--keep", "b" * 40
    )
    # then the older revision and its marker are gone, and the speculator's directory stays
    assert pruned.returncode == 0, pruned.stderr
    assert sorted(p.name for p in node.iterdir()) == sorted(
        [OTHER_SHA, f"{OTHER_SHA}.verified.json", writing, f".staging-{'b' * 40}", "speculator"]
    )
