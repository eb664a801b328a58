"""What the project knows about GPU instance types and the models it ships presets for.

The instance table is what the sizing check and the launch template are built from. Figures are
from the EC2 instance type pages; verify a new entry with
``aws ec2 describe-instance-types --instance-types NAME`` (``GpuInfo``, ``NetworkInfo.EfaInfo``,
``InstanceStorageInfo``) before adding it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


@dataclass(frozen=True)
class GpuInstanceType:
    """One GPU instance type.

    :param name: EC2 instance type name, for example ``p6-b300.48xlarge``.
    :param gpu_model: marketing name of the GPU, for messages.
    :param gpu_count: GPUs per instance.
    :param gpu_memory_gb: memory of one GPU in GB.
    :param efa_interfaces: EFA interfaces the instance supports (one per network card).
    :param instance_store_disks: local NVMe disks, assembled as RAID0 for the model cache.
    :param vcpus: vCPUs of the instance.
    :param memory_gib: host memory of the instance in GiB.
    """

    name: str
    gpu_model: str
    gpu_count: int
    gpu_memory_gb: int
    efa_interfaces: int
    instance_store_disks: int
    vcpus: int
    memory_gib: int

    @property
    def total_gpu_memory_gb(self) -> int:
        return self.gpu_count * self.gpu_memory_gb

    @property
    def sagemaker_name(self) -> str:
        """The SageMaker spelling of the same instance type (``ml.`` prefix)."""
        return f"ml.{self.name}"


GPU_INSTANCE_TYPES: Mapping[str, GpuInstanceType] = MappingProxyType(
    {
        t.name: t
        for t in (
            GpuInstanceType("p5.48xlarge", "NVIDIA H100", 8, 80, 32, 8, 192, 2048),
            GpuInstanceType("p5e.48xlarge", "NVIDIA H200", 8, 141, 32, 8, 192, 2048),
            GpuInstanceType("p5en.48xlarge", "NVIDIA H200", 8, 141, 16, 8, 192, 2048),
            GpuInstanceType("p6-b200.48xlarge", "NVIDIA B200", 8, 180, 8, 8, 192, 2048),
            GpuInstanceType("p6-b300.48xlarge", "NVIDIA B300", 8, 288, 16, 8, 192, 4096),
        )
    }
)


@dataclass(frozen=True)
class ModelPreset:
    """Everything needed to serve one model with vLLM, as announced by its publisher.

    :param key: the name used in configuration files (``model.preset``).
    :param hugging_face_id: repository id on the Hugging Face Hub.
    :param served_name: the model name clients send in requests.
    :param image: vLLM container image that supports the model.
    :param tensor_parallel_size: GPUs one replica is sharded over.
    :param weight_size_gb: size of the published weights in GB (what is downloaded and loaded).
    :param serving_args: vLLM arguments other than ``--model``, ``--served-model-name``,
        ``--tensor-parallel-size`` and ``--port``, which the project derives from the configuration.
    :param environment: environment variables for the vLLM container.
    """

    key: str
    hugging_face_id: str
    served_name: str
    image: str
    tensor_parallel_size: int
    weight_size_gb: int
    serving_args: tuple[str, ...]
    environment: Mapping[str, str] = field(default_factory=dict)


MODEL_PRESETS: Mapping[str, ModelPreset] = MappingProxyType(
    {
        "kimi-k3": ModelPreset(
            key="kimi-k3",
            hugging_face_id="moonshotai/Kimi-K3",
            served_name="Kimi-K3",
            image="vllm/vllm-openai:kimi-k3",
            tensor_parallel_size=8,
            # A public copy of the MXFP4 weights moved 118 files, 1.42 TB.
            weight_size_gb=1420,
            serving_args=(
                "--trust-remote-code",
                "--load-format",
                "fastsafetensors",
                "--enable-prefix-caching",
                "--enable-auto-tool-choice",
                "--tool-call-parser",
                "kimi_k3",
                "--reasoning-parser",
                "kimi_k3",
                "--moe-backend",
                "auto",
                "--no-enable-flashinfer-autotune",
            ),
            environment=MappingProxyType({"VLLM_ENABLE_K3_LATENT_MOE_TAIL_FUSION": "1"}),
        ),
    }
)
