"""deployment_config.aws_rules.git: git branch names."""

from __future__ import annotations

import pytest

from deployment_config.aws_rules.git import git_branch_problem
from tests.deployment_config.aws_rules.checks import refused

# ---------------------------------------------------------------------------------------------------- git branches


@pytest.mark.parametrize(
    "branch", ["main", "release/2026-11", "feature/x.y", "a@b", "v1.0", "café", "a-", "a/b/c"]
)
def test_branch_names_are_accepted(branch):
    assert git_branch_problem(branch) is None


@pytest.mark.parametrize(
    "branch",
    [
        "",
        "-x",
        "HEAD",
        "@",
        "a..b",
        "a@{1}",
        "/a",
        "a/",
        "a//b",
        "a.",
        "a/.b",
        ".a",
        "a.lock",
        "a/b.lock/c",
        "a b",
        "a~1",
        "a^",
        "a:b",
        "a?",
        "a*",
        "a[b",
        "a\\b",
        "a\x7fb",
        "a\x00b",
        "a\tb",
        "a\nb",
        "\ud800",
    ],
)
def test_branch_names_git_refuses_are_refused(branch):
    refused(git_branch_problem(branch))
