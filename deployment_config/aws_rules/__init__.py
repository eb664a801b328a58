"""Offline validation rules for values in the configuration files: regions, zones, accounts, ARNs, CIDRs, tags...

Every rule is pure (no network, no AWS credentials) and returns a :class:`~deployment_config.errors.Problem`
(what is wrong, and the fix) or ``None``; the rules that judge a collection return a list of ``(where, Problem)``.
The loader adds the field's dotted path. No rule raises for an input of the declared Python type, every rule's
cost is bounded for huge input, and no message quotes more than :data:`~deployment_config.errors.MAX_QUOTED`
characters of a value (values go through :func:`~deployment_config.errors.quoted`).

Each fact about AWS, Git or Hugging Face carries its source in a comment next to the code that uses it.

One module per family of rules; this package re-exports their public names, so that callers import from
``deployment_config.aws_rules``:

- :mod:`.text`: the check every string field goes through, and tokens pasted where a secret's name goes;
- :mod:`.regions`: regions, partitions and Availability Zones;
- :mod:`.identities`: account IDs, ARNs, IAM role names and role ARNs;
- :mod:`.networks`: how a CIDR block is read, and the VPC's block; :mod:`.allowed_sources`: the source CIDR blocks
  allowed to reach an endpoint;
- :mod:`.tags`: resource tags;
- :mod:`.hugging_face`: Hugging Face repository ids;
- :mod:`.images`: container image references;
- :mod:`.git`: git branch names;
- :mod:`._characters`: naming invisible characters in messages, shared by the families (private).
"""

from __future__ import annotations

from deployment_config.aws_rules.allowed_sources import (
    MAX_PUBLIC_IPV4_ADDRESSES,
    MAX_PUBLIC_IPV6_ADDRESSES,
    allowed_cidrs_problems,
)
from deployment_config.aws_rules.git import git_branch_problem
from deployment_config.aws_rules.hugging_face import HF_NAME_MAX_LENGTH, hugging_face_id_problem
from deployment_config.aws_rules.identities import (
    ARN_MAX_LENGTH,
    ROLE_NAME_MAX_LENGTH,
    ROLE_PATH_MAX_LENGTH,
    account_problem,
    arn_problem,
    role_arn_problem,
    role_name_problem,
)
from deployment_config.aws_rules.images import IMAGE_NAME_MAX_LENGTH, image_problem
from deployment_config.aws_rules.networks import (
    PRIVATE_IPV4_RANGES,
    PRIVATE_IPV6_RANGES,
    VPC_PREFIX_RANGE,
    vpc_cidr_problem,
)
from deployment_config.aws_rules.regions import (
    FALLBACK_ZONE_LETTERS,
    known_partitions,
    known_regions,
    partition_of,
    region_problem,
    zone_letters,
    zone_problem,
)
from deployment_config.aws_rules.tags import (
    MAX_TAG_KEY_LENGTH,
    MAX_TAG_VALUE_LENGTH,
    MAX_TAGS_PER_RESOURCE,
    tags_problems,
)
from deployment_config.aws_rules.text import pasted_token_problem, text_problem

__all__ = [
    "ARN_MAX_LENGTH",
    "FALLBACK_ZONE_LETTERS",
    "HF_NAME_MAX_LENGTH",
    "IMAGE_NAME_MAX_LENGTH",
    "MAX_PUBLIC_IPV4_ADDRESSES",
    "MAX_PUBLIC_IPV6_ADDRESSES",
    "MAX_TAG_KEY_LENGTH",
    "MAX_TAG_VALUE_LENGTH",
    "MAX_TAGS_PER_RESOURCE",
    "PRIVATE_IPV4_RANGES",
    "PRIVATE_IPV6_RANGES",
    "ROLE_NAME_MAX_LENGTH",
    "ROLE_PATH_MAX_LENGTH",
    "VPC_PREFIX_RANGE",
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
