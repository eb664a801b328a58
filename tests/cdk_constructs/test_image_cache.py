"""The optional ECR pull-through cache for Docker Hub (model.image_cache): the rule and its repository template, the
image both platforms' charts pull, the node roles' permissions, and the configuration's rules.

One synthesis for the module, with cdk-nag, of only the stacks the cache touches: network, cluster and GPU nodes of an
EKS variant of config/example.yaml (tests/configs/image-cache.yaml, its own prefix), and network, cluster and HyperPod
cluster of a HyperPod variant (tests/configs/image-cache-hyperpod.yaml, the default prefix, an image pinned by digest).
The charts are built from the same configurations without the CDK.
"""

from __future__ import annotations

import json
from pathlib import Path

import kubernetes_validate
import pytest

from charts.inference_endpoint_chart import (
    inference_endpoint_spec_for,
    synthesize_inference_endpoint,
)
from charts.serving_spec import serving_spec_for
from charts.vllm_serving_chart import synthesize_manifests
from deployment_config import ConfigError, load_environment, parse_environment
from deployment_config.image_cache import cached_image, docker_hub_repository
from tests.cfn_lint import cfn_lint_errors

TEST_CONFIGS = Path(__file__).resolve().parents[1] / "configs"
SECRET_ARN = (
    "arn:aws:secretsmanager:us-west-2:123456789012:secret:ecr-pullthroughcache/docker-hub-AbCdEf"
)
REGISTRY = "123456789012.dkr.ecr.us-west-2.amazonaws.com"
DIGEST = "sha256:" + "0123456789abcdef" * 4


@pytest.fixture(scope="module")
def eks_cache_env():
    return load_environment(TEST_CONFIGS, "image-cache")


@pytest.fixture(scope="module")
def hyperpod_cache_env():
    return load_environment(TEST_CONFIGS, "image-cache-hyperpod")


@pytest.fixture(scope="module")
def cache_templates(eks_cache_env, hyperpod_cache_env, tmp_path_factory) -> dict[str, dict]:
    """Stack name → template, and the assembly directory under the key 'directory'."""
    from app import checked_app
    from stacks.composition import _base, _props
    from stacks.gpu_nodes_stack import GpuNodesStack
    from stacks.hyperpod_cluster_stack import HyperPodClusterStack

    app = checked_app(str(tmp_path_factory.mktemp("image-cache.out")), inspect_only=True)
    network, cluster = _base(app, eks_cache_env)
    GpuNodesStack(
        app,
        **_props(eks_cache_env, "gpu-nodes"),
        env_config=eks_cache_env,
        cluster=cluster.cluster,
        gpu_subnet=network.gpu_subnets[0],
        efa_security_group=network.efa_security_group,
    )
    network, cluster = _base(app, hyperpod_cache_env)
    HyperPodClusterStack(
        app,
        **_props(hyperpod_cache_env, "hyperpod"),
        env_config=hyperpod_cache_env,
        cluster=cluster.cluster,
        vpc=network.vpc,
        gpu_subnet=network.gpu_subnets[0],
        efa_security_group=network.efa_security_group,
    )
    assembly = app.synth()  # raises on an unacknowledged cdk-nag finding
    return {"directory": assembly.directory, **{s.stack_name: s.template for s in assembly.stacks}}


def _resources(template: dict, resource_type: str) -> list[dict]:
    return [r for r in template["Resources"].values() if r["Type"] == resource_type]


def _cache_statements(template: dict) -> list[dict]:
    return [
        statement
        for policy in _resources(template, "AWS::IAM::Policy")
        for statement in policy["Properties"]["PolicyDocument"]["Statement"]
        if statement.get("Sid") == "PullThroughDockerHubCache"
    ]


def _repositories(prefix: str) -> dict:
    return {
        "Fn::Join": [
            "",
            [
                "arn:",
                {"Ref": "AWS::Partition"},
                f":ecr:us-west-2:123456789012:repository/{prefix}/*",
            ],
        ]
    }


# --- the rule and the template --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "stack, prefix",
    [("image-cache-cluster", "llm-docker-hub"), ("image-cache-hyperpod-cluster", "docker-hub")],
)
def test_given_the_cache_when_the_cluster_stack_is_built_then_it_has_a_docker_hub_rule_with_the_secret(
    cache_templates, stack, prefix
):
    (rule,) = _resources(cache_templates[stack], "AWS::ECR::PullThroughCacheRule")
    assert rule["Properties"] == {
        "EcrRepositoryPrefix": prefix,
        "UpstreamRegistry": "docker-hub",
        "UpstreamRegistryUrl": "registry-1.docker.io",
        "CredentialArn": SECRET_ARN,
    }


def test_given_the_cache_then_its_repositories_are_kms_encrypted_mutable_and_keep_three_images(
    cache_templates,
):
    template = cache_templates["image-cache-cluster"]
    (creation,) = _resources(template, "AWS::ECR::RepositoryCreationTemplate")
    properties = creation["Properties"]
    assert properties["Prefix"] == "llm-docker-hub"
    assert properties["AppliedFor"] == ["PULL_THROUGH_CACHE"]
    assert properties["EncryptionConfiguration"] == {
        "EncryptionType": "KMS"
    }  # the AWS managed key: no custom role
    assert "CustomRoleArn" not in properties and "ResourceTags" not in properties
    assert properties["ImageTagMutability"] == "MUTABLE"
    (rule,) = json.loads(properties["LifecyclePolicy"])["rules"]
    assert rule["selection"] == {
        "tagStatus": "any",
        "countType": "imageCountMoreThan",
        "countNumber": 3,
    }
    assert rule["action"] == {"type": "expire"}
    # the template is in place before the rule can create a repository
    (rule_id,) = [
        k for k, r in template["Resources"].items() if r["Type"] == "AWS::ECR::PullThroughCacheRule"
    ]
    (template_id,) = [
        k
        for k, r in template["Resources"].items()
        if r["Type"] == "AWS::ECR::RepositoryCreationTemplate"
    ]
    assert template_id in template["Resources"][rule_id]["DependsOn"]


def test_the_cache_templates_pass_cfn_lint(cache_templates):
    directory = Path(cache_templates["directory"])
    names = (
        "image-cache-cluster",
        "image-cache-gpu-nodes",
        "image-cache-hyperpod-cluster",
        "image-cache-hyperpod-hyperpod",
    )
    templates = [directory / f"{name}.template.json" for name in names]
    errors = cfn_lint_errors(templates, ["us-west-2"])
    assert errors == [], json.dumps(errors, indent=1)


# --- the node roles -------------------------------------------------------------------------------------------------


def test_given_the_cache_then_the_gpu_node_role_may_import_and_create_under_the_prefix_only(
    cache_templates,
):
    template = cache_templates["image-cache-gpu-nodes"]
    (statement,) = _cache_statements(template)
    assert sorted(statement["Action"]) == ["ecr:BatchImportUpstreamImage", "ecr:CreateRepository"]
    assert statement["Resource"] == _repositories("llm-docker-hub")
    (policy,) = [
        p
        for p in _resources(template, "AWS::IAM::Policy")
        if _cache_statements({"Resources": {"p": p}})
    ]
    (role_ref,) = policy["Properties"]["Roles"]
    assert template["Resources"][role_ref["Ref"]]["Properties"]["AssumeRolePolicyDocument"][
        "Statement"
    ][0]["Principal"] == {"Service": "ec2.amazonaws.com"}


def test_given_the_cache_then_the_hyperpod_execution_role_may_import_and_create_under_the_prefix_only(
    cache_templates,
):
    template = cache_templates["image-cache-hyperpod-hyperpod"]
    (statement,) = _cache_statements(template)
    assert sorted(statement["Action"]) == ["ecr:BatchImportUpstreamImage", "ecr:CreateRepository"]
    assert statement["Resource"] == _repositories("docker-hub")


# --- the image both charts pull -------------------------------------------------------------------------------------


def test_given_the_cache_then_the_eks_deployment_pulls_the_image_from_the_private_registry(
    eks_cache_env,
):
    manifests = synthesize_manifests(serving_spec_for(eks_cache_env))
    (deployment,) = [m for m in manifests if m["kind"] == "Deployment"]
    (container,) = [
        c for c in deployment["spec"]["template"]["spec"]["containers"] if c["name"] == "vllm"
    ]
    assert container["image"] == f"{REGISTRY}/llm-docker-hub/vllm/vllm-openai:kimi-k3"
    assert container["imagePullPolicy"] == "IfNotPresent"
    kubernetes_validate.validate(deployment, eks_cache_env.kubernetes_version, strict=True)


def test_given_the_cache_then_the_hyperpod_worker_pulls_the_pinned_image_from_the_private_registry(
    hyperpod_cache_env,
):
    from tests.crd_schema import validate_custom_resource

    objects = synthesize_inference_endpoint(inference_endpoint_spec_for(hyperpod_cache_env))
    (endpoint,) = [o for o in objects if o["kind"] == "InferenceEndpointConfig"]
    assert (
        endpoint["spec"]["worker"]["image"]
        == f"{REGISTRY}/docker-hub/vllm/vllm-openai:kimi-k3@{DIGEST}"
    )
    validate_custom_resource(endpoint)


def test_by_default_the_charts_pull_from_docker_hub_and_the_stacks_have_no_cache(
    default_env, hyperpod_env, synthesized, synthesized_hyperpod
):
    assert default_env.model.image_cache is None and hyperpod_env.model.image_cache is None
    assert serving_spec_for(default_env).image == "vllm/vllm-openai:kimi-k3"
    assert inference_endpoint_spec_for(hyperpod_env).image == "vllm/vllm-openai:kimi-k3"
    for view in (synthesized, synthesized_hyperpod):
        for template in view.templates.values():
            assert not [
                r for r in template["Resources"].values() if r["Type"].startswith("AWS::ECR::")
            ]
            assert not _cache_statements(template)


@pytest.mark.parametrize(
    "image, expected",
    [
        ("vllm/vllm-openai:kimi-k3", "vllm/vllm-openai:kimi-k3"),
        ("alpine:3.20", "library/alpine:3.20"),  # an official image: ECR needs library/
        ("alpine", "library/alpine"),
        (f"alpine@{DIGEST}", f"library/alpine@{DIGEST}"),
        ("docker.io/library/alpine:3", "library/alpine:3"),
        ("index.docker.io/vllm/vllm-openai:v0.33.0", "vllm/vllm-openai:v0.33.0"),
        ("docker.io/alpine", "library/alpine"),
        ("public.ecr.aws/vllm/vllm-openai:v0.33.0", None),
        ("localhost/vllm:1", None),
        ("localhost:5000/vllm:1", None),
    ],
)
def test_docker_hub_repository_normalizes_as_docker_does(image, expected):
    assert docker_hub_repository(image) == expected


def test_the_cached_reference_uses_the_partitions_registry_host():
    assert (
        cached_image(
            "vllm/vllm-openai:v1",
            account="123456789012",
            region="cn-north-1",
            partition="aws-cn",
            repository_prefix="docker-hub",
        )
        == "123456789012.dkr.ecr.cn-north-1.amazonaws.com.cn/docker-hub/vllm/vllm-openai:v1"
    )


# --- validation at the edge -----------------------------------------------------------------------------------------


def _problems(document: dict) -> dict[str, str]:
    try:
        parse_environment(document, name="example", source="config/example.yaml")
    except ConfigError as error:
        return {issue.field: f"{issue.problem} / {issue.fix}" for issue in error.issues}
    return {}


@pytest.mark.parametrize(
    "arn, words",
    [
        (
            "arn:aws:secretsmanager:us-west-2:123456789012:secret:docker-hub-AbCdEf",
            "ecr-pullthroughcache/",
        ),
        (
            "arn:aws:secretsmanager:us-west-2:999999999999:secret:ecr-pullthroughcache/docker-hub-AbCdEf",
            "123456789012",
        ),
        (
            "arn:aws:secretsmanager:us-east-1:123456789012:secret:ecr-pullthroughcache/docker-hub-AbCdEf",
            "us-west-2",
        ),
        ("ecr-pullthroughcache/docker-hub", "ARN"),
    ],
)
def test_a_wrong_credentials_secret_is_refused_with_what_to_fix(example_copy, arn, words):
    example_copy["model"]["image_cache"] = {"docker_hub_credentials_secret_arn": arn}
    problems = _problems(example_copy)
    assert list(problems) == ["model.image_cache.docker_hub_credentials_secret_arn"]
    assert words.lower() in problems["model.image_cache.docker_hub_credentials_secret_arn"].lower()


def test_an_image_on_another_registry_is_refused_with_the_cache(example_copy):
    example_copy["model"]["image"] = "public.ecr.aws/vllm/vllm-openai:v0.33.0"
    example_copy["model"]["image_cache"] = {"docker_hub_credentials_secret_arn": SECRET_ARN}
    problems = _problems(example_copy)
    assert list(problems) == ["model.image_cache"]
    assert "Docker Hub" in problems["model.image_cache"]


@pytest.mark.parametrize("prefix", ["ROOT", "Docker-Hub", "d", "docker-hub/", "x" * 31])
def test_a_prefix_ecr_would_refuse_is_refused(example_copy, prefix):
    example_copy["model"]["image_cache"] = {
        "docker_hub_credentials_secret_arn": SECRET_ARN,
        "repository_prefix": prefix,
    }
    assert list(_problems(example_copy)) == ["model.image_cache.repository_prefix"]
