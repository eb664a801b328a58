"""The values vLLM 0.33.0 accepts for the options whose value it restricts: a whole number, or a name from a list it
declares (a ``Literal``, an ``Enum``) or registers (its tool-call and reasoning parsers, its model loaders).

vLLM checks some of them when it parses the command line (argparse ``type`` and ``choices``, built by
vllm/engine/arg_utils.py ``_compute_kwargs`` from the config dataclass a field comes from) and the others only at
start-up, after the image is pulled and the pod scheduled (pydantic validators of the config classes,
``validate_api_server_args``, the model loader): :mod:`.rules` judges them all here, before anything is deployed.

Sources: the vLLM 0.33.0 wheel on PyPI (vllm/_version.py ``__commit_id__ = 'g4ba787ec9'``), paths inside
vllm-project/vllm at that commit; the lists are copied from the files named, in their order. An image with another
vLLM may accept other names: the table is for the version :data:`.options.VLLM_SOURCE` names.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from deployment_config.vllm_args.serve_options import human_readable_int

_ARG_UTILS = "vllm/engine/arg_utils.py"

#: vllm/config/cache.py ``CacheDType`` (the Literal ``KV_CACHE_DTYPES`` mirrors; nothing in vLLM's own tree calls
#: ``register_kv_cache_dtype``, which a platform plugin may use to add more).
KV_CACHE_DTYPES = """
auto float16 bfloat16 fp8 fp8_e4m3 fp8_e5m2 fp8_inc fp8_ds_mla nvfp4_ds_mla turboquant_k8v4 turboquant_4bit_nc
turboquant_k3v4_nc turboquant_3bit_nc octave_k3v4 octave_k3v3 octave_k3v3_compact ultraquant_4bit int4_per_token_head
int8_per_token_head fp8_per_token_head nvfp4 nvfp4_4over6
""".split()
#: vllm/model_executor/model_loader/__init__.py ``_LOAD_FORMAT_TO_MODEL_LOADER`` (the same names as ``LoadFormats``).
LOAD_FORMATS = """
auto hf dummy fastsafetensors instanttensor ipc_cache mistral modelexpress npcache pt runai_streamer
runai_streamer_sharded safetensors sharded_state tensorizer
""".split()
#: The formats whose loader reads the model's checkpoint: _LOAD_FORMAT_TO_MODEL_LOADER maps them to DefaultModelLoader
#: (default_loader.py) or, for runai_streamer, RunaiModelStreamerLoader (runai_streamer_loader.py).
WEIGHT_READING_LOAD_FORMATS = """
auto hf fastsafetensors instanttensor mistral npcache pt runai_streamer safetensors
""".split()
#: vllm/config/kernel.py ``MoEBackend``.
MOE_BACKENDS = """
auto triton batched_triton deep_gemm deep_gemm_mega_moe cutlass flashinfer_trtllm flashinfer_cutlass flashinfer_cutedsl
flashinfer_moe_ep_cutedsl flashinfer_b12x b12x flashinfer_moe_ep_mega_deep_gemm marlin humming triton_unfused aiter
aiter_mega_moe aiter_triton_mxfp4_bf16 aiter_triton_mxfp4_mxfp4 flydsl hpc emulation rdna3
""".split()
#: vllm/config/parallel.py ``DCPCommBackend``.
DCP_COMM_BACKENDS = ["ag_rs", "a2a"]
#: vllm/v1/attention/backends/registry.py ``AttentionBackendEnum``'s member names, less ``CUSTOM`` ("Placeholder for
#: third-party/custom backends - must be registered before use", by a plugin the image does not carry).
ATTENTION_BACKENDS = """
FLASH_ATTN FLASH_ATTN_DIFFKV TRITON_ATTN TRITON_ATTN_DIFFKV TRITON_FLASH_ATTN ROCM_ATTN ROCM_SEGMENTED_ATTN
ROCM_AITER_MLA ROCM_AITER_TRITON_MLA ROCM_AITER_FA ROCM_AITER_MLA_SPARSE XPU_MLA_SPARSE TORCH_SDPA FLASHINFER
TRITON_FLASHINFER FLASHINFER_MLA TOKENSPEED_MLA FLASHINFER_MLA_SPARSE FLASHINFER_MLA_SPARSE_SM120
FLASHINFER_MLA_SPARSE_SM90 TRITON_MLA CUTLASS_MLA FLASHMLA FLASHMLA_SPARSE FLASHMLA_SPARSE_DSV4
FLASHINFER_MLA_SPARSE_DSV4 ROCM_FLASHMLA_SPARSE_DSV4 FLASHMLA_SPARSE_DSV41 FLASHINFER_MLA_SPARSE_DSV41
ROCM_FLASHMLA_SPARSE_DSV41 FLASHMLA_MEGA_ATTN_DSV41 B12X FLASH_ATTN_MLA FLASH_ATTN_MLA_SPARSE FLASH_ATTN_MLA_SPARSE_FA4
MINIMAX_M3_SPARSE CUTLASS_MSA TRITON_MSA STEP5_DSA NO_ATTENTION FLEX_ATTENTION HPC_ATTN ROCM_AITER_UNIFIED_ATTN CPU_ATTN
CPU_MLA AMX_MLA TURBOQUANT ROCM_OCTAVE ULTRAQUANT
""".split()
#: vllm/tool_parsers/__init__.py ``_TOOL_PARSERS_TO_REGISTER`` (registered at import by
#: ``register_lazy_tool_parsers``; ``ToolParserManager.list_registered`` is what vLLM checks against). Sorted.
TOOL_CALL_PARSERS = """
apertus beam cohere_command3 cohere_command4 deepseek_v3 deepseek_v31 deepseek_v32 deepseek_v4 deepseek_v41 dots
ernie45 functiongemma gemma4 gigachat3 glm45 glm47 granite granite-20b-fc granite4 hermes hf hunyuan_a13b hy_v3 hy_v4
inkling internlm jamba k2_horizon kimi_k2 kimi_k3 lfm2 ling3 llama3_json llama4_json llama4_pythonic longcat mimo
minicpm5 minimax_m2 minimax_m3 mistral muse muse_glimmer musespark1x olmo3 openai phi4_mini_json plamo3 poolside_v1
pythonic qwen3_coder qwen3_json qwen3_xml seed_oss step3 step3p5 step5 xlam
""".split()
#: vllm/reasoning/__init__.py ``_REASONING_PARSERS_TO_REGISTER`` (``register_lazy_reasoning_parsers``;
#: ``ReasoningParserManager.list_registered``). Sorted.
REASONING_PARSERS = """
beam cohere_command3 cohere_command4 deepseek_r1 deepseek_v3 deepseek_v4 deepseek_v41 ernie45 gemma4 glm45 glm47 granite
granite_thinking_parser hf holo2 hunyuan_a13b hy_v3 hy_v4 inkling k2_horizon kimi_k2 kimi_k3 ling3 mimo minicpmv
minimax_m2 minimax_m2_append_think minimax_m3 mistral muse muse_glimmer musespark1x nemotron_v3 olmo3 openai_gptoss
plamo3 poolside_v1 qwen3 seed_oss step3 step3p5 step5
""".split()

#: vllm/engine/arg_utils.py ``optional_type``: for a field that may be None, "" and "None" mean unset.
_UNSET = ("", "None")


@dataclass(frozen=True)
class ValueRule:
    """What vLLM 0.33.0 accepts as the value of one option.

    :param accepts: the value as the user wrote it -> whether vLLM accepts it.
    :param expected: what it accepts, in words ("a whole number of 1 or more", "one of ...").
    :param source: where vLLM declares the type and checks the value (path at the commit, and symbol).
    :param names: the names it accepts, for a suggestion close to a wrong one; empty for numbers.
    """

    accepts: Callable[[str], bool]
    expected: str
    source: str
    names: tuple[str, ...] = ()

    def suggestion(self, value: str) -> str | None:
        """The accepted name closest to ``value``, if one is close."""
        close = difflib.get_close_matches(value, self.names, n=1, cutoff=0.6) or [
            name for name in self.names if name.lower() == value.lower()
        ]
        return close[0] if close else None


def _whole_number(value: str, *, suffixes: bool) -> int | None:
    """``int`` as argparse's ``type=int`` reads it, or with ``suffixes`` vllm/utils/argparse_utils.py
    ``human_readable_int``: a number with k/m/g/t (powers of 1000, decimals allowed: 25.6k) or K/M/G/T (powers of
    1024, whole numbers only: 1M is 1,048,576); None when vLLM's parser rejects it."""
    try:  # "1.5M": vLLM refuses decimals with a binary suffix (a ValueError)
        return human_readable_int(value) if suffixes else int(value.strip())
    except ValueError:
        return None


def context_length(value: str | None) -> int | None:
    """The context length a ``--max-model-len`` value sets, read as vLLM reads it (``1M`` is 1048576, ``25.6k`` is
    25600); None when there is none to show: no value, ``auto`` / ``-1`` (vLLM picks the longest that fits, known only
    at start-up), or a value vLLM refuses (model.extra_args' check reports it)."""
    number = None if value is None else _whole_number(value, suffixes=True)
    return number if number is not None and number >= 1 else None


def _positive(value: str, *, suffixes: bool) -> bool:
    number = _whole_number(value, suffixes=suffixes)
    return number is not None and number >= 1


def _one_of(names: list[str], normalise: Callable[[str], str] = str, unset: tuple[str, ...] = ()):
    allowed = frozenset(names)
    return lambda value: value in unset or normalise(value) in allowed


def _listed(names: list[str]) -> str:
    return "one of " + ", ".join(names)


#: The options whose value vLLM 0.33.0 restricts, by their long name (options.py lists them with the rule "value").
VALUE_RULES: Mapping[str, ValueRule] = {
    # SchedulerConfig.max_num_seqs: int = Field(default=..., ge=1) -> argparse type=int (_compute_kwargs).
    "--max-num-seqs": ValueRule(
        lambda v: _positive(v, suffixes=False),
        "a whole number of 1 or more",
        "vllm/config/scheduler.py SchedulerConfig.max_num_seqs (Field ge=1), type int",
    ),
    # SchedulerConfig.max_num_batched_tokens: int = Field(ge=1) -> type=human_readable_int (_compute_kwargs's
    # human_readable_int_args).
    "--max-num-batched-tokens": ValueRule(
        lambda v: _positive(v, suffixes=True),
        "a whole number of 1 or more, also written with k/m/g (x1000, 25.6k) or K/M/G (x1024, whole numbers only: "
        "16K)",
        "vllm/config/scheduler.py SchedulerConfig.max_num_batched_tokens (Field ge=1), type "
        "vllm/utils/argparse_utils.py human_readable_int",
    ),
    # ModelConfig.max_model_len: int = Field(ge=-1) -> type=human_readable_int_or_auto: "-1" or "auto" (any case) pick
    # the longest context that fits; ModelConfig.validate_model_config_after then refuses anything below 1
    # ("max_model_len must be a positive integer").
    "--max-model-len": ValueRule(
        lambda v: v.strip() == "-1" or v.strip().lower() == "auto" or _positive(v, suffixes=True),
        "a whole number of 1 or more, also written with k/m/g (x1000, 25.6k) or K/M/G (x1024, whole numbers only: 1M is "
        "1048576), or auto / -1",
        "vllm/config/model.py ModelConfig.max_model_len, type vllm/utils/argparse_utils.py "
        "human_readable_int_or_auto",
    ),
    # CacheConfig.cache_dtype: CacheDType | str -> argparse only shows the names (metavar, not choices: the hint
    # holds str); CacheConfig._validate_cache_dtype refuses any other at start-up. Case matters.
    "--kv-cache-dtype": ValueRule(
        _one_of(KV_CACHE_DTYPES),
        _listed(KV_CACHE_DTYPES),
        "vllm/config/cache.py CacheDType, checked by CacheConfig._validate_cache_dtype",
        tuple(KV_CACHE_DTYPES),
    ),
    # LoadConfig.load_format: str | LoadFormats (LoadFormats is str at run time) -> type=str; lowercased by
    # LoadConfig._lowercase_load_format; get_model_loader raises "Load format ... is not supported" for another.
    # Only the loaders that read the model's own checkpoint (the weights the project downloads and verifies) are
    # accepted: the formats of DefaultModelLoader and RunaiModelStreamerLoader. The others load something else and
    # still pass every health check: DummyModelLoader ("will set model weights to random values", dummy_loader.py),
    # IpcModelLoader (another process's copy), ModelExpressModelLoader (a ModelExpress server's), ShardedStateLoader
    # (per-worker state saved by an earlier run) and TensorizerLoader (a tensorizer file).
    "--load-format": ValueRule(
        _one_of(WEIGHT_READING_LOAD_FORMATS, str.lower),
        _listed(WEIGHT_READING_LOAD_FORMATS)
        + " (any case): the loaders that read the model's own weights ("
        + ", ".join(sorted(set(LOAD_FORMATS) - set(WEIGHT_READING_LOAD_FORMATS)))
        + " load random weights or other files, and the endpoint would still pass its health checks)",
        "vllm/model_executor/model_loader/__init__.py _LOAD_FORMAT_TO_MODEL_LOADER, checked by get_model_loader",
        tuple(WEIGHT_READING_LOAD_FORMATS),
    ),
    # KernelConfig.moe_backend: MoEBackend -> choices; add_cli_args replaces the type by s.lower().replace("-", "_").
    "--moe-backend": ValueRule(
        _one_of(MOE_BACKENDS, lambda v: v.lower().replace("-", "_")),
        _listed(MOE_BACKENDS) + " (any case, - for _)",
        f"vllm/config/kernel.py MoEBackend, argparse choices ({_ARG_UTILS} add_cli_args --moe-backend)",
        tuple(MOE_BACKENDS),
    ),
    # ParallelConfig.dcp_comm_backend: DCPCommBackend | None -> choices, optional_type(str).
    "--dcp-comm-backend": ValueRule(
        _one_of(DCP_COMM_BACKENDS, unset=_UNSET),
        _listed(DCP_COMM_BACKENDS),
        "vllm/config/parallel.py DCPCommBackend, argparse choices",
        tuple(DCP_COMM_BACKENDS),
    ),
    # AttentionConfig.backend: AttentionBackendEnum | None -> type optional_type(str); create_engine_config passes it
    # to AttentionConfig.validate_backend_before: "auto" (any case) is automatic selection, else
    # AttentionBackendEnum[value.upper()], which raises "Unknown attention backend" at start-up.
    "--attention-backend": ValueRule(
        lambda v: v.lower() == "auto" or _one_of(ATTENTION_BACKENDS, str.upper, unset=_UNSET)(v),
        _listed(ATTENTION_BACKENDS) + " (any case), or auto",
        "vllm/v1/attention/backends/registry.py AttentionBackendEnum, read by "
        "vllm/config/attention.py AttentionConfig.validate_backend_before",
        tuple(ATTENTION_BACKENDS),
    ),
    # FrontendArgs.tool_call_parser: str | None -> optional_type(str); validate_api_server_args refuses a name not in
    # ToolParserManager.list_registered() when --enable-auto-tool-choice is on (without it vLLM ignores the parser).
    # "" and "None" (optional_type's unset) are refused too: both serving profiles turn on --enable-auto-tool-choice
    # (the preset's announced arguments, catalog.py; the recipe's default tool_calling feature), and with the parser
    # unset vllm/entrypoints/common/cli_args.py
    # validate_parsed_serve_args stops: "Error: --enable-auto-tool-choice requires --tool-call-parser".
    "--tool-call-parser": ValueRule(
        _one_of(TOOL_CALL_PARSERS),
        _listed(TOOL_CALL_PARSERS)
        + " (--enable-auto-tool-choice, which the serving arguments set, requires one)",
        "vllm/tool_parsers/__init__.py _TOOL_PARSERS_TO_REGISTER, checked by "
        "vllm/entrypoints/common/cli_args.py validate_api_server_args",
        tuple(TOOL_CALL_PARSERS),
    ),
    # --optimization-level (and -O0 ... -O3, which FlexibleArgumentParser rewrites into it): type str at parse time
    # (vllm_serve_options.json), then VllmConfig.optimization_level: OptimizationLevel, an IntEnum O0 = 0 ... O3 = 3,
    # read by pydantic in lax mode ("3", " 3", "03" and "3.0" are 3; "5" is refused) when the engine config is built.
    "--optimization-level": ValueRule(
        lambda v: re.fullmatch(r"\s*0*[0-3](?:\.0*)?\s*", v) is not None,
        "0, 1, 2 or 3",
        "vllm/config/vllm.py OptimizationLevel, VllmConfig.optimization_level",
    ),
    # StructuredOutputsConfig.reasoning_parser: str, type parse_reasoning_parser ("none", any case, and "" unset it);
    # validate_api_server_args refuses a name not in ReasoningParserManager.list_registered().
    "--reasoning-parser": ValueRule(
        lambda v: v.lower() == "none" or _one_of(REASONING_PARSERS, unset=("",))(v),
        _listed(REASONING_PARSERS) + ", or none",
        "vllm/reasoning/__init__.py _REASONING_PARSERS_TO_REGISTER, checked by "
        "vllm/entrypoints/common/cli_args.py validate_api_server_args",
        tuple(REASONING_PARSERS),
    ),
}

#: vllm/config/attention.py ``AttentionConfig``'s fields: ``--attention-config`` is parsed into it by pydantic
#: (_compute_kwargs ``parse_dataclass``), and vllm/config/utils.py ``config`` forbids any other key (extra="forbid").
ATTENTION_CONFIG_FIELDS = frozenset(
    """
backend minimax_m3_msa_decode_backend backend_per_kind flash_attn_version flash_attn_max_num_splits_for_cuda_graph
tokenspeed_mla_min_split_kv tq_max_kv_splits_for_cuda_graph use_trtllm_attention disable_flashinfer_q_quantization
mla_prefill_backend use_prefill_query_quantization trtllm_ragged_backend indexer_kv_dtype indexer_sparse_logits
indexer_tp_shard_min_rows minimax_m3_indexer_cp hisparse_config use_non_causal sparse_mla_force_mqa
sparse_mla_prefill_workspace_factor flex_attn_block_m flex_attn_block_n flex_attn_q_block_size flex_attn_kv_block_size
""".split()
)
#: vllm/v1/attention/backends/mla/prefill/registry.py ``MLAPrefillBackendEnum``'s members, less the ``CUSTOM``
#: placeholder; AttentionConfig.validate_mla_prefill_backend_before looks the value up upper-cased.
MLA_PREFILL_BACKENDS = (
    "FLASH_ATTN FLASHINFER TRTLLM_RAGGED TOKENSPEED_MLA ROCM_AITER_FA CPU ZEN_CPU".split()
)
_ATTENTION_CONFIG = "vllm/config/attention.py AttentionConfig"


def attention_config_problems(config: Mapping[str, object]) -> list[str]:
    """What vLLM 0.33.0 refuses in an ``--attention-config`` JSON object: a key AttentionConfig does not have, a
    ``backend`` or ``mla_prefill_backend`` name its enum does not hold (each read upper-cased; ``backend`` may be
    ``auto``). Other fields' types are left to vLLM."""
    problems = [
        f"{key!r} is not a field of {_ATTENTION_CONFIG}, which refuses other keys"
        for key in config
        if key not in ATTENTION_CONFIG_FIELDS
    ]
    names = {
        "backend": (ATTENTION_BACKENDS, "validate_backend_before", ("AUTO",)),
        "mla_prefill_backend": (MLA_PREFILL_BACKENDS, "validate_mla_prefill_backend_before", ()),
    }
    for key, (allowed, validator, also) in names.items():
        value = config.get(key)
        if isinstance(value, str) and value.upper() not in (*allowed, *also):
            problems.append(
                f"{key} {value!r}: {_ATTENTION_CONFIG}.{validator} accepts {_listed(allowed)} (any case)"
            )
    return problems
