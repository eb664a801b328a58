#!/usr/bin/env python3
"""From purchase to serving: the phases of one environment and the durations the code derives for them.

    .venv/bin/python bench/timeline.py [--env NAME] [--config-dir DIR] [--json] [--measured FILE ...]

The plan itself is ops_cli/timeline.py's, which ``llmops timeline --env NAME`` prints for users; this script is the
maintainers' view of it, with what a start measured on the node changes.

Every rate comes from deployment_config.startup_rates, which names its source (a documentation page, or bench/
weight_load.py's measurement on a GPU machine). "node ready -> first token" is planned for each weight source with two
figures: the estimate (the slowest measured load rate, the documented download rate) and the limit (weights / the
fastest sourced rate of each step), both with vLLM's warm-up (the H200's measured proxy, labelled, restored or cold as
the environment keeps a compile cache: ops_cli/warm_up_plan.py), then issue 30's target against the charts' path.
Phases with no sourced or measured figure (stack creation, a node joining, the instance store's read rate, the Hub's
rate) are printed as such, never guessed; the budgets
(deployment_config.sizing.startup_budget, which sets VLLM_ENGINE_READY_TIMEOUT_S and the probes) say which allowance
stands in for them. No AWS call, no CDK: under a second.

With ``--measured FILE`` (repeatable: ``llmops phases --env NAME --json`` of a start on the node, or a bench/
weight_load.py --json report from the node's instance store; bench/measured_phases.py) the plan takes the measured
warm-up (in place of the proxy) and load rate (in place of the unmeasured one), each naming its file, pod and time,
and prints issue 21's done-when with its arithmetic (bench/cold_start_verdict.py). Without it the output is the plan
above, unchanged.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[1]
for _path in (
    str(PROJECT_DIR),
    str(PROJECT_DIR / "bench"),
):  # its siblings: not on sys.path when loaded by path
    if _path not in sys.path:
        sys.path.insert(0, _path)

from cold_start_verdict import measured_json, measured_lines, verdicts  # noqa: E402
from measured_phases import Measured, MeasuredRecordError, load_measured  # noqa: E402

from deployment_config.errors import ConfigError  # noqa: E402
from deployment_config.loader import load_environment  # noqa: E402
from deployment_config.model import EnvironmentConfig  # noqa: E402
from ops_cli import timeline as plan  # noqa: E402

# The plan's parts, by the names the tests and the docs tests read from this script.
from ops_cli.first_token_plan import (  # noqa: E402, F401
    Phase,
    first_token_phases,
    load_format,
    rates_used,
    unmeasured,
)

phases = plan.phases


def render(env: EnvironmentConfig, rows: list[Phase], measured: Measured | None = None) -> str:
    """The plan as ``llmops timeline`` prints it, then, with ``measured``, what was measured and issue 21's verdicts."""
    lines = [plan.render(env, rows, measured)]
    if measured is not None:
        lines.append("measured (--measured; of several records the slowest):")
        lines += measured_lines(measured)
        lines.append("done when (issue 21; weights from S3):")
        s3 = rates_used(env)["s3_download"]
        lines += [f"  {verdict.line()}" for verdict in verdicts(env, measured, s3)]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--env",
        default="example",
        help="environment file name in the config directory (default: example)",
    )
    parser.add_argument("--config-dir", type=Path, default=PROJECT_DIR / "config")
    parser.add_argument("--json", action="store_true", help="print the phases as JSON")
    parser.add_argument(
        "--measured",
        type=Path,
        action="append",
        metavar="FILE",
        help="a start measured on the node: `llmops phases --env NAME --json` output, or a bench/weight_load.py "
        "--json report; repeat for several (bench/measured_phases.py)",
    )
    args = parser.parse_args(argv)
    try:
        env = load_environment(args.config_dir, args.env, option="--env NAME")
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    measured = None
    if args.measured:
        try:
            measured = load_measured(args.measured, env, load_format(env))
        except MeasuredRecordError as error:
            print(f"bench/timeline.py --measured: {error}", file=sys.stderr)
            return 2
    rows = phases(env, measured)
    if args.json:
        document = plan.plan_json(env, rows, measured)
        if measured is not None:
            document["measured"] = measured_json(
                measured, verdicts(env, measured, rates_used(env)["s3_download"])
            )
        print(
            json.dumps(document, indent=2, allow_nan=False)
        )  # strict JSON: never a NaN or Infinity
    else:
        print(render(env, rows, measured))
    return 0


if __name__ == "__main__":
    sys.exit(main())
