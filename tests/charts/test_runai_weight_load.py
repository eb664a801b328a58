"""``model.weight_load: runai_streamer`` (deployment_config/weight_load.py): the file's rules refuse it where its check
cannot run; on EKS the chart streams from S3 (no copy, no sha256 check of a copy), checks every object in S3 first
(charts/vllm_weights_check/runtime/check_s3_weights.py) and gives vLLM the Run:ai loader, distributed over the ranks;
every manifest strictly valid Kubernetes."""

from __future__ import annotations

import copy
import json

import kubernetes_validate
import pytest
import yaml

from deployment_config import ConfigError, parse_environment
from tests.conftest import CONFIG_DIR, PROJECT_DIR

SHA = "0123456789abcdef0123456789abcdef01234567"
PINNED = "e" * 64
S3_MODEL = {
    "weight_source": "s3",
    "s3_uri": "s3://weights-bucket/kimi-k3/",
    "hugging_face_revision": SHA,
    "weights_manifest_sha256": PINNED,
}
STREAMED = f"s3://weights-bucket/kimi-k3/{SHA}/"


def _document(base: dict, **model) -> dict:
    changed = copy.deepcopy(base)
    changed["model"].update(model)
    return changed


def _issues(document: dict, name: str = "example") -> dict[str, str]:
    with pytest.raises(ConfigError) as error:
        parse_environment(document, name=name)
    return {issue.field: issue.problem for issue in error.value.issues}


@pytest.fixture(scope="module")
def streamed_manifests() -> tuple:
    """The example environment with the weights streamed from S3, and its chart's manifests."""
    from charts.serving_spec import serving_spec_for
    from charts.vllm_serving_chart import synthesize_manifests

    document = yaml.safe_load((CONFIG_DIR / "example.yaml").read_text(encoding="utf-8"))
    env = parse_environment(
        _document(document, weight_load="runai_streamer", **S3_MODEL), name="example"
    )
    return env, synthesize_manifests(serving_spec_for(env))


def _pod(manifests: list[dict]) -> dict:
    (deployment,) = [m for m in manifests if m["kind"] == "Deployment"]
    return deployment["spec"]["template"]["spec"]


def test_the_streamed_pod_copies_nothing_and_checks_the_objects_in_s3_first(streamed_manifests):
    env, manifests = streamed_manifests
    pod = _pod(manifests)
    names = [c["name"] for c in pod["initContainers"]]
    # then no copy to the node and no sha256 check of a copy; the S3 check runs first, before the compile cache
    assert "fetch-weights" not in names and "verify-weights" not in names
    assert names[0] == "check-weights-s3"
    (check,) = [c for c in pod["initContainers"] if c["name"] == "check-weights-s3"]
    assert check["command"][1].endswith("/check_s3_weights.py")
    assert check["command"][2:] == [
        STREAMED,
        "--region",
        env.region,
        "--revision",
        SHA,
        "--manifest-sha256",
        PINNED,
    ]
    # the check's script travels in the ConfigMap it is read from
    (config_map,) = [
        m
        for m in manifests
        if m["kind"] == "ConfigMap" and "check_s3_weights.py" in m.get("data", {})
    ]
    assert config_map["metadata"]["name"] == "vllm-weights-check"


def test_vllm_streams_the_revisions_prefix_with_the_run_ai_loader_distributed_over_its_ranks(
    streamed_manifests,
):
    _, manifests = streamed_manifests
    (vllm,) = [c for c in _pod(manifests)["containers"] if c["name"] == "vllm"]
    args = vllm["args"]
    assert args[args.index("--model") + 1] == STREAMED
    # one --load-format, the Run:ai loader's, in place of the preset's fastsafetensors
    assert [args[i + 1] for i, a in enumerate(args) if a == "--load-format"] == ["runai_streamer"]
    config = args[args.index("--model-loader-extra-config") + 1]
    assert json.loads(config) == {"distributed": True}
    # the rule on model.extra_args accepts the same value (deployment_config/weight_load.py is_distributed)
    from deployment_config.weight_load import is_distributed

    assert is_distributed(config)


def test_every_manifest_of_the_streamed_chart_is_strictly_valid(streamed_manifests):
    env, manifests = streamed_manifests
    for manifest in manifests:
        if manifest["kind"] in (
            "Deployment",
            "ConfigMap",
            "Service",
            "ServiceAccount",
            "Namespace",
        ):
            kubernetes_validate.validate(manifest, env.kubernetes_version, strict=True)


def test_the_copy_stays_the_default(example_document):
    from charts.serving_spec import serving_spec_for
    from charts.vllm_serving_chart import synthesize_manifests

    env = parse_environment(_document(example_document, **S3_MODEL), name="example")
    names = [c["name"] for c in _pod(synthesize_manifests(serving_spec_for(env)))["initContainers"]]
    assert names[:2] == ["fetch-weights", "verify-weights"] and "check-weights-s3" not in names
    assert (
        env.model.serving_args[env.model.serving_args.index("--load-format") + 1]
        == "fastsafetensors"
    )


def test_streaming_weights_from_the_hub_is_refused(example_document):
    issues = _issues(_document(example_document, weight_load="runai_streamer"))
    assert "weight_source is huggingface" in issues["model.weight_load"]


def test_streaming_on_hyperpod_is_refused():
    document = yaml.safe_load((CONFIG_DIR / "example-hyperpod.yaml").read_text(encoding="utf-8"))
    issues = _issues(
        _document(document, weight_load="runai_streamer", **S3_MODEL), "example-hyperpod"
    )
    assert "on HyperPod the Inference Operator writes the pod" in issues["model.weight_load"]


def test_streaming_with_spec_decoding_is_refused(example_document):
    document = _document(
        example_document,
        weight_load="runai_streamer",
        features=["spec_decoding"],
        speculator_size_gb=8,
        **S3_MODEL,
    )
    assert "with spec_decoding" in _issues(document)["model.weight_load"]


@pytest.mark.parametrize(
    "extra_args",
    [["--load-format", "safetensors"], ["--model-loader-extra-config", '{"distributed": true}']],
)
def test_the_loaders_options_in_extra_args_are_refused_when_weight_load_sets_them(
    example_document, extra_args
):
    document = _document(
        example_document, weight_load="runai_streamer", extra_args=extra_args, **S3_MODEL
    )
    issues = _issues(document)
    assert list(issues) == ["model.extra_args[0]"]
    assert (
        f"sets {extra_args[0]}, which weight_load: runai_streamer sets itself"
        in issues["model.extra_args[0]"]
    )


def test_streaming_a_model_that_spans_several_nodes_is_refused():
    # given the two-node example of the multi-node tests, its weights from S3 and streamed
    document = yaml.safe_load((PROJECT_DIR / "tests" / "configs" / "multi-node.yaml").read_text())
    issues = _issues(_document(document, weight_load="runai_streamer", **S3_MODEL), "multi-node")
    assert "spans 2 nodes" in issues["model.weight_load"]


def test_the_pods_role_reads_the_streamed_revision_with_what_head_object_and_the_listing_need(
    streamed_manifests,
):
    import aws_cdk as cdk
    from aws_cdk import aws_iam as iam
    from aws_cdk.assertions import Template

    from charts.serving_spec import serving_spec_for
    from stacks.serving_stack import ServingStack
    from tests.conftest import bare_app

    env, _ = streamed_manifests
    # given the pod's role in a bare stack, granted what the serving stack grants a streamed pod
    stack = cdk.Stack(bare_app(), "Serving")
    role = iam.Role(stack, "Pod", assumed_by=iam.ServicePrincipal("pods.eks.amazonaws.com"))
    spec = serving_spec_for(env)
    assert spec.weights_streamed and spec.s3_uri == STREAMED
    ServingStack._grant_s3_weights(None, role, spec)
    # then the same two grants as the copy: s3:GetObject (which HeadObject needs) on the revision's objects only, and
    # s3:ListBucket for its keys only (the check's and the streamer's listing; a missing object answers 404)
    (policy,) = Template.from_stack(stack).find_resources("AWS::IAM::Policy").values()
    statements = policy["Properties"]["PolicyDocument"]["Statement"]
    actions = sorted(s["Action"] for s in statements)
    assert actions == ["s3:GetObject", "s3:ListBucket"]
    (listing,) = [s for s in statements if s["Action"] == "s3:ListBucket"]
    assert listing["Condition"] == {"StringLike": {"s3:prefix": [f"kimi-k3/{SHA}/*"]}}
    (reads,) = [s for s in statements if s["Action"] == "s3:GetObject"]
    assert reads["Resource"]["Fn::Join"][1][-1] == f":s3:::weights-bucket/kimi-k3/{SHA}/*"
