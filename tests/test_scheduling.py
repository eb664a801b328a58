"""The longest test files are handed to the xdist workers first (tests/scheduling.py), so that no worker is left with a
long file at the end of the run while the other is idle."""

from __future__ import annotations

from dataclasses import dataclass

from tests.conftest import PROJECT_DIR
from tests.scheduling import (
    LONGEST_FIRST,
    SAME_WORKER,
    pytest_collection_modifyitems,
    pytest_xdist_make_scheduler,
)


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


class _LoadfileConfig:
    """What xdist's loadfile scheduler reads of the controller's config: two workers, the project's options."""

    option = type("Option", (), {"loadscopereorder": False, "maxschedchunk": None})()

    def getvalue(self, name: str):
        return {"dist": "loadfile", "tx": ["2*popen"]}[name]


class _Worker:
    """A worker as the scheduler sees it: it is sent the indexes of the tests it is to run."""

    shutting_down = False

    def __init__(self, name: str) -> None:
        self.gateway = type("Gateway", (), {"id": name})()
        self.sent: list[int] = []

    def send_runtest_some(self, indexes: list[int]) -> None:
        self.sent.extend(indexes)

    def shutdown(self) -> None:
        pass


def test_files_that_read_one_session_synthesis_are_run_by_one_worker():
    # given the run's scheduler (--dist loadfile), and a collection with each group's files next to each other, as the
    # first two units two workers are given
    scheduler = pytest_xdist_make_scheduler(_LoadfileConfig(), None)
    collection = [
        f"{path}::test_{n}"
        for n, path in enumerate(
            path
            for g, group in enumerate(SAME_WORKER)
            for path in (*group, f"tests/x/test_other_{g}.py")
        )
    ]
    workers = [_Worker("gw0"), _Worker("gw1")]
    for worker in workers:
        scheduler.add_node(worker)
    for worker in workers:
        scheduler.add_node_collection(worker, collection)
    # when it hands out the work, each worker running what it is sent
    scheduler.schedule()
    done = {worker: 0 for worker in workers}
    while any(done[worker] < len(worker.sent) for worker in workers):
        for worker in workers:
            for index in worker.sent[done[worker] :]:
                done[worker] += 1
                scheduler.mark_test_complete(worker, index)
    # then each group's files go to one worker, and every test is sent once
    files_of = [{collection[i].split("::")[0] for i in worker.sent} for worker in workers]
    for group in SAME_WORKER:
        assert sum(1 for files in files_of if set(group) & files) == 1, group
    assert sorted(i for worker in workers for i in worker.sent) == list(range(len(collection)))


def test_the_groups_name_files_that_exist_and_another_dist_keeps_its_own_scheduler():
    assert [p for group in SAME_WORKER for p in group if not (PROJECT_DIR / p).is_file()] == []
    config = _LoadfileConfig()
    config.getvalue = lambda name: "load"
    assert pytest_xdist_make_scheduler(config, None) is None
