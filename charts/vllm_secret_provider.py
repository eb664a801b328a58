"""Secrets Manager secrets into the vLLM container: a SecretProviderClass, a CSI volume, and environment variables.

The path, each step with its source:

1. The Secrets Store CSI driver mounts a volume of driver ``secrets-store.csi.k8s.io`` whose ``secretProviderClass``
   names the SecretProviderClass below; the AWS provider (ASCP, EKS add-on ``aws-secrets-store-csi-driver-provider``,
   installed by the cluster stack) fetches each object with the pod's own IAM role through EKS Pod Identity
   (``usePodIdentity: "true"``) and writes it as a file named after its ``objectAlias``
   (aws/secrets-store-csi-driver-provider-aws@a74182c1 README.md, "SecretProviderClass options").
2. The driver copies those files into the Kubernetes Secret of ``secretObjects`` (driver option ``syncSecret``). The
   sync exists only while a pod mounts the volume: "The volume mount is required for the Sync With Kubernetes
   Secrets", and the Secret is deleted with the last pod that mounts it (kubernetes-sigs/secrets-store-csi-driver
   v1.6.0 docs/book/src/topics/sync-as-kubernetes-secret.md). So the vLLM container keeps the volume mounted although
   it reads the values from its environment.
3. The container's ``HF_TOKEN`` comes from that Secret by ``secretKeyRef`` (same docs, set-as-env-var.md); an
   environment variable is read once, so a rotated token needs a restart (same docs, secret-auto-rotation.md, "Using
   Kubernetes secret for environment variable"). The API key does not go into the environment: the key check in front
   of vLLM (Caddy, charts/key_proxy.py) reads the mounted file on every request, which the driver's rotation rewrites,
   so a rotated key is accepted without a restart.
   The Secret is still synced: ``llmops bench`` reads the key from it.

4. The API key's previous version: the same secret again, under ``objectVersionLabel: AWSPREVIOUS`` and the alias
   ``api-key-previous`` (the provider accepts one secret twice under different aliases:
   aws/secrets-store-csi-driver-provider-aws@a74182c README.md "objectVersionLabel", provider/secret_descriptor.go
   duplicate-name rules), so that the key check accepts the key a rotation replaced until the next rotation, and a
   rotation never gives a client 401 (docs/security.md, "Rotate the key"). The provider asks GetSecretValue for that
   stage, and a secret never rotated has no version labelled AWSPREVIOUS: Secrets Manager answers
   ResourceNotFoundException, a client fault (aws/aws-sdk-js-v3#7701 shows the answer for a missing staging label),
   which the provider treats as fatal and fails the whole mount (provider/secrets_manager_provider.go
   ``fetchSecretManagerValue``, utils/error_handling_helper.go ``IsFatalError``). The stack therefore gives the
   secret a second generated version when it creates it (cdk_constructs/previous_key/), and the manifest depends on
   that: the label exists before any pod mounts it. Not synced into the Kubernetes Secret: only the key check reads
   it, from its file, so only the EKS path's SecretProviderClass has it (HyperPod's worker reads its key from the
   environment at start: docs/security.md).

No secret value appears in a manifest: only secret names, aliases and keys. The synced Secret is stored in etcd, which
the cluster encrypts with its own KMS key (stacks/cluster_stack.py).

The same objects serve the HyperPod path, whose pod the Inference Operator writes from an InferenceEndpointConfig
(charts/inference_endpoint_chart.py): :func:`secrets_volume`, :func:`secret_key_ref` and :func:`secret_env` give the
volume and references as plain Kubernetes JSON. There the worker's container can mount no volume (operator 3.1's CRD
has no ``worker.volumeMounts``; its ``spec.kubernetes.volumes`` serve init containers only), so a Deployment of its own
mounts the volume and keeps the synced Secret (charts/secrets_sync.py), and the worker reads ``LLM_SERVING_API_KEY``
from it by ``secretKeyRef``.
"""

from __future__ import annotations

import cdk8s
import cdk8s_plus_28 as kplus
import yaml
from constructs import Construct

from charts.serving_spec import API_KEY_VARIABLE, PodSecrets
from charts.vllm_auth_middleware.runtime.llm_serving_auth import PREVIOUS_KEY_FILE

#: The SecretProviderClass CRD's group and served version (kubernetes-sigs/secrets-store-csi-driver v1.6.0,
#: charts/secrets-store-csi-driver/crds/secrets-store.csi.x-k8s.io_secretproviderclasses.yaml).
SECRET_PROVIDER_CLASS_API_VERSION = "secrets-store.csi.x-k8s.io/v1"
#: The CSI driver name the driver registers (same chart, templates/csidriver.yaml).
SECRETS_STORE_CSI_DRIVER = "secrets-store.csi.k8s.io"
#: The staging label Secrets Manager moves to the version a rotation replaced (Secrets Manager API reference,
#: PutSecretValue); cdk_constructs/previous_key/ makes it exist from the start.
PREVIOUS_VERSION_LABEL = "AWSPREVIOUS"
#: Name of the CSI volume in the pod.
SECRETS_VOLUME = "secrets-store"


def secret_provider_class_spec(secrets: PodSecrets, *, previous_key: bool = False) -> dict:
    """The SecretProviderClass's ``spec``: one object per configured secret, synced into one Opaque Secret; with
    ``previous_key`` (where the key check in front of vLLM reads the files) also the API key's AWSPREVIOUS version."""
    objects = [
        {"objectName": secret, "objectType": "secretsmanager", "objectAlias": alias}
        for _, secret, alias in secrets.deliveries
    ]
    if previous_key and secrets.api_key_secret:
        objects.append(
            {
                "objectName": secrets.api_key_secret,
                "objectType": "secretsmanager",
                "objectVersionLabel": PREVIOUS_VERSION_LABEL,
                "objectAlias": PREVIOUS_KEY_FILE,
            }
        )
    return {
        "provider": "aws",
        "parameters": {
            # ASCP parameters are strings (the CRD types them so); the provider parses "objects" as YAML.
            "objects": yaml.safe_dump(objects, sort_keys=False),
            # Without it the provider looks the region up from the node's label on every mount (ASCP README).
            "region": secrets.region,
            # Credentials from the pod's service account through EKS Pod Identity, not IRSA (the ASCP default).
            "usePodIdentity": "true",
        },
        "secretObjects": [
            {
                "secretName": secrets.name,
                "type": "Opaque",
                "labels": {"app.kubernetes.io/name": "vllm"},
                "data": [{"objectName": alias, "key": alias} for _, _, alias in secrets.deliveries],
            }
        ],
    }


def add_secret_provider_class(
    scope: Construct, *, secrets: PodSecrets, namespace: str, previous_key: bool = False
) -> cdk8s.ApiObject:
    """Add the SecretProviderClass (a custom resource of the driver's CRD, installed by the add-on) to ``scope``."""
    provider_class = cdk8s.ApiObject(
        scope,
        "secret-provider-class",
        api_version=SECRET_PROVIDER_CLASS_API_VERSION,
        kind="SecretProviderClass",
        metadata=cdk8s.ApiObjectMetadata(
            name=secrets.name, namespace=namespace, labels={"app.kubernetes.io/name": "vllm"}
        ),
    )
    # ApiObject takes apiVersion, kind and metadata only; a custom resource's body goes in as a patch.
    provider_class.add_json_patch(
        cdk8s.JsonPatch.add("/spec", secret_provider_class_spec(secrets, previous_key=previous_key))
    )
    return provider_class


def mount_secrets(
    scope: Construct,
    *,
    deployment: kplus.Deployment,
    container: kplus.Container,
    secrets: PodSecrets,
) -> None:
    """Mount the CSI volume on ``container`` (read-only) and set the environment variables other than the API key's (the
    Hugging Face token) from the synced Secret. The API key's file is read by the key check in front of vLLM
    (charts/key_proxy.py), which mounts the same volume."""
    volume = kplus.Volume.from_csi(
        scope,
        "secrets-store",
        SECRETS_STORE_CSI_DRIVER,
        name=SECRETS_VOLUME,
        read_only=True,
        attributes={"secretProviderClass": secrets.name},
    )
    deployment.add_volume(volume)
    container.mount(secrets.mount_path, volume, read_only=True)
    synced = kplus.Secret.from_secret_name(scope, "synced-secrets", secrets.name)
    for variable, _, key in secrets.deliveries:
        if variable != API_KEY_VARIABLE:
            container.env.add_variable(
                variable,
                kplus.EnvValue.from_secret_value(kplus.SecretValue(secret=synced, key=key)),
            )


def secrets_volume(secrets: PodSecrets) -> dict:
    """The CSI volume as a pod's ``volumes`` item in plain Kubernetes JSON (what :func:`mount_secrets` adds to a
    cdk8s-plus Deployment), for pods that another controller writes."""
    return {
        "name": SECRETS_VOLUME,
        "csi": {
            "driver": SECRETS_STORE_CSI_DRIVER,
            "readOnly": True,
            "volumeAttributes": {"secretProviderClass": secrets.name},
        },
    }


def secret_key_ref(secrets: PodSecrets, key: str) -> dict:
    """A ``secretKeyRef`` to ``key`` of the Secret the driver syncs."""
    if key not in {k for _, _, k in secrets.deliveries}:
        raise ValueError(
            f"{key!r} is not synced by {secrets.name}; it syncs {[k for _, _, k in secrets.deliveries]}"
        )
    return {"name": secrets.name, "key": key}


def secret_env(secrets: PodSecrets, variables: tuple[str, ...] | None = None) -> list[dict]:
    """Environment variables (plain Kubernetes JSON) from the synced Secret: every delivery, or those of ``variables``."""
    return [
        {"name": variable, "valueFrom": {"secretKeyRef": secret_key_ref(secrets, key)}}
        for variable, _, key in secrets.deliveries
        if variables is None or variable in variables
    ]
