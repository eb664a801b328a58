"""The API key and the Hugging Face token: from AWS Secrets Manager to vLLM's environment on the EKS path.

The default example (the session's synthesis) requires an API key. One more synthesis, for the session
(tests/shared_variants.py), holds two variants: ``optout`` (no API key, a Hugging Face token by name) and ``shared`` (an
API key readable from another account, a Hugging Face token by complete ARN, weights from S3; and TLS, which
tests/stacks/test_tls_endpoint.py reads of it).
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import functools
import hashlib
import json
import math
import re
import secrets
import string
from collections import Counter
from pathlib import Path

import jsonschema
import pytest
import yaml

from cdk_constructs.serving_secrets import (
    API_KEY_LENGTH,
    checked_reader_roles,
    secret_arn_patterns,
)
from charts.compile_cache.runtime.compile_cache import object_name
from charts.vllm_secret_provider import SECRET_PROVIDER_CLASS_API_VERSION, SECRETS_STORE_CSI_DRIVER
from deployment_config.addons import (
    POD_IDENTITY_AGENT,
    SECRETS_ROTATION_POLL_INTERVAL,
    SECRETS_STORE_CSI_PROVIDER,
    secrets_store_csi_provider_configuration,
)
from tests.cfn_lint import cfn_lint_errors
from tests.crd_schema import strict_schema
from tests.shared_variants import (
    HF_TOKEN_NAME,
    READER_ACCOUNT,
    READER_ROLE,
    WEIGHTS_SHA,
)

CRD_FILE = Path(__file__).resolve().parents[1] / "data" / "secretproviderclasses.crd.yaml"
#: git blob id of the CRD file in kubernetes-sigs/secrets-store-csi-driver v1.6.0 (the file's header says where).
CRD_BLOB = "2ed0b3d3b6b17b0170729918cd0944dc54711672"
VIA_SECRETS_MANAGER = {"StringEquals": {"kms:ViaService": "secretsmanager.us-west-2.amazonaws.com"}}


# --- helpers -----------------------------------------------------------------------------------------------------


def _of_type(template: dict, resource_type: str) -> dict[str, dict]:
    return {k: v for k, v in template["Resources"].items() if v["Type"] == resource_type}


def _only(resources: dict[str, dict]) -> tuple[str, dict]:
    assert len(resources) == 1, list(resources)
    return next(iter(resources.items()))


def _applied(template: dict) -> dict[str, dict]:
    """The Kubernetes objects the serving stack applies, by kind."""
    _, manifest = _only(_of_type(template, "Custom::AWSCDK-EKS-KubernetesResource"))
    return {o["kind"]: o for o in json.loads(manifest["Properties"]["Manifest"])}


def _vllm_container(objects: dict[str, dict]) -> dict:
    (container,) = [
        c
        for c in objects["Deployment"]["spec"]["template"]["spec"]["containers"]
        if c["name"] == "vllm"
    ]
    return container


def _env(container: dict) -> dict[str, dict]:
    return {e["name"]: e for e in container.get("env", [])}


def _statements(template: dict, role_id: str) -> list[dict]:
    return [
        s
        for policy in _of_type(template, "AWS::IAM::Policy").values()
        if {"Ref": role_id} in policy["Properties"]["Roles"]
        for s in policy["Properties"]["PolicyDocument"]["Statement"]
    ]


def _pod_role(template: dict) -> str:
    (role_id,) = [
        k
        for k, r in _of_type(template, "AWS::IAM::Role").items()
        if r["Properties"]["AssumeRolePolicyDocument"]["Statement"][0]["Principal"]
        == {"Service": "pods.eks.amazonaws.com"}
    ]
    return role_id


def _crd_text() -> str:
    """The vendored file below its header, byte for byte as in the driver's repository."""
    return re.split(
        r"^# -+\n", CRD_FILE.read_text(encoding="utf-8"), maxsplit=1, flags=re.MULTILINE
    )[1]


@functools.cache
def _secret_provider_class_schema() -> dict:
    crd = yaml.load(_crd_text(), Loader=yaml.CSafeLoader)  # libyaml, as for every CRD
    (v1,) = [v for v in crd["spec"]["versions"] if v["name"] == "v1"]
    assert f"{crd['spec']['group']}/v1" == SECRET_PROVIDER_CLASS_API_VERSION and v1["served"]
    return strict_schema(v1["schema"]["openAPIV3Schema"])


def hugging_face_token_statements() -> list[dict]:
    """The pod role's whole policy for a Hugging Face token given by name (HF_TOKEN_NAME) and no API key: read that
    secret only (any of its versions' ARN suffixes), and decrypt through Secrets Manager only (its key may be
    aws/secretsmanager or the user's own)."""
    partition = {"Ref": "AWS::Partition"}
    return [
        {
            "Sid": "ReadServingSecrets",
            "Effect": "Allow",
            "Action": ["secretsmanager:DescribeSecret", "secretsmanager:GetSecretValue"],
            "Resource": {
                "Fn::Join": [
                    "",
                    [
                        "arn:",
                        partition,
                        f":secretsmanager:us-west-2:123456789012:secret:{HF_TOKEN_NAME}-??????",
                    ],
                ]
            },
        },
        {
            "Sid": "DecryptHuggingFaceToken",
            "Effect": "Allow",
            "Action": "kms:Decrypt",
            "Resource": {
                "Fn::Join": ["", ["arn:", partition, ":kms:us-west-2:123456789012:key/*"]]
            },
            "Condition": VIA_SECRETS_MANAGER,
        },
    ]


def validate_secret_provider_class(obj: dict) -> None:
    """Raise jsonschema.ValidationError unless ``obj`` satisfies the driver's v1 SecretProviderClass CRD, unknown
    fields refused (for other tests' manifest checks: kubernetes-validate knows built-in kinds only)."""
    assert (
        obj["apiVersion"] == SECRET_PROVIDER_CLASS_API_VERSION
        and obj["kind"] == "SecretProviderClass"
    )
    jsonschema.Draft7Validator(_secret_provider_class_schema()).validate(obj)


def _entropy(text: str) -> float:
    counts = Counter(text)
    return -sum(n / len(text) * math.log2(n / len(text)) for n in counts.values())


def _is_base64_text(word: str) -> bool:
    """A base64-encoded text (a configuration blob in a template), not random bytes."""
    try:
        decoded = base64.b64decode(word + "=" * (-len(word) % 4), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return False
    return all(c.isprintable() or c in "\n\r\t" for c in decoded)


def _key_like_words(text: str) -> set[str]:
    """Words shaped like the generated key: 48+ letters and digits of all three kinds, with the character spread of a
    random string (CamelCase identifiers stay below 4.5 bits a character), not a CDK logical id (8 hex digits at the
    end) and not base64 of a text."""
    words = re.findall(r"(?<![A-Za-z0-9])[A-Za-z0-9]{48,}(?![A-Za-z0-9])", text)
    return {
        w
        for w in words
        if re.search("[a-z]", w)
        and re.search("[A-Z]", w)
        and re.search("[0-9]", w)
        and not re.search("[0-9A-F]{8}$", w)
        and _entropy(w) > 4.5
        and not _is_base64_text(w)
    }


# --- the variants: one more synthesis for the session (tests/shared_variants.py) --------------------------------------


@dataclasses.dataclass(frozen=True)
class Variants:
    directory: Path
    templates: dict[str, dict]  # stack name -> template

    def template(self, env: str, unit: str) -> dict:
        return self.templates[f"{env}-{unit}"]


@pytest.fixture(scope="module")
def variants(serving_variants_assembly) -> Variants:
    assembly = serving_variants_assembly
    return Variants(Path(assembly.directory), {s.stack_name: s.template for s in assembly.stacks})


# --- 1. the generated API key ------------------------------------------------------------------------------------


def test_each_environment_gets_a_generated_api_key_under_its_own_name(synthesized, default_env):
    # given the default example, which requires an API key
    # when the serving stack is synthesized
    _, secret = _only(_of_type(synthesized.template("serving"), "AWS::SecretsManager::Secret"))
    # then one secret holds it, under the name the CLI and the pipeline read
    assert (
        secret["Properties"]["Name"]
        == default_env.api_key_secret_name
        == "llm-serving/example/api-key"
    )
    # generated by Secrets Manager at create time, header-safe, never a value in the template
    assert secret["Properties"]["GenerateSecretString"] == {
        "PasswordLength": API_KEY_LENGTH,
        "ExcludePunctuation": True,
        "IncludeSpace": False,
    }
    assert "SecretString" not in secret["Properties"]


def test_the_api_key_is_encrypted_with_a_rotating_customer_managed_key(synthesized):
    template = synthesized.template("serving")
    _, secret = _only(_of_type(template, "AWS::SecretsManager::Secret"))
    key_id, key = _only(_of_type(template, "AWS::KMS::Key"))
    assert secret["Properties"]["KmsKeyId"] == {"Fn::GetAtt": [key_id, "Arn"]}
    assert key["Properties"]["EnableKeyRotation"] is True


def test_destroy_deletes_the_pod_before_the_secret_and_the_secret_with_the_stack(synthesized):
    # CloudFormation force-deletes a secret on stack delete, so a redeploy can take the same name again
    template = synthesized.template("serving")
    secret_id, secret = _only(_of_type(template, "AWS::SecretsManager::Secret"))
    key_id, _ = _only(_of_type(template, "AWS::KMS::Key"))
    assert secret["DeletionPolicy"] == "Delete"
    # the manifest depends on the secret, its key and the pod's role: CloudFormation deletes the pod first
    _, manifest = _only(_of_type(template, "Custom::AWSCDK-EKS-KubernetesResource"))
    association_id, _ = _only(_of_type(template, "AWS::EKS::PodIdentityAssociation"))
    assert {secret_id, key_id, association_id, _pod_role(template)} <= set(manifest["DependsOn"])


def test_the_secret_has_a_previous_version_before_any_pod_mounts_it_and_its_writer_may_do_nothing_else(
    synthesized,
):
    # given the serving stack: the secret, its KMS key, and the custom resource that gives it a second version
    template = synthesized.template("serving")
    secret_id, _ = _only(_of_type(template, "AWS::SecretsManager::Secret"))
    key_id, _ = _only(_of_type(template, "AWS::KMS::Key"))
    resource_id, resource = _only(_of_type(template, "Custom::ApiKeyPreviousVersion"))
    # then it names the secret and the key's length, never a key
    assert {k: v for k, v in resource["Properties"].items() if k != "ServiceToken"} == {
        "SecretArn": {"Ref": secret_id},
        "KeyLength": str(API_KEY_LENGTH),
    }
    # and the manifest, whose pods mount AWSPREVIOUS, is applied after it (and deleted before it)
    _, manifest = _only(_of_type(template, "Custom::AWSCDK-EKS-KubernetesResource"))
    assert resource_id in manifest["DependsOn"]
    # and its function may list and put values in that one secret, generate a password, and encrypt with the secret's
    # key through Secrets Manager only: it cannot read the secret (no GetSecretValue, no Decrypt)
    (function,) = [
        f
        for f in _of_type(template, "AWS::Lambda::Function").values()
        if "ApiKeyPreviousVersion" in f["Properties"].get("Description", "")
    ]
    role_id = function["Properties"]["Role"]["Fn::GetAtt"][0]
    assert _statements(template, role_id) == [
        {
            "Sid": "ListAndPutThisSecretOnly",
            "Effect": "Allow",
            "Action": ["secretsmanager:ListSecretVersionIds", "secretsmanager:PutSecretValue"],
            "Resource": {"Ref": secret_id},
        },
        {
            "Sid": "GenerateTheKey",
            "Effect": "Allow",
            "Action": "secretsmanager:GetRandomPassword",
            "Resource": "*",
        },
        {
            "Sid": "EncryptThroughSecretsManagerOnly",
            "Effect": "Allow",
            "Action": "kms:GenerateDataKey",
            "Resource": {"Fn::GetAtt": [key_id, "Arn"]},
            "Condition": VIA_SECRETS_MANAGER,
        },
    ]


def test_the_stack_outputs_the_key_arn_and_how_to_authenticate(synthesized):
    outputs = synthesized.template("serving")["Outputs"]
    secret_id, _ = _only(_of_type(synthesized.template("serving"), "AWS::SecretsManager::Secret"))
    assert outputs["ApiKeySecretArn"]["Value"] == {"Ref": secret_id}
    assert "Bearer" in outputs["EndpointAuthentication"]["Value"]
    assert "llm-serving/example/api-key" in outputs["EndpointAuthentication"]["Value"]
    assert (
        # the key check in front of vLLM leaves /health and /metrics open, nothing else (/ping needs the key)
        "on every path but /health and /metrics" in outputs["EndpointAuthentication"]["Value"]
    )


def test_no_key_value_is_written_into_any_template_or_manifest(synthesized, variants):
    # given every template and reviewed manifest of the default app and of the variants
    texts = {p.name: p.read_text() for p in synthesized.assembly.kubernetes_files}
    texts |= {name: json.dumps(t) for name, t in synthesized.templates.items()}
    texts |= {name: json.dumps(t) for name, t in variants.templates.items()}
    # then none holds a word shaped like a generated key
    assert {name: words for name, text in texts.items() if (words := _key_like_words(text))} == {}
    # and no secret carries a value, and the secret variables come from references only
    for template in [*synthesized.templates.values(), *variants.templates.values()]:
        for secret in _of_type(template, "AWS::SecretsManager::Secret").values():
            assert "SecretString" not in secret["Properties"]
    for template in (
        synthesized.template("serving"),
        variants.template("optout", "serving"),
        variants.template("shared", "serving"),
    ):
        env = _env(_vllm_container(_applied(template)))
        for name in ("VLLM_API_KEY", "HF_TOKEN"):
            assert "value" not in env.get(name, {})


def test_the_key_detector_finds_a_key_that_is_there(synthesized):
    # the check above would find a generated key pasted anywhere (64 letters and digits, as Secrets Manager makes it)
    key = "".join(
        secrets.choice(string.ascii_letters + string.digits) for _ in range(API_KEY_LENGTH)
    )
    leaked = json.dumps(synthesized.template("serving")).replace("llm-serving/example/api-key", key)
    assert _key_like_words(leaked) == {key}


# --- 2. delivery to vLLM ---------------------------------------------------------------------------------------


def test_the_key_check_reads_the_current_and_the_previous_key_from_the_files_the_driver_rotates(
    synthesized,
):
    objects = _applied(synthesized.template("serving"))
    pod = objects["Deployment"]["spec"]["template"]["spec"]
    containers = {c["name"]: c for c in pod["containers"]}
    container, proxy = containers["vllm"], containers["key-proxy"]
    provider_class = objects["SecretProviderClass"]
    # vLLM itself gets no key and loads no middleware: its own check knows one key, read at start, and would refuse a
    # rotated key with 401 until a restart; the key check in front of it compares every request with the files instead
    assert "VLLM_API_KEY" not in _env(container) and "--api-key" not in container["args"]
    assert "--middleware" not in container["args"]
    assert "HF_TOKEN" not in _env(container)  # the example sets no Hugging Face token
    # both mount the CSI volume read-only (the sync exists only while a pod mounts it)
    volumes = {v["name"]: v for v in pod["volumes"]}
    mounts = {
        name: [m for m in c["volumeMounts"] if "csi" in volumes[m["name"]]]
        for name, c in containers.items()
    }
    (mount,) = mounts["key-proxy"]
    assert mount["readOnly"] is True and [m["readOnly"] for m in mounts["vllm"]] == [True]
    assert volumes[mount["name"]]["csi"] == {
        "driver": SECRETS_STORE_CSI_DRIVER,
        "readOnly": True,
        "volumeAttributes": {"secretProviderClass": provider_class["metadata"]["name"]},
    }
    # and the key check compares with the files named after the objects' aliases: the current key and the version a
    # rotation replaced, both rewritten by the driver's rotation
    aliases = [
        o["objectAlias"] for o in yaml.safe_load(provider_class["spec"]["parameters"]["objects"])
    ]
    assert aliases == ["api-key", "api-key-previous"]
    _, manifest = _only(
        _of_type(synthesized.template("serving"), "Custom::AWSCDK-EKS-KubernetesResource")
    )
    (caddyfile,) = [
        o["data"]["Caddyfile"]
        for o in json.loads(manifest["Properties"]["Manifest"])
        if o["kind"] == "ConfigMap" and "Caddyfile" in o.get("data", {})
    ]
    for alias in aliases:
        assert f'header Authorization "Bearer {{file.{mount["mountPath"]}/{alias}}}"' in caddyfile
    assert proxy["securityContext"]["readOnlyRootFilesystem"] is True


def test_the_secret_provider_class_satisfies_the_driver_crd_strictly(synthesized):
    # given the SecretProviderClass in the applied manifest and in the file written for review
    applied = _applied(synthesized.template("serving"))["SecretProviderClass"]
    reviewed = [
        o
        for o in yaml.safe_load_all(synthesized.kubernetes_file.read_text())
        if o["kind"] == "SecretProviderClass"
    ]
    assert len(reviewed) == 1
    for provider_class in (applied, *reviewed):
        # then each validates against the driver's v1 CRD, unknown fields refused
        validate_secret_provider_class(provider_class)
        # and asks the AWS provider for the key by name, with the pod's own identity, in the environment's region
        assert provider_class["metadata"]["namespace"] == "llm-serving"
        spec = provider_class["spec"]
        assert spec["provider"] == "aws"
        assert {k: v for k, v in spec["parameters"].items() if k != "objects"} == {
            "region": "us-west-2",
            "usePodIdentity": "true",
        }
        # the current key and, under its own alias, the version a rotation replaced (the key check accepts both)
        assert yaml.safe_load(spec["parameters"]["objects"]) == [
            {
                "objectName": "llm-serving/example/api-key",
                "objectType": "secretsmanager",
                "objectAlias": "api-key",
            },
            {
                "objectName": "llm-serving/example/api-key",
                "objectType": "secretsmanager",
                "objectVersionLabel": "AWSPREVIOUS",
                "objectAlias": "api-key-previous",
            },
        ]
        assert spec["secretObjects"] == [
            {
                "secretName": "vllm-secrets",
                "type": "Opaque",
                "labels": {"app.kubernetes.io/name": "vllm"},
                "data": [{"objectName": "api-key", "key": "api-key"}],
            }
        ]


def test_strict_crd_validation_rejects_a_misspelled_field(synthesized):
    provider_class = _applied(synthesized.template("serving"))["SecretProviderClass"]
    broken = {**provider_class, "spec": {**provider_class["spec"], "secretObject": []}}
    with pytest.raises(jsonschema.ValidationError):
        validate_secret_provider_class(broken)


def test_the_vendored_crd_is_the_drivers_file_unchanged():
    content = _crd_text().encode("utf-8")
    assert hashlib.sha1(b"blob %d\0" % len(content) + content).hexdigest() == CRD_BLOB


def test_the_provider_class_is_applied_after_the_namespace_and_before_the_deployment(synthesized):
    _, manifest = _only(
        _of_type(synthesized.template("serving"), "Custom::AWSCDK-EKS-KubernetesResource")
    )
    kinds = [o["kind"] for o in json.loads(manifest["Properties"]["Manifest"])]
    assert kinds.index("Namespace") < kinds.index("SecretProviderClass") < kinds.index("Deployment")


def test_the_vllm_service_account_gets_its_role_through_pod_identity(synthesized):
    template = synthesized.template("serving")
    _, association = _only(_of_type(template, "AWS::EKS::PodIdentityAssociation"))
    role_id = _pod_role(template)
    assert association["Properties"]["Namespace"] == "llm-serving"
    assert association["Properties"]["ServiceAccount"] == "vllm"
    assert association["Properties"]["RoleArn"] == {"Fn::GetAtt": [role_id, "Arn"]}
    trust = template["Resources"][role_id]["Properties"]["AssumeRolePolicyDocument"]["Statement"]
    assert trust == [
        {
            "Action": ["sts:AssumeRole", "sts:TagSession"],
            "Effect": "Allow",
            "Principal": {"Service": "pods.eks.amazonaws.com"},
            "Condition": {
                "StringEquals": {
                    "aws:RequestTag/eks-cluster-arn": {
                        "Fn::ImportValue": "example-cluster:ExportsOutputFnGetAttClusterEB0386A7Arn2F2E3C3F"
                    },
                    "aws:RequestTag/kubernetes-namespace": "llm-serving",
                    "aws:RequestTag/kubernetes-service-account": "vllm",
                }
            },
        }
    ]


def test_the_pod_role_reads_exactly_the_api_key_and_decrypts_only_through_secrets_manager(
    synthesized,
):
    template = synthesized.template("serving")
    secret_id, _ = _only(_of_type(template, "AWS::SecretsManager::Secret"))
    key_id, _ = _only(_of_type(template, "AWS::KMS::Key"))
    assert _statements(template, _pod_role(template)) == [
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


@pytest.mark.parametrize("fixture", ["synthesized", "synthesized_hyperpod"])
def test_the_cluster_installs_the_secrets_store_addon_after_the_pod_identity_agent(
    request, fixture
):
    # both platforms deliver their secrets the same way
    addons = {
        a["Properties"]["AddonName"]: (k, a)
        for k, a in _of_type(
            request.getfixturevalue(fixture).template("cluster"), "AWS::EKS::Addon"
        ).items()
    }
    _, addon = addons[SECRETS_STORE_CSI_PROVIDER.name]
    agent_id, _ = addons[POD_IDENTITY_AGENT.name]
    # after the Pod Identity agent, whose credentials the provider fetches for the pod, and after the system nodes
    assert agent_id in addon["DependsOn"]
    assert any(d.startswith("ClusterNodegroupSystemNodes") for d in addon["DependsOn"])
    assert addon["Properties"]["PreserveOnDelete"] is False
    # sync, rotation, and every taint tolerated (HyperPod's health-check taint too)
    assert (
        json.loads(addon["Properties"]["ConfigurationValues"])
        == secrets_store_csi_provider_configuration()
    )


def test_the_addon_syncs_secrets_rotates_them_and_runs_on_the_gpu_nodes(default_env):
    configuration = secrets_store_csi_provider_configuration()
    driver = configuration["secrets-store-csi-driver"]
    assert driver["syncSecret"] == {"enabled": True}  # secretObjects become a Kubernetes Secret
    assert (
        driver["enableSecretRotation"] is True
        and driver["rotationPollInterval"] == SECRETS_ROTATION_POLL_INTERVAL
    )
    assert {"audience": "pods.eks.amazonaws.com"} in driver["tokenRequests"]
    # the provider must run beside the driver on the GPU nodes, which carry the GPU taint: an empty key with
    # operator Exists tolerates every taint (Kubernetes toleration semantics)
    assert configuration["tolerations"] == [{"operator": "Exists"}]


# --- 3, 4, 5. the variants -------------------------------------------------------------------------------------


def test_an_unauthenticated_endpoint_has_no_secret_and_no_api_key_variable(variants):
    # given an environment with endpoint.api_key_required: false
    template = variants.template("optout", "serving")
    # then there is no API key, no key for it, and vLLM gets no VLLM_API_KEY
    assert _of_type(template, "AWS::SecretsManager::Secret") == {}
    assert _of_type(template, "AWS::KMS::Key") == {}
    assert "VLLM_API_KEY" not in _env(_vllm_container(_applied(template)))
    # and the stack says so
    assert "ApiKeySecretArn" not in template["Outputs"]
    assert template["Outputs"]["EndpointAuthentication"]["Value"].startswith("NONE")


def test_a_hugging_face_token_by_name_reaches_vllm_as_hf_token(variants):
    template = variants.template("optout", "serving")
    objects = _applied(template)
    validate_secret_provider_class(objects["SecretProviderClass"])
    assert yaml.safe_load(objects["SecretProviderClass"]["spec"]["parameters"]["objects"]) == [
        {"objectName": HF_TOKEN_NAME, "objectType": "secretsmanager", "objectAlias": "hf-token"}
    ]
    assert _env(_vllm_container(objects))["HF_TOKEN"]["valueFrom"] == {
        "secretKeyRef": {"name": "vllm-secrets", "key": "hf-token"}
    }
    # the role reads that secret only (any of its versions' ARN suffixes), and decrypts through Secrets Manager only:
    # its key may be aws/secretsmanager or the user's own
    assert _statements(template, _pod_role(template)) == hugging_face_token_statements()


def test_with_s3_weights_one_role_reads_the_revision_and_the_api_key_and_no_hugging_face_token(
    variants,
):
    # given weights from S3 at a pinned revision, an API key, and a Hugging Face token by complete ARN (for the mirror)
    template = variants.template("shared", "serving")
    # then one role, one association, with the S3 reads of that revision's prefix and the API key's read
    role_id = _pod_role(template)
    _only(_of_type(template, "AWS::EKS::PodIdentityAssociation"))
    statements = _statements(template, role_id)
    actions = [s["Action"] for s in statements]
    assert "s3:GetObject" in actions and "s3:ListBucket" in actions
    # the weights' read (the compile cache's, tests below, has its own Sid)
    (get,) = [
        s
        for s in statements
        if s["Action"] == "s3:GetObject" and "CompileCache" not in s.get("Sid", "")
    ]
    assert json.dumps(get["Resource"]).endswith(f'weights-bucket/kimi-k3/{WEIGHTS_SHA}/*"]]}}')
    (read,) = [s for s in statements if s.get("Sid") == "ReadServingSecrets"]
    secret_id, _ = _only(_of_type(template, "AWS::SecretsManager::Secret"))
    assert read["Resource"] == {"Ref": secret_id}
    # nothing in the pod downloads from the Hub: the token is neither readable by the pod nor in vLLM's environment
    objects = _applied(template)
    assert "HF_TOKEN" not in _env(_vllm_container(objects))
    assert "hf-token" not in objects["SecretProviderClass"]["spec"]["parameters"]["objects"]


def test_the_pod_may_read_and_only_create_its_own_compile_cache_object(variants):
    # given S3 weights and an image pinned by digest (the shared variant): the compile cache is kept in the weights'
    # bucket under compile-cache/SHA256/ (charts/compile_cache/), SHA256 the digest of this environment's key
    template = variants.template("shared", "serving")
    (restore,) = [
        c
        for c in _applied(template)["Deployment"]["spec"]["template"]["spec"]["initContainers"]
        if c["name"] == "restore-compile-cache"
    ]
    key = json.loads(restore["command"][restore["command"].index("--key") + 1])
    archive = object_name("compile-cache", key)
    statements = {s.get("Sid"): s for s in _statements(template, _pod_role(template))}
    listing, reading, creating = (
        statements[sid]
        for sid in ("ListCompileCache", "ReadCompileCache", "CreateCompileCacheOnce")
    )
    # then it lists, reads and creates that one key's object only: another environment's, image's or version's
    # cache in the same bucket is neither readable nor plantable
    assert listing["Action"] == "s3:ListBucket" and listing["Condition"] == {
        "StringLike": {"s3:prefix": [f"{archive.rsplit('/', 1)[0]}/*"]}
    }
    assert reading["Action"] == "s3:GetObject" and json.dumps(reading["Resource"]).endswith(
        f':s3:::weights-bucket/{archive}"]]}}'
    )
    assert "*" not in json.dumps(reading["Resource"])
    # and a write must carry If-None-Match: a saved cache is never overwritten, and nothing deletes one
    assert creating["Action"] == "s3:PutObject" and creating["Condition"] == {
        "Null": {"s3:if-none-match": "false"}
    }
    assert json.dumps(creating["Resource"]) == json.dumps(reading["Resource"])
    actions = json.dumps([s["Action"] for s in statements.values()])
    assert "s3:DeleteObject" not in actions and "s3:*" not in actions
    # and cdk-nag has no wildcard on the cache to be acknowledged
    report = json.loads((variants.directory / "validation-report.json").read_text())
    aws_solutions = {p["pluginName"]: p for p in report["pluginReports"]}["AwsSolutions"]
    assert not [
        f for f in aws_solutions["suppressedViolations"] if "compile-cache" in f["ruleName"]
    ]


def test_only_the_reader_role_of_another_account_may_read_the_api_key_and_decrypt_it(variants):
    template = variants.template("shared", "serving")
    secret_id, _ = _only(_of_type(template, "AWS::SecretsManager::Secret"))
    _, policy = _only(_of_type(template, "AWS::SecretsManager::ResourcePolicy"))
    assert policy["Properties"]["SecretId"] == {"Ref": secret_id}
    reader = {
        "AWS": {
            "Fn::Join": ["", ["arn:", {"Ref": "AWS::Partition"}, f":iam::{READER_ACCOUNT}:root"]]
        }
    }
    only_the_role = {"ArnEquals": {"aws:PrincipalArn": [READER_ROLE]}}
    # the pipeline's account once, for its smoke role only (no other principal of the tooling account may read the
    # production key, whatever its own policies allow); the environment's own account not at all
    assert policy["Properties"]["ResourcePolicy"]["Statement"] == [
        {
            "Sid": f"ReadApiKey{READER_ACCOUNT}",
            "Effect": "Allow",
            "Principal": reader,
            "Action": "secretsmanager:GetSecretValue",
            "Resource": "*",
            "Condition": only_the_role,
        }
    ]
    _, key = _only(_of_type(template, "AWS::KMS::Key"))
    readers = [s for s in key["Properties"]["KeyPolicy"]["Statement"] if s["Principal"] == reader]
    assert readers == [
        {
            "Sid": f"DecryptApiKey{READER_ACCOUNT}",
            "Effect": "Allow",
            "Principal": reader,
            "Action": "kms:Decrypt",
            "Resource": "*",
            "Condition": {**VIA_SECRETS_MANAGER, **only_the_role},
        }
    ]
    # the environment without readers has no resource policy
    assert (
        _of_type(variants.template("optout", "serving"), "AWS::SecretsManager::ResourcePolicy")
        == {}
    )


def test_reader_roles_must_be_role_arns_and_are_grouped_by_account():
    other = "arn:aws:iam::111111111111:role/smoke"
    assert checked_reader_roles(
        [other, "arn:aws:iam::222222222222:role/own", other, "arn:aws:iam::111111111111:role/b"],
        "222222222222",
    ) == {"111111111111": (other, "arn:aws:iam::111111111111:role/b")}
    # a whole account is what this replaced: refused, as is anything that is not a role
    for bad in (
        "111111111111",
        "arn:aws:iam::111111111111:root",
        "arn:aws:iam::111111111111:user/u",
    ):
        with pytest.raises(ValueError, match="api_key_reader_roles must be IAM role ARNs"):
            checked_reader_roles([bad], "222222222222")


SECRET_ARN = "arn:aws:secretsmanager:us-west-2:123456789012:secret:"


@pytest.mark.parametrize(
    "secret, expected",
    [
        (
            "hf",
            f"{SECRET_ARN}hf-??????",
        ),  # a name: any of the six characters Secrets Manager appends
        (f"{SECRET_ARN}hf", f"{SECRET_ARN}hf-??????"),  # a partial ARN: the same
        (f"{SECRET_ARN}hf-AbC123", f"{SECRET_ARN}hf-AbC123"),  # a complete ARN: exactly that secret
    ],
)
def test_a_token_secret_by_name_or_partial_arn_matches_its_random_suffix(secret, expected):
    assert secret_arn_patterns(
        secret, partition="aws", region="us-west-2", account="123456789012"
    ) == [expected]


def test_the_variants_pass_cdk_nag_and_cfn_lint(variants):
    # cdk-nag already ran in the synthesis (it fails on a finding); the report shows the acknowledgements' reasons
    report = json.loads((variants.directory / "validation-report.json").read_text())
    aws_solutions = {p["pluginName"]: p for p in report["pluginReports"]}["AwsSolutions"]
    assert aws_solutions["conclusion"] == "success" and aws_solutions["violations"] == []
    ours = [
        f
        for f in aws_solutions["suppressedViolations"]
        if "/Secrets/" in f["acknowledgedAt"] or "/PodRole" in f["acknowledgedAt"]
    ]
    # the Lambda functions' basic execution role (IAM4) is the previous-key custom resource's (cdk_constructs/previous_key/)
    assert {f["ruleName"].split("[")[0] for f in ours} == {
        "AwsSolutions-SMG4",
        "AwsSolutions-IAM5",
        "AwsSolutions-IAM4",
    }
    assert all(
        f["acknowledgedAt"].endswith("/Secrets/PreviousKey")
        for f in ours
        if f["ruleName"].startswith("AwsSolutions-IAM4")
    )
    assert all(len(f["reason"].split()) >= 5 for f in ours)
    templates = [
        str(variants.directory / f"{env}-serving.template.json") for env in ("optout", "shared")
    ]
    errors = cfn_lint_errors(templates, ["us-west-2"])
    assert errors == [], json.dumps(errors, indent=1)
