"""Modules small enough to read in one sitting (issue 22): no product module over 400 lines, no command module and no
family of AWS rules over 300, the CLI's root module at most 200. Generated bindings (charts/imports/) and tests are
not product modules."""

from __future__ import annotations

from pathlib import Path

from tests.product_code import PROJECT_DIR, product_modules

LIMITS = {"ops_cli/cli.py": 200}
#: Folders with a tighter limit (issue 22): the command modules, and the rules by family.
FOLDER_LIMITS = {
    PROJECT_DIR / "ops_cli" / "commands": 300,
    PROJECT_DIR / "deployment_config" / "aws_rules": 300,
}


def _limit(path: Path) -> int:
    relative = path.relative_to(PROJECT_DIR).as_posix()
    in_folder = next(
        (limit for folder, limit in FOLDER_LIMITS.items() if folder in path.parents), 400
    )
    return LIMITS.get(relative, in_folder)


def test_every_product_module_is_small_enough_to_read_in_one_sitting():
    modules = product_modules()
    assert len(modules) > 100  # the walk found the code, not an empty tree
    too_long = {
        p.relative_to(PROJECT_DIR).as_posix(): (n, _limit(p))
        for p in modules
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > _limit(p)
    }
    assert too_long == {}, "lines, limit: split the module by what its parts do"
