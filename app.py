#!/usr/bin/env python3
"""The CDK app: `npx cdk synth -c env=NAME` synthesizes config/NAME.yaml; with no -c, config/example.yaml.

Only composition happens here: the configuration is loaded and validated first (a bad file exits with one
message and writes nothing), then the stacks of the environment are added, checked by cdk-nag and synthesized,
and the serving chart is written as plain YAML beside the templates for review and `kubectl apply`.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from deployment_config import DEFAULT_ENVIRONMENT, ConfigError, EnvironmentConfig, load_environment
from deployment_config.cdk_context import cli_context

if TYPE_CHECKING:
    import aws_cdk as cdk

    from stacks.composition import EksEnvironment

PROJECT_DIR = Path(__file__).resolve().parent
#: Exit code of a configuration error (argparse's convention for bad usage).
EXIT_BAD_CONFIG = 2


def project_context() -> dict:
    """The context in cdk.json: the CLI passes it on its own; an app built in-process (tests, bench) needs it too."""
    return json.loads((PROJECT_DIR / "cdk.json").read_text(encoding="utf-8"))["context"]


def build(env_config: EnvironmentConfig, *, outdir: str | None = None) -> tuple[cdk.App, EksEnvironment]:
    """Compose the app for one environment, with cdk-nag's AwsSolutions checks as a validation plugin."""
    # Imported only now: the CDK's jsii runtime takes seconds to start, and a bad file should not wait for it.
    import aws_cdk as cdk
    import cdk_nag

    from stacks.composition import add_eks_environment

    app = cdk.App(outdir=outdir, context=project_context())
    environment = add_eks_environment(app, env_config)
    cdk.Validations.of(app).add_plugins(cdk_nag.AwsSolutionsChecks(app))
    return app, environment


@dataclass(frozen=True)
class Synthesis:
    """What one synthesis produced: the cloud assembly directory, the stacks, and the plain-YAML manifests."""

    directory: Path
    environment: EksEnvironment
    manifest_file: Path


def synthesize(env_config: EnvironmentConfig, *, outdir: str | None = None) -> Synthesis:
    from charts.manifest_files import write_manifests

    app, environment = build(env_config, outdir=outdir)
    directory = Path(app.synth().directory)
    manifest_file = write_manifests(directory, env_config.name, environment.manifests)
    return Synthesis(directory, environment, manifest_file)


def main(environ: Mapping[str, str] = os.environ) -> int:
    context = cli_context(environ)
    config_dir = Path(context.get("config_dir", PROJECT_DIR / "config"))
    name = str(context.get("env") or DEFAULT_ENVIRONMENT)
    try:
        env_config = load_environment(config_dir, name)
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_BAD_CONFIG

    synthesis = synthesize(env_config)
    print(f"Kubernetes manifests for review and kubectl apply: {synthesis.manifest_file}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
