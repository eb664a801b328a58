"""What the project knows about GPU instance types and the models it ships presets for.

The instance table is what the sizing check and the launch template are built from. Every figure carries its
source; ``llmops preflight`` compares the configured type with what ``ec2:DescribeInstanceTypes`` answers in the
account (GPUs, GPU memory, network cards and which of them support EFA) and fails on a difference. Before adding an
entry, read ``aws ec2 describe-instance-types --instance-types NAME`` (``GpuInfo``, ``NetworkInfo.NetworkCards``,
``InstanceStorageInfo``) and the EC2 guide's EFA page below.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

#: EC2 User Guide, "Maximize network bandwidth on Amazon EC2 instances with multiple network cards" (EFA for
#: accelerated instance types): "For the primary network interface (network card index 0, device index 0), create an
#: ENA interface. [...] If the network card index 0 supports EFA, create an EFA-only network interface for network
#: card index 0, device index 1. For each additional network interface, use the next unused network card index,
#: device index 0, for EFA-only network interface".
EFA_LAYOUT_SOURCE = "https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/efa-acc-inst-types.html"
#: GPUs, memory, vCPUs, instance store and network cards per type.
SPECS_SOURCE = "https://docs.aws.amazon.com/ec2/latest/instancetypes/ac.html"
#: The GPU generations the vLLM recipes key hardware overrides by (vllm-project/recipes@8959cf6 CONTRIBUTING.md: "Key by
#: `hopper` / `blackwell` / `amd`"). H100 and H200 are Hopper GPUs, B200 and B300 Blackwell ones (the same EC2 page,
#: SPECS_SOURCE, names the accelerators; NVIDIA's data-center pages: https://www.nvidia.com/en-us/data-center/h200/
#: "based on the NVIDIA Hopper architecture", https://www.nvidia.com/en-us/data-center/dgx-b300/ "NVIDIA Blackwell
#: Ultra GPUs").
GPU_GENERATIONS = ("hopper", "blackwell")
#: ``InstanceStorageInfo.TotalSizeInGB`` as Karpenter labels it (``karpenter.k8s.aws/instance-local-nvme``, set from
#: that field: aws/karpenter-provider-aws@1d92708 pkg/providers/instancetype/types.go), 30400 for every type below
#: (the same commit, website/content/en/preview/reference/instance-types.md, generated from DescribeInstanceTypes).
INSTANCE_STORE_SOURCE = (
    "aws/karpenter-provider-aws@1d92708 website/content/en/preview/reference/instance-types.md "
    "karpenter.k8s.aws/instance-local-nvme"
)
INSTANCE_STORE_GB = 30400
GPU_GENERATION_SOURCE = "https://www.nvidia.com/en-us/data-center/h200/; https://www.nvidia.com/en-us/data-center/dgx-b300/"


@dataclass(frozen=True)
class NetworkInterfaceSlot:
    """One network interface of the launch template: on which card, at which device index, of which type."""

    network_card_index: int
    device_index: int
    interface_type: str  # "interface" (ENA, the primary) or "efa-only" (EFA device, no IP address)


@dataclass(frozen=True)
class NetworkLayout:
    """The network cards of an instance type and the interfaces a launch template gives them.

    :param network_cards: network cards of the instance (``NetworkInfo.MaximumNetworkCards``).
    :param efa_cards: indexes of the cards that support EFA (``NetworkCards[].InterfaceTypes`` has ``efa-only``).
        Stated per type from its source, never derived from the card count: p6-b300's card 0 is ENA-only.
    :param source: where the per-card EFA support is documented.
    """

    network_cards: int
    efa_cards: tuple[int, ...]
    source: str

    def __post_init__(self) -> None:
        if any(not 0 <= card < self.network_cards for card in self.efa_cards):
            raise ValueError(
                f"EFA cards {self.efa_cards} outside the {self.network_cards} network cards"
            )

    @property
    def interfaces(self) -> tuple[NetworkInterfaceSlot, ...]:
        """The layout the EC2 guide recommends (:data:`EFA_LAYOUT_SOURCE`): the primary ENA interface on card 0 at
        device 0, an EFA-only interface at device 1 of card 0 if that card supports EFA, and one EFA-only interface
        at device 0 of every other EFA card. EFA-only interfaces take no IP address from the subnet."""
        slots = [NetworkInterfaceSlot(0, 0, "interface")]
        slots += [
            NetworkInterfaceSlot(card, 1 if card == 0 else 0, "efa-only") for card in self.efa_cards
        ]
        return tuple(slots)

    @property
    def efa_interfaces(self) -> int:
        return len(self.efa_cards)


@dataclass(frozen=True)
class GpuInstanceType:
    """One GPU instance type.

    :param name: EC2 instance type name, for example ``p6-b300.48xlarge``.
    :param gpu_model: marketing name of the GPU, for messages.
    :param gpu_count: GPUs per instance (``GpuInfo.Gpus[].Count``).
    :param gpu_memory_mib: memory of one GPU as EC2 reports it (``GpuInfo.Gpus[].MemoryInfo.SizeInMiB``).
    :param network: the network cards and the launch template's interfaces.
    :param instance_store_disks: local NVMe disks, assembled as RAID0 for the model cache.
    :param vcpus: vCPUs of the instance.
    :param memory_gib: host memory of the instance in GiB.
    :param gpu_generation: the GPU's architecture, as the vLLM recipes key their hardware overrides (``hopper``,
        ``blackwell``): :data:`GPU_GENERATION_SOURCE`.
    :param instance_store_gb: the instance store's total size in GB (``InstanceStorageInfo.TotalSizeInGB``):
        :data:`INSTANCE_STORE_SOURCE`.
    """

    name: str
    gpu_model: str
    gpu_count: int
    gpu_memory_mib: int
    network: NetworkLayout
    instance_store_disks: int
    vcpus: int
    memory_gib: int
    gpu_generation: str
    instance_store_gb: int = 0

    def __post_init__(self) -> None:
        if self.gpu_generation not in GPU_GENERATIONS:
            raise ValueError(
                f"{self.name}: gpu_generation {self.gpu_generation!r} is not one of {GPU_GENERATIONS}"
            )

    @property
    def recipe_hardware(self) -> str:
        """The GPU's id in the vLLM recipes (``meta.hardware``, ``strategy_hardware``): ``b300`` for NVIDIA B300."""
        return self.gpu_model.split()[-1].lower()

    @property
    def gpu_memory_gb(self) -> int:
        """Memory of one GPU in GB (10^9 bytes), the unit of the weight sizes."""
        return round(self.gpu_memory_mib * 2**20 / 10**9)

    @property
    def total_gpu_memory_gb(self) -> int:
        return self.gpu_count * self.gpu_memory_gb

    @property
    def efa_interfaces(self) -> int:
        return self.network.efa_interfaces


def _all_cards(count: int) -> NetworkLayout:
    return NetworkLayout(count, tuple(range(count)), EFA_LAYOUT_SOURCE)


#: GPU memory in MiB as DescribeInstanceTypes reports it (aws/karpenter-provider-aws
#: website/content/en/preview/reference/instance-types.md, generated from DescribeInstanceTypes, commit 1d92708);
#: the rest from :data:`SPECS_SOURCE` and :data:`EFA_LAYOUT_SOURCE`.
GPU_INSTANCE_TYPES: Mapping[str, GpuInstanceType] = MappingProxyType(
    {
        t.name: t
        for t in (
            # 32 cards, all with EFA: "a request with 32 EFA devices and one ENA device" (EFA_LAYOUT_SOURCE, P5 example)
            GpuInstanceType(
                "p5.48xlarge",
                "NVIDIA H100",
                8,
                81920,
                _all_cards(32),
                8,
                192,
                2048,
                "hopper",
                instance_store_gb=INSTANCE_STORE_GB,
            ),
            GpuInstanceType(
                "p5e.48xlarge",
                "NVIDIA H200",
                8,
                144384,
                _all_cards(32),
                8,
                192,
                2048,
                "hopper",
                instance_store_gb=INSTANCE_STORE_GB,
            ),
            # 16 cards, 16 EFA interfaces at most (SPECS_SOURCE): every card supports EFA
            GpuInstanceType(
                "p5en.48xlarge",
                "NVIDIA H200",
                8,
                144384,
                _all_cards(16),
                8,
                192,
                2048,
                "hopper",
                instance_store_gb=INSTANCE_STORE_GB,
            ),
            # 8 cards, 8 EFA interfaces at most (SPECS_SOURCE)
            GpuInstanceType(
                "p6-b200.48xlarge",
                "NVIDIA B200",
                8,
                183359,
                _all_cards(8),
                8,
                192,
                2048,
                "blackwell",
                instance_store_gb=INSTANCE_STORE_GB,
            ),
            # 17 cards; card 0 supports ENA only and carries the primary interface, cards 1-16 one EFA-only interface
            # each (EFA_LAYOUT_SOURCE, P6-B300 example; AWS engineering in aws/aws-parallelcluster#7143). A launch
            # template with EFA on card 0 is rejected.
            GpuInstanceType(
                "p6-b300.48xlarge",
                "NVIDIA B300",
                8,
                275040,
                NetworkLayout(
                    17,
                    tuple(range(1, 17)),
                    EFA_LAYOUT_SOURCE + " (P6-B300); aws/aws-parallelcluster#7143",
                ),
                8,
                192,
                4096,
                "blackwell",
                instance_store_gb=INSTANCE_STORE_GB,
            ),
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

    @property
    def load_format(self) -> str | None:
        """The ``--load-format`` of the announced arguments: the one place it is set, for the recipe profile too
        (deployment_config/recipe/profile.py puts it in place of the recipe's own)."""
        args = self.serving_args
        return args[args.index("--load-format") + 1] if "--load-format" in args else None


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
