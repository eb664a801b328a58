"""llmops bench finds the environment's Prometheus workspace by its alias (ops_cli/workspace_acceptance.py): the alias
it looks for is the one the observability stack gives the workspace."""

from __future__ import annotations

from ops_cli import workspace_acceptance


def test_llmops_bench_looks_the_workspace_up_by_the_alias_the_stack_gives_it(
    synthesized, default_env
):
    # given the synthesized observability stack of the default example
    (workspace,) = synthesized.resources("observability", "AWS::APS::Workspace").values()
    # then its alias is the one llmops bench lists the workspaces by
    assert workspace["Properties"]["Alias"] == workspace_acceptance.workspace_alias(
        default_env.cluster_name
    )
