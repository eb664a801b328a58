"""An environment file is validated once per content in a process (deployment_config/loader.py, load_environment):
the same bytes under the same name give the same environment, under the path they were read from this time; a
change of one byte, another name or another placeholder rule validates again; a mistake is reported every time."""

from __future__ import annotations

import dataclasses

import pytest

from deployment_config import loader
from deployment_config.errors import ConfigError
from tests.conftest import copy_shipped_examples


@pytest.fixture
def validations(monkeypatch):
    """The calls of the loader's validation (parse_environment), recorded by environment name."""
    names: list[str] = []
    validate = loader.parse_environment

    def counted(data, *, name, source="<memory>"):
        names.append(name)
        return validate(data, name=name, source=source)

    monkeypatch.setattr(loader, "parse_environment", counted)
    monkeypatch.setattr(loader, "_VALIDATED", {})
    return names


def test_the_same_file_copied_elsewhere_is_validated_once_and_named_by_its_new_path(
    tmp_path, validations
):
    # given the shipped example in two configuration directories
    first, second = (copy_shipped_examples(tmp_path / name) for name in ("a", "b"))
    # when it is loaded from both
    one = loader.load_environment(first, "example")
    two = loader.load_environment(second, "example")
    # then it was validated once, and each environment names the file it was read from
    assert validations == ["example"]
    assert one.source.endswith("a/example.yaml") and two.source.endswith("b/example.yaml")
    assert dataclasses.replace(one, source="") == dataclasses.replace(two, source="")


def test_a_changed_byte_another_name_or_placeholder_rule_validates_again(
    tmp_path, validations, monkeypatch
):
    config = copy_shipped_examples(tmp_path / "config")
    before = loader.load_environment(config, "example")
    # when one value of the file changes, the environment has it
    path = config / "example.yaml"
    path.write_text(path.read_text().replace("vpc_cidr: 10.0.0.0/16", "vpc_cidr: 10.1.0.0/16", 1))
    after = loader.load_environment(config, "example")
    assert before.vpc_cidr == "10.0.0.0/16" and after.vpc_cidr == "10.1.0.0/16"
    # and the same bytes under another name are another environment (its stacks and tags carry the name)
    (config / "other.yaml").write_bytes(path.read_bytes())
    assert loader.load_environment(config, "other").tags["environment"] == "other"
    # and a test's own placeholder rule is applied, not the one of an earlier load
    monkeypatch.setattr(loader, "placeholder_fields", lambda document, paths: ())
    assert loader.load_environment(config, "example").placeholders == ()
    assert validations == ["example", "example", "other", "example"]


def test_a_mistake_is_reported_on_every_load(tmp_path, validations):
    config = copy_shipped_examples(tmp_path / "config")
    path = config / "example.yaml"
    path.write_text(path.read_text() + "\nunknown_key: 1\n")
    for _ in range(2):
        with pytest.raises(ConfigError, match="unknown_key"):
            loader.load_environment(config, "example")
    assert validations == ["example", "example"]
