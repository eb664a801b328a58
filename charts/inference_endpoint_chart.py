"""The HyperPod Inference Operator's InferenceEndpointConfig for the configured model (cdk8s).

The announced manifest for Kimi-K3, with the defaults that are wrong for a 1.4 TB model corrected: a deploy
timeout that outlasts the download, probes and the load balancer health check on vLLM's /health, and metrics
scraped from vLLM's own port.

Written for operator 3.0, the version the pinned add-on build installs (deployment_config/addons.py,
OPERATOR_RELEASES), through typed bindings generated from that version's CRD, vendored in charts/imports/crds/. That
CRD's v1 schema decides what the endpoint can say:

- ``modelSourceConfig.modelSourceType`` is ``fsx`` or ``s3``: the weights come from S3 (the loader refuses
  ``weight_source: huggingface`` for HyperPod; ``llmops weights mirror`` copies them there). The worker never talks to
  the Hub, so no Hugging Face token reaches it.
- There is no ``spec.kubernetes`` (no service account, volume or init container of the worker pod) and ``worker`` has
  no ``volumeMounts``: the worker cannot mount the Secrets Store CSI volume. A small Deployment of its own, in the same
  namespace, mounts it and keeps the Kubernetes Secret the driver syncs from it (charts/secrets_sync.py); the worker
  reads ``LLM_SERVING_API_KEY`` from that Secret through ``worker.environmentVariables[].valueFrom.secretKeyRef``.
- Fails closed: the ``secretKeyRef`` leaves ``optional`` unset ("Specify whether the Secret or its key must be
  defined", the vendored CRD's description of the field), so the kubelet does not start the worker's container while
  the synced Secret or its key is missing: it reports CreateContainerConfigError and retries until the sync has
  written it (kubernetes/kubernetes pkg/kubelet/kubelet_pods.go, ``makeEnvironmentVariables``, which fails on a
  missing non-optional Secret or key). vLLM never runs without its key.
- The worker's container has no ``securityContext`` in the CRD: the operator decides it.

Everything goes into the endpoint's own namespace (deployment_config/kubernetes_names.py), which the chart creates.
The operator reconciles InferenceEndpointConfigs in any namespace: its manager role is a ClusterRole with a
ClusterRoleBinding, and AWS's own S3 sample puts the endpoint in a namespace of its own (aws/sagemaker-hyperpod-cli@9ffefae
helm_chart/HyperPodHelmChart/charts/inference-operator/config/rbac/role.yaml, role_binding.yaml,
config/samples/v1_s3_modeldeployment.yaml: ``namespace: ns-team-a``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

import cdk8s
from constructs import Construct

from cdk_constructs.serving_metrics import NAMESPACE as SERVING_METRICS_NAMESPACE
from charts.imports import sagemaker_inference as crd
from charts.secrets_sync import COMPONENT as SECRETS_SYNC
from charts.secrets_sync import (
    add_plain_object,
    secrets_sync_deployment,
    secrets_sync_disruption_budget,
    secrets_sync_network_policy,
)
from charts.serving_spec import API_KEY_VARIABLE, PodSecrets, drain_args
from charts.vllm_auth_middleware import inline_middleware_worker, middleware_environment
from charts.vllm_network_policy import worker_network_policy
from charts.vllm_secret_provider import add_secret_provider_class, secret_env
from charts.vllm_weights_check import hyperpod_weights_check
from deployment_config.kubernetes_names import INFERENCE_ENDPOINT_NAMESPACE, inference_endpoint_name
from deployment_config.model import AutoscalingConfig, EnvironmentConfig, WeightSource
from deployment_config.model_location import HYPERPOD_MODEL_MOUNT, model_path, weights_s3_uri

API_VERSION = "inference.sagemaker.aws.amazon.com/v1"
KIND = "InferenceEndpointConfig"
VLLM_PORT = 8000
#: Time the operator allows after the startup budget, for scheduling, image pull and load balancer set-up.
DEPLOY_MARGIN_SECONDS = 30 * 60
STARTUP_PERIOD_SECONDS = 10


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
    :param s3_bucket, s3_prefix: the weights' S3 location (operator 3.0 takes weights from S3 or FSx only).
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


#: The operator's prefix-aware strategy: the vendored operator 3.0 CRD (charts/imports/crds/, v1
#: ``spec.intelligentRoutingSpec``) offers ``routingStrategy`` prefixaware (its default), kvaware, session and
#: roundrobin, with ``enabled`` ("Once set, the enabled field cannot be modified"). prefixaware routes on the request's
#: text, as the EKS path's router does (charts/vllm_router.py); kvaware and ``kvCacheSpec`` are not used: the CRD's
#: ``kvCacheSpec`` turns on the operator's KV-cache offloading ("By default L1CacheOffloading will be enabled",
#: ``enableL1Cache`` "Enable CPU offloading"), which changes how the worker runs vLLM; the CRD documents neither what it
#: adds to the worker nor its memory use, and the worker's arguments are the recipe's (deployment_config/).
PREFIX_AWARE = "prefixaware"


def routing_strategy_for(env: EnvironmentConfig) -> str | None:
    """The intelligent routing strategy of ``env``'s endpoint: prefix-aware when its instance group can hold two workers
    or more, unless ``endpoint.routing`` is ``none``; None otherwise.

    Decided by the group's size (``hyperpod.instance_count``), not by today's workers: the CRD says intelligent routing
    "is currently not supported for existing deployments. Adding this configuration to an existing deployment will be
    rejected" (charts/imports/crds/, ``spec.intelligentRoutingSpec``), so an endpoint that gained it when its replicas
    went from one to two would have its update refused. Within one group the setting never changes."""
    scaling = env.hyperpod.autoscaling if env.hyperpod else None
    workers = max(
        env.hyperpod.instance_count if env.hyperpod else 1,
        scaling.max_replicas if scaling else env.replicas,
    )
    return PREFIX_AWARE if env.endpoint.router_policy(workers) else None


def inference_endpoint_spec_for(env: EnvironmentConfig) -> InferenceEndpointSpec:
    model = env.model
    if model.weight_source is not WeightSource.S3 or not model.s3_uri:
        # The loader refuses it first (deployment_config/file_models.py, ModelSection); this guards other callers.
        raise ValueError(
            "the HyperPod endpoint takes its weights from S3 (operator 3.0's modelSourceType is fsx or s3)"
        )
    # The pinned revision's own prefix, which `llmops weights mirror` wrote and checked (deployment_config/
    # model_location.py); without a revision the endpoint stack refuses to deploy (cdk_constructs/placeholder_guard.py).
    bucket, _, prefix = (weights_s3_uri(model) or model.s3_uri)[len("s3://") :].partition("/")
    # The operator does not add --model: without it vLLM serves its own small default model under the served name.
    # The same drain as on the EKS path (charts/serving_spec.py drain_args); the pod's grace period is the operator's.
    args = (
        "--model",
        model_path(env),
        "--served-model-name",
        model.served_name,
        "--tensor-parallel-size",
        str(model.tensor_parallel_size),
        *model.serving_args,
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


def _probe(probe_class, period: int, failures: int, timeout: int):
    """vLLM's /health on its port, as one of the worker's probes (``probe_class``: the CRD's startup, readiness or
    liveness probe type; their httpGet and port types are named after it)."""
    http_get = getattr(crd, f"{probe_class.__name__}HttpGet")
    port = getattr(crd, f"{probe_class.__name__}HttpGetPort").from_number(VLLM_PORT)
    return probe_class(
        http_get=http_get(path="/health", port=port),
        period_seconds=period,
        failure_threshold=failures,
        timeout_seconds=timeout,
    )


def _environment_variable(item: dict) -> crd.InferenceEndpointConfigSpecWorkerEnvironmentVariables:
    """A worker variable from the Kubernetes JSON the secret helpers write (``value``, or ``valueFrom.secretKeyRef``)."""
    reference = item.get("valueFrom", {}).get("secretKeyRef")
    value_from = (
        crd.InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFrom(
            secret_key_ref=crd.InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromSecretKeyRef(
                name=reference["name"], key=reference["key"]
            )
        )
        if reference
        else None
    )
    return crd.InferenceEndpointConfigSpecWorkerEnvironmentVariables(
        name=item["name"], value=item.get("value"), value_from=value_from
    )


def endpoint_spec(spec: InferenceEndpointSpec) -> crd.InferenceEndpointConfigSpec:
    """The InferenceEndpointConfig's spec, built from the operator CRD's typed bindings: a field the CRD does not have,
    a missing required one or a value of the wrong type fails here, at synthesis."""
    secrets = spec.secrets
    source = crd.InferenceEndpointConfigSpecModelSourceConfig(
        model_source_type=crd.InferenceEndpointConfigSpecModelSourceConfigModelSourceType.S3,
        s3_storage=crd.InferenceEndpointConfigSpecModelSourceConfigS3Storage(
            bucket_name=spec.s3_bucket, region=spec.region
        ),
        model_location=spec.s3_prefix,
    )
    environment = [{"name": k, "value": v} for k, v in spec.environment.items()]
    require_key = bool(secrets and secrets.api_key_secret)
    if require_key:
        # The key from the synced Secret, not optional, so the worker does not start without it (the module's
        # docstring), as LLM_SERVING_API_KEY: the middleware checks it on every path, and vLLM, which would check its own
        # VLLM_API_KEY on /v1 only (vLLM 0.33.0 vllm/envs.py), is not given one, as on the EKS path.
        environment += secret_env(secrets, (API_KEY_VARIABLE,))
    command, args = None, list(spec.args)
    if require_key or spec.weights_check:
        # The key on every path, /invocations included, as on the EKS path: the middleware module through an
        # environment variable and a bootstrap command, since the worker can mount no volume; the same bootstrap
        # checks the operator's copy of the weights against their manifest before vLLM starts.
        inline = inline_middleware_worker(spec.args, spec.weights_check, middleware=require_key)
        command, args = inline["command"], inline["args"]
        environment += [{"name": k, "value": v} for k, v in inline["environment"].items()]
    gpus = {"nvidia.com/gpu": spec.gpus}
    worker = crd.InferenceEndpointConfigSpecWorker(
        image=spec.image,
        command=command,
        args=args,
        environment_variables=[_environment_variable(item) for item in environment],
        model_invocation_port=crd.InferenceEndpointConfigSpecWorkerModelInvocationPort(
            container_port=spec.port, name="http"
        ),
        model_volume_mount=crd.InferenceEndpointConfigSpecWorkerModelVolumeMount(
            name="model-weights", mount_path=HYPERPOD_MODEL_MOUNT
        ),
        resources=crd.InferenceEndpointConfigSpecWorkerResources(
            requests={
                k: crd.InferenceEndpointConfigSpecWorkerResourcesRequests.from_number(v)
                for k, v in gpus.items()
            },
            limits={
                k: crd.InferenceEndpointConfigSpecWorkerResourcesLimits.from_number(v)
                for k, v in gpus.items()
            },
        ),
        probes=crd.InferenceEndpointConfigSpecWorkerProbes(
            startup_probe=_probe(
                crd.InferenceEndpointConfigSpecWorkerProbesStartupProbe,
                STARTUP_PERIOD_SECONDS,
                math.ceil(spec.startup_budget_seconds / STARTUP_PERIOD_SECONDS),
                5,
            ),
            readiness_probe=_probe(
                crd.InferenceEndpointConfigSpecWorkerProbesReadinessProbe, 10, 3, 5
            ),
            liveness_probe=_probe(
                crd.InferenceEndpointConfigSpecWorkerProbesLivenessProbe, 30, 5, 10
            ),
        ),
    )
    return crd.InferenceEndpointConfigSpec(
        model_name=spec.model_name,
        instance_type=spec.instance_type,
        invocation_endpoint="v1/chat/completions",
        replicas=spec.replicas,
        # The default of 3600 s is shorter than downloading and loading 1.4 TB.
        max_deploy_time_in_seconds=spec.max_deploy_seconds,
        model_source_config=source,
        worker=worker,
        # vLLM answers /health, not the operator's default /ping, and serves /metrics on its own port.
        load_balancer=crd.InferenceEndpointConfigSpecLoadBalancer(health_check_path="/health"),
        metrics=crd.InferenceEndpointConfigSpecMetrics(
            enabled=True,
            model_metrics=crd.InferenceEndpointConfigSpecMetricsModelMetrics(
                port=spec.port, path="/metrics"
            ),
        ),
        auto_scaling_spec=_auto_scaling(spec) if spec.autoscaling else None,
        # The CRD: "This feature is currently not supported for existing deployments. Adding this configuration to an
        # existing deployment will be rejected." An endpoint deployed with one worker keeps the load balancer's routing.
        intelligent_routing_spec=crd.InferenceEndpointConfigSpecIntelligentRoutingSpec(
            enabled=True,
            routing_strategy=crd.InferenceEndpointConfigSpecIntelligentRoutingSpecRoutingStrategy(
                spec.routing_strategy.upper()
            ),
        )
        if spec.routing_strategy
        else None,
    )


def _auto_scaling(spec: InferenceEndpointSpec) -> crd.InferenceEndpointConfigSpecAutoScalingSpec:
    """The operator's KEDA autoscaling (CRD v1 ``autoScalingSpec``) on the observability stack's CloudWatch metric
    ``LLMServing``/``RequestsWaiting`` (vLLM's ``vllm:num_requests_waiting`` summed over the workers:
    cdk_constructs/serving_metrics/). ``metricType: Average`` makes the HPA divide it by the workers ("AverageValue -
    Uses average value of metric per pod", the CRD's description), so the target is per worker. The operator's KEDA
    role may read CloudWatch metrics (stacks/inference_operator_stack.py). Until the observability stack publishes the
    metric, the trigger reads ``minValue`` 0: no scaling."""
    scaling = spec.autoscaling
    return crd.InferenceEndpointConfigSpecAutoScalingSpec(
        min_replica_count=scaling.min_replicas,
        max_replica_count=scaling.max_replicas,
        cloud_watch_trigger=crd.InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTrigger(
            name="requests-waiting",
            namespace=SERVING_METRICS_NAMESPACE,
            metric_name="RequestsWaiting",
            dimensions=[
                crd.InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerDimensions(
                    name="ClusterName", value=spec.metrics_cluster_name
                )
            ],
            metric_stat="Maximum",
            metric_type=crd.InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerMetricType.AVERAGE,
            target_value=scaling.target_requests_waiting,
            min_value=0,
        ),
    )


def endpoint_manifest(spec: InferenceEndpointSpec) -> dict:
    """The InferenceEndpointConfig as Kubernetes JSON, as the chart writes it."""
    (endpoint,) = [o for o in synthesize_inference_endpoint(spec) if o["kind"] == KIND]
    return endpoint


class InferenceEndpointChart(cdk8s.Chart):
    """The endpoint's namespace, then, when the worker reads secrets, the secrets sync's service account,
    SecretProviderClass, NetworkPolicy and Deployment (charts/secrets_sync.py), the worker's NetworkPolicy, and the
    InferenceEndpointConfig, through typed bindings generated from the operator's CRD (charts/imports/, SOURCE.json
    there). The tests also validate the written object against the vendored CRD's v1 schema."""

    def __init__(self, scope: Construct, id: str, *, spec: InferenceEndpointSpec) -> None:
        super().__init__(scope, id, disable_resource_name_hashes=True)
        labels = {"app.kubernetes.io/name": "vllm", "app.kubernetes.io/instance": spec.name}
        self.namespace_object = cdk8s.ApiObject(
            self,
            "namespace",
            api_version="v1",
            kind="Namespace",
            metadata=cdk8s.ApiObjectMetadata(name=spec.namespace, labels=labels),
        )
        first: list[Construct] = []
        self.service_account = self.secret_provider = self.secrets_sync = None
        if spec.secrets:
            # The sync's own account (bound to its role by EKS Pod Identity); it mounts no token and has no RBAC binding.
            self.service_account = cdk8s.ApiObject(
                self,
                "service-account",
                api_version="v1",
                kind="ServiceAccount",
                metadata=cdk8s.ApiObjectMetadata(
                    name=spec.sync_service_account, namespace=spec.namespace, labels=labels
                ),
            )
            self.service_account.add_json_patch(
                cdk8s.JsonPatch.add("/automountServiceAccountToken", False)
            )
            self.secret_provider = add_secret_provider_class(
                self, secrets=spec.secrets, namespace=spec.namespace
            )
            sync_policy = add_plain_object(
                self,
                "secrets-sync-network-policy",
                secrets_sync_network_policy(endpoint_name=spec.name, namespace=spec.namespace),
            )
            self.secrets_sync = add_plain_object(
                self,
                "secrets-sync",
                secrets_sync_deployment(
                    endpoint_name=spec.name,
                    namespace=spec.namespace,
                    service_account=spec.sync_service_account,
                    secrets=spec.secrets,
                ),
            )
            sync_budget = add_plain_object(
                self,
                "secrets-sync-disruption-budget",
                secrets_sync_disruption_budget(endpoint_name=spec.name, namespace=spec.namespace),
            )
            for obj in (self.service_account, self.secret_provider, sync_policy, sync_budget):
                obj.node.add_dependency(self.namespace_object)
            self.secrets_sync.node.add_dependency(
                self.service_account, self.secret_provider, sync_policy, sync_budget
            )
            first.append(self.secrets_sync)
        # Before the endpoint: its pods never run unguarded.
        self.network_policy = add_plain_object(
            self,
            "network-policy",
            worker_network_policy(
                endpoint_name=spec.name, namespace=spec.namespace, vpc_cidr=spec.vpc_cidr
            ),
        )
        self.network_policy.node.add_dependency(self.namespace_object)
        self.endpoint = crd.InferenceEndpointConfig(
            self,
            "endpoint",
            metadata=cdk8s.ApiObjectMetadata(name=spec.name, namespace=spec.namespace),
            spec=endpoint_spec(spec),
        )
        self.endpoint.node.add_dependency(self.namespace_object, self.network_policy, *first)


def synthesize_inference_endpoint(spec: InferenceEndpointSpec) -> list[dict]:
    app = cdk8s.App()
    return InferenceEndpointChart(app, "inference-endpoint", spec=spec).to_json()
