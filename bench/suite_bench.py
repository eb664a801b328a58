#!/usr/bin/env python3
"""The test suite, this checkout against an earlier commit, run side by side.

    .venv/bin/python bench/suite_bench.py --against REV [--rounds N] [--json]

On a shared machine one run of ``make test`` differs from the next by several seconds with the same code, so a change
to the suite's speed is measured by running the suite of REV and the suite of this checkout **at the same time**
(each with its own xdist workers and background synthesis), which exposes both to the same load, and comparing their
CPU time (user + system of each whole process tree, from ``getrusage(RUSAGE_CHILDREN)``); wall time is reported too.

REV is checked out with ``git worktree add --detach`` into a temporary directory (removed afterwards) that shares this
checkout's ``.venv`` and ``node_modules``. The suite reads the operator's CRD vendored in the repository
(charts/imports/crds/); ``LLM_SERVING_CRD_DIR`` still points at ``../shared/crds`` for a REV older than that.
Before the measured rounds, the byte-code of both checkouts is written (``compileall`` of the files git tracks) and
their tests collected once (``pytest --collect-only -n 0``, which writes pytest's rewritten tests), so that both run
with warm caches as in a user's second ``make test``: the caches an unmeasured run of each suite left, in seconds
instead of two runs of the suite.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from synth_bench import MEASURE_CHILD, PROJECT_DIR  # noqa: E402

PYTEST = [".venv/bin/python", "-m", "pytest", "-q", "-p", "no:cacheprovider"]
#: The warm-up's collection: pytest's rewritten tests written, in one process.
COLLECT = [*PYTEST, "--collect-only", "-n", "0"]


def warm_up(directory: Path, env: dict[str, str]) -> None:
    """Byte-code of the checkout's own Python files (those git tracks: not the shared .venv, compiled at install)
    and pytest's rewritten tests written, as an unmeasured run of the suite leaves them."""
    tracked = subprocess.run(
        ["git", "ls-files", "-z", "*.py"], cwd=directory, capture_output=True, check=True
    ).stdout.split(b"\0")
    for path in filter(None, tracked):
        compileall.compile_file(str(directory / os.fsdecode(path)), quiet=1)
    subprocess.run(COLLECT, cwd=directory, env=env, capture_output=True, check=True)


def start(directory: Path, env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", MEASURE_CHILD, *PYTEST],
        cwd=directory,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )


def result(process: subprocess.Popen, name: str) -> dict:
    out = process.communicate()[0].split()
    code, wall, cpu = int(out[0]), float(out[1]), float(out[2])
    if code != 0:
        raise SystemExit(f"the suite of {name} failed (exit code {code}): run it alone to see why")
    return {"wall_s": round(wall, 1), "cpu_s": round(cpu, 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--against", required=True, help="the commit to compare with (a hash, a tag, HEAD~3)"
    )
    parser.add_argument(
        "--rounds", type=int, default=2, help="rounds of the two suites side by side (default: 2)"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    revision = subprocess.run(
        ["git", "rev-parse", "--verify", "--quiet", f"{args.against}^{{commit}}"],
        cwd=PROJECT_DIR,
        capture_output=True,
        text=True,
    ).stdout.strip()
    if not revision:
        parser.error(f"--against {args.against!r} is not a commit of this repository")

    env = {k: v for k, v in os.environ.items() if not k.startswith("CDK_")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as `make test` runs (Makefile)
    env["LLM_SERVING_CRD_DIR"] = str(PROJECT_DIR.parent / "shared" / "crds")
    rounds: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="suite-bench-") as tmp:
        other = Path(tmp) / "main"
        subprocess.run(
            ["git", "worktree", "add", "--quiet", "--detach", str(other), revision],
            cwd=PROJECT_DIR,
            check=True,
        )
        try:
            for shared in (".venv", "node_modules"):
                (other / shared).symlink_to(PROJECT_DIR / shared)
            suites = {f"{args.against} ({revision[:7]})": other, "this checkout": PROJECT_DIR}
            for directory in suites.values():
                warm_up(directory, env)
            for _ in range(args.rounds):
                running = {name: start(directory, env) for name, directory in suites.items()}
                rounds.append({name: result(process, name) for name, process in running.items()})
        finally:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(other)], cwd=PROJECT_DIR, check=False
            )
    names = list(rounds[0])
    summary = {
        "against": revision,
        "rounds": rounds,
        "median_cpu_s": {n: statistics.median(r[n]["cpu_s"] for r in rounds) for n in names},
    }
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    print(f"{'round':<6} " + " ".join(f"{n + ' CPU s / wall s':>36}" for n in names))
    for i, r in enumerate(rounds, 1):
        print(
            f"{i:<6} " + " ".join(f"{r[n]['cpu_s']:>27.1f} / {r[n]['wall_s']:<6.1f}" for n in names)
        )
    old, new = (summary["median_cpu_s"][n] for n in names)
    print(f"median CPU: {old:.1f} s against {new:.1f} s ({(new - old) / old:+.1%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
