"""deployment_config.aws_rules.tags: resource tags."""

from __future__ import annotations

import pytest

from deployment_config.aws_rules.tags import tags_problems
from tests.deployment_config.aws_rules.checks import refused

# ---------------------------------------------------------------------------------------------------- tags


def test_ordinary_tags_are_accepted():
    tags = {
        "project": "kimi-k3-serving",
        "owner": "platform team",
        "cost-center": "42",
        "名前": "値",
        "a_b.c:d/e=f+g-h@i": "",
        "k": "v" * 256,
        "k" * 128: "v",
    }
    assert tags_problems(tags, reserved_keys=("environment",)) == []


@pytest.mark.parametrize(
    ("tags", "words"),
    [
        ({"environment": "prod"}, ("set by the project",)),
        ({"aws:cloudformation": "x"}, ("aws:",)),
        ({"AwS:x": "x"}, ("aws:",)),
        ({"team": "AWS:x"}, ("value", "aws:")),
        ({"": "x"}, ("empty",)),
        ({"k" * 129: "x"}, ("129 characters", "128")),
        ({"k": "v" * 257}, ("257 characters", "256")),
        ({"cost#center": "x"}, ("'#'", "position 5")),
        ({"team": "a\nb"}, ("line feed",)),
        ({"team": "a\u2028b"}, ("line separator",)),
        ({"team": "x\u200b"}, ("zero width space",)),
    ],
)
def test_bad_tags_are_refused_by_key(tags, words):
    problems = tags_problems(tags, reserved_keys=("environment",))
    assert [key for key, _ in problems] == list(tags)
    refused(problems[0][1], *words)


def test_reserved_keys_count_toward_the_fifty():
    assert tags_problems({f"k{i}": "v" for i in range(49)}, reserved_keys=("environment",)) == []
    assert tags_problems({f"k{i}": "v" for i in range(50)}) == []
    problems = tags_problems({f"k{i}": "v" for i in range(50)}, reserved_keys=("environment",))
    assert [key for key, _ in problems] == [None]
    refused(problems[0][1], "51", "at most 50", "at most 49")
