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


@pytest.fixture(scope="session")
def hyperpod_env():
    from deployment_config import load_environment

    return load_environment(CONFIG_DIR, "example-hyperpod")


@dataclass(frozen=True)
class Assembly:
    """The cloud assembly of the one synthesis of the session."""

    directory: Path
    manifest: dict
    templates: dict[str, dict]
    kubernetes_files: list[Path]


@dataclass(frozen=True)
class SynthesizedApp:
    """One environment's view of the session's synthesis."""

    assembly: Assembly
    env_config: object

    @property
    def directory(self) -> Path:
        return self.assembly.directory

    @property
    def manifest(self) -> dict:
        return self.assembly.manifest

    @property
    def templates(self) -> dict[str, dict]:
        return self.assembly.templates

    @property
    def kubernetes_file(self) -> Path:
        (path,) = [p for p in self.assembly.kubernetes_files if p.parent.name == self.env_config.name]
        return path

    def template(self, unit: str) -> dict:
        return self.templates[self.env_config.stack_name(unit)]

    def resources(self, unit: str, resource_type: str) -> dict[str, dict]:
        return {k: v for k, v in self.template(unit)["Resources"].items() if v["Type"] == resource_type}

    def assertions(self, unit: str):
        from aws_cdk.assertions import Template

        return Template.from_json(self.template(unit))


@pytest.fixture(scope="session")
def assembly(default_env, hyperpod_env, tmp_path_factory) -> Assembly:
    """The default app (both example environments), synthesized once per session (about 6 s)."""
    from app import synthesize

    outdir = tmp_path_factory.mktemp("cdk.out")
    result = synthesize([default_env, hyperpod_env], outdir=str(outdir))
    manifest = json.loads((result.directory / "manifest.json").read_text())
    templates = {
        name: json.loads((result.directory / artifact["properties"]["templateFile"]).read_text())
        for name, artifact in manifest["artifacts"].items()
        if artifact["type"] == "aws:cloudformation:stack"
    }
    return Assembly(result.directory, manifest, templates, result.manifest_files)


@pytest.fixture(scope="session")
def synthesized(assembly, default_env) -> SynthesizedApp:
    return SynthesizedApp(assembly, default_env)


@pytest.fixture(scope="session")
def synthesized_hyperpod(assembly, hyperpod_env) -> SynthesizedApp:
    return SynthesizedApp(assembly, hyperpod_env)


@dataclass(frozen=True)
class PipelineAssembly:
    directory: Path
    template: dict
    stage_templates: dict[str, dict[str, dict]]  # environment name → stack name → template
    config: object

    @property
    def stages(self) -> dict[str, dict]:
        """The CodePipeline's stages by name, each with its actions."""
        (pipeline,) = [r for r in self.template["Resources"].values() if r["Type"] == "AWS::CodePipeline::Pipeline"]
        return {s["Name"]: s for s in pipeline["Properties"]["Stages"]}


@pytest.fixture(scope="session")
def pipeline_assembly(tmp_path_factory) -> PipelineAssembly:
    """The example pipeline (config/pipeline/example.yaml), synthesized once per session (about 5 s)."""
    from app import build_pipeline
    from deployment_config.pipeline import load_pipeline

    config = load_pipeline(CONFIG_DIR)
    app, stack = build_pipeline(config, outdir=str(tmp_path_factory.mktemp("pipeline.out")))
    assembly = app.synth()
    template = assembly.get_stack_by_name(stack.stack_name).template
    stage_templates = {}
    for env in config.environments:
        nested = assembly.get_nested_assembly(f"assembly-{stack.stack_name}-{env.name}")
        stage_templates[env.name] = {s.stack_name: s.template for s in nested.stacks}
    return PipelineAssembly(Path(assembly.directory), template, stage_templates, config)
