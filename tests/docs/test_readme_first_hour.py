"""The first hour's pages (the README, docs/deploy.md, docs/costs.md, docs/troubleshooting.md): the figures they print
are the ones the repository's commands print today.

Given the README, those pages and the synthesized default app (the session's one synthesis), when the figures are
recomputed with the scripts the pages name, then they match what the pages show, and every stack of both paths is in
the README's diagrams. (Links, `make` targets, `llmops` commands and paths of every page: tests/docs/test_docs_links.py.)
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

PROJECT_DIR = Path(__file__).resolve().parents[2]
README = (PROJECT_DIR / "README.md").read_text(encoding="utf-8")
DOCS = PROJECT_DIR / "docs"
sys.path.insert(0, str(PROJECT_DIR / "bench"))

import running_resources  # noqa: E402
import timeline  # noqa: E402


def _block_after(command: str, page: str) -> str:
    """The lines of the code block of docs/``page`` that follow ``$ command``, up to the closing fence."""
    match = re.search(
        re.escape(f"$ {command}") + r"\n(.*?)\n```", (DOCS / page).read_text(encoding="utf-8"), re.S
    )
    assert match, f"docs/{page} shows no output of `{command}`"
    return match.group(1)


def _section(title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## )", README, re.S | re.M)
    assert match, title
    return match.group(1)


def test_the_timeline_in_the_readme_is_what_the_script_prints(default_env):
    # given the example environment, when bench/timeline.py prints its timeline
    printed = timeline.render(default_env, timeline.phases(default_env))
    # then the deploy page shows exactly that
    assert _block_after("bin/llmops timeline --env example", "deploy.md") == printed


def test_the_timeline_budget_is_the_one_the_pod_is_given(default_env, synthesized):
    rows = {p.step: p.minutes for p in timeline.phases(default_env)}
    documents = list(yaml.safe_load_all(synthesized.kubernetes_file.read_text()))
    (deployment,) = [d for d in documents if d and d["kind"] == "Deployment"]
    (container,) = [
        c for c in deployment["spec"]["template"]["spec"]["containers"] if c["name"] == "vllm"
    ]
    environment = {e["name"]: e.get("value") for e in container["env"]}
    engine_minutes = rows["vLLM engine budget in the charts (VLLM_ENGINE_READY_TIMEOUT_S)"]
    assert environment["VLLM_ENGINE_READY_TIMEOUT_S"] == str(int(engine_minutes * 60))
    probe_minutes = rows["startup probe budget: /health answers by"]
    assert probe_minutes == engine_minutes + 5
    # and the README's line on time and the troubleshooting page give that budget, with the command that prints it
    time_line = _section("GPU capacity, cost and time")
    assert (
        f"up to {probe_minutes:g} minutes" in time_line
        and "llmops timeline --env NAME" in time_line
    )
    assert f"{probe_minutes:g} minutes" in (DOCS / "troubleshooting.md").read_text(encoding="utf-8")


def test_the_readme_recommends_s3_with_the_plans_first_token_figure(default_env):
    # given the plan's row for the recommended source (the weights mirrored to S3, copied to the NVMe, then loaded)
    row = timeline.plan.recommended_first_token(default_env)
    rates = timeline.rates_used(default_env)
    slow = rates[f"{timeline.load_format(default_env)}_from_disk"]
    # then the README's quick start mirrors to S3, and states that figure and its rates, with the command that prints it
    paragraph = README.split("**The recommended weight source: your S3 bucket.**", 1)[1].split(
        "\n\n", 1
    )[0]
    flat = " ".join(paragraph.split())
    assert f"first token at {row.minutes:g} minutes" in flat
    assert (
        f"{rates['s3_download'].gb_per_second:g} GB/s" in flat
        and f"{slow.gb_per_second:g} GB/s" in flat
    )
    assert "`bin/llmops timeline --env prod`" in flat
    quick_start = _section("Quick start, for someone who holds a Capacity Block")
    assert (
        "bin/llmops weights mirror --env prod" in quick_start
        and "model.weight_source: s3" in quick_start
    )


def test_the_timeline_script_runs_as_documented():
    result = subprocess.run(
        [
            sys.executable,
            str(PROJECT_DIR / "bench/timeline.py"),
            "--env",
            "example-hyperpod",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=PROJECT_DIR,
    )
    assert result.returncode == 0, result.stderr
    assert '"Inference Operator maxDeployTimeInSeconds"' in result.stdout


def test_the_running_resources_in_the_readme_are_counted_from_the_templates(assembly):
    # given the synthesized templates of the EKS example
    templates = running_resources.templates_of(Path(assembly.directory), "example")
    assert sorted(templates) == [
        "example-cluster",
        "example-gpu-nodes",
        "example-network",
        "example-observability",
        "example-serving",
    ]
    counts = {r["resource"]: r["count"] for r in running_resources.running_resources(templates)}
    # then the counts are what the network and the cluster stacks declare
    assert counts["NAT gateway"] == 2
    assert counts["interface VPC endpoint x zone"] == 16
    assert counts["EC2 m7i.xlarge node (ON_DEMAND)"] == 2
    assert counts["EC2 p6-b300.48xlarge node (CAPACITY_BLOCK)"] == 1
    assert counts["EKS cluster (control plane)"] == 1
    # and the costs page shows the script's rows with these counts
    shown = _block_after(".venv/bin/python bench/running_resources.py --env example", "costs.md")
    for resource, count in counts.items():
        assert re.search(rf"^{re.escape(resource)}\s+{count}\s", shown, re.M), resource


def test_the_hyperpod_example_is_not_counted_with_the_eks_one(assembly):
    templates = running_resources.templates_of(Path(assembly.directory), "example-hyperpod")
    assert len(templates) == 7
    counts = {r["resource"]: r["count"] for r in running_resources.running_resources(templates)}
    assert counts["HyperPod ml.p6-b300.48xlarge instance"] == 1
    assert "Application Load Balancer" in running_resources.load_balancer_of(templates)
    # and the costs page's sentence on it gives the script's counts
    costs = (DOCS / "costs.md").read_text(encoding="utf-8")
    assert (
        f"{counts['EKS add-on']} add-ons, {counts['S3 bucket']} S3 buckets and an Application Load Balancer"
        in " ".join(costs.split())
    )


#: The deploy order of stacks/composition.py (add_eks_environment, add_hyperpod_environment).
DEPLOY_ORDER = {
    "example": ["network", "cluster", "gpu-nodes", "serving", "observability"],
    "example-hyperpod": [
        "network",
        "cluster",
        "hyperpod-prereqs",
        "hyperpod",
        "inference-operator",
        "endpoint",
        "observability",
    ],
}


def test_the_diagrams_show_every_stack_of_both_paths_in_deploy_order(assembly):
    # given the stacks the default app synthesizes for each path
    for env_name, units in DEPLOY_ORDER.items():
        synthesized = {
            name.removeprefix(f"{env_name}-")
            for name in running_resources.templates_of(Path(assembly.directory), env_name)
        }
        assert synthesized == set(units)
    # then the Architecture section has one Mermaid diagram per path, its stacks numbered in deploy order
    diagrams = re.findall(r"```mermaid\n(.*?)```", _section("Architecture"), re.S)
    titles = [re.findall(r'subgraph \w+\["(\d) NAME-([\w-]+)"\]', d) for d in diagrams]
    assert titles == [
        [(str(i), unit) for i, unit in enumerate(units, 1)] for units in DEPLOY_ORDER.values()
    ]


def test_the_app_silences_the_jsii_banner_before_the_runtime_starts_and_keeps_the_shells_value():
    # given a shell without the variables, when app.py is imported (as `cdk synth` and `python app.py` run it)
    code = (
        "import os, sys; [os.environ.pop(v, None) for v in sys.argv[1:]]; import app; "
        "print(os.environ[sys.argv[1]], os.environ[sys.argv[2]], 'jsii' in sys.modules)"
    )
    variables = [
        "JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION",
        "JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION",
    ]
    result = subprocess.run(
        [sys.executable, "-c", code, *variables],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=PROJECT_DIR,
    )
    # then both are set, and the jsii runtime has not been loaded before they were
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["20", "1", "False"]
    # and a value the shell sets is kept
    show = f"import os, app; print(os.environ['{variables[0]}'])"
    kept = subprocess.run(
        [sys.executable, "-c", show],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=PROJECT_DIR,
        env={**os.environ, variables[0]: "22"},
    )
    assert kept.stdout.strip() == "22"


def test_the_suite_benchmark_refuses_a_revision_that_is_not_a_commit_before_running_anything():
    result = subprocess.run(
        [sys.executable, str(PROJECT_DIR / "bench/suite_bench.py"), "--against", "no-such-rev"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=PROJECT_DIR,
    )
    assert result.returncode == 2
    assert "--against 'no-such-rev' is not a commit of this repository" in result.stderr
