"""The node's check of a weights copy (charts/vllm_weights_check/runtime/verify_weights.py), run for real, as the init container
runs
it (``python3 SCRIPT DIRECTORY --revision SHA``), against copies in temporary directories: a good copy starts vLLM; a
missing, truncated, foreign or extra file, or another revision's manifest, stops it with a line naming the file."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from charts.vllm_weights_check import SCRIPT_FILE
from tests.conftest import bare_app

SHA = "0123456789abcdef0123456789abcdef01234567"
OTHER_SHA = "fedcba9876543210fedcba9876543210fedcba98"
FILES = {
    "config.json": b'{"model_type": "kimi_k3"}',
    "model-00001-of-00002.safetensors": b"\x01" * 4096,
    "model-00002-of-00002.safetensors": b"\x02" * 3000,
    "tokenizer/tokenizer.json": b'{"v": 1}',
}


def write_copy(directory: Path, files: dict[str, bytes], revision: str = SHA) -> Path:
    """A copy as the mirror leaves it: the files and the MANIFEST.json listing them (path, size, sha256)."""
    entries = []
    for path, data in files.items():
        (directory / path).parent.mkdir(parents=True, exist_ok=True)
        (directory / path).write_bytes(data)
        entries.append(
            {
                "path": path,
                "size": len(data),
                "sha256": hashlib.sha256(data).hexdigest(),
                "hub_lfs_sha256": None,
            }
        )
    (directory / "MANIFEST.json").write_text(
        json.dumps({"repo_id": "moonshotai/Kimi-K3", "revision": revision, "files": entries})
    )
    return directory


def verify(directory: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(SCRIPT_FILE), str(directory), "--revision", SHA, *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture
def copy(tmp_path) -> Path:
    return write_copy(tmp_path / SHA, FILES)


def test_a_good_copy_passes_with_sha256_checked_by_several_processes(copy):
    result = verify(copy, "--jobs", "2")
    assert result.returncode == 0, result.stderr
    assert (
        "verify-weights: OK: 4 files, 7129 bytes" in result.stderr
        and "sizes and sha256" in result.stderr
    )


def test_a_missing_file_is_refused_and_named(copy):
    (copy / "model-00002-of-00002.safetensors").unlink()
    result = verify(copy)
    assert result.returncode == 1
    assert (
        "verify-weights: model-00002-of-00002.safetensors: missing (3000 bytes expected)"
        in result.stderr
    )
    assert "REFUSED" in result.stderr and "vLLM is not started" in result.stderr


def test_a_truncated_file_is_refused_with_both_sizes(copy):
    (copy / "model-00001-of-00002.safetensors").write_bytes(b"\x01" * 1024)
    result = verify(copy, "--sizes-only")  # a short file is caught by its size alone
    assert result.returncode == 1
    assert "model-00001-of-00002.safetensors: 1024 bytes, the manifest says 4096" in result.stderr


def test_a_file_of_another_revision_with_the_same_size_is_refused_by_its_sha256(copy):
    (copy / "model-00001-of-00002.safetensors").write_bytes(b"\x09" * 4096)
    assert verify(copy, "--sizes-only").returncode == 0  # what sizes alone cannot see
    result = verify(copy)
    assert result.returncode == 1
    assert (
        "model-00001-of-00002.safetensors: sha256" in result.stderr
        and "a file of another revision" in result.stderr
    )


def test_a_swapped_manifest_of_the_same_sizes_is_refused_by_its_pinned_sha256(copy):
    # given the manifest the mirror wrote, pinned by its sha256, then a file and the manifest both rewritten in S3 to
    # another file of the same size (the manifest's hashes match the new file: its own check cannot see it)
    pinned = hashlib.sha256((copy / "MANIFEST.json").read_bytes()).hexdigest()
    assert verify(copy, "--sizes-only", "--manifest-sha256", pinned).returncode == 0
    swapped = {**FILES, "model-00001-of-00002.safetensors": b"\x09" * 4096}
    write_copy(copy, swapped)
    assert verify(copy).returncode == 0  # consistent with itself
    # when the node checks it against the environment's pin, on either platform (HyperPod checks sizes only)
    for extra in ((), ("--sizes-only",)):
        result = verify(copy, *extra, "--manifest-sha256", pinned)
        # then it is refused, naming both digests
        assert result.returncode == 1
        assert f"the environment pins {pinned}" in result.stderr and "REFUSED" in result.stderr


def test_a_file_the_manifest_does_not_list_is_refused(copy):
    (copy / "model-00003-of-00003.safetensors").write_bytes(b"\x03")
    result = verify(copy)
    assert (
        result.returncode == 1
        and "model-00003-of-00003.safetensors: not in the manifest" in result.stderr
    )


def test_another_revisions_copy_and_a_copy_without_manifest_are_refused(tmp_path, copy):
    other = write_copy(tmp_path / "other", FILES, revision=OTHER_SHA)
    result = verify(other)
    assert result.returncode == 1 and f"is of revision '{OTHER_SHA}', not {SHA}" in result.stderr
    (copy / "MANIFEST.json").unlink()
    result = verify(copy)
    assert result.returncode == 1 and "MANIFEST.json is missing" in result.stderr


def test_wrong_files_are_removed_and_the_refusal_says_to_delete_the_pod(copy):
    (copy / "model-00001-of-00002.safetensors").write_bytes(b"\x09" * 4096)
    (copy / "model-00002-of-00002.safetensors").write_bytes(b"\x02" * 10)
    (copy / "stray.bin").write_bytes(b"x")
    result = verify(copy, "--delete-mismatched")
    assert (
        result.returncode == 1
        and "until the pod is deleted" in result.stderr
        and "kubectl delete pod" in result.stderr
    )
    # and a restart of this check alone (the kubelet does not rerun fetch-weights) fails again, naming what is missing
    again = verify(copy, "--delete-mismatched")
    assert again.returncode == 1 and "model-00001-of-00002.safetensors: missing" in again.stderr
    assert sorted(p.relative_to(copy).as_posix() for p in copy.rglob("*") if p.is_file()) == [
        "MANIFEST.json",
        "config.json",
        "tokenizer/tokenizer.json",
    ]


def test_a_manifest_entry_that_escapes_the_directory_is_refused(copy):
    manifest = json.loads((copy / "MANIFEST.json").read_text())
    manifest["files"].append({"path": "../../etc/passwd", "size": 1, "sha256": "0" * 64})
    (copy / "MANIFEST.json").write_text(json.dumps(manifest))
    result = verify(copy)
    assert result.returncode == 1 and "not a relative path" in result.stderr


def test_a_stack_serving_unpinned_s3_weights_refuses_to_deploy_with_the_command_that_pins_them():
    import aws_cdk as cdk
    from aws_cdk.assertions import Template

    from cdk_constructs.placeholder_guard import UNPINNED_WEIGHTS_RULE_ID, refuse_unpinned_weights

    # given a serving stack of S3 weights without model.hugging_face_revision
    stack = cdk.Stack(bare_app(), "Serving")
    cdk.CfnWaitConditionHandle(stack, "Placeholder")
    refuse_unpinned_weights(stack, source="config/prod.yaml", env_name="prod", from_s3=True)
    # then CloudFormation refuses it before creating anything, saying how to pin them
    (assertion,) = Template.from_stack(stack).to_json()["Rules"][UNPINNED_WEIGHTS_RULE_ID][
        "Assertions"
    ]
    assert "model.hugging_face_revision" in assertion["AssertDescription"]
    assert "bin/llmops weights mirror --env prod" in assertion["AssertDescription"]
    assert assertion["Assert"] == {
        "Fn::Equals": [{"Ref": "AWS::Region"}, "placeholder-values-must-be-replaced"]
    }


def test_the_default_example_runs_remote_code_unpinned_so_its_serving_stack_refuses_to_deploy(
    synthesized,
):
    # given config/example.yaml: weights from the Hub, the preset's --trust-remote-code, no model.hugging_face_revision
    model = synthesized.env_config.model
    assert "--trust-remote-code" in model.serving_args and not model.hugging_face_revision
    # then its serving stack carries the rule that refuses it, naming the field and the Hub API that gives the commit
    (assertion,) = synthesized.template("serving")["Rules"]["RefuseUnpinnedWeights"]["Assertions"]
    assert "--trust-remote-code" in assertion["AssertDescription"]
    assert (
        "https://huggingface.co/api/models/moonshotai/Kimi-K3/revision/main"
        in assertion["AssertDescription"]
    )
    # and the stacks that do not run the model do not
    assert "RefuseUnpinnedWeights" not in synthesized.template("cluster").get("Rules", {})


def _run_worker(tmp_path, model_dir: Path) -> subprocess.CompletedProcess:
    """The HyperPod worker's bootstrap, run as its container would run it, with a stand-in ``vllm`` that says it
    started; the weights check pointed at ``model_dir`` as at the operator's mount."""
    import os

    from charts.vllm_auth_middleware import inline_middleware_worker

    worker = inline_middleware_worker(
        ("--model", str(model_dir)),
        weights_check=(str(model_dir), "--revision", SHA, "--sizes-only"),
    )
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "vllm").write_text(f"#!{sys.executable}\nprint('vllm started')\n")
    (bin_dir / "vllm").chmod(0o755)
    environ = {
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "HOME": str(tmp_path),
        "TMPDIR": str(tmp_path),
        **worker["environment"],
    }
    return subprocess.run(
        [sys.executable, *worker["command"][1:], *worker["args"]],
        capture_output=True,
        text=True,
        env=environ,
        timeout=60,
    )


def test_the_hyperpod_worker_checks_the_operators_mount_before_starting_vllm(tmp_path, copy):
    # given a good copy at the operator's mount: vLLM starts after the check's OK line
    result = _run_worker(tmp_path, copy)
    assert result.returncode == 0, result.stderr
    assert "verify-weights: OK" in result.stderr and result.stdout == "vllm started\n"
    # given a copy with a file missing: the worker ends before vLLM, with the line naming the file
    (copy / "config.json").unlink()
    result = _run_worker(tmp_path, copy)
    assert result.returncode != 0 and "vllm started" not in result.stdout
    assert "verify-weights: config.json: missing" in result.stderr


def test_the_pinned_manifest_digest_reaches_the_check_on_both_platforms(default_env, hyperpod_env):
    import dataclasses

    from charts.serving_spec import serving_spec_for
    from charts.vllm_serving_chart import synthesize_manifests
    from charts.vllm_weights_check import hyperpod_weights_check
    from deployment_config.model import WeightSource

    # given S3 weights at a revision whose manifest's sha256 llmops weights mirror wrote into the environment file
    pinned = "e" * 64

    def s3_weights(env, digest):
        model = dataclasses.replace(
            env.model,
            weight_source=WeightSource.S3,
            s3_uri="s3://weights-bucket/kimi-k3/",
            hugging_face_revision=SHA,
            weights_manifest_sha256=digest,
        )
        return dataclasses.replace(env, model=model)

    # then the EKS pod's verify-weights init container requires that manifest
    (deployment,) = [
        o
        for o in synthesize_manifests(serving_spec_for(s3_weights(default_env, pinned)))
        if o["kind"] == "Deployment"
    ]
    (check,) = [
        c
        for c in deployment["spec"]["template"]["spec"]["initContainers"]
        if c["name"] == "verify-weights"
    ]
    assert check["command"][-2:] == ["--manifest-sha256", pinned]
    # and so does the HyperPod worker's check of the operator's mount
    assert hyperpod_weights_check(s3_weights(hyperpod_env, pinned))[-2:] == (
        "--manifest-sha256",
        pinned,
    )
    # without a pin (a mirror made before this field), both check as before
    assert "--manifest-sha256" not in hyperpod_weights_check(s3_weights(hyperpod_env, None))


class _CountedHashes:
    """The verifier's sha256 of a file, counted: how many files a check read through."""

    def __init__(self, monkeypatch):
        from charts.vllm_weights_check.runtime import verify_weights

        self.paths: list[str] = []
        real = verify_weights.sha256_of

        def counted(path: str) -> str:
            self.paths.append(path)
            return real(path)

        monkeypatch.setattr(verify_weights, "sha256_of", counted)

    def take(self) -> int:
        count, self.paths = len(self.paths), []
        return count


@pytest.fixture
def hashes(monkeypatch) -> _CountedHashes:
    return _CountedHashes(monkeypatch)


def _check(copy: Path, marker: Path, **options) -> list[str]:
    from charts.vllm_weights_check.runtime.verify_weights import problems_of

    return problems_of(copy, revision=SHA, marker=marker, **options)[0]


def test_a_copy_is_hashed_once_and_a_restart_with_its_marker_hashes_nothing(tmp_path, copy, hashes):
    marker = tmp_path / f"{SHA}.verified.json"
    # given a new node's copy: the first check hashes every file and then records the marker
    assert _check(copy, marker) == [] and hashes.take() == len(FILES)
    recorded = json.loads(marker.read_text())
    assert (
        recorded["manifest_sha256"]
        == hashlib.sha256((copy / "MANIFEST.json").read_bytes()).hexdigest()
    )
    assert set(recorded["files"]) == set(FILES)
    # when the pod restarts on the same node, then nothing is hashed
    assert _check(copy, marker) == [] and hashes.take() == 0
    # and the marker is not written inside the copy, whose check refuses any file the manifest does not list
    assert not any(p.name.endswith(".verified.json") for p in copy.rglob("*"))


def test_a_file_changed_since_the_marker_is_hashed_again_and_a_wrong_one_refused(
    tmp_path, copy, hashes
):
    import os

    marker = tmp_path / "marker.json"
    assert _check(copy, marker) == [] and hashes.take() == len(FILES)
    # given a file touched (same bytes, another mtime): every file is hashed again, and the copy still passes
    shard = copy / "model-00001-of-00002.safetensors"
    stat = shard.stat()
    os.utime(shard, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert _check(copy, marker) == [] and hashes.take() == len(FILES)
    assert _check(copy, marker) == [] and hashes.take() == 0  # the new marker holds
    # given a file rewritten in place with other bytes of the same size: its sha256 refuses it, the marker is gone
    shard.write_bytes(b"\x09" * 4096)
    problems = _check(copy, marker)
    assert hashes.take() == len(FILES) and any("sha256" in p for p in problems)
    assert not marker.exists()


def test_a_swapped_manifest_is_hashed_again_against_itself_or_refused_by_its_pin(
    tmp_path, copy, hashes
):
    marker = tmp_path / "marker.json"
    pinned = hashlib.sha256((copy / "MANIFEST.json").read_bytes()).hexdigest()
    assert _check(copy, marker, manifest_sha256=pinned) == [] and hashes.take() == len(FILES)
    # given the manifest and one file replaced by another revision's of the same sizes (consistent with each other)
    write_copy(copy, {**FILES, "model-00001-of-00002.safetensors": b"\x09" * 4096})
    # then without a pin the marker (of the other manifest) is not trusted: every file is hashed again
    assert _check(copy, marker) == [] and hashes.take() == len(FILES)
    # and with the environment's pin the manifest is refused before any file is read, and the marker removed
    problems = _check(copy, marker, manifest_sha256=pinned)
    assert hashes.take() == 0 and any("the environment pins" in p for p in problems)
    assert not marker.exists()


def test_a_check_that_finds_a_problem_writes_no_marker_and_a_torn_marker_is_not_trusted(
    tmp_path, copy, hashes
):
    marker = tmp_path / "marker.json"
    (copy / "config.json").unlink()
    assert _check(copy, marker) and not marker.exists()
    hashes.take()
    write_copy(copy, FILES)
    marker.write_text('{"version": 1, "manifest_sha256": "')  # a marker cut short
    assert _check(copy, marker) == [] and hashes.take() == len(FILES)
    assert json.loads(marker.read_text())["version"] == 1
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_the_init_container_keeps_its_marker_beside_the_copy_and_says_when_it_hashed_nothing(
    tmp_path, copy
):
    from charts.vllm_weights_check import marker_path, verify_command

    command = verify_command("/mnt/model-cache/s3-weights/REV", "REV")
    assert command[command.index("--marker") + 1] == marker_path("/mnt/model-cache/s3-weights/REV")
    assert marker_path("/x/REV") == "/x/REV.verified.json"
    marker = str(tmp_path / "m.json")
    assert "(sizes and sha256" in verify(copy, "--marker", marker).stderr
    second = verify(copy, "--marker", marker)
    assert second.returncode == 0 and "sha256 as verified before" in second.stderr
