"""The vLLM serving chart: the fields a user relies on, and strict schema validation of every object."""

from __future__ import annotations

import dataclasses

import kubernetes_validate
import pytest

from charts.serving_spec import serving_spec_for
from charts.vllm_serving_chart import synthesize_manifests
from deployment_config.model import EndpointConfig, Exposure, WeightSource
from deployment_config.sizing import startup_budget

ANNOUNCED_ARGS = (
    "--model moonshotai/Kimi-K3 --trust-remote-code --load-format fastsafetensors --enable-prefix-caching "
    "--enable-auto-tool-choice --tool-call-parser kimi_k3 --reasoning-parser kimi_k3 --served-model-name Kimi-K3 "
    "--moe-backend auto --tensor-parallel-size 8 --no-enable-flashinfer-autotune"
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


@pytest.fixture(scope="module")
def default_manifests(default_env) -> dict[str, dict]:
    return _by_kind(synthesize_manifests(serving_spec_for(default_env)))


@pytest.fixture(scope="module")
def vllm_container(default_manifests) -> dict:
    (container,) = default_manifests["Deployment"]["spec"]["template"]["spec"]["containers"]
    return container


def test_kimi_k3_runs_with_exactly_the_announced_arguments(vllm_container):
    assert _options(vllm_container["args"]) == _options(ANNOUNCED_ARGS)
    assert len(vllm_container["args"]) == len(ANNOUNCED_ARGS)


def test_kimi_k3_environment_and_image(vllm_container):
    env = {e["name"]: e["value"] for e in vllm_container["env"]}
    assert env["VLLM_ENABLE_K3_LATENT_MOE_TAIL_FUSION"] == "1"
    # the Hugging Face cache is on the node-local NVMe mount, not in the container's layer
    assert env["HF_HOME"].startswith("/models/")
    assert vllm_container["image"] == "vllm/vllm-openai:kimi-k3"
    assert vllm_container["ports"] == [{"containerPort": 8000, "name": "http", "protocol": "TCP"}]


def test_all_gpus_and_no_efa_devices_are_requested(vllm_container):
    resources = vllm_container["resources"]
    for kind in ("requests", "limits"):
        assert resources[kind]["nvidia.com/gpu"] == 8
        # a single-node tensor-parallel server talks NVLink, not EFA: no EFA device to wait for
        assert "vpc.amazonaws.com/efa" not in resources[kind]
    # cdk8s-plus's default 2 GiB memory limit would kill vLLM while it loads the weights
    assert resources["limits"]["memory"].endswith("Mi") and int(resources["limits"]["memory"][:-2]) > 1024 * 1024


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


def test_probes_use_health_with_a_startup_budget_derived_from_weight_size(vllm_container, default_env):
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert vllm_container[probe]["httpGet"]["path"] == "/health"
        assert vllm_container[probe]["httpGet"]["port"] == 8000
    startup = vllm_container["startupProbe"]
    budget = startup["periodSeconds"] * startup["failureThreshold"]
    # 1.42 TB needs well over an hour: download, load, warm up
    assert budget >= 90 * 60
    # vLLM itself waits for its engine as long as the weights take (its default of 600 s would end it first), and
    # the probe outlasts vLLM, so that a load that takes too long ends with vLLM's own error in the log
    env = {e["name"]: e["value"] for e in vllm_container["env"]}
    engine_timeout = int(env["VLLM_ENGINE_READY_TIMEOUT_S"])
    assert engine_timeout == startup_budget(default_env.model.weight_size_gb).engine_ready_timeout_seconds > 3600
    assert engine_timeout < budget
    # and a smaller model gets a smaller budget
    small = dataclasses.replace(default_env, model=dataclasses.replace(default_env.model, weight_size_gb=100))
    small_deployment = _by_kind(synthesize_manifests(serving_spec_for(small)))["Deployment"]
    (small_container,) = small_deployment["spec"]["template"]["spec"]["containers"]
    assert small_container["startupProbe"]["failureThreshold"] < startup["failureThreshold"]


def test_pod_lands_only_on_gpu_nodes_and_tolerates_their_taint(default_manifests):
    spec = default_manifests["Deployment"]["spec"]
    pod = spec["template"]["spec"]
    terms = pod["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"]
    assert {"key": "llm-serving/node-role", "operator": "In", "values": ["gpu-inference"]} in terms[0]["matchExpressions"]
    assert {"effect": "NoSchedule", "key": "nvidia.com/gpu", "operator": "Equal", "value": "present"} in pod["tolerations"]
    # one node's GPUs fit one replica: a rolling update would wait forever for a second node
    assert spec["strategy"] == {"type": "Recreate"}
    assert spec["replicas"] == 1


def test_the_pod_gets_no_service_links_that_vllm_would_read_as_its_port(default_manifests, vllm_container):
    # given a Service named vllm in the pod's namespace, Kubernetes would inject VLLM_PORT=tcp://IP:8000
    assert default_manifests["Service"]["metadata"]["name"] == "vllm"
    # then the pod opts out of service links, and sets no VLLM_PORT of its own
    assert default_manifests["Deployment"]["spec"]["template"]["spec"]["enableServiceLinks"] is False
    assert "VLLM_PORT" not in {e["name"] for e in vllm_container["env"]}


def test_service_is_an_internal_nlb_on_port_8000(default_manifests):
    service = default_manifests["Service"]
    assert service["spec"]["type"] == "LoadBalancer"
    assert service["spec"]["ports"][0]["port"] == 8000
    annotations = service["metadata"]["annotations"]
    assert annotations["service.beta.kubernetes.io/aws-load-balancer-type"] == "nlb"
    assert annotations["service.beta.kubernetes.io/aws-load-balancer-internal"] == "true"
    assert "loadBalancerSourceRanges" not in service["spec"]
    assert service["spec"]["selector"] == default_manifests["Deployment"]["spec"]["selector"]["matchLabels"]


def test_public_endpoint_is_restricted_to_its_cidrs(default_env):
    public = dataclasses.replace(default_env, endpoint=EndpointConfig(Exposure.PUBLIC, ("203.0.113.0/24",)))
    service = _by_kind(synthesize_manifests(serving_spec_for(public)))["Service"]
    assert "service.beta.kubernetes.io/aws-load-balancer-internal" not in service["metadata"]["annotations"]
    assert service["spec"]["loadBalancerSourceRanges"] == ["203.0.113.0/24"]


@pytest.fixture(scope="module")
def s3_manifests(default_env) -> dict[str, dict]:
    model = dataclasses.replace(default_env.model, weight_source=WeightSource.S3, s3_uri="s3://weights-bucket/kimi-k3/")
    return _by_kind(synthesize_manifests(serving_spec_for(dataclasses.replace(default_env, model=model))))


def test_s3_weights_are_copied_to_the_cache_and_loaded_from_there(s3_manifests):
    pod = s3_manifests["Deployment"]["spec"]["template"]["spec"]
    (init,) = pod["initContainers"]
    assert init["command"][:3] == ["aws", "s3", "sync"]
    assert "s3://weights-bucket/kimi-k3/" in init["command"]
    options = _options(pod["containers"][0]["args"])
    assert options["--model"] == init["command"][-1]
    assert options["--served-model-name"] == "Kimi-K3"


@pytest.mark.parametrize("variant", ["default", "s3"])
def test_every_object_validates_strictly_against_the_kubernetes_schema(variant, default_manifests, s3_manifests, default_env):
    manifests = default_manifests if variant == "default" else s3_manifests
    for manifest in manifests.values():
        kubernetes_validate.validate(manifest, default_env.kubernetes_version, strict=True)


def test_strict_validation_catches_a_misspelled_field(default_manifests, default_env):
    broken = dict(default_manifests["Service"], spec={**default_manifests["Service"]["spec"], "prots": []})
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, default_env.kubernetes_version, strict=True)
