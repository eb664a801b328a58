#!/usr/bin/env python3
"""Pipeline synthesis with 1, 5 and 20 environments: what one more environment costs.

    .venv/bin/python bench/pipeline_scale.py [--sizes 1 5 20] [--runs N] [--json]

Each size gets a scratch configuration directory: N copies of config/example.yaml (one account each) and a pipeline
whose waves hold five environments each, every wave after the first behind an approval. Each run is a fresh
`python app.py` process with `-c pipeline=scale`, as `cdk synth` runs it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from synth_bench import PROJECT_DIR, measure  # noqa: E402

WAVE_SIZE = 5


def write_configuration(directory: Path, environments: int) -> None:
    example = yaml.safe_load((PROJECT_DIR / "config" / "example.yaml").read_text())
    names = []
    for i in range(environments):
        name = f"env{i:02d}"
        document = dict(example, account=f"{100000000000 + i:012d}")
        document["cluster"] = dict(
            example["cluster"], admin_role_arn=f"arn:aws:iam::{100000000000 + i:012d}:role/Admin"
        )
        (directory / f"{name}.yaml").write_text(yaml.safe_dump(document))
        names.append(name)
    pipeline = yaml.safe_load((PROJECT_DIR / "config" / "pipeline" / "example.yaml").read_text())
    pipeline["waves"] = [
        {
            "name": f"wave{w}",
            "environments": names[w * WAVE_SIZE : (w + 1) * WAVE_SIZE],
            "approval": w > 0,
        }
        for w in range((environments + WAVE_SIZE - 1) // WAVE_SIZE)
    ]
    (directory / "pipeline").mkdir()
    (directory / "pipeline" / "scale.yaml").write_text(yaml.safe_dump(pipeline))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 5, 20])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    base_env = {**os.environ, "JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION": "20"}
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            config_dir = Path(tmp) / f"config{size}"
            config_dir.mkdir()
            write_configuration(config_dir, size)
            samples = []
            for run in range(args.runs):
                env = {
                    **base_env,
                    "CDK_OUTDIR": f"{tmp}/out{size}-{run}",
                    "CDK_CONTEXT_JSON": json.dumps(
                        {"pipeline": "scale", "config_dir": str(config_dir)}
                    ),
                }
                samples.append(measure([sys.executable, str(PROJECT_DIR / "app.py")], env))
            # counted in what the last run wrote: the pipeline's template and every stage's
            out = Path(f"{tmp}/out{size}-{args.runs - 1}")
            stacks = len(list(out.glob("*.template.json"))) + len(
                list(out.glob("assembly-*/*.template.json"))
            )
            results.append(
                {
                    "environments": size,
                    "stacks": stacks,
                    "median_s": round(statistics.median(s.wall_s for s in samples), 2),
                    "median_cpu_s": round(statistics.median(s.cpu_s for s in samples), 2),
                    "peak_rss_mib": round(max(s.peak_rss_mib for s in samples)),
                }
            )
    first, last = results[0], results[-1]
    marginal = (last["median_s"] - first["median_s"]) / max(
        1, last["environments"] - first["environments"]
    )
    if args.json:
        print(
            json.dumps(
                {"sizes": results, "seconds_per_added_environment": round(marginal, 2)}, indent=2
            )
        )
        return 0
    print(
        f"{'environments':>12} {'stacks':>6} {'median s':>9} {'median CPU s':>12} {'peak RSS MiB':>13}"
    )
    for r in results:
        print(
            f"{r['environments']:>12} {r['stacks']:>6} {r['median_s']:>9.2f} {r['median_cpu_s']:>12.2f} "
            f"{r['peak_rss_mib']:>13}"
        )
    print(f"each added environment costs {marginal:.2f} s of synthesis")
    return 0


if __name__ == "__main__":
    sys.exit(main())
