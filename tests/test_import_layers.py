"""Imports run one way: each top-level package imports only packages of its own floor or below, and no modules import
each other around a loop (DEVELOPERS.md, "Imports run one way"). Reads the import statements only, with ``ast``, as the
team's import-circle hook does: function-level and ``TYPE_CHECKING`` imports count too, since moving an
import into a function hides a circle without breaking it."""

from __future__ import annotations

import ast
import functools

from tests.conftest import PROJECT_DIR

#: Floors, lowest first; a package may import its own floor and those below. ``ops_cli`` beside ``charts``: neither
#: imports the other; the constructs that start the CLI's load test import it.
FLOORS = (
    {"endpoint_probe", "capacity_rules"},
    {"deployment_config"},
    {"charts", "ops_cli"},
    {"cdk_constructs"},
    {"stacks"},
    {"app", "bench"},
)
#: Code that is not the project's importable modules: Lambda and pod scripts (runtime/), generated bindings (imports/).
SKIPPED_DIRS = {"runtime", "imports", "__pycache__"}


def _modules() -> dict[str, ast.Module]:
    modules = {}
    for floor in FLOORS:
        for package in floor:
            root = PROJECT_DIR / package
            paths = (
                [PROJECT_DIR / f"{package}.py"] if not root.is_dir() else sorted(root.rglob("*.py"))
            )
            for path in paths:
                parts = path.relative_to(PROJECT_DIR).with_suffix("").parts
                if SKIPPED_DIRS & set(parts):
                    continue
                name = ".".join(parts).removesuffix(".__init__")
                modules[name] = ast.parse(path.read_text(encoding="utf-8"))
    return modules


def _edges(modules: dict[str, ast.Module]) -> dict[str, set[str]]:
    def resolve(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    edges: dict[str, set[str]] = {name: set() for name in modules}
    for name, tree in modules.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                targets = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
            else:
                continue
            # A module reaching its own package's __init__ (the package's facade) is not counted: Python runs that
            # __init__ before the module anyway.
            edges[name] |= {
                t for t in map(resolve, targets) if t and t != name and not name.startswith(t + ".")
            }
    return edges


def _circles(edges: dict[str, set[str]]) -> list[frozenset[str]]:
    """Strongly connected components of more than one module (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles = []
    for start in edges:
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    circles.append(frozenset(component))
    return circles


@functools.cache
def _project_edges() -> dict[str, set[str]]:
    """The project's imports, parsed once for both checks (about 0.85 s of CPU: 300 modules through ``ast``)."""
    return _edges(_modules())


def _floor(module: str) -> int:
    top = module.split(".")[0]
    return next(i for i, floor in enumerate(FLOORS) if top in floor)


def test_no_module_imports_one_of_a_higher_floor():
    edges = _project_edges()
    upward = sorted(
        f"{source} imports {target}"
        for source, targets in edges.items()
        for target in targets
        if _floor(target) > _floor(source)
    )
    assert not upward, f"imports up a floor (move the shared value down to its owner): {upward}"


def test_no_modules_import_each_other_around_a_loop():
    circles = _circles(_project_edges())
    assert not circles, (
        "circles of imports (move the shared value to the module that owns it): "
        + "; ".join(" <-> ".join(sorted(c)) for c in circles)
    )


def test_the_check_finds_a_circle_and_an_upward_import():
    """Given two modules that import each other, the check names them; given charts importing a construct, it is up a
    floor."""
    edges = {"charts.a": {"charts.b"}, "charts.b": {"charts.a"}, "charts.c": {"cdk_constructs.d"}}
    edges["cdk_constructs.d"] = set()
    assert _circles(edges) == [frozenset({"charts.a", "charts.b"})]
    assert _floor("cdk_constructs.d") > _floor("charts.c")
