"""``llmops rollout``: what the next deploy of the serving stack costs the endpoint, said before it is applied.

**What changes.** The serving stack applies the chart's objects with ``kubectl apply`` (client-side: aws-cdk-lib
2.275.0 custom-resource-handlers/dist/aws-eks-v2/kubectl-handler/apply/__init__.py runs ``kubectl apply -f`` on create
with ``overwrite`` and on update), and ``kubectl apply`` keeps what it applied in the object's
``kubectl.kubernetes.io/last-applied-configuration`` annotation (Kubernetes documentation, "Declarative Management of
Kubernetes Objects Using Configuration Files",
https://kubernetes.io/docs/tasks/manage-kubernetes-objects/declarative-config/). The pod template of that annotation
is compared with the template of the chart as ``cdk synth`` rendered it (cdk.out/kubernetes/ENV/vllm-serving.yaml,
the objects the serving stack applies: stacks/composition.py). A Deployment replaces its pods when ``spec.template``
changes (Kubernetes documentation, "Deployments": "A Deployment's rollout is triggered if and only if the Deployment's
Pod template (that is, .spec.template) is changed"); a LeaderWorkerSet its groups when ``spec.leaderWorkerTemplate``
does (its CRD: "rolloutStrategy defines the strategy that will be applied to update replicas when a revision is made
to the leaderWorkerTemplate", kubernetes-sigs/lws v0.10.0, tests/data/lws/). A new image, revision, recipe setting or
``extra_args`` all land in the template (charts/serving_spec.py); a change of the replica count does not.

**What it costs.** deployment_config/rollout.py: a surge onto a free slot (every replica keeps serving), or one
replica stopped first, for up to the startup budget each (with one replica: an outage). The costly cases need
``--yes``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from deployment_config.kubernetes_names import (
    SERVING_MANIFEST_FILE,
    SERVING_NAME,
    SERVING_NAMESPACE,
)
from deployment_config.model import EnvironmentConfig
from deployment_config.rollout import RolloutPlan, minutes, rollout_plan
from endpoint_probe.deadline import Deadline
from ops_cli.errors import ExitCode, OpsError
from ops_cli.rollout_staging import Staging, weights_line
from ops_cli.tools import run_tool, tool_failure, tool_json

LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"
#: The serving workload's kinds: (kubectl's resource name, the field of its spec whose change replaces the pods).
WORKLOADS = {
    "Deployment": ("deployments.apps", "template"),
    "LeaderWorkerSet": ("leaderworkersets.leaderworkerset.x-k8s.io", "leaderWorkerTemplate"),
}
#: The differences a human reading is shown; --json lists all of them.
SHOWN_DIFFERENCES = 6


def rendered_manifest_path(env: EnvironmentConfig, project_dir: Path) -> Path:
    """Where ``cdk synth -c env=NAME`` writes the serving chart's objects (app.py, charts/manifest_files.py)."""
    return project_dir / "cdk.out" / "kubernetes" / env.name / SERVING_MANIFEST_FILE


def rendered_workload(path: Path, env: EnvironmentConfig) -> dict:
    """The serving workload (the Deployment or LeaderWorkerSet named vllm) of the rendered file; exit 2 when there is
    none to compare: no file, one older than the environment file, not YAML, not exactly one workload."""
    import yaml

    fix = f"npx cdk synth -c env={env.name} (it writes {path}), then run llmops rollout again"
    if not path.is_file():
        raise OpsError(f"no rendered serving chart at {path}", fix, ExitCode.USAGE)
    source = Path(env.source) if env.source else None
    if source and source.is_file() and path.stat().st_mtime < source.stat().st_mtime:
        raise OpsError(
            f"{path} is older than {source}: it is not what a deploy would apply now",
            fix,
            ExitCode.USAGE,
        )
    try:
        # libyaml when there: 3 ms of CPU for the example's chart (13 KB), PyYAML's own parser 30 ms
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        objects = list(yaml.load_all(path.read_text(encoding="utf-8"), Loader=loader))  # noqa: S506 (safe)
    except (yaml.YAMLError, UnicodeDecodeError) as error:
        raise OpsError(
            f"{path} is not YAML ({str(error).splitlines()[0]})", fix, ExitCode.USAGE
        ) from None
    found = [
        o
        for o in objects
        if isinstance(o, dict)
        and o.get("kind") in WORKLOADS
        and isinstance(o.get("metadata"), dict)
        and o["metadata"].get("name") == SERVING_NAME
    ]
    if len(found) != 1:
        raise OpsError(
            f"{path} holds {len(found)} serving workloads named {SERVING_NAME} (a Deployment or a "
            "LeaderWorkerSet), not one",
            fix,
            ExitCode.USAGE,
        )
    return found[0]


def deployed_workload(
    kubectl: str, kind: str, *, run: Callable | None = None, deadline: Deadline | None = None
) -> dict | None:
    """The serving workload of ``kind`` in the cluster, as kubectl prints it; None when there is none yet (nor, for a
    LeaderWorkerSet, its CRD: the serving stack installs the controller with the first multi-node deploy)."""
    resource, _ = WORKLOADS[kind]
    command = [kubectl, "get", resource, SERVING_NAME, "-n", SERVING_NAMESPACE, "-o", "json"]
    result = run_tool([*command, "--ignore-not-found"], deadline=deadline, cap=60, run=run)
    if result.returncode != 0:
        if "doesn't have a resource type" in (result.stderr or ""):
            return None
        raise tool_failure(result)
    if not (result.stdout or "").strip():
        return None
    return tool_json(result)


def applied_template(live: dict, kind: str) -> dict | None:
    """The pod template ``kubectl apply`` last applied to ``live`` (its annotation); None when it has none to read."""
    annotations = (live.get("metadata") or {}).get("annotations") or {}
    text = annotations.get(LAST_APPLIED) if isinstance(annotations, dict) else None
    try:
        applied = json.loads(text) if isinstance(text, str) else None
    except ValueError:
        return None
    spec = applied.get("spec") if isinstance(applied, dict) else None
    template = spec.get(WORKLOADS[kind][1]) if isinstance(spec, dict) else None
    return template if isinstance(template, dict) else None


def differences(old: object, new: object, path: str = "") -> list[str]:
    """Where ``new`` differs from ``old``: dotted paths, list items by their ``name`` where they have one
    (containers, environment variables, volumes), else by index."""
    if isinstance(old, dict) and isinstance(new, dict):
        found: list[str] = []
        for key in sorted(set(old) | set(new), key=str):
            found += differences(old.get(key), new.get(key), f"{path}.{key}" if path else str(key))
        return found
    if isinstance(old, list) and isinstance(new, list):
        old_named, new_named = _by_name(old), _by_name(new)
        if old_named is not None and new_named is not None:
            if [n for n in old_named if n in new_named] != [n for n in new_named if n in old_named]:
                return [f"{path} (order)"]
            found = []
            for name in [*old_named, *(n for n in new_named if n not in old_named)]:
                found += differences(old_named.get(name), new_named.get(name), f"{path}[{name}]")
            return found
        if len(old) != len(new):
            return [path]
        found = []
        for index, (a, b) in enumerate(zip(old, new)):
            found += differences(a, b, f"{path}[{index}]")
        return found
    return [] if old == new else [path]


def _by_name(items: list) -> dict | None:
    names = [i.get("name") if isinstance(i, dict) else None for i in items]
    if not names or not all(isinstance(n, str) for n in names) or len(set(names)) != len(names):
        return None
    return dict(zip(names, items))


@dataclass(frozen=True)
class RolloutCheck:
    """What the next deploy does to the serving replicas of one environment.

    :param kind: the serving workload's kind (Deployment or LeaderWorkerSet).
    :param deployed: whether the cluster has it already.
    :param changes: where the rendered pod template differs from the one applied; None when the applied one cannot be
        read (counted as a change).
    :param plan: how a change is rolled out (deployment_config/rollout.py).
    :param yes: ``--yes`` was given.
    :param weights: whether the new replicas load a staged copy (ops_cli/rollout_staging.py); None when no staging
        applies.
    """

    env_name: str
    kind: str
    deployed: bool
    changes: tuple[str, ...] | None
    plan: RolloutPlan
    yes: bool
    weights: str | None = None

    @property
    def rolls(self) -> bool:
        return self.deployed and (self.changes is None or bool(self.changes))

    @property
    def verdict(self) -> str:
        if not self.deployed:
            return "not deployed"
        if not self.rolls:
            return "unchanged"
        if self.plan.surges:
            return "surge"
        return "outage" if self.plan.serving_during_rollout == 0 else "degraded"

    @property
    def needs_confirmation(self) -> bool:
        return self.verdict in ("outage", "degraded")

    @property
    def exit_code(self) -> ExitCode:
        return (
            ExitCode.CONFIRMATION_REQUIRED
            if self.needs_confirmation and not self.yes
            else ExitCode.OK
        )

    @property
    def summary(self) -> str:
        """The verdict in one sentence."""
        plan = self.plan
        if self.verdict == "not deployed":
            return (
                f"no {self.kind} {SERVING_NAME} in {SERVING_NAMESPACE} yet: the deploy starts the replicas, nothing "
                "serves to interrupt"
            )
        if self.verdict == "unchanged":
            return "the pod template is the one applied: the deploy replaces no serving pod"
        staged = f"{self.weights}; " if self.weights else ""
        return f"the deploy replaces the serving pods; {staged}{plan.describe()}"

    def to_dict(self) -> dict:
        plan = self.plan
        return {
            "env": self.env_name,
            "workload": {"kind": self.kind, "name": SERVING_NAME, "namespace": SERVING_NAMESPACE},
            "deployed": self.deployed,
            "rolls": self.rolls,
            "changes": list(self.changes) if self.changes is not None else None,
            "verdict": self.verdict,
            "summary": self.summary,
            "strategy": {"max_surge": plan.max_surge, "max_unavailable": plan.max_unavailable},
            "replicas": plan.replicas,
            "standby_replicas": plan.standby_replicas,
            "slots": plan.slots,
            "spare_slots": plan.spare_slots,
            "serving_during_rollout": plan.serving_during_rollout,
            "startup_budget_seconds": plan.startup_budget_seconds,
            "stop_seconds": plan.stop_seconds,
            "replacement_seconds": plan.replacement_seconds,
            "longest_seconds": plan.longest_seconds,
            "confirmation_required": self.needs_confirmation,
            "confirmed": self.yes and self.needs_confirmation,
            "weights": self.weights,
        }

    def human(self) -> list[str]:
        plan = self.plan
        lines = [
            f"serving workload  {self.kind} {SERVING_NAMESPACE}/{SERVING_NAME}",
            f"replicas          {plan.replicas} serving, {plan.standby_replicas} standby; the block holds "
            f"{plan.slots} ({plan.nodes_per_replica} node(s) each), {plan.spare_slots} free",
            f"strategy          maxSurge {plan.max_surge}, maxUnavailable {plan.max_unavailable}",
        ]
        if self.changes is None and self.deployed:
            lines.append(
                f"changes           unknown: the {self.kind} has no readable {LAST_APPLIED} (not applied by the "
                "serving stack?), counted as a change"
            )
        elif self.changes:
            more = len(self.changes) - SHOWN_DIFFERENCES
            shown = ", ".join(self.changes[:SHOWN_DIFFERENCES]) + (
                f" ({more} more, --json lists them)" if more > 0 else ""
            )
            lines.append(f"changes           {shown}")
        lines.append(self.summary)
        if self.needs_confirmation and self.yes:
            lines.append("accepted with --yes: deploy now")
        return lines

    def refusal(self) -> OpsError:
        """What the command ends with when the cost needs --yes and it was not given."""
        cost = (
            "an outage"
            if self.verdict == "outage"
            else f"{self.plan.serving_during_rollout} of {self.plan.replicas} replicas serving"
        )
        room = (
            "a block with one replica's nodes more (capacity.instance_count) would let the rollout surge"
            if self.plan.slots == 1
            else "or free a slot first (endpoint.replicas below the block's "
            f"{self.plan.slots}) so that the rollout surges"
        )
        return OpsError(
            f"not confirmed: a deploy now means {cost} for up to {minutes(self.plan.replacement_seconds)} per "
            f"replica (its stop, then the startup budget of {minutes(self.plan.startup_budget_seconds)})",
            f"run llmops rollout --env {self.env_name} --yes to accept it, then deploy; {room}",
            ExitCode.CONFIRMATION_REQUIRED,
        )


def check_rollout(
    env: EnvironmentConfig,
    rendered: dict,
    live: dict | None,
    *,
    yes: bool,
    staging: Staging | None = None,
) -> RolloutCheck:
    """What deploying ``rendered`` onto ``live`` (None: nothing deployed) does to ``env``'s serving replicas, with
    ``staging`` the cluster's pre-staged revision (ops_cli/rollout_staging.py)."""
    kind = rendered["kind"]
    field = WORKLOADS[kind][1]
    changes: tuple[str, ...] | None = ()
    if live is not None:
        applied = applied_template(live, kind)
        new = (rendered.get("spec") or {}).get(field)
        changes = None if applied is None else tuple(differences(applied, new, field))
    return RolloutCheck(
        env_name=env.name,
        kind=kind,
        deployed=live is not None,
        changes=changes,
        plan=rollout_plan(env),
        yes=yes,
        weights=weights_line(env, staging),
    )
