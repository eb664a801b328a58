"""``make recipes`` (``python -m deployment_config.recipe``): what depends on the vendored recipe, written to
recipes.lock.json, which tests/deployment_config/test_recipe.py compares with what the recipe composes to now."""

from __future__ import annotations

import json

from deployment_config.catalog import MODEL_PRESETS
from deployment_config.recipe.profile import recipe_profile
from deployment_config.recipe.vendored import GENERATIONS, RECIPE_DIR, STRATEGIES, recipe_for

#: What ``make recipes`` derives from the vendored files: their sha256 and every profile, checked by
#: tests/deployment_config/test_recipe.py.
LOCK_FILE = RECIPE_DIR / "recipes.lock.json"


def lock_data(preset: str = "kimi-k3") -> dict:
    """What depends on the vendored recipe: its digest and every profile this project can derive from it."""
    recipe = recipe_for(preset)
    assert recipe is not None
    load_format = MODEL_PRESETS[preset].load_format
    profiles = {}
    for generation in GENERATIONS:
        for strategy in STRATEGIES:
            p = recipe_profile(
                recipe,
                generation=generation,
                strategy=strategy,
                features=(),
                load_format=load_format,
            )
            profiles[f"{generation}/{strategy}"] = {
                "args": list(p.args),
                "environment": dict(p.environment),
            }
    return {"source": recipe.source, "sha256": recipe.sha256, "profiles": profiles}


def main(argv: list[str]) -> int:
    """``make recipes``: rewrite recipes.lock.json from the vendored recipe files."""
    LOCK_FILE.write_text(json.dumps({"kimi-k3": lock_data()}, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {LOCK_FILE}")
    return 0
