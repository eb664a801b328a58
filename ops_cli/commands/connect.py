"""``llmops connect``: the private cluster API and the endpoint on this machine, through the access host's Session
Manager port forwards (ops_cli/port_forward.py), with a kubeconfig context for the forwarded API; it holds them until
Ctrl-C (docs/access.md)."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from ops_cli import access_targets
from ops_cli.arguments import positive
from ops_cli.command_help import command_help
from ops_cli.context import Context
from ops_cli.errors import ExitCode
from ops_cli.kubeconfig import kubeconfig_path, write_entry
from ops_cli.port_forward import Forward, Forwards, check_port_free

API_PORT = 8443
#: The local port of the endpoint: its own port when plain (8000), 9443 for HTTPS (docs/access.md's table).
TLS_LOCAL_PORT = 9443


def _port(text: str) -> int:
    value = int(text)
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a TCP port (1 to 65535)")
    return value


def register(groups: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = groups.add_parser(
        "connect",
        help="forward the private cluster API and the endpoint to localhost through the access host",
        parents=[common],
        **command_help(
            "Forward the cluster's private API and the endpoint's load balancer to localhost through the access host "
            "(Session Manager, aws ssm start-session), write a kubeconfig context NAME-via-ssm for the forwarded API, "
            "print the URLs, and hold the forwards until Ctrl-C. Before stage 2 only the API is forwarded. With "
            "--json the URLs are one JSON document once the forwards are ready; it holds all the same.",
            [
                "llmops connect --env prod",
                "llmops connect --env prod --api-port 18443 --endpoint-port 18000",
                "llmops connect --env prod --json",
            ],
            [
                (ExitCode.OK, "closed with Ctrl-C"),
                (ExitCode.USAGE, "access is off, a local port is taken, or aws cannot be run"),
                (ExitCode.NOT_FOUND, "no access stack"),
                (ExitCode.TIMEOUT, "a forward was not ready within --ready-timeout"),
            ],
        ),
    )
    p.add_argument("--env", required=True, help="the environment to reach: config/ENV.yaml")
    p.add_argument(
        "--api-port",
        type=_port,
        default=API_PORT,
        help=f"local port of the API (default: {API_PORT})",
    )
    p.add_argument(
        "--endpoint-port",
        type=_port,
        help=f"local port of the endpoint (default: its own port, 8000; {TLS_LOCAL_PORT} for HTTPS)",
    )
    p.add_argument(
        "--kubeconfig",
        type=Path,
        help="the kubeconfig to write the context into (default: the first file of KUBECONFIG, else ~/.kube/config)",
    )
    p.add_argument(
        "--role-arn",
        help="a role for the context's aws eks get-token to assume, as update-kubeconfig's --role-arn (default: "
        "none: the caller's own credentials, which must be the admin role's)",
    )
    p.add_argument("--aws", default="aws", help="the AWS CLI v2 to run (default: the one on PATH)")
    p.add_argument(
        "--ready-timeout",
        type=positive,
        default=60,
        help="seconds each forward may take to listen (default: 60)",
    )
    p.set_defaults(handler=connect)


def connect(ctx: Context) -> int:
    args, env = ctx.args, ctx.env
    aws = ctx.aws()
    instance = access_targets.access_host(aws, env)
    cluster = access_targets.cluster(aws, env)
    endpoint, why_not = access_targets.endpoint(aws, env)
    forwards = [Forward("the Kubernetes API", cluster.host, 443, args.api_port)]
    if endpoint is not None:
        local = args.endpoint_port or (
            TLS_LOCAL_PORT if endpoint.scheme == "https" else endpoint.port
        )
        forwards.append(Forward("the endpoint", endpoint.host, endpoint.port, local))
    for forward, option in zip(forwards, ("--api-port", "--endpoint-port"), strict=False):
        check_port_free(forward.local_port, option)
    context_name = f"{env.name}-via-ssm"
    path = kubeconfig_path(args.kubeconfig, ctx.rt.environ)
    with Forwards(
        forwards, aws=args.aws, region=aws.region, instance_id=instance, environ=ctx.aws_environ
    ) as running:
        for forward in forwards:
            running.start(forward, args.ready_timeout, ctx.note)
        # once the API is forwarded: a forward that fails leaves the kubeconfig as it was
        write_entry(
            path,
            context_name,
            cluster,
            region=aws.region,
            local_port=args.api_port,
            role_arn=args.role_arn,
            profile=getattr(args, "profile", None),
        )
        ctx.note(f"kubeconfig: context {context_name} written to {path} (now the current context)")
        ctx.out(*_urls(env.name, instance, path, context_name, forwards, endpoint, why_not))
        ctx.rt.stdout.flush()  # the URLs now, not when the forwards end
        try:
            running.hold(ctx.rt.sleep or time.sleep)
        except KeyboardInterrupt:
            ctx.note("closing the forwards")
    return ExitCode.OK


def _urls(
    name, instance, path, context_name, forwards, endpoint, why_not
) -> tuple[dict, list[str]]:  # noqa: ANN001
    api = forwards[0]
    payload = {
        "access_host": instance,
        "kubeconfig": str(path),
        "context": context_name,
        "api": {"url": f"https://localhost:{api.local_port}", "remote": f"{api.host}:443"},
        "endpoint": None,
        "endpoint_note": why_not or None,
    }
    lines = [
        f"Forwarding through the access host {instance}:",
        f"  Kubernetes API  https://localhost:{api.local_port}  -> {api.host}:443 (kubectl context {context_name})",
    ]
    if endpoint is not None:
        local = forwards[1].local_port
        url = f"{endpoint.scheme}://localhost:{local}"
        payload["endpoint"] = {"url": url, "remote": f"{endpoint.host}:{endpoint.port}"}
        lines.append(f"  endpoint        {url}  -> {endpoint.host}:{endpoint.port}")
        lines.append(f"Try: kubectl get nodes; llmops smoke-test --env {name} --url {url}")
    else:
        lines.append(f"  endpoint        not forwarded: {why_not}")
        lines.append("Try: kubectl get nodes")
    lines.append("Hold this open; Ctrl-C closes the forwards.")
    return payload, ["\n".join(lines)]
