"""Validation of custom resources against the HyperPod Inference Operator's CRDs in ../shared/crds/."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import jsonschema
import yaml

CRD_DIR = Path(__file__).resolve().parents[2] / "shared" / "crds"


@cache
def crd_schemas() -> dict[tuple[str, str], dict]:
    """(apiVersion, kind) → the openAPIV3Schema of that served version, for every CRD in the folder."""
    schemas = {}
    for path in sorted(CRD_DIR.glob("*.yaml")):
        crd = yaml.safe_load(path.read_text())
        for version in crd["spec"]["versions"]:
            key = (f"{crd['spec']['group']}/{version['name']}", crd["spec"]["names"]["kind"])
            schemas[key] = version["schema"]["openAPIV3Schema"]
    if not schemas:
        raise FileNotFoundError(f"no CRDs found in {CRD_DIR}")
    return schemas


def validate_custom_resource(obj: dict) -> None:
    """Raise jsonschema.ValidationError unless ``obj`` satisfies its CRD (required fields, enums, patterns, types)."""
    schema = crd_schemas()[(obj["apiVersion"], obj["kind"])]
    jsonschema.Draft7Validator(schema).validate(obj)
