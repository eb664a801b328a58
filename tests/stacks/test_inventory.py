"""The inventory is complete: every resource type the stacks create is counted by bench/running_resources.py or
explained as not billed (bench/template_inventory.py NOT_BILLED), and every billable kind it counts is priced or listed
by ``llmops cost``, on the same price basis (public IPv4 per hour in both, EBS per GB-month in both).

One synthesis, shared with tests/stacks/test_access_stack.py and tests/docs/test_doc_figures.py
(tests/shared_variants.py, ``access_assembly``): the example EKS and HyperPod environments with the access host on, so
that every optional billable resource is in the templates."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from ops_cli.cost_inventory import USAGE_BASED_BY_KIND, billable_rows, ebs_volumes

PROJECT_DIR = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(PROJECT_DIR / "bench"))

import running_resources  # noqa: E402
import template_inventory  # noqa: E402


@pytest.fixture(scope="module")
def envs(access_envs):
    return access_envs


@pytest.fixture(scope="module")
def out_dir(access_assembly) -> Path:
    return Path(access_assembly.directory)


def _inventory(out_dir: Path, env) -> list[dict]:
    return running_resources.running_resources(running_resources.templates_of(out_dir, env.name))


def test_every_resource_type_of_the_templates_is_counted_or_explained(out_dir, envs):
    # given the synthesized templates of both paths with every option that adds a billable resource
    for env in envs:
        templates = running_resources.templates_of(out_dir, env.name)
        # when their resource types are walked, then none is left out of the inventory unexplained
        assert running_resources.uncounted_types(templates) == set(), env.name
    # and no type is both counted and called not billed
    counted = {t for env in envs for row in _inventory(out_dir, env) for t in row["types"]}
    assert not counted & set(template_inventory.NOT_BILLED)


def test_a_billable_type_missing_from_the_inventory_is_caught(out_dir, envs):
    # given the templates with one resource of a billable type no row counts (an RDS instance, say)
    templates = running_resources.templates_of(out_dir, envs[0].name)
    network = templates[envs[0].stack_name("network")]
    network["Resources"]["Db"] = {"Type": "AWS::RDS::DBInstance", "Properties": {}}
    # then the walk names it
    assert running_resources.uncounted_types(templates) == {"AWS::RDS::DBInstance"}


def test_the_access_host_and_every_ebs_volume_are_in_the_inventory(out_dir, envs):
    rows = {r["resource"]: r for r in _inventory(out_dir, envs[0])}
    assert rows["EC2 t3.medium access host (On-Demand)"]["billed"] == "instance-hour (On-Demand)"
    assert (
        rows["EBS gp3 volume, root volume of the t3.medium access host"]["billed"]
        == "GB-month (20 GiB each)"
    )
    gpu_volume = rows["EBS gp3 volume, root volume of each p6-b300.48xlarge node"]
    assert gpu_volume["count"] == 1 and gpu_volume["billed"] == "GB-month (200 GiB each)"
    system_volume = rows["EBS volume, root volume of each m7i.xlarge node"]
    assert system_volume["count"] == 2 and "the AMI's default size" in system_volume["billed"]


def test_llmops_cost_prices_or_lists_every_billable_kind_of_the_inventory(out_dir, envs):
    for env in envs:
        inventory = _inventory(out_dir, env)
        rows = billable_rows(env)
        hourly = {row.kind for row in rows}
        listed = {kind for kinds, _ in USAGE_BASED_BY_KIND for kind in kinds}
        # the GPU capacity is the report's fee row (ops_cli/cost.py); EBS its per-GB-month list
        covered = hourly | listed | {"gpu-capacity"} | ({"ebs"} if ebs_volumes(env) else set())
        missing = {r["kind"] for r in inventory if r["kind"] != "free"} - covered
        assert missing == set(), env.name
        # and each hourly row of cost counts what the templates hold (the load balancer is made outside them)
        counts = {}
        for r in inventory:
            counts[r["kind"]] = counts.get(r["kind"], 0) + r["count"]
        for row in rows:
            if row.kind == "load-balancer":
                continue
            assert row.count == counts[row.kind], (env.name, row.item)


def test_public_ipv4_is_billed_per_hour_in_both_and_ebs_per_gb_month_in_both(out_dir, envs):
    env = envs[0]
    inventory = {r["kind"]: r for r in _inventory(out_dir, env)}
    assert inventory["public-ipv4"]["billed"] == "address-hour"
    (ipv4,) = [row for row in billable_rows(env) if row.kind == "public-ipv4"]
    assert ipv4.query is not None and ipv4.query.usage_type == "PublicIPv4:InUseAddress"
    assert not any("IPv4" in text for _, text in USAGE_BASED_BY_KIND)
    assert inventory["ebs"]["billed"].startswith("GB-month")
    assert all("GiB" in v or "AMI" in v for v in ebs_volumes(env))
