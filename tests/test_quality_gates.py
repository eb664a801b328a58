"""The gates every synthesized template and manifest must pass: cfn-lint, cdk-nag, Kubernetes schemas."""

from __future__ import annotations

import json
import subprocess
import sys

import kubernetes_validate
import yaml


def test_cfn_lint_finds_no_errors_in_any_template(synthesized):
    templates = [str(synthesized.directory / a["properties"]["templateFile"])
                 for a in synthesized.manifest["artifacts"].values() if a["type"] == "aws:cloudformation:stack"]
    assert len(templates) == 4
    result = subprocess.run([sys.executable, "-m", "cfnlint", "--format", "json", *templates],
                            capture_output=True, text=True, timeout=300)
    findings = json.loads(result.stdout or "[]")
    errors = [f for f in findings if f["Level"] == "Error"]
    assert errors == [], json.dumps(errors, indent=1)


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
    assert suppressed, "the app acknowledges some findings; an empty list means the report format changed"
    for finding in suppressed:
        assert len(finding["reason"].split()) >= 5, finding["ruleName"]
        # acknowledged on the construct that has the finding, never on a whole stack
        assert "/" in finding["acknowledgedAt"], finding["acknowledgedAt"]


def test_every_kubernetes_manifest_validates_strictly(synthesized, default_env):
    objects = list(yaml.safe_load_all(synthesized.kubernetes_file.read_text()))
    assert {o["kind"] for o in objects} == {"Namespace", "ServiceAccount", "Deployment", "Service"}
    for resource in synthesized.resources("serving", "Custom::AWSCDK-EKS-KubernetesResource").values():
        objects += json.loads(resource["Properties"]["Manifest"])
    for obj in objects:
        kubernetes_validate.validate(obj, default_env.kubernetes_version, strict=True)
