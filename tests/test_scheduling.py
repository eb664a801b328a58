"""The longest test files are handed to the xdist workers first (tests/scheduling.py), so that no worker is left with a
long file at the end of the run while the other is idle."""

from __future__ import annotations

from dataclasses import dataclass

from tests.conftest import PROJECT_DIR
from tests.scheduling import LONGEST_FIRST, pytest_collection_modifyitems


@dataclass
class _Item:
    nodeid: str


def test_every_file_scheduled_first_exists_once():
    # a file renamed or deleted would silently fall back to the ordinary order
    assert [path for path in LONGEST_FIRST if not (PROJECT_DIR / path).is_file()] == []
    assert len(set(LONGEST_FIRST)) == len(LONGEST_FIRST)


def test_the_longest_files_come_first_then_the_rest_by_their_number_of_tests():
    # given a collection in alphabetical order: a short file, a file of many tests, and two of the longest files
    first, second = LONGEST_FIRST[0], LONGEST_FIRST[1]
    items = [
        _Item("tests/a/test_short.py::test_one"),
        *(_Item(f"tests/b/test_many.py::test_{n}") for n in range(3)),
        _Item(f"{second}::test_x"),
        _Item(f"{first}::test_y"),
        _Item(f"{first}::test_z"),
    ]
    # when the hook orders it
    pytest_collection_modifyitems(None, items)
    # then the listed files come first, in the list's order, each file's tests together and in their order
    assert [item.nodeid for item in items] == [
        f"{first}::test_y",
        f"{first}::test_z",
        f"{second}::test_x",
        *(f"tests/b/test_many.py::test_{n}" for n in range(3)),
        "tests/a/test_short.py::test_one",
    ]
