"""How the stacks of one environment fit together: the only place that wires them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import aws_cdk as cdk
from constructs import Construct

from cdk_constructs.placeholder_guard import refuse_placeholders, refuse_unpinned_weights
from charts.inference_endpoint_chart import (
    inference_endpoint_spec_for,
    synthesize_inference_endpoint,
)
from charts.inference_endpoint_spec import InferenceEndpointSpec
from charts.serving_spec import VllmServingSpec, serving_spec_for
from charts.vllm_serving_chart import synthesize_manifests
from deployment_config import speculator
from deployment_config.kubernetes_names import SERVING_MANIFEST_FILE
from deployment_config.model import EnvironmentConfig, Platform, WeightSource
from stacks.access_stack import access_stacks
from stacks.cluster_stack import ClusterStack
from stacks.gpu_nodes_stack import GpuNodesStack
from stacks.hyperpod_cluster_stack import HyperPodClusterStack
from stacks.hyperpod_prerequisites_stack import HyperPodPrerequisitesStack
from stacks.inference_endpoint_stack import InferenceEndpointStack
from stacks.inference_operator_stack import InferenceOperatorStack
from stacks.network_stack import NetworkStack
from stacks.observability_stack import ObservabilityStack
from stacks.serving_stack import ServingStack
from stacks.smoke_stack import SmokeStack


def placeholder_fix(platform: Platform) -> str:
    """What a placeholder environment's stacks tell the user to do: the staged deploy of the quick start (README.md for
    EKS, docs/hyperpod.md for HyperPod), in the words of the example files' headers."""
    page = "docs/hyperpod.md" if platform is Platform.HYPERPOD else "README.md, Quick start"
    return (
        "Copy it to config/NAME.yaml, put in your own account, role and capacity ids, and deploy that in stages "
        f"({page}): stage 1 `npx cdk deploy -c env=NAME NAME-cluster` any day before the capacity starts, "
        "stage 2 `npx cdk deploy -c env=NAME --all` once it is active."
    )


@dataclass(frozen=True)
class Environment:
    """The stacks of one environment in deploy order, and the Kubernetes manifests to write for review."""

    config: EnvironmentConfig
    stacks: list[cdk.Stack]
    manifest_files: dict[str, list[dict]] = field(default_factory=dict)

    def stack(self, unit: str) -> cdk.Stack:
        return next(s for s in self.stacks if s.node.id == self.config.stack_name(unit))


def _in_order(stacks: list[cdk.Stack], reasons: list[str]) -> None:
    """Make each stack depend on the one before it. CloudFormation references already order most of them; the
    explicit edge makes destroy run backwards even where no reference exists (a Service before its nodes)."""
    for (before, after), reason in zip(zip(stacks, stacks[1:]), reasons):
        after.add_stack_dependency(before, reason)


def add_environment(
    scope: Construct, env_config: EnvironmentConfig, *, api_key_reader_roles: Sequence[str] = ()
) -> Environment:
    """:param api_key_reader_roles: roles of other AWS accounts that may read the environment's API key secret
    (``llm-serving/NAME/api-key``), such as the delivery pipeline's smoke test step: the secret's resource policy allows
    them, and no other principal of their accounts, ``secretsmanager:GetSecretValue`` and its KMS key's policy
    ``kms:Decrypt`` through Secrets Manager; they still need the same in an identity policy of their own. EKS path only.
    Default: none."""
    if env_config.platform is Platform.HYPERPOD:
        environment = add_hyperpod_environment(scope, env_config)
    else:
        environment = add_eks_environment(
            scope, env_config, api_key_reader_roles=api_key_reader_roles
        )
    # With access.enabled, NAME-access after the cluster (its access entry and cluster security group rule need it).
    environment.stacks.extend(
        access_stacks(
            scope,
            env_config,
            environment.stack("network"),
            environment.stack("cluster"),
            _props(env_config, "access"),
        )
    )
    # An environment still holding the examples' placeholder ids synthesizes (make synth) but never deploys.
    for stack in environment.stacks:
        refuse_placeholders(
            stack,
            source=env_config.source,
            fields=env_config.placeholders,
            how_to_fix=placeholder_fix(env_config.platform),
        )
    # S3 weights are served only at a revision the mirror copied and verified (deployment_config/model_location.py), and
    # a model repository's code runs only at a pinned commit.
    model = env_config.model
    from_s3 = model.weight_source is WeightSource.S3
    # With spec_decoding the speculator is pinned too: from S3 only its own verified mirror is served, and from the Hub
    # vLLM would otherwise take (and, with --trust-remote-code, run the code of) its default branch at start
    # (deployment_config/speculator.py).
    speculator_unpinned = bool(model.speculator_size_gb) and not model.speculator_revision
    if speculator_unpinned or (
        not model.hugging_face_revision and (from_s3 or "--trust-remote-code" in model.serving_args)
    ):
        serving_unit = "endpoint" if env_config.platform is Platform.HYPERPOD else "serving"
        refuse_unpinned_weights(
            environment.stack(serving_unit),
            source=env_config.source,
            env_name=env_config.name,
            from_s3=from_s3,
            model_id=model.hugging_face_id,
            speculator_only=speculator_unpinned and bool(model.hugging_face_revision),
            speculator_id=speculator.speculator_id(model.serving_args) or "SPECULATOR",
        )
    return environment


def _props(env_config: EnvironmentConfig, unit: str) -> dict:
    """Construct id and stack properties of one unit. The stack name is explicit so that a stage of the pipeline
    deploys the very stacks a direct `cdk deploy -c env=NAME` does (a stage would otherwise prefix its own name)."""
    return dict(
        id=env_config.stack_name(unit),
        stack_name=env_config.stack_name(unit),
        env=cdk.Environment(account=env_config.account, region=env_config.region),
        tags=dict(env_config.tags),
    )


def _base(scope: Construct, env_config: EnvironmentConfig) -> tuple[NetworkStack, ClusterStack]:
    network = NetworkStack(
        scope,
        env_config=env_config,
        **_props(env_config, "network"),
        description=f"VPC for the {env_config.name} LLM serving environment",
    )
    cluster = ClusterStack(
        scope,
        env_config=env_config,
        vpc=network.vpc,
        **_props(env_config, "cluster"),
        description=f"EKS cluster {env_config.cluster_name}",
    )
    return network, cluster


def _observability(
    scope: Construct,
    env_config: EnvironmentConfig,
    network: NetworkStack,
    cluster: ClusterStack,
    spec: VllmServingSpec | InferenceEndpointSpec,
) -> ObservabilityStack:
    """The metrics, dashboard and alarms of either platform's endpoint (``spec``), in the VPC, on the cluster's topic."""
    return ObservabilityStack(
        scope,
        **_props(env_config, "observability"),
        env_config=env_config,
        cluster=cluster.cluster,
        vpc=network.vpc,
        spec=spec,
        alarm_topic=cluster.alarm_topic.topic,
        description=f"Metrics, dashboard and alarms of {env_config.cluster_name}",
    )


def add_eks_environment(
    scope: Construct, env_config: EnvironmentConfig, *, api_key_reader_roles: Sequence[str] = ()
) -> Environment:
    """Network → cluster → GPU nodes (Capacity Block) → serving; ``cdk destroy`` runs it backwards, so the Service and
    its load balancer are gone before the nodes, the cluster and the VPC."""
    network, cluster = _base(scope, env_config)
    gpu_nodes = GpuNodesStack(
        scope,
        **_props(env_config, "gpu-nodes"),
        env_config=env_config,
        cluster=cluster.cluster,
        gpu_subnet=network.gpu_subnets[0],
        efa_security_group=network.efa_security_group,
        description=f"GPU nodes on Capacity Block {env_config.capacity.capacity_reservation_id}",
    )
    spec = serving_spec_for(env_config)
    manifests = synthesize_manifests(spec)
    serving = ServingStack(
        scope,
        **_props(env_config, "serving"),
        cluster=cluster.cluster,
        spec=spec,
        manifests=manifests,
        api_key_reader_roles=api_key_reader_roles,
        description=f"vLLM serving {env_config.model.hugging_face_id}",
    )
    observability = _observability(scope, env_config, network, cluster, spec)
    stacks = [network, cluster, gpu_nodes, serving, observability]
    _in_order(
        stacks,
        [
            "the cluster lives in the VPC",
            "the nodes join the cluster",
            "the vLLM pods run on the GPU nodes; the Service goes before the nodes on destroy",
            "the scraper and the alarms watch the pods and the load balancer the serving stack makes; on "
            "destroy the scraper goes first, before the cluster it reads",
        ],
    )
    stacks += _smoke_test(
        scope,
        env_config,
        network,
        spec,
        manifests,
        after=(serving, observability),
        cluster=cluster.cluster,
    )
    return Environment(env_config, stacks, {SERVING_MANIFEST_FILE: manifests})


def add_hyperpod_environment(scope: Construct, env_config: EnvironmentConfig) -> Environment:
    """Network → cluster → HyperPod prerequisites → HyperPod cluster → Inference Operator → endpoint → observability;
    destroyed backwards, so the scraper goes first and the endpoint (and what the operator made for it) before the
    operator, the nodes and the VPC."""
    network, cluster = _base(scope, env_config)
    prerequisites = HyperPodPrerequisitesStack(
        scope,
        **_props(env_config, "hyperpod-prereqs"),
        env_config=env_config,
        cluster=cluster.cluster,
        description="Device plugins and dependencies HyperPod nodes need",
    )
    hyperpod = HyperPodClusterStack(
        scope,
        **_props(env_config, "hyperpod"),
        env_config=env_config,
        cluster=cluster.cluster,
        vpc=network.vpc,
        gpu_subnet=network.gpu_subnets[0],
        efa_security_group=network.efa_security_group,
        description=f"SageMaker HyperPod cluster on training plan {env_config.hyperpod.training_plan_arn.rsplit('/', 1)[-1]}",
    )
    operator = InferenceOperatorStack(
        scope,
        **_props(env_config, "inference-operator"),
        env_config=env_config,
        cluster=cluster.cluster,
        oidc_provider=cluster.oidc_provider,
        hyperpod_cluster_arn=hyperpod.cluster_arn,
        description="SageMaker HyperPod Inference Operator",
    )
    spec = inference_endpoint_spec_for(env_config)
    manifests = synthesize_inference_endpoint(spec)
    endpoint = InferenceEndpointStack(
        scope,
        **_props(env_config, "endpoint"),
        cluster=cluster.cluster,
        spec=spec,
        manifests=manifests,
        description=f"InferenceEndpointConfig {spec.name} for {env_config.model.hugging_face_id}",
    )
    observability = _observability(scope, env_config, network, cluster, spec)
    stacks = [network, cluster, prerequisites, hyperpod, operator, endpoint, observability]
    _in_order(
        stacks,
        [
            "the cluster lives in the VPC",
            "HyperPod nodes need the device plugins first",
            "the HyperPod cluster joins the EKS cluster once its prerequisites run",
            "the operator's controller waits for a node",
            "the endpoint needs the operator's CRD and controller",
            "the scraper and the alarms watch the worker pod and the load balancer the operator makes for the "
            "endpoint; on destroy the scraper goes first, before the cluster it reads",
        ],
    )
    stacks += _smoke_test(
        scope, env_config, network, spec, manifests, after=(endpoint, observability)
    )
    return Environment(env_config, stacks, {f"{env_config.model.preset.key}.yaml": manifests})


def _smoke_test(
    scope: Construct,
    env_config: EnvironmentConfig,
    network: NetworkStack,
    spec,
    manifests: list[dict],
    *,
    after: tuple[cdk.Stack, cdk.Stack],
    cluster=None,
) -> list[cdk.Stack]:
    """With ``endpoint.deploy_time_smoke_test``: ``NAME-smoke`` last, after the serving (or endpoint) stack and the
    observability stack (its alarms and dashboard watch the start it waits for); destroyed first, with nothing to undo."""
    if not env_config.endpoint.deploy_time_smoke_test:
        return []
    smoke = SmokeStack(
        scope,
        **_props(env_config, "smoke"),
        env_config=env_config,
        vpc=network.vpc,
        spec=spec,
        manifests=manifests,
        cluster=cluster,
        description=f"Deploy-time smoke test of {env_config.name}'s endpoint, from its VPC",
    )
    endpoint, observability = after
    smoke.add_stack_dependency(endpoint, "the smoke test tests the endpoint this stack makes")
    smoke.add_stack_dependency(
        observability, "the alarms and the dashboard watch the start the smoke test waits for"
    )
    return [smoke]
