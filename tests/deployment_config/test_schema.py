"""The JSON Schema files under schema/: generated from the loader's models, referenced by every example, and strict
enough that an editor flags what the loader refuses for its shape."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import jsonschema
import pytest
import yaml

from deployment_config.schema import SCHEMA_DIR, SCHEMAS, schema_text
from tests.conftest import PROJECT_DIR, SHIPPED_CONFIG_DIR, SHIPPED_EXAMPLES
from tests.deployment_config.test_malformed_corpus import CASES, _file_bytes

#: Every configuration file in the repository and the schema it must name.
EXAMPLES = {
    **{
        SHIPPED_CONFIG_DIR / name: "pipeline.schema.json"
        if name.startswith("pipeline/")
        else "environment.schema.json"
        for name in SHIPPED_EXAMPLES
    },
    PROJECT_DIR / "tests" / "configs" / "example.yaml": "environment.schema.json",
    PROJECT_DIR / "tests" / "configs" / "bridge.yaml": "environment.schema.json",
    PROJECT_DIR / "tests" / "configs" / "pipeline" / "cross-region.yaml": "pipeline.schema.json",
}
#: Corpus classes whose mistakes are of shape (keys, types, patterns, enums, ranges), which a schema can see.
SHAPE_CLASSES = ("keys", "types", "account")


@functools.cache
def _validator(name: str) -> jsonschema.Draft202012Validator:
    """The schema file's validator, checked against its meta-schema once per process (the check is the slow part)."""
    schema = json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.mark.parametrize("name, model", SCHEMAS.items())
def test_the_schema_files_are_generated_from_the_loaders_models(name, model):
    # a stale file means someone changed the models without running `make schema`
    assert (SCHEMA_DIR / name).read_text(encoding="utf-8") == schema_text(model), "run: make schema"


@pytest.mark.parametrize(
    "path, schema", EXAMPLES.items(), ids=[str(p.relative_to(PROJECT_DIR)) for p in EXAMPLES]
)
def test_every_example_names_its_schema_and_validates_against_it(path, schema):
    first_line = path.read_text(encoding="utf-8").splitlines()[0]
    match = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first_line)
    assert match, f"{path} does not start with the yaml-language-server line"
    assert (path.parent / match.group(1)).resolve() == (SCHEMA_DIR / schema).resolve()
    errors = list(_validator(schema).iter_errors(yaml.safe_load(path.read_text(encoding="utf-8"))))
    assert errors == []


#: Rules between fields are the loader's, not the schema's (which section a platform needs, a model that does not fit
#: the instance type); and a number as a mapping key exists in YAML only (JSON has string keys).
_RULES_BETWEEN_FIELDS = {
    "keys/missing-capacity-on-eks",
    "keys/only-an-account-model-too-large-for-the-default-section",
    "keys/tag-key-that-is-a-number",
}
SHAPE_CASES = [
    (name, case)
    for name, case in CASES
    if name.split("/")[0] in SHAPE_CLASSES and name not in _RULES_BETWEEN_FIELDS
]


@pytest.mark.parametrize("name, case", SHAPE_CASES, ids=[name for name, _ in SHAPE_CASES])
def test_the_schema_rejects_malformed_shapes_as_an_editor_would(name, case):
    document = yaml.safe_load(_file_bytes(case))
    schema = "pipeline.schema.json" if case.get("base") == "pipeline" else "environment.schema.json"
    assert list(_validator(schema).iter_errors(document)), f"the schema accepts {name}"


def test_the_schema_offers_the_values_an_editor_completes():
    schema = json.loads((SCHEMA_DIR / "environment.schema.json").read_text(encoding="utf-8"))
    properties = schema["properties"]
    assert (
        "us-west-2" in properties["region"]["enum"]
        and "us-wset-2" not in properties["region"]["enum"]
    )
    assert properties["platform"]["enum"] == ["eks", "hyperpod"]
    assert schema["additionalProperties"] is False
    assert Path(SCHEMA_DIR / "pipeline.schema.json").is_file()


def test_the_ec2_instance_type_names_are_those_of_the_pinned_botocore():
    from deployment_config.ec2_instance_types import DATA_FILE, file_text

    assert DATA_FILE.read_text(encoding="utf-8") == file_text(), "run: make schema"
