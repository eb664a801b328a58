"""What a failed kubectl (or other tool) call says: ops_cli/tools.py ``tool_failure``."""

from __future__ import annotations

import subprocess

import pytest

from ops_cli.tools import tool_failure


@pytest.mark.parametrize(
    "argv, named",
    [
        (
            [
                "/usr/local/bin/kubectl",
                "get",
                "pods",
                "-n",
                "llm-serving",
                "-l",
                "app=vllm",
                "-o",
                "json",
            ],
            "kubectl get pods -n llm-serving failed",
        ),
        (["kubectl", "get", "job", "bench-1", "-o", "json"], "kubectl get job bench-1 failed"),
        (
            ["kubectl", "get", "pods", "--namespace=x", "-o", "json"],
            "kubectl get pods --namespace=x failed",
        ),
    ],
)
def test_a_failed_tool_is_named_by_its_first_words_with_an_options_value(argv, named):
    # given kubectl that exited 1 with a message on stderr
    result = subprocess.CompletedProcess(
        argv, 1, "", "warning\nThe connection to the server was refused"
    )
    # when the failure is reported
    error = tool_failure(result)
    # then the message names the command without cutting an option from its value, and its last stderr line
    assert error.message == f"{named}: The connection to the server was refused"
    assert "the command was: " in error.fix
