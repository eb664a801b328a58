"""The HyperPod path's GPU metrics in the observability stack (stacks/observability_stack.py, "GPU metrics" under "On
HyperPod"): AWS's ``amazon-sagemaker-hyperpod-observability`` add-on writing DCGM's series to the stack's AMP workspace,
and its collector's role through the add-on's own Pod Identity association.

A function of the stack, not a construct: its resources keep the logical ids they had as the stack's own methods, so
moving it here (to keep the stack module readable) replaces nothing on deploy.
"""

from __future__ import annotations

import aws_cdk as cdk
from aws_cdk import aws_aps as aps
from aws_cdk import aws_eks_v2 as eks
from aws_cdk import aws_iam as iam

from cdk_constructs.nag_acknowledgements import acknowledge_hyperpod_observability_role
from cdk_constructs.pod_identity import pod_identity_principal
from deployment_config.addons import (
    HYPERPOD_OBSERVABILITY,
    HYPERPOD_OBSERVABILITY_LOG_GROUP_PREFIX,
    hyperpod_observability_configuration,
)


def hyperpod_observability_addon(
    stack: cdk.Stack, *, cluster: eks.ICluster, cluster_name: str, workspace: aps.CfnWorkspace
) -> tuple[iam.Role, eks.CfnAddon]:
    """AWS's HyperPod observability add-on, writing to ``workspace``, and its collector's role, made in ``stack`` (their
    logical ids are the stack's own: stacks/observability_stack.py says why this add-on; sources in
    deployment_config/addons.py, HYPERPOD_OBSERVABILITY). Returns (the role, the add-on)."""
    namespace, service_account = HYPERPOD_OBSERVABILITY.service_account
    # Permissions: SageMaker developer guide, "Troubleshooting the Amazon SageMaker HyperPod observability add-on",
    # "Verify Pod Identity association". Trust: the add-on's own association's service account, by the session tags the
    # EKS user guide documents (cdk_constructs/pod_identity.py), not the aws:SourceArn that page shows, which EKS does
    # not document for Pod Identity.
    role = iam.Role(
        stack,
        "GpuMetricsCollectorRole",
        assumed_by=pod_identity_principal(
            cluster, namespace=namespace, service_account=service_account
        ),
        description=f"HyperPod observability add-on's collector ({namespace}/{service_account}): writes to the "
        "serving workspace",
    )
    role.add_to_policy(
        iam.PolicyStatement(
            sid="PrometheusAccess",
            actions=["aps:RemoteWrite"],
            resources=[workspace.attr_arn],
        )
    )
    prefix = HYPERPOD_OBSERVABILITY_LOG_GROUP_PREFIX
    log_groups = f"arn:{stack.partition}:logs:{stack.region}:{stack.account}:log-group:{prefix}*"
    role.add_to_policy(
        iam.PolicyStatement(
            sid="CloudwatchLogsAccess",
            actions=[
                "logs:CreateLogGroup",
                "logs:CreateLogStream",
                "logs:DescribeLogGroups",
                "logs:DescribeLogStreams",
                "logs:PutLogEvents",
                "logs:GetLogEvents",
                "logs:FilterLogEvents",
                "logs:GetLogRecord",
                "logs:StartQuery",
                "logs:StopQuery",
                "logs:GetQueryResults",
            ],
            resources=[log_groups, f"{log_groups}:log-stream:*"],
        )
    )
    acknowledge_hyperpod_observability_role(role)
    # The workspace's endpoint without its trailing slash, as AWS's Terraform module passes it (trimsuffix "/"):
    # PrometheusEndpoint is https://aps-workspaces.REGION.amazonaws.com/workspaces/WORKSPACE_ID/.
    endpoint = cdk.Fn.join(
        "",
        [
            cdk.Fn.select(0, cdk.Fn.split("/workspaces/", workspace.attr_prometheus_endpoint)),
            "/workspaces/",
            workspace.attr_workspace_id,
        ],
    )
    addon = eks.CfnAddon(
        stack,
        "GpuMetricsAddon",
        cluster_name=cluster.cluster_name,
        addon_name=HYPERPOD_OBSERVABILITY.name,
        addon_version=HYPERPOD_OBSERVABILITY.version,
        configuration_values=stack.to_json_string(
            hyperpod_observability_configuration(
                workspace_arn=workspace.attr_arn, prometheus_endpoint=endpoint
            )
        ),
        pod_identity_associations=[
            eks.CfnAddon.PodIdentityAssociationProperty(
                role_arn=role.role_arn, service_account=service_account
            )
        ],
        resolve_conflicts="OVERWRITE",
        preserve_on_delete=False,
    )
    # the role's policy first: the collector writes as soon as it runs
    addon.node.add_dependency(role)
    cdk.CfnOutput(
        stack,
        "GpuMetricsAddonStatusCommand",
        description="The HyperPod observability add-on's status",
        value=f"aws eks describe-addon --cluster-name {cluster_name} --addon-name "
        f"{HYPERPOD_OBSERVABILITY.name} --region {stack.region} --query addon.status",
    )
    return role, addon
