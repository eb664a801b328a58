"""The vLLM serving chart: the fields a user relies on, and strict schema validation of every object."""

from __future__ import annotations

import dataclasses
import json
import re

import kubernetes_validate
import pytest
import yaml

from charts.image_reference import image_is_pinned, image_version_label
from charts.key_proxy import CONTAINER as KEY_PROXY
from charts.key_proxy import liveness_command
from charts.serving_spec import key_proxy_backend_args, serving_spec_for
from charts.vllm_serving_chart import synthesize_manifests
from deployment_config.model import Exposure, WeightSource
from deployment_config.sizing import startup_budget

ANNOUNCED_ARGS = (
    "--model moonshotai/Kimi-K3 --trust-remote-code --load-format fastsafetensors --enable-prefix-caching "
    "--enable-auto-tool-choice --tool-call-parser kimi_k3 --reasoning-parser kimi_k3 --served-model-name Kimi-K3 "
    "--moe-backend auto --tensor-parallel-size 8 --no-enable-flashinfer-autotune"
).split()
#: The default (model.serving_profile: recipe) on a p6-b300: the recipe's Blackwell single-node profile
#: (deployment_config/data/recipes/moonshotai/Kimi-K3.yaml, base_args and hardware_overrides.blackwell), its default-on
#: tool and reasoning parsers, and the announced load format.
RECIPE_ARGS = (
    "--model moonshotai/Kimi-K3 --served-model-name Kimi-K3 --tensor-parallel-size 8 --trust-remote-code "
    "--gpu-memory-utilization 0.95 --no-enable-flashinfer-autotune --max-model-len 1048576 --kv-cache-dtype fp8 "
    '--attention-config {"use_prefill_query_quantization":true,"mla_prefill_backend":"flashinfer"} '
    "--enable-prefix-caching --enable-auto-tool-choice --tool-call-parser kimi_k3 --reasoning-parser kimi_k3 "
    "--load-format fastsafetensors"
).split()


def _options(args: list[str]) -> dict[str, str | None]:
    """vLLM arguments as {flag: value or None}, so that order does not matter but every value does."""
    options: dict[str, str | None] = {}
    i = 0
    while i < len(args):
        flag = args[i]
        if i + 1 < len(args) and not args[i + 1].startswith("--"):
            options[flag] = args[i + 1]
            i += 2
        else:
            options[flag] = None
            i += 1
    return options


def _by_kind(manifests: list[dict]) -> dict[str, dict]:
    return {m["kind"]: m for m in manifests}


def _plain_env(container: dict) -> dict[str, str]:
    """The container's literal environment variables (secrets come by reference and are left out)."""
    return {e["name"]: e["value"] for e in container["env"] if "value" in e}


DIGEST = "sha256:" + "0123456789abcdef" * 4
PUBLIC_CIDRS = ("203.0.113.0/24", "2001:db8:1234::/48")
CERTIFICATE = "arn:aws:acm:us-west-2:123456789012:certificate/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
RECOMMENDED_LABELS = tuple(
    f"app.kubernetes.io/{key}"
    for key in ("name", "instance", "component", "part-of", "managed-by", "version")
)
#: The selector of the Deployment as first deployed. apps/v1 does not let an update change a Deployment's selector.
DEPLOYED_SELECTOR = {"matchLabels": {"cdk8s.io/metadata.addr": "vllm-serving-deployment-c8de0242"}}


@pytest.fixture(scope="module")
def default_manifests(default_env) -> dict[str, dict]:
    return _by_kind(synthesize_manifests(serving_spec_for(default_env)))


@pytest.fixture(scope="module")
def vllm_container(default_manifests) -> dict:
    (container,) = [
        c
        for c in default_manifests["Deployment"]["spec"]["template"]["spec"]["containers"]
        if c["name"] == "vllm"
    ]
    return container


def _container(deployment: dict, name: str) -> dict:
    (container,) = [
        c for c in deployment["spec"]["template"]["spec"]["containers"] if c["name"] == name
    ]
    return container


#: The key check's one exception to "every capability dropped" (charts/key_proxy.py says why: caddyserver/caddy-docker
#: 2.11/alpine/Dockerfile sets the file capability; capabilities(7) "Safety checking for capability-dumb binaries").
KEY_PROXY_CAPABILITIES = {"drop": ["ALL"], "add": ["NET_BIND_SERVICE"]}

DRAIN_ARGS = ["--shutdown-timeout", "300"]  # endpoint.drain_seconds' default
#: vLLM on the loopback behind the key check (charts/key_proxy.py)
KEY_PROXY_ARGS = list(key_proxy_backend_args())


def test_kimi_k3_runs_with_exactly_the_recipe_profile(vllm_container):
    # the recipe's profile, the drain of running requests on SIGTERM, and the middleware that requires the API key on
    # every path (tests/charts/test_auth_middleware.py); model.serving_profile: announced is
    # tests/deployment_config/test_recipe.py's
    assert _options(vllm_container["args"]) == _options(
        [*RECIPE_ARGS, *DRAIN_ARGS, *KEY_PROXY_ARGS]
    )
    assert len(vllm_container["args"]) == len(RECIPE_ARGS) + len(DRAIN_ARGS) + len(KEY_PROXY_ARGS)


def test_the_announced_profile_runs_with_exactly_the_announced_arguments(example_copy):
    # given the default example with model.serving_profile: announced
    from deployment_config import parse_environment

    example_copy["model"]["serving_profile"] = "announced"
    env = parse_environment(example_copy, name="example")
    container = _by_kind(synthesize_manifests(serving_spec_for(env)))["Deployment"]["spec"][
        "template"
    ]["spec"]["containers"][0]
    # then the announcement's arguments and environment, as before the recipe
    assert _options(container["args"]) == _options([*ANNOUNCED_ARGS, *DRAIN_ARGS, *KEY_PROXY_ARGS])
    assert _plain_env(container)["VLLM_ENABLE_K3_LATENT_MOE_TAIL_FUSION"] == "1"


def test_a_stopping_pod_leaves_the_service_then_finishes_its_requests(
    default_manifests, vllm_container
):
    # given the Deployment of the default environment (endpoint.drain_seconds: 300)
    pod = default_manifests["Deployment"]["spec"]["template"]["spec"]
    # then a terminating pod first keeps serving 15 s while it leaves the Service's endpoints, then vLLM drains for up
    # to 300 s, and Kubernetes waits for both and 30 s more
    assert vllm_container["lifecycle"] == {"preStop": {"exec": {"command": ["sleep", "15"]}}}
    assert _options(vllm_container["args"])["--shutdown-timeout"] == "300"
    assert pod["terminationGracePeriodSeconds"] == 15 + 300 + 30


def test_kimi_k3_environment_and_image(vllm_container):
    env = _plain_env(vllm_container)
    # the recipe's Blackwell environment (hardware_overrides.blackwell.extra_env; its engine timeout is the app's),
    # and its Rust frontend, with the key required (the default): the key is checked in front (charts/key_proxy.py)
    assert {k: env[k] for k in ("VLLM_ALLREDUCE_USE_FLASHINFER", "VLLM_USE_V2_MODEL_RUNNER")} == {
        "VLLM_ALLREDUCE_USE_FLASHINFER": "1",
        "VLLM_USE_V2_MODEL_RUNNER": "1",
    }
    assert env["VLLM_USE_RUST_FRONTEND"] == "1" and "--middleware" not in vllm_container["args"]
    # the Hugging Face cache is on the node-local NVMe mount, not in the container's layer
    assert env["HF_HOME"].startswith("/models/")
    assert vllm_container["image"] == "vllm/vllm-openai:kimi-k3"
    # vLLM listens on the loopback; the pod's API port is the key check's
    assert "ports" not in vllm_container


def test_all_gpus_and_no_efa_devices_are_requested(vllm_container):
    resources = vllm_container["resources"]
    for kind in ("requests", "limits"):
        assert resources[kind]["nvidia.com/gpu"] == 8
        # a single-node tensor-parallel server talks NVLink, not EFA: no EFA device to wait for
        assert "vpc.amazonaws.com/efa" not in resources[kind]
    # cdk8s-plus's default 2 GiB memory limit would kill vLLM while it loads the weights
    assert (
        resources["limits"]["memory"].endswith("Mi")
        and int(resources["limits"]["memory"][:-2]) > 1024 * 1024
    )


def test_shared_memory_is_memory_backed(default_manifests, vllm_container):
    pod = default_manifests["Deployment"]["spec"]["template"]["spec"]
    volumes = {v["name"]: v for v in pod["volumes"]}
    mounts = {m["mountPath"]: m["name"] for m in vllm_container["volumeMounts"]}
    assert volumes[mounts["/dev/shm"]]["emptyDir"] == {"medium": "Memory", "sizeLimit": "51200Mi"}


def test_model_cache_is_on_the_nvme_raid(default_manifests, vllm_container):
    pod = default_manifests["Deployment"]["spec"]["template"]["spec"]
    volumes = {v["name"]: v for v in pod["volumes"]}
    mounts = {m["mountPath"]: m["name"] for m in vllm_container["volumeMounts"]}
    assert volumes[mounts["/models"]]["hostPath"]["path"].startswith("/mnt/k8s-disks/0/")


def test_probes_use_health_with_a_startup_budget_derived_from_weight_size(
    vllm_container, default_env
):
    # startup and readiness ask /health through the key check in front (what a client's request goes through)
    for probe in ("startupProbe", "readinessProbe"):
        assert vllm_container[probe]["httpGet"]["path"] == "/health"
        assert vllm_container[probe]["httpGet"]["port"] == 8000
    # liveness asks vLLM itself on its loopback port from inside its own container, so that a key check that is down or
    # restarting never restarts vLLM (a restart reloads the weights): an exec, never the pod's port
    liveness = vllm_container["livenessProbe"]
    assert "httpGet" not in liveness and "tcpSocket" not in liveness
    assert liveness["exec"]["command"] == liveness_command()
    assert "http://127.0.0.1:8001/health" in liveness["exec"]["command"][-1]
    startup = vllm_container["startupProbe"]
    budget = startup["periodSeconds"] * startup["failureThreshold"]
    # 1.42 TB needs well over an hour: download, load, warm up
    assert budget >= 90 * 60
    # vLLM itself waits for its engine as long as the weights take (its default of 600 s would end it first), and
    # the probe outlasts vLLM, so that a load that takes too long ends with vLLM's own error in the log
    env = _plain_env(vllm_container)
    engine_timeout = int(env["VLLM_ENGINE_READY_TIMEOUT_S"])
    assert (
        engine_timeout
        == startup_budget(default_env.model.weight_size_gb).engine_ready_timeout_seconds
        > 3600
    )
    assert engine_timeout < budget
    # and a smaller model gets a smaller budget
    small = dataclasses.replace(
        default_env, model=dataclasses.replace(default_env.model, weight_size_gb=100)
    )
    small_deployment = _by_kind(synthesize_manifests(serving_spec_for(small)))["Deployment"]
    small_container = _container(small_deployment, "vllm")
    assert small_container["startupProbe"]["failureThreshold"] < startup["failureThreshold"]


def test_pod_lands_only_on_gpu_nodes_and_tolerates_their_taint(default_manifests):
    spec = default_manifests["Deployment"]["spec"]
    pod = spec["template"]["spec"]
    terms = pod["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"][
        "nodeSelectorTerms"
    ]
    assert {"key": "llm-serving/node-role", "operator": "In", "values": ["gpu-inference"]} in terms[
        0
    ]["matchExpressions"]
    assert {
        "effect": "NoSchedule",
        "key": "nvidia.com/gpu",
        "operator": "Equal",
        "value": "present",
    } in pod["tolerations"]
    # one replica per node of the reservation (one node in the example), replaced without a surge: a surge replica
    # would wait forever for a node the reservation does not have
    assert spec["strategy"] == {
        "type": "RollingUpdate",
        "rollingUpdate": {"maxSurge": 0, "maxUnavailable": 1},
    }
    assert spec["replicas"] == 1


@pytest.fixture(scope="module")
def reservation_deployments(example_document) -> dict:
    """The Deployment for reservations of 1, 2 and 4 nodes (all replicas, the default) and of 4 nodes with 2 replicas."""
    from deployment_config.loader import parse_environment

    deployments = {}
    for nodes, replicas in ((1, None), (2, None), (4, None), (4, 2)):
        document = json.loads(json.dumps(example_document))
        document["capacity"]["instance_count"] = nodes
        if replicas:
            document["endpoint"] = {**document.get("endpoint", {}), "replicas": replicas}
        env = parse_environment(document, name=f"n{nodes}")
        # vLLM's Deployment (from two replicas on, the router's Deployment is there too: charts/vllm_router.py)
        (deployments[(nodes, replicas)],) = [
            o
            for o in synthesize_manifests(serving_spec_for(env))
            if o["kind"] == "Deployment" and o["metadata"]["name"] == "vllm"
        ]
    return deployments


@pytest.mark.parametrize(
    ("nodes", "replicas", "expected"), [(1, None, 1), (2, None, 2), (4, None, 4), (4, 2, 2)]
)
def test_replicas_fill_the_reservation_one_per_node(
    reservation_deployments, nodes, replicas, expected
):
    deployment = reservation_deployments[(nodes, replicas)]
    spec = deployment["spec"]
    # given a reservation of NODES nodes: one replica on each, unless endpoint.replicas asks for fewer
    assert spec["replicas"] == expected
    # never two on one node: required anti-affinity on the node's host name, among the Deployment's own pods
    (rule,) = spec["template"]["spec"]["affinity"]["podAntiAffinity"][
        "requiredDuringSchedulingIgnoredDuringExecution"
    ]
    assert rule["topologyKey"] == "kubernetes.io/hostname"
    assert rule["labelSelector"]["matchLabels"] == spec["selector"]["matchLabels"]
    # an update replaces one replica at a time: onto the free node first when the reservation has one
    # (tests/charts/test_rollout_strategy.py), else never needing a node more than the reservation holds
    surge = expected < nodes
    assert spec["strategy"]["rollingUpdate"] == (
        {"maxSurge": 1, "maxUnavailable": 0} if surge else {"maxSurge": 0, "maxUnavailable": 1}
    )


def test_the_pod_gets_no_service_links_that_vllm_would_read_as_its_port(
    default_manifests, vllm_container
):
    # given a Service named vllm in the pod's namespace, Kubernetes would inject VLLM_PORT=tcp://IP:8000
    assert default_manifests["Service"]["metadata"]["name"] == "vllm"
    # then the pod opts out of service links, and sets no VLLM_PORT of its own
    assert (
        default_manifests["Deployment"]["spec"]["template"]["spec"]["enableServiceLinks"] is False
    )
    assert "VLLM_PORT" not in {e["name"] for e in vllm_container["env"]}


def test_service_is_an_internal_nlb_on_port_8000(default_manifests):
    service = default_manifests["Service"]
    assert service["spec"]["type"] == "LoadBalancer"
    assert service["spec"]["ports"][0]["port"] == 8000
    annotations = service["metadata"]["annotations"]
    assert annotations["service.beta.kubernetes.io/aws-load-balancer-type"] == "nlb"
    assert annotations["service.beta.kubernetes.io/aws-load-balancer-internal"] == "true"
    assert "loadBalancerSourceRanges" not in service["spec"]
    assert (
        service["spec"]["selector"]
        == default_manifests["Deployment"]["spec"]["selector"]["matchLabels"]
    )


@pytest.fixture(scope="module")
def public_manifests(default_env) -> dict[str, dict]:
    # a public endpoint needs TLS (the loader refuses one without it)
    endpoint = default_env.endpoint.model_copy(
        update={
            "exposure": Exposure.PUBLIC,
            "allowed_cidrs": PUBLIC_CIDRS,
            "certificate_arn": CERTIFICATE,
            "domain_name": "llm.example.com",
        }
    )
    return _by_kind(
        synthesize_manifests(serving_spec_for(dataclasses.replace(default_env, endpoint=endpoint)))
    )


def test_public_endpoint_is_restricted_to_its_cidrs(public_manifests):
    service = public_manifests["Service"]
    assert (
        "service.beta.kubernetes.io/aws-load-balancer-internal"
        not in service["metadata"]["annotations"]
    )
    assert service["spec"]["loadBalancerSourceRanges"] == list(PUBLIC_CIDRS)


@pytest.fixture(scope="module")
def tls_manifests(default_env) -> dict[str, dict]:
    endpoint = default_env.endpoint.model_copy(
        update={"certificate_arn": CERTIFICATE, "domain_name": "llm.example.com"}
    )
    return _by_kind(
        synthesize_manifests(serving_spec_for(dataclasses.replace(default_env, endpoint=endpoint)))
    )


def test_with_a_certificate_the_load_balancer_answers_tls_on_443_and_forwards_to_vllm(
    tls_manifests,
):
    # given an environment with an ACM certificate, when the chart is synthesized
    service = tls_manifests["Service"]
    annotations = service["metadata"]["annotations"]
    # then the Service's one port is 443, named https, to vLLM's 8000: the cloud provider makes it a TLS listener
    # (the port's name is in ssl-ports) with the certificate and a TLS 1.3/1.2 policy
    assert service["spec"]["ports"] == [
        {"name": "https", "port": 443, "protocol": "TCP", "targetPort": 8000}
    ]
    assert annotations["service.beta.kubernetes.io/aws-load-balancer-ssl-cert"] == CERTIFICATE
    assert annotations["service.beta.kubernetes.io/aws-load-balancer-ssl-ports"] == "https"
    assert annotations[
        "service.beta.kubernetes.io/aws-load-balancer-ssl-negotiation-policy"
    ].startswith("ELBSecurityPolicy-TLS13-1-2-")
    # and the traffic behind the load balancer stays TCP to vLLM's plain HTTP (no backend-protocol ssl)
    assert "service.beta.kubernetes.io/aws-load-balancer-backend-protocol" not in annotations
    # the load balancer is still an internal NLB
    assert annotations["service.beta.kubernetes.io/aws-load-balancer-type"] == "nlb"
    assert annotations["service.beta.kubernetes.io/aws-load-balancer-internal"] == "true"
    # the pod still listens on 8000, the port the NetworkPolicy admits: the key check's, with vLLM behind it on the
    # loopback (no port of its own on the pod)
    containers = tls_manifests["Deployment"]["spec"]["template"]["spec"]["containers"]
    assert {c["name"]: [p["containerPort"] for p in c.get("ports", [])] for c in containers} == {
        "vllm": [],
        KEY_PROXY: [8000],
    }
    assert all(
        ports == [{"port": 8000, "protocol": "TCP"}]
        for _, ports in _admitted(tls_manifests["NetworkPolicy"])
    )


def test_without_a_certificate_the_service_has_no_tls_annotation(default_manifests):
    annotations = default_manifests["Service"]["metadata"]["annotations"]
    assert not [key for key in annotations if "ssl" in key]
    assert [(p["name"], p["port"]) for p in default_manifests["Service"]["spec"]["ports"]] == [
        ("http", 8000)
    ]


WEIGHTS_SHA = "0123456789abcdef0123456789abcdef01234567"


def s3_model(model, revision: str | None = WEIGHTS_SHA):
    return dataclasses.replace(
        model,
        weight_source=WeightSource.S3,
        s3_uri="s3://weights-bucket/kimi-k3/",
        hugging_face_revision=revision,
    )


@pytest.fixture(scope="module")
def s3_objects(default_env) -> list[dict]:
    return synthesize_manifests(
        serving_spec_for(dataclasses.replace(default_env, model=s3_model(default_env.model)))
    )


@pytest.fixture(scope="module")
def s3_manifests(s3_objects) -> dict[str, dict]:
    return _by_kind(s3_objects)


def test_s3_weights_of_the_pinned_revision_are_copied_to_its_own_cache_directory_and_loaded_from_there(
    s3_manifests,
):
    pod = s3_manifests["Deployment"]["spec"]["template"]["spec"]
    fetch, verify = pod["initContainers"]
    # the shell runs `aws s3 sync SOURCE TARGET` with both as positional arguments, never spliced into the script
    # (unless the revision's marker says a staged or earlier copy was verified: tests/charts/test_weights_prestage.py)
    assert fetch["command"][:2] == ["/bin/sh", "-c"]
    assert 'aws s3 sync --only-show-errors "$1" "$2"' in fetch["command"][2]
    # the revision's prefix, which the mirror wrote and verified, into the revision's own directory of the node cache:
    # a previous revision's files are in another directory and never mix with these
    assert fetch["command"][-2:] == [
        f"s3://weights-bucket/kimi-k3/{WEIGHTS_SHA}/",
        f"/models/s3-weights/{WEIGHTS_SHA}",
    ]
    options = _options(pod["containers"][0]["args"])
    assert options["--model"] == fetch["command"][-1]
    assert options["--served-model-name"] == "Kimi-K3"
    # and the copy is checked against its manifest after it, before vLLM (init containers run in order)
    assert verify["name"] == "verify-weights" and verify["command"][2:5] == [
        fetch["command"][-1],
        "--revision",
        WEIGHTS_SHA,
    ]


def test_the_copy_is_verified_by_the_shipped_script_in_the_vllm_image(s3_objects, s3_manifests):
    from charts.vllm_weights_check import SCRIPT_FILE

    pod = s3_manifests["Deployment"]["spec"]["template"]["spec"]
    _, verify = pod["initContainers"]
    # the vLLM image (it has python3; the AWS CLI image does not), with the script from a ConfigMap that holds this very
    # file, mounted read-only
    assert verify["image"] == pod["containers"][0]["image"]
    (script_map,) = [
        o for o in s3_objects if o["kind"] == "ConfigMap" and SCRIPT_FILE.name in o.get("data", {})
    ]
    assert script_map["data"][SCRIPT_FILE.name] == SCRIPT_FILE.read_text()
    # created before the Deployment that mounts it
    assert s3_objects.index(script_map) < s3_objects.index(s3_manifests["Deployment"])
    (volume,) = [
        v
        for v in pod["volumes"]
        if v.get("configMap", {}).get("name") == script_map["metadata"]["name"]
    ]
    (mount,) = [m for m in verify["volumeMounts"] if m["name"] == volume["name"]]
    assert mount["readOnly"] is True and verify["command"][:2] == [
        "python3",
        f"{mount['mountPath']}/{SCRIPT_FILE.name}",
    ]
    # a wrong file is removed, so that the next start's sync fetches it again instead of failing for ever
    assert "--delete-mismatched" in verify["command"]


def test_unpinned_s3_weights_are_not_copied_from_the_prefix_root(default_env):
    # given S3 weights without a pinned revision (before llmops weights mirror wrote it)
    spec = serving_spec_for(
        dataclasses.replace(default_env, model=s3_model(default_env.model, revision=None))
    )
    # then the chart copies nothing (the prefix root holds every revision; the serving stack refuses to deploy)
    assert spec.s3_uri is None


def test_the_s3_copy_uses_the_crt_transfer_client_at_a_high_target_bandwidth(s3_manifests):
    # given weights in S3, when the init container copies them to the node's NVMe
    init = s3_manifests["Deployment"]["spec"]["template"]["spec"]["initContainers"][0]
    script = init["command"][2]
    # then the AWS CLI is told to use its CRT client (parallel ranged GETs; `auto` would pick the classic client on a
    # p6-b300) sized for the 300 Gb/s of the card S3 traffic goes through, before the sync starts
    assert script.index(
        "aws configure set default.s3.preferred_transfer_client crt"
    ) < script.index("aws s3 sync")
    assert "aws configure set default.s3.target_bandwidth 300Gb/s" in script
    # in 64 MiB ranged GETs: about 560 requests a second per node at 300 Gb/s, below the 5,500 GET/s that S3
    # documents per prefix, also with several replicas copying the one revision prefix at once
    assert script.index("aws configure set default.s3.multipart_chunksize 64MB") < script.index(
        "aws s3 sync"
    )


def test_a_pinned_revision_is_passed_to_vllm_when_it_downloads_from_the_hub(default_env):
    sha = "0123456789abcdef0123456789abcdef01234567"
    pinned = dataclasses.replace(
        default_env, model=dataclasses.replace(default_env.model, hugging_face_revision=sha)
    )
    (deployment,) = [
        o for o in synthesize_manifests(serving_spec_for(pinned)) if o["kind"] == "Deployment"
    ]
    options = _options(deployment["spec"]["template"]["spec"]["containers"][0]["args"])
    # the weights, the tokenizer and the remote code all come from the commit the mirror resolved
    assert options["--revision"] == sha and options["--code-revision"] == sha
    # from S3 vLLM loads a local directory: no revision
    from_s3 = dataclasses.replace(
        pinned.model, weight_source=WeightSource.S3, s3_uri="s3://weights-bucket/kimi-k3/"
    )
    assert "--revision" not in serving_spec_for(dataclasses.replace(pinned, model=from_s3)).args


@pytest.fixture(scope="module")
def pinned_manifests(default_env) -> dict[str, dict]:
    model = dataclasses.replace(default_env.model, image=f"vllm/vllm-openai:kimi-k3@{DIGEST}")
    return _by_kind(
        synthesize_manifests(serving_spec_for(dataclasses.replace(default_env, model=model)))
    )


VARIANTS = ("default", "s3", "public", "pinned", "tls")


@pytest.fixture(scope="module")
def variants(
    default_manifests, s3_manifests, public_manifests, pinned_manifests, tls_manifests
) -> dict[str, dict[str, dict]]:
    return {
        "default": default_manifests,
        "s3": s3_manifests,
        "public": public_manifests,
        "pinned": pinned_manifests,
        "tls": tls_manifests,
    }


# --- the pod's privileges --------------------------------------------------------------------------------------------


def test_the_pod_runs_without_capabilities_privilege_escalation_or_unfiltered_syscalls(
    default_manifests, s3_manifests
):
    for manifests in (default_manifests, s3_manifests):
        pod = manifests["Deployment"]["spec"]["template"]["spec"]
        # every container, the weight fetcher included, under the container runtime's default seccomp profile
        assert pod["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}
        assert not pod.get("hostNetwork") and not pod.get("hostIPC") and not pod.get("hostPID")
        containers = pod["containers"] + pod.get("initContainers", [])
        assert len(containers) == (4 if manifests is s3_manifests else 2)
        for container in containers:
            context = container["securityContext"]
            assert context["allowPrivilegeEscalation"] is False
            if container["name"] == KEY_PROXY:
                # the key check: not root, a read-only root filesystem, and one capability in its bounding set, never
                # used (it listens on 8000): the official image's binary carries NET_BIND_SERVICE as a file capability,
                # and the kernel refuses to exec it when the bounding set lacks it (charts/key_proxy.py)
                assert context["capabilities"] == KEY_PROXY_CAPABILITIES
                assert context["runAsNonRoot"] is True and context["readOnlyRootFilesystem"] is True
                continue
            assert context["capabilities"] == {"drop": ["ALL"]}
            assert context["privileged"] is False
            # what stays: root (the image sets no USER; the node cache is a root-owned hostPath) and a writable root
            # filesystem (vLLM's compile caches under the home directory)
            assert context["runAsNonRoot"] is False
            assert context["readOnlyRootFilesystem"] is False


# --- the network policy ----------------------------------------------------------------------------------------------


def _admitted(policy: dict) -> list[tuple[str, list[dict]]]:
    return [
        (peer["ipBlock"]["cidr"], rule["ports"])
        for rule in policy["spec"]["ingress"]
        for peer in rule["from"]
    ]


def test_network_policy_admits_the_api_port_from_the_vpc_only(default_manifests, default_env):
    policy, deployment = default_manifests["NetworkPolicy"], default_manifests["Deployment"]
    # it selects the vLLM pods, with the Deployment's own selector, in their namespace
    assert policy["metadata"]["namespace"] == deployment["metadata"]["namespace"]
    assert policy["spec"]["podSelector"] == deployment["spec"]["selector"]
    assert (
        policy["spec"]["podSelector"]["matchLabels"].items()
        <= deployment["spec"]["template"]["metadata"]["labels"].items()
    )
    # TCP 8000 from the VPC (the nodes the load balancer's traffic and health checks come through), with no exceptions,
    # and nothing else: a policy that selects a pod denies all other inbound traffic
    assert policy["spec"]["ingress"] == [
        {
            "from": [{"ipBlock": {"cidr": default_env.vpc_cidr}}],
            "ports": [{"port": 8000, "protocol": "TCP"}],
        }
    ]
    # outbound stays open (Hugging Face Hub, S3, DNS): the policy is about ingress only
    assert policy["spec"]["policyTypes"] == ["Ingress"]
    assert "egress" not in policy["spec"]


def test_a_public_endpoint_also_admits_its_allowed_cidrs_and_nothing_more(
    public_manifests, default_env
):
    admitted = _admitted(public_manifests["NetworkPolicy"])
    assert [cidr for cidr, _ in admitted] == [default_env.vpc_cidr, *PUBLIC_CIDRS]
    assert all(ports == [{"port": 8000, "protocol": "TCP"}] for _, ports in admitted)


def test_the_vpc_cni_add_on_enforces_network_policies(synthesized):
    addons = {
        a["Properties"]["AddonName"]: a["Properties"]
        for a in synthesized.resources("cluster", "AWS::EKS::Addon").values()
    }
    # without the network policy agent, a NetworkPolicy is accepted by the API server and ignored; the add-on's schema
    # types the value as the string "true"
    assert json.loads(addons["vpc-cni"]["ConfigurationValues"]) == {"enableNetworkPolicy": "true"}


# --- labels and selector ---------------------------------------------------------------------------------------------

_LABEL_VALUE = re.compile(r"(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?")


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_object_carries_the_recommended_labels(variant, variants, default_env):
    manifests = variants[variant]
    expected_version = "sha256-0123456789ab" if variant == "pinned" else "kimi-k3"
    for kind, manifest in manifests.items():
        labels = manifest["metadata"]["labels"]
        assert set(RECOMMENDED_LABELS) <= labels.keys(), kind
        assert labels["app.kubernetes.io/name"] == "vllm"
        assert labels["app.kubernetes.io/instance"] == default_env.name
        assert labels["app.kubernetes.io/part-of"] == "llm-serving"
        assert labels["app.kubernetes.io/managed-by"] == "cdk8s"
        assert labels["app.kubernetes.io/version"] == expected_version
        assert labels["app.kubernetes.io/component"] == (
            "network-policy" if kind == "NetworkPolicy" else "inference-server"
        )
        for value in labels.values():
            assert len(value) <= 63 and _LABEL_VALUE.fullmatch(value), (kind, value)
    # the pods carry them too, so that `kubectl get pods -l app.kubernetes.io/instance=...` finds them
    pod_labels = manifests["Deployment"]["spec"]["template"]["metadata"]["labels"]
    assert {key: pod_labels[key] for key in RECOMMENDED_LABELS} == {
        key: manifests["Deployment"]["metadata"]["labels"][key] for key in RECOMMENDED_LABELS
    }


def test_the_deployment_selector_is_unchanged_whatever_the_image(variants):
    # given a Deployment already running with this selector: an update that changed it would be refused
    for manifests in variants.values():
        assert manifests["Deployment"]["spec"]["selector"] == DEPLOYED_SELECTOR
        # no recommended label (the version changes with the image) is part of it
        assert not set(RECOMMENDED_LABELS) & DEPLOYED_SELECTOR["matchLabels"].keys()
        assert manifests["Service"]["spec"]["selector"] == DEPLOYED_SELECTOR["matchLabels"]


# --- supply chain ----------------------------------------------------------------------------------------------------


def test_a_tagged_image_is_not_pulled_again_on_restart_and_is_recorded_as_mutable(
    default_env, vllm_container, s3_manifests
):
    assert vllm_container["image"] == "vllm/vllm-openai:kimi-k3"
    assert vllm_container["imagePullPolicy"] == "IfNotPresent"
    for init in s3_manifests["Deployment"]["spec"]["template"]["spec"]["initContainers"]:
        assert init["imagePullPolicy"] == "IfNotPresent"
    # the app warns about the mutable tag at synthesis from this
    assert serving_spec_for(default_env).image_pinned is False


def test_an_image_pinned_by_digest_is_recorded_as_pinned(pinned_manifests, default_env):
    container = _container(pinned_manifests["Deployment"], "vllm")
    assert container["image"] == f"vllm/vllm-openai:kimi-k3@{DIGEST}"
    assert container["imagePullPolicy"] == "IfNotPresent"
    model = dataclasses.replace(default_env.model, image=container["image"])
    assert serving_spec_for(dataclasses.replace(default_env, model=model)).image_pinned is True


@pytest.mark.parametrize(
    ("image", "pinned", "version"),
    [
        ("vllm/vllm-openai:kimi-k3", False, "kimi-k3"),
        ("vllm/vllm-openai", False, "latest"),  # no tag: Docker pulls latest
        ("localhost:5000/vllm", False, "latest"),  # a registry port is not a tag
        ("localhost:5000/team/vllm:v0.33.0", False, "v0.33.0"),
        (f"vllm/vllm-openai@{DIGEST}", True, "sha256-0123456789ab"),
        (
            f"123456789012.dkr.ecr.us-west-2.amazonaws.com/vllm:kimi-k3@{DIGEST}",
            True,
            "sha256-0123456789ab",
        ),
        (
            "vllm/vllm-openai:" + "v" * 60 + "_" * 10,
            False,
            "v" * 60,
        ),  # cut to 63 characters, alphanumeric at the end
        (
            "vllm/vllm-openai:sha256",
            False,
            "sha256",
        ),  # a tag that looks like an algorithm is still a tag
    ],
)
def test_image_pinning_and_version_label(image, pinned, version):
    assert image_is_pinned(image) is pinned
    assert image_version_label(image) == version


# --- schema ----------------------------------------------------------------------------------------------------------


def _built_in(manifest: dict) -> bool:
    """Kinds of the Kubernetes API itself: the core group, unqualified groups (apps) and *.k8s.io groups. Custom
    resources (the Secrets Store CSI driver's SecretProviderClass) are checked against their CRDs by their own tests."""
    group = manifest["apiVersion"].rpartition("/")[0]
    return "." not in group or group.endswith(".k8s.io")


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_object_validates_strictly_against_the_kubernetes_schema(
    variant, variants, default_env
):
    manifests = [m for m in variants[variant].values() if _built_in(m)]
    assert {m["kind"] for m in manifests} == {
        "Namespace",
        "ServiceAccount",
        "ConfigMap",
        "Deployment",
        "DaemonSet",
        "Service",
        "NetworkPolicy",
    }
    for manifest in manifests:
        kubernetes_validate.validate(manifest, default_env.kubernetes_version, strict=True)


def test_strict_validation_catches_a_misspelled_field(default_manifests, default_env):
    broken = dict(
        default_manifests["Service"], spec={**default_manifests["Service"]["spec"], "prots": []}
    )
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, default_env.kubernetes_version, strict=True)


def test_on_eks_the_rust_frontend_runs_and_the_key_is_checked_in_front_hyperpod_keeps_the_middleware(
    default_env, tmp_path, example_document
):
    from charts.inference_endpoint_chart import (
        inference_endpoint_spec_for,
        synthesize_inference_endpoint,
    )
    from deployment_config import load_environment
    from tests.conftest import CONFIG_DIR

    # given the recipe profile, which turns vLLM's Rust frontend on, with and without the API key
    for required in (True, False):
        env = dataclasses.replace(
            default_env,
            endpoint=default_env.endpoint.model_copy(
                update={"authentication": "api-key" if required else "none"}
            ),
        )
        spec = serving_spec_for(env)
        assert default_env.model.environment["VLLM_USE_RUST_FRONTEND"] == "1"
        # then on EKS the Rust frontend runs either way, without --middleware; with the key vLLM listens on the
        # loopback behind the key check (charts/key_proxy.py), which is in the pod
        assert "--middleware" not in spec.args
        assert spec.environment["VLLM_USE_RUST_FRONTEND"] == "1"
        assert (spec.args[-4:] == tuple(KEY_PROXY_ARGS)) is required
        containers = {
            c["name"]
            for m in synthesize_manifests(spec)
            if m["kind"] == "Deployment"
            for c in m["spec"]["template"]["spec"]["containers"]
        }
        assert ("key-proxy" in containers) is required
    # and HyperPod, the one exception (the operator's CRD gives the worker no sidecar), keeps the middleware and so
    # the Python frontend
    hyperpod = load_environment(CONFIG_DIR, "example-hyperpod")
    (worker_env,) = [
        {e["name"]: e.get("value") for e in o["spec"]["worker"]["environmentVariables"]}
        for o in synthesize_inference_endpoint(inference_endpoint_spec_for(hyperpod))
        if o["kind"] == "InferenceEndpointConfig"
    ]
    assert worker_env.get("VLLM_USE_RUST_FRONTEND", "0") == "0"
    # and an EKS file that turns it on with the key required is accepted
    document = {
        **example_document,
        "model": {
            **example_document.get("model", {}),
            "extra_env": {"VLLM_USE_RUST_FRONTEND": "1"},
        },
    }
    (tmp_path / "env.yaml").write_text(yaml.safe_dump(document), encoding="utf-8")
    assert load_environment(tmp_path, "env").model.environment["VLLM_USE_RUST_FRONTEND"] == "1"


def test_the_vllm_image_is_pulled_on_each_gpu_node_beside_the_weights_copy_not_after_it(
    s3_manifests,
):
    from deployment_config.kubernetes_names import SERVING_POD_SELECTOR

    # given S3 weights: the vLLM pod copies them with the AWS CLI image, then checks them with the vLLM image
    pod = s3_manifests["Deployment"]["spec"]["template"]["spec"]
    (vllm,) = [c for c in pod["containers"] if c["name"] == "vllm"]
    assert [c["name"] for c in pod["initContainers"]][:2] == ["fetch-weights", "verify-weights"]
    assert pod["initContainers"][0]["image"] != vllm["image"]
    # then a DaemonSet pod of its own on the same nodes (same node affinity, same taint tolerated) runs that very image
    prepull = s3_manifests["DaemonSet"]["spec"]["template"]
    (holder,) = prepull["spec"]["containers"]
    assert holder["image"] == vllm["image"] and holder["imagePullPolicy"] == "IfNotPresent"
    assert prepull["spec"]["affinity"]["nodeAffinity"] == pod["affinity"]["nodeAffinity"]
    assert prepull["spec"]["tolerations"] == pod["tolerations"]
    # and it keeps running, so the kubelet's image garbage collection never removes the image under a restart
    assert holder["command"] == ["sleep", "infinity"]
    # and it asks for no GPU, mounts nothing, and is no serving pod to the Service or to llmops phases
    assert "nvidia.com/gpu" not in str(holder["resources"]) and "volumeMounts" not in holder
    labels = prepull["metadata"]["labels"]
    assert not all(
        labels.get(k) == v for k, v in (p.split("=") for p in SERVING_POD_SELECTOR.split(","))
    )
    assert holder["securityContext"]["readOnlyRootFilesystem"] is True
    assert holder["securityContext"]["capabilities"] == {"drop": ["ALL"]}
