"""The endpoint's API key: its options, where it is read from (an option, a Secrets Manager secret, the environment
variable, the environment's own secret), and keeping it out of everything a command writes."""

from __future__ import annotations

import argparse
import contextlib
import re
from typing import TextIO

from deployment_config import EnvironmentConfig
from deployment_config.aws_rules import partition_of, region_problem
from endpoint_probe.errors import printable
from endpoint_probe.url import ApiKey, api_key_problem
from ops_cli.api_key_secret import read_api_key_secret
from ops_cli.context import Context
from ops_cli.errors import ExitCode, OpsError, shown

#: The environment variable that may hold the endpoint's API key (read from the Runtime's environ).
API_KEY_VARIABLE = "LLMOPS_API_KEY"

#: Secrets Manager secret names: 1 to 512 ASCII letters, digits and /_+=.@- (botocore's secretsmanager model,
#: CreateSecret Name); an ARN: arn:PARTITION:secretsmanager:REGION:ACCOUNT:secret:NAME[-6 random characters].
_SECRET_NAME = re.compile(r"[A-Za-z0-9/_+=.@-]{1,512}")
_SECRET_ARN = re.compile(
    r"arn:aws[a-z-]*:secretsmanager:(?P<region>[a-z0-9-]+):\d{12}:secret:[A-Za-z0-9/_+=.@-]{1,519}"
)


def add_api_key_options(p: argparse.ArgumentParser) -> None:
    keys = p.add_mutually_exclusive_group()
    keys.add_argument(
        "--api-key",
        metavar="KEY",
        help="the endpoint's API key, sent as 'Authorization: Bearer KEY'. Discouraged on a shared "
        "machine: other users can read a command line (ps, /proc); prefer --api-key-secret, --env or "
        f"the {API_KEY_VARIABLE} environment variable. Default: none (see --api-key-secret)",
    )
    keys.add_argument(
        "--api-key-secret",
        metavar="NAME_OR_ARN",
        help="read the API key from this Secrets Manager secret (its text; an ARN for another account's "
        "secret), with secretsmanager:GetSecretValue in the ARN's region, --region or the environment's. "
        f"Default: {API_KEY_VARIABLE} if set, else with --env the environment's secret "
        "llm-serving/ENV/api-key (none when its file says endpoint.authentication: none)",
    )


def requires_key(env: EnvironmentConfig | None) -> bool:
    """Whether the environment's endpoint requires its API key: ``endpoint.authentication: api-key`` (the default), on
    either platform (the EKS path's serving stack and the HyperPod path's endpoint stack both create the secret and give
    vLLM the key)."""
    return env is not None and env.endpoint.api_key_required


def _checked_api_key(value: str, source: str) -> ApiKey:
    problem = api_key_problem(value)
    if problem:
        raise OpsError(
            f"the API key from {source} {problem}",
            "pass the key exactly as the server was started with it",
            ExitCode.USAGE,
        )
    return ApiKey(value, source)


def api_key(ctx: Context) -> ApiKey | None:
    """The key to send, from the first of: --api-key, --api-key-secret, LLMOPS_API_KEY, and with --env the
    environment's secret (``env.api_key_secret_name`` in the environment's account and region) when it requires
    one (:func:`requires_key`). None when none applies. Checked before any request; never printed."""
    if ctx.args.api_key is not None:
        return _checked_api_key(ctx.args.api_key, "--api-key")
    if ctx.args.api_key_secret is not None:
        secret_id, region = _secret_location(ctx, ctx.args.api_key_secret)
        with ctx.deadline.during("reading the API key from Secrets Manager"):
            return read_api_key_secret(ctx.aws_in(region), secret_id, printable(secret_id, 200))
    if ctx.rt.environ.get(API_KEY_VARIABLE):
        return _checked_api_key(ctx.rt.environ[API_KEY_VARIABLE], API_KEY_VARIABLE)
    env = ctx.env
    if not requires_key(env):
        return None
    region = ctx.region()  # the environment's (a contradicting --region is refused here)
    # An ARN, because a secret of another account can only be read by ARN (botocore's secretsmanager model,
    # GetSecretValue SecretId); a partial one (no random suffix), which works as long as the name does not end
    # in '-' and six characters ('.../api-key' does not).
    arn = f"arn:{partition_of(region)}:secretsmanager:{region}:{env.account}:secret:{env.api_key_secret_name}"
    with ctx.deadline.during("reading the API key from Secrets Manager"):
        return read_api_key_secret(
            ctx.aws_in(region), arn, f"{env.api_key_secret_name} (account {env.account}, {region})"
        )


def _secret_location(ctx: Context, text: str) -> tuple[str, str]:
    """``--api-key-secret``: the secret id to ask for and the region to ask in (an ARN's own region)."""
    arn = _SECRET_ARN.fullmatch(text)
    if len(text) > 2048 or not (arn or _SECRET_NAME.fullmatch(text)):
        raise OpsError(
            f"--api-key-secret {shown(text)} is not a secret name or ARN",
            "a name has 1 to 512 letters, digits and /_+=.@- ; an ARN looks like "
            "arn:aws:secretsmanager:us-west-2:123456789012:secret:NAME",
            ExitCode.USAGE,
        )
    if not arn:
        return text, ctx.region()
    region = arn.group("region")
    problem = region_problem(region)
    if problem:
        raise OpsError(f"--api-key-secret: {problem.problem}", problem.fix, ExitCode.USAGE)
    given = ctx.args.region or (ctx.env.region if ctx.env else None)
    if given is not None and given != region:
        raise OpsError(
            f"--api-key-secret is a secret of {region}, but the region is {given} (--region or --env)",
            "leave out --region, or pass the secret of that region: a secret is read in its own region",
            ExitCode.USAGE,
        )
    return text, region


@contextlib.contextmanager
def keeping_secret(ctx: Context, api_key: ApiKey | None):
    """While a command holds ``api_key``: whatever it writes, and the error it ends with, carry the key's source
    instead of its value, even when the endpoint echoes the request back."""
    if api_key is None:
        yield
        return
    stdout, stderr = ctx.rt.stdout, ctx.rt.stderr
    ctx.rt.stdout, ctx.rt.stderr = Redacting(stdout, api_key), Redacting(stderr, api_key)
    try:
        yield
    except OpsError as error:
        error.message, error.fix = api_key.redact(error.message), api_key.redact(error.fix)
        raise
    except Exception as error:  # noqa: BLE001 - re-raised, without the key if its message holds it
        text = str(error)
        if api_key.redact(text) != text:
            raise RuntimeError(f"{type(error).__name__}: {api_key.redact(text)}") from None
        raise
    finally:
        ctx.rt.stdout, ctx.rt.stderr = stdout, stderr


class Redacting:
    """A text stream that writes through to ``stream`` with the API key replaced (see ApiKey.redact)."""

    def __init__(self, stream: TextIO, api_key: ApiKey) -> None:
        self._stream = stream
        self._api_key = api_key

    def write(self, text: str) -> int:
        return self._stream.write(self._api_key.redact(text))

    def redact_text(self, text: str) -> str:
        """The key out of ``text`` before it is drawn (a table may fold a long cell across lines, where ``write`` could
        no longer find the key)."""
        return self._api_key.redact(text)

    def flush(self) -> None:
        self._stream.flush()

    def __getattr__(self, name: str):
        return getattr(self._stream, name)
