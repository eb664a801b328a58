"""The placeholder values of the example files, and where a configuration still holds them.

The examples under ``config/`` synthesize with no AWS account (``make synth``), so they carry ids of the right shape
that belong to nobody. A configuration copied from them and deployed unchanged would fail deep into a deployment
(the reservation is not found after the cluster took 15 minutes), or worse, in someone else's account. The loader
records which fields still hold one of these values; every stack of such an environment carries a CloudFormation
rule that refuses the deployment (:mod:`cdk_constructs.placeholder_guard`), and ``llmops preflight`` fails first.

The values are matched exactly: a real id never equals one of them by accident, except an account of AWS's own
documentation examples (123456789012), which belongs to nobody.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

#: Account ids of the examples: AWS's documentation example account, and two for the production and pipeline examples.
PLACEHOLDER_ACCOUNTS = frozenset({"123456789012", "210987654321", "111111111111"})
#: Other values of the examples that only make sense as placeholders.
PLACEHOLDER_VALUES = frozenset(
    {
        "cr-0123456789abcdef0",  # config/example.yaml capacity.capacity_reservation_id
        "cr-0fedcba9876543210",  # config/example-prod.yaml
        "arn:aws:sagemaker:us-west-2:123456789012:training-plan/kimi-k3-example",  # config/example-hyperpod.yaml
        "arn:aws:codeconnections:us-west-2:111111111111:connection/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",  # pipeline
        "my-org/llm-serving",  # config/pipeline/example.yaml source.repository
        # config/example-hyperpod.yaml model.s3_uri (the environment schema's own example of the field)
        "s3://my-model-bucket/moonshotai/Kimi-K3/",
    }
)


def _holds_placeholder(value: str) -> bool:
    if value in PLACEHOLDER_VALUES or value in PLACEHOLDER_ACCOUNTS:
        return True
    # An ARN of a placeholder account: arn:PARTITION:SERVICE:REGION:ACCOUNT:RESOURCE
    parts = value.split(":")
    return value.startswith("arn:") and len(parts) >= 6 and parts[4] in PLACEHOLDER_ACCOUNTS


def placeholder_fields(document: Mapping[str, Any], paths: Iterable[str]) -> tuple[str, ...]:
    """The dotted ``paths`` of ``document`` (a validated file as plain data) that hold a placeholder value."""
    found = []
    for path in paths:
        node: Any = document
        for key in path.split("."):
            node = node.get(key) if isinstance(node, Mapping) else None
        if isinstance(node, str) and _holds_placeholder(node):
            found.append(path)
    return tuple(found)


#: The fields of an environment file that hold ids of the user's own resources.
ENVIRONMENT_ID_FIELDS = (
    "account",
    "cluster.admin_role_arn",
    "capacity.capacity_reservation_id",
    "hyperpod.training_plan_arn",
    "endpoint.certificate_arn",
    "model.s3_uri",
)
#: The same for a pipeline file.
PIPELINE_ID_FIELDS = ("account", "source.connection_arn", "source.repository")
