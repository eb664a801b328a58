"""Write the byte-code a run of the app or the tests needs, once, at set-up (the Makefile runs it after installing).

    .venv/bin/python tools/compile_bytecode.py

Compiled, in one pool of processes (one per CPU), each file whose ``__pycache__`` entry is missing or stale
(``compileall.compile_file``, as ``python -m compileall`` does):

- every installed package but five, as before (docs/maintainers/performance.md, "Byte-code"): aws-cdk-lib, of whose
  358 submodules a run loads a few dozen, and sympy, networkx, pygments and pip, which a run uses little of;
- of aws-cdk-lib, the submodules the project can load: those its code names (``aws_cdk.X``, ``from aws_cdk import
  X``), and what those reach through their own imports (``_LazyImport("aws_cdk.Y")`` at the end of each submodule's
  ``__init__.py``, resolved at first use, and plain ``import``/``from`` lines), read from the source without importing it;
- the project's own modules (its packages, ``tests/`` and ``bench/``).

Why: with those two left to their first import, the first test run's three processes (the background synthesis and
the two xdist workers, which start together) each compiled the same modules, about 23 s of CPU more than the second
run, which found them cached (performance.md, "Byte-code"). A file that does not compile (a module for another
Python) is named and left to its import, as pip does; the exit status is 0 then too.
"""

from __future__ import annotations

import compileall
import os
import re
import sys
import sysconfig
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[1]
#: The installed packages left to their first import (paths relative to site-packages).
LEFT_TO_IMPORT = ("aws_cdk", "sympy", "networkx", "pygments", "pip")
#: The project's directories of Python besides its packages (those with an ``__init__.py`` at the top).
PROJECT_EXTRA = ("bench",)
#: Where aws-cdk-lib's generated module code starts: its module docstring (the library's README, with code examples
#: whose import lines would otherwise count) ends before this line.
CODE_START = "\nfrom __future__ import annotations"
NAMED = re.compile(
    r"\baws_cdk\.(\w+)|from aws_cdk import \(([^)]*)\)|from aws_cdk import ([^\n(]+)"
)
REACHED = re.compile(
    r'_LazyImport\("(aws_cdk[\w.]*)"\)|^\s*(?:from|import) (aws_cdk[\w.]*)|^\s*from (\.+)(\w*) import ([\w, *]+)',
    re.M,
)


def _module_file(site: Path, module: str) -> Path | None:
    base = site.joinpath(*module.split("."))
    for candidate in (base / "__init__.py", base.with_suffix(".py")):
        if candidate.is_file():
            return candidate
    return None


def project_files(root: Path = PROJECT_DIR) -> list[Path]:
    """The project's own Python files: the top level's, its packages' and :data:`PROJECT_EXTRA`'s."""
    top = [p for p in root.iterdir() if p.is_dir() and (p / "__init__.py").is_file()]
    top += [root / name for name in PROJECT_EXTRA if (root / name).is_dir()]
    files = sorted(root.glob("*.py"))
    for directory in sorted(top):
        files += sorted(directory.rglob("*.py"))
    return files


def cdk_modules(site: Path, sources: list[Path]) -> list[Path]:
    """The files of the aws-cdk-lib modules ``sources`` name, and of every module those reach by their imports."""
    named = {"aws_cdk"}
    for source in sources:
        for dotted, grouped, listed in NAMED.findall(
            source.read_text(encoding="utf-8", errors="replace")
        ):
            names = (
                [dotted]
                if dotted
                else re.findall(r"^\s*(\w+)", (grouped or listed).replace(",", "\n"), re.M)
            )
            named.update(f"aws_cdk.{name}" for name in names)
    found: dict[str, Path] = {}
    pending = sorted(named)
    while pending:
        module = pending.pop()
        path = None if module in found else _module_file(site, module)
        if path is None:
            continue
        found[module] = path
        pending.append(module.rpartition(".")[0])  # importing a submodule imports its package
        text = path.read_text(encoding="utf-8", errors="replace")
        start = text.find(CODE_START)
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for lazy, plain, dots, relative, names in REACHED.findall(text[max(start, 0) :]):
            if not dots:
                pending.append(lazy or plain)
                continue
            # from ._jsii import *, from .. import aws_iam: relative to the module's package
            base = package.rsplit(".", len(dots) - 1)[0] if len(dots) > 1 else package
            if relative:
                pending.append(f"{base}.{relative}")
            else:
                pending += [
                    f"{base}.{name.strip()}" for name in names.split(",") if name.strip() != "*"
                ]
    return sorted(found.values())


def installed_files(site: Path) -> list[Path]:
    """Every ``.py`` file of site-packages outside :data:`LEFT_TO_IMPORT`."""
    files = []
    for directory, subdirectories, names in os.walk(site):
        if Path(directory) == site:
            subdirectories[:] = [d for d in subdirectories if d not in LEFT_TO_IMPORT]
        subdirectories[:] = [d for d in subdirectories if d != "__pycache__"]
        files += [Path(directory, name) for name in names if name.endswith(".py")]
    return files


def _compile(path: Path) -> bool:
    return bool(compileall.compile_file(str(path), quiet=1))


def main() -> int:
    site = Path(sysconfig.get_path("purelib"))
    own = project_files()
    files = sorted(set(installed_files(site)) | set(cdk_modules(site, own)) | set(own))
    with ProcessPoolExecutor() as pool:
        results = list(pool.map(_compile, files, chunksize=64))
    failed = results.count(False)
    if failed:
        print(
            f"    ({failed} files named above did not compile: each compiles at its import, or fails there)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
