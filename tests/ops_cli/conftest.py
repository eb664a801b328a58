"""Fixtures for the llmops tests: stubbed AWS clients (botocore Stubber checks every request against the real API
model), a fake clock, and a copy of the configuration directory to write into."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pytest
from botocore.stub import Stubber

from ops_cli import cli
from ops_cli.aws import Aws
from ops_cli.cli import main
from ops_cli.context import Runtime
from tests.conftest import copy_shipped_examples
from tests.lambda_handlers import new_stubber
from tests.ops_cli.misbehaving_server import MisbehavingServer

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


class StubbedAws:
    """A Stubber per service, created on demand, all in one region, on the test process's shared clients
    (``tests.lambda_handlers.new_stubber``). Event handlers go through :meth:`on`, so that they end with the test."""

    def __init__(self, region: str = "us-west-2") -> None:
        self.region = region
        self.stubbers: dict[str, Stubber] = {}
        self.handlers: list[tuple[str, str, object]] = []

    def stub(self, service: str) -> Stubber:
        if service not in self.stubbers:
            self.stubbers[service] = new_stubber(service, region=self.region)
        return self.stubbers[service]

    def aws(self, region: str) -> Aws:
        assert region == self.region, (
            f"the command asked for region {region}, expected {self.region}"
        )
        return Aws(region, client_factory=lambda service: self.stub(service).client)

    def assert_all_used(self) -> None:
        for stubber in self.stubbers.values():
            stubber.assert_no_pending_responses()

    def on(self, service: str, event: str, handler) -> None:  # noqa: ANN001
        """Register ``handler`` for ``event`` on ``service``'s client for this test only."""
        self.stub(service).client.meta.events.register(event, handler)
        self.handlers.append((service, event, handler))

    def deactivate(self) -> None:
        for service, event, handler in self.handlers:
            self.stubbers[service].client.meta.events.unregister(event, handler)
        for stubber in self.stubbers.values():
            stubber.deactivate()


@dataclass
class FakeClock:
    now: float = 0.0
    sleeps: list[float] = field(default_factory=list)

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


@dataclass
class Result:
    code: int
    stdout: str
    stderr: str

    @property
    def json(self):
        return json.loads(self.stdout)


@pytest.fixture
def aws() -> StubbedAws:
    stubbed = StubbedAws()
    try:
        yield stubbed
        stubbed.assert_all_used()
    finally:
        stubbed.deactivate()


@pytest.fixture
def fresh_parser():
    """For a test that replaces a command's handler: main's parser, built once per process (ops_cli.cli.shared_parser)
    with the handlers of its build, is built again for the test, naming the replacement, and again after it."""
    cli.shared_parser.cache_clear()
    yield
    cli.shared_parser.cache_clear()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def no_placeholders(document, paths) -> tuple[str, ...]:  # noqa: ARG001 (placeholder_fields' signature)
    """``deployment_config.loader.placeholder_fields`` for tests whose stubbed AWS owns the example's ids: none is a
    placeholder. One function for all of them: the loader's cache of validated files (``load_environment``) holds the
    placeholder rule in its key, and a new lambda per test made every load of the same file a validation again."""
    return ()


@pytest.fixture
def config_dir(tmp_path) -> Path:
    """A configuration directory of the test's own, with the shipped examples (the commands may write into it)."""
    return copy_shipped_examples(tmp_path / "config")


def run_llmops(aws, clock, config_dir, argv, *, run_command=None) -> Result:
    """llmops in-process with stubbed AWS, the fake clock, a scratch configuration directory and (``run_command``)
    a fake kubectl."""
    stdout, stderr = io.StringIO(), io.StringIO()
    runtime = Runtime(
        aws_factory=aws.aws,
        stdout=stdout,
        stderr=stderr,
        environ={},
        clock=clock,
        sleep=clock.sleep,
        now=lambda: NOW,
        run_command=run_command,
    )
    code = main([*argv, "--config-dir", str(config_dir)], runtime)
    return Result(code, stdout.getvalue(), stderr.getvalue())


@pytest.fixture
def run(aws, clock, config_dir):
    """Run llmops in-process with stubbed AWS, the fake clock and a scratch configuration directory."""
    return lambda *argv: run_llmops(aws, clock, config_dir, argv)


@pytest.fixture
def run_with_kubectl(aws, clock, config_dir):
    """The same, with a fake kubectl (called as subprocess.run would be): ``run_with_kubectl(kubectl, *argv)``."""
    return lambda kubectl, *argv: run_llmops(aws, clock, config_dir, argv, run_command=kubectl)


@pytest.fixture
def against(monkeypatch, tmp_path, config_dir):
    """``against(stand_in, variable, *argv, read_timeout=..., attempts=...)``: llmops in-process, its AWS clients the
    real ones (botocore, no Stubber) pointed at the stand-in (a tests/ops_cli/misbehaving_server.py handler, reached
    through ``variable``, AWS_ENDPOINT_URL_<SERVICE>); no credentials or config files of the machine are read;
    AWS_MAX_ATTEMPTS=5 asks botocore for retries, which a purchase must not get. Sleeps between lookups are recorded,
    not slept (the fake clock)."""

    def run(server_handler, variable: str, *argv: str, read_timeout: float = 60, attempts: int = 3):
        clock = FakeClock()
        with MisbehavingServer(server_handler) as url:
            monkeypatch.setenv(
                variable, url
            )  # botocore reads AWS_ENDPOINT_URL_<SERVICE> from os.environ
            environ = {
                variable: url,
                "AWS_ACCESS_KEY_ID": "AKIDSTANDIN",
                "AWS_SECRET_ACCESS_KEY": "stand-in",
                "AWS_CONFIG_FILE": str(tmp_path / "no-config"),
                "AWS_SHARED_CREDENTIALS_FILE": str(tmp_path / "no-credentials"),
                "AWS_EC2_METADATA_DISABLED": "true",
                "AWS_MAX_ATTEMPTS": "5",
            }
            stdout, stderr = io.StringIO(), io.StringIO()
            runtime = Runtime(
                aws_factory=lambda region: Aws(
                    region, environ=environ, read_timeout=read_timeout, attempts=attempts
                ),
                stdout=stdout,
                stderr=stderr,
                environ=environ,
                clock=clock,
                sleep=clock.sleep,
                now=lambda: NOW,
            )
            code = main([*argv, "--config-dir", str(config_dir)], runtime)
        return Result(code, stdout.getvalue(), stderr.getvalue()), clock

    return run


def client_error(code: str, message: str = "", status: int = 400) -> dict:
    return {
        "service_error_code": code,
        "service_message": message or code,
        "http_status_code": status,
    }
