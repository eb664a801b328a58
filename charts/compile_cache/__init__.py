"""vLLM's compile cache, kept in S3 and restored on every node before vLLM starts (EKS path, one node per replica).

A first start on a node compiles the model (torch.compile, Inductor and Triton kernels) during vLLM's engine start;
the next start with the same cache skips that work. The cache is saved once per key, by the first pod that becomes
healthy, and restored by every later pod whose key is the same (charts/compile_cache/runtime/compile_cache.py, which the
tests run, says how the key is recorded and checked).

Where it is kept: the weights' own bucket, under ``compile-cache/`` at its root. That bucket exists before the block in
the block's region (``llmops weights mirror`` wrote the weights there), the pod already reads it, and a bucket of its
own would be one more bucket for the stacks to create, encrypt, log and empty on destroy for a few GB. The prefix is
outside the weights' revision prefixes (which are ``PREFIX/COMMIT/``, a 40-hex commit), so the mirror never lists or
writes it, and the pod's role may only read and conditionally create the one object its own key names there
(stacks/serving_stack.py).

When it is offered (:func:`compile_cache_for`): weights from S3 (the bucket), an image pinned by digest (a tag can be
moved to another image, and a key of a tag would mix them), and a model on one node. Not with Hub weights (no bucket
of the project's), not on HyperPod (the operator writes the pod) and not for a LeaderWorkerSet (each node of a group
compiles its own pipeline stage's ranks; one key per group would keep only the first node's): those compile at start
as before.

On the node the cache lives on the NVMe cache (``/models/compile-cache/SHA256``, one directory per key): a restart on
the same node finds it there and downloads nothing.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

import cdk8s
import cdk8s_plus_28 as kplus
from constructs import Construct

from charts.compile_cache.runtime.compile_cache import key_digest
from deployment_config.model_location import MODEL_CACHE_MOUNT
from deployment_config.s3_names import COMPILE_CACHE_S3_PREFIX

if TYPE_CHECKING:
    from charts.serving_spec import VllmServingSpec

SCRIPT_FILE = Path(__file__).resolve().parent / "runtime" / "compile_cache.py"
CONFIG_MAP = "vllm-compile-cache"
MOUNT_PATH = "/opt/llm-serving/compile-cache"
RESTORE_CONTAINER = "restore-compile-cache"
SAVE_CONTAINER = "save-compile-cache"
#: The S3 prefix at the bucket's root; the pod's role may write nowhere else.
S3_PREFIX = COMPILE_CACHE_S3_PREFIX
#: The node directory holding one directory per key.
NODE_CACHE_ROOT = f"{MODEL_CACHE_MOUNT}/compile-cache"
#: vLLM's cache root (vLLM 0.33.0 vllm/envs.py ``VLLM_CACHE_ROOT``, default ``~/.cache/vllm``; the torch.compile cache
#: is ``torch_compile_cache`` below it).
CACHE_ROOT_VARIABLE = "VLLM_CACHE_ROOT"


@dataclass(frozen=True)
class CompileCacheSpec:
    """Where the compile cache of one serving configuration is kept, and its key (see the script's KEY_FIELDS)."""

    bucket: str
    region: str
    key: Mapping[str, str | int]

    @property
    def digest(self) -> str:
        return key_digest(dict(self.key))

    @property
    def node_directory(self) -> str:
        return f"{NODE_CACHE_ROOT}/{self.digest}"

    @property
    def object_uri(self) -> str:
        return f"s3://{self.bucket}/{S3_PREFIX}/{self.digest}/"


def serving_profile_digest(args: tuple[str, ...], environment: Mapping[str, str]) -> str:
    """The sha256 of vLLM's arguments and environment: any change of either (a flag, a quantization, a budget) is a
    new key. The arguments in their order (an option's value follows it); the environment by name."""
    document = json.dumps(
        {"args": list(args), "environment": dict(sorted(environment.items()))},
        sort_keys=True,
        separators=(",", ":"),
    )
    return hashlib.sha256(document.encode()).hexdigest()


def compile_cache_for(
    *,
    image: str,
    weights_s3_uri: str | None,
    revision: str | None,
    region: str,
    gpu_instance_type: str,
    tensor_parallel_size: int,
    pipeline_parallel_size: int,
    nodes: int,
    args: tuple[str, ...],
    environment: Mapping[str, str],
) -> CompileCacheSpec | None:
    """The compile cache of one serving configuration, or None where none is kept (see the module docstring)."""
    _, at, digest = image.partition("@")
    if not (weights_s3_uri and revision and at and digest.startswith("sha") and nodes == 1):
        return None
    bucket = weights_s3_uri.removeprefix("s3://").split("/", 1)[0]
    key = {
        # The digest alone: the same image through the ECR pull-through cache or from its registry is one image.
        "image_digest": digest,
        "model_revision": revision,
        "serving_profile_sha256": serving_profile_digest(args, environment),
        "gpu_instance_type": gpu_instance_type,
        "tensor_parallel_size": tensor_parallel_size,
        "pipeline_parallel_size": pipeline_parallel_size,
        "nodes": nodes,
    }
    return CompileCacheSpec(bucket=bucket, region=region, key=MappingProxyType(key))


def _script_args(spec: VllmServingSpec, action: str) -> list[str]:
    cache = spec.compile_cache
    return [
        f"{MOUNT_PATH}/{SCRIPT_FILE.name}",
        action,
        "--key",
        json.dumps(dict(cache.key), sort_keys=True),
        "--bucket",
        cache.bucket,
        "--prefix",
        S3_PREFIX,
        "--region",
        cache.region,
        "--cache-dir",
        cache.node_directory,
    ]


#: The kubelet reads a container's termination message from this file into its status (Kubernetes documentation,
#: "Determine the Reason for Pod Failure", https://kubernetes.io/docs/tasks/debug/debug-application/determine-reason-
#: pod-failure/: terminationMessagePath defaults to /dev/termination-log): llmops phases shows whether a cache was
#: restored (ops_cli/startup_phases.py) without reading the init container's log.
TERMINATION_LOG = "/dev/termination-log"


def restore_command(spec: VllmServingSpec) -> list[str]:
    return ["python3", *_script_args(spec, "restore"), "--termination-log", TERMINATION_LOG]


def save_command(spec: VllmServingSpec) -> list[str]:
    """The sidecar saves once vLLM answers /health (the compile happens before: vLLM's engine start, which /health
    waits for), then stays (``--stay``) until SIGTERM: a Deployment's containers are restarted when they exit
    (restartPolicy Always), and it must exit at once on SIGTERM, or every replacement of the pod would wait out the
    termination grace period. /health answers without the API key (charts/vllm_auth_middleware/runtime/llm_serving_auth.py
    OPEN_PATHS)."""
    return [
        "python3",
        *_script_args(spec, "save"),
        "--health-url",
        f"http://127.0.0.1:{spec.port}/health",
        "--health-timeout-s",
        str(spec.startup_budget_seconds),
        "--stay",
    ]


def add_compile_cache(
    scope: Construct, *, spec: VllmServingSpec, deployment: kplus.Deployment, vllm: kplus.Container
) -> kplus.ConfigMap:
    """The ConfigMap with the script, the restore init container (added last: after the weights are fetched and
    checked, so that a failed check does not spend a download), the save sidecar and vLLM's ``VLLM_CACHE_ROOT``."""
    from charts.vllm_deployment import container_security

    (model_cache,) = [volume for volume in deployment.volumes if volume.name == "model-cache"]
    config_map = kplus.ConfigMap(
        scope,
        "compile-cache",
        metadata=cdk8s.ApiObjectMetadata(name=CONFIG_MAP, namespace=spec.namespace),
        data={SCRIPT_FILE.name: SCRIPT_FILE.read_text(encoding="utf-8")},
    )
    script = kplus.Volume.from_config_map(
        scope, "compile-cache-volume", config_map, name="compile-cache-script"
    )
    mounts = [
        kplus.VolumeMount(path=MODEL_CACHE_MOUNT, volume=model_cache),
        kplus.VolumeMount(path=MOUNT_PATH, volume=script, read_only=True),
    ]
    small = kplus.ContainerResources(
        cpu=kplus.CpuResources(request=kplus.Cpu.units(1)),
        memory=kplus.MemoryResources(
            request=cdk8s.Size.gibibytes(1), limit=cdk8s.Size.gibibytes(2)
        ),
    )
    # The vLLM image: on the node for the main container anyway, and it has python3 and boto3.
    common = dict(
        image=spec.image,
        image_pull_policy=kplus.ImagePullPolicy.IF_NOT_PRESENT,
        security_context=container_security(),
        resources=small,
        volume_mounts=mounts,
    )
    deployment.add_init_container(name=RESTORE_CONTAINER, command=restore_command(spec), **common)
    deployment.add_container(name=SAVE_CONTAINER, command=save_command(spec), **common)
    vllm.env.add_variable(
        CACHE_ROOT_VARIABLE, kplus.EnvValue.from_value(spec.compile_cache.node_directory)
    )
    return config_map
