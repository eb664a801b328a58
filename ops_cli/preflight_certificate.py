"""Preflight's TLS row: the load balancer's ACM certificate (endpoint.certificate_arn) is issued, covers
endpoint.domain_name and does not end soon (ops_cli/preflight.py runs it when endpoint.tls is set)."""

from __future__ import annotations

from datetime import datetime, timedelta

from deployment_config.model import EnvironmentConfig
from ops_cli.aws import Aws
from ops_cli.output import utc_and_local
from ops_cli.preflight_check import Check, Status

#: An ACM certificate that ends sooner than this is reported: ACM renews the certificates it issued itself, from 60
#: days before they end, once their DNS validation record is in place (ACM user guide, "Managed certificate renewal");
#: an imported one is never renewed.
CERTIFICATE_WARN_BEFORE_END = timedelta(days=30)


def covers(pattern: str, name: str) -> bool:
    """Does a certificate name (``llm.example.com``, or ``*.example.com``: one leftmost label, RFC 6125 6.4.3) cover
    ``name``? Compared without case."""
    pattern, name = pattern.lower().rstrip("."), name.lower().rstrip(".")
    if pattern.startswith("*."):
        head, _, rest = name.partition(".")
        return bool(head) and rest == pattern[2:]
    return pattern == name


def certificate_check(aws: Aws, env: EnvironmentConfig, now: datetime) -> Check:
    """The load balancer's certificate (endpoint.certificate_arn): issued, covering endpoint.domain_name, not ending
    soon. The cloud provider creates the TLS listener only once the Service exists, so a bad certificate would
    otherwise show up as a Service event an hour into the deploy."""
    name, arn, domain = "TLS certificate", env.endpoint.certificate_arn, env.endpoint.domain_name
    certificate = aws.call(
        "acm", "describe_certificate", f"describe certificate {arn}", CertificateArn=arn
    )["Certificate"]
    status = certificate.get("Status")
    if status != "ISSUED":
        return Check(
            name,
            Status.FAIL,
            f"{arn} is {status}, not ISSUED",
            "complete its validation (for DNS validation: the CNAME record ACM asks for), or use an issued "
            "certificate: aws acm list-certificates --certificate-statuses ISSUED",
        )
    names = [certificate.get("DomainName", ""), *certificate.get("SubjectAlternativeNames", [])]
    if not any(covers(pattern, domain) for pattern in names if pattern):
        return Check(
            name,
            Status.FAIL,
            f"{arn} covers {', '.join(dict.fromkeys(n for n in names if n))}, not {domain}",
            "set endpoint.domain_name to a name the certificate covers, or request one for it: "
            f"aws acm request-certificate --domain-name {domain} --validation-method DNS",
        )
    not_after = certificate.get("NotAfter")
    if not_after is not None and not_after - now < CERTIFICATE_WARN_BEFORE_END:
        renewal = (
            "ACM renews it once its validation record is in place"
            if certificate.get("Type") == "AMAZON_ISSUED"
            else "ACM does not renew an imported certificate"
        )
        return Check(
            name,
            Status.WARN,
            f"{arn} covers {domain} but ends {utc_and_local(not_after)}; {renewal}",
            "renew or replace it before it ends: clients would refuse the endpoint",
        )
    return Check(name, Status.PASS, f"{arn} is issued and covers {domain}")
