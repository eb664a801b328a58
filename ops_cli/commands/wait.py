"""``llmops wait``: wait, with progress and a timeout, for a reservation, the GPU nodes, the endpoint's /health or a
HyperPod InferenceEndpointConfig (ops_cli/waiting.py)."""

from __future__ import annotations

import argparse

from deployment_config.kubernetes_names import INFERENCE_ENDPOINT_NAMESPACE
from endpoint_probe.url import check_url
from ops_cli import capacity_blocks as cb
from ops_cli import training_plans as tp
from ops_cli.api_key import add_api_key_options, api_key, keeping_secret
from ops_cli.arguments import TIMEOUT_HELP, positive
from ops_cli.command_help import command_help, group_help
from ops_cli.commands.phases import startup_phases
from ops_cli.context import Context
from ops_cli.errors import ExitCode, OpsError
from ops_cli.kubernetes_object_names import check_kubernetes_names
from ops_cli.tables import phases_table
from ops_cli.tls import add_tls_options, operator_trust, tls_options
from ops_cli.waiting import (
    wait_for_gpu_nodes,
    wait_for_health,
    wait_for_inference_endpoint,
    wait_for_reservation,
)


def _timing(p: argparse.ArgumentParser, timeout: int, interval: int) -> None:
    """--timeout and --interval (seconds), with their defaults."""
    p.add_argument("--timeout", type=positive, default=timeout, help=TIMEOUT_HELP.format(timeout))
    text = f"seconds between checks (default: {interval})"
    p.add_argument("--interval", type=positive, default=interval, help=text)


def register(groups: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    waits = groups.add_parser(
        "wait",
        help="wait with progress and a timeout",
        parents=[common],
        **group_help(
            "Wait, with progress and a timeout, for a reservation, the GPU nodes, the endpoint or a HyperPod endpoint.",
            [
                "llmops wait reservation cr-0123456789abcdef0 --region us-west-2",
                "llmops wait nodes --env prod",
                "llmops wait plan --env prod-hyperpod",
                "llmops wait endpoint --env prod --url http://localhost:8000",
            ],
        ),
    ).add_subparsers(dest="command", required=True, metavar="SUBCOMMAND")
    p = waits.add_parser(
        "reservation",
        help="until a Capacity Block is active",
        parents=[common],
        **command_help(
            "Wait until a Capacity Block reservation is active, showing its state as it goes.",
            [
                "llmops wait reservation cr-0123456789abcdef0 --region us-west-2",
                "llmops wait reservation cr-0123456789abcdef0 --region us-west-2 --timeout 7200 --interval 120",
            ],
            [
                (ExitCode.OK, "active"),
                (
                    ExitCode.CHECK_FAILED,
                    "it will never become active (expired, cancelled, failed, unsupported)",
                ),
                (ExitCode.TIMEOUT, "--timeout ran out"),
                (ExitCode.NOT_FOUND, "no such reservation in that region"),
            ],
        ),
    )
    p.add_argument("reservation_id", help="the reservation: 'cr-' and 17 hex digits")
    _timing(p, 24 * 3600, 60)
    p.set_defaults(handler=reservation)
    p = waits.add_parser(
        "plan",
        help="until a SageMaker Flexible Training Plan is Active",
        parents=[common],
        **command_help(
            "Wait until a SageMaker Flexible Training Plan is Active (DescribeTrainingPlan), showing its status and "
            "start as it goes: the environment's hyperpod.training_plan_arn with --env, else the plan named.",
            [
                "llmops wait plan --env prod-hyperpod",
                "llmops wait plan kimi-k3-december --region us-west-2 --timeout 7200 --interval 120",
            ],
            [
                (ExitCode.OK, "Active"),
                (ExitCode.CHECK_FAILED, "it will never become Active (Expired, Failed)"),
                (ExitCode.TIMEOUT, "--timeout ran out"),
                (ExitCode.NOT_FOUND, "no such training plan in that region"),
            ],
        ),
    )
    p.add_argument(
        "plan",
        nargs="?",
        help="the plan's name or ARN (default with --env: hyperpod.training_plan_arn)",
    )
    p.add_argument(
        "--env",
        help="the HyperPod environment whose training plan to wait for: config/ENV.yaml (default: none: the plan named)",
    )
    _timing(p, 24 * 3600, 60)
    p.set_defaults(handler=plan)
    p = waits.add_parser(
        "nodes",
        help="until the GPU nodes of an environment are in service",
        parents=[common],
        **command_help(
            "Wait until the GPU nodes of an environment are in service, showing how many are as it goes. With "
            "capacity.next_capacity_reservation_id set, it waits for the node group(s) whose Capacity Block is "
            "active and not yet at its scale-down, else for the group of the block that starts first.",
            ["llmops wait nodes --env prod", "llmops wait nodes --env prod --timeout 5400"],
            [
                (ExitCode.OK, "every GPU node is in service"),
                (
                    ExitCode.CHECK_FAILED,
                    "the node group failed, is being deleted or is degraded, with no node in service",
                ),
                (ExitCode.TIMEOUT, "--timeout ran out"),
            ],
        ),
    )
    p.add_argument(
        "--env", required=True, help="the environment whose GPU nodes to wait for: config/ENV.yaml"
    )
    _timing(p, 3600, 30)
    p.set_defaults(handler=nodes)
    p = waits.add_parser(
        "endpoint",
        help="until the endpoint answers /health",
        parents=[common],
        **command_help(
            "Wait until the endpoint answers /health; with --env, then try its API key once and show where the vLLM "
            "pod's start went (phases).",
            [
                "llmops wait endpoint --url http://localhost:8000",
                "llmops wait endpoint --env prod --url https://llm.example.com --timeout 3600",
            ],
            [
                (ExitCode.OK, "healthy"),
                (ExitCode.CHECK_FAILED, "the endpoint refused the API key, or cannot be reached"),
                (ExitCode.USAGE, "bad arguments or configuration, or a --url that cannot work"),
                (ExitCode.TIMEOUT, "--timeout ran out"),
            ],
        ),
    )
    p.add_argument(
        "--url",
        required=True,
        help="for example http://internal-xxx.elb.us-west-2.amazonaws.com:8000 "
        "(a URL that cannot work fails at once with exit code 2)",
    )
    _timing(p, 3 * 3600, 30)
    p.add_argument(
        "--request-timeout",
        type=positive,
        default=10,
        help="deadline in seconds for each /health probe as a whole, connect to last byte; a probe past it "
        "counts as not healthy yet (default: 10)",
    )
    p.add_argument(
        "--env",
        help="the environment the endpoint belongs to: its API key is tried once it is healthy "
        "(/health itself needs none; default: none: /health only)",
    )
    add_api_key_options(p)
    add_tls_options(p)
    p.set_defaults(handler=endpoint)

    p = waits.add_parser(
        "inference-endpoint",
        help="until a HyperPod InferenceEndpointConfig is DeploymentComplete",
        parents=[common],
        **command_help(
            "Wait until a HyperPod InferenceEndpointConfig is DeploymentComplete, read with kubectl.",
            [
                "llmops wait inference-endpoint",
                "llmops wait inference-endpoint --name kimik3 --timeout 7200",
            ],
            [
                (ExitCode.OK, "DeploymentComplete"),
                (ExitCode.CHECK_FAILED, "the deployment failed or is being deleted"),
                (ExitCode.TIMEOUT, "--timeout ran out"),
                (ExitCode.AWS_ERROR, "kubectl failed"),
            ],
            aws=False,
        ),
    )
    p.add_argument("--name", default="kimik3", help="the InferenceEndpointConfig (default: kimik3)")
    p.add_argument(
        "--namespace",
        default=INFERENCE_ENDPOINT_NAMESPACE,
        help=f"the endpoint's namespace (default: {INFERENCE_ENDPOINT_NAMESPACE}, the endpoint stack's)",
    )
    p.add_argument("--kubectl", default="kubectl", help="kubectl to use (default: the one on PATH)")
    _timing(p, 3 * 3600, 60)
    p.set_defaults(handler=inference_endpoint)


def reservation(ctx: Context) -> int:
    cb.check_reservation_id(ctx.args.reservation_id)
    found = wait_for_reservation(
        ctx.aws(), ctx.args.reservation_id, ctx.progress(f"reservation {ctx.args.reservation_id}")
    )
    ctx.out(cb.reservation_summary(found), f"Reservation {ctx.args.reservation_id} is active.")
    return ExitCode.OK


def plan(ctx: Context) -> int:
    name = ctx.args.plan or tp.environment_plan(ctx.env)
    found = tp.wait_for_plan(ctx.aws(), name, ctx.progress(f"training plan {name}"))
    ctx.out(tp.plan_summary(found), f"Training plan {name} is Active.")
    return ExitCode.OK


def nodes(ctx: Context) -> int:
    state = wait_for_gpu_nodes(
        ctx.aws(), ctx.env, ctx.progress(f"GPU nodes of {ctx.env.cluster_name}"), ctx.rt.now()
    )
    ctx.out(state, f"{state['in_service']} GPU node(s) in service.")
    return ExitCode.OK


def endpoint(ctx: Context) -> int:
    args = ctx.args
    tls = tls_options(ctx)
    check_url(args.url, tls=tls)  # a URL that cannot work fails before the key is read
    tls = operator_trust(ctx, tls)
    key = api_key(ctx)
    with keeping_secret(ctx, key):
        key_check = wait_for_health(
            args.url,
            ctx.progress(f"{args.url}/health"),
            request_timeout=args.request_timeout,
            api_key=key,
            tls=tls,
            deadline=ctx.deadline,
        )
        human = f"{args.url} is healthy."
        if tls.server_name:
            human += f"\nIts TLS certificate is valid for {tls.server_name}."
        if tls.ca_source:
            human += f"\nIts TLS certificate was verified against {tls.ca_source}."
        if key_check and key_check["accepted"]:
            human += f"\nThe API key from {key_check['source']} is accepted."
        elif key_check:
            human += f"\nThe API key from {key_check['source']} could not be checked: {key_check['detail']}"
        payload = {
            "url": args.url,
            "healthy": True,
            "api_key": key_check,
            "tls_server_name": tls.server_name,
            "tls_trusted": tls.ca_source,
        }
        parts: list = [human]
        if ctx.env is not None:
            # With the environment, where the start went (read with kubectl); a failure to read it is a note, not a
            # failed wait: the endpoint is healthy.
            try:
                phases, note = startup_phases(ctx)
            except OpsError as error:
                payload["phases"], payload["phases_error"] = None, error.message
                parts.append(f"Startup phases not read: {error.message}")
            else:
                payload["phases"], payload["phases_pod_note"] = [p.to_dict() for p in phases], note
                parts += [note, phases_table(phases)] if note else [phases_table(phases)]
        ctx.out(payload, parts)
    return ExitCode.OK


def inference_endpoint(ctx: Context) -> int:
    args = ctx.args
    check_kubernetes_names(args.name, args.namespace)
    ctx.check_kubectl()
    status = wait_for_inference_endpoint(
        args.kubectl,
        args.name,
        args.namespace,
        ctx.progress(f"InferenceEndpointConfig {args.namespace}/{args.name}"),
        run=ctx.rt.run_command,
        deadline=ctx.deadline,
    )
    ctx.out(
        {"name": args.name, "namespace": args.namespace, "status": status},
        f"InferenceEndpointConfig {args.namespace}/{args.name} is DeploymentComplete.",
    )
    return ExitCode.OK
