"""The llmops command line: argument parsing, dispatch, output and exit codes."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import os
import re
import shutil
import ssl
import sys
import traceback
import urllib.parse
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import TextIO

import botocore.exceptions

from deployment_config import ConfigError, EnvironmentConfig, load_environment
from deployment_config.aws_rules import partition_of, region_problem
from deployment_config.ec2_instance_types import known_instance_types
from deployment_config.file_models import domain_name_problem
from deployment_config.kubernetes_names import (
    INFERENCE_ENDPOINT_NAMESPACE,
    SERVING_NAMESPACE,
    inference_endpoint_name,
    serving_pods,
)
from deployment_config.model import Platform
from deployment_config.model_location import model_path
from endpoint_probe.deadline import Deadline
from endpoint_probe.errors import printable
from endpoint_probe.redaction import redact_secrets, secret_arguments
from endpoint_probe.smoke import DEFAULT_PROMPT, smoke_test
from endpoint_probe.url import ApiKey, TlsOptions, api_key_problem, check_url
from ops_cli import __version__, cost, weights
from ops_cli import bench as bn
from ops_cli import capacity_blocks as cb
from ops_cli import training_plans as tp
from ops_cli.api_key_secret import read_api_key_secret
from ops_cli.aws import Aws, botocore_session
from ops_cli.config_writer import check_environment_file, env_name_problem, missing_environment, update_environment_file
from ops_cli.errors import ExitCode, OpsError, shown, translate
from ops_cli.offering import Offering, Search
from ops_cli.operator_certificate import read_operator_certificate
from ops_cli.output import (
    Human,
    Table,
    duration,
    emit_json,
    iso,
    money,
    styled_output,
    table,
    utc_and_local,
    write_human,
)
from ops_cli.preflight import Status, run_preflight
from ops_cli.startup_phases import read_startup_phases
from ops_cli.tools import run_tool
from ops_cli.waiting import (
    Progress,
    wait_for_gpu_nodes,
    wait_for_health,
    wait_for_inference_endpoint,
    wait_for_reservation,
)

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

    aws_factory: Callable[[str], Aws] | None = None  # default: Aws(region) reading AWS_* variables from environ
    stdout: TextIO = field(default_factory=lambda: sys.stdout)
    stderr: TextIO = field(default_factory=lambda: sys.stderr)
    environ: dict = field(default_factory=lambda: dict(os.environ))
    clock: Callable[[], float] | None = None
    sleep: Callable[[float], None] | None = None
    now: Callable[[], datetime] = lambda: datetime.now(UTC)
    run_command: Callable | None = None  # subprocess.run, for kubectl (tests pass a fake)
    cwd: Callable[[], Path] = Path.cwd


def _moment(text: str) -> datetime:
    """An ISO date or date-time, in UTC; UTC unless it says otherwise."""
    try:
        moment = datetime.fromisoformat(text) if "T" in text or " " in text else datetime.combine(
            date.fromisoformat(text), datetime.min.time())
        return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    except (ValueError, OverflowError):
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:MM)") from None


#: Every --timeout bounds the whole command (ops_cli/deadline.py).
_TIMEOUT_HELP = ("seconds the whole command may take, kubectl and every request included: at the deadline what runs "
                 "is stopped and the command exits 10, naming what it was waiting for (default: {})")

#: The largest number any option takes (a timeout of 115 days); larger ones cannot be slept or sent.
MAX_NUMBER = 10_000_000


def _positive(text: str) -> int:
    """A whole number written one way only: ASCII digits (``int`` alone would also take '1_000', ' 5', '+5' and digits
    of other scripts)."""
    if not re.fullmatch(r"[0-9]+", text):
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a whole number (digits only, no separators or signs)")
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be at least 1")
    if value > MAX_NUMBER:
        raise argparse.ArgumentTypeError(f"{shown(text)} is too large (at most {MAX_NUMBER:,})")
    return value


class _Parser(argparse.ArgumentParser):
    """argparse, with its errors in the CLI's format: an ``error:`` line and a ``fix:`` line, exit code 2."""

    def error(self, message: str):  # type: ignore[override]
        if len(message) > 300:  # argparse quotes the arguments it did not expect, however long
            message = f"{message[:300]}... ({len(message)} characters)"
        self.print_usage(sys.stderr)
        self.exit(ExitCode.USAGE, f"error: {message}\n  fix: run '{self.prog} --help' for the accepted arguments\n")


def _common_options(defaults: bool) -> argparse.ArgumentParser:
    """Options accepted before and after any subcommand. Below the top level they default to SUPPRESS, so that a
    value given at one level is not reset by another level's default."""
    common = _Parser(add_help=False)
    suppress = {} if defaults else {"default": argparse.SUPPRESS}
    common.add_argument("--json", action="store_true", help="print machine-readable JSON instead of tables", **suppress)
    common.add_argument("--region", help="AWS region (default: the environment's, then AWS_REGION or AWS_DEFAULT_REGION, "
                        "then the profile's region in the AWS config file, as the AWS CLI does)", **suppress)
    common.add_argument("--profile", help="the AWS CLI profile whose credentials and region to use (default: AWS_PROFILE, "
                        "then the default profile)", **suppress)
    common.add_argument("--config-dir", type=Path,
                        help=f"where environment files live (default: {CONFIG_DIR_VARIABLE}, else config/ of the checkout "
                        "llmops runs from or that is the current directory)", **(suppress or {"default": None}))
    return common


def build_parser() -> argparse.ArgumentParser:
    common = _common_options(defaults=False)
    parser = _Parser(prog="llmops", description="Find and buy GPU capacity, preflight, wait, smoke-test.",
                     parents=[_common_options(defaults=True)])
    parser.add_argument("--version", action="version", version=f"llmops {__version__}")
    groups = parser.add_subparsers(dest="group", required=True, metavar="COMMAND")

    def search_args(p: argparse.ArgumentParser, instance_type: str | None, hours: int) -> None:
        p.add_argument("--env", help="take instance type, count and region from config/ENV.yaml")
        p.add_argument("--instance-type", default=None, help=f"instance type (default: the environment's, or {instance_type})")
        p.add_argument("--count", type=_positive, default=None, help="instances (default: the environment's, or 1)")
        p.add_argument("--duration-hours", type=_positive, default=hours, help=f"length of the reservation (default: {hours})")
        p.add_argument("--start-after", type=_moment, help="earliest start, YYYY-MM-DD[THH:MM] UTC (default: now)")
        p.add_argument("--end-before", type=_moment, help="latest end (default: 8 weeks from now)")

    blocks = groups.add_parser("capacity-blocks", help="EC2 Capacity Blocks", parents=[common]).add_subparsers(
        dest="command", required=True, metavar="SUBCOMMAND")
    p = blocks.add_parser("offerings", help="list offerings, cheapest first", parents=[common])
    search_args(p, "p6-b300.48xlarge", 48)
    p = blocks.add_parser("purchase", help="buy an offering (shows the fee; needs --yes)", parents=[common])
    search_args(p, "p6-b300.48xlarge", 48)
    p.add_argument("--offering-id", required=True, help="the offering to buy (from 'offerings')")
    p.add_argument("--yes", action="store_true", help="confirm the purchase and its upfront fee")
    p.add_argument("--dry-run", action="store_true", help="ask EC2 to check permission and availability, buy nothing")
    p.add_argument("--write-config", metavar="ENV", help="write the reservation id and zone into config/ENV.yaml")
    p = blocks.add_parser("extend", help="extend a reservation: list extension offerings, or buy one (needs --yes)",
                          parents=[common])
    p.add_argument("reservation_id", nargs="?", help="the reservation (default: the environment's, with --env)")
    p.add_argument("--env", help="extend the environment's Capacity Block (capacity.capacity_reservation_id)")
    p.add_argument("--duration-hours", type=_positive, required=True,
                   help="how much longer: whole days up to 14 (24 ... 336), then whole weeks")
    p.add_argument("--offering-id", help="the extension to buy (from the list this command prints without it)")
    p.add_argument("--yes", action="store_true", help="confirm the purchase and its upfront fee")
    p.add_argument("--dry-run", action="store_true", help="ask EC2 to check permission and availability, buy nothing")
    p = blocks.add_parser("show", help="show a reservation", parents=[common])
    p.add_argument("reservation_id")
    p = blocks.add_parser("use", help="write a reservation's id and zone into an environment file", parents=[common])
    p.add_argument("reservation_id")
    p.add_argument("--env", required=True)

    plans = groups.add_parser("training-plans", help="SageMaker Flexible Training Plans", parents=[common]).add_subparsers(
        dest="command", required=True, metavar="SUBCOMMAND")
    p = plans.add_parser("offerings", help="search offerings for HyperPod clusters, cheapest first", parents=[common])
    search_args(p, "ml.p6-b300.48xlarge", 48)
    p = plans.add_parser("create", help="create a plan from an offering (shows the fee; needs --yes)", parents=[common])
    search_args(p, "ml.p6-b300.48xlarge", 48)
    p.add_argument("--name", required=True, help="the plan's name")
    p.add_argument("--offering-id", required=True)
    p.add_argument("--yes", action="store_true", help="confirm the purchase and its upfront fee")
    p = plans.add_parser("show", help="describe a plan", parents=[common])
    p.add_argument("name")
    p = plans.add_parser("use", help="write a plan's ARN and zone into an environment file", parents=[common])
    p.add_argument("name")
    p.add_argument("--env", required=True)

    p = groups.add_parser("preflight", help="check an environment before cdk deploy", parents=[common])
    p.add_argument("--env", required=True)
    p.add_argument("--kubectl", default="kubectl",
                   help="HyperPod: the kubectl that reads the operator's CRD from the cluster (default: the one on PATH)")
    p.add_argument("--manifest", type=Path, default=None,
                   help="HyperPod: the endpoint as cdk synth rendered it (default: cdk.out/kubernetes/ENV/PRESET.yaml)")

    waits = groups.add_parser("wait", help="wait with progress and a timeout", parents=[common]).add_subparsers(
        dest="command", required=True, metavar="SUBCOMMAND")
    p = waits.add_parser("reservation", help="until a Capacity Block is active", parents=[common])
    p.add_argument("reservation_id")
    p.add_argument("--timeout", type=_positive, default=24 * 3600, help=_TIMEOUT_HELP.format(86400))
    p.add_argument("--interval", type=_positive, default=60, help="seconds between checks (default: 60)")
    p = waits.add_parser("nodes", help="until the GPU nodes of an environment are in service", parents=[common])
    p.add_argument("--env", required=True)
    p.add_argument("--timeout", type=_positive, default=3600, help=_TIMEOUT_HELP.format(3600))
    p.add_argument("--interval", type=_positive, default=30)
    p = waits.add_parser("endpoint", help="until the endpoint answers /health", parents=[common])
    p.add_argument("--url", required=True, help="for example http://internal-xxx.elb.us-west-2.amazonaws.com:8000 "
                   "(a URL that cannot work fails at once with exit code 2)")
    p.add_argument("--timeout", type=_positive, default=3 * 3600, help=_TIMEOUT_HELP.format(10800))
    p.add_argument("--interval", type=_positive, default=30)
    p.add_argument("--request-timeout", type=_positive, default=10,
                   help="deadline in seconds for each /health probe as a whole, connect to last byte; a probe past it "
                   "counts as not healthy yet (default: 10)")
    p.add_argument("--env", help="the environment the endpoint belongs to: its API key is tried once it is healthy "
                   "(/health itself needs none)")
    _api_key_options(p)
    _tls_options(p)

    p = waits.add_parser("inference-endpoint", help="until a HyperPod InferenceEndpointConfig is DeploymentComplete",
                         parents=[common])
    p.add_argument("--name", default="kimik3", help="the InferenceEndpointConfig (default: kimik3)")
    p.add_argument("--namespace", default=INFERENCE_ENDPOINT_NAMESPACE,
                   help=f"the endpoint's namespace (default: {INFERENCE_ENDPOINT_NAMESPACE}, the endpoint stack's)")
    p.add_argument("--kubectl", default="kubectl", help="kubectl to use (default: the one on PATH)")
    p.add_argument("--timeout", type=_positive, default=3 * 3600, help=_TIMEOUT_HELP.format(10800))
    p.add_argument("--interval", type=_positive, default=60)

    p = groups.add_parser("phases", help="where the vLLM pod's start went: node, image, weights, load, engine, healthy",
                          parents=[common])
    p.add_argument("--env", required=True, help="the environment whose serving pod to read")
    p.add_argument("--kubectl", default="kubectl", help="kubectl to use (default: the one on PATH)")

    p = groups.add_parser("cost", help="what the environment costs per hour and for the rest of its block, with the "
                          "prices' sources (AWS Price List Query API)", parents=[common])
    p.add_argument("--env", required=True, help="the environment to count and price")
    p.add_argument("--block-fee", metavar="AMOUNT", help="EKS: the Capacity Block's upfront fee that 'capacity-blocks "
                   "purchase' printed (EC2 does not return it later), written without thousands separators: 91540.80 "
                   "for '91,540.80 USD'; HyperPod reads the training plan's")
    p.add_argument("--currency", default="USD", help="the currency of --block-fee (default: USD)")
    p.add_argument("--pricing-region", choices=cost.PRICING_REGIONS, default=cost.PRICING_REGIONS[0],
                   help="the Price List Query API endpoint to ask (default: us-east-1; prices are for the environment's "
                   "region either way)")

    weights_group = groups.add_parser("weights", help="the model's weights", parents=[common]).add_subparsers(
        dest="command", required=True, metavar="COMMAND")
    p = weights_group.add_parser("mirror", help="copy the model from Hugging Face to the environment's S3 prefix at a "
                                 "pinned commit (a Job in the cluster), then check its checksum manifest", parents=[common])
    p.add_argument("--env", required=True, help="the environment (model.weight_source: s3) to mirror into")
    p.add_argument("--revision", help="branch, tag or commit to resolve on the Hub (default: the environment's "
                   "model.hugging_face_revision, else main); the commit id is written into the environment file")
    p.add_argument("--kubectl", default="kubectl", help="kubectl to use (default: the one on PATH)")
    p.add_argument("--timeout", type=_positive, default=12 * 3600,
                   help=_TIMEOUT_HELP.format(43200) + "; the Hub's answer has 30 s at most of its own")
    p.add_argument("--interval", type=_positive, default=30, help="seconds between looks at the copy (default: 30)")

    p = groups.add_parser("smoke-test", help="send chat completions, plain and streaming, and time them", parents=[common])
    p.add_argument("--url", required=True, help="the endpoint, for example http://localhost:8000")
    p.add_argument("--model", help="served model name (default: the environment's, or Kimi-K3)")
    p.add_argument("--env", help="take the served model name and the model path from config/ENV.yaml")
    p.add_argument("--model-path", help="the model vLLM must have loaded, as /v1/models reports its root "
                   "(default: the environment's --model; without --env only the served name is checked)")
    p.add_argument("--prompt", default=DEFAULT_PROMPT)
    p.add_argument("--max-tokens", type=_positive, default=64)
    p.add_argument("--timeout", type=_positive, default=600,
                   help="deadline in seconds for the whole smoke test, every request from connect to the last byte of "
                   "its answer or stream (default: 600); a request past it stops the smoke test with exit code 10")
    _api_key_options(p)
    _tls_options(p)

    p = groups.add_parser("bench", help="a correctness probe (a checkable answer, a schema-checked tool call) and a load "
                          "test with vLLM's own 'vllm bench serve', run as a Kubernetes Job", parents=[common])
    p.add_argument("--env", required=True, help="the environment whose endpoint to test")
    p.add_argument("--url", help="the endpoint, for the probe, which runs from here like smoke-test (required unless "
                   "--skip-probe)")
    p.add_argument("--concurrency", type=_concurrencies, default=bn.DEFAULT_CONCURRENCIES, metavar="N,N,...",
                   help="one load-test run per concurrency (default: 1,4,16)")
    p.add_argument("--input-len", type=_positive, default=bn.DEFAULT_INPUT_LEN, help="prompt tokens (default: 8192)")
    p.add_argument("--output-len", type=_positive, default=bn.DEFAULT_OUTPUT_LEN, help="output tokens (default: 1024)")
    p.add_argument("--num-prompts", type=_positive, help="requests per run (default: max(10, 4 x concurrency))")
    p.add_argument("--probe-only", action="store_true", help="run the probe only, no load test")
    p.add_argument("--skip-probe", action="store_true", help="run the load test only")
    p.add_argument("--probe-max-tokens", type=_positive, default=bn.DEFAULT_PROBE_MAX_TOKENS,
                   help="max_tokens of each probe request, room for the reasoning too (default: 4096)")
    p.add_argument("--request-timeout", type=_positive, default=600,
                   help="deadline in seconds for each probe request as a whole (default: 600; exit code 10)")
    p.add_argument("--timeout", type=_positive, default=3600,
                   help=_TIMEOUT_HELP.format(3600) + "; the load-test Job gets what is left as its activeDeadlineSeconds")
    p.add_argument("--interval", type=_positive, default=15, help="seconds between checks of the Job (default: 15)")
    _api_key_options(p)
    _tls_options(p)
    return parser


def _concurrencies(text: str) -> tuple[int, ...]:
    try:
        return bn.parse_concurrencies(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _tls_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--tls-server-name", metavar="NAME",
                   help="for an https:// URL: send NAME in TLS (SNI) and verify the certificate for NAME instead of the "
                   "URL's host, to test the load balancer by its own name before the DNS record of NAME exists. "
                   "Default: with --env, the environment's endpoint.domain_name when the URL's host differs from it")
    p.add_argument("--ca-bundle", metavar="FILE",
                   help="a PEM file of the certificate authorities to trust instead of the system's (a private CA). "
                   "Default: the system's store (OpenSSL also reads SSL_CERT_FILE and SSL_CERT_DIR); with --env of a "
                   "HyperPod environment, the certificate its Inference Operator generated, read from its status and S3")
    p.add_argument("--kubectl", default="kubectl",
                   help="HyperPod: the kubectl that reads the InferenceEndpointConfig's certificate location "
                   "(default: the one on PATH)")


#: The environment variable that may hold the endpoint's API key (read from the Runtime's environ).
API_KEY_VARIABLE = "LLMOPS_API_KEY"


def _api_key_options(p: argparse.ArgumentParser) -> None:
    keys = p.add_mutually_exclusive_group()
    keys.add_argument("--api-key", metavar="KEY",
                      help="the endpoint's API key, sent as 'Authorization: Bearer KEY'. Discouraged on a shared "
                      "machine: other users can read a command line (ps, /proc); prefer --api-key-secret, --env or "
                      f"the {API_KEY_VARIABLE} environment variable")
    keys.add_argument("--api-key-secret", metavar="NAME_OR_ARN",
                      help="read the API key from this Secrets Manager secret (its text; an ARN for another account's "
                      "secret), with secretsmanager:GetSecretValue in the ARN's region, --region or the environment's. "
                      f"Default: {API_KEY_VARIABLE} if set, else with --env the environment's secret "
                      "llm-serving/ENV/api-key (none when its file says endpoint.authentication: none)")


class Cli:
    def __init__(self, args: argparse.Namespace, runtime: Runtime) -> None:
        self.args = args
        self.rt = runtime
        self._env: EnvironmentConfig | None = None
        # --timeout bounds the whole command, from here (ops_cli/deadline.py); commands without one have none.
        self.deadline = Deadline(getattr(args, "timeout", None))
        self.deadline.phase = "running llmops " + " ".join(filter(None, (args.group, getattr(args, "command", None))))

    # --- shared -----------------------------------------------------------------------------------------------

    @property
    def env(self) -> EnvironmentConfig | None:
        name = getattr(self.args, "env", None)
        if name is not None and self._env is None:
            self._env = _load_environment(self.config_dir, name, "--env")
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
            raise OpsError("no configuration directory: llmops runs outside a checkout of this project, and neither "
                           f"--config-dir nor {CONFIG_DIR_VARIABLE} names one",
                           f"pass --config-dir PATH/TO/CHECKOUT/config (or set {CONFIG_DIR_VARIABLE}), or run llmops "
                           "from the checkout", ExitCode.USAGE)
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
            known = botocore_session({k: v for k, v in environ.items() if k != "AWS_PROFILE"}).available_profiles
        except botocore.exceptions.BotoCoreError as error:
            raise translate(error, "read the AWS config and credentials files") from None
        if profile not in known:
            listed = ", ".join(printable(p, 40) for p in sorted(known)[:10]) or "none"
            raise OpsError(f"--profile {shown(profile)} is not a profile of the AWS config or credentials file "
                           f"(profiles there: {listed})",
                           "pass one of those, or create it: aws configure --profile NAME (aws configure sso for SSO)",
                           ExitCode.USAGE)
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
            source, region = next(((f"{name} (environment variable)", self.rt.environ[name])
                                   for name in ("AWS_REGION", "AWS_DEFAULT_REGION") if self.rt.environ.get(name)),
                                  (None, None))
        if region is None:
            environ = self.aws_environ
            try:
                region = botocore_session(environ).get_config_variable("region")
            except botocore.exceptions.BotoCoreError as error:
                raise translate(error, "read the region of the AWS profile") from None
            source = f"the region of the AWS profile {shown(environ.get('AWS_PROFILE') or 'default')}"
        if region is None:
            raise OpsError("no AWS region", "pass --region, --env NAME, set AWS_REGION, or give the AWS profile a region "
                           "(aws configure set region REGION)", ExitCode.USAGE)
        problem = region_problem(region)
        if problem:
            raise OpsError(f"{source}: {problem.problem}", problem.fix, ExitCode.USAGE)
        if env is not None and region != env.region:
            raise OpsError(f"--region {region} contradicts --env {env.name}, which deploys to {env.region}",
                           "leave out --region (the environment's region is used), or name the environment of that region",
                           ExitCode.USAGE)
        return region

    def aws(self) -> Aws:
        region = self.region()
        aws = self.rt.aws_factory(region) if self.rt.aws_factory else Aws(region, environ=self.aws_environ)
        if self.rt.sleep:
            aws.sleep = self.rt.sleep
        return aws

    def out(self, payload, human: Human) -> None:
        if self.args.json:
            emit_json(payload, self.rt.stdout)
        else:
            write_human(human, self.rt.stdout, environ=self.rt.environ)

    def progress(self, what: str) -> Progress:
        kwargs = {k: v for k, v in {"clock": self.rt.clock, "sleep": self.rt.sleep}.items() if v}
        live = not self.args.json and styled_output(self.rt.stderr, self.rt.environ)
        return Progress(what, self.args.timeout, self.args.interval, stream=self.rt.stderr, live=live,
                        environ=self.rt.environ, deadline=self.deadline, **kwargs)

    def search(self, *, sagemaker: bool) -> Search:
        """The search the arguments ask for; what they leave out comes from --env, then from the defaults. Checked
        here, so that nothing absurd is sent to AWS or shown back."""
        env = self.env
        # With --env, the capacity that platform uses: a HyperPod section for training plans, else the Capacity Block.
        hyperpod = env.hyperpod if env and sagemaker and env.hyperpod else None
        capacity = env.capacity if env and not hyperpod else None
        gpu_type = env.gpu_instance_type.name if env else "p6-b300.48xlarge"
        instance_type = self.args.instance_type if self.args.instance_type is not None else (
            hyperpod.instance_type if hyperpod else f"ml.{gpu_type}" if sagemaker else gpu_type)
        _check_instance_type(instance_type, sagemaker)
        reserved = hyperpod or capacity
        count = self.args.count or (reserved.instance_count if reserved else 1)
        most = tp.MAX_INSTANCE_COUNT if sagemaker else cb.MAX_INSTANCE_COUNT
        if count > most:
            raise OpsError(f"--count {count} is more than {'a training plan offering' if sagemaker else 'a Capacity Block'} "
                           f"holds ({most})", f"use at most {most}, and reserve more in several purchases", ExitCode.USAGE)
        if sagemaker and self.args.duration_hours > tp.MAX_DURATION_HOURS:
            raise OpsError(f"--duration-hours {self.args.duration_hours} is longer than a training plan "
                           f"({tp.MAX_DURATION_HOURS} h)", f"use at most {tp.MAX_DURATION_HOURS}", ExitCode.USAGE)
        now = self.rt.now()
        start, end = cb.default_window(now)
        # An earliest start in the past means "from now": AWS searches only ahead.
        start, end = max(self.args.start_after or start, now), self.args.end_before or end
        horizon = now + timedelta(days=MAX_DAYS_AHEAD)
        for option, moment in (("--start-after", self.args.start_after), ("--end-before", self.args.end_before)):
            if moment is not None and moment > horizon:
                raise OpsError(f"{option} {_day(moment)} is more than {MAX_DAYS_AHEAD} days ahead; AWS offers capacity "
                               "weeks ahead, not years", f"pick a date before {_day(horizon)}", ExitCode.USAGE)
        if end <= now:
            raise OpsError(f"--end-before {_day(end)} is in the past", "pick a date after today", ExitCode.USAGE)
        if end <= start:
            since = f"--start-after {_day(start)}" if self.args.start_after and start > now else f"now ({_day(now)})"
            raise OpsError(f"--end-before {_day(end)} is not after {since}", "widen the date range", ExitCode.USAGE)
        if end - start < timedelta(hours=self.args.duration_hours):
            raise OpsError(f"from {_day(start)} to {_day(end)} there is less time than --duration-hours "
                           f"{self.args.duration_hours}", "widen the date range or shorten the duration", ExitCode.USAGE)
        return Search(instance_type, count, self.args.duration_hours, start, end)

    # --- Capacity Blocks ----------------------------------------------------------------------------------------

    def capacity_blocks_offerings(self) -> int:
        search = self.search(sagemaker=False)
        offerings = cb.find_offerings(self.aws(), search)
        human = (_offerings_table(offerings) if offerings else
                 f"No Capacity Block offerings for {search.instance_count} x {search.instance_type}, "
                 f"{search.duration_hours} h, between {utc_and_local(search.start_after)} "
                 f"and {utc_and_local(search.end_before)}.")
        self.out([o.to_dict() for o in offerings], human)
        return ExitCode.OK

    def capacity_blocks_purchase(self) -> int:
        cb.check_offering_id(self.args.offering_id)
        target = self.args.write_config
        if target is not None:  # what can be checked without the offering, before any AWS call
            self._write_target(target)
        search = self.search(sagemaker=False)
        aws = self.aws()
        offering = cb.find_offering(aws, search, self.args.offering_id)
        fee = money(offering.upfront_fee, offering.currency)
        what = (f"{offering.instance_count} x {offering.instance_type} in {offering.availability_zone}, "
                f"{utc_and_local(offering.start)} to {utc_and_local(offering.end)}, upfront fee {fee}")
        if target is not None:  # before anything is bought: would the file take this reservation?
            self._check_write_target(target, offering)
        if not self._confirmed(offering, f"buy {what}", f"not bought: {what}. Capacity Blocks are paid upfront and "
                               "cannot be cancelled",
                               lambda: cb.purchase(aws, offering, dry_run=True, tags={"created-by": "llmops"})):
            return ExitCode.OK
        # Sent once; a lost answer is looked up (bought, or UNKNOWN: ops_cli/purchase_outcome.py).
        reservation = cb.purchase(aws, offering, dry_run=False, tags={"created-by": "llmops"}, say=self._note)
        summary = cb.reservation_summary(reservation)
        reservation_id = summary["reservation_id"]
        # The id is shown now, before anything else can fail: with --json the one JSON document comes at the end.
        bought = f"Bought {what}.\nReservation {reservation_id} is {summary['state']}."
        if self.args.json:
            self._say(f"bought: reservation {reservation_id}", self.rt.stderr)
        else:
            self._say(bought)
        if target is None:
            if self.args.json:
                emit_json(summary, self.rt.stdout)
            return ExitCode.OK
        try:
            path = update_environment_file(self.config_dir, target, {
                "capacity.capacity_reservation_id": reservation_id,
                "capacity.availability_zone": summary["availability_zone"]})
        except (Exception, KeyboardInterrupt) as error:  # noqa: BLE001 - whatever it was, the purchase must be reported
            problem = error.message if isinstance(error, OpsError) else f"{type(error).__name__}: {error}"
            raise OpsError(f"reservation {reservation_id} WAS bought ({what}), but its id and zone were not written "
                           f"into --write-config {target}: {problem}",
                           f"write them with: llmops capacity-blocks use {reservation_id} --env {target}  (after fixing "
                           "the problem above; or set capacity.capacity_reservation_id and capacity.availability_zone "
                           "by hand)", ExitCode.BOUGHT_NOT_WRITTEN,
                           details={**summary, "bought": True, "config_written": False}) from None
        if self.args.json:
            emit_json({**summary, "config_file": str(path)}, self.rt.stdout)
        else:
            self.rt.stdout.write(f"Wrote its id and zone into {path}.\n")
        return ExitCode.OK

    def _confirmed(self, offering, action: str, refusal: str, dry_run: Callable[[], object]) -> bool:
        """Whether to go on and buy ``offering``: with --dry-run, EC2's check runs (``dry_run``), its result is shown
        and nothing is bought (False); without --yes, nothing is bought either and the command fails with
        ``refusal`` (exit 3); with --yes, True."""
        if self.args.dry_run:
            dry_run()
            self.out({"dry_run": True, "offering": offering.to_dict(), "would_succeed": True},
                     f"Dry run passed: you may {action}. Nothing was bought.")
            return False
        if not self.args.yes:
            raise OpsError(refusal, "run the same command with --yes to buy it", ExitCode.CONFIRMATION_REQUIRED)
        return True

    def _write_target(self, target: str) -> EnvironmentConfig:
        """The --write-config environment as it is now, if it could hold a Capacity Block reservation at all."""
        problem = env_name_problem(target)
        if problem:
            raise OpsError(f"--write-config: {problem}", "name a file of the config directory without '.yaml', "
                           "for example --write-config prod", ExitCode.USAGE)
        if not (Path(self.config_dir) / f"{target}.yaml").is_file():
            error = missing_environment(self.config_dir, target)
            raise OpsError(error.message, error.fix.replace("--env NAME", "--write-config NAME"), ExitCode.USAGE)
        try:
            current = _load_environment(self.config_dir, target, "--write-config")
            check_environment_file(self.config_dir, target, {})  # can it be edited safely at all?
        except OpsError as error:
            raise _not_bought(target, error.message, error.fix) from None
        if current.capacity is None:
            raise _not_bought(target, f"it is a platform: {current.platform.value} environment without a capacity "
                              "section; Capacity Blocks serve platform: eks",
                              "write into an eks environment, or leave out --write-config")
        return current

    def _check_write_target(self, target: str, offering: Offering) -> None:
        """Refuse, before a purchase, a --write-config file that could not take the reservation's id and zone."""
        self._write_target(target)  # again: the file may have changed while EC2 was searched
        try:  # a syntactically valid id stands in for the one the purchase will return
            config = check_environment_file(self.config_dir, target, {
                "capacity.capacity_reservation_id": cb.PROBE_RESERVATION_ID,
                "capacity.availability_zone": offering.availability_zone})
        except OpsError as error:
            raise _not_bought(target, error.message, error.fix) from None
        held = (offering.instance_type, offering.instance_count)
        wanted = (config.capacity.instance_type.name, config.capacity.instance_count)
        if held != wanted:
            raise _not_bought(target, f"the offering holds {held[1]} x {held[0]}, the environment asks for "
                              f"{wanted[1]} x {wanted[0]}", "buy an offering that matches (--env NAME searches for the "
                              "environment's type and count), or change capacity.instance_type and "
                              "capacity.instance_count first")

    def _note(self, text: str) -> None:
        """A progress note on standard error (so that --json's standard output stays one document)."""
        self._say(text, self.rt.stderr)

    def _say(self, text: str, stream: TextIO | None = None) -> None:
        """Print ``text`` now; if standard output is closed, on standard error instead (it must not be lost)."""
        try:
            (stream or self.rt.stdout).write(text.rstrip("\n") + "\n")
            (stream or self.rt.stdout).flush()
        except (OSError, ValueError):
            if stream is self.rt.stderr:
                raise
            self.rt.stderr.write(text.rstrip("\n") + "\n")

    def capacity_blocks_show(self) -> int:
        cb.check_reservation_id(self.args.reservation_id)
        summary = cb.reservation_summary(cb.describe_reservation(self.aws(), self.args.reservation_id))
        human = table(["field", "value"], [(k, summary[k]) for k in ("reservation_id", "state", "instance_type",
                                                                      "instance_count", "availability_zone")]
                      + [("start", utc_and_local(_parse(summary["start"]))), ("end", utc_and_local(_parse(summary["end"])))])
        self.out(summary, human)
        return ExitCode.OK

    def capacity_blocks_extend(self) -> int:
        """Without --offering-id: the extension offerings of --duration-hours for the reservation, cheapest first. With
        it: the offering found again (exit 8 when gone), its fee shown, bought only with --yes (exit 3 without), or
        checked by EC2 with --dry-run. The reservation must be extendable (cb.check_extendable) before any offering is
        asked for."""
        reservation_id = self.args.reservation_id
        if reservation_id is None:
            env = self.env
            if env is None:
                raise OpsError("no reservation: name one (capacity-blocks extend cr-...) or pass --env NAME",
                               "llmops capacity-blocks extend cr-0123456789abcdef0 --duration-hours 24", ExitCode.USAGE)
            if env.capacity is None:
                raise OpsError(f"{env.name} has no capacity section (platform {env.platform.value})",
                               "Capacity Blocks serve platform: eks", ExitCode.USAGE)
            reservation_id = env.capacity.capacity_reservation_id
        cb.check_reservation_id(reservation_id)
        cb.check_duration(self.args.duration_hours)
        if self.args.offering_id is not None:
            cb.check_extension_offering_id(self.args.offering_id)
        aws = self.aws()
        reservation = cb.describe_reservation(aws, reservation_id)
        cb.check_extendable(reservation, self.rt.now())
        offerings = cb.find_extensions(aws, reservation_id, self.args.duration_hours)
        if self.args.offering_id is None:
            rows = [(o.offering_id, utc_and_local(o.start), utc_and_local(o.end), duration(o.duration_hours),
                     o.instance_count, money(o.upfront_fee, o.currency)) for o in offerings]
            human = (table(["offering", "from (current end)", "to", "extension", "count", "upfront fee"], rows)
                     if offerings else f"No extension offerings of {duration(self.args.duration_hours)} for "
                                       f"{reservation_id} (ends {utc_and_local(reservation.get('EndDate'))}).")
            self.out([o.to_dict() for o in offerings], human)
            return ExitCode.OK
        offering = next((o for o in offerings if o.offering_id == self.args.offering_id), None)
        if offering is None:
            raise OpsError(f"extension offering {self.args.offering_id} is no longer offered for {reservation_id} and "
                           f"{self.args.duration_hours} h (taken, or expired)",
                           "list the extension offerings again and pick a current one", ExitCode.OFFERING_GONE)
        what = (f"{reservation_id} ({offering.instance_count} x {offering.instance_type}) from "
                f"{utc_and_local(offering.start)} to {utc_and_local(offering.end)}, upfront fee "
                f"{money(offering.upfront_fee, offering.currency)}")
        if not self._confirmed(offering, f"extend {what}", f"not extended: {what}. An extension is paid upfront and "
                               "cannot be cancelled", lambda: cb.purchase_extension(aws, offering, dry_run=True)):
            return ExitCode.OK
        extension = cb.purchase_extension(aws, offering, dry_run=False, say=self._note)
        status = extension.get("CapacityBlockExtensionStatus", "?")
        self.out({"reservation_id": reservation_id, "status": status, "offering": offering.to_dict(),
                  "extension_end": iso(extension.get("CapacityBlockExtensionEndDate"))},
                 [f"Extended {what}.", f"The extension is {status}: EC2 fails it if the payment is not processed within "
                  "12 hours or 35 minutes before the current end, whichever comes first; "
                  f"llmops capacity-blocks show {reservation_id} shows the new end once it is paid."])
        return ExitCode.OK

    def capacity_blocks_use(self) -> int:
        cb.check_reservation_id(self.args.reservation_id)
        env = self.env
        check_environment_file(self.config_dir, env.name, {})  # a file it cannot edit is refused before any call
        if env.capacity is None:
            raise OpsError(f"{env.name} has no capacity section (platform {env.platform.value})",
                           "Capacity Blocks serve platform: eks; for HyperPod use training-plans use", ExitCode.USAGE)
        reservation = cb.describe_reservation(self.aws(), self.args.reservation_id)
        held = (reservation.get("InstanceType"), reservation.get("TotalInstanceCount"))
        wanted = (env.capacity.instance_type.name, env.capacity.instance_count)
        if held != wanted:
            raise OpsError(f"not written: the reservation holds {held[1]} x {held[0]}, the environment asks for "
                           f"{wanted[1]} x {wanted[0]}", "set capacity.instance_type and capacity.instance_count to match "
                           "first, or use another reservation", ExitCode.USAGE)
        path = update_environment_file(self.config_dir, self.args.env, {
            "capacity.capacity_reservation_id": reservation["CapacityReservationId"],
            "capacity.availability_zone": reservation["AvailabilityZone"]})
        self.out({"config_file": str(path), **cb.reservation_summary(reservation)},
                 f"Wrote {reservation['CapacityReservationId']} ({reservation['AvailabilityZone']}) into {path}.")
        return ExitCode.OK

    # --- training plans ----------------------------------------------------------------------------------------

    def training_plans_offerings(self) -> int:
        search = self.search(sagemaker=True)
        offerings = tp.find_plan_offerings(self.aws(), search)
        human = (_offerings_table(offerings) if offerings else
                 f"No training plan offerings for {search.instance_count} x {search.instance_type}, {search.duration_hours} h.")
        self.out([o.to_dict() for o in offerings], human)
        return ExitCode.OK

    def training_plans_create(self) -> int:
        tp.check_plan_name(self.args.name, arn_allowed=False)
        tp.check_offering_id(self.args.offering_id)
        search = self.search(sagemaker=True)
        aws = self.aws()
        offering = tp.find_plan_offering(aws, search, self.args.offering_id)
        what = (f"plan '{self.args.name}': {offering.instance_count} x {offering.instance_type} in {offering.availability_zone}, "
                f"{utc_and_local(offering.start)} to {utc_and_local(offering.end)}, "
                f"upfront fee {money(offering.upfront_fee, offering.currency)}")
        if not self.args.yes:
            raise OpsError(f"not created: {what}. Training plans are paid upfront",
                           "run the same command with --yes to create it", ExitCode.CONFIRMATION_REQUIRED)
        arn = tp.create_plan(aws, self.args.name, offering, say=self._note)  # sent once, as a Capacity Block purchase
        shown_arn = arn or f"(not in SageMaker's answer; llmops training-plans show {self.args.name} shows it)"
        if self.args.json:  # what was bought is on stderr too, in case stdout cannot take the JSON
            self._say(f"created: training plan {self.args.name}, ARN {shown_arn}", self.rt.stderr)
            emit_json({"name": self.args.name, "arn": arn, "offering": offering.to_dict()}, self.rt.stdout)
        else:
            self._say(f"Created {what}.\nARN: {shown_arn}")
        return ExitCode.OK

    def training_plans_show(self) -> int:
        tp.check_plan_name(self.args.name, arn_allowed=True)
        summary = tp.plan_summary(tp.describe_plan(self.aws(), self.args.name))
        rows = [(k, summary[k]) for k in ("name", "arn", "status", "instance_count")]
        rows += [("zones", ", ".join(summary["availability_zones"])), ("instance types", ", ".join(summary["instance_types"])),
                 ("start", utc_and_local(_parse(summary["start"]))), ("end", utc_and_local(_parse(summary["end"]))),
                 ("upfront fee", money(summary["upfront_fee"], summary["currency"]))]
        self.out(summary, table(["field", "value"], rows))
        return ExitCode.OK

    def training_plans_use(self) -> int:
        tp.check_plan_name(self.args.name, arn_allowed=True)
        if self.env is None:  # loading validates the file before anything is asked of AWS
            raise OpsError("--env is required", "name the environment to write to", ExitCode.USAGE)
        check_environment_file(self.config_dir, self.env.name, {})  # a file it cannot edit is refused before any call
        summary = tp.plan_summary(tp.describe_plan(self.aws(), self.args.name))
        zones = summary["availability_zones"]
        if len(zones) != 1:
            raise OpsError(f"plan {self.args.name} has capacity in {len(zones)} zones ({', '.join(zones) or 'none yet'})",
                           "set hyperpod.training_plan_arn and hyperpod.availability_zone by hand", ExitCode.USAGE)
        path = update_environment_file(self.config_dir, self.args.env, {
            "hyperpod.training_plan_arn": summary["arn"], "hyperpod.availability_zone": zones[0]})
        self.out({"config_file": str(path), **summary}, f"Wrote {summary['arn']} ({zones[0]}) into {path}.")
        return ExitCode.OK

    # --- cost ---------------------------------------------------------------------------------------------------

    def cost(self) -> int:
        """The environment's billable resources, priced per hour and for the rest of its block (ops_cli/cost.py)."""
        env = self.env
        fee = cost.parse_block_fee(self.args.block_fee) if self.args.block_fee is not None else None
        currency = self.args.currency.strip().upper()
        if not re.fullmatch(r"[A-Z]{3}", currency):
            raise OpsError(f"--currency {shown(self.args.currency)} is not a currency code", "use a three-letter code, "
                           "for example USD", ExitCode.USAGE)
        report = cost.cost_report(self.aws(), self._aws_in(self.args.pricing_region), env, now=self.rt.now(),
                                  block_fee=fee, fee_currency=currency)
        self.out(report.to_dict(), _cost_human(report))
        return ExitCode.OK

    # --- preflight, wait, smoke test ----------------------------------------------------------------------------

    def preflight(self) -> int:
        checks = run_preflight(self.aws(), self.env, now=self.rt.now(), kubectl=self.args.kubectl,
                               run_command=self.rt.run_command, manifest=self.args.manifest)
        failed = any(c.status is Status.FAIL for c in checks)
        human = table(["check", "result", "detail", "fix"], [(c.name, c.status.value.upper(), c.detail, c.fix) for c in checks])
        human = [human, "Preflight FAILED: fix the rows marked FAIL before cdk deploy." if failed else "Preflight passed."]
        self.out({"passed": not failed, "checks": [c.to_dict() for c in checks]}, human)
        return ExitCode.CHECK_FAILED if failed else ExitCode.OK

    def wait_reservation(self) -> int:
        cb.check_reservation_id(self.args.reservation_id)
        reservation = wait_for_reservation(self.aws(), self.args.reservation_id,
                                           self.progress(f"reservation {self.args.reservation_id}"))
        self.out(cb.reservation_summary(reservation), f"Reservation {self.args.reservation_id} is active.")
        return ExitCode.OK

    def wait_nodes(self) -> int:
        state = wait_for_gpu_nodes(self.aws(), self.env, self.progress(f"GPU nodes of {self.env.cluster_name}"))
        self.out(state, f"{state['in_service']} GPU node(s) in service.")
        return ExitCode.OK

    def wait_endpoint(self) -> int:
        tls = self.tls_options()
        check_url(self.args.url, tls=tls)  # a URL that cannot work fails before the key is read
        tls = self.operator_trust(tls)
        api_key = self.api_key()
        with self._keeping_secret(api_key):
            key_check = wait_for_health(self.args.url, self.progress(f"{self.args.url}/health"),
                                        request_timeout=self.args.request_timeout, api_key=api_key, tls=tls,
                                        deadline=self.deadline)
            human = f"{self.args.url} is healthy."
            if tls.server_name:
                human += f"\nIts TLS certificate is valid for {tls.server_name}."
            if tls.ca_source:
                human += f"\nIts TLS certificate was verified against {tls.ca_source}."
            if key_check and key_check["accepted"]:
                human += f"\nThe API key from {key_check['source']} is accepted."
            elif key_check:
                human += f"\nThe API key from {key_check['source']} could not be checked: {key_check['detail']}"
            payload = {"url": self.args.url, "healthy": True, "api_key": key_check,
                       "tls_server_name": tls.server_name, "tls_trusted": tls.ca_source}
            parts: list = [human]
            if self.env is not None:
                # With the environment, where the start went (read with kubectl); a failure to read it is a note, not a
                # failed wait: the endpoint is healthy.
                try:
                    phases = self._startup_phases()
                except OpsError as error:
                    payload["phases"], payload["phases_error"] = None, error.message
                    parts.append(f"Startup phases not read: {error.message}")
                else:
                    payload["phases"] = [p.to_dict() for p in phases]
                    parts.append(_phases_table(phases))
            self.out(payload, parts)
        return ExitCode.OK

    def phases(self) -> int:
        """Where the newest vLLM pod's start went, phase by phase (ops_cli/startup_phases.py), at any time: during a
        start the phases not reached yet show as unknown."""
        phases = self._startup_phases()
        self.out({"env": self.env.name, "phases": [p.to_dict() for p in phases]}, _phases_table(phases))
        return ExitCode.OK

    def _startup_phases(self) -> list:
        self._check_kubectl()
        namespace, selector = serving_pods(self.env)
        _, phases = read_startup_phases(self.args.kubectl, namespace=namespace, selector=selector,
                                        container_image=self.env.serving_image, run=self.rt.run_command,
                                        deadline=self.deadline)
        return phases

    def weights_mirror(self) -> int:
        """Resolve the revision to a commit, run the copy Job into that commit's own prefix, follow it, check the
        manifest, and only then write the commit into the environment file (ops_cli/weights.py)."""
        env = self.env
        weights.check_mirror_target(env)
        self._check_kubectl()
        check_environment_file(self.config_dir, env.name, {})  # a file it cannot edit is refused before any call
        ref = self.args.revision or env.model.hugging_face_revision or "main"
        token = None
        if env.model.hugging_face_token_secret:  # a gated model: the Hub answers its info only with the token
            with self.deadline.during("reading the Hugging Face token from Secrets Manager"):
                answer = self.aws().call("secretsmanager", "get_secret_value", "read the Hugging Face token",
                                         SecretId=env.model.hugging_face_token_secret)
            token = (answer.get("SecretString") or "").strip() or None
        sha = weights.resolve_revision(env.model.hugging_face_id, ref, token=token,
                                       hub=weights.hub_endpoint(self.rt.environ), deadline=self.deadline)
        bucket, prefix = weights.check_mirror_target(env, sha)
        # With spec_decoding the recipe's speculator is mirrored by the same Job, at the commit it is pinned to (else its
        # default branch), into its own prefix (deployment_config/speculator.py).
        speculator_id = weights.mirrored_speculator(env)
        speculator_sha = speculator_target = None
        if speculator_id is not None:
            speculator_sha = weights.resolve_revision(speculator_id, env.model.speculator_revision or "main", token=token,
                                                      hub=weights.hub_endpoint(self.rt.environ), deadline=self.deadline)
            speculator_target = weights.speculator_target(env, speculator_sha)
        # The edit is checked now (the file must accept this revision) and made only once the copy checked out: until
        # then the file, and what the charts serve, stay at the revision that was there. Both revisions or neither.
        revision_update = {"model.hugging_face_revision": sha,
                           **({"model.speculator_revision": speculator_sha} if speculator_sha else {})}
        check_environment_file(self.config_dir, env.name, revision_update)
        self._say(f"{env.model.hugging_face_id}@{ref} is commit {sha}; copying it to s3://{bucket}/{prefix}.",
                  self.rt.stderr)
        if speculator_target is not None:
            self._say(f"The speculator {speculator_id} is commit {speculator_sha}; copying it to "
                      f"s3://{speculator_target[0]}/{speculator_target[1]}.", self.rt.stderr)
        run, deadline = self.rt.run_command, self.deadline  # every kubectl call ends by the --timeout deadline
        k, ns = self.args.kubectl, SERVING_NAMESPACE
        weights.kubectl(run, k, "delete", "job", weights.MIRROR_JOB, "-n", ns, "--ignore-not-found", "--wait=true",
                        deadline=deadline)
        items = weights.mirror_manifests(env, sha, speculator_sha)
        weights.kubectl(run, k, "apply", "-f", "-", stdin=json.dumps({"apiVersion": "v1", "kind": "List", "items": items}),
                        deadline=deadline)
        printed: list[dict] = []

        def probe() -> tuple[bool, str]:
            """One look at the Job: the files it has copied since the last look (a line each), and whether it ended.
            The log of a pod that has not started yet is not an error, only nothing to show."""
            result = run_tool([k, "logs", "-n", ns, f"job/{weights.MIRROR_JOB}"], deadline=deadline, cap=120, run=run)
            records = weights.file_records(result.stdout if result.returncode == 0 else "")
            for record in records[len(printed):]:
                self._say(f"[{record['file']}/{record['files']}] {printable(record['path'], 200)}  {record['size']:,} bytes  "
                          f"({record['bytes_copied']:,} of {record['bytes_total']:,})", self.rt.stderr)
                printed.append(record)
            job = weights.kubectl_json(run, k, "get", "job", weights.MIRROR_JOB, "-n", ns, deadline=deadline)
            status = job.get("status") if isinstance(job.get("status"), dict) else {}
            conditions = status.get("conditions") if isinstance(status.get("conditions"), list) else []
            failed = any(isinstance(c, dict) and c.get("type") == "Failed" and c.get("status") == "True"
                         for c in conditions)
            if failed or (status.get("failed") and not status.get("active") and not status.get("succeeded")):
                raise OpsError(f"the mirror Job {ns}/{weights.MIRROR_JOB} did not succeed",
                               f"kubectl -n {ns} logs job/{weights.MIRROR_JOB}; kubectl -n {ns} describe job "
                               f"{weights.MIRROR_JOB}", ExitCode.CHECK_FAILED)
            last = printed[-1] if printed else None
            state = (f"{last['file']}/{last['files']} files, {last['bytes_copied'] / 1e9:,.1f} of "
                     f"{last['bytes_total'] / 1e9:,.1f} GB" if last else "starting")
            return bool(status.get("succeeded")), state

        self.progress(f"mirror Job {ns}/{weights.MIRROR_JOB}").run(probe)
        checked = []
        for where_bucket, where_prefix, revision in ((bucket, prefix, sha), *(
                ((*speculator_target, speculator_sha),) if speculator_target else ())):
            with deadline.during(f"reading the mirror's manifest from s3://{where_bucket}/{where_prefix}"):
                manifest, objects = weights.read_mirror(self.aws().client, where_bucket, where_prefix)
            problems = weights.check_manifest(manifest, objects, where_prefix)
            if manifest.get("revision") != revision:
                problems.insert(0, weights.MirrorProblem(weights.MANIFEST_NAME,
                                                         f"is of revision {manifest.get('revision')}"))
            if problems:  # nothing is written: neither revision is pinned unless both copies check out
                raise OpsError(f"the mirror in s3://{where_bucket}/{where_prefix} does not match: "
                               + "; ".join(f"{p.path}: {p.problem}" for p in problems[:5]),
                               "run llmops weights mirror again", ExitCode.CHECK_FAILED)
            checked.append(manifest)
        manifest = checked[0]
        written = None
        if sha != env.model.hugging_face_revision or speculator_sha != (env.model.speculator_revision
                                                                         if speculator_sha else None):
            written = update_environment_file(self.config_dir, env.name, revision_update)
            self._say(f"The copy of {sha} checked out; wrote the revision into {written}.", self.rt.stderr)
        files = manifest.get("files") or []
        size = sum(f.get("size") or 0 for f in files)
        speculator_out = {}
        if speculator_target is not None:
            spec_files = checked[1].get("files") or []
            spec_bytes = sum(f.get("size") or 0 for f in spec_files)
            speculator_out = {"speculator": {"repo_id": speculator_id, "revision": speculator_sha,
                                             "s3_uri": f"s3://{speculator_target[0]}/{speculator_target[1]}",
                                             "files": len(spec_files), "bytes": spec_bytes,
                                             "size_gb": -(-spec_bytes // 10**9)}}
            self._say(f"The speculator: {len(spec_files)} files, {spec_bytes:,} bytes (model.speculator_size_gb: "
                      f"{-(-spec_bytes // 10**9)} or more).", self.rt.stderr)
        self.out({"env": env.name, "revision": sha, "s3_uri": f"s3://{bucket}/{prefix}", "files": len(files),
                  "bytes": size, "config_file": str(written) if written else None, **speculator_out},
                 f"Mirrored {env.model.hugging_face_id}@{sha}: {len(files)} files, {size:,} bytes in s3://{bucket}/{prefix}; "
                 "every sha256 matches the Hub's.")
        return ExitCode.OK

    def wait_inference_endpoint(self) -> int:
        _check_kubernetes_names(self.args.name, self.args.namespace)
        self._check_kubectl()
        status = wait_for_inference_endpoint(self.args.kubectl, self.args.name, self.args.namespace,
                                             self.progress(f"InferenceEndpointConfig {self.args.namespace}/{self.args.name}"),
                                             run=self.rt.run_command, deadline=self.deadline)
        self.out({"name": self.args.name, "namespace": self.args.namespace, "status": status},
                 f"InferenceEndpointConfig {self.args.namespace}/{self.args.name} is DeploymentComplete.")
        return ExitCode.OK

    def smoke_test(self) -> int:
        """Exit codes: 0 passed; 1 a check failed (a FAILED row names the problem), the endpoint is unreachable or
        answered an error status (401: no key or the wrong one); 2 the --url cannot work (checked before any
        request); 10 a request ran past its --timeout deadline (the message names the request and the seconds);
        4, 5, 11, ... reading the key's secret failed. See ops_cli.smoke.smoke_test."""
        model = self.args.model or (self.env.model.served_name if self.env else "Kimi-K3")
        path = self.args.model_path or (model_path(self.env) if self.env else None)
        tls = self.tls_options()
        check_url(self.args.url, tls=tls)  # a URL that cannot work fails before the key is read
        tls = self.operator_trust(tls)
        api_key = self.api_key()
        with self._keeping_secret(api_key):
            # Real time always: these are the figures the user asked for, not a wait.
            results = smoke_test(self.args.url, model, self.args.prompt, self.args.max_tokens, self.args.timeout,
                                 model_path=path, api_key=api_key, tls=tls,
                                 key_required=_requires_key(self.env), deadline=self.deadline)
            by_mode = {r.mode: r for r in results}
            passed = all(r.ok for r in results)
            fmt = lambda v, unit: f"{v:.2f} {unit}" if v is not None else "-"  # noqa: E731
            rows = [(r.mode, "ok" if r.ok else "FAILED", fmt(r.time_to_first_token_s, "s"), fmt(r.tokens_per_s, "tok/s"),
                     fmt(r.total_s, "s"), r.completion_tokens if r.completion_tokens is not None else "-",
                     "; ".join(r.problems)) for r in results]
            requests = table(["request", "result", "first token", "rate", "total", "tokens", "problems"], rows)
            human = (f"Model: {model} from {by_mode['models'].text or '?'}\n"
                      f"Answer: {printable(' '.join(by_mode['plain'].text.split()), 200)}\n")
            if api_key is not None:
                human += f"API key: from {api_key.source}\n"
            if tls.server_name:
                human += f"TLS: certificate verified for {tls.server_name}\n"
            if tls.ca_source:
                human += f"TLS: trusted {tls.ca_source}\n"
            human += "Smoke test passed." if passed else "Smoke test FAILED."
            human = [requests, human]
            self.out({"passed": passed, "url": self.args.url, "model": model,
                      "api_key_source": api_key.source if api_key else None, "tls_server_name": tls.server_name,
                      "tls_trusted": tls.ca_source,
                      "requests": [r.to_dict() for r in results]}, human)
        return ExitCode.OK if passed else ExitCode.CHECK_FAILED

    def bench(self) -> int:
        """The probe from here (``--url``, the key and TLS as smoke-test takes them), then the load test as a Job in
        the cluster (``--kubectl``); one table. Exit codes: 0 passed; 1 a probe row or a run failed; 2 bad arguments;
        10 a probe request or the Job ran past its deadline. See ops_cli/bench.py."""
        args, env = self.args, self.env
        if args.probe_only and args.skip_probe:
            raise OpsError("--probe-only and --skip-probe leave nothing to run", "pass one of them, or neither",
                           ExitCode.USAGE)
        if not args.skip_probe and not args.url:
            raise OpsError("the probe needs --url (the endpoint, reachable from here, as for smoke-test)",
                           "pass --url, or --skip-probe for the load test alone", ExitCode.USAGE)
        from deployment_config import published as pub

        key = pub.key_of(env, input_len=args.input_len, output_len=args.output_len)
        published = pub.rows_for(env.model.preset.key, key)
        payload: dict = {"env": env.name, "url": args.url, "probe": None, "load_test": None,
                         "published": {"key": key.describe(),
                                       "rows": {str(c): row.to_dict() for c, row in published.items()}}}
        human: list = []
        passed = True
        if not args.skip_probe:
            tls = self.tls_options()
            check_url(args.url, tls=tls)  # a URL that cannot work fails before the key is read
            tls = self.operator_trust(tls)
            api_key = self.api_key()
            with self._keeping_secret(api_key):
                rows = bn.run_probe(args.url, env.model.served_name, args.request_timeout, api_key=api_key, tls=tls,
                                    max_tokens=args.probe_max_tokens, deadline=self.deadline)
            passed = all(r.ok for r in rows)
            payload["probe"] = [r.to_dict() for r in rows]
            human.append(table(["probe", "result", "total", "answer", "problems"],
                               [(r.mode, "ok" if r.ok else "FAILED", f"{r.total_s:.2f} s", r.text, "; ".join(r.problems))
                                for r in rows]))
        if not args.probe_only:
            self._check_kubectl()
            if args.input_len + args.output_len > 1_000_000:
                raise OpsError("--input-len + --output-len is over a million tokens", "pass smaller lengths",
                               ExitCode.USAGE)
            base_url = (bn.hyperpod_worker_url(env, args.kubectl, self.rt.run_command, deadline=self.deadline)
                        if env.platform is Platform.HYPERPOD else bn.eks_service_url(env))
            moment = self.rt.now()
            plan = bn.plan_for(env, base_url=base_url, job_name=f"llmops-bench-{moment.strftime('%Y%m%d-%H%M%S')}",
                               concurrencies=args.concurrency, input_len=args.input_len, output_len=args.output_len,
                               num_prompts=args.num_prompts, seed=int(moment.timestamp()),
                               deadline_seconds=max(1, math.ceil(self.deadline.remaining())))
            runs, status = bn.run_load_test(plan, args.kubectl, self.progress(f"Job {plan.namespace}/{plan.job_name}"),
                                            run=self.rt.run_command, log=lambda text: _write(self.rt.stderr, text + "\n"),
                                            deadline=self.deadline)
            passed = passed and all(r.ok for r in runs)
            for r in runs:
                r.published = published[r.concurrency].to_dict() if r.concurrency in published else None
            payload["load_test"] = {"job": plan.job_name, "namespace": plan.namespace, "image": plan.image,
                                    "base_url": base_url, "job_status": status, "input_len": args.input_len,
                                    "output_len": args.output_len, "runs": [r.to_dict() for r in runs]}

            def ms(values: dict) -> str:
                return " / ".join("-" if values.get(p) is None else f"{values[p]:,.0f}" if values[p] >= 100
                                  else f"{values[p]:.1f}" for p in bn.PERCENTILES)

            def beside(r: bn.RunResult) -> str:
                """The published row of the same profile and concurrency, and how far the measured throughput is."""
                row = published.get(r.concurrency)
                if row is None:
                    return "-"
                text = f"{row.ttft_ms:,.0f} ms, {row.output_tokens_per_s:,.0f} tok/s"
                if r.output_throughput is not None and row.output_tokens_per_s:
                    text += f" ({(r.output_throughput / row.output_tokens_per_s - 1) * 100:+.0f} %)"
                return text

            rows = [(r.concurrency, "ok" if r.ok else "FAILED",
                     "-" if r.completed is None else f"{r.completed}/{r.failed}", ms(r.ttft_ms), ms(r.itl_ms),
                     "-" if r.output_throughput is None else f"{r.output_throughput:,.1f}", beside(r),
                     "; ".join(r.problems)) for r in runs]
            human.append(table(["concurrency", "result", "ok/failed", "TTFT p50/p90/p99 ms", "ITL p50/p90/p99 ms",
                                "output tok/s", "published (TTFT, tok/s, measured vs)", "problems"], rows))
            why_not = bn.acceptance_measurable(env)
            if env.model.speculator_size_gb:  # speculative decoding's acceptance, only where it is on
                if why_not is None:
                    human.append(table(["concurrency", "draft tokens accepted", "mean accepted length"], [
                        (r.concurrency, "-" if r.acceptance_rate_percent is None else f"{r.acceptance_rate_percent:.1f} %",
                         "-" if r.mean_accepted_length is None else f"{r.mean_accepted_length:.2f} tokens/step")
                        for r in runs]))
                else:
                    human.append(f"Speculative decoding's acceptance: {why_not}.")
                    for r in runs:  # readings of different servers: not reported
                        r.acceptance_rate_percent = r.mean_accepted_length = None
                payload["load_test"]["runs"] = [r.to_dict() for r in runs]
            human.append(f"{args.input_len} tokens in, {args.output_len} out; Job {plan.namespace}/{plan.job_name} "
                         f"{status}, deleted.\n" + _published_note(key, published))
        human.append("Bench passed." if passed else "Bench FAILED.")
        payload["passed"] = passed
        self.out(payload, human)
        return ExitCode.OK if passed else ExitCode.CHECK_FAILED

    # --- the endpoint's TLS -------------------------------------------------------------------------------------

    def tls_options(self) -> TlsOptions:
        """How to verify an https:// endpoint: --tls-server-name, else with --env the environment's
        ``endpoint.domain_name`` when the URL names another host (the load balancer's own name, before the DNS record
        exists); --ca-bundle. Checked here, before anything is sent."""
        name = self.args.tls_server_name
        if name is not None:
            problem = domain_name_problem(name)
            if problem:
                raise OpsError(f"--tls-server-name: {problem.problem}", problem.fix, ExitCode.USAGE)
        elif self.env is not None and self.env.endpoint.domain_name:
            parts = urllib.parse.urlsplit(self.args.url.strip())
            host = (parts.hostname or "").rstrip(".").lower() if parts.scheme.lower() == "https" else None
            if host and host != self.env.endpoint.domain_name.lower():
                name = self.env.endpoint.domain_name
        ca_file = self.args.ca_bundle
        if ca_file is not None:
            try:
                ssl.create_default_context(cafile=ca_file)
            except (OSError, ValueError) as error:
                reason = getattr(error, "strerror", None) or getattr(error, "reason", None) or str(error)
                raise OpsError(f"--ca-bundle {shown(ca_file)}: cannot load it as CA certificates ({printable(reason, 120)})",
                               "pass a readable PEM file of one or more CA certificates", ExitCode.USAGE) from None
        return TlsOptions(server_name=name, ca_file=ca_file)

    def operator_trust(self, tls: TlsOptions) -> TlsOptions:
        """On a HyperPod environment (--env), an https:// URL without --ca-bundle is verified against the certificate
        the Inference Operator generated for the endpoint's load balancer and stores in S3
        (ops_cli/operator_certificate.py), for the name it covers unless --tls-server-name says otherwise. Anything
        else: ``tls`` as it is. Called after the local checks: it runs kubectl and reads S3."""
        env = self.env
        parts = urllib.parse.urlsplit(self.args.url.strip())
        if env is None or env.platform is not Platform.HYPERPOD or tls.ca_file is not None or parts.scheme.lower() != "https":
            return tls
        self._check_kubectl()
        region = self.region()
        with self.deadline.during("reading the Inference Operator's certificate (kubectl, S3)"):
            certificate = read_operator_certificate(
                kubectl=self.args.kubectl, name=inference_endpoint_name(env), namespace=INFERENCE_ENDPOINT_NAMESPACE,
                aws=self._aws_in(region), account=env.account, run=self.rt.run_command, deadline=self.deadline)
        if certificate.health == "Expired":
            raise OpsError(f"{certificate.source} has expired (the InferenceEndpointConfig's certificateHealth)",
                           "the operator renews the certificate it generated; until then, pass --ca-bundle FILE with the "
                           "certificate the load balancer now presents", ExitCode.CHECK_FAILED)
        name = tls.server_name or certificate.server_name_for(parts.hostname or "")
        return TlsOptions(server_name=name, ca_data=certificate.pem, ca_source=certificate.source)

    def _check_kubectl(self) -> None:
        if self.rt.run_command is None and not shutil.which(self.args.kubectl):
            raise OpsError(f"--kubectl {shown(self.args.kubectl)} is not an executable kubectl (not found on PATH, or not "
                           "executable)", "install kubectl, or pass --kubectl /path/to/kubectl", ExitCode.USAGE)

    # --- the endpoint's API key ----------------------------------------------------------------------------------

    def api_key(self) -> ApiKey | None:
        """The key to send, from the first of: --api-key, --api-key-secret, LLMOPS_API_KEY, and with --env the
        environment's secret (``env.api_key_secret_name`` in the environment's account and region) when it requires
        one (:func:`_requires_key`). None when none applies. Checked before any request; never printed."""
        if self.args.api_key is not None:
            return _checked_api_key(self.args.api_key, "--api-key")
        if self.args.api_key_secret is not None:
            secret_id, region = self._secret_location(self.args.api_key_secret)
            with self.deadline.during("reading the API key from Secrets Manager"):
                return read_api_key_secret(self._aws_in(region), secret_id, printable(secret_id, 200))
        if self.rt.environ.get(API_KEY_VARIABLE):
            return _checked_api_key(self.rt.environ[API_KEY_VARIABLE], API_KEY_VARIABLE)
        env = self.env
        if not _requires_key(env):
            return None
        region = self.region()  # the environment's (a contradicting --region is refused here)
        # An ARN, because a secret of another account can only be read by ARN (botocore's secretsmanager model,
        # GetSecretValue SecretId); a partial one (no random suffix), which works as long as the name does not end
        # in '-' and six characters ('.../api-key' does not).
        arn = f"arn:{partition_of(region)}:secretsmanager:{region}:{env.account}:secret:{env.api_key_secret_name}"
        with self.deadline.during("reading the API key from Secrets Manager"):
            return read_api_key_secret(self._aws_in(region), arn,
                                       f"{env.api_key_secret_name} (account {env.account}, {region})")

    def _secret_location(self, text: str) -> tuple[str, str]:
        """``--api-key-secret``: the secret id to ask for and the region to ask in (an ARN's own region)."""
        arn = _SECRET_ARN.fullmatch(text)
        if len(text) > 2048 or not (arn or _SECRET_NAME.fullmatch(text)):
            raise OpsError(f"--api-key-secret {shown(text)} is not a secret name or ARN",
                           "a name has 1 to 512 letters, digits and /_+=.@- ; an ARN looks like "
                           "arn:aws:secretsmanager:us-west-2:123456789012:secret:NAME", ExitCode.USAGE)
        if not arn:
            return text, self.region()
        region = arn.group("region")
        problem = region_problem(region)
        if problem:
            raise OpsError(f"--api-key-secret: {problem.problem}", problem.fix, ExitCode.USAGE)
        given = self.args.region or (self.env.region if self.env else None)
        if given is not None and given != region:
            raise OpsError(f"--api-key-secret is a secret of {region}, but the region is {given} (--region or --env)",
                           "leave out --region, or pass the secret of that region: a secret is read in its own region",
                           ExitCode.USAGE)
        return text, region

    def _aws_in(self, region: str) -> Aws:
        aws = self.rt.aws_factory(region) if self.rt.aws_factory else Aws(region, environ=self.aws_environ)
        if self.rt.sleep:
            aws.sleep = self.rt.sleep
        return aws

    @contextlib.contextmanager
    def _keeping_secret(self, api_key: ApiKey | None):
        """While a command holds ``api_key``: whatever it writes, and the error it ends with, carry the key's source
        instead of its value, even when the endpoint echoes the request back."""
        if api_key is None:
            yield
            return
        stdout, stderr = self.rt.stdout, self.rt.stderr
        self.rt.stdout, self.rt.stderr = _Redacting(stdout, api_key), _Redacting(stderr, api_key)
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
            self.rt.stdout, self.rt.stderr = stdout, stderr


#: Secrets Manager secret names: 1 to 512 ASCII letters, digits and /_+=.@- (botocore's secretsmanager model,
#: CreateSecret Name); an ARN: arn:PARTITION:secretsmanager:REGION:ACCOUNT:secret:NAME[-6 random characters].
_SECRET_NAME = re.compile(r"[A-Za-z0-9/_+=.@-]{1,512}")
_SECRET_ARN = re.compile(r"arn:aws[a-z-]*:secretsmanager:(?P<region>[a-z0-9-]+):\d{12}:secret:[A-Za-z0-9/_+=.@-]{1,519}")


def _requires_key(env: EnvironmentConfig | None) -> bool:
    """Whether the environment's endpoint requires its API key: ``endpoint.authentication: api-key`` (the default), on
    either platform (the EKS path's serving stack and the HyperPod path's endpoint stack both create the secret and give
    vLLM the key)."""
    return env is not None and env.endpoint.api_key_required


def _checked_api_key(value: str, source: str) -> ApiKey:
    problem = api_key_problem(value)
    if problem:
        raise OpsError(f"the API key from {source} {problem}", "pass the key exactly as the server was started with it",
                       ExitCode.USAGE)
    return ApiKey(value, source)


class _Redacting:
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


def _not_bought(target: str, problem: str, fix: str) -> OpsError:
    return OpsError(f"nothing bought: --write-config {target} could not take this reservation: {_cli_words(problem)}",
                    _cli_words(fix), ExitCode.USAGE)


def _cost_human(report: cost.CostReport) -> list:
    """The cost table, its totals and the prices' sources, in words."""
    hours = report.hours_left
    usd = cost.PRICE_CURRENCY

    def amount(value) -> str:
        return "-" if value is None else f"{value:,.2f}" if value >= 1 else f"{value:,.4f}"

    rows = []
    for row in report.rows:
        per_hour = row.per_hour
        rest = ("paid" if row.fixed_per_hour is not None or (row.query is None and row.per_hour is None) else
                f"{per_hour * hours:,.2f}" if per_hour is not None and hours is not None else "-")
        rows.append((row.item, row.count, amount(row.price.per_hour) if row.price else "-", amount(per_hour), rest))
    block = report.block
    lines = [f"{report.env} in {report.region}: {block.kind} {block.identifier} ends {utc_and_local(block.end)}, "
             f"{cost._round(hours) if hours is not None else '?'} h from now. Amounts in {usd}.",
             table(["item", "count", f"unit price/h ({usd})", f"per hour ({usd})", f"rest of the block ({usd})"], rows)]
    total = f"Total of the hourly resources: {report.hourly_total:,.2f} {usd} per hour"
    if hours is not None:
        total += f", {report.hourly_total * hours:,.2f} {usd} for the rest of the block"
    lines.append(total + ("." if not report.missing else f"; without: {', '.join(report.missing)}."))
    fee_row = report.rows[0]
    if fee_row.fixed_per_hour is not None:
        lines.append(f"With the block's fee spread over its hours: {report.hourly_total + fee_row.fixed_per_hour:,.2f} "
                     f"{usd} per hour.")
    lines.append("Sources:")
    lines += [f"  {row.item}: {row.note}" for row in report.rows if row.price is None and row.note]
    lines += [f"  {row.item}: AWS Price List Query API, SKU {row.price.sku}, effective {row.price.effective} "
              f"({row.price.description})" + (f"; {row.note}" if row.note else "") for row in report.rows if row.price]
    lines.append("Usage-based, not estimated: " + "; ".join(report.usage_based) + ".")
    return lines


def _phases_table(phases: list) -> Table:
    def moment(value):
        return value.strftime("%H:%M:%S") if value else "?"

    return table(["phase", "from", "to", "took", "source"],
                 [(p.name, moment(p.started), moment(p.finished),
                   "?" if p.seconds is None else f"{int(p.seconds) // 60}m{int(p.seconds) % 60:02d}s", p.source)
                  for p in phases])


def _offerings_table(offerings: list[Offering]) -> Table:
    rows = [(o.offering_id, o.availability_zone, utc_and_local(o.start), utc_and_local(o.end), duration(o.duration_hours),
             o.instance_count, money(o.upfront_fee, o.currency)) for o in offerings]
    return table(["offering", "zone", "start", "end", "duration", "count", "upfront fee"], rows)


def _parse(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text.replace("Z", "+00:00")) if text else None


#: How far ahead a search may look. Capacity Blocks and training plans are offered weeks ahead; a date years away is
#: a typo (and dates near year 9999 cannot even be shown in local time).
MAX_DAYS_AHEAD = 366


def _day(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def _cli_words(text: str) -> str:
    """A loader message in the CLI's words: the CDK's ``-c env=NAME`` becomes ``--env NAME`` (but a ``cdk deploy
    -c env=NAME`` command line, which is meant for the CDK, is left alone)."""
    text = re.sub(r"(\bcdk\b[^;()]*?)?-c env=(\S*)", lambda m: m.group(0) if m.group(1) else f"--env {m.group(2)}", text)
    return re.sub(r"(?<![\w-])-c env\b(?!=)", "--env", text)


def _published_note(key, published) -> str:
    """Where the published column comes from, or that nothing is published for this configuration."""
    if not published:
        return (f"Published: no row for {key.describe()} in deployment_config/data/published/ (only published figures "
                "are listed there).")
    sources = sorted({row.source for row in published.values()})
    configurations = sorted({row.configuration for row in published.values()})
    return (f"Published, for {key.describe()}: {'; '.join(sources)}. Configuration: {'; '.join(configurations)}. "
            f"Statistic: {', '.join(sorted({row.statistic for row in published.values()}))}.")


def _load_environment(config_dir: Path, name: str, option: str) -> EnvironmentConfig:
    """config/NAME.yaml, validated by the loader; its errors as OpsErrors in the CLI's words."""
    problem = env_name_problem(name)
    if problem:
        raise OpsError(f"{option}: {problem}", "name a file of the config directory without '.yaml', for example "
                       f"{option} example", ExitCode.USAGE)
    if not (Path(config_dir) / f"{name}.yaml").is_file():
        raise missing_environment(config_dir, name)
    try:
        return load_environment(config_dir, name, option=f"{option} NAME")
    except ConfigError as error:
        raise OpsError(_cli_words(error.summary), _cli_words(error.fix), ExitCode.USAGE) from None
    except OSError as error:  # unreadable file or directory
        raise OpsError(f"cannot read {config_dir}/{name}.yaml ({error.strerror or error})", "check its permissions",
                       ExitCode.USAGE) from None
    except UnicodeDecodeError as error:
        raise OpsError(f"{config_dir}/{name}.yaml is not UTF-8 text (byte {error.start})", "save it as UTF-8",
                       ExitCode.USAGE) from None


def _check_instance_type(instance_type: str, sagemaker: bool) -> None:
    name = instance_type[3:] if sagemaker and instance_type.startswith("ml.") else instance_type
    if sagemaker and not instance_type.startswith("ml."):
        tp.check_instance_type(instance_type)
    if not sagemaker and instance_type.startswith("ml."):
        raise OpsError(f"--instance-type {shown(instance_type)} is a SageMaker name; Capacity Blocks take EC2 names",
                       f"drop the prefix: --instance-type {shown(instance_type[3:])[1:-1]}", ExitCode.USAGE)
    if name not in known_instance_types():  # the EC2 model's names, as the loader checks them
        example = "ml.p6-b300.48xlarge" if sagemaker else "p6-b300.48xlarge"
        raise OpsError(f"--instance-type {shown(instance_type)} is not an EC2 instance type",
                       f"use a name such as {example}", ExitCode.USAGE)


#: Kubernetes object names (https://kubernetes.io/docs/concepts/overview/working-with-objects/names/): a namespace is a
#: DNS-1123 label (RFC 1123: at most 63 of a-z, 0-9 and '-', starting and ending alphanumeric); most objects, custom
#: resources such as InferenceEndpointConfig included, are named by a DNS-1123 subdomain (dot-separated labels, at
#: most 253 characters).
_DNS_LABEL = r"[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?"
_DNS_SUBDOMAIN = re.compile(rf"{_DNS_LABEL}(\.{_DNS_LABEL})*")


def _check_kubernetes_names(name: str, namespace: str) -> None:
    if len(name) > 253 or not _DNS_SUBDOMAIN.fullmatch(name):
        raise OpsError(f"--name {shown(name)} is not a Kubernetes object name (DNS-1123 subdomain)",
                       "use lowercase letters, digits, '-' and '.', starting and ending with a letter or digit, "
                       "at most 253 characters, for example kimik3", ExitCode.USAGE)
    if not re.fullmatch(_DNS_LABEL, namespace):
        raise OpsError(f"--namespace {shown(namespace)} is not a Kubernetes namespace name (DNS-1123 label)",
                       "use lowercase letters, digits and '-', starting and ending with a letter or digit, "
                       "at most 63 characters, for example default", ExitCode.USAGE)


def run() -> None:
    """The ``llmops`` command (pyproject.toml's entry point, and ``python -m ops_cli``)."""
    sys.exit(main())


def main(argv: Sequence[str] | None = None, runtime: Runtime | None = None) -> int:
    """Run one command; returns its exit code (ops_cli.errors.ExitCode). Never raises, never prints a traceback (unless
    LLMOPS_DEBUG=1 asks for one of an internal error)."""
    runtime = runtime or Runtime()
    json_output = False
    try:
        parser = build_parser()
        errors = io.StringIO()  # argparse quotes arguments it did not expect: secrets out before it is shown
        with contextlib.redirect_stdout(runtime.stdout), contextlib.redirect_stderr(errors):
            try:
                args = parser.parse_args(argv)
            except SystemExit as exit_:  # argparse has printed its help, or its usage and error
                runtime.stdout.flush()
                return exit_.code if isinstance(exit_.code, int) else ExitCode.USAGE
            finally:
                _write(runtime.stderr, redact_secrets(errors.getvalue(), secret_arguments(
                    list(sys.argv[1:] if argv is None else argv))))
        json_output = bool(args.json)
        command = "_".join(filter(None, (args.group, getattr(args, "command", None)))).replace("-", "_")
        cli = Cli(args, runtime)
        with cli.deadline.enforced():
            code = int(getattr(cli, command)())
        runtime.stdout.flush()  # a closed pipe shows here, not in the interpreter's flush at exit
        return code
    except OpsError as error:
        error.message, error.fix = _cli_words(error.message), _cli_words(error.fix)
        return _report(runtime, error, json_output)
    except KeyboardInterrupt:
        _stdout_closed(runtime)
        _write(runtime.stderr, "interrupted\n")
        return ExitCode.INTERRUPTED
    except BrokenPipeError as error:
        if _stdout_closed(runtime):  # e.g. `llmops ... | head -1`: the reader has gone, so stop quietly, like cat does
            return ExitCode.STDOUT_CLOSED
        return _internal_error(runtime, error, json_output)
    except Exception as error:  # noqa: BLE001 - the last-resort guard: a bug, reported without a traceback
        return _internal_error(runtime, error, json_output)


def _write(stream: TextIO | None, text: str) -> None:
    """Write to ``stream`` if it can still be written to (a closed stderr must not turn into a traceback)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        stream.write(text)
        stream.flush()


def _report(runtime: Runtime, error: OpsError, json_output: bool) -> int:
    # Whatever the message quotes (a URL, a line a tool printed), no password or token is printed back.
    error.message, error.fix = redact_secrets(error.message), redact_secrets(error.fix)
    if json_output:
        _write(runtime.stdout, json.dumps(error.to_dict(), indent=2, default=str) + "\n")
    _stdout_closed(runtime)  # whatever is still buffered goes out now, or nowhere: never a complaint at exit
    _write(runtime.stderr, f"error: {error.message}\n  fix: {error.fix}\n")
    return int(error.exit_code)


def _stdout_closed(runtime: Runtime) -> bool:
    """Whether standard output is the pipe that broke; if so, point it at /dev/null so that the interpreter's final
    flush does not complain either."""
    try:
        runtime.stdout.flush()
        return False
    except (OSError, ValueError):
        pass
    if runtime.stdout is sys.stdout:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
    return True


def _internal_error(runtime: Runtime, error: BaseException, json_output: bool) -> int:
    text = str(error)
    text = text if len(text) <= 500 else text[:500] + f"... ({len(text)} characters)"
    if runtime.environ.get("LLMOPS_DEBUG") == "1":
        _write(runtime.stderr, "".join(traceback.format_exception(error)))
    return _report(runtime, OpsError(f"internal error: {type(error).__name__}: {text}",
                                     "re-run with LLMOPS_DEBUG=1 for the traceback and report it", ExitCode.INTERNAL),
                   json_output)


if __name__ == "__main__":
    sys.exit(main())
