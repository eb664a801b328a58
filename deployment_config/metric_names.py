"""CloudWatch names that the stacks, the charts and ``llmops`` share: one declaration, below all three."""

#: The namespace of the metrics the serving metrics publisher puts (cdk_constructs/serving_metrics/), dimension
#: ClusterName; HyperPod's autoscaling trigger reads it (charts/inference_endpoint_config.py), ``llmops cost --usage``
#: too (ops_cli/block_usage.py).
SERVING_METRICS_NAMESPACE = "LLMServing"
