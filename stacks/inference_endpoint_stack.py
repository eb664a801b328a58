"""The model endpoint on HyperPod: the InferenceEndpointConfig applied once the operator is ready."""

from __future__ import annotations

import aws_cdk as cdk
from aws_cdk import aws_eks_v2 as eks
from aws_cdk import aws_iam as iam
from constructs import Construct

from cdk_constructs.destroy_waiter import DestroyWaiter, load_balancer_controller_tags
from cdk_constructs.pod_identity import pod_identity_role
from cdk_constructs.serving_secrets import ServingSecrets, add_authentication_outputs
from charts.inference_endpoint_spec import InferenceEndpointSpec


class InferenceEndpointStack(cdk.Stack):
    """Applies the InferenceEndpointConfig. Destroyed first: deleting it makes the operator remove the load balancer,
    the SageMaker endpoint and the certificate it created, before the operator itself goes."""

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        cluster: eks.ICluster,
        spec: InferenceEndpointSpec,
        manifests: list[dict],
        **kwargs,
    ) -> None:
        super().__init__(scope, id, **kwargs)
        # The operator validates the object; kubectl cannot until the CRD exists, hence no client-side validation.
        self.manifest = eks.KubernetesManifest(
            self,
            "InferenceEndpoint",
            cluster=cluster,
            manifest=manifests,
            overwrite=True,
            skip_validation=True,
        )
        # Deleting the object makes the operator's load balancer controller remove the endpoint's load balancer; the
        # kubectl provider does not wait for that (and swallows a failed delete). This waiter, deleted after the
        # manifest, holds the stack until no load balancer of the cluster's controller is left, nor a security group of
        # the controller (which it deletes after the load balancer; one left behind fails the VPC's delete).
        self.load_balancer_waiter = DestroyWaiter(
            self,
            "LoadBalancerGone",
            load_balancer_tags=load_balancer_controller_tags(cluster.cluster_name),
            include_security_groups=True,
        )
        self.manifest.node.add_dependency(self.load_balancer_waiter)

        # The API key, as on the EKS path (stacks/serving_stack.py): the generated key and its KMS key, and the role of the
        # secrets sync (charts/secrets_sync.py), the one pod that reads it from Secrets Manager.
        self.secrets: ServingSecrets | None = None
        self.pod_role: iam.Role | None = None
        if spec.secrets:
            self.secrets = ServingSecrets(self, "Secrets", secrets=spec.secrets)
            self.pod_role = self._pod_role(cluster, spec)
            self.secrets.grant_read(self.pod_role)
            # The sync mounts the secrets with its role from its start: the secret, its key, the role, its policy and the
            # association first; on destroy the endpoint and the sync go before them.
            self.manifest.node.add_dependency(self.secrets, self.pod_role, self.pod_identity)
        self._authentication_outputs(spec)

        cdk.CfnOutput(
            self,
            "EndpointStateCommand",
            value=(
                f"kubectl get inferenceendpointconfig {spec.name} -n {spec.namespace} -o jsonpath='{{.status.state}}'"
            ),
        )
        cdk.CfnOutput(
            self,
            "WaitCommand",
            value=f"bin/llmops wait inference-endpoint --name {spec.name} "
            f"--namespace {spec.namespace}",
        )

    def _pod_role(self, cluster: eks.ICluster, spec: InferenceEndpointSpec) -> iam.Role:
        """The role of the secrets sync's service account, through EKS Pod Identity, as on the EKS path. The sync runs on
        the system nodes (EKS managed nodes), where the cluster stack's eks-pod-identity-agent add-on runs: its DaemonSet
        tolerates every taint and avoids only Fargate, hybrid and Auto Mode nodes (aws/eks-pod-identity-agent@d4dc0f3
        charts/eks-pod-identity-agent/values.yaml, affinity and tolerations). The AWS provider of the Secrets Store CSI
        driver takes the pod's credentials from that agent (aws/secrets-store-csi-driver-provider-aws@a74182c1
        credential_provider/pod_identity_credential_provider.go: http://169.254.170.23/v1/credentials). The worker
        itself has no AWS role of its own: it reads the synced Kubernetes Secret."""
        role, self.pod_identity = pod_identity_role(
            self,
            cluster=cluster,
            namespace=spec.namespace,
            service_account=spec.sync_service_account,
            description="The HyperPod endpoint's secrets sync: reads the API key from Secrets Manager",
        )
        return role

    def _authentication_outputs(self, spec: InferenceEndpointSpec) -> None:
        # The worker loads the middleware that requires the key on every path (charts/vllm_auth_middleware/).
        add_authentication_outputs(
            self, self.secrets, spec.secrets.api_key_secret if spec.secrets else None
        )
