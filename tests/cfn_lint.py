"""Run cfn-lint the way a user does, and fail loudly when it did not run.

cfn-lint 1.58 has no ``__main__`` module: ``python -m cfnlint`` exits 1 with nothing on stdout, and a test that parsed
that empty output as "no findings" passed without linting anything. This runs the ``cfn-lint`` console script of the
test's own environment and checks its exit code, whose bits mean: 2 errors, 4 warnings, 8 informational
(cfn-lint's README, "Exit Codes"); anything else (1: the run itself failed) is a failure of the gate.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

CFN_LINT = Path(sys.executable).parent / "cfn-lint"


def cfn_lint_findings(templates: Sequence[str | Path], regions: Sequence[str]) -> list[dict]:
    """Every finding of cfn-lint on ``templates`` for ``regions``; raises when cfn-lint did not run."""
    assert templates, "no template to lint"
    result = subprocess.run([str(CFN_LINT), "--format", "json", "--regions", *regions, "--template",
                             *map(str, templates)], capture_output=True, text=True, timeout=600)
    assert result.returncode & ~(2 | 4 | 8) == 0, f"cfn-lint did not run (exit {result.returncode}): {result.stderr[-2000:]}"
    # argparse's own usage error also exits with 2: only JSON on stdout proves that cfn-lint linted.
    assert result.stdout.lstrip().startswith("["), f"cfn-lint did not run: {result.stderr[-2000:]}"
    findings = json.loads(result.stdout)
    assert isinstance(findings, list)
    return findings


def cfn_lint_errors(templates: Sequence[str | Path], regions: Sequence[str]) -> list[dict]:
    return [f for f in cfn_lint_findings(templates, regions) if f["Level"] == "Error"]
