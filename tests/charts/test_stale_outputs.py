"""cdk.out/ holds only what the last synthesis produced: charts/manifest_files.py ``prune_stale_outputs``, which app.py
runs after every synthesis (issue 23: stale ``example-*`` templates were left beside ``prod-*``)."""

from __future__ import annotations

import json
import os
import time

from charts.manifest_files import prune_stale_outputs


def _write(path, text="{}", *, age: float = 0.0):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    if age:
        moment = time.time() - age
        os.utime(path, (moment, moment))
    return path


def test_what_an_earlier_synthesis_wrote_goes_and_what_this_one_wrote_stays(tmp_path):
    # given cdk.out after `make synth` (the examples) and then a synthesis of prod alone, started a minute later
    old = {
        name: _write(tmp_path / name, age=120)
        for name in (
            "example-cluster.template.json",
            "example-cluster.assets.json",
            "example-cluster.metadata.json",
        )
    }
    old_yaml = _write(tmp_path / "kubernetes" / "example" / "vllm-serving.yaml", "", age=120)
    old_assembly = _write(
        tmp_path / "assembly-pipeline-example" / "x.template.json", age=120
    ).parent
    lock = _write(tmp_path / "synth.lock", "", age=120)
    since = time.time() - 60
    assets = {"files": {"h1": {"source": {"path": "asset.kept"}}}}
    new = [
        _write(tmp_path / "prod-cluster.template.json"),
        _write(tmp_path / "prod-cluster.assets.json", json.dumps(assets)),
        _write(tmp_path / "kubernetes" / "prod" / "vllm-serving.yaml", ""),
        _write(tmp_path / "manifest.json"),
    ]
    kept_asset = _write(tmp_path / "asset.kept" / "index.py", "", age=120).parent
    stale_asset = _write(tmp_path / "asset.gone" / "index.py", "", age=120).parent

    # when the stale outputs are pruned
    removed = prune_stale_outputs(tmp_path, since)

    # then the earlier synthesis's templates, manifests, nested assembly and unnamed staged asset are gone
    assert set(removed) == {*old.values(), old_yaml.parent, old_assembly, stale_asset}
    assert not any(p.exists() for p in removed)
    # and what this synthesis wrote, the asset it names and the CLI's lock file stay
    assert all(p.exists() for p in [*new, kept_asset, lock])
