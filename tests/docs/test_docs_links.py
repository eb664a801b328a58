"""The README and docs/: within their size limits, every relative link and anchor resolves, and every command and path
they name exists.

Given README.md and every page under docs/, when their links, `make` targets, `llmops` commands and repository paths
are read (outside code blocks for links, anywhere for commands and paths), then each one resolves against the checkout:
a moved page, a renamed heading, a dropped Makefile target or CLI command, or a moved module fails here, naming the
page and what it names.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[2]
PAGES = [PROJECT_DIR / "README.md", *sorted((PROJECT_DIR / "docs").rglob("*.md"))]

README_MAX_LINES = 300
PAGE_MAX_LINES = 400
QUICK_START_MAX_LINES = 20


def _relative(path: Path) -> str:
    return str(path.relative_to(PROJECT_DIR))


def _without_code(text: str) -> str:
    """The text outside fenced code blocks and inline code spans: a link or heading inside them is not one."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def github_slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lowercase, punctuation but '-' and '_' removed, each space a '-'."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


@cache
def anchors(page: Path) -> frozenset[str]:
    """Every heading's anchor on ``page``; a repeated heading gets -1, -2, ... as on GitHub."""
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.S | re.M)
    seen: dict[str, int] = {}
    found = set()
    for heading in re.findall(r"^#{1,6} (.+)$", text, re.M):
        slug = github_slug(heading)
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return frozenset(found)


def links(page: Path) -> list[str]:
    return re.findall(r"\[[^\]]*\]\(([^)\s]+)\)", _without_code(page.read_text(encoding="utf-8")))


def broken_links(page: Path) -> list[str]:
    """The relative links of ``page`` whose file or anchor does not exist."""
    broken = []
    for target in links(page):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:: not this repository's
            continue
        path, _, anchor = target.partition("#")
        destination = (page.parent / path).resolve() if path else page
        if not destination.exists():
            broken.append(f"{target}: no such file")
        elif anchor and (destination.suffix != ".md" or anchor not in anchors(destination)):
            broken.append(f"{target}: no heading with that anchor")
    return broken


def test_the_slug_rules_are_githubs():
    assert github_slug("The operations CLI: `bin/llmops`") == "the-operations-cli-binllmops"
    assert (
        github_slug("Configure an environment (add an account)")
        == "configure-an-environment-add-an-account"
    )
    assert (
        github_slug("How long it takes: from purchase to serving")
        == "how-long-it-takes-from-purchase-to-serving"
    )
    assert github_slug("snake_case and dash-ed") == "snake_case-and-dash-ed"


def test_a_broken_link_and_a_broken_anchor_are_found(tmp_path):
    # given a page with a good link, a link to a missing file and one to a missing heading
    (tmp_path / "other.md").write_text("# Other page\n\n## A section: here\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "[ok](other.md#a-section-here) [gone](missing.md) [typo](other.md#a-sectionhere) "
        "[self](#title) `[not a link](nowhere.md)`\n\n# Title\n",
        encoding="utf-8",
    )
    # then exactly the two broken ones are reported
    assert broken_links(page) == [
        "missing.md: no such file",
        "other.md#a-sectionhere: no heading with that anchor",
    ]


def test_every_relative_link_and_anchor_resolves():
    broken = {_relative(page): problems for page in PAGES if (problems := broken_links(page))}
    assert broken == {}


def test_the_readme_and_every_page_keep_their_size():
    assert (
        len((PROJECT_DIR / "README.md").read_text(encoding="utf-8").splitlines())
        <= README_MAX_LINES
    )
    long = {
        _relative(p): n
        for p in PAGES[1:]
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > PAGE_MAX_LINES
    }
    assert long == {}


def test_the_quick_start_is_at_most_twenty_lines():
    readme = (PROJECT_DIR / "README.md").read_text(encoding="utf-8")
    section = re.search(r"^## Quick start.*?\n(.*?)(?=^## )", readme, re.S | re.M)
    assert section, "the README has no Quick start section"
    (block,) = re.findall(r"^```sh\n(.*?)^```", section.group(1), re.S | re.M)
    assert 0 < len(block.splitlines()) <= QUICK_START_MAX_LINES


def _all_text() -> str:
    return "\n".join(page.read_text(encoding="utf-8") for page in PAGES)


def test_every_make_target_the_docs_name_exists():
    # given the Makefile's targets, then every `make TARGET` of the README and docs/ is one of them (`make crd-bindings`
    # was named by the README and charts/imports/generate.py for a while before the Makefile had it)
    targets = set(
        re.findall(
            r"^([a-z][a-z-]*):", (PROJECT_DIR / "Makefile").read_text(encoding="utf-8"), re.M
        )
    )
    named = set(re.findall(r"\bmake ([a-z][a-z-]*)", _all_text()))
    assert named and named - targets == set()


def test_every_llmops_command_the_docs_name_exists():
    from ops_cli.cli import build_parser

    # given the CLI's parser: a command group with subcommands, or a command of its own
    groups = next(a for a in build_parser()._actions if a.dest == "group").choices  # noqa: SLF001 (argparse's own)
    commands = {}
    for name, parser in groups.items():
        sub = [a for a in parser._actions if a.choices and isinstance(a.choices, dict)]  # noqa: SLF001
        commands[name] = set(sub[0].choices) if sub else set()
    # then every `llmops GROUP [COMMAND]` of the README and docs/ is one of them
    named = re.findall(r"\bllmops ([a-z][a-z-]*)(?: ([a-z][a-z-]*))?", _all_text())
    assert named
    unknown = [
        (group, command)
        for group, command in named
        if group not in commands or (commands[group] and command and command not in commands[group])
    ]
    assert unknown == []


#: A repository path in backticks: what the docs tell a reader to open or run.
REPO_PATH = re.compile(
    r"`((?:app\.py|Makefile|cdk\.json|package\.json|pyproject\.toml|\.ci|bench|bin|cdk_constructs|"
    r"charts|config|deployment_config|docs|ops_cli|schema|stacks|tests)(?:/[\w.-]+)*/?)`"
)
#: Paths that stand for the reader's own files (config/NAME.yaml, config/prod.yaml), not the repository's.
PLACEHOLDER = re.compile(r"NAME|ENV|PRESET|/prod\.|/b200\.")


def _named_paths(page: Path) -> set[str]:
    text = page.read_text(encoding="utf-8")
    if page.name == "facts-and-sources.md":
        # its "source" column names files of other repositories: only "in the code" and "checked by" are this one's
        rows = [re.split(r"(?<!\\)\|", line) for line in text.splitlines() if line.startswith("| ")]
        text = "\n".join("|".join(cells[3:]) for cells in rows if len(cells) > 4)
    return {p for p in REPO_PATH.findall(text) if not PLACEHOLDER.search(p)}


def test_every_repository_path_the_docs_name_exists():
    missing = {
        _relative(page): sorted(p for p in paths if not (PROJECT_DIR / p).exists())
        for page in PAGES
        if (paths := _named_paths(page))
    }
    assert {page: paths for page, paths in missing.items() if paths} == {}
