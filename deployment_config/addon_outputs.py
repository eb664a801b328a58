"""Where the observability add-ons' output is found: the log groups the CloudWatch Observability add-on writes (the
cluster stack creates them first, with the environment's retention; the dashboard reads them), and the node monitoring
agent's metrics endpoint (the AMP scraper's target). The add-ons' pins and configurations are in
:mod:`deployment_config.addons`."""

from __future__ import annotations

#: The namespace and pod label of the node monitoring agent's DaemonSet, for the metrics scraper (the add-on installs it
#: in kube-system; the chart's selector label is app.kubernetes.io/name: eks-node-monitoring-agent, its container has
#: the same name and declares no port, and it runs with hostNetwork: true - aws/eks-node-monitoring-agent@80d3c0d
#: (v1.6.7) charts/eks-node-monitoring-agent/templates/daemonset.yaml; the metrics address :8003 is its values.yaml
#: nodeAgent.additionalArgs, see deployment_config.addons.NODE_MONITORING_AGENT).
NODE_MONITORING_AGENT_NAMESPACE = "kube-system"
NODE_MONITORING_AGENT_NAME = "eks-node-monitoring-agent"
NODE_MONITORING_AGENT_METRICS_PORT = 8003

#: Log groups the CloudWatch Observability add-on (deployment_config.addons.CLOUDWATCH_OBSERVABILITY) writes to, by
#: the last part of their name. Fluent Bit writes application (every container's stdout and stderr), dataplane and
#: host logs with `auto_create_group true` (aws-observability/helm-charts@6944490
#: charts/amazon-cloudwatch-observability/values.yaml, containerLogs.fluentBit.config:
#: `log_group_name /aws/containerinsights/${CLUSTER_NAME}/application` and the others); the agent writes its
#: embedded-metric-format records to /aws/containerinsights/{ClusterName}/performance (aws/amazon-cloudwatch-agent@ab55b8d
#: plugins/processors/k8sdecorator/structuredlogsadapter/utils.go). On Amazon Linux 2023 nodes the dataplane and host
#: groups stay empty (they read syslog files that AL2023 does not write; CloudWatch user guide, "Quick start with the
#: Amazon CloudWatch Observability EKS add-on").
CONTAINER_INSIGHTS_LOG_GROUPS = ("application", "dataplane", "host", "performance")


def container_insights_log_group_name(cluster_name: str, kind: str) -> str:
    """The name of one of the add-on's log groups for ``cluster_name`` (see :data:`CONTAINER_INSIGHTS_LOG_GROUPS`)."""
    if kind not in CONTAINER_INSIGHTS_LOG_GROUPS:
        raise ValueError(
            f"unknown Container Insights log group {kind!r}; one of {CONTAINER_INSIGHTS_LOG_GROUPS}"
        )
    return f"/aws/containerinsights/{cluster_name}/{kind}"
