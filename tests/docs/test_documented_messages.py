"""The configuration mistakes the docs show are the loader's own words: each example is the shipped example file with
the documented changes, loaded again, and every line of what the loader says stands in the page's block."""

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
