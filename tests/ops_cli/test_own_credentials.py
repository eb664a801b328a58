"""The process's own AWS credentials are never printed (issue 29): an AWS error that quotes the request's access key
id, secret or session token is shown with them redacted, whether they came from the environment or from a profile.
Real botocore clients against an EC2 stand-in on 127.0.0.1 (tests/ops_cli/aws_stand_in.py's wire format)."""

from __future__ import annotations

import io

import pytest

from ops_cli.aws import Aws
from ops_cli.cli import main
from ops_cli.context import Runtime
from ops_cli.errors import ExitCode
from tests.ops_cli.aws_stand_in import ec2_error
from tests.ops_cli.conftest import NOW
from tests.ops_cli.misbehaving_server import MisbehavingServer

KEY_ID = "ASIAOWNKEY0000000042"
SECRET = "own/secret/key/of/this/process/0123456789"
TOKEN = "IQoJb3JpZ2luX2VjEOwn/session+token/of/this/process=="


def quoting_everything(request, conn) -> None:  # noqa: ANN001 - the stand-in's handler signature
    conn.send(
        ec2_error(
            400,
            "InvalidParameterValue",
            f"request signed by {KEY_ID} with secret {SECRET} and session {TOKEN} is not valid here",
        )
    )


@pytest.mark.parametrize("source", ["environment", "profile"])
def test_an_aws_error_quoting_the_credentials_is_printed_without_them(
    tmp_path, monkeypatch, source
):
    # given the process's credentials from the environment, or from a profile of the credentials file
    credentials = tmp_path / "credentials"
    credentials.write_text(
        f"[own]\naws_access_key_id = {KEY_ID}\naws_secret_access_key = {SECRET}\naws_session_token = {TOKEN}\n"
    )
    with MisbehavingServer(quoting_everything) as ec2:
        monkeypatch.setenv("AWS_ENDPOINT_URL_EC2", ec2)
        environ = {
            "AWS_ENDPOINT_URL_EC2": ec2,
            "AWS_CONFIG_FILE": str(tmp_path / "no-config"),
            "AWS_SHARED_CREDENTIALS_FILE": str(credentials),
            "AWS_EC2_METADATA_DISABLED": "true",
        } | (
            {
                "AWS_ACCESS_KEY_ID": KEY_ID,
                "AWS_SECRET_ACCESS_KEY": SECRET,
                "AWS_SESSION_TOKEN": TOKEN,
            }
            if source == "environment"
            else {"AWS_PROFILE": "own"}
        )
        stdout, stderr = io.StringIO(), io.StringIO()
        runtime = Runtime(
            aws_factory=lambda region: Aws(region, environ=environ),
            stdout=stdout,
            stderr=stderr,
            environ=environ,
            now=lambda: NOW,
        )
        # when EC2 answers with an error message that quotes them
        code = main(
            ["capacity-blocks", "show", "cr-0fedcba9876543210", "--region", "us-west-2", "--json"],
            runtime,
        )
    # then the error is shown, and none of the three is printed, on either stream
    assert code == ExitCode.AWS_ERROR, stderr.getvalue()
    printed = stdout.getvalue() + stderr.getvalue()
    assert "InvalidParameterValue" in printed and "is not valid here" in printed
    for value in (KEY_ID, SECRET, TOKEN):
        assert value not in printed
    assert printed.count("<redacted>") >= 6  # three in the error line, three in the --json answer
