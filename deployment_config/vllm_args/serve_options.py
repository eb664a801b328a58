"""Every option of ``vllm serve`` (vLLM 0.33.0) and what its parser accepts as the value, read from
``vllm_serve_options.json``: generated from the wheel by ``generate.py`` (the command, the wheel's name and sha256 are
in the file's ``source``). :func:`parser_value_problem` is what argparse and vLLM's ``type`` callables
(vllm/engine/arg_utils.py ``optional_type``, ``parse_type``, ``union_dict_and_str``, ``parse_dataclass``;
vllm/utils/argparse_utils.py ``human_readable_int``, ``human_readable_int_or_auto``) say of one value: the type first,
then ``choices`` on the converted value (CPython Lib/argparse.py ``_get_values`` then ``_check_value``). Tests compare
it with the real parser's verdicts (tests/data/vllm_parser_verdicts.json)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

OPTIONS_FILE = Path(__file__).resolve().with_name("vllm_serve_options.json")
_DATA = json.loads(OPTIONS_FILE.read_text(encoding="utf-8"))
#: The wheel the table comes from, for messages.
SERVE_SOURCE = (
    f"vLLM {_DATA['source']['vllm_version']}'s parser ({_DATA['source']['wheel']}, sha256 "
    f"{_DATA['source']['sha256'][:12]}...)"
)
#: Every option, by each option string the parser registers for it.
SERVE_OPTIONS: Mapping[str, Mapping[str, Any]] = {
    string: entry for entry in _DATA["options"] for string in entry["option_strings"]
}

Arity = Literal["flag", "one", "optional", "many", "append"]


def arity(entry: Mapping[str, Any]) -> Arity:
    """How many items argparse gives the option: none, one, one if there is one, one or more, one per occurrence."""
    if entry["flag"]:
        return "flag"
    if entry["action"] == "_AppendAction":
        return "append"
    return {None: "one", "?": "optional", "+": "many"}[entry["nargs"]]


def human_readable_int(text: str) -> int:
    """vllm/utils/argparse_utils.py human_readable_int: k/m/g/t x1000 (decimals allowed), K/M/G/T x1024 (whole)."""
    text = text.strip()
    match = re.fullmatch(r"(\d+(?:\.\d+)?)([kKmMgGtT])", text)
    if match is None:
        return int(text)
    number, suffix = match.groups()
    power = "kmgt".index(suffix.lower()) + 1
    return int(float(number) * 1000**power) if suffix.islower() else int(number) * 1024**power


def _convert(entry: Mapping[str, Any], value: str) -> Any:
    """The value as the option's ``type`` converts it; raises ValueError where the parser refuses it."""
    kind = entry["type"]
    if entry.get("optional") and value in ("", "None"):
        return None
    if kind == "json_if_braced":
        if not re.match(r"(?s)^\s*{.*}\s*$", value):
            return value
        return None if value in ("", "None") else json.loads(value)
    if kind == "human_readable_int_or_auto":
        stripped = value.strip()
        return -1 if stripped == "-1" or stripped.lower() == "auto" else human_readable_int(value)
    converters = {
        "str": str,
        "int": int,
        "float": float,
        "json": json.loads,
        "human_readable_int": human_readable_int,
        "lower_dash_to_underscore": lambda v: v.lower().replace("-", "_"),
        "comma_separated_ids": str,
        "json_object": lambda v: json_object_problem(entry, _expand_numbers(v)),
        "lora_module": _lora_module,
    }
    return converters[kind](value)


#: vllm/entrypoints/openai/models/protocol.py LoRAModulePath: name and path, then two optional fields.
_LORA_FIELDS = ("name", "path", "base_model_name", "is_3d_lora_weight")


def _lora_module(value: str) -> str:
    """vllm/entrypoints/common/cli_args.py LoRAParserAction: ``name=path`` (no comma), else a JSON LoRAModulePath."""
    if value == "" or ("=" in value and "," not in value):
        return value
    module = json.loads(value)
    if not isinstance(module, dict) or not {"name", "path"} <= module.keys() <= set(_LORA_FIELDS):
        raise ValueError("a LoRAModulePath takes name, path, base_model_name and is_3d_lora_weight")
    return value


def _expand_numbers(value: str) -> Any:
    """vllm/engine/arg_utils.py _expand_json_human_readable_numbers, then the JSON (ValueError if not JSON)."""
    parts = re.split(r'("(?:[^"\\]|\\.)*")', value)
    for i in range(0, len(parts), 2):
        parts[i] = re.sub(
            r"\b\d+(?:\.\d+)?[kKmMgGtT]\b",
            lambda m: str(human_readable_int(m.group())),
            parts[i],
        )
    return json.loads("".join(parts))


def json_object_problem(entry: Mapping[str, Any], config: Any) -> None:
    """Raise ValueError for what the option's config class (a pydantic dataclass with extra="forbid",
    vllm/config/utils.py ``config``) refuses: not an object, a key it does not have, a missing required key, a name
    outside a ``Literal`` field's names. Other field types are left to vLLM."""
    fields = entry["fields"]
    if not isinstance(config, dict):
        raise ValueError(f"{entry['dataclass']} takes a JSON object")
    unknown = [key for key in config if key not in fields]
    if unknown:
        raise ValueError(
            f"{unknown[0]!r} is not a field of {entry['dataclass']}, which refuses other keys"
        )
    missing = [key for key, spec in fields.items() if spec.get("required") and key not in config]
    if missing:
        raise ValueError(f"{entry['dataclass']} needs {missing[0]!r}")
    for key, value in config.items():
        names = fields[key].get("choices")
        if names and isinstance(value, str) and value not in names:
            raise ValueError(f"{entry['dataclass']}.{key} is one of {', '.join(names)}")


def parser_value_problem(entry: Mapping[str, Any], value: str) -> str | None:
    """Why vLLM 0.33.0's parser refuses ``value`` for the option, or None when it accepts it."""
    try:
        converted = _convert(entry, value)
    except (ValueError, TypeError) as error:
        return (
            f"{_expected(entry)} ({error})" if entry["type"] == "json_object" else _expected(entry)
        )
    choices = entry.get("choices")
    if choices is not None and converted not in choices:
        return "one of " + ", ".join(str(c) for c in choices if c is not None)
    return None


def _expected(entry: Mapping[str, Any]) -> str:
    return {
        "int": "a whole number",
        "float": "a number",
        "json": "JSON",
        "json_if_braced": "a name, or a JSON object",
        "human_readable_int": "a whole number, also written with k/m/g (x1000) or K/M/G (x1024, whole numbers only)",
        "human_readable_int_or_auto": "a whole number (k/m/g x1000, K/M/G x1024), or auto / -1",
        "json_object": "a JSON object of its config class's fields",
        "lora_module": "NAME=PATH, or a JSON object with name and path",
    }.get(entry["type"], "a value")
