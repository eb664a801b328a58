"""An IAM role for one Kubernetes service account, given to its pods through EKS Pod Identity."""

from __future__ import annotations

import aws_cdk as cdk
from aws_cdk import aws_eks_v2 as eks
from aws_cdk import aws_iam as iam
from constructs import Construct

POD_IDENTITY_SERVICE = "pods.eks.amazonaws.com"


def pod_identity_principal(scope: Construct, cluster: eks.ICluster) -> iam.IPrincipal:
    """``pods.eks.amazonaws.com`` with session tags (``sts:AssumeRole`` and ``sts:TagSession``, as Pod Identity requires:
    EKS user guide, "Create IAM role with trust policy required by EKS Pod Identity",
    https://docs.aws.amazon.com/eks/latest/userguide/pod-id-role.html), for this cluster of this account only:
    ``aws:SourceArn`` = the cluster's ARN and ``aws:SourceAccount`` = the account, the confused-deputy conditions AWS
    documents for a Pod Identity role (SageMaker developer guide, "Troubleshooting the Amazon SageMaker HyperPod
    observability add-on", "Verify Pod Identity association": the collector's role trusted by pods.eks.amazonaws.com
    with both conditions). The EKS user guide's own Pod Identity page documents session tags
    (aws:RequestTag/eks-cluster-arn, kubernetes-namespace, ...) instead, and its confused-deputy page covers the cluster
    role, not Pod Identity: that EKS Auth sets aws:SourceArn for every Pod Identity role rests on the SageMaker page, so
    a deploy that fails to assume a pod role points here first. Without the conditions, a Pod Identity association of
    any cluster in the account could take the role."""
    return (
        iam.ServicePrincipal(POD_IDENTITY_SERVICE)
        .with_session_tags()
        .with_conditions(
            {
                "StringEquals": {
                    "aws:SourceArn": cluster.cluster_arn,
                    "aws:SourceAccount": cdk.Stack.of(scope).account,
                }
            }
        )
    )


def pod_identity_role(
    scope: Construct,
    *,
    cluster: eks.ICluster,
    namespace: str,
    service_account: str,
    description: str,
    association_id: str = "PodIdentity",
) -> tuple[iam.Role, eks.CfnPodIdentityAssociation]:
    """A role trusted through :func:`pod_identity_principal`, and its association with ``namespace/service_account``.

    :param association_id: the association's construct id. EKS allows one association per service account, so a stack
        that renames it would create the second before deleting the first: keep an id once deployed.
    """
    role = iam.Role(
        scope, "PodRole", assumed_by=pod_identity_principal(scope, cluster), description=description
    )
    association = eks.CfnPodIdentityAssociation(
        scope,
        association_id,
        cluster_name=cluster.cluster_name,
        namespace=namespace,
        service_account=service_account,
        role_arn=role.role_arn,
    )
    return role, association
