"""The kubeconfig entry of ``llmops connect``: a cluster, a user and a context named ``NAME-via-ssm``, as
``aws eks update-kubeconfig`` writes them (aws/aws-cli awscli/customizations/eks/update_kubeconfig.py: the cluster's
CA data, a user whose ``exec`` runs ``aws --region R eks get-token --cluster-name C --output json``, with
``AWS_PROFILE`` when a profile is used), but with the server at the local forward and ``tls-server-name`` the API
endpoint's host name, which its certificate names
(https://kubernetes.io/docs/reference/kubectl/generated/kubectl_config/kubectl_config_set-cluster/). Other entries of
the file are kept; the context becomes the current one."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from ops_cli.access_targets import Cluster
from ops_cli.errors import ExitCode, OpsError

#: client.authentication.k8s.io/v1beta1: the exec credential API version update-kubeconfig writes.
EXEC_API_VERSION = "client.authentication.k8s.io/v1beta1"


def kubeconfig_path(given: Path | None, environ: Mapping[str, str]) -> Path:
    """--kubeconfig, else the first file of KUBECONFIG (the one kubectl writes to), else ~/.kube/config."""
    if given is not None:
        return given
    listed = [p for p in environ.get("KUBECONFIG", "").split(os.pathsep) if p]
    if listed:
        return Path(listed[0])
    return Path(environ.get("HOME") or Path.home()) / ".kube" / "config"


def _put(entries: list, name: str, key: str, value: dict) -> list:
    return [e for e in entries if isinstance(e, dict) and e.get("name") != name] + [
        {"name": name, key: value}
    ]


def write_entry(
    path: Path,
    name: str,
    cluster: Cluster,
    *,
    region: str,
    local_port: int,
    role_arn: str | None,
    profile: str | None,
) -> None:
    import yaml  # only here: keeps `llmops --help` fast

    try:
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        config = yaml.safe_load(text) or {}
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        raise OpsError(
            f"cannot read the kubeconfig {path} ({error})",
            "fix or move that file, or pass --kubeconfig with another path",
            ExitCode.USAGE,
        ) from None
    if not isinstance(config, dict):
        raise OpsError(
            f"the kubeconfig {path} is not a kubeconfig (not a mapping)",
            "fix or move that file, or pass --kubeconfig with another path",
            ExitCode.USAGE,
        )
    args = [
        "--region",
        region,
        "eks",
        "get-token",
        "--cluster-name",
        cluster.name,
        "--output",
        "json",
    ]
    if role_arn:
        args += ["--role-arn", role_arn]
    user: dict = {"exec": {"apiVersion": EXEC_API_VERSION, "args": args, "command": "aws"}}
    if profile:
        user["exec"]["env"] = [{"name": "AWS_PROFILE", "value": profile}]
    config.setdefault("apiVersion", "v1")
    config.setdefault("kind", "Config")
    config["clusters"] = _put(
        config.get("clusters") or [],
        name,
        "cluster",
        {
            "certificate-authority-data": cluster.certificate_authority,
            "server": f"https://localhost:{local_port}",
            "tls-server-name": cluster.host,
        },
    )
    config["users"] = _put(config.get("users") or [], name, "user", user)
    config["contexts"] = _put(
        config.get("contexts") or [], name, "context", {"cluster": name, "user": name}
    )
    config["current-context"] = name
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch(mode=0o600, exist_ok=True)
        path.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    except OSError as error:
        raise OpsError(
            f"cannot write the kubeconfig {path} ({error.strerror or error})",
            "check its permissions, or pass --kubeconfig with another path",
            ExitCode.USAGE,
        ) from None
