"""deployment_config.aws_rules.networks: the VPC's CIDR block and the allowed source CIDR blocks."""

from __future__ import annotations

import ipaddress

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deployment_config.aws_rules.allowed_sources import allowed_cidrs_problems
from deployment_config.aws_rules.networks import vpc_cidr_problem
from tests.deployment_config.aws_rules.checks import FAST, HUGE, bounded, refused

# ---------------------------------------------------------------------------------------------------- VPC CIDR


@pytest.mark.parametrize(
    "cidr",
    [
        "10.0.0.0/16",
        "10.255.240.0/20",
        "172.16.0.0/16",
        "172.31.0.0/18",
        "192.168.0.0/16",
        "100.64.0.0/16",
        "100.127.0.0/17",
    ],
)
def test_private_vpc_cidrs_are_accepted(cidr):
    assert vpc_cidr_problem(cidr) is None


@pytest.mark.parametrize(
    ("cidr", "words"),
    [
        ("10.0.0.0/8", ("/8", "/16 to /20")),
        ("10.0.0.0/21", ("too small", "10.0.0.0/16")),
        ("10.0.0.1/16", ("host bits", "10.0.0.0/16")),
        ("172.17.0.0/16", ("172.17.0.0/16", "SageMaker")),
        ("8.8.0.0/16", ("public",)),
        ("198.19.0.0/16", ("public",)),
        ("224.0.0.0/16", ("multicast",)),
        ("127.0.0.0/16", ("loopback",)),
        ("169.254.0.0/16", ("link-local",)),
        ("0.0.0.0/16", ("this network",)),
        ("255.255.0.0/16", ("broadcast",)),
        ("fd00::/48", ("IPv6",)),
        ("10.0.0.0", ("no prefix length",)),
        ("10.0.0.0/255.255.0.0", ("not a CIDR block",)),
        ("010.0.0.0/16", ("leading zero",)),
        ("10.0.0.0/016", ("not a CIDR block",)),
        ("10.0.0.256/16", ("above 255",)),
        ("10.0.0.0/33", ("longer than /32",)),
        ("１０.0.0.0/16", ("not a CIDR block",)),
        ("10.0.0.0/16\n", ("line feed",)),
        (" 10.0.0.0/16", ("whitespace",)),
        (HUGE, ("not a CIDR block",)),
    ],
)
def test_other_vpc_cidrs_are_refused(cidr, words):
    bounded(refused(vpc_cidr_problem(cidr), *words), cidr)


# ---------------------------------------------------------------------------------------------------- allowed CIDRs


def indexes(cidrs: list[str]) -> list[int | None]:
    return [index for index, _ in allowed_cidrs_problems(cidrs)]


def test_ordinary_allow_lists_are_accepted():
    assert allowed_cidrs_problems([]) == []
    assert allowed_cidrs_problems(["203.0.113.0/24", "198.51.100.7/32", "2001:db8::/48"]) == []
    assert (
        allowed_cidrs_problems(
            ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "fc00::/7"]
        )
        == []
    )
    assert allowed_cidrs_problems(["11.0.0.0/9", "2001:db8::/33"]) == []


@pytest.mark.parametrize(
    "cidrs",
    [
        ["0.0.0.0/0"],
        ["0.0.0.0/1", "128.0.0.0/1"],
        ["::/0"],
        ["::/1", "8000::/1"],
        ["2001:db8::/48", "0.0.0.0/1", "128.0.0.0/2", "192.0.0.0/2"],
    ],
)
def test_lists_that_together_cover_everything_are_refused(cidrs):
    problems = allowed_cidrs_problems(cidrs)
    assert [i for i, _ in problems] == [None]
    refused(problems[0][1], "every IPv", "whole internet", "broadest")
    # an entry inside a broader one is reported on its own, besides the union
    assert indexes(["203.0.113.0/24", "0.0.0.0/1", "128.0.0.0/1"]) == [0, None]


@pytest.mark.parametrize(
    "cidrs",
    [
        ["11.0.0.0/8"],
        ["11.0.0.0/9", "12.0.0.0/9"],
        ["10.0.0.0/7"],
        ["2001:db8::/32"],
        ["2001:db8::/33", "2001:db8:8000::/33"],
    ],
)
def test_lists_that_allow_too_much_of_the_internet_are_refused(cidrs):
    problems = allowed_cidrs_problems(cidrs)
    assert [i for i, _ in problems] == [None]
    refused(problems[0][1], "worth", "too broad")


@pytest.mark.parametrize(
    ("cidr", "words"),
    [
        ("127.0.0.1/32", ("loopback",)),
        ("224.0.0.0/4", ("multicast",)),
        ("239.1.0.0/16", ("multicast",)),
        ("0.0.0.0/32", ("this network",)),
        ("255.255.255.255/32", ("broadcast",)),
        ("169.254.169.254/32", ("link-local",)),
        ("::/128", ("unspecified",)),
        ("::1/128", ("loopback",)),
        ("fe80::/64", ("link-local",)),
        ("ff02::1/128", ("multicast",)),
        ("::ffff:203.0.113.7/128", ("IPv4-mapped", "IPv4 CIDR block")),
    ],
)
def test_special_purpose_sources_are_refused(cidr, words):
    problems = allowed_cidrs_problems(["203.0.113.0/24", cidr])
    assert [i for i, _ in problems] == [1]
    refused(problems[0][1], *words)


def test_duplicates_and_covered_entries_are_refused():
    problems = allowed_cidrs_problems(
        ["203.0.113.0/24", "198.51.100.0/24", "203.0.113.0/24", "203.0.113.7/32"]
    )
    assert [i for i, _ in problems] == [2, 3]
    refused(problems[0][1], "twice", "entry 0")
    refused(problems[1][1], "inside entry 0")
    assert indexes(["203.0.113.7/32", "203.0.113.0/24"]) == [
        0
    ]  # the narrower one goes, wherever it is


@pytest.mark.parametrize(
    "cidr",
    [
        "203.0.113.7",
        "203.0.113.1/24",
        "203.0.113.0/33",
        "example.com",
        " 203.0.113.0/24",
        "203.0.113.0/24\n",
        "2001:db8::1/48",
        HUGE,
    ],
)
def test_malformed_sources_are_refused_by_index(cidr):
    problems = allowed_cidrs_problems(["198.51.100.0/24", cidr])
    assert [i for i, _ in problems] == [1]
    bounded(problems[0][1], cidr)


@st.composite
def splits(draw, everything: str):
    """A random partition of ``everything`` into CIDR blocks, shuffled."""
    networks = [ipaddress.ip_network(everything)]
    for _ in range(draw(st.integers(0, 40))):
        network = networks.pop(draw(st.integers(0, len(networks) - 1)))
        if network.prefixlen < network.max_prefixlen:
            networks.extend(network.subnets())
        else:
            networks.append(network)
    return [str(n) for n in draw(st.permutations(networks))]


@FAST
@given(st.one_of(splits("0.0.0.0/0"), splits("::/0")))
def test_any_split_of_the_whole_internet_is_refused(cidrs):
    problems = allowed_cidrs_problems(cidrs)
    assert any(index is None for index, _ in problems), cidrs


@FAST
@given(st.integers(0, 2**24 - 1))
def test_any_single_ordinary_slash_24_is_accepted(n):
    network = ipaddress.IPv4Network((n << 8, 24))
    special = [
        ipaddress.IPv4Network(s)
        for s in ("0.0.0.0/8", "127.0.0.0/8", "169.254.0.0/16", "224.0.0.0/3")
    ]
    if any(network.subnet_of(s) for s in special):
        assert indexes([str(network)]) == [0]
    else:
        assert allowed_cidrs_problems([str(network)]) == []
