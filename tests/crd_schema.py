"""Validation of custom resources against the HyperPod Inference Operator's CRD vendored in the repository
(charts/imports/crds/: operator 3.1's InferenceEndpointConfig, the version the pinned add-on installs; SOURCE.md there),
with unknown fields refused.

The API server prunes a field a structural schema does not have, without a word, unless the client asks for strict
field validation (https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/
#field-pruning); the endpoint stack's kubectl apply does not. A field the chart wrote that the CRD lacks would be
dropped on the day, so here it is an error (:func:`strict_schema`).

Nothing outside the repository is read: a fresh clone runs every check."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import jsonschema
import yaml

#: The vendored operator CRDs (only the InferenceEndpointConfig's: the project writes no other kind of the operator).
CRD_DIR = Path(__file__).resolve().parents[1] / "charts" / "imports" / "crds"
#: The InferenceEndpointConfig's CRD, the one file of :data:`CRD_DIR`.
INFERENCE_ENDPOINT_CRD = (
    CRD_DIR / "inference.sagemaker.aws.amazon.com_inferenceendpointconfigs.yaml"
)


def read_crd(path: Path) -> dict:
    """A CRD file as one document, read with libyaml: the operator's is 410 KB (0.9 s of CPU for PyYAML's own parser), the
    LeaderWorkerSet's 1.3 MB."""
    return yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)


def strict_schema(schema: object) -> object:
    """A copy of a CRD's structural schema in which every object with ``properties`` refuses other keys, as the API
    server's strict field validation would; an object that already says what other keys take
    (``additionalProperties``: maps, resource quantities) or keeps them (``x-kubernetes-preserve-unknown-fields``) is
    left as it is."""
    if isinstance(schema, list):
        return [strict_schema(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    strict = {key: strict_schema(value) for key, value in schema.items()}
    if (
        strict.get("type") == "object"
        and "properties" in strict
        and "additionalProperties" not in strict
        and not strict.get("x-kubernetes-preserve-unknown-fields")
    ):
        strict["additionalProperties"] = False
    return strict


@cache
def crd_schemas() -> dict[tuple[str, str], dict]:
    """(apiVersion, kind) → the strict openAPIV3Schema of that served version, for every CRD in the folder."""
    schemas = {}
    for path in sorted(CRD_DIR.glob("*.yaml")):
        crd = read_crd(path)
        for version in crd["spec"]["versions"]:
            if version.get("served", True):
                key = (f"{crd['spec']['group']}/{version['name']}", crd["spec"]["names"]["kind"])
                schemas[key] = strict_schema(version["schema"]["openAPIV3Schema"])
    if not schemas:
        raise FileNotFoundError(f"no CRDs found in {CRD_DIR}")
    return schemas


def validate_custom_resource(obj: dict) -> None:
    """Raise jsonschema.ValidationError unless ``obj`` satisfies its CRD (required fields, enums, patterns, types) and
    has no field the CRD lacks."""
    schema = crd_schemas()[(obj["apiVersion"], obj["kind"])]
    jsonschema.Draft7Validator(schema).validate(obj)
