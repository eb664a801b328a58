"""The way in, as the docs tell it: the README's quick start reaches the endpoint with ``llmops connect``, docs/access.md
shows the path and the command, and docs/troubleshooting.md has an entry for each error a new user meets on that path,
quoting the words the code prints (the placeholder guard's rule, SSM's error code, the context llmops connect writes)."""

from __future__ import annotations

import re
from pathlib import Path

import aws_cdk as cdk
from aws_cdk.assertions import Template

from cdk_constructs import placeholder_guard
from ops_cli import port_forward
from ops_cli.commands import connect
from tests.conftest import bare_app

PROJECT_DIR = Path(__file__).resolve().parents[2]
README = (PROJECT_DIR / "README.md").read_text(encoding="utf-8")
ACCESS = (PROJECT_DIR / "docs" / "access.md").read_text(encoding="utf-8")
TROUBLESHOOTING = (PROJECT_DIR / "docs" / "troubleshooting.md").read_text(encoding="utf-8")


def test_the_quick_start_reaches_the_endpoint_with_llmops_connect_before_the_smoke_test():
    quick_start = README.split("## Quick start", 1)[1].split("```", 2)[1]
    lines = quick_start.splitlines()
    connect_line = next(
        i for i, line in enumerate(lines) if line.startswith("bin/llmops connect --env prod")
    )
    smoke = next(i for i, line in enumerate(lines) if line.startswith("bin/llmops smoke-test"))
    assert connect_line < smoke
    # the URL the smoke test uses is the one connect forwards the plain endpoint to (its own port, 8000)
    assert "--url http://localhost:8000" in lines[smoke]


def test_access_page_pictures_the_path_and_names_the_command_and_its_defaults():
    section = ACCESS.split("## One command: `llmops connect`", 1)[1].split("\n## ", 1)[0]
    assert "```mermaid" in section
    assert port_forward.DOCUMENT in section
    assert f"`--api-port` ({connect.API_PORT})" in section
    assert f"{connect.TLS_LOCAL_PORT} for HTTPS" in section
    assert "NAME-via-ssm" in section


def test_troubleshooting_has_the_three_errors_of_the_way_in_in_the_codes_words():
    entries = re.findall(r"^\*\*(.+?)\*\*", TROUBLESHOOTING, re.M)
    assert any("kubectl` times out against the cluster API" in e for e in entries)
    assert any(port_forward.NOT_CONNECTED in e for e in entries)
    placeholder = next(e for e in entries if "placeholder values" in e)
    # the message CloudFormation shows is the rule's assertion description
    assert (
        "Not deployed: config/….yaml still holds the example's placeholder values in" in placeholder
    )
    stack = cdk.Stack(bare_app(), "Guarded")
    placeholder_guard.refuse_placeholders(
        stack, source="config/prod.yaml", fields=["account"], how_to_fix="Fix."
    )
    rules = Template.from_stack(stack).to_json()["Rules"]
    described = rules[placeholder_guard.RULE_ID]["Assertions"][0]["AssertDescription"]
    assert described.startswith(
        "Not deployed: config/prod.yaml still holds the example's placeholder values in "
    )
    assert placeholder_guard.RULE_ID in TROUBLESHOOTING


def test_the_hyperpod_quick_start_has_the_eks_steps_in_order_in_at_most_20_lines():
    page = (PROJECT_DIR / "docs" / "hyperpod.md").read_text(encoding="utf-8")
    block = page.split("## Quick start", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    lines = block.strip().splitlines()
    assert len(lines) <= 20
    steps = [
        "cp config/example-hyperpod.yaml",
        "make check-config",
        "npx cdk bootstrap",
        "npx cdk deploy -c env=prod prod-cluster prod-access",  # stage 1, before the plan
        "bin/llmops wait plan --env prod",
        "npx cdk deploy -c env=prod prod-hyperpod-prereqs",  # stage 2
        "bin/llmops connect --env prod",
        "bin/llmops smoke-test --url https://localhost:",  # through the forward, not the load balancer's name
    ]
    found = [-1]
    for step in steps:  # each after the one before (connect comes twice: the API at stage 1, the endpoint at the end)
        found.append(next(i for i in range(found[-1] + 1, len(lines)) if lines[i].startswith(step)))
    # the smoke test's port is the one connect forwards HTTPS to
    assert f"https://localhost:{connect.TLS_LOCAL_PORT}" in lines[found[-1]]
