"""An IAM role for one Kubernetes service account, given to its pods through EKS Pod Identity."""

from __future__ import annotations

from aws_cdk import aws_eks_v2 as eks
from aws_cdk import aws_iam as iam
from constructs import Construct


def pod_identity_role(scope: Construct, *, cluster: eks.ICluster, namespace: str, service_account: str,
                      description: str, association_id: str = "PodIdentity",
                      ) -> tuple[iam.Role, eks.CfnPodIdentityAssociation]:
    """A role trusted by ``pods.eks.amazonaws.com`` (with session tags, as Pod Identity requires: EKS user guide, "Create
    an IAM role for EKS Pod Identity"), and its association with ``namespace/service_account``.

    :param association_id: the association's construct id. EKS allows one association per service account, so a stack
        that renames it would create the second before deleting the first: keep an id once deployed.
    """
    role = iam.Role(scope, "PodRole", assumed_by=iam.ServicePrincipal("pods.eks.amazonaws.com").with_session_tags(),
                    description=description)
    association = eks.CfnPodIdentityAssociation(scope, association_id, cluster_name=cluster.cluster_name,
                                                namespace=namespace, service_account=service_account,
                                                role_arn=role.role_arn)
    return role, association
