"""Resource tags: keys, values and their count, as AWS restricts them."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping

from deployment_config.aws_rules._characters import _describe_char
from deployment_config.errors import Problem, quoted

# Sources:
#   - the IAM API model (botocore/data/iam/2010-05-08/service-2.json): tagKeyType min 1, max 128, pattern
#     "[\p{L}\p{Z}\p{N}_.:/=+\-@]+"; tagValueType min 0, max 256, pattern "[\p{L}\p{Z}\p{N}_.:/=+\-@]*";
#   - the tag restrictions AWS documents for the resources this project tags, e.g. AWS::EKS::AccessEntry Tag
#     (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-properties-eks-accessentry-tag.html) and
#     the Tagging AWS Resources guide: "Maximum number of tags per resource – 50", "Maximum key length – 128
#     Unicode characters in UTF-8", "Maximum value length – 256 Unicode characters in UTF-8", "letters, numbers, and
#     spaces representable in UTF-8, and the following characters: + - = . _ : / @", "Do not use aws:, AWS:, or any
#     upper or lowercase combination of such as a prefix for either keys or values".
# \p{Z} also matches the line and paragraph separators (Zl, Zp); they are refused here, as everywhere (they break
# lines in YAML and logs): "spaces" are the Zs characters.
MAX_TAGS_PER_RESOURCE = 50
MAX_TAG_KEY_LENGTH = 128
MAX_TAG_VALUE_LENGTH = 256
_TAG_SYMBOLS = frozenset("_.:/=+-@")


def _tag_char_ok(ch: str) -> bool:
    category = unicodedata.category(ch)
    return category[0] in "LN" or category == "Zs" or ch in _TAG_SYMBOLS


def _tag_text_problem(text: str, *, part: str, key: str, max_length: int) -> Problem | None:
    label = f"the tag key {quoted(key)}" if part == "key" else f"the value of the tag {quoted(key)}"
    if len(text) > max_length:
        return Problem(
            problem=f"{label} is {len(text)} characters long; AWS allows at most {max_length}",
            fix=f"shorten it to {max_length} characters or fewer",
        )
    if text[:4].casefold() == "aws:":
        return Problem(
            problem=f"{label} starts with 'aws:', a prefix AWS reserves for its own tags",
            fix="drop the prefix or use another one, for example 'team:'",
        )
    bad = next((i for i, ch in enumerate(text) if not _tag_char_ok(ch)), None)
    if bad is not None:
        return Problem(
            problem=f"{label} contains {_describe_char(text[bad])} at position {bad + 1}; tags allow letters, "
            "digits, spaces and _ . : / = + - @",
            fix="remove or replace that character",
        )
    return None


def tags_problems(
    tags: Mapping[str, str], *, reserved_keys: tuple[str, ...] = ()
) -> list[tuple[str | None, Problem]]:
    """Problems with the user's resource tags, each with its key (``None`` for the count of tags).

    :param reserved_keys: the tag keys the project adds itself (``("environment",)``): a user tag with one of these
        keys is refused, and they count toward the 50 tags a resource may have, so the user may set at most
        ``50 - len(reserved_keys)``.
    """
    problems: list[tuple[str | None, Problem]] = []
    reserved = tuple(dict.fromkeys(reserved_keys))
    for key, value in tags.items():
        if key in reserved:
            problems.append(
                (
                    key,
                    Problem(
                        problem=f"the tag {quoted(key)} is set by the project itself ({', '.join(map(repr, reserved))})",
                        fix="remove it from tags, or rename it",
                    ),
                )
            )
            continue
        if key == "":
            problems.append(
                (
                    key,
                    Problem(
                        problem="a tag key is empty", fix="give the tag a key, for example 'team'"
                    ),
                )
            )
            continue
        problem = _tag_text_problem(
            key, part="key", key=key, max_length=MAX_TAG_KEY_LENGTH
        ) or _tag_text_problem(value, part="value", key=key, max_length=MAX_TAG_VALUE_LENGTH)
        if problem is not None:
            problems.append((key, problem))
    total = len(set(tags) | set(reserved))
    if total > MAX_TAGS_PER_RESOURCE:
        allowed = MAX_TAGS_PER_RESOURCE - len(reserved)
        added = (
            f" plus the {len(reserved)} the project adds ({', '.join(map(repr, reserved))})"
            if reserved
            else ""
        )
        problems.append(
            (
                None,
                Problem(
                    problem=f"{len(tags)} tags{added} make {total}; AWS allows at most {MAX_TAGS_PER_RESOURCE} per resource",
                    fix=f"remove {total - MAX_TAGS_PER_RESOURCE} or more: you can set at most {max(allowed, 0)} tags yourself",
                ),
            )
        )
    return problems
