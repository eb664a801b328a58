"""Preflight's mirror row with ``model.weight_load: runai_streamer``: the pod's check-weights-s3 compares each object's
CRC64NVME with the manifest's, so a manifest without one per file (format 1) fails now, naming the mirror as the fix."""

from __future__ import annotations

import io
import json

from botocore.response import StreamingBody

from tests.ops_cli.test_preflight import (  # noqa: F401 - real_ids: the autouse fixture that pins the example
    REVISION,
    expect_eks,
    expect_mirrored,
    pin_support_images,
    real_ids,
    rows,
    s3_weights,
)

KEY = f"kimi-k3/{REVISION}/MANIFEST.json"


def _streamed(config_dir) -> None:
    s3_weights(config_dir)
    path = config_dir / "example.yaml"
    path.write_text(
        path.read_text().replace(
            "  weight_source: s3", "  weight_load: runai_streamer\n  weight_source: s3", 1
        )
    )


def _manifest(aws, document: dict) -> None:
    body = json.dumps(document).encode()
    aws.stub("s3").add_response(
        "get_object",
        {"Body": StreamingBody(io.BytesIO(body), len(body))},
        {"Bucket": "weights-bucket", "Key": KEY},
    )


def _files(crc: bool) -> list[dict]:
    return [
        {"path": f"model-{i:05d}.safetensors", "size": 10, "sha256": "0" * 64}
        | ({"crc64nvme": "AAAAAAAAAAA="} if crc else {})
        for i in range(5)
    ]


def test_a_streamed_environment_whose_manifest_has_no_crc64nvme_fails_naming_the_mirror(
    aws, run, config_dir, monkeypatch
):
    # given S3 weights streamed by Run:ai whose manifest an older mirror wrote (format 1: no CRC64NVME)
    _streamed(config_dir)
    pin_support_images(monkeypatch)
    expect_eks(aws)
    expect_mirrored(aws, "weights-bucket", "kimi-k3/")
    _manifest(aws, {"repo_id": "moonshotai/Kimi-K3", "revision": REVISION, "files": _files(False)})
    # when preflight runs
    result = run("preflight", "--env", "example", "--json")
    row = rows(result)["weights mirrored to S3"]
    # then the row fails, says what is missing and why it matters, and names the mirror as the fix
    assert row["status"] == "fail"
    assert "manifest format 1, 5 of 5 files without a CRC64NVME" in row["detail"]
    assert "check-weights-s3" in row["detail"]
    assert "bin/llmops weights mirror --env example" in row["fix"]
    assert result.code != 0 and result.json["passed"] is False


def test_a_streamed_environment_whose_manifest_has_every_crc64nvme_passes(
    aws, run, config_dir, monkeypatch
):
    # given the same with a manifest of format 2, a CRC64NVME for every file
    _streamed(config_dir)
    pin_support_images(monkeypatch)
    expect_eks(aws)
    expect_mirrored(aws, "weights-bucket", "kimi-k3/")
    _manifest(aws, {"format": 2, "revision": REVISION, "files": _files(True)})
    # when preflight runs, then the row passes
    row = rows(run("preflight", "--env", "example", "--json"))["weights mirrored to S3"]
    assert row["status"] == "pass", row
