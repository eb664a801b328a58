"""How the stacks of one environment fit together: the only place that wires them."""

from __future__ import annotations

from dataclasses import dataclass

import aws_cdk as cdk
from constructs import Construct

from charts.serving_spec import VllmServingSpec, serving_spec_for
from charts.vllm_serving_chart import synthesize_manifests
from deployment_config.model import EnvironmentConfig
from stacks.cluster_stack import ClusterStack
from stacks.gpu_nodes_stack import GpuNodesStack
from stacks.network_stack import NetworkStack
from stacks.serving_stack import ServingStack


@dataclass(frozen=True)
class EksEnvironment:
    """The stacks of one EKS + Capacity Block environment, in deploy order."""

    network: NetworkStack
    cluster: ClusterStack
    gpu_nodes: GpuNodesStack
    serving: ServingStack
    serving_spec: VllmServingSpec
    manifests: list[dict]

    @property
    def stacks(self) -> list[cdk.Stack]:
        return [self.network, self.cluster, self.gpu_nodes, self.serving]


def add_eks_environment(scope: Construct, env_config: EnvironmentConfig) -> EksEnvironment:
    """Add the network, cluster, GPU node and serving stacks of ``env_config`` to ``scope``.

    Deploy order network → cluster → GPU nodes → serving; ``cdk destroy`` runs it backwards, so the Service and
    its load balancer are gone before the nodes, the cluster and the VPC.
    """
    aws_env = cdk.Environment(account=env_config.account, region=env_config.region)
    common = dict(env=aws_env, tags=dict(env_config.tags))
    network = NetworkStack(scope, env_config.stack_name("network"), env_config=env_config, **common,
                           description=f"VPC for the {env_config.name} LLM serving environment")
    cluster = ClusterStack(scope, env_config.stack_name("cluster"), env_config=env_config, vpc=network.vpc, **common,
                           description=f"EKS cluster {env_config.cluster_name}")
    gpu_nodes = GpuNodesStack(
        scope, env_config.stack_name("gpu-nodes"), env_config=env_config, cluster=cluster.cluster,
        gpu_subnet=network.gpu_subnets[0], efa_security_group=network.efa_security_group, **common,
        description=f"GPU nodes on Capacity Block {env_config.capacity.capacity_reservation_id}",
    )
    spec = serving_spec_for(env_config)
    manifests = synthesize_manifests(spec)
    serving = ServingStack(scope, env_config.stack_name("serving"), cluster=cluster.cluster, spec=spec,
                           manifests=manifests, **common,
                           description=f"vLLM serving {env_config.model.hugging_face_id}")
    # No reference ties the serving stack to the nodes, yet its pods need them and its destroy must come first.
    serving.add_stack_dependency(gpu_nodes, "the vLLM pods run on the GPU nodes; the Service goes before the nodes on destroy")
    return EksEnvironment(network, cluster, gpu_nodes, serving, spec, manifests)
