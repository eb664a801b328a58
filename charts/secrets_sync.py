"""The HyperPod endpoint's secrets sync: a small Deployment that keeps the Kubernetes Secret the worker reads its API key
from, for an InferenceEndpointConfig of operator 3.1, whose worker's container can mount no volume (the CRD's v1 schema
has no ``worker.volumeMounts``; ``spec.kubernetes.volumes`` "can be referenced by init containers via volumeMounts":
charts/imports/crds/).

How the key reaches the worker, each step with its source:

1. This Deployment's pod runs under its own service account, which EKS Pod Identity gives the role that may read the
   secret (stacks/inference_endpoint_stack.py), and mounts the Secrets Store CSI volume of the SecretProviderClass
   (charts/vllm_secret_provider.py). The driver copies the mounted objects into the Kubernetes Secret of the class's
   ``secretObjects``, and keeps it only while a pod mounts the volume ("The volume mount is required for the Sync With
   Kubernetes Secrets": kubernetes-sigs/secrets-store-csi-driver v1.6.0 docs/book/src/topics/sync-as-kubernetes-secret.md);
   with rotation on (deployment_config/addons.py) it refreshes the Secret at the secret's current version.
2. The worker reads ``LLM_SERVING_API_KEY`` from that Secret through ``worker.environmentVariables[].valueFrom.secretKeyRef``,
   a field of operator 3.1's CRD.

The pod's one container only has to exist: the Kubernetes pause image, which sleeps until it is stopped
(kubernetes/kubernetes build/pause/linux/pause.c, its main loop ``pause()``). It opens no port and makes no call, so its
NetworkPolicy admits nothing in and lets nothing out; the CSI driver and the AWS provider, which do the reading, run on
the node, not in the pod.
"""

from __future__ import annotations

from types import MappingProxyType

import cdk8s
from constructs import Construct

from charts.serving_spec import PodSecrets
from charts.vllm_secret_provider import secrets_volume
from deployment_config.kubernetes_names import SYSTEM_NODE_LABELS

#: The pause image of the Kubernetes project (registry.k8s.io is the project's registry; the image is built from
#: kubernetes/kubernetes build/pause: a static binary, ``ENTRYPOINT ["/pause"]``, FROM scratch - no shell, nothing else).
#: Tag 3.10. The digest is that tag's multi-architecture index as several unrelated public repositories pin it
#: identically; it was not read from the registry here (no network): check it with ``crane digest
#: registry.k8s.io/pause:3.10`` (or ``docker buildx imagetools inspect``) whenever the tag changes.
PAUSE_IMAGE = (
    "registry.k8s.io/pause:3.10"
    "@sha256:ee6521f290b2168b6e0935a181d4cff9be1ac3f505666ef0e3c98fae8199917a"
)
#: Any unprivileged user: the image sets none we rely on, and the binary needs no file and no privilege.
PAUSE_USER = 65535
COMPONENT = "secrets-sync"
#: Sync pods: two, so that a drain or the loss of one system node leaves one that mounts the volume.
SYNC_REPLICAS = 2
#: Hardening of the container: what the EKS path's containers get (charts/vllm_deployment.py) and a read-only root
#: filesystem (the pause binary writes nothing).
CONTAINER_SECURITY_CONTEXT = MappingProxyType(
    {
        "allowPrivilegeEscalation": False,
        "privileged": False,
        "readOnlyRootFilesystem": True,
        "runAsNonRoot": True,
        "runAsUser": PAUSE_USER,
        "runAsGroup": PAUSE_USER,
        "capabilities": {"drop": ["ALL"]},
        "seccompProfile": {"type": "RuntimeDefault"},
    }
)


def sync_labels(endpoint_name: str) -> dict[str, str]:
    return {
        "app.kubernetes.io/name": "vllm",
        "app.kubernetes.io/component": COMPONENT,
        "app.kubernetes.io/instance": endpoint_name,
    }


def secrets_sync_deployment(
    *, endpoint_name: str, namespace: str, service_account: str, secrets: PodSecrets
) -> dict:
    """The Deployment (plain Kubernetes JSON) whose pod mounts the secrets volume and so keeps the synced Secret.

    Two replicas spread over the system nodes, a rolling update that starts a new pod before it stops an old one
    (``maxUnavailable: 0``), and a PodDisruptionBudget (:func:`secrets_sync_disruption_budget`): the Secret is never
    left without a pod that mounts its volume, which the driver needs to keep it (the synced Secret is deleted with the
    last pod that mounts it: secrets-store-csi-driver docs, "Sync as Kubernetes Secret"), through a rollout, a node
    drain or an upgrade of the system nodes. A worker that starts while it is missing would wait in
    CreateContainerConfigError. ``automountServiceAccountToken: false``: the pod talks to
    no API; the CSI driver asks for the service account's token itself (its ``tokenRequests``, deployment_config/
    addons.py), as on the EKS path, whose vLLM pod mounts no token either.
    """
    labels = sync_labels(endpoint_name)
    volume = secrets_volume(secrets)
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {
            "name": f"{endpoint_name}-{COMPONENT}",
            "namespace": namespace,
            "labels": labels,
        },
        "spec": {
            "replicas": SYNC_REPLICAS,
            "selector": {"matchLabels": labels},
            "strategy": {
                "type": "RollingUpdate",
                "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0},
            },
            "template": {
                "metadata": {"labels": labels},
                "spec": {
                    "serviceAccountName": service_account,
                    "automountServiceAccountToken": False,
                    # On the system nodes: the GPU instances are for the worker (and carry a taint this pod lacks).
                    "nodeSelector": dict(SYSTEM_NODE_LABELS),
                    # One per system node where it can: a node's loss leaves the other replica mounting the volume.
                    "topologySpreadConstraints": [
                        {
                            "maxSkew": 1,
                            "topologyKey": "kubernetes.io/hostname",
                            "whenUnsatisfiable": "ScheduleAnyway",
                            "labelSelector": {"matchLabels": labels},
                        }
                    ],
                    "securityContext": {
                        "runAsNonRoot": True,
                        "runAsUser": PAUSE_USER,
                        "runAsGroup": PAUSE_USER,
                        "seccompProfile": {"type": "RuntimeDefault"},
                    },
                    "containers": [
                        {
                            "name": COMPONENT,
                            "image": PAUSE_IMAGE,
                            "imagePullPolicy": "IfNotPresent",
                            "securityContext": {
                                k: (dict(v) if isinstance(v, MappingProxyType) else v)
                                for k, v in CONTAINER_SECURITY_CONTEXT.items()
                            },
                            "resources": {
                                "requests": {"cpu": "10m", "memory": "16Mi"},
                                "limits": {"cpu": "50m", "memory": "32Mi"},
                            },
                            "volumeMounts": [
                                {
                                    "name": volume["name"],
                                    "mountPath": secrets.mount_path,
                                    "readOnly": True,
                                }
                            ],
                        }
                    ],
                    "volumes": [volume],
                },
            },
        },
    }


def secrets_sync_disruption_budget(*, endpoint_name: str, namespace: str) -> dict:
    """At most one sync pod evicted at a time (policy/v1 PodDisruptionBudget): a drain of a system node waits until the
    other replica runs, and never blocks for ever (``maxUnavailable: 1`` of two, not ``minAvailable: 2``)."""
    labels = sync_labels(endpoint_name)
    return {
        "apiVersion": "policy/v1",
        "kind": "PodDisruptionBudget",
        "metadata": {
            "name": f"{endpoint_name}-{COMPONENT}",
            "namespace": namespace,
            "labels": labels,
        },
        "spec": {"maxUnavailable": 1, "selector": {"matchLabels": labels}},
    }


def secrets_sync_network_policy(*, endpoint_name: str, namespace: str) -> dict:
    """Nothing in, nothing out: the pod serves nothing and calls nothing (the node's CSI driver reads the secrets)."""
    return {
        "apiVersion": "networking.k8s.io/v1",
        "kind": "NetworkPolicy",
        "metadata": {
            "name": f"{endpoint_name}-{COMPONENT}",
            "namespace": namespace,
            "labels": sync_labels(endpoint_name),
        },
        "spec": {
            "podSelector": {"matchLabels": sync_labels(endpoint_name)},
            "policyTypes": ["Ingress", "Egress"],
        },
    }


def add_plain_object(scope: Construct, id: str, obj: dict) -> cdk8s.ApiObject:
    """``obj`` (plain Kubernetes JSON) as an ApiObject of ``scope``; its body beyond metadata goes in as patches."""
    api_object = cdk8s.ApiObject(
        scope,
        id,
        api_version=obj["apiVersion"],
        kind=obj["kind"],
        metadata=cdk8s.ApiObjectMetadata(**obj["metadata"]),
    )
    for key, value in obj.items():
        if key not in ("apiVersion", "kind", "metadata"):
            api_object.add_json_patch(cdk8s.JsonPatch.add(f"/{key}", value))
    return api_object
