"""Python's cyclic garbage collector, kept off the objects that live for the whole run (a pytest plugin of
tests/conftest.py).

A full collection walks every object of the heap. After the collection of the tests a process holds the product's and
the CDK's modules, classes and the collected items, which live until it ends; in a worker, each automatic full
collection walked them again: ten of them took 3.5 s of a 64 s run of three files, and pytest
9.2 collects twice more when the process ends (_pytest/unraisableexception.py: in its ``pytest_unconfigure``, to
report the exceptions of ``__del__`` methods of objects in cycles, then in the cleanup that restores
``sys.unraisablehook``), 1.0-1.6 s each in a worker at the end of the suite. So:

* once the tests are collected, what is garbage is collected and the rest frozen (``gc.freeze``: moved where the
  collector no longer looks; https://docs.python.org/3.11/library/gc.html#gc.freeze): the same three files' full
  collections 3.5 → 1.1 s;
* after pytest's first collection at the end has run and reported, the objects left are frozen too, so that the
  second has only what the other plugins' cleanups leave.

What the tests see is the same; what is not collected is what lived from the collection on, or is left at the end.
Figures: docs/maintainers/test-suite.md, "Issue 33, item 1".
"""

from __future__ import annotations

import gc

import pytest


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    gc.collect()
    gc.freeze()


@pytest.hookimpl(trylast=True)  # after _pytest.unraisableexception's, which is not trylast
def pytest_unconfigure(config: pytest.Config) -> None:
    gc.freeze()
