"""Bad input, end to end: the real app process refuses it with one message per mistake, exit code 2, no traceback and no
output; how the environment is chosen (-c env=) is checked too; placeholders synthesize but never deploy.

Each class of malformed file is in the corpus (tests/malformed/, run by test_malformed_corpus.py, in-process).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from contextlib import redirect_stderr
from pathlib import Path

import pytest
import yaml
from pydantic import BaseModel, ValidationError, create_model, field_validator

import app
from charts.serving_spec import serving_spec_for
from deployment_config import ConfigError, loader, parse_environment
from deployment_config.catalog import GPU_INSTANCE_TYPES
from deployment_config.file_models import (
    DEFAULT_DRAIN_SECONDS,
    CapacitySection,
    ClusterSection,
    EndpointSection,
    EnvironmentFile,
    HyperPodSection,
    ObservabilitySection,
)
from deployment_config.file_values import model_of
from deployment_config.model import Exposure, Platform, WeightSource
from tests.conftest import CONFIG_DIR, PROJECT_DIR


def _run_app(config_dir: Path, context: dict, outdir: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CDK_")}
    env["CDK_CONTEXT_JSON"] = json.dumps({"config_dir": str(config_dir), **context})
    env["CDK_OUTDIR"] = str(outdir)
    return subprocess.run(
        [sys.executable, str(PROJECT_DIR / "app.py")],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=config_dir,
    )


def _main(config_dir: Path, context: dict, outdir: Path) -> tuple[int, str]:
    stderr = io.StringIO()
    with redirect_stderr(stderr):
        code = app.main(
            {
                "CDK_CONTEXT_JSON": json.dumps({"config_dir": str(config_dir), **context}),
                "CDK_OUTDIR": str(outdir),
            }
        )
    return code, stderr.getvalue()


def test_example_configuration_is_valid(default_env):
    assert default_env.platform is Platform.EKS
    assert default_env.capacity.instance_type == "p6-b300.48xlarge"
    assert default_env.capacity.availability_zone in default_env.availability_zones
    assert default_env.endpoint.exposure is Exposure.INTERNAL
    assert default_env.model.weight_source is WeightSource.HUGGINGFACE
    assert default_env.kubernetes_version == "1.34"
    assert default_env.tags["environment"] == "example"


def test_the_real_process_reports_every_mistake_at_once_with_exit_code_2(
    tmp_path, example_document
):
    # given a file with three mistakes in three sections
    document = {
        **example_document,
        "account": "12345678901",
        "region": "us-wset-2",
        "regoin": "us-west-2",
    }
    (tmp_path / "bad.yaml").write_text(yaml.safe_dump(document), encoding="utf-8")
    # when the app runs as the CDK CLI runs it
    result = _run_app(tmp_path, {"env": "bad"}, tmp_path / "cdk.out")
    # then one error lists all three, each with its fix, and nothing is written
    assert result.returncode == app.EXIT_BAD_CONFIG, result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""
    assert result.stderr.count("error:") == 1 and "3 problems" in result.stderr
    for field in ("account:", "region:", "regoin:"):
        assert f"  - {field}" in result.stderr
    assert result.stderr.count("fix:") == 3
    assert "did you mean 'us-west-2'" in result.stderr or "us-west-2" in result.stderr
    assert not (tmp_path / "cdk.out").exists()


def test_one_mistake_is_one_line_and_its_fix(tmp_path, example_document):
    (tmp_path / "bad.yaml").write_text(
        yaml.safe_dump({**example_document, "account": "12345678901"}), encoding="utf-8"
    )
    code, message = _main(tmp_path, {"env": "bad"}, tmp_path / "cdk.out")
    assert code == 2
    first, fix = message.strip().splitlines()
    assert first.startswith("error: ") and "bad.yaml: account: " in first
    assert fix.startswith("  fix: ")


def test_app_names_the_known_environments_when_env_is_unknown(tmp_path, example_document):
    (tmp_path / "dev.yaml").write_text(yaml.safe_dump(example_document), encoding="utf-8")
    code, message = _main(tmp_path, {"env": "prod"}, tmp_path / "cdk.out")
    assert code == 2
    assert "there is no file" in message and "dev" in message and "-c env=NAME" in message


@pytest.mark.parametrize("key", ["env", "pipeline"])
def test_an_empty_context_value_is_a_mistake_not_the_defaults(tmp_path, key):
    # given -c env= (or -c pipeline=) with nothing after the '='
    code, message = _main(CONFIG_DIR, {key: ""}, tmp_path / "cdk.out")
    # then the app refuses it instead of synthesizing the examples
    assert code == 2
    assert f"{key}: is empty" in message and f"-c {key}=NAME" in message
    assert not (tmp_path / "cdk.out").exists()


@pytest.mark.parametrize("name", ["../example", "/etc/passwd", "example\n", "a b"])
def test_an_environment_name_is_never_a_path(tmp_path, name):
    code, message = _main(CONFIG_DIR, {"env": name}, tmp_path / "cdk.out")
    assert code == 2 and "is not the name of a configuration file" in message


def test_a_context_that_is_not_json_is_refused(tmp_path):
    stderr = io.StringIO()
    with redirect_stderr(stderr):
        code = app.main({"CDK_CONTEXT_JSON": "{not json"})
    assert code == 2 and "not readable JSON" in stderr.getvalue()


def test_file_names_that_cannot_name_stacks_are_rejected_with_the_files_other_mistakes(
    example_copy,
):
    example_copy["account"] = "1"
    with pytest.raises(ConfigError) as raised:
        parse_environment(example_copy, name="Prod_US", source="config/Prod_US.yaml")
    assert [issue.field for issue in raised.value.issues] == ["(file name)", "account"]


def test_the_examples_hold_placeholders_and_say_so_when_synthesized(default_env, hyperpod_env):
    assert default_env.placeholders == (
        "account",
        "cluster.admin_role_arn",
        "capacity.capacity_reservation_id",
    )
    assert hyperpod_env.placeholders == (
        "account",
        "cluster.admin_role_arn",
        "hyperpod.training_plan_arn",
        "model.s3_uri",
    )


def test_a_copy_with_real_ids_holds_no_placeholder(example_copy):
    example_copy.update(account="987654321098")
    example_copy["cluster"]["admin_role_arn"] = "arn:aws:iam::987654321098:role/PlatformAdmin"
    example_copy["capacity"]["capacity_reservation_id"] = "cr-0a1b2c3d4e5f60718"
    assert parse_environment(example_copy, name="prod").placeholders == ()


def test_a_copy_that_kept_one_placeholder_is_caught(example_copy):
    example_copy.update(account="987654321098")
    example_copy["cluster"]["admin_role_arn"] = "arn:aws:iam::987654321098:role/PlatformAdmin"
    assert parse_environment(example_copy, name="prod").placeholders == (
        "capacity.capacity_reservation_id",
    )


@pytest.mark.parametrize(
    "fixture, field, units",
    [
        (
            "synthesized",
            "capacity.capacity_reservation_id",
            ["network", "cluster", "gpu-nodes", "serving", "observability"],
        ),
        (
            "synthesized_hyperpod",
            "hyperpod.training_plan_arn",
            [
                "network",
                "cluster",
                "hyperpod-prereqs",
                "hyperpod",
                "inference-operator",
                "endpoint",
            ],
        ),
    ],
)
def test_every_stack_of_a_placeholder_environment_refuses_to_deploy(request, fixture, field, units):
    # given an example environment, synthesized as make synth does
    synthesized = request.getfixturevalue(fixture)
    for unit in units:
        # then each of its templates carries the refusing rule, which names the fields to replace
        name = synthesized.env_config.stack_name(unit)
        (assertion,) = synthesized.templates[name]["Rules"]["RefuseExamplePlaceholders"][
            "Assertions"
        ]
        assert assertion["Assert"] == {
            "Fn::Equals": [{"Ref": "AWS::Region"}, "placeholder-values-must-be-replaced"]
        }, name
        assert (
            field in assertion["AssertDescription"]
            and "config/NAME.yaml" in assertion["AssertDescription"]
        )
        # and tells the staged deploy of the quick start, not one `--all` before the capacity starts
        assert "stage 1 `npx cdk deploy -c env=NAME NAME-cluster`" in assertion["AssertDescription"]
        assert "stage 2 `npx cdk deploy -c env=NAME --all`" in assertion["AssertDescription"]


def test_a_file_of_a_thousand_mistakes_gets_a_bounded_message(tmp_path, example_document):
    # given a file with 1,000 unknown keys (the kind of file a generator gone wrong writes; unbounded, their messages
    # would be over 200 KB)
    document = {**example_document, **{f"key{i}": i for i in range(1000)}}
    (tmp_path / "bad.yaml").write_text(yaml.safe_dump(document), encoding="utf-8")
    # when the app loads it
    code, message = _main(tmp_path, {"env": "bad"}, tmp_path / "cdk.out")
    # then every mistake is counted, the first ones are listed with their fixes, and the message stays short
    assert code == 2 and "1000 problems" in message
    assert message.count("fix:") == 25 and "and 975 more" in message
    assert len(message) < 6000


@pytest.mark.parametrize(
    "key, hint",
    [
        ("envv", "did you mean -c env="),
        ("pipline", "did you mean -c pipeline="),
        ("stage", "the app reads -c env=NAME"),
    ],
)
def test_a_mistyped_context_key_is_refused_instead_of_synthesizing_the_examples(
    tmp_path, key, hint
):
    code, message = _main(CONFIG_DIR, {key: "prod"}, tmp_path / "cdk.out")
    assert code == 2 and f"-c {key}=... is not a setting of this app" in message and hint in message
    assert not (tmp_path / "cdk.out").exists()


def test_the_cdk_clis_own_context_keys_are_left_alone():
    # what `npx cdk synth` passes besides the user's -c (recorded from CDK CLI 2.1148.1) and cdk.json's feature flags
    context = {
        "aws:cdk:bundling-stacks": ["**"],
        "aws:cdk:enable-asset-metadata": True,
        "cli-telemetry": False,
        "aws:cdk:enable-path-metadata": True,
        "aws:cdk:version-reporting": True,
        **app.project_context(),
        "availability-zones:account=123456789012:region=us-west-2": ["us-west-2a"],
    }
    assert app._unknown_context_keys(context) is None


def test_check_config_exits_0_for_the_examples_and_2_for_a_mistake(
    tmp_path, example_document, capsys
):
    from deployment_config.__main__ import main as check_config

    # given the shipped examples, every one of them checks out (placeholders noted, not refused)
    assert check_config([], config_dir=CONFIG_DIR) == 0
    assert "placeholder values in account" in capsys.readouterr().out
    # and a file with a mistake gives the app's exit code 2 and its message
    (tmp_path / "bad.yaml").write_text(
        yaml.safe_dump({**example_document, "account": "1"}), encoding="utf-8"
    )
    assert check_config(["bad"], config_dir=tmp_path) == 2
    assert "bad.yaml: account:" in capsys.readouterr().err


@pytest.mark.parametrize(
    "image, warned",
    [("vllm/vllm-openai:kimi-k3", True), ("vllm/vllm-openai:kimi-k3@sha256:" + "a" * 64, False)],
)
def test_synthesis_warns_about_an_image_tag_and_not_about_a_digest(default_env, image, warned):
    import dataclasses

    env = dataclasses.replace(
        default_env, model=dataclasses.replace(default_env.model, image=image)
    )
    stderr = io.StringIO()
    with redirect_stderr(stderr):
        app._warn_mutable_image(env)
    assert ("is a tag, which the registry can move" in stderr.getvalue()) is warned


TLS_CERTIFICATE = (
    "arn:aws:acm:us-west-2:123456789012:certificate/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
)


def test_a_certificate_and_its_domain_reach_the_endpoint_configuration(example_copy):
    # given a public endpoint with an ACM certificate of the environment's account and region, and the name it covers
    example_copy["endpoint"] = {
        "exposure": "public",
        "allowed_cidrs": ["203.0.113.0/24"],
        "certificate_arn": TLS_CERTIFICATE,
        "domain_name": "llm.example.com",
    }
    # when the loader reads it
    env = parse_environment(example_copy, name="tls")
    # then the frozen endpoint configuration carries both, and says that the load balancer terminates TLS
    assert env.endpoint.certificate_arn == TLS_CERTIFICATE
    assert env.endpoint.domain_name == "llm.example.com"
    assert env.endpoint.tls


def test_without_a_certificate_the_endpoint_has_no_tls(default_env):
    assert default_env.endpoint.certificate_arn is None and default_env.endpoint.domain_name is None
    assert not default_env.endpoint.tls


def test_a_public_endpoint_without_tls_is_refused_with_the_fix(example_copy):
    # given a public endpoint with source ranges but no certificate
    example_copy["endpoint"] = {"exposure": "public", "allowed_cidrs": ["203.0.113.0/24"]}
    # when the loader reads it, then the one mistake names the certificate and says how to add TLS or stay internal
    with pytest.raises(ConfigError) as error:
        parse_environment(example_copy, name="open")
    (issue,) = error.value.issues
    assert issue.field == "endpoint.certificate_arn"
    assert (
        "TLS" in issue.problem and "domain_name" in issue.fix and "exposure: internal" in issue.fix
    )


def test_a_drain_longer_than_the_end_of_a_capacity_block_allows_is_refused(example_copy):
    # given a drain of 15 minutes: longer than the 10 between EKS scaling the nodes to 0 and EC2 shutting them down
    example_copy["endpoint"] = {"exposure": "internal", "drain_seconds": 900}
    with pytest.raises(ConfigError) as error:
        parse_environment(example_copy, name="slow")
    (issue,) = error.value.issues
    assert issue.field == "endpoint.drain_seconds" and "540" in issue.problem + issue.fix


def test_the_drain_reaches_vllm_and_sizes_the_grace_period(example_copy):
    from charts.serving_spec import serving_spec_for

    example_copy["endpoint"] = {"exposure": "internal", "drain_seconds": 120}
    spec = serving_spec_for(parse_environment(example_copy, name="quick"))
    assert spec.args[spec.args.index("--shutdown-timeout") + 1] == "120"
    assert spec.termination_grace_seconds == 15 + 120 + 30


def test_more_replicas_than_gpu_nodes_is_refused_with_the_count(example_copy):
    # given a one-node reservation and two replicas (a replica takes a whole node)
    example_copy["endpoint"] = {"exposure": "internal", "replicas": 2}
    with pytest.raises(ConfigError) as error:
        parse_environment(example_copy, name="many")
    (issue,) = error.value.issues
    assert issue.field == "endpoint.replicas"
    assert "capacity.instance_count is 1" in issue.problem and "at most 1" in issue.fix


def test_replicas_default_to_every_gpu_node(example_copy):
    example_copy["capacity"]["instance_count"] = 3
    assert parse_environment(example_copy, name="three").replicas == 3
    example_copy["endpoint"] = {"exposure": "internal", "replicas": 2}
    assert parse_environment(example_copy, name="two").replicas == 2


@pytest.mark.parametrize("levels, refused", [(63, False), (64, True)])
def test_nesting_is_refused_at_the_depth_limit_with_where_it_happens(levels, refused):
    # given a value nested `levels` lists deep under a key (the file's own mapping is one more level)
    from deployment_config.yaml_reader import MAX_NESTING_DEPTH, parse_yaml

    text = "account: " + "[" * levels + "]" * levels + "\n"
    # when it is read, then the reader refuses it once the limit is passed, naming the line and column where
    if not refused:
        assert parse_yaml(text, source="bad.yaml") == {"account": _nested(levels)}
        return
    with pytest.raises(ConfigError) as raised:
        parse_yaml(text, source="bad.yaml")
    (issue,) = raised.value.issues
    assert issue.field == "(file)"
    assert (
        issue.problem
        == f"nests lists or mappings more than {MAX_NESTING_DEPTH} levels deep (line 1, column 73)"
    )


def _nested(levels: int) -> list:
    value: list = []
    for _ in range(levels - 1):
        value = [value]
    return value


# --- HyperPod: nothing the pinned operator cannot do is accepted (issue 19) -------------------------------------------


@pytest.fixture
def hyperpod_copy() -> dict:
    return yaml.safe_load((CONFIG_DIR / "example-hyperpod.yaml").read_text(encoding="utf-8"))


def test_hyperpod_refuses_weights_from_the_hub_with_the_fix(hyperpod_copy):
    # given weights from the Hugging Face Hub on HyperPod, which the project does not have the operator (3.1) download
    hyperpod_copy["model"] = {"preset": "kimi-k3", "weight_source": "huggingface"}
    with pytest.raises(ConfigError) as error:
        parse_environment(hyperpod_copy, name="hub")
    # then one clear message: the field, why, and how to get S3 weights
    (issue,) = error.value.issues
    assert issue.field == "model.weight_source"
    assert "operator 3.1" in issue.problem and "from S3 only" in issue.problem
    assert "weight_source: s3" in issue.fix and "s3_uri: s3://BUCKET/PREFIX/" in issue.fix
    assert "docs/weights.md" in issue.fix


def test_eks_still_takes_weights_from_the_hub(example_copy):
    example_copy["model"] = {"preset": "kimi-k3", "weight_source": "huggingface"}
    assert (
        parse_environment(example_copy, name="hub").model.weight_source is WeightSource.HUGGINGFACE
    )


def test_hyperpod_refuses_a_public_endpoint_it_would_make_internal(hyperpod_copy):
    # given a public endpoint with its source networks on HyperPod: operator 3.1's CRD has no scheme and no CIDR field
    hyperpod_copy["endpoint"] = {"exposure": "public", "allowed_cidrs": ["203.0.113.0/24"]}
    with pytest.raises(ConfigError) as error:
        parse_environment(hyperpod_copy, name="public")
    # then it is refused, not synthesized as internal
    (issue,) = error.value.issues
    assert issue.field == "endpoint.exposure"
    assert (
        "platform: hyperpod" in issue.problem
        and "no field for the scheme or the source networks" in issue.problem
    )
    assert "exposure: internal" in issue.fix and "platform: eks" in issue.fix


def test_hyperpod_refuses_allowed_cidrs_without_public_as_everywhere(hyperpod_copy):
    hyperpod_copy["endpoint"] = {"exposure": "internal", "allowed_cidrs": ["203.0.113.0/24"]}
    with pytest.raises(ConfigError) as error:
        parse_environment(hyperpod_copy, name="cidrs")
    assert [issue.field for issue in error.value.issues] == ["endpoint.allowed_cidrs"]


# --- Rules between sections: one table, run after field validation (issue 22 item 2) --------------------------------


def _declared_in_reverse() -> type[BaseModel]:
    """The environment file's model with its top-level fields declared last to first, its field checks kept."""
    decorators = EnvironmentFile.__pydantic_decorators__.field_validators
    checks = {
        name: field_validator(*check.info.fields, mode=check.info.mode)(
            classmethod(check.func.__func__)
        )
        for name, check in decorators.items()
    }
    fields = {
        name: (field.rebuild_annotation(), field)
        for name, field in reversed(EnvironmentFile.model_fields.items())
    }
    reversed_file = create_model(
        "EnvironmentFileReversed",
        __config__=EnvironmentFile.model_config,
        __validators__=checks,
        **fields,
    )
    reversed_file.model_rebuild(_types_namespace=vars(sys.modules[EnvironmentFile.__module__]))
    return reversed_file


def test_rules_between_sections_do_not_depend_on_the_order_the_fields_are_declared(
    hyperpod_copy, monkeypatch
):
    # given a HyperPod file whose mistakes only rules between sections find: Kubernetes 1.35 (read with the platform),
    # the plan's zone outside the VPC's zones, Hub weights and a round-robin router the operator cannot serve
    hyperpod_copy.update(kubernetes_version="1.35", endpoint={"routing": "round_robin"})
    hyperpod_copy["hyperpod"]["availability_zone"] = "us-west-2c"
    hyperpod_copy["model"] = {"preset": "kimi-k3", "weight_source": "huggingface"}
    reversed_file = _declared_in_reverse()
    assert list(reversed_file.model_fields)[0] == "tags"
    monkeypatch.setitem(loader.RULES, reversed_file, loader.RULES[EnvironmentFile])
    # when it is validated against the models as declared, and against the same models declared the other way round
    found = []
    for model in (EnvironmentFile, reversed_file):
        with pytest.raises(ConfigError) as error:
            loader.validate_document(hyperpod_copy, model)
        found.append({(issue.field, issue.problem) for issue in error.value.issues})
    # then both find the same four mistakes
    assert found[0] == found[1]
    assert {field for field, _ in found[0]} == {
        "kubernetes_version",
        "hyperpod.availability_zone",
        "model.weight_source",
        "endpoint.routing",
    }


def test_a_rule_whose_input_failed_is_skipped_and_the_other_mistakes_are_still_reported(
    example_copy,
):
    # given a file with a misspelt region, a reservation in a zone the VPC lacks and a model too large for its GPUs
    example_copy["region"] = "us-wset-2"
    example_copy["capacity"].update(availability_zone="us-west-2c", instance_type="p5.48xlarge")
    # when it is loaded
    with pytest.raises(ConfigError) as error:
        parse_environment(example_copy, name="bad")
    fields = [issue.field for issue in error.value.issues]
    # then the region and the model are reported; the zone rule, whose input (the region's zones) failed, is skipped
    assert fields[0] == "region"
    assert "capacity.instance_type" in fields
    assert "capacity.availability_zone" not in fields


def test_every_rule_between_sections_reads_declared_fields():
    # given the rules' tables, then every path a rule reads or refuses is a field of the file it checks
    for root, rules in loader.RULES.items():
        for rule in rules:
            for path in (*rule.reads, *([rule.refuses] if rule.refuses else [])):
                model = root
                for part in path.split("."):
                    assert model is not None and part in model.model_fields, (rule.name, path)
                    model = model_of(model.model_fields[part].annotation)
            assert rule.refuses is None or rule.refuses in rule.reads, rule.name


def test_the_drain_default_is_declared_once_by_the_section_and_reaches_the_pod(example_copy):
    # given a file that leaves endpoint.drain_seconds out
    example_copy["endpoint"] = {"exposure": "internal"}
    # when it is loaded and the serving chart's inputs are derived from it
    env = parse_environment(example_copy, name="drain")
    spec = serving_spec_for(env)
    # then the section's one default is what vLLM is told and what sizes the grace period, and the schema says so
    default = EndpointSection.model_fields["drain_seconds"].default
    assert (
        env.endpoint.drain_seconds
        == spec.endpoint.drain_seconds
        == default
        == DEFAULT_DRAIN_SECONDS
    )
    assert ("--shutdown-timeout", str(default)) == tuple(
        spec.args[spec.args.index("--shutdown-timeout") :][:2]
    )
    described = EndpointSection.model_json_schema()["properties"]["drain_seconds"]
    assert described["default"] == default and described["description"].endswith(
        f"Default: {default}."
    )


def test_the_validated_sections_are_the_frozen_domain_model(default_env, hyperpod_env, tmp_path):
    # given the loaded examples, then their cluster and HyperPod sections are the validated section models themselves
    assert (
        type(default_env.cluster) is ClusterSection
        and type(hyperpod_env.hyperpod) is HyperPodSection
    )
    assert type(default_env.observability) is ObservabilitySection
    # the endpoint and the capacity too: the sections the file was validated against, not copies of their fields
    assert type(default_env.endpoint) is EndpointSection
    assert type(default_env.capacity) is CapacitySection
    with pytest.raises(ValidationError, match="frozen"):
        default_env.cluster.system_node_count = 3
    with pytest.raises(ValidationError, match="frozen"):
        default_env.endpoint.replicas = 3
    # and what the consumers need beside the file's values is derived on the section, not copied into another class
    endpoint, capacity = default_env.endpoint, default_env.capacity
    assert endpoint.exposure is Exposure.INTERNAL
    assert endpoint.api_key_required is (endpoint.authentication == "api-key")
    assert endpoint.tls is False and endpoint.gate is None
    assert capacity.gpu_instance_type is GPU_INSTANCE_TYPES[capacity.instance_type]
    assert default_env.gpu_instance_type is capacity.gpu_instance_type
    assert (
        hyperpod_env.hyperpod.gpu_instance_type.name
        == hyperpod_env.hyperpod.instance_type.removeprefix("ml.")
    )
    (tmp_path / "chart").mkdir()
    (tmp_path / "chart" / "Chart.yaml").write_text("name: c\n", encoding="utf-8")
    section = HyperPodSection.model_validate(
        {
            **hyperpod_env.hyperpod.model_dump(exclude_none=True),
            "dependencies_chart_dir": str(tmp_path / "chart" / ".." / "chart"),
        }
    )
    assert section.dependencies_chart_dir == str((tmp_path / "chart").resolve())


def _fields(document: dict) -> set[str]:
    with pytest.raises(ConfigError) as error:
        parse_environment(document, name="two-mistakes")
    return {issue.field for issue in error.value.issues}


def test_a_hyperpod_mistake_elsewhere_in_its_section_keeps_the_replica_count_judged(hyperpod_copy):
    # given a HyperPod file with two mistakes: a training plan that is no ARN, and more replicas than instances
    hyperpod_copy["hyperpod"]["training_plan_arn"] = "arn:bad"
    hyperpod_copy["endpoint"]["replicas"] = 5
    # when make check-config reads it
    fields = _fields(hyperpod_copy)
    # then both are reported: the replica rule reads hyperpod.instance_count only, which is valid
    assert fields == {"hyperpod.training_plan_arn", "endpoint.replicas"}


def test_a_model_mistake_elsewhere_in_its_section_keeps_the_feature_names_judged(hyperpod_copy):
    # given two mistakes in the model section: an s3_uri that is no s3:// URI, and a feature the recipe does not have
    hyperpod_copy["model"]["s3_uri"] = "http://x"
    hyperpod_copy["model"]["features"] = ["no_such_feature"]
    # when make check-config reads it
    fields = _fields(hyperpod_copy)
    # then both are reported: a feature's name needs only the preset's recipe
    assert fields == {"model.s3_uri", "model.features[0]"}


def test_an_unknown_feature_of_a_valid_model_is_reported_once(hyperpod_copy):
    hyperpod_copy["model"]["features"] = ["no_such_feature"]
    with pytest.raises(ConfigError) as error:
        parse_environment(hyperpod_copy, name="one-mistake")
    (issue,) = error.value.issues
    assert issue.field == "model.features[0]" and "not an opt-in feature" in issue.problem


@pytest.mark.parametrize(
    ("model", "judged"),
    [
        ({"extra_args": ["--max-model-len", "2M"]}, "model.extra_args[0]"),
        ({"extra_args": ["-dcp", "3"]}, "model.extra_args[0]"),
    ],
)
def test_another_model_mistake_keeps_the_extra_args_rules_judged(hyperpod_copy, model, judged):
    # given a model section with an image that is no image reference, and an extra_args value that a rule between
    # model fields refuses (a context beyond the model's, a DCP size that does not divide TP)
    hyperpod_copy["model"].update(image="not an image!", **model)
    # when make check-config reads it
    fields = _fields(hyperpod_copy)
    # then both are reported: those rules read model.extra_args and model.preset (and TP), not the whole section
    assert fields == {"model.image", judged}


def test_another_model_mistake_keeps_the_one_speculative_config_judged(example_copy):
    example_copy["model"].update(
        image="not an image!",
        features=["spec_decoding"],
        speculator_size_gb=8,
        extra_args=["--speculative-config", '{"model": "someone/other-draft"}'],
    )
    assert _fields(example_copy) == {"model.image", "model.extra_args[0]"}


def test_another_endpoint_mistake_keeps_the_routing_judged(hyperpod_copy):
    # given HyperPod's operator routing with the key required (its router finds no worker), and a drain time outside
    # its range
    hyperpod_copy["endpoint"].update(routing="cache_aware", drain_seconds=-1)
    # then both are reported
    assert _fields(hyperpod_copy) == {"endpoint.routing", "endpoint.drain_seconds"}


def test_another_model_mistake_keeps_the_tensor_parallel_size_judged(hyperpod_copy):
    # given a tensor-parallel size that is not the 8 GPUs of a p6-b300, and an s3_uri that is no s3:// URI
    hyperpod_copy["model"].update(tensor_parallel_size=3, s3_uri="http://x")
    # then both are reported, the size once
    with pytest.raises(ConfigError) as error:
        parse_environment(hyperpod_copy, name="two-mistakes")
    fields = [issue.field for issue in error.value.issues]
    assert sorted(fields) == ["model.s3_uri", "model.tensor_parallel_size"]
