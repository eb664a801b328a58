"""The vLLM image pulled on every GPU node while the pod copies the weights: a DaemonSet beside the serving pods.

Why: the kubelet pulls an image when it starts the container that runs it (kubernetes/kubernetes@fbba6b4
pkg/kubelet/kuberuntime/kuberuntime_container.go ``startContainer``: "Step 1: pull the image", then create and start),
and init containers run one after another, each to success (Kubernetes documentation, "Init Containers"). In the vLLM
pod the first container of the vLLM image is ``verify-weights``, after ``fetch-weights`` (charts/vllm_deployment.py),
so the pod alone pulls the vLLM image only once the 1.4 TB copy has ended: the two add up. Putting a vLLM-image init
container first would not help: its pull, then the copy, would still run one after the other.

A second pod on the node has its own containers started at once: this DaemonSet's pod is scheduled when the node
joins, like the vLLM pod, and its container's pull runs while the vLLM pod's ``fetch-weights`` copies. Two pulls run
at the same time on the node only when the kubelet does not serialize them: upstream's default is
``serializeImagePulls: true``, but the EKS AL2023 AMI (the GPU node group's, cdk_constructs/capacity_block_node_group.py
``AL2023_X86_64_NVIDIA``) writes ``SerializeImagePulls: false`` into the kubelet's configuration
(awslabs/amazon-eks-ami@e48b98a nodeadm/internal/kubelet/config.go ``defaultKubeletSubConfig``), so the AWS CLI image of
``fetch-weights`` is not queued behind the 20+ GB pull. When ``verify-weights`` starts, the image is present (or its
pull is under way: containerd fetches each layer once), and the pod's own pull is "already present on machine".

The pattern is AWS's own ("Start Pods faster by prefetching images", AWS Containers blog,
https://aws.amazon.com/blogs/containers/start-pods-faster-by-prefetching-images/, names DaemonSets that keep a cached
copy of large images). Not chosen here: SOCI parallel pull (AWS Containers blog, "Introducing Seekable OCI Parallel
Pull mode for Amazon EKS", https://aws.amazon.com/blogs/containers/introducing-seekable-oci-parallel-pull-mode-for-amazon-eks)
makes the pull itself faster but is a change to the node's containerd snapshotter, in the node group's launch
template, not in this chart; it would shorten the pull, not let it overlap the copy, and both can be had. An EBS
snapshot of the image store (the same blog family) needs an image build per vLLM image.

The container runs ``sleep infinity`` in the vLLM image (Ubuntu: vllm-project/vllm docker/Dockerfile,
FINAL_BASE_IMAGE nvidia/cuda:...-ubuntu22.04, coreutils' /bin/sleep) rather than exiting: an image a running
container uses is never removed by the kubelet's image garbage collection (Kubernetes documentation, "Garbage
Collection", "Container image lifecycle": the kubelet deletes unused images), so a restart of the vLLM pod on this node
never pulls it again. It requests almost nothing (the vLLM pod requests half the node's CPUs and no more than its
memory share), no GPU, no volume, no service account token, no capability. On HyperPod the Inference Operator owns the
pod (charts/inference_endpoint_chart.py): nothing is added there.
"""

from __future__ import annotations

import cdk8s
import cdk8s_plus_28 as kplus
from constructs import Construct

from charts.serving_spec import VllmServingSpec
from charts.vllm_deployment import TAINT_EFFECTS
from deployment_config.kubernetes_names import (
    IMAGE_PREPULL_CONTAINER,
    IMAGE_PREPULL_NAME,
    IMAGE_PREPULL_POD_LABELS,
)


def add_image_prepull(scope: Construct, *, spec: VllmServingSpec) -> kplus.DaemonSet:
    """Add the DaemonSet that pulls ``spec.image`` on every node the vLLM pods may run on (the same node labels and
    taint toleration as theirs), and keeps it there."""
    daemon_set = kplus.DaemonSet(
        scope,
        "image-prepull",
        metadata=cdk8s.ApiObjectMetadata(name=IMAGE_PREPULL_NAME, namespace=spec.namespace),
        pod_metadata=cdk8s.ApiObjectMetadata(labels=dict(IMAGE_PREPULL_POD_LABELS)),
        automount_service_account_token=False,
        # Nothing to drain: the container holds the image, nothing else.
        termination_grace_period=cdk8s.Duration.seconds(5),
        security_context=kplus.PodSecurityContextProps(ensure_non_root=False),
    )
    on_gpu_nodes(daemon_set, spec)
    hold_with_sleep(daemon_set, name=IMAGE_PREPULL_CONTAINER, image=spec.image)
    return daemon_set


def on_gpu_nodes(daemon_set: kplus.DaemonSet, spec: VllmServingSpec) -> None:
    """Schedule the DaemonSet's pods on the GPU nodes the vLLM pods run on: their labels, and their taint tolerated."""
    for key, value in spec.node_labels.items():
        daemon_set.scheduling.attract(kplus.Node.labeled(kplus.NodeLabelQuery.is_(key, value)))
    taint_key, taint_value, taint_effect = spec.toleration
    daemon_set.scheduling.tolerate(
        kplus.Node.tainted(
            kplus.NodeTaintQuery.is_(taint_key, taint_value, effect=TAINT_EFFECTS[taint_effect])
        )
    )


def hold_with_sleep(daemon_set: kplus.DaemonSet, *, name: str, image: str) -> None:
    """The DaemonSet's one container: ``sleep infinity`` in ``image`` (the pod stays Ready, holding what its init steps
    or its pull left on the node), with the container runtime's default seccomp profile on the pod."""
    daemon_set.add_container(
        name=name,
        image=image,
        # The very reference the vLLM pod runs, pulled once a node; a mutable tag is flagged at synthesis as there.
        image_pull_policy=kplus.ImagePullPolicy.IF_NOT_PRESENT,
        command=["sleep", "infinity"],
        # As the vLLM pod's containers (charts/vllm_deployment.py container_security), and its root filesystem
        # read-only: sleep writes nothing.
        security_context=kplus.ContainerSecurityContextProps(
            ensure_non_root=False,
            read_only_root_filesystem=True,
            allow_privilege_escalation=False,
            privileged=False,
            capabilities=kplus.ContainerSecutiryContextCapabilities(drop=[kplus.Capability.ALL]),
        ),
        resources=kplus.ContainerResources(
            cpu=kplus.CpuResources(request=kplus.Cpu.millis(10), limit=kplus.Cpu.millis(100)),
            memory=kplus.MemoryResources(
                request=cdk8s.Size.mebibytes(16), limit=cdk8s.Size.mebibytes(64)
            ),
        ),
    )
    # The container runtime's default seccomp profile, as for the vLLM pod (charts/vllm_deployment.py).
    cdk8s.ApiObject.of(daemon_set).add_json_patch(
        cdk8s.JsonPatch.add(
            "/spec/template/spec/securityContext/seccompProfile", {"type": "RuntimeDefault"}
        )
    )
