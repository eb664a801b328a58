"""The SageMaker HyperPod path: the InferenceEndpointConfig against its CRD, and the stacks that serve it."""

from __future__ import annotations

import dataclasses
import json
import os
import pathlib
import re
import subprocess
import sys

import jsonschema
import pytest
import yaml

from cdk_constructs.hyperpod_cluster import LIFECYCLE_DIR
from charts.inference_endpoint_chart import (
    inference_endpoint_spec_for,
    synthesize_inference_endpoint,
)
from charts.vllm_auth_middleware import BOOTSTRAP, MIDDLEWARE_ARGS, MODULE_FILE, MODULE_VARIABLE
from deployment_config.model import WeightSource
from deployment_config.sizing import startup_budget
from tests.charts.test_serving_chart import RECIPE_ARGS, _options
from tests.conftest import bare_app
from tests.crd_schema import validate_custom_resource

# --- the InferenceEndpointConfig ----------------------------------------------------------------------------------


def _endpoint_config(objects: list[dict]) -> dict:
    (obj,) = [o for o in objects if o["kind"] == "InferenceEndpointConfig"]
    return obj


@pytest.fixture(scope="module")
def endpoint(hyperpod_env) -> dict:
    return _endpoint_config(
        synthesize_inference_endpoint(inference_endpoint_spec_for(hyperpod_env))
    )


def test_endpoint_validates_against_the_crd_v1_schema(endpoint):
    assert endpoint["apiVersion"] == "inference.sagemaker.aws.amazon.com/v1"
    validate_custom_resource(endpoint)


@pytest.mark.parametrize(
    "path, value",
    [
        (("spec", "instanceType"), "p6-b300.48xlarge"),  # pattern ^ml\\..*
        (("spec", "modelSourceConfig", "modelSourceType"), "http"),  # enum
        (("spec", "worker", "modelInvocationPort", "containerPort"), "8000"),  # type
        # fields the CRD lacks, which the API server would drop without a word: refused, not ignored
        (("spec", "replica"), 2),
        (("spec", "worker", "volumeMounts"), [{"name": "dshm", "mountPath": "/dev/shm"}]),
        (("spec", "loadBalancer", "scheme"), "internet-facing"),
    ],
)
def test_crd_validation_catches_what_the_operator_would_reject(endpoint, path, value):
    broken = json.loads(json.dumps(endpoint))
    node = broken
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    with pytest.raises(jsonschema.ValidationError):
        validate_custom_resource(broken)


def test_crd_validation_catches_a_missing_required_field(endpoint):
    broken = json.loads(json.dumps(endpoint))
    del broken["spec"]["worker"]["modelVolumeMount"]
    with pytest.raises(jsonschema.ValidationError):
        validate_custom_resource(broken)


def test_endpoint_is_the_recipe_manifest(endpoint):
    spec = endpoint["spec"]
    worker = spec["worker"]
    assert endpoint["metadata"]["name"] == "kimik3"
    assert spec["modelName"] == "Kimi-K3"
    assert spec["instanceType"] == "ml.p6-b300.48xlarge"
    assert spec["invocationEndpoint"] == "v1/chat/completions"
    # the weights from S3 (the project's only source on HyperPod): the example's bucket and prefix
    assert spec["modelSourceConfig"] == {
        "modelSourceType": "s3",
        "modelLocation": "moonshotai/Kimi-K3/",
        "s3Storage": {"bucketName": "my-model-bucket", "region": "us-west-2"},
    }
    assert worker["image"] == "vllm/vllm-openai:kimi-k3"
    assert worker["modelInvocationPort"]["containerPort"] == 8000
    assert worker["modelVolumeMount"]["mountPath"] == "/opt/ml/model"
    assert worker["resources"]["limits"]["nvidia.com/gpu"] == 8
    assert {"name": "VLLM_USE_V2_MODEL_RUNNER", "value": "1"} in worker["environmentVariables"]
    # the operator does not add --model: the worker loads the weights the operator mounted, everything else as the
    # recipe's Blackwell single-node profile gives it, and the middleware that requires the API key on every path
    expected = _options([*RECIPE_ARGS, "--shutdown-timeout", "300", *MIDDLEWARE_ARGS])
    expected["--model"] = "/opt/ml/model"
    assert _options(worker["args"]) == expected
    assert worker["args"][:2] == ["--model", worker["modelVolumeMount"]["mountPath"]]


@pytest.mark.parametrize("api_key_required", [True, False])
def test_a_pinned_endpoint_serves_its_revisions_prefix_and_checks_the_mount_first(
    hyperpod_env, api_key_required
):
    from charts.vllm_auth_middleware import VERIFIER_ARGS_VARIABLE, VERIFIER_VARIABLE

    # given the HyperPod example pinned at a commit, with and without its API key
    revision = "0123456789abcdef0123456789abcdef01234567"
    env = dataclasses.replace(
        hyperpod_env,
        model=dataclasses.replace(hyperpod_env.model, hugging_face_revision=revision),
        endpoint=hyperpod_env.endpoint.model_copy(
            update={"authentication": "api-key" if api_key_required else "none"}
        ),
    )
    # when the endpoint is rendered
    config = _endpoint_config(synthesize_inference_endpoint(inference_endpoint_spec_for(env)))
    validate_custom_resource(config)
    worker = config["spec"]["worker"]
    variables = {v["name"]: v.get("value") for v in worker["environmentVariables"]}
    # then the operator copies the commit's own prefix, which the mirror wrote and checked, not the bare s3_uri
    assert config["spec"]["modelSourceConfig"]["modelLocation"] == f"moonshotai/Kimi-K3/{revision}/"
    # and the bootstrap checks the mount against that commit's manifest before vLLM starts, key or no key
    assert worker["command"] == ["python3", "-c", BOOTSTRAP]
    assert json.loads(variables[VERIFIER_ARGS_VARIABLE]) == [
        "/opt/ml/model",
        "--revision",
        revision,
        "--sizes-only",
    ]
    assert variables[VERIFIER_VARIABLE]
    # and the middleware only where a key is required (without one, vLLM is not told to load it)
    assert (MODULE_VARIABLE in variables) is api_key_required
    assert ("--middleware" in worker["args"]) is api_key_required


def test_the_worker_loads_the_api_key_middleware_without_a_volume(endpoint, tmp_path):
    # given the worker of an endpoint that requires its API key: the bootstrap command, and the module in its environment
    worker = endpoint["spec"]["worker"]
    assert worker["command"] == ["python3", "-c", BOOTSTRAP]
    (module,) = [v["value"] for v in worker["environmentVariables"] if v["name"] == MODULE_VARIABLE]
    assert module == MODULE_FILE.read_text(encoding="utf-8")
    # when the command runs as the container would run it, with a stand-in `vllm` that imports the middleware vLLM's
    # --middleware names and reports what it was started with
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake_vllm = bin_dir / "vllm"
    fake_vllm.write_text(
        f"#!{sys.executable}\n"
        "import importlib, json, os, sys\n"
        "module, _, name = sys.argv[sys.argv.index('--middleware') + 1].rpartition('.')\n"
        "cls = getattr(importlib.import_module(module), name)\n"
        "print(json.dumps({'argv': sys.argv[1:], 'class': cls.__name__,\n"
        "                  'file': sys.modules[module].__file__}))\n"
    )
    fake_vllm.chmod(0o755)
    environ = {
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        MODULE_VARIABLE: module,
        "HOME": str(tmp_path),
        "TMPDIR": str(tmp_path),
    }
    result = subprocess.run(
        [sys.executable, *worker["command"][1:], *worker["args"]],
        capture_output=True,
        text=True,
        env=environ,
        timeout=60,
    )
    # then vLLM was started as `vllm serve ARGS`, with the middleware importable from a private directory
    assert result.returncode == 0, result.stderr
    started = json.loads(result.stdout)
    assert started["argv"] == ["serve", *worker["args"]]
    assert started["class"] == "RequireApiKeyEverywhere"
    written = pathlib.Path(started["file"])
    assert (
        written.read_text(encoding="utf-8") == module and written.parent.stat().st_mode & 0o077 == 0
    )


def test_without_the_module_the_worker_never_starts_vllm(endpoint, tmp_path):
    # a worker whose environment lost the module (an operator that dropped the variable) fails before vLLM runs
    worker = endpoint["spec"]["worker"]
    result = subprocess.run(
        [sys.executable, *worker["command"][1:], *worker["args"]],
        capture_output=True,
        text=True,
        env={"PATH": "/nonexistent", "TMPDIR": str(tmp_path)},
        timeout=60,
    )
    assert result.returncode != 0 and MODULE_VARIABLE in result.stderr


def test_endpoint_corrects_the_defaults_that_are_wrong_for_this_model(endpoint, hyperpod_env):
    spec = endpoint["spec"]
    budget = startup_budget(hyperpod_env.model.weight_size_gb)
    assert spec["maxDeployTimeInSeconds"] > budget.probe_seconds > 3600
    for probe in spec["worker"]["probes"].values():
        assert probe["httpGet"] == {"path": "/health", "port": 8000}
    startup = spec["worker"]["probes"]["startupProbe"]
    probe_budget = startup["periodSeconds"] * startup["failureThreshold"]
    # vLLM waits for its engine as long as the weights take to load (its default of 600 s would end it first),
    # and the startup probe outlasts vLLM, so a load that is too slow ends with vLLM's own error
    environment = {e["name"]: e.get("value") for e in spec["worker"]["environmentVariables"]}
    engine_timeout = int(environment["VLLM_ENGINE_READY_TIMEOUT_S"])
    assert engine_timeout == budget.engine_ready_timeout_seconds > 3600
    assert engine_timeout < probe_budget < spec["maxDeployTimeInSeconds"]
    assert spec["metrics"]["modelMetrics"]["port"] == 8000
    assert spec["loadBalancer"]["healthCheckPath"] == "/health"


def test_s3_model_source(hyperpod_env):
    model = dataclasses.replace(
        hyperpod_env.model, weight_source=WeightSource.S3, s3_uri="s3://weights-bucket/kimi-k3/"
    )
    obj = _endpoint_config(
        synthesize_inference_endpoint(
            inference_endpoint_spec_for(dataclasses.replace(hyperpod_env, model=model))
        )
    )
    validate_custom_resource(obj)
    assert obj["spec"]["modelSourceConfig"] == {
        "modelSourceType": "s3",
        "modelLocation": "kimi-k3/",
        "s3Storage": {"bucketName": "weights-bucket", "region": "us-west-2"},
    }


def test_reviewed_yaml_is_what_the_endpoint_stack_applies(synthesized_hyperpod):
    assert synthesized_hyperpod.kubernetes_file.name == "kimi-k3.yaml"
    reviewed = list(yaml.safe_load_all(synthesized_hyperpod.kubernetes_file.read_text()))
    (resource,) = synthesized_hyperpod.resources(
        "endpoint", "Custom::AWSCDK-EKS-KubernetesResource"
    ).values()
    applied = json.loads(resource["Properties"]["Manifest"])

    def content(
        obj: dict,
    ) -> tuple:  # the kubectl provider adds its own prune label to what it applies
        return (
            obj["kind"],
            obj["metadata"].get("namespace"),
            obj["metadata"]["name"],
            obj.get("spec"),
        )

    assert [content(o) for o in applied] == [content(o) for o in reviewed]
    # the namespace first; the worker's NetworkPolicy and the secrets sync (its account, SecretProviderClass,
    # NetworkPolicy, PodDisruptionBudget and Deployment) before the endpoint whose pod they guard and serve
    assert [o["kind"] for o in applied] == [
        "Namespace",
        "NetworkPolicy",
        "ServiceAccount",
        "SecretProviderClass",
        "NetworkPolicy",
        "PodDisruptionBudget",
        "Deployment",
        "InferenceEndpointConfig",
    ]


def test_the_worker_pods_admit_traffic_from_the_vpc_only(synthesized_hyperpod, hyperpod_env):
    import kubernetes_validate

    # given the objects the endpoint stack applies
    (resource,) = synthesized_hyperpod.resources(
        "endpoint", "Custom::AWSCDK-EKS-KubernetesResource"
    ).values()
    (policy,) = [
        o
        for o in json.loads(resource["Properties"]["Manifest"])
        if o["kind"] == "NetworkPolicy" and o["metadata"]["name"].endswith("-worker")
    ]
    (endpoint,) = [
        o
        for o in json.loads(resource["Properties"]["Manifest"])
        if o["kind"] == "InferenceEndpointConfig"
    ]
    # then the policy is a valid Kubernetes object of the cluster's version
    kubernetes_validate.validate(policy, hyperpod_env.kubernetes_version, strict=True)
    # in the endpoint's namespace, selecting its worker pods by the label the operator gives them (app = its name)
    assert policy["metadata"]["namespace"] == endpoint["metadata"]["namespace"]
    assert policy["spec"]["podSelector"] == {"matchLabels": {"app": endpoint["metadata"]["name"]}}
    # admitting inbound traffic from the VPC's range only (every port: the operator's sidecar ports are not
    # documented), and leaving egress open (S3, DNS, the operator)
    assert policy["spec"]["policyTypes"] == ["Ingress"]
    assert policy["spec"]["ingress"] == [{"from": [{"ipBlock": {"cidr": hyperpod_env.vpc_cidr}}]}]


# --- the stacks ---------------------------------------------------------------------------------------------------


def test_hyperpod_cluster_uses_the_plan_in_its_zone(synthesized_hyperpod, hyperpod_env):
    (cluster,) = [
        r["Properties"]
        for r in synthesized_hyperpod.resources("hyperpod", "AWS::SageMaker::Cluster").values()
    ]
    assert cluster["NodeRecovery"] == "Automatic"
    assert "Fn::ImportValue" in json.dumps(cluster["Orchestrator"]["Eks"]["ClusterArn"])
    (group,) = cluster["InstanceGroups"]
    assert group["InstanceType"] == "ml.p6-b300.48xlarge"
    assert group["InstanceCount"] == 1
    assert group["TrainingPlanArn"] == hyperpod_env.hyperpod.training_plan_arn
    # p6-b300 has 8 NVMe disks, which the lifecycle script uses: no EBS volume to pay for and leave unused
    assert "InstanceStorageConfigs" not in group
    assert set(group["OnStartDeepHealthChecks"]) == {"InstanceStress", "InstanceConnectivity"}
    assert group["LifeCycleConfig"]["OnCreate"] == "on_create.sh"
    # the group's one subnet is the network stack's subnet in the plan's zone
    (subnet,) = group["OverrideVpcConfig"]["Subnets"]
    export = subnet["Fn::ImportValue"]
    network = synthesized_hyperpod.template("network")
    (output,) = [
        o for o in network["Outputs"].values() if o.get("Export", {}).get("Name") == export
    ]
    assert (
        network["Resources"][output["Value"]["Ref"]]["Properties"]["AvailabilityZone"]
        == "us-west-2a"
    )


def _resolve_stack_id(value, stack_id: str):
    """A CloudFormation value of Fn::Join / Fn::Select / Fn::Split / Ref AWS::StackId, evaluated for ``stack_id``."""
    if isinstance(value, str):
        return value
    ((function, argument),) = value.items()
    if function == "Ref":
        assert argument == "AWS::StackId", argument
        return stack_id
    if function == "Fn::Join":
        return argument[0].join(_resolve_stack_id(part, stack_id) for part in argument[1])
    if function == "Fn::Split":
        return _resolve_stack_id(argument[1], stack_id).split(argument[0])
    if function == "Fn::Select":
        return _resolve_stack_id(argument[1], stack_id)[int(argument[0])]
    raise AssertionError(f"unexpected {function}")


def test_lifecycle_bucket_starts_with_sagemaker_and_is_unique_per_stack(synthesized_hyperpod):
    # given the lifecycle bucket and the cluster that reads it
    ((bucket_key, bucket),) = [
        (key, r["Properties"])
        for key, r in synthesized_hyperpod.resources("hyperpod", "AWS::S3::Bucket").items()
        if key.startswith("HyperPodLifecycleScripts")
    ]
    (cluster,) = synthesized_hyperpod.resources("hyperpod", "AWS::SageMaker::Cluster").values()
    (group,) = cluster["Properties"]["InstanceGroups"]
    # when CloudFormation names it in two stacks (two environments, or the same one created again)
    first = "arn:aws:cloudformation:us-west-2:123456789012:stack/llm-hyperpod/51af3dc0-da77-11e4-872e-1234567db123"
    second = "arn:aws:cloudformation:eu-west-1:123456789012:stack/llm-hyperpod/0f8e7d6c-5b4a-4932-8716-a5b4c3d2e1f0"
    names = [_resolve_stack_id(bucket["BucketName"], stack_id) for stack_id in (first, second)]
    # then each name starts with sagemaker- (SageMaker API, ClusterLifeCycleConfig.SourceS3Uri), keeps S3's naming rules,
    # and differs from the other
    assert names == [
        "sagemaker-lifecycle-51af3dc0-da77-11e4-872e-1234567db123",
        "sagemaker-lifecycle-0f8e7d6c-5b4a-4932-8716-a5b4c3d2e1f0",
    ]
    assert all(re.fullmatch(r"[a-z0-9][a-z0-9-]{1,61}[a-z0-9]", name) for name in names)
    # and the cluster's lifecycle path is in that bucket
    assert group["LifeCycleConfig"]["SourceS3Uri"] == {
        "Fn::Join": ["", ["s3://", {"Ref": bucket_key}, "/lifecycle/"]]
    }


def test_hyperpod_execution_role_is_for_sagemaker(synthesized_hyperpod):
    roles = synthesized_hyperpod.resources("hyperpod", "AWS::IAM::Role").values()
    trusted = [
        r
        for r in roles
        if r["Properties"]["AssumeRolePolicyDocument"]["Statement"][0]["Principal"]
        == {"Service": "sagemaker.amazonaws.com"}
    ]
    assert len(trusted) == 1
    assert "AmazonSageMakerClusterInstanceRolePolicy" in json.dumps(
        trusted[0]["Properties"]["ManagedPolicyArns"]
    )


def test_every_role_sagemaker_assumes_is_for_this_accounts_sagemaker_resources_only(
    synthesized_hyperpod, hyperpod_env
):
    # given every trust of sagemaker.amazonaws.com in the HyperPod environment: the cluster's execution role and
    # the Inference Operator's
    trusts = {
        (unit, logical_id): statement
        for unit in ("hyperpod", "inference-operator")
        for logical_id, role in synthesized_hyperpod.resources(unit, "AWS::IAM::Role").items()
        for statement in role["Properties"]["AssumeRolePolicyDocument"]["Statement"]
        if statement["Principal"] == {"Service": "sagemaker.amazonaws.com"}
    }
    assert {unit for unit, _ in trusts} == {"hyperpod", "inference-operator"}
    # then each has the confused-deputy conditions of the SageMaker developer guide, IfExists since AWS documents no
    # source ARN for HyperPod (cdk_constructs/sagemaker_principal.py): this account, its SageMaker resources here
    for where, statement in trusts.items():
        assert statement["Action"] == "sts:AssumeRole", where
        assert statement["Condition"] == {
            "StringEqualsIfExists": {"aws:SourceAccount": hyperpod_env.account},
            "ArnLikeIfExists": {
                "aws:SourceArn": {
                    "Fn::Join": [
                        "",
                        [
                            "arn:",
                            {"Ref": "AWS::Partition"},
                            f":sagemaker:{hyperpod_env.region}:{hyperpod_env.account}:*",
                        ],
                    ]
                }
            },
        }, where


def test_hyperpod_execution_role_may_manage_interface_permissions_and_tags_on_network_interfaces_only(
    synthesized_hyperpod,
):
    # SageMaker developer guide, IAM for HyperPod (EKS orchestration in a customer VPC)
    statements = [
        s
        for p in synthesized_hyperpod.resources("hyperpod", "AWS::IAM::Policy").values()
        for s in p["Properties"]["PolicyDocument"]["Statement"]
    ]
    by_action = {}
    for statement in statements:
        for action in (
            statement["Action"] if isinstance(statement["Action"], list) else [statement["Action"]]
        ):
            by_action.setdefault(action, []).append(json.dumps(statement["Resource"]))
    for action in ("ec2:CreateNetworkInterfacePermission", "ec2:CreateTags"):
        assert by_action[action] and all(":network-interface/*" in r for r in by_action[action]), (
            action
        )
    assert by_action["ec2:DescribeTags"] == ['"*"']  # a describe call has no resource types
    # takes network-interface, with ec2:Vpc (Service Authorization Reference, tests/data/iam_sar/ec2.json)
    assert [
        json.loads(r)["Fn::Join"][1][-1] for r in by_action["ec2:DeleteNetworkInterfacePermission"]
    ] == [":network-interface/*"]


def test_hyperpod_execution_role_writes_only_this_vpcs_interfaces_and_takes_pod_roles_of_this_cluster_only(
    synthesized_hyperpod,
):
    # given the execution role's statements and the cluster it serves
    template = synthesized_hyperpod.template("hyperpod")
    statements = [
        s
        for p in _of_type(template, "AWS::IAM::Policy").values()
        for s in p["Properties"]["PolicyDocument"]["Statement"]
    ]
    by_sid = {s.get("Sid"): s for s in statements}
    (cluster,) = _of_type(template, "AWS::SageMaker::Cluster").values()
    vpc_config = cluster["Properties"]["VpcConfig"]
    # then "*" is left only to the Describe calls, which take no resource types
    for statement in statements:
        if statement["Resource"] == "*":
            actions = (
                statement["Action"]
                if isinstance(statement["Action"], list)
                else [statement["Action"]]
            )
            assert all(a.startswith(("ec2:Describe", "logs:", "cloudwatch:")) for a in actions), (
                statement
            )
    # the network interface writes act on this account's interfaces in this VPC only
    interfaces = {
        "Fn::Join": [
            "",
            [
                "arn:",
                {"Ref": "AWS::Partition"},
                ":ec2:",
                {"Ref": "AWS::Region"},
                ":",
                {"Ref": "AWS::AccountId"},
                ":network-interface/*",
            ],
        ]
    }
    writes = by_sid["NetworkInterfacesInThisVpc"]
    assert {
        "ec2:DeleteNetworkInterface",
        "ec2:AssignPrivateIpAddresses",
        "ec2:CreateNetworkInterfacePermission",
        "ec2:DeleteNetworkInterfacePermission",
    } <= set(writes["Action"])
    assert writes["Resource"] == interfaces
    vpc_arn = json.dumps(writes["Condition"]["StringEquals"]["ec2:Vpc"])
    assert ":vpc/" in vpc_arn and "Vpc" in vpc_arn and "Fn::ImportValue" in vpc_arn
    # a new interface has no VPC to match: CreateNetworkInterface on it has a statement without ec2:Vpc, which the
    # action does not take for network-interface (Service Authorization Reference, AmazonEKSNetworkingPolicy)
    assert "ec2:CreateNetworkInterface" not in writes["Action"]
    assert by_sid["NewNetworkInterfaces"] == {
        "Action": "ec2:CreateNetworkInterface",
        "Effect": "Allow",
        "Resource": interfaces,
        "Sid": "NewNetworkInterfaces",
    }
    # CreateNetworkInterface may name only the cluster's subnets and security groups, in this VPC
    named = by_sid["ThisClustersSubnetsAndSecurityGroups"]
    assert named["Condition"] == writes["Condition"]
    resources = json.dumps(named["Resource"])
    for subnet_or_group in [*vpc_config["Subnets"], *vpc_config["SecurityGroupIds"]]:
        assert json.dumps(subnet_or_group) in resources
    assert len(named["Resource"]) == len(vpc_config["Subnets"]) + len(
        vpc_config["SecurityGroupIds"]
    )
    # and Pod Identity works for this EKS cluster only
    assert by_sid["PodIdentity"] == {
        "Action": "eks-auth:AssumeRoleForPodIdentity",
        "Effect": "Allow",
        "Resource": cluster["Properties"]["Orchestrator"]["Eks"]["ClusterArn"],
        "Sid": "PodIdentity",
    }


def test_lifecycle_script_is_valid_bash_and_fails_loudly(tmp_path):
    script = LIFECYCLE_DIR / "on_create.sh"
    subprocess.run(["bash", "-n", str(script)], check=True)
    result = subprocess.run(
        ["bash", str(script)],
        capture_output=True,
        text=True,
        timeout=30,
        env={
            **os.environ,
            "FAIL_DELAY_SECONDS": "0",
            "STORAGE_CANDIDATES": str(tmp_path / "none"),
            "STORAGE_WAIT_SECONDS": "0",
        },
    )
    assert result.returncode == 1
    assert (
        f"FAILED: no large volume after 0 s: none of {tmp_path / 'none'} is mounted"
        in result.stdout
    )


def test_cluster_meets_hyperpod_requirements(synthesized_hyperpod):
    template = synthesized_hyperpod.assertions("cluster")
    template.has_resource_properties(
        "AWS::EKS::Cluster",
        {
            "Version": "1.34",
            "AccessConfig": {
                "AuthenticationMode": "API",
                "BootstrapClusterCreatorAdminPermissions": False,
            },
        },
    )
    template.resource_count_is("AWS::IAM::OIDCProvider", 1)
    addons = {
        a["Properties"]["AddonName"]
        for a in synthesized_hyperpod.resources("cluster", "AWS::EKS::Addon").values()
    }
    assert {"vpc-cni", "kube-proxy", "coredns", "eks-pod-identity-agent"} <= addons


def test_prerequisites_tolerate_the_health_check_taint(synthesized_hyperpod):
    charts = synthesized_hyperpod.resources(
        "hyperpod-prereqs", "Custom::AWSCDK-EKS-HelmChart"
    ).values()
    health_taint = {
        "key": "sagemaker.amazonaws.com/node-health-status",
        "operator": "Equal",
        "value": "Unschedulable",
        "effect": "NoSchedule",
    }
    plugins = [c for c in charts if c["Properties"].get("Release") != "hyperpod-dependencies"]
    assert len(plugins) == 2
    for chart in plugins:
        assert health_taint in json.loads(chart["Properties"]["Values"])["tolerations"]
    nvidia = next(c for c in plugins if c["Properties"]["Chart"] == "nvidia-device-plugin")
    terms = json.loads(nvidia["Properties"]["Values"])["affinity"]["nodeAffinity"][
        "requiredDuringSchedulingIgnoredDuringExecution"
    ]["nodeSelectorTerms"]
    assert terms == [
        {
            "matchExpressions": [
                {
                    "key": "node.kubernetes.io/instance-type",
                    "operator": "In",
                    "values": ["ml.p6-b300.48xlarge"],
                }
            ]
        }
    ]


@pytest.fixture(scope="module")
def operator_addons(synthesized_hyperpod) -> dict[str, dict]:
    return {
        a["Properties"]["AddonName"]: a
        for a in synthesized_hyperpod.resources("inference-operator", "AWS::EKS::Addon").values()
    }


def test_operator_and_the_addons_it_requires_at_the_migration_scripts_versions(
    operator_addons, synthesized_hyperpod
):
    # AWS's helm_to_addon.sh installs these, at these versions; the operator's init container exits without the
    # S3 and FSx CSI drivers and cert-manager. The operator itself at the newest build a public source maps to its
    # version: v1.2.1-eksbuild.1, operator 3.1 (deployment_config/operator_releases.py)
    assert {name: a["Properties"]["AddonVersion"] for name, a in operator_addons.items()} == {
        "cert-manager": "v1.18.2-eksbuild.2",
        "metrics-server": "v0.7.2-eksbuild.4",
        "aws-mountpoint-s3-csi-driver": "v1.14.1-eksbuild.1",
        "aws-fsx-csi-driver": "v1.6.0-eksbuild.1",
        "amazon-sagemaker-hyperpod-inference": "v1.2.1-eksbuild.1",
    }
    operator = operator_addons["amazon-sagemaker-hyperpod-inference"]
    others = {
        k
        for k, a in synthesized_hyperpod.resources("inference-operator", "AWS::EKS::Addon").items()
        if a["Properties"]["AddonName"] != "amazon-sagemaker-hyperpod-inference"
    }
    assert set(operator["DependsOn"]) >= others
    # nothing stays behind on destroy
    assert all(a["Properties"]["PreserveOnDelete"] is False for a in operator_addons.values())


def test_operator_configuration_is_what_the_migration_script_writes(operator_addons):
    configuration = operator_addons["amazon-sagemaker-hyperpod-inference"]["Properties"][
        "ConfigurationValues"
    ]
    # the configuration is a JSON string with tokens: compare its shape with the tokens replaced
    text = json.dumps(configuration)
    for key in ("executionRoleArn", "tlsCertificateS3Bucket", "hyperpodClusterArn"):
        assert f'\\"{key}\\":' in text, key
    # without alb.serviceAccount.create the chart's default (false) leaves the load balancer controller with no role
    for fragment in (
        '\\"alb\\":{\\"enabled\\":true,\\"serviceAccount\\":{\\"create\\":true,\\"roleArn\\":',
        '\\"keda\\":{\\"enabled\\":true,\\"auth\\":{\\"aws\\":{\\"irsa\\":{\\"enabled\\":true,'
        '\\"roleArn\\":',
    ):
        assert fragment in text, fragment


def test_csi_drivers_take_roles_for_their_service_accounts(operator_addons):
    for name in ("aws-mountpoint-s3-csi-driver", "aws-fsx-csi-driver"):
        assert "ServiceAccountRoleArn" in operator_addons[name]["Properties"], name


def test_the_autoscalers_role_reads_cloudwatch_metrics_only(synthesized_hyperpod):
    # given the KEDA role's policy (the endpoint's autoscaling is a CloudWatch trigger, never Prometheus)
    template = synthesized_hyperpod.template("inference-operator")
    (policy,) = [
        p["Properties"]["PolicyDocument"]
        for key, p in _of_type(template, "AWS::IAM::Policy").items()
        if key.startswith("KedaRole")
    ]
    # then it may read CloudWatch metrics, which take no resource types, and nothing of Prometheus
    assert policy["Statement"] == [
        {
            "Sid": "ReadCloudWatchMetrics",
            "Effect": "Allow",
            "Resource": "*",
            "Action": [
                "cloudwatch:GetMetricData",
                "cloudwatch:GetMetricStatistics",
                "cloudwatch:ListMetrics",
            ],
        }
    ]


def test_every_operator_role_trusts_exactly_one_service_account(synthesized_hyperpod):
    template = synthesized_hyperpod.template("inference-operator")
    resources = template["Resources"]
    # CfnJson puts each trust condition in a custom resource: read the subjects from there
    trusts = {
        k: r["Properties"]["Value"]
        for k, r in resources.items()
        if r["Type"] == "Custom::AWSCDKCfnJson"
    }
    subjects_by_role = {}
    for key, role in resources.items():
        if role["Type"] != "AWS::IAM::Role" or "Federated" not in json.dumps(
            role["Properties"]["AssumeRolePolicyDocument"]
        ):
            continue
        statements = role["Properties"]["AssumeRolePolicyDocument"]["Statement"]
        federated = [s for s in statements if "Federated" in json.dumps(s["Principal"])]
        assert len(federated) == 1
        assert set(federated[0]["Condition"]) == {"StringEquals"}, key
        separator, parts = trusts[federated[0]["Condition"]["StringEquals"]["Fn::GetAtt"][0]][
            "Fn::Join"
        ]
        condition = json.loads(separator.join(p if isinstance(p, str) else "ISSUER" for p in parts))
        assert condition["ISSUER:aud"] == "sts.amazonaws.com"
        subjects_by_role[key] = [v for k, v in condition.items() if k.endswith(":sub")]
    assert sorted(s for subjects in subjects_by_role.values() for s in subjects) == sorted(
        [
            "system:serviceaccount:hyperpod-inference-system:hyperpod-inference-controller-manager",
            "system:serviceaccount:hyperpod-inference-system:aws-load-balancer-controller",
            "system:serviceaccount:hyperpod-inference-system:keda-operator",
            "system:serviceaccount:kube-system:s3-csi-driver-sa",
            "system:serviceaccount:kube-system:fsx-csi-controller-sa",
        ]
    )
    assert all(len(subjects) == 1 for subjects in subjects_by_role.values())


def test_execution_role_carries_the_name_prefix_and_managed_policy(synthesized_hyperpod):
    roles = [
        r["Properties"]
        for r in synthesized_hyperpod.resources("inference-operator", "AWS::IAM::Role").values()
    ]
    execution = [
        r for r in roles if str(r.get("RoleName", "")).startswith("SageMakerHyperPodInference")
    ]
    assert len(execution) == 1
    assert "AmazonSageMakerHyperPodInferenceAccess" in json.dumps(execution[0]["ManagedPolicyArns"])


def test_load_balancer_controller_gets_its_official_policy_from_the_data_file(synthesized_hyperpod):
    from stacks.inference_operator_stack import load_balancer_controller_policy

    data = load_balancer_controller_policy()
    assert data["source"]["repository"] == "kubernetes-sigs/aws-load-balancer-controller"
    assert data["source"]["ref"] == data["controller_version"] == "v2.13.2"
    (policy,) = synthesized_hyperpod.resources(
        "inference-operator", "AWS::IAM::ManagedPolicy"
    ).values()
    assert policy["Properties"]["PolicyDocument"] == data["policy"]
    roles = synthesized_hyperpod.resources("inference-operator", "AWS::IAM::Role")
    (role_ref,) = policy["Properties"]["Roles"]
    assert "LoadBalancerController" in role_ref["Ref"] and role_ref["Ref"] in roles


def test_tls_bucket_is_encrypted_private_and_tls_only(synthesized_hyperpod):
    buckets = synthesized_hyperpod.resources("inference-operator", "AWS::S3::Bucket")
    tls = next(b for k, b in buckets.items() if k.startswith("TlsCertificates"))["Properties"]
    assert tls["BucketEncryption"]["ServerSideEncryptionConfiguration"]
    assert tls["PublicAccessBlockConfiguration"] == {
        "BlockPublicAcls": True,
        "BlockPublicPolicy": True,
        "IgnorePublicAcls": True,
        "RestrictPublicBuckets": True,
    }
    policies = synthesized_hyperpod.resources(
        "inference-operator", "AWS::S3::BucketPolicy"
    ).values()
    assert any('"aws:SecureTransport": "false"' in json.dumps(p) for p in policies)


def test_deploy_order_and_reverse_destroy(synthesized_hyperpod, hyperpod_env):
    deps = {
        name: set(a.get("dependencies", []))
        for name, a in synthesized_hyperpod.manifest["artifacts"].items()
    }
    order = [
        "network",
        "cluster",
        "hyperpod-prereqs",
        "hyperpod",
        "inference-operator",
        "endpoint",
        "observability",
    ]
    for before, after in zip(order, order[1:]):
        assert hyperpod_env.stack_name(before) in deps[hyperpod_env.stack_name(after)], (
            before,
            after,
        )


def test_the_dependencies_chart_is_installed_by_default_from_the_vendored_copy(
    synthesized_hyperpod, hyperpod_env
):
    # AWS documents the chart as required before the HyperPod cluster: no warning, no manual step
    assert hyperpod_env.hyperpod.dependencies_chart_dir is None
    charts = synthesized_hyperpod.resources(
        "hyperpod-prereqs", "Custom::AWSCDK-EKS-HelmChart"
    ).values()
    (dependencies,) = [
        c["Properties"] for c in charts if c["Properties"].get("Release") == "hyperpod-dependencies"
    ]
    assert "ChartAssetURL" in dependencies and dependencies["Namespace"] == "kube-system"
    assert json.loads(dependencies["Values"]) == {"global": {"region": "us-west-2"}}
    # the asset is the vendored directory
    artifact = synthesized_hyperpod.manifest["artifacts"][
        hyperpod_env.stack_name("hyperpod-prereqs") + ".assets"
    ]
    assets = json.loads(
        (synthesized_hyperpod.directory / artifact["properties"]["file"]).read_text()
    )["files"]
    chart_dirs = [
        synthesized_hyperpod.directory / a["source"]["path"]
        for a in assets.values()
        if (synthesized_hyperpod.directory / a["source"]["path"] / "Chart.yaml").is_file()
    ]
    (chart_dir,) = chart_dirs
    assert yaml.safe_load((chart_dir / "Chart.yaml").read_text())["name"] == "hyperpod-dependencies"


def test_the_vendored_chart_is_byte_for_byte_the_pinned_upstream_commit():
    import hashlib

    from stacks.hyperpod_prerequisites_stack import VENDORED_DEPENDENCIES_CHART

    vendored = json.loads((VENDORED_DEPENDENCIES_CHART / "VENDORED.json").read_text())
    assert vendored["repository"] == "aws/sagemaker-hyperpod-cli" and len(vendored["commit"]) == 40
    on_disk = {
        str(p.relative_to(VENDORED_DEPENDENCIES_CHART))
        for p in (VENDORED_DEPENDENCIES_CHART / "charts").rglob("*")
        if p.is_file()
    }
    assert on_disk == set(vendored["files"])  # nothing added, nothing missing
    for relative, blob in vendored["files"].items():
        data = (VENDORED_DEPENDENCIES_CHART / relative).read_bytes()
        assert hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest() == blob, (
            relative
        )  # git hash-object
    # the health monitoring agent schedules on this project's HyperPod instance type
    agent = (
        VENDORED_DEPENDENCIES_CHART
        / "charts/health-monitoring-agent/templates/health-monitoring-agent.yaml"
    ).read_text()
    assert "- ml.p6-b300.48xlarge" in agent


def test_dependencies_chart_from_a_local_copy_is_installed_with_overlapping_parts_off(
    hyperpod_env, tmp_path
):
    import aws_cdk as cdk
    from aws_cdk import aws_eks_v2 as eks
    from aws_cdk import aws_iam as iam

    from stacks.hyperpod_prerequisites_stack import HyperPodPrerequisitesStack

    chart_dir = tmp_path / "HyperPodHelmChart"
    chart_dir.mkdir()
    (chart_dir / "Chart.yaml").write_text(
        "apiVersion: v2\nname: hyperpod-helm-chart\nversion: 0.1.0\n"
    )
    env = dataclasses.replace(
        hyperpod_env,
        hyperpod=hyperpod_env.hyperpod.model_copy(
            update={"dependencies_chart_dir": str(chart_dir)}
        ),
    )
    app = bare_app(outdir=str(tmp_path / "out"))
    clusters = cdk.Stack(app, "Clusters")
    cluster = eks.Cluster.from_cluster_attributes(
        clusters,
        "Cluster",
        cluster_name="example-hyperpod-llm",
        kubectl_provider=eks.KubectlProvider.from_kubectl_provider_attributes(
            clusters,
            "Kubectl",
            service_token="arn:aws:lambda:us-west-2:123456789012:function:kubectl",
            role=iam.Role.from_role_arn(
                clusters, "KubectlRole", "arn:aws:iam::123456789012:role/kubectl"
            ),
        ),
    )
    stack = HyperPodPrerequisitesStack(app, "Prereqs", env_config=env, cluster=cluster)
    template = app.synth().get_stack_by_name(stack.stack_name).template
    charts = [
        r["Properties"]
        for r in template["Resources"].values()
        if r["Type"] == "Custom::AWSCDK-EKS-HelmChart"
    ]
    (dependencies,) = [c for c in charts if c.get("Release") == "hyperpod-dependencies"]
    assert "ChartAssetURL" in dependencies
    values = json.loads(dependencies["Values"])
    assert values["nvidia-device-plugin"]["devicePlugin"]["enabled"] is False
    assert values["aws-efa-k8s-device-plugin"]["devicePlugin"]["enabled"] is False
    assert values["health-monitoring-agent"]["enabled"] is True
    assert values["global"]["region"] == "us-west-2"


def _fake_node(tmp_path, active: set[str], mounted_from_poll: int = 1):
    """A PATH with systemctl, mountpoint and mount that record their calls; ``active`` services report active. The
    volume (``tmp_path/nvme``) reports mounted from the ``mounted_from_poll``-th ``mountpoint`` call on it (1: at once);
    ``tmp_path/ebs`` always reports mounted."""
    bin_dir, calls = tmp_path / "bin", tmp_path / "calls"
    bin_dir.mkdir()
    volume, ebs = tmp_path / "nvme", tmp_path / "ebs"
    volume.mkdir()
    ebs.mkdir()
    polls = tmp_path / "polls"
    scripts = {
        "systemctl": f'echo "systemctl $*" >> {calls}\n'
        f'if [ "$1" = is-active ]; then case " {" ".join(active)} " in *" $3 "*) exit 0;; esac; exit 3; fi',
        "mountpoint": f'[ "$2" = "{ebs}" ] && exit 0\n[ "$2" = "{volume}" ] || exit 1\n'
        f'echo poll >> {polls}\n[ "$(wc -l < {polls})" -ge {mounted_from_poll} ]',
        "mount": f'echo "mount $*" >> {calls}',
        # the bounded waits are counted in polls (the assertions count the "waiting" lines): not slept
        "sleep": "exit 0",
    }
    for name, body in scripts.items():
        (bin_dir / name).write_text(f"#!/bin/bash\n{body}\n")
        (bin_dir / name).chmod(0o755)
    containerd, kubelet = tmp_path / "containerd", tmp_path / "kubelet"
    containerd.mkdir()
    kubelet.mkdir()
    (kubelet / "config.json").write_text("{}")
    env = {
        **os.environ,
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "FAIL_DELAY_SECONDS": "0",
        "STORAGE_WAIT_SECONDS": "0",
        "STORAGE_POLL_SECONDS": "1",
        "STORAGE_CANDIDATES": f"{tmp_path / 'missing'} {volume}",
        "CONTAINERD_DIR": str(containerd),
        "KUBELET_DIR": str(kubelet),
        "FSTAB": str(tmp_path / "fstab"),
    }
    return env, calls, volume, kubelet


def _run_on_create(env: dict, script: pathlib.Path = LIFECYCLE_DIR / "on_create.sh"):
    return subprocess.run(
        ["bash", str(script)], capture_output=True, text=True, timeout=30, env=env
    )


def test_lifecycle_script_moves_storage_and_never_starts_the_kubelet(tmp_path):
    # given a node where containerd runs and the kubelet waits for HyperPod to configure it
    env, calls, volume, kubelet = _fake_node(tmp_path, active={"containerd"})
    # when the script runs
    result = _run_on_create(env)
    # then containerd is moved while stopped and started again, and the kubelet is never started
    assert result.returncode == 0, result.stdout + result.stderr
    recorded = calls.read_text().splitlines()
    assert "systemctl stop containerd" in recorded and "systemctl start containerd" in recorded
    assert not [
        c
        for c in recorded
        if c.startswith(("systemctl start kubelet", "systemctl restart kubelet"))
    ]
    assert f"mount --bind {volume}/containerd {tmp_path / 'containerd'}" in recorded
    # and the kubelet's directory now lives on the large volume, with its contents
    assert kubelet.is_symlink() and (kubelet / "config.json").read_text() == "{}"
    assert (volume / "kubelet" / "config.json").is_file()


def test_lifecycle_script_leaves_a_running_kubelet_alone(tmp_path):
    env, calls, volume, kubelet = _fake_node(tmp_path, active={"kubelet"})
    result = _run_on_create(env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert not kubelet.is_symlink() and "left in place" in result.stdout
    # containerd was not running: it is not started either
    assert "systemctl start containerd" not in calls.read_text()


def test_lifecycle_script_waits_for_the_instance_store_before_it_takes_another_volume(tmp_path):
    # given an instance store that is mounted at the third look, and an EBS volume mounted from the start
    env, calls, volume, kubelet = _fake_node(tmp_path, active=set(), mounted_from_poll=3)
    env.update(
        STORAGE_CANDIDATES=f"{volume} {tmp_path / 'ebs'}",
        STORAGE_WAIT_SECONDS="5",
        STORAGE_POLL_SECONDS="1",
    )
    # when the script runs
    result = _run_on_create(env)
    # then it waited for the instance store (two polls) and moved the storage there, not onto the EBS volume
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count(f"waiting for {volume} to be mounted") == 2
    assert (
        f"mount --bind {volume}/containerd {tmp_path / 'containerd'}"
        in calls.read_text().splitlines()
    )
    assert kubelet.resolve() == volume / "kubelet"


def test_lifecycle_script_gives_up_on_the_instance_store_after_the_wait(tmp_path):
    # given an instance store that never mounts
    env, calls, volume, _ = _fake_node(tmp_path, active=set(), mounted_from_poll=99)
    # when nothing else is mounted either, the node fails after the bounded wait, naming what it waited for
    env.update(
        STORAGE_CANDIDATES=f"{volume} {tmp_path / 'missing'}",
        STORAGE_WAIT_SECONDS="2",
        STORAGE_POLL_SECONDS="1",
    )
    result = _run_on_create(env)
    assert result.returncode == 1
    assert result.stdout.count(f"waiting for {volume} to be mounted") == 2
    assert (
        f"FAILED: no large volume after 2 s: none of {volume} {tmp_path / 'missing'} is mounted"
        in result.stdout
    )
    # when the EBS volume is there, it is used, with a line that says the instance store did not come
    env["STORAGE_CANDIDATES"] = f"{volume} {tmp_path / 'ebs'}"
    (tmp_path / "kubelet").mkdir(exist_ok=True)
    result = _run_on_create(env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{volume} was not mounted within 2 s: using {tmp_path / 'ebs'}" in result.stdout


def test_lifecycle_script_fails_the_node_when_its_instance_store_never_mounts_on_a_type_that_has_one(
    tmp_path,
):
    from cdk_constructs.hyperpod_cluster import SETTINGS_FILE, lifecycle_settings

    # given the script beside the settings the construct uploads for a p6-b300 (instance store), an EBS volume mounted
    # and an instance store that never mounts
    script_dir = tmp_path / "lifecycle"
    script_dir.mkdir()
    (script_dir / "on_create.sh").write_text((LIFECYCLE_DIR / "on_create.sh").read_text())
    (script_dir / SETTINGS_FILE).write_text(lifecycle_settings(require_instance_store=True))
    env, calls, volume, _ = _fake_node(tmp_path, active=set(), mounted_from_poll=99)
    env.update(
        STORAGE_CANDIDATES=f"{volume} {tmp_path / 'ebs'}",
        STORAGE_WAIT_SECONDS="1",
        STORAGE_POLL_SECONDS="1",
    )
    (tmp_path / "kubelet").mkdir(exist_ok=True)
    # when the script runs
    result = _run_on_create(env, script_dir / "on_create.sh")
    # then it fails the node, naming the store it waited for, instead of taking the EBS volume
    assert result.returncode == 1
    assert f"FAILED: the instance store {volume} was not mounted within 1 s" in result.stdout
    assert not calls.exists() or "mount --bind" not in calls.read_text()
    # and with the settings of a type without instance store it takes the EBS volume, as before
    (script_dir / SETTINGS_FILE).write_text(lifecycle_settings(require_instance_store=False))
    result = _run_on_create(env, script_dir / "on_create.sh")
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"using {tmp_path / 'ebs'}" in result.stdout


def test_the_lifecycle_settings_of_the_example_require_its_instance_store(synthesized_hyperpod):
    # given the example's p6-b300, which has instance-store NVMe (deployment_config/catalog.py)
    (deployment,) = synthesized_hyperpod.resources(
        "hyperpod", "Custom::CDKBucketDeployment"
    ).values()
    # then two sources are uploaded beside each other: the scripts, and the settings that make the store required
    assert len(deployment["Properties"]["SourceObjectKeys"]) == 2


def test_lifecycle_script_fstab_entry_cannot_stop_a_boot_and_is_written_once(tmp_path):
    # given a node whose containerd directory the script moves
    env, calls, volume, kubelet = _fake_node(tmp_path, active={"containerd"})
    # when the script runs twice (the second time, the fake reports the directory not yet a mount point again)
    for _ in range(2):
        result = _run_on_create(env)
        assert result.returncode == 0, result.stdout + result.stderr
    # then fstab has one entry, which a missing volume cannot turn into an emergency-mode boot
    (entry,) = (tmp_path / "fstab").read_text().splitlines()
    source, mount_point, kind, options, *_ = entry.split()
    assert (source, mount_point, kind) == (
        f"{volume}/containerd",
        str(tmp_path / "containerd"),
        "none",
    )
    assert {"bind", "nofail", f"x-systemd.requires-mounts-for={volume}"} <= set(options.split(","))


def test_endpoint_stack_waits_on_destroy_for_the_operators_load_balancer(synthesized_hyperpod):
    ((key, waiter),) = synthesized_hyperpod.resources("endpoint", "Custom::DestroyWaiter").items()
    assert waiter["Properties"]["Kind"] == "LoadBalancersGone"
    assert '"{\\"elbv2.k8s.aws/cluster\\":\\""' in json.dumps(waiter["Properties"]["Tags"])
    (manifest,) = synthesized_hyperpod.resources(
        "endpoint", "Custom::AWSCDK-EKS-KubernetesResource"
    ).values()
    assert key in manifest["DependsOn"]


def test_hyperpod_stack_waits_on_destroy_for_sagemakers_network_interfaces(synthesized_hyperpod):
    ((key, waiter),) = synthesized_hyperpod.resources("hyperpod", "Custom::DestroyWaiter").items()
    properties = waiter["Properties"]
    assert properties["Kind"] == "NetworkInterfacesGone"
    # the instances' EFA group only: the cluster security group is on the control plane's interfaces too
    (group,) = properties["SecurityGroupIds"]
    assert "EfaSecurityGroup" in group["Fn::ImportValue"]
    assert "Vpc" in properties["VpcId"]["Fn::ImportValue"]
    # CloudFormation deletes the HyperPod cluster first, then waits; the network stack (subnets) goes after this stack
    ((cluster_key, cluster),) = synthesized_hyperpod.resources(
        "hyperpod", "AWS::SageMaker::Cluster"
    ).items()
    assert key in cluster["DependsOn"]


# --- the API key, the Hugging Face token and the pod's hardening (as on the EKS path) ------------------------------

HF_TOKEN_NAME = "llm-serving/hf-token"
HF_TOKEN_ARN = "arn:aws:secretsmanager:us-west-2:123456789012:secret:llm-serving/hf-token-AbC123"
VIA_SECRETS_MANAGER = {"StringEquals": {"kms:ViaService": "secretsmanager.us-west-2.amazonaws.com"}}
HARDENED = {
    "allowPrivilegeEscalation": False,
    "privileged": False,
    "readOnlyRootFilesystem": True,
    "capabilities": {"drop": ["ALL"]},
    "seccompProfile": {"type": "RuntimeDefault"},
}


def _only(resources: dict[str, dict]) -> tuple[str, dict]:
    assert len(resources) == 1, list(resources)
    return next(iter(resources.items()))


def _of_type(template: dict, resource_type: str) -> dict[str, dict]:
    return {k: v for k, v in template["Resources"].items() if v["Type"] == resource_type}


def _applied(template: dict) -> dict[str, dict]:
    """The Kubernetes objects the endpoint stack applies, by kind (KIND/NAME for a kind of several objects)."""
    _, manifest = _only(_of_type(template, "Custom::AWSCDK-EKS-KubernetesResource"))
    objects = json.loads(manifest["Properties"]["Manifest"])
    kinds = [o["kind"] for o in objects]
    return {
        o["kind"] if kinds.count(o["kind"]) == 1 else f"{o['kind']}/{o['metadata']['name']}": o
        for o in objects
    }


def _worker_env(objects: dict[str, dict]) -> dict[str, dict]:
    return {
        e["name"]: e
        for e in objects["InferenceEndpointConfig"]["spec"]["worker"]["environmentVariables"]
    }


def _pod_role(template: dict) -> str:
    (role_id,) = [
        k
        for k, r in _of_type(template, "AWS::IAM::Role").items()
        if r["Properties"]["AssumeRolePolicyDocument"]["Statement"][0]["Principal"]
        == {"Service": "pods.eks.amazonaws.com"}
    ]
    return role_id


def _statements(template: dict, role_id: str) -> list[dict]:
    return [
        s
        for policy in _of_type(template, "AWS::IAM::Policy").values()
        if {"Ref": role_id} in policy["Properties"]["Roles"]
        for s in policy["Properties"]["PolicyDocument"]["Statement"]
    ]


def test_the_hyperpod_endpoint_gets_a_generated_api_key_under_its_own_name(
    synthesized_hyperpod, hyperpod_env
):
    # given the HyperPod example, which requires an API key (the default)
    template = synthesized_hyperpod.template("endpoint")
    # then the endpoint stack holds one generated secret under the name the CLI reads, encrypted with a rotating key
    secret_id, secret = _only(_of_type(template, "AWS::SecretsManager::Secret"))
    assert (
        secret["Properties"]["Name"]
        == hyperpod_env.api_key_secret_name
        == "llm-serving/example-hyperpod/api-key"
    )
    assert secret["Properties"]["GenerateSecretString"] == {
        "PasswordLength": 64,
        "ExcludePunctuation": True,
        "IncludeSpace": False,
    }
    assert "SecretString" not in secret["Properties"]
    key_id, key = _only(_of_type(template, "AWS::KMS::Key"))
    assert secret["Properties"]["KmsKeyId"] == {"Fn::GetAtt": [key_id, "Arn"]}
    assert key["Properties"]["EnableKeyRotation"] is True
    # and says how to authenticate, as the EKS path's serving stack does
    outputs = template["Outputs"]
    assert outputs["ApiKeySecretArn"]["Value"] == {"Ref": secret_id}
    assert "Bearer" in outputs["EndpointAuthentication"]["Value"]
    assert "llm-serving/example-hyperpod/api-key" in outputs["EndpointAuthentication"]["Value"]
    # on every path: the worker loads the middleware that closes /invocations too
    assert (
        "on every path but /health, /ping and /metrics"
        in outputs["EndpointAuthentication"]["Value"]
    )


def test_the_worker_reads_its_api_key_from_the_secret_the_sync_keeps(synthesized_hyperpod):
    objects = _applied(synthesized_hyperpod.template("endpoint"))
    synced = objects["SecretProviderClass"]["spec"]["secretObjects"][0]["secretName"]
    env = _worker_env(objects)
    # the middleware's variable, by reference only and not optional: the worker does not start without it; vLLM gets no
    # VLLM_API_KEY of its own (its check knows one key: charts/vllm_auth_middleware/runtime/llm_serving_auth.py)
    assert env["LLM_SERVING_API_KEY"] == {
        "name": "LLM_SERVING_API_KEY",
        "valueFrom": {"secretKeyRef": {"name": synced, "key": "api-key"}},
    }
    assert "VLLM_API_KEY" not in env
    # no Hugging Face token reaches the worker: the weights come from S3
    assert "HF_TOKEN" not in env
    assert (
        objects["InferenceEndpointConfig"]["spec"]["modelSourceConfig"]["modelSourceType"] == "s3"
    )
    # and no spec.kubernetes: the endpoint adds no pod volume, init container or service account
    assert "kubernetes" not in objects["InferenceEndpointConfig"]["spec"]


def test_a_hardened_sync_deployment_mounts_the_secrets_volume_under_its_own_account(
    synthesized_hyperpod, hyperpod_env
):
    import kubernetes_validate

    from deployment_config.kubernetes_names import SYSTEM_NODE_LABELS

    # given the applied objects: the worker cannot mount a volume, and the driver syncs only while a pod mounts it
    objects = _applied(synthesized_hyperpod.template("endpoint"))
    provider_class, account, sync = (
        objects["SecretProviderClass"],
        objects["ServiceAccount"],
        objects["Deployment"],
    )
    namespace = objects["InferenceEndpointConfig"]["metadata"]["namespace"]
    for obj in (account, sync, objects["NetworkPolicy/kimik3-secrets-sync"]):
        kubernetes_validate.validate(obj, hyperpod_env.kubernetes_version, strict=True)
    pod = sync["spec"]["template"]["spec"]
    # then one pod runs as the sync's own account, in the endpoint's namespace, with no API token mounted
    assert pod["serviceAccountName"] == account["metadata"]["name"] == "kimik3-secrets-sync"
    assert {
        account["metadata"]["namespace"],
        provider_class["metadata"]["namespace"],
        sync["metadata"]["namespace"],
    } == {namespace}
    assert (
        pod["automountServiceAccountToken"] is False
        and account["automountServiceAccountToken"] is False
    )
    # with the CSI volume of that SecretProviderClass, mounted read-only
    (volume,) = pod["volumes"]
    assert volume["csi"] == {
        "driver": "secrets-store.csi.k8s.io",
        "readOnly": True,
        "volumeAttributes": {"secretProviderClass": provider_class["metadata"]["name"]},
    }
    (container,) = pod["containers"]
    assert container["volumeMounts"] == [
        {"name": volume["name"], "mountPath": "/mnt/secrets-store", "readOnly": True}
    ]
    # the pause image by digest, non-root, read-only, no capability, the runtime's seccomp profile, on the system nodes
    assert container["image"].startswith("registry.k8s.io/pause:3.10@sha256:")
    assert container["securityContext"] == {
        **HARDENED,
        "runAsNonRoot": True,
        "runAsUser": 65535,
        "runAsGroup": 65535,
    }
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}
    assert pod["nodeSelector"] == dict(SYSTEM_NODE_LABELS)
    # two pods spread over the system nodes, an update that starts a new pod before it stops an old one, and at most one
    # evicted at a time: the synced Secret, which the driver deletes with the last pod that mounts it, never lapses
    selector = sync["spec"]["selector"]["matchLabels"]
    assert sync["spec"]["replicas"] == 2
    assert sync["spec"]["strategy"]["rollingUpdate"] == {"maxSurge": 1, "maxUnavailable": 0}
    assert pod["topologySpreadConstraints"] == [
        {
            "maxSkew": 1,
            "topologyKey": "kubernetes.io/hostname",
            "whenUnsatisfiable": "ScheduleAnyway",
            "labelSelector": {"matchLabels": selector},
        }
    ]
    budget = objects["PodDisruptionBudget"]
    assert budget["spec"] == {"maxUnavailable": 1, "selector": {"matchLabels": selector}}
    kubernetes_validate.validate(budget, "1.34", strict=True)
    # it serves nothing and calls nothing (the node's driver reads the secret): no traffic in or out
    policy = objects["NetworkPolicy/kimik3-secrets-sync"]
    assert policy["spec"] == {
        "podSelector": {"matchLabels": sync["spec"]["selector"]["matchLabels"]},
        "policyTypes": ["Ingress", "Egress"],
    }


def test_the_system_node_label_the_sync_selects_is_the_system_node_groups(synthesized_hyperpod):
    from deployment_config.kubernetes_names import SYSTEM_NODE_LABELS
    from stacks.cluster_stack import SYSTEM_NODEGROUP_NAME

    (group,) = [
        r
        for r in synthesized_hyperpod.resources("cluster", "AWS::EKS::Nodegroup").values()
        if r["Properties"].get("NodegroupName") == SYSTEM_NODEGROUP_NAME
    ]
    assert group["Properties"]["Labels"] == dict(SYSTEM_NODE_LABELS)


def test_the_endpoint_lives_in_its_own_namespace_created_first(synthesized_hyperpod):
    from deployment_config.kubernetes_names import INFERENCE_ENDPOINT_NAMESPACE

    _, manifest = _only(
        _of_type(synthesized_hyperpod.template("endpoint"), "Custom::AWSCDK-EKS-KubernetesResource")
    )
    applied = json.loads(manifest["Properties"]["Manifest"])
    # the namespace first (kubectl applies in order), then everything else in it; the endpoint last
    assert (applied[0]["kind"], applied[0]["metadata"]["name"]) == (
        "Namespace",
        INFERENCE_ENDPOINT_NAMESPACE,
    )
    assert INFERENCE_ENDPOINT_NAMESPACE not in ("default", "kube-system")
    assert {o["metadata"]["namespace"] for o in applied[1:]} == {INFERENCE_ENDPOINT_NAMESPACE}
    assert applied[-1]["kind"] == "InferenceEndpointConfig"
    kinds = [o["kind"] for o in applied]
    assert kinds.index("Deployment") < kinds.index("InferenceEndpointConfig")


def test_the_endpoint_validates_strictly_and_the_crd_has_no_worker_security_context(
    synthesized_hyperpod,
):
    reviewed = [
        o
        for o in yaml.safe_load_all(synthesized_hyperpod.kubernetes_file.read_text())
        if o["kind"] == "InferenceEndpointConfig"
    ]
    applied = _applied(synthesized_hyperpod.template("endpoint"))["InferenceEndpointConfig"]
    # given the endpoint as written for review and as applied, each valid against the vendored operator 3.1 CRD,
    # unknown fields refused
    for obj in (*reviewed, applied):
        validate_custom_resource(obj)
    # then the worker can take neither a securityContext nor a volume mount
    for field, value in (
        ("securityContext", HARDENED),
        ("volumeMounts", [{"name": "secrets-store", "mountPath": "/x"}]),
    ):
        broken = json.loads(json.dumps(applied))
        broken["spec"]["worker"][field] = value
        with pytest.raises(jsonschema.ValidationError):
            validate_custom_resource(broken)


def test_the_secret_provider_class_and_service_account_are_valid(
    synthesized_hyperpod, hyperpod_env
):
    import kubernetes_validate

    from tests.cdk_constructs.test_serving_secrets import validate_secret_provider_class

    reviewed = {
        o["kind"]: o for o in yaml.safe_load_all(synthesized_hyperpod.kubernetes_file.read_text())
    }
    for objects in (reviewed, _applied(synthesized_hyperpod.template("endpoint"))):
        provider_class = objects["SecretProviderClass"]
        validate_secret_provider_class(provider_class)
        spec = provider_class["spec"]
        # the key by name, with the sync pod's own identity, in the environment's region, synced into one Secret
        assert {k: v for k, v in spec["parameters"].items() if k != "objects"} == {
            "region": "us-west-2",
            "usePodIdentity": "true",
        }
        assert yaml.safe_load(spec["parameters"]["objects"]) == [
            {
                "objectName": "llm-serving/example-hyperpod/api-key",
                "objectType": "secretsmanager",
                "objectAlias": "api-key",
            }
        ]
        assert spec["secretObjects"] == [
            {
                "secretName": "kimik3-secrets",
                "type": "Opaque",
                "labels": {"app.kubernetes.io/name": "vllm"},
                "data": [{"objectName": "api-key", "key": "api-key"}],
            }
        ]
        kubernetes_validate.validate(
            objects["ServiceAccount"], hyperpod_env.kubernetes_version, strict=True
        )


def test_the_sync_gets_its_role_through_pod_identity_and_reads_exactly_its_key(
    synthesized_hyperpod,
):
    from deployment_config.kubernetes_names import INFERENCE_ENDPOINT_NAMESPACE

    template = synthesized_hyperpod.template("endpoint")
    role_id = _pod_role(template)
    secret_id, _ = _only(_of_type(template, "AWS::SecretsManager::Secret"))
    key_id, _ = _only(_of_type(template, "AWS::KMS::Key"))
    # the role trusts EKS Pod Identity only, for the sync's service account of this account's cluster only
    (trust,) = template["Resources"][role_id]["Properties"]["AssumeRolePolicyDocument"]["Statement"]
    cluster_arn = trust["Condition"]["StringEquals"]["aws:RequestTag/eks-cluster-arn"]
    assert trust == {
        "Action": ["sts:AssumeRole", "sts:TagSession"],
        "Effect": "Allow",
        "Principal": {"Service": "pods.eks.amazonaws.com"},
        "Condition": {
            "StringEquals": {
                "aws:RequestTag/eks-cluster-arn": cluster_arn,
                "aws:RequestTag/kubernetes-namespace": INFERENCE_ENDPOINT_NAMESPACE,
                "aws:RequestTag/kubernetes-service-account": trust["Condition"]["StringEquals"][
                    "aws:RequestTag/kubernetes-service-account"
                ],
            }
        },
    }
    assert "ClusterEB0386A7Arn" in cluster_arn["Fn::ImportValue"]
    # one association: the sync's service account in the endpoint's own namespace, on the cluster
    association_id, association = _only(_of_type(template, "AWS::EKS::PodIdentityAssociation"))
    properties = association["Properties"]
    assert (properties["Namespace"], properties["ServiceAccount"]) == (
        INFERENCE_ENDPOINT_NAMESPACE,
        "kimik3-secrets-sync",
    )
    assert properties["RoleArn"] == {"Fn::GetAtt": [role_id, "Arn"]}
    assert "Fn::ImportValue" in json.dumps(properties["ClusterName"])
    # exactly the key, and its KMS key through Secrets Manager only
    assert _statements(template, role_id) == [
        {
            "Sid": "ReadServingSecrets",
            "Effect": "Allow",
            "Action": ["secretsmanager:DescribeSecret", "secretsmanager:GetSecretValue"],
            "Resource": {"Ref": secret_id},
        },
        {
            "Sid": "DecryptApiKey",
            "Effect": "Allow",
            "Action": "kms:Decrypt",
            "Resource": {"Fn::GetAtt": [key_id, "Arn"]},
            "Condition": VIA_SECRETS_MANAGER,
        },
    ]
    # the objects (the sync's pod among them) are applied after all of them and deleted before them
    _, manifest = _only(_of_type(template, "Custom::AWSCDK-EKS-KubernetesResource"))
    assert {secret_id, key_id, role_id, association_id} <= set(manifest["DependsOn"])


# The Secrets Store CSI add-on on the HyperPod cluster: tests/cdk_constructs/test_serving_secrets.py, for both platforms.


# --- the variants: one more synthesis for the module, of the endpoint stack alone -----------------------------------


@pytest.fixture(scope="module")
def endpoint_variants(hyperpod_env, tmp_path_factory) -> dict:
    """Endpoint stacks, under cdk-nag, for ``optout`` (no API key) and ``token`` (the API key, and a Hugging Face token
    by complete ARN, which the mirror uses and the worker must not get), against an imported cluster. Returns the
    output directory and the templates by variant."""
    import aws_cdk as cdk
    from aws_cdk import aws_eks_v2 as eks
    from aws_cdk import aws_iam as iam

    from app import checked_app
    from cdk_constructs.nag_acknowledgements import acknowledge
    from stacks.inference_endpoint_stack import InferenceEndpointStack

    model, endpoint = hyperpod_env.model, hyperpod_env.endpoint
    variants = {
        "optout": dataclasses.replace(
            hyperpod_env,
            name="optout",
            endpoint=endpoint.model_copy(update={"authentication": "none"}),
        ),
        "token": dataclasses.replace(
            hyperpod_env,
            name="token",
            model=dataclasses.replace(model, hugging_face_token_secret=HF_TOKEN_ARN),
        ),
    }
    outdir = tmp_path_factory.mktemp("hyperpod-variants.out")
    app = checked_app(str(outdir), inspect_only=True)
    where = cdk.Environment(account=hyperpod_env.account, region=hyperpod_env.region)
    imports = cdk.Stack(app, "imported-cluster", env=where)
    acknowledge(
        imports,
        "F0001",
        "holds only the imported cluster the endpoint stacks use; nothing to deploy",
        plugin="CloudFormation-Validate",
    )
    cluster = eks.Cluster.from_cluster_attributes(
        imports,
        "Cluster",
        cluster_name=hyperpod_env.cluster_name,
        kubectl_provider=eks.KubectlProvider.from_kubectl_provider_attributes(
            imports,
            "Kubectl",
            service_token="arn:aws:lambda:us-west-2:123456789012:function:kubectl",
            role=iam.Role.from_role_arn(
                imports, "KubectlRole", "arn:aws:iam::123456789012:role/kubectl"
            ),
        ),
    )
    stacks = {}
    for name, env in variants.items():
        spec = inference_endpoint_spec_for(env)
        stacks[name] = InferenceEndpointStack(
            app,
            f"{name}-endpoint",
            cluster=cluster,
            spec=spec,
            manifests=synthesize_inference_endpoint(spec),
            env=where,
        )
    assembly = app.synth()  # cdk-nag runs here and fails the synthesis on an unacknowledged finding
    return {
        "directory": assembly.directory,
        "templates": {
            name: assembly.get_stack_by_name(stack.stack_name).template
            for name, stack in stacks.items()
        },
    }


def test_an_unauthenticated_hyperpod_endpoint_has_no_secret_no_role_and_no_sync(endpoint_variants):
    # given endpoint.api_key_required: false
    template = endpoint_variants["templates"]["optout"]
    # then nothing to read: no secret, no key, no pod role, no association
    for resource_type in (
        "AWS::SecretsManager::Secret",
        "AWS::KMS::Key",
        "AWS::EKS::PodIdentityAssociation",
    ):
        assert _of_type(template, resource_type) == {}, resource_type
    assert "pods.eks.amazonaws.com" not in json.dumps(_of_type(template, "AWS::IAM::Role"))
    # and the namespace, the endpoint and its NetworkPolicy alone: no sync, no account, no SecretProviderClass
    objects = _applied(template)
    assert set(objects) == {"Namespace", "NetworkPolicy", "InferenceEndpointConfig"}
    assert not {"LLM_SERVING_API_KEY", "VLLM_API_KEY"} & set(_worker_env(objects))
    validate_custom_resource(objects["InferenceEndpointConfig"])
    # and the stack says so
    assert "ApiKeySecretArn" not in template["Outputs"]
    assert template["Outputs"]["EndpointAuthentication"]["Value"].startswith("NONE")


def test_a_hugging_face_token_is_synced_for_the_bench_but_never_reaches_the_worker(
    endpoint_variants,
):
    from tests.cdk_constructs.test_serving_secrets import validate_secret_provider_class

    # given a Hugging Face token (the bench Job's tokenizer download reads it) and the API key; weights from S3
    template = endpoint_variants["templates"]["token"]
    objects = _applied(template)
    validate_custom_resource(objects["InferenceEndpointConfig"])
    # then the worker gets the API key only
    env = _worker_env(objects)
    assert env["LLM_SERVING_API_KEY"]["valueFrom"] == {
        "secretKeyRef": {"name": "kimik3-secrets", "key": "api-key"}
    }
    assert "HF_TOKEN" not in env
    # while the sync keeps both in the Secret the bench Job reads, and its role reads exactly the two
    validate_secret_provider_class(objects["SecretProviderClass"])
    assert [
        o["objectAlias"]
        for o in yaml.safe_load(objects["SecretProviderClass"]["spec"]["parameters"]["objects"])
    ] == ["api-key", "hf-token"]
    secret_id, _ = _only(_of_type(template, "AWS::SecretsManager::Secret"))
    (read,) = [
        s for s in _statements(template, _pod_role(template)) if s["Sid"] == "ReadServingSecrets"
    ]
    assert sorted(read["Resource"], key=json.dumps) == sorted(
        [{"Ref": secret_id}, HF_TOKEN_ARN], key=json.dumps
    )


def test_no_key_value_is_written_into_any_hyperpod_template_or_manifest(
    synthesized_hyperpod, endpoint_variants
):
    from tests.cdk_constructs.test_serving_secrets import _key_like_words

    texts = {
        synthesized_hyperpod.kubernetes_file.name: synthesized_hyperpod.kubernetes_file.read_text()
    }
    texts |= {
        name: json.dumps(t)
        for name, t in synthesized_hyperpod.templates.items()
        if name.startswith("example-hyperpod")
    }
    texts |= {name: json.dumps(t) for name, t in endpoint_variants["templates"].items()}
    assert {name: words for name, text in texts.items() if (words := _key_like_words(text))} == {}
    # the secret variables come from references only
    for template in (
        synthesized_hyperpod.template("endpoint"),
        *endpoint_variants["templates"].values(),
    ):
        for name in ("LLM_SERVING_API_KEY", "VLLM_API_KEY", "HF_TOKEN"):
            assert "value" not in _worker_env(_applied(template)).get(name, {})


def test_the_variants_pass_cdk_nag_and_cfn_lint(endpoint_variants):
    from pathlib import Path

    from tests.cfn_lint import cfn_lint_errors

    directory = Path(endpoint_variants["directory"])
    report = json.loads((directory / "validation-report.json").read_text())
    aws_solutions = {p["pluginName"]: p for p in report["pluginReports"]}["AwsSolutions"]
    assert aws_solutions["conclusion"] == "success" and aws_solutions["violations"] == []
    templates = [
        str(directory / f"{name}-endpoint.template.json") for name in endpoint_variants["templates"]
    ]
    errors = cfn_lint_errors(templates, ["us-west-2"])
    assert errors == [], json.dumps(errors, indent=1)


# --- the typed bindings of the operator's CRD -------------------------------------------------------------------


def test_the_typed_bindings_were_generated_from_the_vendored_crds():
    import hashlib
    import json as _json

    from charts.imports.generate import SOURCE, crd_digest
    from tests.conftest import PROJECT_DIR

    sources = _json.loads(SOURCE.read_text())
    assert set(sources) == {"sagemaker_inference", "leaderworkerset"}
    for package, source in sources.items():
        # every CRD is inside the repository: nothing outside it is read
        crd = (PROJECT_DIR / source["crd"]).resolve()
        assert PROJECT_DIR in crd.parents, f"{package}: {source['crd']} is outside the repository"
        # a CRD that changed without `make crd-bindings` fails here, before its bindings can write a stale object
        assert crd_digest(crd) == source["crd_sha256"], (
            f"{package}: the CRD changed: run `make crd-bindings`"
        )
        assert (PROJECT_DIR / "charts" / "imports" / package / "__init__.py").is_file()
    # the operator's CRD is the one its SOURCE.md names: operator 3.1's, at the commit and digest recorded there
    from deployment_config.operator_releases import CRD_PATH, OPERATOR_REPOSITORY, PINNED_OPERATOR

    crd = PROJECT_DIR / sources["sagemaker_inference"]["crd"]
    record = (crd.parent / "SOURCE.md").read_text()
    data = crd.read_bytes()
    assert f"sha256: {hashlib.sha256(data).hexdigest()}" in record
    assert (
        f"git blob: {hashlib.sha1(b'blob %d' % len(data) + bytes(1) + data).hexdigest()}" in record
    )
    assert f"commit: {PINNED_OPERATOR.crd_commit}" in record
    assert f"repository: {OPERATOR_REPOSITORY}" in record and f"path: {CRD_PATH}" in record
    assert "Apache-2.0" in record


def test_the_vendored_crd_is_operator_3_1s():
    # what the pinned operator's CRD allows: the Hub as a model source, pod volumes for init containers only, and
    # still no volume mount or securityContext for the worker (charts/imports/crds/SOURCE.md)
    from tests.crd_schema import crd_schemas

    spec = crd_schemas()[("inference.sagemaker.aws.amazon.com/v1", "InferenceEndpointConfig")][
        "properties"
    ]["spec"]
    assert spec["properties"]["modelSourceConfig"]["properties"]["modelSourceType"]["enum"] == [
        "fsx",
        "s3",
        "huggingface",
        "kubernetesVolume",
    ]
    kubernetes = spec["properties"]["kubernetes"]["properties"]
    assert set(kubernetes) == {"initContainers", "schedulerName", "serviceAccountName", "volumes"}
    assert "referenced by init containers" in kubernetes["volumes"]["description"]
    assert not {"volumeMounts", "securityContext"} & set(spec["properties"]["worker"]["properties"])
    assert set(spec["properties"]["loadBalancer"]["properties"]) == {
        "healthCheckPath",
        "routingAlgorithm",
    }


def test_the_typed_bindings_refuse_a_field_the_crd_lacks_and_a_missing_required_one():
    from charts.imports import sagemaker_inference as crd

    # a worker without the port the operator requires, and a field the CRD does not have, fail at synthesis
    with pytest.raises(TypeError, match="model_invocation_port"):
        crd.InferenceEndpointConfigSpecWorker(image="vllm/vllm-openai:kimi-k3")
    with pytest.raises(TypeError, match="volume_mounts"):
        crd.InferenceEndpointConfigSpecWorker(
            image="vllm/vllm-openai:kimi-k3",
            volume_mounts=[],
            model_invocation_port=crd.InferenceEndpointConfigSpecWorkerModelInvocationPort(
                container_port=8000
            ),
            model_volume_mount=crd.InferenceEndpointConfigSpecWorkerModelVolumeMount(
                name="model-weights"
            ),
            resources=crd.InferenceEndpointConfigSpecWorkerResources(),
        )


def test_the_endpoint_runs_one_worker_per_instance_of_the_group(hyperpod_env):
    # given an instance group of 2 (a worker takes all GPUs of its instance): two workers, unless endpoint.replicas says
    group = hyperpod_env.hyperpod.model_copy(update={"instance_count": 2})
    both = dataclasses.replace(hyperpod_env, hyperpod=group)
    assert (
        _endpoint_config(synthesize_inference_endpoint(inference_endpoint_spec_for(both)))["spec"][
            "replicas"
        ]
        == 2
    )
    one = dataclasses.replace(both, endpoint=both.endpoint.model_copy(update={"replicas": 1}))
    assert (
        _endpoint_config(synthesize_inference_endpoint(inference_endpoint_spec_for(one)))["spec"][
            "replicas"
        ]
        == 1
    )


def _hyperpod_document(**hyperpod) -> dict:
    document = yaml.safe_load(
        (
            pathlib.Path(__file__).resolve().parents[2] / "config" / "example-hyperpod.yaml"
        ).read_text()
    )
    document["hyperpod"].update(hyperpod)
    return document


def test_autoscaling_scales_the_workers_on_vllms_queue_within_the_instance_group():
    from deployment_config.loader import parse_environment

    # given two instances and autoscaling between 1 and 2 workers at 8 waiting requests per worker
    env = parse_environment(
        _hyperpod_document(instance_count=2, autoscaling={"min_replicas": 1, "max_replicas": 2}),
        name="scaled",
    )
    endpoint = _endpoint_config(synthesize_inference_endpoint(inference_endpoint_spec_for(env)))
    validate_custom_resource(endpoint)
    spec = endpoint["spec"]
    # then the operator starts with the minimum and scales on the serving metric the observability stack publishes,
    # per worker (metricType Average), for this cluster
    assert spec["replicas"] == 1
    scaling = spec["autoScalingSpec"]
    assert (scaling["minReplicaCount"], scaling["maxReplicaCount"]) == (1, 2)
    trigger = scaling["cloudWatchTrigger"]
    assert (
        trigger["namespace"],
        trigger["metricName"],
        trigger["metricType"],
        trigger["targetValue"],
    ) == ("LLMServing", "RequestsWaiting", "Average", 8)
    assert trigger["dimensions"] == [{"name": "ClusterName", "value": env.cluster_name}]


def test_without_autoscaling_there_is_no_autoscaling_spec(hyperpod_env):
    assert (
        "autoScalingSpec"
        not in _endpoint_config(
            synthesize_inference_endpoint(inference_endpoint_spec_for(hyperpod_env))
        )["spec"]
    )


@pytest.mark.parametrize(
    ("hyperpod", "endpoint", "field", "words"),
    [
        (
            {"instance_count": 1, "autoscaling": {"max_replicas": 2}},
            None,
            "hyperpod.autoscaling.max_replicas",
            "1 instance(s)",
        ),
        (
            {"instance_count": 2, "autoscaling": {"min_replicas": 2, "max_replicas": 1}},
            None,
            "hyperpod.autoscaling.min_replicas",
            "more than max_replicas",
        ),
        (
            {"instance_count": 2, "autoscaling": {"min_replicas": 0, "max_replicas": 2}},
            None,
            "hyperpod.autoscaling.min_replicas",
            "",
        ),
        (
            {"instance_count": 2, "autoscaling": {"max_replicas": 2}},
            {"exposure": "internal", "replicas": 2},
            "endpoint.replicas",
            "decided by hyperpod.autoscaling",
        ),
    ],
)
def test_autoscaling_out_of_bounds_is_refused_with_the_field(hyperpod, endpoint, field, words):
    from deployment_config.errors import ConfigError
    from deployment_config.loader import parse_environment

    document = _hyperpod_document(**hyperpod)
    if endpoint:
        document["endpoint"] = endpoint
    with pytest.raises(ConfigError) as error:
        parse_environment(document, name="bad")
    (issue,) = error.value.issues
    assert issue.field == field and words in issue.problem


def test_the_hyperpod_cluster_stack_lets_the_mirror_job_write_the_weights_prefix(
    synthesized_hyperpod, hyperpod_env
):
    # given the HyperPod example, whose weights must come from S3: `llmops weights mirror` fills the prefix, so its Job's
    # service account gets its role on this platform too
    template = synthesized_hyperpod.template("cluster")
    (association,) = [
        r["Properties"]
        for r in template["Resources"].values()
        if r["Type"] == "AWS::EKS::PodIdentityAssociation"
        and r["Properties"]["ServiceAccount"] == "weights-mirror"
    ]
    assert association["Namespace"] == "llm-serving"
    bucket, _, prefix = hyperpod_env.model.s3_uri[len("s3://") :].partition("/")
    assert f"{bucket}/{prefix}*" in json.dumps(template)


def test_no_test_reads_a_folder_outside_the_repository():
    # a fresh clone with nothing beside it runs every CRD check: the CRDs are vendored, and nothing looks elsewhere
    from tests.conftest import PROJECT_DIR
    from tests.crd_schema import CRD_DIR

    assert PROJECT_DIR in CRD_DIR.parents
    sources = [
        *PROJECT_DIR.joinpath("tests").rglob("*.py"),
        PROJECT_DIR / ".ci" / "run",
        PROJECT_DIR / "Makefile",
    ]
    this = pathlib.Path(__file__).resolve()
    outside = {
        str(p.relative_to(PROJECT_DIR))
        for p in sources
        if p.resolve() != this
        and any(
            word in p.read_text(encoding="utf-8")
            for word in ("shared/crds", "LLM_SERVING_CRD_DIR", "REQUIRE_CRDS")
        )
    }
    assert outside == set()
