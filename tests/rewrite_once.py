"""pytest's assertion rewriting of the test files done once per run, in the xdist controller, not once in every worker
(a pytest plugin of tests/conftest.py).

pytest rewrites the ``assert`` statements of each test module when it is imported and caches the result beside it
(``__pycache__/NAME.cpython-311-pytest-9.2.0.pyc``, pytest 9.2 _pytest/assertion/rewrite.py,
``AssertionRewritingHook.exec_module``). On a fresh clone, or after the tests change, every xdist worker collects every
test file, finds no cache and rewrites all of them: 4.2 s of CPU per worker for the 145 modules of this suite
(``pytest --collect-only -n 0`` with the caches removed: 8.6 s, then 4.4 s with them;
docs/maintainers/test-suite.md, "The test suite"). Here the controller writes the caches before it starts the
workers, with pytest's own functions, so that the workers only read them. A file whose cache is current is left
alone; the rewritten code is the one pytest itself would write, so no test sees a difference.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from _pytest.assertion.rewrite import (
    PYC_TAIL,
    _read_pyc,
    _rewrite_test,
    _write_pyc,
    assertstate_key,
    get_cache_dir,
)

PROJECT_DIR = Path(__file__).resolve().parents[1]


def rewritten_modules(root: Path) -> list[Path]:
    """The files under ``root`` that pytest rewrites on import: the test modules (``python_files`` is its default,
    ``test_*.py``) and the conftest files."""
    return sorted([*root.rglob("test_*.py"), *root.rglob("conftest.py")])


def rewrite_once(config: pytest.Config, modules: list[Path]) -> list[Path]:
    """Write pytest's cached rewrite of each of ``modules`` that has none, or a stale one; the files written."""
    state = config.stash[assertstate_key]
    written = []
    for module in modules:
        cache_dir = get_cache_dir(module)
        pyc = cache_dir / (module.name[:-3] + PYC_TAIL)
        if _read_pyc(module, pyc) is not None:
            continue
        cache_dir.mkdir(parents=True, exist_ok=True)
        source_hash, code = _rewrite_test(module, config)
        if _write_pyc(state, code, source_hash, pyc):
            written.append(module)
    return written


@pytest.hookimpl(trylast=True)  # after tests/conftest.py has started the background synthesis
def pytest_configure(config: pytest.Config) -> None:
    # xdist's controller registers its "dsession" in its own pytest_configure; a worker, a run in one process (which
    # rewrites each file once anyway), --collect-only, and a run that writes no caches or does not rewrite are left be
    if not config.pluginmanager.has_plugin("dsession") or sys.dont_write_bytecode:
        return
    if config.getoption("assertmode") != "rewrite":
        return
    rewrite_once(config, rewritten_modules(PROJECT_DIR / "tests"))
