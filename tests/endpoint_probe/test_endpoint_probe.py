"""The endpoint probe (endpoint_probe/) is one package of the standard library only: ``llmops smoke-test`` and ``bench``
import it, and the deploy-time smoke test's Lambda function carries it whole
(tests/cdk_constructs/test_deploy_time_smoke.py checks the bundle), where there is no ops_cli, no
deployment_config and no jsonschema."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import endpoint_probe

PACKAGE = Path(endpoint_probe.__file__).parent


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, top-level module) of every import in ``path``: at the top, in a function, under ``try`` or
    ``TYPE_CHECKING``; a relative import as its package's own name."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name.split(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append((node.lineno, PACKAGE.name if node.level else node.module.split(".")[0]))
    return found


def test_the_probe_imports_only_the_standard_library_and_itself():
    # given every module of the package
    modules = sorted(PACKAGE.glob("*.py"))
    assert {m.name for m in modules} >= {"__init__.py", "smoke.py", "http.py", "correctness.py"}
    # then each imports nothing but the standard library and the package
    foreign = [
        f"{m.name}:{line} imports {name}"
        for m in modules
        for line, name in _imports(m)
        if name != PACKAGE.name and name not in sys.stdlib_module_names
    ]
    assert foreign == []


def test_the_probe_has_no_subpackages_the_bundle_would_leave_out():
    # the Lambda bundle takes endpoint_probe/*.py (cdk_constructs/deploy_time_smoke_test/__init__.py BUNDLE)
    assert [p.name for p in PACKAGE.iterdir() if p.is_dir() and p.name != "__pycache__"] == []


def test_the_cli_and_the_check_share_the_probes_errors():
    # the CLI's exit codes and errors are the probe's: an OpsError raised in the probe is the one llmops reports
    from endpoint_probe import errors
    from ops_cli import errors as cli_errors

    assert cli_errors.OpsError is errors.OpsError and cli_errors.ExitCode is errors.ExitCode
