"""S3 bucket names and ``s3://BUCKET/PREFIX`` URIs of the configuration: one rule for every field that holds them.

Every function is pure and returns a :class:`~deployment_config.errors.Problem` (what is wrong, and the fix) or
``None``; the loader adds the field's path. Values are quoted through :func:`~deployment_config.errors.quoted`.

Sources:

- S3 User Guide, "General purpose bucket naming rules"
  (https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucketnamingrules.html): 3 to 63 characters; only lower-case
  letters, numbers, periods and hyphens; beginning and ending with a letter or number; no two adjacent periods; not
  formatted as an IP address (for example 192.168.5.4); not starting with ``xn--``, ``sthree-`` or ``amzn-s3-demo-``;
  not ending with ``-s3alias`` (access point aliases), ``--ol-s3`` (Object Lambda Access Point aliases), ``.mrap``
  (Multi-Region Access Points), ``--x-s3`` (directory buckets) or ``--table-s3`` (table buckets).
- The same guide's earlier "Rules for Bucket Naming" (awsdocs/amazon-s3-developer-guide
  @94bf60566adbf64e46c53a133cfd49c8cf70213a doc_source/BucketRestrictions.md), which the names must still meet to be
  DNS-compliant (virtual-hosted-style addressing): "Bucket names must be a series of one or more labels. Adjacent
  labels are separated by a single period (.). ... Each label must start and end with a lowercase letter or a
  number." Hence no ``.-`` or ``-.``.
- Object keys: "The name for a key is a sequence of Unicode characters whose UTF-8 encoding is at most 1,024 bytes
  long" (S3 User Guide, "Naming Amazon S3 objects", https://docs.aws.amazon.com/AmazonS3/latest/userguide/object-keys.html).
- "//" in a prefix: keys are taken as written ("Object key names include any prefixes", same page), and
  ops_cli/weights.py ``s3_location`` collapses the '/' at the end of the prefix, so the mirror and the pods' grants
  and copy would name different places; an empty segment is refused.
- The prefix becomes part of IAM policies (``arn:aws:s3:::BUCKET/PREFIX*`` and an ``s3:prefix`` ``StringLike``
  condition, stacks/serving_stack.py and cdk_constructs/weights_mirror_access.py), where ``*`` and ``?`` are wildcards
  and ``${...}`` a policy variable (IAM User Guide, "IAM JSON policy elements: Resource" and "IAM policy elements:
  Variables and tags", https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_variables.html). A prefix
  with them would grant more than the prefix, so they are refused.
"""

from __future__ import annotations

import re

from deployment_config.errors import Problem, quoted

__all__ = [
    "BUCKET_NAME_RULES",
    "COMPILE_CACHE_S3_PREFIX",
    "MAX_KEY_BYTES",
    "bucket_name_problem",
    "s3_uri_problem",
]

#: The prefix at the root of the weights' bucket that holds the compile cache (charts/compile_cache/); the vLLM pod may
#: write there, so model.s3_uri may not point inside it.
COMPILE_CACHE_S3_PREFIX = "compile-cache"

BUCKET_NAME_RULES = "S3 User Guide, General purpose bucket naming rules"
BUCKET_NAME_MIN, BUCKET_NAME_MAX = 3, 63
MAX_KEY_BYTES = 1024
_BUCKET_CHARS = re.compile(r"[a-z0-9.-]+", re.ASCII)
_LOOKS_LIKE_IP = re.compile(r"[0-9]+(\.[0-9]+){3}", re.ASCII)
#: Reserved prefixes, and suffixes with what S3 reserves them for.
_RESERVED_PREFIXES = ("xn--", "sthree-", "amzn-s3-demo-")
_RESERVED_SUFFIXES = (
    ("-s3alias", "an access point alias, not a bucket"),
    ("--ol-s3", "an Object Lambda Access Point alias, not a bucket"),
    (".mrap", "a Multi-Region Access Point, not a bucket"),
    (
        "--x-s3",
        "a directory bucket (S3 Express One Zone), which takes other permissions (s3express:CreateSession)",
    ),
    ("--table-s3", "a table bucket (S3 Tables), which holds tables, not objects"),
)
_FIX = (
    "use the name of an existing general purpose bucket, as `aws s3 ls` lists it ("
    + BUCKET_NAME_RULES
    + ": 3 to 63 lower-case letters, digits, '.' and '-')"
)


def bucket_name_problem(name: str) -> Problem | None:
    """``None`` if ``name`` is a general purpose bucket name S3 accepts (see the module's sources)."""
    what = f"the bucket name {quoted(name)}"
    if not BUCKET_NAME_MIN <= len(name) <= BUCKET_NAME_MAX:
        return Problem(
            f"{what} has {len(name)} characters; a bucket name has {BUCKET_NAME_MIN} to {BUCKET_NAME_MAX}",
            _FIX,
        )
    if not _BUCKET_CHARS.fullmatch(name):
        odd = next(ch for ch in name if not _BUCKET_CHARS.fullmatch(ch))
        shown = "an upper-case letter" if odd.isascii() and odd.isupper() else quoted(odd)
        return Problem(
            f"{what} contains {shown}; bucket names hold only lower-case letters, digits, '.' and '-'",
            _FIX,
        )
    if ".." in name:
        return Problem(
            f"{what} contains two adjacent periods ('..'), which S3 does not allow", _FIX
        )
    if _LOOKS_LIKE_IP.fullmatch(name):
        return Problem(
            f"{what} is formatted as an IP address, which S3 does not allow for a bucket", _FIX
        )
    labels = name.split(".")
    if (
        any(label.startswith("-") or label.endswith("-") for label in labels)
        or not name[0].isalnum()
        or not name[-1].isalnum()
    ):
        return Problem(
            f"{what} begins or ends with '.' or '-', or has '-' next to '.': each of its parts between "
            "periods must begin and end with a letter or digit",
            _FIX,
        )
    for prefix in _RESERVED_PREFIXES:
        if name.startswith(prefix):
            return Problem(f"{what} starts with {prefix!r}, a prefix S3 reserves", _FIX)
    for suffix, reserved_for in _RESERVED_SUFFIXES:
        if name.endswith(suffix):
            return Problem(
                f"{what} ends with {suffix!r}, which S3 reserves for {reserved_for}",
                "name the general purpose bucket itself: the project grants the pods access to "
                "arn:aws:s3:::BUCKET/PREFIX* by the bucket's own name",
            )
    return None


def s3_uri_problem(uri: str) -> Problem | None:
    """``None`` if ``uri`` is ``s3://BUCKET`` or ``s3://BUCKET/PREFIX`` with a valid bucket name and a prefix that
    is an S3 key of at most 1,024 bytes, without whitespace or IAM wildcards (``*``, ``?``, ``${``)."""
    example = "s3://my-model-bucket/moonshotai/Kimi-K3/"
    if not uri.startswith("s3://"):
        if uri.startswith(("https://", "http://")) and ".amazonaws.com" in uri[:200]:
            hint = "write the bucket's s3:// URI, not its web address"
        elif uri.startswith("arn:"):
            hint = "write the bucket's s3:// URI, not an ARN"
        else:
            hint = "write it as s3://BUCKET/PREFIX/"
        return Problem(f"{quoted(uri)} is not an s3:// URI", f"{hint}, for example {example}")
    bucket, _, prefix = uri.removeprefix("s3://").partition("/")
    if not bucket:
        return Problem(
            f"{quoted(uri)} names no bucket",
            f"write it as s3://BUCKET/PREFIX/, for example {example}",
        )
    problem = bucket_name_problem(bucket)
    if problem is not None:
        return Problem(f"{quoted(uri)}: {problem.problem}", problem.fix)
    if any(ch.isspace() for ch in prefix):
        return Problem(
            f"the prefix of {quoted(uri)} contains whitespace",
            "write the prefix without spaces (the weights' keys are written under it)",
        )
    if prefix.startswith("/") or "//" in prefix:
        return Problem(
            f"the prefix of {quoted(uri)} has an empty segment ('/' after '/'): S3 keeps every '/' in the "
            "key, and llmops weights mirror writes a prefix ending in '//' one '/' shorter than the pods "
            "read it (ops_cli/weights.py s3_location)",
            f"write the prefix with single '/' between its parts, for example {example}",
        )
    wildcard = next((mark for mark in ("*", "?", "${") if mark in prefix), None)
    if wildcard is not None:
        return Problem(
            f"the prefix of {quoted(uri)} contains {wildcard!r}, which IAM reads as a wildcard or a policy "
            "variable in the pods' S3 permissions: they would reach more than this prefix",
            f"name one fixed prefix, for example {example}",
        )
    if len(prefix.encode("utf-8", "surrogatepass")) > MAX_KEY_BYTES:
        return Problem(
            f"the prefix of {quoted(uri)} is longer than an S3 key can be ({MAX_KEY_BYTES} bytes)",
            "use a shorter prefix",
        )
    return None
