"""vLLM's compile cache (charts/compile_cache/): the shipped script with boto3 against a local S3 stand-in
(tests/s3_stand_in.py), its key, and what the chart and the serving stack add for it.

The script's ``main`` runs in the test process (:func:`run_script`), its boto3 client built once per stand-in
rather than in a new Python process that imports boto3 for every run (about a second of CPU each); one round trip,
a save on one node and its restore on another, runs as the pod runs it, a Python process taking its client from the
environment (:func:`run_process`), and so do the sidecar's tests, which are about its signals."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import signal
import socket
import subprocess
import sys
import tarfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from charts.compile_cache import SCRIPT_FILE, compile_cache_for
from charts.compile_cache.runtime import compile_cache
from charts.compile_cache.runtime.compile_cache import KEY_MEMBER, object_name
from tests.s3_stand_in import s3_stand_in, stand_in_session

KEY = {
    "image_digest": "sha256:" + "a" * 64,
    "model_revision": "0123456789abcdef0123456789abcdef01234567",
    "serving_profile_sha256": "b" * 64,
    "gpu_instance_type": "p6-b300.48xlarge",
    "tensor_parallel_size": 8,
    "pipeline_parallel_size": 1,
    "nodes": 1,
}
BUCKET = "weights-bucket"


def script_command(
    s3, action: str, cache_dir: Path, key: dict = KEY, *extra: str
) -> tuple[list[str], dict[str, str]]:
    """The script's command line for ``action`` and its environment: the S3 stand-in, and no credentials, config or
    instance metadata of the machine."""
    env = s3.environment
    command = [
        sys.executable,
        str(SCRIPT_FILE),
        action,
        "--key",
        json.dumps(key),
        "--bucket",
        BUCKET,
        "--prefix",
        "compile-cache",
        "--region",
        "us-west-2",
        "--cache-dir",
        str(cache_dir),
        *extra,
    ]
    return command, env


def run_process(
    s3, action: str, cache_dir: Path, key: dict = KEY, *extra: str
) -> subprocess.CompletedProcess:
    """The script as the pod runs it: a Python process, boto3 configured by its environment."""
    command, env = script_command(s3, action, cache_dir, key, *extra)
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)


def run_script(
    s3, action: str, cache_dir: Path, key: dict = KEY, *extra: str
) -> subprocess.CompletedProcess:
    """The same command line through the script's ``main`` in this process, its S3 client (``_s3``) a boto3 client of
    the stand-in; what it logs and its exit status as :func:`run_process` returns them. The SIGTERM handler that a
    save installs (for the sidecar) is put back afterwards."""
    command, _ = script_command(s3, action, cache_dir, key, *extra)
    client = stand_in_session().client("s3", region_name="us-west-2", endpoint_url=s3.url)
    stderr = io.StringIO()
    s3_client, on_sigterm = compile_cache._s3, signal.getsignal(signal.SIGTERM)
    compile_cache._s3 = lambda region: client
    try:
        with contextlib.redirect_stderr(stderr):
            try:
                code = compile_cache.main(command[2:])
            except SystemExit as exit_:  # argparse's usage error
                code = exit_.code
    finally:
        compile_cache._s3 = s3_client
        signal.signal(signal.SIGTERM, on_sigterm)
    return subprocess.CompletedProcess(command, code, "", stderr.getvalue())


def compiled(directory: Path) -> Path:
    """A cache directory as vLLM leaves it (the layout does not matter to the script)."""
    artifact = (
        directory / "torch_compile_cache" / "abc123" / "rank_0_0" / "backbone" / "artifact.bin"
    )
    artifact.parent.mkdir(parents=True)
    artifact.write_bytes(b"compiled graph")
    return directory


def test_the_s3_stand_in_answers_100_continue_before_the_body_as_s3_does():
    """Given a PutObject sent as botocore sends it (headers with ``Expect: 100-continue``, body held back), when the
    stand-in reads the headers, then it answers ``100 Continue`` at once, as S3 does: an HTTP/1.0 stand-in stays
    silent and botocore waits a second per upload before sending the body anyway."""
    with s3_stand_in() as s3:
        port = int(s3.url.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
            conn.sendall(
                b"PUT /bucket/key HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n"
                b"Expect: 100-continue\r\n\r\n"
            )
            interim = conn.recv(64)
            conn.sendall(b"ok")
            final = conn.recv(256)
        assert interim.startswith(b"HTTP/1.1 100"), interim
        assert final.startswith(b"HTTP/1.1 200"), final
        assert s3.objects == {"/bucket/key": b"ok"}


def test_a_cache_saved_by_one_node_is_restored_on_another(tmp_path):
    with s3_stand_in() as s3:
        # given a node whose vLLM compiled, when its sidecar saves
        saved = run_process(s3, "save", compiled(tmp_path / "node-a" / "cache"))
        assert saved.returncode == 0 and "saved 1 files" in saved.stderr, saved.stderr
        # then one object, named by the key's sha256, written with If-None-Match: *
        assert s3.puts == [
            {"key": f"/{BUCKET}/{object_name('compile-cache', KEY)}", "if_none_match": "*"}
        ]
        # and on another node the restore puts the same files where vLLM reads them
        restored = run_process(
            s3,
            "restore",
            tmp_path / "node-b" / "cache",
            KEY,
            "--termination-log",
            str(tmp_path / "termination-log"),
        )
        assert restored.returncode == 0, restored.stderr
        # and says so in the termination message, which the kubelet puts in the pod's status for llmops phases
        assert (
            (tmp_path / "termination-log")
            .read_text()
            .startswith("restored s3://weights-bucket/compile-cache/")
        )
        artifact = (
            tmp_path
            / "node-b"
            / "cache"
            / "torch_compile_cache"
            / "abc123"
            / "rank_0_0"
            / "backbone"
        )
        assert (artifact / "artifact.bin").read_bytes() == b"compiled graph"
        assert json.loads((tmp_path / "node-b" / "cache" / KEY_MEMBER).read_text()) == KEY


def test_save_never_overwrites_a_saved_cache(tmp_path):
    with s3_stand_in() as s3:
        run_script(s3, "save", compiled(tmp_path / "first"))
        name = f"/{BUCKET}/{object_name('compile-cache', KEY)}"
        first = s3.objects[name]
        # given a second node that compiled too, when it saves under the same key
        second = compiled(tmp_path / "second")
        (second / "torch_compile_cache" / "other.bin").write_bytes(b"other")
        result = run_script(s3, "save", second)
        # then S3 refused the conditional write, the first object stays, and the sidecar exits 0
        assert result.returncode == 0 and "exists already" in result.stderr
        assert s3.objects[name] == first and [p["if_none_match"] for p in s3.puts] == ["*", "*"]


def test_restore_refuses_a_cache_recorded_under_another_key(tmp_path):
    with s3_stand_in() as s3:
        # given an archive saved for another image, placed under this key's name
        other = {**KEY, "image_digest": "sha256:" + "c" * 64}
        run_script(s3, "save", compiled(tmp_path / "other"), other)
        s3.objects[f"/{BUCKET}/{object_name('compile-cache', KEY)}"] = s3.objects.pop(
            f"/{BUCKET}/{object_name('compile-cache', other)}"
        )
        # when a pod of this key restores
        result = run_script(s3, "restore", tmp_path / "mine")
        # then nothing is extracted, vLLM compiles, and the start is not stopped
        assert (
            result.returncode == 0
            and "refused, not used: it was saved for another key" in result.stderr
        )
        assert not (tmp_path / "mine").exists()


def test_restore_refuses_an_archive_without_its_key_first_or_with_a_path_outside(tmp_path):
    with s3_stand_in() as s3:
        name = f"/{BUCKET}/{object_name('compile-cache', KEY)}"
        for members in (
            [("evil.bin", b"x")],
            [
                (KEY_MEMBER, json.dumps(KEY, sort_keys=True, separators=(",", ":")).encode()),
                ("../escape.bin", b"x"),
            ],
        ):
            buffer = io.BytesIO()
            with tarfile.open(fileobj=buffer, mode="w:") as archive:
                for member, data in members:
                    info = tarfile.TarInfo(member)
                    info.size = len(data)
                    archive.addfile(info, io.BytesIO(data))
            s3.objects[name] = buffer.getvalue()
            result = run_script(s3, "restore", tmp_path / "cache")
            assert result.returncode == 0 and "refused, not used" in result.stderr
            assert not (tmp_path / "cache").exists() and not (tmp_path / "escape.bin").exists()


def test_no_saved_cache_lets_vllm_compile(tmp_path):
    with s3_stand_in() as s3:
        result = run_script(s3, "restore", tmp_path / "cache")
    assert result.returncode == 0 and "no cache saved yet" in result.stderr


def test_a_restart_on_the_same_node_keeps_its_cache_without_a_download(tmp_path):
    with s3_stand_in() as s3:
        cache = compiled(tmp_path / "cache")
        run_script(s3, "save", cache)
        s3.objects.clear()  # the node must not need S3 now
        result = run_script(s3, "restore", cache)
    assert result.returncode == 0 and "already on this node" in result.stderr


def test_save_waits_for_health_and_gives_up_without_saving(tmp_path):
    with s3_stand_in() as s3:
        # given a vLLM that never answers /health (nothing listens on the port), when the budget runs out
        result = run_script(
            s3,
            "save",
            compiled(tmp_path / "cache"),
            KEY,
            "--health-url",
            "http://127.0.0.1:9/health",
            "--health-timeout-s",
            "0",
        )
        assert result.returncode == 0 and "nothing saved" in result.stderr and s3.puts == []


def test_the_sidecar_stays_after_its_save_and_exits_at_once_on_sigterm(tmp_path):
    with s3_stand_in() as s3:
        # given the sidecar still waiting for vLLM's /health (a vLLM that accepts and never answers), as in a pod
        # being replaced during its start
        with socket.create_server(("127.0.0.1", 0)) as vllm:
            vllm.settimeout(30)
            command, env = script_command(
                s3,
                "save",
                compiled(tmp_path / "cache"),
                KEY,
                "--health-url",
                f"http://127.0.0.1:{vllm.getsockname()[1]}/health",
                "--health-timeout-s",
                "3600",
                "--stay",
            )
            process = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
            try:
                connection, _ = (
                    vllm.accept()
                )  # it asks /health: its SIGTERM handler is in place by now
                # when the kubelet sends SIGTERM, then it exits at once with 0, not after the grace period
                process.terminate()
                assert process.wait(timeout=10) == 0
                connection.close()
            finally:
                process.kill()
                process.communicate()
        assert s3.puts == []


class _Healthy(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args) -> None:
        pass


def test_after_its_save_the_sidecar_stays_until_sigterm(tmp_path):
    with s3_stand_in() as s3, ThreadingHTTPServer(("127.0.0.1", 0), _Healthy) as vllm:
        threading.Thread(
            target=vllm.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()
        command, env = script_command(
            s3,
            "save",
            compiled(tmp_path / "cache"),
            KEY,
            "--health-url",
            f"http://127.0.0.1:{vllm.server_address[1]}/health",
            "--health-timeout-s",
            "60",
            "--stay",
        )
        process = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
        try:
            # given a vLLM that answers /health: the sidecar saves once
            for _ in range(600):
                if s3.puts or process.poll() is not None:
                    break
                time.sleep(0.05)
            assert len(s3.puts) == 1
            # then it is still running (a Deployment would restart a container that exited, and save again)
            time.sleep(0.2)
            assert process.poll() is None
            process.terminate()
            assert process.wait(timeout=10) == 0
        finally:
            vllm.shutdown()
            process.kill()
            process.communicate()


def test_a_malformed_key_is_a_usage_error(tmp_path):
    with s3_stand_in() as s3:
        result = run_script(s3, "restore", tmp_path, {"image_digest": "x"})
    assert result.returncode == 2 and "--key" in result.stderr


BASE = dict(
    image="vllm/vllm-openai:kimi-k3@sha256:" + "a" * 64,
    weights_s3_uri="s3://weights-bucket/kimi-k3/REV/",
    revision="0123456789abcdef0123456789abcdef01234567",
    region="us-west-2",
    gpu_instance_type="p6-b300.48xlarge",
    tensor_parallel_size=8,
    pipeline_parallel_size=1,
    nodes=1,
    args=("--model", "/models/s3-weights/REV"),
    environment={"VLLM_ENGINE_READY_TIMEOUT_S": "6240"},
)


@pytest.mark.parametrize(
    "change",
    [
        {"image": "vllm/vllm-openai:kimi-k3@sha256:" + "b" * 64},
        {"revision": "1123456789abcdef0123456789abcdef01234567"},
        {"args": ("--model", "/models/s3-weights/REV", "--max-model-len", "8192")},
        {"environment": {"VLLM_ENGINE_READY_TIMEOUT_S": "6240", "VLLM_USE_DEEP_GEMM": "0"}},
        {"gpu_instance_type": "p5en.48xlarge"},
        {"tensor_parallel_size": 4},
        {"pipeline_parallel_size": 2},
    ],
    ids=[
        "image digest",
        "revision",
        "arguments",
        "environment",
        "GPU type",
        "tensor parallel",
        "pipeline parallel",
    ],
)
def test_the_key_changes_with_each_of_its_parts(change):
    assert compile_cache_for(**{**BASE, **change}).digest != compile_cache_for(**BASE).digest


def test_the_same_image_through_the_pull_through_cache_keeps_its_key():
    cached = (
        "123456789012.dkr.ecr.us-west-2.amazonaws.com/docker-hub/vllm/vllm-openai@sha256:"
        + "a" * 64
    )
    assert compile_cache_for(**{**BASE, "image": cached}).digest == compile_cache_for(**BASE).digest


@pytest.mark.parametrize(
    "change",
    [{"image": "vllm/vllm-openai:kimi-k3"}, {"weights_s3_uri": None}, {"nodes": 2}],
    ids=["a tag", "Hub weights", "multi-node"],
)
def test_no_cache_is_kept_where_a_key_could_mix_or_nothing_holds_it(change):
    assert compile_cache_for(**{**BASE, **change}) is None


# --- the chart ------------------------------------------------------------------------------------------------------

DIGEST_IMAGE = "vllm/vllm-openai:kimi-k3@sha256:" + "a" * 64


def cached_manifests(env, **model_changes) -> list[dict]:
    """The manifests of ``env`` with S3 weights at a pinned revision and an image pinned by digest (the compile cache
    on), and ``model_changes`` to the model besides."""
    from charts.serving_spec import serving_spec_for
    from charts.vllm_serving_chart import synthesize_manifests
    from deployment_config.model import WeightSource

    model = dataclasses.replace(
        env.model,
        weight_source=WeightSource.S3,
        s3_uri="s3://weights-bucket/kimi-k3/",
        hugging_face_revision=KEY["model_revision"],
        image=DIGEST_IMAGE,
        **model_changes,
    )
    return synthesize_manifests(serving_spec_for(dataclasses.replace(env, model=model)))


@pytest.fixture(scope="module")
def cached_objects(default_env) -> list[dict]:
    """The default environment with the compile cache on (:func:`cached_manifests`)."""
    return cached_manifests(default_env)


def _pod(objects: list[dict]) -> dict:
    (deployment,) = [o for o in objects if o["kind"] == "Deployment"]
    return deployment["spec"]["template"]["spec"]


def test_the_cache_is_restored_after_the_weights_check_and_saved_by_a_sidecar(cached_objects):
    pod = _pod(cached_objects)
    # then the restore runs last of the init containers: after the copy and its check, before vLLM
    assert [c["name"] for c in pod["initContainers"]] == [
        "fetch-weights",
        "verify-weights",
        "restore-compile-cache",
    ]
    # vLLM stays the first container (the GPU patches address containers/0); the saver runs beside it
    assert [c["name"] for c in pod["containers"]] == ["vllm", "save-compile-cache", "key-proxy"]
    restore, (vllm, saver, _) = pod["initContainers"][2], pod["containers"]
    directory = {e["name"]: e.get("value") for e in vllm["env"]}["VLLM_CACHE_ROOT"]
    # the restore, the save and vLLM's cache root are the one per-key directory on the node's NVMe cache
    for command in (restore["command"], saver["command"]):
        assert command[command.index("--cache-dir") + 1] == directory
        assert command[command.index("--bucket") + 1] == "weights-bucket"
        key = json.loads(command[command.index("--key") + 1])
        assert (
            key["image_digest"] == "sha256:" + "a" * 64
            and key["model_revision"] == KEY["model_revision"]
        )
        assert (key["gpu_instance_type"], key["tensor_parallel_size"]) == ("p6-b300.48xlarge", 8)
    assert directory.startswith("/models/compile-cache/") and directory.endswith(
        object_name("compile-cache", key).split("/")[1]
    )
    # the save waits for vLLM's own /health, on its loopback port behind the key check (a key check that restarts
    # never holds the save back), for at most the startup budget
    assert (
        saver["command"][saver["command"].index("--health-url") + 1]
        == "http://127.0.0.1:8001/health"
    )
    # the key check runs beside them, after vLLM (charts/key_proxy.py)
    assert pod["containers"][-1]["name"] == "key-proxy"
    # the restore's outcome goes to the kubelet's termination log (the container's default terminationMessagePath)
    assert restore["command"][-2:] == ["--termination-log", "/dev/termination-log"]
    assert restore.get("terminationMessagePath", "/dev/termination-log") == "/dev/termination-log"
    # both run the vLLM image (python3 and boto3), the shipped script from its ConfigMap, without privileges
    (script_map,) = [
        o for o in cached_objects if o["kind"] == "ConfigMap" and SCRIPT_FILE.name in o["data"]
    ]
    assert script_map["data"][SCRIPT_FILE.name] == SCRIPT_FILE.read_text()
    for container in (restore, saver):
        assert container["image"] == DIGEST_IMAGE and container["securityContext"][
            "capabilities"
        ] == {"drop": ["ALL"]}
    assert cached_objects.index(script_map) < cached_objects.index(
        next(o for o in cached_objects if o["kind"] == "Deployment")
    )


def test_the_cached_variant_validates_strictly(cached_objects, default_env):
    import kubernetes_validate

    for manifest in cached_objects:
        group = manifest["apiVersion"].rpartition("/")[0]
        if "." not in group or group.endswith(".k8s.io"):
            kubernetes_validate.validate(manifest, default_env.kubernetes_version, strict=True)


def test_an_image_by_tag_gets_no_cache(default_env):
    from charts.serving_spec import serving_spec_for

    # the default example runs a tag: no key could tell two images of one tag apart
    assert serving_spec_for(default_env).compile_cache is None
