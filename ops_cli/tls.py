"""How a command verifies an https:// endpoint: the name to verify (--tls-server-name, or the environment's domain
name), the certificate authorities to trust (--ca-bundle, or on HyperPod the Inference Operator's own certificate)."""

from __future__ import annotations

import argparse
import ssl
import urllib.parse

from deployment_config.file_models import domain_name_problem
from deployment_config.kubernetes_names import INFERENCE_ENDPOINT_NAMESPACE, inference_endpoint_name
from deployment_config.model import Platform
from endpoint_probe.errors import printable
from endpoint_probe.url import TlsOptions
from ops_cli.context import Context
from ops_cli.errors import ExitCode, OpsError, shown
from ops_cli.operator_certificate import read_operator_certificate


def add_tls_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--tls-server-name",
        metavar="NAME",
        help="for an https:// URL: send NAME in TLS (SNI) and verify the certificate for NAME instead of the "
        "URL's host, to test the load balancer by its own name before the DNS record of NAME exists. "
        "Default: with --env, the environment's endpoint.domain_name when the URL's host differs from it",
    )
    p.add_argument(
        "--ca-bundle",
        metavar="FILE",
        help="a PEM file of the certificate authorities to trust instead of the system's (a private CA). "
        "Default: the system's store (OpenSSL also reads SSL_CERT_FILE and SSL_CERT_DIR); with --env of a "
        "HyperPod environment, the certificate its Inference Operator generated, read from its status and S3",
    )
    p.add_argument(
        "--kubectl",
        default="kubectl",
        help="HyperPod: the kubectl that reads the InferenceEndpointConfig's certificate location "
        "(default: the one on PATH)",
    )


def tls_options(ctx: Context) -> TlsOptions:
    """How to verify an https:// endpoint: --tls-server-name, else with --env the environment's
    ``endpoint.domain_name`` when the URL names another host (the load balancer's own name, before the DNS record
    exists); --ca-bundle. Checked here, before anything is sent."""
    name = ctx.args.tls_server_name
    if name is not None:
        problem = domain_name_problem(name)
        if problem:
            raise OpsError(f"--tls-server-name: {problem.problem}", problem.fix, ExitCode.USAGE)
    elif ctx.env is not None and ctx.env.endpoint.domain_name:
        parts = urllib.parse.urlsplit(ctx.args.url.strip())
        host = (
            (parts.hostname or "").rstrip(".").lower() if parts.scheme.lower() == "https" else None
        )
        if host and host != ctx.env.endpoint.domain_name.lower():
            name = ctx.env.endpoint.domain_name
    ca_file = ctx.args.ca_bundle
    if ca_file is not None:
        try:
            ssl.create_default_context(cafile=ca_file)
        except (OSError, ValueError) as error:
            reason = (
                getattr(error, "strerror", None) or getattr(error, "reason", None) or str(error)
            )
            raise OpsError(
                f"--ca-bundle {shown(ca_file)}: cannot load it as CA certificates ({printable(reason, 120)})",
                "pass a readable PEM file of one or more CA certificates",
                ExitCode.USAGE,
            ) from None
    return TlsOptions(server_name=name, ca_file=ca_file)


def operator_trust(ctx: Context, tls: TlsOptions) -> TlsOptions:
    """On a HyperPod environment (--env), an https:// URL without --ca-bundle is verified against the certificate
    the Inference Operator generated for the endpoint's load balancer and stores in S3
    (ops_cli/operator_certificate.py), for the name it covers unless --tls-server-name says otherwise. Anything
    else: ``tls`` as it is. Called after the local checks: it runs kubectl and reads S3."""
    env = ctx.env
    parts = urllib.parse.urlsplit(ctx.args.url.strip())
    if (
        env is None
        or env.platform is not Platform.HYPERPOD
        or tls.ca_file is not None
        or parts.scheme.lower() != "https"
    ):
        return tls
    ctx.check_kubectl()
    region = ctx.region()
    with ctx.deadline.during("reading the Inference Operator's certificate (kubectl, S3)"):
        certificate = read_operator_certificate(
            kubectl=ctx.args.kubectl,
            name=inference_endpoint_name(env),
            namespace=INFERENCE_ENDPOINT_NAMESPACE,
            aws=ctx.aws_in(region),
            account=env.account,
            run=ctx.rt.run_command,
            deadline=ctx.deadline,
        )
    if certificate.health == "Expired":
        raise OpsError(
            f"{certificate.source} has expired (the InferenceEndpointConfig's certificateHealth)",
            "the operator renews the certificate it generated; until then, pass --ca-bundle FILE with the "
            "certificate the load balancer now presents",
            ExitCode.CHECK_FAILED,
        )
    name = tls.server_name or certificate.server_name_for(parts.hostname or "")
    return TlsOptions(server_name=name, ca_data=certificate.pem, ca_source=certificate.source)
