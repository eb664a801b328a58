"""node ready -> first token for each weight source (bench/timeline.py's rows of it), from the rates of
deployment_config.startup_rates and sizing, each with its source; and the Phase row every plan step is."""

from __future__ import annotations

from dataclasses import dataclass

from measured_phases import Measured

from deployment_config.model import EnvironmentConfig
from deployment_config.sizing import HUB_BUDGET_FLOOR, s3_download_rate
from deployment_config.startup_rates import (
    ENA_BANDWIDTH,
    IMAGE_PULL_SECONDS,
    IMAGE_PULL_SOURCE,
    LOADER_FROM_DISK,
    LOADER_FROM_MEMORY,
    PINNED_HOST_TO_DEVICE,
    SHA256_CHECK,
    SLOWEST_LOAD,
    UNMEASURED,
    Rate,
)


@dataclass(frozen=True)
class Phase:
    """One step of the timeline. ``minutes`` is None where nothing here computes or documents the duration;
    ``limit_minutes`` is the step's bound (weights / the fastest sourced or measured rate), None where there is none."""

    step: str
    minutes: float | None
    basis: str
    without_minutes: str = "not measured"
    limit_minutes: float | None = None


def minutes(seconds: float) -> float:
    return round(seconds / 60, 1)


def rates_used(env: EnvironmentConfig, measured: Measured | None = None) -> dict[str, Rate]:
    """Every rate the plan below uses, by the name its rows cite, each with its source (deployment_config.startup_rates,
    deployment_config.sizing; with ``measured``, the user's measurements last)."""
    instance = env.gpu_instance_type.name
    rates = {
        "s3_download": s3_download_rate(instance),
        "hub_budget_floor": HUB_BUDGET_FLOOR,
        "slowest_load": SLOWEST_LOAD,
        "pinned_host_to_device": PINNED_HOST_TO_DEVICE,
        "sha256_check": SHA256_CHECK,
    }
    if instance in ENA_BANDWIDTH:
        rates["ena_bandwidth"] = ENA_BANDWIDTH[instance]
    for name, rate in LOADER_FROM_MEMORY.items():
        rates[f"{name}_from_memory"] = rate
    for name, rate in LOADER_FROM_DISK.items():
        rates[f"{name}_from_disk"] = rate
    if measured is not None and measured.load is not None:
        rates["instance_store_load"] = measured.load
    if measured is not None and measured.s3_copy is not None:
        rates["s3_copy_measured"] = measured.s3_copy
    return rates


def unmeasured(measured: Measured | None) -> dict[str, str]:
    """UNMEASURED, less what ``measured`` measured."""
    done = set()
    if measured is not None and measured.load is not None:
        done.add("instance_store_read")
    if measured is not None and measured.warm_up(new_node=False) is not None:
        done.add("warm_up")
    return {name: text for name, text in UNMEASURED.items() if name not in done}


def _warm_up(measured: Measured | None, *, new_node: bool) -> tuple[float, str]:
    """(seconds, the basis' words) of the warm-up a row adds: 0 and "not measured" without a measurement."""
    chosen = measured.warm_up(new_node=new_node) if measured is not None else None
    if chosen is None:
        return 0.0, " + warm-up (not measured: see unmeasured)"
    return chosen[1].seconds, f" + warm-up {chosen[1].seconds:g} s ({chosen[0]}, measured)"


def load_format(env: EnvironmentConfig) -> str:
    """vLLM's --load-format of the model (its default, safetensors, when the arguments name none)."""
    args = env.model.serving_args
    named = next(
        (args[i + 1] for i, a in enumerate(args[:-1]) if a == "--load-format"), "safetensors"
    )
    return named if named in LOADER_FROM_MEMORY else "safetensors"


def first_token_phases(env: EnvironmentConfig, measured: Measured | None = None) -> list[Phase]:
    """node ready -> first token for each weight source, the estimate and the limit beside it (issue 21, item 7).

    The estimate takes the planned download rate and the slowest load bench/weight_load.py measured; the limit takes the
    instance's ENA bandwidth and the loader's measured ceiling from memory. The warm-up has no sourced or measured
    figure: both leave it out and say so, so each figure is the weights' part of the start. With ``measured``, the
    measured load rate from the instance store, S3 copy rate and warm-up (bench/measured_phases.py) take their place,
    the warm-up in the limit too."""
    weights = (
        env.model.loaded_gb
    )  # the weights and, with spec_decoding, the speculator (as the budget counts)
    rates = rates_used(env, measured)
    loader = load_format(env)
    ceiling = rates[f"{loader}_from_memory"]
    slow_name = "instance_store_load" if "instance_store_load" in rates else f"{loader}_from_disk"
    slow = rates[slow_name]
    s3, ena = rates["s3_download"], rates.get("ena_bandwidth")
    copy_name = "s3_copy_measured" if "s3_copy_measured" in rates else "s3_download"
    copy = rates[copy_name]
    network = ena or s3
    streamer = min(rates["runai_streamer_from_memory"].gb_per_second, s3.gb_per_second)
    streamer_limit = min(rates["runai_streamer_from_memory"].gb_per_second, network.gb_per_second)
    warm, warm_up = _warm_up(measured, new_node=True)
    restart_warm, restart_warm_up = _warm_up(measured, new_node=False)
    check = rates["sha256_check"]
    pull_fast, pull = IMAGE_PULL_SECONDS
    return [
        Phase(
            "node ready -> first token, weights from S3: copy to the NVMe beside the image pull, check, then load",
            minutes(
                max(pull, copy.seconds_for(weights))
                + check.seconds_for(weights)
                + slow.seconds_for(weights)
                + warm
            ),
            f"max(image pull {pull} s, {weights} GB / {copy_name} {copy.gb_per_second:g} GB/s) + {weights} GB / "
            f"sha256_check {check.gb_per_second:g} GB/s + {weights} GB / {slow_name} "
            f"{slow.gb_per_second:g} GB/s{warm_up}; limit: max({pull_fast} s, / "
            f"{'ena_bandwidth' if ena else 's3_download'} {network.gb_per_second:g}) + / sha256_check + / "
            f"{loader}_from_memory {ceiling.gb_per_second:g}",
            limit_minutes=minutes(
                max(pull_fast, network.seconds_for(weights))
                + check.seconds_for(weights)
                + ceiling.seconds_for(weights)
                + warm
            ),
        ),
        Phase(
            "image pull (vllm-image-prepull DaemonSet, beside the weights' copy)",
            minutes(pull),
            f"{IMAGE_PULL_SOURCE}: the upper end (limit: the lower); the pull starts when the node joins, "
            "not after the copy (charts/vllm_image_prepull.py); on a restart the image is on the node",
            limit_minutes=minutes(pull_fast),
        ),
        Phase(
            "weights check (verify-weights), first start of a copy on a node: sha256 of every file",
            minutes(check.seconds_for(weights)),
            f"{weights} GB / sha256_check {check.gb_per_second:g} GB/s (the CPU side; the instance store's read "
            "rate, which may be lower, is unmeasured); then a marker on the node's disk",
        ),
        Phase(
            "weights check (verify-weights), restart on the same node: the marker matches, no file hashed",
            0.0,
            "sizes, inodes and mtimes of the files against the marker of the first check (one stat a file)",
        ),
        Phase(
            "node ready -> first token, weights from S3: Run:ai streamer into GPU memory (--load-format "
            "runai_streamer)",
            minutes(pull + weights / streamer + warm),
            f"image pull {pull} s (no copy to overlap: the vLLM container streams) + {weights} GB / {streamer:g} "
            f"GB/s, the lower of s3_download and runai_streamer_from_memory{warm_up}; limit: {pull_fast} s + the "
            f"lower of {'ena_bandwidth' if ena else 's3_download'} and runai_streamer_from_memory",
            limit_minutes=minutes(pull_fast + weights / streamer_limit + warm),
        ),
        Phase(
            "node ready -> first token, weights from the Hugging Face Hub",
            None,
            f"the Hub's rate is not sourced (budget floor: hub_budget_floor), then the load as from S3{warm_up}",
            "not sourced",
        ),
        Phase(
            "restart on the same node -> first token (weights on the NVMe)",
            minutes(slow.seconds_for(weights) + restart_warm),
            f"{weights} GB / {slow_name} {slow.gb_per_second:g} GB/s (the check's marker matches: no hash)"
            f"{restart_warm_up}; limit: / "
            f"{loader}_from_memory {ceiling.gb_per_second:g}",
            limit_minutes=minutes(ceiling.seconds_for(weights) + restart_warm),
        ),
        Phase(
            "limit: weights / instance bandwidth",
            minutes(ena.seconds_for(weights)) if ena else None,
            f"{weights} GB / ena_bandwidth {ena.gb_per_second:g} GB/s"
            if ena
            else f"no ENA bandwidth in deployment_config/startup_rates.py for {env.gpu_instance_type.name}",
            "not documented",
        ),
    ]
