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

The pods' containers that restore and save it are charts/compile_cache/containers.py's; this module is the spec the
serving spec holds (charts/serving_spec.py), below the charts that read it.

On the node the cache lives on the NVMe cache (``/models/compile-cache/SHA256``, one directory per key): a restart on
the same node finds it there and downloads nothing.

What it holds: every compile and JIT cache a start writes, not only vLLM's.
``deployment_config/data/compile_cache_variables.json`` lists each cache-directory variable the pinned vLLM and its
kernel libraries read (Triton, torch Inductor and extensions, FlashInfer, CuTe-DSL, DeepGEMM, TileLang, TVM-FFI, QuACK,
Numba, the CUDA driver's JIT cache), with the source file of each, and the subdirectory of the key's directory the vLLM
container points it at (:func:`cache_environment`); the variables it leaves as they are carry the reason.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from charts.compile_cache.runtime.compile_cache import key_digest
from deployment_config.compile_cache_variables import compile_cache_applies, kept_variables
from deployment_config.model_location import MODEL_CACHE_MOUNT
from deployment_config.s3_names import COMPILE_CACHE_S3_PREFIX

SCRIPT_FILE = Path(__file__).resolve().parent / "runtime" / "compile_cache.py"
#: The S3 prefix at the bucket's root; the pod's role may write nowhere else.
S3_PREFIX = COMPILE_CACHE_S3_PREFIX
#: The node directory holding one directory per key.
NODE_CACHE_ROOT = f"{MODEL_CACHE_MOUNT}/compile-cache"


def cache_environment(node_directory: str) -> dict[str, str]:
    """Each kept cache variable (deployment_config/data/compile_cache_variables.json) and its directory under
    ``node_directory``: the directory itself for ``VLLM_CACHE_ROOT`` (as before), a subdirectory of it for every
    other one."""
    return {
        variable: "/".join(part for part in (node_directory, subdirectory) if part)
        for variable, subdirectory in kept_variables().items()
    }


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
    if not compile_cache_applies(
        image=image, weights_s3_uri=weights_s3_uri, revision=revision, nodes=nodes
    ):
        return None
    digest = image.partition("@")[2]
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
