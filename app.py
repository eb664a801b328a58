#!/usr/bin/env python3
"""The CDK app: `npx cdk synth -c env=NAME` synthesizes config/NAME.yaml; with no -c, config/example.yaml.

Only composition happens here: the configuration is loaded and validated first (a bad file exits with one
message and writes nothing), then the stacks of the environment are added, checked by cdk-nag and synthesized,
and the serving chart is written as plain YAML beside the templates for review and `kubectl apply`.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from deployment_config import DEFAULT_ENVIRONMENT, ConfigError, load_environment
from deployment_config.cdk_context import cli_context

PROJECT_DIR = Path(__file__).resolve().parent
#: Exit code of a configuration error (argparse's convention for bad usage).
EXIT_BAD_CONFIG = 2


def main(environ: os._Environ | dict = os.environ) -> int:
    context = cli_context(environ)
    config_dir = Path(context.get("config_dir", PROJECT_DIR / "config"))
    name = str(context.get("env") or DEFAULT_ENVIRONMENT)
    try:
        env_config = load_environment(config_dir, name)
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_BAD_CONFIG

    # Imported only now: the CDK's jsii runtime takes seconds to start, and a bad file should not wait for it.
    import aws_cdk as cdk
    import cdk_nag

    from charts.manifest_files import write_manifests
    from stacks.composition import add_eks_environment

    app = cdk.App()
    environment = add_eks_environment(app, env_config)
    cdk.Validations.of(app).add_plugins(cdk_nag.AwsSolutionsChecks(app))
    assembly = app.synth()
    written = write_manifests(Path(assembly.directory), env_config.name, environment.manifests)
    print(f"Kubernetes manifests for review and kubectl apply: {written}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
