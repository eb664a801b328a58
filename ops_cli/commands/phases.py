"""``llmops phases``: where the vLLM pod's start went, phase by phase (ops_cli/startup_phases.py)."""

from __future__ import annotations

import argparse

from deployment_config.kubernetes_names import serving_pods
from deployment_config.model import Platform
from ops_cli.command_help import command_help
from ops_cli.context import Context
from ops_cli.errors import ExitCode
from ops_cli.output import iso
from ops_cli.startup_phases import read_startup_phases
from ops_cli.tables import phases_table


def register(groups: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = groups.add_parser(
        "phases",
        help="where the vLLM pod's start went: node, image, weights, load, compile, graphs, engine, healthy, first token",
        parents=[common],
        **command_help(
            "Show where the newest vLLM pod's start went, phase by phase, read with kubectl: at any time, the phases not "
            "reached yet show as unknown. A pod on a node is read first (one still starting first of all): standby "
            "replicas wait Pending, with no node, for the next Capacity Block; the output says which pod it read. "
            "--json also records the pod, node, image, instance type and layout measured, for "
            "bench/timeline.py --measured.",
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
    show as unknown. The JSON also says which pod, node and serving configuration it measured (``record``), so that
    ``bench/timeline.py --measured`` can plan from it and refuse it for another configuration."""
    pod, node, found, note = read_phases(ctx)
    table = phases_table(found)
    ctx.out(
        {
            "env": ctx.env.name,
            "phases": [p.to_dict() for p in found],
            "pod_note": note,
            "record": measurement_record(ctx, pod, node, found),
        },
        [note, table] if note else table,
    )
    return ExitCode.OK


def startup_phases(ctx: Context) -> tuple[list, str | None]:
    """The phases of the serving pod of ``--env`` that choose_pod picks (ops_cli/startup_phases.py: a scheduled one,
    not a standby replica Pending without a node), read with ``--kubectl`` (also ``wait endpoint``'s), and the note
    saying which pod when it is not simply the newest."""
    _, _, found, note = read_phases(ctx)
    return found, note


def read_phases(ctx: Context) -> tuple[dict, dict | None, list, str | None]:
    """(pod, its node, the phases, choose_pod's note) of the serving pod of ``--env``."""
    ctx.check_kubectl()
    namespace, selector = serving_pods(ctx.env)
    return read_startup_phases(
        ctx.args.kubectl,
        namespace=namespace,
        selector=selector,
        container_image=ctx.env.serving_image,
        run=ctx.rt.run_command,
        deadline=ctx.deadline,
    )


#: The label the kubelet sets to the cloud provider's instance type, "if known to the kubelet" (Kubernetes
#: documentation, "Node Labels Populated By The Kubelet", https://kubernetes.io/docs/reference/node/node-labels/).
INSTANCE_TYPE_LABEL = "node.kubernetes.io/instance-type"


def measurement_record(ctx: Context, pod: dict, node: dict | None, found: list) -> dict:
    """What the phases were measured on: the pod, its node, when they were read, the serving identity
    (deployment_config.model.EnvironmentConfig.serving_identity) with the image the pod ran and the node's instance type in
    place of the configured ones where the cluster says, and whether the warm-up had a compile cache."""
    identity = ctx.env.serving_identity
    spec = pod.get("spec") if isinstance(pod.get("spec"), dict) else {}
    images = [c.get("image") for c in spec.get("containers") or [] if isinstance(c, dict)]
    if identity["image"] not in images and images and isinstance(images[0], str):
        identity["image"] = images[
            0
        ]  # the container read_startup_phases read: the first, if none has this image
    labels = ((node or {}).get("metadata") or {}).get("labels") or {}
    if isinstance(labels.get(INSTANCE_TYPE_LABEL), str):
        label = labels[INSTANCE_TYPE_LABEL]
        # A HyperPod node's label is SageMaker's name of the type, "ml." + EC2's (the label this project's HyperPod
        # pods select on: hyperpod.instance_type, stacks/hyperpod_prerequisites_stack.py): the same instance type.
        if ctx.env.platform is Platform.HYPERPOD:
            label = label.removeprefix("ml.")
        identity["instance_type"] = label
    restore = next((p for p in found if p.name == "compile cache restored (S3)"), None)
    return {
        "kind": "llmops phases",
        "pod": (pod.get("metadata") or {}).get("name"),
        "node": spec.get("nodeName"),
        "read_at": iso(ctx.rt.now()),
        "identity": identity,
        "compile_cache": compile_cache_outcome(restore.source if restore else None),
    }


def compile_cache_outcome(source: str | None) -> str:
    """How the warm-up started, from the restore container's outcome (charts/compile_cache/runtime/compile_cache.py
    ``restore``): "restored" from S3, "on the node" already, "none" (none saved yet, refused, S3 not read: vLLM
    compiled), or "not configured" (no restore container: Hub weights, HyperPod, a group of nodes)."""
    if source is None:
        return "not configured"
    outcome = source.partition(": ")[2]
    if outcome.startswith("restored "):
        return "restored"
    if outcome.startswith("the cache of ") and "is already on this node" in outcome:
        return "on the node"
    return "none"
