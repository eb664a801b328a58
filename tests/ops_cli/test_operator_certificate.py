"""llmops against a HyperPod endpoint behind the Inference Operator's self-signed certificate: the certificate's
location read from the InferenceEndpointConfig's status (kubectl, faked here), its PEM from S3 (Stubber, checked
against the S3 model, with the environment's account as the expected bucket owner), and the endpoint's TLS verified
against it for the name it covers. The local server presents a self-signed certificate made here; the operator's own
certificate names are not documented, so the test's name is made up."""

from __future__ import annotations

import io
import json
import subprocess

import pytest
from botocore.response import StreamingBody

from ops_cli.errors import ExitCode
from ops_cli.operator_certificate import OperatorCertificate
from tests.ops_cli.openai_server import Behaviour, openai_server
from tests.self_signed import SelfSigned, self_signed

DOMAIN = "kimik3.hyperpod.example.internal"  # made up: what the operator's certificate covers is in its status
BUCKET = "example-hyperpod-tls-certificates"
KEY = "certificates/kimik3/tls.pem"
ACCOUNT = "123456789012"  # config/example-hyperpod.yaml


@pytest.fixture(scope="module")
def operator_cert() -> SelfSigned:
    return self_signed(DOMAIN)


@pytest.fixture
def tls_server(tmp_path, operator_cert):
    """The endpoint's load balancer presenting the operator's certificate; records the names clients send (SNI)."""
    return operator_cert.server_context(tmp_path)


def _status(**tls) -> dict:
    return (
        {"state": "DeploymentComplete", "tlsCertificate": tls}
        if tls
        else {"state": "DeploymentInProgress"}
    )


OPERATOR_STATUS = _status(
    tlsCertificateOutputS3Bucket=f"s3://{BUCKET}",
    tlsCertificateS3Keys=[KEY],
    certificateDomainNames=[DOMAIN],
    certificateHealth="Valid",
)


class FakeKubectl:
    """Answers `kubectl get inferenceendpointconfigs ... -o json` with ``status``; records every command."""

    def __init__(self, status: dict | None) -> None:
        self.status = status
        self.commands: list[list[str]] = []

    def __call__(self, command, **kwargs):
        self.commands.append(command)
        assert self.status is not None, f"kubectl should not have run: {command}"
        return subprocess.CompletedProcess(
            command, 0, json.dumps({"kind": "InferenceEndpointConfig", "status": self.status}), ""
        )


@pytest.fixture
def hyperpod_config(config_dir):
    """config/example-hyperpod.yaml without an API key, so that no secret is read."""
    text = (config_dir / "example-hyperpod.yaml").read_text()
    (config_dir / "hp.yaml").write_text(
        text.replace("  exposure: internal", "  exposure: internal\n  authentication: none")
    )
    return config_dir


@pytest.fixture
def run_hp(run_with_kubectl, hyperpod_config):
    """llmops with the fake kubectl; the configuration directory with hp.yaml (the same scratch directory)."""
    return run_with_kubectl


def _expect_certificate_read(aws, body: bytes) -> None:
    aws.stub("s3").add_response(
        "get_object",
        {"Body": StreamingBody(io.BytesIO(body), len(body))},
        {"Bucket": BUCKET, "Key": KEY, "ExpectedBucketOwner": ACCOUNT},
    )


def test_smoke_test_verifies_the_endpoint_against_the_operators_certificate(
    aws, run_hp, operator_cert, tls_server
):
    # given a HyperPod endpoint whose load balancer presents the operator's self-signed certificate, reached by address
    _expect_certificate_read(aws, operator_cert.pem)
    kubectl = FakeKubectl(OPERATOR_STATUS)
    with openai_server(Behaviour(root="/opt/ml/model"), tls=tls_server) as url:
        # when the smoke test runs with the environment and no --ca-bundle
        result = run_hp(kubectl, "smoke-test", "--url", url, "--env", "hp", "--json")
    # then it read the certificate's location from the endpoint's status, the PEM from the operator's bucket (in the
    # environment's account), verified the handshake for the name the certificate covers, and passed
    assert result.code == ExitCode.OK, result.stdout + result.stderr
    assert kubectl.commands[0][:5] == [
        "kubectl",
        "get",
        "inferenceendpointconfigs.inference.sagemaker.aws.amazon.com",
        "kimik3",
        "-n",
    ]
    assert result.json["tls_server_name"] == DOMAIN and set(tls_server.sni_names) == {DOMAIN}
    assert result.json["tls_trusted"] == f"the Inference Operator's certificate s3://{BUCKET}/{KEY}"


def test_wait_endpoint_trusts_the_operators_certificate_too(aws, run_hp, operator_cert, tls_server):
    _expect_certificate_read(aws, operator_cert.pem)
    with openai_server(Behaviour(root="/opt/ml/model"), tls=tls_server) as url:
        result = run_hp(
            FakeKubectl(OPERATOR_STATUS), "wait", "endpoint", "--url", url, "--env", "hp", "--json"
        )
    assert result.code == ExitCode.OK, result.stdout + result.stderr
    assert result.json["healthy"] and result.json["tls_server_name"] == DOMAIN


def test_a_server_with_another_certificate_fails_and_names_what_it_was_checked_against(
    aws, run_hp, tls_server
):
    # given the status points at a certificate that is not the one the endpoint presents (another self-signed one)
    _expect_certificate_read(aws, self_signed(DOMAIN).pem)
    with openai_server(Behaviour(root="/opt/ml/model"), tls=tls_server) as url:
        result = run_hp(FakeKubectl(OPERATOR_STATUS), "smoke-test", "--url", url, "--env", "hp")
    # then the handshake is refused, and the fix says which certificate was trusted and how to pass another
    assert result.code == ExitCode.CHECK_FAILED
    assert (
        f"checked against the Inference Operator's certificate s3://{BUCKET}/{KEY}" in result.stderr
    )
    assert "--ca-bundle" in result.stderr


def test_an_endpoint_without_a_certificate_yet_says_to_wait_and_reads_nothing_from_s3(run_hp):
    # given the operator has not made the endpoint yet (no status.tlsCertificate); no S3 response is stubbed
    result = run_hp(
        FakeKubectl(_status()), "smoke-test", "--url", "https://10.1.0.10", "--env", "hp"
    )
    assert result.code == ExitCode.NOT_FOUND
    assert (
        "names no TLS certificate yet" in result.stderr and "DeploymentInProgress" in result.stderr
    )
    assert "wait inference-endpoint --name kimik3" in result.stderr


def test_an_object_that_is_not_a_certificate_is_refused(aws, run_hp):
    _expect_certificate_read(aws, b"<html>AccessDenied</html>")
    result = run_hp(
        FakeKubectl(OPERATOR_STATUS), "smoke-test", "--url", "https://10.1.0.10", "--env", "hp"
    )
    assert result.code == ExitCode.CHECK_FAILED
    assert (
        f"s3://{BUCKET}/{KEY} is not a PEM certificate" in result.stderr
        and "--ca-bundle" in result.stderr
    )


def test_an_expired_certificate_is_reported_before_any_request(aws, run_hp, operator_cert):
    _expect_certificate_read(aws, operator_cert.pem)
    status = _status(
        tlsCertificateOutputS3Bucket=BUCKET,
        tlsCertificateS3Keys=[KEY],
        certificateDomainNames=[DOMAIN],
        certificateHealth="Expired",
    )
    result = run_hp(FakeKubectl(status), "smoke-test", "--url", "https://10.1.0.10", "--env", "hp")
    assert result.code == ExitCode.CHECK_FAILED and "has expired" in result.stderr


@pytest.mark.parametrize(
    "argv",
    [
        ("--url", "https://10.1.0.10", "--ca-bundle", "CA"),  # the user's own trust
        (
            "--url",
            "http://10.1.0.10:8000",
        ),  # no TLS
    ],
)
def test_no_status_is_read_when_the_operators_certificate_is_not_needed(
    run_hp, tmp_path, operator_cert, argv
):
    (tmp_path / "ca.pem").write_bytes(operator_cert.pem)
    argv = tuple(str(tmp_path / "ca.pem") if a == "CA" else a for a in argv)
    kubectl = FakeKubectl(None)  # fails the test if run
    # the endpoint is not listening: the command fails to connect, but without asking kubectl or S3 first
    result = run_hp(kubectl, "smoke-test", *argv, "--env", "hp", "--timeout", "2")
    assert kubectl.commands == [] and result.code == ExitCode.CHECK_FAILED, result.stderr


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        (DOMAIN, None),  # the certificate covers the URL's host: verify that
        ("10.1.0.10", DOMAIN),  # reached by address: verify the name it covers
        ("internal-k8s-default-kimik3-abc.us-west-2.elb.amazonaws.com", DOMAIN),
    ],
)
def test_the_name_verified(host, expected):
    certificate = OperatorCertificate(pem="", locations=(), domain_names=(DOMAIN,), health="Valid")
    assert certificate.server_name_for(host) == expected


def test_a_wildcard_covers_one_label_and_is_never_sent_as_a_name():
    certificate = OperatorCertificate(
        pem="", locations=(), domain_names=("*.example.internal", DOMAIN), health=None
    )
    assert certificate.server_name_for("a.example.internal") is None
    # two labels are not covered by the wildcard: the certificate's other name is verified
    assert certificate.server_name_for("a.b.example.internal") == DOMAIN
    # with only a wildcard, the URL's host is verified as it is (the handshake then says what is wrong)
    wildcard_only = OperatorCertificate(
        pem="", locations=(), domain_names=("*.example.internal",), health=None
    )
    assert wildcard_only.server_name_for("10.1.0.10") is None
