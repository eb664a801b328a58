"""Check configuration files without the CDK: ``python -m deployment_config [NAME ...]`` (``make check-config``).

Exit codes: 0 when every file is valid, 2 when any is not (every mistake of every file is printed). This is the exit
code the app itself returns; ``npx cdk synth`` reports it as 1, with the line "Subprocess exited with error 2", and
``make`` exits with its own 2 whenever a command it runs fails.
With no NAME, every environment of config/ and every pipeline of config/pipeline/ is checked.
"""

from __future__ import annotations

import sys
from pathlib import Path

from deployment_config.errors import ConfigError
from deployment_config.loader import available_environments, load_environment
from deployment_config.pipeline import PIPELINE_DIR, load_pipeline

CONFIG_DIR = Path(__file__).resolve().parents[1] / "config"
EXIT_BAD_CONFIG = 2


def main(argv: list[str], config_dir: Path = CONFIG_DIR) -> int:
    names = argv or available_environments(config_dir)
    pipelines = [] if argv else sorted(p.stem for p in (config_dir / PIPELINE_DIR).glob("*.yaml"))
    failed = False

    def load_env(directory: Path, name: str):  # noqa: ANN202
        return load_environment(directory, name, option="make check-config ENV=NAME")

    for kind, name, load in [
        *(("env", n, load_env) for n in names),
        *(("pipeline", n, load_pipeline) for n in pipelines),
    ]:
        try:
            config = load(config_dir, name)
        except ConfigError as error:
            print(f"error: {error}", file=sys.stderr)
            failed = True
            continue
        placeholders = config.placeholders
        note = (
            f" (placeholder values in {', '.join(placeholders)}: synthesizes, never deploys)"
            if placeholders
            else ""
        )
        print(f"ok: {kind} {name}{note}")
        if kind == "env":
            print(f"  sizing: {config.sizing_message}")
    return EXIT_BAD_CONFIG if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
