"""Preflight: everything that can be checked about an environment before `cdk deploy`, one row per check."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from deployment_config.addons import addons_for
from deployment_config.model import EnvironmentConfig, Platform
from endpoint_probe.redaction import redact_secrets
from ops_cli.addon_checks import addon_check as _addon
from ops_cli.aws import Aws
from ops_cli.capacity_blocks import describe_reservation
from ops_cli.errors import ExitCode, OpsError
from ops_cli.operator_crd import operator_checks, rendered_manifest_path
from ops_cli.output import utc_and_local
from ops_cli.preflight_check import Check, Status
from ops_cli.preflight_local import aws_checks, local_checks
from ops_cli.preflight_mirror import weights_mirror_check
from ops_cli.waiting import GPU_NODEGROUP

WARN_BEFORE_END = timedelta(days=1)
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
) -> Preflight:
    """Run every check. The rows that need no AWS call come first (ops_cli/preflight_local.py); without credentials
    the run stops at the credentials row, which says what did not run and how to provide them. Any other check that
    cannot run ends the run with an OpsError.

    :param kubectl, run_command: the kubectl (and the subprocess.run stand-in) that reads the operator's CRD (HyperPod).
    :param manifest: the endpoint as ``cdk synth`` rendered it (default: cdk.out/kubernetes/ENV/PRESET.yaml beside the
        configuration directory)."""
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
        checks += _training_plan(aws, env, now)
    else:
        reservation_checks, reservation = _reservation(aws, env, now)
        checks += reservation_checks
        if reservation and reservation.get("State") == "active":
            checks.append(_gpu_node_group_updates(aws, env))
        checks.append(_instance_type_offered(aws, env))
    checks.append(_instance_type_facts(aws, env))
    # The pinned revision's S3 mirror, complete before the GPU nodes need it (ops_cli/preflight_mirror.py).
    mirrored = weights_mirror_check(aws, env)
    checks += [mirrored] if mirrored else []
    checks += [_addon(aws, env, pin, configuration) for pin, configuration in addons_for(env)]
    if env.platform is Platform.HYPERPOD:
        checks += operator_checks(aws, env, kubectl=kubectl, run=run_command, manifest=manifest)
    if env.endpoint.tls:
        checks.append(_certificate(aws, env, now))
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


#: An ACM certificate that ends sooner than this is reported: ACM renews the certificates it issued itself, from 60
#: days before they end, once their DNS validation record is in place (ACM user guide, "Managed certificate renewal");
#: an imported one is never renewed.
CERTIFICATE_WARN_BEFORE_END = timedelta(days=30)


def covers(pattern: str, name: str) -> bool:
    """Does a certificate name (``llm.example.com``, or ``*.example.com``: one leftmost label, RFC 6125 6.4.3) cover
    ``name``? Compared without case."""
    pattern, name = pattern.lower().rstrip("."), name.lower().rstrip(".")
    if pattern.startswith("*."):
        head, _, rest = name.partition(".")
        return bool(head) and rest == pattern[2:]
    return pattern == name


def _certificate(aws: Aws, env: EnvironmentConfig, now: datetime) -> Check:
    """The load balancer's certificate (endpoint.certificate_arn): issued, covering endpoint.domain_name, not ending
    soon. The cloud provider creates the TLS listener only once the Service exists, so a bad certificate would
    otherwise show up as a Service event an hour into the deploy."""
    name, arn, domain = "TLS certificate", env.endpoint.certificate_arn, env.endpoint.domain_name
    certificate = aws.call(
        "acm", "describe_certificate", f"describe certificate {arn}", CertificateArn=arn
    )["Certificate"]
    status = certificate.get("Status")
    if status != "ISSUED":
        return Check(
            name,
            Status.FAIL,
            f"{arn} is {status}, not ISSUED",
            "complete its validation (for DNS validation: the CNAME record ACM asks for), or use an issued "
            "certificate: aws acm list-certificates --certificate-statuses ISSUED",
        )
    names = [certificate.get("DomainName", ""), *certificate.get("SubjectAlternativeNames", [])]
    if not any(covers(pattern, domain) for pattern in names if pattern):
        return Check(
            name,
            Status.FAIL,
            f"{arn} covers {', '.join(dict.fromkeys(n for n in names if n))}, not {domain}",
            "set endpoint.domain_name to a name the certificate covers, or request one for it: "
            f"aws acm request-certificate --domain-name {domain} --validation-method DNS",
        )
    not_after = certificate.get("NotAfter")
    if not_after is not None and not_after - now < CERTIFICATE_WARN_BEFORE_END:
        renewal = (
            "ACM renews it once its validation record is in place"
            if certificate.get("Type") == "AMAZON_ISSUED"
            else "ACM does not renew an imported certificate"
        )
        return Check(
            name,
            Status.WARN,
            f"{arn} covers {domain} but ends {utc_and_local(not_after)}; {renewal}",
            "renew or replace it before it ends: clients would refuse the endpoint",
        )
    return Check(name, Status.PASS, f"{arn} is issued and covers {domain}")


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


def _reservation(
    aws: Aws, env: EnvironmentConfig, now: datetime
) -> tuple[list[Check], dict | None]:
    """The reservation's rows, and the reservation itself (None when it does not exist)."""
    capacity = env.capacity
    try:
        reservation = describe_reservation(aws, capacity.capacity_reservation_id)
    except OpsError as error:
        if error.exit_code is not ExitCode.NOT_FOUND:
            raise
        return [
            Check(
                "reservation exists",
                Status.FAIL,
                f"{capacity.capacity_reservation_id} not found in {env.region}",
                "buy a Capacity Block (llmops capacity-blocks purchase) or fix capacity.capacity_reservation_id",
            )
        ], None
    checks = [
        Check(
            "reservation exists",
            Status.PASS,
            f"{capacity.capacity_reservation_id} ({reservation.get('ReservationType', 'default')})",
        )
    ]

    expected = (capacity.instance_type, capacity.instance_count)
    actual = (reservation.get("InstanceType"), reservation.get("TotalInstanceCount"))
    if actual != expected:
        checks.append(
            Check(
                "instance type and count",
                Status.FAIL,
                f"reservation holds {actual[1]} x {actual[0]}, configuration asks for {expected[1]} x {expected[0]}",
                "set capacity.instance_type and capacity.instance_count to the reservation's",
            )
        )
    else:
        checks.append(Check("instance type and count", Status.PASS, f"{actual[1]} x {actual[0]}"))

    zone = reservation.get("AvailabilityZone")
    if zone != capacity.availability_zone:
        checks.append(
            Check(
                "availability zone",
                Status.FAIL,
                f"reservation is in {zone}, the GPU subnet would be in {capacity.availability_zone}",
                f"set capacity.availability_zone to {zone} (and list it in availability_zones)",
            )
        )
    else:
        checks.append(Check("availability zone", Status.PASS, f"{zone} matches the GPU subnet"))

    checks.append(_window(reservation, now))
    return checks, reservation


def _window(reservation: dict, now: datetime) -> Check:
    state = reservation.get("State", "unknown")
    start, end = reservation.get("StartDate"), reservation.get("EndDate")
    window = f"{utc_and_local(start)} to {utc_and_local(end)}"
    if state in {"expired", "cancelled", "failed", "unsupported"} or (end and end <= now):
        return Check(
            "state and time window",
            Status.FAIL,
            f"reservation is {state} ({window})",
            "buy a new Capacity Block and put its id in the configuration",
        )
    if end and end - now <= WARN_BEFORE_END:
        return Check(
            "state and time window",
            Status.WARN,
            f"reservation is {state} and ends {utc_and_local(end)}, "
            "within a day; EKS scales the node group to 0 forty minutes before the end",
            "extend the block or plan the work to finish before it ends",
        )
    if state != "active":
        return Check(
            "state and time window",
            Status.WARN,
            f"reservation is {state}; it starts {utc_and_local(start)}",
            "deploy the GPU nodes once it is active: "
            f"bin/llmops wait reservation {reservation['CapacityReservationId']}",
        )
    return Check("state and time window", Status.PASS, f"active until {utc_and_local(end)}")


def _training_plan(aws: Aws, env: EnvironmentConfig, now: datetime) -> list[Check]:
    hyperpod = env.hyperpod
    name = hyperpod.training_plan_arn.rsplit("/", 1)[-1]
    try:
        plan = aws.call(
            "sagemaker",
            "describe_training_plan",
            f"describe training plan {name}",
            TrainingPlanName=name,
        )
    except OpsError as error:
        if error.exit_code is not ExitCode.NOT_FOUND:
            raise
        return [
            Check(
                "training plan exists",
                Status.FAIL,
                f"{name} not found in {env.region}",
                "create one (bin/llmops training-plans create) or fix hyperpod.training_plan_arn",
            )
        ]
    checks = [Check("training plan exists", Status.PASS, f"{name} ({plan.get('Status')})")]
    summaries = plan.get("ReservedCapacitySummaries", [])
    types = sorted({s.get("InstanceType") for s in summaries if s.get("InstanceType")})
    count = plan.get("TotalInstanceCount") or sum(s.get("TotalInstanceCount", 0) for s in summaries)
    if types != [hyperpod.instance_type] or count < hyperpod.instance_count:
        checks.append(
            Check(
                "instance type and count",
                Status.FAIL,
                f"plan holds {count} x {', '.join(types) or 'nothing yet'}, configuration asks for "
                f"{hyperpod.instance_count} x {hyperpod.instance_type}",
                "set hyperpod.instance_type and hyperpod.instance_count to the plan's, or use another plan",
            )
        )
    else:
        checks.append(Check("instance type and count", Status.PASS, f"{count} x {types[0]}"))
    zones = sorted({s.get("AvailabilityZone") for s in summaries if s.get("AvailabilityZone")})
    if zones != [hyperpod.availability_zone]:
        checks.append(
            Check(
                "availability zone",
                Status.FAIL,
                f"plan capacity is in {', '.join(zones) or 'no zone yet'}, the instance group would be in "
                f"{hyperpod.availability_zone}",
                "set hyperpod.availability_zone to the plan's zone",
            )
        )
    else:
        checks.append(
            Check(
                "availability zone", Status.PASS, f"{zones[0]} matches the instance group's subnet"
            )
        )
    status = plan.get("Status", "unknown")
    start, end = plan.get("StartTime"), plan.get("EndTime")
    if status in {"Expired", "Failed"} or (end and end <= now):
        detail = plan.get("StatusMessage") or "no detail"
        checks.append(
            Check(
                "state and time window",
                Status.FAIL,
                f"plan is {status} ({detail})",
                "create a new training plan",
            )
        )
    elif end and end - now <= WARN_BEFORE_END:
        checks.append(
            Check(
                "state and time window",
                Status.WARN,
                f"plan ends {utc_and_local(end)}, within a day",
                "plan the work to finish before it ends",
            )
        )
    elif status != "Active":
        checks.append(
            Check(
                "state and time window",
                Status.WARN,
                f"plan is {status}; it starts {utc_and_local(start)}",
                "the HyperPod instance group gets its instances once the plan is active",
            )
        )
    else:
        checks.append(
            Check("state and time window", Status.PASS, f"active until {utc_and_local(end)}")
        )
    return checks


def _instance_type_offered(aws: Aws, env: EnvironmentConfig) -> Check:
    name, zone = env.capacity.instance_type, env.capacity.availability_zone
    offered = aws.pages(
        "ec2",
        "describe_instance_type_offerings",
        "list instance type offerings",
        "InstanceTypeOfferings",
        LocationType="availability-zone",
        Filters=[
            {"Name": "instance-type", "Values": [name]},
            {"Name": "location", "Values": [zone]},
        ],
    )
    if not offered:
        return Check(
            "instance type offered",
            Status.FAIL,
            f"{name} is not offered in {zone}",
            "choose a zone where it is (aws ec2 describe-instance-type-offerings --location-type availability-zone)",
        )
    return Check("instance type offered", Status.PASS, f"{name} in {zone}")


def _gpu_node_group_updates(aws: Aws, env: EnvironmentConfig) -> Check:
    """While the Capacity Block is active, EKS updates the node group on it only at desired size 0: a deploy that
    changes the GPU node stack then fails, and rolls back.

    Source: the project's shared facts (shared/reference/aws-facts.md, "Upgrading a node group on a Capacity Block
    requires desired size 0", from the EKS user guide on Capacity Blocks for managed node groups); the page itself was
    not among the stored documents here, so this row warns rather than fails."""
    name = "GPU node group updates"
    try:
        group = aws.call(
            "eks",
            "describe_nodegroup",
            "describe the GPU node group",
            clusterName=env.cluster_name,
            nodegroupName=GPU_NODEGROUP,
        )["nodegroup"]
    except OpsError as error:
        if error.exit_code is not ExitCode.NOT_FOUND:
            raise
        return Check(name, Status.PASS, f"no GPU node group yet in {env.cluster_name}")
    desired = group.get("scalingConfig", {}).get("desiredSize", 0)
    if desired > 0:
        gpu_nodes, serving = env.stack_name("gpu-nodes"), env.stack_name("serving")
        return Check(
            name,
            Status.WARN,
            f"{GPU_NODEGROUP} runs {desired} node(s); a managed node group on a Capacity Block can only be "
            f"updated at desired size 0: a change to the {gpu_nodes} stack (launch template, AMI, labels, "
            "taints, size) during the block fails; deploy serving changes alone",
            f"npx cdk deploy {serving} --exclusively -c env={env.name}; to change the GPU nodes, scale to 0 "
            f"first: aws eks update-nodegroup-config --cluster-name "
            f"{env.cluster_name} --nodegroup-name {GPU_NODEGROUP} --scaling-config desiredSize=0 "
            f"--region {env.region}",
        )
    return Check(
        name,
        Status.PASS,
        f"{GPU_NODEGROUP} is at desired size 0; the {env.stack_name('gpu-nodes')} stack "
        "can be updated",
    )


def _card_ranges(cards: set[int] | tuple[int, ...]) -> str:
    """``{0, 1, 2, 5}`` as ``0-2, 5``."""
    ordered, parts = sorted(cards), []
    for card in ordered:
        if parts and card == parts[-1][1] + 1:
            parts[-1][1] = card
        else:
            parts.append([card, card])
    return ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in parts) or "none"


def _instance_type_facts(aws: Aws, env: EnvironmentConfig) -> Check:
    """What EC2 says about the GPU instance type against what the catalog (and so the launch template) assumes."""
    name_ = "instance type facts"
    known = env.gpu_instance_type
    name = known.name  # the EC2 name on both platforms (no ml. prefix)
    unknown_fix = (
        f"check the name in deployment_config/catalog.py and the region: aws ec2 describe-instance-types "
        f"--instance-types {name} --region {env.region}"
    )
    try:
        answer = aws.call(
            "ec2", "describe_instance_types", f"describe instance type {name}", InstanceTypes=[name]
        )
    except OpsError as error:
        if "InvalidInstanceType" not in error.message:
            raise
        return Check(name_, Status.FAIL, f"EC2 does not know {name} in {env.region}", unknown_fix)
    info = next((t for t in answer.get("InstanceTypes", []) if t.get("InstanceType") == name), None)
    if info is None or info.get("SupportedInRegion") is False:
        return Check(name_, Status.FAIL, f"EC2 does not offer {name} in {env.region}", unknown_fix)

    gpus = info.get("GpuInfo", {}).get("Gpus", [])
    gpu_count = gpus[0].get("Count", 0) if gpus else 0
    gpu_memory = gpus[0].get("MemoryInfo", {}).get("SizeInMiB", 0) if gpus else 0
    network = info.get("NetworkInfo", {})
    cards = network.get("NetworkCards", [])
    card_count = network.get("MaximumNetworkCards", len(cards))
    reported = any("InterfaceTypes" in card for card in cards)
    efa_cards = {
        card.get("NetworkCardIndex", 0)
        for card in cards
        if {"efa", "efa-only"} & set(card.get("InterfaceTypes", []))
    }

    differences = []
    if gpu_count != known.gpu_count:
        differences.append(f"GPUs: EC2 says {gpu_count}, the project assumes {known.gpu_count}")
    if gpu_memory != known.gpu_memory_mib:
        differences.append(
            f"memory per GPU: EC2 says {gpu_memory} MiB, the project assumes {known.gpu_memory_mib} MiB"
        )
    if card_count != known.network.network_cards:
        differences.append(
            f"network cards: EC2 says {card_count}, the project assumes {known.network.network_cards}"
        )
    if reported and efa_cards != set(known.network.efa_cards):
        differences.append(
            f"network cards with EFA: EC2 says {_card_ranges(efa_cards)}, "
            f"the project assumes {_card_ranges(known.network.efa_cards)}"
        )
    if differences:
        return Check(
            name_,
            Status.FAIL,
            f"{name}: " + "; ".join(differences),
            "the launch template would be rejected or miss devices: correct deployment_config/catalog.py from "
            f"`aws ec2 describe-instance-types --instance-types {name}` and its source ({known.network.source})",
        )
    matched = f"{name}: {gpu_count} x {gpu_memory} MiB GPUs, {card_count} network cards"
    if not reported:
        return Check(
            name_,
            Status.WARN,
            f"{matched} match; EC2 does not say which network cards support EFA, the "
            f"project assumes {_card_ranges(known.network.efa_cards)}",
            f"check the EFA cards against {known.network.source}",
        )
    return Check(
        name_, Status.PASS, f"{matched}, EFA on cards {_card_ranges(efa_cards)} match the catalog"
    )


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
