"""The smoke test where the endpoint is: ``NAME-smoke``, deployed last, fails the deployment when the endpoint does
not pass ``llmops smoke-test`` from inside the VPC (cdk_constructs/deploy_time_smoke_test/ says how and why)."""

from __future__ import annotations

import hashlib
import json

import aws_cdk as cdk
from aws_cdk import aws_ec2 as ec2
from aws_cdk import aws_eks_v2 as eks
from constructs import Construct

from cdk_constructs.deploy_time_smoke_test import DeployTimeSmokeTest
from cdk_constructs.destroy_waiter import load_balancer_controller_tags, service_load_balancer_tags
from cdk_constructs.promotion_gate import PromotionGate
from charts.inference_endpoint_spec import InferenceEndpointSpec
from charts.serving_spec import VllmServingSpec
from deployment_config.model import EnvironmentConfig, Platform
from deployment_config.model_location import model_path
from deployment_config.sizing import startup_budget_seconds

#: HyperPod: the Inference Operator's ALB listens on HTTPS 443 with the certificate it generates (docs/security.md, "TLS on the
#: load balancer", On HyperPod).
HYPERPOD_LISTENER_PORT = 443


def fingerprint(manifests: list[dict]) -> str:
    """A digest of the Kubernetes objects the serving (or endpoint) stack applies: what the smoke test tests."""
    return hashlib.sha256(json.dumps(manifests, sort_keys=True, default=str).encode()).hexdigest()


class SmokeStack(cdk.Stack):
    """The deploy-time smoke test of one environment: its endpoint's load balancer (found by the tags the EKS cloud
    provider, or on HyperPod the operator's load balancer controller, put on it), reached from the VPC's private
    subnets, must answer the smoke test within the startup budget.

    :param spec: the serving stack's (EKS) or the endpoint stack's (HyperPod) spec: the Service's name, namespace and
        ports.
    :param manifests: what the serving or endpoint stack applies; a change runs the smoke test again.
    :param cluster: the EKS cluster, for the promotion gate's Job (``endpoint.promotion_gate``); needed with it only.
    """

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        env_config: EnvironmentConfig,
        vpc: ec2.IVpc,
        spec: VllmServingSpec | InferenceEndpointSpec,
        manifests: list[dict],
        cluster: eks.ICluster | None = None,
        **kwargs,
    ) -> None:
        super().__init__(scope, id, **kwargs)
        endpoint = env_config.endpoint
        self.promotion_gate = None
        if endpoint.promotion_gate is not None:
            if cluster is None:
                raise ValueError("endpoint.promotion_gate needs the cluster for its load test Job")
            self.promotion_gate = PromotionGate(
                self,
                "PromotionGate",
                env_config=env_config,
                cluster=cluster,
                gate=endpoint.gate,
            )
        hyperpod = env_config.platform is Platform.HYPERPOD
        if hyperpod:
            tags = load_balancer_controller_tags(env_config.cluster_name)
            scheme, port = "https", HYPERPOD_LISTENER_PORT
        else:
            # the Service's listener: 443 with TLS (forwarding to vLLM's port), else vLLM's port (charts/vllm_service.py)
            tags = service_load_balancer_tags(env_config.cluster_name, spec.namespace, spec.name)
            scheme, port = ("https", spec.service_port) if spec.tls else ("http", spec.port)
        self.smoke_test = DeployTimeSmokeTest(
            self,
            "SmokeTest",
            vpc=vpc,
            vpc_cidr=env_config.vpc_cidr,
            load_balancer_tags=tags,
            scheme=scheme,
            port=port,
            model=env_config.model.served_name,
            model_path=model_path(env_config),
            api_key_secret=env_config.api_key_secret_name if endpoint.api_key_required else None,
            startup_budget_seconds=startup_budget_seconds(env_config.model.loaded_gb),
            fingerprint=fingerprint(manifests),
            tls_server_name=None if hyperpod else endpoint.domain_name,
            verify_listener_certificate=hyperpod,
            gate=self.promotion_gate,
        )
        if endpoint.exposure.value == "public":
            cdk.Annotations.of(self).add_warning_v2(
                "llm-serving:public-smoke-test",
                "endpoint.exposure is public: the deploy-time smoke test reaches the internet-facing load balancer from "
                "the private subnets through the NAT gateways, whose addresses must be in endpoint.allowed_cidrs",
            )
        cdk.CfnOutput(
            self,
            "SmokeTestLogsCommand",
            description="Follow the deploy-time smoke test's checks",
            value=f"aws logs tail {self.smoke_test.check_function.log_group.log_group_name} --follow "
            f"--region {env_config.region}",
        )
        if self.promotion_gate is not None:
            gate = self.promotion_gate
            cdk.CfnOutput(
                self,
                "PromotionGateResultsCommand",
                description="The promotion gate's results of this image: one folder per deployment, each with "
                "cN.json per run (vllm bench serve's result) and summary.json",
                value=f"aws s3 ls --recursive s3://{gate.bucket.bucket_name}/{gate.key_prefix} "
                f"--region {env_config.region}",
            )
            cdk.CfnOutput(
                self,
                "PromotionGateJobLogsCommand",
                description="Follow the promotion gate's load test",
                value=f"kubectl -n {gate.namespace} logs -f job/{gate.job_name(self.smoke_test.digest)}",
            )
