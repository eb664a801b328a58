"""The xdist controller rewrites the test files' asserts once for every worker (tests/rewrite_once.py)."""

from __future__ import annotations

import pytest
from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc

from tests.conftest import PROJECT_DIR
from tests.rewrite_once import rewrite_once, rewritten_modules


def test_the_plugin_is_loaded_with_the_suite(pytestconfig):
    assert pytestconfig.pluginmanager.has_plugin("tests.rewrite_once")


def test_every_test_file_and_conftest_is_rewritten_and_nothing_else():
    modules = rewritten_modules(PROJECT_DIR / "tests")
    names = {module.name for module in modules}
    assert PROJECT_DIR / "tests" / "conftest.py" in modules
    assert PROJECT_DIR / "tests" / "test_rewrite_once.py" in modules
    assert all(name == "conftest.py" or name.startswith("test_") for name in names)


def test_a_module_without_a_cache_gets_the_one_pytest_reads_with_its_asserts_rewritten(
    pytestconfig, tmp_path
):
    # given a test module with a failing assert and no cache
    module = tmp_path / "test_sample.py"
    module.write_text("def test_it():\n    left, right = 1, 2\n    assert left == right\n")
    # when the controller rewrites it
    written = rewrite_once(pytestconfig, [module])
    # then pytest's own cache of it is there, and its assert explains itself as pytest's rewrite does
    assert written == [module]
    code = _read_pyc(module, tmp_path / "__pycache__" / ("test_sample" + PYC_TAIL))
    assert code is not None
    namespace: dict = {}
    exec(code, namespace)
    with pytest.raises(AssertionError, match="assert 1 == 2"):
        namespace["test_it"]()
    # and a second run, with the cache current, writes nothing
    assert rewrite_once(pytestconfig, [module]) == []
