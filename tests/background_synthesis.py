"""The syntheses every test run shares, in one process started when the run starts (tests/conftest.py).

    python -m tests.background_synthesis WORK_DIR      (from the project directory, as the CDK CLI runs the app)

Synthesizes, with the app's own functions and everything `cdk synth` runs (cdk-nag, aws-cdk-lib's built-in
CloudFormation validation with cdk.json's context), first the default app (both embedded examples, as `make synth`)
into WORK_DIR/default-app, then the example pipeline (`-c pipeline=true`) into WORK_DIR/pipeline. Each part, when
written, gets WORK_DIR/PART.json (what the tests need beside the cloud assembly), written whole or not at all; a part
that fails gets WORK_DIR/PART.error with the traceback instead, and the process exits with 1.

One process for both, and not one per xdist worker: aws-cdk-lib's validation engine is built again in each process
that synthesizes, and it is most of a synthesis's CPU time (docs/maintainers/performance.md, "Synthesis").
"""

from __future__ import annotations

import json
import subprocess
import sys
import traceback
from collections.abc import Mapping
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[1]

#: jsii's Node.js for this process (``JSII_NODE``, which jsii runs in place of ``node``; jsii 1.142.0
#: ``jsii/_kernel/providers/process.py``, and its runtime passes ``process.execArgv`` on to the kernel's own process):
#: ``node --liftoff-only``, V8 compiling WebAssembly with its baseline compiler alone. aws-cdk-lib's built-in
#: validation is an 8.5 MB WebAssembly engine built in this process only (the workers synthesize with it off), and
#: V8's optimizing tier-up of it cost more CPU than it saved in a process that writes 23 templates: 31.4, 25.0, 24.1 s
#: of CPU for this process against 23.3, 18.1, 21.3 s, the same templates byte for byte
#: (docs/maintainers/performance.md, "Synthesis"). The WebAssembly's results do not depend on which compiler made its
#: code.
NODE_LIFTOFF_ONLY = PROJECT_DIR / "tests" / "node_liftoff_only"
#: Variables that would make this process's synthesis differ from `cdk synth` of the default app.
NOT_INHERITED = ("CDK_VALIDATION", "CDK_CONTEXT_JSON", "CDK_OUTDIR")


def environment(inherited: Mapping[str, str]) -> dict[str, str]:
    """The environment to start this process with, from ``inherited`` (the test run's).

    A ``JSII_NODE`` already set (a profiler's wrapper) is kept; :data:`NODE_LIFTOFF_ONLY` is used only where the
    ``node`` found runs with the flag, so that a Node.js without it synthesizes as before instead of failing.
    """
    env = {k: v for k, v in inherited.items() if k not in NOT_INHERITED}
    if "JSII_NODE" not in env:
        try:
            flag_ok = (
                subprocess.run(
                    ["node", "--liftoff-only", "-e", ""], env=env, capture_output=True, timeout=60
                ).returncode
                == 0
            )
        except (OSError, subprocess.TimeoutExpired):
            flag_ok = False
        if flag_ok:
            env["JSII_NODE"] = str(NODE_LIFTOFF_ONLY)
    return env


def _write_whole(path: Path, text: str) -> None:
    partial = path.with_suffix(path.suffix + ".tmp")
    partial.write_text(text, encoding="utf-8")
    partial.rename(path)


def main(work_dir: Path) -> int:
    from app import build_pipeline, synthesize
    from deployment_config import load_environment
    from deployment_config.loader import DEFAULT_ENVIRONMENTS
    from deployment_config.pipeline import DEFAULT_PIPELINE, load_pipeline

    def default_app(outdir: Path) -> dict:
        config_dir = PROJECT_DIR / "config"
        result = synthesize(
            [load_environment(config_dir, name) for name in DEFAULT_ENVIRONMENTS],
            outdir=str(outdir),
        )
        return {"manifest_files": [str(path) for path in result.manifest_files]}

    def pipeline(outdir: Path) -> dict:
        app, stack = build_pipeline(
            load_pipeline(PROJECT_DIR / "config", DEFAULT_PIPELINE), outdir=str(outdir)
        )
        app.synth()
        return {"stack_name": stack.stack_name}

    for part, synthesize_part in (("default-app", default_app), ("pipeline", pipeline)):
        try:
            facts = synthesize_part(work_dir / part)
        except BaseException:  # noqa: BLE001 - every failure, cdk-nag's and the validation's included, is reported
            _write_whole(work_dir / f"{part}.error", traceback.format_exc())
            return 1
        _write_whole(work_dir / f"{part}.json", json.dumps(facts))
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
