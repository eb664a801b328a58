"""The endpoint as the check function finds it: the settings of the custom resource, the load balancer carrying the
endpoint's tags (the destroy waiter's lookup), the URL, how its certificate is verified, and the API key.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

import botocore.exceptions

from cdk_constructs.deploy_time_smoke_test.runtime import aws
from cdk_constructs.destroy_waiter.runtime.handler import (
    load_balancer_tags,
    remaining_load_balancers,
)
from endpoint_probe.errors import THROTTLING_CODES, ExitCode, OpsError
from endpoint_probe.url import ApiKey, TlsOptions, api_key_problem, server_name_for

#: Settings of TlsVerification.
VERIFY_SYSTEM = "system"  # the runtime's CA store, for TlsServerName (or the load balancer's name)
LISTENER_CERTIFICATE = "listener-certificate"  # HyperPod: exactly the certificate on the operator's ALB listener
#: ELBv2 DescribeLoadBalancers State.Code of a load balancer that routes traffic.
ACTIVE = "active"


def settings_of(properties: Mapping) -> dict:
    """The custom resource's ``Settings`` (JSON text: CloudFormation passes every property value as a string)."""
    settings = properties.get("Settings")
    settings = json.loads(settings) if isinstance(settings, str) else settings
    missing = [key for key in ("LoadBalancerTags", "Scheme", "Port", "Model", "HealthyWithinSeconds")
               if not isinstance(settings, dict) or key not in settings]
    if missing:
        raise ValueError(f"Settings lacks {', '.join(missing)}: {settings!r}")
    load_balancer_tags({"Tags": settings["LoadBalancerTags"]})  # non-empty object, as the destroy waiter checks it
    return settings


def endpoint_url(settings: Mapping, dns_name: str) -> str:
    default = 443 if settings["Scheme"] == "https" else 80
    port = int(settings["Port"])
    return f"{settings['Scheme']}://{dns_name}" + ("" if port == default else f":{port}")


def tls_options(settings: Mapping, load_balancer: Mapping) -> TlsOptions:
    """How the endpoint's certificate is verified: by the system's CAs for ``TlsServerName`` (EKS), or against the
    certificate of the load balancer's listener (HyperPod, :func:`listener_certificate`)."""
    if settings.get("TlsVerification") == LISTENER_CERTIFICATE:
        return listener_certificate(load_balancer, int(settings["Port"]))
    return TlsOptions(server_name=settings.get("TlsServerName"))


#: AWS errors that waiting may mend (the check tries again at its next poll): throttling after botocore's own retries,
#: the service's own failures, a load balancer or certificate replaced between two calls. Any other (access denied,
#: a request AWS refuses) fails the check at once: waiting up to the startup budget would not change it.
_PASSING_CODES = THROTTLING_CODES | {"LoadBalancerNotFound", "ListenerNotFound", "ResourceNotFoundException",
                                     "InternalFailure", "ServiceUnavailable", "InternalError"}


def _may_pass(error: Exception) -> bool:
    if not isinstance(error, botocore.exceptions.ClientError):
        return True  # no answer at all (a connection or read timeout)
    status = int(error.response.get("ResponseMetadata", {}).get("HTTPStatusCode") or 0)
    return error.response.get("Error", {}).get("Code") in _PASSING_CODES or status >= 500


def listener_certificate(load_balancer: Mapping, port: int) -> TlsOptions:
    """HyperPod: trust exactly the certificate the Inference Operator attached to its ALB's HTTPS listener, read from
    the control plane (ELBv2 DescribeListeners, ACM DescribeCertificate and GetCertificate), not from the connection.

    The operator generates that certificate (self-signed: no public CA vouches for it), imports it into ACM and names
    it in its ALB Ingress's ``alb.ingress.kubernetes.io/certificate-arn`` (aws/sagemaker-hyperpod-cli@011ca92
    ``helm_chart/HyperPodHelmChart/charts/inference-operator/migration/helm_to_addon.sh``, which reads the ARNs from
    those annotations and from ``status.tlsCertificate.certificateARN``; the CRD: "Tracks imported certificates to
    ACM"). ``llmops smoke-test`` reads the same certificate from the S3 object the status names, which needs the
    cluster's private Kubernetes API; this function has only AWS's APIs. The name verified is the load balancer's own
    when the certificate covers it, else the first name it covers (endpoint_probe.url.server_name_for). A listener or
    certificate that is not there yet raises an :class:`OpsError` that the check reports while it waits.
    """
    arn = load_balancer["LoadBalancerArn"]
    name = load_balancer.get("LoadBalancerName", arn)
    try:
        listeners = aws.client("elbv2").describe_listeners(LoadBalancerArn=arn).get("Listeners", [])
        certificate_arns = [certificate["CertificateArn"] for listener in listeners
                            if listener.get("Port") == port and listener.get("Protocol") == "HTTPS"
                            for certificate in listener.get("Certificates") or [] if certificate.get("CertificateArn")]
        if not certificate_arns:
            raise OpsError(f"load balancer {name} has no HTTPS listener with a certificate on port {port} yet",
                           "the Inference Operator adds it with the endpoint's Ingress", ExitCode.NOT_FOUND)
        certificate_arn = certificate_arns[0]  # DescribeListeners lists the listener's default certificate only
        acm = aws.client("acm")
        description = acm.describe_certificate(CertificateArn=certificate_arn)["Certificate"]
        body = acm.get_certificate(CertificateArn=certificate_arn)
    except (botocore.exceptions.ClientError, botocore.exceptions.BotoCoreError) as error:
        raise OpsError(f"could not read the certificate of load balancer {name}'s listener on port {port}: {error}",
                       "this function's role may elasticloadbalancing:DescribeListeners, and acm:DescribeCertificate "
                       "and acm:GetCertificate on the account's certificates",
                       ExitCode.NOT_FOUND if _may_pass(error) else ExitCode.CHECK_FAILED) from None
    pem = "\n".join(part.strip() for part in (body.get("Certificate"), body.get("CertificateChain")) if part)
    if "-----BEGIN CERTIFICATE-----" not in pem:
        raise OpsError(f"ACM returned no certificate for {certificate_arn}", "check the certificate in ACM",
                       ExitCode.CHECK_FAILED)
    names = [description.get("DomainName"), *(description.get("SubjectAlternativeNames") or [])]
    names = list(dict.fromkeys(n for n in names if n))
    return TlsOptions(server_name=server_name_for(load_balancer["DNSName"], names), ca_data=pem + "\n",
                      ca_source=f"the certificate of load balancer {name}'s listener ({certificate_arn}, ACM)")


def find_load_balancer(settings: Mapping) -> tuple[dict | None, str]:
    """The load balancer carrying all the settings' tags, and what was seen (for the log and a timeout's reason)."""
    tags = load_balancer_tags({"Tags": settings["LoadBalancerTags"]})
    found = remaining_load_balancers(aws.client("elbv2"), tags)
    if not found:
        return None, f"no load balancer tagged {json.dumps(tags, sort_keys=True)} yet"
    if len(found) > 1:
        names = ", ".join(lb.get("LoadBalancerName", "?") for lb in found)
        return None, f"{len(found)} load balancers tagged {json.dumps(tags, sort_keys=True)} ({names}): expected one"
    (load_balancer,) = found
    state = (load_balancer.get("State") or {}).get("Code", "?")
    if state != ACTIVE:
        return None, f"load balancer {load_balancer.get('LoadBalancerName', '?')} is {state}, not {ACTIVE}"
    return load_balancer, f"load balancer {load_balancer.get('LoadBalancerName', '?')} is {ACTIVE}"


def read_api_key(secret_id: str) -> ApiKey:
    """The environment's API key from Secrets Manager; an :class:`OpsError` names the secret, never the value."""
    try:
        value = aws.client("secretsmanager").get_secret_value(SecretId=secret_id).get("SecretString")
    except (botocore.exceptions.ClientError, botocore.exceptions.BotoCoreError) as error:
        raise OpsError(f"could not read the API key from secret {secret_id}: {error}",
                       "this function's role may secretsmanager:GetSecretValue on exactly that secret and kms:Decrypt "
                       "through Secrets Manager; check that the serving stack created it", ExitCode.CHECK_FAILED) from None
    problem = api_key_problem(value) if isinstance(value, str) else "is not text"
    if problem:
        raise OpsError(f"the API key in secret {secret_id} {problem}", "store the key as the secret's plain text", ExitCode.USAGE)
    return ApiKey(value, f"secret {secret_id}")
