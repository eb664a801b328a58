#!/usr/bin/env python3
"""The CDK app: `npx cdk synth -c env=NAME` synthesizes config/NAME.yaml; with no -c, the embedded examples
(config/example.yaml, EKS + Capacity Block, and config/example-hyperpod.yaml, SageMaker HyperPod);
`-c pipeline=NAME` (or `-c pipeline=true` for config/pipeline/example.yaml) the delivery pipeline instead.

Only composition happens here: the configuration is loaded and validated first (a bad file exits with one
message and writes nothing), then the stacks of each environment are added, checked by cdk-nag and synthesized,
and the Kubernetes manifests are written as plain YAML beside the templates for review and `kubectl apply`.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from deployment_config import ConfigError, EnvironmentConfig, load_environment
from deployment_config.cdk_context import cli_context
from deployment_config.loader import DEFAULT_ENVIRONMENTS
from deployment_config.pipeline import DEFAULT_PIPELINE, PipelineConfig, load_pipeline

if TYPE_CHECKING:
    import aws_cdk as cdk

    from stacks.composition import Environment
    from stacks.pipeline_stack import PipelineStack

PROJECT_DIR = Path(__file__).resolve().parent
# jsii prints an end-of-life banner on every start on Node 20 (jsii/_embedded/jsii/bin__jsii-runtime.js checks these
# variables first); the README recommends Node 24 (.nvmrc). Set here, before anything starts the jsii runtime, so that
# the app run any way (`cdk synth`, `python app.py`, a profiler) prints none; a value the shell sets is kept.
os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")
os.environ.setdefault("JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION", "1")
#: How much older than the synthesis a file must be to count as an earlier synthesis's: filesystems that keep mtimes to
#: the second (HFS+, FAT) would otherwise make a file written in the synthesis's first second look older than it.
STALE_MARGIN_SECONDS = 2.0
#: Exit code of a configuration error (argparse's convention for bad usage).
EXIT_BAD_CONFIG = 2


def project_context() -> dict:
    """The context in cdk.json: the CLI passes it on its own; an app built in-process (tests, bench) needs it too."""
    return json.loads((PROJECT_DIR / "cdk.json").read_text(encoding="utf-8"))["context"]


def checked_app(outdir: str | None, *, inspect_only: bool = False) -> cdk.App:
    """An App with the project's context and cdk-nag's AwsSolutions checks, which run when it synthesizes.

    ``inspect_only``: a synthesis whose templates are read and linted, never deployed (the tests' variants). Default
    off: as every ``cdk synth`` runs. On, it leaves out two costs that such a synthesis does not need:

    - aws-cdk-lib's built-in CloudFormation validation, a gate with cdk.json's ``@aws-cdk/core:validateAgainstDefaultRules``
      (``CDK_VALIDATION=false`` or ``cdk synth --no-validation`` turns it off too: aws-cdk-lib 2.275.0
      ``core/lib/app.d.ts``, ``builtinCloudFormationValidation``). Building its engine is most of a synthesis's CPU time
      and is paid again in each process (docs/maintainers/performance.md, "Synthesis"); the tests keep it on for the
      default app and the pipeline (tests/background_synthesis.py) and lint their variants with cfn-lint instead.
    - Asset staging (context ``aws:cdk:disable-asset-staging``): the kubectl and helm layers would be copied into every
      variant's cloud assembly (sizes in docs/maintainers/performance.md); the templates name each asset by the same
      hash either way.
    """
    # Imported only now: the CDK's jsii runtime takes seconds to start, and a bad file should not wait for it.
    import aws_cdk as cdk
    import cdk_nag

    context = {
        **project_context(),
        **({"aws:cdk:disable-asset-staging": True} if inspect_only else {}),
    }
    app = cdk.App(
        outdir=outdir, context=context, builtin_cloud_formation_validation=not inspect_only
    )
    cdk.Validations.of(app).add_plugins(cdk_nag.AwsSolutionsChecks(app))
    return app


def build(
    env_configs: list[EnvironmentConfig], *, outdir: str | None = None, inspect_only: bool = False
) -> tuple[cdk.App, list[Environment]]:
    """Compose the app for the given environments (``inspect_only``: see :func:`checked_app`)."""
    from stacks.composition import add_environment

    app = checked_app(outdir, inspect_only=inspect_only)
    return app, [add_environment(app, env_config) for env_config in env_configs]


@dataclass(frozen=True)
class Synthesis:
    """What one synthesis produced: the cloud assembly directory, the environments, and the plain-YAML manifests."""

    directory: Path
    environments: list[Environment]
    manifest_files: list[Path]


def synthesize(
    env_configs: list[EnvironmentConfig], *, outdir: str | None = None, inspect_only: bool = False
) -> Synthesis:
    from charts.manifest_files import prune_stale_outputs, write_manifests

    app, environments = build(env_configs, outdir=outdir, inspect_only=inspect_only)
    started = time.time() - STALE_MARGIN_SECONDS
    directory = Path(app.synth().directory)
    written = [
        write_manifests(directory, environment.config.name, manifests, filename)
        for environment in environments
        for filename, manifests in environment.manifest_files.items()
    ]
    prune_stale_outputs(directory, started)
    return Synthesis(directory, environments, written)


def pinned_tool_versions() -> dict[str, str]:
    """The versions pinned in package.json (aws-cdk, cdk-assets, ...): the pipeline installs the same ones."""
    return json.loads((PROJECT_DIR / "package.json").read_text(encoding="utf-8"))["devDependencies"]


def build_pipeline(
    pipeline_config: PipelineConfig, *, outdir: str | None = None, inspect_only: bool = False
) -> tuple[cdk.App, PipelineStack]:
    """Compose the pipeline app: one PipelineStack whose stages hold the environments' stacks."""
    import aws_cdk as cdk

    from stacks.pipeline_stack import PipelineStack

    app = checked_app(outdir, inspect_only=inspect_only)
    stack = PipelineStack(
        app,
        f"llm-serving-pipeline-{pipeline_config.name}",
        pipeline_config=pipeline_config,
        tool_versions=pinned_tool_versions(),
        env=cdk.Environment(account=pipeline_config.account, region=pipeline_config.region),
        description="Delivery pipeline of the LLM serving environments",
    )
    return app, stack


#: The context keys this app reads (-c KEY=VALUE).
APP_CONTEXT_KEYS = ("env", "pipeline", "config_dir")


def _unknown_context_keys(context: dict) -> ConfigError | None:
    """A -c key this app does not read, such as a typo of env (-c envv=prod), would silently synthesize the examples.

    Keys of the CDK itself and of cdk.json (feature flags '@aws-cdk/...', 'aws:cdk:...', look-ups 'x:account=...',
    'cli-telemetry') are left alone: only plain words are judged.
    """
    own = set(APP_CONTEXT_KEYS) | set(project_context())
    unknown = [
        k
        for k in context
        if k not in own and not k.startswith("@") and ":" not in k and k != "cli-telemetry"
    ]
    if not unknown:
        return None
    close = difflib.get_close_matches(unknown[0], APP_CONTEXT_KEYS, n=1, cutoff=0.5)
    hint = f"did you mean -c {close[0]}=...? " if close else ""
    return ConfigError(
        "(context)",
        f"-c {unknown[0]}=... is not a setting of this app",
        f"{hint}the app reads -c env=NAME, -c pipeline=NAME and -c config_dir=DIR",
    )


def _warn_mutable_image(env_config: EnvironmentConfig) -> None:
    """A tag can be moved to another image: a node that pulls again (a new node, an evicted image) runs that one."""
    from charts.image_reference import image_is_pinned

    image = env_config.model.image
    if not image_is_pinned(image):
        print(
            f"note: {env_config.source}: model.image {image} is a tag, which the registry can move to another image; "
            "pin it by digest (repo:tag@sha256:...; `docker buildx imagetools inspect` shows it)",
            file=sys.stderr,
        )


#: The public vLLM image on Docker Hub. Its Dockerfile installs libibverbs-dev, gdrcopy and the expert-parallel kernels,
#: but neither libfabric nor the aws-ofi-nccl plugin (vllm-project/vllm@dead20ba docker/Dockerfile, stages vllm-base and
#: vllm-openai): NCCL between nodes then falls back to TCP sockets instead of EFA.
_PUBLIC_VLLM_IMAGE = re.compile(
    r"(?:(?:docker\.io|registry-1\.docker\.io|index\.docker\.io)/)?vllm/vllm-openai(?=[:@]|$)"
)


def _warn_multi_node_image(env_config: EnvironmentConfig) -> None:
    """A model spread over nodes talks NCCL over EFA only with libfabric and aws-ofi-nccl in the image."""
    layout, image = env_config.layout, env_config.model.image
    if layout.multi_node and _PUBLIC_VLLM_IMAGE.match(image):
        print(
            f"note: {env_config.source}: the model runs over {layout.nodes} nodes, and model.image {image} is the public "
            "vLLM image, whose Dockerfile installs neither libfabric nor the aws-ofi-nccl plugin "
            "(vllm-project/vllm@dead20ba docker/Dockerfile): NCCL between the nodes would use TCP sockets, not EFA; "
            'build an image from it with the EFA installer and set model.image to it (docs/configure.md, "Multi-node models")',
            file=sys.stderr,
        )


def _warn_placeholders(source: str, fields: tuple[str, ...]) -> None:
    if fields:
        print(
            f"note: {source} holds the example's placeholder values in {', '.join(fields)}: it synthesizes, but "
            "CloudFormation refuses to deploy it",
            file=sys.stderr,
        )


def main(environ: Mapping[str, str] = os.environ) -> int:
    try:
        context = cli_context(environ)
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_BAD_CONFIG
    unknown = _unknown_context_keys(context)
    if unknown:
        print(f"error: {unknown}", file=sys.stderr)
        return EXIT_BAD_CONFIG
    config_dir = Path(str(context.get("config_dir", PROJECT_DIR / "config")))
    if "pipeline" in context and context["pipeline"] not in (False, "false"):
        name = str(context["pipeline"])
        try:
            pipeline_config = load_pipeline(
                config_dir, DEFAULT_PIPELINE if name in ("true", "True") else name
            )
        except ConfigError as error:
            print(f"error: {error}", file=sys.stderr)
            return EXIT_BAD_CONFIG
        _warn_placeholders(pipeline_config.source_file, pipeline_config.placeholders)
        for env_config in pipeline_config.environments:
            _warn_placeholders(env_config.source, env_config.placeholders)
            _warn_mutable_image(env_config)
            _warn_multi_node_image(env_config)
        from charts.manifest_files import prune_stale_outputs

        app, _ = build_pipeline(pipeline_config)
        started = time.time() - STALE_MARGIN_SECONDS
        prune_stale_outputs(Path(app.synth().directory), started)
        return 0
    # -c env= with an empty value is a mistake, not a request for the defaults.
    names = [str(context["env"])] if "env" in context else list(DEFAULT_ENVIRONMENTS)
    try:
        env_configs = [load_environment(config_dir, name) for name in names]
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_BAD_CONFIG
    for env_config in env_configs:
        _warn_placeholders(env_config.source, env_config.placeholders)
        _warn_mutable_image(env_config)
        _warn_multi_node_image(env_config)

    for path in synthesize(env_configs).manifest_files:
        print(f"Kubernetes manifests for review and kubectl apply: {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
