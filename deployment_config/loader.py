"""Load one environment file from ``config/`` and validate every field, once, at the edge.

The file's shape lives in :mod:`deployment_config.file_models` (pydantic), its rules between fields in
:mod:`deployment_config.cross_section_rules`; this module reads the file
safely (:mod:`deployment_config.yaml_reader`), collects every mistake into one :class:`ConfigError` (field path,
what is wrong, the fix), and turns a valid file into the frozen dataclasses of :mod:`deployment_config.model`.

Nothing here imports the CDK: a bad file fails in a fraction of a second, before any synthesis output is written.
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from deployment_config import recipe, speculator
from deployment_config.catalog import MODEL_PRESETS
from deployment_config.cross_section_rules import ENVIRONMENT_RULES, PIPELINE_RULES
from deployment_config.errors import ConfigError, ConfigIssue, key_in_path, quoted, shown_number
from deployment_config.file_models import (
    DEFAULT_KUBERNETES_VERSION,
    HYPERPOD_KUBERNETES_VERSIONS,
    SUPPORTED_KUBERNETES_VERSIONS,
    EnvironmentFile,
    PipelineFile,
)
from deployment_config.file_values import merge_in, run_rules, top_level
from deployment_config.file_values import position as position_in_file
from deployment_config.model import (
    EnvironmentConfig,
    ModelConfig,
    Platform,
    WeightSource,
)
from deployment_config.placeholders import ENVIRONMENT_ID_FIELDS, placeholder_fields
from deployment_config.yaml_reader import read_yaml

__all__ = [
    "DEFAULT_ENVIRONMENT",
    "DEFAULT_ENVIRONMENTS",
    "DEFAULT_KUBERNETES_VERSION",
    "HYPERPOD_KUBERNETES_VERSIONS",
    "SUPPORTED_KUBERNETES_VERSIONS",
    "available_environments",
    "config_path",
    "load_environment",
    "parse_environment",
    "read_config_file",
    "validate_document",
]

#: The environment synthesized when no ``-c env=NAME`` is given.
DEFAULT_ENVIRONMENT = "example"
#: Everything synthesized when no ``-c env=NAME`` is given: one environment of each platform.
DEFAULT_ENVIRONMENTS = (DEFAULT_ENVIRONMENT, "example-hyperpod")

#: The rules between the fields of each kind of file.
RULES = {EnvironmentFile: ENVIRONMENT_RULES, PipelineFile: PIPELINE_RULES}

ENV_NAME = re.compile(r"[a-z][a-z0-9-]{0,19}")
#: What may name a file of config/ at all (the stack-name rule above is checked, with the file's other mistakes, later).
_FILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")

_EXPECTED = {
    "string_type": "a string",
    "int_type": "a whole number",
    "bool_type": "true or false",
    "float_type": "a number",
    "list_type": "a list",
    "dict_type": "a mapping of keys",
    "model_type": "a mapping of keys",
    "model_attributes_type": "a mapping of keys",
}


def _describe(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return f"{type(value).__name__} {quoted(value)}"


def _path(loc: tuple[Any, ...]) -> str:
    """A pydantic location as a dotted field path: ``model.extra_args[2]``, ``tags.team``; a key that is not plain is
    quoted (``tags.'a\\nb'``)."""
    text = ""
    for position, part in enumerate(loc):
        if part == "[key]":
            continue
        is_key = position + 1 < len(loc) and loc[position + 1] == "[key]"
        if isinstance(part, int) and not is_key:
            text += f"[{part}]"
        else:
            segment = key_in_path(part)
            text += f".{segment}" if text else segment
    return text or "(top level)"


def _field_at(
    root: type[BaseModel], loc: tuple[Any, ...]
) -> tuple[FieldInfo | None, type[BaseModel] | None]:
    """The pydantic field a location points at, and the model that declares it."""
    model: type[BaseModel] | None = root
    field: FieldInfo | None = None
    parent = None
    for part in loc:
        if isinstance(part, int) or model is None:
            continue
        field = model.model_fields.get(str(part))
        parent = model
        if field is None:
            return None, parent
        model = _model_of(field.annotation)
    return field, parent


def _model_of(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for argument in getattr(annotation, "__args__", ()) or ():
        found = _model_of(argument)
        if found:
            return found
    return None


def _example(field: FieldInfo | None) -> str | None:
    if field is None or not field.examples:
        return None
    example = field.examples[0]
    if isinstance(example, str):
        return f'"{example}"' if example.isdigit() else example
    if isinstance(example, list):
        return "[" + ", ".join(str(item) for item in example) + "]"
    if isinstance(example, dict):
        return "{" + ", ".join(f"{k}: {v}" for k, v in example.items()) + "}"
    return str(example).lower() if isinstance(example, bool) else str(example)


def _issue(error: dict[str, Any], root: type[BaseModel]) -> ConfigIssue:
    """One pydantic error as the project's field / problem / fix."""
    loc = tuple(error["loc"])
    if error["type"] == "invalid_key":  # pydantic names the key itself, without its '[key]' marker
        loc = (*loc, "[key]")
    field_path = _path(loc)
    kind = error["type"]
    value = error.get("input")
    context = error.get("ctx") or {}
    key = next(
        (str(part) for part in reversed(loc) if isinstance(part, str) and part != "[key]"),
        field_path,
    )
    field, parent = _field_at(root, tuple(part for part in loc if part != "[key]"))
    example = _example(field)
    write_like = (
        f"write it like: {key}: {example}" if example else "see the example files under config/"
    )
    if kind == "config":
        return ConfigIssue(field_path, context["problem"], context["fix"])
    if kind == "missing":
        if field is not None and _model_of(field.annotation):
            return ConfigIssue(field_path, "is required and missing", f"add a '{key}:' section")
        return ConfigIssue(
            field_path,
            "is required and missing",
            f"add it, for example: {key}: {example}" if example else f"add {key}",
        )
    if kind == "extra_forbidden":
        allowed = list(parent.model_fields) if parent is not None else []
        close = difflib.get_close_matches(str(loc[-1]), allowed, n=1)
        hint = f"did you mean '{close[0]}'? " if close else ""
        return ConfigIssue(
            field_path, "unknown key", f"{hint}remove it, or use one of: {', '.join(allowed)}"
        )
    if "[key]" in loc:
        return ConfigIssue(
            field_path,
            f"is a key that is {_describe(loc[-2])}, not a string",
            "quote the key, or remove it",
        )
    if kind in _EXPECTED:
        return ConfigIssue(
            field_path, f"expected {_EXPECTED[kind]}, got {_describe(value)}", write_like
        )
    if kind == "literal_error":
        choices = context.get("expected", "")
        return ConfigIssue(
            field_path,
            f"{quoted(value)} is not one of: {choices}",
            f"use one of: {choices}" + (" (quoted)" if key == "kubernetes_version" else ""),
        )
    if kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        low = next(
            (m.ge for m in (field.metadata if field else []) if getattr(m, "ge", None) is not None),
            None,
        )
        high = next(
            (m.le for m in (field.metadata if field else []) if getattr(m, "le", None) is not None),
            None,
        )
        bounds = f"{low}..{high}" if low is not None and high is not None else str(context)
        return ConfigIssue(
            field_path,
            f"{shown_number(value)} is outside {bounds}",
            f"use a value in {bounds}; {write_like}",
        )
    if kind in ("too_short", "too_long"):
        limit = context.get("min_length") if kind == "too_short" else context.get("max_length")
        words = "at least" if kind == "too_short" else "at most"
        return ConfigIssue(
            field_path,
            f"needs {words} {limit} item(s), got {context.get('actual_length')}",
            write_like,
        )
    return ConfigIssue(
        field_path, f"{error.get('msg', 'is not valid')} (got {_describe(value)})", write_like
    )


def validate_document(
    data: Any,
    model: type[BaseModel],
    *,
    name_issues: list[ConfigIssue] | None = None,
    source: str = "<memory>",
    context: dict[str, Any] | None = None,
) -> BaseModel:
    """``data`` validated against ``model`` and the rules between its fields (:data:`RULES`), or one
    :class:`ConfigError` holding every mistake found.

    The messages are listed in the order a reader meets the fields: first each field's own errors and the rules'
    refusals of a value, at the field's place in the file; then the notes, by section (deployment_config/file_values.py).
    """
    context = {} if context is None else context
    issues = list(name_issues or [])
    validated, errors = None, []
    if not isinstance(data, dict):
        issues.append(
            ConfigIssue(
                "(top level)",
                f"expected a mapping of keys, got {_describe(data)}",
                "write the file as 'key: value' lines, starting from the example under config/",
            )
        )
    else:
        try:
            validated = model.model_validate(data, context=context)
        except ValidationError as error:
            errors = error.errors(include_url=False)
    found = run_rules(RULES.get(model, ()), model, data, [error["loc"] for error in errors])
    errors_in_place = merge_in(
        [(position_in_file(model, error["loc"]), _issue(error, model)) for error in errors],
        [(position_in_file(model, loc), issue) for loc, issue in found.refusals],
        key=lambda item: item[0],
    )
    issues.extend(issue for _, issue in errors_in_place)
    sections = list(model.model_fields)

    def section_of(item: tuple[str, ConfigIssue]) -> int:
        name = item[0]
        return sections.index(name) if name in sections else len(sections)

    notes = merge_in(
        [(top_level(issue.field), issue) for issue in context.get("issues", [])],
        found.notes,
        key=section_of,
    )
    issues.extend(issue for _, issue in notes)
    if issues:
        raise ConfigError.of(_one_per_field(issues), source=source)
    return validated


def _one_per_field(issues: list[ConfigIssue]) -> list[ConfigIssue]:
    """One message per field: two problems of the same value (an item that is both misspelt and forbidden) are joined."""
    merged: dict[str, ConfigIssue] = {}
    for issue in issues:
        first = merged.get(issue.field)
        if first is None:
            merged[issue.field] = issue
        elif issue.problem not in first.problem:
            merged[issue.field] = ConfigIssue(
                issue.field, f"{first.problem}; and {issue.problem}", f"{first.fix}; {issue.fix}"
            )
    return list(merged.values())


def parse_environment(data: Any, *, name: str, source: str = "<memory>") -> EnvironmentConfig:
    """Validate a parsed YAML document and return the typed environment, or raise :class:`ConfigError`."""
    name_issues = []
    if not ENV_NAME.fullmatch(name):
        name_issues.append(
            ConfigIssue(
                "(file name)",
                f"{quoted(name)} cannot name stacks: it must start with a letter and use only a-z, 0-9 and '-', "
                "at most 20",
                "rename the file, for example config/prod-use2.yaml",
            )
        )
    document: EnvironmentFile = validate_document(
        data, EnvironmentFile, name_issues=name_issues, source=source
    )
    return _environment(document, name=name, source=source)


def _environment(file: EnvironmentFile, *, name: str, source: str) -> EnvironmentConfig:
    capacity = file.capacity
    hyperpod = file.hyperpod
    section = file.model
    preset = MODEL_PRESETS[section.preset]
    # The same resolution the file's validation made (deployment_config/cross_section_rules/facts.py placement).
    gpu_type = (capacity or hyperpod).gpu_instance_type
    # The speculator counts only where spec_decoding is on (the file's validation refused it being set otherwise).
    speculator_gb = (
        (section.speculator_size_gb or 0) if speculator.FEATURE in section.features else 0
    )
    resolution = recipe.resolve(
        preset=section.preset,
        serving_profile=section.serving_profile,
        features=section.features,
        instance_type=gpu_type,
        weights_gb=section.weight_size_gb or preset.weight_size_gb,
        multi_node=capacity is not None,
        load_format=preset.load_format,
        extra_args=section.extra_args,
        speculator_gb=speculator_gb,
    )
    model = ModelConfig(
        preset=preset,
        hugging_face_id=section.hugging_face_id or preset.hugging_face_id,
        served_name=section.served_name or preset.served_name,
        image=section.image or preset.image,
        tensor_parallel_size=section.tensor_parallel_size or preset.tensor_parallel_size,
        weight_size_gb=section.weight_size_gb or preset.weight_size_gb,
        extra_args=tuple(section.extra_args),
        extra_env=MappingProxyType(dict(section.extra_env)),
        weight_source=WeightSource(section.weight_source),
        s3_uri=section.s3_uri,
        hugging_face_revision=section.hugging_face_revision,
        hugging_face_token_secret=section.hugging_face_token_secret,
        image_cache=section.image_cache,
        serving_profile=section.serving_profile,
        features=tuple(section.features),
        profile=resolution.profile,
        memory=resolution.memory,
        speculator_revision=section.speculator_revision,
        speculator_size_gb=speculator_gb,
    )
    return EnvironmentConfig(
        name=name,
        source=source,
        account=file.account,
        region=file.region,
        availability_zones=tuple(file.availability_zones),
        platform=Platform(file.platform),
        kubernetes_version=file.kubernetes_version,
        vpc_cidr=file.vpc_cidr,
        cluster=file.cluster,
        model=model,
        capacity=capacity,
        endpoint=file.endpoint,
        observability=file.observability,
        tags=MappingProxyType({"environment": name, **file.tags}),
        hyperpod=hyperpod,
        access=file.access,
        placeholders=placeholder_fields(file.model_dump(), ENVIRONMENT_ID_FIELDS),
    )


def config_path(config_dir: Path, name: str) -> Path:
    return config_dir / f"{name}.yaml"


def available_environments(config_dir: Path) -> list[str]:
    return sorted(p.stem for p in config_dir.glob("*.yaml"))


def _display(path: Path) -> str:
    """The path as the user would type it: relative to the working directory when it is below it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(path)


def read_config_file(
    path: Path, *, context_key: str, known: list[str], option: str | None = None
) -> tuple[Path, Any]:
    """The parsed YAML of a configuration file chosen by name, and its path as the user types it.

    :param context_key: the CDK context key that chose it (``env``, ``pipeline``).
    :param option: how the user chose it, for messages: ``-c env=NAME`` (the default) or ``--env NAME``.
    A missing file names the ones there are; a YAML error names its line.
    """
    option = option or f"-c {context_key}=NAME"
    path = Path(_display(path))
    if not path.is_file():
        raise ConfigError(
            context_key,
            f"there is no file {path}",
            f"pass {option} with one of: {', '.join(known) or '(none)'}; or add {path}",
            source=option.replace("NAME", path.stem),
        )
    return path, read_yaml(path, source=str(path))


def check_name(name: str, *, context_key: str, option: str | None = None) -> None:
    """Refuse a name that cannot be a file of config/ before any path is built from it."""
    option = option or f"-c {context_key}=NAME"
    if not _FILE_NAME.fullmatch(name) or ".." in name:
        raise ConfigError(
            context_key,
            f"{quoted(name)} is not the name of a configuration file" if name else "is empty",
            f"pass {option}, where NAME is a file of config/ without .yaml "
            "(a-z, 0-9 and '-', starting with a letter)",
            source=option.replace("NAME", quoted(name)),
        )


def load_environment(
    config_dir: Path, name: str, *, option: str | None = None
) -> EnvironmentConfig:
    """Read ``config_dir/NAME.yaml`` and return the validated environment, or raise :class:`ConfigError`.

    :param option: how the user chose the environment, for messages (default ``-c env=NAME``).
    """
    check_name(name, context_key="env", option=option)
    path, data = read_config_file(
        config_path(config_dir, name),
        context_key="env",
        known=available_environments(config_dir),
        option=option,
    )
    return parse_environment(data, name=name, source=str(path))
