"""Lambda handler of the PreviousKeyVersion custom resource (aws_cdk.custom_resources.Provider, onEvent only).

Create and Update: when no version of the secret ``SecretArn`` carries the staging label AWSPREVIOUS (a secret never
rotated, as CloudFormation creates it), a second key is generated inside AWS (``GetRandomPassword``) and written as a
new version (``PutSecretValue`` without ``VersionStages``): "If you don't include VersionStages, then Secrets Manager
automatically moves the staging label AWSCURRENT to this version. [...] If this operation moves the staging label
AWSCURRENT from another version to this version, then Secrets Manager also automatically moves the staging label
AWSPREVIOUS to the version that AWSCURRENT was removed from" (Secrets Manager API reference, PutSecretValue,
https://docs.aws.amazon.com/secretsmanager/latest/apireference/API_PutSecretValue.html). From then on a version labelled
AWSPREVIOUS always exists (every later rotation moves the label again), so the vLLM pod's mount of that version
(charts/vllm_secret_provider.py) never fails. A secret that has AWSPREVIOUS already is left alone: an update or a
redeploy never rotates the key. Delete does nothing: the secret goes with its stack.

The key is never printed, returned or logged: the response to CloudFormation carries the physical id only, and the
value goes from one Secrets Manager call to the next inside this process.

Runs on the Lambda Python runtime (3.12 or later) with its boto3; no other dependency.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

import boto3

PREVIOUS = "AWSPREVIOUS"
#: ListSecretVersionIds answers at most 100 versions a page (MaxResults); Secrets Manager keeps about 100 versions
#: (PutSecretValue, same page): 5 pages are more than a secret holds, and a longer answer fails instead of looping.
MAX_PAGES = 5
#: GetRandomPassword's PasswordLength is 1 to 4096 (API reference, GetRandomPassword); the key check in front of vLLM
#: refuses a key shorter than 16 (charts/key_proxy.py KEY_MINIMUM_LENGTH).
LENGTHS = range(16, 4097)


def client(service_name: str):
    """The boto3 client of ``service_name``; tests replace this function."""
    return boto3.client(service_name)


def settings(properties: Mapping) -> tuple[str, int]:
    """(secret ARN, key length) from the resource's properties; CloudFormation passes every property as a string."""
    arn, length = properties.get("SecretArn"), str(properties.get("KeyLength", ""))
    if not isinstance(arn, str) or ":secretsmanager:" not in arn or ":secret:" not in arn:
        raise ValueError(f"SecretArn must be a Secrets Manager secret's ARN; got {arn!r}")
    if not length.isdigit() or int(length) not in LENGTHS:
        raise ValueError(f"KeyLength must be a whole number from 16 to 4096; got {length!r}")
    return arn, int(length)


def physical_resource_id(arn: str) -> str:
    return f"PreviousKeyVersion-{hashlib.sha256(arn.encode()).hexdigest()[:16]}"


def has_previous(secrets, arn: str) -> bool:
    """Whether a version of the secret carries AWSPREVIOUS (versions without labels are not listed by default)."""
    token = None
    for _ in range(MAX_PAGES):
        page = secrets.list_secret_version_ids(
            SecretId=arn, MaxResults=100, **({"NextToken": token} if token else {})
        )
        if any(PREVIOUS in version.get("VersionStages", []) for version in page.get("Versions", [])):
            return True
        token = page.get("NextToken")
        if not token:
            return False
    raise RuntimeError(f"{arn} lists more than {MAX_PAGES} pages of versions; nothing was changed")


def add_previous(secrets, arn: str, length: int) -> bool:
    """Give the secret a version labelled AWSPREVIOUS if it has none; whether a new key was written."""
    if has_previous(secrets, arn):
        print(f"{arn} has a version labelled {PREVIOUS}: nothing to do")
        return False
    # the same alphabet as the key CloudFormation generated (cdk_constructs/serving_secrets.py): letters and digits
    key = secrets.get_random_password(
        PasswordLength=length, ExcludePunctuation=True, IncludeSpace=False
    )["RandomPassword"]
    version = secrets.put_secret_value(SecretId=arn, SecretString=key)["VersionId"]
    print(f"{arn}: new key in version {version} (AWSCURRENT); the generated one is {PREVIOUS} now")
    return True


def on_event(event: Mapping, context=None) -> dict:
    arn, length = settings(event["ResourceProperties"])
    if event["RequestType"] == "Delete":
        return {"PhysicalResourceId": event["PhysicalResourceId"]}
    add_previous(client("secretsmanager"), arn, length)
    return {"PhysicalResourceId": physical_resource_id(arn)}
