"""``llmops preflight``: check an environment before ``cdk deploy`` (ops_cli/preflight.py); exit 1 when a check fails."""

from __future__ import annotations

import argparse
from pathlib import Path

from ops_cli.command_help import command_help
from ops_cli.context import Context
from ops_cli.errors import ExitCode
from ops_cli.output import table
from ops_cli.preflight import run_preflight


def register(groups: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = groups.add_parser(
        "preflight",
        help="check an environment before cdk deploy",
        parents=[common],
        **command_help(
            "Check an environment before cdk deploy, one row per check (PASS, WARN or FAIL); every FAIL row says "
            "how to fix it.",
            [
                "llmops preflight --env prod",
                "llmops preflight --env example-hyperpod --kubectl /usr/local/bin/kubectl",
                "llmops preflight --env prod --json",
            ],
            [
                (ExitCode.OK, "every check passed (warnings included)"),
                (ExitCode.CHECK_FAILED, "a check failed (FAIL)"),
                (
                    ExitCode.CREDENTIALS,
                    "no or expired credentials: the rows that need no AWS call are shown",
                ),
            ],
        ),
    )
    p.add_argument("--env", required=True, help="the environment to check: config/ENV.yaml")
    p.add_argument(
        "--kubectl",
        default="kubectl",
        help="the kubectl that reads the operator's CRD (HyperPod) or runs the EFA check Job on the GPU nodes "
        "(multi-node environments) (default: the one on PATH)",
    )
    p.add_argument(
        "--manifest",
        type=Path,
        default=None,
        help="HyperPod: the endpoint as cdk synth rendered it (default: cdk.out/kubernetes/ENV/PRESET.yaml)",
    )
    p.set_defaults(handler=preflight)


def preflight(ctx: Context) -> int:
    result = run_preflight(
        ctx.aws(),
        ctx.env,
        now=ctx.rt.now(),
        kubectl=ctx.args.kubectl,
        run_command=ctx.rt.run_command,
        manifest=ctx.args.manifest,
        clock=ctx.rt.clock,
        sleep=ctx.rt.sleep,
    )
    rows = [(c.name, c.status.value.upper(), c.detail, c.fix) for c in result.checks]
    ctx.out(result.to_dict(), [table(["check", "result", "detail", "fix"], rows), result.verdict])
    return result.exit_code
