"""The HyperPod Inference Operator's InferenceEndpointConfig for the configured model (cdk8s).

The announced manifest for Kimi-K3, with the defaults that are wrong for a 1.4 TB model corrected: a deploy
timeout that outlasts the download, probes and the load balancer health check on vLLM's /health, and metrics
scraped from vLLM's own port.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

import cdk8s
from constructs import Construct

from deployment_config.model import EnvironmentConfig, WeightSource
from deployment_config.model_location import HYPERPOD_MODEL_MOUNT, model_path
from deployment_config.sizing import startup_budget

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
    port: int = VLLM_PORT

    @property
    def max_deploy_seconds(self) -> int:
        return self.startup_budget_seconds + DEPLOY_MARGIN_SECONDS


def kubernetes_name(served_name: str) -> str:
    """``Kimi-K3`` → ``kimik3``: lower case letters and digits, as the announced manifest names it."""
    return re.sub(r"[^a-z0-9]", "", served_name.lower())[:63] or "model"


def inference_endpoint_spec_for(env: EnvironmentConfig) -> InferenceEndpointSpec:
    model = env.model
    from_s3 = model.weight_source is WeightSource.S3
    bucket = prefix = None
    if from_s3:
        bucket, _, prefix = (model.s3_uri or "")[len("s3://"):].partition("/")
    # The operator does not add --model: without it vLLM serves its own small default model under the served name.
    args = ("--model", model_path(env), "--served-model-name", model.served_name,
            "--tensor-parallel-size", str(model.tensor_parallel_size),
            *model.serving_args)
    budget = startup_budget(model.weight_size_gb)
    environment = {**model.environment, **budget.vllm_environment}
    return InferenceEndpointSpec(
        name=kubernetes_name(model.served_name), namespace="default", model_name=model.served_name,
        instance_type=env.hyperpod.instance_type, image=model.image, args=args,
        environment=MappingProxyType(environment), gpus=model.tensor_parallel_size,
        hugging_face_id=None if from_s3 else model.hugging_face_id, s3_bucket=bucket, s3_prefix=prefix,
        region=env.region, startup_budget_seconds=budget.probe_seconds,
    )


def _probe(period: int, failures: int, timeout: int) -> dict:
    return {"httpGet": {"path": "/health", "port": VLLM_PORT}, "periodSeconds": period, "failureThreshold": failures,
            "timeoutSeconds": timeout}


def endpoint_manifest(spec: InferenceEndpointSpec) -> dict:
    """The InferenceEndpointConfig as a plain dictionary."""
    if spec.hugging_face_id:
        source = {"modelSourceType": "huggingface", "huggingFaceModel": {"modelId": spec.hugging_face_id}}
    else:
        source = {"modelSourceType": "s3", "s3Storage": {"bucketName": spec.s3_bucket, "region": spec.region},
                  "modelLocation": spec.s3_prefix or ""}
    gpus = {"nvidia.com/gpu": spec.gpus}
    return {
        "apiVersion": API_VERSION,
        "kind": KIND,
        "metadata": {"name": spec.name, "namespace": spec.namespace},
        "spec": {
            "modelName": spec.model_name,
            "instanceType": spec.instance_type,
            "invocationEndpoint": "v1/chat/completions",
            "replicas": 1,
            # The default of 3600 s is shorter than downloading and loading 1.4 TB.
            "maxDeployTimeInSeconds": spec.max_deploy_seconds,
            "modelSourceConfig": source,
            "worker": {
                "image": spec.image,
                "args": list(spec.args),
                "environmentVariables": [{"name": k, "value": v} for k, v in spec.environment.items()],
                "modelInvocationPort": {"containerPort": spec.port, "name": "http"},
                "modelVolumeMount": {"name": "model-weights", "mountPath": HYPERPOD_MODEL_MOUNT},
                "resources": {"requests": dict(gpus), "limits": dict(gpus)},
                "probes": {
                    "startupProbe": _probe(STARTUP_PERIOD_SECONDS,
                                           math.ceil(spec.startup_budget_seconds / STARTUP_PERIOD_SECONDS), 5),
                    "readinessProbe": _probe(10, 3, 5),
                    "livenessProbe": _probe(30, 5, 10),
                },
            },
            # vLLM answers /health, not the operator's default /ping, and serves /metrics on its own port.
            "loadBalancer": {"healthCheckPath": "/health"},
            "metrics": {"enabled": True, "modelMetrics": {"port": spec.port, "path": "/metrics"}},
        },
    }


class InferenceEndpointChart(cdk8s.Chart):
    """One InferenceEndpointConfig. Written with ``cdk8s.ApiObject``: the operator's CRD has no typed bindings here;
    the tests validate the object against the CRD's v1 schema instead."""

    def __init__(self, scope: Construct, id: str, *, spec: InferenceEndpointSpec) -> None:
        super().__init__(scope, id, disable_resource_name_hashes=True)
        manifest = endpoint_manifest(spec)
        self.endpoint = cdk8s.ApiObject(self, "endpoint", api_version=API_VERSION, kind=KIND,
                                        metadata=cdk8s.ApiObjectMetadata(**manifest["metadata"]))
        self.endpoint.add_json_patch(cdk8s.JsonPatch.add("/spec", manifest["spec"]))


def synthesize_inference_endpoint(spec: InferenceEndpointSpec) -> list[dict]:
    app = cdk8s.App()
    return InferenceEndpointChart(app, "inference-endpoint", spec=spec).to_json()
