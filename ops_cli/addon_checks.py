"""Preflight's add-on rows: is each add-on (at its pinned version) offered for the cluster's Kubernetes version, which
operator version the Inference Operator's pin installs, and does the project's configuration validate against the
add-on's own JSON schema (eks:DescribeAddonVersions, eks:DescribeAddonConfiguration)."""

from __future__ import annotations

import json
import re

from deployment_config.addons import INFERENCE_OPERATOR, AddonPin
from deployment_config.model import EnvironmentConfig
from deployment_config.operator_releases import operator_release
from ops_cli.aws import Aws
from ops_cli.errors import ExitCode, OpsError
from ops_cli.operator_crd import operator_version_detail
from ops_cli.preflight_check import Check, Status


def _version_key(version: str) -> tuple[int, ...]:
    """``v1.18.2-eksbuild.2`` as ``(1, 18, 2, 2)``, to sort add-on versions newest first."""
    return tuple(int(part) for part in re.findall(r"\d+", version))


def _addon_versions(aws: Aws, name: str, kubernetes_version: str) -> list[dict]:
    """Every version of add-on ``name`` EKS offers for ``kubernetes_version``, following nextToken."""
    versions: list[dict] = []
    pages = aws.each_page(
        "eks",
        "describe_addon_versions",
        f"list the versions of add-on {name}",
        token_in="nextToken",
        token_out="nextToken",
        addonName=name,
        kubernetesVersion=kubernetes_version,
    )
    try:
        for page in pages:
            for addon in page.get("addons") or []:
                if isinstance(addon, dict) and addon.get("addonName") == name:
                    versions += addon.get("addonVersions") or []
    except OpsError as error:
        if error.exit_code is not ExitCode.NOT_FOUND:
            raise
    return versions


def addon_check(
    aws: Aws, env: EnvironmentConfig, pin: AddonPin, configuration: dict | None
) -> Check:
    """Is the add-on (at its pinned version) offered for the cluster's Kubernetes version, and does the project's
    configuration validate against that version's own JSON schema?"""
    name, kubernetes = f"add-on {pin.name}", env.kubernetes_version
    listing = (
        f"aws eks describe-addon-versions --addon-name {pin.name} --kubernetes-version {kubernetes}"
    )
    compatible = [
        v
        for v in _addon_versions(aws, pin.name, kubernetes)
        if any(c.get("clusterVersion") == kubernetes for c in v.get("compatibilities", []))
    ]
    offered = sorted(
        {v["addonVersion"] for v in compatible if v.get("addonVersion")},
        key=_version_key,
        reverse=True,
    )
    if not offered:
        return Check(
            name,
            Status.FAIL,
            f"{pin.name} is not offered for Kubernetes {kubernetes} in {env.region}",
            f"use a Kubernetes version it supports ({listing.rsplit(' --', 1)[0]})",
        )
    newest = ", ".join(offered[:5]) + (
        f" (and {len(offered) - 5} older)" if len(offered) > 5 else ""
    )
    if pin.version is not None:
        if pin.version not in offered:
            return Check(
                name,
                Status.FAIL,
                f"{pin.version} is not offered for Kubernetes {kubernetes}; offered: {newest}",
                f"pin an offered version in deployment_config/addons.py (source: {pin.source}); {listing}",
            )
        version, detail = pin.version, f"{pin.version} is offered for Kubernetes {kubernetes}"
        if pin is INFERENCE_OPERATOR:
            unmapped = [v for v in offered if operator_release(v) is None]
            detail += f" ({operator_version_detail(pin.version)}" + (
                f"; also offered, mapped to no operator version by any public source: {', '.join(unmapped)})"
                if unmapped
                else ")"
            )
    else:
        defaults = [
            v["addonVersion"]
            for v in compatible
            if any(
                c.get("clusterVersion") == kubernetes and c.get("defaultVersion")
                for c in v.get("compatibilities", [])
            )
        ]
        version = defaults[0] if defaults else offered[0]
        detail = (
            f"default {version} for Kubernetes {kubernetes}"
            if defaults
            else f"no default version for Kubernetes {kubernetes}; EKS would pick, newest is {version}"
        )
    if configuration is None:
        return Check(name, Status.PASS, detail)

    errors = _configuration_errors(aws, pin.name, version, configuration)
    if errors:
        return Check(
            name,
            Status.FAIL,
            f"{detail}, but its configuration does not match the add-on's schema: "
            + "; ".join(errors),
            "correct the configuration in deployment_config/addons.py from `aws eks describe-addon-configuration "
            f"--addon-name {pin.name} --addon-version {version}` (source: {pin.source})",
        )
    return Check(name, Status.PASS, f"{detail}; the configuration matches its schema")


def _configuration_errors(aws: Aws, name: str, version: str, configuration: dict) -> list[str]:
    """Each way ``configuration`` fails the JSON schema of add-on ``name`` at ``version``, as "JSON path: message"."""
    import jsonschema  # only here: keeps `llmops --help` fast

    answer = aws.call(
        "eks",
        "describe_addon_configuration",
        f"read the configuration schema of add-on {name} {version}",
        addonName=name,
        addonVersion=version,
    )
    text = answer.get("configurationSchema")
    if not text:
        return [f"{name} {version} accepts no configuration"]
    try:
        schema = json.loads(text)
        validator_class = jsonschema.validators.validator_for(
            schema, default=jsonschema.Draft7Validator
        )
        validator_class.check_schema(schema)
    except (ValueError, jsonschema.SchemaError) as error:
        return [
            f"the schema EKS returned for {name} {version} cannot be used ({str(error).splitlines()[0]})"
        ]
    found = sorted(
        validator_class(schema).iter_errors(configuration),
        key=lambda e: (list(map(str, e.absolute_path)), e.message),
    )
    return [f"{error.json_path}: {error.message}" for error in found]
