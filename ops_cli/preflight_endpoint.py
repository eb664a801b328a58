"""The HyperPod preflight rows that need no AWS call and no cluster, so they run before the credentials row and without
credentials: the rendered endpoint against the CRD of the pinned operator, vendored in the checkout, and what that CRD
cannot give the worker (a /dev/shm of its own).

The endpoint stack applies cdk.out/kubernetes/ENV/PRESET.yaml (ops_cli/operator_crd.py ``rendered_manifest_path``).
The API server refuses a value outside the CRD's enums, patterns or types and drops a field its structural schema does
not have (https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/
#field-pruning), an hour into the deploy. The CRD the pinned add-on build installs (operator 3.1) is vendored in
charts/imports/crds/ (its SOURCE.md says from where); the "operator CRD" row compares the same endpoint with the CRD the
cluster serves once the operator runs. An installed llmops without the checkout has no charts/: no row then.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from deployment_config.addons import INFERENCE_OPERATOR
from deployment_config.kubernetes_names import INFERENCE_ENDPOINT_NAMESPACE, inference_endpoint_name
from deployment_config.model import EnvironmentConfig
from deployment_config.operator_releases import CRD_PATH, PINNED_OPERATOR
from deployment_config.sizing import SHM_SIZE_GIB
from ops_cli.operator_crd import (
    CRD_NAME,
    Unchecked,
    field_paths,
    rendered_endpoint,
    schema_problems,
)
from ops_cli.preflight_check import Check, Status

NAME = "rendered endpoint"
SHM_NAME = "worker /dev/shm"
#: The vendored CRD: the file of CRD_PATH, copied unchanged (charts/imports/crds/SOURCE.md).
VENDORED_CRD = (
    Path(__file__).resolve().parents[1]
    / "charts"
    / "imports"
    / "crds"
    / CRD_PATH.rsplit("/", 1)[-1]
)


@cache
def _vendored_crd(path: Path) -> dict:
    import yaml  # only here: keeps `llmops --help` fast

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when there: the CRD is 160 KB
    return yaml.load(path.read_text(encoding="utf-8"), Loader=loader)


def rendered_endpoint_check(
    env: EnvironmentConfig, manifest: Path, crd: Path = VENDORED_CRD
) -> Check | None:
    """The row, or None without the vendored CRD. Before ``cdk synth`` there is nothing to compare: said, not failed
    (preflight runs before the first deploy); a file older than the environment file warns."""
    if not crd.is_file():
        return None
    operator = (
        f"the CRD of operator {PINNED_OPERATOR.operator_version}, which the pinned add-on build "
        f"{INFERENCE_OPERATOR.version} installs ({CRD_NAME}, vendored in charts/imports/crds/)"
    )
    synth = f"npx cdk synth -c env={env.name}"
    if not manifest.is_file():
        # Not checked is not passed: a HyperPod environment is rendered only by a synthesis of it
        return Check(
            NAME,
            Status.WARN,
            f"not checked: {manifest} is not rendered yet; it is compared with {operator}",
            f"{synth}, then run preflight again",
        )
    source = Path(env.source)
    if source.is_file() and manifest.stat().st_mtime < source.stat().st_mtime:
        return Check(
            NAME,
            Status.WARN,
            f"{manifest} is older than {source}: it may not be what the endpoint stack "
            f"applies; not compared with {operator}",
            f"{synth}, then run preflight again",
        )
    try:
        endpoint = rendered_endpoint(manifest, env)
    except Unchecked as unchecked:  # not YAML, or not one endpoint in it
        return Check(
            NAME, Status.FAIL, f"not compared with {operator}: {unchecked.detail}", unchecked.fix
        )
    problems = schema_problems(endpoint, _vendored_crd(crd))
    if problems:
        return Check(
            NAME,
            Status.FAIL,
            f"{manifest} uses what {operator} lacks or refuses: " + "; ".join(problems),
            "the API server would refuse or drop it when the endpoint stack applies it: change what the "
            "configuration or charts/inference_endpoint_chart.py sets, then " + synth,
        )
    return Check(
        NAME,
        Status.PASS,
        f"every one of the {len(field_paths(endpoint))} field paths of {manifest} and its "
        f"values fit {operator}",
    )


def worker_shm_check(env: EnvironmentConfig) -> Check:
    """The known limit of the pinned operator's worker: no /dev/shm of its own. The vendored CRD's ``spec.worker`` has no
    ``volumeMounts``, and ``spec.kubernetes.volumes`` "can be referenced by init containers via volumeMounts" only
    (charts/imports/crds/; tests/stacks/test_hyperpod.py fails when a vendored CRD gains worker mounts). No public source
    says whether the operator mounts one itself, so the row warns and says how to look once the worker runs."""
    name = inference_endpoint_name(env)
    pods = f"kubectl -n {INFERENCE_ENDPOINT_NAMESPACE} get pods -l app={name} -o name"
    return Check(
        SHM_NAME,
        Status.WARN,
        f"the worker cannot be given the {SHM_SIZE_GIB} GiB memory-backed /dev/shm the EKS path mounts for NCCL at "
        f"tensor-parallel size {env.model.tensor_parallel_size}: the CRD of operator {PINNED_OPERATOR.operator_version} "
        "has no spec.worker.volumeMounts (its spec.kubernetes.volumes serve init containers only), so it gets the "
        "container runtime's (64 MiB by default) unless the operator adds one (docs/known-limits.md)",
        f"once the worker runs: kubectl -n {INFERENCE_ENDPOINT_NAMESPACE} exec $({pods} | head -1) -- df -h /dev/shm; "
        "if vLLM fails in NCCL with a shared-memory error, serve on platform: eks",
    )
