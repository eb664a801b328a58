"""Property: whatever YAML can hold, the loader answers with a valid environment or one ConfigError, never another
exception, and every message stays bounded and names fields that exist in the document or the schema."""

from __future__ import annotations

import copy

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deployment_config import ConfigError, parse_environment
from deployment_config.file_models import EnvironmentFile
from tests.conftest import CONFIG_DIR

EXAMPLE = yaml.safe_load((CONFIG_DIR / "example.yaml").read_text(encoding="utf-8"))
HYPERPOD = yaml.safe_load((CONFIG_DIR / "example-hyperpod.yaml").read_text(encoding="utf-8"))
KEYS = sorted(
    {
        *EnvironmentFile.model_fields,
        "capacity_reservation_id",
        "availability_zone",
        "instance_type",
        "extra_args",
        "extra_env",
        "admin_role_arn",
        "allowed_cidrs",
        "exposure",
        "training_plan_arn",
    }
)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True),
    st.text(max_size=40),
    st.sampled_from(
        [
            "us-west-2",
            "us-west-2a",
            "cr-0123456789abcdef0",
            "10.0.0.0/16",
            "0.0.0.0/0",
            "-tp",
            "8",
            "public",
            "hyperpod",
            "eks",
        ]
    ),
)
keys = st.one_of(st.sampled_from(KEYS), st.text(max_size=12), st.integers(0, 3))
values = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(keys, children, max_size=4)
    ),
    max_leaves=12,
)


def _paths(node, prefix=()):
    """Every (path, container) of a document, for mutations at any depth."""
    yield prefix, node
    if isinstance(node, dict):
        for key, child in node.items():
            yield from _paths(child, (*prefix, key))
    elif isinstance(node, list):
        for index, child in enumerate(node):
            yield from _paths(child, (*prefix, index))


def _check(document) -> None:
    try:
        parse_environment(document, name="fuzz", source="fuzz.yaml")
    except ConfigError as error:
        message = str(error)
        assert error.issues and len(message) < 8000
        assert all(issue.fix for issue in error.issues)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(values)
def test_any_document_gives_an_environment_or_a_config_error(document):
    _check(document)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([EXAMPLE, HYPERPOD]), st.data())
def test_any_change_to_an_example_gives_an_environment_or_a_config_error(base, data):
    # given one of the examples with one value anywhere replaced by anything YAML can hold
    document = copy.deepcopy(base)
    paths = [path for path, _ in _paths(document) if path]
    path = data.draw(st.sampled_from(paths))
    node = document
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = data.draw(values)
    # then the loader accepts it or explains it, and nothing else happens
    _check(document)
