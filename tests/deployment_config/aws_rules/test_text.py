"""deployment_config.aws_rules.text: the check every string field goes through."""

from __future__ import annotations

import pytest

from deployment_config.aws_rules.text import text_problem
from tests.deployment_config.aws_rules.checks import HUGE, bounded, refused

# ---------------------------------------------------------------------------------------------------- text


@pytest.mark.parametrize("value", ["ok", "", "naïve café", "a b", "x" * 10])
def test_plain_text_is_accepted(value):
    assert text_problem(value, max_length=10) is None


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("ok\n", ("line feed", "at the end")),
        ("a\tb", ("tab", "position 2")),
        ("a\x00", ("nul",)),
        ("a\u200bb", ("zero width space",)),
        ("\u202eabc", ("right-to-left override",)),
        ("\ufeffabc", ("zero width no-break space",)),
        ("a\u2028b", ("line separator",)),
        ("\ud800", ("surrogate",)),
        ("a\x85", ("next line",)),
        (" x", ("whitespace",)),
        ("x ", ("whitespace",)),
        ("x\u3000", ("whitespace",)),
        ("x" * 11, ("11 characters", "at most 10")),
    ],
)
def test_control_characters_whitespace_and_length_are_refused(value, words):
    refused(text_problem(value, max_length=10), *words)


def test_huge_text_message_is_bounded():
    bounded(refused(text_problem(HUGE, max_length=100), "3000 characters"), HUGE)
