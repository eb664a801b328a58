"""The configuration mistakes and the smoke stack's waits the docs show are the code's: each example is the shipped
example file with the documented changes, loaded again, and what the loader says (every line) or the wait the stack
computes stands in the page."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from deployment_config import load_environment
from deployment_config.errors import ConfigError
from tests.conftest import PROJECT_DIR, SHIPPED_CONFIG_DIR

DOCS = PROJECT_DIR / "docs"
B200 = {"capacity": {"instance_type": "p6-b200.48xlarge", "instance_count": 1}}


def _message(config_dir: Path, name: str, changes: dict) -> str:
    document = yaml.safe_load((SHIPPED_CONFIG_DIR / "example.yaml").read_text(encoding="utf-8"))
    for key, value in changes.items():
        document[key] = {**document[key], **value} if isinstance(value, dict) else value
    config_dir.mkdir()
    (config_dir / f"{name}.yaml").write_text(yaml.safe_dump(document), encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load_environment(config_dir, name)
    return str(raised.value)


@pytest.mark.parametrize(
    ("page", "name", "changes"),
    [
        ("setup.md", "prod", {"account": "12345678901", "region": "us-wset-2", **B200}),
        ("configure.md", "b200", B200),
    ],
)
def test_the_mistake_a_page_shows_is_what_the_loader_says(
    tmp_path, monkeypatch, page, name, changes
):
    # given the example file with the changes the page describes as config/NAME.yaml, when the loader reads it
    monkeypatch.chdir(tmp_path)
    message = _message(tmp_path / "config", name, changes)
    # then the page shows every line of its message
    text = (DOCS / page).read_text(encoding="utf-8")
    assert [line for line in message.splitlines() if line not in text] == []


def test_the_smoke_stacks_waits_the_docs_give_are_the_codes(tmp_path, monkeypatch):
    from deployment_config.promotion_gate import wait_seconds
    from deployment_config.sizing import startup_budget_seconds

    # given the promotion gate the load-test page shows, on the example environment
    page = (DOCS / "smoke-and-load-test.md").read_text(encoding="utf-8")
    block = page[page.index("**As a promotion gate**") :].split("```yaml\n", 1)[1].split("```")[0]
    monkeypatch.chdir(tmp_path)
    config_dir = tmp_path / "config"
    config_dir.mkdir()
    document = yaml.safe_load((SHIPPED_CONFIG_DIR / "example.yaml").read_text(encoding="utf-8"))
    document["endpoint"] = {**document.get("endpoint", {}), **yaml.safe_load(block)["endpoint"]}
    (config_dir / "gate.yaml").write_text(yaml.safe_dump(document), encoding="utf-8")
    env = load_environment(config_dir, "gate")
    # when the smoke stack's wait is computed as the stack computes it (stacks/smoke_stack.py)
    budget = startup_budget_seconds(env.model.loaded_gb)
    smoke, gated = wait_seconds(budget, None), wait_seconds(budget, env.endpoint.gate)
    # then the pages give those minutes and seconds
    assert f"{smoke // 60} minutes for Kimi-K3" in (DOCS / "deploy.md").read_text(encoding="utf-8")
    flat = " ".join(page.split())
    assert (
        f"adds {round((gated - smoke) / 60)} minutes to the smoke test's {smoke // 60} "
        f"(a wait of {gated} s, {round(gated / 60)} minutes, for Kimi-K3)" in flat
    )
