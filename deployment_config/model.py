"""Typed, frozen configuration of one environment (one YAML file under ``config/``).

The objects here are built only by :mod:`deployment_config.loader`, which validates every field once;
stacks, constructs and charts receive them as keyword arguments and never re-read files or the
process environment. A section whose validated model is all its consumers need is used as it is (frozen, each default
declared once, in deployment_config/sections/), under the name the consumers know (``ObservabilityConfig`` and
``AutoscalingConfig`` below); the dataclasses here are the sections whose values the loader still converts (the GPU
type's catalog entry, the resolved recipe).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from deployment_config.aws_rules import partition_of
from deployment_config.catalog import GpuInstanceType, ModelPreset
from deployment_config.image_cache import cached_image
from deployment_config.recipe import ServingProfile
from deployment_config.sections.access import AccessSection
from deployment_config.sections.bridge import BridgeSection
from deployment_config.sections.capacity import CapacitySection
from deployment_config.sections.cluster import ClusterSection
from deployment_config.sections.endpoint import EndpointSection
from deployment_config.sections.endpoint import (
    Exposure as Exposure,
)  # imported from here with the other enums
from deployment_config.sections.hyperpod import AutoscalingSection, HyperPodSection
from deployment_config.sections.model import ImageCacheSection
from deployment_config.sections.observability import ObservabilitySection
from deployment_config.sizing import (
    Layout,
    MemoryProfile,
    StartupBudget,
    fit_over,
    layout_for,
    startup_budget,
)
from deployment_config.weight_load import WeightLoad, streamer_args

#: The sections that are the domain model themselves, frozen once validated (deployment_config/sections/), under the
#: names the stacks and charts know them by.
AutoscalingConfig = AutoscalingSection
ObservabilityConfig = ObservabilitySection


class Platform(StrEnum):
    """How the model is run: EKS with a managed node group, or SageMaker HyperPod."""

    EKS = "eks"
    HYPERPOD = "hyperpod"


class WeightSource(StrEnum):
    HUGGINGFACE = "huggingface"
    S3 = "s3"


@dataclass(frozen=True)
class ModelConfig:
    """The model and how vLLM serves it.

    :param preset: the preset the values below start from.
    :param hugging_face_id: Hugging Face repository id. Default: the preset's.
    :param served_name: name clients send as ``model``. Default: the preset's.
    :param image: vLLM image. Default: the preset's.
    :param tensor_parallel_size: GPUs per replica. Default: the preset's.
    :param weight_size_gb: size of the weights in GB, for sizing and the startup budget. Default: the preset's.
    :param extra_args: vLLM arguments appended after the preset's. Default: none.
    :param extra_env: environment variables added to the preset's. Default: none.
    :param weight_source: where the weights come from. Default: huggingface.
    :param s3_uri: ``s3://bucket/prefix`` holding the weights when ``weight_source`` is s3.
    :param hugging_face_revision: the Hub commit (40 lowercase hex digits) the weights are taken at, as ``llmops weights
        mirror`` resolved and wrote it; vLLM gets ``--revision`` and ``--code-revision`` with it when it downloads from the
        Hub. Default: none, the repository's default branch at download time.
    :param hugging_face_token_secret: Secrets Manager secret (name or ARN) with the Hugging Face token of a gated
        model, delivered as ``HF_TOKEN``. Default: none.
    :param image_cache: pull the image (a Docker Hub image) through an ECR pull-through cache. Default: none, nodes pull
        from the image's own registry.
    :param serving_profile: ``recipe`` (the vLLM project's recipe for the GPU generation and layout,
        deployment_config/recipe/) or ``announced`` (the preset's arguments). Default here: announced; the
        configuration file's default is recipe.
    :param features: the recipe's opt-in features enabled. Default: none.
    :param profile: the resolved recipe profile (None for announced).
    :param memory: what the sizing counts: the profile's memory share, context length and KV-cache data type.
    :param speculator_revision: the Hub commit of the ``spec_decoding`` speculator (deployment_config/speculator.py), as
        ``llmops weights mirror`` wrote it. Default: none.
    :param speculator_size_gb: the speculator's size in GB, counted by the sizing and the startup budget; 0 without
        ``spec_decoding``.
    """

    preset: ModelPreset
    hugging_face_id: str
    served_name: str
    image: str
    tensor_parallel_size: int
    weight_size_gb: int
    extra_args: tuple[str, ...] = ()
    extra_env: Mapping[str, str] | None = None
    weight_source: WeightSource = WeightSource.HUGGINGFACE
    s3_uri: str | None = None
    hugging_face_revision: str | None = None
    hugging_face_token_secret: str | None = None
    image_cache: ImageCacheSection | None = None
    serving_profile: str = "announced"
    features: tuple[str, ...] = ()
    profile: ServingProfile | None = None
    memory: MemoryProfile = MemoryProfile()
    speculator_revision: str | None = None
    speculator_size_gb: int = 0
    weights_manifest_sha256: str | None = None
    #: How S3 weights reach the GPUs on EKS (deployment_config/weight_load.py). Default: the node's checked copy.
    weight_load: WeightLoad = WeightLoad.COPY
    #: The revision the GPU nodes pre-stage while ``hugging_face_revision`` serves (charts/vllm_weights_prestage.py).
    next_revision: str | None = None

    @property
    def loaded_gb(self) -> int:
        """What is downloaded, loaded and held in GPU memory: the weights and, with ``spec_decoding``, the speculator."""
        return self.weight_size_gb + self.speculator_size_gb

    @property
    def serving_args(self) -> tuple[str, ...]:
        base = self.profile.args if self.profile is not None else self.preset.serving_args
        if self.weight_load is WeightLoad.RUNAI_STREAMER:
            return streamer_args(base + self.extra_args, self.tensor_parallel_size)
        return base + self.extra_args

    @property
    def environment(self) -> dict[str, str]:
        base = self.profile.environment if self.profile is not None else self.preset.environment
        return {**base, **(self.extra_env or {})}


#: The interface VPC endpoints the network stack creates, one network interface in each zone's private subnet (each is
#: billed per endpoint per zone per hour). stacks/network_stack.py creates exactly these; ``llmops cost`` counts them.
INTERFACE_ENDPOINT_NAMES = (
    "Ec2",
    "EcrApi",
    "EcrDocker",
    "Sts",
    "Eks",
    "EksAuth",
    "Logs",
    "ElasticLoadBalancing",
)


@dataclass(frozen=True)
class EnvironmentConfig:
    """One deployable environment: an account, a region, a cluster and a model on reserved GPUs."""

    name: str
    source: str
    account: str
    region: str
    availability_zones: tuple[str, ...]
    platform: Platform
    kubernetes_version: str
    vpc_cidr: str
    cluster: ClusterSection
    model: ModelConfig
    capacity: CapacitySection | None
    endpoint: EndpointSection
    tags: Mapping[str, str]
    hyperpod: HyperPodSection | None = None
    observability: ObservabilitySection = ObservabilitySection()
    access: AccessSection = AccessSection()
    #: Bridge capacity after the Capacity Block's end (platform: eks; docs/stay-up.md); None: none.
    bridge: BridgeSection | None = None
    #: Fields that still hold a placeholder value of the example files (deployment_config.placeholders): such an
    #: environment synthesizes, but every stack refuses to deploy.
    placeholders: tuple[str, ...] = ()

    @property
    def pod_startup_budget(self) -> StartupBudget:
        """The startup budget the vLLM pod is given (the charts' VLLM_ENGINE_READY_TIMEOUT_S and startup probe).

        By where its weights come from on EKS: from S3 the node copies them at its instance's rate, so a hung start
        ends an hour or more sooner than on the Hub path, whose budget keeps its 0.4 GB/s floor; streamed from S3
        (``weight_load: runai_streamer``) the stream's, with no copy. On HyperPod the
        Hub path's, the longest: the operator's S3 mount streams at a rate nothing here measures. Never below the
        recipe's own VLLM_ENGINE_READY_TIMEOUT_S (deployment_config/recipe/), nor below vLLM's default."""
        from_hub = (
            self.platform is Platform.HYPERPOD
            or self.model.weight_source is WeightSource.HUGGINGFACE
        )
        budget = startup_budget(
            self.model.loaded_gb,
            from_hub=from_hub,
            instance_type=self.gpu_instance_type.name,
            streamed=self.model.weight_load is WeightLoad.RUNAI_STREAMER,
        )
        floor = (
            self.model.profile.engine_ready_floor_seconds
            if self.model.profile is not None
            else None
        )
        return StartupBudget(
            engine_ready_timeout_seconds=max(budget.engine_ready_timeout_seconds, floor or 0)
        )

    @property
    def gpu_instance_type(self) -> GpuInstanceType:
        """The GPU instance type the model runs on, whichever platform provides it."""
        if self.platform is Platform.HYPERPOD:
            return self.hyperpod.gpu_instance_type
        return self.capacity.gpu_instance_type

    @property
    def gpu_availability_zone(self) -> str:
        """The zone of the reserved GPU capacity: the reservation's or the training plan's."""
        if self.platform is Platform.HYPERPOD:
            return self.hyperpod.availability_zone
        return self.capacity.availability_zone

    @property
    def nat_gateway_count(self) -> int:
        """NAT gateways of the VPC: one per zone (stacks/network_stack.py; ``llmops cost`` counts them)."""
        return len(self.availability_zones)

    @property
    def interface_endpoint_zone_count(self) -> int:
        """Interface endpoints times the zones they have an interface in: what is billed per hour."""
        return len(INTERFACE_ENDPOINT_NAMES) * len(self.availability_zones)

    @property
    def cluster_name(self) -> str:
        return f"{self.name}-llm"

    @property
    def hyperpod_cluster_name(self) -> str:
        """The SageMaker HyperPod cluster's name (platform: hyperpod): what its EventBridge events and
        ``aws sagemaker list-cluster-nodes`` name."""
        return f"{self.name}-hyperpod"

    @property
    def gpu_node_count(self) -> int:
        """GPU nodes of the environment: the Capacity Block's instances, or the HyperPod instance group's."""
        if self.platform is Platform.HYPERPOD:
            return self.hyperpod.instance_count
        return self.capacity.instance_count

    @property
    def layout(self) -> Layout:
        """How one model instance is spread over GPU nodes (deployment_config.sizing.layout_for): one node when the
        model fits it, else (EKS only) a group of nodes with pipeline parallelism across them."""
        single = Layout(
            nodes=1, tensor_parallel_size=self.model.tensor_parallel_size, pipeline_parallel_size=1
        )
        if self.platform is Platform.HYPERPOD:
            return single
        layout = layout_for(self.model.loaded_gb, self.gpu_instance_type, memory=self.model.memory)
        return layout if layout is not None and layout.multi_node else single

    @property
    def sizing_message(self) -> str:
        """Where one model instance's GPU memory goes under the serving profile (``make check-config`` prints it)."""
        nodes = self.layout.nodes
        fit = fit_over(self.model.loaded_gb, self.gpu_instance_type, nodes, self.model.memory)
        speculator = (
            f" (the weights include the spec_decoding speculator's {self.model.speculator_size_gb} GB)"
            if self.model.speculator_size_gb
            else ""
        )
        return f"{nodes} x {self.gpu_instance_type.name} per replica, {self.model.memory.describe(fit, nodes)}{speculator}"

    @property
    def replicas(self) -> int:
        """vLLM replicas: ``endpoint.replicas``, else one on every GPU node (a replica takes a whole node), or on every
        group of :attr:`layout` ``.nodes`` nodes for a model that fits no single node."""
        return self.endpoint.replicas or self.gpu_node_count // self.layout.nodes

    @property
    def serving_image(self) -> str:
        """The vLLM image the charts use: ``model.image``, or its reference in the ECR pull-through cache when
        ``model.image_cache`` is set (the one place the reference is rewritten)."""
        cache = self.model.image_cache
        if cache is None:
            return self.model.image
        return cached_image(
            self.model.image,
            account=self.account,
            region=self.region,
            partition=partition_of(self.region),
            repository_prefix=cache.repository_prefix,
        )

    @property
    def serving_identity(self) -> dict:
        """What a start-up measurement is valid for: a warm-up or a load rate measured with another model, revision,
        image, instance type, serving profile or parallel layout says nothing about this one (vLLM compiles per image,
        model and arguments: the same fields key the compile cache, charts/compile_cache/). ``llmops phases --json``
        records it beside its phases; ``bench/timeline.py --measured`` refuses a record whose identity is not the
        environment's. The serving profile is the sha256 of the model's vLLM arguments, environment and speculator, as
        configured. A new dict on each read: a caller may fill in what the cluster says."""
        model, layout = self.model, self.layout
        profile = json.dumps(
            {
                "args": list(model.serving_args),
                "environment": dict(sorted(model.environment.items())),
                "speculator_revision": model.speculator_revision,
            },
            sort_keys=True,
            separators=(",", ":"),
        )
        return {
            "model": model.hugging_face_id,
            "model_revision": model.hugging_face_revision,
            "image": self.serving_image,
            "instance_type": self.gpu_instance_type.name,
            "layout": {
                "nodes": layout.nodes,
                "tensor_parallel_size": layout.tensor_parallel_size,
                "pipeline_parallel_size": layout.pipeline_parallel_size,
            },
            "serving_profile_sha256": hashlib.sha256(profile.encode()).hexdigest(),
        }

    @property
    def api_key_secret_name(self) -> str:
        """The Secrets Manager secret holding this environment's API key (generated by the serving stack; read by
        ``llmops smoke-test`` / ``wait endpoint`` and the pipeline's smoke step)."""
        return f"llm-serving/{self.name}/api-key"

    def stack_name(self, unit: str) -> str:
        """The CloudFormation stack name of one deployable unit of this environment."""
        return f"{self.name}-{unit}"
