"""Shared fixtures. The default app is synthesized once per test session; every stack test reads that one result."""

from __future__ import annotations

import copy
import json
import os
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

# jsii prints a banner on every start while the machine's Node is past end-of-life; it is noise in test output.
os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")
os.environ.setdefault("JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION", "1")

PROJECT_DIR = Path(__file__).resolve().parents[1]
CONFIG_DIR = PROJECT_DIR / "config"


@pytest.fixture(scope="session")
def example_document() -> dict:
    """The embedded default configuration as parsed YAML; copy before changing it."""
    return yaml.safe_load((CONFIG_DIR / "example.yaml").read_text(encoding="utf-8"))


@pytest.fixture
def example_copy(example_document) -> dict:
    return copy.deepcopy(example_document)


@pytest.fixture(scope="session")
def default_env():
    from deployment_config import DEFAULT_ENVIRONMENT, load_environment

    return load_environment(CONFIG_DIR, DEFAULT_ENVIRONMENT)


@dataclass(frozen=True)
class SynthesizedApp:
    directory: Path
    manifest: dict
    templates: dict[str, dict]
    kubernetes_file: Path
    env_config: object

    def template(self, unit: str) -> dict:
        return self.templates[self.env_config.stack_name(unit)]

    def resources(self, unit: str, resource_type: str) -> dict[str, dict]:
        return {k: v for k, v in self.template(unit)["Resources"].items() if v["Type"] == resource_type}

    def assertions(self, unit: str):
        from aws_cdk.assertions import Template

        return Template.from_json(self.template(unit))


@pytest.fixture(scope="session")
def synthesized(default_env, tmp_path_factory) -> SynthesizedApp:
    """The default app, synthesized once (about 5 s) into a temporary cloud assembly."""
    from app import synthesize

    outdir = tmp_path_factory.mktemp("cdk.out")
    result = synthesize(default_env, outdir=str(outdir))
    manifest = json.loads((result.directory / "manifest.json").read_text())
    templates = {
        name: json.loads((result.directory / artifact["properties"]["templateFile"]).read_text())
        for name, artifact in manifest["artifacts"].items()
        if artifact["type"] == "aws:cloudformation:stack"
    }
    return SynthesizedApp(result.directory, manifest, templates, result.manifest_file, default_env)
