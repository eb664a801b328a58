"""The HyperPod Inference Operator's InferenceEndpointConfig for the configured model (cdk8s).

The announced manifest for Kimi-K3, with the defaults that are wrong for a 1.4 TB model corrected: a deploy
timeout that outlasts the download, probes and the load balancer health check on vLLM's /health, and metrics
scraped from vLLM's own port.

The API key and the Hugging Face token come from Secrets Manager as on the EKS path (charts/vllm_secret_provider.py),
through the fields the operator's v1 CRD has for it (operator 3.2, Helm chart 2.2.2: aws/sagemaker-hyperpod-cli@011ca927
helm_chart/HyperPodHelmChart/charts/inference-operator/config/crd/inference.sagemaker.aws.amazon.com_inferenceendpointconfigs.yaml):

- ``spec.kubernetes.serviceAccountName``: "Name of the Kubernetes ServiceAccount to use for the inference pod"; the
  chart's own account, which EKS Pod Identity gives the role that may read the secrets (stacks/inference_endpoint_stack.py).
- ``spec.kubernetes.volumes``: "Additional volumes to add to the pod spec. These volumes can be referenced by init
  containers via volumeMounts": the Secrets Store CSI volume. ``worker`` has no ``volumeMounts`` (its fields are args,
  command, environmentVariables, image, modelInvocationPort, modelVolumeMount, probes, requestLimits, resources,
  workingDir), so an init container of ``spec.kubernetes.initContainers`` mounts the volume, which keeps the synced
  Secret for the pod's life (see charts/vllm_secret_provider.py).
- ``worker.environmentVariables[].valueFrom.secretKeyRef``: ``VLLM_API_KEY`` from the synced Secret.
- ``modelSourceConfig.huggingFaceModel.tokenSecretRef``: "Reference to a Kubernetes Secret containing the HuggingFace API
  token. The token is injected as the HF_TOKEN environment variable into the InitContainer only" - the operator's own
  download of the weights, the only part that talks to the Hub (the worker loads them from its mount). With S3 weights
  there is no such field, and the token reaches the worker as ``HF_TOKEN``, as on the EKS path.
- The worker's container has no ``securityContext`` in the CRD (nor has ``spec.kubernetes`` a pod security context):
  the operator decides it. The init container this chart adds runs with every capability dropped, no privilege
  escalation, the runtime's default seccomp profile and a read-only root filesystem.
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
from charts.serving_spec import PodSecrets, drain_args
from charts.vllm_auth_middleware import inline_middleware_worker
from charts.vllm_network_policy import worker_network_policy
from charts.vllm_secret_provider import (
    SECRETS_VOLUME,
    add_secret_provider_class,
    secret_env,
    secret_key_ref,
    secrets_volume,
)
from deployment_config.kubernetes_names import INFERENCE_ENDPOINT_NAMESPACE, inference_endpoint_name
from deployment_config.model import AutoscalingConfig, EnvironmentConfig, WeightSource
from deployment_config.model_location import HYPERPOD_MODEL_MOUNT, model_path
from deployment_config.sizing import startup_budget

API_VERSION = "inference.sagemaker.aws.amazon.com/v1"
KIND = "InferenceEndpointConfig"
VLLM_PORT = 8000
#: Time the operator allows after the startup budget, for scheduling, image pull and load balancer set-up.
DEPLOY_MARGIN_SECONDS = 30 * 60
STARTUP_PERIOD_SECONDS = 10
#: Name of the init container that mounts the secrets volume (and so keeps the synced Secret) and checks the files.
SECRETS_INIT_CONTAINER = "secrets-check"
#: Fails the init container, with the file's name, when a secret file is missing or empty. python3 is the interpreter the
#: vLLM image runs vLLM with (vllm-project/vllm docker/Dockerfile, stage vllm-base: /usr/bin/python3 through
#: update-alternatives): no other image to pull, and the check runs from the image the worker runs anyway.
SECRETS_CHECK = ("import os, sys; missing = [p for p in sys.argv[1:] if not os.path.isfile(p) or os.path.getsize(p) == 0]; "
                 "sys.exit('secret files missing or empty: ' + ', '.join(missing) if missing else 0)")
#: The hardening the EKS path's containers get (charts/vllm_deployment.py), plus a read-only root filesystem: the check
#: writes nothing. Fields of the CRD's initContainers[].securityContext (the Kubernetes SecurityContext).
SECRETS_INIT_SECURITY_CONTEXT = MappingProxyType({
    "allowPrivilegeEscalation": False,
    "privileged": False,
    "readOnlyRootFilesystem": True,
    "capabilities": {"drop": ["ALL"]},
    "seccompProfile": {"type": "RuntimeDefault"},
})


@dataclass(frozen=True)
class InferenceEndpointSpec:
    """Inputs of :class:`InferenceEndpointChart`.

    :param name: Kubernetes name of the InferenceEndpointConfig.
    :param namespace: its namespace.
    :param model_name: the operator's model name (also the served model name).
    :param instance_type: SageMaker instance type the worker runs on.
    :param image: vLLM image.
    :param args: vLLM arguments, ``--model`` (the operator's mount of the weights) included.
    :param environment: the worker's environment variables.
    :param gpus: GPUs per worker.
    :param hugging_face_id: the Hugging Face model, when the weights come from there.
    :param s3_bucket, s3_prefix: the weights' S3 location, when they come from S3.
    :param region: the region of the S3 bucket.
    :param startup_budget_seconds: how long the worker may take to answer /health for the first time.
    :param secrets: the secrets the pod reads from Secrets Manager; None when there are none (then the pod runs as the
        namespace's default service account, with no role).
    :param service_account: the inference pod's service account, when there are secrets.
    :param vpc_cidr: the VPC's range, the only one the worker's NetworkPolicy admits (charts/vllm_network_policy.py).
    :param replicas: workers, one per instance of the group (a worker takes all its GPUs). Default: 1.
    :param autoscaling: the operator scales the workers on vLLM's queue (KEDA). Default: none, ``replicas`` fixed.
    :param metrics_cluster_name: the ``ClusterName`` dimension of the serving metrics the autoscaler reads.
    """

    name: str
    namespace: str
    model_name: str
    instance_type: str
    image: str
    args: tuple[str, ...]
    environment: Mapping[str, str]
    gpus: int
    hugging_face_id: str | None
    s3_bucket: str | None
    s3_prefix: str | None
    region: str
    startup_budget_seconds: int
    vpc_cidr: str
    replicas: int = 1
    autoscaling: AutoscalingConfig | None = None
    metrics_cluster_name: str | None = None
    port: int = VLLM_PORT
    secrets: PodSecrets | None = None
    service_account: str | None = None

    @property
    def max_deploy_seconds(self) -> int:
        return self.startup_budget_seconds + DEPLOY_MARGIN_SECONDS

    @property
    def hugging_face_token_to_download(self) -> bool:
        """The token goes to the operator's download (tokenSecretRef), not to the worker: the weights come from the Hub."""
        return bool(self.secrets and self.secrets.hugging_face_token_secret and self.hugging_face_id)


def inference_endpoint_spec_for(env: EnvironmentConfig) -> InferenceEndpointSpec:
    model = env.model
    from_s3 = model.weight_source is WeightSource.S3
    bucket = prefix = None
    if from_s3:
        bucket, _, prefix = (model.s3_uri or "")[len("s3://"):].partition("/")
    # The operator does not add --model: without it vLLM serves its own small default model under the served name.
    # The same drain as on the EKS path (charts/serving_spec.py drain_args); the pod's grace period is the operator's.
    args = ("--model", model_path(env), "--served-model-name", model.served_name,
            "--tensor-parallel-size", str(model.tensor_parallel_size),
            *model.serving_args, *drain_args(env))
    budget = startup_budget(model.weight_size_gb)
    environment = {**model.environment, **budget.vllm_environment}
    name = inference_endpoint_name(env)
    # The same secrets as the EKS path (charts/serving_spec.py), under this endpoint's names in its namespace.
    secrets = PodSecrets(region=env.region,
                         api_key_secret=env.api_key_secret_name if env.endpoint.api_key_required else None,
                         hugging_face_token_secret=model.hugging_face_token_secret, name=f"{name}-secrets")
    return InferenceEndpointSpec(
        name=name, namespace=INFERENCE_ENDPOINT_NAMESPACE, model_name=model.served_name,
        instance_type=env.hyperpod.instance_type, image=env.serving_image, args=args,
        environment=MappingProxyType(environment), gpus=model.tensor_parallel_size,
        hugging_face_id=None if from_s3 else model.hugging_face_id, s3_bucket=bucket, s3_prefix=prefix,
        region=env.region, startup_budget_seconds=budget.probe_seconds,
        secrets=secrets if secrets.deliveries else None,
        service_account=f"{name}-inference" if secrets.deliveries else None,
        vpc_cidr=env.vpc_cidr,
        replicas=env.hyperpod.autoscaling.min_replicas if env.hyperpod.autoscaling else env.replicas,
        autoscaling=env.hyperpod.autoscaling,
        metrics_cluster_name=env.cluster_name,
    )


def _probe(probe_class, period: int, failures: int, timeout: int):
    """vLLM's /health on its port, as one of the worker's probes (``probe_class``: the CRD's startup, readiness or
    liveness probe type; their httpGet and port types are named after it)."""
    http_get = getattr(crd, f"{probe_class.__name__}HttpGet")
    port = getattr(crd, f"{probe_class.__name__}HttpGetPort").from_number(VLLM_PORT)
    return probe_class(http_get=http_get(path="/health", port=port), period_seconds=period, failure_threshold=failures,
                       timeout_seconds=timeout)


def _secrets_init_container(spec: InferenceEndpointSpec) -> crd.InferenceEndpointConfigSpecKubernetesInitContainers:
    """The init container that mounts the secrets volume (the worker cannot) and fails when a secret file is empty."""
    secrets = spec.secrets
    files = [f"{secrets.mount_path}/{key}" for _, _, key in secrets.deliveries]
    context = SECRETS_INIT_SECURITY_CONTEXT
    quantity = crd.InferenceEndpointConfigSpecKubernetesInitContainersResourcesRequests.from_string
    limit = crd.InferenceEndpointConfigSpecKubernetesInitContainersResourcesLimits.from_string
    return crd.InferenceEndpointConfigSpecKubernetesInitContainers(
        name=SECRETS_INIT_CONTAINER,
        image=spec.image,
        # The worker's image, on the node once for both; never pulled again for a restart.
        image_pull_policy="IfNotPresent",
        command=["python3", "-c", SECRETS_CHECK, *files],
        volume_mounts=[crd.InferenceEndpointConfigSpecKubernetesInitContainersVolumeMounts(
            name=SECRETS_VOLUME, mount_path=secrets.mount_path, read_only=True)],
        security_context=crd.InferenceEndpointConfigSpecKubernetesInitContainersSecurityContext(
            allow_privilege_escalation=context["allowPrivilegeEscalation"], privileged=context["privileged"],
            read_only_root_filesystem=context["readOnlyRootFilesystem"],
            capabilities=crd.InferenceEndpointConfigSpecKubernetesInitContainersSecurityContextCapabilities(
                drop=list(context["capabilities"]["drop"])),
            seccomp_profile=crd.InferenceEndpointConfigSpecKubernetesInitContainersSecurityContextSeccompProfile(
                type=context["seccompProfile"]["type"])),
        resources=crd.InferenceEndpointConfigSpecKubernetesInitContainersResources(
            requests={"cpu": quantity("100m"), "memory": quantity("64Mi")}, limits={"memory": limit("256Mi")}),
    )


def _environment_variable(item: dict) -> crd.InferenceEndpointConfigSpecWorkerEnvironmentVariables:
    """A worker variable from the Kubernetes JSON the secret helpers write (``value``, or ``valueFrom.secretKeyRef``)."""
    reference = item.get("valueFrom", {}).get("secretKeyRef")
    value_from = crd.InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFrom(
        secret_key_ref=crd.InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromSecretKeyRef(
            name=reference["name"], key=reference["key"])) if reference else None
    return crd.InferenceEndpointConfigSpecWorkerEnvironmentVariables(name=item["name"], value=item.get("value"),
                                                                     value_from=value_from)


def endpoint_spec(spec: InferenceEndpointSpec) -> crd.InferenceEndpointConfigSpec:
    """The InferenceEndpointConfig's spec, built from the operator CRD's typed bindings: a field the CRD does not have,
    a missing required one or a value of the wrong type fails here, at synthesis."""
    secrets = spec.secrets
    if spec.hugging_face_id:
        token = None
        if spec.hugging_face_token_to_download:
            reference = secret_key_ref(secrets, "hf-token")
            token = crd.InferenceEndpointConfigSpecModelSourceConfigHuggingFaceModelTokenSecretRef(
                name=reference["name"], key=reference["key"])
        source = crd.InferenceEndpointConfigSpecModelSourceConfig(
            model_source_type=crd.InferenceEndpointConfigSpecModelSourceConfigModelSourceType.HUGGINGFACE,
            hugging_face_model=crd.InferenceEndpointConfigSpecModelSourceConfigHuggingFaceModel(
                model_id=spec.hugging_face_id, token_secret_ref=token))
    else:
        source = crd.InferenceEndpointConfigSpecModelSourceConfig(
            model_source_type=crd.InferenceEndpointConfigSpecModelSourceConfigModelSourceType.S3,
            s3_storage=crd.InferenceEndpointConfigSpecModelSourceConfigS3Storage(bucket_name=spec.s3_bucket,
                                                                                   region=spec.region),
            model_location=spec.s3_prefix or "")
    environment = [{"name": k, "value": v} for k, v in spec.environment.items()]
    if secrets:
        # VLLM_API_KEY (vLLM reads it when --api-key is not given: vLLM 0.33.0 vllm/envs.py), and HF_TOKEN unless the
        # operator's download takes it.
        environment += secret_env(secrets, ("VLLM_API_KEY",) if spec.hugging_face_token_to_download else None)
    command, args = None, list(spec.args)
    if secrets and secrets.api_key_secret:
        # The key on every path, /invocations included, as on the EKS path: the middleware module through an
        # environment variable and a bootstrap command, since the worker can mount no volume.
        inline = inline_middleware_worker(spec.args)
        command, args = inline["command"], inline["args"]
        environment += [{"name": k, "value": v} for k, v in inline["environment"].items()]
    gpus = {"nvidia.com/gpu": spec.gpus}
    worker = crd.InferenceEndpointConfigSpecWorker(
        image=spec.image,
        command=command,
        args=args,
        environment_variables=[_environment_variable(item) for item in environment],
        model_invocation_port=crd.InferenceEndpointConfigSpecWorkerModelInvocationPort(container_port=spec.port,
                                                                                        name="http"),
        model_volume_mount=crd.InferenceEndpointConfigSpecWorkerModelVolumeMount(name="model-weights",
                                                                                 mount_path=HYPERPOD_MODEL_MOUNT),
        resources=crd.InferenceEndpointConfigSpecWorkerResources(
            requests={k: crd.InferenceEndpointConfigSpecWorkerResourcesRequests.from_number(v) for k, v in gpus.items()},
            limits={k: crd.InferenceEndpointConfigSpecWorkerResourcesLimits.from_number(v) for k, v in gpus.items()}),
        probes=crd.InferenceEndpointConfigSpecWorkerProbes(
            startup_probe=_probe(crd.InferenceEndpointConfigSpecWorkerProbesStartupProbe, STARTUP_PERIOD_SECONDS,
                                 math.ceil(spec.startup_budget_seconds / STARTUP_PERIOD_SECONDS), 5),
            readiness_probe=_probe(crd.InferenceEndpointConfigSpecWorkerProbesReadinessProbe, 10, 3, 5),
            liveness_probe=_probe(crd.InferenceEndpointConfigSpecWorkerProbesLivenessProbe, 30, 5, 10)),
    )
    kubernetes = None
    if secrets:
        volume = secrets_volume(secrets)
        kubernetes = crd.InferenceEndpointConfigSpecKubernetes(
            service_account_name=spec.service_account,
            volumes=[crd.InferenceEndpointConfigSpecKubernetesVolumes(
                name=volume["name"], csi=crd.InferenceEndpointConfigSpecKubernetesVolumesCsi(
                    driver=volume["csi"]["driver"], read_only=volume["csi"]["readOnly"],
                    volume_attributes=dict(volume["csi"]["volumeAttributes"])))],
            init_containers=[_secrets_init_container(spec)])
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
            enabled=True, model_metrics=crd.InferenceEndpointConfigSpecMetricsModelMetrics(port=spec.port,
                                                                                            path="/metrics")),
        kubernetes=kubernetes,
        auto_scaling_spec=_auto_scaling(spec) if spec.autoscaling else None,
    )


def _auto_scaling(spec: InferenceEndpointSpec) -> crd.InferenceEndpointConfigSpecAutoScalingSpec:
    """The operator's KEDA autoscaling (CRD v1 ``autoScalingSpec``) on the observability stack's CloudWatch metric
    ``LLMServing``/``RequestsWaiting`` (vLLM's ``vllm:num_requests_waiting`` summed over the workers:
    cdk_constructs/serving_metrics.py). ``metricType: Average`` makes the HPA divide it by the workers ("AverageValue -
    Uses average value of metric per pod", the CRD's description), so the target is per worker. The operator's KEDA
    role may read CloudWatch metrics (stacks/inference_operator_stack.py). Until the observability stack publishes the
    metric, the trigger reads ``minValue`` 0: no scaling."""
    scaling = spec.autoscaling
    return crd.InferenceEndpointConfigSpecAutoScalingSpec(
        min_replica_count=scaling.min_replicas,
        max_replica_count=scaling.max_replicas,
        cloud_watch_trigger=crd.InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTrigger(
            name="requests-waiting", namespace=SERVING_METRICS_NAMESPACE, metric_name="RequestsWaiting",
            dimensions=[crd.InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerDimensions(
                name="ClusterName", value=spec.metrics_cluster_name)],
            metric_stat="Maximum",
            metric_type=crd.InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerMetricType.AVERAGE,
            target_value=scaling.target_requests_waiting, min_value=0),
    )


def endpoint_manifest(spec: InferenceEndpointSpec) -> dict:
    """The InferenceEndpointConfig as Kubernetes JSON, as the chart writes it."""
    (endpoint,) = [o for o in synthesize_inference_endpoint(spec) if o["kind"] == KIND]
    return endpoint


class InferenceEndpointChart(cdk8s.Chart):
    """One InferenceEndpointConfig, through typed bindings generated from the operator's CRD (charts/imports/, see
    SOURCE.json there), with its NetworkPolicy and, when the pod reads secrets, its service account and
    SecretProviderClass. The tests also validate the written object against the CRD's v1 schema."""

    def __init__(self, scope: Construct, id: str, *, spec: InferenceEndpointSpec) -> None:
        super().__init__(scope, id, disable_resource_name_hashes=True)
        self.service_account = self.secret_provider = None
        if spec.secrets:
            # The pod's own account (bound to its role by EKS Pod Identity) and the SecretProviderClass its CSI volume
            # names: applied before the endpoint, deleted after it. The account keeps Kubernetes' default token
            # mounting: the operator adds containers of its own to the pod, and the account has no RBAC binding, like
            # the namespace's default account it replaces.
            self.service_account = cdk8s.ApiObject(
                self, "service-account", api_version="v1", kind="ServiceAccount",
                metadata=cdk8s.ApiObjectMetadata(name=spec.service_account, namespace=spec.namespace,
                                                 labels={"app.kubernetes.io/name": "vllm"}))
            self.secret_provider = add_secret_provider_class(self, secrets=spec.secrets, namespace=spec.namespace)
        # Before the endpoint: its pods never run unguarded.
        policy = worker_network_policy(endpoint_name=spec.name, namespace=spec.namespace, vpc_cidr=spec.vpc_cidr)
        self.network_policy = cdk8s.ApiObject(self, "network-policy", api_version=policy["apiVersion"],
                                              kind=policy["kind"], metadata=cdk8s.ApiObjectMetadata(**policy["metadata"]))
        self.network_policy.add_json_patch(cdk8s.JsonPatch.add("/spec", policy["spec"]))
        self.endpoint = crd.InferenceEndpointConfig(
            self, "endpoint", metadata=cdk8s.ApiObjectMetadata(name=spec.name, namespace=spec.namespace),
            spec=endpoint_spec(spec))
        self.endpoint.node.add_dependency(self.network_policy)
        if spec.secrets:
            self.endpoint.node.add_dependency(self.service_account, self.secret_provider)


def synthesize_inference_endpoint(spec: InferenceEndpointSpec) -> list[dict]:
    app = cdk8s.App()
    return InferenceEndpointChart(app, "inference-endpoint", spec=spec).to_json()
