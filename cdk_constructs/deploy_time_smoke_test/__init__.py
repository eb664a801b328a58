"""The smoke test of ``llmops smoke-test --env NAME``, run inside the environment's VPC while CloudFormation deploys,
so that a deployment (and a pipeline stage) fails when the endpoint does not answer as it should.

Why not a custom resource with the Provider framework's isComplete: CloudFormation waits for a custom resource at most
3600 seconds (``ServiceTimeout``: "The value must be an integer from 1 to 3600", AWS::CloudFormation::CustomResource;
aws-cdk-lib 2.275.0 refuses more in core/lib/custom-resource.js, and its Provider documents for ``totalTimeout``: "The
maximum timeout is 1 hour", custom-resources/lib/provider-framework/provider.d.ts). A first start of Kimi-K3 may take
its startup budget, 109 minutes (deployment_config/sizing.py), plus the load balancer's creation and target
registration: it does not fit, and the resource would fail after an hour while vLLM is still loading.

A wait condition does fit: ``AWS::CloudFormation::WaitCondition`` waits up to 43200 seconds (12 hours) for a signal to
its handle's presigned URL (CloudFormation template reference, AWS::CloudFormation::WaitCondition, ``Timeout``). So:

1. a custom resource (aws-cdk-lib's Provider framework, no isComplete: it only starts something) starts
2. a Step Functions state machine that invokes the check function every minute; the function (in the VPC's private
   subnets) finds the endpoint's load balancer by its tags, waits for ``GET /health``, then runs the smoke test and
3. signals the wait condition SUCCESS, or FAILURE with the smoke test's own problem lines, which CloudFormation shows
   as the reason the stack failed. An error of the function itself is caught and signalled as FAILURE too.

The wait condition, its handle and the custom resource carry a digest of what they test (the manifests deployed and
the check's settings) in their logical ids: a change of either makes new ones, so the smoke test runs again on that
update (a wait condition is not run again by an update; CloudFormation creates the new one and deletes the old).
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING

import aws_cdk as cdk
from aws_cdk import aws_ec2 as ec2
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_stepfunctions as sfn
from aws_cdk import aws_stepfunctions_tasks as tasks
from aws_cdk import custom_resources as cr
from constructs import Construct

from cdk_constructs.function_defaults import RUNTIME, month_log_group, project_files
from cdk_constructs.nag_acknowledgements import acknowledge_deploy_time_smoke_test

if TYPE_CHECKING:
    from cdk_constructs.promotion_gate import PromotionGate


#: The check function's code (function_defaults.project_files): the endpoint probe as a package (endpoint_probe/,
#: standard library only), this construct's runtime/ and the destroy waiter's handler, for its load balancer lookup.
BUNDLE = (
    "endpoint_probe/*.py",
    "cdk_constructs/deploy_time_smoke_test/runtime/*.py",
    "cdk_constructs/destroy_waiter/runtime/handler.py",
)
#: The handler module, by its package path: the Lambda Python runtime splits the handler string at its last '.' and
#: imports the rest with importlib.import_module, so a dotted path is a module in a package
#: (aws/aws-lambda-python-runtime-interface-client@620b148 awslambdaric/bootstrap.py ``_get_handler``).
HANDLER_MODULE = "cdk_constructs.deploy_time_smoke_test.runtime.handler"
RESOURCE_TYPE = "Custom::DeployTimeSmokeTest"

POLL_INTERVAL = cdk.Duration.minutes(1)
#: Beyond the pod's startup budget: the Service's load balancer is made, the image is pulled (the budget starts with
#: the container) and the target passes the load balancer's health checks.
LOAD_BALANCER_MARGIN = cdk.Duration.minutes(20)
#: Per request of the smoke test; at most five requests (two without the key, /v1/models, two completions).
REQUEST_TIMEOUT = cdk.Duration.minutes(2)
CHECK_TIMEOUT = cdk.Duration.minutes(14)
#: After the last health check: one more poll, the smoke test (within CHECK_TIMEOUT) and the signal.
SIGNAL_MARGIN = cdk.Duration.minutes(5)
#: AWS::CloudFormation::WaitCondition Timeout's maximum (12 hours).
MAX_WAIT_CONDITION_SECONDS = 43200


def bundle() -> lambda_.Code:
    """The functions' code: :data:`BUNDLE` of the project, at their own paths."""
    return project_files(BUNDLE)


def timeouts(startup_budget_seconds: int) -> tuple[int, int]:
    """(seconds until the endpoint must be healthy, the wait condition's timeout in seconds)."""
    healthy_within = startup_budget_seconds + int(LOAD_BALANCER_MARGIN.to_seconds())
    total = healthy_within + int(
        POLL_INTERVAL.to_seconds() + CHECK_TIMEOUT.to_seconds() + SIGNAL_MARGIN.to_seconds()
    )
    if total > MAX_WAIT_CONDITION_SECONDS:
        raise ValueError(
            f"a startup budget of {startup_budget_seconds} s needs a wait of {total} s, more than a wait "
            f"condition's {MAX_WAIT_CONDITION_SECONDS}"
        )
    return healthy_within, total


class DeployTimeSmokeTest(Construct):
    """Runs the smoke test against the endpoint's load balancer from the VPC; the stack's deployment fails with the
    smoke test's problems when it fails, or when the endpoint is not healthy within the startup budget.

    :param vpc: the environment's VPC; the function runs in its private subnets (with egress through the NAT gateways:
        Secrets Manager has no interface endpoint there).
    :param load_balancer_tags: the tags that identify the endpoint's load balancer (cdk_constructs/destroy_waiter/).
    :param scheme: ``http`` or ``https``; ``port`` the load balancer's listener.
    :param tls_server_name: the name to verify the certificate for (``endpoint.domain_name``); default: the load
        balancer's own name.
    :param verify_listener_certificate: HyperPod: verify the endpoint against exactly the certificate on the load
        balancer's HTTPS listener, read from ELBv2 and ACM (the operator's self-signed one, which no public CA vouches
        for; see runtime/endpoint.py ``listener_certificate``). Default: the system's CAs, for ``tls_server_name``.
    :param model: the served name; ``model_path`` the ``--model`` /v1/models must report as its root.
    :param api_key_secret: the environment's API key secret (name); None when the endpoint requires no key.
    :param startup_budget_seconds: how long a pod may take to become healthy (the startup probe's budget).
    :param fingerprint: what is being tested (the manifests deployed): a change runs the smoke test again.
    :param gate: the promotion gate (cdk_constructs/promotion_gate.py): after the smoke test, the correctness probe and
        the load test; the wait covers them too.
    """

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        vpc: ec2.IVpc,
        vpc_cidr: str,
        load_balancer_tags: dict[str, str],
        scheme: str,
        port: int,
        model: str,
        model_path: str | None,
        api_key_secret: str | None,
        startup_budget_seconds: int,
        fingerprint: str,
        tls_server_name: str | None = None,
        verify_listener_certificate: bool = False,
        gate: PromotionGate | None = None,
    ) -> None:
        super().__init__(scope, id)
        stack = cdk.Stack.of(self)
        self.healthy_within_seconds, self.wait_seconds = timeouts(startup_budget_seconds)
        if gate is not None:
            self.wait_seconds = gate.wait_seconds
            if self.wait_seconds > MAX_WAIT_CONDITION_SECONDS:  # refused by the loader already
                raise ValueError(
                    f"the promotion gate needs a wait of {self.wait_seconds} s, more than a wait "
                    f"condition's {MAX_WAIT_CONDITION_SECONDS}"
                )
        self.settings = {
            "LoadBalancerTags": dict(load_balancer_tags),
            "Scheme": scheme,
            "Port": port,
            "Model": model,
            "ModelPath": model_path,
            "ApiKeySecret": api_key_secret,
            "KeyRequired": api_key_secret is not None,
            "KeyOnEveryPath": True,
            "TlsServerName": tls_server_name,
            "TlsVerification": "listener-certificate" if verify_listener_certificate else "system",
            "HealthyWithinSeconds": self.healthy_within_seconds,
            "RequestTimeoutSeconds": int(REQUEST_TIMEOUT.to_seconds()),
        }
        if gate is not None:
            self.settings["Gate"] = gate.settings("")
        digest = hashlib.sha256(
            json.dumps([fingerprint, self.settings], sort_keys=True).encode()
        ).hexdigest()[:10]
        self.digest = digest
        if gate is not None:  # the Job's name follows from the digest (it is not part of it)
            self.settings["Gate"] = gate.settings(digest)

        # The check function: private subnets, out to the endpoint (its port, the VPC's range) and HTTPS (AWS APIs, the
        # wait condition's S3 URL, an https endpoint). No inbound rule.
        self.security_group = ec2.SecurityGroup(
            self,
            "SecurityGroup",
            vpc=vpc,
            allow_all_outbound=False,
            description="Deploy-time smoke test: to the endpoint and to AWS APIs over HTTPS",
        )
        self.security_group.add_egress_rule(
            ec2.Peer.any_ipv4(), ec2.Port.tcp(443), "AWS APIs and an HTTPS endpoint"
        )
        if port != 443:
            self.security_group.add_egress_rule(
                ec2.Peer.ipv4(vpc_cidr), ec2.Port.tcp(port), "the endpoint's listener"
            )
        code = bundle()
        self.check_function = lambda_.Function(
            self,
            "Check",
            runtime=RUNTIME,
            code=code,
            handler=f"{HANDLER_MODULE}.check",
            timeout=CHECK_TIMEOUT,
            memory_size=256,
            vpc=vpc,
            vpc_subnets=ec2.SubnetSelection(subnet_type=ec2.SubnetType.PRIVATE_WITH_EGRESS),
            security_groups=[self.security_group],
            description="Deploy-time smoke test: waits for the endpoint's /health, then runs llmops' smoke test",
            log_group=month_log_group(self, "CheckLogs"),
        )
        self.check_function.add_to_role_policy(
            iam.PolicyStatement(
                sid="FindTheLoadBalancer",
                actions=[
                    "elasticloadbalancing:DescribeLoadBalancers",
                    "elasticloadbalancing:DescribeTags",
                ],
                resources=["*"],
            )
        )
        if verify_listener_certificate:
            # DescribeListeners has no resource-level permissions; the certificate is the operator's, imported into
            # ACM at run time under an id nobody knows at synthesis: any certificate of this account and region, read
            # only (GetCertificate returns the certificate and its chain, never a private key).
            self.check_function.add_to_role_policy(
                iam.PolicyStatement(
                    sid="ReadTheListenersCertificate",
                    actions=["elasticloadbalancing:DescribeListeners"],
                    resources=["*"],
                )
            )
            self.check_function.add_to_role_policy(
                iam.PolicyStatement(
                    sid="ReadTheCertificateFromAcm",
                    actions=["acm:DescribeCertificate", "acm:GetCertificate"],
                    resources=[
                        stack.format_arn(service="acm", resource="certificate", resource_name="*")
                    ],
                )
            )
        if api_key_secret is not None:
            for statement in api_key_statements(
                api_key_secret,
                partition=stack.partition,
                region=stack.region,
                account=stack.account,
            ):
                self.check_function.add_to_role_policy(statement)
        if gate is not None:
            gate.grant_check(self.check_function)
        self.report_function = lambda_.Function(
            self,
            "ReportError",
            runtime=RUNTIME,
            code=code,
            handler=f"{HANDLER_MODULE}.report_error",
            timeout=cdk.Duration.minutes(1),
            vpc=vpc,
            vpc_subnets=ec2.SubnetSelection(subnet_type=ec2.SubnetType.PRIVATE_WITH_EGRESS),
            security_groups=[self.security_group],
            description="Deploy-time smoke test: signals a failure of the check function to the wait condition",
            log_group=month_log_group(self, "ReportErrorLogs"),
        )

        check = tasks.LambdaInvoke(
            self,
            "CheckEndpoint",
            lambda_function=self.check_function,
            payload_response_only=True,
            retry_on_service_exceptions=True,
        )
        report = tasks.LambdaInvoke(
            self,
            "SignalError",
            lambda_function=self.report_function,
            payload_response_only=True,
            retry_on_service_exceptions=True,
        )
        check.add_catch(report, result_path="$.error")
        wait = sfn.Wait(self, "WaitForNextCheck", time=sfn.WaitTime.duration(POLL_INTERVAL))
        wait.next(check)
        definition = check.next(
            sfn.Choice(self, "Signalled")
            .when(sfn.Condition.boolean_equals("$.done", True), sfn.Succeed(self, "Done"))
            .otherwise(wait)
        )
        self.state_machine = sfn.StateMachine(
            self,
            "Poller",
            definition_body=sfn.DefinitionBody.from_chainable(definition),
            timeout=cdk.Duration.seconds(self.wait_seconds),
            tracing_enabled=True,
            logs=sfn.LogOptions(
                destination=month_log_group(
                    self,
                    "PollerLogs",
                    name=f"/aws/vendedlogs/states/deploy-time-smoke-test-{self.node.addr}",
                ),
                level=sfn.LogLevel.ALL,
                include_execution_data=False,
            ),
        )

        self.start_function = lambda_.Function(
            self,
            "Start",
            runtime=RUNTIME,
            code=code,
            handler=f"{HANDLER_MODULE}.on_event",
            timeout=cdk.Duration.seconds(30),
            description="Deploy-time smoke test: starts the poller on create and update; nothing on delete",
            log_group=month_log_group(self, "StartLogs"),
        )
        self.state_machine.grant_start_execution(self.start_function)
        self.provider = cr.Provider(
            self,
            "Provider",
            on_event_handler=self.start_function,
            log_group=month_log_group(self, "FrameworkLogs"),
        )

        self.handle = cdk.CfnWaitConditionHandle(self, f"Handle{digest}")
        self.start = cdk.CustomResource(
            self,
            f"Start{digest}",
            service_token=self.provider.service_token,
            resource_type=RESOURCE_TYPE,
            properties={
                "Settings": stack.to_json_string(self.settings),
                "HandleUrl": self.handle.ref,
                "StateMachineArn": self.state_machine.state_machine_arn,
                **({"ResultsBucket": gate.bucket.bucket_name} if gate is not None else {}),
            },
        )
        self.wait_condition = cdk.CfnWaitCondition(
            self, f"Passed{digest}", handle=self.handle.ref, timeout=str(self.wait_seconds), count=1
        )
        self.wait_condition.node.add_dependency(self.start)
        if gate is not None:
            gate.add_job(digest=digest, run_id=self.start.get_att_string("RunId"), start=self.start)
        acknowledge_deploy_time_smoke_test(self)


def api_key_statements(
    secret_name: str, *, partition: str, region: str, account: str
) -> list[iam.PolicyStatement]:
    """Read the environment's API key: ``secretsmanager:GetSecretValue`` on that secret (its ARN ends with '-' and six
    random characters, ``-??????``, as aws-cdk-lib writes a secret known by name into a policy), and ``kms:Decrypt``
    only through Secrets Manager of ``region`` and only for that secret (the encryption context ``SecretARN`` Secrets
    Manager sends; "Secret encryption and decryption in AWS Secrets Manager"). The secret and its key are the serving
    (or endpoint) stack's: naming them by name keeps the reader's stack free of cross-stack exports, so it can be
    removed on its own. The smoke test's check function and the pipeline's smoke step
    (stacks/pipeline_stack.py, api_key_reader_statements) both read the key through these statements."""
    secret_arn = f"arn:{partition}:secretsmanager:{region}:{account}:secret:{secret_name}-??????"
    return [
        iam.PolicyStatement(
            sid="ReadTheApiKey", actions=["secretsmanager:GetSecretValue"], resources=[secret_arn]
        ),
        iam.PolicyStatement(
            sid="DecryptTheApiKey",
            actions=["kms:Decrypt"],
            resources=[f"arn:{partition}:kms:{region}:{account}:key/*"],
            conditions={
                "StringEquals": {"kms:ViaService": f"secretsmanager.{region}.amazonaws.com"},
                "StringLike": {"kms:EncryptionContext:SecretARN": secret_arn},
            },
        ),
    ]


__all__ = ["DeployTimeSmokeTest", "api_key_statements", "timeouts"]
