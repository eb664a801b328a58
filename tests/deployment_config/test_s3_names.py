"""deployment_config.s3_names: the bucket names and s3:// URIs S3 and IAM take, and those refused with the rule."""

from __future__ import annotations

import pytest

from deployment_config.s3_names import BUCKET_NAME_RULES, bucket_name_problem, s3_uri_problem


@pytest.mark.parametrize(
    "name",
    [
        "abc",
        "my-model-bucket",
        "weights.example.com",
        "1.2.3",
        "a" * 63,
        "bucket-111122223333-us-west-2-an",
        "xn-bucket",
        "my-bucket-s3",
    ],
)
def test_a_general_purpose_bucket_name_is_accepted(name):
    assert bucket_name_problem(name) is None


@pytest.mark.parametrize(
    "name, rule",
    [
        ("my..bucket", "two adjacent periods"),
        ("192.168.5.4", "formatted as an IP address"),
        ("xn--bucket", "starts with 'xn--'"),
        ("sthree-configurator-x", "starts with 'sthree-'"),
        ("amzn-s3-demo-bucket", "starts with 'amzn-s3-demo-'"),
        ("my.-bucket", "'-' next to '.'"),
        ("my-.bucket", "'-' next to '.'"),
        ("weights-s3alias", "access point alias"),
        ("weights--ol-s3", "Object Lambda"),
        ("weights.mrap", "Multi-Region Access Point"),
        ("weights--usw2-az1--x-s3", "directory bucket"),
        ("weights--table-s3", "table bucket"),
        ("My-Bucket", "upper-case"),
        ("ab", "3 to 63"),
        ("a" * 64, "3 to 63"),
        ("-bucket", "begin and end with a letter or digit"),
    ],
)
def test_a_name_s3_refuses_is_refused_naming_the_rule(name, rule):
    problem = bucket_name_problem(name)
    assert problem is not None and rule in problem.problem
    assert problem.fix


def test_the_fix_names_the_rules_page_for_a_malformed_name():
    assert BUCKET_NAME_RULES in bucket_name_problem("my..bucket").fix


@pytest.mark.parametrize(
    "uri",
    ["s3://my-model-bucket", "s3://my-model-bucket/", "s3://my-model-bucket/moonshotai/Kimi-K3/"],
)
def test_an_s3_uri_of_a_bucket_and_prefix_is_accepted(uri):
    assert s3_uri_problem(uri) is None


@pytest.mark.parametrize(
    "uri, words",
    [
        ("s3://my..bucket/k3/", "two adjacent periods"),
        ("https://my-bucket.s3.amazonaws.com/k3/", "not its web address"),
        ("arn:aws:s3:::my-bucket/k3/", "not an ARN"),
        ("s3:///k3/", "names no bucket"),
        ("s3://my-bucket/*", "wildcard"),
        ("s3://my-bucket/k3?/", "wildcard"),
        ("s3://my-bucket/${aws:PrincipalTag/team}/", "policy variable"),
        ("s3://my-bucket/k 3/", "whitespace"),
        ("s3://my-bucket/k3//", "empty segment"),
        ("s3://my-bucket//k3/", "empty segment"),
        ("s3://my-bucket/" + "\u20ac" * 400, "1024 bytes"),
    ],
)
def test_an_s3_uri_that_s3_or_iam_would_read_otherwise_is_refused(uri, words):
    problem = s3_uri_problem(uri)
    assert problem is not None and words in problem.problem + problem.fix
