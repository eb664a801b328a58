"""The InferenceEndpointConfig's spec (:func:`endpoint_spec`), written through the typed bindings generated from the
operator 3.1 CRD (charts/imports/): the weights' S3 source, the worker (image, arguments, environment with the API key
from the synced Secret, port, GPUs, probes on vLLM's /health), the load balancer's health check, the metrics, the
autoscaling and the intelligent routing. Why each field is what it is: the docstring of charts/inference_endpoint_chart.py and the
comments below.
"""

from __future__ import annotations

import math

from charts.imports import sagemaker_inference as crd
from charts.inference_endpoint_spec import VLLM_PORT, InferenceEndpointSpec
from charts.serving_spec import API_KEY_VARIABLE
from charts.vllm_auth_middleware import inline_middleware_worker
from charts.vllm_secret_provider import secret_env
from deployment_config.metric_names import SERVING_METRICS_NAMESPACE
from deployment_config.model_location import HYPERPOD_MODEL_MOUNT

STARTUP_PERIOD_SECONDS = 10


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
        # The key from the synced Secret, not optional, so the worker does not start without it
        # (charts/inference_endpoint_chart.py's docstring), as LLM_SERVING_API_KEY: the middleware checks it on
        # every path, and vLLM, which would check its own VLLM_API_KEY on /v1 only (vLLM 0.33.0 vllm/envs.py), is
        # not given one, as on the EKS path.
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
