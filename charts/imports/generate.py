"""Regenerate the typed bindings of charts/imports/ from the CRDs they were made from (SOURCE.json), with the cdk8s
CLI pinned in package.json: ``make crd-bindings`` (or ``.venv/bin/python -m charts.imports.generate``). The generated
code is committed, so that synthesis needs neither the generator nor its time per CRD (docs/maintainers/performance.md);
a test fails when a CRD changes and its bindings were not regenerated.

Each entry of SOURCE.json names the package under charts/imports/, the CRD (a path from the project directory), and
``generated_path``: where ``cdk8s import`` writes the package, from the CRD's API group reversed
(inference.sagemaker.aws.amazon.com: com/amazon/aws/sagemaker/inference).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROJECT = HERE.parents[1]
SOURCE = HERE / "SOURCE.json"


def crd_digest(crd: Path) -> str:
    return hashlib.sha256(crd.read_bytes()).hexdigest()


def main() -> int:
    sources = json.loads(SOURCE.read_text())
    missing = [
        source["crd"] for source in sources.values() if not (PROJECT / source["crd"]).is_file()
    ]
    if missing:
        print(
            f"error: charts/imports/SOURCE.json names CRDs that are not there: {', '.join(missing)}\n"
            "  fix: the CRDs are vendored in the repository (charts/imports/crds/, tests/data/lws/): restore them "
            "with git, or copy them from the repository, commit and path their SOURCE file names",
            file=sys.stderr,
        )
        return 2
    for package, source in sources.items():
        crd = (PROJECT / source["crd"]).resolve()
        with tempfile.TemporaryDirectory() as out:
            subprocess.run(
                [
                    str(PROJECT / "node_modules/.bin/cdk8s"),
                    "import",
                    str(crd),
                    "--language",
                    "python",
                    "--output",
                    out,
                ],
                check=True,
                cwd=out,
            )
            target = HERE / package
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(Path(out) / source["generated_path"], target)
        source["crd_sha256"] = crd_digest(crd)
        print(f"charts/imports/{package}: from {source['crd']}", file=sys.stderr)
    SOURCE.write_text(json.dumps(sources, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
