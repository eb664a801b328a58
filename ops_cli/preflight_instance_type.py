"""Preflight's instance type rows: the GPU instance type is offered in the configured zone (platform eks), and what
EC2 says about it (GPUs, GPU memory, network cards, EFA cards) matches what deployment_config/catalog.py, and so the
launch template, assumes."""

from __future__ import annotations

from deployment_config.model import EnvironmentConfig
from ops_cli.aws import Aws
from ops_cli.errors import OpsError
from ops_cli.preflight_check import Check, Status


def instance_type_offered_check(aws: Aws, env: EnvironmentConfig) -> Check:
    name, zone = env.capacity.instance_type, env.capacity.availability_zone
    offered = aws.pages(
        "ec2",
        "describe_instance_type_offerings",
        "list instance type offerings",
        "InstanceTypeOfferings",
        LocationType="availability-zone",
        Filters=[
            {"Name": "instance-type", "Values": [name]},
            {"Name": "location", "Values": [zone]},
        ],
    )
    if not offered:
        return Check(
            "instance type offered",
            Status.FAIL,
            f"{name} is not offered in {zone}",
            "choose a zone where it is (aws ec2 describe-instance-type-offerings --location-type availability-zone)",
        )
    return Check("instance type offered", Status.PASS, f"{name} in {zone}")


def card_ranges(cards: set[int] | tuple[int, ...]) -> str:
    """``{0, 1, 2, 5}`` as ``0-2, 5``."""
    ordered, parts = sorted(cards), []
    for card in ordered:
        if parts and card == parts[-1][1] + 1:
            parts[-1][1] = card
        else:
            parts.append([card, card])
    return ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in parts) or "none"


def instance_type_facts_check(aws: Aws, env: EnvironmentConfig) -> Check:
    """What EC2 says about the GPU instance type against what the catalog (and so the launch template) assumes."""
    name_ = "instance type facts"
    known = env.gpu_instance_type
    name = known.name  # the EC2 name on both platforms (no ml. prefix)
    unknown_fix = (
        f"check the name in deployment_config/catalog.py and the region: aws ec2 describe-instance-types "
        f"--instance-types {name} --region {env.region}"
    )
    try:
        answer = aws.call(
            "ec2", "describe_instance_types", f"describe instance type {name}", InstanceTypes=[name]
        )
    except OpsError as error:
        if "InvalidInstanceType" not in error.message:
            raise
        return Check(name_, Status.FAIL, f"EC2 does not know {name} in {env.region}", unknown_fix)
    info = next((t for t in answer.get("InstanceTypes", []) if t.get("InstanceType") == name), None)
    if info is None or info.get("SupportedInRegion") is False:
        return Check(name_, Status.FAIL, f"EC2 does not offer {name} in {env.region}", unknown_fix)

    gpus = info.get("GpuInfo", {}).get("Gpus", [])
    gpu_count = gpus[0].get("Count", 0) if gpus else 0
    gpu_memory = gpus[0].get("MemoryInfo", {}).get("SizeInMiB", 0) if gpus else 0
    network = info.get("NetworkInfo", {})
    cards = network.get("NetworkCards", [])
    card_count = network.get("MaximumNetworkCards", len(cards))
    reported = any("InterfaceTypes" in card for card in cards)
    efa_cards = {
        card.get("NetworkCardIndex", 0)
        for card in cards
        if {"efa", "efa-only"} & set(card.get("InterfaceTypes", []))
    }

    differences = []
    if gpu_count != known.gpu_count:
        differences.append(f"GPUs: EC2 says {gpu_count}, the project assumes {known.gpu_count}")
    if gpu_memory != known.gpu_memory_mib:
        differences.append(
            f"memory per GPU: EC2 says {gpu_memory} MiB, the project assumes {known.gpu_memory_mib} MiB"
        )
    if card_count != known.network.network_cards:
        differences.append(
            f"network cards: EC2 says {card_count}, the project assumes {known.network.network_cards}"
        )
    if reported and efa_cards != set(known.network.efa_cards):
        differences.append(
            f"network cards with EFA: EC2 says {card_ranges(efa_cards)}, "
            f"the project assumes {card_ranges(known.network.efa_cards)}"
        )
    if differences:
        return Check(
            name_,
            Status.FAIL,
            f"{name}: " + "; ".join(differences),
            "the launch template would be rejected or miss devices: correct deployment_config/catalog.py from "
            f"`aws ec2 describe-instance-types --instance-types {name}` and its source ({known.network.source})",
        )
    matched = f"{name}: {gpu_count} x {gpu_memory} MiB GPUs, {card_count} network cards"
    if not reported:
        return Check(
            name_,
            Status.WARN,
            f"{matched} match; EC2 does not say which network cards support EFA, the "
            f"project assumes {card_ranges(known.network.efa_cards)}",
            f"check the EFA cards against {known.network.source}",
        )
    return Check(
        name_, Status.PASS, f"{matched}, EFA on cards {card_ranges(efa_cards)} match the catalog"
    )
