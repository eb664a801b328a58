"""Hostile input: whatever the arguments, environment or AWS configuration, llmops answers with one ``error:`` line, one
``fix:`` line and its documented exit code, in its own words, checked locally before any AWS call; never a traceback,
never a hang. And a purchase whose id cannot be written back is still reported, with its own exit code."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest

from ops_cli.aws import Aws, botocore_session
from ops_cli.cli import main
from ops_cli.commands.capacity_blocks import reservations as reservation_commands
from ops_cli.context import Runtime, cli_words
from ops_cli.errors import ExitCode
from ops_cli.purchase_outcome import LOOKUP_DELAYS
from tests.ops_cli.conftest import NOW, Result
from tests.ops_cli.test_capacity_blocks import PURCHASE, expect_search, offering, reservation

PROJECT_DIR = Path(__file__).resolve().parents[2]
RESERVATION_ID = "cr-0fedcba9876543210"


class ClosedPipe(io.StringIO):
    """Standard output whose reader has gone (``llmops ... | head -1`` after head has exited)."""

    def write(self, text):
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self):
        raise BrokenPipeError(32, "Broken pipe")


@pytest.fixture
def run_with(aws, clock, config_dir):
    """Like the ``run`` fixture, with a chosen environment, the real Aws (botocore) instead of stubs, or another stdout."""

    def _run(
        *argv: str, environ: dict | None = None, real_aws: bool = False, stdout=None, directory=None
    ) -> Result:
        out, err = stdout or io.StringIO(), io.StringIO()
        runtime = Runtime(
            aws_factory=None if real_aws else aws.aws,
            stdout=out,
            stderr=err,
            environ=environ or {},
            clock=clock,
            sleep=clock.sleep,
            now=lambda: NOW,
        )
        code = main([*argv, "--config-dir", str(directory or config_dir)], runtime)
        return Result(
            code, out.getvalue() if not isinstance(out, ClosedPipe) else "", err.getvalue()
        )

    return _run


def assert_refused(result: Result, code: ExitCode = ExitCode.USAGE) -> None:
    assert result.code == code, result.stderr
    lines = result.stderr.splitlines()
    assert "Traceback" not in result.stderr
    assert any(line.startswith("error: ") for line in lines), result.stderr
    assert any(line.lstrip().startswith("fix: ") for line in lines), result.stderr
    assert "-c env" not in result.stderr  # the CLI's words (--env NAME), not the CDK's
    assert len(result.stderr) < 1500, "a message must not quote huge input back"


def no_purchase_attempted(aws) -> list:
    """Records every PurchaseCapacityBlock call the command attempts (none must be, and none is queued in the Stubber:
    the tests queue only the search)."""
    calls: list = []
    aws.on(
        "ec2",
        "provide-client-params.ec2.PurchaseCapacityBlock",
        lambda params, **_: calls.append(params),
    )
    return calls


# --- regions ----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "region", ["us-wset-2", "", "x" * 3000, "us-west-2\n", " us-west-2", "aws-global", "US-WEST-2"]
)
def test_a_region_that_is_not_one_is_refused_before_any_call(run, region):
    result = run("capacity-blocks", "show", RESERVATION_ID, "--region", region)
    assert_refused(result)
    assert result.stderr.startswith("error: --region: ")


def test_a_mistyped_region_gets_a_suggestion(run):
    result = run("capacity-blocks", "offerings", "--region", "us-wset-2")
    assert_refused(result)
    assert "'us-west-2'" in result.stderr


@pytest.mark.parametrize("variable", ["AWS_REGION", "AWS_DEFAULT_REGION"])
def test_a_region_from_the_environment_is_checked_too(run_with, variable):
    result = run_with("capacity-blocks", "show", RESERVATION_ID, environ={variable: "us-wset-2\n"})
    assert_refused(result)
    assert variable in result.stderr


def test_no_region_at_all(run_with):
    result = run_with("capacity-blocks", "show", RESERVATION_ID)
    assert_refused(result)
    assert "no AWS region" in result.stderr and "--region" in result.stderr


def test_a_region_that_contradicts_the_environment(run):
    result = run("capacity-blocks", "offerings", "--env", "example", "--region", "us-east-1")
    assert_refused(result)
    assert "us-west-2" in result.stderr


# --- the AWS configuration: a real botocore session on temporary files, no network -----------------------------------


@pytest.fixture
def aws_files(tmp_path, monkeypatch) -> dict:
    """AWS config and credentials files of the test's own, named through the Runtime's environ; the process environment
    is cleared of AWS_* so that nothing of the machine's own configuration can leak in."""
    for name in list(os.environ):
        if name.startswith("AWS_"):
            monkeypatch.delenv(name)
    config, credentials = tmp_path / "aws-config", tmp_path / "aws-credentials"
    config.write_text("[default]\noutput = json\n[profile ops]\noutput = json\n")
    credentials.write_text(
        "[default]\naws_access_key_id = AKIDDEFAULT\naws_secret_access_key = secret\n"
        "[ops]\naws_access_key_id = AKIDOPS\naws_secret_access_key = secret\n"
    )
    return {
        "AWS_CONFIG_FILE": str(config),
        "AWS_SHARED_CREDENTIALS_FILE": str(credentials),
        "AWS_EC2_METADATA_DISABLED": "true",
    }


def test_the_runtime_environment_reaches_botocore(aws_files, monkeypatch):
    monkeypatch.setenv(
        "AWS_PROFILE", "not-this-one"
    )  # the process environment is not what the command was given
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIDPROCESS")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "secret")
    assert (
        botocore_session({**aws_files, "AWS_PROFILE": "ops"}).get_credentials().access_key
        == "AKIDOPS"
    )
    assert botocore_session(aws_files).get_credentials().access_key == "AKIDDEFAULT"
    keys = {"AWS_ACCESS_KEY_ID": "AKIDGIVEN", "AWS_SECRET_ACCESS_KEY": "secret"}
    assert botocore_session({**aws_files, **keys}).get_credentials().access_key == "AKIDGIVEN"
    assert (
        Aws("us-west-2", environ={**aws_files, "AWS_PROFILE": "ops"}).client("ec2").meta.region_name
        == "us-west-2"
    )


def test_an_unknown_profile(run_with, aws_files):
    result = run_with(
        "capacity-blocks",
        "show",
        RESERVATION_ID,
        "--region",
        "us-west-2",
        environ={**aws_files, "AWS_PROFILE": "prdo"},
        real_aws=True,
    )
    assert_refused(result, ExitCode.CREDENTIALS)
    assert "'prdo'" in result.stderr and "aws configure list-profiles" in result.stderr


@pytest.mark.parametrize("which", ["AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE"])
def test_a_malformed_aws_configuration_file(run_with, aws_files, which):
    Path(aws_files[which]).write_text("[default\nregion = us-west-2\n  = =\n")
    result = run_with(
        "capacity-blocks",
        "show",
        RESERVATION_ID,
        "--region",
        "us-west-2",
        environ=aws_files,
        real_aws=True,
    )
    assert_refused(result)
    assert "cannot parse" in result.stderr and aws_files[which] in result.stderr


def test_a_failing_credential_process(run_with, aws_files):
    Path(aws_files["AWS_CONFIG_FILE"]).write_text(
        "[profile broken]\ncredential_process = /bin/false\n"
    )
    result = run_with(
        "training-plans",
        "show",
        "kimi-k3-december",
        "--region",
        "us-west-2",
        environ={**aws_files, "AWS_PROFILE": "broken"},
        real_aws=True,
    )
    assert_refused(result, ExitCode.CREDENTIALS)


# --- ids and names, checked before any AWS call (the Stubbers have nothing queued: any call would fail the test) ------

MALFORMED = {
    "short reservation id": ("capacity-blocks", "show", "cr-123", "--region", "us-west-2"),
    "uppercase reservation id": (
        "capacity-blocks",
        "show",
        "CR-0FEDCBA9876543210",
        "--region",
        "us-west-2",
    ),
    "reservation id and newline": (
        "capacity-blocks",
        "show",
        RESERVATION_ID + "\n",
        "--region",
        "us-west-2",
    ),
    "instance id": ("capacity-blocks", "show", "i-0fedcba9876543210", "--region", "us-west-2"),
    "use with a bad id": ("capacity-blocks", "use", "cr-xyz", "--env", "example"),
    "wait for an empty id": ("wait", "reservation", "", "--region", "us-west-2"),
    "offering id prefix only": (
        "capacity-blocks",
        "purchase",
        "--env",
        "example",
        "--offering-id",
        "cb-",
        "--yes",
    ),
    "uppercase offering id": (
        "capacity-blocks",
        "purchase",
        "--env",
        "example",
        "--offering-id",
        "CB-0A1B2C",
        "--yes",
    ),
    "huge offering id": (
        "capacity-blocks",
        "purchase",
        "--env",
        "example",
        "--offering-id",
        "cb-" + "a" * 3000,
        "--yes",
    ),
    "plan offering as block": (
        "capacity-blocks",
        "purchase",
        "--env",
        "example",
        "--offering-id",
        "tpo-3k9x2m7q1w8e",
    ),
    "plan name with a leading dash": (
        "training-plans",
        "create",
        "--env",
        "example",
        "--name=-kimi",
        "--offering-id",
        "tpo-a",
        "--yes",
    ),
    "plan name too long": (
        "training-plans",
        "create",
        "--env",
        "example",
        "--name",
        "k" * 65,
        "--offering-id",
        "tpo-a",
    ),
    "plan name with underscore": (
        "training-plans",
        "create",
        "--env",
        "example",
        "--name",
        "kimi_k3",
        "--offering-id",
        "tpo-a",
    ),
    "plan offering id with a space": (
        "training-plans",
        "create",
        "--env",
        "example",
        "--name",
        "kimi",
        "--offering-id",
        "TPO A",
    ),
    "plan name with a space": ("training-plans", "show", "kimi k3", "--region", "us-west-2"),
    "huge plan name": ("training-plans", "use", "x" * 3000, "--env", "example"),
    "kubernetes name": ("wait", "inference-endpoint", "--name", "Kimi_K3"),
    "kubernetes namespace": ("wait", "inference-endpoint", "--namespace=-default"),
    "kubernetes name too long": ("wait", "inference-endpoint", "--name", "a" * 254),
}


@pytest.mark.parametrize("argv", MALFORMED.values(), ids=MALFORMED.keys())
def test_malformed_ids_and_names_are_refused_before_any_call(run, argv):
    assert_refused(run(*argv))


@pytest.mark.parametrize(
    "name", ["../config/example", "Example", "a" * 21, "", "example\n", "example.yaml"]
)
def test_environment_names_that_are_not_names(run, name):
    result = run("preflight", "--env", name)
    assert_refused(result)
    assert "not an environment name" in result.stderr


def test_a_missing_environment_names_the_ones_there_are(run):
    result = run("preflight", "--env", "prod")
    assert_refused(result)
    assert (
        "example, example-hyperpod, example-prod" in result.stderr and "--env NAME" in result.stderr
    )


def test_a_config_directory_without_environments(run_with, tmp_path):
    result = run_with("preflight", "--env", "example", directory=tmp_path / "nowhere")
    assert_refused(result)
    assert "--config-dir" in result.stderr


# --- dates and numbers -------------------------------------------------------------------------------------------------

BAD_SEARCHES = {
    "end before start": ("--start-after", "2026-12-10", "--end-before", "2026-12-05"),
    "end in the past": ("--end-before", "2026-01-01"),
    "start in year 9999": ("--start-after", "9999-12-31"),
    "end in year 9999": ("--end-before", "9999-12-31T23:59:59+00:00"),
    "year 1 east of UTC": ("--start-after", "0001-01-01T00:00+05:00"),
    "no such day": ("--start-after", "2026-02-30"),
    "not a date": ("--end-before", "next tuesday"),
    "window shorter than the duration": (
        "--start-after",
        "2026-12-01",
        "--end-before",
        "2026-12-02",
    ),
    "too many instances": ("--count", "65"),
    "a huge count": ("--count", "1" + "0" * 30),
    "a negative duration": ("--duration-hours", "-48"),
    "an instance type with a space": ("--instance-type", "p6 b300.48xlarge"),
    "a SageMaker instance type": ("--instance-type", "ml.p6-b300.48xlarge"),
}


@pytest.mark.parametrize("options", BAD_SEARCHES.values(), ids=BAD_SEARCHES.keys())
def test_bad_searches_are_refused_before_any_call(run, options):
    assert_refused(run("capacity-blocks", "offerings", "--env", "example", *options))


def test_a_training_plan_longer_than_sagemaker_allows(run):
    assert_refused(
        run("training-plans", "offerings", "--env", "example", "--duration-hours", "87601")
    )


def test_an_interval_too_long_to_sleep(run):
    assert_refused(
        run("wait", "reservation", RESERVATION_ID, "--region", "us-west-2", "--interval", "9" * 12)
    )


def test_an_earliest_start_in_the_past_means_from_now(aws, run):
    expect_search(aws, [[offering("cb-0000000000000000a", "85000.50")]])  # StartDateRange: NOW
    result = run("capacity-blocks", "offerings", "--env", "example", "--start-after", "2020-01-01")
    assert result.code == ExitCode.OK, result.stderr


def test_argparse_errors_have_a_fix_line_too(run):
    result = run("capacity-blocks", "purchase", "--env", "example")
    assert_refused(result)
    assert (
        "--offering-id" in result.stderr
        and "llmops capacity-blocks purchase --help" in result.stderr
    )


# --- closed standard output, interrupts, and the last-resort guard ----------------------------------------------------


def test_a_closed_stdout_ends_quietly(aws, run_with):
    aws.stub("ec2").add_response(
        "describe_capacity_reservations",
        {"CapacityReservations": [reservation("active")]},
        {"CapacityReservationIds": [RESERVATION_ID]},
    )
    result = run_with(
        "capacity-blocks", "show", RESERVATION_ID, "--region", "us-west-2", stdout=ClosedPipe()
    )
    assert result.code == ExitCode.STDOUT_CLOSED
    assert result.stderr == ""


def run_with_closed_stdout(*argv: str) -> subprocess.CompletedProcess:
    """bin/llmops in a real process whose standard output is a pipe nobody reads: every write to it fails with EPIPE."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run(
            [sys.executable, "-m", "ops_cli", *argv],
            stdout=write_end,
            stderr=subprocess.PIPE,
            cwd=PROJECT_DIR,
            timeout=120,
            env={**os.environ, "PYTHONPATH": str(PROJECT_DIR)},
        )
    finally:
        os.close(write_end)


def test_a_closed_stdout_in_a_real_process_leaves_no_traceback():
    process = run_with_closed_stdout(
        "capacity-blocks", "show", "cr-123", "--region", "us-west-2", "--json"
    )
    assert (
        process.returncode == ExitCode.USAGE
    )  # the JSON error could not be written; the exit code and stderr say it
    assert process.stderr.decode().startswith("error: 'cr-123' is not a capacity reservation id")
    assert b"Traceback" not in process.stderr and b"Exception ignored" not in process.stderr


def test_help_into_a_closed_stdout_ends_quietly(run_with):
    # argparse itself ignores the error; the flush after it finds the pipe closed and ends as a closed stdout does, the
    # way the real process above ends (test_a_closed_stdout_in_a_real_process_leaves_no_traceback)
    result = run_with("capacity-blocks", "purchase", "--help", stdout=ClosedPipe())
    assert result.stderr == "" and result.code == ExitCode.STDOUT_CLOSED


def test_a_purchase_is_reported_on_stderr_when_stdout_is_closed(aws, run_with):
    expect_search(aws, [[offering("cb-0000000000000000a", "85000.50")]])
    aws.stub("ec2").add_response("purchase_capacity_block", {"CapacityReservation": reservation()})
    result = run_with(*PURCHASE, "--yes", stdout=ClosedPipe())
    assert result.code == ExitCode.STDOUT_CLOSED
    assert (
        f"Reservation {RESERVATION_ID} is scheduled." in result.stderr
        and "Traceback" not in result.stderr
    )


def test_an_unexpected_exception_is_an_internal_error_without_traceback(
    run, monkeypatch, fresh_parser
):
    def broken(self):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(reservation_commands, "show", broken)
    result = run("capacity-blocks", "show", RESERVATION_ID, "--region", "us-west-2")
    assert result.code == ExitCode.INTERNAL == 70
    assert result.stderr == (
        "error: internal error: ZeroDivisionError: division by zero\n"
        "  fix: re-run with LLMOPS_DEBUG=1 for the traceback and report it\n"
    )


def test_llmops_debug_shows_the_traceback(run_with, monkeypatch, fresh_parser):
    def broken(self):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(reservation_commands, "show", broken)
    result = run_with(
        "capacity-blocks",
        "show",
        RESERVATION_ID,
        "--region",
        "us-west-2",
        environ={"LLMOPS_DEBUG": "1"},
    )
    assert result.code == ExitCode.INTERNAL
    assert (
        "Traceback (most recent call last)" in result.stderr
        and "error: internal error: ZeroDivisionError" in result.stderr
    )


def test_ctrl_c(run, monkeypatch, fresh_parser):
    def interrupted(self):
        raise KeyboardInterrupt

    monkeypatch.setattr(reservation_commands, "show", interrupted)
    result = run("capacity-blocks", "show", RESERVATION_ID, "--region", "us-west-2")
    assert result.code == ExitCode.INTERRUPTED == 130 and result.stderr == "interrupted\n"


@pytest.mark.parametrize(
    "text, expected",
    [
        (
            "pass -c env=NAME with one of: example, prod; or add config/x.yaml",
            "pass --env NAME with one of: example, prod; or add config/x.yaml",
        ),
        ("-c env: there is no file config/x.yaml", "--env: there is no file config/x.yaml"),
        (
            "-c env=prod: env: there is no file config/prod.yaml",
            "--env prod: env: there is no file config/prod.yaml",
        ),
        ("then npx cdk deploy -c env=NAME --all", "then npx cdk deploy -c env=NAME --all"),
    ],
)
def test_loader_messages_are_put_in_the_cli_words(text, expected):
    assert cli_words(text) == expected


# --- --write-config: checked before buying; a purchase is always reported ---------------------------------------------


def purchase(run, *extra: str) -> Result:
    return run(*PURCHASE, "--yes", *extra)


@pytest.mark.parametrize(
    "target, change, problem, searched",
    [
        (
            "example-prod",
            lambda text: text.replace("  - us-west-2a\n", "  - &zone us-west-2a\n"),
            "anchor",
            False,
        ),
        ("example-prod", lambda text: text + "---\n{}\n", "document", False),
        (
            "example-prod",
            lambda text: text.replace("platform-team", "platform-\udcff-team"),
            "UTF-8",
            False,
        ),
        ("example-hyperpod", lambda text: text, "platform: hyperpod", False),
        # known only once the offering is: it holds 1 instance, the file asks for 2
        (
            "example-prod",
            lambda text: text.replace("  instance_count: 1\n", "  instance_count: 2\n", 1),
            "1 x p6-b300.48xlarge",
            True,
        ),
    ],
)
def test_an_unusable_write_config_target_is_refused_before_the_purchase(
    aws, run, config_dir, target, change, problem, searched
):
    path = config_dir / f"{target}.yaml"
    path.write_bytes(change(path.read_text()).encode("utf-8", "surrogateescape"))
    before = path.read_bytes()
    calls = no_purchase_attempted(aws)
    if searched:
        expect_search(aws, [[offering("cb-0000000000000000a", "85000.50")]])
    result = purchase(run, "--write-config", target)
    assert_refused(result)
    assert (
        result.stderr.startswith("error: nothing bought: --write-config")
        and problem in result.stderr
    )
    assert calls == [] and result.stdout == ""
    assert path.read_bytes() == before


def test_a_write_config_target_that_would_not_validate_is_refused_before_the_purchase(
    aws, run, config_dir
):
    calls = no_purchase_attempted(aws)
    expect_search(
        aws, [[offering("cb-0000000000000000a", "85000.50", zone="us-west-2c")]]
    )  # not a zone of example
    result = purchase(run, "--write-config", "example")
    assert_refused(result)
    assert "capacity.availability_zone" in result.stderr and calls == []


def test_the_write_config_target_is_checked_without_yes_too(aws, run):
    calls = no_purchase_attempted(aws)
    expect_search(aws, [[offering("cb-0000000000000000a", "85000.50", zone="us-west-2c")]])
    result = run(*PURCHASE, "--write-config", "example")
    assert_refused(result)  # exit 2, not 3: the command could not succeed even with --yes
    assert calls == []


@pytest.mark.parametrize("target", ["prod", "../example", "Example"])
def test_a_write_config_target_that_is_not_there_is_refused_before_any_call(run, target):
    result = purchase(run, "--write-config", target)
    assert_refused(result)
    assert "--write-config" in result.stderr


def expect_purchase(aws, zone: str = "us-west-2a", on_call=None) -> None:
    expect_search(aws, [[offering("cb-0000000000000000a", "85000.50", zone=zone)]])
    aws.stub("ec2").add_response(
        "purchase_capacity_block", {"CapacityReservation": reservation(zone=zone)}
    )
    if on_call:

        def before_purchase(params, **_):
            on_call()  # returns None: the parameters stay as they are

        aws.on("ec2", "provide-client-params.ec2.PurchaseCapacityBlock", before_purchase)


def test_bought_but_not_written_prints_the_id_and_how_to_write_it(
    aws, run, config_dir, monkeypatch
):
    expect_purchase(aws)
    before = (config_dir / "example.yaml").read_bytes()

    def disk_full(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", disk_full)
    result = purchase(run, "--write-config", "example")
    assert_refused(result, ExitCode.BOUGHT_NOT_WRITTEN)
    assert f"Reservation {RESERVATION_ID} is scheduled." in result.stdout
    assert (
        f"reservation {RESERVATION_ID} WAS bought" in result.stderr
        and "No space left on device" in result.stderr
    )
    assert (
        f"fix: write them with: llmops capacity-blocks use {RESERVATION_ID} --env example"
        in result.stderr
    )
    assert (config_dir / "example.yaml").read_bytes() == before


def test_bought_but_not_written_as_json(aws, run, config_dir):
    path = config_dir / "example.yaml"
    # the file changes between the check and the write (someone else edits it): the write is refused, the id reported
    expect_purchase(aws, on_call=lambda: path.write_text(path.read_text() + "---\n{}\n"))
    result = purchase(run, "--write-config", "example", "--json")
    assert result.code == ExitCode.BOUGHT_NOT_WRITTEN == 12
    document = json.loads(result.stdout)  # one JSON document, with the reservation and the error
    assert document["reservation_id"] == RESERVATION_ID and document["bought"] is True
    assert document["config_written"] is False and document["kind"] == "BOUGHT_NOT_WRITTEN"
    assert "2 YAML documents" in document["error"]
    assert f"bought: reservation {RESERVATION_ID}" in result.stderr


def test_an_interrupt_while_writing_still_reports_the_purchase(aws, run, monkeypatch):
    expect_purchase(aws)

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    result = purchase(run, "--write-config", "example")
    assert_refused(result, ExitCode.BOUGHT_NOT_WRITTEN)
    assert RESERVATION_ID in result.stdout and "KeyboardInterrupt" in result.stderr


def test_bought_and_written(aws, run, config_dir):
    expect_purchase(aws, zone="us-west-2b")
    result = purchase(run, "--write-config", "example", "--json")
    assert result.code == ExitCode.OK, result.stderr
    assert result.json["reservation_id"] == RESERVATION_ID and result.json["config_file"].endswith(
        "example.yaml"
    )
    assert (
        f"capacity_reservation_id: {RESERVATION_ID}\n" in (config_dir / "example.yaml").read_text()
    )


def test_purchase_searches_the_window_it_was_given(aws, run):
    """The checks above do not change what is asked of EC2."""
    ec2 = aws.stub("ec2")
    ec2.add_response(
        "describe_capacity_block_offerings",
        {"CapacityBlockOfferings": []},
        {
            "InstanceType": "p6-b300.48xlarge",
            "InstanceCount": 1,
            "CapacityDurationHours": 48,
            "StartDateRange": NOW + timedelta(days=1),
            "EndDateRange": NOW + timedelta(days=10),
        },
    )
    result = run(
        "capacity-blocks",
        "offerings",
        "--env",
        "example",
        "--start-after",
        "2026-12-01T12:00",
        "--end-before",
        "2026-12-10T12:00",
    )
    assert result.code == ExitCode.OK, result.stderr


@pytest.mark.parametrize(
    "command",
    [("capacity-blocks", "use", RESERVATION_ID), ("training-plans", "use", "kimi-k3-december")],
)
def test_use_refuses_a_file_it_cannot_edit_before_any_call(run, config_dir, command):
    path = config_dir / "example.yaml"
    path.write_text(path.read_text().replace("tags:\n", "tags: !!map\n"))
    before = path.read_bytes()
    result = run(
        *command, "--env", "example"
    )  # nothing is queued in the Stubbers: a call would fail the test
    assert_refused(result)
    assert "tag" in result.stderr and path.read_bytes() == before


def test_ctrl_c_during_the_purchase_looks_it_up_and_never_says_it_is_safe_to_buy_again(aws, run):
    expect_search(aws, [[offering("cb-0000000000000000a", "85000.50")]])

    def interrupt(params, **_):
        raise KeyboardInterrupt

    aws.on("ec2", "provide-client-params.ec2.PurchaseCapacityBlock", interrupt)
    for _ in LOOKUP_DELAYS:  # no lookup finds it
        aws.stub("ec2").add_response("describe_capacity_reservations", {"CapacityReservations": []})
    result = purchase(run)
    assert_refused(result, ExitCode.PURCHASE_UNKNOWN)
    assert "NOT FOUND" in result.stderr and "safe to run" not in result.stderr
    assert "describe-capacity-reservations" in result.stderr
