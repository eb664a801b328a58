"""TLS on the EKS path's load balancer, from the configuration to the stack's outputs and the pipeline's smoke step.

One more synthesis, for the session, shared with tests/cdk_constructs/test_serving_secrets.py (tests/shared_variants.py):
the example environment with an ACM certificate and its domain, as ``shared`` (cdk-nag runs on it, cfn-lint checks its
serving template); the pipeline's smoke step is checked on an environment stage built without a pipeline synthesis.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cfn_lint import cfn_lint_errors
from tests.conftest import bare_app
from tests.shared_variants import CERTIFICATE, DOMAIN


@pytest.fixture(scope="module")
def tls_env(serving_variant_envs, default_env):
    # the serving variant with TLS (tests/shared_variants.py): the example with an ACM certificate and its domain, and
    # the API key, token and S3 weights tests/cdk_constructs/test_serving_secrets.py reads of it
    env = serving_variant_envs["shared"]
    assert (env.endpoint.certificate_arn, env.endpoint.domain_name) == (CERTIFICATE, DOMAIN)
    assert (
        env.endpoint.model_copy(update={"certificate_arn": None, "domain_name": None})
        == default_env.endpoint
    )
    return env


@pytest.fixture(scope="module")
def tls_assembly(serving_variants_assembly):
    return serving_variants_assembly


def _outputs(tls_assembly, tls_env) -> dict[str, dict]:
    return tls_assembly.get_stack_by_name(tls_env.stack_name("serving")).template["Outputs"]


def _hostname_value(outputs: dict[str, dict]):
    """The value the hostname output reads from the Service, as CloudFormation resolves it (Fn::GetAtt)."""
    return outputs["LoadBalancerHostname"]["Value"]


def test_with_tls_the_endpoint_url_is_the_https_domain(tls_assembly, tls_env):
    outputs = _outputs(tls_assembly, tls_env)
    # clients use the domain the certificate covers, on the default HTTPS port
    assert outputs["EndpointUrl"]["Value"] == f"https://{DOMAIN}"


def test_with_tls_the_load_balancer_hostname_is_an_output_and_the_dns_record_is_explained(
    tls_assembly, tls_env, synthesized
):
    outputs = _outputs(tls_assembly, tls_env)
    # the load balancer's name, read from the Service's status: the same value the EndpointUrl holds without TLS
    hostname = _hostname_value(outputs)
    attribute = hostname["Fn::GetAtt"]
    assert attribute[1] == "Value" and attribute[0].startswith("LoadBalancerHostname")
    plain_url = synthesized.template("serving")["Outputs"]["EndpointUrl"]["Value"]["Fn::Join"][1]
    assert (
        plain_url[0] == "http://"
        and plain_url[1]["Fn::GetAtt"][0] == attribute[0]
        and plain_url[2] == ":8000"
    )
    # the note names the record to create, its target, and how to test before it exists
    separator, parts = outputs["DnsRecordNote"]["Value"]["Fn::Join"]
    note = separator.join(p if isinstance(p, str) else "HOSTNAME" for p in parts)
    assert f"CNAME record {DOMAIN} -> HOSTNAME" in note
    assert f"--url https://HOSTNAME --tls-server-name {DOMAIN}" in note


def test_without_tls_the_outputs_are_unchanged(synthesized):
    outputs = synthesized.template("serving")["Outputs"]
    assert "LoadBalancerHostname" not in outputs and "DnsRecordNote" not in outputs


def test_the_applied_service_carries_the_certificate_and_listens_on_443(tls_assembly, tls_env):
    template = tls_assembly.get_stack_by_name(tls_env.stack_name("serving")).template
    (manifest,) = [
        r
        for r in template["Resources"].values()
        if r["Type"] == "Custom::AWSCDK-EKS-KubernetesResource"
    ]
    (service,) = [
        o for o in json.loads(manifest["Properties"]["Manifest"]) if o["kind"] == "Service"
    ]
    assert (
        service["metadata"]["annotations"]["service.beta.kubernetes.io/aws-load-balancer-ssl-cert"]
        == CERTIFICATE
    )
    assert [(p["name"], p["port"], p["targetPort"]) for p in service["spec"]["ports"]] == [
        ("https", 443, 8000)
    ]


def test_the_tls_serving_template_passes_cfn_lint(tls_assembly, tls_env):
    stack = tls_assembly.get_stack_by_name(tls_env.stack_name("serving"))
    template = Path(tls_assembly.directory) / stack.template_file
    assert cfn_lint_errors([template], [tls_env.region]) == []


def test_the_tls_environment_passes_cdk_nag(tls_assembly):
    report = json.loads((Path(tls_assembly.directory) / "validation-report.json").read_text())
    (aws_solutions,) = [p for p in report["pluginReports"] if p["pluginName"] == "AwsSolutions"]
    assert aws_solutions["conclusion"] == "success" and aws_solutions["violations"] == []


# --- the pipeline's smoke step ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tls_smoke_step(tls_env):
    """The smoke step of a pipeline stage of the TLS environment, built without synthesizing a pipeline."""
    import aws_cdk as cdk
    from aws_cdk import pipelines

    from stacks.pipeline_stack import EnvironmentStage, smoke_test_step

    app = bare_app()
    stage = EnvironmentStage(
        app,
        tls_env.name,
        env_config=tls_env,
        env=cdk.Environment(account=tls_env.account, region=tls_env.region),
    )
    source = pipelines.CodePipelineSource.connection(
        "my-org/llm-serving",
        "main",
        connection_arn="arn:aws:codeconnections:us-west-2:111111111111:connection/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
    )
    return stage, smoke_test_step(source, stage, tls_env)


def test_with_tls_the_smoke_step_tests_the_load_balancer_by_its_name_verifying_the_domain(
    tls_smoke_step, tls_env
):
    stage, step = tls_smoke_step
    # the step takes the load balancer's name from the serving stack's output, not the URL of the DNS record it
    # cannot rely on
    ((name, reference),) = step.env_from_cfn_outputs.items()
    assert name == "LOAD_BALANCER_HOSTNAME"
    serving = stage.environment.stack("serving")
    assert reference.output_name == serving.resolve(serving.load_balancer_hostname.logical_id)
    assert step.commands == [
        f'bin/llmops wait endpoint --url "https://$LOAD_BALANCER_HOSTNAME" --tls-server-name {DOMAIN} '
        f"--env {tls_env.name} --timeout 10000 --interval 60",
        f'bin/llmops smoke-test --url "https://$LOAD_BALANCER_HOSTNAME" --tls-server-name {DOMAIN} '
        f"--env {tls_env.name} --json",
    ]
