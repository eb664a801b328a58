#!/usr/bin/env python3
"""Synthesis benchmark: the default app against a floor app, side by side in one run.

    .venv/bin/python bench/synth_bench.py [--runs N] [--json]

Each run is a fresh process, as `cdk synth` starts one. Reports the median and minimum wall time, the peak
resident memory of the largest process in the run (Python or the jsii Node runtime), and the ratio of the
default app's median to the floor's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[1]

MEASURE_CHILD = """
import resource, subprocess, sys, time
start = time.perf_counter()
code = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
elapsed = time.perf_counter() - start
print(code, elapsed, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def measure(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Run ``command`` once in a fresh process tree; return (seconds, peak RSS in MiB of its largest process)."""
    out = subprocess.run([sys.executable, "-c", MEASURE_CHILD, *command], env=env, cwd=PROJECT_DIR,
                         capture_output=True, text=True, check=True).stdout.split()
    code, seconds, max_rss_kib = int(out[0]), float(out[1]), int(out[2])
    if code != 0:
        raise SystemExit(f"benchmark command failed with exit code {code}: {' '.join(command)}")
    return seconds, max_rss_kib / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each app (default: 3)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")

    env = {**os.environ, "JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION": "20"}
    env.pop("CDK_CONTEXT_JSON", None)
    python = sys.executable
    results: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        floor_app = str(PROJECT_DIR / "bench" / "floor_app.py")
        apps = {
            "floor (bare app, one VPC)": lambda i: ([python, floor_app, f"{tmp}/floor{i}"], env),
            "default app (12 stacks)": lambda i: ([python, str(PROJECT_DIR / "app.py")], {**env, "CDK_OUTDIR": f"{tmp}/app{i}"}),
        }
        # Interleave the two so that a slow moment on the machine hits both alike.
        samples: dict[str, list[tuple[float, float]]] = {name: [] for name in apps}
        for i in range(args.runs):
            for name, command in apps.items():
                cmd, run_env = command(i)
                samples[name].append(measure(cmd, run_env))
    for name, runs in samples.items():
        seconds = [s for s, _ in runs]
        results[name] = {"runs": len(runs), "median_s": round(statistics.median(seconds), 2),
                         "min_s": round(min(seconds), 2), "peak_rss_mib": round(max(m for _, m in runs))}
    floor, default = (results[n]["median_s"] for n in apps)
    summary = {"apps": results, "ratio_default_to_floor": round(default / floor, 2),
               "machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]}}
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    print(f"{'app':<28} {'runs':>4} {'median s':>9} {'min s':>7} {'peak RSS MiB':>13}")
    for name, r in results.items():
        print(f"{name:<28} {r['runs']:>4} {r['median_s']:>9.2f} {r['min_s']:>7.2f} {r['peak_rss_mib']:>13}")
    print(f"ratio default / floor (median): {summary['ratio_default_to_floor']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
