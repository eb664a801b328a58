"""``llmops rollout``: before a deploy of the serving stack, whether it replaces the serving pods and what that costs
the endpoint (ops_cli/rollout.py); an outage or N-1 replicas only with --yes."""

from __future__ import annotations

import argparse
from pathlib import Path

from deployment_config.model import Platform
from ops_cli.api_key import add_api_key_options
from ops_cli.canary_command import canary_rollout
from ops_cli.command_help import command_help
from ops_cli.context import Context
from ops_cli.errors import ExitCode, OpsError
from ops_cli.rollout import (
    check_rollout,
    deployed_workload,
    rendered_manifest_path,
    rendered_workload,
)
from ops_cli.rollout_staging import copies_weights, deployed_staging


def register(groups: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = groups.add_parser(
        "rollout",
        help="before a deploy: does it replace the serving pods, and does the endpoint stay up (needs --yes if not)",
        parents=[common],
        **command_help(
            "Compare the serving chart as cdk synth rendered it with the one applied to the cluster (kubectl) and say "
            "what the next deploy of NAME-serving does: nothing to the serving pods, a surge onto a free slot of the "
            "block (every replica serves throughout), or one replica stopped before its successor starts (N-1 "
            "replicas, or an outage with one), each for up to the startup budget; the last two only with --yes. "
            "Run it between npx cdk synth -c env=NAME and npx cdk deploy -c env=NAME NAME-serving. With --canary "
            "(the router in front of two or more replicas, a free slot in the block): the new template serves first "
            "on one replica, vllm-canary, beside the old ones; the correctness probe runs against that replica alone; "
            "pass: the serving Deployment rolls to it one replica at a time while the canary serves, then the canary "
            "goes; fail: the canary goes, the old version serves, and the CanaryRolledBack alarm tells the topic.",
            [
                "llmops rollout --env prod",
                "llmops rollout --env prod --yes",
                "llmops rollout --env prod --canary --json",
            ],
            [
                (
                    ExitCode.OK,
                    "the deploy replaces no serving pod, surges onto a free slot, starts the first replicas, or "
                    "--yes accepted its cost; with --canary: the canary passed and the new version serves",
                ),
                (
                    ExitCode.CHECK_FAILED,
                    "with --canary: the canary was rolled back (the reason is printed), or the rollout stalled",
                ),
                (
                    ExitCode.USAGE,
                    "no rendered chart, or one older than the environment file; platform hyperpod; --canary "
                    "without a change, a router or a free slot",
                ),
                (
                    ExitCode.CONFIRMATION_REQUIRED,
                    "the deploy means an outage (one replica) or N-1 replicas: run again with --yes to accept it",
                ),
                (
                    ExitCode.AWS_ERROR,
                    "kubectl failed, or (--canary) another AWS error reading the API key",
                ),
            ],
            aws=True,
        ),
    )
    p.add_argument("--env", required=True, help="the environment to be deployed")
    p.add_argument(
        "--manifest",
        type=Path,
        help="the serving chart as cdk synth rendered it (default: cdk.out/kubernetes/ENV/vllm-serving.yaml)",
    )
    p.add_argument("--kubectl", default="kubectl", help="kubectl to use (default: the one on PATH)")
    p.add_argument(
        "--yes",
        action="store_true",
        help="accept an outage or N-1 replicas for the rollout",
    )
    p.add_argument(
        "--canary",
        action="store_true",
        help="apply the change through a canary replica probed alone: promoted if it passes, rolled back if not",
    )
    add_api_key_options(p)
    p.set_defaults(handler=rollout)


def rollout(ctx: Context) -> int:
    env = ctx.env
    if env.platform is Platform.HYPERPOD:
        raise OpsError(
            f"{env.name} is platform hyperpod: the Inference Operator replaces its workers itself, and its "
            "InferenceEndpointConfig (operator 3.1 CRD, charts/imports/crds/) has no rollout strategy to read or set",
            "see docs/known-limits.md; llmops rollout covers platform eks",
            ExitCode.USAGE,
        )
    path = ctx.args.manifest or rendered_manifest_path(
        env, Path(env.source).resolve().parent.parent
    )
    rendered = rendered_workload(path, env)
    ctx.check_kubectl()
    live = deployed_workload(
        ctx.args.kubectl, rendered["kind"], run=ctx.rt.run_command, deadline=ctx.deadline
    )
    # A staged copy makes a replacement a load, not a copy (ops_cli/rollout_staging.py); asked after the workload.
    staging = (
        deployed_staging(ctx.args.kubectl, run=ctx.rt.run_command, deadline=ctx.deadline)
        if live is not None and copies_weights(env)
        else None
    )
    check = check_rollout(env, rendered, live, yes=ctx.args.yes, staging=staging)
    if ctx.args.canary:
        return canary_rollout(ctx, check, rendered)
    ctx.out(check.to_dict(), check.human())
    if check.exit_code is ExitCode.CONFIRMATION_REQUIRED:
        refusal = check.refusal()
        ctx.note(f"error: {refusal.message}\n  fix: {refusal.fix}")
    return check.exit_code
