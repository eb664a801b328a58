"""node ready -> first token for each weight source (ops_cli/timeline.py's rows of it), from the rates of
deployment_config.startup_rates and sizing, each with its source, and the warm-up of ops_cli/warm_up_plan.py."""

from __future__ import annotations

from typing import Protocol

from deployment_config.model import EnvironmentConfig
from deployment_config.sizing import HUB_BUDGET_FLOOR, s3_download_rate
from deployment_config.startup_rates import (
    CHECK_S3_WEIGHTS_SECONDS,
    CHECK_S3_WEIGHTS_SOURCE,
    ENA_BANDWIDTH,
    IMAGE_PULL_SECONDS,
    IMAGE_PULL_SOURCE,
    LOADER_FROM_DISK,
    LOADER_FROM_MEMORY,
    PINNED_HOST_TO_DEVICE,
    RUNAI_DISTRIBUTED_NODE,
    RUNAI_EACH_RANK_WHOLE_MODEL,
    RUNAI_RANKS_MEASURED,
    SHA256_CHECK,
    SLOWEST_LOAD,
    UNMEASURED,
    Rate,
)
from deployment_config.weight_load import WeightLoad
from ops_cli.plan_phase import Phase, minutes
from ops_cli.s3_path_choice import PathTerms, faster_path, target
from ops_cli.warm_up_plan import cold_words, warm_up_term


class Step(Protocol):
    """A measured duration (bench/measured_phases.py ``Step``)."""

    seconds: float
    source: str


class Measured(Protocol):
    """What a start measured on the node gives the plan (bench/measured_phases.py ``Measured``)."""

    load: Rate | None
    s3_copy: Rate | None
    #: check-weights-s3's measured duration (``seconds``, ``source``), from a streamed start; None if none was.
    s3_check: Step | None

    def warm_up(self, *, new_node: bool): ...  # noqa: ANN201 - (file, its warm-up) or None


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
        "runai_distributed_node": RUNAI_DISTRIBUTED_NODE,
        "runai_each_rank_whole_model": RUNAI_EACH_RANK_WHOLE_MODEL,
    }
    if instance in ENA_BANDWIDTH:
        rates["ena_bandwidth"] = ENA_BANDWIDTH[instance]
    for name, rate in LOADER_FROM_MEMORY.items():
        rates[f"{name}_from_memory"] = rate
    for name, rate in LOADER_FROM_DISK.items():
        rates[f"{name}_from_disk"] = rate
    if measured is not None and measured.load is not None:
        # a streamed start's "Model loading took" is the Run:ai stream from S3, a copied one's the instance store's
        streamed = chosen_s3_path(env) == "runai"
        rates["runai_stream_measured" if streamed else "instance_store_load"] = measured.load
    if measured is not None and measured.s3_copy is not None:
        rates["s3_copy_measured"] = measured.s3_copy
    return rates


def unmeasured(measured: Measured | None, env: EnvironmentConfig | None = None) -> dict[str, str]:
    """UNMEASURED, less what ``measured`` measured (a streamed start's load measures the stream, not the disk)."""
    done = set()
    streamed = env is not None and chosen_s3_path(env) == "runai"
    if measured is not None and measured.load is not None and not streamed:
        done.add("instance_store_read")
    return {name: text for name, text in UNMEASURED.items() if name not in done}


def load_format(env: EnvironmentConfig) -> str:
    """vLLM's --load-format of the model (its default, safetensors, when the arguments name none)."""
    args = env.model.serving_args
    named = next(
        (args[i + 1] for i, a in enumerate(args[:-1]) if a == "--load-format"), "safetensors"
    )
    return named if named in LOADER_FROM_MEMORY else "safetensors"


def chosen_s3_path(env: EnvironmentConfig) -> str:
    """The S3 path the charts run for ``env`` (ops_cli/s3_path_choice.py PATH_NAMES): the Run:ai stream with
    ``model.weight_load: runai_streamer``, else the copy to the node's NVMe."""
    return "runai" if env.model.weight_load is WeightLoad.RUNAI_STREAMER else "copy"


def first_token_phases(env: EnvironmentConfig, measured: Measured | None = None) -> list[Phase]:
    """node ready -> first token for each weight source, the estimate and the limit beside it (issue 21, item 7).

    The estimate takes the planned download rate and the slowest load bench/weight_load.py measured; the limit takes the
    instance's ENA bandwidth and the loader's measured ceiling from memory. Both add the warm-up (ops_cli/warm_up_plan.py:
    the H200's measured proxy, restored where the environment keeps a compile cache, cold where it does not; a new node
    with a cache also gives the first start of its key). With ``measured``, the measured load rate from the instance
    store, S3 copy rate and warm-up (bench/measured_phases.py) take their place. Then which S3 path is faster and
    whether the charts' path (:func:`chosen_s3_path`) meets issue 30's target (ops_cli/s3_path_choice.py). The Run:ai
    path's totals hold check-weights-s3 (startup_rates.CHECK_S3_WEIGHTS_SECONDS) on every start: nothing is kept on
    the node, so a restart checks and streams from S3 again."""
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
    # Run:ai distributed: the published 8-rank rate a rank, times this layout's ranks on the node; its bound, each rank
    # at the one-process ceiling measured here, within the card
    ranks = env.model.tensor_parallel_size
    distributed = rates["runai_distributed_node"].gb_per_second / RUNAI_RANKS_MEASURED * ranks
    stream_words = f"runai_distributed_node / {RUNAI_RANKS_MEASURED} x {ranks} ranks"
    if "runai_stream_measured" in rates:
        distributed = rates["runai_stream_measured"].gb_per_second
        stream_words = "runai_stream_measured"
    distributed_limit = min(
        rates["runai_streamer_from_memory"].gb_per_second * ranks, network.gb_per_second
    )
    whole = rates["runai_each_rank_whole_model"]
    disk_stream, stream_ceiling = (
        rates["runai_streamer_from_disk"],
        rates["runai_streamer_from_memory"],
    )
    new_warm = warm_up_term(env, measured, new_node=True)
    restart_warm = warm_up_term(env, measured, new_node=False)
    check = rates["sha256_check"]
    s3_check = measured.s3_check if measured is not None else None
    check_s3 = s3_check.seconds if s3_check is not None else CHECK_S3_WEIGHTS_SECONDS
    check_s3_words = (
        f"measured: {s3_check.source}"
        if s3_check is not None
        else f"{CHECK_S3_WEIGHTS_SOURCE} (deployment_config/startup_rates.py)"
    )
    chosen = chosen_s3_path(env)
    pull_fast, pull = IMAGE_PULL_SECONDS
    # The terms of each S3 path's two totals, by name, for the rows and the target's arithmetic (s3_path_choice).
    paths = {
        "copy": PathTerms(
            new_node=(
                ("max(image pull, copy)", max(pull, copy.seconds_for(weights))),
                ("check", check.seconds_for(weights)),
                ("load", slow.seconds_for(weights)),
                *new_warm.terms,
            ),
            restart=(("load", slow.seconds_for(weights)), *restart_warm.terms),
            first_start_warm_up=new_warm.first_start_seconds,
        ),
        "runai": PathTerms(
            new_node=(
                ("image pull", pull),
                ("check-weights-s3", check_s3),
                ("stream", weights / distributed),
                *new_warm.terms,
            ),
            restart=(
                ("check-weights-s3", check_s3),
                ("stream", weights / distributed),
                *restart_warm.terms,
            ),
            first_start_warm_up=new_warm.first_start_seconds,
        ),
    }
    rows = [
        Phase(
            "node ready -> first token, weights from S3: copy to the NVMe beside the image pull, check, then load",
            minutes(paths["copy"].new_node_seconds),
            f"max(image pull {pull} s, {weights} GB / {copy_name} {copy.gb_per_second:g} GB/s) + {weights} GB / "
            f"sha256_check {check.gb_per_second:g} GB/s + {weights} GB / {slow_name} "
            f"{slow.gb_per_second:g} GB/s{new_warm.words}; limit: max({pull_fast} s, / "
            f"{'ena_bandwidth' if ena else 's3_download'} {network.gb_per_second:g}) + / sha256_check + / "
            f"{loader}_from_memory {ceiling.gb_per_second:g} + the same warm-up",
            limit_minutes=minutes(
                max(pull_fast, network.seconds_for(weights))
                + check.seconds_for(weights)
                + ceiling.seconds_for(weights)
                + new_warm.seconds
            ),
            first_start_minutes=paths["copy"].first_start_minutes,
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
            "weights check (check-weights-s3), every streamed start: size and CRC64NVME of every object as S3 keeps "
            "it, against the manifest; no byte read",
            minutes(check_s3),
            f"{check_s3:g} s: {check_s3_words}",
        ),
        Phase(
            f"node ready -> first token, weights from S3: Run:ai streamer into GPU memory, distributed over the "
            f"{ranks} ranks (--load-format runai_streamer, --model-loader-extra-config '{{\"distributed\": true}}')",
            minutes(paths["runai"].new_node_seconds),
            f"image pull {pull} s (no copy to overlap: the vLLM container streams) + check-weights-s3 {check_s3:g} s "
            f"+ {weights} GB / {distributed:.2f} "
            f"GB/s ({stream_words}){new_warm.words}; without "
            f"distributed every rank streams the whole checkpoint: {weights} GB / runai_each_rank_whole_model "
            f"{whole.gb_per_second:.2f} GB/s = {minutes(weights / whole.gb_per_second):g} min, {ranks} x the "
            f"bytes; limit: {pull_fast} s + / the lower of {ranks} x runai_streamer_from_memory and "
            f"{'ena_bandwidth' if ena else 's3_download'} ({distributed_limit:g} GB/s) + the same check and warm-up",
            limit_minutes=minutes(
                pull_fast + check_s3 + weights / distributed_limit + new_warm.seconds
            ),
            first_start_minutes=paths["runai"].first_start_minutes,
        ),
        Phase(
            "node ready -> first token, weights from the Hugging Face Hub",
            None,
            f"the Hub's rate is not sourced (budget floor: hub_budget_floor), then the load as from S3{cold_words()}"
            " (no compile cache with Hub weights)",
            "not sourced",
        ),
        Phase(
            "restart on the same node -> first token (weights on the NVMe)",
            minutes(paths["copy"].restart_seconds),
            f"{weights} GB / {slow_name} {slow.gb_per_second:g} GB/s (the check's marker matches: no hash)"
            f"{restart_warm.words}; limit: / {loader}_from_memory {ceiling.gb_per_second:g} + the same warm-up",
            limit_minutes=minutes(ceiling.seconds_for(weights) + restart_warm.seconds),
        ),
        Phase(
            "restart on the same node -> first token, Run:ai distributed from S3 (nothing kept on the node: a "
            "restart checks and streams from S3 again)",
            minutes(paths["runai"].restart_seconds),
            f"check-weights-s3 {check_s3:g} s + {weights} GB / {distributed:.2f} GB/s, from S3 again"
            f"{restart_warm.words}; limit: / {distributed_limit:g} + the same check and warm-up",
            limit_minutes=minutes(check_s3 + weights / distributed_limit + restart_warm.seconds),
        ),
        # vLLM 0.33.0 runai_streamer_loader.py takes a local directory as well (``is_local``) and streams it the same
        # way, distributed too; runai-model-streamer 0.17.1 distributed_streamer.py ``set_is_distributed`` does not
        # look at the storage. The ranks then share the node's disk, so its read rate bounds the load.
        Phase(
            "restart on the same node -> first token, Run:ai distributed from the NVMe copy",
            minutes(disk_stream.seconds_for(weights) + restart_warm.seconds),
            f"{weights} GB / runai_streamer_from_disk {disk_stream.gb_per_second:g} GB/s (the ranks share the disk: "
            f"the one-reader rate of the slowest measured disk; the instance store's is unmeasured)"
            f"{restart_warm.words}; limit: / {ranks} x runai_streamer_from_memory "
            f"({ranks * stream_ceiling.gb_per_second:g} GB/s) + the same warm-up",
            limit_minutes=minutes(
                weights / (ranks * stream_ceiling.gb_per_second) + restart_warm.seconds
            ),
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
    return [*rows, faster_path(paths, chosen), target(paths, chosen)]
