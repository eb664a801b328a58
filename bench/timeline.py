#!/usr/bin/env python3
"""From purchase to serving: the phases of one environment and the durations the code derives for them.

    .venv/bin/python bench/timeline.py [--env NAME] [--config-dir DIR] [--json]

The vLLM start-up figures are computed by deployment_config.sizing (the same function that sets the pod's
VLLM_ENGINE_READY_TIMEOUT_S and its startup probe); the Capacity Block's edges are what AWS documents. Phases whose
duration is neither computed nor documented here (CloudFormation stack creation, a GPU node joining) are printed as
"not measured", never guessed. No AWS call, no CDK: under a second.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[1]
if str(PROJECT_DIR) not in sys.path:
    sys.path.insert(0, str(PROJECT_DIR))

from deployment_config.loader import load_environment  # noqa: E402
from deployment_config.model import EnvironmentConfig, Platform  # noqa: E402
from deployment_config.sizing import (  # noqa: E402
    DOWNLOAD_GB_PER_SECOND,
    LOAD_GB_PER_SECOND,
    STARTUP_SAFETY_FACTOR,
    WARMUP_SECONDS,
    startup_budget,
)

#: EKS scales a Capacity Block node group to 0 forty minutes before the block ends; EC2 shuts the instances down 30
#: minutes before (EKS user guide, capacity-blocks-mng, as cited in cdk_constructs/capacity_block_node_group.py).
EKS_SCALE_IN_BEFORE_END_MINUTES = 40
EC2_SHUTDOWN_BEFORE_END_MINUTES = 30
#: The Inference Operator's maxDeployTimeInSeconds is the startup probe's budget plus this margin
#: (charts/inference_endpoint_chart.py, DEPLOY_MARGIN_SECONDS).
HYPERPOD_DEPLOY_MARGIN_MINUTES = 30


@dataclass(frozen=True)
class Phase:
    """One step of the timeline. ``minutes`` is None where nothing here computes or documents the duration."""

    step: str
    minutes: float | None
    basis: str
    without_minutes: str = "not measured"


def phases(env: EnvironmentConfig) -> list[Phase]:
    weights = env.model.weight_size_gb
    download = weights / DOWNLOAD_GB_PER_SECOND / 60
    load = weights / LOAD_GB_PER_SECOND / 60
    warmup = WARMUP_SECONDS / 60
    budget = startup_budget(weights)
    hyperpod = env.platform is Platform.HYPERPOD
    capacity = "training plan" if hyperpod else "Capacity Block"
    steps = [
        Phase(f"buy the {capacity}", None,
              "`bin/llmops training-plans offerings` lists the starts on offer" if hyperpod else
              "a start up to 8 weeks ahead; every Capacity Block ends at 11:30 UTC (EC2 user guide, ec2-capacity-blocks, "
              "capacity-blocks-purchase); `bin/llmops capacity-blocks offerings` lists them", "your choice"),
        Phase("deploy network and cluster (before the start)", None,
              "not measured here: read it from `aws cloudformation describe-stack-events`"),
        Phase("GPU capacity starts: node joins the cluster" if not hyperpod else
              "HyperPod instances created, lifecycle script and deep health checks", None,
              "not measured here: `aws sagemaker list-cluster-nodes` shows it" if hyperpod else
              "not measured here: `bin/llmops wait nodes` shows it"),
        Phase(f"vLLM first start: download {weights} GB", round(download, 1),
              f"{weights} GB / {DOWNLOAD_GB_PER_SECOND} GB/s (sizing.DOWNLOAD_GB_PER_SECOND, assumed)"),
        Phase("vLLM first start: load into GPU memory", round(load, 1),
              f"{weights} GB / {LOAD_GB_PER_SECOND} GB/s from the NVMe cache (sizing.LOAD_GB_PER_SECOND, assumed)"),
        Phase("vLLM first start: compile, CUDA graphs, warm-up", round(warmup, 1), "sizing.WARMUP_SECONDS (assumed)"),
        Phase("vLLM first start: estimate", round(download + load + warmup, 1), "the three rows above"),
        Phase("vLLM engine budget (VLLM_ENGINE_READY_TIMEOUT_S)", budget.engine_ready_timeout_seconds / 60,
              f"estimate x {STARTUP_SAFETY_FACTOR}, whole minutes (sizing.startup_budget)"),
        Phase("startup probe budget: /health answers by", budget.probe_seconds / 60,
              "engine budget + 5 min (sizing.PROBE_MARGIN_SECONDS); until then the endpoint has no healthy target"),
    ]
    if hyperpod:
        steps.append(Phase("Inference Operator maxDeployTimeInSeconds",
                           budget.probe_seconds / 60 + HYPERPOD_DEPLOY_MARGIN_MINUTES,
                           "probe budget + 30 min (charts/inference_endpoint_chart.py)"))
    else:
        steps += [
            Phase("vLLM restart on the same node: estimate", round(load + warmup, 1),
                  "load + warm-up: the weights stay in the node's NVMe cache (a new node downloads again)"),
            Phase("block end: EKS scales the GPU node group to 0", -EKS_SCALE_IN_BEFORE_END_MINUTES,
                  "minutes before the end (EKS user guide, capacity-blocks-mng)"),
            Phase("block end: EC2 shuts the instances down", -EC2_SHUTDOWN_BEFORE_END_MINUTES,
                  "minutes before the end (EC2 Auto Scaling user guide, launch-template-capacity-blocks)"),
        ]
    return steps


def _duration(phase: Phase) -> str:
    return phase.without_minutes if phase.minutes is None else f"{phase.minutes:g} min"


def render(env: EnvironmentConfig, rows: list[Phase]) -> str:
    header = ("step", "duration", "basis")
    table = [header] + [(p.step, _duration(p), p.basis) for p in rows]
    widths = [max(len(r[i]) for r in table) for i in range(2)]
    lines = [f"{env.name} ({env.platform.value}, {env.model.hugging_face_id}, {env.model.weight_size_gb} GB of weights)"]
    for step, duration, basis in table:
        lines.append(f"{step:<{widths[0]}}  {duration:>{widths[1]}}  {basis}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", default="example", help="environment file name in the config directory (default: example)")
    parser.add_argument("--config-dir", type=Path, default=PROJECT_DIR / "config")
    parser.add_argument("--json", action="store_true", help="print the phases as JSON")
    args = parser.parse_args(argv)
    env = load_environment(args.config_dir, args.env)
    rows = phases(env)
    if args.json:
        print(json.dumps({"environment": env.name, "phases": [asdict(p) for p in rows]}, indent=2))
    else:
        print(render(env, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
