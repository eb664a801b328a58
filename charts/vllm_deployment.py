"""The vLLM Deployment: one replica holding all GPUs of one node."""

from __future__ import annotations

import math

import cdk8s
import cdk8s_plus_28 as kplus
from cdk8s_plus_28 import k8s
from constructs import Construct

from charts.key_proxy import liveness_command
from charts.serving_spec import VllmServingSpec
from charts.vllm_secret_provider import mount_secrets
from deployment_config.model_location import (
    MODEL_CACHE_MOUNT,
    node_speculator_path,
    node_weights_path,
)
from deployment_config.sections.endpoint import PRE_STOP_SECONDS
from deployment_config.startup_rates import CRT_TARGET
from deployment_config.support_images import AWS_CLI_IMAGE

STARTUP_PERIOD_SECONDS = 10
#: The AWS CLI's S3 transfer settings for the copy into the node cache (AWS CLI S3 configuration,
#: https://docs.aws.amazon.com/cli/latest/topic/s3-config.html; aws/aws-cli@016fe6b awscli/topics/s3-config.rst):
#: ``preferred_transfer_client = crt``: "a C-based S3 transfer client that can improve transfer throughput"; the default
#: ``auto`` picks it only on p4d, p4de, p5, trn1 and trn1n, so a p6-b300 would get the Python ``classic`` client.
#: CRT ignores ``max_concurrent_requests`` and ``multipart_threshold``; it sizes its parallel ranged GETs from
#: ``target_bandwidth``, which it otherwise derives from the system and, when it cannot, sets to 10 Gb/s. The goal is
#: the bandwidth of the card S3 traffic uses, p6-b300's card 0, 300 Gb/s (startup_rates.CRT_TARGET, from
#: startup_rates.ENA_BANDWIDTH: a goal CRT scales its connections to, 0.4 Gb/s each, not a measured figure); a goal
#: below the card would leave it idle. CRT buffers within a memory limit it derives from the goal (awslabs/aws-c-s3
#: source/s3_client.c ``aws_s3_client_new``: 8 GiB above 75 Gb/s; later versions up to 24 GiB at 200 Gb/s and more),
#: within the container's 32 GiB limit (below). CRT also fails a
#: request sent to another region than the bucket's ("Region redirects" in the same page): the pod's region is the
#: cluster's (a pod mutated for EKS Pod Identity carries AWS_REGION and AWS_DEFAULT_REGION, as shown in
#: awsgcr/aws-infra eks/project1/prod/gitops-prow/addon/aws-eks-pod-identity/README.md; not confirmed in AWS's own
#: documentation here), so the weights' bucket must be in the environment's region.
#: ``multipart_chunksize`` (not among the values the page says CRT ignores; default 8 MB) sets the size of each
#: ranged GET, and so the request rate that S3 sees: S3 serves "at least ... 5,500 GET/HEAD requests per second per
#: partitioned prefix" (S3 user guide, "Best practices design patterns: optimizing Amazon S3 performance",
#: https://docs.aws.amazon.com/AmazonS3/latest/userguide/optimizing-performance.html), and all files of a revision are
#: under one prefix (s3_uri/COMMIT/). At 300 Gb/s (37.5 GB/s) 8 MiB parts would be about 4,470 GET/s per node: two
#: replicas starting at once (each node copies its own 1.4 TB) would pass the prefix's documented rate. 64 MiB parts
#: are about 560 GET/s per node, so about 9 nodes copying at the card's full rate fit the documented floor of one
#: prefix (S3 scales a busy prefix beyond it; a larger fleet starting at once may see 503 Slow Down, which the CLI
#: retries), and the mirror's layout (about 120 files of one revision under one prefix) is not the limit.
#: CRT buffers parts in memory: the container's 32 GiB limit (below) holds hundreds of 64 MiB parts.
#: Why a copy to the node's NVMe by default and not vLLM's ``--load-format runai_streamer`` from S3: the copy stays on
#: the node, so a restart loads from the NVMe instead of reading 1.4 TB from S3 again, and every file's sha256 is
#: checked against the mirror's manifest before vLLM starts (charts/vllm_weights_check/). The stream is
#: ``model.weight_load: runai_streamer`` (deployment_config/weight_load.py): no copy, and the check before vLLM is of
#: each object's size and CRC64NVME as S3 keeps them (not cryptographic: docs/weights.md, "Streaming into the GPUs").
S3_TRANSFER_SETTINGS = (
    ("preferred_transfer_client", "crt"),
    # the goal the start-up plan counts on (deployment_config/startup_rates.py CRT_TARGET): 300Gb/s
    ("target_bandwidth", f"{CRT_TARGET.gb_per_second * 8:g}Gb/s"),
    ("multipart_chunksize", "64MB"),
)
#: Writes the settings into the container's AWS config file, then syncs; the source and target are positional arguments
#: ($1, $2), never spliced into the script. The AWS CLI image is Amazon Linux 2 (aws/aws-cli docker/Dockerfile), which
#: has /bin/sh. No copy when the revision's marker is there (charts/vllm_weights_check/ ``marker_path``, written only
#: after a complete sha256 check): the copy was staged by the ``weights-prestage`` DaemonSet
#: (charts/vllm_weights_prestage.py) or made by an earlier pod on this node, and ``verify-weights`` checks it next
#: (sizes, no stray file, the marker's inodes and mtimes; a mismatch removes the marker and the check fetches what is
#: wrong or missing again itself: ``--repair-from``, charts/vllm_weights_check/runtime/repair_weights.py).
CONFIGURE_SCRIPT = [
    f"aws configure set default.s3.{key} {value}" for key, value in S3_TRANSFER_SETTINGS
]
SYNC_UNLESS_VERIFIED = (
    'if [ -e "$2.verified.json" ]; then echo "fetch-weights: $2 was verified before (staged, or an earlier copy): '
    'no copy" >&2; else aws s3 sync --only-show-errors "$1" "$2"; fi'
)
FETCH_SCRIPT = " && ".join(CONFIGURE_SCRIPT + [SYNC_UNLESS_VERIFIED])
#: The same with the ``spec_decoding`` speculator's mirror ($3) copied into its own directory of the cache ($4) after the
#: weights (deployment_config/speculator.py): one container, so the pod's copy phase is one step as before.
FETCH_WITH_SPECULATOR_SCRIPT = " && ".join(
    CONFIGURE_SCRIPT + [SYNC_UNLESS_VERIFIED, 'exec aws s3 sync --only-show-errors "$3" "$4"']
)
TAINT_EFFECTS = {
    "NoSchedule": kplus.TaintEffect.NO_SCHEDULE,
    "NoExecute": kplus.TaintEffect.NO_EXECUTE,
}


def add_vllm_deployment(
    scope: Construct,
    *,
    spec: VllmServingSpec,
    namespace: str,
    service_account: kplus.IServiceAccount,
) -> kplus.Deployment:
    """Add the vLLM Deployment to ``scope`` and return it. With S3 weights, the chart adds their check after
    ``fetch-weights`` (charts/vllm_weights_check/)."""
    model_cache = kplus.Volume.from_host_path(
        scope,
        "model-cache",
        "model-cache",
        path=spec.model_cache_host_path,
        type=kplus.HostPathVolumeType.DIRECTORY_OR_CREATE,
    )
    # NCCL and vLLM's worker processes exchange tensors through /dev/shm; the container default of 64 MiB is far too small.
    shm = kplus.Volume.from_empty_dir(
        scope,
        "dshm",
        "dshm",
        medium=kplus.EmptyDirMedium.MEMORY,
        size_limit=cdk8s.Size.gibibytes(spec.shm_size_gib),
    )
    health = dict(port=spec.port, scheme=kplus.ConnectionScheme.HTTP)
    deployment = kplus.Deployment(
        scope,
        "deployment",
        metadata=cdk8s.ApiObjectMetadata(
            name=spec.name, namespace=namespace, labels={"app.kubernetes.io/name": spec.name}
        ),
        # One replica per GPU node of the reservation (endpoint.replicas, default all of them), and as many waiting for
        # the next block's nodes when one is configured (VllmServingSpec.standby_replicas).
        replicas=spec.replicas + spec.standby_replicas,
        # Replaced one at a time (deployment_config/rollout.py): onto a free node of the reservation first when it has
        # one (maxSurge 1, maxUnavailable 0: the new replica is ready before an old one stops); else an old one stops
        # first (maxSurge 0: a new replica needs a whole node's GPUs), and with one replica the endpoint is down during
        # a replacement. The standby replicas are Pending, hence unavailable, outside a handover: counted in
        # maxUnavailable, or the Deployment controller (which keeps replicas - maxUnavailable available) would stop a
        # rollout until the next block's nodes join.
        strategy=kplus.DeploymentStrategy.rolling_update(
            max_surge=kplus.PercentOrAbsolute.absolute(spec.max_surge),
            max_unavailable=kplus.PercentOrAbsolute.absolute(spec.max_unavailable),
        ),
        # A fresh node downloads 1.4 TB before the pod is ready: the rollout deadline must outlast the startup budget.
        progress_deadline=cdk8s.Duration.seconds(spec.startup_budget_seconds + 600),
        service_account=service_account,
        automount_service_account_token=False,
        # The pre-stop pause, vLLM's drain of the running requests, and time to exit (VllmServingSpec).
        termination_grace_period=cdk8s.Duration.seconds(spec.termination_grace_seconds),
        security_context=kplus.PodSecurityContextProps(ensure_non_root=False),
        volumes=[model_cache, shm],
    )
    for key, value in spec.node_labels.items():
        deployment.scheduling.attract(kplus.Node.labeled(kplus.NodeLabelQuery.is_(key, value)))
    # One replica per node, whatever GPUs a replica requests: two on one node would share its NVMe cache, its network
    # and its fate (a node repair takes both).
    deployment.scheduling.separate(deployment, topology=kplus.Topology.HOSTNAME)
    taint_key, taint_value, taint_effect = spec.toleration
    deployment.scheduling.tolerate(
        kplus.Node.tainted(
            kplus.NodeTaintQuery.is_(taint_key, taint_value, effect=TAINT_EFFECTS[taint_effect])
        )
    )

    security = container_security()
    if spec.s3_uri and not spec.weights_streamed:
        # The revision's own directory of the cache: a previous revision's files, in their own directory, never mix
        # with this one's; the check after the copy refuses any file its manifest does not list.
        deployment.add_init_container(
            name="fetch-weights",
            image=AWS_CLI_IMAGE,
            image_pull_policy=kplus.ImagePullPolicy.IF_NOT_PRESENT,
            command=[
                "/bin/sh",
                "-c",
                FETCH_SCRIPT,
                "fetch-weights",
                spec.s3_uri,
                node_weights_path(spec.weights_revision),
            ]
            if not spec.speculator_s3_uri
            else [
                "/bin/sh",
                "-c",
                FETCH_WITH_SPECULATOR_SCRIPT,
                "fetch-weights",
                spec.s3_uri,
                node_weights_path(spec.weights_revision),
                spec.speculator_s3_uri,
                node_speculator_path(spec.speculator_revision),
            ],
            security_context=security,
            resources=kplus.ContainerResources(
                cpu=kplus.CpuResources(request=kplus.Cpu.units(8)),
                memory=kplus.MemoryResources(
                    request=cdk8s.Size.gibibytes(16), limit=cdk8s.Size.gibibytes(32)
                ),
            ),
            volume_mounts=[kplus.VolumeMount(path=MODEL_CACHE_MOUNT, volume=model_cache)],
        )

    failure_threshold = math.ceil(spec.startup_budget_seconds / STARTUP_PERIOD_SECONDS)
    vllm = deployment.add_container(
        name="vllm",
        image=spec.image,
        # Never pull a 20+ GB image again on a restart; a mutable tag is flagged at synthesis (spec.image_pinned).
        image_pull_policy=kplus.ImagePullPolicy.IF_NOT_PRESENT,
        args=list(spec.args),
        env_variables={k: kplus.EnvValue.from_value(v) for k, v in spec.environment.items()},
        # Behind the key check vLLM listens on the loopback and Caddy declares the pod's API port (charts/key_proxy.py).
        ports=[]
        if spec.key_check_in_front
        else [kplus.ContainerPort(number=spec.port, name="http", protocol=kplus.Protocol.TCP)],
        security_context=container_security(lock_memory=spec.efa_devices > 0),
        resources=kplus.ContainerResources(
            cpu=kplus.CpuResources(request=kplus.Cpu.units(spec.cpu_request)),
            memory=kplus.MemoryResources(
                request=cdk8s.Size.gibibytes(spec.memory_request_gib),
                limit=cdk8s.Size.gibibytes(spec.memory_limit_gib),
            ),
        ),
        startup=kplus.Probe.from_http_get(
            "/health",
            **health,
            period_seconds=cdk8s.Duration.seconds(STARTUP_PERIOD_SECONDS),
            failure_threshold=failure_threshold,
            timeout_seconds=cdk8s.Duration.seconds(5),
        ),
        readiness=kplus.Probe.from_http_get(
            "/health",
            **health,
            period_seconds=cdk8s.Duration.seconds(10),
            failure_threshold=3,
            timeout_seconds=cdk8s.Duration.seconds(5),
        ),
        # Startup and readiness through the key check's keyless /health, which is what clients go through; liveness
        # on vLLM's loopback from inside its container behind the key check, so that a Caddy restart never restarts
        # vLLM (charts/key_proxy.py says why).
        liveness=kplus.Probe.from_command(
            liveness_command(),
            period_seconds=cdk8s.Duration.seconds(30),
            failure_threshold=5,
            timeout_seconds=cdk8s.Duration.seconds(10),
        )
        if spec.key_check_in_front
        else kplus.Probe.from_http_get(
            "/health",
            **health,
            period_seconds=cdk8s.Duration.seconds(30),
            failure_threshold=5,
            timeout_seconds=cdk8s.Duration.seconds(10),
        ),
        volume_mounts=[
            kplus.VolumeMount(path=MODEL_CACHE_MOUNT, volume=model_cache),
            kplus.VolumeMount(path="/dev/shm", volume=shm),
        ],
    )
    if spec.secrets:
        # API key and Hugging Face token from Secrets Manager: a CSI volume, env vars from the Secret it syncs.
        mount_secrets(scope, deployment=deployment, container=vllm, secrets=spec.secrets)
    # cdk8s-plus-28 models cpu, memory and ephemeral storage only; GPUs and EFA devices go in through the escape hatch.
    extended = {"nvidia.com/gpu": spec.gpus}
    if spec.efa_devices:
        extended["vpc.amazonaws.com/efa"] = spec.efa_devices
    api_object = cdk8s.ApiObject.of(deployment)
    for resource, count in extended.items():
        pointer = resource.replace("~", "~0").replace("/", "~1")
        for kind in ("requests", "limits"):
            api_object.add_json_patch(
                # The generated L1 object renders resource values through Quantity: a bare number would come out null.
                cdk8s.JsonPatch.add(
                    f"/spec/template/spec/containers/0/resources/{kind}/{pointer}",
                    k8s.Quantity.from_number(count),
                )
            )
    # No service links: with them Kubernetes gives the pod VLLM_PORT=tcp://<ip>:8000 for the Service named vllm, and vLLM
    # reads VLLM_PORT as the first of its own internal ports (vLLM 0.33.0 vllm/envs.py; vllm/utils/network_utils.py
    # get_vllm_port raises on a URI-shaped value). cdk8s-plus-28 has no prop for it.
    api_object.add_json_patch(cdk8s.JsonPatch.add("/spec/template/spec/enableServiceLinks", False))
    # A pause before SIGTERM while the pod leaves the Service's endpoints (PRE_STOP_SECONDS,
    # deployment_config/sections/endpoint.py). An exec of the image's sleep: the vLLM image is Ubuntu
    # (vllm-project/vllm docker/Dockerfile, FINAL_BASE_IMAGE nvidia/cuda:...-ubuntu22.04, whose coreutils has
    # /bin/sleep). The kubelet's own sleep action (LifecycleHandler.sleep,
    # Kubernetes 1.29+) cannot be written here: the Deployment renders through cdk8s-plus-28's Kubernetes 1.28 types,
    # which drop the field even from a JSON patch.
    api_object.add_json_patch(
        cdk8s.JsonPatch.add(
            "/spec/template/spec/containers/0/lifecycle",
            {"preStop": {"exec": {"command": ["sleep", str(PRE_STOP_SECONDS)]}}},
        )
    )
    # The container runtime's default seccomp profile for every container of the pod (the kubelet runs them Unconfined
    # unless its seccompDefault is on); cdk8s-plus-28's pod security context has no prop for it.
    api_object.add_json_patch(
        cdk8s.JsonPatch.add(
            "/spec/template/spec/securityContext/seccompProfile", {"type": "RuntimeDefault"}
        )
    )
    return deployment


def container_security(*, lock_memory: bool = False) -> kplus.ContainerSecurityContextProps:
    """The security context of every container of the vLLM pod, init containers included; with ``lock_memory`` (the
    vLLM container of a pod given EFA devices) the one capability ``IPC_LOCK`` back.

    EFA registers the memory it sends from with the NIC, which pins it: libfabric's EFA provider then fails with
    "Libfabric error: (-12) Cannot allocate memory" under a low locked-memory limit (awslabs/awsome-distributed-ai#647:
    at ``ulimit -l`` 65536; set it unlimited). A pod cannot raise its own limit (Kubernetes has no ulimit field), but the
    kernel lets a process with CAP_IPC_LOCK pin beyond it (Linux drivers/infiniband/core/umem.c, ``ib_umem_get``:
    ``new_pinned > lock_limit && !capable(CAP_IPC_LOCK)`` is the only refusal). llm-d's AWS EFA overlay adds exactly
    this capability to its vLLM containers (llm-d/llm-d@3ee3dd7a
    guides/pd-disaggregation/modelserver/gpu/vllm/aws/patch-decode.yaml). The container runs as root (below), so the
    capability is effective, not only permitted."""
    # No capability at all, no privilege escalation, and (below) the runtime's default seccomp profile. GPUs need none
    # of them: the NVIDIA container runtime injects the devices the device plugin allocates before the container starts
    # (NVIDIA/k8s-device-plugin README, DEVICE_LIST_STRATEGY "envvar"); NVIDIA's NIM LLM Helm chart, whose engines
    # include vLLM with tensor-parallel profiles, targets OpenShift's restricted-v2 SCC, which drops ALL capabilities,
    # forbids escalation and requires runtime/default seccomp (docs.nvidia.com/nim/large-language-models, "Troubleshooting
    # OpenShift SCC Admission Failures"; openshift/cluster-kube-apiserver-operator scc-restricted-v2.yaml). What the
    # profile takes away without CAP_SYS_PTRACE / CAP_SYS_NICE: pidfd_getfd, which PyTorch's CUDA IPC needs under
    # PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (pytorch/pytorch#165685), and get_mempolicy/mbind/set_mempolicy,
    # which vLLM's opt-in --numa-bind uses and falls back from (containerd/containerd#4730, #7167; vLLM 0.33.0
    # vllm/utils/numa_utils.py). Neither is in this deployment's arguments or environment.
    return kplus.ContainerSecurityContextProps(
        # The image runs as root: its Dockerfile's vllm-openai target sets no USER; and the node cache is a root-owned
        # hostPath, which fsGroup does not reach.
        ensure_non_root=False,
        # vLLM writes its compile caches under the home directory (vLLM 0.33.0 vllm/envs.py: VLLM_CACHE_ROOT defaults
        # to ~/.cache/vllm, torch_compile_cache below it) and its IPC sockets in the temp directory
        # (VLLM_RPC_BASE_PATH = tempfile.gettempdir()).
        read_only_root_filesystem=False,
        allow_privilege_escalation=False,
        privileged=False,
        capabilities=kplus.ContainerSecutiryContextCapabilities(
            drop=[kplus.Capability.ALL],
            add=[kplus.Capability.IPC_LOCK] if lock_memory else None,
        ),
    )
