"""An IAM role for one Kubernetes service account, given to its pods through EKS Pod Identity."""

from __future__ import annotations

from aws_cdk import aws_eks_v2 as eks
from aws_cdk import aws_iam as iam
from constructs import Construct

POD_IDENTITY_SERVICE = "pods.eks.amazonaws.com"


def pod_identity_principal(
    cluster: eks.ICluster, *, namespace: str, service_account: str
) -> iam.IPrincipal:
    """``pods.eks.amazonaws.com`` with session tags (``sts:AssumeRole`` and ``sts:TagSession``, as Pod Identity
    requires), for one service account of one cluster only: the session tags EKS Pod Identity adds to its AssumeRole
    request, ``aws:RequestTag/eks-cluster-arn`` = the cluster's ARN (which names the account),
    ``aws:RequestTag/kubernetes-namespace`` and ``aws:RequestTag/kubernetes-service-account``, the conditions the EKS
    user guide documents for a Pod Identity role's trust policy ("Create IAM role with trust policy required by EKS
    Pod Identity", "Setting Conditions", https://docs.aws.amazon.com/eks/latest/userguide/pod-id-role.html; the tags:
    "List of session tags added by EKS Pod Identity", https://docs.aws.amazon.com/eks/latest/userguide/pod-id-abac.html).
    EKS documents no ``aws:SourceArn`` for Pod Identity. Without the conditions, a Pod Identity association of any
    cluster or service account in the account could take the role; with them, an association that disables session
    tags (``DisableSessionTags``, off by default and never set here) cannot."""
    return (
        iam.ServicePrincipal(POD_IDENTITY_SERVICE)
        .with_session_tags()
        .with_conditions(
            {
                "StringEquals": {
                    "aws:RequestTag/eks-cluster-arn": cluster.cluster_arn,
                    "aws:RequestTag/kubernetes-namespace": namespace,
                    "aws:RequestTag/kubernetes-service-account": service_account,
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
    """A role trusted through :func:`pod_identity_principal` by ``namespace/service_account``, and its association.

    :param association_id: the association's construct id. EKS allows one association per service account, so a stack
        that renames it would create the second before deleting the first: keep an id once deployed.
    """
    role = iam.Role(
        scope,
        "PodRole",
        assumed_by=pod_identity_principal(
            cluster, namespace=namespace, service_account=service_account
        ),
        description=description,
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
