"""The model endpoint on HyperPod: the InferenceEndpointConfig applied once the operator is ready."""

from __future__ import annotations

import aws_cdk as cdk
from aws_cdk import aws_eks_v2 as eks
from constructs import Construct

from cdk_constructs.destroy_waiter import DestroyWaiter, load_balancer_controller_tags
from charts.inference_endpoint_chart import InferenceEndpointSpec


class InferenceEndpointStack(cdk.Stack):
    """Applies the InferenceEndpointConfig. Destroyed first: deleting it makes the operator remove the load balancer,
    the SageMaker endpoint and the certificate it created, before the operator itself goes."""

    def __init__(self, scope: Construct, id: str, *, cluster: eks.ICluster, spec: InferenceEndpointSpec,
                 manifests: list[dict], **kwargs) -> None:
        super().__init__(scope, id, **kwargs)
        # The operator validates the object; kubectl cannot until the CRD exists, hence no client-side validation.
        self.manifest = eks.KubernetesManifest(self, "InferenceEndpoint", cluster=cluster, manifest=manifests,
                                               overwrite=True, skip_validation=True)
        # Deleting the object makes the operator's load balancer controller remove the endpoint's load balancer; the
        # kubectl provider does not wait for that (and swallows a failed delete). This waiter, deleted after the
        # manifest, holds the stack until no load balancer of the cluster's controller is left.
        self.load_balancer_waiter = DestroyWaiter(self, "LoadBalancerGone",
                                                  load_balancer_tags=load_balancer_controller_tags(cluster.cluster_name))
        self.manifest.node.add_dependency(self.load_balancer_waiter)
        cdk.CfnOutput(self, "EndpointStateCommand", value=(
            f"kubectl get inferenceendpointconfig {spec.name} -n {spec.namespace} -o jsonpath='{{.status.state}}'"))
        cdk.CfnOutput(self, "WaitCommand", value=f"bin/llmops wait inference-endpoint --name {spec.name} "
                                                 f"--namespace {spec.namespace}")
