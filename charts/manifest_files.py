"""Write synthesized Kubernetes objects as plain YAML for review and `kubectl apply -f`."""

from __future__ import annotations

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
