"""Does a model fit the GPUs, and how long may it take to start?

Both answers are estimates made before anything is deployed, so that a configuration that can never
serve fails at synthesis instead of an hour into a paid reservation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from deployment_config.catalog import GPU_INSTANCE_TYPES, GpuInstanceType
from deployment_config.errors import ConfigError, Problem
from deployment_config.startup_rates import (
    CHECK_S3_WEIGHTS_SECONDS,
    CRT_CONNECTIONS,
    CRT_TARGET,
    ENA_BANDWIDTH,
    RUNAI_DISTRIBUTED_NODE,
    S3_PER_CONNECTION,
    SLOWEST_LOAD,
    WARM_UP_PROXY,
    Rate,
)

#: The share of GPU memory the sizing lets vLLM take for weights and cache (``--gpu-memory-utilization``). vLLM 0.33.0
#: defaults to 0.92 (vllm/config/cache.py CacheConfig); 0.90 is the conservative figure the sizing keeps, and
#: model.extra_args may not go below it (deployment_config.vllm_args).
GPU_MEMORY_UTILIZATION = 0.90
#: GPU memory that must stay free for the KV cache after the weights are loaded, as a share of all GPU memory.
#: Below this a long-context model serves only a handful of short requests at once.
MIN_KV_CACHE_SHARE = 0.10

#: The Hub path's download rate for the budget (GB/s). Hugging Face documents no rate and none is measured here
#: (startup_rates.UNMEASURED): the Hub path keeps the floor its budget always had, so that a slow Hub download is
#: not killed by a budget made for S3. A floor for the budget, not a plan: bench/timeline.py prints it as such.
HUB_BUDGET_FLOOR = Rate(
    0.4,
    "no Hugging Face figure: the Hub path's budget floor (sizing.HUB_BUDGET_FLOOR), kept "
    "from the previous budget so that the Hub path's budget does not shrink",
    measured=False,
    allowance=True,
)
#: Compilation, JIT kernels, CUDA graph capture and warm-up after the weights are in GPU memory, as the startup budget
#: counts them. The budget is a timeout: one too short kills a real start after its whole load, and a restart repeats
#: it. So the measured proxy (startup_rates.WARM_UP_PROXY, which the plan's estimates use) does not replace this
#: allowance; the budget takes the larger of the two, the proxy with a margin (:func:`warm_up_budget_seconds`):
#: - the proxy is one H200 with dummy weights, 64 experts and TP 1, extrapolated from 4 and 8 layers; Kimi-K3 on
#:   p6-b300 runs other kernels (Blackwell, TP 8, MXFP4) on 896 experts;
#: - the one published account of Kimi-K3 on a p6-b300 spent about 30 minutes of its first boot in ptxas for one
#:   FlashInfer MoE kernel and about 5 minutes capturing 83 CUDA-graph sizes (aws-samples/
#:   sample-agentic-coding-harness-benchmarks, .claude/skills/vllm-setup/b300-cuda-fixes.md, vLLM 0.28): longer
#:   than the proxy and than this allowance. The recipe's own VLLM_ENGINE_READY_TIMEOUT_S (3,600 s,
#:   EnvironmentConfig.pod_startup_budget's floor) covers that first boot after the slowest measured load.
#: Kept at 15 minutes, the figure the budget always had, so that no budget shrinks on a proxy.
WARMUP_ALLOWANCE_SECONDS = 15 * 60
#: The proxy's margin in the budget: a judgement, not a source (the proxy is another GPU and model, above). With the
#: cold proxy of 523.4 s it gives 785 s, below the allowance: the budget is unchanged until a new measurement of the
#: proxy exceeds 600 s.
WARM_UP_PROXY_MARGIN = 1.5
#: Margin on top of the estimate.
STARTUP_SAFETY_FACTOR = 1.2


@dataclass(frozen=True)
class Fit:
    """The memory arithmetic of one model on one instance type, in GB."""

    weights_gb: int
    total_gb: int
    usable_gb: float
    kv_reserve_gb: float

    @property
    def fits(self) -> bool:
        return self.weights_gb + self.kv_reserve_gb <= self.usable_gb

    @property
    def kv_cache_gb(self) -> float:
        return self.usable_gb - self.weights_gb


def fit_of(
    weights_gb: int, instance_type: GpuInstanceType, utilization: float = GPU_MEMORY_UTILIZATION
) -> Fit:
    total = instance_type.total_gpu_memory_gb
    return Fit(
        weights_gb=weights_gb,
        total_gb=total,
        usable_gb=total * utilization,
        kv_reserve_gb=total * MIN_KV_CACHE_SHARE,
    )


#: Bytes of one KV-cache value per ``--kv-cache-dtype``. vLLM's option: "Data type for kv cache storage. If "auto", will
#: use model data type. ... CUDA 11.8+ supports fp8 (=fp8_e4m3) and fp8_e5m2" (vLLM 0.33.0, commit 4ba787ec9,
#: vllm/config/cache.py ``CacheConfig.cache_dtype``, read from the 0.33.0 wheel; the names it accepts are
#: deployment_config/vllm_args/values.py's). fp8 values are
#: one byte; ``auto`` is counted as two (bf16/fp16), an assumption: the checkpoint's data type was not read. So fp8
#: halves the bytes of every cached token and the same GB hold twice the tokens.
KV_CACHE_BYTES = {"auto": 2, "fp8": 1, "fp8_e4m3": 1, "fp8_e5m2": 1}


@dataclass(frozen=True)
class MemoryProfile:
    """What vLLM is told about memory: the share of GPU memory per layout (single node, several nodes), the context
    length and the KV-cache data type. The announced arguments set none of them: the sizing's own 0.90 then. Each
    layout's share has its own source (the recipe has one profile per strategy), named by :meth:`name`."""

    single_node_utilization: float = GPU_MEMORY_UTILIZATION
    multi_node_utilization: float = GPU_MEMORY_UTILIZATION
    max_model_len: int | None = None
    kv_cache_dtype: str = "auto"
    single_node_name: str = "announced profile"
    multi_node_name: str = "announced profile"

    def utilization(self, nodes: int) -> float:
        return self.single_node_utilization if nodes == 1 else self.multi_node_utilization

    def name(self, nodes: int) -> str:
        """Where :meth:`utilization` of ``nodes`` comes from."""
        return self.single_node_name if nodes == 1 else self.multi_node_name

    def describe(self, fit: Fit, nodes: int) -> str:
        """The sizing message: where the GPU memory goes under this profile."""
        per_value = KV_CACHE_BYTES.get(self.kv_cache_dtype, 2)
        kv = (
            f"{fit.kv_cache_gb:.0f} GB of KV cache in {self.kv_cache_dtype} ({per_value} byte"
            f"{'s' if per_value > 1 else ''} per value"
            + (", half of bf16's: twice the tokens fit" if per_value == 1 else "")
            + ")"
        )
        context = f", context up to {self.max_model_len} tokens" if self.max_model_len else ""
        return (
            f"{self.name(nodes)}: vLLM takes {self.utilization(nodes):.0%} of {fit.total_gb} GB = "
            f"{fit.usable_gb:.0f} GB: {fit.weights_gb} GB of weights, {kv}{context}"
        )


#: The most nodes one model instance is spread over. Each further pipeline stage adds a hop over EFA to every token's
#: forward pass and one more node whose failure restarts the whole group; a model that needs more than this is better
#: served from larger GPUs or a smaller quantization.
MAX_LAYOUT_NODES = 4


@dataclass(frozen=True)
class Layout:
    """How one model instance is spread over GPU nodes.

    Tensor parallel within a node (NVLink), pipeline parallel across nodes (EFA): the layout vLLM's distributed
    serving guide recommends for a model that does not fit one node ("the tensor parallel size is the number of GPUs
    in each node, and the pipeline parallel size is the number of nodes you want to use"; vLLM documentation,
    "Distributed Inference and Serving", How to decide the distributed inference strategy,
    https://docs.vllm.ai/en/v0.8.3/serving/distributed_serving.html), because a pipeline stage boundary sends one
    activation tensor per step between nodes, while tensor parallelism across nodes would all-reduce over EFA in every
    layer. vLLM 0.33.0 requires ``--nnodes`` to divide TP x PP evenly (vllm/engine/arg_utils.py, "must evenly divide
    the total world size"): here each node holds exactly one stage.

    Hopper types are offered too: vLLM 0.33.0 serves MXFP4 MoE weights on SM90 (Mxfp4Config.get_min_capability is 80,
    vllm/model_executor/layers/quantization/mxfp4.py), through the weight-only Marlin or Humming kernels
    (fused_moe/oracle/mxfp4.py ``_get_priority_backends``: "SM100+ prefers DeepGEMM FP4 / TRTLLM MXFP8; SM90 falls
    through to Humming or Marlin"; experts/marlin_moe.py needs compute capability 7.5), while the FlashInfer TRT-LLM
    MXFP4 kernels run on the SM100 family only (experts/trtllm_mxfp4_moe.py ``is_device_capability_family(100)``):
    on P5/P5e/P5en the model serves, more slowly than on Blackwell.

    :param nodes: nodes of one instance (1: the single-node Deployment; more: a LeaderWorkerSet group of that size).
    :param tensor_parallel_size: GPUs per node the model is sharded over (``--tensor-parallel-size``).
    :param pipeline_parallel_size: pipeline stages, one per node (``--pipeline-parallel-size``).
    """

    nodes: int
    tensor_parallel_size: int
    pipeline_parallel_size: int

    @property
    def multi_node(self) -> bool:
        return self.nodes > 1

    def describe(self, instance_type: GpuInstanceType, type_prefix: str = "") -> str:
        return (
            f"{self.nodes} x {type_prefix}{instance_type.name} as one instance: tensor parallel "
            f"{self.tensor_parallel_size} within each node, pipeline parallel {self.pipeline_parallel_size} across "
            "the nodes over EFA"
        )


def fit_over(
    weights_gb: int,
    instance_type: GpuInstanceType,
    nodes: int,
    memory: MemoryProfile = MemoryProfile(),
) -> Fit:
    """The memory arithmetic of one model spread over ``nodes`` nodes of ``instance_type``: the same shares of the GPU
    memory as on one node (every GPU holds a shard of the weights and its part of the KV cache)."""
    total = instance_type.total_gpu_memory_gb * nodes
    return Fit(
        weights_gb=weights_gb,
        total_gb=total,
        usable_gb=total * memory.utilization(nodes),
        kv_reserve_gb=total * MIN_KV_CACHE_SHARE,
    )


def layout_for(
    weights_gb: int,
    instance_type: GpuInstanceType,
    max_nodes: int = MAX_LAYOUT_NODES,
    memory: MemoryProfile = MemoryProfile(),
) -> Layout | None:
    """The fewest nodes of ``instance_type`` one instance of the model fits on, or None beyond ``max_nodes``."""
    for nodes in range(1, max_nodes + 1):
        if fit_over(weights_gb, instance_type, nodes, memory).fits:
            return Layout(
                nodes=nodes,
                tensor_parallel_size=instance_type.gpu_count,
                pipeline_parallel_size=nodes,
            )
    return None


def tensor_parallel_mismatch(
    tensor_parallel_size: int, instance_type: GpuInstanceType
) -> Problem | None:
    """Why ``tensor_parallel_size`` cannot serve on ``instance_type``: a replica takes all the GPUs of a node."""
    if tensor_parallel_size == instance_type.gpu_count:
        return None
    return Problem(
        f"{tensor_parallel_size} does not match the {instance_type.gpu_count} GPUs of one {instance_type.name}; "
        "one replica is served from one node",
        f"set model.tensor_parallel_size to {instance_type.gpu_count}, or pick an instance type with "
        f"{tensor_parallel_size} GPUs",
    )


def check_model_fits(
    *,
    model_id: str,
    weights_gb: int,
    instance_type: GpuInstanceType,
    tensor_parallel_size: int,
    field: str = "capacity.instance_type",
    type_prefix: str = "",
    node_count: int | None = None,
    memory: MemoryProfile = MemoryProfile(),
) -> Fit:
    """Raise :class:`ConfigError` unless the weights fit one instance with room for the KV cache.

    :param field: the configuration field that chose the instance type, for the message.
    :param type_prefix: how that field spells instance types (``ml.`` for SageMaker).
    :param node_count: the GPU nodes of the environment when a model instance may span several of them (the EKS path,
        :func:`layout_for`): a model that fits no single node is then accepted when ``node_count`` is a multiple of the
        nodes its layout needs, and the message proposes that layout otherwise. None: one node per instance (HyperPod).
    """
    mismatch = tensor_parallel_mismatch(tensor_parallel_size, instance_type)
    if mismatch is not None:
        raise ConfigError("model.tensor_parallel_size", mismatch.problem, mismatch.fix)
    fit = fit_of(weights_gb, instance_type, memory.utilization(1))
    if fit.fits:
        return fit
    layout = (
        layout_for(weights_gb, instance_type, memory=memory) if node_count is not None else None
    )
    if layout is not None and node_count % layout.nodes == 0:
        return fit_over(weights_gb, instance_type, layout.nodes, memory)
    candidates = [t for t in GPU_INSTANCE_TYPES.values() if fit_of(weights_gb, t).fits]
    if layout is not None:
        fix = (
            f"set capacity.instance_count to {layout.nodes} (or a multiple of it, one model instance per "
            f"{layout.nodes} nodes; it is {node_count}) to serve it on {layout.describe(instance_type, type_prefix)}"
        )
        if candidates:
            fix += ", or use an instance type it fits on alone: " + ", ".join(
                f"{type_prefix}{t.name} ({t.gpu_count} x {t.gpu_memory_gb} GB)" for t in candidates
            )
    elif candidates:
        fix = "use an instance type it fits on: " + ", ".join(
            f"{type_prefix}{t.name} ({t.gpu_count} x {t.gpu_memory_gb} GB)" for t in candidates
        )
    else:
        fix = (
            "no single instance type in the table fits it: serve a smaller quantization of the model "
            "(model.weight_size_gb) or a smaller model"
        )
    raise ConfigError(
        field,
        f"{model_id} does not fit {type_prefix}{instance_type.name}: it needs {weights_gb} GB for its weights plus "
        f"{fit.kv_reserve_gb:.0f} GB for the KV cache, but {instance_type.gpu_count} x {instance_type.gpu_memory_gb} GB "
        f"= {fit.total_gb} GB gives vLLM only {fit.usable_gb:.0f} GB at {memory.utilization(1):.0%} utilization "
        f"on one node ({memory.name(1)})",
        fix,
    )


#: vLLM's environment variable for how long its API server waits for the engine to report ready before it raises
#: ``TimeoutError`` and exits (vLLM 0.33.0: vllm/envs.py, default 600; read in vllm/v1/engine/core_client.py,
#: ``MPClient.__init__``). The engine downloads and loads the weights before it reports ready.
ENGINE_READY_TIMEOUT_ENV = "VLLM_ENGINE_READY_TIMEOUT_S"
#: vLLM's own default for that timeout: 1.4 TB cannot load in it.
VLLM_DEFAULT_ENGINE_READY_TIMEOUT_S = 600
#: The startup probe outlasts vLLM's engine timeout by this much: a load that takes too long then ends with vLLM's
#: own error in the log, not with the kubelet killing a pod that gives no reason.
PROBE_MARGIN_SECONDS = 5 * 60
#: The HyperPod Inference Operator's maxDeployTimeInSeconds allows this much after the startup probe's budget, for
#: scheduling, image pull and load balancer set-up (charts/inference_endpoint_spec.py).
HYPERPOD_DEPLOY_MARGIN_SECONDS = 30 * 60
#: The memory-backed /dev/shm of the vLLM pod on EKS (charts/vllm_deployment.py): NCCL and vLLM's worker processes
#: exchange tensors through it at TP 8, and a container's default is 64 MiB. The HyperPod worker cannot have one
#: (the operator's CRD has no worker volumeMounts: ops_cli/preflight_endpoint.py, docs/known-limits.md).
SHM_SIZE_GIB = 50


@dataclass(frozen=True)
class StartupBudget:
    """How long one vLLM server may take to start, derived once from the weight size for both paths.

    :param engine_ready_timeout_seconds: what vLLM is told to wait for its engine (``VLLM_ENGINE_READY_TIMEOUT_S``):
        download (first start on a node) + load + warm-up, with a safety margin, in whole minutes.
    """

    engine_ready_timeout_seconds: int

    @property
    def vllm_environment(self) -> dict[str, str]:
        """What vLLM is told in its environment: its default of 600 s ends the server long before 1.4 TB is loaded."""
        return {ENGINE_READY_TIMEOUT_ENV: str(self.engine_ready_timeout_seconds)}

    @property
    def probe_seconds(self) -> int:
        """How long the startup probe waits for the first healthy ``/health``: longer than vLLM itself waits."""
        return self.engine_ready_timeout_seconds + PROBE_MARGIN_SECONDS


def s3_download_rate(instance_type: str | None = None) -> Rate:
    """The rate one node copies the S3 mirror at: the lowest of the CRT client's goal, the connections it opens times
    S3's per-connection figure, and the instance's ENA bandwidth where it is documented (startup_rates)."""
    per_connections = Rate(
        CRT_CONNECTIONS * S3_PER_CONNECTION.gb_per_second,
        f"{CRT_CONNECTIONS} connections x {S3_PER_CONNECTION.source}",
        measured=False,
    )
    candidates = [CRT_TARGET, per_connections]
    if instance_type in ENA_BANDWIDTH:
        candidates.append(ENA_BANDWIDTH[instance_type])
    return min(candidates, key=lambda r: r.gb_per_second)


def warm_up_budget_seconds() -> float:
    """The budget's warm-up: the allowance, or the cold proxy with its margin where that is longer (the first start of a
    configuration compiles everything: a budget must let it finish)."""
    return max(WARMUP_ALLOWANCE_SECONDS, WARM_UP_PROXY["cold"].seconds * WARM_UP_PROXY_MARGIN)


def startup_estimate_seconds(
    weights_gb: int,
    *,
    from_hub: bool = True,
    instance_type: str | None = None,
    streamed: bool = False,
) -> float:
    """Download + load + warm-up of one vLLM start, at the slowest measured load rate (startup_rates.SLOWEST_LOAD)
    and the budget's warm-up (:func:`warm_up_budget_seconds`). ``from_hub``: the weights come from the Hugging Face Hub
    (the slowest supported path, at :data:`HUB_BUDGET_FLOOR`), else from the environment's S3 mirror
    (:func:`s3_download_rate`). ``streamed`` (``model.weight_load: runai_streamer``, S3 weights): no copy and no load
    from the disk, but check-weights-s3's bound (startup_rates.CHECK_S3_WEIGHTS_SECONDS) and the Run:ai stream at the
    published 8-rank node rate (startup_rates.RUNAI_DISTRIBUTED_NODE); on every start, restarts included, since
    nothing is kept on the node."""
    if streamed and not from_hub:
        weights = CHECK_S3_WEIGHTS_SECONDS + RUNAI_DISTRIBUTED_NODE.seconds_for(weights_gb)
    else:
        download = HUB_BUDGET_FLOOR if from_hub else s3_download_rate(instance_type)
        weights = download.seconds_for(weights_gb) + SLOWEST_LOAD.seconds_for(weights_gb)
    return weights + warm_up_budget_seconds()


def startup_budget(
    weights_gb: int,
    *,
    from_hub: bool = True,
    instance_type: str | None = None,
    streamed: bool = False,
) -> StartupBudget:
    """The startup budget of a model with ``weights_gb`` of weights: the estimate x :data:`STARTUP_SAFETY_FACTOR`, in
    whole minutes, never below vLLM's own default. The default is the Hub path, the slowest supported one: a caller that
    does not say where the weights come from gets the longest budget. For 1,420 GB from the Hub: 113 minutes (6,780 s);
    from S3 onto a p6-b300: 42 minutes (2,520 s); streamed from S3 (``streamed``): 22 minutes (bench/timeline.py prints
    every phase)."""
    estimate = startup_estimate_seconds(
        weights_gb, from_hub=from_hub, instance_type=instance_type, streamed=streamed
    )
    engine = int(math.ceil(estimate * STARTUP_SAFETY_FACTOR / 60.0)) * 60
    return StartupBudget(
        engine_ready_timeout_seconds=max(engine, VLLM_DEFAULT_ENGINE_READY_TIMEOUT_S)
    )


def startup_budget_seconds(weights_gb: int) -> int:
    """How long a vLLM pod may take from start to its first healthy answer (the startup probe's budget)."""
    return startup_budget(weights_gb).probe_seconds
