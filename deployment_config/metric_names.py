"""Metric names that the stacks, the charts and ``llmops`` share: one declaration, below all three. The CloudWatch
metrics the serving metrics publisher puts (cdk_constructs/serving_metrics/published.py) that ``llmops cost --usage``
reads (ops_cli/block_usage.py), and the scraper's job and interval that ``llmops bench`` reads the workspace with
(ops_cli/workspace_acceptance.py; the scraper's configuration is cdk_constructs/serving_metrics/scrape.py)."""

#: The namespace of the metrics the serving metrics publisher puts (cdk_constructs/serving_metrics/), dimension
#: ClusterName; HyperPod's autoscaling trigger reads it (charts/inference_endpoint_config.py), ``llmops cost --usage``
#: too (ops_cli/block_usage.py).
SERVING_METRICS_NAMESPACE = "LLMServing"
#: Each minute's 5-minute rate of vLLM's vllm:prompt_tokens_total and vllm:generation_tokens_total.
PROMPT_TOKENS_PER_SECOND = "PromptTokensPerSecond"
GENERATION_TOKENS_PER_SECOND = "GenerationTokensPerSecond"
#: 1 in a minute in which vLLM ran a request, 0 in one it served none (its query: published.py).
SERVING_BUSY = "ServingBusy"

#: The AMP managed scraper cannot scrape more often (AMP user guide, "Using an AWS managed collector", limitations).
SCRAPE_INTERVAL_SECONDS = 30
#: The scraper's job for the vLLM pods; the router's pods are another job (scrape.py).
VLLM_JOB = "vllm"

#: The bridge (the bridge section, docs/stay-up.md): the bridge node group's instances running at the minute
#: (cdk_constructs/serving_metrics/runtime/bridge.py counts them), so that its Sum over a range is the instance-minutes
#: in it; and, where an On-Demand rate is known, that minute's cost of them in USD (instances x the rate / 60), so that
#: its Sum is what the bridge cost in the range. ``llmops cost --usage`` reads the first (ops_cli/block_usage.py).
BRIDGE_INSTANCES = "BridgeInstances"
BRIDGE_COST_USD = "BridgeCostUsd"
#: The canary (``llmops rollout --canary``, ops_cli/canary_command.py): 1 each time a canary is rolled back, put by
#: llmops with dimension ClusterName; the alarm ``CanaryRolledBack`` (cdk_constructs/canary_alarm.py) fires on it.
CANARY_ROLLBACKS = "CanaryRollbacks"
#: The vLLM replicas ready on the block's own nodes at the minute (runtime/bridge.py joins the scraper's series with
#: the block node group's instances); the bridge's scale-down alarm reads it (cdk_constructs/bridge_scale_down.py).
BLOCK_REPLICAS_READY = "BlockReplicasReady"
#: The scraper's target label that holds the pod's Kubernetes Ready condition (scrape.py).
READY_LABEL = "ready"
