"""A custom resource that gives the API key's secret a version labelled AWSPREVIOUS from the day it is created.

The vLLM pod's key check accepts the current key and the previous one, which the Secrets Store CSI driver writes from
the secret's AWSPREVIOUS version (charts/vllm_secret_provider.py, charts/key_proxy.py KEY_FILES): a rotation then
never gives a client 401, because the key it replaced stays accepted until the next rotation. A secret never rotated
has no AWSPREVIOUS version, and the AWS provider then fails the whole mount (charts/vllm_secret_provider.py says
where), so :class:`PreviousKeyVersion` writes a second generated key at creation: Secrets Manager moves AWSCURRENT to
it and AWSPREVIOUS to the key CloudFormation generated (the handler's docstring quotes the API reference). The key is
generated and written inside AWS (GetRandomPassword, PutSecretValue): no key in the template, the response or a log.

The function may list the versions of that one secret and put a value in it, and use the secret's own KMS key for that
only through Secrets Manager; it may not read the secret (no GetSecretValue).
"""

from __future__ import annotations

from pathlib import Path

import aws_cdk as cdk
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk import aws_secretsmanager as secretsmanager
from constructs import Construct

from cdk_constructs.function_defaults import on_event_function, on_event_resource
from cdk_constructs.nag_acknowledgements import acknowledge_previous_key

HANDLER_DIR = Path(__file__).resolve().parent / "runtime"
RESOURCE_TYPE = "Custom::ApiKeyPreviousVersion"


class PreviousKeyVersion(Construct):
    """On create and update, a second generated key in ``secret`` when it has no AWSPREVIOUS version; nothing on delete.

    :param key_length: the generated key's length (letters and digits, as the secret's own generator's).
    :attr resource: the ``Custom::ApiKeyPreviousVersion`` CustomResource (depend on it to mount AWSPREVIOUS).
    :attr function: its onEvent Lambda function.
    """

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        secret: secretsmanager.Secret,
        key: kms.Key,
        key_length: int,
    ) -> None:
        super().__init__(scope, id)
        stack = cdk.Stack.of(self)
        self.function = on_event_function(
            self,
            HANDLER_DIR,
            timeout=cdk.Duration.minutes(1),
            description="ApiKeyPreviousVersion: gives the API key's secret a second generated version, so that "
            "AWSPREVIOUS exists before the first rotation",
        )
        # Both take the secret's resource type (Service Authorization Reference, Secrets Manager, tests/data/iam_sar/).
        self.function.add_to_role_policy(
            iam.PolicyStatement(
                sid="ListAndPutThisSecretOnly",
                actions=["secretsmanager:ListSecretVersionIds", "secretsmanager:PutSecretValue"],
                resources=[secret.secret_arn],
            )
        )
        # GetRandomPassword takes no resource type (same reference): "*" is the only resource it can be granted on.
        self.function.add_to_role_policy(
            iam.PolicyStatement(
                sid="GenerateTheKey", actions=["secretsmanager:GetRandomPassword"], resources=["*"]
            )
        )
        # Secrets Manager asks KMS for a new data key for every new value ("Whenever the secret value in a secret
        # changes, Secrets Manager requests a new data key from AWS KMS to protect it": Secrets Manager user guide,
        # "Secret encryption and decryption", https://docs.aws.amazon.com/secretsmanager/latest/userguide/
        # security-encryption.html), with the caller's permissions; only through Secrets Manager.
        self.function.add_to_role_policy(
            iam.PolicyStatement(
                sid="EncryptThroughSecretsManagerOnly",
                actions=["kms:GenerateDataKey"],
                resources=[key.key_arn],
                conditions={
                    "StringEquals": {
                        "kms:ViaService": f"secretsmanager.{stack.region}.amazonaws.com"
                    }
                },
            )
        )
        self.provider, self.resource = on_event_resource(
            self,
            self.function,
            resource_type=RESOURCE_TYPE,
            properties={"SecretArn": secret.secret_arn, "KeyLength": str(key_length)},
        )
        acknowledge_previous_key(self)


__all__ = ["PreviousKeyVersion"]
