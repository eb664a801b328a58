"""The certificate a HyperPod Inference Operator made for its endpoint's load balancer, read so that ``llmops`` verifies
a HyperPod endpoint's TLS against it, instead of failing on an unknown issuer or offering to skip the check.

Without a certificate of the user's own (``tlsConfig.customCertificateConfig``, which this project does not set), the
operator generates a self-signed certificate, imports it into ACM for the load balancer, and stores the PEM in the
certificate bucket the add-on is configured with (``tlsCertificateS3Bucket``; stacks/inference_operator_stack.py). The
InferenceEndpointConfig's status says where (the v1 CRD, ``status.tlsCertificate``: operator 3.1's, vendored in
charts/imports/crds/, and aws/sagemaker-hyperpod-cli@011ca92
``helm_chart/HyperPodHelmChart/charts/inference-operator/config/crd/``):

- ``tlsCertificateOutputS3Bucket``: "S3 bucket that stores the certificate that needs to be trusted";
- ``tlsCertificateS3Keys``: "The output tls certificate S3 key that points to the .pem file";
- ``certificateDomainNames``: "The certificate domain names that is attached to the certificate";
- ``certificateHealth``: ``Valid``, ``Expiring`` or ``Expired`` (operator 3.1 and later, which the pinned add-on
  installs; an operator 3.0 on the cluster has no such field, and then nothing is checked here).

AWS's Helm-to-add-on migration script reads bucket names out of these statuses with and without an ``s3://`` prefix
(``helm_to_addon.sh``: ``sed 's|^s3://||'``), so both forms are accepted here. The object is read with
``ExpectedBucketOwner``: a bucket of another account (a status that was tampered with, or a name taken over after a
deletion) is refused by S3 itself rather than trusted.
"""

from __future__ import annotations

import re
import ssl
from dataclasses import dataclass

from endpoint_probe.deadline import Deadline
from endpoint_probe.errors import printable, quoted
from endpoint_probe.url import server_name_for
from ops_cli.aws import Aws
from ops_cli.errors import ExitCode, OpsError
from ops_cli.waiting import INFERENCE_RESOURCE, inference_endpoint_state

#: A PEM certificate (chain) is a few kilobytes; anything much larger is not one.
MAX_CERTIFICATE_BYTES = 256 * 1024
#: S3 bucket names (S3 user guide, "General purpose bucket naming rules"): 3 to 63 lower-case letters, digits, dots and
#: hyphens, beginning and ending with a letter or digit. Keys: 1 to 1,024 bytes.
_BUCKET = re.compile(r"[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")
_PEM_CERTIFICATE = "-----BEGIN CERTIFICATE-----"


@dataclass(frozen=True)
class OperatorCertificate:
    """The operator's certificate for one InferenceEndpointConfig.

    :param pem: the PEM text of every certificate it stores, to trust instead of the system's store.
    :param locations: ``s3://bucket/key`` of each.
    :param domain_names: the names the certificate covers, as the status lists them.
    :param health: ``Valid``, ``Expiring``, ``Expired``, or None when the status does not say.
    """

    pem: str
    locations: tuple[str, ...]
    domain_names: tuple[str, ...]
    health: str | None

    @property
    def source(self) -> str:
        return "the Inference Operator's certificate " + ", ".join(self.locations)

    def server_name_for(self, host: str) -> str | None:
        """The name to verify when connecting to ``host`` (:func:`endpoint_probe.url.server_name_for`)."""
        return server_name_for(host, self.domain_names)


def read_operator_certificate(
    *,
    kubectl: str,
    name: str,
    namespace: str,
    aws: Aws,
    account: str,
    run=None,
    deadline: Deadline | None = None,
) -> OperatorCertificate:
    """The certificate the operator stores for InferenceEndpointConfig ``namespace/name``: its status read with kubectl,
    the PEM objects read from S3 in ``aws``'s region, owned by ``account``. Fails with a message that names the step."""
    resource = f"InferenceEndpointConfig {namespace}/{name}"
    status = (
        inference_endpoint_state(kubectl, name, namespace, run, deadline=deadline).get("status")
        or {}
    )
    tls = status.get("tlsCertificate") if isinstance(status.get("tlsCertificate"), dict) else {}
    bucket = str(tls.get("tlsCertificateOutputS3Bucket") or "").removeprefix("s3://").rstrip("/")
    keys = [str(key) for key in _list(tls.get("tlsCertificateS3Keys")) if key]
    if not bucket or not keys:
        raise OpsError(
            f"{resource} names no TLS certificate yet (its status.tlsCertificate has no "
            "tlsCertificateOutputS3Bucket and tlsCertificateS3Keys; state: "
            f"{printable(str(status.get('state') or 'no status yet'), 60)})",
            f"wait until the operator has made the endpoint (bin/llmops wait inference-endpoint --name {name} "
            f"--namespace {namespace}), or pass --ca-bundle FILE",
            ExitCode.NOT_FOUND,
        )
    if not _BUCKET.fullmatch(bucket) or ".." in bucket:
        raise OpsError(
            f"{resource} names the certificate bucket {quoted(bucket)}, which is not an S3 bucket name",
            f"kubectl get {INFERENCE_RESOURCE} {name} -n {namespace} -o yaml shows the status; or pass "
            "--ca-bundle FILE",
            ExitCode.CHECK_FAILED,
        )
    texts, locations = [], []
    for key in keys:
        location = f"s3://{bucket}/{key}"
        if not 1 <= len(key.encode()) <= 1024:
            raise OpsError(
                f"{resource} names the certificate key {quoted(key)}, which is not an S3 key",
                "pass --ca-bundle FILE",
                ExitCode.CHECK_FAILED,
            )
        answer = aws.call(
            "s3",
            "get_object",
            f"read the operator's certificate {location}",
            Bucket=bucket,
            Key=key,
            ExpectedBucketOwner=account,
        )
        body = answer["Body"]
        try:
            data = body.read(MAX_CERTIFICATE_BYTES + 1)
        finally:
            body.close()
        text = data.decode("ascii", errors="replace")
        if len(data) > MAX_CERTIFICATE_BYTES or _PEM_CERTIFICATE not in text:
            why = (
                "over 256 KiB"
                if len(data) > MAX_CERTIFICATE_BYTES
                else f"no {_PEM_CERTIFICATE} line"
            )
            raise OpsError(
                f"{location} is not a PEM certificate ({why})",
                "pass the endpoint's certificate to --ca-bundle FILE",
                ExitCode.CHECK_FAILED,
            )
        texts.append(text)
        locations.append(location)
    pem = "\n".join(texts)
    try:
        ssl.create_default_context(cadata=pem)
    except (ssl.SSLError, ValueError) as error:
        raise OpsError(
            f"{', '.join(locations)}: cannot load it as certificates ({printable(str(error), 120)})",
            "pass the endpoint's certificate to --ca-bundle FILE",
            ExitCode.CHECK_FAILED,
        ) from None
    names = tuple(str(n) for n in _list(tls.get("certificateDomainNames")) if n)
    health = tls.get("certificateHealth")
    return OperatorCertificate(
        pem=pem,
        locations=tuple(locations),
        domain_names=names,
        health=str(health) if health else None,
    )


def _list(value) -> list:
    """A list field of the status; another shape (kubectl's JSON is read defensively) is no list at all."""
    return value if isinstance(value, list) else []
