"""Offline validation rules for values in the configuration files: regions, zones, accounts, ARNs, CIDRs, tags...

Every rule is pure (no network, no AWS credentials) and returns a :class:`~deployment_config.errors.Problem`
(what is wrong, and the fix) or ``None``; the rules that judge a collection return a list of ``(where, Problem)``.
The loader adds the field's dotted path. No rule raises for an input of the declared Python type, every rule's
cost is bounded for huge input, and no message quotes more than :data:`~deployment_config.errors.MAX_QUOTED`
characters of a value (values go through :func:`~deployment_config.errors.quoted`).

Each fact about AWS, Git or Hugging Face carries its source in a comment next to the code that uses it.
"""

from __future__ import annotations

import difflib
import functools
import importlib.util
import ipaddress
import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from pathlib import Path

from deployment_config.errors import Problem, quoted
from deployment_config.pasted_secrets import find_token

__all__ = [
    "FALLBACK_ZONE_LETTERS",
    "MAX_PUBLIC_IPV4_ADDRESSES",
    "MAX_PUBLIC_IPV6_ADDRESSES",
    "MAX_TAGS_PER_RESOURCE",
    "account_problem",
    "allowed_cidrs_problems",
    "arn_problem",
    "git_branch_problem",
    "hugging_face_id_problem",
    "image_problem",
    "known_partitions",
    "known_regions",
    "partition_of",
    "pasted_token_problem",
    "region_problem",
    "role_arn_problem",
    "role_name_problem",
    "tags_problems",
    "text_problem",
    "vpc_cidr_problem",
    "zone_letters",
    "zone_problem",
]

_NetworkV4V6 = ipaddress.IPv4Network | ipaddress.IPv6Network


# --------------------------------------------------------------------------------------------------------------
# Characters: naming the invisible ones in messages
# --------------------------------------------------------------------------------------------------------------

#: Unicode general categories no configuration value may contain: controls (Cc: NUL, tab, newline, DEL, C1),
#: invisible formatting characters (Cf: zero-width space/joiners, bidi overrides, BOM), unpaired surrogates (Cs:
#: not encodable in UTF-8), and the line/paragraph separators (Zl, Zp), which break lines like a newline does.
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})

# Control characters have no Unicode name (unicodedata.name raises for them); these are the ones people paste.
_CONTROL_NAMES = {
    "\x00": "NUL", "\t": "TAB", "\n": "LINE FEED", "\x0b": "VERTICAL TAB", "\x0c": "FORM FEED",
    "\r": "CARRIAGE RETURN", "\x1b": "ESCAPE", "\x7f": "DELETE", "\x85": "NEXT LINE",
}


def _describe_char(ch: str) -> str:
    """``ch`` as a message names it: ``the control character U+000A (line feed)``."""
    category = unicodedata.category(ch)
    kind = {
        "Cc": "the control character", "Cf": "the invisible formatting character", "Cs": "the unpaired surrogate",
        "Zl": "the line separator", "Zp": "the paragraph separator",
    }.get(category, "the character")
    name = _CONTROL_NAMES.get(ch) or unicodedata.name(ch, "")
    shown = "" if category in _INVISIBLE_CATEGORIES or ch.isspace() else f"{ch!r} "
    named = f" ({name.lower()})" if name and name.lower() not in kind else ""
    return f"{kind} {shown}U+{ord(ch):04X}{named}"


def _first_invisible(value: str) -> tuple[int, str] | None:
    for index, ch in enumerate(value):
        if unicodedata.category(ch) in _INVISIBLE_CATEGORIES:
            return index, ch
    return None


def _invisible_problem(value: str, label: str) -> Problem | None:
    """The first control/invisible character in ``value``, named and located, or ``None``."""
    found = _first_invisible(value)
    if found is None:
        return None
    index, ch = found
    where = "at the end" if index == len(value) - 1 else f"at position {index + 1}"
    return Problem(
        problem=f"{label}{quoted(value)} contains {_describe_char(ch)} {where}",
        fix="retype the value without it (it is invisible in most editors); a YAML '|' block keeps a final "
        "newline, so write the value as a plain or quoted string",
    )


def _surface_problem(value: str, what: str) -> Problem | None:
    """Control/invisible characters in, or whitespace around, an identifier that allows neither."""
    invisible = _invisible_problem(value, f"{what} ")
    if invisible is not None:
        return invisible
    stripped = value.strip()
    if stripped != value:
        return Problem(
            problem=f"{what} {quoted(value)} has leading or trailing whitespace",
            fix=f"write it without the surrounding spaces: {quoted(stripped)}",
        )
    return None


# --------------------------------------------------------------------------------------------------------------
# Generic text
# --------------------------------------------------------------------------------------------------------------


def text_problem(value: str, *, max_length: int) -> Problem | None:
    """The check every string field of the configuration goes through.

    Refuses control and invisible characters anywhere (Unicode categories Cc, Cf, Cs, Zl, Zp: a trailing newline,
    tab, NUL, zero-width spaces, bidi overrides, BOM, line separators), leading or trailing whitespace, and more than
    ``max_length`` characters (code points). The empty string passes: whether a field is required is the loader's call.
    First of all it refuses a token pasted into the file (:func:`pasted_token_problem`).
    """
    pasted = pasted_token_problem(value)
    if pasted is not None:
        return pasted
    invisible = _invisible_problem(value, "")
    if invisible is not None:
        return invisible
    stripped = value.strip()
    if stripped != value:
        return Problem(
            problem=f"{quoted(value)} has leading or trailing whitespace",
            fix=f"remove the surrounding spaces: {quoted(stripped)}",
        )
    if len(value) > max_length:
        return Problem(
            problem=f"{quoted(value)} is {len(value)} characters long; at most {max(max_length, 0)} are allowed",
            fix=f"shorten it to {max(max_length, 0)} characters or fewer",
        )
    return None


def pasted_token_problem(value: str) -> Problem | None:
    """A token itself (a Hugging Face or Docker Hub token, by its published shape: :mod:`deployment_config.
    pasted_secrets`) where a secret's name or any other setting goes; the message shows only its prefix and length."""
    token = find_token(value)
    if token is None:
        return None
    shape = token.shape
    return Problem(
        problem=f"holds {shape.kind} itself ({token.shown}), not the name of the secret that holds it: a token "
        "in the configuration file is in clear text in the repository, the synthesized templates and the cluster's "
        "manifests",
        fix=f"never put a token in a file. Remove it; if this file was committed or shared, revoke the token "
        f"({shape.revoke}). Then {shape.store}",
    )


# --------------------------------------------------------------------------------------------------------------
# Regions and partitions
# --------------------------------------------------------------------------------------------------------------

# Source: botocore's shipped endpoint partition data, botocore/data/partitions.json (read offline as a file: importing
# botocore itself would add 70 ms to every synthesis). Each partition lists its regions and a "regionRegex"; the
# pseudo regions such as "aws-global" / "aws-cn-global" (global endpoints, not places you can deploy to) do not
# match their partition's regionRegex, which is how they are excluded here.


@functools.cache
def _partition_data() -> tuple[tuple[str, tuple[str, ...]], ...]:
    package = importlib.util.find_spec("botocore")
    data = json.loads((Path(package.origin).parent / "data" / "partitions.json").read_text(encoding="utf-8"))
    partitions = []
    for partition in data["partitions"]:
        pattern = re.compile(partition["regionRegex"], re.ASCII)
        regions = tuple(sorted(name for name in partition["regions"]
                               if not name.endswith("-global") and pattern.fullmatch(name)))
        partitions.append((partition["id"], regions))
    return tuple(partitions)


@functools.cache
def _regions() -> dict[str, str]:
    """Every real region botocore knows, mapped to its partition id (``us-west-2`` -> ``aws``)."""
    return dict(sorted((region, pid) for pid, regions in _partition_data() for region in regions))


def known_regions() -> tuple[str, ...]:
    """The real regions this module accepts, sorted (from botocore's partitions.json, pseudo regions excluded)."""
    return tuple(_regions())


def known_partitions() -> tuple[str, ...]:
    """The partition ids in botocore's partitions.json: ``aws``, ``aws-cn``, ``aws-us-gov``, ..."""
    return tuple(pid for pid, _ in _partition_data())


def _closest(value: str, choices: Sequence[str]) -> str | None:
    """The choice most like ``value`` (difflib), compared on a bounded, lower-cased prefix so huge input stays cheap."""
    probe = value[:64].strip().lower()
    found = difflib.get_close_matches(probe, choices, n=1, cutoff=0.6)
    return found[0] if found else None


def region_problem(region: str) -> Problem | None:
    """``None`` if ``region`` is a real AWS region in botocore's partitions.json (pseudo regions excluded)."""
    regions = _regions()
    if region in regions:
        return None
    if region.strip() != region and region.strip() in regions:
        return Problem(
            problem=f"the region {quoted(region)} has leading or trailing whitespace",
            fix=f"write it as {region.strip()!r}, without spaces or a newline",
        )
    if region.endswith("-global") and len(region) < 64:
        return Problem(
            problem=f"{quoted(region)} is a global endpoint name, not a region you can deploy to",
            fix="use a region code such as 'us-east-1' or 'us-west-2'",
        )
    guess = _closest(region, known_regions())
    if guess:
        fix = f"did you mean {guess!r}? Use a region code such as 'us-west-2' (`aws ec2 describe-regions` lists them)"
    else:
        fix = "use a region code such as 'us-east-1' or 'us-west-2' (`aws ec2 describe-regions` lists them)"
    return Problem(problem=f"{quoted(region)} is not an AWS region", fix=fix)


def partition_of(region: str) -> str:
    """The partition of a valid region: ``aws``, ``aws-cn``, ``aws-us-gov``, ...; ``ValueError`` for anything else."""
    try:
        return _regions()[region]
    except KeyError:
        raise ValueError(f"{quoted(region)} is not an AWS region") from None


# --------------------------------------------------------------------------------------------------------------
# Availability Zones
# --------------------------------------------------------------------------------------------------------------

# botocore does not list zones. deployment_config/data/availability_zones.json holds, per region, the AZ IDs of
# the AWS page "AWS Availability Zones"
# (https://docs.aws.amazon.com/global-infrastructure/latest/regions/aws-availability-zones.html; the file's
# "source" key says which version) and the letters derived from them. That page also says that:
#   - an AZ code is "its Region code followed by a letter identifier";
#   - in the oldest regions the codes are mapped to physical zones independently per account (only the AZ ID,
#     e.g. usw2-az1, is the same place in every account);
#   - "your account might have a different number of available Availability Zones in a Region than another
#     account does" (constrained zones are removed for new accounts; newer accounts see two zones in us-west-1).
# So the set of letters is NOT the same for every account: the table is an upper bound. A letter outside it names
# no zone of the region in any account; a letter inside it may still be absent from a given account, which only
# `aws ec2 describe-availability-zones` (preflight) can tell.
_ZONE_DATA = Path(__file__).resolve().parent / "data" / "availability_zones.json"

#: Letters assumed for a region the table does not list (GovCloud, China, ISO, newer regions): a to f.
FALLBACK_ZONE_LETTERS = "abcdef"


@functools.cache
def _zone_table() -> dict[str, str]:
    data = json.loads(_ZONE_DATA.read_text(encoding="utf-8"))
    return {region: entry["letters"] for region, entry in data["regions"].items()}


def zone_letters(region: str) -> str:
    """The letters an Availability Zone of ``region`` can end with (an upper bound; see the module's comments).

    From ``data/availability_zones.json``; a region missing from that table gets :data:`FALLBACK_ZONE_LETTERS`.
    """
    return _zone_table().get(region, FALLBACK_ZONE_LETTERS)


def zone_problem(zone: str, *, region: str) -> Problem | None:
    """``None`` if ``zone`` is an Availability Zone name of ``region``: the region followed by one lower-case letter
    that the region has in some account (``us-west-2a``..``us-west-2d``, not ``us-west-2z``).

    Regions missing from ``data/availability_zones.json`` accept the letters a-f. Local Zones and Wavelength Zones
    (``us-west-2-lax-1a``) are refused: this project puts the EKS subnets and the GPU capacity in a regular
    Availability Zone.
    """
    if region_problem(region) is not None:
        return Problem(
            problem=f"cannot check the Availability Zone {quoted(zone)}: the region {quoted(region)} is not an AWS region",
            fix="fix the region first; a zone is the region followed by one letter, for example 'us-west-2a'",
        )
    letters = zone_letters(region)
    listed = ", ".join(region + letter for letter in letters)
    which = f"the zones of {region} are {listed}"
    if region not in _zone_table():
        which += " (letters a-f assumed: the project's zone table does not list this region)"
    look = f"`aws ec2 describe-availability-zones --region {region}` shows the ones your account has"
    surface = _surface_problem(zone, "the Availability Zone")
    if surface is not None:
        return surface
    if len(zone) == len(region) + 1 and zone.startswith(region) and zone[-1] in letters:
        return None
    # A Local Zone or Wavelength Zone is named after its parent region: us-west-2-lax-1a, us-east-1-wl1-bos-wlz-1
    # (ZoneType local-zone / wavelength-zone in describe-availability-zones output).
    parent = next((r for r in known_regions() if zone.startswith(r + "-")), None)
    if parent is not None:
        return Problem(
            problem=f"{quoted(zone)} is a Local Zone or Wavelength Zone of {parent}, not an Availability Zone; "
            "this project needs a regular Availability Zone for the EKS subnets and the GPU capacity",
            fix=f"use an Availability Zone: {which}",
        )
    other = zone[:-1]
    if other in _regions() and other != region and zone[-1:].isascii() and zone[-1:].islower():
        return Problem(
            problem=f"{quoted(zone)} is a zone of {other}, but the environment's region is {region}",
            fix=f"use a zone of {region} ({listed}), or set the region to {other}",
        )
    if zone.startswith(region) and len(zone) == len(region) + 1:
        letter = zone[-1]
        if letter.isascii() and letter.isupper() and letter.lower() in letters:
            return Problem(
                problem=f"{quoted(zone)} has an upper-case letter; Availability Zone names are lower case",
                fix=f"write {region + letter.lower()!r}",
            )
        if letter.isascii() and letter.islower():
            return Problem(
                problem=f"{region} has no Availability Zone {zone!r}",
                fix=f"use one of them: {which}; {look}",
            )
    return Problem(
        problem=f"{quoted(zone)} is not an Availability Zone of {region}: a zone name is the region followed by one "
        "lower-case letter",
        fix=f"use one of them: {which}; {look}",
    )


# --------------------------------------------------------------------------------------------------------------
# Accounts
# --------------------------------------------------------------------------------------------------------------

# Source: the IAM API model, botocore/data/iam/2010-05-08/service-2.json, shape accountIdType: pattern "\d{12}".
# AWS's regex engine reads \d as the ASCII digits; Python's does not (it accepts '１' and '١'), hence [0-9].
_ACCOUNT_ID = re.compile(r"[0-9]{12}")


def account_problem(account: str) -> Problem | None:
    """``None`` if ``account`` is an AWS account ID: exactly 12 ASCII digits (leading zeros count)."""
    if _ACCOUNT_ID.fullmatch(account):
        return None
    surface = _surface_problem(account, "the account ID")
    if surface is not None:
        return surface
    how = "copy it from `aws sts get-caller-identity --query Account --output text` and quote it in YAML " \
          "(\"012345678901\") so that leading zeros stay"
    if account and account.isdecimal() and not account.isascii():
        return Problem(
            problem=f"the account ID {quoted(account)} has digits that are not ASCII 0-9 (full-width or another script)",
            fix=f"type it with the digits 0-9; {how}",
        )
    if account.isascii() and account.isdigit():
        return Problem(
            problem=f"the account ID {quoted(account)} has {len(account)} digits; an AWS account ID has exactly 12",
            fix=how,
        )
    if re.fullmatch(r"[0-9]{4}-[0-9]{4}-[0-9]{4}", account):
        return Problem(
            problem=f"the account ID {quoted(account)} has dashes (as the console shows it)",
            fix=f"write the 12 digits alone: {account.replace('-', '')!r}",
        )
    return Problem(problem=f"{quoted(account)} is not an AWS account ID: it must be exactly 12 digits", fix=how)


# --------------------------------------------------------------------------------------------------------------
# ARNs
# --------------------------------------------------------------------------------------------------------------

# Source: the IAM API model (botocore/data/iam/2010-05-08/service-2.json), shape arnType: min 20, max 2048.
ARN_MAX_LENGTH = 2048
# Source: "Amazon Resource Names (ARNs)", https://docs.aws.amazon.com/IAM/latest/UserGuide/reference-arns.html:
# arn:partition:service:region:account-id:resource (the resource part may itself contain ':' and '/').
_ARN_FORM = "arn:PARTITION:SERVICE:REGION:ACCOUNT:RESOURCE"


def _arn_label(what: str) -> str:
    """``"training plan"`` -> ``"the training plan ARN"``, so that callers may pass either form."""
    label = what.strip()[:80] or "the"
    if not label.lower().startswith("the "):
        label = f"the {label}"
    return label if label.endswith("ARN") else f"{label} ARN"


def arn_problem(
    arn: str,
    *,
    service: str,
    resource_pattern: str,
    region: str | None,
    account: str | None,
    what: str,
    partition: str | None = None,
    resource_example: str | None = None,
) -> Problem | None:
    """``None`` if ``arn`` is ``arn:PARTITION:SERVICE:REGION:ACCOUNT:RESOURCE`` as the caller expects.

    ``region`` and ``account`` work alike: a value pins the field, ``""`` means the field must be empty (global
    resources), and ``None`` means "not known here" (for example because the environment's region failed its own
    check), so only the field's form is checked.

    :param service: the service field, exactly (``iam``, ``eks``, ``sagemaker``...).
    :param resource_pattern: a regular expression the resource part (everything after the fifth ``:``) must match
        in full; it is matched with ``re.fullmatch`` and ``re.ASCII``.
    :param region: the region the resource must be in (the ARN's partition must then be that region's), or ``""``
        for a resource without a region (IAM roles, S3 buckets), or ``None`` to accept any real region or none.
    :param account: the account that must own the resource, or ``""`` for ARNs without an account (S3 buckets), or
        ``None`` to accept any 12-digit account.
    :param what: what the ARN is, for messages: ``"training plan"`` or ``"the cluster admin role ARN"``.
    :param partition: the partition the ARN must be in when ``region`` does not decide it (``""`` or ``None``),
        for example ``partition_of(environment_region)``; ``None`` accepts any partition that fits the ARN's region.
    :param resource_example: how the resource part should look, for the fix: ``"role/NAME"``.
    """
    label = _arn_label(what)
    if len(arn) > ARN_MAX_LENGTH:
        return Problem(
            problem=f"{label} {quoted(arn)} is longer than the {ARN_MAX_LENGTH} characters an ARN can have",
            fix=f"copy the ARN again; it has the form {_ARN_FORM}",
        )
    surface = _surface_problem(arn, label)
    if surface is not None:
        return surface
    example = resource_example or "RESOURCE"
    if partition is not None and partition not in known_partitions():
        return Problem(
            problem=f"cannot check {label}: {quoted(partition)} is not an AWS partition",
            fix=f"use one of {', '.join(known_partitions())}",
        )
    if region and region_problem(region) is not None:
        return Problem(
            problem=f"cannot check {label}: the region {quoted(region)} is not an AWS region",
            fix="fix the region first",
        )
    expected_partition = partition_of(region) if region else partition
    shown_account = account if account is not None and (account == "" or _ACCOUNT_ID.fullmatch(account)) else "ACCOUNT"
    shown_region = "REGION" if region is None else region
    shape = f"arn:{expected_partition or 'aws'}:{service}:{shown_region}:{shown_account}:{example}"
    parts = arn.split(":", 5)
    if len(parts) < 6 or parts[0] != "arn":
        return Problem(
            problem=f"{label} {quoted(arn)} is not an ARN",
            fix=f"an ARN has the form {_ARN_FORM}; here: {shape}",
        )
    _, arn_partition, arn_service, arn_region, arn_account, resource = parts
    if arn_partition not in known_partitions():
        return Problem(
            problem=f"{label} {quoted(arn)} names the partition {quoted(arn_partition)}, which does not exist",
            fix=f"use {expected_partition or 'aws'!r} (partitions: {', '.join(known_partitions())}); here: {shape}",
        )
    if expected_partition is not None and arn_partition != expected_partition:
        because = f"{region} is in {expected_partition}" if region else f"this environment is in {expected_partition}"
        return Problem(
            problem=f"{label} {quoted(arn)}: the ARN is in partition {arn_partition}, but {because}",
            fix=f"use the ARN from the environment's partition: {shape}",
        )
    if arn_service != service:
        return Problem(
            problem=f"{label} {quoted(arn)} is an ARN of the service {quoted(arn_service)}, not {service}",
            fix=f"use the {service} ARN: {shape}",
        )
    if region == "" and arn_region != "":
        return Problem(
            problem=f"{label} {quoted(arn)} names the region {quoted(arn_region)}, but {service} ARNs of this kind "
            "have no region",
            fix=f"leave the region field empty: {shape}",
        )
    if region and arn_region != region:
        return Problem(
            problem=f"{label} {quoted(arn)} is in the region {quoted(arn_region)}, but the environment's region is "
            f"{region}",
            fix=f"use the ARN of the resource in {region}: {shape}",
        )
    if region is None and arn_region != "":
        if region_problem(arn_region) is not None:
            return Problem(
                problem=f"{label} {quoted(arn)} names {quoted(arn_region)}, which is not an AWS region",
                fix=f"use the ARN of the resource in the environment's region: {shape}",
            )
        if partition_of(arn_region) != arn_partition:
            return Problem(
                problem=f"{label} {quoted(arn)}: the ARN is in partition {arn_partition}, but {arn_region} is in "
                f"{partition_of(arn_region)}",
                fix=f"copy the ARN again: {shape}",
            )
    if account == "":
        if arn_account != "":
            return Problem(
                problem=f"{label} {quoted(arn)} names the account {quoted(arn_account)}, but {service} ARNs of this "
                "kind have no account",
                fix=f"leave the account field empty: {shape}",
            )
    elif not _ACCOUNT_ID.fullmatch(arn_account):
        return Problem(
            problem=f"{label} {quoted(arn)} has {quoted(arn_account)} where the 12-digit account ID belongs",
            fix=f"use the owning account's 12-digit ID: {shape}",
        )
    elif account is not None and arn_account != account:
        return Problem(
            problem=f"{label} {quoted(arn)} belongs to the account {arn_account}, but the environment's account is "
            f"{quoted(account)}",
            fix=f"use the resource of account {quoted(account)}: {shape}, or change the account",
        )
    if not re.fullmatch(resource_pattern, resource, re.ASCII):
        return Problem(
            problem=f"{label} {quoted(arn)} has the resource part {quoted(resource)}, which is not of the form "
            f"{example}",
            fix=f"use an ARN of the form {shape}",
        )
    return None


# Source: the IAM API model, botocore/data/iam/2010-05-08/service-2.json (botocore 1.43):
#   roleNameType: {"min": 1, "max": 64, "pattern": "[\w+=,.@-]+"}; CreateRole's documentation spells the
#     alphabet out: "upper and lowercase alphanumeric characters with no spaces ... _+=,.@-", so \w is ASCII here.
#   pathType: {"min": 1, "max": 512, "pattern": "(\u002F)|(\u002F[\u0021-\u007E]+\u002F)"} (the documentation
#     says "through the DEL character (\u007F)", the pattern stops at "~" \u007E; the pattern is what is enforced).
# Role ARNs: arn:PARTITION:iam::ACCOUNT:role/PATH/NAME, the path being "/" or "/.../"
# (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_identifiers.html#identifiers-arns).
ROLE_NAME_MAX_LENGTH = 64
ROLE_PATH_MAX_LENGTH = 512
_ROLE_NAME = re.compile(r"[A-Za-z0-9_+=,.@-]{1,64}")
_ROLE_NAME_CHAR = re.compile(r"[A-Za-z0-9_+=,.@-]")
_ROLE_PATH = re.compile(r"/|/[\x21-\x7e]+/")


def role_name_problem(name: str) -> Problem | None:
    """``None`` if ``name`` is a valid IAM role name: 1 to 64 of ``A-Z a-z 0-9 _ + = , . @ -``."""
    if _ROLE_NAME.fullmatch(name):
        return None
    if not name:
        return Problem(problem="the IAM role name is empty", fix="write the role's name, for example 'PlatformAdmin'")
    bad = next((i for i, ch in enumerate(name) if not _ROLE_NAME_CHAR.fullmatch(ch)), None)
    if bad is not None:
        return Problem(
            problem=f"the IAM role name {quoted(name)} contains {_describe_char(name[bad])} at position {bad + 1}; "
            "role names allow only letters A-Z a-z, digits and _ + = , . @ -",
            fix="use the role's exact name as `aws iam list-roles` shows it",
        )
    return Problem(
        problem=f"the IAM role name {quoted(name)} has {len(name)} characters; IAM allows at most {ROLE_NAME_MAX_LENGTH}",
        fix="use the role's exact name as `aws iam list-roles` shows it",
    )


def role_arn_problem(arn: str, *, partition: str, account: str | None = None) -> Problem | None:
    """``None`` if ``arn`` is an IAM role ARN in ``partition``: ``arn:PARTITION:iam::ACCOUNT:role[/PATH/]NAME``.

    :param partition: the environment's partition (``partition_of(region)``).
    :param account: the account the role must belong to; ``None`` accepts any 12-digit account.
    """
    what = "the IAM role ARN"
    partition_shown = partition if partition in known_partitions() else "aws"
    parts = arn.split(":", 5) if len(arn) <= ARN_MAX_LENGTH else []
    # `aws sts get-caller-identity` prints the assumed-role session, which people paste for the role:
    # arn:aws:sts::123456789012:assumed-role/NAME/SESSION.
    if (len(parts) == 6 and parts[0] == "arn" and parts[2] == "sts" and parts[5].startswith("assumed-role/")
            and _surface_problem(arn, what) is None):
        name = parts[5].split("/")[1]
        name = name if _ROLE_NAME.fullmatch(name) else "NAME"
        owner = parts[4] if _ACCOUNT_ID.fullmatch(parts[4]) else "ACCOUNT"
        return Problem(
            problem=f"{quoted(arn)} is an assumed-role session (sts), not the IAM role's ARN",
            fix=f"use the role's ARN, arn:{partition_shown}:iam::{owner}:role/{name} "
            "(`aws iam get-role --role-name NAME --query Role.Arn` prints it; the role may have a path)",
        )
    problem = arn_problem(
        arn, service="iam", resource_pattern=r"role/.*", region="", account=account, what=what,
        partition=partition, resource_example="role/NAME",
    )
    if problem is not None:
        return problem
    resource = arn.split(":", 5)[5]
    rest = resource[len("role"):]
    cut = rest.rfind("/")
    path, name = rest[: cut + 1], rest[cut + 1:]
    if len(path) > ROLE_PATH_MAX_LENGTH or not _ROLE_PATH.fullmatch(path):
        return Problem(
            problem=f"{what} {quoted(arn)} has the path {quoted(path)}; an IAM path is '/' or '/.../' of at most "
            f"{ROLE_PATH_MAX_LENGTH} printable ASCII characters, with no empty part",
            fix="copy the ARN from `aws iam get-role --role-name NAME --query Role.Arn`",
        )
    name_problem = role_name_problem(name)
    if name_problem is not None:
        return Problem(problem=f"{what} {quoted(arn)}: {name_problem.problem}", fix=name_problem.fix)
    return None


# --------------------------------------------------------------------------------------------------------------
# CIDR blocks
# --------------------------------------------------------------------------------------------------------------

# Text accepted as a CIDR block before ipaddress sees it: ASCII only, an explicit prefix length without leading
# zeros, and a bounded length (ipaddress alone would accept "10.0.0.0/255.255.0.0" and quote the whole input).
_IPV4_CIDR_TEXT = re.compile(r"(?:[0-9]{1,3}\.){3}[0-9]{1,3}/(?:0|[1-9][0-9]?)", re.ASCII)
_IPV6_CIDR_TEXT = re.compile(r"[0-9A-Fa-f:.]{2,45}/(?:0|[1-9][0-9]{0,2})", re.ASCII)

# RFC 1918 private ranges, and RFC 6598 shared address space (100.64.0.0/10). Source for AWS allowing them in a
# VPC: Amazon VPC User Guide, "VPC CIDR blocks" (https://docs.aws.amazon.com/vpc/latest/userguide/vpc-cidr-blocks.html;
# read as awsdocs/amazon-vpc-user-guide doc_source/VPC_Subnets.md @0c57cd9f2356936b9956b19d09249e59e33f8f69): "The
# allowed block size is between a /16 netmask (65,536 IP addresses) and /28 netmask (16 IP addresses)", RFC 1918
# ranges recommended, and the association table permits "a CIDR block from the 100.64.0.0/10 range".
PRIVATE_IPV4_RANGES = tuple(ipaddress.IPv4Network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16",
                                                               "100.64.0.0/10"))
# Same page (current version): "Some AWS services use the 172.17.0.0/16 CIDR range. To avoid future conflicts,
# don't use this range when creating your VPC. For example, services like AWS Cloud9 or Amazon SageMaker can
# experience IP address conflicts" -- the HyperPod path of this project is SageMaker.
_DOCKER_BRIDGE = ipaddress.IPv4Network("172.17.0.0/16")
#: The prefix lengths this project accepts for the VPC (the range the configuration's schema documents). AWS allows
#: /16 to /28. Note: stacks/network_stack.py lays out a /20 private and a /24 public subnet per zone (4,352
#: addresses), so two zones need at least a /18; a /19 or /20 passes here but cannot hold the layout.
VPC_PREFIX_RANGE = (16, 20)

# Special-purpose IPv4 ranges (IANA registry, RFC 6890) that make no sense as a VPC or as a traffic source.
_SPECIAL_IPV4 = tuple((ipaddress.IPv4Network(n), name, why) for n, name, why in (
    ("0.0.0.0/8", "the 'this network' range (RFC 1122)", "no packet comes from it"),
    ("127.0.0.0/8", "the loopback range (RFC 1122)", "it never leaves a host"),
    ("169.254.0.0/16", "the link-local range (RFC 3927)", "routers do not forward it"),
    ("224.0.0.0/4", "the multicast range (RFC 5771)", "a multicast address is never a packet's source"),
    ("240.0.0.0/4", "the reserved range (RFC 1112), with the broadcast address 255.255.255.255",
     "no packet comes from it"),
))
_SPECIAL_IPV6 = tuple((ipaddress.IPv6Network(n), name, why) for n, name, why in (
    ("::/128", "the unspecified address (RFC 4291)", "no packet comes from it"),
    ("::1/128", "the loopback address (RFC 4291)", "it never leaves a host"),
    ("::ffff:0:0/96", "the IPv4-mapped range (RFC 4291)", "write the IPv4 CIDR block instead"),
    ("fe80::/10", "the link-local range (RFC 4291)", "routers do not forward it"),
    ("ff00::/8", "the multicast range (RFC 4291)", "a multicast address is never a packet's source"),
))
# Unique local addresses (RFC 4193): the IPv6 counterpart of the private ranges.
PRIVATE_IPV6_RANGES = (ipaddress.IPv6Network("fc00::/7"),)


def _parse_cidr(text: str, what: str, example: str) -> tuple[_NetworkV4V6 | None, Problem | None]:
    """A strictly written CIDR block (network address, explicit prefix), or the problem with ``text``."""
    surface = _surface_problem(text, what)
    if surface is not None:
        return None, surface
    how = f"write a network address and a prefix length, for example {example}"
    if "/" not in text and len(text) <= 45:
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            address = None
        if address is not None:
            return None, Problem(problem=f"{what} {quoted(text)} has no prefix length", fix=how)
    v4 = _IPV4_CIDR_TEXT.fullmatch(text)
    if not (v4 or _IPV6_CIDR_TEXT.fullmatch(text)):
        return None, Problem(problem=f"{what} {quoted(text)} is not a CIDR block", fix=how)
    address_text, _, prefix_text = text.partition("/")
    if v4:
        octets = address_text.split(".")
        reason = ("an octet above 255" if any(int(o) > 255 for o in octets)
                  else "an octet with a leading zero, which some tools read as octal" if any(len(o) > 1 and o[0] == "0"
                                                                                          for o in octets)
                  else "a prefix longer than /32" if int(prefix_text) > 32 else None)
    else:
        reason = "a prefix longer than /128" if int(prefix_text) > 128 else None
    try:
        if reason is None:
            return ipaddress.ip_network(text, strict=True), None
    except ValueError:
        pass
    network = None
    if reason is None:
        try:
            network = ipaddress.ip_network(text, strict=False)
        except ValueError:
            reason = "an address that is not valid IPv4 or IPv6"
    if network is None:
        return None, Problem(problem=f"{what} {quoted(text)} is not a CIDR block: it has {reason}", fix=how)
    return None, Problem(
        problem=f"{what} {quoted(text)} has host bits set: {network} is the network of that prefix",
        fix=f"write {network} (or a longer prefix if you meant fewer addresses)",
    )


def _special(network: _NetworkV4V6) -> tuple[str, str] | None:
    """The special-purpose range ``network`` lies in, as ("RANGE, its name", why it makes no sense as a source)."""
    table = _SPECIAL_IPV4 if network.version == 4 else _SPECIAL_IPV6
    return next(((f"{special}, {name}", why) for special, name, why in table if network.subnet_of(special)), None)


def vpc_cidr_problem(cidr: str) -> Problem | None:
    """``None`` if ``cidr`` is an IPv4 network address with a prefix from /16 to /20 inside a private range.

    Private means RFC 1918 (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16) or RFC 6598 (100.64.0.0/10), which the
    Amazon VPC User Guide allows for a VPC; 172.17.0.0/16 is refused because AWS says SageMaker and Cloud9 conflict
    with it. AWS also allows publicly routable ranges for a VPC; this project does not (its VPC is private).
    """
    network, problem = _parse_cidr(cidr, "the VPC CIDR block", "10.0.0.0/16")
    if problem is not None:
        return problem
    assert network is not None
    example = "10.0.0.0/16"
    if network.version != 4:
        return Problem(
            problem=f"the VPC CIDR block {quoted(cidr)} is IPv6; a VPC's primary CIDR block is IPv4",
            fix=f"use a private IPv4 block such as {example}",
        )
    special = _special(network)
    if not any(network.subnet_of(private) for private in PRIVATE_IPV4_RANGES):
        kind = f"in {special[0]}" if special else "public (internet-routable) address space"
        return Problem(
            problem=f"the VPC CIDR block {quoted(cidr)} is {kind}, not a private range",
            fix=f"use a block inside 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16 (RFC 1918) or 100.64.0.0/10 "
            f"(RFC 6598), for example {example}",
        )
    low, high = VPC_PREFIX_RANGE
    if not low <= network.prefixlen <= high:
        size = "larger than the /16 AWS allows for a VPC" if network.prefixlen < low \
            else "too small for the subnets the project lays out (a /20 private and a /24 public subnet per zone)"
        suggestion = network.supernet(new_prefix=low) if network.prefixlen > low else None
        if suggestion is None or suggestion.overlaps(_DOCKER_BRIDGE):
            suggestion = example
        return Problem(
            problem=f"the VPC CIDR block {quoted(cidr)} is a /{network.prefixlen}, {size}",
            fix=f"use a prefix from /{low} to /{high}, for example {suggestion}",
        )
    if network.overlaps(_DOCKER_BRIDGE):
        return Problem(
            problem=f"the VPC CIDR block {quoted(cidr)} overlaps 172.17.0.0/16, which AWS services such as SageMaker "
            "use (Docker's default bridge); AWS advises against it for a VPC",
            fix=f"use another private block, for example {example} or 172.18.0.0/16",
        )
    return None


#: The most public IPv4 addresses a list of allowed sources may open an endpoint to, all entries together: fewer
#: than a /8's worth (16,777,216). A /8 is more than any organisation's office or VPN egress needs, so a list that
#: reaches it is either "the internet" written in pieces (0.0.0.0/1 + 128.0.0.0/1) or a mistake. RFC 1918 and
#: RFC 6598 addresses do not count: allowing the whole 10.0.0.0/8 of a corporate network is legitimate.
MAX_PUBLIC_IPV4_ADDRESSES = 2**24
#: The IPv6 counterpart: fewer than a /32's worth of global addresses (the size of a whole ISP's allocation; a
#: site gets a /48 or a /56). Unique local addresses (fc00::/7) do not count.
MAX_PUBLIC_IPV6_ADDRESSES = 2**96


def _public_count(union: list[_NetworkV4V6], private: Sequence[_NetworkV4V6]) -> int:
    """Addresses of ``union`` (collapsed, so disjoint) outside the ``private`` ranges (CIDRs nest or are disjoint)."""
    total = 0
    for network in union:
        if any(network.subnet_of(p) for p in private):
            continue
        total += network.num_addresses - sum(p.num_addresses for p in private if p.subnet_of(network))
    return total


def allowed_cidrs_problems(cidrs: list[str]) -> list[tuple[int | None, Problem]]:
    """Problems with a list of source CIDR blocks allowed to reach an endpoint (IPv4 and IPv6 both allowed).

    Each problem comes with the index of the entry it is about, or ``None`` when it is about the list as a whole.

    - every entry must be a strictly written CIDR block (network address and explicit prefix length);
    - an entry inside a special-purpose range that is never a packet's source is refused: 0.0.0.0/8 (with the
      unspecified 0.0.0.0), loopback, link-local, multicast, 240.0.0.0/4 (with 255.255.255.255), and their IPv6
      counterparts (::/128, ::1/128, fe80::/10, ff00::/8), and IPv4-mapped IPv6 (write the IPv4 block);
    - an entry equal to or inside another entry is refused (it adds nothing; remove one);
    - the union of the valid entries is judged (``ipaddress.collapse_addresses``): refused if it covers every IPv4
      address (0.0.0.0/0, or 0.0.0.0/1 + 128.0.0.0/1, ...) or every IPv6 address, or if it holds
      :data:`MAX_PUBLIC_IPV4_ADDRESSES` public IPv4 addresses (a /8's worth) or more, or
      :data:`MAX_PUBLIC_IPV6_ADDRESSES` global IPv6 addresses (a /32's worth) or more.
    """
    problems: list[tuple[int | None, Problem]] = []
    valid: list[tuple[int, _NetworkV4V6]] = []
    for index, text in enumerate(cidrs):
        network, problem = _parse_cidr(text, "the source CIDR block", "203.0.113.0/24 (or 203.0.113.7/32 for one address)")
        if problem is not None:
            problems.append((index, problem))
            continue
        assert network is not None
        special = _special(network)
        if special is not None:
            problems.append((index, Problem(
                problem=f"the source CIDR block {quoted(text)} lies in {special[0]}: {special[1]}",
                fix="list the public or private networks your clients connect from, for example 203.0.113.0/24",
            )))
            continue
        valid.append((index, network))

    # Duplicates and entries inside another one: sorted by (version, start, prefix), a network inside another comes
    # after it and before the next disjoint block, so one sweep with the last kept network finds them all.
    kept: tuple[int, _NetworkV4V6] | None = None
    for index, network in sorted(valid, key=lambda e: (e[1].version, int(e[1].network_address), e[1].prefixlen, e[0])):
        if kept is not None and kept[1].version == network.version and network.subnet_of(kept[1]):
            other_index, other = kept
            same = network == other
            problems.append((index, Problem(
                problem=f"the source CIDR block {quoted(cidrs[index])} is "
                + (f"listed twice (also entry {other_index})" if same else f"inside entry {other_index}, {other}"),
                fix="remove this entry" if same else f"remove this entry ({other} already allows it), or narrow {other}",
            )))
        else:
            kept = (index, network)

    for version, everything, private, limit, size in (
        (4, ipaddress.IPv4Network("0.0.0.0/0"), PRIVATE_IPV4_RANGES, MAX_PUBLIC_IPV4_ADDRESSES, "/8"),
        (6, ipaddress.IPv6Network("::/0"), PRIVATE_IPV6_RANGES, MAX_PUBLIC_IPV6_ADDRESSES, "/32"),
    ):
        members = [(i, n) for i, n in valid if n.version == version]
        if not members:
            continue
        union = list(ipaddress.collapse_addresses(n for _, n in members))
        broadest = sorted(members, key=lambda e: (e[1].prefixlen, e[0]))[:3]
        named = ", ".join(f"entry {i} ({n})" for i, n in broadest)
        fix = (f"list only the networks that must reach the endpoint, for example your office's 203.0.113.0/24 "
               f"or your VPN's egress addresses; the broadest entries are {named}")
        if union == [everything]:
            problems.append((None, Problem(
                problem=f"the source CIDR blocks together cover every IPv{version} address ({everything}): "
                "the endpoint would be open to the whole internet",
                fix=fix,
            )))
            continue
        public = _public_count(union, private)
        if public >= limit:
            amount = f"{public:,}" if version == 4 else f"2^{public.bit_length() - 1} or more"
            problems.append((None, Problem(
                problem=f"the source CIDR blocks together allow {amount} public IPv{version} addresses: a {size}'s "
                f"worth ({'2^96' if version == 6 else f'{limit:,}'}) or more is too broad for an allow list",
                fix=fix,
            )))
    return sorted(problems, key=lambda p: (p[0] is None, p[0] or 0))


# --------------------------------------------------------------------------------------------------------------
# Tags
# --------------------------------------------------------------------------------------------------------------

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


def tags_problems(tags: Mapping[str, str], *, reserved_keys: tuple[str, ...] = ()) -> list[tuple[str | None, Problem]]:
    """Problems with the user's resource tags, each with its key (``None`` for the count of tags).

    :param reserved_keys: the tag keys the project adds itself (``("environment",)``): a user tag with one of these
        keys is refused, and they count toward the 50 tags a resource may have, so the user may set at most
        ``50 - len(reserved_keys)``.
    """
    problems: list[tuple[str | None, Problem]] = []
    reserved = tuple(dict.fromkeys(reserved_keys))
    for key, value in tags.items():
        if key in reserved:
            problems.append((key, Problem(
                problem=f"the tag {quoted(key)} is set by the project itself ({', '.join(map(repr, reserved))})",
                fix="remove it from tags, or rename it",
            )))
            continue
        if key == "":
            problems.append((key, Problem(problem="a tag key is empty", fix="give the tag a key, for example 'team'")))
            continue
        problem = _tag_text_problem(key, part="key", key=key, max_length=MAX_TAG_KEY_LENGTH) \
            or _tag_text_problem(value, part="value", key=key, max_length=MAX_TAG_VALUE_LENGTH)
        if problem is not None:
            problems.append((key, problem))
    total = len(set(tags) | set(reserved))
    if total > MAX_TAGS_PER_RESOURCE:
        allowed = MAX_TAGS_PER_RESOURCE - len(reserved)
        added = f" plus the {len(reserved)} the project adds ({', '.join(map(repr, reserved))})" if reserved else ""
        problems.append((None, Problem(
            problem=f"{len(tags)} tags{added} make {total}; AWS allows at most {MAX_TAGS_PER_RESOURCE} per resource",
            fix=f"remove {total - MAX_TAGS_PER_RESOURCE} or more: you can set at most {max(allowed, 0)} tags yourself",
        )))
    return problems


# --------------------------------------------------------------------------------------------------------------
# Hugging Face repository ids
# --------------------------------------------------------------------------------------------------------------

# Source: huggingface_hub, src/huggingface_hub/utils/_validators.py (github.com/huggingface/huggingface_hub
# @ee0a4510f4bc15e26cb722be2efc2bdb01383ca0), validate_repo_id and REPO_ID_REGEX:
#   ^(\b[\w\-.]+\b/)?\b[\w\-.]{1,96}\b$  -- an optional namespace, a name of 1 to 96 characters, each part
#   starting and ending with a word character (so not with '-' or '.'); plus: at most one '/', no '--' or '..',
#   no '.git' at the end. Its docstring: "[a-zA-Z0-9] or '-', '_', '.'", so \w is read as ASCII here (Python's \w
#   would take any Unicode letter, and its '$' would take a trailing newline). This project requires the
#   namespace (owner/name), and bounds it at 96 characters like the name.
HF_NAME_MAX_LENGTH = 96
_HF_PART = re.compile(r"[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?", re.ASCII)


def hugging_face_id_problem(model_id: str) -> Problem | None:
    """``None`` if ``model_id`` is a Hugging Face repository id ``owner/name`` (as huggingface_hub validates it)."""
    example = "moonshotai/Kimi-K3"
    surface = _surface_problem(model_id, "the Hugging Face model id")
    if surface is not None:
        return surface
    if model_id.count("/") != 1:
        if "/" not in model_id:
            return Problem(
                problem=f"the Hugging Face model id {quoted(model_id)} has no owner",
                fix=f"write it as owner/name, as on the model's page, for example {example!r}",
            )
        shown = "/".join(model_id.split("/")[-2:])[:200]
        return Problem(
            problem=f"the Hugging Face model id {quoted(model_id)} has more than one '/'",
            fix=f"write only owner/name, without 'https://huggingface.co/' or 'models/', for example {quoted(shown)}",
        )
    for part, label in zip(model_id.split("/"), ("owner", "name")):
        if not part:
            return Problem(
                problem=f"the Hugging Face model id {quoted(model_id)} has an empty {label}",
                fix=f"write it as owner/name, for example {example!r}",
            )
        if len(part) > HF_NAME_MAX_LENGTH:
            return Problem(
                problem=f"the {label} in the Hugging Face model id {quoted(model_id)} is {len(part)} characters long; "
                f"the Hub allows at most {HF_NAME_MAX_LENGTH}",
                fix="copy the id from the model's page on huggingface.co",
            )
        if not _HF_PART.fullmatch(part):
            return Problem(
                problem=f"the {label} in the Hugging Face model id {quoted(model_id)} must use only A-Z a-z 0-9 - _ . "
                "and start and end with a letter, digit or '_'",
                fix=f"copy the id from the model's page on huggingface.co, for example {example!r}",
            )
    if "--" in model_id or ".." in model_id:
        return Problem(
            problem=f"the Hugging Face model id {quoted(model_id)} contains '--' or '..', which the Hub forbids",
            fix="copy the id from the model's page on huggingface.co",
        )
    if model_id.endswith(".git"):
        return Problem(
            problem=f"the Hugging Face model id {quoted(model_id)} ends with '.git'",
            fix=f"drop '.git': {model_id[:-4]!r}",
        )
    return None


# --------------------------------------------------------------------------------------------------------------
# Container image references
# --------------------------------------------------------------------------------------------------------------

# Source: github.com/distribution/reference @0965666a6ade2e06035fe352e38344be1e68951a, regexp.go and reference.go:
#   reference := name [ ":" tag ] [ "@" digest ];  name := [domain '/'] remote-name
#   domain-component := [a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9];  domain := host [':' port]
#   host := domain-name | '[' IPv6 ']';  path-component := [a-z0-9]+ (separator [a-z0-9]+)*
#   separator := [._] | __ | [-]+;  tag := [\w][\w.-]{0,127};  digest := algorithm ':' hex (32 or more)
#   RepositoryNameTotalLengthMax = 255 (checked on the path, the name without the domain);
#   ErrNameContainsUppercase when the reference only parses once lower-cased.
# Go's \w is ASCII and its $ is the end of text; Python needs re.ASCII and fullmatch for the same meaning.
# Digests: opencontainers/go-digest (algorithm.go) registers sha256, sha384 and sha512, with lower-case hex of
# 64, 96 and 128 digits (anchoredEncodedRegexps); those are the digests accepted here.
IMAGE_NAME_MAX_LENGTH = 255
_IMAGE_MAX_LENGTH = 1024  # far above any valid reference (255 path + host + 128 tag + 135 digest); bounds the work
_DOMAIN_COMPONENT = r"(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])"
_DOMAIN = rf"(?:{_DOMAIN_COMPONENT}(?:\.{_DOMAIN_COMPONENT})*|\[[a-fA-F0-9:]+\])(?::[0-9]+)?"
_PATH_COMPONENT = r"[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*"
_REMOTE_NAME = rf"{_PATH_COMPONENT}(?:/{_PATH_COMPONENT})*"
_TAG = r"[\w][\w.-]{0,127}"
_DIGEST = r"[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}"
_REFERENCE = re.compile(rf"(?P<name>(?:{_DOMAIN}/)?{_REMOTE_NAME})(?::(?P<tag>{_TAG}))?(?:@(?P<digest>{_DIGEST}))?",
                        re.ASCII)
_ANCHORED_NAME = re.compile(rf"(?:(?P<domain>{_DOMAIN})/)?(?P<path>{_REMOTE_NAME})", re.ASCII)
_DIGEST_ENCODINGS = {"sha256": re.compile("[a-f0-9]{64}"), "sha384": re.compile("[a-f0-9]{96}"),
                     "sha512": re.compile("[a-f0-9]{128}")}


def _image_part_problem(image: str) -> Problem | None:
    """A precise message when the name parses but the tag or the digest does not."""
    rest, _, digest = image.partition("@")
    slash = rest.rfind("/")
    colon = rest.rfind(":")
    name, tag = (rest[:colon], rest[colon + 1:]) if colon > slash else (rest, None)
    if not _ANCHORED_NAME.fullmatch(name):
        return None
    if tag is not None and not re.fullmatch(_TAG, tag, re.ASCII):
        return Problem(
            problem=f"the tag {quoted(tag)} of the container image {quoted(image)} is not a valid tag: 1 to 128 "
            "letters, digits, '_', '.' or '-', not starting with '.' or '-'",
            fix="use the tag as the registry lists it, for example ':v0.11.0'",
        )
    if "@" in image and not re.fullmatch(_DIGEST, digest, re.ASCII):
        return Problem(
            problem=f"the digest of the container image {quoted(image)} is not sha256: followed by 64 lower-case "
            "hex digits",
            fix="copy the digest from the registry (`docker buildx imagetools inspect IMAGE` shows it), "
            "for example @sha256:" + "0" * 64,
        )
    return None


def image_problem(image: str) -> Problem | None:
    """``None`` if ``image`` is a container image reference ``[host[:port]/]path[:tag][@digest]``.

    Per the distribution/reference grammar: lower-case path components, tag ``[\\w][\\w.-]{0,127}``, digest
    ``sha256:`` + 64 lower-case hex digits (or sha384/sha512), path at most 255 characters.
    """
    example = "vllm/vllm-openai:v0.11.0 or 123456789012.dkr.ecr.us-west-2.amazonaws.com/vllm:v0.11.0"
    if len(image) > _IMAGE_MAX_LENGTH:
        return Problem(
            problem=f"the container image {quoted(image)} is {len(image)} characters long, more than any image "
            "reference can be",
            fix=f"write the image as [registry/]repository[:tag][@sha256:digest], for example {example}",
        )
    surface = _surface_problem(image, "the container image")
    if surface is not None:
        return surface
    if any(ch.isspace() for ch in image):
        return Problem(
            problem=f"the container image {quoted(image)} contains whitespace",
            fix=f"write the reference without spaces, for example {example}",
        )
    if not image:
        return Problem(problem="the container image is empty", fix=f"name an image, for example {example}")
    uppercase = Problem(
        problem=f"the container image {quoted(image)} has upper-case letters in its repository path; repository "
        "names are lower case",
        fix="write the repository path in lower case (the registry host and the tag may keep upper case)",
    )
    match = _REFERENCE.fullmatch(image)
    if match is None:
        if _REFERENCE.fullmatch(image.lower()) is not None:
            return uppercase
        return _image_part_problem(image) or Problem(
            problem=f"{quoted(image)} is not a container image reference",
            fix=f"write it as [registry/]repository[:tag][@sha256:digest], for example {example}",
        )
    name_match = _ANCHORED_NAME.fullmatch(match["name"])
    domain = name_match["domain"] if name_match else None
    path = name_match["path"] if name_match else match["name"]
    # The grammar lets an upper-case first component be a registry host ("Vllm/vllm-openai" = host "Vllm"), and
    # normalize.go's splitDockerDomain does treat it as one. A registry host without '.' or ':' other than
    # localhost is almost always a mistyped Docker Hub namespace, so this project refuses it (stricter than the
    # library).
    if domain is not None and domain != "localhost" and not any(c in domain for c in ".:") and domain.lower() != domain:
        return uppercase
    if len(path) > IMAGE_NAME_MAX_LENGTH:
        return Problem(
            problem=f"the repository path of the container image {quoted(image)} is {len(path)} characters long; "
            f"at most {IMAGE_NAME_MAX_LENGTH} are allowed",
            fix="use a shorter repository name",
        )
    digest = match["digest"]
    if digest is not None:
        algorithm, _, encoded = digest.partition(":")
        check = _DIGEST_ENCODINGS.get(algorithm)
        if check is None or not check.fullmatch(encoded):
            return Problem(
                problem=f"the digest of the container image {quoted(image)} is not sha256: followed by 64 lower-case "
                "hex digits (or sha384/sha512)",
                fix="copy the digest from the registry (`docker buildx imagetools inspect IMAGE` shows it), "
                "for example @sha256:" + "0" * 64,
            )
    return None


# --------------------------------------------------------------------------------------------------------------
# Git branch names
# --------------------------------------------------------------------------------------------------------------

# Source: git (github.com/git/git @1a3e64c6c4a623626ff0687008732a8e007e2a1c), Documentation/git-check-ref-format.adoc
# and refs.c (refname_disposition, check_refname_component, check_or_sanitize_refname, check_branch_ref), which
# `git check-ref-format --branch NAME` runs on "refs/heads/NAME":
#   - no ASCII control character (below \040, or \177 DEL), space, ~ ^ : ? * [ or \ anywhere;
#   - no "..", no "@{";  no component that begins with "." or ends with ".lock";
#   - no empty component: not beginning or ending with "/", no "//";  not ending with ".";
#   - check_branch_ref: not beginning with "-", not "HEAD";  the documentation: not the single character "@"
#     (which `--branch` also reads as a shorthand for HEAD).
# Bytes above \177 (non-ASCII) are allowed by git; text_problem() refuses the invisible ones. A str that cannot be
# encoded in UTF-8 (unpaired surrogates) is refused: it could never be written to a ref.
_GIT_FORBIDDEN = frozenset(" ~^:?*[\\")


def git_branch_problem(branch: str) -> Problem | None:
    """``None`` if ``git check-ref-format --branch`` accepts ``branch`` as a branch name."""
    fix = "use a name such as 'main' or 'release/2026-11'"
    if not branch:
        return Problem(problem="the branch name is empty", fix=fix)
    for index, ch in enumerate(branch):
        if ord(ch) < 0o40 or ord(ch) == 0o177 or ch in _GIT_FORBIDDEN or unicodedata.category(ch) == "Cs":
            shown = _describe_char(ch) if ch != " " else "a space"
            return Problem(
                problem=f"the branch name {quoted(branch)} contains {shown} at position {index + 1}; git branch names "
                "cannot contain control characters, spaces or any of ~ ^ : ? * [ \\",
                fix=fix,
            )
    refused = ", which git does not allow in a branch name"
    rules = (
        (branch.startswith("-"), "begins with '-'" + refused),
        (branch == "HEAD", "is HEAD, which git reserves for the current checkout"),
        (branch == "@", "is '@', which git reads as HEAD"),
        (".." in branch, "contains '..'" + refused),
        ("@{" in branch, "contains '@{'" + refused),
        (branch.startswith("/") or branch.endswith("/") or "//" in branch,
         "begins or ends with '/' or contains '//' (an empty path component)" + refused),
        (branch.endswith("."), "ends with '.'" + refused),
        (any(part.startswith(".") for part in branch.split("/")), "has a component that begins with '.'" + refused),
        (any(part.endswith(".lock") for part in branch.split("/")), "has a component that ends with '.lock'" + refused),
    )
    for broken, what in rules:
        if broken:
            return Problem(problem=f"the branch name {quoted(branch)} {what}", fix=fix)
    return None
