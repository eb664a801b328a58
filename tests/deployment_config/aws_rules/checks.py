"""What the tests of deployment_config.aws_rules share: how a refusal is checked, and an ARN rule to exercise."""

from __future__ import annotations

from hypothesis import settings

from deployment_config.aws_rules import arn_problem
from deployment_config.errors import MAX_QUOTED, Problem

FAST = settings(max_examples=120, deadline=None)
HUGE = "x" * 3000
ACCOUNT = "123456789012"


def refused(problem: Problem | None, *words: str) -> Problem:
    """``problem`` is a Problem whose text (problem and fix) contains every one of ``words``."""
    assert isinstance(problem, Problem), problem
    assert problem.problem and problem.fix
    text = f"{problem.problem} | {problem.fix}"
    for word in words:
        assert word in text, (word, text)
    return problem


def bounded(problem: Problem, value: str) -> None:
    """A message never carries the whole of a long value."""
    assert len(problem.problem) + len(problem.fix) < 1200
    if len(value) > 2 * MAX_QUOTED:
        assert value not in problem.problem and value not in problem.fix


PLAN = "arn:aws:sagemaker:us-west-2:123456789012:training-plan/my-plan"


def plan_problem(
    arn: str, region: str | None = "us-west-2", account: str | None = ACCOUNT
) -> Problem | None:
    return arn_problem(
        arn,
        service="sagemaker",
        resource_pattern=r"training-plan/[a-z0-9-]{1,63}",
        region=region,
        account=account,
        what="training plan",
        resource_example="training-plan/NAME",
    )
