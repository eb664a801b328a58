"""The model server: the vLLM chart applied to the cluster."""

from __future__ import annotations

from collections.abc import Sequence

import aws_cdk as cdk
from aws_cdk import aws_eks_v2 as eks
from aws_cdk import aws_iam as iam
from constructs import Construct

from cdk_constructs.destroy_waiter import DestroyWaiter, service_load_balancer_tags
from cdk_constructs.lws_controller import LwsController
from cdk_constructs.nag_acknowledgements import acknowledge_weights_reader
from cdk_constructs.pod_identity import pod_identity_role
from cdk_constructs.s3_prefix_access import s3_prefix_statements
from cdk_constructs.serving_secrets import ServingSecrets, add_authentication_outputs
from charts.key_proxy import OPEN_PATHS
from charts.serving_spec import VllmServingSpec


class ServingStack(cdk.Stack):
    """Applies the vLLM serving chart (Deployment + LoadBalancer Service) to the cluster.

    Kept in its own stack, deployed after the GPU nodes and destroyed before them: deleting the manifest deletes
    the Service, and Kubernetes holds the Service until the cloud controller has deleted its load balancer, so
    the load balancer is gone before CloudFormation removes the nodes, the cluster and the subnets.
    """

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        cluster: eks.ICluster,
        spec: VllmServingSpec,
        manifests: list[dict],
        api_key_reader_roles: Sequence[str] = (),
        **kwargs,
    ) -> None:
        """:param api_key_reader_roles: roles of other accounts that may read the API key (the delivery pipeline's
        smoke test step): a resource policy on the secret and a statement in its key's policy, each for those roles
        only."""
        super().__init__(scope, id, **kwargs)
        self.manifest = eks.KubernetesManifest(
            self, "VllmServing", cluster=cluster, manifest=manifests, overwrite=True
        )
        # The kubectl provider logs and swallows a failed `kubectl delete`: on destroy, this waiter (deleted after the
        # manifest) holds the stack until the Service's load balancer is really gone, before the nodes, the cluster
        # and the VPC it would block.
        self.load_balancer_waiter = DestroyWaiter(
            self,
            "LoadBalancerGone",
            load_balancer_tags=service_load_balancer_tags(
                cluster.cluster_name, spec.namespace, spec.name
            ),
        )
        self.manifest.node.add_dependency(self.load_balancer_waiter)
        # A model instance over several nodes is a LeaderWorkerSet: its controller and CRD first, removed after it.
        self.lws_controller: LwsController | None = None
        if spec.multi_node:
            self.lws_controller = LwsController(self, "LwsController", cluster=cluster)
            self.manifest.node.add_dependency(self.lws_controller)
        # The load balancer's name appears on the Service within a minute or two, long before vLLM is ready.
        hostname = eks.KubernetesObjectValue(
            self,
            "LoadBalancerHostname",
            cluster=cluster,
            object_type="service",
            object_name=spec.name,
            object_namespace=spec.namespace,
            json_path=".status.loadBalancer.ingress[0].hostname",
            timeout=cdk.Duration.minutes(10),
        )
        hostname.node.add_dependency(self.manifest)
        self.load_balancer_hostname: cdk.CfnOutput | None = None
        if spec.tls:
            # TLS for endpoint.domain_name: clients use that name, which the certificate covers; the load balancer's own
            # name does not match the certificate. The DNS record is the user's (any DNS provider, any account).
            self.endpoint_url = cdk.CfnOutput(
                self,
                "EndpointUrl",
                value=f"https://{spec.endpoint.domain_name}",
                description="The OpenAI-compatible API over TLS, once the DNS record of "
                "DnsRecordNote exists",
            )
            self.load_balancer_hostname = cdk.CfnOutput(
                self,
                "LoadBalancerHostnameOutput",
                value=hostname.value,
                description=f"The load balancer's DNS name: the target of the CNAME record for {spec.endpoint.domain_name}",
            )
            self.load_balancer_hostname.override_logical_id("LoadBalancerHostname")
            cdk.CfnOutput(
                self,
                "DnsRecordNote",
                description="The DNS record clients need; the stack does not create it",
                value=f"Create a CNAME record {spec.endpoint.domain_name} -> {hostname.value} (or a Route 53 alias "
                "record to that load balancer). Before it exists: bin/llmops smoke-test --url "
                f"https://{hostname.value} --tls-server-name {spec.endpoint.domain_name}",
            )
        else:
            self.endpoint_url = cdk.CfnOutput(
                self,
                "EndpointUrl",
                value=f"http://{hostname.value}:{spec.port}",
                description="The OpenAI-compatible API (internal unless endpoint.exposure "
                "is public)",
            )

        # One role for the pod, through EKS Pod Identity: S3 reads for the weights, Secrets Manager reads for the secrets.
        self.pod_role: iam.Role | None = None
        self.secrets: ServingSecrets | None = None
        if spec.s3_uri or spec.secrets:
            self.pod_role = self._pod_role(cluster, spec)
            # The pod uses the role from its start: create the role, its policy and the association first; on destroy
            # the manifest (the pod) goes before them.
            self.manifest.node.add_dependency(self.pod_role, self.pod_identity)
        if spec.s3_uri:
            self._grant_s3_weights(self.pod_role, spec)
        if spec.compile_cache:
            self._grant_compile_cache(self.pod_role, spec)
        if spec.secrets:
            self.secrets = ServingSecrets(
                self, "Secrets", secrets=spec.secrets, reader_roles=api_key_reader_roles
            )
            self.secrets.grant_read(self.pod_role)
            # The pod mounts the secrets at start; on destroy it goes before the secret and its key.
            self.manifest.node.add_dependency(self.secrets)
        self._authentication_outputs(spec)

        cdk.CfnOutput(
            self,
            "EndpointAddressCommand",
            description="Prints the load balancer's DNS name once the cloud controller has created it",
            value=(
                f"kubectl -n {spec.namespace} get service {spec.name} "
                "-o jsonpath='{.status.loadBalancer.ingress[0].hostname}'"
            ),
        )
        cdk.CfnOutput(
            self,
            "WatchStartupCommand",
            description=(
                "The first start downloads and loads the weights; "
                f"allow up to {spec.startup_budget_seconds // 60} minutes"
            ),
            # A LeaderWorkerSet's first group leader is pod NAME-0, its worker NAME-0-1 (kubernetes-sigs/lws v0.10.0
            # site/content/en/docs/examples/vllm.md): the leader's log shows the engine start.
            value=(
                f"kubectl -n {spec.namespace} logs -f pod/{spec.name}-0"
                if spec.multi_node
                else f"kubectl -n {spec.namespace} logs -f deployment/{spec.name}"
            ),
        )

    def _pod_role(self, cluster: eks.ICluster, spec: VllmServingSpec) -> iam.Role:
        """The role of the pod's service account, given to it through EKS Pod Identity."""
        # Association id kept from when the role read S3 only (see pod_identity_role).
        role, self.pod_identity = pod_identity_role(
            self,
            cluster=cluster,
            namespace=spec.namespace,
            service_account=spec.service_account,
            description="The vLLM pod: reads its model weights from S3 and its secrets from Secrets Manager",
            association_id="WeightsReaderAssociation",
        )
        return role

    def _grant_s3_weights(self, role: iam.Role, spec: VllmServingSpec) -> None:
        """Read access to the weights' S3 prefix (the pinned revision's), and to the speculator's revision prefix when
        ``spec_decoding`` copies it too (deployment_config/speculator.py): each grant as narrow as the revision."""
        for uri in (spec.s3_uri, *((spec.speculator_s3_uri,) if spec.speculator_s3_uri else ())):
            for statement in s3_prefix_statements(uri, ["s3:GetObject"]):
                role.add_to_policy(statement)
        acknowledge_weights_reader(role)

    def _grant_compile_cache(self, role: iam.Role, spec: VllmServingSpec) -> None:
        """Read and create-only access to this environment's one compile cache object (charts/compile_cache/):
        ``compile-cache/SHA256/vllm-cache.tar``, SHA256 being the digest of this environment's key (image digest,
        revision, serving profile, GPU type, layout). The pod can neither read nor plant the cache of another
        environment, image or version sharing the bucket: another key is another name, outside its grant.

        ListBucket on that key's directory: without it S3 answers a missing object with 403 instead of 404 (S3 API
        reference, GetObject, "Permissions"), and the restore could not tell "no cache yet" from a denial. PutObject
        only with an ``If-None-Match`` header (condition key ``s3:if-none-match``, "Enforce conditional writes on
        Amazon S3 buckets", https://docs.aws.amazon.com/AmazonS3/latest/userguide/conditional-writes-enforce.html,
        example 1's ``Null: {s3:if-none-match: false}``): a saved cache can be created, never overwritten, whatever
        the pod runs. No DeleteObject."""
        from charts.compile_cache import S3_PREFIX
        from charts.compile_cache.runtime.compile_cache import object_name

        cache = spec.compile_cache
        bucket = f"arn:{cdk.Aws.PARTITION}:s3:::{cache.bucket}"
        archive = f"{bucket}/{object_name(S3_PREFIX, dict(cache.key))}"
        for statement in (
            iam.PolicyStatement(
                sid="ListCompileCache",
                actions=["s3:ListBucket"],
                resources=[bucket],
                conditions={"StringLike": {"s3:prefix": [f"{S3_PREFIX}/{cache.digest}/*"]}},
            ),
            iam.PolicyStatement(
                sid="ReadCompileCache", actions=["s3:GetObject"], resources=[archive]
            ),
            iam.PolicyStatement(
                sid="CreateCompileCacheOnce",
                actions=["s3:PutObject"],
                resources=[archive],
                conditions={"Null": {"s3:if-none-match": "false"}},
            ),
        ):
            role.add_to_policy(statement)

    def _authentication_outputs(self, spec: VllmServingSpec) -> None:
        # the key check in front of vLLM leaves these paths open (charts/key_proxy.py)
        add_authentication_outputs(
            self,
            self.secrets,
            spec.secrets.api_key_secret if spec.secrets else None,
            open_paths=OPEN_PATHS,
        )
