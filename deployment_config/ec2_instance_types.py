"""The EC2 instance type names that exist, from the EC2 API model of the pinned botocore.

``cluster.system_instance_type`` is checked against ``data/ec2_instance_types.json``: loading the whole EC2 model
(several MB) on every synthesis would cost more than the check. ``python -m deployment_config.ec2_instance_types``
(part of ``make schema``) rewrites the file from the model; a test fails when the two differ, as after a botocore
upgrade. Whether a type is offered in a zone is the account's answer: ``llmops preflight``.
"""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

DATA_FILE = Path(__file__).resolve().parent / "data" / "ec2_instance_types.json"


@functools.cache
def known_instance_types() -> frozenset[str]:
    return frozenset(json.loads(DATA_FILE.read_text(encoding="utf-8"))["instance_types"])


def from_botocore() -> dict:
    """The file's content, as the pinned botocore's EC2 model gives it."""
    import botocore
    import botocore.session

    model = botocore.session.get_session().get_service_model("ec2")
    return {
        "source": f"botocore {botocore.__version__}, botocore/data/ec2/{model.api_version}/service-2.json, "
        "shape InstanceType (enum); written by python -m deployment_config.ec2_instance_types",
        "instance_types": sorted(model.shape_for("InstanceType").enum),
    }


def file_text() -> str:
    return json.dumps(from_botocore(), indent=0) + "\n"


if __name__ == "__main__":
    DATA_FILE.write_text(file_text(), encoding="utf-8")
    print(f"wrote {DATA_FILE}", file=sys.stderr)
