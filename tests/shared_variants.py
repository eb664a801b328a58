"""The variants that test files of different folders read (a pytest plugin of tests/conftest.py), each synthesized
once per test process instead of once per file. Session-scoped: built by the first of its files a process runs, reused
by the others (all of them with ``-n 0``, and with xdist because tests/scheduling.py's SAME_WORKER gives a variant's
files to one worker). Each synthesis runs under cdk-nag (app.checked_app), which fails it on an unacknowledged finding.

- The access variant (``access_assembly``), read by tests/stacks/test_access_stack.py, tests/stacks/test_inventory.py
  and tests/docs/test_doc_figures.py: the example EKS environment as ``reach`` and the example HyperPod environment as
  ``reach-hp``, each with the access host on, in one app.
- The next-block variant (``next_block_assembly``), read by tests/cdk_constructs/test_observability.py (its
  observability stack) and tests/stacks/test_block_succession.py (its GPU nodes stack): config/example.yaml with the
  observability section :data:`OBSERVABILITY` and a next Capacity Block (:data:`NEXT_BLOCK`), every stack of the app.
- The serving variants (``serving_variants_assembly``), read by tests/cdk_constructs/test_serving_secrets.py (both) and
  tests/stacks/test_tls_endpoint.py (``shared``), in one app: ``optout`` (no API key, a Hugging Face token by name) and
  ``shared`` (an API key readable from another account, a Hugging Face token by complete ARN, weights from S3, an image
  by digest, and TLS on the load balancer: an ACM certificate and its domain).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest


def stack_templates(directory: Path) -> dict[str, Path]:
    """Stack name → template file of a cloud assembly directory, from its manifest.json."""
    manifest = json.loads((directory / "manifest.json").read_text())
    return {
        name: directory / a["properties"]["templateFile"]
        for name, a in manifest["artifacts"].items()
        if a["type"] == "aws:cloudformation:stack"
    }


# --- the access variant -----------------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def access_envs(default_env, hyperpod_env):
    from deployment_config.sections.access import AccessSection

    on = AccessSection(enabled=True)
    return [
        dataclasses.replace(default_env, name="reach", access=on),
        dataclasses.replace(hyperpod_env, name="reach-hp", access=on),
    ]


@pytest.fixture(scope="session")
def access_assembly(access_envs, tmp_path_factory):
    """The cloud assembly (aws_cdk.cx_api.CloudAssembly) of both environments with access on."""
    from app import checked_app
    from stacks.composition import add_environment

    app = checked_app(str(tmp_path_factory.mktemp("access.out")), inspect_only=True)
    for env in access_envs:
        add_environment(app, env)
    return app.synth()  # cdk-nag runs here and fails the synthesis on an unacknowledged finding


# --- the next-block variant -------------------------------------------------------------------------------------------

#: The variant's observability section, as keyword arguments of deployment_config.model.ObservabilityConfig.
OBSERVABILITY = dict(
    alarm_emails=["oncall@example.com", "ml-platform@example.com"],
    log_retention_days=90,
    time_to_first_token_p90_seconds=2.5,
    kv_cache_usage_percent=90,
    error_rate_percent=2,
    block_fee_usd=91540.8,
    idle_alarm_minutes=120,
)
#: The variant's next Capacity Block (capacity.next_capacity_reservation_id): serving across blocks.
NEXT_BLOCK = "cr-0fedcba9876543210"


@pytest.fixture(scope="session")
def next_block_env(default_env):
    """config/example.yaml with OBSERVABILITY as its observability section and NEXT_BLOCK after its block."""
    from deployment_config.model import ObservabilityConfig

    capacity = default_env.capacity.model_copy(update={"next_capacity_reservation_id": NEXT_BLOCK})
    return dataclasses.replace(
        default_env, observability=ObservabilityConfig(**OBSERVABILITY), capacity=capacity
    )


@pytest.fixture(scope="session")
def next_block_assembly(next_block_env, tmp_path_factory) -> Path:
    """The cloud assembly directory of next_block_env, synthesized as `cdk synth` does (app.synthesize), for
    inspection only."""
    from app import synthesize

    result = synthesize(
        [next_block_env], outdir=str(tmp_path_factory.mktemp("next-block.out")), inspect_only=True
    )
    return result.directory


# --- the serving variants ---------------------------------------------------------------------------------------------

READER_ACCOUNT = "111111111111"
#: The pipeline's smoke role in another account, which may read the ``shared`` variant's API key.
READER_ROLE = f"arn:aws:iam::{READER_ACCOUNT}:role/llm-serving-smoke-shared-0a1b2c3d"
HF_TOKEN_NAME = "llm-serving/hf-token"
HF_TOKEN_ARN = "arn:aws:secretsmanager:us-west-2:123456789012:secret:llm-serving/hf-token-AbC123"
WEIGHTS_SHA = "0123456789abcdef0123456789abcdef01234567"
CERTIFICATE = "arn:aws:acm:us-west-2:123456789012:certificate/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
DOMAIN = "llm.example.com"


@pytest.fixture(scope="session")
def serving_variant_envs(default_env) -> dict:
    """The variants by name, both config/example.yaml changed in their endpoint and model."""
    from deployment_config.model import WeightSource

    model, endpoint = default_env.model, default_env.endpoint
    optout = dataclasses.replace(
        default_env,
        name="optout",
        endpoint=endpoint.model_copy(update={"authentication": "none"}),
        model=dataclasses.replace(model, hugging_face_token_secret=HF_TOKEN_NAME),
    )
    shared = dataclasses.replace(
        default_env,
        name="shared",
        endpoint=endpoint.model_copy(
            update={"certificate_arn": CERTIFICATE, "domain_name": DOMAIN}
        ),
        model=dataclasses.replace(
            model,
            hugging_face_token_secret=HF_TOKEN_ARN,
            weight_source=WeightSource.S3,
            s3_uri="s3://weights-bucket/kimi-k3/",
            hugging_face_revision=WEIGHTS_SHA,
            # pinned by digest: the compile cache is kept (charts/compile_cache/)
            image="vllm/vllm-openai:kimi-k3@sha256:" + "a" * 64,
        ),
    )
    return {env.name: env for env in (optout, shared)}


@pytest.fixture(scope="session")
def serving_variants_assembly(serving_variant_envs, default_env, tmp_path_factory):
    """The cloud assembly (aws_cdk.cx_api.CloudAssembly) of both serving variants."""
    from app import checked_app
    from stacks.composition import add_environment

    app = checked_app(str(tmp_path_factory.mktemp("serving-variants.out")), inspect_only=True)
    add_environment(app, serving_variant_envs["optout"])
    # the pipeline's smoke role twice and a role of the environment's own account: one statement for the pipeline's,
    # none for its own
    add_environment(
        app,
        serving_variant_envs["shared"],
        api_key_reader_roles=[
            READER_ROLE,
            READER_ROLE,
            f"arn:aws:iam::{default_env.account}:role/operator",
        ],
    )
    return app.synth()  # cdk-nag runs here and fails the synthesis on an unacknowledged finding
