"""Accounts and ARNs: account IDs, the ARN of any resource as the caller expects it, IAM role names and role ARNs."""

from __future__ import annotations

import re

from deployment_config.aws_rules._characters import _describe_char, _surface_problem
from deployment_config.aws_rules.regions import known_partitions, partition_of, region_problem
from deployment_config.errors import Problem, quoted

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
    how = (
        "copy it from `aws sts get-caller-identity --query Account --output text` and quote it in YAML "
        '("012345678901") so that leading zeros stay'
    )
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
    return Problem(
        problem=f"{quoted(account)} is not an AWS account ID: it must be exactly 12 digits", fix=how
    )


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
    shown_account = (
        account
        if account is not None and (account == "" or _ACCOUNT_ID.fullmatch(account))
        else "ACCOUNT"
    )
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
        because = (
            f"{region} is in {expected_partition}"
            if region
            else f"this environment is in {expected_partition}"
        )
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
        return Problem(
            problem="the IAM role name is empty",
            fix="write the role's name, for example 'PlatformAdmin'",
        )
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
    if (
        len(parts) == 6
        and parts[0] == "arn"
        and parts[2] == "sts"
        and parts[5].startswith("assumed-role/")
        and _surface_problem(arn, what) is None
    ):
        name = parts[5].split("/")[1]
        name = name if _ROLE_NAME.fullmatch(name) else "NAME"
        owner = parts[4] if _ACCOUNT_ID.fullmatch(parts[4]) else "ACCOUNT"
        return Problem(
            problem=f"{quoted(arn)} is an assumed-role session (sts), not the IAM role's ARN",
            fix=f"use the role's ARN, arn:{partition_shown}:iam::{owner}:role/{name} "
            "(`aws iam get-role --role-name NAME --query Role.Arn` prints it; the role may have a path)",
        )
    problem = arn_problem(
        arn,
        service="iam",
        resource_pattern=r"role/.*",
        region="",
        account=account,
        what=what,
        partition=partition,
        resource_example="role/NAME",
    )
    if problem is not None:
        return problem
    resource = arn.split(":", 5)[5]
    rest = resource[len("role") :]
    cut = rest.rfind("/")
    path, name = rest[: cut + 1], rest[cut + 1 :]
    if len(path) > ROLE_PATH_MAX_LENGTH or not _ROLE_PATH.fullmatch(path):
        return Problem(
            problem=f"{what} {quoted(arn)} has the path {quoted(path)}; an IAM path is '/' or '/.../' of at most "
            f"{ROLE_PATH_MAX_LENGTH} printable ASCII characters, with no empty part",
            fix="copy the ARN from `aws iam get-role --role-name NAME --query Role.Arn`",
        )
    name_problem = role_name_problem(name)
    if name_problem is not None:
        return Problem(
            problem=f"{what} {quoted(arn)}: {name_problem.problem}", fix=name_problem.fix
        )
    return None
