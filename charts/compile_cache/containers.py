"""The compile cache's containers in a vLLM Deployment (charts/compile_cache/__init__.py says what is kept, where and
when): the ConfigMap with the script, the restore init container, the save sidecar and vLLM's cache variables
(``VLLM_CACHE_ROOT`` and the kernel libraries' caches below it)."""

from __future__ import annotations

import json

import cdk8s
import cdk8s_plus_28 as kplus
from constructs import Construct

from charts.compile_cache import S3_PREFIX, SCRIPT_FILE, cache_environment
from charts.key_proxy import BACKEND_PORT, LOOPBACK
from charts.script_config_map import script_config_map
from charts.serving_spec import VllmServingSpec
from charts.vllm_deployment import container_security
from deployment_config.model_location import MODEL_CACHE_MOUNT

CONFIG_MAP = "vllm-compile-cache"
MOUNT_PATH = "/opt/llm-serving/compile-cache"
RESTORE_CONTAINER = "restore-compile-cache"
SAVE_CONTAINER = "save-compile-cache"


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
    termination grace period. It asks vLLM itself: on its loopback port behind the key check in front
    (charts/key_proxy.py), so that a key check restarting never holds the save back; else on the pod's port, where
    /health answers without the API key (charts/vllm_auth_middleware/runtime/llm_serving_auth.py OPEN_PATHS)."""
    port = BACKEND_PORT if spec.key_check_in_front else spec.port
    return [
        "python3",
        *_script_args(spec, "save"),
        "--health-url",
        f"http://{LOOPBACK}:{port}/health",
        "--health-timeout-s",
        str(spec.startup_budget_seconds),
        "--stay",
    ]


def add_compile_cache(
    scope: Construct, *, spec: VllmServingSpec, deployment: kplus.Deployment, vllm: kplus.Container
) -> kplus.ConfigMap:
    """The ConfigMap with the script, the restore init container (added last: after the weights are fetched and
    checked, so that a failed check does not spend a download), the save sidecar, and every cache variable of
    deployment_config/data/compile_cache_variables.json pointed under the key's directory in vLLM's environment: the save
    archives that directory with its subdirectories, so each library's cache is kept and restored with vLLM's."""
    (model_cache,) = [volume for volume in deployment.volumes if volume.name == "model-cache"]
    config_map, script = script_config_map(
        scope,
        "compile-cache",
        name=CONFIG_MAP,
        namespace=spec.namespace,
        files=(SCRIPT_FILE,),
        volume_name="compile-cache-script",
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
    for name, directory in cache_environment(spec.compile_cache.node_directory).items():
        vllm.env.add_variable(name, kplus.EnvValue.from_value(directory))
    return config_map
