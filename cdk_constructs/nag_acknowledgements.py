"""cdk-nag findings this project accepts, each with the reason it is accepted.

Kept in one place so that a reviewer sees every exception to the AwsSolutions rules at once. Each function
acknowledges findings on one construct (and its children) only, never on a whole stack.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

import aws_cdk as cdk
from aws_cdk import aws_iam as iam
from constructs import IConstruct

#: Why each AWS managed policy on an EKS node role is accepted.
NODE_POLICY_REASONS = {
    "AmazonEKSWorkerNodePolicy": "required by EKS for a node to register with the cluster; AWS keeps it current",
    "AmazonEC2ContainerRegistryReadOnly": "nodes pull system images (VPC CNI, kube-proxy) from EKS's ECR registries",
    "AmazonEKS_CNI_Policy": "the VPC CNI on the node assigns pod IPs; AWS keeps the policy in step with the CNI",
    "AmazonSSMManagedInstanceCore": "shell access to GPU nodes through Session Manager instead of SSH and open ports",
}


#: Why aws-cdk-lib's execution log statement of a state machine is on "*" (Service Authorization Reference, CloudWatch
#: Logs; Step Functions developer guide, "Using CloudWatch Logs to log execution history in Step Functions").
STEP_FUNCTIONS_LOG_DELIVERY = (
    "the CloudWatch Logs log-delivery actions Step Functions uses (CreateLogDelivery, GetLogDelivery, "
    "UpdateLogDelivery, DeleteLogDelivery, ListLogDeliveries, PutResourcePolicy, DescribeResourcePolicies, "
    "DescribeLogGroups) take no resource types; aws-cdk-lib puts logs:CreateLogStream and logs:PutLogEvents, which do, "
    "in the same statement on *, and it is left as the library writes it"
)

#: cdk-nag reports its findings under this validation plugin name; acknowledgements must carry it.
PLUGIN = "AwsSolutions"


#: aws-cdk-lib's own template validation (cfn-lint rules) reports under this name.
CLOUDFORMATION_VALIDATE = "CloudFormation-Validate"


def acknowledge(scope: IConstruct, finding: str, reason: str, plugin: str = PLUGIN) -> None:
    """Accept ``finding`` (a rule id, optionally with its ``[detail]``) on ``scope`` and everything below it."""
    cdk.Validations.of(scope).acknowledge(
        cdk.Acknowledgment(id=f"{plugin}::{finding}", reason=reason)
    )


def acknowledge_explicit_zones(vpc: IConstruct) -> None:
    acknowledge(
        vpc,
        "W3010",
        "the zones are explicit on purpose: GPU nodes must be in the Capacity Block's zone, "
        "and explicit zones keep synthesis free of AWS look-ups",
        plugin=CLOUDFORMATION_VALIDATE,
    )


def managed_policy_finding(policy_name: str, path: str = "") -> str:
    return f"AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/{path}{policy_name}]"


def acknowledge_node_role(role: IConstruct, policy_names: Iterable[str]) -> None:
    for name in policy_names:
        acknowledge(role, managed_policy_finding(name), NODE_POLICY_REASONS[name])


def acknowledge_cluster_role(role: IConstruct) -> None:
    acknowledge(
        role,
        managed_policy_finding("AmazonEKSClusterPolicy"),
        "the EKS control plane role needs exactly this AWS managed policy",
    )


def acknowledge_kubectl_provider(provider: IConstruct) -> None:
    """The kubectl provider is aws-cdk-lib's own Lambda construct; its roles and runtime are not ours to change."""
    stack = cdk.Stack.of(provider)
    lambda_policies = {
        "service-role/AWSLambdaBasicExecutionRole": "the provider's Lambdas write their logs to CloudWatch Logs",
        "service-role/AWSLambdaVPCAccessExecutionRole": "the provider's Lambdas run in the private subnets to reach "
        "the private API endpoint",
        "AmazonEC2ContainerRegistryReadOnly": "aws-cdk-lib gives the kubectl handler ECR read access for Helm OCI charts",
    }
    for name, reason in lambda_policies.items():
        acknowledge(provider, managed_policy_finding(name), reason)
    for child in provider.node.find_all():
        if isinstance(child, cdk.CfnCondition) and child.node.id == "HasEcrPublic":
            condition = stack.get_logical_id(child)
            acknowledge(
                provider,
                'AwsSolutions-IAM4[Policy::{"Fn::If":["'
                + condition
                + '",{"Fn::Join":["",["arn:",{"Ref":"AWS::Partition"},'
                '":iam::aws:policy/AmazonElasticContainerRegistryPublicReadOnly"]]},{"Ref":"AWS::NoValue"}]}]',
                "public ECR read access, only when a chart comes from public ECR (aws-cdk-lib's condition)",
            )
    handler = provider.node.find_child("Handler").node.default_child
    acknowledge(
        provider,
        f"AwsSolutions-IAM5[Resource::<{stack.get_logical_id(handler)}.Arn>:*]",
        "the provider framework may invoke any version of its own handler function (ARN:*), nothing else",
    )
    acknowledge(
        provider,
        "AwsSolutions-L1",
        "the kubectl handler's runtime is pinned by aws-cdk-lib to match its kubectl layer",
    )
    acknowledge_each(
        provider,
        [
            f"AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-{stack.account}-{stack.region}/*]",
            "AwsSolutions-IAM5[Action::s3:GetObject*]",
            "AwsSolutions-IAM5[Action::s3:GetBucket*]",
            "AwsSolutions-IAM5[Action::s3:List*]",
        ],
        "the kubectl handler reads Helm chart assets (the HyperPod dependencies chart) from the CDK asset bucket of this "
        "account and region, as aws-cdk-lib's asset grant writes it; the bucket holds nothing but this app's assets",
    )


def acknowledge_each(scope: IConstruct, findings: Iterable[str], reason: str) -> None:
    """cdk-nag reports wildcard findings one by one (``IAM5[Action::s3:List*]``); each needs its own acknowledgement."""
    for finding in findings:
        acknowledge(scope, finding, reason)


def acknowledge_bucket_deployment(scope: IConstruct, destination_bucket: IConstruct) -> None:
    """The singleton Lambda that BucketDeployment adds to the stack of ``scope``: it copies the CDK asset into
    ``destination_bucket``."""
    stack = cdk.Stack.of(scope)
    destination = stack.get_logical_id(destination_bucket.node.default_child)
    reason = (
        "aws-cdk-lib's BucketDeployment Lambda: it reads the CDK asset bucket and replaces the objects of the "
        "destination bucket; policy and runtime are written by aws-cdk-lib"
    )
    for child in stack.node.children:
        if child.node.id.startswith("Custom::CDKBucketDeployment"):
            acknowledge(
                child,
                managed_policy_finding("AWSLambdaBasicExecutionRole", "service-role/"),
                reason,
            )
            acknowledge_each(
                child,
                [
                    *(
                        f"AwsSolutions-IAM5[Action::s3:{action}]"
                        for action in (
                            "GetBucket*",
                            "GetObject*",
                            "List*",
                            "Abort*",
                            "DeleteObject*",
                        )
                    ),
                    f"AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-{stack.account}-{stack.region}/*]",
                    f"AwsSolutions-IAM5[Resource::<{destination}.Arn>/*]",
                ],
                reason,
            )
            acknowledge(child, "AwsSolutions-L1", reason)


def _nag_text(value) -> str:
    """A resolved CloudFormation value written the way cdk-nag writes it in a finding id."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        if "Ref" in value:
            return f"<{value['Ref']}>"
        if "Fn::GetAtt" in value:
            return f"<{value['Fn::GetAtt'][0]}.{value['Fn::GetAtt'][1]}>"
        if "Fn::Join" in value:
            separator, parts = value["Fn::Join"]
            return separator.join(_nag_text(p) for p in parts)
    return json.dumps(value, separators=(",", ":"))


def _as_list(value) -> list:
    return value if isinstance(value, list) else [value]


def wildcard_findings(scope: IConstruct) -> set[str]:
    """The ``AwsSolutions-IAM5[...]`` findings that the IAM policies below ``scope`` will produce."""
    stack = cdk.Stack.of(scope)
    findings: set[str] = set()
    for child in scope.node.find_all():
        documents = []
        if isinstance(child, (iam.CfnPolicy, iam.CfnManagedPolicy)):
            documents.append(child.policy_document)
        elif isinstance(child, iam.CfnRole) and child.policies:
            documents += [p.policy_document for p in child.policies]
        for document in documents:
            resolved = stack.resolve(document)
            for statement in resolved.get("Statement", []):
                for action in _as_list(statement.get("Action", [])):
                    if "*" in action:
                        findings.add(f"AwsSolutions-IAM5[Action::{action}]")
                for resource in _as_list(statement.get("Resource", [])):
                    text = _nag_text(resource)
                    if "*" in text:
                        findings.add(f"AwsSolutions-IAM5[Resource::{text}]")
    return findings


def acknowledge_pipeline(pipeline: IConstruct) -> None:
    """aws-cdk-lib's CodePipeline construct: its roles, key, artifact bucket and helper Lambda are written by the library.
    Call after the pipeline is built, so that every role and policy exists."""
    reason = (
        "CDK Pipelines writes these roles: its CodeBuild projects must write their own log groups and report "
        "groups, use the pipeline's artifact bucket and key, and assume the bootstrap roles of target accounts"
    )
    findings = sorted(wildcard_findings(pipeline))
    # The smoke steps' own statements (stacks/pipeline_stack.py api_key_read_statements) have their own reason.
    api_key = [
        f
        for f in findings
        if (":secretsmanager:" in f and "/api-key-" in f) or f.endswith(":key/*]")
    ]
    acknowledge_each(
        pipeline,
        api_key,
        "the smoke step reads the target environment's API key: the secret's ARN ends in six random "
        "characters Secrets Manager adds, and its KMS key is made in the target account, its id unknown "
        "here; Decrypt is allowed only through Secrets Manager of that region and only for this secret",
    )
    acknowledge_each(pipeline, [f for f in findings if f not in api_key], reason)
    acknowledge(
        pipeline,
        managed_policy_finding("AWSLambdaBasicExecutionRole", "service-role/"),
        "the security check Lambda of CDK Pipelines (permission broadening) writes its logs",
    )
    acknowledge(
        pipeline,
        "AwsSolutions-S1",
        "the pipeline's artifact bucket holds build artifacts only, encrypted with the pipeline's KMS key; "
        "every access goes through CodePipeline and CodeBuild, which CloudTrail records",
    )


def acknowledge_replication_bucket(bucket: IConstruct) -> None:
    """CodePipeline's replication bucket in the support stack of a region other than the pipeline's."""
    acknowledge(
        bucket,
        "AwsSolutions-S1",
        "CodePipeline's cross-region replication bucket: it holds copies of the pipeline's artifacts for the "
        "deploy actions of that region, encrypted with the pipeline's key, accessed only by CodePipeline",
    )


def acknowledge_weights_reader(role: IConstruct) -> None:
    """A role that reads model weights from one S3 prefix: the weights are many files whose names the publisher sets."""
    acknowledge_each(
        role,
        sorted(wildcard_findings(role)),
        "read-only access to the objects under the configured weights prefix and nothing else: a model "
        "is published as many files (118 for Kimi-K3) whose names are not known in advance",
    )


def acknowledge_compile_cache(role: IConstruct, already: set[str]) -> None:
    """The serving pod's access to the compile cache prefix (charts/compile_cache/): the findings its statements add
    to those ``already`` acknowledged."""
    acknowledge_each(
        role,
        sorted(wildcard_findings(role) - already),
        "read and create-only access to the compile-cache/ prefix of the weights bucket: one object per "
        "cache key, named by the key's sha256, which the pod computes; no overwrite (PutObject only with "
        "If-None-Match) and no delete",
    )


def acknowledge_weights_writer(role: IConstruct) -> None:
    """The weights mirror Job's role: writes one S3 prefix (cdk_constructs/weights_mirror_access.py)."""
    acknowledge_each(
        role,
        sorted(wildcard_findings(role)),
        "write access to the objects under the configured weights prefix only, and the token secret by "
        "its name with Secrets Manager's six random characters: a model is many files whose names the "
        "publisher sets",
    )


def acknowledge_api_key_secret(secret: IConstruct) -> None:
    """The endpoint's generated API key: rotated by hand, not by a rotation Lambda."""
    acknowledge(
        secret,
        "AwsSolutions-SMG4",
        "Every client holds a copy of the key and must be given the new one by a person. The EKS pod's auth "
        "middleware accepts a rotated key within the driver's poll and keeps accepting the key it replaced "
        "only until the next rotation or a restart "
        "(charts/vllm_auth_middleware/runtime/llm_serving_auth.py), so an unattended "
        "schedule would lock out, at its second rotation, every client not yet moved; the HyperPod worker "
        "reads the key at start, so there a rotation gives 401s until every worker is replaced. The README's "
        "procedure rotates it when the operator chooses",
    )


def acknowledge_secrets_reader(role: IConstruct) -> None:
    """The vLLM pod's role decrypting the user's Hugging Face token secret, whose KMS key the app cannot name."""
    stack = cdk.Stack.of(role)
    key_wildcard = f"AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:kms:{stack.region}:{stack.account}:key/*]"
    if key_wildcard in wildcard_findings(role):
        acknowledge(
            role,
            key_wildcard,
            "kms:Decrypt only with kms:ViaService secretsmanager.REGION.amazonaws.com: Secrets Manager decrypts "
            "for this role only the two secrets its GetSecretValue statement names; the Hugging Face token's key "
            "(aws/secretsmanager or the user's own) is not known to the app",
        )


def acknowledge_cloudwatch_agent_role(role: IConstruct) -> None:
    """The Pod Identity role of the CloudWatch Observability add-on's agent and Fluent Bit."""
    acknowledge(
        role,
        managed_policy_finding("CloudWatchAgentServerPolicy"),
        "the policy AWS documents for the CloudWatch Observability add-on (metrics as embedded-metric-format logs, "
        "container logs, EC2 and EBS descriptions); AWS keeps it in step with the agent's needs as the add-on changes",
    )


def acknowledge_serving_metrics_publisher(function_role: IConstruct) -> None:
    """The Lambda that publishes the serving metrics: the read-only calls it makes support no resource-level permissions."""
    acknowledge(
        function_role,
        "AwsSolutions-IAM5[Resource::*]",
        "cloudwatch:PutMetricData (restricted to the LLMServing namespace by condition), "
        "ec2:DescribeCapacityReservations and the elasticloadbalancing Describe calls take no resource types in "
        "the Service Authorization Reference; the function only reads them, and writes metrics to one namespace "
        "(sagemaker:DescribeTrainingPlan, on HyperPod, is granted on the configured plan's ARN only)",
    )


def acknowledge_image_cache_puller(role: IConstruct, repository_prefix: str) -> None:
    """A node role that pulls the vLLM image through the ECR pull-through cache (cdk_constructs/image_cache.py)."""
    findings = [
        f for f in wildcard_findings(role) if f.endswith(f":repository/{repository_prefix}/*]")
    ]
    acknowledge_each(
        role,
        findings,
        "ecr:BatchImportUpstreamImage and ecr:CreateRepository on the pull-through cache's repositories only "
        "(this account and region, under its prefix): the first pull of an image creates its repository, "
        "whose name is the Docker Hub repository's, and ECR documents no narrower scope",
    )


def acknowledge_hyperpod_observability_role(role: IConstruct) -> None:
    """The Pod Identity role of the HyperPod observability add-on's collector: the log groups AWS documents for it."""
    findings = {f for f in wildcard_findings(role) if "/aws/sagemaker/Clusters/*" in f}
    acknowledge_each(
        role,
        sorted(findings),
        "the CloudWatch Logs statement AWS documents for the HyperPod observability add-on's role "
        '("Troubleshooting the Amazon SageMaker HyperPod observability add-on"): the add-on names its log '
        "groups under /aws/sagemaker/Clusters/ itself, so the app cannot name them; only that prefix",
    )


def acknowledge_deploy_time_smoke_test(construct: IConstruct) -> None:
    """The deploy-time smoke test (cdk_constructs/deploy_time_smoke_test/): its functions, its poller state machine and
    aws-cdk-lib's Provider framework."""
    stack = cdk.Stack.of(construct)
    check, report, start = (
        construct.node.find_child(name) for name in ("Check", "ReportError", "Start")
    )
    acknowledge(
        construct,
        managed_policy_finding("AWSLambdaVPCAccessExecutionRole", "service-role/"),
        "the smoke test's two functions in the VPC create and delete their network interfaces and write their "
        "logs with the policy AWS documents for Lambda functions in a VPC",
    )
    acknowledge(
        construct,
        managed_policy_finding("AWSLambdaBasicExecutionRole", "service-role/"),
        "the smoke test's start function and the Provider framework's function write their own logs with it",
    )
    acknowledge(
        check,
        "AwsSolutions-IAM5[Resource::*]",
        "elasticloadbalancing:DescribeLoadBalancers, DescribeTags and DescribeListeners take no resource types "
        "in the Service Authorization Reference; the function only reads them, to find the endpoint's load "
        "balancer by its tags (and, on HyperPod, its listener's certificate)",
    )
    acknowledge_each(
        check,
        [f for f in wildcard_findings(check) if ":acm:" in f and f.endswith(":certificate/*]")],
        "HyperPod: acm:DescribeCertificate and GetCertificate (certificate and chain, never a private key) "
        "on this account's certificates in this region: the Inference Operator imports the certificate "
        "it puts on its load balancer at run time, under an id unknown at synthesis",
    )
    acknowledge_each(
        check,
        [f for f in wildcard_findings(check) if ":kms:" in f and f.endswith(":key/*]")],
        "kms:Decrypt only through Secrets Manager of this region (kms:ViaService) and only for the "
        "environment's API key secret (kms:EncryptionContext:SecretARN): the key is the serving stack's, "
        "named here without a cross-stack export",
    )
    acknowledge_each(
        check,
        [f for f in wildcard_findings(check) if ":secret:" in f],
        "the environment's API key secret by its name; Secrets Manager ends a secret's ARN with six random "
        "characters, which the ?????? stand for",
    )
    poller = construct.node.find_child("Poller")
    acknowledge(
        poller,
        "AwsSolutions-IAM5[Resource::*]",
        "aws-cdk-lib's statements for the poller's tracing and execution log: X-Ray's trace actions and "
        + STEP_FUNCTIONS_LOG_DELIVERY,
    )
    acknowledge_each(
        poller,
        [
            f"AwsSolutions-IAM5[Resource::<{stack.get_logical_id(function.node.default_child)}.Arn>:*]"
            for function in (check, report)
        ],
        "the poller invokes any version of the smoke test's own functions, nothing else (aws-cdk-lib's LambdaInvoke)",
    )
    provider = construct.node.find_child("Provider")
    acknowledge(
        provider,
        f"AwsSolutions-IAM5[Resource::<{stack.get_logical_id(start.node.default_child)}.Arn>:*]",
        "aws-cdk-lib's Provider framework invokes any version of the smoke test's start function, nothing else",
    )


def acknowledge_promotion_gate(gate: IConstruct, check: IConstruct) -> None:
    """The promotion gate (cdk_constructs/promotion_gate.py): its results bucket, the load test Job's role and the
    smoke test's check function's access to the results. Call after the Job and the check function's grants exist."""
    acknowledge(
        gate.node.find_child("Results"),
        "AwsSolutions-S1",
        "benchmark results only, written by the gate's Job role and read by the smoke test's function, both "
        "limited to results/IMAGE/ by IAM; a server access log bucket per environment would log only those two",
    )
    acknowledge_each(
        gate.node.find_child("PodRole"),
        [f for f in wildcard_findings(gate.node.find_child("PodRole")) if "Resource::" in f],
        "the Job may write only results/IMAGE/RUN/cN.json and read only results/IMAGE/RUN/start of the "
        "image it measures; RUN is the time of the deployment, known only when the check starts",
    )
    acknowledge_each(
        check,
        [f for f in wildcard_findings(check) if "Resource::<" in f and "Results" in f],
        "the check function reads this image's results and writes only the start and summary objects of "
        "a run under results/IMAGE/; RUN is the time of the deployment, known only when the check starts",
    )
