"""deployment_config.aws_rules.regions: regions, partitions and Availability Zones, accepted and refused."""

from __future__ import annotations

import json
import re
import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deployment_config.aws_rules.regions import (
    _ZONE_DATA,
    _zone_table,
    known_partitions,
    known_regions,
    partition_of,
    region_problem,
    zone_letters,
    zone_problem,
)
from tests.deployment_config.aws_rules.checks import FAST, HUGE, bounded, refused

# ---------------------------------------------------------------------------------------------------- regions


def test_every_real_region_is_accepted_and_has_a_partition():
    assert "us-west-2" in known_regions() and "cn-north-1" in known_regions()
    for region in known_regions():
        assert region_problem(region) is None
        assert partition_of(region) in known_partitions()
    assert partition_of("us-west-2") == "aws"
    assert partition_of("cn-northwest-1") == "aws-cn"
    assert partition_of("us-gov-west-1") == "aws-us-gov"


@pytest.mark.parametrize("region", ["aws-global", "aws-cn-global", "aws-us-gov-global"])
def test_pseudo_regions_are_refused(region):
    assert region not in known_regions()
    refused(region_problem(region), "global endpoint")


def test_misspelt_region_gets_the_closest_real_one():
    refused(region_problem("us-wset-2"), "is not an AWS region", "did you mean 'us-west-2'")
    refused(region_problem("US-WEST-2"), "did you mean 'us-west-2'")


@pytest.mark.parametrize(
    "region", ["zz-fake-9", "", "us-west-2 x", "us-wést-2", "us-west-2\x00", "us–west–2"]
)
def test_unknown_regions_are_refused(region):
    refused(region_problem(region), "not an AWS region")


def test_region_with_a_trailing_newline_says_so():
    refused(region_problem("us-west-2\n"), "whitespace", "'us-west-2'")


def test_huge_region_message_is_bounded():
    bounded(refused(region_problem(HUGE), "3000 characters"), HUGE)


def test_partition_of_refuses_a_non_region():
    with pytest.raises(ValueError):
        partition_of("aws-global")


@FAST
@given(st.text(max_size=40))
def test_random_text_that_is_not_a_region_is_refused(text):
    problem = region_problem(text)
    assert (problem is None) == (text in known_regions())
    if problem is not None:
        bounded(problem, text)


@FAST
@given(st.sampled_from(sorted(known_regions())))
def test_any_real_region_is_accepted(region):
    assert region_problem(region) is None


# ---------------------------------------------------------------------------------------------------- zones


@pytest.mark.parametrize("zone", ["us-west-2a", "us-west-2b", "us-west-2c", "us-west-2d"])
def test_zones_of_us_west_2_are_accepted(zone):
    assert zone_problem(zone, region="us-west-2") is None


def test_a_letter_the_region_does_not_have_is_refused():
    refused(
        zone_problem("us-west-2z", region="us-west-2"),
        "no Availability Zone 'us-west-2z'",
        "us-west-2d",
    )
    refused(zone_problem("us-west-2e", region="us-west-2"), "no Availability Zone")
    refused(zone_problem("us-east-2d", region="us-east-2"), "us-east-2c")


def test_local_and_wavelength_zones_are_refused():
    refused(
        zone_problem("us-west-2-lax-1a", region="us-west-2"),
        "Local Zone",
        "regular Availability Zone",
        "us-west-2a",
    )
    refused(zone_problem("us-east-1-wl1-bos-wlz-1", region="us-east-1"), "Wavelength Zone")


@pytest.mark.parametrize(
    ("zone", "words"),
    [
        ("us-east-1a", ("zone of us-east-1", "region to us-east-1")),
        ("us-west-2A", ("upper-case", "'us-west-2a'")),
        ("us-west-2", ("followed by one",)),
        ("usw2-az1", ("followed by one",)),
        ("us-west-2aa", ("followed by one",)),
        ("us-west-2a\n", ("line feed",)),
        (" us-west-2a", ("whitespace",)),
        ("", ("followed by one",)),
    ],
)
def test_malformed_zones_are_refused(zone, words):
    refused(zone_problem(zone, region="us-west-2"), *words)


def test_zone_of_an_unknown_region_names_the_region():
    refused(zone_problem("zz-fake-9a", region="zz-fake-9"), "region", "not an AWS region")


def test_regions_missing_from_the_table_fall_back_to_a_to_f():
    assert "us-gov-west-1" not in _zone_table()
    assert zone_letters("us-gov-west-1") == "abcdef"
    assert zone_problem("us-gov-west-1f", region="us-gov-west-1") is None
    refused(zone_problem("us-gov-west-1g", region="us-gov-west-1"), "a-f assumed")


def test_zone_table_names_its_source_and_only_real_regions():
    data = json.loads(_ZONE_DATA.read_text(encoding="utf-8"))
    assert "docs.aws.amazon.com" in data["source"]["page"]
    assert data["regions"]["us-west-2"]["letters"] == "abcd"
    assert data["regions"]["us-east-1"]["letters"] == "abcdef"
    for region, entry in data["regions"].items():
        assert region in known_regions(), region
        assert (
            re.fullmatch(r"a[b-z]*", entry["letters"])
            and entry["letters"] == string.ascii_lowercase[: len(entry["letters"])]
        )
        assert len(entry["letters"]) >= len(entry["az_ids"]) >= 3


@FAST
@given(st.sampled_from(sorted(known_regions())), st.sampled_from(string.ascii_lowercase))
def test_zone_is_accepted_exactly_when_its_letter_is_in_the_table(region, letter):
    problem = zone_problem(region + letter, region=region)
    assert (problem is None) == (letter in zone_letters(region))
