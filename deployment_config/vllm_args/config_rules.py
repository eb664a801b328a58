"""The cross-field rules of the JSON config options whose config class checks its fields together: what vLLM 0.33.0's
parser refuses in a ``--profiler-config`` or ``--eplb-config`` object whose every key and name is valid on its own.

vLLM parses these options' JSON into their pydantic config class at parse time (vllm/engine/arg_utils.py
``parse_dataclass``), so the class's ``model_validator(mode="after")`` stops ``vllm serve`` before anything else runs.
Sources: the vLLM 0.33.0 wheel (sha256 4b6bdec4ab26..., the one vllm_serve_options.json names), vllm/config/profiler.py
``ProfilerConfig._validate_profiler_config`` and vllm/config/parallel.py ``EPLBConfig._validate_eplb_config``; the
rules below follow those validators in their order. A field whose value has a type the rule cannot read is left to
vLLM, as other field types are (serve_options.py ``json_object_problem``).

The object judged is the one vLLM builds: dotted keys of one option merged (``--profiler-config.profiler torch
--profiler-config.torch_profiler_dir /tmp/p`` is one object), and a dotted value replacing a plain one
(vllm/utils/argparse_utils.py ``FlexibleArgumentParser.parse_args`` appends the merged dotted value last)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

#: pydantic 2's lax bool: the strings it reads as True / False (any case), and 0 / 1.
_TRUE = frozenset({"1", "on", "t", "true", "y", "yes"})
_FALSE = frozenset({"0", "off", "f", "false", "n", "no"})


def _bool(value: object) -> bool | None:
    """The bool pydantic reads ``value`` as, or None where it reads none (vLLM refuses the type itself)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.lower() in _TRUE | _FALSE:
        return value.lower() in _TRUE
    return None


def _is_uri(path: str) -> bool:
    """vllm/config/profiler.py ``_is_uri_path``: ``scheme://...`` with a scheme longer than one letter."""
    return "://" in path and len(path.split("://")[0]) > 1


#: ProfilerConfig's Proton fields and their defaults (vllm/config/profiler.py, the list in _validate_profiler_config).
_PROTON_DEFAULTS: Mapping[str, object] = {
    "proton_profiler_dir": "",
    "proton_context": "shadow",
    "proton_data": "tree",
    "proton_backend": None,
    "proton_mode": None,
    "proton_hook": None,
    "proton_output_format": None,
    "proton_graph_attribution": False,
}


def _proton_set(config: Mapping[str, object]) -> list[str]:
    """The Proton fields ``config`` gives a value other than their default."""
    names = []
    for name, default in _PROTON_DEFAULTS.items():
        if name not in config:
            continue
        value = config[name]
        if name == "proton_graph_attribution":
            value = _bool(value)
        if value != default:
            names.append(name)
    return names


def profiler_config_problems(config: Mapping[str, object]) -> list[str]:
    """What ``ProfilerConfig._validate_profiler_config`` (vLLM 0.33.0 vllm/config/profiler.py) refuses, in words that
    name the fields; each rule as vLLM words it."""
    profiler = config.get("profiler")
    problems = []
    activities = config.get("torch_profiler_activities")
    if activities is not None:
        if profiler != "torch":
            problems.append("torch_profiler_activities only applies with profiler 'torch'")
        elif isinstance(activities, list) and len(activities) != len(set(map(str, activities))):
            problems.append("torch_profiler_activities must not contain duplicates")
    torch_dir = config.get("torch_profiler_dir", "")
    if torch_dir and profiler != "torch":
        problems.append("torch_profiler_dir only applies with profiler 'torch'")
    if profiler == "torch" and not torch_dir:
        problems.append("profiler 'torch' needs torch_profiler_dir (an absolute path or a URI)")
    proton = _proton_set(config)
    if proton and profiler != "proton":
        problems.append(f"{', '.join(proton)} only apply with profiler 'proton'")
    proton_dir = config.get("proton_profiler_dir", "")
    if profiler == "proton" and not proton_dir:
        problems.append("profiler 'proton' needs proton_profiler_dir")
    if isinstance(proton_dir, str) and _is_uri(proton_dir):
        problems.append("proton_profiler_dir must be a local directory, not a URI")
    if profiler == "proton":
        problems += _proton_combination_problems(config)
    if _bool(config.get("capture_torch_profiler", False)) and profiler != "torch":
        problems.append("capture_torch_profiler only applies with profiler 'torch'")
    return problems


def _proton_combination_problems(config: Mapping[str, object]) -> list[str]:
    """The rules that hold with profiler 'proton': attribution and output format against ``proton_data``."""
    data = config.get("proton_data", "tree")
    attribution = _bool(config.get("proton_graph_attribution", False))
    mode = config.get("proton_mode")
    output_format = config.get("proton_output_format")
    problems = []
    if attribution and data != "tree":
        problems.append("proton_graph_attribution needs proton_data 'tree'")
    if (
        attribution
        and isinstance(mode, str)
        and mode.split(":", 1)[0].lower() == "periodic_flushing"
    ):
        problems.append("proton_graph_attribution does not go with proton_mode periodic_flushing")
    if output_format == "chrome_trace" and data != "trace":
        problems.append("proton_output_format 'chrome_trace' needs proton_data 'trace'")
    if output_format in ("hatchet", "hatchet_msgpack") and data != "tree":
        problems.append(f"proton_output_format {output_format!r} needs proton_data 'tree'")
    return problems


def eplb_config_problems(config: Mapping[str, object]) -> list[str]:
    """What ``EPLBConfig._validate_eplb_config`` (vLLM 0.33.0 vllm/config/parallel.py) refuses. Its third rule
    (log_balancedness_interval <= 0) cannot fire: the field's own ``Field(gt=0)`` refuses such a value first."""
    use_async = _bool(config.get("use_async", True))  # EPLBConfig.use_async defaults to True
    problems = []
    policy = config.get("policy", "default")
    if use_async and policy != "default":
        problems.append("async EPLB (use_async, on by default) takes only policy 'default'")
    communicator = config.get("communicator")
    if use_async and communicator in ("torch_nccl", "pynccl"):
        problems.append(
            f"communicator {communicator!r} does not go with async EPLB (use_async, on by default): NCCL "
            "multi-stream conflicts; use 'torch_gloo' or 'nixl', or leave communicator unset"
        )
    return problems


#: The options whose config class checks fields together, with its rules and the class named in messages.
CROSS_FIELD_RULES: Mapping[str, tuple[Callable[[Mapping[str, object]], list[str]], str]] = {
    "--profiler-config": (profiler_config_problems, "vllm/config/profiler.py ProfilerConfig"),
    "--eplb-config": (eplb_config_problems, "vllm/config/parallel.py EPLBConfig"),
}
