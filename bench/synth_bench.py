#!/usr/bin/env python3
"""Synthesis benchmark: the default app against a floor app, side by side in one run.

    .venv/bin/python bench/synth_bench.py [--runs N] [--json] [--breakdown]

Each run is a fresh process, as `cdk synth` starts one. Reports, per app, the median and minimum CPU time (user +
system of the whole process tree: Python and the jsii Node.js runtime, from ``getrusage(RUSAGE_CHILDREN)``) and wall
time, the peak resident memory of the largest process in the run, and the ratio of the default app's median to the
floor's, on CPU time (the one the budget is set on: on a shared machine wall time also counts the other tenants) and
on wall time. ``--breakdown`` adds both apps with aws-cdk-lib's built-in CloudFormation validation off, to show what
it costs (the apps themselves keep it: with ``@aws-cdk/core:validateAgainstDefaultRules`` it is one of the gates).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[1]

# The measuring process starts the command and nothing else, so RUSAGE_CHILDREN is exactly the command's process
# tree (the app and the jsii Node.js runtime it spawns; grandchildren count once their parent has waited for them).
MEASURE_CHILD = """
import resource, subprocess, sys, time
start = time.perf_counter()
code = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
elapsed = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(code, elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss)
"""


@dataclass(frozen=True)
class Sample:
    """One run: wall seconds, CPU seconds (user + system of the process tree), peak RSS in MiB of its largest process."""

    wall_s: float
    cpu_s: float
    peak_rss_mib: float


def measure(command: list[str], env: dict[str, str]) -> Sample:
    """Run ``command`` once in a fresh process tree and measure it."""
    out = subprocess.run(
        [sys.executable, "-c", MEASURE_CHILD, *command],
        env=env,
        cwd=PROJECT_DIR,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    code, wall, cpu, max_rss_kib = int(out[0]), float(out[1]), float(out[2]), int(out[3])
    if code != 0:
        raise SystemExit(f"benchmark command failed with exit code {code}: {' '.join(command)}")
    return Sample(wall, cpu, max_rss_kib / 1024)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each app (default: 3)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--breakdown",
        action="store_true",
        help="also run both apps with aws-cdk-lib's built-in CloudFormation validation off "
        "(CDK_VALIDATION=false), to show its share; the ratio stays on the apps as they ship",
    )
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")

    env = {**os.environ, "JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION": "20"}
    env.pop("CDK_CONTEXT_JSON", None)
    # Both apps as they ship: aws-cdk-lib's built-in CloudFormation validation on, whatever the calling shell says.
    env.pop("CDK_VALIDATION", None)
    no_validation = {**env, "CDK_VALIDATION": "false"}
    python = sys.executable
    results: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        floor_app = str(PROJECT_DIR / "bench" / "floor_app.py")
        apps = {
            "floor (bare app, one VPC)": lambda i: ([python, floor_app, f"{tmp}/floor{i}"], env),
            "default app (12 stacks)": lambda i: (
                [python, str(PROJECT_DIR / "app.py")],
                {**env, "CDK_OUTDIR": f"{tmp}/app{i}"},
            ),
        }
        if args.breakdown:
            apps["floor, no built-in validation"] = lambda i: (
                [python, floor_app, f"{tmp}/floornv{i}"],
                no_validation,
            )
            apps["default, no built-in valid."] = lambda i: (
                [python, str(PROJECT_DIR / "app.py")],
                {**no_validation, "CDK_OUTDIR": f"{tmp}/appnv{i}"},
            )
        # Byte-code as a user's checkout has it (__pycache__ is written on the first run and read after), kept out of
        # the checkout; one unmeasured run of each app first, so that every measured run starts warm alike.
        for run_env in (env, no_validation):
            run_env.pop("PYTHONDONTWRITEBYTECODE", None)
            run_env["PYTHONPYCACHEPREFIX"] = f"{tmp}/pycache"
        for command in apps.values():
            measure(*command(-1))
        # Interleave the apps so that a slow moment on the machine hits all alike.
        samples: dict[str, list[Sample]] = {name: [] for name in apps}
        for i in range(args.runs):
            for name, command in apps.items():
                cmd, run_env = command(i)
                samples[name].append(measure(cmd, run_env))
    for name, runs in samples.items():
        cpu = [s.cpu_s for s in runs]
        wall = [s.wall_s for s in runs]
        results[name] = {
            "runs": len(runs),
            "median_cpu_s": round(statistics.median(cpu), 2),
            "min_cpu_s": round(min(cpu), 2),
            "median_wall_s": round(statistics.median(wall), 2),
            "min_wall_s": round(min(wall), 2),
            "peak_rss_mib": round(max(s.peak_rss_mib for s in runs)),
        }
    floor, default = (results[n] for n in list(apps)[:2])
    summary = {
        "apps": results,
        "ratio_default_to_floor_cpu": round(default["median_cpu_s"] / floor["median_cpu_s"], 2),
        "ratio_default_to_floor_wall": round(default["median_wall_s"] / floor["median_wall_s"], 2),
        "machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]},
    }
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    print(
        f"{'app':<30} {'runs':>4} {'median CPU s':>12} {'min CPU s':>9} {'median wall s':>13} {'min wall s':>10} "
        f"{'peak RSS MiB':>12}"
    )
    for name, r in results.items():
        print(
            f"{name:<30} {r['runs']:>4} {r['median_cpu_s']:>12.2f} {r['min_cpu_s']:>9.2f} {r['median_wall_s']:>13.2f} "
            f"{r['min_wall_s']:>10.2f} {r['peak_rss_mib']:>12}"
        )
    print(
        f"ratio default / floor (median): CPU {summary['ratio_default_to_floor_cpu']:.2f}, "
        f"wall {summary['ratio_default_to_floor_wall']:.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
