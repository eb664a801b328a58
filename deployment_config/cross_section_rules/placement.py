"""Rules between sections: the account, the region, the VPC's zones, the ARNs of the environment, and the platform
with the sections that belong to it."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator

from deployment_config import aws_rules, image_cache
from deployment_config.cross_section_rules._issues import note as _note
from deployment_config.cross_section_rules._issues import refuse as _refuse
from deployment_config.cross_section_rules.facts import valid_zones
from deployment_config.errors import ConfigIssue, Problem, quoted
from deployment_config.file_models import (
    HYPERPOD_KUBERNETES_VERSIONS,
    PRIVATE_SUBNET_PREFIX,
    PUBLIC_SUBNET_PREFIX,
    SECRET_ARN_RESOURCE,
    SECRET_NAME,
    vpc_addresses_needed,
)
from deployment_config.file_values import FileValues

# The account, the region and the VPC's zones.


def admin_role(values: FileValues) -> Iterator[ConfigIssue]:
    region = values.get("region")
    yield from _refuse(
        "cluster.admin_role_arn",
        aws_rules.role_arn_problem(
            values.get("cluster.admin_role_arn"),
            partition=aws_rules.partition_of(region) if region else "aws",
        ),
    )


def zones(values: FileValues) -> Iterator[ConfigIssue]:
    region, zones = values.get("region"), values.get("availability_zones")
    for index, zone in enumerate(zones):
        problem = aws_rules.zone_problem(zone, region=region) if region else None
        if problem:
            yield _note(f"availability_zones[{index}]", problem.problem, problem.fix)
        elif zone in zones[:index]:
            yield _note(
                f"availability_zones[{index}]", f"lists {quoted(zone)} twice", "list each zone once"
            )


def vpc_holds_the_subnets(values: FileValues) -> Iterator[ConfigIssue]:
    zones = valid_zones(values)
    if not zones:
        return
    needed = vpc_addresses_needed(len(zones))
    network = ipaddress.IPv4Network(values.get("vpc_cidr"))
    if needed > network.num_addresses:
        prefix = 32 - (needed - 1).bit_length()
        yield from _refuse(
            "vpc_cidr",
            Problem(
                f"a /{network.prefixlen} holds {network.num_addresses:,} addresses, but {len(zones)} zones need {needed:,} "
                f"(a /{PUBLIC_SUBNET_PREFIX} public and a /{PRIVATE_SUBNET_PREFIX} private subnet each, aligned)",
                f"use a /{prefix} or larger, for example {network.supernet(new_prefix=prefix)}",
            ),
        )


def zone_in_vpc(field: str, what: str, fix: str):  # noqa: ANN202
    def check(values: FileValues) -> Iterator[ConfigIssue]:
        zone, zones = values.get(field), valid_zones(values)
        if zone is not None and zones is not None and zone not in zones:
            yield from _refuse(
                field,
                Problem(
                    f"{what} {quoted(zone)} is not one of availability_zones ({', '.join(zones)})",
                    fix,
                ),
            )

    return check


def arn_of_environment(
    field: str,
    *,
    service: str,
    resource_pattern: str,
    what: str,
    resource_example: str | None = None,
):  # noqa: ANN202
    """The ARN at ``field`` is of ``service``, in the file's account and region (where those are valid)."""

    def check(values: FileValues) -> Iterator[ConfigIssue]:
        value = values.get(field)
        if value is None:
            return
        extra = {"resource_example": resource_example} if resource_example else {}
        yield from _refuse(
            field,
            aws_rules.arn_problem(
                value,
                service=service,
                resource_pattern=resource_pattern,
                region=values.get("region"),
                account=values.get("account"),
                what=what,
                **extra,
            ),
        )

    return check


def image_cache_secret(values: FileValues) -> Iterator[ConfigIssue]:
    field = "model.image_cache.docker_hub_credentials_secret_arn"
    found = list(
        arn_of_environment(
            field,
            service="secretsmanager",
            resource_pattern=SECRET_ARN_RESOURCE,
            what="Secrets Manager secret",
            resource_example="secret:NAME-XXXXXX",
        )(values)
    )
    if found:
        yield from found
        return
    value = values.get(field)
    if value is None:
        return
    name = value.split(":", 6)[6]
    if not name.startswith(image_cache.SECRET_NAME_PREFIX):
        yield _note(
            field,
            f"the secret {quoted(name)} does not begin with '{image_cache.SECRET_NAME_PREFIX}', which ECR "
            "requires of a pull-through cache's credentials",
            f"create the secret as {image_cache.SECRET_NAME_PREFIX}docker-hub (docs/security.md, 'The image "
            "through an ECR pull-through cache') and use its ARN",
        )


def token_secret(values: FileValues) -> Iterator[ConfigIssue]:
    field = "model.hugging_face_token_secret"
    value = values.get(field)
    if value is None:
        return
    if value.startswith("arn:"):
        yield from arn_of_environment(
            field,
            service="secretsmanager",
            resource_pattern=SECRET_ARN_RESOURCE,
            what="Secrets Manager secret",
        )(values)
    elif not re.fullmatch(SECRET_NAME, value):
        yield _note(
            field,
            f"{quoted(value)} is not a Secrets Manager secret name or ARN",
            "use the secret's name (letters, digits and /_+=.@-) or its ARN, as "
            "`aws secretsmanager describe-secret --secret-id NAME --query ARN` prints it",
        )
    elif (suffix := re.search(r"-([A-Za-z0-9]{6})$", value)) and re.search(
        r"[A-Z0-9]", suffix.group(1)
    ):
        # Secrets Manager API reference, CreateSecret Name (botocore 1.43.127 secretsmanager service-2.json): "Do not
        # end your secret name with a hyphen followed by six characters ... Secrets Manager automatically adds a
        # hyphen and six random characters after the secret name at the end of the ARN." A name copied with the
        # ARN's suffix names no secret, and the pod's grant (NAME-??????) would not match it. Only a suffix that
        # looks random is refused (a capital or a digit, as the ARN's mixed-case suffix almost always has): the
        # reference advises, it does not forbid, and names such as team/hf-tokens are valid and in use.
        yield _note(
            field,
            f"the secret name {quoted(value)} ends with '-' and six characters, like the random suffix "
            "Secrets Manager adds to a secret's ARN; a name that ends so is what its API reference says "
            "not to use",
            f"if you copied it from the ARN, drop the suffix ({quoted(value[:-7])}); or give the "
            "secret's full ARN (`aws secretsmanager describe-secret --secret-id NAME --query ARN`)",
        )


# The platform and the sections that belong to it.


def kubernetes_version(values: FileValues) -> Iterator[ConfigIssue]:
    value = values.get("kubernetes_version")
    if values.get("platform") == "hyperpod" and value not in HYPERPOD_KUBERNETES_VERSIONS:
        yield from _refuse(
            "kubernetes_version",
            Problem(
                f"SageMaker HyperPod does not support Kubernetes {value} yet",
                f"use {', '.join(HYPERPOD_KUBERNETES_VERSIONS)} for platform: hyperpod",
            ),
        )


def belongs_to_platform(section: str, platform: str, what: str, add: str):  # noqa: ANN202
    """A platform's own section is required with it, and refused with the other platform (not silently ignored)."""

    def check(values: FileValues) -> Iterator[ConfigIssue]:
        chosen, value = values.get("platform"), values.get(section)
        if chosen == platform and value is None:
            yield _note(
                section,
                f"is required for platform: {platform} and missing",
                f"add a '{section}:' section with {add}",
            )
        elif chosen != platform and value is not None:
            runs_on = "a Capacity Block" if chosen == "eks" else "a training plan"
            yield _note(
                section,
                f"is {what}, but platform is {chosen}, which runs on {runs_on}",
                f"remove the {section}: section, or set platform: {platform}",
            )

    return check


def autoscaling_within_the_group(values: FileValues) -> Iterator[ConfigIssue]:
    scaling, nodes = values.get("hyperpod.autoscaling"), values.get("hyperpod.instance_count")
    if scaling is None or nodes is None:
        return
    maximum = scaling["max_replicas"]
    if maximum > nodes:
        yield _note(
            "hyperpod.autoscaling.max_replicas",
            f"is {maximum}, but the instance group has {nodes} instance(s), one worker each",
            f"use at most {nodes}, or raise hyperpod.instance_count (and the training plan's instances)",
        )


def connection(values: FileValues) -> Iterator[ConfigIssue]:
    value = values.get("source.connection_arn")
    problems = [
        aws_rules.arn_problem(
            value,
            service=service,
            resource_pattern=r"connection/[0-9a-f-]{36}",
            region=values.get("region"),
            account=values.get("account"),
            what="CodeConnections connection",
        )
        for service in ("codeconnections", "codestar-connections")
    ]
    if all(problems):
        # Report against the current service name unless the old one got further.
        yield from _refuse(
            "source.connection_arn",
            problems[1] if value.split(":")[2:3] == ["codestar-connections"] else problems[0],
        )
