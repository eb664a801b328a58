"""deployment_config.aws_rules.identities: account IDs, ARNs, IAM role names and role ARNs."""

from __future__ import annotations

import re
import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deployment_config.aws_rules.identities import (
    account_problem,
    arn_problem,
    role_arn_problem,
    role_name_problem,
)
from deployment_config.aws_rules.regions import known_partitions, known_regions, partition_of
from tests.deployment_config.aws_rules.checks import (
    ACCOUNT,
    FAST,
    PLAN,
    bounded,
    plan_problem,
    refused,
)

# ---------------------------------------------------------------------------------------------------- accounts


@pytest.mark.parametrize("account", [ACCOUNT, "000000000000", "012345678901"])
def test_twelve_ascii_digits_are_an_account(account):
    assert account_problem(account) is None


@pytest.mark.parametrize(
    ("account", "words"),
    [
        ("１２３４５６７８９０１２", ("not ASCII",)),
        ("١٢٣٤٥٦٧٨٩٠١٢", ("not ASCII",)),
        ("12345678901", ("11 digits",)),
        ("1234567890123", ("13 digits",)),
        ("1234-5678-9012", ("dashes", "'123456789012'")),
        (" 123456789012", ("whitespace",)),
        ("123456789012\n", ("line feed",)),
        ("", ("12 digits",)),
        ("12345678901a", ("12 digits",)),
    ],
)
def test_other_accounts_are_refused(account, words):
    refused(account_problem(account), *words)


@FAST
@given(st.text(max_size=20))
def test_only_twelve_ascii_digits_pass(text):
    assert (account_problem(text) is None) == bool(re.fullmatch(r"[0-9]{12}", text))


# ---------------------------------------------------------------------------------------------------- ARNs


def test_regional_arn_is_accepted():
    assert plan_problem(PLAN) is None
    assert plan_problem(PLAN, region=None, account=None) is None
    assert (
        plan_problem(
            "arn:aws-cn:sagemaker:cn-north-1:123456789012:training-plan/p", region="cn-north-1"
        )
        is None
    )


def test_arn_in_another_partition_than_the_region_is_refused():
    problem = plan_problem("arn:aws-cn:sagemaker:us-west-2:123456789012:training-plan/my-plan")
    refused(problem, "the ARN is in partition aws-cn, but us-west-2 is in aws")
    # with the region unknown, the ARN's own region and partition must still agree
    refused(
        plan_problem("arn:aws-cn:sagemaker:us-west-2:123456789012:training-plan/x", region=None),
        "the ARN is in partition aws-cn, but us-west-2 is in aws",
    )


@pytest.mark.parametrize(
    ("arn", "words"),
    [
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
    ],
)
def test_mismatched_arns_are_refused(arn, words):
    problem = refused(plan_problem(arn), *words)
    bounded(problem, arn)
    assert problem.problem.startswith("the training plan ARN")


def test_empty_region_and_account_mean_the_fields_must_be_empty():
    bucket = dict(
        service="s3", resource_pattern=r"[a-z0-9.-]{3,63}", region="", account="", what="bucket"
    )
    assert arn_problem("arn:aws:s3:::my-bucket", **bucket) is None
    refused(arn_problem("arn:aws:s3:us-west-2::my-bucket", **bucket), "no region")
    refused(arn_problem("arn:aws:s3:::" + "my-bucket".upper(), **bucket), "not of the form")
    refused(arn_problem("arn:aws:s3::123456789012:my-bucket", **bucket), "no account")


def test_arn_checks_that_cannot_run_say_why():
    refused(plan_problem(PLAN, region="zz-fake-9"), "cannot check", "not an AWS region")
    refused(
        arn_problem(
            PLAN,
            service="sagemaker",
            resource_pattern=".*",
            region=None,
            account=None,
            what="x",
            partition="aws-moon",
        ),
        "not an AWS partition",
    )


_OTHER_PARTITION = {p: next(q for q in known_partitions() if q != p) for p in known_partitions()}


@st.composite
def valid_arns(draw):
    region = draw(st.sampled_from(sorted(known_regions())))
    account = draw(st.from_regex(r"[0-9]{12}", fullmatch=True))
    name = draw(st.from_regex(r"[a-z0-9][a-z0-9-]{0,30}", fullmatch=True))
    return (
        region,
        account,
        f"arn:{partition_of(region)}:sagemaker:{region}:{account}:training-plan/{name}",
    )


@FAST
@given(valid_arns())
def test_random_valid_arns_are_accepted(case):
    region, account, arn = case
    assert plan_problem(arn, region=region, account=account) is None
    assert plan_problem(arn, region=None, account=None) is None


@FAST
@given(
    valid_arns(),
    st.sampled_from(["partition", "region", "account", "bad-account", "control"]),
    st.data(),
)
def test_one_mutated_part_of_a_valid_arn_is_refused(case, part, data):
    region, account, arn = case
    fields = arn.split(":", 5)
    if part == "partition":
        fields[1] = _OTHER_PARTITION[fields[1]]
    elif part == "region":
        fields[3] = data.draw(st.sampled_from([r for r in known_regions() if r != region]))
    elif part == "account":
        fields[4] = data.draw(
            st.from_regex(r"[0-9]{12}", fullmatch=True).filter(lambda a: a != account)
        )
    elif part == "bad-account":
        fields[4] = data.draw(
            st.text(max_size=14).filter(
                lambda a: not re.fullmatch(r"[0-9]{12}", a) and ":" not in a
            )
        )
    mutated = ":".join(fields)
    if part == "control":
        at = data.draw(st.integers(0, len(arn)))
        char = data.draw(
            st.sampled_from(["\n", "\t", "\x00", "\u200b", "\u202e", "\x7f", "\ufeff"])
        )
        mutated = arn[:at] + char + arn[at:]
    assert plan_problem(mutated, region=region, account=account) is not None


# ---------------------------------------------------------------------------------------------------- IAM roles

ROLE = "arn:aws:iam::123456789012:role/PlatformAdmin"
ROLE_ALPHABET = string.ascii_letters + string.digits + "_+=,.@-"


@pytest.mark.parametrize(
    "arn",
    [
        ROLE,
        "arn:aws:iam::123456789012:role/ops/team-a/PlatformAdmin",
        "arn:aws:iam::123456789012:role/aws-service-role/eks.amazonaws.com/AWSServiceRoleForAmazonEKS",
        "arn:aws:iam::123456789012:role/a+b=c,d.e@f_g-h",
        "arn:aws:iam::123456789012:role/" + "a" * 64,
    ],
)
def test_role_arns_are_accepted(arn):
    assert role_arn_problem(arn, partition="aws") is None


def test_role_arn_in_china_needs_the_china_partition():
    cn_role = ROLE.replace("arn:aws:", "arn:aws-cn:")
    assert role_arn_problem(cn_role, partition="aws-cn") is None
    refused(
        role_arn_problem(cn_role, partition="aws"),
        "the ARN is in partition aws-cn, but this environment is in aws",
    )


@pytest.mark.parametrize(
    ("arn", "words"),
    [
        (
            "arn:aws:sts::123456789012:assumed-role/PlatformAdmin/alice",
            ("assumed-role", "arn:aws:iam::123456789012:role/PlatformAdmin"),
        ),
        ("arn:aws:iam::123456789012:user/alice", ("role/NAME",)),
        ("arn:aws:iam:us-west-2:123456789012:role/X", ("no region",)),
        ("arn:aws:iam::123456789012:role/" + "a" * 65, ("65 characters", "64")),
        ("arn:aws:iam::123456789012:role/Platform Admin", ("position 9",)),
        ("arn:aws:iam::123456789012:role/Plätform", ("position 3",)),
        ("arn:aws:iam::123456789012:role//X", ("path",)),
        ("arn:aws:iam::123456789012:role/ops path/X", ("path",)),
        ("arn:aws:iam::123456789012:role/", ("empty",)),
        ("PlatformAdmin", ("not an ARN",)),
    ],
)
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
@given(
    st.text(alphabet=ROLE_ALPHABET, max_size=30),
    st.characters().filter(lambda c: c not in ROLE_ALPHABET),
    st.text(alphabet=ROLE_ALPHABET, max_size=30),
)
def test_a_role_name_with_any_other_character_is_refused(before, bad, after):
    name = before + bad + after
    refused(role_name_problem(name))
    if bad != "/":  # a '/' makes the part before it a path
        assert role_arn_problem(f"arn:aws:iam::{ACCOUNT}:role/{name}", partition="aws") is not None


@FAST
@given(st.text(alphabet=ROLE_ALPHABET, min_size=65, max_size=200))
def test_a_role_name_longer_than_64_is_refused(name):
    refused(role_name_problem(name), "at most 64")
