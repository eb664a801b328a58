"""The inputs of the HyperPod endpoint (:class:`InferenceEndpointSpec`), derived from an environment's configuration
by :func:`inference_endpoint_spec_for`: the model, its S3 location, vLLM's arguments and environment, the secrets, the
workers and the routing. charts/inference_endpoint_chart.py writes them as the InferenceEndpointConfig and the objects
beside it; this module is the HyperPod counterpart of charts/serving_spec.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from charts.secrets_sync import COMPONENT as SECRETS_SYNC
from charts.serving_spec import VLLM_PORT, PodSecrets, drain_args, model_args
from charts.vllm_auth_middleware import middleware_environment
from charts.vllm_weights_check import hyperpod_weights_check
from deployment_config.cuda_graph_capture import capture_bound_args
from deployment_config.kubernetes_names import INFERENCE_ENDPOINT_NAMESPACE, inference_endpoint_name
from deployment_config.model import AutoscalingConfig, EnvironmentConfig, WeightSource
from deployment_config.model_location import weights_s3_uri
from deployment_config.sizing import HYPERPOD_DEPLOY_MARGIN_SECONDS

#: Time the operator allows after the startup budget (deployment_config/sizing.py).
DEPLOY_MARGIN_SECONDS = HYPERPOD_DEPLOY_MARGIN_SECONDS


@dataclass(frozen=True)
class InferenceEndpointSpec:
    """Inputs of :class:`InferenceEndpointChart`.

    :param name: Kubernetes name of the InferenceEndpointConfig.
    :param namespace: its namespace, which the chart creates.
    :param model_name: the operator's model name (also the served model name).
    :param instance_type: SageMaker instance type the worker runs on.
    :param image: vLLM image.
    :param args: vLLM arguments, ``--model`` (the operator's mount of the weights) included.
    :param environment: the worker's environment variables.
    :param gpus: GPUs per worker.
    :param s3_bucket, s3_prefix: the weights' S3 location.
    :param region: the region of the S3 bucket.
    :param startup_budget_seconds: how long the worker may take to answer /health for the first time.
    :param secrets: the secrets the sync keeps in a Kubernetes Secret (the API key, which the worker reads, and the
        Hugging Face token, which only ``llmops bench`` reads); None when there are none (no sync, no role).
    :param vpc_cidr: the VPC's range, the only one the worker's NetworkPolicy admits (charts/vllm_network_policy.py).
    :param replicas: workers, one per instance of the group (a worker takes all its GPUs). Default: 1.
    :param autoscaling: the operator scales the workers on vLLM's queue (KEDA). Default: none, ``replicas`` fixed.
    :param metrics_cluster_name: the ``ClusterName`` dimension of the serving metrics the autoscaler reads.
    :param routing_strategy: the operator's ``intelligentRoutingSpec.routingStrategy`` (:func:`routing_strategy_for`);
        None: no intelligent routing, the load balancer's own algorithm.
    :param weights_check: the weights verifier's arguments, run by the worker's bootstrap on the operator's model mount
        before vLLM starts (charts/vllm_weights_check/). Default: none, no check.
    """

    name: str
    namespace: str
    model_name: str
    instance_type: str
    image: str
    args: tuple[str, ...]
    environment: Mapping[str, str]
    gpus: int
    s3_bucket: str
    s3_prefix: str
    region: str
    startup_budget_seconds: int
    vpc_cidr: str
    replicas: int = 1
    autoscaling: AutoscalingConfig | None = None
    metrics_cluster_name: str | None = None
    port: int = VLLM_PORT
    secrets: PodSecrets | None = None
    weights_check: tuple[str, ...] | None = None
    routing_strategy: str | None = None

    @property
    def max_deploy_seconds(self) -> int:
        return self.startup_budget_seconds + DEPLOY_MARGIN_SECONDS

    @property
    def sync_service_account(self) -> str | None:
        """The service account of the secrets sync (charts/secrets_sync.py), which EKS Pod Identity gives the role that
        may read the secrets; None without secrets."""
        return f"{self.name}-{SECRETS_SYNC}" if self.secrets else None


#: The operator's prefix-aware strategy: the vendored operator 3.1 CRD (charts/imports/crds/, v1
#: ``spec.intelligentRoutingSpec``) offers ``routingStrategy`` prefixaware (its default), kvaware, session and
#: roundrobin, with ``enabled`` ("Once set, the enabled field cannot be modified"). prefixaware routes on the request's
#: text, as the EKS path's router does (charts/vllm_router.py); kvaware and ``kvCacheSpec`` are not used: the CRD's
#: ``kvCacheSpec`` turns on the operator's KV-cache offloading ("By default L1CacheOffloading will be enabled",
#: ``enableL1Cache`` "Enable CPU offloading"), which changes how the worker runs vLLM; the CRD documents neither what it
#: adds to the worker nor its memory use, and the worker's arguments are the recipe's (deployment_config/).
PREFIX_AWARE = "prefixaware"


def routing_strategy_for(env: EnvironmentConfig) -> str | None:
    """The intelligent routing strategy of ``env``'s endpoint: prefix-aware when its instance group can hold two workers
    or more, unless ``endpoint.routing`` is ``none`` or the API key is required; None otherwise.

    Not while the key is required: the operator's router (vLLM production-stack's) adds a worker only once GET
    /v1/models answers it, and it sends no key the CRD can give it, so the key check would leave it without a worker
    (deployment_config/cross_section_rules/endpoint.py ``routing``, which refuses an explicit ``cache_aware`` then, has
    the source). The load balancer spreads the requests instead.

    Decided by the group's size (``hyperpod.instance_count``), not by today's workers: the CRD says intelligent routing
    "is currently not supported for existing deployments. Adding this configuration to an existing deployment will be
    rejected" (charts/imports/crds/, ``spec.intelligentRoutingSpec``), so an endpoint that gained it when its replicas
    went from one to two would have its update refused. Within one group the setting never changes."""
    scaling = env.hyperpod.autoscaling if env.hyperpod else None
    workers = max(
        env.hyperpod.instance_count if env.hyperpod else 1,
        scaling.max_replicas if scaling else env.replicas,
    )
    if env.endpoint.api_key_required:
        return None
    return PREFIX_AWARE if env.endpoint.router_policy(workers) else None


def inference_endpoint_spec_for(env: EnvironmentConfig) -> InferenceEndpointSpec:
    model = env.model
    if model.weight_source is not WeightSource.S3 or not model.s3_uri:
        # The loader refuses it first (deployment_config/sections/model.py, ModelSection); this guards other callers.
        raise ValueError("the HyperPod endpoint takes its weights from S3 (docs/known-limits.md)")
    # The pinned revision's own prefix, which `llmops weights mirror` wrote and checked (deployment_config/
    # model_location.py); without a revision the endpoint stack refuses to deploy (cdk_constructs/placeholder_guard.py).
    bucket, _, prefix = (weights_s3_uri(model) or model.s3_uri)[len("s3://") :].partition("/")
    # The operator does not add --model: without it vLLM serves its own small default model under the served name.
    # The same drain as on the EKS path (charts/serving_spec.py drain_args); the pod's grace period is the operator's.
    args = (
        *model_args(env),
        *model.serving_args,
        *capture_bound_args(model.serving_args),  # as on the EKS path (charts/serving_spec.py)
        *drain_args(env),
    )
    budget = env.pod_startup_budget
    # the middleware that checks the key needs vLLM's Python API server (charts/vllm_auth_middleware/)
    environment = {
        **model.environment,
        **budget.vllm_environment,
        **(middleware_environment(model.environment) if env.endpoint.api_key_required else {}),
    }
    name = inference_endpoint_name(env)
    # The same secrets as the EKS path (charts/serving_spec.py), under this endpoint's names in its namespace, synced
    # by the secrets sync. The worker reads the API key only (endpoint_spec): its weights come from S3 and nothing in it
    # downloads from the Hub. The Hugging Face token is synced for `llmops bench`, whose Job in this namespace
    # downloads the (possibly gated) tokenizer from the Hub (ops_cli/load_test.py, plan_for).
    secrets = PodSecrets(
        region=env.region,
        api_key_secret=env.api_key_secret_name if env.endpoint.api_key_required else None,
        hugging_face_token_secret=model.hugging_face_token_secret,
        name=f"{name}-secrets",
    )
    return InferenceEndpointSpec(
        name=name,
        namespace=INFERENCE_ENDPOINT_NAMESPACE,
        model_name=model.served_name,
        instance_type=env.hyperpod.instance_type,
        image=env.serving_image,
        args=args,
        environment=MappingProxyType(environment),
        gpus=model.tensor_parallel_size,
        s3_bucket=bucket,
        s3_prefix=prefix,
        region=env.region,
        startup_budget_seconds=budget.probe_seconds,
        secrets=secrets if secrets.deliveries else None,
        vpc_cidr=env.vpc_cidr,
        replicas=env.hyperpod.autoscaling.min_replicas
        if env.hyperpod.autoscaling
        else env.replicas,
        autoscaling=env.hyperpod.autoscaling,
        metrics_cluster_name=env.cluster_name,
        weights_check=hyperpod_weights_check(env),
        routing_strategy=routing_strategy_for(env),
    )
