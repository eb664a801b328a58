"""Which vLLM arguments and environment variables a configuration may add, judged the way vLLM reads them.

``model.extra_args`` is appended to ``vllm serve --model M --served-model-name N --tensor-parallel-size T <preset
args>``, and ``model.extra_env`` to the container's environment. Both must not undo what the project derives (the
model, its name, the GPUs of one replica, the port the Service and the probes use, the model cache on the node's
NVMe, the engine start-up timeout) nor carry secrets in plain text. A plain ``"--port" in extra_args`` check is not
enough, because vLLM's parser accepts many spellings of one option, so :func:`extra_args_problems` reads the items
the way vLLM 0.33.0 does:

1. ``FlexibleArgumentParser.parse_args`` (vllm/utils/argparse_utils.py) first rewrites every item: ``--long_name``
   becomes ``--long-name`` (only up to the first ``.`` and before ``=``), ``--help=...`` becomes ``--help``, ``-O3``
   and ``-O=3`` become ``--optimization-level 3`` (and ``-O 3`` with 0-3), and every item that starts with ``-`` and
   has a ``.`` before any ``=`` is a dotted JSON option (``--compilation-config.mode 3``): it and, without ``=``, the
   next item (whatever it is) are taken out and re-appended at the end as ``--compilation-config '{"mode": 3}'``.
2. Python's argparse (3.12 in the vLLM image: vllm-project/vllm docker/Dockerfile at commit dead20baf70d has ``ARG
   PYTHON_VERSION=3.12``, and its ``vllm-openai`` stage ``ENTRYPOINT ["vllm", "serve"]``) then parses the rest:
   ``--opt=value``, prefix abbreviations of long and short options (``allow_abbrev`` is left at its default ``True``:
   vllm/entrypoints/cli/main.py creates ``FlexibleArgumentParser(description=..., epilog=...)`` and serve.py adds the
   ``serve`` sub-parser without it), a one-letter option glued to its value (``-n4``), negative numbers and items
   with a space read as values or positionals, and a positional argument filling ``model_tag``
   (vllm/entrypoints/cli/serve.py: ``usage="vllm serve [model_tag] [options]"``).

To know whether an item is the value of the option before it, the module records the arity of vLLM's options that do
not take exactly one value (flags, ``nargs="+"``, ``nargs="?"``, ``append``) and of every option it judges. Any other
option, including one this table does not know (a newer or patched vLLM image), is assumed to take one value unless
the next item looks like an option (starts with ``-`` and is not a negative number), which is what argparse does for
an option with one value. A long abbreviation is only resolved when it could stand for an option judged here (and is then
refused, whatever else it could also stand for); other long abbreviations count as unknown options. Short options
(-tp, -q, ...) are all in the table, so their abbreviations (-t for -tp) resolve exactly.

Sources, read from the vLLM 0.33.0 wheel on PyPI (vllm/_version.py: ``__commit_id__ = 'g4ba787ec9'``, so
vllm-project/vllm commit 4ba787ec9) unless a line says otherwise; paths are inside that repository. argparse
behaviour: CPython 3.12 Lib/argparse.py (``_parse_optional``, ``_get_option_tuples``, ``_negative_number_matcher``).
The image of a preset may carry another vLLM version: an option missing here is then an unknown option, above.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from deployment_config.errors import Problem, quoted
from deployment_config.sizing import ENGINE_READY_TIMEOUT_ENV

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
    return VllmOption(tuple(spelling.split()), arity, arity == "flag" if negatable is None else negatable, source)


#: What makes an option judged here, with the option table below: each entry names the rule that applies.
Rule = Literal["model", "served_name", "tensor_parallel", "gpus", "listen", "download_dir", "api_key", "hf_token",
               "config_file", "help", "gpu_memory", "kv_cache_bytes", "api_servers", "drain", "revision"]

#: The options this module judges, with their aliases and arity (vLLM 0.33.0).
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
    (_option("--data-parallel-multi-port-external-lb -dpm", "flag", _ENGINE, negatable=False), "gpus"),  # store_true
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
_ALIASED = ("--quantization -q", "--decode-context-parallel-size -dcp", "--speculative-config -sc",
            "--diffusion-config -dc", "--compilation-config -cc", "--attention-config -ac")

OPTIONS: tuple[VllmOption, ...] = (
    *(option for option, _ in JUDGED_OPTIONS),
    _option("--enable-expert-parallel -ep", "flag", _ENGINE),
    *(_option(name, "flag", _ASYNC if name == "--enable-log-requests" else _ENGINE,
              negatable=name not in _STORE_TRUE_FLAGS) for name in _FLAGS),
    *(_option(name, "many", _ENGINE) for name in _MANY),
    *(_option(name, "append", _FRONTEND) for name in _APPEND),
    *(_option(names, "one", _ENGINE) for names in _ALIASED),
    # FlexibleArgumentParser turns -O3 / -O=3 / "-O 3" into --optimization-level.
    _option("--optimization-level", "one", _ENGINE),
)
_RULES: Mapping[str, Rule] = {option.name: rule for option, rule in JUDGED_OPTIONS}
_BY_SPELLING: Mapping[str, VllmOption] = {spelling: option for option in OPTIONS for spelling in option.spellings}
_SHORT_SPELLINGS = tuple(s for s in _BY_SPELLING if not s.startswith("--"))
#: One-letter options, which argparse also accepts glued to their value (``-n4``): -q, -n, -r and -h.
_ONE_LETTER = frozenset(s for s in _SHORT_SPELLINGS if len(s) == 2)
_JUDGED_SPELLINGS = frozenset(s for s in _BY_SPELLING if _BY_SPELLING[s].name in _RULES)
_JUDGED_LONGEST_FIRST = tuple(sorted(_JUDGED_SPELLINGS, key=len, reverse=True))

#: argparse (CPython 3.12 Lib/argparse.py ``_negative_number_matcher``): such an item is a value, not an option.
_NEGATIVE_NUMBER = re.compile(r"-\d+|-\d*\.\d+")
#: An item that starts like an option and then holds whitespace: an option and its value written as one item.
_OPTION_AND_VALUE = re.compile(r"-{1,2}[A-Za-z][\w.+-]*\s")


@dataclass(frozen=True)
class _Token:
    """One item after FlexibleArgumentParser's rewriting, with the index of the item it came from."""

    text: str
    index: int


@dataclass(frozen=True)
class _Resolved:
    """What an option-like item stands for: a known option, or None for an option this table does not know."""

    option: VllmOption | None
    name: str
    explicit: str | None  # the value after "=" or glued to a one-letter option
    note: str = ""  # how the spelling reached the option, for messages
    candidates: tuple[str, ...] = ()  # judged options an abbreviation could stand for


def _normalise_long(item: str) -> str:
    """FlexibleArgumentParser.parse_args: ``pattern = re.compile(r"(?<=--)[^\\.]*")``, underscores to dashes in the
    first match, i.e. from after the leading ``--`` up to the first ``.``, in the part before ``=``."""
    key, sep, value = item.partition("=")
    head, dot, tail = key[2:].partition(".")
    return "--" + head.replace("_", "-") + dot + tail + sep + value


def _rewrite(items: Sequence[str]) -> list[_Token]:
    """The first loop of FlexibleArgumentParser.parse_args: --help=, --long_name, -O."""
    tokens: list[_Token] = []
    for i, item in enumerate(items):
        if item.startswith("--help="):
            tokens.append(_Token("--help", i))
        elif item.startswith("--"):
            tokens.append(_Token(_normalise_long(item), i))
        elif item.startswith("-O") and item != "-O":
            level = item[3:] if item[2] == "=" else item[2:]
            tokens += [_Token("--optimization-level", i), _Token(level, i)]
        elif item == "-O" and i + 1 < len(items) and items[i + 1] in {"0", "1", "2", "3"}:
            tokens.append(_Token("--optimization-level", i))
        else:
            tokens.append(_Token(item, i))
    return tokens


@dataclass(frozen=True)
class _Dotted:
    """A dotted JSON option (``--key.a.b value``, ``--key.a+ value``) that FlexibleArgumentParser merges into
    ``--key '{"a": {"b": value}}'`` appended at the end."""

    token: _Token
    key: str
    path: tuple[str, ...]
    appends: bool
    value: str | None
    separate: bool  # the value is the next item (no "=")


def _split_dotted(tokens: list[_Token]) -> tuple[list[_Token], list[_Dotted]]:
    """The second loop of FlexibleArgumentParser.parse_args: an item starting with ``-`` with a ``.`` before any ``=``
    is a dotted option; without ``=`` the next item, whatever it is, is its value (``processed_args[i + 1]``)."""
    rest: list[_Token] = []
    dotted: list[_Dotted] = []
    skip = False
    for j, token in enumerate(tokens):
        if skip:
            skip = False
            continue
        text = token.text
        name, sep, value = text.partition("=")
        if not text.startswith("-") or "." not in name:
            rest.append(token)
            continue
        if not sep:
            value = tokens[j + 1].text if j + 1 < len(tokens) else None
            skip = True
        appends = name.endswith("+")
        key, *path = name.removesuffix("+").split(".")
        dotted.append(_Dotted(token, key, tuple(path), appends, value, separate=not sep))
    return rest, dotted


_ABBREVIATION = "vLLM's parser accepts any unambiguous prefix of an option name"


def _resolve(name: str, explicit: str | None) -> _Resolved:
    """The option an option-like item's name stands for, as argparse's ``_parse_optional`` finds it: exact, a
    one-letter option glued to its value, or a prefix abbreviation (``_get_option_tuples``)."""
    option = _BY_SPELLING.get(name)
    if option is not None:
        return _Resolved(option, name, explicit)
    if not name.startswith("--") and name[:2] in _ONE_LETTER and explicit is None:
        return _Resolved(_BY_SPELLING[name[:2]], name[:2], name[2:], note=f"{name[:2]} with the value {name[2:]!r}")
    # Abbreviations: argparse accepts any unambiguous prefix of an option string (allow_abbrev=True). Every option
    # string of vLLM 0.33.0's serve parser that is a prefix of a judged spelling is itself judged (--data-parallel-size
    # of --data-parallel-size-local, --grpc of --grpc-port, -dp of -dpl...), so such a prefix here is never an exact
    # option of an unknown kind.
    pool = _SHORT_SPELLINGS if not name.startswith("--") else tuple(_BY_SPELLING)
    candidates = tuple(s for s in pool if s.startswith(name) and s != name)
    judged = tuple(dict.fromkeys(_BY_SPELLING[s].name for s in candidates if s in _JUDGED_SPELLINGS))
    if judged:
        return _Resolved(_BY_SPELLING[judged[0]], name, explicit, note=_ABBREVIATION, candidates=judged)
    if not name.startswith("--") and len(candidates) == 1:  # the short spellings are all known: resolve exactly
        return _Resolved(_BY_SPELLING[candidates[0]], name, explicit, note=_ABBREVIATION)
    # A judged option with its value glued on (-tp4, --port9000): argparse rejects it as unknown, but it is meant as one.
    for spelling in _JUDGED_LONGEST_FIRST:
        if name.startswith(spelling) and name[len(spelling)] in "0123456789.":
            return _Resolved(_BY_SPELLING[spelling], name, name[len(spelling):],
                             note=f"{spelling} with its value glued on, which vLLM rejects as an unknown option")
    return _Resolved(None, name, explicit)


def _is_option(text: str) -> bool:
    """Whether argparse reads the item as an option ('O') rather than as a value or a positional ('A'), in the order
    of CPython 3.12 ``ArgumentParser._parse_optional``: a known option string (also before ``=``), an abbreviation or a
    one-letter option with its value glued on; otherwise a negative number or an item with a space is a value, and
    anything else starting with ``-`` is an option. argparse's space test covers the whole item, but it comes after
    the look-up of the name before ``=``: ``--chat-template={{ x }}`` is an option for vLLM, which has
    --chat-template, so an option this table does not know keeps a value with spaces after ``=`` too."""
    if len(text) < 2 or not text.startswith("-"):
        return False
    name, sep, explicit = text.partition("=")
    if text in _BY_SPELLING or (sep and name in _BY_SPELLING):
        return True
    if _resolve(name, explicit if sep else None).option is not None:
        return True
    return not (_NEGATIVE_NUMBER.fullmatch(text) or any(c.isspace() for c in name))


def _holds_option_and_value(item: str) -> bool:
    """``"--port 9000"``: an option-like word, whitespace, more -- before any ``=``, so not ``--opt={"a": 1}``."""
    return bool(_OPTION_AND_VALUE.match(item)) and any(c.isspace() for c in item.partition("=")[0])


def _first_word(item: str) -> tuple[str, str, _Resolved]:
    word, rest = item.split(None, 1)
    return word, rest.strip(), _resolve(_normalise_long(word) if word.startswith("--") else word, None)


_SECRET_RULES = ("api_key", "hf_token")
#: Judged options that are fine with a suitable value, so that giving them twice is a problem of its own.
_CHECKED_RULES = ("gpu_memory", "api_servers", "hf_token")

_Report = Callable[[int, str, str], None]


def extra_args_problems(extra_args: Sequence[str], *, gpu_memory_utilization_min: float) -> list[tuple[int, Problem]]:
    """What is wrong with ``model.extra_args``, as (index of the offending item, problem), in item order.

    Refused: options the project derives (``--model``, ``--served-model-name``, ``--tensor-parallel-size``) or that
    change the GPUs of one replica or where vLLM listens, in any spelling vLLM accepts; a positional argument (vLLM's
    model slot); an option and its value in one item; an empty item or a bare ``--``; ``--gpu-memory-utilization`` that
    is not a number in (0, 1] or is below ``gpu_memory_utilization_min`` (reported at the item holding the value);
    ``--kv-cache-memory-bytes`` (it overrides that share); ``--download-dir``; secrets (``--api-key``, ``--hf-token``
    with a value, never quoted back); ``--config`` and ``--help``; an option given twice, unless vLLM appends repeated
    values. Control characters are another module's check.
    """
    problems: list[tuple[int, Problem]] = []

    def report(index: int, problem: str, fix: str) -> None:
        problems.append((index, Problem(problem, fix)))

    # (index, option, dotted path, item as shown): every setting of an option, for the duplicate check at the end.
    settings: list[tuple[int, str, tuple[str, ...], str]] = []

    def judge(resolved: _Resolved, index: int, values: list[tuple[str, int]] | None, *, dotted: bool = False) -> None:
        _judge(resolved, extra_args[index], index, values, report, gpu_memory_utilization_min, dotted=dotted)
        assert resolved.option is not None
        if _RULES[resolved.option.name] in _CHECKED_RULES and len(resolved.candidates) <= 1:
            shown = extra_args[index] if _RULES[resolved.option.name] not in _SECRET_RULES else resolved.name
            settings.append((index, resolved.option.name, (), shown))

    # Items holding an option and its value ("--port 9000"): reported here, wherever they stand; the option in their
    # first word is judged where argparse reads the item as a positional (or as a dotted option, if it holds a '.').
    split_items: dict[int, tuple[str, str, _Resolved]] = {}
    judged_split_items: set[int] = set()

    def judge_split_item(index: int) -> None:
        word, rest, resolved = split_items[index]
        if resolved.option is not None and resolved.option.name in _RULES and index not in judged_split_items:
            judged_split_items.add(index)
            _judge(resolved, word, index, [(rest, index)], report, gpu_memory_utilization_min)

    for index, item in enumerate(extra_args):
        if item == "":
            report(index, "an empty item: vLLM reads it as a positional argument, the model to serve", "remove it")
        elif _holds_option_and_value(item):
            split_items[index] = word, rest, resolved = _first_word(item)
            if resolved.option is not None and _RULES.get(resolved.option.name) in _SECRET_RULES:
                judge_split_item(index)  # and no advice to split it: it would quote the secret
                continue
            report(index, f"{quoted(item)} holds an option and its value in one item, so vLLM reads it as one word "
                          "(a positional argument) instead of as the option",
                   f"write it as two items: - {word} / - {rest}")

    tokens, dotted = _split_dotted(_rewrite(extra_args))
    for d in dotted:
        index = d.token.index
        if index in split_items:
            judge_split_item(index)
            continue
        if re.fullmatch(r"-\d*", d.key):
            report(index, f"{quoted(d.token.text)} starts with '-' and holds a '.', so vLLM's argument pre-processing "
                          "takes it for a dotted option (--option.key value) and swallows the next item",
                   "join the option and its negative value with '=' in one item, for example --option=-0.5")
            continue
        if d.value is None:
            report(index, f"{quoted(d.token.text)} has no value: vLLM reads the item after a dotted option as its value",
                   f"add the value as the next item, or write {d.token.text}=VALUE")
        elif d.separate and _is_option(d.value):
            report(index, f"{quoted(d.token.text)} takes the next item, {quoted(d.value)}, as its value: vLLM reads the "
                          "item after a dotted option as its value, whatever it is",
                   f"put its value right after it, or write {d.token.text}=VALUE")
        resolved = _resolve(d.key, None)
        if resolved.option is not None and resolved.option.name in _RULES:
            judge(resolved, index, None, dotted=True)
        else:
            path = d.path + ("+",) if d.appends else d.path
            settings.append((index, resolved.option.name if resolved.option else d.key, path, d.token.text))

    i = 0
    previous_flag: VllmOption | None = None
    while i < len(tokens):
        token = tokens[i]
        i += 1
        if token.text == "--":
            report(token.index, "'--' ends vLLM's options: vLLM reads every item after it as a positional argument",
                   "remove it")
            break
        if not _is_option(token.text):
            if token.index in split_items:
                judge_split_item(token.index)
            elif token.text != "":
                flag = f"; {previous_flag.name} is a flag and takes no value" if previous_flag is not None else ""
                report(token.index, f"{quoted(token.text)} is a positional argument: no option before it takes a value"
                                    f"{flag}. vLLM reads a positional argument as the model to serve, which the project "
                                    "already passes, so vLLM would stop with 'unrecognized arguments'",
                       "remove it, or put it right after the option it is the value of")
            previous_flag = None
            continue
        name, sep, explicit = token.text.partition("=")
        resolved = _resolve(name, explicit if sep else None)
        arity: Arity = resolved.option.arity if resolved.option is not None else "one"
        values: list[tuple[str, int]] = []
        if resolved.explicit is None and arity != "flag":
            while i < len(tokens) and not _is_option(tokens[i].text):
                values.append((tokens[i].text, tokens[i].index))
                i += 1
                if arity != "many":
                    break
        previous_flag = resolved.option if arity == "flag" else None
        if resolved.option is not None and resolved.option.name in _RULES:
            judge(resolved, token.index, values)
        else:
            settings.append((token.index, resolved.option.name if resolved.option else resolved.name, (),
                             extra_args[token.index]))

    _report_repeats(settings, report)
    return sorted(problems, key=lambda entry: entry[0])


def _report_repeats(settings: list[tuple[int, str, tuple[str, ...], str]], report: _Report) -> None:
    """Report each later setting of an option already set. Dotted keys of one option merge into one JSON value unless
    a key repeats (lists given as ``key+`` add up); a plain value and dotted keys of the same option do not merge
    (FlexibleArgumentParser appends the merged dotted value after the plain one, which it replaces)."""
    seen: dict[tuple[str, tuple[str, ...]], int] = {}
    for index, name, path, shown in sorted(settings, key=lambda setting: setting[0]):
        option = _BY_SPELLING.get(name)
        if option is not None and option.arity == "append":
            continue
        key = option.name if option is not None else name
        for (other, other_path), first in seen.items():
            if other == key and (not other_path or not path or (other_path == path and path[-1] != "+")):
                report(index, f"{quoted(shown)} sets {key} again (item {first} already sets it), and vLLM keeps only one "
                              "of the values", f"give {key} once")
                break
        seen.setdefault((key, path), index)


_DERIVED = {
    "model": ("model.hugging_face_id (or the S3 copy in the node cache)",
              "vLLM would serve other weights than those the sizing and the download were made for",
              "remove it; set model.hugging_face_id (or model.s3_uri) instead"),
    "served_name": ("model.served_name", "clients would have to send another model name",
                    "remove it; set model.served_name instead"),
    "drain": ("endpoint.drain_seconds", "the pod's termination grace period is sized from that setting",
              "remove it; set endpoint.drain_seconds instead"),
    "tensor_parallel": ("model.tensor_parallel_size",
                        "vLLM would shard the model over another number of GPUs than the pod requests",
                        "remove it; set model.tensor_parallel_size instead"),
}
_LISTEN_DETAIL = {
    "--uds": "listens on a Unix socket instead", "--headless": "starts no API server at all",
    "--grpc": "serves gRPC instead of HTTP", "--ssl-keyfile": "serves HTTPS", "--ssl-certfile": "serves HTTPS",
    "--grpc-port": "opens another port", "--data-parallel-supervisor-port": "opens another port",
}
_SECRETS_FIX = ("do not put secrets in the configuration file; remove it: the project mounts {what} from AWS Secrets "
                "Manager into the pod with the Secrets Store CSI driver")


def _judge(resolved: _Resolved, original: str, index: int, values: list[tuple[str, int]] | None, report: _Report,
           minimum: float, *, dotted: bool = False) -> None:
    """Report what is wrong with one occurrence of a judged option.

    :param original: the item as the user wrote it, quoted in the message (only its option name for secrets).
    :param values: (item, index) of the values argparse gives it; None for a dotted option, whose value is JSON.
    """
    option = resolved.option
    assert option is not None
    rule = _RULES[option.name]
    shown = original.partition("=")[0].split()[0] if rule in _SECRET_RULES and original.strip() else original
    if len(resolved.candidates) > 1:
        report(index, f"{quoted(shown)} is an abbreviation vLLM's parser could expand to {', '.join(resolved.candidates)}"
                      ", options the project sets or checks itself", "write the option name in full")
        return
    spelled = quoted(shown) if shown.partition("=")[0] == option.name else f"{quoted(shown)} sets {option.name}"
    if resolved.note:
        spelled += f" ({resolved.note})"
    value, value_index = (resolved.explicit, index) if resolved.explicit is not None else (
        values[0] if values else (None, index))

    if rule == "revision":
        report(index, f"{spelled}, which the project derives from model.hugging_face_revision: it gives vLLM both "
                      "--revision and --code-revision at that one commit (charts/serving_spec.py revision_args), so "
                      "that the weights and the model's remote code come from the same commit",
               _revision_fix(None if dotted else value))
    elif rule in _DERIVED:
        field, effect, fix = _DERIVED[rule]
        report(index, f"{spelled}, which the project derives from {field}: {effect}", fix)
    elif rule == "gpus":
        report(index, f"{spelled}, which changes how many GPUs or nodes one vLLM replica uses; the project gives a "
                      "replica exactly the model.tensor_parallel_size GPUs of one node",
               "remove it; set model.tensor_parallel_size (and capacity.instance_type) to change the GPUs of a replica")
    elif rule == "listen":
        detail = _LISTEN_DETAIL.get(option.name, "changes the address or port vLLM listens on")
        report(index, f"{spelled}, which {detail}; the Service and the health probes expect plain HTTP on port "
                      f"{SERVING_PORT}", f"remove it; the project sets the host and the port ({SERVING_PORT}) itself")
    elif rule == "download_dir":
        report(index, f"{spelled}: vLLM would download and load the weights in that directory instead of the model "
                      "cache on the node's NVMe (HF_HOME), which the project sizes and keeps across restarts",
               "remove it; the project keeps the weights in the node's NVMe model cache")
    elif rule == "api_key":
        report(index, f"{spelled}: an API key in plain text in the configuration file and the pod spec",
               _SECRETS_FIX.format(what="the API key"))
    elif rule == "hf_token":
        if dotted or value is not None:  # bare, it means "use the token of the environment or the stored login"
            report(index, f"{spelled} with a value: a Hugging Face token in plain text in the configuration file and "
                          "the pod spec", _SECRETS_FIX.format(what="the Hugging Face token"))
    elif rule == "config_file":
        report(index, f"{spelled}: vLLM would read more options from a YAML file, past these checks (and the file "
                      "is not in the container)", "write the options themselves as items of model.extra_args")
    elif rule == "help":
        report(index, f"{spelled}: vLLM would print its help and exit instead of serving", "remove it")
    elif rule == "kv_cache_bytes":
        report(index, f"{spelled}: a fixed KV cache size makes vLLM ignore --gpu-memory-utilization, the share of GPU "
                      "memory the sizing check counted on",
               f"remove it; raise --gpu-memory-utilization (from {minimum} to 1.0) to give vLLM more memory")
    elif rule == "gpu_memory":
        problem = "it takes one number, not JSON keys" if dotted else _gpu_memory_problem(value, minimum)
        if problem is not None:
            report(value_index, f"{spelled}: {problem}",
                   f"use a number from {minimum} to 1.0, or remove it (the project's sizing assumes {minimum})")
    elif rule == "api_servers":
        count = None if dotted or value is None else _as_int(value)
        if count is None:
            what = "JSON keys" if dotted else "no value" if value is None else quoted(value)
            report(value_index, f"{spelled} needs a whole number, not {what}", "use a whole number of 1 or more, or remove it")
        elif count < 1:
            report(value_index, f"{spelled} with {quoted(value)}: with fewer than one API server vLLM runs headless, and "
                                f"nothing answers on port {SERVING_PORT}", "use a whole number of 1 or more, or remove it")


def _revision_fix(value: str | None) -> str:
    """Where the revision goes instead: the commit itself when the item gave one, else how to find it."""
    if value is not None and re.fullmatch(r"[0-9a-f]{40}", value):
        return f"remove it (and its value); set model.hugging_face_revision: {value}"
    named = f" of {quoted(value)}" if value else ""
    return (f"remove it (and its value); set model.hugging_face_revision to the 40-hex commit{named} "
            "(`git ls-remote https://huggingface.co/OWNER/NAME REF` prints it; `llmops weights mirror --env NAME "
            "--revision REF` resolves and writes it for S3 weights)")


def _as_int(text: str) -> int | None:
    try:
        return int(text)  # argparse type=int
    except ValueError:
        return None


def _gpu_memory_problem(value: str | None, minimum: float) -> str | None:
    """Why ``value`` (argparse ``type=float``) cannot be vLLM's share of GPU memory here, or None if it can."""
    if value is None:
        return "it needs a value"
    try:
        share = float(value)
    except ValueError:
        return f"{quoted(value)} is not a number"
    if math.isnan(share) or not 0 < share <= 1:
        return f"{quoted(value)} is not a share of GPU memory: vLLM takes more than 0 and at most 1"
    if share < minimum:
        return (f"{quoted(value)} is below {minimum}: the sizing check assumed vLLM may use {minimum:.0%} of each GPU's "
                "memory for the weights and the KV cache, with less they may not fit")
    return None

# ---------------------------------------------------------------------------------------------------------------------
# Environment variables

_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

#: Where the weights come from or are kept. huggingface_hub 2.4.0 (huggingface/huggingface_hub,
#: src/huggingface_hub/constants.py): HF_HOME (default of every cache below), HF_HUB_CACHE (falls back to the legacy
#: HUGGINGFACE_HUB_CACHE), HF_XET_CACHE (Xet download chunks, under HF_HOME), HF_ENDPOINT (the hub downloads come
#: from), HF_HUB_OFFLINE = HF_HUB_OFFLINE or TRANSFORMERS_OFFLINE (no download: a fresh node cannot fetch the
#: weights, and vllm/engine/arg_utils.py EngineArgs then swaps the model id for a local path). TRANSFORMERS_CACHE: the
#: transformers library's legacy name for the hub cache. vllm/envs.py: VLLM_USE_MODELSCOPE "will load models from
#: ModelScope instead of Hugging Face Hub". VLLM_CACHE_ROOT (vLLM's compile and asset caches, not weights) and
#: XDG_CACHE_HOME (only a default under HF_HOME, which the project sets) stay allowed.
_CACHE_ENV = {
    "HF_HOME": "moves the Hugging Face cache, where the weights are downloaded to, off the node's NVMe",
    "HF_HUB_CACHE": "moves the Hugging Face hub cache, where the weights are downloaded to, off the node's NVMe",
    "HUGGINGFACE_HUB_CACHE": "moves the Hugging Face hub cache, where the weights are downloaded to, off the node's NVMe",
    "TRANSFORMERS_CACHE": "moves the transformers cache of downloaded files off the node's NVMe",
    "HF_XET_CACHE": "moves the cache Hugging Face downloads go through off the node's NVMe",
    "HF_ENDPOINT": "makes vLLM download the weights from another hub than the one the configuration names",
    "HF_HUB_OFFLINE": "forbids downloads, so a node with an empty cache cannot fetch the weights",
    "TRANSFORMERS_OFFLINE": "forbids downloads (huggingface_hub reads it like HF_HUB_OFFLINE), so a node with an "
                            "empty cache cannot fetch the weights",
    "VLLM_USE_MODELSCOPE": "makes vLLM load the model from ModelScope instead of the Hugging Face Hub",
}
#: vllm/envs.py. VLLM_PORT: "used in distributed environment to manually set the communication port [...] if some code
#: asks for multiple ports, the VLLM_PORT will be used as the first port, and the rest will be generated by
#: incrementing" -- not the API port (FrontendArgs.port), but ports counted up from it can take port 8000, and a
#: value like tcp://... (what Kubernetes injects for a Service named vllm) stops vLLM. VLLM_HOST_IP: the IP of this
#: node "in distributed environment", for multi-node serving. VLLM_DP_*: data-parallel size, rank and master.
#: CUDA_VISIBLE_DEVICES / NVIDIA_VISIBLE_DEVICES: which GPUs the container sees, set by the NVIDIA device plugin.
_PLACEMENT_ENV = {
    "VLLM_PORT": "sets the first of vLLM's internal communication ports (vllm/envs.py), counted up from there; they "
                 f"can collide with the API port {SERVING_PORT}, and one replica on one node needs no fixed port",
    "VLLM_HOST_IP": "sets the IP vLLM's processes reach each other on, for serving over several nodes; one replica "
                    "runs on one node",
    "VLLM_DP_SIZE": "sets the data-parallel size, which changes how many GPUs one replica uses",
    "VLLM_DP_RANK": "sets a data-parallel rank, for serving over several engines",
    "VLLM_DP_RANK_LOCAL": "sets a data-parallel rank, for serving over several engines",
    "VLLM_DP_MASTER_IP": "sets the data-parallel master, for serving over several engines",
    "VLLM_DP_MASTER_PORT": "sets the data-parallel master port, for serving over several engines",
    "CUDA_VISIBLE_DEVICES": "selects GPUs, which the NVIDIA device plugin assigns to the pod",
    "NVIDIA_VISIBLE_DEVICES": "selects GPUs, which the NVIDIA device plugin assigns to the pod",
}
#: AWS credentials: the SDKs' AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN, vllm/envs.py's
#: S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY ("S3 access information, used for tensorizer"), and the AWS_ROLE_ARN /
#: AWS_WEB_IDENTITY_TOKEN_FILE that EKS injects for the pod's IAM role (IRSA), which a value here would replace.
_AWS_CREDENTIAL_ENV = frozenset({"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "S3_ACCESS_KEY_ID",
                                 "S3_SECRET_ACCESS_KEY", "AWS_ROLE_ARN", "AWS_WEB_IDENTITY_TOKEN_FILE"})
#: Secrets known by name: vllm/envs.py VLLM_API_KEY ("API key for vLLM API server"); huggingface_hub 2.4.0
#: utils/_auth.py reads HF_TOKEN, then HUGGING_FACE_HUB_TOKEN ("for backward compatibility").
_SECRET_ENV = frozenset({"HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "VLLM_API_KEY"})
#: Name parts (between underscores, any case) that mark a secret: one ending in TOKEN, SECRET, PASSWORD, PASSWD,
#: CREDENTIAL(S) or APIKEY (HF_TOKEN, MYTOKEN, DB_PASSWORD), or API / ACCESS / PRIVATE / SECRET followed by KEY
#: (OPENAI_API_KEY). A bare substring test would also refuse TOKENIZERS_PARALLELISM or vLLM's own tuning variables
#: VLLM_MULTI_STREAM_GEMM_TOKEN_THRESHOLD and VLLM_SHARED_EXPERTS_STREAM_TOKEN_THRESHOLD (vllm/envs.py), so a part
#: followed by THRESHOLD (a setting about tokens) or PATH / FILE / DIR (where a secret file is, e.g. HF_TOKEN_PATH:
#: the way to use a mounted secret) does not count.
_SECRET_ENDINGS = ("TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "CREDENTIALS", "APIKEY")
_KEY_QUALIFIERS = frozenset({"API", "ACCESS", "PRIVATE", "SECRET"})
_NOT_SECRET_AFTER = frozenset({"THRESHOLD", "PATH", "FILE", "DIR"})


def _looks_secret(name: str) -> bool:
    parts = name.upper().split("_")
    for i, part in enumerate(parts):
        following = parts[i + 1] if i + 1 < len(parts) else None
        if following in _NOT_SECRET_AFTER:
            continue
        if part.endswith(_SECRET_ENDINGS) or (part in _KEY_QUALIFIERS and following == "KEY"):
            return True
    return False


def extra_env_problems(extra_env: Mapping[str, str]) -> list[tuple[str, Problem]]:
    """What is wrong with ``model.extra_env``, as (variable name, problem), in the mapping's order.

    Refused: names that are not POSIX environment variable names; the engine start-up timeout the project derives;
    variables that move the model cache or the weights' source; variables that place vLLM's processes, GPUs or ports
    (single node, one replica, port 8000); secrets in plain text. Values are never quoted back (they may be secrets).
    """
    problems: list[tuple[str, Problem]] = []
    for name in extra_env:
        problem = _env_problem(name)
        if problem is not None:
            problems.append((name, problem))
    return problems


def _env_problem(name: str) -> Problem | None:
    if not _ENV_NAME.fullmatch(name):
        return Problem(f"{quoted(name)} is not an environment variable name",
                       "use letters, digits and underscores, not starting with a digit")
    if name == ENGINE_READY_TIMEOUT_ENV:
        return Problem(f"{name} is derived from the weight size, together with the startup probe that must outlast it",
                       "remove it; raise model.weight_size_gb if loading takes longer")
    if name in _CACHE_ENV:
        return Problem(f"{name} {_CACHE_ENV[name]}; the project keeps the weights in the NVMe model cache and chooses "
                       "their source with model.weight_source", "remove it")
    if name in _PLACEMENT_ENV:
        return Problem(f"{name} {_PLACEMENT_ENV[name]}", "remove it")
    if name in _AWS_CREDENTIAL_ENV:
        return Problem(f"{name} is an AWS credential: the pod gets AWS access from its IAM role (IRSA), which EKS "
                       "injects itself", "do not put secrets in the configuration file; remove it and grant the "
                       "access to the pod's IAM role instead")
    if name in _SECRET_ENV or _looks_secret(name):
        return Problem(f"{name} looks like a secret, and its value would sit in plain text in the configuration file "
                       "and the pod spec", "do not put secrets in the configuration file; remove it: keep the value in "
                       "AWS Secrets Manager, which the project mounts into the pod with the Secrets Store CSI driver")
    return None

# ---------------------------------------------------------------------------------------------------------------------
# The vendored recipe's arguments (deployment_config/recipe.py), judged by the same table

#: Config options whose value is a JSON object: FlexibleArgumentParser builds exactly that from their dotted form
#: (``--compilation-config.mode 3`` becomes ``--compilation-config '{"mode": 3}'``, the module docstring, step 1), and
#: the three are in the one-value table above (_ALIASED).
_JSON_OPTIONS = frozenset({"--attention-config", "--speculative-config", "--compilation-config"})


def recipe_args_problems(args: Sequence[str]) -> tuple[list[str], list[str]]:
    """What the vendored vLLM 0.33.0 rules say about arguments the recipe gives: (disagreements, options the table
    does not know). A disagreement is a rule of this module the recipe breaks (an option the project derives, a memory
    share below the sizing's, a flag given a value, a config option whose value is not a JSON object). An option this
    table does not list is taken by vLLM as one-value (the module docstring): reported separately, so that a test
    names each one the recipe starts to use."""
    from deployment_config.sizing import GPU_MEMORY_UTILIZATION

    problems = [f"{args[i]!r}, read by the rules of {VLLM_SOURCE}: {p.problem}" for i, p in
                extra_args_problems(args, gpu_memory_utilization_min=GPU_MEMORY_UTILIZATION)]
    unknown: list[str] = []
    for i, item in enumerate(args):
        if not item.startswith("--"):
            continue
        option = _BY_SPELLING.get(item)
        following = args[i + 1] if i + 1 < len(args) else None
        has_value = following is not None and not _is_option(following)
        if option is None:
            unknown.append(item)
        elif option.arity == "flag" and has_value and not problems:
            problems.append(f"{item!r} is a flag in {VLLM_SOURCE} ({option.source}), but the recipe gives it the value "
                            f"{following!r}")
        elif option.arity in ("one", "append") and not has_value:
            problems.append(f"{item!r} takes a value in {VLLM_SOURCE} ({option.source}); the recipe gives none")
        if option is not None and option.name in _JSON_OPTIONS and has_value:
            import json

            try:
                parsed = json.loads(following)
            except ValueError:
                parsed = None
            if not isinstance(parsed, dict):
                problems.append(f"{item!r} takes a JSON object in {VLLM_SOURCE}; the recipe gives {following!r}")
    return problems, unknown
