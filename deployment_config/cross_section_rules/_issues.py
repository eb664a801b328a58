"""How a rule between sections words what it finds."""

from __future__ import annotations

from collections.abc import Iterator

from deployment_config.errors import ConfigIssue, Problem


def refuse(field: str, problem: Problem | None) -> Iterator[ConfigIssue]:
    if problem is not None:
        yield ConfigIssue(field, problem.problem, problem.fix)


def note(field: str, problem: str, fix: str) -> ConfigIssue:
    return ConfigIssue(field, problem, fix)
