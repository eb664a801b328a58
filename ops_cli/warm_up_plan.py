"""The warm-up a start-up plan row adds (ops_cli/first_token_plan.py): the one measured on the node (``--measured``),
else the H200's proxy (deployment_config.startup_rates.WARM_UP_PROXY, bench/warmup.py): restored where the environment
keeps a compile cache, cold where it does not; on a new node with a cache, both the typical start (the cache restored
from S3) and the first start ever of the cache's key (cold)."""

from __future__ import annotations

from dataclasses import dataclass

from deployment_config.compile_cache_variables import compile_cache_applies
from deployment_config.model import EnvironmentConfig, Platform, WeightSource
from deployment_config.model_location import weights_s3_uri
from deployment_config.startup_rates import (
    COMPILE_CACHE_ARCHIVE_GB,
    S3_PER_CONNECTION,
    WARM_UP_PROXY,
    WARM_UP_PROXY_LABEL,
)


@dataclass(frozen=True)
class WarmUp:
    """What one row adds after the weights are in GPU memory: ``seconds`` in its total, ``words`` in its basis, and
    on a new node with a compile cache ``first_start_seconds``, the same row's warm-up on the first start of the key."""

    seconds: float
    words: str
    first_start_seconds: float | None = None
    restore_seconds: float = 0.0

    @property
    def terms(self) -> tuple[tuple[str, float], ...]:
        """The row's terms of it (ops_cli/s3_path_choice.py ``PathTerms``): the cache's download, if any, then the
        warm-up."""
        restore = (("compile cache restore", self.restore_seconds),) if self.restore_seconds else ()
        return (*restore, ("warm-up", self.seconds - self.restore_seconds))


def keeps_compile_cache(env: EnvironmentConfig) -> bool:
    """Whether the environment's vLLM pods restore a compile cache: the charts' own predicate (charts/serving_spec.py
    passes the same arguments to charts/compile_cache ``compile_cache_for``); HyperPod has none (the operator writes
    the pod)."""
    return env.platform is not Platform.HYPERPOD and compile_cache_applies(
        image=env.serving_image,
        weights_s3_uri=weights_s3_uri(env.model),
        revision=env.model.hugging_face_revision,
        nodes=env.layout.nodes,
    )


def why_no_compile_cache(env: EnvironmentConfig) -> str:
    """The conditions of :func:`keeps_compile_cache` this environment misses, in the words of its configuration."""
    if env.platform is Platform.HYPERPOD:
        return "HyperPod: the operator writes the pod"
    missing = []
    if weights_s3_uri(env.model) is None:
        missing.append(
            "weights from the Hub"
            if env.model.weight_source is WeightSource.HUGGINGFACE
            else "no pinned revision"
        )
    if not env.serving_image.partition("@")[2].startswith("sha"):
        missing.append("the image by tag, not by digest")
    if env.layout.nodes != 1:
        missing.append(f"a model over {env.layout.nodes} nodes")
    return ", ".join(missing)


def restore_seconds() -> float:
    """The cache's download on a new node: the proxy's archive over one connection's documented S3 rate."""
    return S3_PER_CONNECTION.seconds_for(COMPILE_CACHE_ARCHIVE_GB)


def cold_words() -> str:
    cold = WARM_UP_PROXY["cold"].seconds
    return f" + warm-up {cold:g} s (warm_up_proxy_cold, {WARM_UP_PROXY_LABEL})"


def warm_up_term(env: EnvironmentConfig, measured, *, new_node: bool) -> WarmUp:  # noqa: ANN001
    """The warm-up of a row: measured (``measured.warm_up``, bench/measured_phases.py) where the node's start was
    recorded, else the proxy. With a compile cache a restart finds it on the node's NVMe (charts/compile_cache/) and
    a new node downloads it first (:func:`restore_seconds`); without one every pod compiles again (a new filesystem)."""
    chosen = measured.warm_up(new_node=new_node) if measured is not None else None
    if chosen is not None:
        return WarmUp(
            chosen[1].seconds, f" + warm-up {chosen[1].seconds:g} s ({chosen[0]}, measured)"
        )
    cold = WARM_UP_PROXY["cold"].seconds
    if not keeps_compile_cache(env):
        return WarmUp(cold, f"{cold_words()}, no compile cache: {why_no_compile_cache(env)}")
    restored = WARM_UP_PROXY["restored"].seconds
    if not new_node:
        return WarmUp(
            restored,
            f" + warm-up {restored:g} s (warm_up_proxy_restored, {WARM_UP_PROXY_LABEL}; the compile cache on the "
            "node's NVMe)",
        )
    restore = restore_seconds()
    return WarmUp(
        restore + restored,
        f" + compile cache from S3 {restore:.1f} s ({COMPILE_CACHE_ARCHIVE_GB * 1000:.1f} MB / one connection "
        f"{S3_PER_CONNECTION.gb_per_second:g} GB/s) + warm-up {restored:g} s (warm_up_proxy_restored, "
        f"{WARM_UP_PROXY_LABEL}); first start ever for this key: warm_up_proxy_cold {cold:g} s, nothing to restore",
        first_start_seconds=cold,
        restore_seconds=restore,
    )


def proxy_lines() -> list[str]:
    """The proxies as the plan's text lists them, each with its label and source."""
    return ["warm-up (s):"] + [
        f"  warm_up_proxy_{name:<14} {proxy.seconds:>7g}  {proxy.kind}: {proxy.source}"
        for name, proxy in WARM_UP_PROXY.items()
    ]


def proxies_json() -> dict[str, dict]:
    return {
        f"warm_up_proxy_{name}": {"seconds": p.seconds, "kind": p.kind, "source": p.source}
        for name, p in WARM_UP_PROXY.items()
    }
