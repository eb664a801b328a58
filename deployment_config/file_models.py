"""The shape of the configuration files, as pydantic models: one definition for the loader and the JSON Schema.

The loader validates a parsed file against :class:`EnvironmentFile` (or :class:`PipelineFile`) and reports every
mistake at once; ``python -m deployment_config.schema`` writes the same definitions as JSON Schema files under
``schema/`` for editors. Nothing here builds CDK objects: the loader turns a valid file into the frozen dataclasses of
:mod:`deployment_config.model`.

The models check each field on its own; the rules between fields (a zone of the region, the reservation's zone among
the VPC's zones, a training plan of the same account and region) are :mod:`deployment_config.cross_section_rules`, run
after every field is validated, so the order of the fields here is the order of the file's keys, nothing more. The
validation context carries one thing: the list of notes (``report``) a field's check makes about its items.
"""

from __future__ import annotations

import difflib
import re
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator
from pydantic_core import PydanticCustomError

from deployment_config import aws_rules, image_cache, recipe, s3_names, vllm_args
from deployment_config.catalog import GPU_INSTANCE_TYPES, MODEL_PRESETS
from deployment_config.ec2_instance_types import known_instance_types
from deployment_config.email_addresses import email_address_problem
from deployment_config.errors import ConfigIssue, Problem, key_in_path, quoted
from deployment_config.promotion_gate import (
    GateRun,
    PromotionGateConfig,
    default_num_prompts,
)
from deployment_config.sizing import GPU_MEMORY_UTILIZATION

#: Kubernetes versions the app can deploy: each needs a matching kubectl Lambda layer in requirements.txt.
SUPPORTED_KUBERNETES_VERSIONS = ("1.34", "1.35")
#: Kubernetes versions SageMaker HyperPod supports (it lags EKS).
HYPERPOD_KUBERNETES_VERSIONS = ("1.34",)
DEFAULT_KUBERNETES_VERSION = "1.34"
#: The subnets stacks/network_stack.py lays out in every zone of the VPC (CDK allocates them in this order, each
#: aligned to its own size).
PUBLIC_SUBNET_PREFIX = 24
PRIVATE_SUBNET_PREFIX = 20
#: Tag keys the app adds itself to every resource.
RESERVED_TAG_KEYS = ("environment",)
#: Room an image and the node's own files need beside the weights on a HyperPod volume (GB).
VOLUME_HEADROOM_GB = 100

_STRICT = ConfigDict(extra="forbid", strict=True, frozen=True)
_GPU_TYPES = tuple(GPU_INSTANCE_TYPES)
_ML_GPU_TYPES = tuple(f"ml.{name}" for name in GPU_INSTANCE_TYPES)
_PRESETS = tuple(MODEL_PRESETS)
#: Secrets Manager: a secret name is 1 to 512 of letters, digits and /_+=.@- (Secrets Manager API reference,
#: CreateSecret Name); its ARN's resource is secret:NAME-XXXXXX (six random characters added by Secrets Manager).
SECRET_NAME = r"[A-Za-z0-9/_+=.@-]{1,512}"
SECRET_ARN_RESOURCE = r"secret:[A-Za-z0-9/_+=.@-]{1,512}"
#: The resource part of a training plan ARN: the SageMaker API model (botocore 1.43.127, sagemaker service-2.json) has
#: TrainingPlanName = [a-zA-Z0-9](-*[a-zA-Z0-9]){0,63}, 1 to 64 characters.
TRAINING_PLAN_RESOURCE = r"training-plan/(?=.{1,64}$)[A-Za-z0-9](-*[A-Za-z0-9]){0,63}"
#: An ACM certificate's id: a UUID in lower-case hex. ACM API reference, RenewCertificate: the ARN "must be of the form
#: arn:aws:acm:region:123456789012:certificate/12345678-1234-1234-1234-123456789012"; botocore 1.43.127 acm
#: service-2.json, shape CertificateArn, requires the 'certificate/' resource.
#: endpoint.drain_seconds: its default, and its limit: the 10 minutes between EKS scaling a Capacity Block node group to 0
#: (40 minutes before the block ends) and EC2 shutting its instances down (30 minutes before), less a minute for the
#: pod's pre-stop delay and the kubelet (awsdocs/amazon-eks-user-guide@4d52b4d capacity-blocks-mng; EC2 Auto Scaling
#: User Guide, launch-template-capacity-blocks).
DEFAULT_DRAIN_SECONDS = 300
MAX_DRAIN_SECONDS = 540
CERTIFICATE_ID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
#: A DNS host name as ACM takes one (botocore 1.43.127 acm service-2.json, shape DomainNameString: labels of letters,
#: digits and '-', not starting or ending with '-', 1 to 63 each, at most 253 in all), without the wildcard, with at
#: least two labels, no trailing dot, and a last label that is not all digits (RFC 3696 section 2), so not an address.
DOMAIN_NAME_PATTERN = (r"^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+"
                       r"(?=[A-Za-z0-9-]*[A-Za-z-])[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$")


def domain_name_problem(name: str) -> Problem | None:
    """Why ``name`` cannot be the DNS name clients use for the endpoint (see :data:`DOMAIN_NAME_PATTERN`), or None."""
    fix = "write the name clients use, such as llm.example.com: letters, digits and '-' between dots, no trailing dot"
    if name.endswith("."):
        return Problem(f"{quoted(name)} ends with a dot", f"remove the trailing dot; {fix}")
    if name.startswith("*."):
        return Problem(f"{quoted(name)} is a wildcard, not a name a client connects to",
                       "use the one name clients use (the certificate may be a wildcard that covers it)")
    if len(name) > 253:
        return Problem(f"{quoted(name[:60] + '...')} has {len(name)} characters; a DNS name has at most 253", fix)
    labels = name.split(".")
    if len(labels) < 2:
        return Problem(f"{quoted(name)} is a single label, not a DNS name under a domain", fix)
    for label in labels:
        if not 1 <= len(label) <= 63:
            return Problem(f"{quoted(name)} has a label of {len(label)} characters; each is 1 to 63", fix)
        if not re.fullmatch(r"[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?", label):
            return Problem(f"{quoted(name)}: the label {quoted(label)} may hold only letters, digits and '-', and "
                           "neither start nor end with '-'", fix)
    if labels[-1].isdigit():
        return Problem(f"{quoted(name)} is an IP address, not a DNS name: a certificate and SNI need a name", fix)
    return None


def fail(problem: Problem) -> None:
    """Raise ``problem`` as a validation error of the field being validated."""
    raise PydanticCustomError("config", "{problem}", {"problem": problem.problem, "fix": problem.fix})


def report(info: ValidationInfo, field: str, problem: Problem) -> None:
    """Record a problem of an item of the field being validated (list items, map keys): the field itself stays valid."""
    info.context.setdefault("issues", []).append(ConfigIssue(field, problem.problem, problem.fix))


def _rule(check):  # noqa: ANN001, ANN202
    """An AfterValidator from a rule of :mod:`deployment_config.aws_rules` (value -> Problem | None)."""
    def validate(value):  # noqa: ANN001, ANN202
        problem = check(value)
        if problem:
            fail(problem)
        return value
    return AfterValidator(validate)


def _text(max_length: int):  # noqa: ANN202
    return _rule(lambda value: aws_rules.text_problem(value, max_length=max_length))


Cidr = Annotated[str, Field(description="a CIDR block, for example 203.0.113.0/24")]


class ClusterSection(BaseModel):
    """The EKS control plane and its system nodes."""

    model_config = _STRICT

    admin_role_arn: Annotated[str, _text(2048)] = Field(
        description="IAM role given cluster-admin through an EKS access entry.",
        examples=["arn:aws:iam::123456789012:role/PlatformAdmin"],
        json_schema_extra={"pattern": r"^arn:aws[a-z-]*:iam::\d{12}:role/[\w+=,.@/-]+$"})
    endpoint_public_cidrs: list[Cidr] = Field(
        default=[], description="Networks allowed to the cluster's public API endpoint. Default: none, the endpoint "
        "is private and reachable only from the VPC.", examples=[["203.0.113.0/24"]])
    system_instance_type: Annotated[str, _text(64)] = Field(
        default="m7i.xlarge", description="Instance type of the on-demand nodes for controllers. Default: m7i.xlarge.",
        examples=["m7i.xlarge"], json_schema_extra={"pattern": r"^[a-z][a-z0-9-]*\.[a-z0-9]+$"})
    system_node_count: int = Field(default=2, ge=1, le=10, description="How many system nodes (1..10). Default: 2.",
                                   examples=[2])

    @field_validator("endpoint_public_cidrs")
    @classmethod
    def _cidrs(cls, value: list[str], info: ValidationInfo) -> list[str]:
        _report_cidrs(info, "cluster.endpoint_public_cidrs", value)
        return value

    @field_validator("system_instance_type")
    @classmethod
    def _instance_type(cls, value: str) -> str:
        if value not in known_instance_types():
            close = difflib.get_close_matches(value, sorted(known_instance_types()), n=1)
            fail(Problem(f"{quoted(value)} is not an EC2 instance type",
                         (f"did you mean '{close[0]}'? " if close else "") + "use a type such as m7i.xlarge "
                         "(`aws ec2 describe-instance-type-offerings` lists those of a region)"))
        return value


def _report_cidrs(info: ValidationInfo, field: str, cidrs: list[str]) -> None:
    for index, problem in aws_rules.allowed_cidrs_problems(cidrs):
        report(info, field if index is None else f"{field}[{index}]", problem)


class CapacitySection(BaseModel):
    """The EC2 Capacity Block the GPU nodes run on (platform: eks)."""

    model_config = _STRICT

    instance_type: Literal[_GPU_TYPES] = Field(  # type: ignore[valid-type]
        description="The GPU instance type of the reservation.", examples=["p6-b300.48xlarge"])
    instance_count: int = Field(default=1, ge=1, le=64, description="Instances in the reservation, and GPU nodes "
                                "(a Capacity Block holds 1 to 64). Default: 1.", examples=[1])
    capacity_reservation_id: Annotated[str, _text(64)] = Field(
        description="The Capacity Block reservation: 'cr-' and 17 lowercase hex digits.", examples=["cr-0123456789abcdef0"],
        json_schema_extra={"pattern": "^cr-[0-9a-f]{17}$"})
    availability_zone: Annotated[str, _text(64)] = Field(
        description="The reservation's Availability Zone; it must be one of availability_zones.", examples=["us-west-2a"])

    @field_validator("capacity_reservation_id")
    @classmethod
    def _reservation(cls, value: str) -> str:
        if not re.fullmatch(r"cr-[0-9a-f]{17}", value):
            fail(Problem(f"{quoted(value)} is not a capacity reservation id ('cr-' followed by 17 lowercase hex digits)",
                         "copy the id from 'aws ec2 describe-capacity-reservations' or the purchase confirmation"))
        return value

class AutoscalingSection(BaseModel):
    """The Inference Operator's autoscaling of the HyperPod workers (KEDA, from the operator's CRD ``autoScalingSpec``),
    on the serving metric the observability stack puts into CloudWatch (``LLMServing`` / ``RequestsWaiting``)."""

    model_config = _STRICT

    min_replicas: int = Field(
        default=1, ge=1, le=64, description="Workers always running (at least 1: a worker that scales from 0 reloads the "
        "weights, up to the startup budget). Default: 1.", examples=[1])
    max_replicas: int = Field(
        ge=1, le=64, description="Workers at most: at most hyperpod.instance_count (a worker takes an instance's GPUs).",
        examples=[2])
    target_requests_waiting: float = Field(
        default=8, gt=0, le=10000, description="Requests waiting in vLLM's queue per worker above which another worker "
        "is started. Default: 8.", examples=[8])

    @model_validator(mode="after")
    def _bounds(self, info: ValidationInfo) -> AutoscalingSection:
        if self.min_replicas > self.max_replicas:
            report(info, "hyperpod.autoscaling.min_replicas", Problem(
                f"is {self.min_replicas}, more than max_replicas ({self.max_replicas})",
                "make min_replicas at most max_replicas"))
        return self


class HyperPodSection(BaseModel):
    """The Flexible Training Plan and the HyperPod instance group it feeds (platform: hyperpod)."""

    model_config = _STRICT

    training_plan_arn: Annotated[str, _text(2048)] = Field(
        description="The plan's ARN; it must be in the environment's account and region.",
        examples=["arn:aws:sagemaker:us-west-2:123456789012:training-plan/kimi-k3"],
        json_schema_extra={"pattern": r"^arn:aws[a-z-]*:sagemaker:[a-z0-9-]+:\d{12}:training-plan/"
                                      r"[A-Za-z0-9](-*[A-Za-z0-9]){0,63}$"})
    availability_zone: Annotated[str, _text(64)] = Field(
        description="The zone of the plan's capacity; it must be one of availability_zones.", examples=["us-west-2a"])
    instance_type: Literal[_ML_GPU_TYPES] = Field(  # type: ignore[valid-type]
        default="ml.p6-b300.48xlarge", description="SageMaker instance type. Default: ml.p6-b300.48xlarge.",
        examples=["ml.p6-b300.48xlarge"], validate_default=True)
    instance_count: int = Field(default=1, ge=1, le=64, description="Instances in the group (1..64). Default: 1.",
                                examples=[1])
    autoscaling: AutoscalingSection | None = Field(
        default=None, description="Scale the workers between min_replicas and max_replicas on vLLM's queue. Default: "
        "none, a fixed number of workers (endpoint.replicas, else one per instance).")
    volume_size_gb: int | None = Field(
        default=None, ge=1, le=16384, description="An extra EBS volume per instance (GB), mounted at /opt/sagemaker. "
        "Default: none; the instance store holds the image and the weights.", examples=[2000])
    dependencies_chart_dir: Annotated[str, _text(4096)] | None = Field(
        default=None, description="A local copy of the HyperPod dependencies Helm chart to install instead of the "
        "vendored one. Default: the vendored chart.", examples=["../sagemaker-hyperpod-cli/helm_chart/HyperPodHelmChart"])

    @field_validator("dependencies_chart_dir")
    @classmethod
    def _chart(cls, value: str | None) -> str | None:
        from pathlib import Path

        if value is not None and not (Path(value).expanduser() / "Chart.yaml").is_file():
            fail(Problem(f"{quoted(value)} has no Chart.yaml",
                         "point it at a local copy of helm_chart/HyperPodHelmChart from the aws/sagemaker-hyperpod-cli "
                         "repository (with its dependencies: helm dependency build), or remove it"))
        return value


class ImageCacheSection(BaseModel):
    """An ECR pull-through cache for Docker Hub (deployment_config/image_cache.py has the sources): the nodes pull the
    vLLM image from the environment's private registry, which fetches it from Docker Hub once."""

    model_config = _STRICT

    docker_hub_credentials_secret_arn: Annotated[str, _text(2048)] = Field(
        description="The Secrets Manager secret holding the Docker Hub user name and access token, as "
        '{"username": "...", "accessToken": "..."}: its ARN, in the environment\'s account and region, with a name '
        "beginning with ecr-pullthroughcache/ (ECR requires that prefix).",
        examples=["arn:aws:secretsmanager:us-west-2:123456789012:secret:ecr-pullthroughcache/docker-hub-AbCdEf"],
        json_schema_extra={"pattern": r"^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:ecr-pullthroughcache/"
                                      r"[A-Za-z0-9/_+=.@-]+$"})
    repository_prefix: Annotated[str, _text(30)] = Field(
        default=image_cache.DEFAULT_REPOSITORY_PREFIX,
        description="The ECR namespace of the cached repositories; one pull-through cache rule per namespace in an "
        "account and region, so a second environment there needs its own. Default: docker-hub.",
        examples=["docker-hub"], json_schema_extra={"pattern": image_cache.REPOSITORY_PREFIX_PATTERN})

    @field_validator("repository_prefix")
    @classmethod
    def _prefix(cls, value: str) -> str:
        problem = image_cache.repository_prefix_problem(value)
        if problem:
            fail(Problem(f"{quoted(value)} {problem}", "use a namespace such as docker-hub"))
        return value


def _commit_id(value: str | None, fix: str) -> str | None:
    """A Hub commit id (40 lowercase hex digits), or None; anything else fails with ``fix``."""
    if value is not None and not re.fullmatch(r"[0-9a-f]{40}", value):
        fail(Problem(f"{quoted(value)} is not a commit id (40 lowercase hex digits)", fix))
    return value


class ModelSection(BaseModel):
    """The model and how vLLM serves it; every value defaults to the preset's."""

    model_config = _STRICT

    preset: Literal[_PRESETS] = Field(  # type: ignore[valid-type]
        default="kimi-k3", description="The preset the other values start from. Default: kimi-k3.", examples=["kimi-k3"])
    hugging_face_id: Annotated[str, _text(96), _rule(aws_rules.hugging_face_id_problem)] | None = Field(
        default=None, description="Hugging Face repository id. Default: the preset's.", examples=["moonshotai/Kimi-K3"])
    hugging_face_token_secret: Annotated[str, _text(2048)] | None = Field(
        default=None, description="A Secrets Manager secret (name or ARN, same account and region) holding the Hugging "
        "Face token of a gated model; delivered to vLLM as HF_TOKEN, never written into a template or manifest. "
        "Default: none.", examples=["llm-serving/hf-token"])
    served_name: Annotated[str, _text(128)] | None = Field(
        default=None, description="The name clients send as 'model'. Default: the preset's.", examples=["Kimi-K3"],
        json_schema_extra={"pattern": r"^[A-Za-z0-9][A-Za-z0-9._/-]{0,127}$"})
    image: Annotated[str, _text(512), _rule(aws_rules.image_problem)] | None = Field(
        default=None, description="The vLLM container image. Default: the preset's.", examples=["vllm/vllm-openai:kimi-k3"])
    tensor_parallel_size: int | None = Field(default=None, ge=1, le=64,
                                             description="GPUs per replica. Default: the preset's.", examples=[8])
    weight_size_gb: int | None = Field(default=None, ge=1, le=100_000, description="Size of the weights in GB, for "
                                       "sizing and the startup budget. Default: the preset's.", examples=[1420])
    extra_args: list[Annotated[str, _text(4096)]] = Field(
        default=[], description="vLLM arguments appended after the preset's, one item per word. The app sets --model, "
        "--served-model-name, --tensor-parallel-size, --revision and --code-revision (from hugging_face_revision) and the "
        "port itself.", examples=[["--max-model-len", "262144"]])
    extra_env: dict[Annotated[str, _text(256)], Annotated[str, _text(4096)]] = Field(
        default={}, description="Environment variables added to the preset's. No secrets: use the secrets mechanism.",
        examples=[{"VLLM_LOGGING_LEVEL": "DEBUG"}])
    weight_source: Literal["huggingface", "s3"] = Field(
        default="huggingface", description="Where the weights come from: 'huggingface' (platform: eks) or 's3' (either "
        "platform; HyperPod's operator loads from S3 only). Default: huggingface.", examples=["huggingface"])
    s3_uri: Annotated[str, _text(1024)] | None = Field(
        default=None, description="s3://BUCKET/PREFIX/ holding the weights; required when weight_source is s3.",
        examples=["s3://my-model-bucket/moonshotai/Kimi-K3/"], json_schema_extra={"pattern": r"^s3://[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](/\S*)?$"})
    hugging_face_revision: Annotated[str, _text(40)] | None = Field(
        default=None, description="The Hugging Face commit (40 lowercase hex digits) the weights are mirrored and served "
        "at; `llmops weights mirror` resolves a branch or tag to it and writes it here. Default: none, the repository's "
        "default branch when vLLM downloads.", examples=["0123456789abcdef0123456789abcdef01234567"],
        json_schema_extra={"pattern": r"^[0-9a-f]{40}$"})
    speculator_revision: Annotated[str, _text(40)] | None = Field(
        default=None, description="With features: [spec_decoding]: the Hugging Face commit (40 lowercase hex digits) of "
        "the recipe's speculator. `llmops weights mirror` writes it with hugging_face_revision when the weights come from "
        "S3; with Hub weights, vLLM downloads the speculator at it. Default: none.",
        examples=["0123456789abcdef0123456789abcdef01234567"], json_schema_extra={"pattern": r"^[0-9a-f]{40}$"})
    speculator_size_gb: int | None = Field(
        default=None, ge=1, le=10_000, description="With features: [spec_decoding]: the speculator's size in GB, counted "
        "by the sizing and the startup budget beside weight_size_gb (no published figure to default to: read it from "
        "the Hub's file list of the speculator, or from `llmops weights mirror`'s output). Required with spec_decoding.",
        examples=[8])
    serving_profile: Literal["recipe", "announced"] = Field(
        default="recipe", description="How vLLM is configured: 'recipe', the vLLM project's recipe for the model "
        "(deployment_config/data/recipes/) for the GPU generation and the layout, with the announced load format; "
        "'announced', the arguments of the model's announcement (the preset's). Default: recipe.", examples=["recipe"])
    features: list[Annotated[str, _text(64)]] = Field(
        default=[], description="Opt-in features of the recipe (serving_profile: recipe): "
        + ", ".join(recipe.recipe_for("kimi-k3").opt_in_features) + ". A feature the recipe gates off the layout or GPU "
        "is refused with its reason. Default: none.", examples=[["spec_decoding"]])
    image_cache: ImageCacheSection | None = Field(
        default=None, description="Pull the image (a Docker Hub image) through an ECR pull-through cache in the "
        "environment's account and region, so that nodes are not rate-limited by Docker Hub. Default: none, nodes pull "
        "from Docker Hub.")

    @field_validator("served_name")
    @classmethod
    def _served_name(cls, value: str | None) -> str | None:
        if value is not None and not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._/-]{0,127}", value):
            fail(Problem(f"{quoted(value)} is not a model name clients can send",
                         "use letters, digits and . _ / -, starting with a letter or digit, for example Kimi-K3"))
        return value

    @field_validator("extra_args")
    @classmethod
    def _args(cls, value: list[str], info: ValidationInfo) -> list[str]:
        for index, problem in vllm_args.extra_args_problems(value, gpu_memory_utilization_min=GPU_MEMORY_UTILIZATION):
            report(info, f"model.extra_args[{index}]", problem)
        return value

    @field_validator("extra_env")
    @classmethod
    def _env(cls, value: dict[str, str], info: ValidationInfo) -> dict[str, str]:
        for key, problem in vllm_args.extra_env_problems(value):
            report(info, f"model.extra_env.{key_in_path(key)}", problem)
        return value

    @field_validator("hugging_face_revision")
    @classmethod
    def _revision(cls, value: str | None) -> str | None:
        return _commit_id(value, "run `llmops weights mirror --env NAME [--revision BRANCH_OR_TAG]`, which resolves it on "
                                 "the Hub and writes it here; a branch name such as main moves and is not accepted")

    @field_validator("speculator_revision")
    @classmethod
    def _speculator_revision(cls, value: str | None) -> str | None:
        return _commit_id(value, "run `llmops weights mirror --env NAME`, which resolves the speculator's commit on the "
                                 "Hub and writes it here (with Hub weights: the commit id from the speculator's Hub page)")

    @field_validator("s3_uri")
    @classmethod
    def _s3_uri(cls, value: str | None) -> str | None:
        problem = s3_names.s3_uri_problem(value) if value is not None else None
        if problem:
            fail(problem)
        return value

class PromotionGateRunSection(BaseModel):
    """One load test run of the promotion gate and its thresholds."""

    model_config = _STRICT

    concurrency: int = Field(ge=1, le=1024, description="Concurrent requests (vllm bench serve --max-concurrency).",
                             examples=[4])
    num_prompts: int | None = Field(default=None, ge=1, le=10000, description="Requests in the run. Default: max(10, "
                                    "4 x concurrency), as llmops bench.", examples=[16])
    max_ttft_p90_ms: float | None = Field(default=None, gt=0, le=600000, description="Fail when the 90th percentile of "
                                          "time to first token exceeds this many milliseconds. Default: not checked.",
                                          examples=[900])
    min_output_tokens_per_s: float | None = Field(default=None, gt=0, le=1000000, description="Fail when the run's "
                                                  "output tokens per second (all requests) are fewer. Default: not "
                                                  "checked (the run may then take up to 10 tok/s).", examples=[350])
    within_percent_of_published: float | None = Field(
        default=None, gt=0, le=100, description="Fail when the run's output tokens per second fall more than this many "
        "percent below the published figure for the same GPU, serving profile, features, concurrency and lengths "
        "(deployment_config/data/published/); such a row must exist. Default: not checked.", examples=[10])


class PromotionGateSection(BaseModel):
    """After the deploy-time smoke test: the correctness probe and a load test in the cluster with thresholds; the
    stack NAME-smoke (and a pipeline stage) fails when they are not met."""

    model_config = _STRICT

    runs: list[PromotionGateRunSection] = Field(min_length=1, max_length=8, description="The load test's runs, one "
                                                "after the other, each with its thresholds; distinct concurrencies.",
                                                examples=[[{"concurrency": 1, "max_ttft_p90_ms": 600},
                                                           {"concurrency": 4, "min_output_tokens_per_s": 350}]])
    input_len: int = Field(default=8192, ge=1, le=262144, description="Prompt tokens per request. Default: 8192.",
                           examples=[8192])
    output_len: int = Field(default=1024, ge=1, le=65536, description="Generated tokens per request (EOS ignored). "
                            "Default: 1024.", examples=[1024])
    correctness: bool = Field(default=True, description="Run llmops bench's correctness probe (7919 x 13, and a tool "
                              "call checked against its JSON schema) before the load test. Default: true.",
                              examples=[True])
    max_failed_requests: int = Field(default=0, ge=0, description="Failed requests allowed per run. Default: 0.",
                                     examples=[0])
    retention_days: int = Field(default=365, ge=1, le=3650, description="Days the results bucket keeps each result. "
                                "Default: 365.", examples=[365])

    @field_validator("runs")
    @classmethod
    def _distinct(cls, value: list[PromotionGateRunSection]) -> list[PromotionGateRunSection]:
        seen = [run.concurrency for run in value]
        twice = sorted({c for c in seen if seen.count(c) > 1})
        if twice:
            fail(Problem(f"concurrency {', '.join(map(str, twice))} is listed more than once",
                         "give each run its own concurrency"))
        return value


class EndpointSection(BaseModel):
    """How the model endpoint is exposed."""

    model_config = _STRICT

    exposure: Literal["internal", "public"] = Field(
        default="internal", description="'internal' (reachable from the VPC; the default) or 'public' (from "
        "allowed_cidrs only; platform: eks, for HyperPod's operator has no field for it).", examples=["internal"])
    authentication: Literal["api-key", "none"] = Field(
        default="api-key", description="'api-key' (the default): vLLM requires the key the app generates in AWS Secrets "
        "Manager for this environment; 'none' opts out explicitly.", examples=["api-key"])
    allowed_cidrs: list[Cidr] = Field(default=[], description="Source networks allowed to reach a public endpoint.",
                                      examples=[["203.0.113.0/24"]])
    certificate_arn: Annotated[str, _text(2048)] | None = Field(
        default=None, description="An ACM certificate (same account and region) for domain_name: the load balancer "
        "answers TLS on port 443 with it. Required for exposure: public (platform: eks). Default: none, plain TCP on "
        "port 8000.",
        examples=["arn:aws:acm:us-west-2:123456789012:certificate/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"],
        json_schema_extra={"pattern": r"^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate/" + CERTIFICATE_ID + "$"})
    domain_name: Annotated[str, _text(253)] | None = Field(
        default=None, description="The DNS name clients use, covered by certificate_arn; you create its record (a CNAME "
        "to the serving stack's output LoadBalancerHostname). Required with certificate_arn. Default: none.",
        examples=["llm.example.com"], json_schema_extra={"pattern": DOMAIN_NAME_PATTERN})

    replicas: int | None = Field(
        default=None, ge=1, le=64,
        description="vLLM replicas, one per GPU node (a replica uses all GPUs of its node): at most "
        "capacity.instance_count (or hyperpod.instance_count). Default: one on every node of the reservation.",
        examples=[2])
    routing: Literal["auto", "none", "cache_aware", "power_of_two", "round_robin"] = Field(
        default="auto", description="How requests are spread over two or more vLLM replicas. 'auto' (the default): by "
        "prefix cache with two replicas or more (platform eks: the vLLM project's router, policy cache_aware; platform "
        "hyperpod: the operator's prefix-aware routing), none with one; 'none': the load balancer alone; "
        "'cache_aware', 'power_of_two', 'round_robin': that policy of the router (platform: eks; HyperPod: "
        "'cache_aware' only). A policy needs two replicas or more.", examples=["auto"])
    drain_seconds: int = Field(
        default=DEFAULT_DRAIN_SECONDS, ge=0, le=MAX_DRAIN_SECONDS,
        description="How long a stopping vLLM pod finishes the requests it is running before it exits (vLLM's "
        "--shutdown-timeout; new requests are refused meanwhile). At most 540: at a Capacity Block's end EKS scales "
        "the GPU nodes to 0 forty minutes before it and EC2 shuts the instances down thirty minutes before it. 0 "
        "aborts running requests at once. Default: 300.", examples=[300])
    deploy_time_smoke_test: bool = Field(
        default=False, description="Deploy the stack NAME-smoke: from inside the VPC it waits for the endpoint (up to "
        "the startup budget plus 20 minutes) and runs the smoke test of 'llmops smoke-test --env NAME'; the deployment "
        "fails with the smoke test's problems when it fails. Leave it off while the capacity is not active yet: the "
        "deployment would wait for over two hours and then fail. Default: false.", examples=[True])
    promotion_gate: PromotionGateSection | None = Field(
        default=None, description="With deploy_time_smoke_test (platform: eks): after the smoke test, the correctness "
        "probe and a load test with thresholds; the deployment fails when they are not met. Results are kept in S3 per "
        "image digest. Default: none.")

    @field_validator("domain_name")
    @classmethod
    def _domain(cls, value: str | None) -> str | None:
        problem = domain_name_problem(value) if value is not None else None
        if problem:
            fail(problem)
        return value

def vpc_addresses_needed(zones: int) -> int:
    """Addresses the public subnets, then the private ones (each aligned to its size) take in a VPC of ``zones`` zones."""
    public, private = 2 ** (32 - PUBLIC_SUBNET_PREFIX), 2 ** (32 - PRIVATE_SUBNET_PREFIX)
    return -(-zones * public // private) * private + zones * private


def _validate_account(cls: type, value: str, info: ValidationInfo) -> str:
    problem = aws_rules.account_problem(value)
    if problem:
        fail(problem)
    return value


def _validate_region(cls: type, value: str, info: ValidationInfo) -> str:
    problem = aws_rules.region_problem(value)
    if problem:
        fail(problem)
    return value


class EnvironmentFile(BaseModel):
    """One environment: config/NAME.yaml. Deployed with `npx cdk deploy -c env=NAME --all`."""

    model_config = ConfigDict(**_STRICT, title="LLM serving environment",
                              json_schema_extra={"$id": "https://llm-serving.invalid/schema/environment.schema.json"})

    account: Annotated[str, _text(64)] = Field(
        description="The AWS account id: 12 digits, quoted so that leading zeros survive.", examples=["123456789012"],
        json_schema_extra={"pattern": "^[0-9]{12}$"})
    region: Annotated[str, _text(64)] = Field(description="The AWS region.", examples=["us-west-2"],
                                              json_schema_extra={"enum": list(aws_rules.known_regions())})
    availability_zones: list[Annotated[str, _text(64)]] = Field(
        min_length=2, description="At least two zones of the region; the GPU capacity's zone among them.",
        examples=[["us-west-2a", "us-west-2b"]])
    platform: Literal["eks", "hyperpod"] = Field(
        default="eks", validate_default=True,
        description="'eks' (managed node group on a Capacity Block; the default) or 'hyperpod' "
        "(SageMaker HyperPod on a Flexible Training Plan).", examples=["eks"])
    kubernetes_version: Literal[SUPPORTED_KUBERNETES_VERSIONS] = Field(  # type: ignore[valid-type]
        default=DEFAULT_KUBERNETES_VERSION, validate_default=True, description="The EKS Kubernetes version, quoted.",
        examples=["1.34"])
    vpc_cidr: Annotated[str, _text(64), _rule(aws_rules.vpc_cidr_problem)] = Field(
        default="10.0.0.0/16", validate_default=True,
        description="The VPC's private IPv4 range: a /16 to /18 (two or three zones need a /18, four a /17). "
        "Default: 10.0.0.0/16.",
        examples=["10.0.0.0/16"])
    cluster: ClusterSection = Field(description="The EKS cluster.")
    capacity: CapacitySection | None = Field(default=None, validate_default=True,
                                             description="The Capacity Block; required for platform: eks.")
    hyperpod: HyperPodSection | None = Field(default=None, validate_default=True,
                                             description="The training plan; required for platform: hyperpod.")
    # Defaults as mappings, validated: an omitted section still goes through its rules (the model must fit the GPUs).
    model: ModelSection = Field(default={}, validate_default=True, description="The model. Default: the kimi-k3 preset.")
    endpoint: EndpointSection = Field(default={}, validate_default=True, description="The endpoint. Default: internal.")
    observability: ObservabilitySection = Field(default={}, validate_default=True,
                                                description="Metrics, dashboard, alarms and logs. Default: on, no e-mail.")
    tags: dict[Annotated[str, _text(128)], Annotated[str, _text(256)]] = Field(
        default={}, description="Tags on every resource (the app adds 'environment').",
        examples=[{"project": "kimi-k3-serving"}])

    _account = field_validator("account")(_validate_account)
    _region = field_validator("region")(_validate_region)

    @field_validator("tags")
    @classmethod
    def _tags(cls, value: dict[str, str], info: ValidationInfo) -> dict[str, str]:
        for key, problem in aws_rules.tags_problems(value, reserved_keys=RESERVED_TAG_KEYS):
            report(info, "tags" if key is None else f"tags.{key_in_path(key)}", problem)
        return value


#: The retention periods CloudWatch Logs accepts (CloudWatch Logs API reference, PutRetentionPolicy retentionInDays).
LOG_RETENTION_DAYS = (1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288,
                      3653)


#: The largest monthly budget accepted: far above any environment, low enough to catch a mistyped amount.
MAX_MONTHLY_BUDGET_USD = 100_000_000
#: Subscribers of one budget notification: botocore 1.43.127's budgets model, shape ``Subscribers`` (max 11).
MAX_BUDGET_SUBSCRIBERS = 11


class ObservabilitySection(BaseModel):
    """Metrics, dashboard, alarms and logs of the environment; every threshold has a default."""

    model_config = _STRICT

    alarm_emails: list[Annotated[str, _text(254)]] = Field(
        default=[], description="E-mail addresses subscribed to the environment's alarm topic (each confirms once). "
        "Default: none; subscribe other endpoints to the topic yourself.", examples=[["oncall@example.com"]])
    log_retention_days: Literal[LOG_RETENTION_DAYS] = Field(  # type: ignore[valid-type]
        default=30, description="How long container logs stay in CloudWatch Logs. Default: 30.", examples=[30])
    time_to_first_token_p90_seconds: float = Field(
        default=10.0, gt=0, le=3600, description="Alarm when the p90 time to first token stays above this. Default: 10.",
        examples=[10])
    kv_cache_usage_percent: int = Field(
        default=95, ge=50, le=100, description="Alarm when vLLM's KV-cache usage stays at or above this. Default: 95.",
        examples=[95])
    error_rate_percent: int = Field(
        default=5, ge=1, le=100, description="Alarm when this share of requests fails. Default: 5.", examples=[5])
    monthly_budget_usd: float | None = Field(
        default=None, json_schema_extra={"exclusiveMinimum": 0, "maximum": MAX_MONTHLY_BUDGET_USD},
        description="An AWS Budgets cost budget for the month, in USD, over the "
        "costs tagged environment=NAME (activate that cost allocation tag in Billing first): e-mails to alarm_emails at "
        "80 % actual and 100 % forecasted; needs at least one address in alarm_emails. Default: none (no budget).",
        examples=[20000])

    @field_validator("alarm_emails")
    @classmethod
    def _emails(cls, value: list[str], info: ValidationInfo) -> list[str]:
        for index, address in enumerate(value):
            problem = email_address_problem(address)
            if problem:
                report(info, f"observability.alarm_emails[{index}]", problem)
            elif address in value[:index]:
                report(info, f"observability.alarm_emails[{index}]", Problem(f"lists {quoted(address)} twice",
                                                                             "list each address once"))
        return value

    @field_validator("monthly_budget_usd")
    @classmethod
    def _budget(cls, value: float | None, info: ValidationInfo) -> float | None:
        if value is not None and not 0 < value <= MAX_MONTHLY_BUDGET_USD:
            fail(Problem(f"{value:g} USD is not a budget: it must be more than 0 and at most {MAX_MONTHLY_BUDGET_USD:,}",
                         "write the monthly amount in USD, for example monthly_budget_usd: 20000, or leave the key out"))
        return value


class SourceSection(BaseModel):
    """Where the pipeline takes the code from."""

    model_config = _STRICT

    connection_arn: Annotated[str, _text(2048)] = Field(
        description="A CodeConnections connection in the pipeline's account and region.",
        examples=["arn:aws:codeconnections:us-west-2:111111111111:connection/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"])
    repository: Annotated[str, _text(256)] = Field(description="The repository, as OWNER/NAME.",
                                                   examples=["my-org/llm-serving"],
                                                   json_schema_extra={"pattern": r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$"})
    branch: Annotated[str, _text(256), _rule(aws_rules.git_branch_problem)] = Field(
        description="The branch the pipeline deploys.", examples=["main"])

    @field_validator("repository")
    @classmethod
    def _repository(cls, value: str) -> str:
        if not re.fullmatch(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+", value):
            fail(Problem(f"{quoted(value)} is not OWNER/NAME",
                         "write the repository as owner/name, for example my-org/llm-serving"))
        return value


class WaveSection(BaseModel):
    """Environments deployed together, optionally behind a manual approval."""

    model_config = _STRICT

    name: Annotated[str, _text(40)] = Field(description="The wave's name in the pipeline.", examples=["prod"],
                                            json_schema_extra={"pattern": "^[A-Za-z][A-Za-z0-9-]{0,39}$"})
    environments: list[Annotated[str, _text(64)]] = Field(min_length=1, description="Files of config/, without .yaml.",
                                                          examples=[["prod"]])
    approval: bool = Field(default=False, description="A person approves before the wave starts. Default: false.",
                           examples=[True])

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9-]{0,39}", value):
            fail(Problem(f"{quoted(value)} cannot name a pipeline wave", "start with a letter; use letters, digits and '-'"))
        return value


class PipelineFile(BaseModel):
    """The delivery pipeline: config/pipeline/NAME.yaml. Synthesized with `npx cdk synth -c pipeline=NAME`."""

    model_config = ConfigDict(**_STRICT, title="LLM serving delivery pipeline",
                              json_schema_extra={"$id": "https://llm-serving.invalid/schema/pipeline.schema.json"})

    account: Annotated[str, _text(64)] = Field(description="The pipeline's own (tooling) account, quoted.",
                                               examples=["111111111111"], json_schema_extra={"pattern": "^[0-9]{12}$"})
    region: Annotated[str, _text(64)] = Field(description="The pipeline's region.", examples=["us-west-2"],
                                              json_schema_extra={"enum": list(aws_rules.known_regions())})
    source: SourceSection = Field(description="The repository the pipeline deploys from.")
    waves: list[WaveSection] = Field(min_length=1, description="Deployed in this order.")

    _account = field_validator("account")(_validate_account)
    _region = field_validator("region")(_validate_region)


def promotion_gate_config(section: PromotionGateSection) -> PromotionGateConfig:
    """The frozen configuration of a validated ``endpoint.promotion_gate``."""
    return PromotionGateConfig(
        runs=tuple(GateRun(concurrency=run.concurrency,
                           num_prompts=run.num_prompts or default_num_prompts(run.concurrency),
                           max_ttft_p90_ms=run.max_ttft_p90_ms, min_output_tokens_per_s=run.min_output_tokens_per_s,
                           within_percent_of_published=run.within_percent_of_published)
                   for run in section.runs),
        input_len=section.input_len, output_len=section.output_len, correctness=section.correctness,
        max_failed_requests=section.max_failed_requests, retention_days=section.retention_days)
