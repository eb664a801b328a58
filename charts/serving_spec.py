"""What the vLLM serving chart needs to know, derived once from an environment's configuration."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from deployment_config.gpu_nodes import (
    GPU_NODE_LABELS,
    GPU_TAINT_EFFECT,
    GPU_TAINT_KEY,
    GPU_TAINT_VALUE,
    MODEL_CACHE_HOST_PATH,
)
from deployment_config.model import EnvironmentConfig, Exposure, WeightSource
from deployment_config.model_location import MODEL_CACHE_MOUNT, model_path
from deployment_config.sizing import startup_budget

VLLM_PORT = 8000
#: Image of the init container that copies weights from S3 to the node cache.
AWS_CLI_IMAGE = "public.ecr.aws/aws-cli/aws-cli:2.27.49"


@dataclass(frozen=True)
class VllmServingSpec:
    """Inputs of :class:`charts.vllm_serving_chart.VllmServingChart`.

    :param name: name of the Deployment and Service.
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
    :param s3_uri: when set, an init container copies the weights from here into the cache and vLLM
        loads them from the cache instead of the Hugging Face Hub.
    :param service_account: service account the pod runs as (bound to an IAM role for S3 reads).
    :param exposure: internal or public load balancer.
    :param allowed_cidrs: source ranges of a public load balancer.
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
    exposure: Exposure
    allowed_cidrs: tuple[str, ...]
    port: int = VLLM_PORT


def serving_spec_for(env: EnvironmentConfig) -> VllmServingSpec:
    model = env.model
    instance = env.gpu_instance_type
    from_s3 = model.weight_source is WeightSource.S3
    args = (
        "--model", model_path(env),
        "--served-model-name", model.served_name,
        "--tensor-parallel-size", str(model.tensor_parallel_size),
        *model.serving_args,
    )
    budget = startup_budget(model.weight_size_gb)
    environment = {
        # The Hugging Face cache lives on the node's NVMe, so a restarted pod does not download again.
        "HF_HOME": f"{MODEL_CACHE_MOUNT}/huggingface",
        **model.environment,
        **budget.vllm_environment,
    }
    return VllmServingSpec(
        name="vllm",
        namespace="llm-serving",
        image=model.image,
        args=args,
        environment=MappingProxyType(environment),
        gpus=model.tensor_parallel_size,
        # One replica holds all GPUs of one node and talks NVLink only: a single-node server uses no EFA device,
        # and requesting them would keep the pod off a node whose EFA plugin is not ready yet.
        efa_devices=0,
        cpu_request=instance.vcpus // 2,
        memory_request_gib=instance.memory_gib // 2,
        memory_limit_gib=instance.memory_gib * 85 // 100,
        shm_size_gib=50,
        startup_budget_seconds=budget.probe_seconds,
        node_labels=GPU_NODE_LABELS,
        toleration=(GPU_TAINT_KEY, GPU_TAINT_VALUE, GPU_TAINT_EFFECT),
        model_cache_host_path=MODEL_CACHE_HOST_PATH,
        s3_uri=model.s3_uri if from_s3 else None,
        service_account="vllm",
        exposure=env.endpoint.exposure,
        allowed_cidrs=env.endpoint.allowed_cidrs,
    )
