"""The AWS SDK's service models are parsed once per process, however many clients the commands make (ops_cli/aws.py
``_LOADERS``): each client of its own botocore Session would parse its service's model again (0.1-0.2 s of CPU)."""

from __future__ import annotations

import json

from ops_cli.aws import Aws


def _environ(tmp_path, **extra: str) -> dict[str, str]:
    return {
        "AWS_ACCESS_KEY_ID": "AKIDMODELS",
        "AWS_SECRET_ACCESS_KEY": "secret",
        "AWS_CONFIG_FILE": str(tmp_path / "no-config"),
        "AWS_SHARED_CREDENTIALS_FILE": str(tmp_path / "no-credentials"),
        "AWS_EC2_METADATA_DISABLED": "true",
        **extra,
    }


def test_clients_of_separate_sessions_read_one_parsed_model(tmp_path):
    # given two Aws objects (each client on a botocore Session of its own)
    environ = _environ(tmp_path)
    # when each makes an EC2 client, and one more is made after them
    first, second, third = (Aws("us-west-2", environ=environ).client("ec2") for _ in range(3))
    # then they load models through one loader, whose search paths boto3 extended once, not once per client
    assert first._loader is second._loader is third._loader  # noqa: SLF001 (botocore's client attribute)
    paths = first._loader.search_paths  # noqa: SLF001
    assert len(paths) == len(set(paths)), paths
    # and each client still has the whole EC2 API
    assert (
        second.meta.service_model.operation_model("DescribeInstances").name == "DescribeInstances"
    )


def test_a_data_path_of_its_own_gets_its_own_models(tmp_path):
    # given AWS_DATA_PATH naming a folder with a model of a service botocore does not ship
    model = tmp_path / "models" / "llmopsmade" / "2026-01-01"
    model.mkdir(parents=True)
    (model / "service-2.json").write_text(
        json.dumps(
            {
                "version": "2.0",
                "metadata": {
                    "apiVersion": "2026-01-01",
                    "endpointPrefix": "llmopsmade",
                    "protocol": "json",
                    "serviceId": "llmopsmade",
                    "signatureVersion": "v4",
                    "targetPrefix": "LlmOpsMade",
                    "jsonVersion": "1.1",
                },
                "operations": {},
                "shapes": {},
            }
        )
    )
    ordinary = Aws("us-west-2", environ=_environ(tmp_path)).client("ec2")
    # when a command makes its clients with that environment
    own = Aws(
        "us-west-2", environ=_environ(tmp_path, AWS_DATA_PATH=str(tmp_path / "models"))
    ).client("llmopsmade", single_send=False)
    # then its loader searches that folder, and the loader of the ordinary environment does not
    assert own.meta.service_model.service_name == "llmopsmade"
    assert own._loader is not ordinary._loader  # noqa: SLF001
    assert str(tmp_path / "models") not in ordinary._loader.search_paths  # noqa: SLF001
