"""deployment_config.aws_rules: no rule raises on any text, and no message repeats a huge value (every rule)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from deployment_config.aws_rules import (
    account_problem,
    allowed_cidrs_problems,
    git_branch_problem,
    hugging_face_id_problem,
    image_problem,
    region_problem,
    role_arn_problem,
    role_name_problem,
    tags_problems,
    text_problem,
    vpc_cidr_problem,
    zone_problem,
)
from deployment_config.errors import Problem
from tests.deployment_config.aws_rules.checks import bounded, plan_problem

# ---------------------------------------------------------------------------------------------------- every rule

SINGLE_VALUE_RULES = [
    region_problem,
    account_problem,
    vpc_cidr_problem,
    hugging_face_id_problem,
    image_problem,
    git_branch_problem,
    role_name_problem,
    lambda v: zone_problem(v, region="us-west-2"),
    lambda v: role_arn_problem(v, partition="aws"),
    lambda v: plan_problem(v),
    lambda v: text_problem(v, max_length=50),
]


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=60) | st.text(alphabet="arn:aws-iam/0123456789.@{}[]\\~^ \n", max_size=60))
def test_no_rule_raises_on_any_text(value):
    for rule in SINGLE_VALUE_RULES:
        problem = rule(value)
        assert problem is None or (
            isinstance(problem.problem, str) and isinstance(problem.fix, str)
        )
    for _, problem in allowed_cidrs_problems([value, value]):
        assert isinstance(problem, Problem)
    for _, problem in tags_problems({value: value}):
        assert isinstance(problem, Problem)


@settings(max_examples=30, deadline=None)
@given(st.text(min_size=1, max_size=20))
def test_no_message_repeats_a_huge_value(tail):
    value = "arn:aws:iam::123456789012:role/" + "é" * 2500 + tail
    for rule in SINGLE_VALUE_RULES:
        problem = rule(value)
        if problem is not None:
            bounded(problem, value)
    for _, problem in allowed_cidrs_problems([value]) + tags_problems({value: value}):
        bounded(problem, value)
