"""The gates every synthesized template and manifest must pass: cfn-lint, cdk-nag, Kubernetes schemas."""

from __future__ import annotations

import json

import kubernetes_validate
import pytest
import yaml

from tests.cfn_lint import cfn_lint_errors


def test_cfn_lint_finds_no_errors_in_any_template(synthesized):
    templates = [
        str(synthesized.directory / a["properties"]["templateFile"])
        for a in synthesized.manifest["artifacts"].values()
        if a["type"] == "aws:cloudformation:stack"
    ]
    assert len(templates) == 12  # 5 stacks of the EKS example, 7 of the HyperPod example
    # Linted for the region the templates deploy to: region-specific checks (instance types) run against it.
    regions = sorted(
        {
            a["environment"].rsplit("/", 1)[-1]
            for a in synthesized.manifest["artifacts"].values()
            if a["type"] == "aws:cloudformation:stack"
        }
    )
    assert regions == ["us-west-2"]
    errors = cfn_lint_errors(templates, regions)
    assert errors == [], json.dumps(errors, indent=1)


#: A template with a misspelt property and an instance type that does not exist.
BROKEN_TEMPLATE = {
    "Resources": {
        "Bucket": {"Type": "AWS::S3::Bucket", "Properties": {"BucketNam": "weights"}},
        "Node": {
            "Type": "AWS::EC2::Instance",
            "Properties": {"ImageId": "ami-12345678", "InstanceType": "p6-b300.48xlarg"},
        },
    }
}


def test_cfn_lint_reports_the_errors_of_a_broken_template(tmp_path):
    # given a template with a misspelt property and an instance type that does not exist
    template = tmp_path / "broken.template.json"
    template.write_text(json.dumps(BROKEN_TEMPLATE))
    # when it is linted as the gates lint
    errors = cfn_lint_errors([template], ["us-west-2"])
    # then both mistakes are errors, each named by its rule and place
    assert {(e["Rule"]["Id"], e["Location"]["Path"][1]) for e in errors} >= {
        ("E3002", "Bucket"),
        ("E3628", "Node"),
    }


def _plugin_report(synthesized, name: str) -> dict:
    report = json.loads((synthesized.directory / "validation-report.json").read_text())
    return {p["pluginName"]: p for p in report["pluginReports"]}[name]


def test_cdk_nag_aws_solutions_has_no_unacknowledged_finding(synthesized):
    # Synthesis fails outright on a finding; the report proves the pack ran over the app and passed.
    aws_solutions = _plugin_report(synthesized, "AwsSolutions")
    assert aws_solutions["conclusion"] == "success"
    assert aws_solutions["violations"] == []


def test_every_acknowledged_finding_has_a_written_reason(synthesized):
    suppressed = _plugin_report(synthesized, "AwsSolutions")["suppressedViolations"]
    assert suppressed, (
        "the app acknowledges some findings; an empty list means the report format changed"
    )
    for finding in suppressed:
        assert len(finding["reason"].split()) >= 5, finding["ruleName"]
        # acknowledged on the construct that has the finding, never on a whole stack
        assert "/" in finding["acknowledgedAt"], finding["acknowledgedAt"]


def test_every_kubernetes_manifest_validates_strictly(
    synthesized, synthesized_hyperpod, default_env
):
    """Built-in kinds against the Kubernetes schema of the configured version; the operator's kinds against its CRD."""
    from tests.cdk_constructs.test_serving_secrets import validate_secret_provider_class
    from tests.crd_schema import validate_custom_resource

    objects = list(yaml.safe_load_all(synthesized.kubernetes_file.read_text()))
    assert {o["kind"] for o in objects} == {
        "Namespace",
        "ServiceAccount",
        "SecretProviderClass",
        "ConfigMap",
        "Deployment",
        "DaemonSet",
        "Service",
        "NetworkPolicy",
    }
    objects += list(yaml.safe_load_all(synthesized_hyperpod.kubernetes_file.read_text()))
    for view, unit in ((synthesized, "serving"), (synthesized_hyperpod, "endpoint")):
        for resource in view.resources(unit, "Custom::AWSCDK-EKS-KubernetesResource").values():
            objects += json.loads(resource["Properties"]["Manifest"])
    custom = secret_providers = 0
    for obj in objects:
        if obj["apiVersion"].startswith("inference.sagemaker.aws.amazon.com/"):
            validate_custom_resource(obj)
            custom += 1
        elif obj["apiVersion"].startswith("secrets-store.csi.x-k8s.io/"):
            validate_secret_provider_class(
                obj
            )  # against the driver's CRD (tests/data), unknown fields refused
            secret_providers += 1
        else:
            kubernetes_validate.validate(obj, default_env.kubernetes_version, strict=True)
    assert custom == 2  # the reviewed file and the applied manifest
    assert (
        secret_providers == 4
    )  # the same two for the API key's SecretProviderClass, on each platform


def test_a_failed_shared_synthesis_fails_the_tests_that_read_it_with_its_traceback(
    tmp_path, monkeypatch
):
    from tests import conftest

    # given the background synthesis failed on the default app (a cdk-nag finding, say) and wrote why
    (tmp_path / "default-app.error").write_text(
        "Traceback ...\nValidationError: AwsSolutions-IAM5 on example-cluster"
    )
    monkeypatch.setenv(conftest.BACKGROUND_DIR_VARIABLE, str(tmp_path))
    # when a test asks for the default app, then it fails at once with that traceback, not after the timeout
    with pytest.raises(
        pytest.fail.Exception,
        match=r"(?s)default-app failed:\n.*AwsSolutions-IAM5 on example-cluster",
    ):
        conftest._finished_synthesis("default-app")


def test_a_template_of_the_same_content_is_linted_once_and_reported_under_each_name(
    tmp_path, monkeypatch
):
    from cfnlint.runner.template import runner

    # given the broken template under two names, and another content (contents no other test lints)
    first, second, other = (tmp_path / f"{n}.template.json" for n in ("first", "second", "other"))
    first.write_text(json.dumps({**BROKEN_TEMPLATE, "Description": f"one content {tmp_path}"}))
    second.write_bytes(first.read_bytes())
    other.write_text(json.dumps({**BROKEN_TEMPLATE, "Description": f"another {tmp_path}"}))
    linted = []
    run = runner.run_template_by_file_paths
    monkeypatch.setattr(
        runner,
        "run_template_by_file_paths",
        lambda config, rules: linted.extend(config.templates) or run(config, rules),
    )
    # when the first is linted, then the second with the other, as two tests of one process lint them
    alone = cfn_lint_errors([first], ["us-west-2"])
    together = cfn_lint_errors([second, other], ["us-west-2"])
    # then cfn-lint read the content of the first once, and each file's errors carry its own name
    assert linted == [str(first), str(other)]
    by_file = {
        name: sorted(
            (e["Rule"]["Id"], e["Location"]["Path"][1]) for e in together if e["Filename"] == name
        )
        for name in (str(second), str(other))
    }
    assert by_file[str(second)] == sorted(
        (e["Rule"]["Id"], e["Location"]["Path"][1]) for e in alone
    )
    assert by_file[str(second)] == by_file[str(other)] and by_file[str(second)]
    assert {e["Filename"] for e in alone} == {str(first)}
