"""Run cfn-lint on templates inside the test process, with the findings as its ``--format json`` prints them.

In-process, through cfn-lint's own runner (what ``cfnlint.api.lint_by_config`` and the command line run), because
each ``cfn-lint`` process pays about a second to start and load its schemas before it reads a template: eleven runs
in one suite cost 11 s of CPU before any linting (measured with cfn-lint 1.58 on 2 cores; the console script took
5.2 s for the default app's 12 templates, this 3.8 s in a fresh process and less once the schemas are loaded).
What the command line adds is argument parsing and a ``.cfnlintrc`` of the working directory, which this project
does not have. A lint that did not run cannot pass silently: a missing template fails here, an unsupported region
raises, a template that does not parse is an ``E0000`` error, and ``tests/test_quality_gates.py`` proves on a broken
template that errors are reported.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
from collections.abc import Sequence
from pathlib import Path


@functools.cache
def _rules():
    """cfn-lint's rules, loaded once per process: loading them is half a second, more than linting a small template.

    The command line too runs one set of rules over every template it is given (``cfnlint.runner.cli.Runner``).
    """
    from cfnlint.api import ManualArgs
    from cfnlint.config import ConfigMixIn
    from cfnlint.runner.cli import Runner

    return Runner(ConfigMixIn(**ManualArgs())).rules


#: The findings of each template linted in this process, by its bytes' sha256 and the regions.
_FINDINGS: dict[tuple[str, tuple[str, ...]], list[dict]] = {}


def _lint(templates: list[str], regions: Sequence[str]) -> list[dict]:
    from cfnlint.api import ManualArgs
    from cfnlint.config import ConfigMixIn
    from cfnlint.formatters import JsonFormatter
    from cfnlint.runner.template.runner import run_template_by_file_paths

    # what cfnlint.api.lint_by_config does, with the rules loaded once
    config = ConfigMixIn(**ManualArgs(templates=templates, regions=list(regions)))
    config.validate()
    matches = list(run_template_by_file_paths(config, _rules()))
    return json.loads(json.dumps(matches, cls=JsonFormatter.CustomEncoder))


def cfn_lint_findings(templates: Sequence[str | Path], regions: Sequence[str]) -> list[dict]:
    """Every finding of cfn-lint on ``templates`` for ``regions``, each as ``cfn-lint --format json`` writes it."""
    assert templates, "no template to lint"
    missing = [str(t) for t in templates if not Path(t).is_file()]
    assert not missing, f"templates to lint do not exist: {missing}"
    keys = {
        str(t): (hashlib.sha256(Path(t).read_bytes()).hexdigest(), tuple(regions))
        for t in templates
    }
    new = {key: path for path, key in keys.items() if key not in _FINDINGS}
    findings = _lint(list(new.values()), regions) if new else []
    strays = {f["Filename"] for f in findings} - set(new.values())
    assert not strays, f"cfn-lint named templates it was not given: {strays}"
    for key, path in new.items():
        _FINDINGS[key] = [f for f in findings if f["Filename"] == path]
    # a template of the same content as one linted before gets its findings under its own name
    return [
        {**copy.deepcopy(finding), "Filename": path}
        for path in keys
        for finding in _FINDINGS[keys[path]]
    ]


def cfn_lint_errors(templates: Sequence[str | Path], regions: Sequence[str]) -> list[dict]:
    return [f for f in cfn_lint_findings(templates, regions) if f["Level"] == "Error"]
