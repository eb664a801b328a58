"""The llmops command line: argument parsing, dispatch, output and exit codes."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TextIO

from deployment_config import ConfigError, EnvironmentConfig, load_environment
from deployment_config.model_location import model_path
from ops_cli import capacity_blocks as cb
from ops_cli import training_plans as tp
from ops_cli.aws import Aws
from ops_cli.config_writer import update_environment_file
from ops_cli.errors import ExitCode, OpsError
from ops_cli.offering import Offering, Search
from ops_cli.output import duration, emit_json, money, table, utc_and_local
from ops_cli.preflight import Status, run_preflight
from ops_cli.smoke import DEFAULT_PROMPT, smoke_test
from ops_cli.waiting import (
    Progress,
    wait_for_gpu_nodes,
    wait_for_health,
    wait_for_inference_endpoint,
    wait_for_reservation,
)

PROJECT_DIR = Path(__file__).resolve().parents[1]


@dataclass
class Runtime:
    """What a command needs from the outside world; tests replace every part."""

    aws_factory: Callable[[str], Aws] = lambda region: Aws(region)
    stdout: TextIO = field(default_factory=lambda: sys.stdout)
    stderr: TextIO = field(default_factory=lambda: sys.stderr)
    environ: dict = field(default_factory=lambda: dict(os.environ))
    clock: Callable[[], float] | None = None
    sleep: Callable[[float], None] | None = None
    now: Callable[[], datetime] = lambda: datetime.now(UTC)
    run_command: Callable | None = None  # subprocess.run, for kubectl (tests pass a fake)


def _moment(text: str) -> datetime:
    """An ISO date or date-time; UTC unless it says otherwise."""
    try:
        moment = datetime.fromisoformat(text) if "T" in text or " " in text else datetime.combine(
            date.fromisoformat(text), datetime.min.time())
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:MM)") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be at least 1")
    return value


def _common_options(defaults: bool) -> argparse.ArgumentParser:
    """Options accepted before and after any subcommand. Below the top level they default to SUPPRESS, so that a
    value given at one level is not reset by another level's default."""
    common = argparse.ArgumentParser(add_help=False)
    suppress = {} if defaults else {"default": argparse.SUPPRESS}
    common.add_argument("--json", action="store_true", help="print machine-readable JSON instead of tables", **suppress)
    common.add_argument("--region", help="AWS region (default: the environment's, then AWS_REGION)", **suppress)
    common.add_argument("--config-dir", type=Path, help="where environment files live (default: config/)",
                        **(suppress or {"default": PROJECT_DIR / "config"}))
    return common


def build_parser() -> argparse.ArgumentParser:
    common = _common_options(defaults=False)
    parser = argparse.ArgumentParser(prog="llmops", description="Find and buy GPU capacity, preflight, wait, smoke-test.",
                                     parents=[_common_options(defaults=True)])
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

    waits = groups.add_parser("wait", help="wait with progress and a timeout", parents=[common]).add_subparsers(
        dest="command", required=True, metavar="SUBCOMMAND")
    p = waits.add_parser("reservation", help="until a Capacity Block is active", parents=[common])
    p.add_argument("reservation_id")
    p.add_argument("--timeout", type=_positive, default=24 * 3600, help="seconds (default: 86400)")
    p.add_argument("--interval", type=_positive, default=60, help="seconds between checks (default: 60)")
    p = waits.add_parser("nodes", help="until the GPU nodes of an environment are in service", parents=[common])
    p.add_argument("--env", required=True)
    p.add_argument("--timeout", type=_positive, default=3600)
    p.add_argument("--interval", type=_positive, default=30)
    p = waits.add_parser("endpoint", help="until the endpoint answers /health", parents=[common])
    p.add_argument("--url", required=True, help="for example http://internal-xxx.elb.us-west-2.amazonaws.com:8000")
    p.add_argument("--timeout", type=_positive, default=3 * 3600)
    p.add_argument("--interval", type=_positive, default=30)

    p = waits.add_parser("inference-endpoint", help="until a HyperPod InferenceEndpointConfig is DeploymentComplete",
                         parents=[common])
    p.add_argument("--name", default="kimik3", help="the InferenceEndpointConfig (default: kimik3)")
    p.add_argument("--namespace", default="default")
    p.add_argument("--kubectl", default="kubectl", help="kubectl to use (default: the one on PATH)")
    p.add_argument("--timeout", type=_positive, default=3 * 3600)
    p.add_argument("--interval", type=_positive, default=60)

    p = groups.add_parser("smoke-test", help="send chat completions, plain and streaming, and time them", parents=[common])
    p.add_argument("--url", required=True, help="the endpoint, for example http://localhost:8000")
    p.add_argument("--model", help="served model name (default: the environment's, or Kimi-K3)")
    p.add_argument("--env", help="take the served model name and the model path from config/ENV.yaml")
    p.add_argument("--model-path", help="the model vLLM must have loaded, as /v1/models reports its root "
                   "(default: the environment's --model; without --env only the served name is checked)")
    p.add_argument("--prompt", default=DEFAULT_PROMPT)
    p.add_argument("--max-tokens", type=_positive, default=64)
    p.add_argument("--timeout", type=_positive, default=600, help="seconds per request (default: 600)")
    return parser


class Cli:
    def __init__(self, args: argparse.Namespace, runtime: Runtime) -> None:
        self.args = args
        self.rt = runtime
        self._env: EnvironmentConfig | None = None

    # --- shared -----------------------------------------------------------------------------------------------

    @property
    def env(self) -> EnvironmentConfig | None:
        name = getattr(self.args, "env", None)
        if name and self._env is None:
            try:
                self._env = load_environment(self.args.config_dir, name)
            except ConfigError as error:
                raise OpsError(error.summary, error.fix, ExitCode.USAGE) from None
        return self._env

    def aws(self) -> Aws:
        region = self.args.region or (self.env.region if self.env else None) or self.rt.environ.get("AWS_REGION") \
            or self.rt.environ.get("AWS_DEFAULT_REGION")
        if not region:
            raise OpsError("no AWS region", "pass --region, --env NAME, or set AWS_REGION", ExitCode.USAGE)
        aws = self.rt.aws_factory(region)
        if self.rt.sleep:
            aws.sleep = self.rt.sleep
        return aws

    def out(self, payload, human: str) -> None:
        if self.args.json:
            emit_json(payload, self.rt.stdout)
        else:
            self.rt.stdout.write(human.rstrip("\n") + "\n")

    def progress(self, what: str) -> Progress:
        kwargs = {k: v for k, v in {"clock": self.rt.clock, "sleep": self.rt.sleep}.items() if v}
        return Progress(what, self.args.timeout, self.args.interval, stream=self.rt.stderr, **kwargs)

    def search(self, *, sagemaker: bool) -> Search:
        """The search the arguments ask for; what they leave out comes from --env, then from the defaults."""
        env = self.env
        # With --env, the capacity that platform uses: a HyperPod section for training plans, else the Capacity Block.
        hyperpod = env.hyperpod if env and sagemaker and env.hyperpod else None
        capacity = env.capacity if env and not hyperpod else None
        gpu_type = env.gpu_instance_type.name if env else "p6-b300.48xlarge"
        instance_type = self.args.instance_type or (
            hyperpod.instance_type if hyperpod else f"ml.{gpu_type}" if sagemaker else gpu_type)
        reserved = hyperpod or capacity
        count = self.args.count or (reserved.instance_count if reserved else 1)
        start, end = cb.default_window(self.rt.now())
        start, end = self.args.start_after or start, self.args.end_before or end
        if end <= start:
            raise OpsError("--end-before is not after --start-after", "widen the date range", ExitCode.USAGE)
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
        aws = self.aws()
        offering = cb.find_offering(aws, self.search(sagemaker=False), self.args.offering_id)
        fee = money(offering.upfront_fee, offering.currency)
        what = (f"{offering.instance_count} x {offering.instance_type} in {offering.availability_zone}, "
                f"{utc_and_local(offering.start)} to {utc_and_local(offering.end)}, upfront fee {fee}")
        if self.args.dry_run:
            cb.purchase(aws, offering, dry_run=True, tags={"created-by": "llmops"})
            self.out({"dry_run": True, "offering": offering.to_dict(), "would_succeed": True},
                     f"Dry run passed: you may buy {what}. Nothing was bought.")
            return ExitCode.OK
        if not self.args.yes:
            raise OpsError(f"not bought: {what}. Capacity Blocks are paid upfront and cannot be cancelled",
                           "run the same command with --yes to buy it", ExitCode.CONFIRMATION_REQUIRED)
        reservation = cb.purchase(aws, offering, dry_run=False, tags={"created-by": "llmops"})
        summary = cb.reservation_summary(reservation)
        human = f"Bought {what}.\nReservation {summary['reservation_id']} is {summary['state']}."
        if self.args.write_config:
            path = update_environment_file(self.args.config_dir, self.args.write_config, {
                "capacity.capacity_reservation_id": summary["reservation_id"],
                "capacity.availability_zone": summary["availability_zone"]})
            human += f"\nWrote its id and zone into {path}."
            summary["config_file"] = str(path)
        self.out(summary, human)
        return ExitCode.OK

    def capacity_blocks_show(self) -> int:
        summary = cb.reservation_summary(cb.describe_reservation(self.aws(), self.args.reservation_id))
        human = table(["field", "value"], [(k, summary[k]) for k in ("reservation_id", "state", "instance_type",
                                                                      "instance_count", "availability_zone")]
                      + [("start", utc_and_local(_parse(summary["start"]))), ("end", utc_and_local(_parse(summary["end"])))])
        self.out(summary, human)
        return ExitCode.OK

    def capacity_blocks_use(self) -> int:
        env = self.env
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
        path = update_environment_file(self.args.config_dir, self.args.env, {
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
        aws = self.aws()
        offering = tp.find_plan_offering(aws, self.search(sagemaker=True), self.args.offering_id)
        what = (f"plan '{self.args.name}': {offering.instance_count} x {offering.instance_type} in {offering.availability_zone}, "
                f"{utc_and_local(offering.start)} to {utc_and_local(offering.end)}, "
                f"upfront fee {money(offering.upfront_fee, offering.currency)}")
        if not self.args.yes:
            raise OpsError(f"not created: {what}. Training plans are paid upfront",
                           "run the same command with --yes to create it", ExitCode.CONFIRMATION_REQUIRED)
        arn = tp.create_plan(aws, self.args.name, offering)
        self.out({"arn": arn, "offering": offering.to_dict()}, f"Created {what}.\nARN: {arn}")
        return ExitCode.OK

    def training_plans_show(self) -> int:
        summary = tp.plan_summary(tp.describe_plan(self.aws(), self.args.name))
        rows = [(k, summary[k]) for k in ("name", "arn", "status", "instance_count")]
        rows += [("zones", ", ".join(summary["availability_zones"])), ("instance types", ", ".join(summary["instance_types"])),
                 ("start", utc_and_local(_parse(summary["start"]))), ("end", utc_and_local(_parse(summary["end"]))),
                 ("upfront fee", money(summary["upfront_fee"], summary["currency"]))]
        self.out(summary, table(["field", "value"], rows))
        return ExitCode.OK

    def training_plans_use(self) -> int:
        if self.env is None:  # loading validates the file before anything is asked of AWS
            raise OpsError("--env is required", "name the environment to write to", ExitCode.USAGE)
        summary = tp.plan_summary(tp.describe_plan(self.aws(), self.args.name))
        zones = summary["availability_zones"]
        if len(zones) != 1:
            raise OpsError(f"plan {self.args.name} has capacity in {len(zones)} zones ({', '.join(zones) or 'none yet'})",
                           "set hyperpod.training_plan_arn and hyperpod.availability_zone by hand", ExitCode.USAGE)
        path = update_environment_file(self.args.config_dir, self.args.env, {
            "hyperpod.training_plan_arn": summary["arn"], "hyperpod.availability_zone": zones[0]})
        self.out({"config_file": str(path), **summary}, f"Wrote {summary['arn']} ({zones[0]}) into {path}.")
        return ExitCode.OK

    # --- preflight, wait, smoke test ----------------------------------------------------------------------------

    def preflight(self) -> int:
        checks = run_preflight(self.aws(), self.env, now=self.rt.now())
        failed = any(c.status is Status.FAIL for c in checks)
        human = table(["check", "result", "detail", "fix"], [(c.name, c.status.value.upper(), c.detail, c.fix) for c in checks])
        human += "\n" + ("Preflight FAILED: fix the rows marked FAIL before cdk deploy." if failed else "Preflight passed.")
        self.out({"passed": not failed, "checks": [c.to_dict() for c in checks]}, human)
        return ExitCode.CHECK_FAILED if failed else ExitCode.OK

    def wait_reservation(self) -> int:
        reservation = wait_for_reservation(self.aws(), self.args.reservation_id,
                                           self.progress(f"reservation {self.args.reservation_id}"))
        self.out(cb.reservation_summary(reservation), f"Reservation {self.args.reservation_id} is active.")
        return ExitCode.OK

    def wait_nodes(self) -> int:
        state = wait_for_gpu_nodes(self.aws(), self.env, self.progress(f"GPU nodes of {self.env.cluster_name}"))
        self.out(state, f"{state['in_service']} GPU node(s) in service.")
        return ExitCode.OK

    def wait_endpoint(self) -> int:
        wait_for_health(self.args.url, self.progress(f"{self.args.url}/health"))
        self.out({"url": self.args.url, "healthy": True}, f"{self.args.url} is healthy.")
        return ExitCode.OK

    def wait_inference_endpoint(self) -> int:
        status = wait_for_inference_endpoint(self.args.kubectl, self.args.name, self.args.namespace,
                                             self.progress(f"InferenceEndpointConfig {self.args.namespace}/{self.args.name}"),
                                             run=self.rt.run_command)
        self.out({"name": self.args.name, "namespace": self.args.namespace, "status": status},
                 f"InferenceEndpointConfig {self.args.namespace}/{self.args.name} is DeploymentComplete.")
        return ExitCode.OK

    def smoke_test(self) -> int:
        model = self.args.model or (self.env.model.served_name if self.env else "Kimi-K3")
        path = self.args.model_path or (model_path(self.env) if self.env else None)
        # Real time always: these are the figures the user asked for, not a wait.
        results = smoke_test(self.args.url, model, self.args.prompt, self.args.max_tokens, self.args.timeout,
                             model_path=path)
        passed = all(r.ok for r in results)
        fmt = lambda v, unit: f"{v:.2f} {unit}" if v is not None else "-"  # noqa: E731
        rows = [(r.mode, "ok" if r.ok else "FAILED", fmt(r.time_to_first_token_s, "s"), fmt(r.tokens_per_s, "tok/s"),
                 fmt(r.total_s, "s"), r.completion_tokens if r.completion_tokens is not None else "-",
                 "; ".join(r.problems)) for r in results]
        human = table(["request", "result", "first token", "rate", "total", "tokens", "problems"], rows)
        human += f"\nModel: {model} from {results[0].text or '?'}\nAnswer: {results[1].text.strip()[:200]}\n"
        human += "Smoke test passed." if passed else "Smoke test FAILED."
        self.out({"passed": passed, "url": self.args.url, "model": model, "requests": [r.to_dict() for r in results]}, human)
        return ExitCode.OK if passed else ExitCode.CHECK_FAILED


def _offerings_table(offerings: list[Offering]) -> str:
    rows = [(o.offering_id, o.availability_zone, utc_and_local(o.start), utc_and_local(o.end), duration(o.duration_hours),
             o.instance_count, money(o.upfront_fee, o.currency)) for o in offerings]
    return table(["offering", "zone", "start", "end", "duration", "count", "upfront fee"], rows)


def _parse(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text.replace("Z", "+00:00")) if text else None


def main(argv: Sequence[str] | None = None, runtime: Runtime | None = None) -> int:
    runtime = runtime or Runtime()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # argparse has printed its usage message
        return int(exit_.code or 0)
    handler = getattr(Cli(args, runtime), "_".join(filter(None, (args.group, getattr(args, "command", None)))).replace("-", "_"))
    try:
        return int(handler())
    except OpsError as error:
        if args.json:
            emit_json(error.to_dict(), runtime.stdout)
        runtime.stderr.write(f"error: {error.message}\n  fix: {error.fix}\n")
        return int(error.exit_code)
    except KeyboardInterrupt:
        runtime.stderr.write("interrupted\n")
        return 130


if __name__ == "__main__":
    sys.exit(main())
