"""The order in which the xdist workers take the test files (a pytest plugin of tests/conftest.py): the longest first,
so that the run does not end with one worker on a long file while the other has nothing left.

pytest-xdist's ``--dist loadfile`` hands out whole files in the order it is given them, one at a time as a worker runs
short of work (xdist 3.8 scheduler/loadscope.py); by default it first sorts the files by their number of tests
(``--loadscope-reorder``), which puts a long file of few tests (the CLI's deadlines, the compile cache's processes)
last. pyproject.toml's addopts turn that sort off (``--no-loadscope-reorder``) and this hook orders instead: the files
of :data:`LONGEST_FIRST`, in its order, then the rest by their number of tests, most first, as xdist would.

The list is of the longest files of a run, summed per file from ``.venv/bin/python -m pytest -q -p no:cacheprovider
--durations=0`` (docs/maintainers/test-suite.md, "The test suite"). First those that need no shared synthesis, which
run while the background synthesis (tests/background_synthesis.py) still has a core busy; then those that read it.
The order changes no test's outcome: each file still runs whole on one worker.

Files that read one session-scoped synthesis of a conftest (:data:`SAME_WORKER`) are one work unit, so that one worker
runs both and builds it once, not each worker once: xdist's ``loadfile`` scheduler with the files of a group as one
scope (``LoadScopeScheduling._split_scope``), at the place of the group's first file in the order above.
"""

from __future__ import annotations

from collections import Counter

import pytest
from xdist.scheduler import LoadFileScheduling

#: Test files, longest first, as paths relative to the project directory (the start of their tests' node ids).
LONGEST_FIRST = (
    # no shared synthesis: they start processes and wait out deadlines while it runs
    "tests/ops_cli/test_cli_install.py",
    "tests/charts/test_compile_cache.py",
    "tests/deployment_config/test_vllm_args.py",
    "tests/ops_cli/test_hostile_endpoint.py",
    "tests/ops_cli/test_cli_keeps_its_word.py",
    "tests/ops_cli/test_cli_input.py",
    "tests/charts/test_vllm_router.py",
    # the shared synthesis's readers, and files of syntheses of their own
    "tests/cdk_constructs/test_promotion_gate.py",
    "tests/test_quality_gates.py",
    "tests/cdk_constructs/test_deploy_time_smoke.py",
    "tests/stacks/test_pipeline.py",
    "tests/deployment_config/test_malformed_corpus.py",
    "tests/stacks/test_access_stack.py",
    "tests/charts/test_multinode.py",
    "tests/stacks/test_hyperpod.py",
)


#: Files that read one session-scoped synthesis, and the conftest that builds it: each group runs on one worker.
SAME_WORKER = (
    # tests/cdk_constructs/conftest.py, smoke_and_gate_pipeline
    (
        "tests/cdk_constructs/test_promotion_gate.py",
        "tests/cdk_constructs/test_deploy_time_smoke.py",
    ),
    # tests/shared_variants.py, access_assembly
    (
        "tests/stacks/test_access_stack.py",
        "tests/stacks/test_inventory.py",
        "tests/docs/test_doc_figures.py",
    ),
    # tests/cdk_constructs/conftest.py, budget_router_observability
    ("tests/cdk_constructs/test_budget_alarm.py", "tests/cdk_constructs/test_router_metrics.py"),
    # tests/shared_variants.py, next_block_assembly
    ("tests/cdk_constructs/test_observability.py", "tests/stacks/test_block_succession.py"),
    # tests/shared_variants.py, serving_variants_assembly
    ("tests/cdk_constructs/test_serving_secrets.py", "tests/stacks/test_tls_endpoint.py"),
    # not a synthesis: two templates of the default app and the example pipeline, linted once (tests/cfn_lint.py)
    ("tests/test_quality_gates.py", "tests/stacks/test_pipeline.py"),
)
_UNIT_OF = {path: group[0] for group in SAME_WORKER for path in group}


class SharedSynthesisScheduling(LoadFileScheduling):
    """``--dist loadfile``, with the files of each :data:`SAME_WORKER` group one work unit."""

    def _split_scope(self, nodeid: str) -> str:
        path = super()._split_scope(nodeid)
        return _UNIT_OF.get(path, path)


# tryfirst: before xdist's own (DSession), which would answer with the plain loadfile; optionalhook: a run with xdist
# off (-p no:xdist) has no such hook
@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_make_scheduler(config, log):  # noqa: ANN001, ANN201 (pytest-xdist's hook)
    if config.getvalue("dist") == "loadfile":
        return SharedSynthesisScheduling(config, log)
    return None


def _file(item) -> str:  # noqa: ANN001 (a pytest Item)
    return item.nodeid.split("::", 1)[0]


def pytest_collection_modifyitems(config, items) -> None:  # noqa: ANN001 (pytest's hook)
    rank = {path: i for i, path in enumerate(LONGEST_FIRST)}
    tests_per_file = Counter(_file(item) for item in items)
    # sort is stable: within a file, and among files of as many tests, the collection's order stands
    items.sort(key=lambda item: (rank.get(_file(item), len(rank)), -tests_per_file[_file(item)]))
