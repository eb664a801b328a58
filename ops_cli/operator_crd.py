"""``llmops preflight`` on HyperPod: the operator the add-on installs, and its CRD against what the endpoint uses.

Two rows:

- "inference operator": the add-on on the cluster (eks:DescribeAddon) and the operator version that build installs,
  where a public source says (deployment_config/operator_releases.py). Before the operator stack is deployed there is
  no add-on: the row passes and says the CRD is compared once it is installed.
- "operator CRD": once installed, the InferenceEndpointConfig CRD the cluster serves (``kubectl get crd ... -o json``)
  against the endpoint as ``cdk synth`` rendered it (cdk.out/kubernetes/ENV/PRESET.yaml, the file the endpoint stack
  applies): every field path of its ``spec`` must exist in the served v1 schema (the API server drops unknown fields of
  a structural schema without a word: https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/
  custom-resource-definitions/#field-pruning) and every value must pass the schema's enums, patterns and types (the API
  server refuses those). The fields come from the rendered object, not from a list kept by hand.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from deployment_config.addons import INFERENCE_OPERATOR
from deployment_config.model import EnvironmentConfig
from deployment_config.operator_releases import OPERATOR_RELEASES, operator_release
from ops_cli.aws import Aws
from ops_cli.errors import ExitCode, OpsError
from ops_cli.preflight_check import Check, Status
from ops_cli.tools import ToolTimedOut, run_tool

CRD_NAME = "inferenceendpointconfigs.inference.sagemaker.aws.amazon.com"
KIND = "InferenceEndpointConfig"
SERVED_VERSION = "v1"
KUBECTL_TIMEOUT_S = 60


def rendered_manifest_path(env: EnvironmentConfig, project_dir: Path) -> Path:
    """Where ``cdk synth -c env=NAME`` writes the endpoint's objects (app.py, charts/manifest_files.py)."""
    return project_dir / "cdk.out" / "kubernetes" / env.name / f"{env.model.preset.key}.yaml"


def _describe_operator_addon(aws: Aws, env: EnvironmentConfig) -> dict | None:
    try:
        return aws.call(
            "eks",
            "describe_addon",
            f"look up add-on {INFERENCE_OPERATOR.name} on {env.cluster_name}",
            clusterName=env.cluster_name,
            addonName=INFERENCE_OPERATOR.name,
        )["addon"]
    except OpsError as error:
        if error.exit_code is ExitCode.NOT_FOUND:
            return None  # no cluster yet, or no add-on yet
        raise


def operator_version_detail(version: str) -> str:
    """What the table says about add-on build ``version``."""
    release = operator_release(version)
    if release is None:
        published = ", ".join(
            f"{r.addon_version} → {r.operator_version}" for r in OPERATOR_RELEASES
        )
        return f"no public source maps {version} to an operator version (only {published} are published)"
    return f"{version} installs operator {release.operator_version} (chart {release.chart_version})"


def served_schema(crd: dict) -> dict | None:
    """The openAPIV3Schema of the CRD's served v1, or None."""
    for version in crd.get("spec", {}).get("versions", []):
        if version.get("name") == SERVED_VERSION and version.get("served"):
            return version.get("schema", {}).get("openAPIV3Schema")
    return None


def unknown_fields(value: object, schema: dict, path: str) -> list[str]:
    """The field paths of ``value`` that ``schema`` does not have (``[]`` for list items). An object schema with
    ``additionalProperties`` or ``x-kubernetes-preserve-unknown-fields`` takes any key (resource quantities, maps)."""
    found: list[str] = []
    if isinstance(value, dict):
        properties = schema.get("properties")
        if properties is None:
            return found
        for key, item in value.items():
            if key in properties:
                found += unknown_fields(item, properties[key], f"{path}.{key}")
            elif not (
                schema.get("additionalProperties")
                or schema.get("x-kubernetes-preserve-unknown-fields")
            ):
                found.append(f"{path}.{key}")
    elif isinstance(value, list):
        for item in value:
            found += unknown_fields(item, schema.get("items") or {}, f"{path}[]")
    return sorted(set(found))


def schema_problems(endpoint: dict, crd: dict) -> list[str]:
    """Each way ``endpoint`` (an InferenceEndpointConfig) does not fit the CRD ``crd``: fields it lacks, and values its
    enums, patterns, types or required fields refuse."""
    import jsonschema  # only here: keeps `llmops --help` fast

    schema = served_schema(crd)
    if schema is None:
        return [f"the CRD serves no {SERVED_VERSION}"]
    problems = [
        f"{path}: no such field"
        for path in unknown_fields(
            endpoint.get("spec", {}), schema.get("properties", {}).get("spec", {}), "spec"
        )
    ]
    for error in sorted(
        jsonschema.Draft7Validator(schema).iter_errors(endpoint), key=lambda e: e.json_path
    ):
        problems.append(f"{error.json_path.removeprefix('$.')}: {error.message}")
    return problems


def rendered_endpoint(path: Path, env: EnvironmentConfig) -> dict:
    """The one InferenceEndpointConfig of the rendered file; :class:`Unchecked` when there is none to compare: no
    file, one older than the environment file, not YAML, or not exactly one endpoint in it."""
    import yaml

    fix = f"npx cdk synth -c env={env.name} (it writes {path}), then run preflight again"
    if not path.is_file():
        raise Unchecked(f"no rendered endpoint at {path}", fix)
    if (
        env.source
        and Path(env.source).is_file()
        and path.stat().st_mtime < Path(env.source).stat().st_mtime
    ):
        raise Unchecked(
            f"{path} is older than {env.source}: it may not be what the endpoint stack applies", fix
        )
    try:
        objects = [
            o for o in yaml.safe_load_all(path.read_text(encoding="utf-8")) if isinstance(o, dict)
        ]
    except yaml.YAMLError as error:
        raise Unchecked(f"{path} is not YAML ({str(error).splitlines()[0]})", fix) from None
    endpoints = [o for o in objects if o.get("kind") == KIND]
    if len(endpoints) != 1:
        raise Unchecked(f"{path} holds {len(endpoints)} {KIND} objects, not one", fix)
    return endpoints[0]


class Unchecked(Exception):
    """What kept a comparison from running (``detail``), and how to let it run (``fix``)."""

    def __init__(self, detail: str, fix: str) -> None:
        super().__init__(detail)
        self.detail, self.fix = detail, fix


def _cluster_crd(kubectl: str, run: Callable | None, env: EnvironmentConfig) -> dict:
    command = [kubectl, "get", "crd", CRD_NAME, "-o", "json"]
    by_hand = " ".join(command)
    fix = (
        f"aws eks update-kubeconfig --name {env.cluster_name} --region {env.region}, then run `{by_hand}` by hand "
        "and preflight again"
    )
    try:
        # In its own process group, killed whole at the cap: a hung exec credential plugin dies with kubectl.
        result = run_tool(command, cap=KUBECTL_TIMEOUT_S, run=run)
    except ToolTimedOut:
        raise Unchecked(
            f"kubectl did not answer within {KUBECTL_TIMEOUT_S} s (it was stopped)", fix
        ) from None
    except OpsError as error:
        raise Unchecked(error.message, error.fix or fix) from None
    if result.returncode != 0:
        lines = (result.stderr or "").strip().splitlines()
        raise Unchecked(
            f"kubectl failed: {lines[-1] if lines else f'exit {result.returncode}'}", fix
        )
    try:
        crd = json.loads(result.stdout)
    except ValueError:
        raise Unchecked("kubectl printed something that is not JSON", fix) from None
    if not isinstance(crd, dict) or crd.get("kind") != "CustomResourceDefinition":
        raise Unchecked("kubectl's answer is not a CustomResourceDefinition", fix)
    return crd


def operator_checks(
    aws: Aws, env: EnvironmentConfig, *, kubectl: str, run: Callable | None, manifest: Path
) -> list[Check]:
    """The two rows: the operator on the cluster, and its CRD against the rendered endpoint."""
    addon = _describe_operator_addon(aws, env)
    pinned = operator_version_detail(INFERENCE_OPERATOR.version)
    if addon is None:
        return [
            Check(
                "inference operator",
                Status.PASS,
                f"not installed on {env.cluster_name} yet; the pin {pinned}",
            ),
            Check(
                "operator CRD",
                Status.PASS,
                "compared with the endpoint once the operator stack has installed the "
                "add-on (run preflight again before the endpoint stack)",
            ),
        ]
    installed = addon.get("addonVersion", "?")
    rows = []
    if installed != INFERENCE_OPERATOR.version:
        rows.append(
            Check(
                "inference operator",
                Status.WARN,
                f"{env.cluster_name} runs {operator_version_detail(installed)}; the pin {pinned}",
                "deploy the operator stack to install the pinned build, or check the CRD row",
            )
        )
    else:
        rows.append(Check("inference operator", Status.PASS, f"{env.cluster_name} runs {pinned}"))
    try:
        endpoint = rendered_endpoint(manifest, env)
        crd = _cluster_crd(kubectl, run, env)
    except Unchecked as unchecked:
        return [
            *rows,
            Check(
                "operator CRD",
                Status.FAIL,
                f"cannot compare the endpoint with the cluster's CRD: {unchecked.detail}",
                unchecked.fix,
            ),
        ]
    problems = schema_problems(endpoint, crd)
    if problems:
        return [
            *rows,
            Check(
                "operator CRD",
                Status.FAIL,
                f"the cluster's {CRD_NAME} ({SERVED_VERSION}) lacks or refuses what the endpoint uses: "
                + "; ".join(problems),
                f"install the add-on build whose operator has these fields ({INFERENCE_OPERATOR.name} "
                f"{INFERENCE_OPERATOR.version}: deploy the operator stack), or change the endpoint "
                "(charts/inference_endpoint_chart.py) to what this operator serves; do not deploy the "
                "endpoint stack before this row passes",
            ),
        ]
    fields = len(field_paths(endpoint))
    return [
        *rows,
        Check(
            "operator CRD",
            Status.PASS,
            f"every one of the endpoint's {fields} field paths and its values "
            f"fit the cluster's {CRD_NAME} ({SERVED_VERSION})",
        ),
    ]


def field_paths(endpoint: dict) -> list[str]:
    """Every field path of the endpoint's spec (for the count in the passing row)."""
    paths: set[str] = set()

    def walk(value: object, path: str) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                paths.add(f"{path}.{key}")
                walk(item, f"{path}.{key}")
        elif isinstance(value, list):
            for item in value:
                walk(item, f"{path}[]")

    walk(endpoint.get("spec", {}), "spec")
    return sorted(paths)
