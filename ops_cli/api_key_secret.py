"""The endpoint's API key read from Secrets Manager, for ``llmops smoke-test``, ``wait`` and ``bench``: the AWS side of
the endpoint probe (endpoint_probe/, standard library only), which gets the key as an :class:`ApiKey`.
"""

from __future__ import annotations

import botocore.exceptions

from endpoint_probe.url import ApiKey, api_key_problem
from ops_cli.aws import Aws
from ops_cli.errors import SDK_ERRORS, ExitCode, OpsError, error_code, translate

#: What GetSecretValue fails with when the caller may not use the secret's KMS key: AccessDeniedException "Access to
#: KMS is not allowed" (AWS Knowledge Center, "secrets-manager-cross-account-key"), or DecryptionFailure ("Secrets
#: Manager can't decrypt the protected secret text using the provided KMS key", the API model's error shape).
_KMS_DENIED = "DecryptionFailure"


def read_api_key_secret(aws: Aws, secret_id: str, described: str) -> ApiKey:
    """The API key held as text by the Secrets Manager secret ``secret_id`` (a name, or an ARN, which a secret of
    another account needs: botocore's secretsmanager model, GetSecretValue ``SecretId``).

    Every failure is an :class:`OpsError` with the CLI's usual exit code (ops_cli.errors.translate: access denied 5,
    not found 11, no credentials 4, ...) and a fix that names the secret and the permission it needs; the message
    names ``described``, never the value.
    """
    action = f"read the API key from secret {described}"
    try:
        answer = aws.client("secretsmanager").get_secret_value(SecretId=secret_id)
    except SDK_ERRORS as error:
        raise _secret_error(error, action, described, aws.region) from None
    value = answer.get("SecretString")
    if not isinstance(value, str):
        raise OpsError(
            f"secret {described} holds binary data, not the API key as text",
            "store the key as the secret's text (SecretString)",
            ExitCode.USAGE,
        )
    problem = api_key_problem(value)
    if problem:
        raise OpsError(
            f"the API key in secret {described} {problem}",
            "store the key exactly as the server expects it, as plain text without a trailing newline",
            ExitCode.USAGE,
        )
    return ApiKey(value, f"secret {described}")


def _secret_error(error: Exception, action: str, described: str, region: str) -> OpsError:
    failure = translate(error, action)
    code = error_code(error) if isinstance(error, botocore.exceptions.ClientError) else ""
    text = error.response.get("Error", {}).get("Message", "") if code else ""
    if code == _KMS_DENIED or (
        failure.exit_code is ExitCode.ACCESS_DENIED and "kms" in text.lower()
    ):
        failure.fix = (
            f"allow kms:Decrypt on the KMS key that encrypts secret {described} to this identity, with the "
            f"condition kms:ViaService = secretsmanager.{region}.amazonaws.com; from another account both "
            "its IAM policy and the key's policy must allow it"
        )
    elif failure.exit_code is ExitCode.ACCESS_DENIED:
        failure.fix = (
            f"allow secretsmanager:GetSecretValue on secret {described} to this identity; from another "
            "account the secret's resource policy must allow it too, and its key must allow kms:Decrypt"
        )
    elif failure.exit_code is ExitCode.NOT_FOUND:
        failure.fix = (
            f"check the name, the account and the region of secret {described}; an environment's secret "
            "is created by its serving stack (npx cdk deploy NAME-serving -c env=NAME)"
        )
    elif code == "InvalidRequestException":
        failure.fix = (
            f"the secret may be scheduled for deletion: restore it (aws secretsmanager restore-secret "
            f"--secret-id ...) or deploy the serving stack again; see the message for {described}"
        )
    return failure
