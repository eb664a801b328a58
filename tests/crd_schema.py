"""Validation of custom resources against the HyperPod Inference Operator's CRD vendored in the repository
(charts/imports/crds/: operator 3.0's InferenceEndpointConfig, the version the pinned add-on installs; SOURCE.md there).

Nothing outside the repository is read: a fresh clone runs every check."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import jsonschema
import yaml

#: The vendored operator CRDs (only the InferenceEndpointConfig's: the project writes no other kind of the operator).
CRD_DIR = Path(__file__).resolve().parents[1] / "charts" / "imports" / "crds"


@cache
def crd_schemas() -> dict[tuple[str, str], dict]:
    """(apiVersion, kind) → the openAPIV3Schema of that served version, for every CRD in the folder."""
    schemas = {}
    for path in sorted(CRD_DIR.glob("*.yaml")):
        crd = yaml.load(path.read_text(), Loader=yaml.CSafeLoader)  # libyaml: the CRDs are large
        for version in crd["spec"]["versions"]:
            if version.get("served", True):
                key = (f"{crd['spec']['group']}/{version['name']}", crd["spec"]["names"]["kind"])
                schemas[key] = version["schema"]["openAPIV3Schema"]
    if not schemas:
        raise FileNotFoundError(f"no CRDs found in {CRD_DIR}")
    return schemas


def validate_custom_resource(obj: dict) -> None:
    """Raise jsonschema.ValidationError unless ``obj`` satisfies its CRD (required fields, enums, patterns, types)."""
    schema = crd_schemas()[(obj["apiVersion"], obj["kind"])]
    jsonschema.Draft7Validator(schema).validate(obj)
