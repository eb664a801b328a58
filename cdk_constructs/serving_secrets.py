"""The AWS side of the vLLM pod's secrets: the generated API key, its KMS key, and read access for the pod's role.

Kept in the stack of the endpoint it protects: the serving stack on the EKS path, the endpoint stack on the HyperPod
path (stacks/inference_endpoint_stack.py). ``cdk destroy`` deletes that stack first; inside it the manifest (and with it
the pod reading the key) goes before the secret, because the manifest depends on it, and nothing in the node, cluster or
network stacks refers to the secret, so their destroy is unchanged.

On delete of an ``AWS::SecretsManager::Secret``, CloudFormation deletes the secret without a recovery window
(ForceDeleteWithoutRecovery); the resource has no property for a window: aws-cloudformation/cloudformation-coverage-roadmap
issue #1999 ("Currently the default deletionpolicy for an AWS::SecretsManager::Secret resource is
force-delete-without-recovery", open) and #838 (a RecoveryWindowInDays property asked for with "default: 0 for backwards
compatibility"). The resource provider's source is not published. The name is therefore free again right after a
destroy (DeleteSecret API reference: the forced delete runs asynchronously, "a short delay"), and a redeploy creates
the secret again under the same name with a new generated key; clients read it by name. ``RemovalPolicy.RETAIN``
would break that redeploy: CreateSecret fails on the name of the retained secret. The project therefore keeps
CloudFormation's Delete. A secret deleted by hand with a recovery window reserves the name until the window ends; the
docs/destroy.md gives `restore-secret`, then `delete-secret --force-delete-without-recovery`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import aws_cdk as cdk
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk import aws_secretsmanager as secretsmanager
from constructs import Construct

from cdk_constructs.nag_acknowledgements import (
    acknowledge_api_key_secret,
    acknowledge_secrets_reader,
)
from cdk_constructs.previous_key import PreviousKeyVersion
from charts.serving_spec import PodSecrets

#: A complete secret ARN ends with a hyphen and six random characters that Secrets Manager appends to the name
#: (CloudFormation resource schema of AWS::SecretsManager::Secret, property Name); IAM matches them with ``-??????``
#: (aws/secrets-store-csi-driver-provider-aws README, the pod's access policy).
_COMPLETE_ARN_SUFFIX = re.compile(r"-[A-Za-z0-9]{6}$")
#: The API key: 64 letters and digits, safe in an ``Authorization: Bearer`` header (vLLM compares the whole token,
#: vLLM 0.33.0 vllm/entrypoints/serve/middleware/authenticate.py).
API_KEY_LENGTH = 64


#: An IAM role's ARN (IAM User Guide, "IAM identifiers": role names and paths take letters, digits and +=,.@_-).
_ROLE_ARN = re.compile(r"arn:aws[a-z-]*:iam::(\d{12}):role/[\w+=,.@/-]{1,512}")


def checked_reader_roles(roles: Sequence[str], own_account: str) -> dict[str, tuple[str, ...]]:
    """The roles of other accounts that may read the API key, by account, without duplicates and without the
    environment's own account (its principals need an identity policy either way, and the key's own policy leaves them
    to IAM). Raises ValueError on anything but a role's ARN."""
    bad = [r for r in roles if not _ROLE_ARN.fullmatch(r)]
    if bad:
        raise ValueError(
            f"api_key_reader_roles must be IAM role ARNs (arn:aws:iam::ACCOUNT:role/NAME), got {bad!r}"
        )
    by_account: dict[str, tuple[str, ...]] = {}
    for role in dict.fromkeys(roles):
        account = _ROLE_ARN.fullmatch(role).group(1)
        if account != own_account:
            by_account[account] = (*by_account.get(account, ()), role)
    return by_account


def secret_arn_patterns(secret: str, *, partition: str, region: str, account: str) -> list[str]:
    """IAM resources that match exactly the secret named or ARN'd by ``secret`` (name, partial or complete ARN)."""
    if secret.startswith("arn:"):
        return [secret] if _COMPLETE_ARN_SUFFIX.search(secret) else [f"{secret}-??????"]
    return [f"arn:{partition}:secretsmanager:{region}:{account}:secret:{secret}-??????"]


class ServingSecrets(Construct):
    """The environment's API key (when the endpoint requires one) and the grants that let the vLLM pod read its secrets.

    :param secrets: what the pod reads (:class:`charts.serving_spec.PodSecrets`).
    :param reader_roles: roles of other accounts that may read the API key (the delivery pipeline's smoke test step):
        a statement in the secret's resource policy and one in the key policy. Cross-account reads need both, and a
        customer-managed key: the AWS managed key ``aws/secretsmanager`` cannot be shared (Secrets Manager user guide,
        "Access AWS Secrets Manager secrets from a different account"). Each statement names the role's account as
        principal and the role itself in ``aws:PrincipalArn``, so no other principal of that account may read the
        production key, whatever its own policies allow. The condition, not the role as principal: a policy naming a
        role is stored with the role's unique id and stops matching once the role is recreated, and KMS refuses a key
        policy naming a role that does not exist yet; ``aws:PrincipalArn`` of a role's session is the role's ARN
        (IAM User Guide, "AWS global condition context keys", aws:PrincipalArn,
        https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-keys.html#condition-keys-principalarn).
    """

    def __init__(
        self, scope: Construct, id: str, *, secrets: PodSecrets, reader_roles: Sequence[str] = ()
    ) -> None:
        super().__init__(scope, id)
        stack = cdk.Stack.of(self)
        self._secrets = secrets
        self._via_secrets_manager = {
            "StringEquals": {"kms:ViaService": f"secretsmanager.{stack.region}.amazonaws.com"}
        }
        self.key: kms.Key | None = None
        self.api_key: secretsmanager.Secret | None = None
        self.previous_key: PreviousKeyVersion | None = None
        readers = checked_reader_roles(reader_roles, stack.account)
        if secrets.api_key_secret:
            self.key = kms.Key(
                self,
                "ApiKeyKey",
                enable_key_rotation=True,
                removal_policy=cdk.RemovalPolicy.DESTROY,
                description=f"Encrypts the API key {secrets.api_key_secret}; shareable with the reader accounts",
            )
            self.api_key = secretsmanager.Secret(
                self,
                "ApiKey",
                secret_name=secrets.api_key_secret,
                encryption_key=self.key,
                description="API key of the vLLM endpoint (Authorization: Bearer KEY); generated by CloudFormation",
                # The value is generated by Secrets Manager at create time (GetRandomPassword): no literal anywhere.
                generate_secret_string=secretsmanager.SecretStringGenerator(
                    password_length=API_KEY_LENGTH, exclude_punctuation=True, include_space=False
                ),
                # CloudFormation's Delete: see the module docstring for what it does and why not Retain.
                removal_policy=cdk.RemovalPolicy.DESTROY,
            )
            acknowledge_api_key_secret(self.api_key)
            # AWSPREVIOUS from the first day, so that the pods' mount of it never fails and a rotation keeps the key
            # it replaced (cdk_constructs/previous_key/); the manifest depends on this construct, so on it too
            self.previous_key = PreviousKeyVersion(
                self, "PreviousKey", secret=self.api_key, key=self.key, key_length=API_KEY_LENGTH
            )
            for account, roles in readers.items():
                principal = iam.AccountPrincipal(account)
                only_these_roles = {"ArnEquals": {"aws:PrincipalArn": list(roles)}}
                self.api_key.add_to_resource_policy(
                    iam.PolicyStatement(
                        sid=f"ReadApiKey{account}",
                        principals=[principal],
                        actions=["secretsmanager:GetSecretValue"],
                        resources=["*"],
                        conditions=only_these_roles,
                    )
                )
                self.key.add_to_resource_policy(
                    iam.PolicyStatement(
                        sid=f"DecryptApiKey{account}",
                        principals=[principal],
                        actions=["kms:Decrypt"],
                        resources=["*"],
                        conditions={**self._via_secrets_manager, **only_these_roles},
                    )
                )

    def grant_read(self, role: iam.IRole) -> None:
        """What the AWS provider needs, with the pod's role, to mount the secrets: GetSecretValue on the first mount,
        DescribeSecret on each rotation poll (aws/secrets-store-csi-driver-provider-aws@a74182c1,
        provider/secrets_manager_provider.go), and kms:Decrypt through Secrets Manager only."""
        stack = cdk.Stack.of(self)
        secrets = []
        if self.api_key is not None:
            secrets.append(self.api_key.secret_arn)
        if self._secrets.hugging_face_token_secret:
            secrets += secret_arn_patterns(
                self._secrets.hugging_face_token_secret,
                partition=stack.partition,
                region=stack.region,
                account=stack.account,
            )
        role.add_to_principal_policy(
            iam.PolicyStatement(
                sid="ReadServingSecrets",
                actions=["secretsmanager:DescribeSecret", "secretsmanager:GetSecretValue"],
                resources=secrets,
            )
        )
        if self.key is not None:
            role.add_to_principal_policy(
                iam.PolicyStatement(
                    sid="DecryptApiKey",
                    actions=["kms:Decrypt"],
                    resources=[self.key.key_arn],
                    conditions=self._via_secrets_manager,
                )
            )
        if self._secrets.hugging_face_token_secret:
            # The user's secret is encrypted with aws/secretsmanager or a key of theirs that the app cannot name. Any key
            # of the account, but only when Secrets Manager decrypts for a GetSecretValue this role may make, and the
            # statement above allows exactly two secrets.
            role.add_to_principal_policy(
                iam.PolicyStatement(
                    sid="DecryptHuggingFaceToken",
                    actions=["kms:Decrypt"],
                    resources=[f"arn:{stack.partition}:kms:{stack.region}:{stack.account}:key/*"],
                    conditions=self._via_secrets_manager,
                )
            )
        acknowledge_secrets_reader(role)


def add_authentication_outputs(
    stack: cdk.Stack,
    secrets: ServingSecrets | None,
    secret_name: str | None,
    *,
    open_paths: Sequence[str] = ("/health", "/ping", "/metrics"),
) -> None:
    """The outputs that say how clients authenticate: the key on every path but ``open_paths``, not only under vLLM's
    own /v1, /v2, /inference and /cohere: the key check in front of vLLM on EKS (charts/key_proxy.py OPEN_PATHS), the
    middleware inside it on HyperPod (charts/vllm_auth_middleware/runtime/llm_serving_auth.py OPEN_PATHS, the
    default)."""
    api_key = secrets.api_key if secrets else None
    if api_key is None:
        cdk.CfnOutput(
            stack,
            "EndpointAuthentication",
            value=(
                "NONE: the endpoint accepts requests without an API key (endpoint.authentication: none); "
                "anyone who reaches the load balancer can use the model"
            ),
            description="How clients authenticate to the endpoint",
        )
        return
    where = f"on every path but {', '.join(open_paths[:-1])} and {open_paths[-1]}"
    cdk.CfnOutput(
        stack,
        "EndpointAuthentication",
        value=f"Authorization: Bearer KEY {where}; KEY is the secret {secret_name}",
        description="How clients authenticate to the endpoint",
    )
    cdk.CfnOutput(
        stack,
        "ApiKeySecretArn",
        value=api_key.secret_arn,
        description="The API key (read: aws secretsmanager get-secret-value --secret-id ARN)",
    )
