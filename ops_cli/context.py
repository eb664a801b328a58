"""What every command shares: the outside world (Runtime), the configuration directory, the environment, the AWS
profile and region, the AWS client, output and progress. A command's handler gets one :class:`Context`."""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

import botocore.exceptions

from deployment_config import ConfigError, EnvironmentConfig, load_environment
from deployment_config.aws_rules import region_problem
from endpoint_probe.deadline import Deadline
from endpoint_probe.errors import printable
from ops_cli.aws import Aws, botocore_session
from ops_cli.config_writer import env_name_problem, missing_environment
from ops_cli.errors import ExitCode, OpsError, shown, translate
from ops_cli.output import Human, emit_json, styled_output, write_human
from ops_cli.progress import Progress

PROJECT_DIR = Path(__file__).resolve().parents[1]
#: The environment variable that may name the configuration directory (an installed llmops used outside the checkout).
CONFIG_DIR_VARIABLE = "LLMOPS_CONFIG_DIR"


def checkout_config_dir(cwd: Path) -> Path | None:
    """``config/`` of a checkout of this project: the one this package runs from (bin/llmops, ``python -m ops_cli`` in
    the checkout, an editable install), else the current directory when it is one. A checkout is known by its
    ``cdk.json`` next to ``config/``. None elsewhere (an installed llmops run from another directory)."""
    for root in (PROJECT_DIR, cwd):
        if (root / "cdk.json").is_file() and (root / "config").is_dir():
            return root / "config"
    return None


@dataclass
class Runtime:
    """What a command needs from the outside world; tests replace every part."""

    aws_factory: Callable[[str], Aws] | None = (
        None  # default: Aws(region) reading AWS_* variables from environ
    )
    stdout: TextIO = field(default_factory=lambda: sys.stdout)
    stderr: TextIO = field(default_factory=lambda: sys.stderr)
    environ: dict = field(default_factory=lambda: dict(os.environ))
    clock: Callable[[], float] | None = None
    sleep: Callable[[float], None] | None = None
    now: Callable[[], datetime] = lambda: datetime.now(UTC)
    run_command: Callable | None = None  # subprocess.run, for kubectl (tests pass a fake)
    cwd: Callable[[], Path] = Path.cwd
    #: ends the process at once (``os._exit``), for the deadline's watchdog; None in-process (tests): no watchdog
    hard_exit: Callable[[int], None] | None = None


def cli_words(text: str) -> str:
    """A loader message in the CLI's words: the CDK's ``-c env=NAME`` becomes ``--env NAME`` (but a ``cdk deploy
    -c env=NAME`` command line, which is meant for the CDK, is left alone)."""
    text = re.sub(
        r"(\bcdk\b[^;()]*?)?-c env=(\S*)",
        lambda m: m.group(0) if m.group(1) else f"--env {m.group(2)}",
        text,
    )
    return re.sub(r"(?<![\w-])-c env\b(?!=)", "--env", text)


def load_environment_option(config_dir: Path, name: str, option: str) -> EnvironmentConfig:
    """config/NAME.yaml, validated by the loader; its errors as OpsErrors in the CLI's words."""
    problem = env_name_problem(name)
    if problem:
        raise OpsError(
            f"{option}: {problem}",
            f"name a file of the config directory without '.yaml', for example {option} example",
            ExitCode.USAGE,
        )
    if not (Path(config_dir) / f"{name}.yaml").is_file():
        raise missing_environment(config_dir, name)
    try:
        return load_environment(config_dir, name, option=f"{option} NAME")
    except ConfigError as error:
        raise OpsError(cli_words(error.summary), cli_words(error.fix), ExitCode.USAGE) from None
    except OSError as error:  # unreadable file or directory
        raise OpsError(
            f"cannot read {config_dir}/{name}.yaml ({error.strerror or error})",
            "check its permissions",
            ExitCode.USAGE,
        ) from None
    except UnicodeDecodeError as error:
        raise OpsError(
            f"{config_dir}/{name}.yaml is not UTF-8 text (byte {error.start})",
            "save it as UTF-8",
            ExitCode.USAGE,
        ) from None


#: The environment variables that hold the process's AWS credentials (botocore credentials.py EnvProvider; the AWS
#: CLI's AWS_SECURITY_TOKEN is the session token's older name).
OWN_CREDENTIAL_VARIABLES = (
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_SECURITY_TOKEN",
)


class Context:
    """One command's arguments and runtime, and what is resolved from them on first use (the environment, the region,
    the AWS clients). Every property checks what it resolves before anything is sent to AWS."""

    def __init__(self, args: argparse.Namespace, runtime: Runtime) -> None:
        self.args = args
        self.rt = runtime
        self._env: EnvironmentConfig | None = None
        self._aws_made: list[Aws] = []
        # --timeout bounds the whole command, from here (endpoint_probe/deadline.py); commands without one have none.
        self.deadline = Deadline(getattr(args, "timeout", None))
        self.deadline.phase = "running llmops " + " ".join(
            filter(None, (args.group, getattr(args, "command", None)))
        )

    @property
    def env(self) -> EnvironmentConfig | None:
        name = getattr(self.args, "env", None)
        if name is not None and self._env is None:
            self._env = load_environment_option(self.config_dir, name, "--env")
        return self._env

    @property
    def config_dir(self) -> Path:
        """--config-dir, else LLMOPS_CONFIG_DIR, else config/ of the checkout (:func:`checkout_config_dir`)."""
        if self.args.config_dir is not None:
            return self.args.config_dir
        if self.rt.environ.get(CONFIG_DIR_VARIABLE):
            return Path(self.rt.environ[CONFIG_DIR_VARIABLE])
        found = checkout_config_dir(self.rt.cwd())
        if found is None:
            raise OpsError(
                "no configuration directory: llmops runs outside a checkout of this project, and neither "
                f"--config-dir nor {CONFIG_DIR_VARIABLE} names one",
                f"pass --config-dir PATH/TO/CHECKOUT/config (or set {CONFIG_DIR_VARIABLE}), or run llmops "
                "from the checkout",
                ExitCode.USAGE,
            )
        return found

    @property
    def aws_environ(self) -> dict:
        """The environment the AWS SDK reads: the process's, with AWS_PROFILE set to --profile when it is given (which
        must name a profile of the AWS config or credentials file, as the AWS CLI requires)."""
        profile = getattr(self.args, "profile", None)
        if profile is None:
            return self.rt.environ
        environ = {**self.rt.environ, "AWS_PROFILE": profile}
        try:  # listed by a session of no particular profile: one naming a missing profile fails to read them at all
            known = botocore_session(
                {k: v for k, v in environ.items() if k != "AWS_PROFILE"}
            ).available_profiles
        except botocore.exceptions.BotoCoreError as error:
            raise translate(error, "read the AWS config and credentials files") from None
        if profile not in known:
            listed = ", ".join(printable(p, 40) for p in sorted(known)[:10]) or "none"
            raise OpsError(
                f"--profile {shown(profile)} is not a profile of the AWS config or credentials file "
                f"(profiles there: {listed})",
                "pass one of those, or create it: aws configure --profile NAME (aws configure sso for SSO)",
                ExitCode.USAGE,
            )
        return environ

    def region(self) -> str:
        """The region to work in: --region, else the environment's, else AWS_REGION / AWS_DEFAULT_REGION, else the
        region of the AWS profile (--profile, AWS_PROFILE or the default) in the AWS config file, as the AWS CLI
        chooses; checked against botocore's list of regions before any client exists."""
        env = self.env
        if self.args.region is not None:
            source, region = "--region", self.args.region
        elif env is not None:
            source, region = f"the region of --env {env.name}", env.region
        else:
            source, region = next(
                (
                    (f"{name} (environment variable)", self.rt.environ[name])
                    for name in ("AWS_REGION", "AWS_DEFAULT_REGION")
                    if self.rt.environ.get(name)
                ),
                (None, None),
            )
        if region is None:
            environ = self.aws_environ
            try:
                region = botocore_session(environ).get_config_variable("region")
            except botocore.exceptions.BotoCoreError as error:
                raise translate(error, "read the region of the AWS profile") from None
            source = (
                f"the region of the AWS profile {shown(environ.get('AWS_PROFILE') or 'default')}"
            )
        if region is None:
            raise OpsError(
                "no AWS region",
                "pass --region, --env NAME, set AWS_REGION, or give the AWS profile a region "
                "(aws configure set region REGION)",
                ExitCode.USAGE,
            )
        problem = region_problem(region)
        if problem:
            raise OpsError(f"{source}: {problem.problem}", problem.fix, ExitCode.USAGE)
        if env is not None and region != env.region:
            raise OpsError(
                f"--region {region} contradicts --env {env.name}, which deploys to {env.region}",
                "leave out --region (the environment's region is used), or name the environment of that region",
                ExitCode.USAGE,
            )
        return region

    def aws(self) -> Aws:
        """The AWS client of the command's region (:meth:`region`)."""
        return self.aws_in(self.region())

    def aws_in(self, region: str) -> Aws:
        """An AWS client of ``region`` (a secret's own region, the Price List endpoint's), with the command's profile."""
        aws = (
            self.rt.aws_factory(region)
            if self.rt.aws_factory
            else Aws(region, environ=self.aws_environ)
        )
        if self.rt.sleep:
            aws.sleep = self.rt.sleep
        if self.rt.clock:
            aws.clock = self.rt.clock
        self._aws_made.append(aws)
        return aws

    def own_secrets(self) -> tuple[str, ...]:
        """The process's own AWS credentials, wherever they came from: the AWS_* variables and what every client of
        this command signs with (a profile, SSO, a role). Never printed (ops_cli/cli.py ``_report``)."""
        environ = self.rt.environ
        named = tuple(environ.get(name, "") for name in OWN_CREDENTIAL_VARIABLES)
        return tuple(v for v in named if v) + tuple(
            value for aws in self._aws_made for value in aws.own_secrets()
        )

    def out(self, payload, human: Human) -> None:
        if self.args.json:
            emit_json(payload, self.rt.stdout)
        else:
            write_human(human, self.rt.stdout, environ=self.rt.environ)

    def progress(self, what: str) -> Progress:
        kwargs = {k: v for k, v in {"clock": self.rt.clock, "sleep": self.rt.sleep}.items() if v}
        live = not self.args.json and styled_output(self.rt.stderr, self.rt.environ)
        return Progress(
            what,
            self.args.timeout,
            self.args.interval,
            stream=self.rt.stderr,
            live=live,
            environ=self.rt.environ,
            deadline=self.deadline,
            **kwargs,
        )

    def note(self, text: str) -> None:
        """A progress note on standard error (so that --json's standard output stays one document)."""
        self.say(text, self.rt.stderr)

    def say(self, text: str, stream: TextIO | None = None) -> None:
        """Print ``text`` now; if standard output is closed, on standard error instead (it must not be lost)."""
        try:
            (stream or self.rt.stdout).write(text.rstrip("\n") + "\n")
            (stream or self.rt.stdout).flush()
        except (OSError, ValueError):
            if stream is self.rt.stderr:
                raise
            self.rt.stderr.write(text.rstrip("\n") + "\n")

    def check_kubectl(self) -> None:
        if self.rt.run_command is None and not shutil.which(self.args.kubectl):
            raise OpsError(
                f"--kubectl {shown(self.args.kubectl)} is not an executable kubectl (not found on PATH, or not "
                "executable)",
                "install kubectl, or pass --kubectl /path/to/kubectl",
                ExitCode.USAGE,
            )
