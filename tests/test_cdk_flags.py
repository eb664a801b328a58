"""cdk.json's feature flags: every one that the installed aws-cdk-lib recommends for a new app is configured, and each
one set otherwise than recommended is explained in docs/maintainers/cdk-feature-flags.md."""

from __future__ import annotations

import importlib.util
import json
import re
import tarfile
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[1]
RECOMMENDED = "package/recommended-feature-flags.json"


def recommended_flags() -> dict:
    """aws-cdk-lib's ``recommended-feature-flags.json`` (what ``cdk init`` writes into a new app's cdk.json), read
    from the jsii bundle that the Python package ships, without loading the CDK."""
    package_dir = Path(importlib.util.find_spec("aws_cdk").origin).parent
    (bundle,) = (package_dir / "_jsii").glob("aws-cdk-lib@*.jsii.tgz")
    with tarfile.open(bundle) as archive:
        for member in archive:
            if member.name == RECOMMENDED:
                return json.load(archive.extractfile(member))
    raise AssertionError(f"{bundle.name} has no {RECOMMENDED}")


def test_every_recommended_flag_is_configured_and_each_one_left_off_is_explained():
    # given the flags that the installed aws-cdk-lib recommends, and cdk.json
    recommended = recommended_flags()
    context = json.loads((PROJECT_DIR / "cdk.json").read_text(encoding="utf-8"))["context"]
    section = (PROJECT_DIR / "docs" / "maintainers" / "cdk-feature-flags.md").read_text(
        encoding="utf-8"
    )
    explained = set(re.findall(r"^\| `(@aws-cdk[^`]*)` \|", section, flags=re.MULTILINE))

    # then cdk.json configures every one of them (`cdk synth` warns of no unconfigured flag; after an upgrade of
    # aws-cdk-lib, its new flags fail here until they are set)
    assert sorted(set(recommended) - set(context)) == []
    # and the ones set otherwise than recommended are exactly the page's table rows, each with its reason
    assert {name for name, value in recommended.items() if context[name] != value} == explained
