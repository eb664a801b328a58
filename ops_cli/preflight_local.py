"""The preflight rows that need no AWS call: they run first, and they still run when there are no credentials.

Each reads the environment as the configuration loader returned it (deployment_config.loader), so a file that breaks a
configuration rule never gets here: preflight then exits 2 with the loader's message, naming the field and the fix,
as ``make check-config`` does. The "configuration" row says that the file passed those rules; the other rows say what
the rules leave to the user (placeholder ids, pins) and how the model fills the GPUs.
"""

from __future__ import annotations

from pathlib import Path

from deployment_config.model import EnvironmentConfig, Platform
from deployment_config.model_location import weights_s3_uri
from ops_cli.preflight_check import Check, Status
from ops_cli.preflight_endpoint import rendered_endpoint_check, worker_shm_check
from ops_cli.preflight_pins import pin_checks


def local_checks(env: EnvironmentConfig, manifest: Path | None = None) -> list[Check]:
    """Placeholders first (the user sees every other problem of the same file in the same run), then the
    configuration, the sizing, the pins and, on HyperPod, the rendered endpoint (``manifest``) against the CRD of the
    pinned operator and the worker's /dev/shm, which that CRD cannot ask for (ops_cli/preflight_endpoint.py)."""
    placeholders = [_placeholders(env)] if env.placeholders else []
    endpoint = rendered_endpoint_check(env, manifest) if manifest is not None else None
    return [
        *placeholders,
        _configuration(env),
        _sizing(env),
        *pin_checks(env),
        *([endpoint] if endpoint else []),
        *([worker_shm_check(env)] if manifest is not None else []),
    ]


def aws_checks(env: EnvironmentConfig) -> list[str]:
    """What the rows after "credentials" look up, in their order (ops_cli/preflight.py ``run_preflight``): named when
    they could not run."""
    hyperpod = env.platform is Platform.HYPERPOD
    looked_up = [
        "the training plan" if hyperpod else "the Capacity Block reservation",
        *(
            ["the next Capacity Block"]
            if not hyperpod and env.capacity.next_capacity_reservation_id
            else []
        ),
        "the instance type in EC2"
        if hyperpod
        else "the instance type's offering in the zone and its EC2 facts",
    ]
    if weights_s3_uri(env.model) is not None and not env.placeholders:
        looked_up.append("the weights mirror in S3")
    looked_up.append("the EKS add-on versions and configurations")
    if hyperpod:
        looked_up.append("the inference operator and its CRD on the cluster")
    if env.layout.multi_node:
        looked_up.append("EFA on the GPU nodes (a check Job)")
    if env.endpoint.tls:
        looked_up.append("the endpoint's ACM certificate")
    looked_up.append("the CDK bootstrap stack")
    return looked_up


def _placeholders(env: EnvironmentConfig) -> Check:
    """The example's placeholder ids left in the file (deployment_config.placeholders): CloudFormation would refuse
    every stack of it (cdk_constructs.placeholder_guard); this row says so before anything is tried."""
    return Check(
        "placeholder values",
        Status.FAIL,
        f"{env.source} still holds the example's placeholder values in {', '.join(env.placeholders)}; "
        "CloudFormation refuses to deploy it",
        "put in your own ids: llmops capacity-blocks use cr-... --env NAME (or training-plans use) writes "
        "the capacity's; account and cluster.admin_role_arn by hand",
    )


def _configuration(env: EnvironmentConfig) -> Check:
    """Passes whenever it is shown: the loader refused the file otherwise (see the module's docstring)."""
    return Check(
        "configuration",
        Status.PASS,
        f"{env.source} passes every configuration rule ({env.platform.value} in {env.region}, "
        f"account {env.account})",
    )


def _sizing(env: EnvironmentConfig) -> Check:
    """Where one replica's GPU memory goes (the message ``make check-config`` prints). The loader has already refused
    a model that does not fit (deployment_config.sizing.check_model_fits)."""
    return Check("model sizing", Status.PASS, env.sizing_message)
