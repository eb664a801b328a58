#!/usr/bin/env python3
"""From purchase to serving: the phases of one environment and the durations the code derives for them.

    .venv/bin/python bench/timeline.py [--env NAME] [--config-dir DIR] [--json] [--measured FILE ...]

Every rate comes from deployment_config.startup_rates, which names its source (a documentation page, or bench/
weight_load.py's measurement on a GPU machine). "node ready -> first token" is planned for each weight source with two
figures: the estimate (the slowest measured load rate, the documented download rate) and the limit (weights / the
fastest sourced rate of each step). Phases with no sourced or measured figure (stack creation, a node joining, the
instance store's read rate, vLLM's warm-up, the Hub's rate) are printed as such, never guessed; the budgets
(deployment_config.sizing.startup_budget, which sets VLLM_ENGINE_READY_TIMEOUT_S and the probes) say which allowance
stands in for them. No AWS call, no CDK: under a second.

With ``--measured FILE`` (repeatable: ``llmops phases --env NAME --json`` of a start on the node, or a bench/
weight_load.py --json report from the node's instance store; bench/measured_phases.py) the plan takes the measured
warm-up and load rate in place of the unmeasured ones, each naming its file, pod and time, and prints issue 21's
done-when with its arithmetic (bench/cold_start_verdict.py). Without it the output is the plan above, unchanged.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[1]
for _path in (
    str(PROJECT_DIR),
    str(PROJECT_DIR / "bench"),
):  # its siblings: not on sys.path when loaded by path
    if _path not in sys.path:
        sys.path.insert(0, _path)

from cold_start_verdict import measured_json, measured_lines, verdicts  # noqa: E402
from first_token_plan import (  # noqa: E402
    Phase,
    first_token_phases,
    load_format,
    minutes,
    rates_used,
    unmeasured,
)
from measured_phases import Measured, MeasuredRecordError, load_measured  # noqa: E402

from deployment_config.errors import ConfigError  # noqa: E402
from deployment_config.gpu_nodes import (  # noqa: E402
    # EKS scales a Capacity Block node group to 0 forty minutes before the block ends; EC2 shuts the instances down 30
    # minutes before (the source is beside the constants).
    EC2_SHUTDOWN_BEFORE_END_MINUTES,
    EKS_SCALE_IN_BEFORE_END_MINUTES,
)
from deployment_config.loader import load_environment  # noqa: E402
from deployment_config.model import EnvironmentConfig, Platform, WeightSource  # noqa: E402
from deployment_config.sizing import (  # noqa: E402
    HUB_BUDGET_FLOOR,
    HYPERPOD_DEPLOY_MARGIN_SECONDS,
    STARTUP_SAFETY_FACTOR,
    WARMUP_ALLOWANCE_SECONDS,
    s3_download_rate,
    startup_budget,
)
from deployment_config.startup_rates import (  # noqa: E402
    SLOWEST_LOAD,
)

#: The Inference Operator's maxDeployTimeInSeconds is the startup probe's budget plus this margin.
HYPERPOD_DEPLOY_MARGIN_MINUTES = HYPERPOD_DEPLOY_MARGIN_SECONDS // 60


def phases(env: EnvironmentConfig, measured: Measured | None = None) -> list[Phase]:
    weights = (
        env.model.loaded_gb
    )  # the weights and, with spec_decoding, the speculator (as the budget counts)
    hyperpod = env.platform is Platform.HYPERPOD
    # HyperPod's operator always copies from S3; the EKS path downloads from the Hub unless weight_source is s3
    from_hub = not hyperpod and env.model.weight_source is WeightSource.HUGGINGFACE
    instance = env.gpu_instance_type.name
    budget = env.pod_startup_budget
    path_budget = startup_budget(weights, from_hub=from_hub, instance_type=instance)
    capacity = "training plan" if hyperpod else "Capacity Block"
    download = "hub_budget_floor" if from_hub else "s3_download"
    download_rate = HUB_BUDGET_FLOOR if from_hub else s3_download_rate(instance)
    steps = [
        Phase(
            f"buy the {capacity}",
            None,
            "`bin/llmops training-plans offerings` lists the starts on offer"
            if hyperpod
            else "a start up to 8 weeks ahead; every Capacity Block ends at 11:30 UTC (EC2 user guide, ec2-capacity-blocks, "
            "capacity-blocks-purchase); `bin/llmops capacity-blocks offerings` lists them",
            "your choice",
        ),
        Phase(
            "deploy network and cluster (before the start)",
            None,
            "not measured here: read it from `aws cloudformation describe-stack-events`",
        ),
        Phase(
            "GPU capacity starts: node joins the cluster"
            if not hyperpod
            else "HyperPod instances created, lifecycle script and deep health checks",
            None,
            "not measured here: `aws sagemaker list-cluster-nodes` shows it"
            if hyperpod
            else "not measured here: `bin/llmops wait nodes` shows it",
        ),
        *first_token_phases(env, measured),
        Phase(
            f"budget: download ({'Hub' if from_hub else 'S3'}, this environment)",
            minutes(download_rate.seconds_for(weights)),
            f"{weights} GB / {download} {download_rate.gb_per_second:g} GB/s",
        ),
        Phase(
            "budget: load",
            minutes(SLOWEST_LOAD.seconds_for(weights)),
            f"{weights} GB / slowest_load {SLOWEST_LOAD.gb_per_second:g} GB/s",
        ),
        Phase(
            "budget: warm-up allowance",
            WARMUP_ALLOWANCE_SECONDS / 60,
            "sizing.WARMUP_ALLOWANCE_SECONDS: an allowance, not a measurement (see unmeasured)",
        ),
        Phase(
            "vLLM engine budget for this environment's weight source",
            path_budget.engine_ready_timeout_seconds / 60,
            f"the three budget rows x {STARTUP_SAFETY_FACTOR}, whole minutes "
            f"(sizing.startup_budget(from_hub={from_hub}))",
        ),
        Phase(
            "vLLM engine budget in the charts (VLLM_ENGINE_READY_TIMEOUT_S)",
            budget.engine_ready_timeout_seconds / 60,
            "EnvironmentConfig.pod_startup_budget: this weight source's on EKS, the Hub path's on HyperPod (the "
            "operator's S3 mount is unmeasured), never below the recipe's own timeout",
        ),
        Phase(
            "startup probe budget: /health answers by",
            budget.probe_seconds / 60,
            "engine budget + 5 min (sizing.PROBE_MARGIN_SECONDS); until then the endpoint has no healthy target",
        ),
    ]
    if hyperpod:
        steps.append(
            Phase(
                "Inference Operator maxDeployTimeInSeconds",
                budget.probe_seconds / 60 + HYPERPOD_DEPLOY_MARGIN_MINUTES,
                "probe budget + 30 min (charts/inference_endpoint_spec.py, DEPLOY_MARGIN_SECONDS)",
            )
        )
    else:
        steps += [
            Phase(
                "block end: EKS scales the GPU node group to 0",
                -EKS_SCALE_IN_BEFORE_END_MINUTES,
                "minutes before the end (EKS user guide, capacity-blocks-mng)",
            ),
            Phase(
                "block end: EC2 shuts the instances down",
                -EC2_SHUTDOWN_BEFORE_END_MINUTES,
                "minutes before the end (EC2 Auto Scaling user guide, launch-template-capacity-blocks)",
            ),
        ]
    return steps


def _duration(phase: Phase) -> str:
    text = phase.without_minutes if phase.minutes is None else f"{phase.minutes:g} min"
    return text if phase.limit_minutes is None else f"{text} (limit {phase.limit_minutes:g} min)"


def render(env: EnvironmentConfig, rows: list[Phase], measured: Measured | None = None) -> str:
    header = ("step", "duration", "basis")
    table = [header] + [(p.step, _duration(p), p.basis) for p in rows]
    widths = [max(len(r[i]) for r in table) for i in range(2)]
    lines = [
        f"{env.name} ({env.platform.value}, {env.model.hugging_face_id}, {env.model.weight_size_gb} GB of weights)"
    ]
    for step, duration, basis in table:
        lines.append(f"{step:<{widths[0]}}  {duration:>{widths[1]}}  {basis}")
    lines.append("\nrates (GB/s, 1 GB = 1e9 bytes):")
    for name, rate in rates_used(env, measured).items():
        lines.append(f"  {name:<28} {rate.gb_per_second:>7g}  {rate.kind}: {rate.source}")
    lines.append("unmeasured (no source, no measurement: not in any estimate):")
    lines += [f"  {name:<28} {text}" for name, text in unmeasured(measured).items()]
    if measured is not None:
        lines.append("measured (--measured; of several records the slowest):")
        lines += measured_lines(measured)
        lines.append("done when (issue 21; weights from S3):")
        s3 = rates_used(env)["s3_download"]
        lines += [f"  {verdict.line()}" for verdict in verdicts(env, measured, s3)]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--env",
        default="example",
        help="environment file name in the config directory (default: example)",
    )
    parser.add_argument("--config-dir", type=Path, default=PROJECT_DIR / "config")
    parser.add_argument("--json", action="store_true", help="print the phases as JSON")
    parser.add_argument(
        "--measured",
        type=Path,
        action="append",
        metavar="FILE",
        help="a start measured on the node: `llmops phases --env NAME --json` output, or a bench/weight_load.py "
        "--json report; repeat for several (bench/measured_phases.py)",
    )
    args = parser.parse_args(argv)
    try:
        env = load_environment(args.config_dir, args.env, option="--env NAME")
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    measured = None
    if args.measured:
        try:
            measured = load_measured(args.measured, env, load_format(env))
        except MeasuredRecordError as error:
            print(f"bench/timeline.py --measured: {error}", file=sys.stderr)
            return 2
    rows = phases(env, measured)
    if args.json:
        rates = {
            name: {"gb_per_second": r.gb_per_second, "kind": r.kind, "source": r.source}
            for name, r in rates_used(env, measured).items()
        }
        plan = {
            "environment": env.name,
            "phases": [asdict(p) for p in rows],
            "rates": rates,
            "unmeasured": unmeasured(measured),
        }
        if measured is not None:
            plan["measured"] = measured_json(
                measured, verdicts(env, measured, rates_used(env)["s3_download"])
            )
        print(json.dumps(plan, indent=2, allow_nan=False))  # strict JSON: never a NaN or Infinity
    else:
        print(render(env, rows, measured))
    return 0


if __name__ == "__main__":
    sys.exit(main())
