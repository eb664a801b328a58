"""The node's copy of S3 weights is checked against its manifest before vLLM starts (EKS path).

The pod's init containers run in order, each to success, before vLLM (Kubernetes documentation, "Init Containers":
"each init container must complete successfully before the next one starts"): ``fetch-weights`` (the AWS CLI image,
charts/vllm_deployment.py) syncs ``s3://BUCKET/PREFIX/REVISION/`` into the revision's own directory of the node's NVMe
cache, then ``verify-weights`` runs charts/vllm_weights_check/runtime/verify_weights.py against the ``MANIFEST.json``
the mirror wrote there. A missing, short, foreign or different file is named in a log line and removed, and the check
fetches it again itself from the same prefix (``--repair-from``, runtime/repair_weights.py: to a temporary name,
renamed into place only once its sha256 is the manifest's), then checks again: the kubelet restarts the failed init
container alone, not ``fetch-weights`` before it (Kubernetes documentation, "Init Containers"), so a node with a
damaged copy (a disk fault, a copy cut half-way) would otherwise stay down until someone deleted the pod. Only what one
repair cannot mend (the copy in S3 wrong, the manifest not the pinned one, a read denied) stops the pod, with a REFUSED
line naming the file and the fix; each restart repairs again, so a repair cut off continues. A copy that matches costs
no request to S3. The files are hashed once per copy: a restart whose marker (runtime/verify_weights.py ``--marker``:
the manifest's sha256, each file's size, inode and mtime) matches checks those alone; a repair hashes the copy once
more.

Why a second init container and not the fetching one: the AWS CLI v2 image carries the CLI as a frozen bundle
(aws/aws-cli docker/Dockerfile: ``aws/install`` of the awscli-exe zip onto ``amazonlinux:2``) and no python3; the vLLM
image has it (vllm-project/vllm docker/Dockerfile, stage vllm-base) and is on the node for the main container anyway.
The script and the module its repair imports travel in a ConfigMap, as the auth middleware does
(charts/vllm_auth_middleware/), and are these very files that the tests run.

With ``model.weight_load: runai_streamer`` (deployment_config/weight_load.py) nothing is copied: the one init container
``check-weights-s3`` runs runtime/check_s3_weights.py, which compares each object's size and CRC64NVME as S3 keeps them
(HEAD requests, no bytes read) with the manifest, and refuses an object the manifest does not list; then vLLM streams
the prefix itself.
"""

from __future__ import annotations

from pathlib import Path

import cdk8s
import cdk8s_plus_28 as kplus
from constructs import Construct

from charts.script_config_map import script_config_map
from charts.serving_spec import VllmServingSpec
from charts.vllm_deployment import container_security
from deployment_config.model import EnvironmentConfig
from deployment_config.model_location import (
    HYPERPOD_MODEL_MOUNT,
    MODEL_CACHE_MOUNT,
    node_speculator_path,
    node_weights_path,
    weights_s3_uri,
)
from deployment_config.startup_rates import HASH_JOBS

SCRIPT_FILE = Path(__file__).resolve().parent / "runtime" / "verify_weights.py"
#: What ``verify-weights`` imports to fetch again from S3 what its check removed or found missing (``--repair-from``).
REPAIR_SCRIPT_FILE = SCRIPT_FILE.with_name("repair_weights.py")
#: The Run:ai path's check of the objects in S3 (``model.weight_load: runai_streamer``): nothing is copied to hash.
S3_SCRIPT_FILE = SCRIPT_FILE.with_name("check_s3_weights.py")
CONFIG_MAP = "vllm-weights-check"
MOUNT_PATH = "/opt/llm-serving/weights-check"
INIT_CONTAINER = "verify-weights"
#: CPUs requested for hashing: the script hashes with as many processes as it may use CPUs (at most 32; see its
#: docstring for the cost). A pod's effective request is the larger of its largest init container's and the sum of its
#: containers' (Kubernetes documentation, "Init Containers", "Resource sharing within containers"), and vLLM requests
#: half the node's vCPUs, so this adds nothing to what the pod reserves.
HASH_CPUS = HASH_JOBS


def hashing_resources(cpus: int) -> kplus.ContainerResources:
    """What a container that hashes the weights asks for: ``cpus`` (one per hashing process) and 4 GiB of memory, 8
    at most; the serving pod's ``verify-weights`` and the pre-stage DaemonSet's containers use the same."""
    return kplus.ContainerResources(
        cpu=kplus.CpuResources(request=kplus.Cpu.units(cpus)),
        memory=kplus.MemoryResources(
            request=cdk8s.Size.gibibytes(4), limit=cdk8s.Size.gibibytes(8)
        ),
    )


#: The speculator's check (deployment_config/speculator.py), after the weights': the same script and manifest format.
SPECULATOR_INIT_CONTAINER = "verify-speculator"


def marker_path(path: str) -> str:
    """Where the check of the copy at ``path`` records a complete sha256 check: beside the copy on the node's disk
    (the hostPath model cache outlives the pod), outside it (the check refuses a file its manifest does not list)."""
    return f"{path}.verified.json"


def verify_command(
    path: str,
    revision: str,
    manifest_sha256: str | None = None,
    *,
    repair_from: str | None = None,
    region: str | None = None,
) -> list[str]:
    """The verifier on the node cache's copy at ``path`` of ``revision``, deleting what does not match, hashing the
    files only when the marker of an earlier complete check does not match them (runtime/verify_weights.py); with
    ``repair_from`` (the revision's ``s3://BUCKET/PREFIX/REVISION/`` in ``region``), fetching what it removed or
    found missing from there and checking again (runtime/repair_weights.py); with ``manifest_sha256``, only with the
    manifest of that digest."""
    script = f"{MOUNT_PATH}/{SCRIPT_FILE.name}"
    return [
        "python3",
        script,
        path,
        "--revision",
        revision,
        "--delete-mismatched",
        "--jobs",
        str(HASH_CPUS),
        "--marker",
        marker_path(path),
        *(["--repair-from", repair_from, "--region", region] if repair_from and region else []),
        *(["--manifest-sha256", manifest_sha256] if manifest_sha256 else []),
    ]


#: The streamed path's init container (``model.weight_load: runai_streamer``): the objects in S3 against the manifest.
S3_INIT_CONTAINER = "check-weights-s3"


def s3_check_command(spec: VllmServingSpec) -> list[str]:
    """runtime/check_s3_weights.py on the revision's prefix in S3, with the manifest pinned when the environment pins
    it."""
    return [
        "python3",
        f"{MOUNT_PATH}/{S3_SCRIPT_FILE.name}",
        spec.s3_uri,
        "--region",
        spec.region,
        "--revision",
        spec.weights_revision,
        *(
            ["--manifest-sha256", spec.weights_manifest_sha256]
            if spec.weights_manifest_sha256
            else []
        ),
    ]


def _add_s3_check(
    spec: VllmServingSpec, deployment: kplus.Deployment, script: kplus.Volume
) -> None:
    """The init container that runs runtime/check_s3_weights.py from ``script``: HEAD requests only, so one CPU and a
    little memory; nothing on the node's disk."""
    deployment.add_init_container(
        name=S3_INIT_CONTAINER,
        image=spec.image,
        # The vLLM image (python3 and boto3), pulled once for this and the main container.
        image_pull_policy=kplus.ImagePullPolicy.IF_NOT_PRESENT,
        command=s3_check_command(spec),
        security_context=container_security(),
        resources=kplus.ContainerResources(
            cpu=kplus.CpuResources(request=kplus.Cpu.units(1)),
            memory=kplus.MemoryResources(
                request=cdk8s.Size.gibibytes(1), limit=cdk8s.Size.gibibytes(2)
            ),
        ),
        volume_mounts=[kplus.VolumeMount(path=MOUNT_PATH, volume=script, read_only=True)],
    )


def add_weights_check(
    scope: Construct, *, spec: VllmServingSpec, deployment: kplus.Deployment
) -> kplus.ConfigMap:
    """Add the ConfigMap holding the verifier and the init container that runs it, after ``fetch-weights`` (which
    :func:`charts.vllm_deployment.add_vllm_deployment` added): init containers run in the order they are listed. With
    the weights streamed (``spec.weights_streamed``) there is no copy: the check of the objects in S3 instead."""
    config_map, script = script_config_map(
        scope,
        "weights-check",
        name=CONFIG_MAP,
        namespace=spec.namespace,
        files=(S3_SCRIPT_FILE,) if spec.weights_streamed else (SCRIPT_FILE, REPAIR_SCRIPT_FILE),
        volume_name="weights-check",
    )
    if spec.weights_streamed:
        _add_s3_check(spec, deployment, script)
        return config_map
    (model_cache,) = [volume for volume in deployment.volumes if volume.name == "model-cache"]
    revision = spec.weights_revision
    checks = [
        (
            INIT_CONTAINER,
            verify_command(
                node_weights_path(revision),
                revision,
                spec.weights_manifest_sha256,
                repair_from=spec.s3_uri,
                region=spec.region,
            ),
        )
    ]
    if spec.speculator_s3_uri:
        revision = spec.speculator_revision
        checks.append(
            (
                SPECULATOR_INIT_CONTAINER,
                verify_command(
                    node_speculator_path(revision),
                    revision,
                    repair_from=spec.speculator_s3_uri,
                    region=spec.region,
                ),
            )
        )
    for name, command in checks:
        deployment.add_init_container(
            name=name,
            image=spec.image,
            # The vLLM image, pulled once for this and the main container, never again on a restart.
            image_pull_policy=kplus.ImagePullPolicy.IF_NOT_PRESENT,
            command=command,
            security_context=container_security(),
            resources=hashing_resources(HASH_CPUS),
            # Read-write: the check removes the files it finds wrong.
            volume_mounts=[
                kplus.VolumeMount(path=MODEL_CACHE_MOUNT, volume=model_cache),
                kplus.VolumeMount(path=MOUNT_PATH, volume=script, read_only=True),
            ],
        )
    return config_map


def hyperpod_weights_check(env: EnvironmentConfig) -> tuple[str, ...] | None:
    """The verifier's arguments for the HyperPod worker's bootstrap (charts/vllm_auth_middleware/
    ``inline_middleware_worker(args, weights_check=...)``), or None when the weights do not come from S3.

    Sizes, presence, no stray file, the manifest's revision and (with ``model.weights_manifest_sha256``) the manifest's
    own sha256, not the files' sha256: the operator's model mount is not a copy on
    the node's disk. The operator requires the Mountpoint for S3 CSI driver (aws/sagemaker-hyperpod-cli@011ca92
    helm_chart/HyperPodHelmChart/charts/inference-operator/config/manager/manager.yaml, ``require_csidriver
    "s3.csi.aws.com"``), so hashing the mount would read the 1.4 TB from S3 a second time, before vLLM reads it for
    its load. The bytes in S3 were checked when they were mirrored (every LFS file's sha256 against the Hub's,
    ops_cli/weights.py), under a prefix no other revision writes to; the mount is read-only, so nothing is deleted."""
    if weights_s3_uri(env.model) is None:
        return None
    pinned = env.model.weights_manifest_sha256
    return (
        HYPERPOD_MODEL_MOUNT,
        "--revision",
        env.model.hugging_face_revision,
        "--sizes-only",
        *(("--manifest-sha256", pinned) if pinned else ()),
    )
