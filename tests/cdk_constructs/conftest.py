"""Two variants that two files of this folder each read, synthesized once per test process instead of once per file.

The pipeline of tests/cdk_constructs/test_deploy_time_smoke.py and tests/cdk_constructs/test_promotion_gate.py: three
waves, the promotion gate's environment (tests/configs/promotion-gate.yaml), then the EKS example as ``smoke`` and the
HyperPod example as ``smoke-hyperpod``, each with the deploy-time smoke test on. Each file reads the stages it read
before, whose stacks are as they were in the file's own pipeline (docs/maintainers/test-suite.md, "Issue 33, item 1").

The observability stack of tests/cdk_constructs/test_budget_alarm.py and tests/cdk_constructs/test_router_metrics.py:
tests/configs/budget.yaml (a monthly budget) on a reservation of two nodes, so two replicas and a router in front.

Session-scoped: built by the first of the two files a process runs, reused by the other (tests/scheduling.py's
SAME_WORKER gives both to one worker).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.conftest import CONFIG_DIR, in_memory_pipeline

TEST_CONFIGS = Path(__file__).resolve().parents[1] / "configs"


def _with_smoke_test(file: str, name: str):
    from deployment_config import parse_environment

    document = yaml.safe_load((CONFIG_DIR / file).read_text(encoding="utf-8"))
    document.setdefault("endpoint", {})["deploy_time_smoke_test"] = True
    return parse_environment(document, name=name)


@pytest.fixture(scope="session")
def smoke_eks_env():
    return _with_smoke_test("example.yaml", "smoke")


@pytest.fixture(scope="session")
def smoke_hyperpod_env():
    return _with_smoke_test("example-hyperpod.yaml", "smoke-hyperpod")


@pytest.fixture(scope="session")
def gate_env():
    from deployment_config import load_environment

    return load_environment(TEST_CONFIGS, "promotion-gate")


@pytest.fixture(scope="session")
def smoke_and_gate_pipeline(gate_env, smoke_eks_env, smoke_hyperpod_env, tmp_path_factory):
    """The pipeline stack (stacks.pipeline_stack.PipelineStack) and its cloud assembly."""
    from app import build_pipeline
    from deployment_config.pipeline import Wave

    config = in_memory_pipeline(
        "smoke",
        Wave("gate", (gate_env,)),
        Wave("dev", (smoke_eks_env,)),
        Wave("hyperpod", (smoke_hyperpod_env,)),
    )
    outdir = tmp_path_factory.mktemp("smoke-pipeline.out")
    app, stack = build_pipeline(config, outdir=str(outdir), inspect_only=True)
    # raises on an unacknowledged cdk-nag finding, the stages' stacks' too (the app's plugins see stacksRecursively:
    # aws-cdk-lib 2.275.0 core/lib/private/synthesis-validation.js)
    return stack, app.synth()


@pytest.fixture(scope="session")
def budget_router_env():
    """tests/configs/budget.yaml on a reservation of two nodes: two replicas, routing auto, so the router in front."""
    from deployment_config import parse_environment

    document = yaml.safe_load((TEST_CONFIGS / "budget.yaml").read_text(encoding="utf-8"))
    document["capacity"]["instance_count"] = 2
    return parse_environment(document, name="budget")


@pytest.fixture(scope="session")
def budget_router_observability(budget_router_env, tmp_path_factory):
    """The observability stack (aws_cdk.cx_api.CloudFormationStackArtifact) of budget_router_env, synthesized with
    cdk-nag with only the network and cluster stacks it needs."""
    from app import checked_app
    from charts.serving_spec import serving_spec_for
    from stacks.composition import _base, _props
    from stacks.observability_stack import ObservabilityStack

    env = budget_router_env
    app = checked_app(str(tmp_path_factory.mktemp("budget-router.out")), inspect_only=True)
    network, cluster = _base(app, env)
    ObservabilityStack(
        app,
        **_props(env, "observability"),
        env_config=env,
        cluster=cluster.cluster,
        vpc=network.vpc,
        spec=serving_spec_for(env),
        alarm_topic=cluster.alarm_topic.topic,
    )
    assembly = app.synth()  # raises on an unacknowledged cdk-nag finding
    return assembly.get_stack_by_name(env.stack_name("observability"))
