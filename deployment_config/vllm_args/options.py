"""The options of ``vllm serve`` (vLLM 0.33.0): every option string, arity and value type comes from
``vllm_serve_options.json``, generated from the wheel's own parser (:mod:`.serve_options`, ``generate.py``); this
module adds the rule that judges each option the project cares about (``value``: a value vLLM refuses at start-up,
:mod:`.values`), and where vLLM adds it. An option the table does not have is one vLLM 0.33.0 refuses.

Sources, read from the vLLM 0.33.0 wheel on PyPI (vllm/_version.py: ``__commit_id__ = 'g4ba787ec9'``, so
vllm-project/vllm commit 4ba787ec9) unless a line says otherwise; paths are inside that repository. argparse
behaviour: CPython 3.12 Lib/argparse.py (``_parse_optional``, ``_get_option_tuples``, ``_negative_number_matcher``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from deployment_config.vllm_args.serve_options import SERVE_OPTIONS, SERVE_SOURCE, Arity, arity

#: The vLLM release and commit the option table and the parsing rules were read from.
VLLM_SOURCE = "vllm-project/vllm 0.33.0, commit 4ba787ec9"
#: The port the Service and the probes use (charts/serving_spec.py VLLM_PORT); FrontendArgs.port defaults to it.
SERVING_PORT = 8000

_ENGINE = "vllm/engine/arg_utils.py EngineArgs.add_cli_args"
_FRONTEND = "vllm/entrypoints/common/cli_args.py FrontendArgs"
_SERVE = "vllm/entrypoints/common/cli_args.py make_arg_parser"


@dataclass(frozen=True)
class VllmOption:
    """One option of ``vllm serve``.

    :param names: the long name first, then every other option string vLLM's parser registers for it (its aliases,
        and for a ``BooleanOptionalAction``, which vLLM replaces by its ``EnableDisableAction``, ``--no-X`` and
        ``--enable-X`` / ``--disable-X``: vllm/utils/argparse_utils.py ``EnableDisableAction``).
    :param arity: ``flag`` (no value: ``store_true``, ``BooleanOptionalAction``, ``help``), ``one`` (one value),
        ``optional`` (``nargs="?"``: a value if the next item is one), ``many`` (``nargs="+"``: every following
        value), ``append`` (one value, repeatable: each occurrence adds to a list).
    :param source: where vLLM adds it.
    """

    names: tuple[str, ...]
    arity: Arity
    source: str

    @property
    def name(self) -> str:
        return self.names[0]

    @property
    def spellings(self) -> tuple[str, ...]:
        """Every option string argparse registers for it."""
        return self.names


def _from_data(entry: Mapping[str, Any], source: str) -> VllmOption:
    """An option of the generated table (serve_options.py), its long name first."""
    strings = entry["option_strings"]
    long_first = sorted(strings, key=lambda s: not s.startswith("--"))
    return VllmOption(tuple(long_first), arity(entry), source)


def _judged(name: str, source: str) -> VllmOption:
    """A judged option, with its option strings and arity from the generated table, and where vLLM adds it."""
    return _from_data(SERVE_OPTIONS[name], source)


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
    (_judged("--model", _ENGINE), "model"),
    # served_model_name: str | list[str] | None -> nargs="+" (_compute_kwargs: list -> collection_to_kwargs).
    (_judged("--served-model-name", _ENGINE), "served_name"),
    # vllm/engine/arg_utils.py add_cli_args (model group): --revision and --code-revision, from ModelConfig.revision /
    # code_revision ("branch name, a tag name, or a commit id"). The project passes both from model.hugging_face_revision.
    (_judged("--revision", _ENGINE), "revision"),
    (_judged("--code-revision", _ENGINE), "revision"),
    (_judged("--tensor-parallel-size", _ENGINE), "tensor_parallel"),
    # vllm/config/parallel.py ParallelConfig.__post_init__: world_size = pipeline_parallel_size * tensor_parallel_size
    # * prefill_context_parallel_size. Allowed: decode context parallelism ("DCP does not expand the process world
    # size. Without PCP, DCP reuses TP ranks", ParallelConfig.decode_context_parallel_size) and expert parallelism
    # ("Use expert parallelism instead of tensor parallelism for MoE layers", ParallelConfig.enable_expert_parallel).
    (_judged("--pipeline-parallel-size", _ENGINE), "gpus"),
    (_judged("--prefill-context-parallel-size", _ENGINE), "gpus"),
    # Data parallelism runs several engines, each on its own TP x PP GPUs; the rest of the family sets its topology and
    # load-balancing mode (serve.py picks external, hybrid or multi-port modes from them).
    (_judged("--data-parallel-size", _ENGINE), "gpus"),
    (_judged("--data-parallel-rank", _ENGINE), "gpus"),
    (_judged("--data-parallel-start-rank", _ENGINE), "gpus"),
    (_judged("--data-parallel-size-local", _ENGINE), "gpus"),
    (_judged("--data-parallel-address", _ENGINE), "gpus"),
    (_judged("--data-parallel-rpc-port", _ENGINE), "gpus"),
    (_judged("--data-parallel-backend", _ENGINE), "gpus"),
    (_judged("--data-parallel-hybrid-lb", _ENGINE), "gpus"),
    (_judged("--data-parallel-external-lb", _ENGINE), "gpus"),
    (
        _judged("--data-parallel-multi-port-external-lb", _ENGINE),
        "gpus",
    ),  # store_true
    # Elastic expert parallelism scales the data-parallel size at run time (ParallelConfig.elastic_ep_max_dp_size).
    (_judged("--enable-elastic-ep", _ENGINE), "gpus"),
    (_judged("--elastic-ep-max-dp-size", _ENGINE), "gpus"),
    # Multi-node serving: one replica over several nodes.
    (_judged("--nnodes", _ENGINE), "gpus"),
    (_judged("--node-rank", _ENGINE), "gpus"),
    (_judged("--master-addr", _ENGINE), "gpus"),
    (_judged("--master-port", _ENGINE), "gpus"),
    # "Comma-separated physical GPU device IDs or UUIDs to use": Kubernetes decides which GPUs the pod gets.
    (_judged("--device-ids", _ENGINE), "gpus"),
    # Where and how the API server listens (FrontendArgs: host, port=8000, grpc_port, data_parallel_supervisor_port,
    # uds "If set, host and port arguments are ignored", ssl_keyfile/ssl_certfile turn on TLS); make_arg_parser:
    # --headless ("no API servers are started", serve.py), --grpc ("Launch the Python gRPC ... server on --port
    # instead of the HTTP OpenAI-compatible server").
    (_judged("--host", _FRONTEND), "listen"),
    (_judged("--port", _FRONTEND), "listen"),
    (_judged("--uds", _FRONTEND), "listen"),
    (_judged("--grpc-port", _FRONTEND), "listen"),
    (_judged("--data-parallel-supervisor-port", _FRONTEND), "listen"),
    (_judged("--ssl-keyfile", _FRONTEND), "listen"),
    (_judged("--ssl-certfile", _FRONTEND), "listen"),
    (_judged("--headless", _SERVE), "listen"),
    (_judged("--grpc", _SERVE), "listen"),
    # serve.py: api_server_count < 1 runs run_headless(): no API server at all. 1 or more is fine.
    (_judged("--api-server-count", _SERVE), "api_servers"),
    # EngineArgs.shutdown_timeout: "Shutdown timeout in seconds. 0 = abort, >0 = wait." (vllm/engine/arg_utils.py
    # add_cli_args; vllm/v1/engine/core.py _handle_shutdown drains in-flight requests for that long on SIGTERM).
    (_judged("--shutdown-timeout", _ENGINE), "drain"),
    # LoadConfig.download_dir: "Directory to download and load the weights".
    (_judged("--download-dir", _ENGINE), "download_dir"),
    # FrontendArgs.api_key: list[str] | None -> nargs="+".
    (_judged("--api-key", _FRONTEND), "api_key"),
    # ModelConfig.hf_token: bool | str | None -> nargs="?", const=True (_compute_kwargs): bare, it means "use the
    # token of the environment or the stored login"; with a value, the value is the token.
    (_judged("--hf-token", _ENGINE), "hf_token"),
    # make_arg_parser: --config "Read CLI options from a config file" (FlexibleArgumentParser._pull_args_from_config).
    (_judged("--config", _SERVE), "config_file"),
    # argparse's own help action (exits after printing).
    (_judged("--help", "argparse add_help"), "help"),
    # vllm/config/cache.py CacheConfig: gpu_memory_utilization: float = Field(default=0.92, gt=0, le=1); the CLI also
    # registers the alias --device-memory-utilization (dest="gpu_memory_utilization").
    (_judged("--gpu-memory-utilization", _ENGINE), "gpu_memory"),
    # CacheConfig.kv_cache_memory_bytes: "(when not-None) ignores gpu_memory_utilization".
    (_judged("--kv-cache-memory-bytes", _ENGINE), "kv_cache_bytes"),
    # CacheConfig.num_gpu_blocks_override: "Number of GPU blocks to use. This overrides the profiled num_gpu_blocks
    # if specified." A fixed KV cache again, whatever share of memory --gpu-memory-utilization gives.
    (_judged("--num-gpu-blocks-override", _ENGINE), "kv_cache_bytes"),
    # Options whose value vLLM restricts: a whole number, or a name it declares or registers. What each accepts, and
    # where vLLM checks it, is in values.py VALUE_RULES; here, where add_cli_args adds them (the line at the commit)
    # and the config field their type comes from (_compute_kwargs). None takes a short alias; each takes one value.
    (_judged("--max-model-len", _at(991, "ModelConfig.max_model_len")), "value"),
    (_judged("--load-format", _at(1085, "LoadConfig.load_format")), "value"),
    (_judged("--attention-backend", _at(1114, "AttentionConfig.backend")), "value"),
    (_judged("--reasoning-parser", _at(1147, _REASONING)), "value"),
    (_judged("--dcp-comm-backend", _at(1217, "ParallelConfig.dcp_comm_backend")), "value"),
    (_judged("--kv-cache-dtype", _at(1397, "CacheConfig.cache_dtype")), "value"),
    (_judged("--max-num-batched-tokens", _at(1740, _BATCHED)), "value"),
    (_judged("--max-num-seqs", _at(1754, "SchedulerConfig.max_num_seqs")), "value"),
    (_judged("--moe-backend", _at(1845, "KernelConfig.moe_backend")), "value"),
    (_judged("--tool-call-parser", _TOOL_CALL_PARSER), "value"),
    (_judged("--optimization-level", _at(1911, "VllmConfig.optimization_level")), "value"),
)

_JUDGED_NAMES = frozenset(name for option, _ in JUDGED_OPTIONS for name in option.names)
#: Every option of vLLM 0.33.0's serve parser (serve_options.py, from the wheel): the judged ones above, then the rest.
OPTIONS: tuple[VllmOption, ...] = (
    *(option for option, _ in JUDGED_OPTIONS),
    *(
        _from_data(entry, SERVE_SOURCE)
        for entry in {id(e): e for e in SERVE_OPTIONS.values()}.values()
        if entry["option_strings"][0] not in _JUDGED_NAMES
    ),
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
