"""Regions, partitions and Availability Zones: botocore's partitions.json and the project's zone table, read offline."""

from __future__ import annotations

import difflib
import functools
import importlib.util
import json
import re
from collections.abc import Sequence
from pathlib import Path

from deployment_config.aws_rules._characters import _surface_problem
from deployment_config.errors import Problem, quoted

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
    data = json.loads(
        (Path(package.origin).parent / "data" / "partitions.json").read_text(encoding="utf-8")
    )
    partitions = []
    for partition in data["partitions"]:
        pattern = re.compile(partition["regionRegex"], re.ASCII)
        regions = tuple(
            sorted(
                name
                for name in partition["regions"]
                if not name.endswith("-global") and pattern.fullmatch(name)
            )
        )
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
_ZONE_DATA = (
    Path(__file__).resolve().parent.parent / "data" / "availability_zones.json"
)  # deployment_config/data/

#: Letters assumed for a region the table does not list (GovCloud, China, ISO, newer regions): a to f.
FALLBACK_ZONE_LETTERS = "abcdef"


@functools.cache
def _zone_table() -> dict[str, str]:
    data = json.loads(_ZONE_DATA.read_text(encoding="utf-8"))
    return {region: entry["letters"] for region, entry in data["regions"].items()}


def zone_letters(region: str) -> str:
    """The letters an Availability Zone of ``region`` can end with (an upper bound; see the comments above).

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
    look = (
        f"`aws ec2 describe-availability-zones --region {region}` shows the ones your account has"
    )
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
