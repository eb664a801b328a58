"""Messages and comments point at the page that holds what they cite: the README is a front door, and its old sections
(Deploy, Mirror the weights to S3, Secure the endpoint, ...) live in docs/ (issue 23). A string or comment of the
product that cites "README, <section>" sends the reader to a section that is not there."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import SHIPPED_EXAMPLES
from tests.product_code import PROJECT_DIR, product_modules

#: "README, Deploy", "the README's image cache section", "(README \"Multi-node models\")": this project's README cited
#: as a place. Other projects' READMEs (a repository, a package) are cited with their name and are not matched.
OWN_README_SECTION = re.compile(
    r"\(README[,\s\"]|\bthe README[,']s? [A-Za-z\"]+ section|\bthe README's \""
)


def _sources() -> list[Path]:
    return [*product_modules(), *(PROJECT_DIR / "config" / name for name in SHIPPED_EXAMPLES)]


def test_no_message_or_comment_cites_a_section_of_the_readme():
    cited = {
        f"{p.relative_to(PROJECT_DIR)}:{n}"
        for p in _sources()
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if OWN_README_SECTION.search(line)
    }
    assert cited == set(), "point them at the docs/ page that holds the section"


def test_the_pattern_finds_what_it_is_for():
    assert OWN_README_SECTION.search('copy the weights once (README, "Mirror the weights to S3")')
    assert OWN_README_SECTION.search('(README "Multi-node models": the image)')
    assert not OWN_README_SECTION.search(
        "(aws/session-manager-plugin README, https://github.com/aws/...)"
    )
