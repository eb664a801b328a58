"""llmops against an endpoint behind TLS, as the EKS path's load balancer serves it with an ACM certificate: a local
server with a certificate for a name (issued by a test CA made here), reached by its address, with --tls-server-name
(or the environment's endpoint.domain_name) sending and verifying that name and --ca-bundle trusting the test CA."""

from __future__ import annotations

import datetime
import ssl
from dataclasses import dataclass
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from ops_cli.errors import ExitCode
from tests.ops_cli.openai_server import Behaviour, openai_server

DOMAIN = "llm.example.com"
CERTIFICATE_ARN = (
    "arn:aws:acm:us-west-2:123456789012:certificate/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
)


@dataclass(frozen=True)
class Pki:
    ca_file: Path  # the test CA's certificate, PEM
    cert_file: Path  # the server's certificate for DOMAIN, then the CA's
    key_file: Path


def _name(common_name: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


@pytest.fixture(scope="session")
def pki(tmp_path_factory) -> Pki:
    """A CA and a server certificate for DOMAIN signed by it, valid for a day, made once per session."""
    directory = tmp_path_factory.mktemp("pki")
    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_cert = (
        x509.CertificateBuilder()
        .subject_name(_name("llmops test CA"))
        .issuer_name(_name("llmops test CA"))
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                key_cert_sign=True,
                crl_sign=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(
            x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False
        )
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder()
        .subject_name(_name(DOMAIN))
        .issuer_name(ca_cert.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(DOMAIN)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False
        )
        .sign(ca_key, hashes.SHA256())
    )
    pem = serialization.Encoding.PEM
    pki = Pki(directory / "ca.pem", directory / "server.pem", directory / "server.key")
    pki.ca_file.write_bytes(ca_cert.public_bytes(pem))
    pki.cert_file.write_bytes(cert.public_bytes(pem) + ca_cert.public_bytes(pem))
    pki.key_file.write_bytes(
        key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return pki


@pytest.fixture
def tls_server(pki):
    """A TLS server context for DOMAIN that records the server names clients send (SNI)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(pki.cert_file, pki.key_file)
    context.sni_names = []
    context.sni_callback = lambda sock, name, ctx: context.sni_names.append(name)
    return context


def test_smoke_test_by_address_verifies_the_certificate_for_the_server_name(run, pki, tls_server):
    # given the endpoint's TLS listener with a certificate for DOMAIN, reached by its address (no DNS record yet)
    with openai_server(Behaviour(), tls=tls_server) as url:
        # when the smoke test sends and verifies DOMAIN, trusting the CA that issued the certificate
        result = run(
            "smoke-test",
            "--url",
            url,
            "--tls-server-name",
            DOMAIN,
            "--ca-bundle",
            str(pki.ca_file),
            "--json",
        )
    # then it passes over TLS, and the server was asked for DOMAIN in every handshake
    assert result.code == ExitCode.OK, result.stdout + result.stderr
    assert result.json["passed"] and result.json["tls_server_name"] == DOMAIN
    assert tls_server.sni_names and set(tls_server.sni_names) == {DOMAIN}


def test_a_certificate_for_another_name_fails_with_the_name_and_the_fix(run, pki, tls_server):
    with openai_server(Behaviour(), tls=tls_server) as url:
        result = run(
            "smoke-test",
            "--url",
            url,
            "--tls-server-name",
            "other.example.com",
            "--ca-bundle",
            str(pki.ca_file),
        )
    assert result.code == ExitCode.CHECK_FAILED
    assert "not valid for 'other.example.com'" in result.stderr
    assert "fix:" in result.stderr and "--tls-server-name" in result.stderr, result.stderr


def test_a_certificate_of_an_untrusted_ca_fails_and_names_ca_bundle(run, tls_server):
    # given no --ca-bundle: the system's store does not know the test CA
    with openai_server(Behaviour(), tls=tls_server) as url:
        result = run("smoke-test", "--url", url, "--tls-server-name", DOMAIN)
    assert result.code == ExitCode.CHECK_FAILED
    assert f"not valid for '{DOMAIN}'" in result.stderr and "--ca-bundle" in result.stderr


def test_wait_endpoint_with_the_server_name_becomes_healthy(run, pki, tls_server):
    with openai_server(Behaviour(), tls=tls_server) as url:
        result = run(
            "wait",
            "endpoint",
            "--url",
            url,
            "--tls-server-name",
            DOMAIN,
            "--ca-bundle",
            str(pki.ca_file),
            "--json",
        )
    assert result.code == ExitCode.OK, result.stdout + result.stderr
    assert result.json["healthy"] and result.json["tls_server_name"] == DOMAIN


def test_wait_endpoint_stops_at_once_on_a_certificate_for_another_name(run, pki, tls_server, clock):
    # a certificate that does not match does not get better with time: no three-hour wait
    with openai_server(Behaviour(), tls=tls_server) as url:
        result = run(
            "wait",
            "endpoint",
            "--url",
            url,
            "--tls-server-name",
            "other.example.com",
            "--ca-bundle",
            str(pki.ca_file),
        )
    assert result.code == ExitCode.CHECK_FAILED
    assert "not valid for 'other.example.com'" in result.stderr
    assert clock.sleeps == []


def test_with_env_the_environments_domain_is_the_default_server_name(
    run, config_dir, pki, tls_server
):
    # given an environment whose endpoint has TLS for DOMAIN (and no API key, so that no secret is read)
    text = (config_dir / "example.yaml").read_text()
    (config_dir / "secure.yaml").write_text(
        text.replace(
            "  exposure: internal",
            f"  exposure: internal\n  authentication: none\n  certificate_arn: {CERTIFICATE_ARN}\n"
            f"  domain_name: {DOMAIN}",
        )
    )
    # when the smoke test reaches the load balancer by another name (here its address), without --tls-server-name
    with openai_server(Behaviour(api_key=None), tls=tls_server) as url:
        result = run(
            "smoke-test", "--url", url, "--env", "secure", "--ca-bundle", str(pki.ca_file), "--json"
        )
    # then it verifies the certificate for the environment's domain
    assert result.code == ExitCode.OK, result.stdout + result.stderr
    assert result.json["tls_server_name"] == DOMAIN and set(tls_server.sni_names) == {DOMAIN}


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("--url", "http://127.0.0.1:9", "--tls-server-name", DOMAIN), "is http://"),
        (
            ("--url", "https://127.0.0.1:9", "--tls-server-name", "llm_serving.example.com"),
            "--tls-server-name",
        ),
        (("--url", "https://127.0.0.1:9", "--tls-server-name", "localhost"), "--tls-server-name"),
        (("--url", "https://127.0.0.1:9", "--ca-bundle", "/nonexistent/ca.pem"), "--ca-bundle"),
    ],
)
def test_tls_options_that_cannot_work_are_usage_errors_before_any_request(run, arguments, message):
    for command in (("smoke-test",), ("wait", "endpoint")):
        result = run(*command, *arguments)
        assert result.code == ExitCode.USAGE, (command, result.stderr)
        assert message in result.stderr and "fix:" in result.stderr


def test_a_ca_bundle_that_is_not_pem_is_a_usage_error(run, tmp_path):
    (bundle := tmp_path / "ca.pem").write_text("not a certificate")
    result = run("smoke-test", "--url", "https://127.0.0.1:9", "--ca-bundle", str(bundle))
    assert result.code == ExitCode.USAGE and "--ca-bundle" in result.stderr
