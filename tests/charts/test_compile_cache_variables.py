"""Every compile and JIT cache a start writes is kept: the vendored table (deployment_config/data/compile_cache_variables.json)
covers every cache variable found in the pinned wheels, the chart points each kept one under the key's directory, and
the save and restore carry those subdirectories."""

from __future__ import annotations

import json
from pathlib import Path

from charts.compile_cache import cache_environment
from deployment_config.compile_cache_variables import TABLE_FILE as CACHE_VARIABLES_FILE
from tests.charts.test_compile_cache import (  # noqa: F401 - cached_objects is a fixture
    KEY,
    cached_objects,
    run_script,
)
from tests.s3_stand_in import s3_stand_in

TABLE = json.loads(CACHE_VARIABLES_FILE.read_text(encoding="utf-8"))
KEPT = [entry["variable"] for entry in TABLE["kept"]]
NOT_KEPT = [entry["variable"] for entry in TABLE["not_kept"]]


def _containers(objects: list[dict]) -> dict[str, dict]:
    (deployment,) = [o for o in objects if o["kind"] == "Deployment"]
    pod = deployment["spec"]["template"]["spec"]
    return {c["name"]: c for c in pod.get("initContainers", []) + pod["containers"]}


def _env(container: dict) -> dict[str, str]:
    return {e["name"]: e.get("value") for e in container.get("env", [])}


def test_every_cache_variable_found_in_the_pinned_sources_is_kept_or_left_with_a_reason():
    # given the variables the scan of the pinned wheels found (each with the files that read it)
    found = TABLE["scan"]["found"]
    # then each is in the table once, kept or left as it is, and nothing in the table is unfounded
    assert not set(KEPT) & set(NOT_KEPT)
    assert len(KEPT) == len(set(KEPT)) and len(NOT_KEPT) == len(set(NOT_KEPT))
    assert sorted(found) == sorted(KEPT + NOT_KEPT)
    assert all(found[name] for name in found)
    # and each entry names its source, and each left one why
    assert all(entry["source"] for entry in TABLE["kept"] + TABLE["not_kept"])
    assert all(entry["reason"] for entry in TABLE["not_kept"])
    # the caches the issue names are among the kept ones
    for name in (
        "VLLM_CACHE_ROOT",
        "TRITON_CACHE_DIR",
        "FLASHINFER_WORKSPACE_BASE",
        "CUTE_DSL_CACHE_DIR",
        "TORCHINDUCTOR_CACHE_DIR",
        "TORCH_EXTENSIONS_DIR",
        "CUDA_CACHE_PATH",
        "DG_JIT_CACHE_DIR",
    ):
        assert name in KEPT


def test_the_chart_points_every_kept_cache_under_the_directory_it_saves(cached_objects):  # noqa: F811
    # given the variant with S3 weights and an image pinned by digest (the compile cache is on)
    containers = _containers(cached_objects)
    vllm = _env(containers["vllm"])
    restore = containers["restore-compile-cache"]["command"]
    directory = restore[restore.index("--cache-dir") + 1]
    # then vLLM's environment sets every kept variable, vLLM's root at the directory the restore fills (as before)
    assert vllm["VLLM_CACHE_ROOT"] == directory
    for name in KEPT:
        assert name in vllm, f"{name} is kept by the table but not set in vLLM's container"
        assert vllm[name] == directory or vllm[name].startswith(directory + "/"), (name, vllm[name])
    # and each library has its own subdirectory, none inside another's
    others = sorted(vllm[name] for name in KEPT if name != "VLLM_CACHE_ROOT")
    assert len(others) == len(set(others))
    assert not any(b.startswith(a + "/") for a in others for b in others if a != b)
    # and the variables left as they are stay unset
    assert not set(NOT_KEPT) & set(vllm)


def test_without_a_compile_cache_the_kernel_caches_stay_where_the_libraries_put_them(default_env):
    from charts.serving_spec import serving_spec_for
    from charts.vllm_serving_chart import synthesize_manifests

    # given the default example (an image by tag: no compile cache)
    vllm = _env(_containers(synthesize_manifests(serving_spec_for(default_env)))["vllm"])
    # then none of the cache variables is set: behaviour as before
    assert not set(KEPT + NOT_KEPT) & set(vllm)


def test_each_librarys_cache_is_saved_and_restored_with_vllms(tmp_path: Path):
    # given a node whose start wrote into every kept library's directory
    node_a = tmp_path / "node-a" / "cache"
    for directory in cache_environment(str(node_a)).values():
        Path(directory, "kernel.bin").parent.mkdir(parents=True, exist_ok=True)
        Path(directory, "kernel.bin").write_bytes(directory.encode())
    with s3_stand_in() as s3:
        # when its sidecar saves and another node restores
        saved = run_script(s3, "save", node_a)
        assert saved.returncode == 0 and f"saved {len(KEPT)} files" in saved.stderr, saved.stderr
        node_b = tmp_path / "node-b" / "cache"
        assert run_script(s3, "restore", node_b, KEY).returncode == 0
    # then every library finds its own files where its variable points on the other node
    for directory in cache_environment(str(node_b)).values():
        written_at = node_a / Path(directory).relative_to(node_b)
        assert Path(directory, "kernel.bin").read_bytes() == str(written_at).encode()


def test_with_a_compile_cache_a_kept_variable_in_extra_env_is_replaced_by_the_cached_directory(
    default_env,
):
    from tests.charts.test_compile_cache import cached_manifests

    # given the cached variant whose model.extra_env also names Triton's cache
    objects = cached_manifests(
        default_env,
        extra_env={**default_env.model.extra_env, "TRITON_CACHE_DIR": "/elsewhere/triton"},
    )
    vllm = _containers(objects)["vllm"]
    # then vLLM gets it once, in the directory that is saved, not the one that is lost (make check-config refuses
    # such a file, deployment_config/cross_section_rules/vllm_serving.py; the chart never lets a cache escape anyway)
    (triton,) = [e["value"] for e in vllm["env"] if e["name"] == "TRITON_CACHE_DIR"]
    assert triton == _env(vllm)["VLLM_CACHE_ROOT"] + "/triton"
