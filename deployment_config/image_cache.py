"""The optional ECR pull-through cache for Docker Hub: which images it can serve, and the reference nodes pull instead.

The one place that turns the configured vLLM image into the image the charts use (see
:attr:`deployment_config.model.EnvironmentConfig.serving_image`); nothing here builds CDK objects.

Sources (Amazon ECR User Guide):

- "Creating a pull through cache rule in Amazon ECR"
  (https://docs.aws.amazon.com/AmazonECR/latest/userguide/pull-through-cache-creating-rule.html): Docker Hub needs
  credentials in a Secrets Manager secret whose name begins with ``ecr-pullthroughcache/``, in the account and region
  of the rule.
- "Storing your upstream repository credentials in an AWS Secrets Manager secret"
  (https://docs.aws.amazon.com/AmazonECR/latest/userguide/pull-through-cache-creating-secret.html): Docker Hub's secret
  holds the key/value pairs ``username`` and ``accessToken``.
- CreatePullThroughCacheRule (ECR API reference; botocore ``ecr`` model): Docker Hub's ``upstreamRegistryUrl`` is
  ``registry-1.docker.io``; "there is always an assumed / applied to the end of the prefix".
- "Pulling an image with a pull through cache rule in Amazon ECR"
  (https://docs.aws.amazon.com/AmazonECR/latest/userguide/pull-through-cache-working-pulling.html):
  ``ACCOUNT.dkr.ecr.REGION.amazonaws.com/docker-hub/library/IMAGE:TAG`` for Docker Hub official images ("the /library
  prefix must be included"), ``.../docker-hub/REPOSITORY/IMAGE:TAG`` for all others.
- CloudFormation ``AWS::ECR::PullThroughCacheRule`` (the resource schema cfn-lint 1.58.0 ships): ``CredentialArn``
  matches ``^arn:[a-zA-Z-]+:secretsmanager:[a-zA-Z0-9-:]+:secret:ecr\\-pullthroughcache\\/[a-zA-Z0-9\\/_+=.@-]+$``
  (an ARN, not a name); ``EcrRepositoryPrefix`` is 2 to 30 characters of ``REPOSITORY_PREFIX_PATTERN``;
  ``UpstreamRegistry`` ``docker-hub``.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import re
from pathlib import Path

#: The secret's name must begin with this (ECR User Guide, "Creating a pull through cache rule").
SECRET_NAME_PREFIX = "ecr-pullthroughcache/"
#: The upstream registry and its URL (CreatePullThroughCacheRule, upstreamRegistryUrl; AWS::ECR::PullThroughCacheRule).
UPSTREAM_REGISTRY = "docker-hub"
UPSTREAM_REGISTRY_URL = "registry-1.docker.io"
#: The namespace the ECR console suggests for Docker Hub, and this app's default.
DEFAULT_REPOSITORY_PREFIX = "docker-hub"
#: AWS::ECR::PullThroughCacheRule EcrRepositoryPrefix (cfn-lint 1.58.0 resource schema), without the trailing '/' and
#: ROOT forms, which would not give the cache a namespace of its own.
REPOSITORY_PREFIX_PATTERN = (
    r"^[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*(/[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*)*$"
)
REPOSITORY_PREFIX_LENGTH = (2, 30)
#: How Docker clients normalize a reference (distribution/reference normalize.go, splitDockerDomain): the first path
#: component is a registry only when it contains '.' or ':' or is 'localhost'; 'index.docker.io' is Docker Hub's
#: legacy name; a Docker Hub repository of one component is an official image under 'library/'.
#: 'registry-1.docker.io' is the host ECR's rule pulls from (its upstreamRegistryUrl), the same registry.
DOCKER_HUB_HOSTS = ("docker.io", "index.docker.io", UPSTREAM_REGISTRY_URL)
OFFICIAL_REPOSITORY_PREFIX = "library/"


def docker_hub_repository(image: str) -> str | None:
    """The Docker Hub repository path of ``image`` with its tag and digest (``vllm/vllm-openai:kimi-k3``,
    ``library/alpine:3``), or None when the image is on another registry."""
    first, slash, rest = image.partition("/")
    if not slash or (not any(c in first for c in ".:") and first != "localhost"):
        remainder = image
    elif first in DOCKER_HUB_HOSTS:
        remainder = rest
    else:
        return None
    name_end = min(
        (i for i in (remainder.find(":"), remainder.find("@")) if i >= 0), default=len(remainder)
    )
    if "/" not in remainder[:name_end]:
        remainder = OFFICIAL_REPOSITORY_PREFIX + remainder
    return remainder


@functools.cache
def _dns_suffixes() -> dict[str, str]:
    """Each partition's DNS suffix (botocore's partitions.json ``outputs.dnsSuffix``, read as a file): the registry host
    is ``ACCOUNT.dkr.ecr.REGION.`` + that suffix (amazonaws.com, amazonaws.com.cn, ...)."""
    package = importlib.util.find_spec("botocore")
    data = json.loads(
        (Path(package.origin).parent / "data" / "partitions.json").read_text(encoding="utf-8")
    )
    return {partition["id"]: partition["outputs"]["dnsSuffix"] for partition in data["partitions"]}


def registry_host(*, account: str, region: str, partition: str) -> str:
    """The private registry of an account and region, as nodes pull from it."""
    return f"{account}.dkr.ecr.{region}.{_dns_suffixes()[partition]}"


def cached_image(
    image: str, *, account: str, region: str, partition: str, repository_prefix: str
) -> str:
    """``image`` (a Docker Hub image) as pulled through the cache:
    ``ACCOUNT.dkr.ecr.REGION.SUFFIX/PREFIX/NAMESPACE/REPOSITORY[:TAG][@DIGEST]``."""
    repository = docker_hub_repository(image)
    if repository is None:
        raise ValueError(
            f"{image!r} is not a Docker Hub image; the pull-through cache serves Docker Hub only"
        )
    return f"{registry_host(account=account, region=region, partition=partition)}/{repository_prefix}/{repository}"


def repository_prefix_problem(prefix: str) -> str | None:
    """Why ``prefix`` cannot be the cache's repository namespace, or None."""
    low, high = REPOSITORY_PREFIX_LENGTH
    if not low <= len(prefix) <= high:
        return f"has {len(prefix)} characters; a pull-through cache prefix has {low} to {high}"
    if not re.fullmatch(REPOSITORY_PREFIX_PATTERN, prefix):
        return (
            "is not a repository namespace: lower-case letters and digits, separated by '.', '_', '__', '-' or '/', "
            "starting and ending with a letter or digit"
        )
    return None
