"""The plan from purchase to serving of one environment: the phases and the durations the code derives for them, each
with its basis, offline (no AWS call, no CDK). ``llmops timeline`` prints it; bench/timeline.py adds, for maintainers,
what a start measured on the node changes (``--measured``).

Every rate comes from deployment_config.startup_rates, which names its source (a documentation page, or bench/
weight_load.py's measurement on a GPU machine). "node ready -> first token" is planned for each weight source with two
figures: the estimate (the slowest measured load rate, the documented download rate) and the limit (weights / the
fastest sourced rate of each step), both with vLLM's warm-up (the H200's measured proxy, labelled, until the node's
own start is measured: ops_cli/warm_up_plan.py). Phases with no sourced or measured figure (stack creation, a node
joining, the instance store's read rate, the Hub's rate) are printed as such, never guessed; the budgets
(deployment_config.sizing.startup_budget, which sets VLLM_ENGINE_READY_TIMEOUT_S and the probes) say which allowance
stands in for them.
"""

from __future__ import annotations

from dataclasses import asdict

from deployment_config.gpu_nodes import (
    # EKS scales a Capacity Block node group to 0 forty minutes before the block ends; EC2 shuts the instances down 30
    # minutes before (the source is beside the constants).
    EC2_SHUTDOWN_BEFORE_END_MINUTES,
    EKS_SCALE_IN_BEFORE_END_MINUTES,
)
from deployment_config.model import EnvironmentConfig, Platform, WeightSource
from deployment_config.sizing import (
    HUB_BUDGET_FLOOR,
    HYPERPOD_DEPLOY_MARGIN_SECONDS,
    STARTUP_SAFETY_FACTOR,
    WARM_UP_PROXY_MARGIN,
    WARMUP_ALLOWANCE_SECONDS,
    s3_download_rate,
    startup_budget,
    warm_up_budget_seconds,
)
from deployment_config.startup_rates import (
    CHECK_S3_WEIGHTS_SECONDS,
    RUNAI_DISTRIBUTED_NODE,
    SLOWEST_LOAD,
    WARM_UP_PROXY,
    Rate,
)
from ops_cli.first_token_plan import (
    Measured,
    Phase,
    chosen_s3_path,
    first_token_phases,
    minutes,
    rates_used,
    unmeasured,
)
from ops_cli.warm_up_plan import proxies_json, proxy_lines

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
    streamed = not from_hub and chosen_s3_path(env) == "runai"
    path_budget = startup_budget(
        weights, from_hub=from_hub, instance_type=instance, streamed=streamed
    )
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
        *_weights_budget(weights, from_hub, streamed, download, download_rate),
        Phase(
            "budget: warm-up",
            minutes(warm_up_budget_seconds()),
            f"the larger of sizing.WARMUP_ALLOWANCE_SECONDS {WARMUP_ALLOWANCE_SECONDS} s and warm_up_proxy_cold "
            f"{WARM_UP_PROXY['cold'].seconds:g} s x {WARM_UP_PROXY_MARGIN} "
            f"({WARM_UP_PROXY['cold'].seconds * WARM_UP_PROXY_MARGIN:g} s): a timeout keeps a margin over a proxy "
            "measured on another GPU and model (sizing.py says why)",
        ),
        Phase(
            "vLLM engine budget for this environment's weight source",
            path_budget.engine_ready_timeout_seconds / 60,
            f"the budget rows above x {STARTUP_SAFETY_FACTOR}, whole minutes "
            f"(sizing.startup_budget(from_hub={from_hub}, streamed={streamed}))",
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


def _weights_budget(
    weights: int, from_hub: bool, streamed: bool, download: str, download_rate: Rate
) -> list[Phase]:
    """The budget's rows for the weights (sizing.startup_estimate_seconds): the download and the load, or, streamed,
    check-weights-s3 and the Run:ai stream."""
    if streamed:
        return [
            Phase(
                "budget: check-weights-s3 and the Run:ai stream (S3, this environment)",
                minutes(CHECK_S3_WEIGHTS_SECONDS + RUNAI_DISTRIBUTED_NODE.seconds_for(weights)),
                f"{CHECK_S3_WEIGHTS_SECONDS:g} s + {weights} GB / runai_distributed_node "
                f"{RUNAI_DISTRIBUTED_NODE.gb_per_second:.2f} GB/s; no copy, no load from the disk",
            )
        ]
    return [
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
    ]


def _duration(phase: Phase) -> str:
    text = phase.without_minutes if phase.minutes is None else f"{phase.minutes:g} min"
    beside = [
        *(
            [f"first start of the key {phase.first_start_minutes:g} min"]
            if phase.first_start_minutes
            else []
        ),
        *([f"limit {phase.limit_minutes:g} min"] if phase.limit_minutes is not None else []),
    ]
    return f"{text} ({'; '.join(beside)})" if beside else text


def render(env: EnvironmentConfig, rows: list[Phase], measured: Measured | None = None) -> str:
    """The plan as text: the rows, then every rate with its source, then what nothing measured."""
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
    lines += proxy_lines()
    lines.append("unmeasured (no source, no measurement: not in any estimate):")
    lines += [f"  {name:<28} {text}" for name, text in unmeasured(measured, env).items()]
    return "\n".join(lines)


def plan_json(env: EnvironmentConfig, rows: list[Phase], measured: Measured | None = None) -> dict:
    rates = {
        name: {"gb_per_second": r.gb_per_second, "kind": r.kind, "source": r.source}
        for name, r in rates_used(env, measured).items()
    }
    return {
        "environment": env.name,
        "phases": [asdict(p) for p in rows],
        "rates": rates,
        "warm_up_proxies": proxies_json(),
        "unmeasured": unmeasured(measured, env),
    }


def recommended_first_token(env: EnvironmentConfig) -> Phase:
    """The new-node row of the environment's S3 path: weights mirrored to S3 (llmops weights mirror), then copied to the
    NVMe and loaded, or with ``weight_load: runai_streamer`` checked in S3 and streamed."""
    prefix = (
        "node ready -> first token, weights from S3: Run:ai"
        if chosen_s3_path(env) == "runai"
        else "node ready -> first token, weights from S3: copy"
    )
    return next(row for row in first_token_phases(env) if row.step.startswith(prefix))
