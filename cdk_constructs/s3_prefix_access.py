"""The statements that give a role one S3 prefix of the weights bucket: the vLLM pod's read (stacks/serving_stack.py),
the Mountpoint for S3 CSI driver's read on HyperPod (stacks/inference_operator_stack.py) and the weights mirror Job's
write (cdk_constructs/weights_mirror_access.py) are each these two statements with their own object actions."""

from __future__ import annotations

import re
from collections.abc import Sequence

import aws_cdk as cdk
from aws_cdk import aws_iam as iam


def s3_prefix_statements(s3_uri: str, object_actions: Sequence[str]) -> list[iam.PolicyStatement]:
    """``s3:ListBucket`` on the bucket of ``s3://BUCKET/PREFIX`` for keys under PREFIX only (the ``s3:prefix``
    condition; none for the whole bucket), and ``object_actions`` on the objects under PREFIX."""
    match = re.fullmatch(r"s3://([^/]+)/?(.*)", s3_uri or "")
    if not match:  # the configuration loader has validated the URI already
        raise ValueError(f"s3_uri must be s3://BUCKET/PREFIX, got {s3_uri!r}")
    bucket, prefix = match.group(1), match.group(2)
    partition = cdk.Aws.PARTITION
    return [
        iam.PolicyStatement(
            actions=["s3:ListBucket"],
            resources=[f"arn:{partition}:s3:::{bucket}"],
            conditions={"StringLike": {"s3:prefix": [f"{prefix}*"]}} if prefix else None,
        ),
        iam.PolicyStatement(
            actions=list(object_actions), resources=[f"arn:{partition}:s3:::{bucket}/{prefix}*"]
        ),
    ]
