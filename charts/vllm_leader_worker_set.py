"""A model instance over several GPU nodes: a LeaderWorkerSet whose groups run vLLM's multi-node mode.

When the sizing check finds that the model fits no single node (deployment_config.sizing.layout_for), each replica is a
group of ``spec.nodes`` pods, one per node: the leader runs ``vllm serve`` with the API server and node rank 0, the
workers run ``vllm serve --headless`` with their rank (:attr:`charts.serving_spec.VllmServingSpec.leader_args` and
``worker_args``). The LeaderWorkerSet API (leaderworkerset.x-k8s.io/v1, kubernetes-sigs/lws v0.10.0, commit 2161f38;
its CRD is vendored for the tests under tests/data/lws/) creates the group's pods together, gives every container
``LWS_LEADER_ADDRESS`` (the leader pod's DNS name) and ``LWS_WORKER_INDEX``, and with ``RecreateGroupOnPodRestart``
recreates the whole group when one of its pods restarts: a vLLM instance whose peer died cannot recover on its own.

Why vLLM's own multi-node mode and not Ray (the LWS project's vLLM example, docs/examples/vllm/GPU/lws.yaml, starts a
Ray cluster with examples/online_serving/multi-node-serving.sh): vLLM 0.33.0 selects its multiprocessing backend for
``--nnodes`` > 1 on CUDA (vllm/config/parallel.py ``ParallelConfig.__post_init__``), so a group needs no Ray head, no
Ray worker start-up ordering, no extra ports and no script from the image; each pod runs one ``vllm serve`` the
project's argument rules (deployment_config/vllm_args/) can read.

The pod template is the single-node Deployment's, built by the same code (charts/vllm_deployment.py: node selection,
toleration, NVMe cache, /dev/shm, security context, secrets, auth middleware, pre-stop pause) and then lifted into the
leader and worker templates; the Deployment itself is not emitted.
"""

from __future__ import annotations

import copy

import cdk8s
import cdk8s_plus_28 as kplus
from constructs import Construct

from charts.recommended_labels import NETWORK_POLICY, recommended_labels
from charts.secrets_sync import add_plain_object
from charts.serving_spec import VllmServingSpec
from charts.vllm_network_policy import ingress_sources
from charts.vllm_service import add_load_balancer_service

#: Labels the LWS controller puts on every pod of a set (v0.10.0 api/leaderworkerset/v1/leaderworkerset_types.go:
#: SetNameLabelKey, WorkerIndexLabelKey; the leader is worker 0).
SET_NAME_LABEL = "leaderworkerset.sigs.k8s.io/name"
WORKER_INDEX_LABEL = "leaderworkerset.sigs.k8s.io/worker-index"
#: The project's own label telling the leader (the API server) from the workers; the Service selects the leader.
ROLE_LABEL = "llm-serving/role"
#: cdk8s's address label on the Deployment's pod template, which means nothing outside that Deployment.
_CDK8S_ADDRESS_LABEL = "cdk8s.io/metadata.addr"


def _pod_template(
    template: dict, *, spec: VllmServingSpec, role: str, args: tuple[str, ...]
) -> tuple[dict, dict]:
    """The labels and the pod spec of the leader's or the workers' template, from the Deployment's pod template."""
    template = copy.deepcopy(template)
    labels = {
        k: v
        for k, v in template.get("metadata", {}).get("labels", {}).items()
        if k != _CDK8S_ADDRESS_LABEL
    }
    pod = template["spec"]
    # One pod per node among all the set's pods (they take all of a node's GPUs anyway; the rule says so explicitly).
    for rule in (
        pod.get("affinity", {})
        .get("podAntiAffinity", {})
        .get("requiredDuringSchedulingIgnoredDuringExecution", [])
    ):
        rule["labelSelector"] = {"matchLabels": {SET_NAME_LABEL: spec.name}}
    (vllm,) = [c for c in pod["containers"] if c["name"] == "vllm"]
    vllm["args"] = list(args)
    if role == "worker":
        # A headless worker starts no API server: nothing answers /health or listens on the API port. Its liveness is
        # the group's: if its process exits, the pod restarts and the LWS recreates the whole group.
        for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
            vllm.pop(probe, None)
        vllm.pop("ports", None)
    return {**labels, **recommended_labels(spec), ROLE_LABEL: role}, pod


def replace_deployment_with_leader_worker_set(
    chart: Construct, *, spec: VllmServingSpec, deployment: kplus.Deployment
) -> cdk8s.ApiObject:
    """Render ``deployment``'s pod template, take the Deployment out of ``chart`` and add the LeaderWorkerSet.

    The set's own fields are written through typed bindings that ``cdk8s import`` generated from the vendored CRD
    (charts/imports/leaderworkerset, SOURCE.json): a field the CRD lacks, a missing required one or a value outside
    one of its enums fails here. The two pod specs are cdk8s-plus's rendering of the Deployment's (typed there), added
    to the rendered set as they are. They cannot go through the generated classes: the generated ``toJson`` maps its
    input field by field through the CRD's own types and silently drops what is not one of them (a probe's
    ``port: 8000`` where it expects an IntOrString object, every resource quantity, ``setHostnameAsFQDN``): a typed
    ``LeaderWorkerSet`` object with the pod specs patched in rendered pods without GPUs.
    """
    # Imported only here: 4 MB of generated Python and an 0.8 MB jsii assembly that only a multi-node model needs.
    from charts.imports import leaderworkerset as lws

    rendered = cdk8s.ApiObject.of(deployment).to_json()
    chart.node.try_remove_child(deployment.node.id)
    pod_template = rendered["spec"]["template"]
    leader_labels, leader_pod = _pod_template(
        pod_template, spec=spec, role="leader", args=spec.leader_args
    )
    worker_labels, worker_pod = _pod_template(
        pod_template, spec=spec, role="worker", args=spec.worker_args
    )
    rolling_update = lws.LeaderWorkerSetSpecRolloutStrategyRollingUpdateConfiguration
    typed = lws.LeaderWorkerSet.manifest(
        spec=lws.LeaderWorkerSetSpec(
            # Model instances: each a group of spec.nodes pods.
            # Groups on this block's nodes, and as many waiting for the next block's (VllmServingSpec.standby_replicas).
            replicas=spec.replicas + spec.standby_replicas,
            # Groups are replaced one at a time, as the Deployment's replicas (deployment_config/rollout.py): onto a free
            # slot of the reservation first when it has one (maxSurge 1, maxUnavailable 0), else an old group stops
            # first (maxSurge 0). The standby groups are Pending, so unavailable: counted in maxUnavailable, or a
            # rollout would wait for the next block.
            rollout_strategy=lws.LeaderWorkerSetSpecRolloutStrategy(
                type=lws.LeaderWorkerSetSpecRolloutStrategyType.ROLLING_UPDATE,
                rolling_update_configuration=rolling_update(
                    max_unavailable=lws.LeaderWorkerSetSpecRolloutStrategyRollingUpdateConfigurationMaxUnavailable.from_number(
                        spec.max_unavailable
                    ),
                    max_surge=lws.LeaderWorkerSetSpecRolloutStrategyRollingUpdateConfigurationMaxSurge.from_number(
                        spec.max_surge
                    ),
                ),
            ),
            # Workers are created with the leader, so that all of a group downloads and loads its weights at once;
            # vLLM's workers wait for the leader's store (LeaderCreated, the CRD's default, written out).
            startup_policy=lws.LeaderWorkerSetSpecStartupPolicy.LEADER_CREATED,
            leader_worker_template=lws.LeaderWorkerSetSpecLeaderWorkerTemplate(
                size=spec.nodes,
                restart_policy=lws.LeaderWorkerSetSpecLeaderWorkerTemplateRestartPolicy.RECREATE_GROUP_ON_POD_RESTART,
                leader_template=lws.LeaderWorkerSetSpecLeaderWorkerTemplateLeaderTemplate(
                    metadata=lws.LeaderWorkerSetSpecLeaderWorkerTemplateLeaderTemplateMetadata(
                        labels=leader_labels
                    )
                ),
                worker_template=lws.LeaderWorkerSetSpecLeaderWorkerTemplateWorkerTemplate(
                    metadata=lws.LeaderWorkerSetSpecLeaderWorkerTemplateWorkerTemplateMetadata(
                        labels=worker_labels
                    )
                ),
            ),
        ),
    )
    leader_worker_set = cdk8s.ApiObject(
        chart,
        "leader-worker-set",
        api_version=lws.LeaderWorkerSet.GVK.api_version,
        kind=lws.LeaderWorkerSet.GVK.kind,
        metadata=cdk8s.ApiObjectMetadata(
            name=spec.name, namespace=spec.namespace, labels={"app.kubernetes.io/name": spec.name}
        ),
    )
    # ApiObject takes apiVersion, kind and metadata only; a custom resource's body goes in as a patch.
    leader_worker_set.add_json_patch(cdk8s.JsonPatch.add("/spec", typed["spec"]))
    template_path = "/spec/leaderWorkerTemplate/{}/spec"
    leader_worker_set.add_json_patch(
        cdk8s.JsonPatch.add(template_path.format("leaderTemplate"), leader_pod)
    )
    leader_worker_set.add_json_patch(
        cdk8s.JsonPatch.add(template_path.format("workerTemplate"), worker_pod)
    )
    return leader_worker_set


def add_leader_service(scope: Construct, *, spec: VllmServingSpec) -> kplus.Service:
    """The LoadBalancer Service of charts/vllm_service.py, selecting the groups' leaders only (the API servers)."""
    service = add_load_balancer_service(scope, spec=spec, namespace=spec.namespace)
    service.select_label(SET_NAME_LABEL, spec.name)
    service.select_label(ROLE_LABEL, "leader")
    return service


def add_group_network_policy(scope: Construct, *, spec: VllmServingSpec) -> cdk8s.ApiObject:
    """The API port from the VPC (and a public endpoint's CIDRs), as charts/vllm_network_policy.py; and every port
    between the set's own pods: torch.distributed's store on the leader (``--master-port``, 29501), NCCL's bootstrap
    and socket connections on ports it picks. EFA traffic itself is not IP and is not subject to the policy."""
    selector = {"matchLabels": {SET_NAME_LABEL: spec.name}}
    return add_plain_object(
        scope,
        "network-policy",
        {
            "apiVersion": "networking.k8s.io/v1",
            "kind": "NetworkPolicy",
            "metadata": {
                "name": spec.name,
                "namespace": spec.namespace,
                "labels": recommended_labels(spec, NETWORK_POLICY),
            },
            "spec": {
                "podSelector": selector,
                "policyTypes": ["Ingress"],
                "ingress": [
                    {
                        "from": [{"ipBlock": {"cidr": cidr}} for cidr in ingress_sources(spec)],
                        "ports": [{"port": spec.port, "protocol": "TCP"}],
                    },
                    {"from": [{"podSelector": selector}]},
                ],
            },
        },
    )
