"""Load one environment file from ``config/`` and validate every field, once, at the edge.

Nothing here imports the CDK: a bad file fails in a fraction of a second, before any synthesis output
is written.
"""

from __future__ import annotations

import difflib
import ipaddress
import re
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

import yaml

from deployment_config.catalog import GPU_INSTANCE_TYPES, MODEL_PRESETS
from deployment_config.errors import ConfigError
from deployment_config.model import (
    CapacityConfig,
    ClusterConfig,
    EndpointConfig,
    EnvironmentConfig,
    Exposure,
    HyperPodConfig,
    ModelConfig,
    Platform,
    WeightSource,
)
from deployment_config.sizing import ENGINE_READY_TIMEOUT_ENV, check_model_fits

#: Kubernetes versions the app can deploy: each needs a matching kubectl Lambda layer in requirements.txt.
SUPPORTED_KUBERNETES_VERSIONS = ("1.34", "1.35")
#: Kubernetes versions SageMaker HyperPod supports (it lags EKS).
HYPERPOD_KUBERNETES_VERSIONS = ("1.34",)
DEFAULT_KUBERNETES_VERSION = "1.34"
#: The environment synthesized when no ``-c env=NAME`` is given.
DEFAULT_ENVIRONMENT = "example"
#: Everything synthesized when no ``-c env=NAME`` is given: one environment of each platform.
DEFAULT_ENVIRONMENTS = (DEFAULT_ENVIRONMENT, "example-hyperpod")

_ENV_NAME = re.compile(r"^[a-z][a-z0-9-]{0,19}$")
_ACCOUNT = re.compile(r"^\d{12}$")
_REGION = re.compile(r"^[a-z]{2}(-gov|-iso[a-z]?)?-[a-z]+-\d$")
_RESERVATION = re.compile(r"^cr-[0-9a-f]{17}$")
_TRAINING_PLAN_ARN = re.compile(r"^arn:aws[a-z-]*:sagemaker:([a-z0-9-]+):(\d{12}):training-plan/[A-Za-z0-9][A-Za-z0-9-]{0,62}$")
_ROLE_ARN = re.compile(r"^arn:aws[a-z-]*:iam::(\d{12}):role/[\w+=,.@/-]+$")
_S3_URI = re.compile(r"^s3://[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](/[^\s]*)?$")
_ENV_VAR = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_IMAGE = re.compile(r"^[^\s]+$")
#: vLLM arguments the project derives from the configuration; setting them in extra_args would contradict it.
_DERIVED_ARGS = ("--model", "--served-model-name", "--tensor-parallel-size", "--port")

T = TypeVar("T")


class _Section:
    """A mapping from the file, read field by field; every read knows its dotted path."""

    def __init__(self, data: Any, path: str, allowed: tuple[str, ...]) -> None:
        if not isinstance(data, dict):
            raise ConfigError(path or "(top level)", f"expected a mapping of keys, got {_describe(data)}",
                              "write this section as 'key: value' lines")
        for key in data:
            if key not in allowed:
                close = difflib.get_close_matches(str(key), allowed, n=1)
                hint = f"did you mean '{close[0]}'? " if close else ""
                raise ConfigError(_join(path, str(key)), "unknown key",
                                  f"{hint}remove it, or use one of: {', '.join(allowed)}")
        self.data = data
        self.path = path

    def field(self, key: str) -> str:
        return _join(self.path, key)

    def has(self, key: str) -> bool:
        return self.data.get(key) is not None

    def required(self, key: str, kind: type[T], example: str) -> T:
        if self.data.get(key) is None:
            raise ConfigError(self.field(key), "is required and missing", f"add it, for example: {key}: {example}")
        return self._typed(key, kind, example)

    def optional(self, key: str, kind: type[T], default: T, example: str) -> T:
        if self.data.get(key) is None:
            return default
        return self._typed(key, kind, example)

    def section(self, key: str, allowed: tuple[str, ...], required: bool = True) -> _Section:
        if self.data.get(key) is None:
            if required:
                raise ConfigError(self.field(key), "is required and missing", f"add a '{key}:' section")
            return _Section({}, self.field(key), allowed)
        return _Section(self.data[key], self.field(key), allowed)

    def string_list(self, key: str, example: str) -> tuple[str, ...]:
        values = self.optional(key, list, [], example)
        for i, value in enumerate(values):
            if not isinstance(value, str):
                raise ConfigError(f"{self.field(key)}[{i}]", f"expected a string, got {_describe(value)}",
                                  f"quote it, for example: - \"{example}\"")
        return tuple(values)

    def string_map(self, key: str, example: str) -> dict[str, str]:
        values = self.optional(key, dict, {}, example)
        for name, value in values.items():
            if not isinstance(name, str) or not isinstance(value, str):
                raise ConfigError(f"{self.field(key)}.{name}", f"expected a string value, got {_describe(value)}",
                                  f"quote the value, for example: {name}: \"{value}\"")
        return dict(values)

    def _typed(self, key: str, kind: type[T], example: str) -> T:
        value = self.data[key]
        # bool is an int in Python; a YAML 'yes' must not pass for a count.
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ConfigError(self.field(key), f"expected {_KIND_NAMES.get(kind, kind.__name__)}, got {_describe(value)}",
                              f"write it like: {key}: {example}")
        return value


_KIND_NAMES = {str: "a string", int: "a whole number", list: "a list", dict: "a mapping", bool: "true or false"}


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _describe(value: Any) -> str:
    if value is None:
        return "nothing"
    return f"{type(value).__name__} {value!r}"


def _check(condition: bool, field: str, problem: str, fix: str) -> None:
    if not condition:
        raise ConfigError(field, problem, fix)


def _cidrs(values: tuple[str, ...], field: str) -> tuple[str, ...]:
    for i, value in enumerate(values):
        try:
            network = ipaddress.ip_network(value, strict=True)
        except ValueError as error:
            raise ConfigError(f"{field}[{i}]", f"'{value}' is not a CIDR block ({error})",
                              "write a network address with a prefix length, for example 203.0.113.0/24") from None
        _check(network.prefixlen > 0, f"{field}[{i}]", f"'{value}' opens the endpoint to the whole internet",
               "list only the networks that need access, for example your office's 203.0.113.0/24")
    return values


def parse_environment(data: Any, *, name: str, source: str = "<memory>") -> EnvironmentConfig:
    """Validate a parsed YAML document and return the typed environment, or raise :class:`ConfigError`."""
    try:
        return _parse(data, name=name, source=source)
    except ConfigError as error:
        raise error.with_source(source) from None


def _parse(data: Any, *, name: str, source: str) -> EnvironmentConfig:
    _check(bool(_ENV_NAME.match(name)), "(file name)",
           f"'{name}' cannot name stacks: it must start with a letter and use only a-z, 0-9 and '-', at most 20",
           "rename the file, for example config/prod-use2.yaml")
    top = _Section(data, "", ("account", "region", "availability_zones", "platform", "kubernetes_version",
                              "vpc_cidr", "cluster", "model", "capacity", "endpoint", "tags", "hyperpod"))

    account = top.required("account", str, '"123456789012"  (quoted, so that leading zeros survive)')
    _check(bool(_ACCOUNT.match(account)), "account", f"'{account}' is not an AWS account id ({len(account)} characters)",
           "use the 12-digit id that 'aws sts get-caller-identity --query Account' prints, quoted")
    region = top.required("region", str, "us-west-2")
    _check(bool(_REGION.match(region)), "region", f"'{region}' is not an AWS region name", "use a region such as us-west-2")

    zones = top.string_list("availability_zones", f"{region}a")
    _check(len(zones) >= 2, "availability_zones", f"needs at least two Availability Zones, got {len(zones)}",
           f"list two or more zones of {region}, for example [{region}a, {region}b]")
    for i, zone in enumerate(zones):
        _check(bool(re.fullmatch(re.escape(region) + r"[a-z]", zone)), f"availability_zones[{i}]",
               f"'{zone}' is not an Availability Zone of {region}", f"use zones of {region}, such as {region}a")
    _check(len(set(zones)) == len(zones), "availability_zones", "lists a zone twice", "list each zone once")

    platform_name = top.optional("platform", str, Platform.EKS.value, "eks")
    _check(platform_name in [p.value for p in Platform], "platform", f"'{platform_name}' is not a platform",
           "use 'eks' (EKS managed node group on a Capacity Block) or 'hyperpod'")
    platform = Platform(platform_name)

    version = top.optional("kubernetes_version", str, DEFAULT_KUBERNETES_VERSION, f'"{DEFAULT_KUBERNETES_VERSION}"')
    _check(version in SUPPORTED_KUBERNETES_VERSIONS, "kubernetes_version", f"'{version}' is not supported",
           f"use one of {', '.join(SUPPORTED_KUBERNETES_VERSIONS)} (quoted, so that 1.30 does not become 1.3)")
    if platform is Platform.HYPERPOD:
        _check(version in HYPERPOD_KUBERNETES_VERSIONS, "kubernetes_version",
               f"SageMaker HyperPod does not support Kubernetes {version} yet",
               f"use {', '.join(HYPERPOD_KUBERNETES_VERSIONS)} for platform: hyperpod")

    vpc_cidr = top.optional("vpc_cidr", str, "10.0.0.0/16", "10.0.0.0/16")
    try:
        vpc_network = ipaddress.IPv4Network(vpc_cidr, strict=True)
    except ValueError as error:
        raise ConfigError("vpc_cidr", f"'{vpc_cidr}' is not an IPv4 CIDR block ({error})",
                          "use a private range such as 10.0.0.0/16") from None
    _check(16 <= vpc_network.prefixlen <= 20, "vpc_cidr", f"/{vpc_network.prefixlen} does not fit the subnets the app lays out",
           "use a prefix between /16 and /20, for example 10.0.0.0/16")

    cluster = _parse_cluster(top.section("cluster", ("admin_role_arn", "endpoint_public_cidrs", "system_instance_type",
                                                     "system_node_count")))
    capacity = None
    if platform is Platform.EKS or top.has("capacity"):
        capacity = _parse_capacity(top.section("capacity", ("instance_type", "instance_count", "capacity_reservation_id",
                                                            "availability_zone")), zones)
    hyperpod = None
    if platform is Platform.HYPERPOD or top.has("hyperpod"):
        if not top.has("hyperpod") and platform is Platform.HYPERPOD:
            raise ConfigError("hyperpod", "is required for platform: hyperpod and missing",
                              "add a 'hyperpod:' section with training_plan_arn and availability_zone "
                              "(bin/llmops training-plans use NAME --env ENV writes both)")
        hyperpod = _parse_hyperpod(top.section("hyperpod", ("training_plan_arn", "availability_zone", "instance_type",
                                                            "instance_count", "volume_size_gb", "dependencies_chart_dir")),
                                   account, region, zones)
    model = _parse_model(top.section("model", ("preset", "hugging_face_id", "served_name", "image",
                                               "tensor_parallel_size", "weight_size_gb", "extra_args", "extra_env",
                                               "weight_source", "s3_uri")))
    if platform is Platform.EKS:
        check_model_fits(model_id=model.hugging_face_id, weights_gb=model.weight_size_gb,
                         instance_type=capacity.instance_type, tensor_parallel_size=model.tensor_parallel_size)
    else:
        check_model_fits(model_id=model.hugging_face_id, weights_gb=model.weight_size_gb,
                         instance_type=hyperpod.gpu_instance_type, tensor_parallel_size=model.tensor_parallel_size,
                         field="hyperpod.instance_type", type_prefix="ml.")
    endpoint = _parse_endpoint(top.section("endpoint", ("exposure", "allowed_cidrs"), required=False))

    tags = top.string_map("tags", "team")
    for key, value in tags.items():
        _check(not key.lower().startswith("aws:"), f"tags.{key}", "keys starting with 'aws:' are reserved by AWS",
               "rename the tag")
        _check(1 <= len(key) <= 128 and len(value) <= 256, f"tags.{key}", "is longer than AWS allows (128 / 256)",
               "shorten the key or value")

    return EnvironmentConfig(
        name=name, source=source, account=account, region=region, availability_zones=zones, platform=platform,
        kubernetes_version=version, vpc_cidr=vpc_cidr, cluster=cluster, model=model, capacity=capacity,
        endpoint=endpoint, tags=MappingProxyType({"environment": name, **tags}), hyperpod=hyperpod,
    )


def _parse_cluster(section: _Section) -> ClusterConfig:
    role = section.required("admin_role_arn", str, "arn:aws:iam::123456789012:role/PlatformAdmin")
    _check(bool(_ROLE_ARN.match(role)), section.field("admin_role_arn"), f"'{role}' is not an IAM role ARN",
           "use the role's ARN, for example arn:aws:iam::123456789012:role/PlatformAdmin")
    cidrs = _cidrs(section.string_list("endpoint_public_cidrs", "203.0.113.0/24"), section.field("endpoint_public_cidrs"))
    instance_type = section.optional("system_instance_type", str, "m7i.xlarge", "m7i.xlarge")
    _check(bool(re.fullmatch(r"[a-z][a-z0-9-]*\.[a-z0-9]+", instance_type)), section.field("system_instance_type"),
           f"'{instance_type}' is not an EC2 instance type name", "use a name such as m7i.xlarge")
    count = section.optional("system_node_count", int, 2, "2")
    _check(1 <= count <= 10, section.field("system_node_count"), f"{count} is outside 1..10",
           "use 2 for controllers that survive the loss of one node")
    return ClusterConfig(admin_role_arn=role, endpoint_public_cidrs=cidrs, system_instance_type=instance_type,
                         system_node_count=count)


def _parse_capacity(section: _Section, zones: tuple[str, ...]) -> CapacityConfig:
    type_name = section.required("instance_type", str, "p6-b300.48xlarge")
    _check(type_name in GPU_INSTANCE_TYPES, section.field("instance_type"), f"'{type_name}' is not a known GPU instance type",
           f"use one of: {', '.join(GPU_INSTANCE_TYPES)}")
    count = section.optional("instance_count", int, 1, "1")
    _check(1 <= count <= 64, section.field("instance_count"), f"{count} is outside 1..64 (a Capacity Block holds 1 to 64)",
           "use the instance count of your reservation")
    reservation = section.required("capacity_reservation_id", str, "cr-0123456789abcdef0")
    _check(bool(_RESERVATION.match(reservation)), section.field("capacity_reservation_id"),
           f"'{reservation}' is not a capacity reservation id ('cr-' followed by 17 lowercase hex digits)",
           "copy the id from 'aws ec2 describe-capacity-reservations' or the purchase confirmation")
    zone = section.required("availability_zone", str, zones[0])
    _check(zone in zones, section.field("availability_zone"),
           f"the reservation's zone '{zone}' is not one of availability_zones ({', '.join(zones)}); "
           "GPU nodes can only launch in the reservation's zone",
           "set capacity.availability_zone to the zone the reservation is in, and list that zone in availability_zones")
    return CapacityConfig(instance_type=GPU_INSTANCE_TYPES[type_name], capacity_reservation_id=reservation,
                          availability_zone=zone, instance_count=count)


def _parse_hyperpod(section: _Section, account: str, region: str, zones: tuple[str, ...]) -> HyperPodConfig:
    arn = section.required("training_plan_arn", str, f"arn:aws:sagemaker:{region}:{account}:training-plan/kimi-k3")
    match = _TRAINING_PLAN_ARN.match(arn)
    _check(bool(match), section.field("training_plan_arn"), f"'{arn}' is not a training plan ARN",
           "copy the TrainingPlanArn that 'aws sagemaker describe-training-plan' prints")
    plan_region, plan_account = match.group(1), match.group(2)  # type: ignore[union-attr]
    _check(plan_region == region, section.field("training_plan_arn"),
           f"the plan is in {plan_region}, but the environment deploys to {region}; a plan serves only its own region",
           f"buy or pick a plan in {region}, or set region: {plan_region}")
    _check(plan_account == account, section.field("training_plan_arn"),
           f"the plan belongs to account {plan_account}, but the environment deploys to {account}",
           f"use a plan of account {account}")
    zone = section.required("availability_zone", str, zones[0])
    _check(zone in zones, section.field("availability_zone"),
           f"the plan's zone '{zone}' is not one of availability_zones ({', '.join(zones)})",
           "set it to the zone 'aws sagemaker describe-training-plan' reports, and list that zone in availability_zones")
    instance_type = section.optional("instance_type", str, "ml.p6-b300.48xlarge", "ml.p6-b300.48xlarge")
    _check(instance_type.startswith("ml.") and instance_type[3:] in GPU_INSTANCE_TYPES, section.field("instance_type"),
           f"'{instance_type}' is not a known SageMaker GPU instance type",
           f"use one of: {', '.join('ml.' + t for t in GPU_INSTANCE_TYPES)}")
    count = section.optional("instance_count", int, 1, "1")
    _check(1 <= count <= 64, section.field("instance_count"), f"{count} is outside 1..64", "use the plan's instance count")
    volume = section.optional("volume_size_gb", int, None, "2000")
    if volume is not None:
        _check(1 <= volume <= 16384, section.field("volume_size_gb"), f"{volume} GB is outside 1..16384",
               "use enough for the image and the weights, for example 2000, or remove it to use the instance store")
    chart_dir = section.optional("dependencies_chart_dir", str, None, "../sagemaker-hyperpod-cli/helm_chart/HyperPodHelmChart")
    if chart_dir is not None:
        _check((Path(chart_dir).expanduser() / "Chart.yaml").is_file(), section.field("dependencies_chart_dir"),
               f"'{chart_dir}' has no Chart.yaml",
               "point it at a local copy of helm_chart/HyperPodHelmChart from the aws/sagemaker-hyperpod-cli repository "
               "(with its dependencies: helm dependency build), or remove it")
    return HyperPodConfig(training_plan_arn=arn, availability_zone=zone, instance_type=instance_type,
                          instance_count=count, volume_size_gb=volume,
                          dependencies_chart_dir=str(Path(chart_dir).expanduser().resolve()) if chart_dir else None)


def _parse_model(section: _Section) -> ModelConfig:
    preset_name = section.optional("preset", str, "kimi-k3", "kimi-k3")
    _check(preset_name in MODEL_PRESETS, section.field("preset"), f"'{preset_name}' is not a model preset",
           f"use one of: {', '.join(MODEL_PRESETS)}")
    preset = MODEL_PRESETS[preset_name]
    image = section.optional("image", str, preset.image, preset.image)
    _check(bool(_IMAGE.match(image)), section.field("image"), f"'{image}' is not a container image reference",
           f"use a reference such as {preset.image}")
    tp = section.optional("tensor_parallel_size", int, preset.tensor_parallel_size, str(preset.tensor_parallel_size))
    _check(tp >= 1, section.field("tensor_parallel_size"), f"{tp} is not a GPU count", "use the GPUs per node, such as 8")
    weight_size = section.optional("weight_size_gb", int, preset.weight_size_gb, str(preset.weight_size_gb))
    _check(weight_size >= 1, section.field("weight_size_gb"), f"{weight_size} GB is not a model size",
           "use the size of the weights in GB")
    extra_args = section.string_list("extra_args", "--max-model-len=262144")
    for i, arg in enumerate(extra_args):
        flag = arg.split("=", 1)[0]
        _check(flag not in _DERIVED_ARGS, f"{section.field('extra_args')}[{i}]",
               f"'{flag}' is set by the app from the configuration",
               "remove it; set model.hugging_face_id, model.served_name or model.tensor_parallel_size instead")
    extra_env = section.string_map("extra_env", "VLLM_LOGGING_LEVEL")
    for key in extra_env:
        _check(bool(_ENV_VAR.match(key)), f"{section.field('extra_env')}.{key}", "is not a valid environment variable name",
               "use letters, digits and underscores, not starting with a digit")
        _check(key != ENGINE_READY_TIMEOUT_ENV, f"{section.field('extra_env')}.{key}",
               "is derived from the weight size, together with the startup probe that must outlast it",
               "remove it; if loading takes longer than estimated, raise model.weight_size_gb")
    source_name = section.optional("weight_source", str, WeightSource.HUGGINGFACE.value, "huggingface")
    _check(source_name in [s.value for s in WeightSource], section.field("weight_source"),
           f"'{source_name}' is not a weight source", "use 'huggingface' or 's3'")
    source = WeightSource(source_name)
    s3_uri = section.optional("s3_uri", str, None, "s3://my-model-bucket/moonshotai/Kimi-K3/")
    if source is WeightSource.S3:
        _check(s3_uri is not None, section.field("s3_uri"), "is required when weight_source is s3",
               "add s3_uri: s3://BUCKET/PREFIX/ pointing at the copied weights")
        _check(bool(_S3_URI.match(s3_uri or "")), section.field("s3_uri"), f"'{s3_uri}' is not an s3:// URI",
               "use s3://BUCKET/PREFIX/")
    else:
        _check(s3_uri is None, section.field("s3_uri"), "is set but weight_source is huggingface",
               "set weight_source: s3, or remove s3_uri")
    return ModelConfig(
        preset=preset,
        hugging_face_id=section.optional("hugging_face_id", str, preset.hugging_face_id, preset.hugging_face_id),
        served_name=section.optional("served_name", str, preset.served_name, preset.served_name),
        image=image, tensor_parallel_size=tp, weight_size_gb=weight_size, extra_args=extra_args,
        extra_env=MappingProxyType(extra_env), weight_source=source, s3_uri=s3_uri,
    )


def _parse_endpoint(section: _Section) -> EndpointConfig:
    exposure_name = section.optional("exposure", str, Exposure.INTERNAL.value, "internal")
    _check(exposure_name in [e.value for e in Exposure], section.field("exposure"), f"'{exposure_name}' is not an exposure",
           "use 'internal' (reachable from the VPC) or 'public' (with allowed_cidrs)")
    exposure = Exposure(exposure_name)
    cidrs = _cidrs(section.string_list("allowed_cidrs", "203.0.113.0/24"), section.field("allowed_cidrs"))
    if exposure is Exposure.PUBLIC:
        _check(bool(cidrs), section.field("allowed_cidrs"), "a public endpoint needs the source networks allowed to reach it",
               "list them, for example allowed_cidrs: [203.0.113.0/24], or use exposure: internal")
    else:
        _check(not cidrs, section.field("allowed_cidrs"), "is only used with exposure: public",
               "remove allowed_cidrs, or set exposure: public")
    return EndpointConfig(exposure=exposure, allowed_cidrs=cidrs)


def config_path(config_dir: Path, name: str) -> Path:
    return config_dir / f"{name}.yaml"


def available_environments(config_dir: Path) -> list[str]:
    return sorted(p.stem for p in config_dir.glob("*.yaml"))


def _display(path: Path) -> str:
    """The path as the user would type it: relative to the working directory when it is below it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def read_config_file(path: Path, *, context_key: str, known: list[str]) -> tuple[Path, Any]:
    """The parsed YAML of a configuration file chosen with ``-c CONTEXT_KEY=NAME``, and its path as the user types it.

    A missing file names the ones there are; a YAML error names its line.
    """
    path = Path(_display(path))
    if not path.is_file():
        raise ConfigError(context_key, f"there is no file {path}",
                          f"pass -c {context_key}=NAME with one of: {', '.join(known) or '(none)'}; or add {path}",
                          source=f"-c {context_key}")
    try:
        return path, yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "somewhere"
        problem = getattr(error, "problem", None) or str(error)
        raise ConfigError("(file)", f"is not valid YAML at {where}: {problem}",
                          "fix the indentation or quoting there", source=str(path)) from None


def load_environment(config_dir: Path, name: str) -> EnvironmentConfig:
    """Read ``config_dir/NAME.yaml`` and return the validated environment, or raise :class:`ConfigError`."""
    path, data = read_config_file(config_path(config_dir, name), context_key="env",
                                  known=available_environments(config_dir))
    return parse_environment(data, name=name, source=str(path))
