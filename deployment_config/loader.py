"""Load one environment file from ``config/`` and validate every field, once, at the edge.

The file's shape lives in :mod:`deployment_config.file_models` (pydantic), its rules between fields in
:mod:`deployment_config.cross_section_rules`; this module reads the file
safely (:mod:`deployment_config.yaml_reader`), collects every mistake into one :class:`ConfigError` (field path,
what is wrong, the fix: :mod:`deployment_config.field_errors` words pydantic's errors), and builds the
:class:`~deployment_config.model.EnvironmentConfig` of a valid file from its validated, frozen sections.

Nothing here imports the CDK: a bad file fails in a fraction of a second, before any synthesis output is written.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pydantic import BaseModel, ValidationError

from deployment_config import recipe, speculator
from deployment_config.catalog import MODEL_PRESETS
from deployment_config.cross_section_rules import ENVIRONMENT_RULES, PIPELINE_RULES
from deployment_config.errors import ConfigError, ConfigIssue, quoted
from deployment_config.field_errors import describe, issue_of, one_per_field
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
from deployment_config.weight_load import WeightLoad
from deployment_config.yaml_reader import parse_yaml_bytes, read_bytes, read_yaml

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
                f"expected a mapping of keys, got {describe(data)}",
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
        [(position_in_file(model, error["loc"]), issue_of(error, model)) for error in errors],
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
        raise ConfigError.of(one_per_field(issues), source=source)
    return validated


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
    """The environment of a validated file: its sections as they are, frozen; only the model section is converted,
    for its values default to the preset's and its recipe depends on the GPU type of another section
    (docs/maintainers/adding-a-setting.md, "The model section: still converted")."""
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
        weight_load=WeightLoad(section.weight_load),
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
        weights_manifest_sha256=section.weights_manifest_sha256,
        next_revision=section.next_revision,
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
        bridge=file.bridge,
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
    path = _existing(path, context_key=context_key, known=known, option=option)
    return path, read_yaml(path, source=str(path))


def _existing(path: Path, *, context_key: str, known: list[str], option: str | None) -> Path:
    """``path`` as the user types it, or the :class:`ConfigError` of a missing file (see :func:`read_config_file`)."""
    option = option or f"-c {context_key}=NAME"
    path = Path(_display(path))
    if not path.is_file():
        raise ConfigError(
            context_key,
            f"there is no file {path}",
            f"pass {option} with one of: {', '.join(known) or '(none)'}; or add {path}",
            source=option.replace("NAME", path.stem),
        )
    return path


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

    A file of the same name and the same bytes as one validated before in this process gives that environment again,
    under this file's path, without validating it again (:data:`_VALIDATED`): a validation costs about 7 ms of CPU,
    and one process may load one file many times (the tests load the shipped examples over a thousand times, from a
    copy of their own each). Nothing else goes into an environment: its validation reads no clock, no process
    environment and no other file.
    """
    check_name(name, context_key="env", option=option)
    path = _existing(
        config_path(config_dir, name),
        context_key="env",
        known=available_environments(config_dir),
        option=option,
    )
    raw = read_bytes(path, source=str(path))
    # placeholder_fields as it is now: tests replace it (monkeypatch) to make the examples deployable
    key = (name, raw, placeholder_fields)
    validated = _VALIDATED.get(key)
    if validated is not None:
        return dataclasses.replace(validated, source=str(path))
    environment = parse_environment(
        parse_yaml_bytes(raw, source=str(path)), name=name, source=str(path)
    )
    if len(_VALIDATED) >= _VALIDATED_MAX:
        del _VALIDATED[next(iter(_VALIDATED))]  # the oldest
    _VALIDATED[key] = environment
    return environment


#: The environments :func:`load_environment` validated in this process, by name, bytes and placeholder rule; errors
#: are not kept (the next load reports them again). At most :data:`_VALIDATED_MAX`, the oldest dropped first.
_VALIDATED: dict[tuple, EnvironmentConfig] = {}
_VALIDATED_MAX = 64
