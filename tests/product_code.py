"""The project's own product code, for the tests that judge all of it (module sizes, what its messages cite): the CDK
app, the constructs, charts, configuration, CLI, endpoint probe, Capacity Block rules and benchmarks; not the generated
CRD bindings (charts/imports/), not the tests."""

from __future__ import annotations

from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[1]
PRODUCT = (
    "app.py",
    "stacks",
    "cdk_constructs",
    "charts",
    "deployment_config",
    "ops_cli",
    "endpoint_probe",
    "capacity_rules",
    "bench",
)
GENERATED = PROJECT_DIR / "charts" / "imports"


def product_modules() -> list[Path]:
    """Every Python module of the product, generated bindings and byte-code caches aside."""
    found = []
    for top in PRODUCT:
        path = PROJECT_DIR / top
        found += [path] if path.is_file() else sorted(path.rglob("*.py"))
    return [p for p in found if GENERATED not in p.parents and "__pycache__" not in p.parts]
