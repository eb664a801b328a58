"""The model endpoint on HyperPod: the InferenceEndpointConfig applied once the operator is ready."""

from __future__ import annotations

import aws_cdk as cdk
from aws_cdk import aws_eks_v2 as eks
from constructs import Construct

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
        cdk.CfnOutput(self, "EndpointStateCommand", value=(
            f"kubectl get inferenceendpointconfig {spec.name} -n {spec.namespace} -o jsonpath='{{.status.state}}'"))
        cdk.CfnOutput(self, "WaitCommand", value=f"bin/llmops wait inference-endpoint --name {spec.name} "
                                                 f"--namespace {spec.namespace}")
