"""What the vLLM serving chart needs to know, derived once from an environment's configuration."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from charts import multi_node
from charts.compile_cache import CompileCacheSpec, compile_cache_for
from charts.image_reference import image_is_pinned, image_version_label
from charts.key_proxy import BACKEND_PORT, LOOPBACK
from charts.vllm_auth_middleware.runtime.llm_serving_auth import KEY_VARIABLES
from deployment_config import speculator
from deployment_config.cuda_graph_capture import capture_bound_args
from deployment_config.gpu_nodes import (
    EFA_ENVIRONMENT,
    GPU_NODE_LABELS,
    GPU_TAINT_EFFECT,
    GPU_TAINT_KEY,
    GPU_TAINT_VALUE,
    MODEL_CACHE_HOST_PATH,
)
from deployment_config.kubernetes_names import (
    SERVING_NAME,
    SERVING_NAMESPACE,
    hugging_face_token_synced,
)
from deployment_config.model import EnvironmentConfig, Platform, WeightSource
from deployment_config.model_location import (
    MODEL_CACHE_MOUNT,
    model_path,
    node_speculator_path,
    revision_s3_uri,
    speculator_s3_uri,
    weights_s3_uri,
)
from deployment_config.rollout import rollout_plan, standby_replicas
from deployment_config.sections.endpoint import EndpointSection
from deployment_config.sizing import SHM_SIZE_GIB
from deployment_config.vllm_args import SERVING_PORT
from deployment_config.weight_load import WeightLoad

#: vLLM's API port on both paths, the one model.extra_args may not change (deployment_config/vllm_args/options.py).
VLLM_PORT = SERVING_PORT
#: The load balancer's TLS port, where a certificate is configured (the HTTPS default, so URLs need no port).
TLS_PORT = 443


#: The API key's variable: the auth middleware's own, never vLLM's VLLM_API_KEY (see PodSecrets.deliveries).
API_KEY_VARIABLE = KEY_VARIABLES[0]


@dataclass(frozen=True)
class PodSecrets:
    """Secrets Manager secrets delivered to the vLLM container through the Secrets Store CSI driver and the AWS provider
    (see :mod:`charts.vllm_secret_provider`): files, a synced Secret, and environment variables from it (on the EKS path
    not the API key, whose file the key check in front of vLLM reads: charts/key_proxy.py). Secret names or ARNs only,
    never values.

    :param region: the region the secrets are in (the environment's).
    :param api_key_secret: the environment's generated API key, read by Caddy from its file on EKS
        (charts/key_proxy.py) and by the auth middleware from its variable ``LLM_SERVING_API_KEY`` on HyperPod
        (charts/vllm_auth_middleware/runtime/llm_serving_auth.py); None when the endpoint is
        unauthenticated (``endpoint.api_key_required: false``).
    :param hugging_face_token_secret: the user's secret with a Hugging Face token, read from ``HF_TOKEN``; None for none.
    """

    region: str
    api_key_secret: str | None
    hugging_face_token_secret: str | None
    #: Name of the SecretProviderClass and of the Kubernetes Secret the driver syncs from it.
    name: str = "vllm-secrets"
    #: Where the CSI volume is mounted in the vLLM container (the mount must exist for the sync).
    mount_path: str = "/mnt/secrets-store"

    @property
    def deliveries(self) -> tuple[tuple[str, str, str], ...]:
        """(environment variable, secret name or ARN, file and Secret key) of each configured secret.

        The API key's variable is the auth middleware's own (charts/vllm_auth_middleware/runtime/llm_serving_auth.py
        KEY_VARIABLES), not
        vLLM's VLLM_API_KEY (vLLM 0.33.0 vllm/envs.py), which vLLM would check itself with the one key it read at start;
        huggingface_hub reads HF_TOKEN before
        HUGGING_FACE_HUB_TOKEN (huggingface/huggingface_hub@ee0a4510 src/huggingface_hub/utils/_auth.py,
        _get_token_from_environment).
        """
        items = (
            (API_KEY_VARIABLE, self.api_key_secret, "api-key"),
            ("HF_TOKEN", self.hugging_face_token_secret, "hf-token"),
        )
        return tuple((variable, secret, key) for variable, secret, key in items if secret)


@dataclass(frozen=True)
class VllmServingSpec:
    """Inputs of :class:`charts.vllm_serving_chart.VllmServingChart`.

    :param name: name of the Deployment and Service.
    :param replicas: vLLM replicas, one per GPU node (default 1).
    :param namespace: namespace the workload runs in.
    :param image: vLLM image.
    :param args: the complete vLLM argument list.
    :param environment: environment variables of the vLLM container.
    :param gpus: ``nvidia.com/gpu`` requested (the tensor-parallel size).
    :param efa_devices: ``vpc.amazonaws.com/efa`` devices requested (0 for none: only a server spread over
        several nodes talks over EFA).
    :param cpu_request: vCPUs requested.
    :param memory_request_gib: host memory requested.
    :param memory_limit_gib: host memory limit.
    :param shm_size_gib: size of the memory-backed ``/dev/shm``.
    :param startup_budget_seconds: how long the pod may take to answer ``/health`` for the first time; longer than
        the ``VLLM_ENGINE_READY_TIMEOUT_S`` in ``environment``, so vLLM gives up (with its reason) before the probe.
    :param node_labels: labels the pod must find on its node.
    :param toleration: (key, value, effect) of the GPU taint.
    :param model_cache_host_path: node path of the model cache on the NVMe RAID0.
    :param s3_uri: when set, an init container copies the weights from here (``s3://BUCKET/PREFIX/REVISION/``) into the
        cache, another checks the copy against its manifest, and vLLM loads them from the cache instead of the Hub.
    :param weights_revision: the Hub revision of the weights at ``s3_uri`` (its directory in the node cache).
    :param service_account: service account the pod runs as (bound to an IAM role for S3 reads).
    :param endpoint: the validated ``endpoint`` section, whole: exposure (internal or public load balancer), the source
        ranges of a public one, the ACM certificate it answers TLS with on :data:`TLS_PORT` (None: plain TCP on
        ``port``) and the DNS name clients use, the drain time.
    :param instance: the environment's name (``app.kubernetes.io/instance``).
    :param vpc_cidr: the VPC's range; the API port admits it (the nodes, through which the load balancer's traffic and
        health checks arrive).
    :param image_pinned: the image is pinned by digest; False for a mutable tag (see :func:`image_is_pinned`).
    :param version: the image's tag or short digest (``app.kubernetes.io/version``).
    :param secrets: the secrets vLLM reads from Secrets Manager; None when there are none.
    """

    name: str
    namespace: str
    image: str
    args: tuple[str, ...]
    environment: Mapping[str, str]
    gpus: int
    efa_devices: int
    cpu_request: int
    memory_request_gib: int
    memory_limit_gib: int
    shm_size_gib: int
    startup_budget_seconds: int
    node_labels: Mapping[str, str]
    toleration: tuple[str, str, str]
    model_cache_host_path: str
    s3_uri: str | None
    service_account: str
    endpoint: EndpointSection
    instance: str
    vpc_cidr: str
    image_pinned: bool
    version: str
    port: int = VLLM_PORT
    secrets: PodSecrets | None = None
    replicas: int = 1
    #: Serving across blocks (capacity.next_capacity_reservation_id): as many more replicas, Pending while only one
    #: block's nodes exist (one replica per node). When the next block's nodes join they schedule there, start, pass
    #: the readiness probe and join the Service while the old block's replicas still serve; the old nodes' drain
    #: forty minutes before their block ends then only evicts replicas that have a ready successor. 0 otherwise.
    standby_replicas: int = 0
    #: How a change of the pod template replaces the replicas (deployment_config/rollout.py): a new one onto a free slot
    #: first (maxSurge 1, maxUnavailable 0) when the block has one, else an old one stopped first (maxSurge 0,
    #: maxUnavailable 1 plus the standby replicas, which are Pending and so unavailable outside a handover).
    max_surge: int = 0
    max_unavailable: int = 1
    #: Nodes one model instance spans (deployment_config.sizing.Layout): 1 for the Deployment, more for a
    #: LeaderWorkerSet whose groups have this size (charts/vllm_leader_worker_set.py).
    nodes: int = 1
    weights_revision: str | None = None
    #: The sha256 of the weights' MANIFEST.json (``model.weights_manifest_sha256``), which the node's check requires.
    weights_manifest_sha256: str | None = None
    #: The policy of the router in front of the replicas (charts/vllm_router.py); None: no router, the load balancer
    #: reaches vLLM directly (one replica, or ``endpoint.routing: none``).
    router_policy: str | None = None
    #: vLLM's compile cache in S3, restored before vLLM starts and saved after its first healthy start
    #: (charts/compile_cache/); None where none is kept.
    compile_cache: CompileCacheSpec | None = None
    #: The ``spec_decoding`` speculator's mirror (``s3://BUCKET/PREFIX/speculator/COMMIT/``) and its revision, copied and
    #: checked beside the weights (deployment_config/speculator.py); None without a mirrored speculator.
    speculator_s3_uri: str | None = None
    speculator_revision: str | None = None
    #: ``model.weight_load: runai_streamer`` (deployment_config/weight_load.py): vLLM streams ``s3_uri`` itself; no copy
    #: to the node, and the init check compares what S3 keeps of each object with the manifest instead.
    weights_streamed: bool = False
    #: The region of the weights' bucket (the environment's), for the streamed path's check and the copy's repair.
    region: str = ""
    #: ``model.next_revision`` and its mirror's prefix, which the GPU nodes pre-stage beside the copy of
    #: ``weights_revision`` (charts/vllm_weights_prestage.py); None unless the weights are copied from S3.
    next_revision: str | None = None
    next_s3_uri: str | None = None

    @property
    def key_check_in_front(self) -> bool:
        """Caddy in front of vLLM on ``port``, vLLM on the loopback (charts/key_proxy.py): while the key is required."""
        return self.endpoint.api_key_required

    @property
    def tls(self) -> bool:
        return self.endpoint.tls

    @property
    def multi_node(self) -> bool:
        return self.nodes > 1

    @property
    def leader_args(self) -> tuple[str, ...]:
        """The leader's arguments (node rank 0): the API server and the first pipeline stage (charts/multi_node.py)."""
        return multi_node.leader_args(self.args, self.nodes)

    @property
    def worker_args(self) -> tuple[str, ...]:
        """A worker's arguments: the same engine arguments, its rank, no API server (charts/multi_node.py)."""
        return multi_node.worker_args(self.args, self.nodes)

    @property
    def termination_grace_seconds(self) -> int:
        """How long Kubernetes waits between the start of a pod's termination and SIGKILL (EndpointSection)."""
        return self.endpoint.termination_grace_seconds

    @property
    def service_port(self) -> int:
        """The port clients connect to on the load balancer: HTTPS on 443 with a certificate, else the API port. The pod
        listens on ``port`` either way."""
        return TLS_PORT if self.tls else self.port


def _staged(model) -> str | None:
    """``model.next_revision`` where the nodes pre-stage it: S3 weights copied to the node (the file's rule
    cross_section_rules/prestage.py refuses it elsewhere)."""
    if weights_s3_uri(model) is None or model.weight_load is WeightLoad.RUNAI_STREAMER:
        return None
    return model.next_revision


def revision_args(env: EnvironmentConfig) -> tuple[str, ...]:
    """``--revision`` and ``--code-revision`` at the pinned Hub commit, when vLLM itself downloads from the Hub (EKS,
    ``weight_source: huggingface``): vLLM 0.33.0 takes both (vllm/engine/arg_utils.py add_cli_args; ModelConfig.revision
    "a branch name, a tag name, or a commit id"; the tokenizer follows ``revision`` unless told otherwise,
    vllm/config/model.py ``__post_init__``). ``--code-revision`` too, for the model's remote code (--trust-remote-code)
    must come from the same commit as its weights. From S3 or on HyperPod vLLM loads a local directory: no revision."""
    sha = env.model.hugging_face_revision
    if (
        sha is None
        or env.model.weight_source is not WeightSource.HUGGINGFACE
        or env.platform is not Platform.EKS
    ):
        return ()
    return ("--revision", sha, "--code-revision", sha)


def speculator_args(env: EnvironmentConfig, args: tuple[str, ...]) -> tuple[str, ...]:
    """``args`` with the ``spec_decoding`` speculator pinned like the main weights (deployment_config/speculator.py):
    from S3, ``--speculative-config``'s ``model`` is the node cache's copy; from the Hub, its ``revision`` and
    ``code_revision`` are ``model.speculator_revision``. Unchanged without a speculator or a pin."""
    model = env.model
    if not model.speculator_size_gb:
        return args
    if speculator_s3_uri(model) is not None:
        return speculator.pinned(args, model=node_speculator_path(model.speculator_revision))
    if model.weight_source is WeightSource.HUGGINGFACE and model.speculator_revision:
        return speculator.pinned(args, revision=model.speculator_revision)
    return args


def model_args(env: EnvironmentConfig) -> tuple[str, ...]:
    """What vLLM serves, under which name, on how many GPUs: the same on both paths (the HyperPod operator adds no
    ``--model``), and what model.extra_args may not set (deployment_config/vllm_args/rules.py)."""
    return (
        "--model",
        model_path(env),
        "--served-model-name",
        env.model.served_name,
        "--tensor-parallel-size",
        str(env.model.tensor_parallel_size),
    )


def key_proxy_backend_args() -> tuple[str, ...]:
    """vLLM 0.33.0's ``--host`` and ``--port`` (vllm/entrypoints/openai/cli_args.py FrontendArgs) behind the key check:
    the loopback only, so that every request from outside the pod goes through Caddy (charts/key_proxy.py)."""
    return ("--host", LOOPBACK, "--port", str(BACKEND_PORT))


def drain_args(env: EnvironmentConfig) -> tuple[str, ...]:
    """vLLM's ``--shutdown-timeout``: on SIGTERM, vLLM 0.33.0 stops taking requests and lets the running ones finish for
    up to that many seconds (0 aborts them: vllm/v1/engine/core.py ``_handle_shutdown``, "drain" mode;
    vllm/engine/arg_utils.py: "Shutdown timeout in seconds. 0 = abort, >0 = wait.")."""
    return ("--shutdown-timeout", str(env.endpoint.drain_seconds))


def serving_spec_for(env: EnvironmentConfig) -> VllmServingSpec:
    model = env.model
    instance = env.gpu_instance_type
    layout = env.layout
    args = (
        *model_args(env),
        # A model that fits no single node: one pipeline stage per node (deployment_config.sizing.Layout).
        *(
            ("--pipeline-parallel-size", str(layout.pipeline_parallel_size))
            if layout.multi_node
            else ()
        ),
        *revision_args(env),
        *speculator_args(env, model.serving_args),
        # The CUDA graphs a start captures, bounded by the endpoint's own --max-num-seqs
        # (deployment_config/cuda_graph_capture.py).
        *capture_bound_args(model.serving_args),
        *drain_args(env),
        # With the API key, Caddy in front checks it on every path (charts/key_proxy.py): vLLM listens on the loopback.
        *(key_proxy_backend_args() if env.endpoint.api_key_required else ()),
    )
    budget = env.pod_startup_budget
    rollout = rollout_plan(env)
    environment = {
        # The Hugging Face cache lives on the node's NVMe, so a restarted pod does not download again.
        "HF_HOME": f"{MODEL_CACHE_MOUNT}/huggingface",
        **model.environment,
        **budget.vllm_environment,
        **(EFA_ENVIRONMENT if layout.multi_node else {}),
        # the recipe's VLLM_USE_RUST_FRONTEND stays as it is: the key is checked in front (charts/key_proxy.py)
    }
    return VllmServingSpec(
        name=SERVING_NAME,
        namespace=SERVING_NAMESPACE,
        image=env.serving_image,
        args=args,
        environment=MappingProxyType(environment),
        gpus=model.tensor_parallel_size,
        # One replica holds all GPUs of one node and talks NVLink only: a single-node server uses no EFA device,
        # and requesting them would keep the pod off a node whose EFA plugin is not ready yet. A multi-node instance
        # takes every EFA interface of its node (deployment_config/catalog.py, the launch template's EFA-only
        # interfaces, which the EFA device plugin advertises as vpc.amazonaws.com/efa).
        efa_devices=instance.efa_interfaces if layout.multi_node else 0,
        cpu_request=instance.vcpus // 2,
        memory_request_gib=instance.memory_gib // 2,
        memory_limit_gib=instance.memory_gib * 85 // 100,
        shm_size_gib=SHM_SIZE_GIB,
        startup_budget_seconds=budget.probe_seconds,
        node_labels=GPU_NODE_LABELS,
        toleration=(GPU_TAINT_KEY, GPU_TAINT_VALUE, GPU_TAINT_EFFECT),
        model_cache_host_path=MODEL_CACHE_HOST_PATH,
        s3_uri=weights_s3_uri(model),
        weights_revision=model.hugging_face_revision if weights_s3_uri(model) else None,
        weights_manifest_sha256=model.weights_manifest_sha256 if weights_s3_uri(model) else None,
        speculator_s3_uri=speculator_s3_uri(model),
        speculator_revision=model.speculator_revision if speculator_s3_uri(model) else None,
        weights_streamed=weights_s3_uri(model) is not None
        and model.weight_load is WeightLoad.RUNAI_STREAMER,
        region=env.region,
        next_revision=_staged(model),
        next_s3_uri=revision_s3_uri(model.s3_uri, _staged(model)) if _staged(model) else None,
        service_account="vllm",
        endpoint=env.endpoint,
        instance=env.name,
        vpc_cidr=env.vpc_cidr,
        image_pinned=image_is_pinned(model.image),
        version=image_version_label(model.image),
        secrets=_pod_secrets(env),
        replicas=env.replicas,
        standby_replicas=standby_replicas(env),
        max_surge=rollout.max_surge,
        max_unavailable=rollout.max_unavailable,
        nodes=layout.nodes,
        router_policy=env.endpoint.router_policy(env.replicas),
        compile_cache=compile_cache_for(
            image=env.serving_image,
            weights_s3_uri=weights_s3_uri(model),
            revision=model.hugging_face_revision,
            region=env.region,
            gpu_instance_type=instance.name,
            tensor_parallel_size=layout.tensor_parallel_size,
            pipeline_parallel_size=layout.pipeline_parallel_size,
            nodes=layout.nodes,
            args=args,
            environment=environment,
        ),
    )


def _pod_secrets(env: EnvironmentConfig) -> PodSecrets | None:
    """The API key, and the Hugging Face token only where vLLM downloads from the Hub: with S3 weights nothing in the pod
    talks to the Hub (the mirror Job reads the token itself, ops_cli/weights_mirror_job.py), and a token in the environment
    of a process that runs the model repository's code (--trust-remote-code) is one more secret it could read."""
    secrets = PodSecrets(
        region=env.region,
        api_key_secret=env.api_key_secret_name if env.endpoint.api_key_required else None,
        hugging_face_token_secret=env.model.hugging_face_token_secret
        if hugging_face_token_synced(env)
        else None,
    )
    return secrets if secrets.deliveries else None
