"""Preflight: everything that can be checked about an environment before `cdk deploy`, one row per check. The run and
its verdict are here; the rows come from the preflight_* modules (capacity, instance type, certificate, local checks,
weights mirror) and the add-on and operator modules."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from deployment_config.environment_addons import addons_for
from deployment_config.model import EnvironmentConfig, Platform
from endpoint_probe.redaction import redact_secrets
from ops_cli.addon_checks import addon_check as _addon
from ops_cli.aws import Aws
from ops_cli.errors import ExitCode, OpsError
from ops_cli.operator_crd import operator_checks, rendered_manifest_path
from ops_cli.preflight_bridge import bridge_check
from ops_cli.preflight_capacity import (
    gpu_node_group_updates_check,
    reservation_checks,
    training_plan_checks,
)
from ops_cli.preflight_certificate import certificate_check
from ops_cli.preflight_check import Check, Status
from ops_cli.preflight_efa import efa_checks
from ops_cli.preflight_instance_type import instance_type_facts_check, instance_type_offered_check
from ops_cli.preflight_local import aws_checks, local_checks
from ops_cli.preflight_mirror import weights_mirror_check
from ops_cli.preflight_next_block import next_block_check

BOOTSTRAP_STACK = "CDKToolkit"
#: Re-exported: the rows' type (ops_cli/preflight_check.py) and the add-on row (ops_cli/addon_checks.py).
__all__ = ["Check", "Preflight", "Status", "run_preflight", "_addon"]


@dataclass(frozen=True)
class Preflight:
    """The rows of one run, and why the run stopped early, if it did.

    :param stopped: the credentials error that kept every row after "credentials" from running (no credentials, or
        expired ones): the rows that need no AWS call are shown all the same, and the command exits with that error's
        code (4, ExitCode.CREDENTIALS), as it did before those rows were shown, so that a script can tell "not checked"
        from "a check failed" (1).
    """

    checks: list[Check]
    stopped: OpsError | None = None

    @property
    def passed(self) -> bool:
        return self.stopped is None and not any(c.status is Status.FAIL for c in self.checks)

    @property
    def exit_code(self) -> ExitCode:
        if self.stopped is not None:
            return self.stopped.exit_code
        return ExitCode.OK if self.passed else ExitCode.CHECK_FAILED

    @property
    def verdict(self) -> str:
        """The line under the table."""
        if self.stopped is not None:
            local = self.checks[:-1]
            failed = (
                " (fix the rows marked FAIL)" if any(c.status is Status.FAIL for c in local) else ""
            )
            return (
                f"Preflight INCOMPLETE: {len(local)} checks ran without AWS{failed}; the others need credentials "
                "(the credentials row says how to provide them)."
            )
        return (
            "Preflight passed."
            if self.passed
            else "Preflight FAILED: fix the rows marked FAIL before cdk deploy."
        )

    def to_dict(self) -> dict:
        """The --json answer: every row; when stopped, the error's fields too (as any failed command's --json has)."""
        stopped = self.stopped.to_dict() if self.stopped is not None else {}
        return {"passed": self.passed, "checks": [c.to_dict() for c in self.checks], **stopped}


def run_preflight(
    aws: Aws,
    env: EnvironmentConfig,
    now: datetime | None = None,
    *,
    kubectl: str = "kubectl",
    run_command=None,
    manifest: Path | None = None,
    clock=None,
    sleep=None,
) -> Preflight:
    """Run every check. The rows that need no AWS call come first (ops_cli/preflight_local.py); without credentials
    the run stops at the credentials row, which says what did not run and how to provide them. Any other check that
    cannot run ends the run with an OpsError.

    :param kubectl, run_command: the kubectl (and the subprocess.run stand-in) that reads the operator's CRD (HyperPod).
    :param manifest: the endpoint as ``cdk synth`` rendered it (default: cdk.out/kubernetes/ENV/PRESET.yaml beside the
        configuration directory).
    :param clock, sleep: the monotonic clock and the sleep of the EFA check Job's wait (multi-node environments,
        ops_cli/preflight_efa.py); tests pass fakes."""
    now = now or datetime.now(UTC)
    if env.platform is Platform.HYPERPOD:
        manifest = manifest or rendered_manifest_path(env, Path(env.source).resolve().parent.parent)
    checks = local_checks(env, manifest if env.platform is Platform.HYPERPOD else None)
    try:
        identity = _credentials(aws, env)
    except OpsError as error:
        if error.exit_code is not ExitCode.CREDENTIALS:
            raise
        # Shown as a row and in --json, not by main's error report: redacted here as that report would redact it (a
        # credential_process's message may quote what it printed).
        error.message, error.fix = redact_secrets(error.message), redact_secrets(error.fix)
        return Preflight([*checks, _no_credentials(env, error)], stopped=error)
    checks.append(identity)
    if identity.status is Status.FAIL:
        return Preflight(checks)  # every further call would go to the wrong account
    if env.platform is Platform.HYPERPOD:
        checks += training_plan_checks(aws, env, now)
    else:
        rows, reservation = reservation_checks(aws, env, now)
        checks += rows
        if reservation and reservation.get("State") == "active":
            checks.append(gpu_node_group_updates_check(aws, env))
        if env.capacity.next_capacity_reservation_id:
            checks.append(next_block_check(aws, env, now))
        if env.bridge is not None and reservation is not None:
            checks.append(bridge_check(env, reservation, now))
        checks.append(instance_type_offered_check(aws, env))
    checks.append(instance_type_facts_check(aws, env))
    # The pinned revision's S3 mirror, complete before the GPU nodes need it (ops_cli/preflight_mirror.py).
    mirrored = weights_mirror_check(aws, env)
    checks += [mirrored] if mirrored else []
    checks += [_addon(aws, env, pin, configuration) for pin, configuration in addons_for(env)]
    if env.platform is Platform.HYPERPOD:
        checks += operator_checks(aws, env, kubectl=kubectl, run=run_command, manifest=manifest)
    waits = {k: v for k, v in {"clock": clock, "sleep": sleep}.items() if v is not None}
    checks += efa_checks(env, kubectl=kubectl, run=run_command, now=now, **waits)
    if env.endpoint.tls:
        checks.append(certificate_check(aws, env, now))
    checks.append(_bootstrap(aws, env))
    return Preflight(checks)


def _no_credentials(env: EnvironmentConfig, error: OpsError) -> Check:
    """The row in place of the credentials check when the SDK found none, or AWS refused them as expired: what did
    not run (ops_cli/preflight_local.py ``aws_checks``, kept in the order above) and how to provide them."""
    return Check(
        "credentials",
        Status.FAIL,
        f"{error.message}; not checked without them: {', '.join(aws_checks(env))}",
        f"{error.fix}, for account {env.account} (--profile NAME picks a profile of the AWS config); then "
        f"run llmops preflight --env {env.name} again",
    )


def _credentials(aws: Aws, env: EnvironmentConfig) -> Check:
    identity = aws.call("sts", "get_caller_identity", "identify the caller")
    account, arn = identity["Account"], identity["Arn"]
    if account != env.account:
        return Check(
            "credentials",
            Status.FAIL,
            f"credentials are for account {account} ({arn}), the environment is {env.account}",
            f"use a profile or role of account {env.account} (AWS_PROFILE=...)",
        )
    return Check("credentials", Status.PASS, f"{arn} in {env.account}, region {aws.region}")


def _bootstrap(aws: Aws, env: EnvironmentConfig) -> Check:
    fix = f"npx cdk bootstrap aws://{env.account}/{env.region}"
    try:
        stacks = aws.call(
            "cloudformation",
            "describe_stacks",
            "look up the CDK bootstrap stack",
            StackName=BOOTSTRAP_STACK,
        )
    except OpsError as error:
        if (
            error.exit_code in (ExitCode.NOT_FOUND, ExitCode.AWS_ERROR)
            and "does not exist" in error.message
        ):
            return Check(
                "CDK bootstrap",
                Status.FAIL,
                f"no {BOOTSTRAP_STACK} stack in {env.account}/{env.region}",
                fix,
            )
        raise
    status = stacks["Stacks"][0]["StackStatus"]
    if not status.endswith("_COMPLETE") or "ROLLBACK" in status or "DELETE" in status:
        return Check("CDK bootstrap", Status.FAIL, f"{BOOTSTRAP_STACK} is {status}", fix)
    return Check("CDK bootstrap", Status.PASS, f"{BOOTSTRAP_STACK} is {status}")
