"""What the app writes into the cloud assembly directory beside the CDK's own files: the synthesized Kubernetes objects
as plain YAML for review and `kubectl apply -f`; and the removal of what an earlier synthesis left there, so that
cdk.out/ holds only what the last synthesis produced (a `make synth ENV=prod` after the examples shows no stale
`example-*` templates beside `prod-*`)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import yaml

MANIFEST_DIR = "kubernetes"


def write_manifests(
    outdir: Path, environment: str, manifests: list[dict], filename: str = "vllm-serving.yaml"
) -> Path:
    """Write ``manifests`` to ``OUTDIR/kubernetes/ENVIRONMENT/FILENAME`` and return the path."""
    target = outdir / MANIFEST_DIR / environment / filename
    target.parent.mkdir(parents=True, exist_ok=True)
    header = f"# Synthesized by app.py for environment '{environment}'. Apply with: kubectl apply -f {target.name}\n"
    target.write_text(header + yaml.safe_dump_all(manifests, sort_keys=False), encoding="utf-8")
    return target


#: Top-level files of a cloud assembly that each synthesis writes again: one of these older than the synthesis is an
#: earlier one's (a stack no longer in the app). Lock files (the CDK CLI's ``*.lock``) and anything else are left.
_REWRITTEN_SUFFIXES = (".template.json", ".assets.json", ".metadata.json", ".dot")


def prune_stale_outputs(directory: Path, since: float) -> list[Path]:
    """Remove from ``directory`` what an earlier synthesis wrote and this one (started at ``since``, a
    ``time.time()``) did not: templates, asset and metadata manifests, nested assemblies (``assembly-*``), the plain-YAML
    manifests of environments no longer synthesized, and staged assets (``asset.*``) no current asset manifest names.
    Returns what was removed."""

    def older(path: Path) -> bool:
        files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()]
        return all(p.stat().st_mtime < since for p in files)

    removed: list[Path] = []
    for entry in sorted(directory.iterdir()):
        stale_file = entry.is_file() and entry.name.endswith(_REWRITTEN_SUFFIXES)
        stale_assembly = entry.is_dir() and entry.name.startswith("assembly-")
        if (stale_file or stale_assembly) and older(entry):
            removed.append(entry)
    for environment in sorted((directory / MANIFEST_DIR).glob("*")):
        if environment.is_dir() and older(environment):
            removed.append(environment)
    for path in removed:
        shutil.rmtree(path) if path.is_dir() else path.unlink()
    named = {
        Path(asset.get("source", {}).get("path", "")).name
        for manifest in directory.rglob("*.assets.json")
        for asset in json.loads(manifest.read_text(encoding="utf-8")).get("files", {}).values()
    }
    for staged in sorted(directory.glob("asset.*")):
        if staged.name not in named:
            shutil.rmtree(staged) if staged.is_dir() else staged.unlink()
            removed.append(staged)
    return removed
