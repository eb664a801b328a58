"""The options of ``vllm serve`` that :mod:`deployment_config.vllm_args` needs to know: the ones it judges, with the
rule that applies to each (``value``: the value vLLM accepts, :mod:`.values`), and the arity of every other option
that does not take exactly one value. Every option the vendored recipe gives is here.

Sources, read from the vLLM 0.33.0 wheel on PyPI (vllm/_version.py: ``__commit_id__ = 'g4ba787ec9'``, so
vllm-project/vllm commit 4ba787ec9) unless a line says otherwise; paths are inside that repository. argparse
behaviour: CPython 3.12 Lib/argparse.py (``_parse_optional``, ``_get_option_tuples``, ``_negative_number_matcher``).
The image of a preset may carry another vLLM version: an option missing here is then an unknown option, which
:mod:`deployment_config.vllm_args.parsing` assumes to take one value.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

#: The vLLM release and commit the option table and the parsing rules were read from.
VLLM_SOURCE = "vllm-project/vllm 0.33.0, commit 4ba787ec9"
#: The port the Service and the probes use (charts/serving_spec.py VLLM_PORT); FrontendArgs.port defaults to it.
SERVING_PORT = 8000

_ENGINE = "vllm/engine/arg_utils.py EngineArgs.add_cli_args"
_FRONTEND = "vllm/entrypoints/common/cli_args.py FrontendArgs"
_SERVE = "vllm/entrypoints/common/cli_args.py make_arg_parser"
_ASYNC = "vllm/engine/arg_utils.py AsyncEngineArgs.add_cli_args"

Arity = Literal["flag", "one", "optional", "many", "append"]


@dataclass(frozen=True)
class VllmOption:
    """One option of ``vllm serve``.

    :param names: the long name first, then its aliases, as vLLM registers them.
    :param arity: ``flag`` (no value: ``store_true``, ``BooleanOptionalAction``, ``help``), ``one`` (one value),
        ``optional`` (``nargs="?"``: a value if the next item is one), ``many`` (``nargs="+"``: every following
        value), ``append`` (one value, repeatable: each occurrence adds to a list).
    :param negatable: registered with ``argparse.BooleanOptionalAction``, which vLLM replaces by its
        ``EnableDisableAction``: ``--no-X`` also exists, and ``--enable-X`` / ``--disable-X`` are each other's
        negation (vllm/utils/argparse_utils.py ``EnableDisableAction``; ``FlexibleArgumentParser.__init__`` registers
        it for ``BooleanOptionalAction``).
    :param source: where vLLM adds it.
    """

    names: tuple[str, ...]
    arity: Arity
    negatable: bool
    source: str

    @property
    def name(self) -> str:
        return self.names[0]

    @property
    def spellings(self) -> tuple[str, ...]:
        """Every option string argparse registers for it."""
        if not self.negatable:
            return self.names
        extra: list[str] = []
        for name in self.names:
            if not name.startswith("--"):
                continue
            extra.append("--no-" + name[2:])
            for prefix, inverse in (("--enable-", "--disable-"), ("--disable-", "--enable-")):
                if name.startswith(prefix):
                    extra.append(inverse + name.removeprefix(prefix))
        return self.names + tuple(extra)


def _option(spelling: str, arity: Arity, source: str, negatable: bool | None = None) -> VllmOption:
    """``spelling``: the long name and its aliases, separated by spaces. Flags are negatable unless stated."""
    return VllmOption(
        tuple(spelling.split()), arity, arity == "flag" if negatable is None else negatable, source
    )


#: What makes an option judged here, with the option table below: each entry names the rule that applies.
Rule = Literal[
    "model",
    "served_name",
    "tensor_parallel",
    "gpus",
    "listen",
    "download_dir",
    "api_key",
    "hf_token",
    "config_file",
    "help",
    "gpu_memory",
    "kv_cache_bytes",
    "api_servers",
    "drain",
    "revision",
    "value",
]


def _at(line: int, field: str) -> str:
    """Where EngineArgs.add_cli_args adds an option, and the config field its argparse type comes from."""
    return f"vllm/engine/arg_utils.py:{line} EngineArgs.add_cli_args ({field})"


_REASONING = "StructuredOutputsConfig.reasoning_parser, type parse_reasoning_parser"
_BATCHED = "SchedulerConfig.max_num_batched_tokens"
# FrontendArgs.add_cli_args adds every field of the dataclass; _customize_cli_kwargs shows the built-in parsers.
_TOOL_CALL_PARSER = "vllm/entrypoints/common/cli_args.py:129 FrontendArgs.tool_call_parser"

#: The options the package judges, with their aliases and arity (vLLM 0.33.0).
JUDGED_OPTIONS: tuple[tuple[VllmOption, Rule], ...] = (
    # The project passes --model first; FlexibleArgumentParser.parse_args moves the first "--model"/"--model=" item to
    # the model_tag position, and a later --model is an ordinary option whose value serve.py then overrides with
    # model_tag (vllm/entrypoints/cli/serve.py ServeSubcommand.cmd).
    (_option("--model", "one", _ENGINE), "model"),
    # served_model_name: str | list[str] | None -> nargs="+" (_compute_kwargs: list -> collection_to_kwargs).
    (_option("--served-model-name", "many", _ENGINE), "served_name"),
    # vllm/engine/arg_utils.py add_cli_args (model group): --revision and --code-revision, from ModelConfig.revision /
    # code_revision ("branch name, a tag name, or a commit id"). The project passes both from model.hugging_face_revision.
    (_option("--revision", "one", _ENGINE), "revision"),
    (_option("--code-revision", "one", _ENGINE), "revision"),
    (_option("--tensor-parallel-size -tp", "one", _ENGINE), "tensor_parallel"),
    # vllm/config/parallel.py ParallelConfig.__post_init__: world_size = pipeline_parallel_size * tensor_parallel_size
    # * prefill_context_parallel_size. Allowed: decode context parallelism ("DCP does not expand the process world
    # size. Without PCP, DCP reuses TP ranks", ParallelConfig.decode_context_parallel_size) and expert parallelism
    # ("Use expert parallelism instead of tensor parallelism for MoE layers", ParallelConfig.enable_expert_parallel).
    (_option("--pipeline-parallel-size -pp", "one", _ENGINE), "gpus"),
    (_option("--prefill-context-parallel-size -pcp", "one", _ENGINE), "gpus"),
    # Data parallelism runs several engines, each on its own TP x PP GPUs; the rest of the family sets its topology and
    # load-balancing mode (serve.py picks external, hybrid or multi-port modes from them).
    (_option("--data-parallel-size -dp", "one", _ENGINE), "gpus"),
    (_option("--data-parallel-rank -dpn", "one", _ENGINE), "gpus"),
    (_option("--data-parallel-start-rank -dpr", "one", _ENGINE), "gpus"),
    (_option("--data-parallel-size-local -dpl", "one", _ENGINE), "gpus"),
    (_option("--data-parallel-address -dpa", "one", _ENGINE), "gpus"),
    (_option("--data-parallel-rpc-port -dpp", "one", _ENGINE), "gpus"),
    (_option("--data-parallel-backend -dpb", "one", _ENGINE), "gpus"),
    (_option("--data-parallel-hybrid-lb -dph", "flag", _ENGINE), "gpus"),
    (_option("--data-parallel-external-lb -dpe", "flag", _ENGINE), "gpus"),
    (
        _option("--data-parallel-multi-port-external-lb -dpm", "flag", _ENGINE, negatable=False),
        "gpus",
    ),  # store_true
    # Elastic expert parallelism scales the data-parallel size at run time (ParallelConfig.elastic_ep_max_dp_size).
    (_option("--enable-elastic-ep", "flag", _ENGINE), "gpus"),
    (_option("--elastic-ep-max-dp-size", "one", _ENGINE), "gpus"),
    # Multi-node serving: one replica over several nodes.
    (_option("--nnodes -n", "one", _ENGINE), "gpus"),
    (_option("--node-rank -r", "one", _ENGINE), "gpus"),
    (_option("--master-addr", "one", _ENGINE), "gpus"),
    (_option("--master-port", "one", _ENGINE), "gpus"),
    # "Comma-separated physical GPU device IDs or UUIDs to use": Kubernetes decides which GPUs the pod gets.
    (_option("--device-ids", "one", _ENGINE), "gpus"),
    # Where and how the API server listens (FrontendArgs: host, port=8000, grpc_port, data_parallel_supervisor_port,
    # uds "If set, host and port arguments are ignored", ssl_keyfile/ssl_certfile turn on TLS); make_arg_parser:
    # --headless ("no API servers are started", serve.py), --grpc ("Launch the Python gRPC ... server on --port
    # instead of the HTTP OpenAI-compatible server").
    (_option("--host", "one", _FRONTEND), "listen"),
    (_option("--port", "one", _FRONTEND), "listen"),
    (_option("--uds", "one", _FRONTEND), "listen"),
    (_option("--grpc-port", "one", _FRONTEND), "listen"),
    (_option("--data-parallel-supervisor-port", "one", _FRONTEND), "listen"),
    (_option("--ssl-keyfile", "one", _FRONTEND), "listen"),
    (_option("--ssl-certfile", "one", _FRONTEND), "listen"),
    (_option("--headless", "flag", _SERVE, negatable=False), "listen"),
    (_option("--grpc", "flag", _SERVE, negatable=False), "listen"),
    # serve.py: api_server_count < 1 runs run_headless(): no API server at all. 1 or more is fine.
    (_option("--api-server-count -asc", "one", _SERVE), "api_servers"),
    # EngineArgs.shutdown_timeout: "Shutdown timeout in seconds. 0 = abort, >0 = wait." (vllm/engine/arg_utils.py
    # add_cli_args; vllm/v1/engine/core.py _handle_shutdown drains in-flight requests for that long on SIGTERM).
    (_option("--shutdown-timeout", "one", _ENGINE), "drain"),
    # LoadConfig.download_dir: "Directory to download and load the weights".
    (_option("--download-dir", "one", _ENGINE), "download_dir"),
    # FrontendArgs.api_key: list[str] | None -> nargs="+".
    (_option("--api-key", "many", _FRONTEND), "api_key"),
    # ModelConfig.hf_token: bool | str | None -> nargs="?", const=True (_compute_kwargs): bare, it means "use the
    # token of the environment or the stored login"; with a value, the value is the token.
    (_option("--hf-token", "optional", _ENGINE, negatable=False), "hf_token"),
    # make_arg_parser: --config "Read CLI options from a config file" (FlexibleArgumentParser._pull_args_from_config).
    (_option("--config", "one", _SERVE), "config_file"),
    # argparse's own help action (exits after printing).
    (_option("--help -h", "flag", "argparse add_help", negatable=False), "help"),
    # vllm/config/cache.py CacheConfig: gpu_memory_utilization: float = Field(default=0.92, gt=0, le=1); the CLI also
    # registers the alias --device-memory-utilization (dest="gpu_memory_utilization").
    (_option("--gpu-memory-utilization --device-memory-utilization", "one", _ENGINE), "gpu_memory"),
    # CacheConfig.kv_cache_memory_bytes: "(when not-None) ignores gpu_memory_utilization".
    (_option("--kv-cache-memory-bytes", "one", _ENGINE), "kv_cache_bytes"),
    # Options whose value vLLM restricts: a whole number, or a name it declares or registers. What each accepts, and
    # where vLLM checks it, is in values.py VALUE_RULES; here, where add_cli_args adds them (the line at the commit)
    # and the config field their type comes from (_compute_kwargs). None takes a short alias; each takes one value.
    (_option("--max-model-len", "one", _at(991, "ModelConfig.max_model_len")), "value"),
    (_option("--load-format", "one", _at(1085, "LoadConfig.load_format")), "value"),
    (_option("--attention-backend", "one", _at(1114, "AttentionConfig.backend")), "value"),
    (_option("--reasoning-parser", "one", _at(1147, _REASONING)), "value"),
    (_option("--dcp-comm-backend", "one", _at(1217, "ParallelConfig.dcp_comm_backend")), "value"),
    (_option("--kv-cache-dtype", "one", _at(1397, "CacheConfig.cache_dtype")), "value"),
    (_option("--max-num-batched-tokens", "one", _at(1740, _BATCHED)), "value"),
    (_option("--max-num-seqs", "one", _at(1754, "SchedulerConfig.max_num_seqs")), "value"),
    (_option("--moe-backend", "one", _at(1845, "KernelConfig.moe_backend")), "value"),
    (_option("--tool-call-parser", "one", _TOOL_CALL_PARSER), "value"),
)

#: vLLM 0.33.0's other flags: options that take no value. All are BooleanOptionalAction (so also ``--no-X``, and
#: ``--disable-X`` for ``--enable-X``) except the store_true ones in :data:`_STORE_TRUE_FLAGS`. Derived from
#: EngineArgs.add_cli_args, AsyncEngineArgs.add_cli_args, make_arg_parser and FrontendArgs: explicit
#: ``action="store_true"`` / ``argparse.BooleanOptionalAction``, or a config field typed ``bool`` (``bool | None``),
#: which vllm/engine/arg_utils.py ``_compute_kwargs`` turns into ``argparse.BooleanOptionalAction``.
_FLAGS = """
--aggregate-engine-logging --allow-credentials --allow-deprecated-quantization --async-scheduling
--cohere-is-reasoning-model --cudagraph-metrics --dcp-q-replicate --disable-cascade-attn --disable-chunked-mm-input
--disable-custom-all-reduce --disable-fastapi-docs --disable-hybrid-kv-cache-manager --disable-log-stats
--disable-nccl-for-dp-synchronization --disable-sliding-window --disable-uvicorn-access-log --enable-auto-tool-choice
--enable-batch-sharded-sampling --enable-chunked-prefill --enable-cumem-allocator --enable-dbo --enable-ep-weight-filter
--enable-eplb --enable-fault-tolerance --enable-flash-late-interaction --enable-flashinfer-autotune
--enable-force-include-usage --enable-hc-sp --enable-layerwise-nvtx-tracing --enable-log-deltas --enable-log-outputs
--enable-log-requests --enable-logging-iteration-details --enable-lora --enable-mamba-cache-stochastic-rounding
--enable-mamba-shared-prefix-checkpoint --enable-mfu-metrics --enable-mixed-moe-lora-format --enable-mm-embeds
--enable-moe-shared-loras --enable-nccl-comm-suspend --enable-offline-docs --enable-per-request-metrics
--enable-prefix-caching --enable-prompt-embeds --enable-prompt-tokens-details --enable-request-id-headers
--enable-return-routed-experts --enable-scale-out --enable-server-load-tracking --enable-shm-tensor-arena
--enable-sleep-mode --enable-ssl-refresh --enable-tokenizer-info-endpoint --enable-tower-connector-lora
--enable-trace-replay --enforce-eager --exclude-tools-when-tool-choice-none --fail-on-environ-validation
--fully-sharded-loras --interleave-mm-strings --jit-monitor-verbose --kv-cache-metrics --kv-sharing-fast-prefill
--language-model-only --log-error-stack --long-prefill-token-threshold-adaptive --mm-device-do-normalize
--mm-encoder-only --monokernel --numa-bind --ray-workers-use-nsight --return-sampling-mask --return-tokens-as-token-ids
--scheduler-reserve-full-isl --skip-mm-profiling --skip-tokenizer-init --sleep-mode-offload-cudagraph
--specialize-active-lora --swa-bounded-replay --tokens-only --trust-remote-code --trust-request-chat-template
--trust-request-mm-kwargs --use-fp64-gumbel --use-replayssm --use-tqdm-on-load
""".split()
#: ``action="store_true"``: no ``--no-`` form (EngineArgs.add_cli_args "Other arguments").
_STORE_TRUE_FLAGS = frozenset({"--aggregate-engine-logging", "--disable-log-stats"})
#: ``nargs="+"``: a config field typed list/set/tuple (``collection_to_kwargs``); FrontendArgs._customize_cli_kwargs
#: removes it again from allowed_origins/methods/headers and disable_access_log_for_endpoints (one JSON value each).
_MANY = """
--allowed-media-domains --collect-detailed-traces --cpu-offload-params --cudagraph-capture-sizes --ignore-patterns
--kv-cache-dtype-skip-layers --logits-processors --lora-modules --lora-target-modules --numa-bind-cpus --numa-bind-nodes
--offload-params --sleep-preserve-parameter-names
""".split()
#: ``action="append"``: repeatable (FrontendArgs._customize_cli_kwargs: middleware).
_APPEND = ("--middleware",)
#: One-value options with a short alias (EngineArgs.add_cli_args), so that the short spellings resolve.
_ALIASED = (
    "--quantization -q",
    "--decode-context-parallel-size -dcp",
    "--speculative-config -sc",
    "--diffusion-config -dc",
    "--compilation-config -cc",
    "--attention-config -ac",
)

OPTIONS: tuple[VllmOption, ...] = (
    *(option for option, _ in JUDGED_OPTIONS),
    _option("--enable-expert-parallel -ep", "flag", _ENGINE),
    *(
        _option(
            name,
            "flag",
            _ASYNC if name == "--enable-log-requests" else _ENGINE,
            negatable=name not in _STORE_TRUE_FLAGS,
        )
        for name in _FLAGS
    ),
    *(_option(name, "many", _ENGINE) for name in _MANY),
    *(_option(name, "append", _FRONTEND) for name in _APPEND),
    *(_option(names, "one", _ENGINE) for names in _ALIASED),
    # FlexibleArgumentParser turns -O3 / -O=3 / "-O 3" into --optimization-level.
    _option("--optimization-level", "one", _ENGINE),
)
_RULES: Mapping[str, Rule] = {option.name: rule for option, rule in JUDGED_OPTIONS}
_BY_SPELLING: Mapping[str, VllmOption] = {
    spelling: option for option in OPTIONS for spelling in option.spellings
}
_SHORT_SPELLINGS = tuple(s for s in _BY_SPELLING if not s.startswith("--"))
#: One-letter options, which argparse also accepts glued to their value (``-n4``): -q, -n, -r and -h.
_ONE_LETTER = frozenset(s for s in _SHORT_SPELLINGS if len(s) == 2)
_JUDGED_SPELLINGS = frozenset(s for s in _BY_SPELLING if _BY_SPELLING[s].name in _RULES)
_JUDGED_LONGEST_FIRST = tuple(sorted(_JUDGED_SPELLINGS, key=len, reverse=True))
