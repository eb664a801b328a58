"""The rates the start-up plan and budget are computed from, each with its source: a document or a measurement.

bench/timeline.py prints the plan from these; deployment_config.sizing.startup_budget derives vLLM's engine timeout and
the probes from the same figures. A rate enters this module only with a documentation page, or with the bench/ script
and the machine that measured it (docs/maintainers/performance.md holds the full tables and the commands). What has
neither (the instance store's read rate on p6-b300, the Hub's rate) is not a rate here: it is named in :data:`UNMEASURED`
and the plan says so instead of guessing. vLLM's warm-up is a measured proxy (:data:`WARM_UP_PROXY`, another GPU and
model), labelled as such wherever the plan uses it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True)
class Rate:
    """A throughput in GB/s (10^9 bytes a second), the unit of ``model.weight_size_gb``, with where it comes from.

    :param measured: True for a figure measured with a script in bench/, False for a documented one.
    :param allowance: True for a figure with neither: a budget's floor, kept so that a budget does not shrink below
        what it always allowed; never used in a plan's estimate.
    """

    gb_per_second: float
    source: str
    measured: bool
    allowance: bool = False

    def __post_init__(self) -> None:
        if self.gb_per_second <= 0 or not self.source:
            raise ValueError(f"a rate needs a positive value and a source: {self}")

    def seconds_for(self, gigabytes: float) -> float:
        return gigabytes / self.gb_per_second

    @property
    def kind(self) -> str:
        return (
            "allowance, no source"
            if self.allowance
            else "measured"
            if self.measured
            else "documented"
        )


def gbps(gigabits_per_second: float) -> float:
    """Gigabits a second (EC2's unit) in GB/s."""
    return gigabits_per_second / 8


#: ENA bandwidth of the network card that carries the node's IP traffic, S3 included. On p6-b300 card 0 is ENA-only
#: and the 16 EFA cards carry EFA-only interfaces without an IP address (deployment_config/catalog.py), so S3 traffic
#: gets card 0 alone, not the 6.4 Tb/s of EFA. The figure is AWS's P6 product table as copies of it show it (the page
#: itself was not re-read when this was written); check it in an account with
#: ``aws ec2 describe-instance-types --instance-types p6-b300.48xlarge
#: --query 'InstanceTypes[].NetworkInfo.NetworkCards[?NetworkCardIndex==`0`].PeakBandwidthInGbps'``.
ENA_BANDWIDTH: Mapping[str, Rate] = MappingProxyType(
    {
        "p6-b300.48xlarge": Rate(
            gbps(300),
            "P6-B300: ENA bandwidth 300 Gbps (Amazon EC2 P6 instances, "
            "https://aws.amazon.com/ec2/instance-types/p6/)",
            measured=False,
        ),
    }
)

#: "As a general rule, when you download large objects within a Region from Amazon S3 to Amazon EC2, we suggest making
#: concurrent requests for byte ranges of an object at the granularity of 8–16 MB. Make one concurrent request for each
#: 85–90 MB/s of desired network throughput." (S3 User Guide, "Performance guidelines for Amazon S3",
#: https://docs.aws.amazon.com/AmazonS3/latest/userguide/optimizing-performance-guidelines.html; the same in the
#: whitepaper https://docs.aws.amazon.com/whitepapers/latest/s3-optimizing-performance-best-practices/
#: horizontal-scaling-and-request-parallelization-for-high-throughput.html). The lower end, per connection.
S3_PER_CONNECTION = Rate(
    0.085,
    "one concurrent request for each 85-90 MB/s (S3 User Guide, "
    "https://docs.aws.amazon.com/AmazonS3/latest/userguide/"
    "optimizing-performance-guidelines.html)",
    measured=False,
)
# Not a limit of one node's download: the request rate. S3 User Guide, "Best practices design patterns: optimizing
# Amazon S3 performance" (https://docs.aws.amazon.com/AmazonS3/latest/userguide/optimizing-performance.html): "at least
# 3,500 PUT/COPY/POST/DELETE or 5,500 GET/HEAD requests per second per partitioned Amazon S3 prefix"; 118 shards read
# with 8-16 MB ranged GETs stay far below it.
#: The CRT transfer client's goal for the node's ``aws s3 sync`` (charts/vllm_deployment.py S3_TRANSFER_SETTINGS,
#: ``target_bandwidth``; AWS CLI S3 configuration, https://docs.aws.amazon.com/cli/latest/topic/s3-config.html: CRT
#: sizes its parallel ranged GETs from it): the bandwidth of the card S3 traffic goes through, p6-b300's card 0 (ENA
#: 300 Gbps, :data:`ENA_BANDWIDTH`), so that the client's goal, not a figure below the card, is what the copy aims at.
#: A goal, not a measured rate: the download is planned at the lowest of this, the instance's ENA bandwidth and the
#: connections times :data:`S3_PER_CONNECTION`.
CRT_TARGET = Rate(
    ENA_BANDWIDTH["p6-b300.48xlarge"].gb_per_second,
    "target_bandwidth 300Gb/s of the node's aws s3 sync (charts/vllm_deployment.py): p6-b300's card 0, ENA "
    "300 Gbps (https://aws.amazon.com/ec2/instance-types/p6/), CRT transfer client, "
    "https://docs.aws.amazon.com/cli/latest/topic/s3-config.html",
    measured=False,
)
#: Connections the CRT client opens for that goal: it provisions 0.4 Gb/s a connection ("target-gbps of 100 resulted in
#: 250 connections", awslabs/aws-c-s3@8dd4dd6 source/s3_client.c ``s_throughput_per_connection_gbps = 100.0 / 250``).
CRT_GBPS_PER_CONNECTION = 100.0 / 250
CRT_CONNECTIONS = round(CRT_TARGET.gb_per_second * 8 / CRT_GBPS_PER_CONNECTION)

#: vLLM's Run:ai loader at tensor parallel size N (vLLM 0.33.0 vllm/model_executor/model_loader/runai_streamer_loader.py,
#: ``RunaiModelStreamerLoader``; weight_utils.py ``runai_safetensors_weights_iterator``): with
#: ``--model-loader-extra-config '{"distributed": true}'`` (a bool, the only accepted value type) and torch.distributed
#: up, each rank streams ``stream_files(..., device="cuda:RANK", is_distributed=True)``: the streamer partitions the
#: read among the ranks and broadcasts over NCCL (run-ai/runai-model-streamer#84, "Multiple Readers Mode";
#: runai-model-streamer 0.17.1 distributed_streamer.py ``set_is_distributed``: on by default with NCCL and a CUDA
#: device, local files included). Without it "each process load[s] the entire model from storage independently"
#: (the same issue, https://github.com/run-ai/runai-model-streamer/issues/84): N full streams.
#: The published figures (marin-community/marin#7136, https://github.com/marin-community/marin/issues/7136: vLLM with
#: 8 ranks, DP8/EP8, a 124.96 GiB safetensors export in object storage): distributed, 14.21 s, 13.86 s and 14.71 s
#: (134.2 GB / 14.29 s average = 9.39 GB/s for the node, 1.17 GB/s a rank); not distributed, "eight full-model
#: streams, 30.85-32.85s each" (27.11-29.01 s on a second run), and the start failed (host memory 275 GiB).
_MARIN_7136 = (
    "vLLM Run:ai streamer, 8 ranks, 124.96 GiB from object storage (marin-community/marin#7136, "
    "https://github.com/marin-community/marin/issues/7136)"
)
RUNAI_DISTRIBUTED_NODE = Rate(
    124.96 * 2**30 / 1e9 / 14.29,
    f"{_MARIN_7136}: distributed, 14.29 s average",
    measured=False,
)
RUNAI_RANKS_MEASURED = 8
#: Without distributed: every rank streams the whole model, so the model is in place when the slowest full stream ends.
RUNAI_EACH_RANK_WHOLE_MODEL = Rate(
    124.96 * 2**30 / 1e9 / 32.85,
    f"{_MARIN_7136}: not distributed, the slowest of eight full-model streams, 32.85 s",
    measured=False,
)

#: bench/weight_load.py on one NVIDIA H200 machine (16 cores, ext4 on a 256 GB virtual disk /dev/vda, 24 GB of
#: MXFP4-shaped shards, page cache dropped before each disk pass), 2026-12-01, two runs; the lower of the two.
_BENCH = "bench/weight_load.py, NVIDIA H200, 16 cores, 2026-12-01 (docs/maintainers/performance.md)"
LOADER_FROM_MEMORY: Mapping[str, Rate] = MappingProxyType(
    {
        # /dev/shm, 16 readers: each loader's own ceiling when storage is not the limit
        "safetensors": Rate(
            4.00, f"{_BENCH}: safe_open + .to('cuda') from /dev/shm", measured=True
        ),
        "fastsafetensors": Rate(
            24.72, f"{_BENCH}: fastsafetensors, 16 threads, from /dev/shm", measured=True
        ),
        "runai_streamer": Rate(
            4.04,
            f"{_BENCH}: Run:ai model streamer 0.17.1, concurrency 16, from /dev/shm",
            measured=True,
        ),
    }
)
LOADER_FROM_DISK: Mapping[str, Rate] = MappingProxyType(
    {
        # the same loaders from the virtual disk, page cache dropped: bound by that disk (raw read 1.61-1.81 GB/s)
        "safetensors": Rate(
            1.24, f"{_BENCH}: safe_open from a virtual disk, page cache dropped", measured=True
        ),
        "fastsafetensors": Rate(
            1.23,
            f"{_BENCH}: fastsafetensors, 1 reader, from a virtual disk, page cache dropped",
            measured=True,
        ),
        "runai_streamer": Rate(
            1.56,
            f"{_BENCH}: Run:ai streamer, 1 reader, from a virtual disk, page cache dropped",
            measured=True,
        ),
    }
)
#: The slowest measured load: the floor of every budget (a disk slower than the instance store would show it).
SLOWEST_LOAD = min(LOADER_FROM_DISK.values(), key=lambda r: r.gb_per_second)
#: Pinned host memory to GPU memory on the same machine: no loader places bytes faster on that machine.
PINNED_HOST_TO_DEVICE = Rate(
    55.42, f"{_BENCH}: torch copy_ from pinned memory, 2 GB x 3", measured=True
)

#: The node's check of the S3 copy (charts/vllm_weights_check/runtime/verify_weights.py): hashlib's sha256 measured
#: 1.35 GB/s on one core (an Intel Xeon with the SHA extensions, 64 MiB blocks, ``python3 -c`` with hashlib, this
#: project's development machine: a labelled measurement, the figure of that script's docstring) times the
#: ``--jobs`` processes the init container runs (charts/vllm_weights_check/__init__.py HASH_CPUS, 32). The CPU side
#: only: the instance store's read rate, which may be lower, is in :data:`UNMEASURED`. It is paid on the first start of
#: a copy on a node; a restart whose marker matches hashes nothing (its ``--marker``).
SHA256_ONE_CORE_GB_PER_SECOND = 1.35
HASH_JOBS = 32
SHA256_CHECK = Rate(
    SHA256_ONE_CORE_GB_PER_SECOND * HASH_JOBS,
    f"hashlib sha256 {SHA256_ONE_CORE_GB_PER_SECOND} GB/s on one Xeon core with sha_ni (measured with python3 -c on "
    f"the development machine, charts/vllm_weights_check/runtime/verify_weights.py) x {HASH_JOBS} processes",
    measured=True,
)

#: The vLLM image's pull on a new node: "Standard Docker image pulls of 15-20 GB can take 4-6 minutes per instance" (AWS
#: Machine Learning Blog, "Reducing container cold start times using SOCI index on DLAMI and DLC", as copied at
#: https://wpnews.pro/news/reducing-container-cold-start-times-using-soci-index-on-dlami-and-dlc; the AWS page itself
#: was not read here). A documented duration for an image of that size, not this image's measured pull: the vLLM
#: image's own size is not checked here, and ``llmops phases`` measures its pull on the node (kubelet's Pulled event).
#: The plan takes the upper end as its estimate and the lower end as its limit. The pull runs beside the weights' copy
#: (charts/vllm_image_prepull.py), so the plan counts the longer of the two.
IMAGE_PULL_SECONDS = (240, 360)
IMAGE_PULL_SOURCE = (
    "15-20 GB image pulls take 4-6 minutes per instance (AWS Machine Learning Blog, 'Reducing container cold start "
    "times using SOCI index on DLAMI and DLC')"
)

#: check-weights-s3 (charts/vllm_weights_check/runtime/check_s3_weights.py), the init container before a streamed start
#: (``weight_load: runai_streamer``), reads no weight byte: one GET of the manifest and one listing of the prefix, then a
#: HeadObject of every file, ``PARALLEL`` (16) at once. The files: Kimi-K3's 118 weight files (deployment_config/
#: catalog.py, "118 files, 1.42 TB") and the revision's config and tokenizer files, counted here as 10 more: 128, so 8
#: rounds of HEADs. Each request bounded at 2 s: S3's whitepaper gives "median latencies often in the range of tens of
#: milliseconds" for requests under 512 KB and advises retrying such a GET or PUT "after 2 seconds" ("Best Practices
#: Design Patterns: Optimizing Amazon S3 Performance", Timeouts and Retries for Latency-Sensitive Applications,
#: https://docs.aws.amazon.com/whitepapers/latest/s3-optimizing-performance-best-practices/
#: timeouts-and-retries-for-latency-sensitive-applications.html). A documented bound, not a measurement: the
#: container's Python start (the image is on the node by then) is not in it; ``llmops phases`` measures the whole.
CHECK_S3_REQUEST_BOUND_SECONDS = 2.0
CHECK_S3_ROUNDS = 2 + -(-(118 + 10) // 16)
CHECK_S3_WEIGHTS_SECONDS = CHECK_S3_ROUNDS * CHECK_S3_REQUEST_BOUND_SECONDS
CHECK_S3_WEIGHTS_SOURCE = (
    f"{CHECK_S3_ROUNDS} rounds of S3 requests (the manifest, the listing, 128 HEADs 16 at once) x "
    f"{CHECK_S3_REQUEST_BOUND_SECONDS:g} s, the retry point S3's performance whitepaper gives for small requests "
    "(median: tens of ms)"
)


@dataclass(frozen=True)
class Duration:
    """A duration measured with a script in bench/ on another machine or model than the endpoint's: a labelled proxy
    (GPU, vLLM version, layers), which the plan uses until the endpoint's own start is measured (``--measured``)."""

    seconds: float
    source: str

    def __post_init__(self) -> None:
        if self.seconds <= 0 or not self.source:
            raise ValueError(f"a duration needs a positive value and a source: {self}")

    @property
    def kind(self) -> str:
        return "measured proxy"


#: bench/warmup.py on one NVIDIA H200: process start -> first token of vLLM, less the dummy weights' initialisation
#: (the plan's load row counts the weights). The runs of 4 and 8 layers extrapolated to Kimi-K3's 93 (bench/warmup.py
#: K3_LAYERS gives the source; the phases that run per layer linearly, the rest the mean of the two runs:
#: bench/warmup.py extrapolate; MLA layers stand in for K3's 69 Kimi Delta Attention layers); the arithmetic and each
#: phase are in docs/maintainers/performance.md, the records in bench/data/warmup. A proxy: Kimi-K3 on p6-b300 runs
#: other kernels (Blackwell, TP 8, MXFP4), and the one published B300 account spent far longer in one FlashInfer kernel.
_WARMUP_BENCH = (
    "bench/warmup.py, GPU H200, vLLM 0.25.0, TP 1, DeepSeek-V3-shaped (Kimi K2's config, 64 experts, FP8 blocks), "
    "dummy weights, 4 and 8 layers extrapolated to Kimi-K3's 93, 2026-12-02 (docs/maintainers/performance.md)"
)
WARM_UP_PROXY: Mapping[str, Duration] = MappingProxyType(
    {
        "cold": Duration(523.4, f"{_WARMUP_BENCH}: every cache empty"),
        "restored": Duration(
            86.3,
            f"{_WARMUP_BENCH}: every kept compile cache restored at the directory it was written in",
        ),
    }
)

#: The proxies' label as the plan's rows print it: what they were measured on, so that no row reads as Kimi-K3's own.
WARM_UP_PROXY_LABEL = (
    "measured proxy: H200, vLLM 0.25.0, 4 and 8 layers extrapolated to 93, dummy weights"
)
#: The compile cache's archive a new node downloads before vLLM starts: 45,754,886 bytes after the cold 8-layer run
#: (bench/data/warmup/cold8.summary.json ``cache_root_bytes``; docs/maintainers/warm-up.md: torch.compile 24 MB,
#: Triton 14.5 MB, DeepGEMM 5.1 MB, Inductor 1.2 MB). The proxy's size, not Kimi-K3's: its kernels differ.
COMPILE_CACHE_ARCHIVE_GB = 45754886 / 1e9

#: Figures the plan needs and nothing here documents or measures: printed as such, never replaced by a guess.
UNMEASURED: Mapping[str, str] = MappingProxyType(
    {
        "instance_store_read": "the instance store's read rate on p6-b300 (the EC2 user guide's instance store pages give "
        "no throughput for it; bench/weight_load.py on the node measures it)",
        "hub_download": "the Hugging Face Hub's download rate (Hugging Face documents none)",
    }
)
