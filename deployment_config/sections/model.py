"""The model section: the model, how vLLM serves it, and the image cache it is pulled through."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import BaseModel, Field, ValidationInfo, field_validator

from deployment_config import aws_rules, image_cache, recipe, s3_names, vllm_args
from deployment_config.catalog import MODEL_PRESETS
from deployment_config.errors import Problem, key_in_path, quoted
from deployment_config.sections._fields import (
    _STRICT,
    _rule,
    _text,
    fail,
    pattern,
    report,
)
from deployment_config.sizing import GPU_MEMORY_UTILIZATION

_PRESETS = tuple(MODEL_PRESETS)
#: A Hub commit id: 40 lowercase hex digits.
COMMIT_ID = r"[0-9a-f]{40}"
SHA256_HEX = r"[0-9a-f]{64}"
_SERVED_NAME = r"[A-Za-z0-9][A-Za-z0-9._/-]{0,127}"
#: Secrets Manager: a secret name is 1 to 512 of letters, digits and /_+=.@- (Secrets Manager API reference,
#: CreateSecret Name); its ARN's resource is secret:NAME-XXXXXX (six random characters added by Secrets Manager).
SECRET_NAME = r"[A-Za-z0-9/_+=.@-]{1,512}"
SECRET_ARN_RESOURCE = r"secret:[A-Za-z0-9/_+=.@-]{1,512}"


class ImageCacheSection(BaseModel):
    """An ECR pull-through cache for Docker Hub (deployment_config/image_cache.py has the sources): the nodes pull the
    vLLM image from the environment's private registry, which fetches it from Docker Hub once."""

    model_config = _STRICT

    docker_hub_credentials_secret_arn: Annotated[str, _text(2048)] = Field(
        description="The Secrets Manager secret holding the Docker Hub user name and access token, as "
        '{"username": "...", "accessToken": "..."}: its ARN, in the environment\'s account and region, with a name '
        "beginning with ecr-pullthroughcache/ (ECR requires that prefix).",
        examples=[
            "arn:aws:secretsmanager:us-west-2:123456789012:secret:ecr-pullthroughcache/docker-hub-AbCdEf"
        ],
        json_schema_extra={
            "pattern": r"^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:ecr-pullthroughcache/"
            r"[A-Za-z0-9/_+=.@-]+$"
        },
    )
    repository_prefix: Annotated[str, _text(30)] = Field(
        default=image_cache.DEFAULT_REPOSITORY_PREFIX,
        description="The ECR namespace of the cached repositories; one pull-through cache rule per namespace in an "
        "account and region, so a second environment there needs its own. Default: docker-hub.",
        examples=["docker-hub"],
        json_schema_extra={"pattern": image_cache.REPOSITORY_PREFIX_PATTERN},
    )

    @field_validator("repository_prefix")
    @classmethod
    def _prefix(cls, value: str) -> str:
        problem = image_cache.repository_prefix_problem(value)
        if problem:
            fail(Problem(f"{quoted(value)} {problem}", "use a namespace such as docker-hub"))
        return value


def _commit_id(value: str | None, fix: str) -> str | None:
    """A Hub commit id (40 lowercase hex digits), or None; anything else fails with ``fix``."""
    if value is not None and not re.fullmatch(COMMIT_ID, value):
        fail(Problem(f"{quoted(value)} is not a commit id (40 lowercase hex digits)", fix))
    return value


class ModelSection(BaseModel):
    """The model and how vLLM serves it; every value defaults to the preset's."""

    model_config = _STRICT

    preset: Literal[_PRESETS] = Field(  # type: ignore[valid-type]
        default="kimi-k3",
        description="The preset the other values start from. Default: kimi-k3.",
        examples=["kimi-k3"],
    )
    hugging_face_id: Annotated[str, _text(96), _rule(aws_rules.hugging_face_id_problem)] | None = (
        Field(
            default=None,
            description="Hugging Face repository id. Default: the preset's.",
            examples=["moonshotai/Kimi-K3"],
        )
    )
    hugging_face_token_secret: Annotated[str, _text(2048)] | None = Field(
        default=None,
        description="A Secrets Manager secret (name or ARN, same account and region) holding the Hugging "
        "Face token of a gated model; delivered to vLLM as HF_TOKEN, never written into a template or manifest. "
        "Default: none.",
        examples=["llm-serving/hf-token"],
    )
    served_name: Annotated[str, _text(128)] | None = Field(
        default=None,
        description="The name clients send as 'model'. Default: the preset's.",
        examples=["Kimi-K3"],
        json_schema_extra=pattern(_SERVED_NAME),
    )
    image: Annotated[str, _text(512), _rule(aws_rules.image_problem)] | None = Field(
        default=None,
        description="The vLLM container image. Default: the preset's.",
        examples=["vllm/vllm-openai:kimi-k3"],
    )
    tensor_parallel_size: int | None = Field(
        default=None,
        ge=1,
        le=64,
        description="GPUs per replica. Default: the preset's.",
        examples=[8],
    )
    weight_size_gb: int | None = Field(
        default=None,
        ge=1,
        le=100_000,
        description="Size of the weights in GB, for "
        "sizing and the startup budget. Default: the preset's.",
        examples=[1420],
    )
    extra_args: list[Annotated[str, _text(4096)]] = Field(
        default=[],
        description="vLLM arguments appended after the preset's, one item per word. The app sets --model, "
        "--served-model-name, --tensor-parallel-size, --revision and --code-revision (from hugging_face_revision) and the "
        "port itself.",
        examples=[["--max-model-len", "262144"]],
    )
    extra_env: dict[Annotated[str, _text(256)], Annotated[str, _text(4096)]] = Field(
        default={},
        description="Environment variables added to the preset's. No secrets: use the secrets mechanism.",
        examples=[{"VLLM_LOGGING_LEVEL": "DEBUG"}],
    )
    weight_source: Literal["huggingface", "s3"] = Field(
        default="huggingface",
        description="Where the weights come from: 'huggingface' (platform: eks) or 's3' (either "
        "platform; HyperPod's operator loads from S3 only). Default: huggingface.",
        examples=["huggingface"],
    )
    weight_load: Literal["copy", "runai_streamer"] = Field(
        default="copy",
        description="With weight_source: s3 on EKS: 'copy' to the node's NVMe, sha256-checked, loaded from there; "
        "'runai_streamer' streamed from S3 into GPU memory (vLLM's Run:ai loader, distributed over the ranks) after "
        "a check of each object's size and CRC64NVME in S3 (docs/weights.md). Default: copy.",
        examples=["copy"],
    )
    s3_uri: Annotated[str, _text(1024)] | None = Field(
        default=None,
        description="s3://BUCKET/PREFIX/ holding the weights; required when weight_source is s3.",
        examples=["s3://my-model-bucket/moonshotai/Kimi-K3/"],
        json_schema_extra={"pattern": r"^s3://[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](/\S*)?$"},
    )
    hugging_face_revision: Annotated[str, _text(40)] | None = Field(
        default=None,
        description="The Hugging Face commit (40 lowercase hex digits) the weights are mirrored and served "
        "at; `llmops weights mirror` resolves a branch or tag to it and writes it here. Default: none, the repository's "
        "default branch when vLLM downloads.",
        examples=["0123456789abcdef0123456789abcdef01234567"],
        json_schema_extra=pattern(COMMIT_ID),
    )
    weights_manifest_sha256: Annotated[str, _text(64)] | None = Field(
        default=None,
        description="With weight_source: s3: the sha256 (64 lowercase hex digits) of the MANIFEST.json `llmops weights "
        "mirror` wrote for hugging_face_revision; it writes it here with the revision, and the node's check refuses "
        "a manifest with another digest (one rewritten in S3 since). Default: none, the manifest is not pinned.",
        examples=["0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"],
        json_schema_extra=pattern(SHA256_HEX),
    )
    next_revision: Annotated[str, _text(40)] | None = Field(
        default=None,
        description="With weight_source: s3 and weight_load: copy on EKS: a mirrored commit each GPU node copies "
        "and checks while hugging_face_revision serves, so switching to it costs a load, not a copy. Default: none.",
        examples=["fedcba9876543210fedcba9876543210fedcba98"],
        json_schema_extra=pattern(COMMIT_ID),
    )
    speculator_revision: Annotated[str, _text(40)] | None = Field(
        default=None,
        description="With features: [spec_decoding]: the Hugging Face commit (40 lowercase hex digits) of "
        "the recipe's speculator. `llmops weights mirror` writes it with hugging_face_revision when the weights come from "
        "S3; with Hub weights, vLLM downloads the speculator at it. Default: none.",
        examples=["0123456789abcdef0123456789abcdef01234567"],
        json_schema_extra=pattern(COMMIT_ID),
    )
    speculator_size_gb: int | None = Field(
        default=None,
        ge=1,
        le=10_000,
        description="With features: [spec_decoding]: the speculator's size in GB, counted "
        "by the sizing and the startup budget beside weight_size_gb (no published figure to default to: read it from "
        "the Hub's file list of the speculator, or from `llmops weights mirror`'s output). Required with spec_decoding.",
        examples=[8],
    )
    serving_profile: Literal["recipe", "announced"] = Field(
        default="recipe",
        description="How vLLM is configured: 'recipe', the vLLM project's recipe for the model "
        "(deployment_config/data/recipes/) for the GPU generation and the layout, with the announced load format; "
        "'announced', the arguments of the model's announcement (the preset's). Default: recipe.",
        examples=["recipe"],
    )
    features: list[Annotated[str, _text(64)]] = Field(
        default=[],
        description="Opt-in features of the recipe (serving_profile: recipe): "
        + ", ".join(recipe.recipe_for("kimi-k3").opt_in_features)
        + ". A feature the recipe gates off the layout or GPU "
        "is refused with its reason. Default: none.",
        examples=[["spec_decoding"]],
    )
    image_cache: ImageCacheSection | None = Field(
        default=None,
        description="Pull the image (a Docker Hub image) through an ECR pull-through cache in the "
        "environment's account and region, so that nodes are not rate-limited by Docker Hub. Default: none, nodes pull "
        "from Docker Hub.",
    )

    @field_validator("served_name")
    @classmethod
    def _served_name(cls, value: str | None) -> str | None:
        if value is not None and not re.fullmatch(_SERVED_NAME, value):
            fail(
                Problem(
                    f"{quoted(value)} is not a model name clients can send",
                    "use letters, digits and . _ / -, starting with a letter or digit, for example Kimi-K3",
                )
            )
        return value

    @field_validator("extra_args")
    @classmethod
    def _args(cls, value: list[str], info: ValidationInfo) -> list[str]:
        for index, problem in vllm_args.extra_args_problems(
            value, gpu_memory_utilization_min=GPU_MEMORY_UTILIZATION
        ):
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
        return _commit_id(
            value,
            "run `llmops weights mirror --env NAME [--revision BRANCH_OR_TAG]`, which resolves it on "
            "the Hub and writes it here; a branch name such as main moves and is not accepted",
        )

    @field_validator("next_revision")
    @classmethod
    def _next_revision(cls, value: str | None) -> str | None:
        return _commit_id(
            value,
            "use the commit id `llmops weights mirror --revision BRANCH_OR_TAG` resolved and mirrored; a branch name "
            "such as main moves and is not accepted",
        )

    @field_validator("weights_manifest_sha256")
    @classmethod
    def _manifest_sha256(cls, value: str | None) -> str | None:
        if value is not None and not re.fullmatch(SHA256_HEX, value):
            fail(
                Problem(
                    f"{quoted(value)} is not a sha256 (64 lowercase hex digits)",
                    "run `llmops weights mirror --env NAME`, which writes the digest of the manifest it checked",
                )
            )
        return value

    @field_validator("speculator_revision")
    @classmethod
    def _speculator_revision(cls, value: str | None) -> str | None:
        return _commit_id(
            value,
            "run `llmops weights mirror --env NAME`, which resolves the speculator's commit on the "
            "Hub and writes it here (with Hub weights: the commit id from the speculator's Hub page)",
        )

    @field_validator("s3_uri")
    @classmethod
    def _s3_uri(cls, value: str | None) -> str | None:
        problem = s3_names.s3_uri_problem(value) if value is not None else None
        if problem:
            fail(problem)
        prefix = (value or "").removeprefix("s3://").partition("/")[2]
        if prefix == s3_names.COMPILE_CACHE_S3_PREFIX or prefix.startswith(
            s3_names.COMPILE_CACHE_S3_PREFIX + "/"
        ):
            fail(
                Problem(
                    f"{quoted(value)} is inside {s3_names.COMPILE_CACHE_S3_PREFIX}/, the bucket's compile cache, which the "
                    "vLLM pod may write: it could replace the weights it then loads",
                    "copy the weights under another prefix, for example s3://BUCKET/moonshotai/Kimi-K3/",
                )
            )
        return value
