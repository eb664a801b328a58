"""The promotion gate (``endpoint.promotion_gate``, EKS): after the deploy-time smoke test passes, the correctness probe
of ``llmops bench`` and a load test with thresholds; the stack ``NAME-smoke`` fails (and with it a pipeline stage,
before the next wave) when they are not met. Results are kept in S3 per image.

How it runs, within the smoke stack's wait condition (cdk_constructs/deploy_time_smoke_test/):

1. the smoke stack's check function passes the smoke test, then (next poll) runs the correctness probe
   (endpoint_probe/correctness.py ``run_probe``, bundled with the smoke test's modules; ``llmops bench`` runs the
   same probes, its schema check of the tool call's arguments by jsonschema: ops_cli/bench.py);
2. it then writes ``results/IMAGE/RUN/start`` to the results bucket. The load test's Job, applied by this construct
   when the stack deploys, waits for that object, so that its load does not meet the smoke test's and the probe's
   requests; then it runs ``vllm bench serve`` per concurrency (the manifest and arguments of ``llmops bench``:
   ops_cli/load_test.py ``plan_for``, ``LoadTestPlan.bench_args``) and uploads each run's result JSON to
   ``results/IMAGE/RUN/cN.json`` with the image's boto3 (vLLM's image installs boto3: vllm-project/vllm@0000977e
   docker/Dockerfile, stage vllm-openai-base), its credentials from EKS Pod Identity (boto3 >= 1.34.41, EKS user guide
   "Use pod identity with the AWS SDK", pod-id-minimum-sdk);
3. the check function waits for every run's object, evaluates the thresholds, writes ``summary.json`` beside them and
   signals SUCCESS, or FAILURE with the failing numbers.

IMAGE is ``sha256-HEX`` for an image pinned by digest, else ``tag-TAG``; RUN the UTC time the stack's update started
the check (the start custom resource's ``RunId``), so that a retried deployment of the same image writes a new run.

The Job's name carries the smoke test's digest: a Job's pod template cannot be changed once created (Kubernetes API,
JobSpec ``template``), so a new digest makes a new Job (and CloudFormation deletes the old manifest; aws-cdk-lib
2.275.0's kubectl handler ignores a failed delete, custom-resource-handlers/dist/aws-eks-v2/kubectl-handler/apply,
so a Job that Kubernetes already removed after ``ttlSecondsAfterFinished`` does not fail the update).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping

import aws_cdk as cdk
from aws_cdk import aws_eks_v2 as eks
from aws_cdk import aws_iam as iam
from aws_cdk import aws_s3 as s3
from constructs import Construct

from cdk_constructs.nag_acknowledgements import acknowledge_promotion_gate
from cdk_constructs.pod_identity import pod_identity_role
from deployment_config import published
from deployment_config.kubernetes_names import SERVING_NAMESPACE
from deployment_config.model import EnvironmentConfig
from deployment_config.promotion_gate import PromotionGateConfig, wait_seconds
from deployment_config.published import PublishedRow
from deployment_config.sizing import startup_budget_seconds
from ops_cli import load_test, load_test_job, load_test_target

SERVICE_ACCOUNT = "llmops-promotion-gate"
RESULTS_ROOT = "results"
START_OBJECT = "start"
SUMMARY_OBJECT = "summary.json"
#: How often the Job looks for the start object.
START_POLL_SECONDS = 15
_DIGEST = re.compile(r"@(sha256):([0-9a-f]{64})$")


def image_key(image: str) -> str:
    """The results' folder of ``image``: ``sha256-HEX`` when pinned by digest (a tag beside it is ignored: the digest is
    what runs), else ``tag-TAG`` (``latest`` when there is none, Docker's default)."""
    pinned = _DIGEST.search(image)
    if pinned:
        return f"{pinned.group(1)}-{pinned.group(2)}"
    slash, colon = image.rfind("/"), image.rfind(":")
    return "tag-" + (image[colon + 1 :] if colon > slash else "latest")


def result_key(concurrency: int) -> str:
    """A run's object under ``results/IMAGE/RUN/``."""
    return f"c{concurrency}.json"


def gate_settings(
    gate: PromotionGateConfig,
    *,
    key_prefix: str,
    job_name: str,
    namespace: str,
    published: Mapping[int, PublishedRow] | None = None,
    replicas: int = 1,
) -> dict:
    """What the check function needs (the custom resource's settings, part of the smoke test's digest).

    :param published: the published rows of the environment's configuration by concurrency
        (deployment_config/published.py): a run with one carries it, for its summary and within_percent_of_published;
        the check function reads no data file of its own.
    :param replicas: the environment's vLLM replicas. With more than one the Job's ``vllm bench serve`` reads
        ``/metrics`` through the Service before and after each run, and the two readings need not be of one server:
        the summary then leaves speculative decoding's acceptance out and says why (``llmops bench`` takes it from the
        Prometheus workspace instead: ops_cli/workspace_acceptance.py).
    """
    published = published or {}

    def run_settings(r) -> dict:
        settings = {
            "Concurrency": r.concurrency,
            "NumPrompts": r.num_prompts,
            "MaxTtftP90Ms": r.max_ttft_p90_ms,
            "MinOutputTokensPerS": r.min_output_tokens_per_s,
        }
        if r.concurrency in published:
            settings["Published"] = published[r.concurrency].to_dict()
            settings["WithinPercentOfPublished"] = r.within_percent_of_published
        return settings

    return {
        "KeyPrefix": key_prefix,
        "Correctness": gate.correctness,
        "MaxFailedRequests": gate.max_failed_requests,
        "LoadTestSeconds": gate.load_test_seconds(),
        "Job": f"{namespace}/{job_name}",
        "Runs": [run_settings(r) for r in gate.runs],
        **({"Replicas": replicas} if replicas > 1 else {}),
        "InputLen": gate.input_len,
        "OutputLen": gate.output_len,
    }


def job_script(plan: load_test.LoadTestPlan) -> str:
    """The gate Job's shell script: wait for the start object, then each run of ``llmops bench``'s plan, each result
    (or a failure record) uploaded as it ends; exit 1 when a run failed."""
    upload = (
        'python3 -c \'import os, sys, boto3; boto3.client("s3").upload_file(sys.argv[1], '
        'os.environ["RESULTS_BUCKET"], os.environ["RESULTS_PREFIX"] + sys.argv[2])\''
    )
    started = (
        'python3 -c \'import os, boto3; boto3.client("s3").head_object(Bucket=os.environ["RESULTS_BUCKET"], '
        f'Key=os.environ["RESULTS_PREFIX"] + "{START_OBJECT}")\''
    )
    waiting = [
        # braces: "$RESULTS_PREFIXstart" would be another, empty, variable
        'echo "waiting for s3://${RESULTS_BUCKET}/${RESULTS_PREFIX}'
        + START_OBJECT
        + " (written once the smoke test and "
        'the correctness probe pass)"',
        f"until {started} 2>/dev/null; do sleep {START_POLL_SECONDS}; done",
    ]
    runs = plan.run_lines(
        on_result=lambda concurrency, result: [f"{upload} {result} {result_key(concurrency)}"],
        on_failure=lambda concurrency, result: [
            f'status=$?; printf \'{{"llmops_gate_failed": "vllm bench serve exit=%s"}}\' "$status" > {result}',
            f"{upload} {result} {result_key(concurrency)}; failed=1",
        ],
    )
    return "\n".join([*waiting, *runs]) + "\n"


def job_manifest(
    env_config: EnvironmentConfig,
    gate: PromotionGateConfig,
    *,
    job_name: str,
    bucket: str,
    key_prefix: str,
    run_id: str,
    deadline_seconds: int,
) -> dict:
    """The Job: ``llmops bench``'s manifest (ops_cli/load_test.py ``plan_for``, ops_cli/load_test_job.py
    ``job_manifest``: image, placement next to a vLLM pod, the API key from the synced Secret) with the gate's runs,
    script, service account and result upload."""
    plan = load_test.plan_for(
        env_config,
        base_url=load_test_target.eks_service_url(env_config),
        job_name=job_name,
        concurrencies=gate.concurrencies,
        input_len=gate.input_len,
        output_len=gate.output_len,
        num_prompts=None,
        seed=0,
        deadline_seconds=deadline_seconds,
    )
    plan = dataclasses.replace(plan, num_prompts=tuple(run.num_prompts for run in gate.runs))
    manifest = load_test_job.job_manifest(plan)
    labels = {
        "app.kubernetes.io/name": "llmops-promotion-gate",
        "app.kubernetes.io/managed-by": "llm-serving-smoke",
    }
    manifest["metadata"]["labels"] = labels
    pod = manifest["spec"]["template"]
    pod["metadata"]["labels"] = labels
    pod["spec"]["serviceAccountName"] = SERVICE_ACCOUNT
    (container,) = pod["spec"]["containers"]
    container["command"] = ["/bin/sh", "-c", job_script(plan)]
    container["env"] += [
        {"name": "RESULTS_BUCKET", "value": bucket},
        {"name": "RESULTS_PREFIX", "value": f"{key_prefix}{run_id}/"},
        {"name": "AWS_DEFAULT_REGION", "value": env_config.region},
    ]
    return manifest


class PromotionGate(Construct):
    """The results bucket, the Job's role and service account (:meth:`__init__`), and the Job (:meth:`add_job`, once
    the smoke test's start resource exists: the Job carries its run id)."""

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        env_config: EnvironmentConfig,
        cluster: eks.ICluster,
        gate: PromotionGateConfig,
    ) -> None:
        super().__init__(scope, id)
        self.env_config, self.cluster, self.gate = env_config, cluster, gate
        self.namespace = SERVING_NAMESPACE
        self.key_prefix = f"{RESULTS_ROOT}/{image_key(env_config.serving_image)}/"
        self.wait_seconds = wait_seconds(startup_budget_seconds(env_config.model.loaded_gb), gate)
        # The results are the history of what each image measured: kept when the stack is deleted (and when a failed
        # first create is rolled back, whose results say why).
        self.bucket = s3.Bucket(
            self,
            "Results",
            encryption=s3.BucketEncryption.S3_MANAGED,
            enforce_ssl=True,
            block_public_access=s3.BlockPublicAccess.BLOCK_ALL,
            versioned=False,
            object_ownership=s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
            removal_policy=cdk.RemovalPolicy.RETAIN,
            lifecycle_rules=[
                s3.LifecycleRule(
                    id="expire-results",
                    expiration=cdk.Duration.days(gate.retention_days),
                    abort_incomplete_multipart_upload_after=cdk.Duration.days(1),
                )
            ],
        )
        self.role, self.association = pod_identity_role(
            self,
            cluster=cluster,
            namespace=self.namespace,
            service_account=SERVICE_ACCOUNT,
            description="The promotion gate's load test Job: uploads its results, reads its start signal",
            association_id="JobPodIdentity",
        )
        self.role.add_to_policy(
            iam.PolicyStatement(
                sid="UploadResults",
                actions=["s3:PutObject"],
                resources=[self.bucket.arn_for_objects(f"{self.key_prefix}*/c*.json")],
            )
        )
        self.role.add_to_policy(
            iam.PolicyStatement(
                sid="ReadTheStartSignal",
                actions=["s3:GetObject"],
                resources=[self.bucket.arn_for_objects(f"{self.key_prefix}*/{START_OBJECT}")],
            )
        )
        self.service_account = eks.KubernetesManifest(
            self,
            "ServiceAccount",
            cluster=cluster,
            overwrite=True,
            manifest=[
                {
                    "apiVersion": "v1",
                    "kind": "ServiceAccount",
                    "metadata": {
                        "name": SERVICE_ACCOUNT,
                        "namespace": self.namespace,
                        "labels": {"app.kubernetes.io/name": "llmops-promotion-gate"},
                    },
                    "automountServiceAccountToken": False,
                }
            ],
        )

    def settings(self, digest: str) -> dict:
        key = published.key_of(
            self.env_config, input_len=self.gate.input_len, output_len=self.gate.output_len
        )
        return gate_settings(
            self.gate,
            key_prefix=self.key_prefix,
            job_name=self.job_name(digest),
            namespace=self.namespace,
            published=published.rows_for(self.env_config.model.preset.key, key),
            replicas=self.env_config.replicas,
        )

    @staticmethod
    def job_name(digest: str) -> str:
        return f"llmops-promotion-gate-{digest}"

    def grant_check(self, function: iam.IGrantable) -> None:
        """The check function: list and read this image's results, write the start and summary objects."""
        self.check_function = function
        principal = function.grant_principal
        for statement in (
            iam.PolicyStatement(
                sid="ListResults",
                actions=["s3:ListBucket"],
                resources=[self.bucket.bucket_arn],
                conditions={"StringLike": {"s3:prefix": [f"{self.key_prefix}*"]}},
            ),
            iam.PolicyStatement(
                sid="ReadResults",
                actions=["s3:GetObject"],
                resources=[self.bucket.arn_for_objects(f"{self.key_prefix}*")],
            ),
            iam.PolicyStatement(
                sid="WriteStartAndSummary",
                actions=["s3:PutObject"],
                resources=[
                    self.bucket.arn_for_objects(f"{self.key_prefix}*/{START_OBJECT}"),
                    self.bucket.arn_for_objects(f"{self.key_prefix}*/{SUMMARY_OBJECT}"),
                ],
            ),
        ):
            principal.add_to_principal_policy(statement)

    def add_job(
        self, *, digest: str, run_id: str, start: cdk.CustomResource
    ) -> eks.KubernetesManifest:
        """The load test's Job, named after ``digest``, writing under ``run_id`` (a token of ``start``)."""
        manifest = job_manifest(
            self.env_config,
            self.gate,
            job_name=self.job_name(digest),
            bucket=self.bucket.bucket_name,
            key_prefix=self.key_prefix,
            run_id=run_id,
            deadline_seconds=self.wait_seconds,
        )
        self.job = eks.KubernetesManifest(
            self, f"Job{digest}", cluster=self.cluster, manifest=[manifest]
        )
        self.job.node.add_dependency(self.service_account, self.association, self.role, start)
        acknowledge_promotion_gate(self, self.check_function)
        return self.job


__all__ = ["PromotionGate", "gate_settings", "image_key", "job_manifest", "job_script"]
