"""cdk-nag findings this project accepts, each with the reason it is accepted.

Kept in one package so that a reviewer sees every exception to the AwsSolutions rules at once, one module per family:
how an acknowledgement is written (findings.py), the platform (platform.py: network, cluster, node roles, add-ons),
what serves the model (serving.py: weights, secrets, metrics) and how a change is delivered (delivery.py: pipeline,
smoke test, promotion gate). Each function acknowledges findings on one construct (and its children) only, never on a
whole stack. The stacks and constructs import every name from this package.
"""

from cdk_constructs.nag_acknowledgements.delivery import (
    acknowledge_deploy_time_smoke_test,
    acknowledge_pipeline,
    acknowledge_promotion_gate,
    acknowledge_replication_bucket,
)
from cdk_constructs.nag_acknowledgements.findings import (
    CLOUDFORMATION_VALIDATE,
    PLUGIN,
    STEP_FUNCTIONS_LOG_DELIVERY,
    acknowledge,
    acknowledge_each,
    managed_policy_finding,
    wildcard_findings,
)
from cdk_constructs.nag_acknowledgements.platform import (
    NODE_POLICY_REASONS,
    acknowledge_bucket_deployment,
    acknowledge_cloudwatch_agent_role,
    acknowledge_cluster_role,
    acknowledge_explicit_zones,
    acknowledge_hyperpod_observability_role,
    acknowledge_image_cache_puller,
    acknowledge_kubectl_provider,
    acknowledge_node_role,
    acknowledge_policy_detacher,
)
from cdk_constructs.nag_acknowledgements.serving import (
    acknowledge_api_key_secret,
    acknowledge_previous_key,
    acknowledge_secrets_reader,
    acknowledge_serving_metrics_publisher,
    acknowledge_weights_reader,
    acknowledge_weights_writer,
)

__all__ = [
    "CLOUDFORMATION_VALIDATE",
    "NODE_POLICY_REASONS",
    "PLUGIN",
    "STEP_FUNCTIONS_LOG_DELIVERY",
    "acknowledge",
    "acknowledge_api_key_secret",
    "acknowledge_bucket_deployment",
    "acknowledge_cloudwatch_agent_role",
    "acknowledge_cluster_role",
    "acknowledge_deploy_time_smoke_test",
    "acknowledge_each",
    "acknowledge_explicit_zones",
    "acknowledge_hyperpod_observability_role",
    "acknowledge_image_cache_puller",
    "acknowledge_kubectl_provider",
    "acknowledge_node_role",
    "acknowledge_policy_detacher",
    "acknowledge_previous_key",
    "acknowledge_pipeline",
    "acknowledge_promotion_gate",
    "acknowledge_replication_bucket",
    "acknowledge_secrets_reader",
    "acknowledge_serving_metrics_publisher",
    "acknowledge_weights_reader",
    "acknowledge_weights_writer",
    "managed_policy_finding",
    "wildcard_findings",
]
