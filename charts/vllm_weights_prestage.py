"""The next revision's weights staged on every GPU node while the serving one serves (``model.next_revision``): the
``weights-prestage`` DaemonSet, so that a rollout to that revision costs a load from the node's NVMe, not a 1.42 TB
copy and its hash.

Why a DaemonSet: one pod a GPU node, scheduled when the node joins, beside the serving pod, as the image pre-pull is
(charts/vllm_image_prepull.py); it runs the serving pod's own copy and check (the AWS CLI's ``aws s3 sync`` and
charts/vllm_weights_check/runtime/verify_weights.py), so a staged copy is one the serving pod would have made. Its
steps and the layout on the node are in charts/vllm_weights_check/runtime/prestage_weights.py: a staging directory
renamed into place once its every file's sha256 matched (what did not, fetched again from S3 first: the check's
repair), the marker renamed last; the serving pod's ``fetch-weights``
skips its copy when that marker is there (charts/vllm_deployment.py), and ``verify-weights`` then checks sizes, inodes
and mtimes against it. The pod is Ready once the revision is staged (its init containers done), which is what
``llmops rollout`` reads (ops_cli/rollout_staging.py).

Bandwidth: the copy runs beside a replica that serves, so it aims at :data:`STAGE_TARGET_GBPS`, 75 Gb/s, a quarter of
the 300 Gb/s card that S3 traffic goes through on p6-b300 (deployment_config/startup_rates.py ENA_BANDWIDTH), the goal
of the cold-start copy (charts/vllm_deployment.py S3_TRANSFER_SETTINGS): three quarters of the card stay the serving
replica's (its clients, the router's connections, the compile cache's writes). At that goal CRT opens 75 / 0.4 = about
190 connections (startup_rates.CRT_GBPS_PER_CONNECTION) and buffers within a lower memory limit than the cold start's
8 GiB, which CRT takes only above 75 Gb/s (awslabs/aws-c-s3 source/s3_client.c ``aws_s3_client_new``, as cited in
charts/vllm_deployment.py). 1.42 TB at 75 Gb/s (9.4 GB/s) is about 2.5 minutes, where the rollouts it serves come
hours or days apart. The hash runs :data:`STAGE_HASH_JOBS` processes, not the cold start's 32: vLLM's API server and
engine core run on the same CPUs; at 1.35 GB/s a core (startup_rates.SHA256_ONE_CORE_GB_PER_SECOND) that is about
10.8 GB/s, about 2.2 minutes for 1.42 TB.

Disk: the instance store holds both revisions (cross_section_rules/prestage.py refuses a model whose two copies do
not fit); the pod removes every other revision before it copies. The speculator is not staged: a rollout with
spec_decoding copies it (a few GB). On HyperPod the operator owns the pods: nothing is added there.
"""

from __future__ import annotations

import cdk8s
import cdk8s_plus_28 as kplus
from constructs import Construct

from charts.serving_spec import VllmServingSpec
from charts.vllm_deployment import S3_TRANSFER_SETTINGS, container_security
from charts.vllm_image_prepull import hold_with_sleep, on_gpu_nodes
from charts.vllm_weights_check import REPAIR_SCRIPT_FILE, SCRIPT_FILE, hashing_resources
from deployment_config.kubernetes_names import (
    STAGED_REVISION_LABEL,
    WEIGHTS_PRESTAGE_NAME,
    WEIGHTS_PRESTAGE_POD_LABELS,
)
from deployment_config.model_location import MODEL_CACHE_MOUNT, S3_WEIGHTS_PATH
from deployment_config.support_images import AWS_CLI_IMAGE

PRESTAGE_SCRIPT_FILE = SCRIPT_FILE.with_name("prestage_weights.py")
MOUNT_PATH = "/opt/llm-serving/weights-prestage"
#: The staging copy's goal (the module's docstring says why).
STAGE_TARGET_GBPS = 75
STAGE_HASH_JOBS = 8
#: The cold start's S3 settings with the lower goal.
STAGE_TRANSFER_SETTINGS = tuple(
    (key, f"{STAGE_TARGET_GBPS}Gb/s" if key == "target_bandwidth" else value)
    for key, value in S3_TRANSFER_SETTINGS
)
#: $1 the revision's prefix in S3, $2 its directory on the node, $3 the staging directory: no copy when $2 exists (the
#: revision staged, or a serving pod's own copy of it, never written by a second writer).
STAGE_COPY_SCRIPT = (
    'if [ -e "$2" ]; then echo "prestage-weights: $2 exists (staged, or a serving pod\'s own copy): nothing to copy" '
    ">&2; else "
    + " && ".join(
        [f"aws configure set default.s3.{key} {value}" for key, value in STAGE_TRANSFER_SETTINGS]
        + ['exec aws s3 sync --only-show-errors "$1" "$3"']
    )
    + "; fi"
)


def add_weights_prestage(
    scope: Construct, *, spec: VllmServingSpec, service_account: kplus.IServiceAccount
) -> kplus.DaemonSet:
    """Add the ConfigMap of the scripts and the DaemonSet that stages ``spec.next_revision`` on every node the vLLM
    pods may run on, with the serving pods' service account (its S3 read access, by EKS Pod Identity)."""
    scripts = kplus.ConfigMap(
        scope,
        "weights-prestage-scripts",
        metadata=cdk8s.ApiObjectMetadata(name=WEIGHTS_PRESTAGE_NAME, namespace=spec.namespace),
        data={
            f.name: f.read_text(encoding="utf-8")
            for f in (SCRIPT_FILE, REPAIR_SCRIPT_FILE, PRESTAGE_SCRIPT_FILE)
        },
    )
    script_volume = kplus.Volume.from_config_map(
        scope, "weights-prestage-volume", scripts, name="scripts"
    )
    model_cache = kplus.Volume.from_host_path(
        scope,
        "weights-prestage-cache",
        "model-cache",
        path=spec.model_cache_host_path,
        type=kplus.HostPathVolumeType.DIRECTORY_OR_CREATE,
    )
    daemon_set = kplus.DaemonSet(
        scope,
        "weights-prestage",
        metadata=cdk8s.ApiObjectMetadata(
            name=WEIGHTS_PRESTAGE_NAME,
            namespace=spec.namespace,
            labels={STAGED_REVISION_LABEL: spec.next_revision},
        ),
        pod_metadata=cdk8s.ApiObjectMetadata(labels=dict(WEIGHTS_PRESTAGE_POD_LABELS)),
        service_account=service_account,
        automount_service_account_token=False,
        termination_grace_period=cdk8s.Duration.seconds(5),
        security_context=kplus.PodSecurityContextProps(ensure_non_root=False),
        volumes=[model_cache, script_volume],
    )
    on_gpu_nodes(daemon_set, spec)
    cache = kplus.VolumeMount(path=MODEL_CACHE_MOUNT, volume=model_cache)
    script = f"{MOUNT_PATH}/{PRESTAGE_SCRIPT_FILE.name}"
    with_scripts = [cache, kplus.VolumeMount(path=MOUNT_PATH, volume=script_volume, read_only=True)]
    steps = (
        (
            "prune-revisions",
            spec.image,
            [
                "python3",
                script,
                "prune",
                S3_WEIGHTS_PATH,
                "--keep",
                spec.weights_revision,
                "--keep",
                spec.next_revision,
            ],
            1,
            with_scripts,
        ),
        (
            "stage-copy",
            AWS_CLI_IMAGE,
            [
                "/bin/sh",
                "-c",
                STAGE_COPY_SCRIPT,
                "stage-copy",
                spec.next_s3_uri,
                f"{S3_WEIGHTS_PATH}/{spec.next_revision}",
                f"{S3_WEIGHTS_PATH}/.staging-{spec.next_revision}",
            ],
            4,
            [cache],
        ),
        (
            "stage-verify",
            spec.image,
            [
                "python3",
                script,
                "promote",
                S3_WEIGHTS_PATH,
                spec.next_revision,
                "--jobs",
                str(STAGE_HASH_JOBS),
                "--repair-from",
                spec.next_s3_uri,
                "--region",
                spec.region,
            ],
            STAGE_HASH_JOBS,
            with_scripts,
        ),
    )
    for name, image, command, cpus, mounts in steps:
        daemon_set.add_init_container(
            name=name,
            image=image,
            image_pull_policy=kplus.ImagePullPolicy.IF_NOT_PRESENT,
            command=command,
            security_context=container_security(),
            resources=hashing_resources(cpus),
            volume_mounts=mounts,
        )
    # Ready once staged: the pod's containers start only after its init containers succeeded.
    hold_with_sleep(daemon_set, name="staged", image=spec.image)
    daemon_set.node.add_dependency(scripts)
    return daemon_set
