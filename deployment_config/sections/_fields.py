"""What every section model shares: strict, frozen models; a field check raises its own error (``fail``) or notes an
item's (``report``); the text and AWS-rule checks as validators."""

from __future__ import annotations

import difflib
from typing import Annotated

from pydantic import AfterValidator, ConfigDict, Field, ValidationInfo
from pydantic_core import PydanticCustomError

from deployment_config import aws_rules
from deployment_config.ec2_instance_types import known_instance_types
from deployment_config.errors import ConfigIssue, Problem, quoted

_STRICT = ConfigDict(extra="forbid", strict=True, frozen=True)


def fail(problem: Problem) -> None:
    """Raise ``problem`` as a validation error of the field being validated."""
    raise PydanticCustomError(
        "config", "{problem}", {"problem": problem.problem, "fix": problem.fix}
    )


def report(info: ValidationInfo, field: str, problem: Problem) -> None:
    """Record a problem of an item of the field being validated (list items, map keys): the field itself stays valid."""
    info.context.setdefault("issues", []).append(ConfigIssue(field, problem.problem, problem.fix))


def pattern(regex: str) -> dict[str, str]:
    """The JSON schema's ``pattern`` for a field whose validator checks ``re.fullmatch(regex, value)``: the schema and
    the check read one regex."""
    return {"pattern": f"^{regex}$"}


def _rule(check):  # noqa: ANN001, ANN202
    """An AfterValidator from a rule of :mod:`deployment_config.aws_rules` (value -> Problem | None)."""

    def validate(value):  # noqa: ANN001, ANN202
        problem = check(value)
        if problem:
            fail(problem)
        return value

    return AfterValidator(validate)


def _text(max_length: int):  # noqa: ANN202
    return _rule(lambda value: aws_rules.text_problem(value, max_length=max_length))


Cidr = Annotated[str, Field(description="a CIDR block, for example 203.0.113.0/24")]


def _report_cidrs(info: ValidationInfo, field: str, cidrs: list[str]) -> None:
    for index, problem in aws_rules.allowed_cidrs_problems(cidrs):
        report(info, field if index is None else f"{field}[{index}]", problem)


def fail_unknown_instance_type(value: str, use: str) -> None:
    """Fail when ``value`` is not an EC2 instance type (deployment_config/ec2_instance_types.py), suggesting the
    closest one; ``use`` says what to use instead."""
    if value not in known_instance_types():
        close = difflib.get_close_matches(value, sorted(known_instance_types()), n=1)
        fail(
            Problem(
                f"{quoted(value)} is not an EC2 instance type",
                (f"did you mean '{close[0]}'? " if close else "") + use,
            )
        )
