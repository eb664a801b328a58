"""The set-up's byte-code step (tools/compile_bytecode.py): which aws-cdk-lib modules it compiles, and that it does."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tests.conftest import PROJECT_DIR

CODE_START = "\nfrom __future__ import annotations\n"


@pytest.fixture(scope="module")
def tool():
    spec = importlib.util.spec_from_file_location(
        "compile_bytecode", PROJECT_DIR / "tools" / "compile_bytecode.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _module(site: Path, dotted: str, docstring: str = "", code: str = "") -> Path:
    path = site.joinpath(*dotted.split("."), "__init__.py")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'"""{docstring}"""{CODE_START}{code}', encoding="utf-8")
    return path


def test_it_compiles_the_modules_the_project_names_and_what_they_reach_and_no_other(tool, tmp_path):
    # given an aws-cdk-lib whose README (the module docstring) shows an import, a package that imports its _jsii,
    # a named submodule that reaches another lazily, and one the project never reaches
    site = tmp_path / "site-packages"
    root = _module(site, "aws_cdk", "import aws_cdk.aws_readme as readme", "from ._jsii import *\n")
    jsii = _module(site, "aws_cdk._jsii", code="import aws_cdk.aws_asset._jsii\n")
    asset = _module(site, "aws_cdk.aws_asset")
    (asset.parent / "_jsii").mkdir()
    asset_jsii = _module(site, "aws_cdk.aws_asset._jsii")
    named = _module(site, "aws_cdk.aws_named", code='    _b = _LazyImport("aws_cdk.aws_reached")\n')
    reached = _module(site, "aws_cdk.aws_reached", code="from .. import aws_named\n")
    for other in ("aws_cdk.aws_readme", "aws_cdk.aws_unused"):
        _module(site, other)
    source = tmp_path / "stack.py"
    source.write_text(
        "from aws_cdk import (\n    Stack,\n    aws_named as named,\n)\nimport aws_cdk.aws_missing\n",
        encoding="utf-8",
    )
    # when the step picks the aws-cdk-lib modules of that project
    picked = tool.cdk_modules(site, [source])
    # then it has the named module, what it reaches, the package and its _jsii; not the README's nor the unused one
    assert picked == sorted([root, jsii, asset, asset_jsii, named, reached])


def test_the_project_files_are_its_packages_bench_and_top_level_modules(tool):
    files = {path.relative_to(PROJECT_DIR).as_posix() for path in tool.project_files()}
    assert {
        "app.py",
        "stacks/composition.py",
        "ops_cli/cli.py",
        "bench/output_identity.py",
    } <= files
    assert (
        "tests/conftest.py" in files
    )  # tests/ is a package; its helpers are imported, not rewritten
    assert not {f for f in files if f.startswith((".venv/", "node_modules/", "cdk.out"))}


def test_a_file_that_does_not_compile_is_named_and_the_rest_compiled(tool, tmp_path, capsys):
    good, bad = tmp_path / "good.py", tmp_path / "bad.py"
    good.write_text("x = 1\n")
    bad.write_text("def (:\n")
    assert tool._compile(good) and not tool._compile(bad)
    assert Path(importlib.util.cache_from_source(str(good))).is_file()
    assert "bad.py" in capsys.readouterr().out
