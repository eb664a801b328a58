"""``llmops phases``: where the vLLM pod's start went, phase by phase (ops_cli/startup_phases.py)."""

from __future__ import annotations

import argparse

from deployment_config.kubernetes_names import serving_pods
from ops_cli.command_help import command_help
from ops_cli.context import Context
from ops_cli.errors import ExitCode
from ops_cli.startup_phases import read_startup_phases
from ops_cli.tables import phases_table


def register(groups: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = groups.add_parser(
        "phases",
        help="where the vLLM pod's start went: node, image, weights, load, engine, healthy",
        parents=[common],
        **command_help(
            "Show where the newest vLLM pod's start went, phase by phase, read with kubectl: at any time, the phases not "
            "reached yet show as unknown. A pod on a node is read first (one still starting first of all): standby "
            "replicas wait Pending, with no node, for the next Capacity Block; the output says which pod it read.",
            ["llmops phases --env prod", "llmops phases --env prod --json"],
            [
                (ExitCode.OK, "shown"),
                (ExitCode.NOT_FOUND, "no serving pod"),
                (ExitCode.AWS_ERROR, "kubectl failed"),
            ],
            aws=False,
        ),
    )
    p.add_argument("--env", required=True, help="the environment whose serving pod to read")
    p.add_argument("--kubectl", default="kubectl", help="kubectl to use (default: the one on PATH)")
    p.set_defaults(handler=phases)


def phases(ctx: Context) -> int:
    """Where the newest vLLM pod's start went, phase by phase, at any time: during a start the phases not reached yet
    show as unknown."""
    found, note = startup_phases(ctx)
    table = phases_table(found)
    ctx.out(
        {"env": ctx.env.name, "phases": [p.to_dict() for p in found], "pod_note": note},
        [note, table] if note else table,
    )
    return ExitCode.OK


def startup_phases(ctx: Context) -> tuple[list, str | None]:
    """The phases of the serving pod of ``--env`` that choose_pod picks (ops_cli/startup_phases.py: a scheduled one,
    not a standby replica Pending without a node), read with ``--kubectl`` (also ``wait endpoint``'s), and the note
    saying which pod when it is not simply the newest."""
    ctx.check_kubectl()
    namespace, selector = serving_pods(ctx.env)
    _, found, note = read_startup_phases(
        ctx.args.kubectl,
        namespace=namespace,
        selector=selector,
        container_image=ctx.env.serving_image,
        run=ctx.rt.run_command,
        deadline=ctx.deadline,
    )
    return found, note
