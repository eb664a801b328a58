"""What a new user sees before scrolling: the README's first screen (its first 40 lines) names the commands that
check a checkout, as issue 32 asks: ``make test`` among them, a target the Makefile has."""

from __future__ import annotations

import re

from tests.conftest import PROJECT_DIR

FIRST_SCREEN = 40


def test_the_first_screen_of_the_readme_names_make_test():
    # given the README's first screen
    first_screen = "".join(
        (PROJECT_DIR / "README.md")
        .read_text(encoding="utf-8")
        .splitlines(keepends=True)[:FIRST_SCREEN]
    )
    # then it names `make test`, and the Makefile has that target
    assert "`make test`" in first_screen
    assert re.search(r"^test:", (PROJECT_DIR / "Makefile").read_text(encoding="utf-8"), re.M)
