"""Which EKS add-ons one environment's stacks install, with their configuration values, for ``llmops preflight``
(the pins and the configurations themselves are :mod:`deployment_config.addons`)."""

from __future__ import annotations

from deployment_config.addons import (
    CLOUDWATCH_OBSERVABILITY,
    COREDNS,
    HYPERPOD_OBSERVABILITY,
    INFERENCE_OPERATOR,
    NETWORK_ADDONS,
    NODE_MONITORING_AGENT,
    OPERATOR_DEPENDENCIES,
    SECRETS_STORE_CSI_PROVIDER,
    VPC_CNI,
    VPC_CNI_CONFIGURATION,
    AddonPin,
    cloudwatch_observability_configuration,
    hyperpod_observability_configuration,
    node_monitoring_agent_configuration,
    operator_configuration,
    secrets_store_csi_provider_configuration,
)
from deployment_config.gpu_nodes import gpu_node_toleration
from deployment_config.model import EnvironmentConfig, Platform


def addons_for(env: EnvironmentConfig) -> list[tuple[AddonPin, dict | None]]:
    """Every add-on the environment's stacks install, each with its configuration values (placeholders of the right
    shape where the real value is only known after deploy), for ``llmops preflight``."""
    addons: list[tuple[AddonPin, dict | None]] = [
        (pin, dict(VPC_CNI_CONFIGURATION) if pin is VPC_CNI else None)
        for pin in (*NETWORK_ADDONS, COREDNS)
    ]
    if env.platform is Platform.EKS:
        addons += [
            (CLOUDWATCH_OBSERVABILITY, cloudwatch_observability_configuration()),
            (NODE_MONITORING_AGENT, node_monitoring_agent_configuration([gpu_node_toleration()])),
            (SECRETS_STORE_CSI_PROVIDER, secrets_store_csi_provider_configuration()),
        ]
    if env.platform is Platform.HYPERPOD:
        # The cluster stack's add-ons first (container logs; the API key and the Hugging Face token), then the
        # operator stack's.
        addons += [
            (
                CLOUDWATCH_OBSERVABILITY,
                cloudwatch_observability_configuration(accelerated_compute_metrics=False),
            ),
            (SECRETS_STORE_CSI_PROVIDER, secrets_store_csi_provider_configuration()),
        ]
        addons += [(pin, None) for pin in OPERATOR_DEPENDENCIES]
        account, region, name = env.account, env.region, env.name
        role = f"arn:aws:iam::{account}:role/{{}}-{name}"
        addons.append(
            (
                INFERENCE_OPERATOR,
                operator_configuration(
                    execution_role_arn=role.format("SageMakerHyperPodInference"),
                    tls_bucket=f"{name}-tls-certificates",
                    hyperpod_cluster_arn=f"arn:aws:sagemaker:{region}:{account}:cluster/abcdefgh1234",
                    load_balancer_controller_role_arn=role.format("LoadBalancerController"),
                    keda_role_arn=role.format("Keda"),
                ),
            )
        )
        # The observability stack's add-on, last: it runs on the HyperPod nodes and writes to the stack's AMP workspace.
        workspace = (
            f"arn:aws:aps:{region}:{account}:workspace/ws-00000000-0000-0000-0000-000000000000"
        )
        addons.append(
            (
                HYPERPOD_OBSERVABILITY,
                hyperpod_observability_configuration(
                    workspace_arn=workspace,
                    prometheus_endpoint=f"https://aps-workspaces.{region}.amazonaws.com/workspaces/"
                    "ws-00000000-0000-0000-0000-000000000000",
                ),
            )
        )
    return addons
