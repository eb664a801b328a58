"""The AWS access of ``llmops weights mirror``'s Job (ops_cli/weights_mirror_job.py): a role for its service account
(``llm-serving/weights-mirror``) through EKS Pod Identity, which may write the model's S3 prefix and read the Hugging
Face token's secret, and nothing else.

In the cluster stack, so that the weights can be mirrored as soon as the cluster and its system nodes exist, before
the Capacity Block starts and before the serving stack (whose init container then reads the prefix)."""

from __future__ import annotations

import aws_cdk as cdk
from aws_cdk import aws_eks_v2 as eks
from aws_cdk import aws_iam as iam
from constructs import Construct

from cdk_constructs.nag_acknowledgements import acknowledge_weights_writer
from cdk_constructs.pod_identity import pod_identity_role
from cdk_constructs.s3_prefix_access import s3_prefix_statements
from cdk_constructs.serving_secrets import secret_arn_patterns
from deployment_config.kubernetes_names import SERVING_NAMESPACE, WEIGHTS_MIRROR_NAME


class WeightsMirrorAccess(Construct):
    """The mirror Job's role and its Pod Identity association.

    :param s3_uri: ``s3://BUCKET/PREFIX`` of the weights (validated by the configuration loader).
    :param token_secret: the Hugging Face token's secret, a name or an ARN; None for an ungated model.

    What it may do (boto3's ``upload_fileobj`` multipart upload, a ``put_object`` of the manifest, the listing
    ``llmops`` reads back through the user's own credentials): ``s3:ListBucket`` on the bucket for keys under the prefix,
    ``s3:PutObject``, ``s3:GetObject``, ``s3:AbortMultipartUpload`` on objects under it (multipart uploads are
    authorized by ``s3:PutObject``: S3 user guide, "Multipart upload API and permissions"), and
    ``secretsmanager:GetSecretValue`` on the token's secret. A bucket encrypted with a customer managed KMS key, or a
    token secret encrypted with one, also needs ``kms:GenerateDataKey`` / ``kms:Decrypt`` on that key, which the
    configuration does not name: add them to the role by hand in that case (docs/weights.md).
    """

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        cluster: eks.ICluster,
        s3_uri: str,
        token_secret: str | None,
    ) -> None:
        super().__init__(scope, id)
        self.role, self.association = pod_identity_role(
            self,
            cluster=cluster,
            namespace=SERVING_NAMESPACE,
            service_account=WEIGHTS_MIRROR_NAME,
            description="llmops weights mirror: writes the model's S3 prefix and reads the Hugging Face token",
        )
        for statement in s3_prefix_statements(
            s3_uri, ["s3:PutObject", "s3:GetObject", "s3:AbortMultipartUpload"]
        ):
            self.role.add_to_policy(statement)
        if token_secret:
            # The secret as the vLLM pod's grant names it: a name or a partial ARN with the six random characters
            # Secrets Manager appends to the ARN (-??????), a complete ARN as it is. The Job reads the secret by the
            # configured value, and IAM matches its complete ARN (ops_cli/weights_mirror_job.py).
            stack = cdk.Stack.of(self)
            self.role.add_to_policy(
                iam.PolicyStatement(
                    actions=["secretsmanager:GetSecretValue"],
                    resources=secret_arn_patterns(
                        token_secret,
                        partition=stack.partition,
                        region=stack.region,
                        account=stack.account,
                    ),
                )
            )
        acknowledge_weights_writer(self.role)
