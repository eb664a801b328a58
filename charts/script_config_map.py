"""Files the project ships (a script and the modules it imports) as a ConfigMap, and the volume a pod mounts it from:
the weights check and the compile cache each travel this way (no image of the project's own)."""

from __future__ import annotations

from pathlib import Path

import cdk8s
import cdk8s_plus_28 as kplus
from constructs import Construct


def script_config_map(
    scope: Construct,
    construct_id: str,
    *,
    name: str,
    namespace: str,
    files: tuple[Path, ...],
    volume_name: str,
) -> tuple[kplus.ConfigMap, kplus.Volume]:
    """The ConfigMap ``name`` holding each of ``files`` under its own name (one directory once mounted, so that a
    script imports the modules beside it), and its volume ``volume_name`` (construct ids ``construct_id`` and
    ``construct_id-volume``)."""
    config_map = kplus.ConfigMap(
        scope,
        construct_id,
        metadata=cdk8s.ApiObjectMetadata(name=name, namespace=namespace),
        data={file.name: file.read_text(encoding="utf-8") for file in files},
    )
    volume = kplus.Volume.from_config_map(
        scope, f"{construct_id}-volume", config_map, name=volume_name
    )
    return config_map, volume
