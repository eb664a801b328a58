"""``sagemaker.amazonaws.com`` for the roles SageMaker assumes on this account's behalf (HyperPod's execution roles)."""

from __future__ import annotations

import aws_cdk as cdk
from aws_cdk import aws_iam as iam
from constructs import Construct

SAGEMAKER_SERVICE = "sagemaker.amazonaws.com"


def sagemaker_principal(scope: Construct) -> iam.IPrincipal:
    """SageMaker, acting for this account's SageMaker resources in this region only: the confused-deputy conditions
    the SageMaker developer guide recommends for a role SageMaker assumes ("Cross-service confused deputy prevention",
    https://docs.aws.amazon.com/sagemaker/latest/dg/security-confused-deputy-prevention.html: ``aws:SourceAccount``
    = the account, ``aws:SourceArn`` with wildcards for the parts not known, e.g. ``arn:aws:sagemaker:REGION:ACCOUNT:*``).

    Both with ``IfExists``: that page documents the source ARN SageMaker sends for its inference, batch transform,
    processing, training, pipelines, Studio, Neo, Edge Manager, images and Marketplace, not for HyperPod (its cluster's
    instances, the Inference Operator's endpoints), and the HyperPod pages give their execution roles a bare
    ``sagemaker.amazonaws.com`` trust. A request that carries the keys must name this account and a SageMaker
    resource of this account and region; one without them is not refused, so that HyperPod does not fail to assume
    the role if it sends none."""
    stack = cdk.Stack.of(scope)
    return iam.ServicePrincipal(SAGEMAKER_SERVICE).with_conditions(
        {
            "StringEqualsIfExists": {"aws:SourceAccount": stack.account},
            "ArnLikeIfExists": {
                "aws:SourceArn": f"arn:{stack.partition}:sagemaker:{stack.region}:{stack.account}:*"
            },
        }
    )
