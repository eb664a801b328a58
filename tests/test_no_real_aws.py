"""The test session has no way to real AWS credentials or to the instance metadata service (tests/conftest.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import botocore.httpsession
import botocore.session

from tests.conftest import NO_AWS_DIR, PROJECT_DIR

#: What botocore reads credentials or a profile from (botocore 1.43 credentials.py and configprovider.py).
CREDENTIAL_VARIABLES = (
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_SECURITY_TOKEN",
    "AWS_PROFILE",
    "AWS_DEFAULT_PROFILE",
    "AWS_ROLE_ARN",
    "AWS_WEB_IDENTITY_TOKEN_FILE",
    "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
    "AWS_CONTAINER_CREDENTIALS_FULL_URI",
    "AWS_CONTAINER_AUTHORIZATION_TOKEN",
    "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE",
    "AWS_CREDENTIAL_FILE",
    "AWS_EC2_METADATA_SERVICE_ENDPOINT",
)

# Run in a child process, as llmops and the synthesis are: what a default botocore session finds, and whether it
# sent any request (the instance metadata service included) while looking.
_PROBE = """
import json, os, botocore.httpsession, botocore.session
sent = []
botocore.httpsession.URLLib3Session.send = lambda self, request: sent.append(request.url)
credentials = botocore.session.Session().get_credentials()
print(json.dumps({"credentials": credentials is not None, "sent": sent,
                  "aws": {k: v for k, v in os.environ.items() if k.startswith(("AWS_", "BOTO_"))}}))
"""


def test_a_default_session_finds_no_credentials_and_asks_no_metadata_service(monkeypatch):
    # given the test session's environment, when a default botocore session looks for credentials
    sent = []
    monkeypatch.setattr(
        botocore.httpsession.URLLib3Session, "send", lambda self, request: sent.append(request.url)
    )
    credentials = botocore.session.Session().get_credentials()
    # then it finds none, and sent nothing while looking (no request to 169.254.169.254 or a container endpoint)
    assert credentials is None
    assert sent == []


def test_the_environment_points_every_aws_file_nowhere():
    assert not any(name in os.environ for name in CREDENTIAL_VARIABLES)
    assert os.environ["AWS_EC2_METADATA_DISABLED"] == "true"
    for variable in ("AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE", "BOTO_CONFIG"):
        path = Path(os.environ[variable])
        assert path.parent == NO_AWS_DIR and not path.exists()


def test_a_child_process_inherits_it():
    # given a command the tests start (as they start llmops and the synthesis), with the session's environment
    result = subprocess.run(
        [sys.executable, "-c", _PROBE],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        cwd=PROJECT_DIR,
    )
    found = json.loads(result.stdout)
    # then it too finds no credentials, asks nothing, and sees only the variables that point nowhere
    assert found == {
        "credentials": False,
        "sent": [],
        "aws": {
            "AWS_CONFIG_FILE": str(NO_AWS_DIR / "config"),
            "AWS_SHARED_CREDENTIALS_FILE": str(NO_AWS_DIR / "credentials"),
            "BOTO_CONFIG": str(NO_AWS_DIR / "boto.cfg"),
            "AWS_EC2_METADATA_DISABLED": "true",
        },
    }


def test_a_test_may_still_give_itself_aws_settings(monkeypatch, tmp_path):
    credentials = tmp_path / "credentials"
    credentials.write_text(
        "[default]\naws_access_key_id = AKIDTEST\naws_secret_access_key = secret\n"
    )
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(credentials))
    assert botocore.session.Session().get_credentials().access_key == "AKIDTEST"
