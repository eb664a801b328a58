"""``llmops rollout --canary``: the canary of a change of the serving pod template (ops_cli/canary.py), on EKS with the
router, run from the operator's machine with kubectl; its outcome on the terminal (or ``--json``) and, on a rollback,
as the metric the ``CanaryRolledBack`` alarm watches (cdk_constructs/canary_alarm.py), so the alarm topic tells."""

from __future__ import annotations

from deployment_config.metric_names import CANARY_ROLLBACKS, SERVING_METRICS_NAMESPACE
from deployment_config.model_location import model_path
from deployment_config.vllm_args.options import SERVING_PORT
from ops_cli.api_key import api_key, keeping_secret
from ops_cli.canary import PROMOTED, ROLLED_BACK, CanaryOutcome, CanaryTimes, run_canary
from ops_cli.canary_forward import PodForward
from ops_cli.canary_kubernetes import CANARY_NAME, KubectlCanary
from ops_cli.canary_probe import canary_problems
from ops_cli.context import Context
from ops_cli.errors import ExitCode, OpsError
from ops_cli.rollout import RolloutCheck

#: Each probe request's own bound (the correctness probe's answers think first: endpoint_probe/correctness.py).
PROBE_REQUEST_SECONDS = 300


def refusal(check: RolloutCheck, router: bool) -> OpsError | None:
    """Why this deploy has no canary to run, or None."""
    env = check.env_name
    if not check.rolls:
        return OpsError(
            f"no canary to run: {check.summary}",
            f"run llmops rollout --env {env} without --canary",
            ExitCode.USAGE,
        )
    if check.kind != "Deployment" or not router:
        return OpsError(
            "a canary needs the router in front of two or more single-node replicas (endpoint.replicas >= 2, "
            f"endpoint.routing not none); {env} has "
            + ("a LeaderWorkerSet" if check.kind != "Deployment" else "no router"),
            f"run llmops rollout --env {env} without --canary",
            ExitCode.USAGE,
        )
    if check.plan.spare_slots < 1:
        return OpsError(
            f"no free slot in the block for the canary: {check.plan.replicas} replicas fill its {check.plan.slots}",
            "lower endpoint.replicas by one, or a block with one replica's nodes more (capacity.instance_count)",
            ExitCode.USAGE,
        )
    return None


def report_rollback(ctx: Context, outcome: CanaryOutcome) -> str | None:
    """Put ``CanaryRollbacks`` = 1; a failure to put it is a warning (the rollback itself is done)."""
    env = ctx.env
    try:
        ctx.aws().call(
            "cloudwatch",
            "put_metric_data",
            f"put {CANARY_ROLLBACKS} for the CanaryRolledBack alarm",
            Namespace=SERVING_METRICS_NAMESPACE,
            MetricData=[
                {
                    "MetricName": CANARY_ROLLBACKS,
                    "Dimensions": [{"Name": "ClusterName", "Value": env.cluster_name}],
                    "Value": 1,
                    "Unit": "Count",
                }
            ],
        )
    except OpsError as error:
        return f"warning: the alarm was not told ({error.message}); {error.fix}"
    return None


def canary_rollout(ctx: Context, check: RolloutCheck, rendered: dict) -> int:
    env = ctx.env
    problem = refusal(check, env.endpoint.router_policy(env.replicas) is not None)
    if problem:
        raise problem
    key = api_key(ctx)
    forward = PodForward(ctx.args.kubectl, SERVING_PORT)
    cluster = KubectlCanary(
        ctx.args.kubectl,
        rendered,
        port_forward=forward.start,
        stop_forward=forward.stop,
        run=ctx.rt.run_command,
        deadline=ctx.deadline,
    )
    plan = check.plan
    times = CanaryTimes(
        ready=plan.startup_budget_seconds,
        promotion=plan.replicas * plan.replacement_seconds,
    )

    def probe(url: str) -> list[str]:
        return canary_problems(
            url,
            env.model.served_name,
            model_path=model_path(env),
            api_key=key,
            timeout=PROBE_REQUEST_SECONDS,
            deadline=ctx.deadline,
        )

    extra = {k: v for k, v in {"clock": ctx.rt.clock, "sleep": ctx.rt.sleep}.items() if v}
    try:
        with keeping_secret(ctx, key):
            outcome = run_canary(cluster, probe, times, **extra)
    finally:
        forward.stop()
    warning = report_rollback(ctx, outcome) if outcome.verdict == ROLLED_BACK else None
    ctx.out(
        {**check.to_dict(), "canary": {"name": CANARY_NAME, **outcome.to_dict()}},
        [*check.human(), *(f"canary  {at:7.0f} s  {step}" for at, step in outcome.steps)],
    )
    if warning:
        ctx.note(warning)
    if outcome.verdict == PROMOTED:
        return ExitCode.OK
    ctx.note(
        f"error: canary {outcome.verdict}: {outcome.reason}\n  fix: "
        + (
            "the old version serves; fix the change, npx cdk synth, then llmops rollout --canary again"
            if outcome.verdict == ROLLED_BACK
            else f"kubectl -n llm-serving rollout status deployment/vllm; then kubectl -n llm-serving delete "
            f"deployment {CANARY_NAME}"
        )
    )
    return ExitCode.CHECK_FAILED
