"""Answers of an unexpected shape are never an internal error (exit 70) (issue 29): a vLLM log line with an absurd
figure or a time out of range reads as not logged yet, as docs/cli.md promises for Kubernetes objects; an offering
without its id, dates or a usable fee is one line naming the field, exit 21. Fake kubectl and stubbed AWS."""

from __future__ import annotations

import subprocess

import pytest

from ops_cli.errors import ExitCode
from tests.ops_cli import test_startup_phases as phases_data
from tests.ops_cli.test_capacity_blocks import offering, reservation
from tests.ops_cli.test_training_plans import plan_offering

ENGINE = "engine ready (profile, KV cache, warm-up)"
LOADED = "model loaded into the GPUs"


class Kubectl(phases_data.FakeKubectl):
    """test_startup_phases' kubectl, with this test's log lines and pods."""

    def __init__(self, pods, log):
        super().__init__(pods)
        self.log = log

    def __call__(self, command, **kwargs):
        if command[1] == "logs":
            return subprocess.CompletedProcess(command, 0, "\n".join(self.log) + "\n", "")
        return super().__call__(command, **kwargs)


def phases(run_with_kubectl, pods, log) -> dict:
    result = run_with_kubectl(Kubectl(pods, log), "phases", "--env", "example", "--json")
    assert result.code == ExitCode.OK, result.stderr
    return {p["phase"]: p for p in result.json["phases"]}


def test_a_log_line_with_an_absurd_figure_reads_as_not_logged_yet(run_with_kubectl):
    # given vLLM's engine line claiming 10^400 seconds, and its weight and model loading lines dated year 1
    log = [line.replace("took 800.00 s", "took " + "9" * 400 + ".0 s") for line in phases_data.LOG]
    log = [
        "0001-01-01T00:00:00.000000000Z " + line.partition(" ")[2] if "oading" in line else line
        for line in log
    ]
    # when the phases are read, then those phases are unknown (not there yet), never an internal error
    found = phases(run_with_kubectl, [phases_data.pod()], log)
    assert found[ENGINE]["seconds"] is None and found[LOADED]["seconds"] is None


def test_a_pod_condition_time_beyond_the_range_of_dates_reads_as_not_there_yet(run_with_kubectl):
    # given a pod whose Ready condition is at year 1 in UTC+14 (before datetime's earliest moment in UTC)
    pod = phases_data.pod()
    for condition in pod["status"]["conditions"]:
        condition["lastTransitionTime"] = "0001-01-01T00:00:00+14:00"
    # when the phases are read, then readiness is unknown, never an internal error
    assert (
        phases(run_with_kubectl, [pod], phases_data.LOG)["first healthy (readiness)"]["seconds"]
        is None
    )


@pytest.mark.parametrize(
    "change, field",
    [
        ({"CapacityBlockOfferingId": None}, "CapacityBlockOfferingId"),
        ({"StartDate": None}, "StartDate"),
        ({"UpfrontFee": "-91540.80"}, "UpfrontFee"),
        ({"UpfrontFee": "NaN"}, "UpfrontFee"),
    ],
)
def test_a_capacity_block_offering_without_an_id_dates_or_fee_is_refused_naming_it(
    aws, run, change, field
):
    # given EC2 listing an offering without its id or start, or with a negative or NaN fee
    item = {
        k: v
        for k, v in {**offering("cb-0000000000000000a", "1.00"), **change}.items()
        if v is not None
    }
    aws.stub("ec2").add_response(
        "describe_capacity_block_offerings", {"CapacityBlockOfferings": [item]}
    )
    # when the offerings are listed, then one line names the field, exit 21
    result = run("capacity-blocks", "offerings", "--env", "example")
    assert result.code == ExitCode.UNEXPECTED_ANSWER, result.stderr
    assert f"has no usable {field}" in result.stderr and "internal error" not in result.stderr


def test_a_training_plan_offering_without_an_id_is_refused_naming_it(aws, run):
    # given SageMaker listing an offering without its id (removed after the Stubber checked the answer against the
    # model: a parsed answer need not have what the model requires)
    aws.stub("sagemaker").add_response(
        "search_training_plan_offerings",
        {"TrainingPlanOfferings": [plan_offering("tpo-a", "70000.00")]},
    )

    def drop_id(parsed, **_):
        del parsed["TrainingPlanOfferings"][0]["TrainingPlanOfferingId"]

    aws.on("sagemaker", "after-call.sagemaker.SearchTrainingPlanOfferings", drop_id)
    # when the offerings are listed, then one line names the field, exit 21
    result = run("training-plans", "offerings", "--env", "example")
    assert result.code == ExitCode.UNEXPECTED_ANSWER, result.stderr
    assert "has no usable TrainingPlanOfferingId" in result.stderr


def test_use_of_a_reservation_ec2_answers_without_its_zone_writes_nothing(aws, run, config_dir):
    # given EC2's answer about the reservation without its availability zone
    answer = reservation()
    del answer["AvailabilityZone"]
    aws.stub("ec2").add_response(
        "describe_capacity_reservations", {"CapacityReservations": [answer]}
    )
    before = (config_dir / "example.yaml").read_text()
    # when it is written into the environment, then nothing is written: one line, exit 21
    result = run("capacity-blocks", "use", "cr-0fedcba9876543210", "--env", "example")
    assert result.code == ExitCode.UNEXPECTED_ANSWER, result.stderr
    assert "names no availability zone" in result.stderr
    assert (config_dir / "example.yaml").read_text() == before
