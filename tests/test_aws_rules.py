"""deployment_config.aws_rules: an example for every rule (accepted and refused), and hypothesis properties."""

from __future__ import annotations

import ipaddress
import json
import re
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deployment_config import aws_rules
from deployment_config.aws_rules import (
    account_problem,
    allowed_cidrs_problems,
    arn_problem,
    git_branch_problem,
    hugging_face_id_problem,
    image_problem,
    known_partitions,
    known_regions,
    partition_of,
    region_problem,
    role_arn_problem,
    role_name_problem,
    tags_problems,
    text_problem,
    vpc_cidr_problem,
    zone_letters,
    zone_problem,
)
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


@pytest.mark.parametrize("region", ["zz-fake-9", "", "us-west-2 x", "us-wést-2", "us-west-2\x00", "us–west–2"])
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
@given(st.sampled_from(sorted(aws_rules._regions())))
def test_any_real_region_is_accepted(region):
    assert region_problem(region) is None


# ---------------------------------------------------------------------------------------------------- zones


@pytest.mark.parametrize("zone", ["us-west-2a", "us-west-2b", "us-west-2c", "us-west-2d"])
def test_zones_of_us_west_2_are_accepted(zone):
    assert zone_problem(zone, region="us-west-2") is None


def test_a_letter_the_region_does_not_have_is_refused():
    refused(zone_problem("us-west-2z", region="us-west-2"), "no Availability Zone 'us-west-2z'", "us-west-2d")
    refused(zone_problem("us-west-2e", region="us-west-2"), "no Availability Zone")
    refused(zone_problem("us-east-2d", region="us-east-2"), "us-east-2c")


def test_local_and_wavelength_zones_are_refused():
    refused(zone_problem("us-west-2-lax-1a", region="us-west-2"), "Local Zone", "regular Availability Zone", "us-west-2a")
    refused(zone_problem("us-east-1-wl1-bos-wlz-1", region="us-east-1"), "Wavelength Zone")


@pytest.mark.parametrize(("zone", "words"), [
    ("us-east-1a", ("zone of us-east-1", "region to us-east-1")),
    ("us-west-2A", ("upper-case", "'us-west-2a'")),
    ("us-west-2", ("followed by one",)),
    ("usw2-az1", ("followed by one",)),
    ("us-west-2aa", ("followed by one",)),
    ("us-west-2a\n", ("line feed",)),
    (" us-west-2a", ("whitespace",)),
    ("", ("followed by one",)),
])
def test_malformed_zones_are_refused(zone, words):
    refused(zone_problem(zone, region="us-west-2"), *words)


def test_zone_of_an_unknown_region_names_the_region():
    refused(zone_problem("zz-fake-9a", region="zz-fake-9"), "region", "not an AWS region")


def test_regions_missing_from_the_table_fall_back_to_a_to_f():
    assert "us-gov-west-1" not in aws_rules._zone_table()
    assert zone_letters("us-gov-west-1") == "abcdef"
    assert zone_problem("us-gov-west-1f", region="us-gov-west-1") is None
    refused(zone_problem("us-gov-west-1g", region="us-gov-west-1"), "a-f assumed")


def test_zone_table_names_its_source_and_only_real_regions():
    data = json.loads(aws_rules._ZONE_DATA.read_text(encoding="utf-8"))
    assert "docs.aws.amazon.com" in data["source"]["page"]
    assert data["regions"]["us-west-2"]["letters"] == "abcd"
    assert data["regions"]["us-east-1"]["letters"] == "abcdef"
    for region, entry in data["regions"].items():
        assert region in known_regions(), region
        assert re.fullmatch(r"a[b-z]*", entry["letters"]) and entry["letters"] == string.ascii_lowercase[:len(entry["letters"])]
        assert len(entry["letters"]) >= len(entry["az_ids"]) >= 3


@FAST
@given(st.sampled_from(sorted(aws_rules._regions())), st.sampled_from(string.ascii_lowercase))
def test_zone_is_accepted_exactly_when_its_letter_is_in_the_table(region, letter):
    problem = zone_problem(region + letter, region=region)
    assert (problem is None) == (letter in zone_letters(region))


# ---------------------------------------------------------------------------------------------------- accounts


@pytest.mark.parametrize("account", [ACCOUNT, "000000000000", "012345678901"])
def test_twelve_ascii_digits_are_an_account(account):
    assert account_problem(account) is None


@pytest.mark.parametrize(("account", "words"), [
    ("１２３４５６７８９０１２", ("not ASCII",)),
    ("١٢٣٤٥٦٧٨٩٠١٢", ("not ASCII",)),
    ("12345678901", ("11 digits",)),
    ("1234567890123", ("13 digits",)),
    ("1234-5678-9012", ("dashes", "'123456789012'")),
    (" 123456789012", ("whitespace",)),
    ("123456789012\n", ("line feed",)),
    ("", ("12 digits",)),
    ("12345678901a", ("12 digits",)),
])
def test_other_accounts_are_refused(account, words):
    refused(account_problem(account), *words)


@FAST
@given(st.text(max_size=20))
def test_only_twelve_ascii_digits_pass(text):
    assert (account_problem(text) is None) == bool(re.fullmatch(r"[0-9]{12}", text))


# ---------------------------------------------------------------------------------------------------- ARNs

PLAN = "arn:aws:sagemaker:us-west-2:123456789012:training-plan/my-plan"


def plan_problem(arn: str, region: str | None = "us-west-2", account: str | None = ACCOUNT) -> Problem | None:
    return arn_problem(arn, service="sagemaker", resource_pattern=r"training-plan/[a-z0-9-]{1,63}", region=region,
                       account=account, what="training plan", resource_example="training-plan/NAME")


def test_regional_arn_is_accepted():
    assert plan_problem(PLAN) is None
    assert plan_problem(PLAN, region=None, account=None) is None
    assert plan_problem("arn:aws-cn:sagemaker:cn-north-1:123456789012:training-plan/p", region="cn-north-1") is None


def test_arn_in_another_partition_than_the_region_is_refused():
    problem = plan_problem("arn:aws-cn:sagemaker:us-west-2:123456789012:training-plan/my-plan")
    refused(problem, "the ARN is in partition aws-cn, but us-west-2 is in aws")
    # with the region unknown, the ARN's own region and partition must still agree
    refused(plan_problem("arn:aws-cn:sagemaker:us-west-2:123456789012:training-plan/x", region=None),
            "the ARN is in partition aws-cn, but us-west-2 is in aws")


@pytest.mark.parametrize(("arn", "words"), [
    (PLAN.replace("us-west-2", "us-east-1"), ("region 'us-east-1'", "us-west-2")),
    (PLAN.replace(ACCOUNT, "999999999999"), ("account 999999999999",)),
    (PLAN.replace(ACCOUNT, "12345678901"), ("12-digit",)),
    (PLAN.replace("sagemaker", "ec2"), ("service 'ec2'",)),
    (PLAN.replace("arn:aws:", "arn:aws-moon:"), ("does not exist",)),
    (PLAN.replace("training-plan/my-plan", "reserved-capacity/x"), ("training-plan/NAME",)),
    ("my-plan", ("not an ARN",)),
    ("arn:aws:sagemaker", ("not an ARN",)),
    (PLAN + "\n", ("line feed",)),
    (PLAN + " ", ("whitespace",)),
    ("arn:aws:sagemaker:us-west-2:123456789012:training-plan/" + "a" * 2100, ("2048",)),
])
def test_mismatched_arns_are_refused(arn, words):
    problem = refused(plan_problem(arn), *words)
    bounded(problem, arn)
    assert problem.problem.startswith("the training plan ARN")


def test_empty_region_and_account_mean_the_fields_must_be_empty():
    bucket = dict(service="s3", resource_pattern=r"[a-z0-9.-]{3,63}", region="", account="", what="bucket")
    assert arn_problem("arn:aws:s3:::my-bucket", **bucket) is None
    refused(arn_problem("arn:aws:s3:us-west-2::my-bucket", **bucket), "no region")
    refused(arn_problem("arn:aws:s3:::" + "my-bucket".upper(), **bucket), "not of the form")
    refused(arn_problem("arn:aws:s3::123456789012:my-bucket", **bucket), "no account")


def test_arn_checks_that_cannot_run_say_why():
    refused(plan_problem(PLAN, region="zz-fake-9"), "cannot check", "not an AWS region")
    refused(arn_problem(PLAN, service="sagemaker", resource_pattern=".*", region=None, account=None, what="x",
                        partition="aws-moon"), "not an AWS partition")


_OTHER_PARTITION = {p: next(q for q in known_partitions() if q != p) for p in known_partitions()}


@st.composite
def valid_arns(draw):
    region = draw(st.sampled_from(sorted(aws_rules._regions())))
    account = draw(st.from_regex(r"[0-9]{12}", fullmatch=True))
    name = draw(st.from_regex(r"[a-z0-9][a-z0-9-]{0,30}", fullmatch=True))
    return region, account, f"arn:{partition_of(region)}:sagemaker:{region}:{account}:training-plan/{name}"


@FAST
@given(valid_arns())
def test_random_valid_arns_are_accepted(case):
    region, account, arn = case
    assert plan_problem(arn, region=region, account=account) is None
    assert plan_problem(arn, region=None, account=None) is None


@FAST
@given(valid_arns(), st.sampled_from(["partition", "region", "account", "bad-account", "control"]), st.data())
def test_one_mutated_part_of_a_valid_arn_is_refused(case, part, data):
    region, account, arn = case
    fields = arn.split(":", 5)
    if part == "partition":
        fields[1] = _OTHER_PARTITION[fields[1]]
    elif part == "region":
        fields[3] = data.draw(st.sampled_from([r for r in known_regions() if r != region]))
    elif part == "account":
        fields[4] = data.draw(st.from_regex(r"[0-9]{12}", fullmatch=True).filter(lambda a: a != account))
    elif part == "bad-account":
        fields[4] = data.draw(st.text(max_size=14).filter(lambda a: not re.fullmatch(r"[0-9]{12}", a) and ":" not in a))
    mutated = ":".join(fields)
    if part == "control":
        at = data.draw(st.integers(0, len(arn)))
        char = data.draw(st.sampled_from(["\n", "\t", "\x00", "\u200b", "\u202e", "\x7f", "\ufeff"]))
        mutated = arn[:at] + char + arn[at:]
    assert plan_problem(mutated, region=region, account=account) is not None


# ---------------------------------------------------------------------------------------------------- IAM roles

ROLE = "arn:aws:iam::123456789012:role/PlatformAdmin"
ROLE_ALPHABET = string.ascii_letters + string.digits + "_+=,.@-"


@pytest.mark.parametrize("arn", [
    ROLE,
    "arn:aws:iam::123456789012:role/ops/team-a/PlatformAdmin",
    "arn:aws:iam::123456789012:role/aws-service-role/eks.amazonaws.com/AWSServiceRoleForAmazonEKS",
    "arn:aws:iam::123456789012:role/a+b=c,d.e@f_g-h",
    "arn:aws:iam::123456789012:role/" + "a" * 64,
])
def test_role_arns_are_accepted(arn):
    assert role_arn_problem(arn, partition="aws") is None


def test_role_arn_in_china_needs_the_china_partition():
    cn_role = ROLE.replace("arn:aws:", "arn:aws-cn:")
    assert role_arn_problem(cn_role, partition="aws-cn") is None
    refused(role_arn_problem(cn_role, partition="aws"), "the ARN is in partition aws-cn, but this environment is in aws")


@pytest.mark.parametrize(("arn", "words"), [
    ("arn:aws:sts::123456789012:assumed-role/PlatformAdmin/alice",
     ("assumed-role", "arn:aws:iam::123456789012:role/PlatformAdmin")),
    ("arn:aws:iam::123456789012:user/alice", ("role/NAME",)),
    ("arn:aws:iam:us-west-2:123456789012:role/X", ("no region",)),
    ("arn:aws:iam::123456789012:role/" + "a" * 65, ("65 characters", "64")),
    ("arn:aws:iam::123456789012:role/Platform Admin", ("position 9",)),
    ("arn:aws:iam::123456789012:role/Plätform", ("position 3",)),
    ("arn:aws:iam::123456789012:role//X", ("path",)),
    ("arn:aws:iam::123456789012:role/ops path/X", ("path",)),
    ("arn:aws:iam::123456789012:role/", ("empty",)),
    ("PlatformAdmin", ("not an ARN",)),
])
def test_other_role_arns_are_refused(arn, words):
    refused(role_arn_problem(arn, partition="aws"), *words)


def test_role_arn_of_another_account_is_refused_when_pinned():
    assert role_arn_problem(ROLE, partition="aws", account=ACCOUNT) is None
    refused(role_arn_problem(ROLE, partition="aws", account="999999999999"), "account 123456789012")


@FAST
@given(st.text(alphabet=ROLE_ALPHABET, min_size=1, max_size=64))
def test_role_names_over_the_allowed_alphabet_are_accepted(name):
    assert role_name_problem(name) is None
    assert role_arn_problem(f"arn:aws:iam::{ACCOUNT}:role/{name}", partition="aws") is None
    assert role_arn_problem(f"arn:aws:iam::{ACCOUNT}:role/path/{name}", partition="aws") is None


@FAST
@given(st.text(alphabet=ROLE_ALPHABET, max_size=30), st.characters().filter(lambda c: c not in ROLE_ALPHABET),
       st.text(alphabet=ROLE_ALPHABET, max_size=30))
def test_a_role_name_with_any_other_character_is_refused(before, bad, after):
    name = before + bad + after
    refused(role_name_problem(name))
    if bad != "/":  # a '/' makes the part before it a path
        assert role_arn_problem(f"arn:aws:iam::{ACCOUNT}:role/{name}", partition="aws") is not None


@FAST
@given(st.text(alphabet=ROLE_ALPHABET, min_size=65, max_size=200))
def test_a_role_name_longer_than_64_is_refused(name):
    refused(role_name_problem(name), "at most 64")


# ---------------------------------------------------------------------------------------------------- VPC CIDR


@pytest.mark.parametrize("cidr", ["10.0.0.0/16", "10.255.240.0/20", "172.16.0.0/16", "172.31.0.0/18", "192.168.0.0/16",
                                  "100.64.0.0/16", "100.127.0.0/17"])
def test_private_vpc_cidrs_are_accepted(cidr):
    assert vpc_cidr_problem(cidr) is None


@pytest.mark.parametrize(("cidr", "words"), [
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
])
def test_other_vpc_cidrs_are_refused(cidr, words):
    bounded(refused(vpc_cidr_problem(cidr), *words), cidr)


# ---------------------------------------------------------------------------------------------------- allowed CIDRs


def indexes(cidrs: list[str]) -> list[int | None]:
    return [index for index, _ in allowed_cidrs_problems(cidrs)]


def test_ordinary_allow_lists_are_accepted():
    assert allowed_cidrs_problems([]) == []
    assert allowed_cidrs_problems(["203.0.113.0/24", "198.51.100.7/32", "2001:db8::/48"]) == []
    assert allowed_cidrs_problems(["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "fc00::/7"]) == []
    assert allowed_cidrs_problems(["11.0.0.0/9", "2001:db8::/33"]) == []


@pytest.mark.parametrize("cidrs", [
    ["0.0.0.0/0"], ["0.0.0.0/1", "128.0.0.0/1"], ["::/0"], ["::/1", "8000::/1"],
    ["2001:db8::/48", "0.0.0.0/1", "128.0.0.0/2", "192.0.0.0/2"],
])
def test_lists_that_together_cover_everything_are_refused(cidrs):
    problems = allowed_cidrs_problems(cidrs)
    assert [i for i, _ in problems] == [None]
    refused(problems[0][1], "every IPv", "whole internet", "broadest")
    # an entry inside a broader one is reported on its own, besides the union
    assert indexes(["203.0.113.0/24", "0.0.0.0/1", "128.0.0.0/1"]) == [0, None]


@pytest.mark.parametrize("cidrs", [["11.0.0.0/8"], ["11.0.0.0/9", "12.0.0.0/9"], ["10.0.0.0/7"], ["2001:db8::/32"],
                                   ["2001:db8::/33", "2001:db8:8000::/33"]])
def test_lists_that_allow_too_much_of_the_internet_are_refused(cidrs):
    problems = allowed_cidrs_problems(cidrs)
    assert [i for i, _ in problems] == [None]
    refused(problems[0][1], "worth", "too broad")


@pytest.mark.parametrize(("cidr", "words"), [
    ("127.0.0.1/32", ("loopback",)), ("224.0.0.0/4", ("multicast",)), ("239.1.0.0/16", ("multicast",)),
    ("0.0.0.0/32", ("this network",)), ("255.255.255.255/32", ("broadcast",)), ("169.254.169.254/32", ("link-local",)),
    ("::/128", ("unspecified",)), ("::1/128", ("loopback",)), ("fe80::/64", ("link-local",)), ("ff02::1/128", ("multicast",)),
    ("::ffff:203.0.113.7/128", ("IPv4-mapped", "IPv4 CIDR block")),
])
def test_special_purpose_sources_are_refused(cidr, words):
    problems = allowed_cidrs_problems(["203.0.113.0/24", cidr])
    assert [i for i, _ in problems] == [1]
    refused(problems[0][1], *words)


def test_duplicates_and_covered_entries_are_refused():
    problems = allowed_cidrs_problems(["203.0.113.0/24", "198.51.100.0/24", "203.0.113.0/24", "203.0.113.7/32"])
    assert [i for i, _ in problems] == [2, 3]
    refused(problems[0][1], "twice", "entry 0")
    refused(problems[1][1], "inside entry 0")
    assert indexes(["203.0.113.7/32", "203.0.113.0/24"]) == [0]  # the narrower one goes, wherever it is


@pytest.mark.parametrize("cidr", ["203.0.113.7", "203.0.113.1/24", "203.0.113.0/33", "example.com", " 203.0.113.0/24",
                                  "203.0.113.0/24\n", "2001:db8::1/48", HUGE])
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
    special = [ipaddress.IPv4Network(s) for s in ("0.0.0.0/8", "127.0.0.0/8", "169.254.0.0/16", "224.0.0.0/3")]
    if any(network.subnet_of(s) for s in special):
        assert indexes([str(network)]) == [0]
    else:
        assert allowed_cidrs_problems([str(network)]) == []


# ---------------------------------------------------------------------------------------------------- tags


def test_ordinary_tags_are_accepted():
    tags = {"project": "kimi-k3-serving", "owner": "platform team", "cost-center": "42", "名前": "値",
            "a_b.c:d/e=f+g-h@i": "", "k": "v" * 256, "k" * 128: "v"}
    assert tags_problems(tags, reserved_keys=("environment",)) == []


@pytest.mark.parametrize(("tags", "words"), [
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
])
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


# ---------------------------------------------------------------------------------------------------- Hugging Face


@pytest.mark.parametrize("model_id", ["moonshotai/Kimi-K3", "meta-llama/Llama-3.1-8B-Instruct", "a/b", "org_1/model.v2",
                                      "o/" + "n" * 96])
def test_hugging_face_ids_are_accepted(model_id):
    assert hugging_face_id_problem(model_id) is None


@pytest.mark.parametrize(("model_id", "words"), [
    ("gpt2", ("no owner",)),
    ("https://huggingface.co/moonshotai/Kimi-K3", ("more than one '/'", "'moonshotai/Kimi-K3'")),
    ("datasets/a/b", ("more than one '/'",)),
    ("/Kimi-K3", ("empty owner",)),
    ("moonshotai/", ("empty name",)),
    ("-org/model", ("owner",)),
    ("org/model.", ("name",)),
    ("org/mo del", ("name",)),
    ("org/mödel", ("name",)),
    ("org/a--b", ("'--'",)),
    ("org/a..b", ("'..'",)),
    ("org/model.git", ("'.git'", "'org/model'")),
    ("org/" + "n" * 97, ("97 characters", "96")),
    ("moonshotai/Kimi-K3\n", ("line feed",)),
])
def test_other_hugging_face_ids_are_refused(model_id, words):
    refused(hugging_face_id_problem(model_id), *words)


# ---------------------------------------------------------------------------------------------------- images

DIGEST = "sha256:" + "0123456789abcdef" * 4


@pytest.mark.parametrize("image", [
    "vllm/vllm-openai:kimi-k3", "vllm/vllm-openai", "ubuntu", "ubuntu:22.04", "localhost:5000/team/app:1.0",
    f"123456789012.dkr.ecr.us-west-2.amazonaws.com/vllm:v0.11.0@{DIGEST}", f"vllm/vllm-openai@{DIGEST}",
    "MyRegistry.example.com/vllm:Latest", "[::1]:5000/app", "a__b/c-d--e.f", "x/" + "a" * 253,
    "vllm/vllm-openai:" + "t" * 128, "nvcr.io/nvidia/k8s-device-plugin:v0.17.0",
])
def test_image_references_are_accepted(image):
    assert image_problem(image) is None


@pytest.mark.parametrize(("image", "words"), [
    ("Vllm/vllm-openai:x", ("upper-case",)),
    ("vllm/VLLM-openai", ("upper-case",)),
    ("vllm/vllm openai", ("whitespace",)),
    ("vllm/vllm-openai ", ("whitespace",)),
    ("vllm/vllm-openai\n", ("line feed",)),
    ("vllm/vllm-openai:", ("tag ''",)),
    ("vllm/vllm-openai:.x", ("tag",)),
    ("vllm/vllm-openai:" + "t" * 129, ("tag", "128")),
    ("vllm/vllm-openai@sha256:abc", ("digest",)),
    ("vllm/vllm-openai@sha256:" + "A" * 64, ("digest", "lower-case")),
    ("vllm/vllm-openai@md5:" + "a" * 32, ("digest",)),
    ("vllm//x", ("not a container image reference",)),
    ("-x/y", ("not a container image reference",)),
    ("", ("empty",)),
    ("a" * 256, ("256 characters", "255")),
    (HUGE, ("3000 characters",)),
])
def test_other_images_are_refused(image, words):
    bounded(refused(image_problem(image), *words), image)


# ---------------------------------------------------------------------------------------------------- git branches


@pytest.mark.parametrize("branch", ["main", "release/2026-11", "feature/x.y", "a@b", "v1.0", "café", "a-", "a/b/c"])
def test_branch_names_are_accepted(branch):
    assert git_branch_problem(branch) is None


@pytest.mark.parametrize("branch", [
    "", "-x", "HEAD", "@", "a..b", "a@{1}", "/a", "a/", "a//b", "a.", "a/.b", ".a", "a.lock", "a/b.lock/c", "a b",
    "a~1", "a^", "a:b", "a?", "a*", "a[b", "a\\b", "a\x7fb", "a\x00b", "a\tb", "a\nb", "\ud800",
])
def test_branch_names_git_refuses_are_refused(branch):
    refused(git_branch_problem(branch))


# ---------------------------------------------------------------------------------------------------- text


@pytest.mark.parametrize("value", ["ok", "", "naïve café", "a b", "x" * 10])
def test_plain_text_is_accepted(value):
    assert text_problem(value, max_length=10) is None


@pytest.mark.parametrize(("value", "words"), [
    ("ok\n", ("line feed", "at the end")), ("a\tb", ("tab", "position 2")), ("a\x00", ("nul",)),
    ("a\u200bb", ("zero width space",)), ("\u202eabc", ("right-to-left override",)),
    ("\ufeffabc", ("zero width no-break space",)),
    ("a\u2028b", ("line separator",)), ("\ud800", ("surrogate",)), ("a\x85", ("next line",)),
    (" x", ("whitespace",)), ("x ", ("whitespace",)), ("x\u3000", ("whitespace",)), ("x" * 11, ("11 characters", "at most 10")),
])
def test_control_characters_whitespace_and_length_are_refused(value, words):
    refused(text_problem(value, max_length=10), *words)


def test_huge_text_message_is_bounded():
    bounded(refused(text_problem(HUGE, max_length=100), "3000 characters"), HUGE)


# ---------------------------------------------------------------------------------------------------- every rule

SINGLE_VALUE_RULES = [
    region_problem, account_problem, vpc_cidr_problem, hugging_face_id_problem, image_problem, git_branch_problem,
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
        assert problem is None or (isinstance(problem.problem, str) and isinstance(problem.fix, str))
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
